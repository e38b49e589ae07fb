"""Pieces shared by every ruleset: the seeded generator, the action codec pattern, errors."""
