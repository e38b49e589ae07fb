"""Scripted players for the reborn_env games, behind one interface, and a match runner.

Why one interface: any bot can sit in any seat of any front-end (the arena, a GUI, a training
loop that needs opponents) because all it is ever given is what a seat sees, the observation
vector and the action mask of the decision in progress, and all it gives back is an action.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from ..games.earth_reborn.bots import EarthRebornHeuristicBot
from ..games.haven.bots import HavenScriptedBot
from .arena import MatchResult, play_match

__all__ = [
    "Bot",
    "EarthRebornHeuristicBot",
    "HavenScriptedBot",
    "MatchResult",
    "RandomBot",
    "play_match",
]


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
