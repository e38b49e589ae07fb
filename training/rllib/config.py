"""The configuration of an RLlib PPO run: one frozen dataclass read from YAML, checked on load.

Why: the same discipline as our trainer's (``training.ppo.config``): an unknown key (with the
closest one suggested), a missing ``total_steps``, a value of the wrong type or out of range, each
is a :class:`~training.ppo.config.ConfigError` naming the file and the key, before Ray starts. The
checks are ``training.ppo.config``'s own (``check_keys``, ``check_fields``); the env is built once
from ``env_kwargs`` so a keyword the env refuses is found here too.
"""

from __future__ import annotations

import math
import os
from dataclasses import InitVar, dataclass, field
from typing import Any

from reborn_env.core import registry
from training.common.envs import COOPERATIVE, MODES, env_mode, env_names, env_sizes
from training.ppo.config import (
    MAX_HIDDEN_LAYERS,
    MAX_HIDDEN_WIDTH,
    ConfigError,
    _hidden_sizes_fit,
    check_fields,
    check_keys,
    read_config_mapping,
)

MAX_BATCH = 1 << 18
MAX_RUNNERS = 256


@dataclass(frozen=True, kw_only=True)
class RllibConfig:
    """Everything that defines an RLlib PPO run (the YAML keys are these field names)."""

    env: str = field(default_factory=registry.default_name)
    """the environment's name, a registered game (``training.common.envs.env_names()``)"""
    env_kwargs: dict[str, Any] = field(default_factory=dict)
    """keyword arguments of the environment's constructor (e.g. ``max_steps``)"""
    mode: str = "auto"
    """"competitive" (self-play, snapshot opponents), "cooperative" (one shared team policy for
    every agent) or "auto" (the game's own, ``training.common.envs.env_mode``)"""
    seed: int = 1
    """seed of RLlib's generators and of the environments"""
    total_steps: int
    """decisions to sample (all agents' together); iterations = total_steps / train_batch_size"""
    train_batch_size: int = 2048
    """decisions per training iteration"""
    minibatch_size: int = 256
    """decisions per SGD minibatch"""
    num_epochs: int = 4
    """passes over each iteration's batch"""
    learning_rate: float = 2.5e-4
    """Adam's learning rate"""
    gamma: float = 0.99
    """discount factor"""
    gae_lambda: float = 0.95
    """lambda of generalized advantage estimation"""
    clip_coef: float = 0.2
    """PPO's surrogate clipping coefficient"""
    ent_coef: float = 0.01
    """coefficient of the entropy bonus"""
    vf_coef: float = 0.5
    """coefficient of the value loss"""
    max_grad_norm: float = 0.5
    """gradients are clipped to this global norm"""
    hidden_sizes: list[int] = field(default_factory=lambda: [256, 256])
    """widths of the MLP's hidden layers (``reborn_env.policies.network``; the converted
    policy's too)"""
    num_env_runners: int = 0
    """remote sampling processes (0: the driver samples itself)"""
    envs_per_runner: int = 1
    """games each sampler steps side by side"""
    num_cpus: int = 2
    """CPUs of the Ray instance a local run starts (ignored when joining a cluster)"""
    torch_threads: int = 1
    """threads torch may use in each process"""
    snapshot_every: int = 5
    """competitive mode: iterations between copying the learner into the frozen ``snapshot``"""
    snapshot_prob: float = 0.5
    """competitive mode: share of games in which one seat (drawn) is played by the snapshot"""
    checkpoint_dir: str = "checkpoints/rllib_run"
    """where the RLlib checkpoint (``rllib/``) and its converted policy (``policy.pt``) go"""
    source: InitVar[str] = "<dict>"

    def __post_init__(self, source: str) -> None:
        positive = (lambda v: v > 0), "must be an integer > 0"
        unit = (lambda v: math.isfinite(v) and 0 <= v <= 1), "must be a number in [0, 1]"
        rules = {
            "env": (lambda v: v in env_names(), lambda: f"must be one of {env_names()}"),
            "mode": (lambda v: v == "auto" or v in MODES, f"must be 'auto' or one of {MODES}"),
            "seed": ((lambda v: 0 <= v < 2**31), "must be an integer in 0..2**31-1"),
            "total_steps": positive,
            "train_batch_size": ((lambda v: 0 < v <= MAX_BATCH), f"must be in 1..{MAX_BATCH}"),
            "minibatch_size": positive,
            "num_epochs": positive,
            "learning_rate": ((lambda v: math.isfinite(v) and v > 0), "must be a number > 0"),
            "gamma": unit,
            "gae_lambda": unit,
            "clip_coef": ((lambda v: math.isfinite(v) and v > 0), "must be a number > 0"),
            "ent_coef": ((lambda v: math.isfinite(v) and v >= 0), "must be a number >= 0"),
            "vf_coef": ((lambda v: math.isfinite(v) and v >= 0), "must be a number >= 0"),
            "max_grad_norm": ((lambda v: math.isfinite(v) and v > 0), "must be a number > 0"),
            "hidden_sizes": (
                _hidden_sizes_fit,
                f"must be 1..{MAX_HIDDEN_LAYERS} widths of 1..{MAX_HIDDEN_WIDTH}",
            ),
            "num_env_runners": ((lambda v: 0 <= v <= MAX_RUNNERS), f"must be 0..{MAX_RUNNERS}"),
            "envs_per_runner": ((lambda v: 0 < v <= 1024), "must be 1..1024"),
            "num_cpus": ((lambda v: 0 < v <= 4096), "must be 1..4096"),
            "torch_threads": ((lambda v: 0 < v <= 256), "must be 1..256"),
            "snapshot_every": ((lambda v: v >= 0), "must be an integer >= 0 (0: never)"),
            "snapshot_prob": unit,
            "checkpoint_dir": (bool, "must be a folder name"),
        }
        check_fields(self, source, rules)
        if self.minibatch_size > self.train_batch_size:
            raise ConfigError(
                f"{source}: key 'minibatch_size': {self.minibatch_size} is more than "
                f"train_batch_size {self.train_batch_size}"
            )

    @property
    def resolved_mode(self) -> str:
        """``"competitive"`` or ``"cooperative"``."""
        return env_mode(self.env) if self.mode == "auto" else self.mode

    @property
    def cooperative(self) -> bool:
        return self.resolved_mode == COOPERATIVE

    @property
    def iterations(self) -> int:
        """Training iterations in the run: ``ceil(total_steps / train_batch_size)``."""
        return -(-self.total_steps // self.train_batch_size)

    def to_dict(self) -> dict[str, Any]:
        """The config as plain data (for the converted checkpoint)."""
        import dataclasses

        return dataclasses.asdict(self)

    def check_env(self) -> tuple[int, int]:
        """Build the env once from ``env_kwargs``: its ``(obs_size, n_actions)``."""
        try:
            return env_sizes(self.env, **self.env_kwargs)
        except (ValueError, TypeError) as exc:
            raise ConfigError(
                f"{self._source}: key 'env_kwargs': env {self.env!r} refuses "
                f"{self.env_kwargs!r}: {exc}"
            ) from exc

    @classmethod
    def from_dict(cls, d: dict[Any, Any], source: str = "<dict>") -> RllibConfig:
        """Check ``d`` (keys, types, values) and build the config."""
        check_keys(cls, d, source, "decisions to sample")
        return cls(**d, source=source)


def load_rllib_config(path: str | os.PathLike[str]) -> RllibConfig:
    """Read and check the YAML config at ``path`` and build its env once."""
    cfg = RllibConfig.from_dict(read_config_mapping(path), source=str(path))
    cfg.check_env()
    return cfg
