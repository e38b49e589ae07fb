"""The configuration of an RLlib PPO run: one frozen dataclass read from YAML, checked on load.

The same discipline as every trainer's (:mod:`training.common.schema`): each key declared once
(type, default, what it may be, docstring); an unknown key (with the closest one suggested), a
missing ``total_steps``, a value of the wrong type or out of range, each is a
:class:`~training.common.schema.ConfigError` naming the file and the key, before Ray starts; the
env is built once from ``env_kwargs`` so a keyword the env refuses is found here too.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from reborn_env.core import registry
from training.common.device import DEVICES
from training.common.envs import COOPERATIVE, MODES, env_mode
from training.common.rules import (
    ENV,
    LAYER_WIDTHS,
    NON_NEGATIVE_NUMBER,
    NUM_ENVS,
    POSITIVE,
    POSITIVE_NUMBER,
    TORCH_THREADS,
    choice,
    integer,
    non_empty,
    number,
)
from training.common.schema import ConfigError, Schema, setting

MAX_BATCH = 1 << 18
MAX_RUNNERS = 256
MAX_CPUS = 4096
MAX_SEED = 2**31 - 1
"""Largest seed an RLlib run takes (a signed 32-bit integer)."""
UNIT_INTERVAL = number(lambda v: 0.0 <= v <= 1.0, "must be a number in [0, 1]")


@dataclass(frozen=True, kw_only=True)
class RllibConfig(Schema):
    """Everything that defines an RLlib PPO run (the YAML keys are these field names)."""

    env: str = setting(factory=registry.default_name, rule=ENV)
    """the environment's name, a registered game (``training.common.envs.env_names()``)"""
    env_kwargs: dict[str, Any] = setting({})
    """keyword arguments of the environment's constructor (e.g. ``max_steps``)"""
    mode: str = setting("auto", choice(["auto", *MODES]))
    """"competitive" (self-play, snapshot opponents), "cooperative" (one shared team policy for
    every agent) or "auto" (the game's own, ``training.common.envs.env_mode``)"""
    seed: int = setting(1, integer(0, MAX_SEED, "must be an integer in 0..2**31-1"))
    """seed of RLlib's generators and of the environments"""
    total_steps: int = setting(rule=POSITIVE, required="decisions to sample")
    """decisions to sample (all agents' together); iterations = total_steps / train_batch_size"""
    train_batch_size: int = setting(2048, integer(1, MAX_BATCH))
    """decisions per training iteration"""
    minibatch_size: int = setting(256, POSITIVE)
    """decisions per SGD minibatch"""
    num_epochs: int = setting(4, POSITIVE)
    """passes over each iteration's batch"""
    learning_rate: float = setting(2.5e-4, POSITIVE_NUMBER)
    """Adam's learning rate"""
    gamma: float = setting(0.99, UNIT_INTERVAL)
    """discount factor"""
    gae_lambda: float = setting(0.95, UNIT_INTERVAL)
    """lambda of generalized advantage estimation"""
    clip_coef: float = setting(0.2, POSITIVE_NUMBER)
    """PPO's surrogate clipping coefficient"""
    ent_coef: float = setting(0.01, NON_NEGATIVE_NUMBER)
    """coefficient of the entropy bonus"""
    vf_coef: float = setting(0.5, NON_NEGATIVE_NUMBER)
    """coefficient of the value loss"""
    max_grad_norm: float = setting(0.5, POSITIVE_NUMBER)
    """gradients are clipped to this global norm"""
    hidden_sizes: list[int] = setting([256, 256], LAYER_WIDTHS)
    """widths of the MLP's hidden layers (``reborn_env.policies.network``; the converted policy's
    too)"""
    num_env_runners: int = setting(0, integer(0, MAX_RUNNERS))
    """remote sampling processes (0: the driver samples itself)"""
    envs_per_runner: int = setting(1, NUM_ENVS)
    """games each sampler steps side by side"""
    num_cpus: int = setting(2, integer(1, MAX_CPUS))
    """CPUs of the Ray instance a local run starts (ignored when joining a cluster)"""
    torch_threads: int = setting(1, TORCH_THREADS)
    """threads torch may use in each process"""
    device: str = setting("auto", choice(DEVICES))
    """where the learner's update computes (``training/common/device.py``): "cuda" (one GPU for
    RLlib's local learner), "cpu", or "auto" (the GPU where torch sees one); sampling stays on
    the CPUs"""
    snapshot_every: int = setting(5, integer(0, allowed="must be an integer >= 0 (0: never)"))
    """competitive mode: iterations between copying the learner into the frozen ``snapshot``"""
    snapshot_prob: float = setting(0.5, UNIT_INTERVAL)
    """competitive mode: share of games in which one seat (drawn) is played by the snapshot"""
    checkpoint_dir: str = setting("checkpoints/rllib_run", non_empty("folder name"))
    """where the RLlib checkpoint (``rllib/``) and its converted policy (``policy.pt``) go"""

    def check_together(self) -> None:
        """Refuse a minibatch larger than the batch it is drawn from."""
        if self.minibatch_size > self.train_batch_size:
            raise ConfigError(
                f"{self.origin}: key 'minibatch_size': {self.minibatch_size} is more than "
                f"train_batch_size {self.train_batch_size}"
            )

    @property
    def resolved_mode(self) -> str:
        """``"competitive"`` or ``"cooperative"``: ``mode``, or the env's own when ``"auto"``."""
        return env_mode(self.env) if self.mode == "auto" else self.mode

    @property
    def cooperative(self) -> bool:
        """Whether one shared team policy plays every agent."""
        return self.resolved_mode == COOPERATIVE

    @property
    def iterations(self) -> int:
        """Training iterations in the run: ``ceil(total_steps / train_batch_size)``."""
        return -(-self.total_steps // self.train_batch_size)


def load_rllib_config(path: str | os.PathLike[str]) -> RllibConfig:
    """Read and check the YAML config at ``path`` and build its env once."""
    return RllibConfig.load(path)
