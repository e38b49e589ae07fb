"""The options of a haven game (16.8): plain data the rules read, positions carry and the
environment takes as keyword arguments."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class HavenConfig:
    """The options of 16.8."""

    allow_damage_negation: bool = True
    auto_forced: bool = True
    hide_other_piles: bool = False
    reward_shaping: bool = False
    max_rounds: int = 30
    reveal_second_card_at_turn: bool = False

    def __post_init__(self) -> None:
        for name in (
            "allow_damage_negation",
            "auto_forced",
            "hide_other_piles",
            "reward_shaping",
            "reveal_second_card_at_turn",
        ):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be True or False, got {getattr(self, name)!r}")
        if isinstance(self.max_rounds, bool) or not isinstance(self.max_rounds, int):
            raise ValueError(f"max_rounds must be an integer >= 1, got {self.max_rounds!r}")
        if self.max_rounds < 1:
            raise ValueError(f"max_rounds must be an integer >= 1, got {self.max_rounds!r}")

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HavenConfig:
        """A config from its keys; unknown keys are refused with the list of known ones."""
        known = set(cls.__dataclass_fields__)
        unknown = sorted(map(str, set(data) - known))
        if unknown:
            raise ValueError(f"unknown config keys {unknown}; known keys: {sorted(known)}")
        return cls(**data)


def config_dict(config: HavenConfig) -> dict[str, Any]:
    """A config as plain data (positions carry it)."""
    return asdict(config)
