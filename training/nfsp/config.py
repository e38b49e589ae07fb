"""NFSP's configuration: one frozen dataclass read from YAML, checked as PPO's config is.

The keys are the fields of :class:`NFSPConfig`. The checks are ``training/ppo/config.py``'s, applied
to these fields: a file that is not UTF-8 YAML, an unknown key (with the closest known one
suggested), a wrong type, a number out of range or not finite, an evaluation opponent that is
neither a bot nor a file, and ``env_kwargs`` the env refuses each raise
:class:`~training.ppo.config.ConfigError` naming the file, the key and what is allowed.

The names the evaluation reads (``env``, ``env_kwargs``, ``seed``, ``num_envs``, ``eval_games``,
``eval_greedy``, ``eval_opponents``) and those a policy file is read by (``hidden_sizes``,
``env_kwargs``) are PPO's, so ``training/ppo/seating.py`` evaluates an NFSP run as it does a PPO run
and ``load_bot`` plays its checkpoint.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Mapping
from dataclasses import InitVar, dataclass, field
from typing import Any

from reborn_env.core import registry
from training.common.envs import COMPETITIVE, env_mode, env_names, env_sizes
from training.ppo.config import (
    _FINITE_POSITIVE,
    _POSITIVE,
    _PROBABILITY,
    _UNIT_HALF_OPEN,
    BUILTIN_OPPONENTS,
    MAX_HIDDEN_LAYERS,
    MAX_HIDDEN_WIDTH,
    MAX_INT,
    MAX_NUM_ENVS,
    MAX_TORCH_THREADS,
    MAX_VECTOR_THREADS,
    ConfigError,
    _hidden_sizes_fit,
    _integer_rule,
    _names,
    _short,
    check_fields,
    check_keys,
    read_config_mapping,
)

MAX_BUFFER_ROWS = 1 << 21
"""Most rows a buffer holds (2 M: about 17 GB of observations of the largest bundled game's 2,132
floats, so a typo cannot ask for terabytes; the defaults take at most 200,000 rows)."""
MAX_BATCH = 1 << 16


@dataclass(frozen=True, kw_only=True)
class NFSPConfig:
    """Everything that defines an NFSP self-play run (the YAML keys are these field names)."""

    env: str = field(default_factory=registry.default_name)
    """the environment's name, a registered two-seat competitive game"""
    env_kwargs: dict[str, Any] = field(default_factory=dict)
    """keyword arguments passed to the environment's constructor (e.g. ``mp_shaping``)"""
    seed: int = 1
    """seed of the run's generators (torch, numpy, environments), in 0..2**63-1"""
    total_steps: int
    """decisions to play, of both seats (every seat is a learning NFSP agent; required)"""
    num_envs: int = 256
    """games played at once in the game vector"""
    num_threads: int = 1
    """threads the game vector steps its games with (games with a compiled core)"""
    hidden_sizes: list[int] = field(default_factory=lambda: [256, 256])
    """widths of the hidden layers of both networks (the best response's Q-network and the
    average policy, each ``reborn_env.policies.network.build_model``'s MLP)"""
    torch_threads: int = 1
    """threads torch may use"""
    anticipatory: float = 0.1
    """eta, in (0, 1]: the probability that a seat plays a game with its best response (its
    decisions then go into the reservoir); otherwise it plays the average policy"""
    gamma: float = 0.99
    """the best response's discount factor"""
    rl_learning_rate: float = 1e-4
    """Adam's learning rate for the Q-network"""
    sl_learning_rate: float = 1e-3
    """Adam's learning rate for the average policy"""
    replay_capacity: int = 50_000
    """transitions the best response's circular replay buffer holds"""
    reservoir_capacity: int = 200_000
    """(observation, mask, action) samples the average policy's reservoir holds"""
    batch_size: int = 128
    """rows of each gradient step, for either network"""
    learn_every: int = 64
    """decisions played between two learning steps (one gradient step of each network)"""
    min_buffer_size: int = 1000
    """rows each buffer must hold before learning starts"""
    target_update_every: int = 300
    """learning steps between copies of the Q-network into its target network"""
    epsilon_start: float = 0.06
    """the best response's exploration rate at the start (epsilon-greedy over legal actions)"""
    epsilon_end: float = 0.001
    """its exploration rate after ``epsilon_decay_steps`` decisions (linear in between)"""
    epsilon_decay_steps: int = 1_000_000
    """decisions over which the exploration rate falls from start to end"""
    max_grad_norm: float = 10.0
    """maximum norm of either network's gradient (clipped above it)"""
    teacher_games: int = 0
    """games of ``teacher`` whose decisions seed the reservoir before self-play starts (the
    first strategy fictitious play averages from); 0: NFSP from scratch"""
    teacher: str = "heuristic"
    """the bot of the env's that plays those games: a name its game registers (``GameSpec.bots``)"""
    teacher_epochs: int = 2
    """passes of the average policy over the teacher's decisions before self-play starts"""
    eval_every: int = 1000
    """learning steps between evaluations (and policy checkpoints)"""
    eval_games: int = 100
    """evaluation games per seat against each evaluation opponent"""
    eval_greedy: bool = False
    """evaluate the average policy playing its most likely action instead of sampling"""
    eval_opponents: list[str] = field(default_factory=lambda: ["random", "heuristic"])
    """evaluation opponents: "random", "heuristic" or the path of a checkpoint"""
    checkpoint_dir: str = "checkpoints/nfsp_run"
    """directory the run's policy (``policy.pt``) and learning curve are written to"""
    run_name: str = "nfsp"
    """name of the run (the learning curve's title)"""
    source: InitVar[str] = "<NFSPConfig>"
    """where the values came from, named in error messages (not a config key)"""

    def __post_init__(self, source: str) -> None:
        check_fields(self, source, _VALUE_RULES)
        self._check_cross_keys(source)

    def _check_cross_keys(self, source: str) -> None:
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

    def check_env(self) -> tuple[int, int]:
        """Build the env once from ``env_kwargs``; its ``(obs_size, n_actions)``, or
        :class:`ConfigError` naming ``env_kwargs`` if the env refuses them."""
        try:
            return env_sizes(self.env, **self.env_kwargs)
        except (ValueError, TypeError) as exc:
            raise ConfigError(
                f"{self._source}: key 'env_kwargs': env {self.env!r} refuses "
                f"{_short(self.env_kwargs)}: {exc}"
            ) from exc

    def epsilon(self, decisions: int) -> float:
        """The best response's exploration rate after ``decisions`` decisions."""
        done = min(1.0, decisions / self.epsilon_decay_steps)
        return self.epsilon_start + done * (self.epsilon_end - self.epsilon_start)

    def to_dict(self) -> dict[str, Any]:
        """The config as plain YAML/JSON-ready data (a deep copy), e.g. for a checkpoint."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: Mapping[Any, Any], source: str = "<dict>") -> NFSPConfig:
        """Check ``d`` (keys, types, values) and build the config; ``source`` names it in errors."""
        check_keys(cls, d, source, "decisions to play")
        return cls(**d, source=source)


def load_nfsp_config(path: str | os.PathLike[str]) -> NFSPConfig:
    """Read and check the YAML config at ``path``, building its env once; any problem raises
    :class:`ConfigError`."""
    cfg = NFSPConfig.from_dict(read_config_mapping(path), source=str(path))
    cfg.check_env()
    return cfg


_VALUE_RULES: dict[str, tuple[Callable[[Any], bool], str | Callable[[], str]]] = {
    "env": (lambda v: v in env_names(), lambda: f"must be one of {_names(env_names())}"),
    "seed": (lambda v: 0 <= v <= MAX_INT, f"must be an integer in 0..2**63-1 ({MAX_INT})"),
    "total_steps": _POSITIVE,
    "num_envs": _integer_rule(1, MAX_NUM_ENVS),
    "num_threads": _integer_rule(1, MAX_VECTOR_THREADS),
    "hidden_sizes": (
        _hidden_sizes_fit,
        f"must be a non-empty list of at most {MAX_HIDDEN_LAYERS} layer widths, each an integer "
        f"in 1..{MAX_HIDDEN_WIDTH}",
    ),
    "torch_threads": _integer_rule(1, MAX_TORCH_THREADS),
    "anticipatory": _UNIT_HALF_OPEN,
    "gamma": _UNIT_HALF_OPEN,
    "rl_learning_rate": _FINITE_POSITIVE,
    "sl_learning_rate": _FINITE_POSITIVE,
    "replay_capacity": _integer_rule(1, MAX_BUFFER_ROWS),
    "reservoir_capacity": _integer_rule(1, MAX_BUFFER_ROWS),
    "batch_size": _integer_rule(1, MAX_BATCH),
    "learn_every": _POSITIVE,
    "min_buffer_size": _POSITIVE,
    "target_update_every": _POSITIVE,
    "epsilon_start": _PROBABILITY,
    "epsilon_end": _PROBABILITY,
    "epsilon_decay_steps": _POSITIVE,
    "max_grad_norm": _FINITE_POSITIVE,
    "teacher_games": _integer_rule(0),
    "teacher": (bool, "must be a non-empty bot name"),
    "teacher_epochs": _POSITIVE,
    "eval_every": _POSITIVE,
    "eval_games": _POSITIVE,
    "checkpoint_dir": (bool, "must be a non-empty path"),
    "run_name": (bool, "must be a non-empty string"),
}
"""Config key -> (predicate its value must satisfy, what is allowed); NaN fails every float rule."""
