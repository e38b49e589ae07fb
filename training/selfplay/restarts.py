"""Restarts: some training games begin from a position met in an earlier training game.

Why: the decisions that settle a game can come late and rarely (Earth Reborn's Salemites must
still reach the last NORAD figure after the first terminal is hacked), so a game played from
the start meets them once at most. With ``restart_prob`` a slot's new game begins, instead of at
the start, from a position sampled from the games the trainer has played (one slot's position at
each step of the vector, kept in a reservoir of ``RESERVOIR`` positions, each seen position as
likely to stay as any other). Evaluation games always start at the beginning. The reservoir is
saved in a run's checkpoint (:meth:`RestartPool.state`), so a resumed run restarts from the
positions the uninterrupted run would have.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

RESERVOIR = 4096
"""Positions kept for restarts."""


class RestartPool:
    """A reservoir sample of positions of the vector's games, and restarts from it."""

    def __init__(self, probability: float, capacity: int = RESERVOIR) -> None:
        self.probability = probability
        self.capacity = capacity
        self.positions: list[dict[str, Any]] = []
        self.seen = 0

    def sample(self, venv: Any, rng: np.random.Generator) -> None:
        """Keep the position of one slot drawn at random (reservoir sampling, algorithm R)."""
        if not self.probability:
            return
        position = venv.get_state(int(rng.integers(venv.num_envs)))
        self.seen += 1
        if len(self.positions) < self.capacity:
            self.positions.append(position)
        else:
            k = int(rng.integers(self.seen))
            if k < self.capacity:
                self.positions[k] = position

    def state(self) -> bytes:
        """The reservoir and the count of positions seen, as JSON (one checkpoint field)."""
        return json.dumps({"seen": self.seen, "positions": self.positions},
                          separators=(",", ":")).encode()  # fmt: skip

    def restore(self, state: bytes) -> None:
        """Put back what :meth:`state` returned; ValueError if it is not that."""
        saved = json.loads(state)
        if not isinstance(saved, dict) or not isinstance(saved.get("positions"), list):
            raise ValueError("the restart reservoir is not a dict holding a list of positions")
        self.seen, self.positions = int(saved["seen"]), saved["positions"]

    def restart(self, venv: Any, i: int, rng: np.random.Generator) -> bool:
        """With ``probability``, put slot ``i`` at a kept position; whether it did."""
        if not self.positions or rng.random() >= self.probability:
            return False
        venv.set_state(i, self.positions[int(rng.integers(len(self.positions)))])
        return True
