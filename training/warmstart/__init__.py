"""Warm starts: behaviour cloning and DAgger from a scripted teacher, recorded in the game
vector."""
