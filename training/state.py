"""A training run's whole state in one place, so a checkpoint can save it and ``--resume`` lose
nothing: the config, network, optimiser, envs with their seats, generator, opponents, counters.

The steps of the loop (``training/rollout.py``, ``training/advantages.py``,
``training/update.py``, ``training/resume.py``, ``training/progress.py``) are functions of this
state; ``training/ppo.py`` builds it and runs them in order.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    import torch
    from pettingzoo import AECEnv

    from .config import TrainConfig
    from .model import MaskedActorCritic
    from .opponents import OpponentPool
    from .seating import Seating


@dataclass
class Seat:
    """One environment's episode: which agents the learner plays and who plays the others."""

    learners: tuple[str, ...] = ()  # the agents whose decisions are trained on
    opponent: str = ""  # "self" (current policy), "pool<k>" (a snapshot), "bot:<name>"; "": none
    episode: int = 0
    last_row: dict[str, int] = field(default_factory=dict)  # agent -> row of its last decision
    episode_return: float = 0.0  # mean over the learner agents


@dataclass
class Timers:
    """Where the wall time goes: simulation, inference, learning."""

    simulation: float = 0.0
    inference: float = 0.0
    learning: float = 0.0
    evaluation: float = 0.0
    imitation: float = 0.0

    @contextmanager
    def timed(self, name: str) -> Iterator[None]:
        """Add the time the ``with`` block takes to the timer ``name``."""
        start = time.perf_counter()
        yield
        setattr(self, name, getattr(self, name) + time.perf_counter() - start)

    def split(self) -> str:
        """``sim N% / infer N% / learn N%`` of the time spent in those three."""
        total = self.simulation + self.inference + self.learning or 1.0
        return (
            f"sim {100 * self.simulation / total:.0f}% / infer {100 * self.inference / total:.0f}%"
            f" / learn {100 * self.learning / total:.0f}%"
        )


@dataclass
class Trainer:
    """The whole training state, so a checkpoint can restore it and nothing is lost."""

    cfg: TrainConfig
    model: MaskedActorCritic
    optimizer: torch.optim.Optimizer
    envs: list[AECEnv]
    seats: list[Seat]
    np_rng: np.random.Generator
    seating: Seating
    opponents: OpponentPool
    global_step: int = 0  # learner decisions
    env_steps: int = 0  # decisions of every agent
    update: int = 0
    history: list[dict[str, Any]] = field(default_factory=list)
    wall_time: float = 0.0
    finished_returns: list[float] = field(default_factory=list)
    timers: Timers = field(default_factory=Timers)
