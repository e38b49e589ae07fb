"""MMD's run: PPO's loop (``training.ppo.train``: the game vector, the league of opponents, the
warm start, checkpoints and resume) with MMD's update (:mod:`training.mmd.loss`) on each rollout.

Run: ``python -m training.mmd --config configs/earth_reborn_mmd.yaml [--resume | --overwrite]``.
Self-play against the current policy and its past selves is PPO's league with
``latest_opponent_prob`` and ``snapshot_every``; bots and exploiters join through
``bot_opponents``, as in a PPO run.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from reborn_env.policies.artifact import load_checkpoint, policy_network
from reborn_env.policies.network import MaskedActorCritic
from training.common.envs import env_sizes
from training.common.schema import settings_of
from training.mmd.config import UNIFORM, MMDConfig, load_mmd_config
from training.mmd.loss import MMDLoss, mmd_update
from training.ppo import train as ppo
from training.ppo.inputs import Batch, Update
from training.ppo.state import Trainer


def magnet_of(cfg: MMDConfig) -> MaskedActorCritic | None:
    """The magnet's network (frozen), or None for the uniform magnet; a policy file that is not
    of this env is a ``CheckpointError``."""
    if cfg.magnet == UNIFORM:
        return None
    obs_size, n_actions = env_sizes(cfg.env, **cfg.env_kwargs)
    payload = load_checkpoint(cfg.magnet, cfg.env, obs_size, n_actions)
    magnet = policy_network(payload, cfg.magnet)
    for parameter in magnet.parameters():
        parameter.requires_grad_(False)
    return magnet


def mmd_step(cfg: MMDConfig) -> Update:
    """MMD's update with the run's hyperparameters and magnet."""
    hyperparameters = settings_of(MMDLoss, cfg)
    magnet = magnet_of(cfg)

    def step(
        model: MaskedActorCritic,
        optimizer: torch.optim.Optimizer,
        batch: Batch,
        rng: np.random.Generator,
        update: int,
    ) -> dict[str, float]:
        return mmd_update(model, optimizer, batch, hyperparameters, rng, update, magnet)

    return step


def train(cfg: MMDConfig, **options: Any) -> Trainer:
    """An MMD run: :func:`training.ppo.train.train` with :func:`mmd_step` (``options`` as it
    takes them: ``resume``, ``log_dir``, ``stop_after``, ``overwrite``)."""
    return ppo.train(cfg, update=mmd_step(cfg), **options)


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; the exit status (2, with one ``error:`` line, on a user's mistake)."""
    return ppo.main(
        argv,
        prog="python -m training.mmd",
        description="Regularised self-play: magnetic mirror descent in PPO's loop",
        load=load_mmd_config,
        step=mmd_step,
    )
