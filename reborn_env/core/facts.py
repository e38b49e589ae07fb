"""What a game is, as OpenSpiel's ``GameType`` and ``GameInfo`` declare a game: the one typed
record of a game's facts that its :class:`~.registry.GameSpec` carries.

Why: the bridges to other libraries (``reborn_env.interop``), the trainers and the test suites
describe a game from these facts, never from a table naming each game, and read each fact from
here alone. A record that no game could have (a least reward above the most, an unknown kind) is
refused when it is made, so a game with one never registers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum


class Kind(Enum):
    """How the seats' final rewards relate (OpenSpiel's ``GameType.Utility``)."""

    ZERO_SUM = "zero_sum"  # opponents: the seats' final rewards sum to 0
    IDENTICAL = "identical"  # one team (cooperative): every seat gets the same reward


class Chance(Enum):
    """Whether the rules draw at random (OpenSpiel's ``GameType.ChanceMode``)."""

    DETERMINISTIC = "deterministic"  # nothing is drawn: the seats' actions decide everything
    # deals, shuffles or dice drawn inside the rules from the match's seeded generator
    SAMPLED_STOCHASTIC = "sampled_stochastic"


class Information(Enum):
    """What a seat sees (OpenSpiel's ``GameType.Information``)."""

    PERFECT = "perfect"  # every seat sees the whole game
    IMPERFECT = "imperfect"  # a seat may not see part of it (a hand, a secret pick)


@dataclass(frozen=True)
class GameFacts:
    """The facts of one game: its kind, chance, information, reward range and length bound."""

    kind: Kind = Kind.ZERO_SUM
    chance: Chance = Chance.SAMPLED_STOCHASTIC
    information: Information = Information.IMPERFECT
    # the least and the most final reward of one seat, truncation and draws included
    min_utility: float = -1.0
    max_utility: float = 1.0
    # the most decisions a game of the default configuration (its default scenario and options)
    # takes from its start (0: not known); the test suites' random play is held to it
    max_game_length: int = 0
    # "module:function(rules) -> int": the most decisions a game of these rules (its scenario
    # and options) takes from its start, the step limit of its truncation included; "" when
    # ``max_game_length`` holds for every configuration
    max_game_length_of: str = ""

    def __post_init__(self) -> None:
        for name, allowed in (("kind", Kind), ("chance", Chance), ("information", Information)):
            value = getattr(self, name)
            if not isinstance(value, allowed):
                choices = ", ".join(f"{allowed.__name__}.{member.name}" for member in allowed)
                raise ValueError(f"GameFacts.{name}: {value!r} is not one of {choices}")
        low, high = self.min_utility, self.max_utility
        for name, value in (("min_utility", low), ("max_utility", high)):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(f"GameFacts.{name}: {value!r} is not a number")
            if not math.isfinite(value):
                raise ValueError(f"GameFacts.{name}: {value!r} is not a finite number")
        if low > high:
            raise ValueError(
                f"GameFacts: min_utility {low} is above max_utility {high}; the least final "
                "reward of a seat can be at most the most"
            )
        if self.kind is Kind.ZERO_SUM and not low <= 0 <= high:
            raise ValueError(
                f"GameFacts: a zero-sum game's final rewards sum to 0, so its utility range "
                f"[{low}, {high}] must hold 0"
            )
        length = self.max_game_length
        if isinstance(length, bool) or not isinstance(length, int) or length < 0:
            raise ValueError(
                f"GameFacts.max_game_length: {length!r} is not a count of decisions "
                "(an int >= 0; 0: not known)"
            )
        target = self.max_game_length_of
        module, _, function = target.partition(":") if isinstance(target, str) else ("", "", "")
        if target != "" and not (module and function):
            raise ValueError(
                f'GameFacts.max_game_length_of: {target!r} is not "module:function" (or "" for '
                "none)"
            )

    @property
    def cooperative(self) -> bool:
        """Whether the seats are one team sharing every reward (no opponent)."""
        return self.kind is Kind.IDENTICAL
