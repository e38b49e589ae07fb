"""Errors every ruleset raises, so callers catch one type per kind of bad input."""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action that is not legal for the decision in progress; the state is left unchanged."""


class PositionError(ValueError):
    """A position (saved game state) that is malformed or breaks the rules' invariants."""
