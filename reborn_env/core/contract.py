"""The game contract: what every game offers, so one environment serves them all.

Why: the AEC environment (:mod:`.game_env`), the registry, the front-ends, the trainers and the
conformance tests see a game only through these two protocols, so none of them names a game and a
new game is one package that implements them and registers itself (:mod:`.registry`).

- :class:`Rules` is a game as configured (scenario and options): its agents, its action and
  observation sizes, how to start a match from a seed or from a saved position, and the readable
  names of its actions.
- :class:`Match` is one game in progress: who is to move, the legal actions, applying one, how it
  stands (running, terminated, truncated), the rewards, each player's observation and infos, its
  position, and its pictures.

Players are seat indices ``0 .. len(agents) - 1``; actions are integers ``0 .. n_actions - 1``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import numpy as np

RUNNING, TERMINATED, TRUNCATED = "running", "terminated", "truncated"
STATUSES = (RUNNING, TERMINATED, TRUNCATED)


class Match(Protocol):
    """One game in progress."""

    def to_move(self) -> int | None:
        """The seat to select now: the one that must decide while the game runs; once it is over
        the seat the game names (or None: the environment keeps its selection)."""
        ...

    def legal_actions(self) -> Sequence[int]:
        """The legal actions of the decision in progress, sorted; empty once the rules ended."""
        ...

    def apply(self, action: int) -> None:
        """Play ``action`` for the seat to move; IllegalActionError (naming the decision and the
        legal actions, nothing changed) if it is not legal."""
        ...

    def status(self) -> str:
        """:data:`RUNNING`, :data:`TERMINATED` (the rules ended it) or :data:`TRUNCATED`."""
        ...

    def final_rewards(self) -> Sequence[float]:
        """Per seat, the reward of the end (+1 / -1 / 0 ...); meaningful once not running."""
        ...

    def shaped_rewards(self) -> Sequence[float] | None:
        """Per seat, the shaping reward the last action earned, or None when shaping is off."""
        ...

    def observe(self, seat: int) -> np.ndarray:
        """What ``seat`` may see (float32, the observation space's shape); hides the others."""
        ...

    def infos(self, seat: int) -> Mapping[str, Any]:
        """What ``seat`` is told besides its observation since its last step (may be empty)."""
        ...

    def result(self) -> dict[str, Any]:
        """How a finished game ended, as JSON data for logs and protocols."""
        ...

    def describe(self) -> str:
        """The decision in progress and its legal actions by name, for error messages."""
        ...

    def to_position(self) -> dict[str, Any]:
        """The whole game as JSON data; :meth:`Rules.from_position` restores it exactly."""
        ...

    def render_ansi(self) -> str:
        """The public picture as text."""
        ...

    def render_rgb(self) -> np.ndarray:
        """The public picture as an RGB array (H, W, 3) of uint8."""
        ...


class Rules(Protocol):
    """A game as configured: sizes, names, and the ways a match starts."""

    name: str  # the environment's name, e.g. "earth_reborn_v0"
    agents: tuple[str, ...]  # seat order
    n_actions: int
    obs_size: int

    def new_match(self, seed: int, options: Mapping[str, Any]) -> Match:
        """A new match from ``seed``; ``options`` are ``reset``'s (a game may take its own)."""
        ...

    def from_position(self, position: Any, options: Mapping[str, Any] | None = None) -> Match:
        """The match ``position`` describes; PositionError naming the field if it is not one."""
        ...

    def action_name(self, action: int) -> str:
        """The readable name of an action integer."""
        ...

    def parse_action(self, name: str) -> int:
        """The action integer of a readable name; ValueError listing the forms if none."""
        ...
