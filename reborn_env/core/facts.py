"""What a game is, as OpenSpiel's ``GameType`` and ``GameInfo`` declare a game: a typed record
that a game's :class:`~.registry.GameSpec` carries.

Why: bridges to other libraries (``reborn_env.interop``) describe a game from facts, not from a
table naming each game; what the registry already holds (seats, cooperation, ``step_bound``) is
not repeated here, only what it lacked.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GameFacts:
    """The facts of one game that the registry's other fields do not give."""

    # whether the rules draw from the match's seeded generator (a deal, a shuffle, dice)
    chance: bool = True
    # the least and the most final reward of one seat, truncation and draws included
    min_utility: float = -1.0
    max_utility: float = 1.0
    # "module:function(rules) -> int": the most decisions a game of these rules (its scenario
    # and options) takes from its start, the step limit of its truncation included; "" when the
    # spec's ``step_bound`` holds for every configuration
    step_bound_of: str = ""
