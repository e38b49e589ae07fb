"""Training configuration: one frozen dataclass, read from YAML and checked before anything runs.

A run is described by a YAML mapping whose keys are the fields of :class:`TrainConfig` (each field
documents itself, CleanRL style). Every mistake a config can hold (an unknown or misspelt key, a
value of the wrong type, a value out of range, keys that disagree with each other) raises
:class:`ConfigError` naming the file, the key and what is allowed, so a run fails at start-up
rather than hours in. The same checks apply to configs stored in checkpoints
(:meth:`TrainConfig.from_dict`).
"""

from __future__ import annotations

import dataclasses
import difflib
import math
import os
import typing
from collections.abc import Callable, Mapping
from dataclasses import InitVar, dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .envs import COOPERATIVE, ENV_MODES, ENVS, MODES, env_mode

BUILTIN_OPPONENTS = ("random", "heuristic")


class ConfigError(ValueError):
    """A config file or mapping that cannot describe a run; the message says where and why."""


@dataclass(frozen=True, kw_only=True)
class TrainConfig:
    """Everything that defines a PPO run, self-play or cooperative (the YAML keys are these field
    names)."""

    env: str = "earth_reborn_v0"
    """the environment's name, a key of ``training.envs.ENVS``"""
    env_kwargs: dict[str, Any] = field(default_factory=dict)
    """keyword arguments passed to the environment's constructor (e.g. ``scenario``)"""
    mode: str = "auto"
    """"competitive" (self-play: the learner in one seat against an opponent), "cooperative" (one
    policy acts for every agent and learns from the shared team reward; no opponents, no pool) or
    "auto" (the mode the env declares in ``training.envs.ENV_MODES``)"""
    seed: int = 1
    """seed of the run's generators (torch, numpy, python, environments)"""
    total_steps: int
    """learner decisions to train for (required)"""
    num_envs: int = 8
    """environments played in parallel"""
    num_steps: int = 128
    """learner decisions collected per environment per rollout"""
    learning_rate: float = 2.5e-4
    """the optimizer's learning rate"""
    anneal_lr: bool = True
    """anneal the learning rate linearly to 0 over the run"""
    gamma: float = 0.99
    """discount factor"""
    gae_lambda: float = 0.95
    """lambda of generalized advantage estimation"""
    num_minibatches: int = 4
    """minibatches each rollout is split into"""
    update_epochs: int = 4
    """passes over each rollout"""
    clip_coef: float = 0.2
    """PPO's surrogate clipping coefficient"""
    clip_vloss: bool = True
    """clip the value loss as PPO's paper does"""
    ent_coef: float = 0.01
    """coefficient of the entropy bonus"""
    vf_coef: float = 0.5
    """coefficient of the value loss"""
    max_grad_norm: float = 0.5
    """maximum norm of the gradient (clipped above it)"""
    norm_adv: bool = True
    """normalize advantages per minibatch"""
    hidden_sizes: list[int] = field(default_factory=lambda: [256, 256])
    """widths of the network's hidden layers"""
    torch_threads: int = 1
    """threads torch may use"""
    snapshot_every: int = 10
    """updates between adding the current policy to the opponent pool (competitive mode)"""
    pool_size: int = 8
    """most snapshots kept in the opponent pool (oldest dropped first)"""
    latest_opponent_prob: float = 0.5
    """probability an episode's opponent is the current policy rather than a pool snapshot"""
    bot_opponents: list[str] = field(default_factory=list)
    """scripted or saved bots that also sit opposite the learner ("random", "heuristic", a path)"""
    bot_opponent_prob: float = 0.0
    """probability an episode's opponent is one of ``bot_opponents`` (drawn uniformly)"""
    imitation_games: int = 0
    """teacher games (the env's heuristic bot) to imitate before PPO starts; 0 turns it off"""
    imitation_epochs: int = 4
    """passes over each chunk of teacher decisions"""
    imitation_chunk: int = 200
    """teacher games recorded and cloned at a time: fewer keep memory small, more (all of
    ``imitation_games``) let every pass see every game, so later chunks do not wash out earlier
    ones (about 1.2 GB per 1000 haven games)"""
    eval_every: int = 10
    """updates between evaluations"""
    eval_games: int = 20
    """evaluation games per seat against each evaluation opponent (cooperative: games per
    evaluated team, on the same seeds)"""
    eval_opponents: list[str] = field(default_factory=lambda: ["random", "heuristic"])
    """evaluation opponents: "random", "heuristic" or the path of a checkpoint; in cooperative
    mode the teams of these bots whose win rates the policy's are logged next to"""
    checkpoint_dir: str = "checkpoints/run"
    """directory the run's checkpoints are written to"""
    checkpoint_every: int = 10
    """updates between checkpoints"""
    run_name: str = "run"
    """name of the run (logs, plots)"""
    source: InitVar[str] = "<TrainConfig>"
    """where the values came from, named in error messages (not a config key)"""

    def __post_init__(self, source: str) -> None:
        hints = typing.get_type_hints(type(self))
        for f in dataclasses.fields(self):
            value = _check_type(source, f.name, getattr(self, f.name), hints[f.name])
            object.__setattr__(self, f.name, value)
        for key, (holds, allowed) in _VALUE_RULES.items():
            value = getattr(self, key)
            if not holds(value):
                raise ConfigError(f"{source}: key {key!r}: {allowed}, got {value!r}")
        self._check_cross_keys(source)

    def _check_cross_keys(self, source: str) -> None:
        if self.batch_size % self.num_minibatches:
            raise ConfigError(
                f"{source}: key 'num_minibatches': num_envs * num_steps = {self.batch_size} is "
                f"not divisible by num_minibatches = {self.num_minibatches}; use a divisor of "
                f"{self.batch_size}"
            )
        for key in ("eval_opponents", "bot_opponents"):
            for entry in getattr(self, key):
                if entry not in BUILTIN_OPPONENTS and not os.path.isfile(entry):
                    raise ConfigError(
                        f"{source}: key {key!r}: {entry!r} is neither "
                        f"{' nor '.join(map(repr, BUILTIN_OPPONENTS))} nor an existing "
                        "checkpoint file"
                    )
        declared = ENV_MODES.get(self.env)
        if self.mode != "auto" and declared is not None and self.mode != declared:
            raise ConfigError(
                f"{source}: key 'mode': env {self.env!r} is {declared}, not {self.mode}; "
                f"use 'auto' or {declared!r}"
            )
        if self.resolved_mode == COOPERATIVE and (self.bot_opponents or self.bot_opponent_prob):
            raise ConfigError(
                f"{source}: keys 'bot_opponents'/'bot_opponent_prob': a cooperative run has no "
                "opponents (one policy plays every agent); remove them"
            )
        if self.bot_opponent_prob > 0 and not self.bot_opponents:
            raise ConfigError(
                f"{source}: key 'bot_opponent_prob': {self.bot_opponent_prob} > 0 needs at least "
                "one entry in 'bot_opponents'"
            )

    @property
    def resolved_mode(self) -> str:
        """``"competitive"`` or ``"cooperative"``: ``mode``, or the env's own when ``"auto"``."""
        return env_mode(self.env) if self.mode == "auto" else self.mode

    @property
    def batch_size(self) -> int:
        """Learner decisions per rollout: ``num_envs * num_steps``."""
        return self.num_envs * self.num_steps

    @property
    def minibatch_size(self) -> int:
        """Learner decisions per minibatch."""
        return self.batch_size // self.num_minibatches

    @property
    def num_updates(self) -> int:
        """Rollouts (PPO updates) in the run: ``total_steps // batch_size``, at least 1."""
        return max(1, self.total_steps // self.batch_size)

    def to_dict(self) -> dict[str, Any]:
        """The config as plain YAML/JSON-ready data (a deep copy), e.g. for a checkpoint."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: Mapping[Any, Any], source: str = "<dict>") -> TrainConfig:
        """Check ``d`` (keys, types, values) and build the config; ``source`` names it in errors."""
        known = [f.name for f in dataclasses.fields(cls)]
        unknown = [key for key in d if key not in known]
        if unknown:
            raise ConfigError(f"{source}: " + "; ".join(_unknown_key(k, known) for k in unknown))
        if "total_steps" not in d:
            raise ConfigError(
                f"{source}: missing required key 'total_steps' "
                "(learner decisions to train, an integer > 0)"
            )
        return cls(**d, source=source)


def load_config(path: str | os.PathLike[str]) -> TrainConfig:
    """Read and check the YAML config at ``path``; any problem raises :class:`ConfigError`."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the config file: {exc.strerror or exc}") from exc
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: not valid YAML: {_yaml_problem(exc)}") from exc
    if not isinstance(data, dict):
        found = "an empty file" if data is None else f"a {type(data).__name__}"
        raise ConfigError(f"{path}: expected a mapping of config keys to values, found {found}")
    return TrainConfig.from_dict(data, source=str(path))


def _yaml_problem(exc: yaml.YAMLError) -> str:
    """PyYAML's complaint in one line, with the line and column where it noticed it."""
    if not isinstance(exc, yaml.MarkedYAMLError) or exc.problem_mark is None:
        return " ".join(str(exc).split())
    mark = exc.problem_mark
    what = ", ".join(part for part in (exc.context, exc.problem) if part)
    return f"line {mark.line + 1}, column {mark.column + 1}: {what}"


def _unknown_key(key: Any, known: list[str]) -> str:
    close = difflib.get_close_matches(str(key), known, n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    return f"unknown key {key!r}; {hint}known keys: {', '.join(known)}"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _item_checker(item: type) -> Callable[[Any], bool]:
    return _is_int if item is int else lambda v: isinstance(v, item)


def _check_type(source: str, key: str, value: Any, hint: Any) -> Any:
    """``value`` if it has the type ``hint`` (ints accepted and converted where floats are)."""
    item = (typing.get_args(hint) or (None,))[0]
    origin = typing.get_origin(hint) or hint
    if origin is float and (_is_int(value) or isinstance(value, float)):
        return float(value)
    if origin is int and _is_int(value):
        return value
    if origin in (bool, str) and isinstance(value, origin):
        return value
    if origin is list and isinstance(value, list) and all(map(_item_checker(item), value)):
        return list(value)
    if origin is dict and isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return dict(value)
    raise ConfigError(
        f"{source}: key {key!r}: expected {_TYPE_NAMES[hint]}, "
        f"got {type(value).__name__} {value!r}{_yaml_hint(value)}"
    )


def _yaml_hint(value: Any) -> str:
    """A hint for YAML 1.1's trap: ``1e-4`` (no dot) is read as a string, not a float."""
    if isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            return ""
        if not math.isfinite(number):
            return ""
        return f" (YAML reads {value!r} as a string; write it with a dot, e.g. {number!r})"
    return ""


_TYPE_NAMES: dict[Any, str] = {
    str: "a string",
    int: "an integer (not a boolean)",
    float: "a number",
    bool: "true or false",
    list[int]: "a list of integers",
    list[str]: "a list of strings",
    dict[str, Any]: "a mapping of keyword arguments (string keys)",
}


def _positive(value: float) -> bool:
    return value > 0


def _unit_closed(value: float) -> bool:
    return 0.0 <= value <= 1.0


def _unit_half_open(value: float) -> bool:
    return 0.0 < value <= 1.0


def _non_negative(value: float) -> bool:
    return value >= 0 and not math.isinf(value)


_POSITIVE = (_positive, "must be > 0")
_VALUE_RULES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "env": (lambda v: v in ENVS, f"must be one of {', '.join(map(repr, sorted(ENVS)))}"),
    "mode": (
        lambda v: v in ("auto", *MODES),
        f"must be one of {', '.join(map(repr, ('auto', *MODES)))}",
    ),
    "seed": (lambda v: v >= 0, "must be an integer >= 0"),
    "total_steps": _POSITIVE,
    "num_envs": _POSITIVE,
    "num_steps": _POSITIVE,
    "learning_rate": (lambda v: 0 < v < math.inf, "must be a finite number > 0"),
    "gamma": (_unit_half_open, "must be in (0, 1]"),
    "gae_lambda": (_unit_half_open, "must be in (0, 1]"),
    "num_minibatches": _POSITIVE,
    "update_epochs": _POSITIVE,
    "clip_coef": (lambda v: 0 < v < math.inf, "must be a finite number > 0"),
    "ent_coef": (_non_negative, "must be a finite number >= 0"),
    "vf_coef": (_non_negative, "must be a finite number >= 0"),
    "max_grad_norm": (_positive, "must be > 0"),
    "hidden_sizes": (
        lambda v: bool(v) and all(size > 0 for size in v),
        "must be a non-empty list of integers > 0",
    ),
    "torch_threads": _POSITIVE,
    "snapshot_every": _POSITIVE,
    "pool_size": _POSITIVE,
    "latest_opponent_prob": (_unit_closed, "must be a probability in [0, 1]"),
    "bot_opponent_prob": (_unit_closed, "must be a probability in [0, 1]"),
    "imitation_games": (lambda v: v >= 0, "must be an integer >= 0"),
    "imitation_epochs": _POSITIVE,
    "imitation_chunk": _POSITIVE,
    "eval_every": _POSITIVE,
    "eval_games": _POSITIVE,
    "checkpoint_dir": (bool, "must be a non-empty path"),
    "checkpoint_every": _POSITIVE,
    "run_name": (bool, "must be a non-empty string"),
}
"""Config key -> (predicate its value must satisfy, what is allowed). NaN fails every one."""
