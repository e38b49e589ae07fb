"""A training run's whole state in one place, so a checkpoint can save it and ``--resume`` lose
nothing: the config, network, optimiser, the vector of games and its slots' seats, generator,
opponents, counters.

The steps of the loop (``training/ppo/rollout.py``, ``training/ppo/advantages.py``,
``training/ppo/loss.py``, ``training/ppo/resume.py``, ``training/ppo/progress.py``) are functions
of this state; ``training/ppo/train.py`` builds it and runs them in order.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import torch

    from reborn_env.policies.network import MaskedActorCritic
    from training.ppo.config import TrainConfig
    from training.selfplay.opponents import OpponentPool
    from training.selfplay.restarts import RestartPool
    from training.selfplay.seating import Seating


RECENT_RETURNS = 200
"""Finished episodes whose mean return is charted (``charts/selfplay_return``); a checkpoint keeps
their returns, so a resumed run charts what the uninterrupted run would."""


@dataclass
class Slots:
    """Every vector slot's episode: which seats the learner plays and who plays the others."""

    learner: np.ndarray  # bool [N, agents]: the seats whose decisions are trained on
    opponent: list[str]  # per slot: "self", "pool<k>" (a snapshot), "bot:<name>"; "": none
    last_row: np.ndarray  # int64 [N, agents]: the rollout row of each seat's last decision, -1
    episode_return: np.ndarray  # float64 [N]: mean over the learner's seats

    @classmethod
    def empty(cls, n: int, agents: int) -> Slots:
        """``n`` slots of a game of ``agents`` seats, nobody seated yet."""
        return cls(
            learner=np.zeros((n, agents), dtype=np.bool_),
            opponent=[""] * n,
            last_row=np.full((n, agents), -1, dtype=np.int64),
            episode_return=np.zeros(n),
        )


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
    venv: Any  # the game's vector (GameSpec.make_vector_env): compiled, or AECVectorEnv
    slots: Slots
    np_rng: np.random.Generator
    seating: Seating
    opponents: OpponentPool
    restarts: RestartPool
    global_step: int = 0  # learner decisions
    env_steps: int = 0  # decisions of every agent
    update: int = 0
    history: list[dict[str, Any]] = field(default_factory=list)
    wall_time: float = 0.0
    finished_returns: list[float] = field(default_factory=list)
    timers: Timers = field(default_factory=Timers)
    driver: Any = None  # plays the vector (training/ppo/rollout.py), made at the first rollout
    actor: MaskedActorCritic | None = None
    """with ``overlap``, the network the rollouts play: a copy of ``model`` the loop refreshes
    after each update, so a rollout collected during an update plays the weights it began with"""

    @property
    def playing(self) -> MaskedActorCritic:
        """The network that plays the rollouts: :attr:`actor`, or ``model`` itself."""
        return self.actor if self.actor is not None else self.model
