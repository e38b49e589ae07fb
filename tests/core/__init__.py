"""Tests no one game owns: golden games, docs, install, observation views, rule coverage."""
