"""The bot interface and the one bot every game has: uniform random legal play.

Why a module of its own: the match runner (:mod:`.arena`) and the package that gathers the bots
both need the interface, so it lives below them both (no import cycle).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Bot(Protocol):
    """A player for one seat: sees (observation, action_mask), answers with a legal action."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """The action to play; ``action_mask[action]`` must be 1."""
        ...

    def reset(self) -> None:
        """Forget the previous game; called before each new game."""
        ...


class RandomBot:
    """Uniform among the legal actions, from its own generator (reproducible with ``seed``)."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return int(self.rng.choice(np.flatnonzero(action_mask)))

    def reset(self) -> None:
        """Nothing to forget: the generator runs on, so successive games differ."""
