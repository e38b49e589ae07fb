"""GameVector: the one interface of a vector of games, whatever steps them.

Why: the trainers, the bench and the bots drive many games at once through this interface only,
so a game's compiled vector (``GameSpec.vector_env``, e.g. a C core or its pure-Python reference
backend) and :class:`~.aec_vector.AECVectorEnv` (any game's AEC envs in a loop) are
interchangeable, and a consumer never asks which one it got. ``GameSpec.make_vector_env`` builds
one as a :data:`MakeVector` does.

The contract (``AECVectorEnv``'s docstring tells it in full): slot ``i`` plays its own stream of
games from ``seed``; ``reset`` starts every slot and ``step`` plays one action per slot (``WAIT``
sits a slot out); a game that ends is replaced in the same step by the slot's next one, whose
first decision ``obs``, ``mask`` and ``agent`` then show, while ``rewards``, ``terminated`` and
``truncated`` are the ended game's last step's. The arrays are the vector's own, written in place.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class GameVector(Protocol):
    """``num_envs`` games of one configured game, stepped as one."""

    WAIT: int
    """The action that leaves a slot as it is for one step."""
    num_envs: int
    num_threads: int
    """How many threads a step may use (1 for a vector that steps in one Python loop)."""
    agents: Sequence[str]
    """The seats, in order: ``agent`` and the columns of ``rewards`` index them."""
    n_actions: int
    obs_size: int
    rules: Any
    """The configured game (``contract.Rules``), for public views of the slots' positions."""
    obs: np.ndarray  # float32 [num_envs, obs_size]: the mover's observation
    mask: np.ndarray  # int8 [num_envs, n_actions]: the mover's legal actions
    agent: np.ndarray  # int8 [num_envs]: the seat to move
    rewards: np.ndarray  # float32 [num_envs, len(agents)]: the last step's, per seat
    terminated: np.ndarray  # bool [num_envs]: the slot's game ended in the last step
    truncated: np.ndarray  # bool [num_envs]: the slot's game was cut in the last step

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, ...]:
        """A new game in every slot (``seed`` starts the generators over): obs, mask, agent."""
        ...

    def step(self, actions: Any) -> tuple[np.ndarray, ...]:
        """One action (or WAIT) per slot, checked first (IllegalActionError, nothing changed):
        obs, mask, agent, rewards, terminated, truncated."""
        ...

    def observe(self, i: int, seat: int) -> np.ndarray:
        """Slot ``i``'s game as ``seat`` sees it now (a new float32 array)."""
        ...

    def get_state(self, i: int) -> dict[str, Any]:
        """Slot ``i``'s position (the env's position format)."""
        ...

    def set_state(self, i: int, position: Any) -> None:
        """Slot ``i`` := ``position``, validated (nothing changed if refused)."""
        ...

    def seed_state(self, i: int) -> int:
        """Slot ``i``'s seed generator state."""
        ...

    def set_seed_state(self, i: int, state: int) -> None:
        """Slot ``i``'s seed generator state := ``state``."""
        ...

    def close(self) -> None:
        """Release what the games hold."""
        ...


class MakeVector(Protocol):
    """How a game builds its vector: ``num_envs`` slots from ``seed``, stepping with
    ``num_threads`` where it can, ``options`` as the game's ``env()`` takes them."""

    def __call__(
        self, num_envs: int, seed: int = 0, num_threads: int = 1, **options: Any
    ) -> GameVector: ...
