"""The options of a haven game (16.8): plain data the rules read, positions carry and the
environment takes as keyword arguments.

:class:`HavenConfig` is the one place the options, their defaults and their checks are written:
the environment's keyword arguments, a match's rules and a position's ``config`` all build one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

from ....core.fields import show


class UnknownOptionError(TypeError, ValueError):
    """A key that is not a 16.8 option: a TypeError, as for any unexpected keyword argument, and
    a ValueError, as for any other bad value in a config's data."""


@dataclass(frozen=True)
class HavenConfig:
    """The options of 16.8, with their defaults; every value is checked on construction."""

    allow_damage_negation: bool = True
    auto_forced: bool = True
    hide_other_piles: bool = False
    reward_shaping: bool = False
    max_rounds: int = 30  # HV-END-4
    reveal_second_card_at_turn: bool = False

    def __post_init__(self) -> None:
        for key in option_names():
            problem = option_problem(key, getattr(self, key))
            if problem is not None:
                raise ValueError(f"{key} {problem}")

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HavenConfig:
        """A config from its keys, absent ones at their defaults; an unknown key is refused with
        the list of known ones (:class:`UnknownOptionError`), a bad value naming the key."""
        known = option_names()
        unknown = sorted(map(str, set(data) - set(known)))
        if unknown:
            raise UnknownOptionError(f"unknown config keys {unknown}; known keys: {sorted(known)}")
        return cls(**data)


def option_names() -> tuple[str, ...]:
    """The 16.8 option keys, in the order :class:`HavenConfig` declares them."""
    return tuple(f.name for f in fields(HavenConfig))


def option_problem(key: str, value: Any) -> str | None:
    """What is wrong with ``value`` for the option ``key`` (None when nothing is): max_rounds is
    an integer >= 1 (HV-END-4), every other option True or False (16.8)."""
    if key == "max_rounds":
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            return f"must be an integer >= 1 (HV-END-4), got {show(value)}"
    elif not isinstance(value, bool):
        return f"must be True or False (16.8), got {show(value)}"
    return None


def config_dict(config: HavenConfig) -> dict[str, Any]:
    """A config as plain data (positions carry it)."""
    return asdict(config)
