"""Bridges that other libraries import: each registered game as another library's game."""
