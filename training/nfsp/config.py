"""NFSP's configuration: one frozen dataclass read from YAML, checked by the shared schema.

The keys are the fields of :class:`NFSPConfig`, each declared once (type, default, what it may be,
docstring); reading and checking are :mod:`training.common.schema`'s, as for every trainer: a file
that is not UTF-8 YAML, an unknown key (with the closest known one suggested), a wrong type, a
number out of range or not finite, and ``env_kwargs`` the env refuses each raise
:class:`~training.common.schema.ConfigError` naming the file, the key and what is allowed; the keys
that must agree with each other (and an evaluation opponent that is neither a bot nor a file) are
checked here.

The names the evaluation reads (``env``, ``env_kwargs``, ``seed``, ``num_envs``, ``eval_games``,
``eval_greedy``, ``eval_opponents``) and those a policy file is read by (``hidden_sizes``,
``env_kwargs``) are PPO's, so ``training/selfplay/seating.py`` evaluates an NFSP run as it does a
PPO run and ``load_bot`` plays its checkpoint.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from reborn_env.core import registry
from training.common.device import DEVICES
from training.common.envs import COMPETITIVE, env_mode
from training.common.rules import (
    COUNT,
    ENV,
    LAYER_WIDTHS,
    NON_NEGATIVE_NUMBER,
    NUM_ENVS,
    POSITIVE,
    POSITIVE_NUMBER,
    PROBABILITY,
    SEED,
    TORCH_THREADS,
    UNIT_HALF_OPEN,
    VECTOR_THREADS,
    choice,
    integer,
    non_empty,
)
from training.common.schema import ConfigError, Schema, setting
from training.ppo.config import BUILTIN_OPPONENTS

MAX_BUFFER_ROWS = 1 << 21
"""Most rows a buffer holds (2 M: about 17 GB of observations of the largest bundled game's 2,132
floats, so a typo cannot ask for terabytes; the defaults take at most 200,000 rows)."""
MAX_BATCH = 1 << 16


@dataclass(frozen=True, kw_only=True)
class NFSPConfig(Schema):
    """Everything that defines an NFSP self-play run (the YAML keys are these field names)."""

    env: str = setting(factory=registry.default_name, rule=ENV)
    """the environment's name, a registered two-seat competitive game"""
    env_kwargs: dict[str, Any] = setting({})
    """keyword arguments passed to the environment's constructor (e.g. ``mp_shaping``)"""
    seed: int = setting(1, SEED)
    """seed of the run's generators (torch, numpy, environments), in 0..2**63-1"""
    total_steps: int = setting(rule=POSITIVE, required="decisions to play")
    """decisions to play, of both seats (every seat is a learning NFSP agent; required)"""
    max_minutes: float = setting(0.0, NON_NEGATIVE_NUMBER)
    """stop once this many minutes of learning have passed (checked before each round of games;
    the teacher's games excluded, as PPO's imitation), with the final evaluation and checkpoint
    as at ``total_steps``; 0: no limit"""
    num_envs: int = setting(256, NUM_ENVS)
    """games played at once in the game vector"""
    num_threads: int = setting(1, VECTOR_THREADS)
    """threads the game vector steps its games with (games with a compiled core)"""
    hidden_sizes: list[int] = setting([256, 256], LAYER_WIDTHS)
    """widths of the hidden layers of both networks (the best response's Q-network and the
    average policy, each ``reborn_env.policies.network.build_model``'s MLP)"""
    torch_threads: int = setting(1, TORCH_THREADS)
    """threads torch may use"""
    device: str = setting("auto", choice(DEVICES))
    """where both networks compute (``training/common/device.py``): "cuda", "cpu", or "auto"
    (the GPU where torch sees one); the policy file is device-free either way"""
    anticipatory: float = setting(0.1, UNIT_HALF_OPEN)
    """eta, in (0, 1]: the probability that a seat plays a game with its best response (its
    decisions then go into the reservoir); otherwise it plays the average policy"""
    gamma: float = setting(0.99, UNIT_HALF_OPEN)
    """the best response's discount factor"""
    rl_learning_rate: float = setting(1e-4, POSITIVE_NUMBER)
    """Adam's learning rate for the Q-network"""
    sl_learning_rate: float = setting(1e-3, POSITIVE_NUMBER)
    """Adam's learning rate for the average policy"""
    replay_capacity: int = setting(50_000, integer(1, MAX_BUFFER_ROWS))
    """transitions the best response's circular replay buffer holds"""
    reservoir_capacity: int = setting(200_000, integer(1, MAX_BUFFER_ROWS))
    """(observation, mask, action) samples the average policy's reservoir holds"""
    batch_size: int = setting(128, integer(1, MAX_BATCH))
    """rows of each gradient step, for either network"""
    learn_every: int = setting(64, POSITIVE)
    """decisions played between two learning steps (one gradient step of each network)"""
    min_buffer_size: int = setting(1000, POSITIVE)
    """rows each buffer must hold before learning starts"""
    target_update_every: int = setting(300, POSITIVE)
    """learning steps between copies of the Q-network into its target network"""
    epsilon_start: float = setting(0.06, PROBABILITY)
    """the best response's exploration rate at the start (epsilon-greedy over legal actions)"""
    epsilon_end: float = setting(0.001, PROBABILITY)
    """its exploration rate after ``epsilon_decay_steps`` decisions (linear in between)"""
    epsilon_decay_steps: int = setting(1_000_000, POSITIVE)
    """decisions over which the exploration rate falls from start to end"""
    max_grad_norm: float = setting(10.0, POSITIVE_NUMBER)
    """maximum norm of either network's gradient (clipped above it)"""
    teacher_games: int = setting(0, COUNT)
    """games of ``teacher`` whose decisions seed the reservoir before self-play starts (the
    first strategy fictitious play averages from); 0: NFSP from scratch"""
    teacher: str = setting("heuristic", non_empty("bot name"))
    """the bot of the env's that plays those games: a name its game registers (``GameSpec.bots``)"""
    teacher_epochs: int = setting(2, POSITIVE)
    """passes of the average policy over the teacher's decisions before self-play starts"""
    eval_every: int = setting(1000, POSITIVE)
    """learning steps between evaluations (and policy checkpoints)"""
    eval_games: int = setting(100, POSITIVE)
    """evaluation games per seat against each evaluation opponent"""
    eval_greedy: bool = setting(False)
    """evaluate the average policy playing its most likely action instead of sampling"""
    eval_opponents: list[str] = setting(["random", "heuristic"])
    """evaluation opponents: "random", "heuristic" or the path of a checkpoint"""
    checkpoint_dir: str = setting("checkpoints/nfsp_run", non_empty("path"))
    """directory the run's policy (``policy.pt``) and learning curve are written to"""
    run_name: str = setting("nfsp", non_empty("string"))
    """name of the run (the learning curve's title)"""

    def check_together(self) -> None:
        """Refuse keys that disagree with each other (or with the env)."""
        source = self.origin
        if env_mode(self.env) != COMPETITIVE:
            raise ConfigError(
                f"{source}: key 'env': {self.env!r} is a cooperative game; NFSP trains the seats "
                "of a competitive two-seat game against each other"
            )
        if self.epsilon_end > self.epsilon_start:
            raise ConfigError(
                f"{source}: keys 'epsilon_start'/'epsilon_end': exploration decays, so "
                f"epsilon_end ({self.epsilon_end}) must be at most epsilon_start "
                f"({self.epsilon_start})"
            )
        for what in ("replay_capacity", "reservoir_capacity"):
            if self.min_buffer_size > getattr(self, what):
                raise ConfigError(
                    f"{source}: key 'min_buffer_size': {self.min_buffer_size} rows can never be "
                    f"reached in a buffer of {what} {getattr(self, what)}; use at most that"
                )
        teachers = sorted(registry.get(self.env).bots)
        if self.teacher_games and self.teacher not in teachers:
            raise ConfigError(
                f"{source}: key 'teacher': {self.teacher!r} is not a bot of {self.env!r}; "
                + (f"its bots are {', '.join(map(repr, teachers))}" if teachers else "it has none")
            )
        for entry in self.eval_opponents:
            if entry not in BUILTIN_OPPONENTS and not os.path.isfile(entry):
                raise ConfigError(
                    f"{source}: key 'eval_opponents': {entry!r} is neither "
                    f"{' nor '.join(map(repr, BUILTIN_OPPONENTS))} nor an existing checkpoint file"
                )

    def epsilon(self, decisions: int) -> float:
        """The best response's exploration rate after ``decisions`` decisions."""
        done = min(1.0, decisions / self.epsilon_decay_steps)
        return self.epsilon_start + done * (self.epsilon_end - self.epsilon_start)


def load_nfsp_config(path: str | os.PathLike[str]) -> NFSPConfig:
    """Read and check the YAML config at ``path``, building its env once; any problem raises
    :class:`ConfigError`."""
    return NFSPConfig.load(path)
