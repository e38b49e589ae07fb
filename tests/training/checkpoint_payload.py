"""A small complete checkpoint payload, shared by the checkpoint tests."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import torch

from reborn_env.policies import artifact as ckpt
from reborn_env.policies.network import build_model
from training.common.envs import env_sizes
from training.ppo.config import TrainConfig

ENV = "earth_reborn_v0"


def tiny_payload(hidden_sizes: tuple[int, ...] = (8,), env: str = ENV) -> dict[str, Any]:
    """A complete, seeded, randomly initialised run payload for ``env`` (model, optimizer, a pool
    snapshot with bytes of its own, generators, history), with short games (max_steps 200)."""
    obs_size, n_actions = env_sizes(ENV)
    cfg = TrainConfig(total_steps=1000, hidden_sizes=list(hidden_sizes), env_kwargs={})
    torch.manual_seed(0)
    model = build_model(obs_size, n_actions, cfg.hidden_sizes)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.learning_rate)
    return {
        "format": ckpt.FORMAT,
        "version": ckpt.VERSION,
        "env": {"name": env, "version": 0, "obs_size": obs_size, "n_actions": n_actions},
        "config": {**cfg.to_dict(), "env_kwargs": {"max_steps": 200}},
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict(),
        "global_step": 0,
        "update": 0,
        "pool": [{k: v * 0.5 for k, v in model.state_dict().items()}],
        "rng": {
            "torch": torch.get_rng_state(),
            "numpy": np.random.default_rng(7).bit_generator.state,
            "python": random.getstate(),
        },
        "history": [{"step": 0, "update": 0, "opponent": "random", "win_rate": 0.5}],
        "wall_time": 0.0,
    }
