"""Training configuration: one frozen dataclass, read from YAML and checked before anything runs.

A run is described by a YAML mapping whose keys are the fields of :class:`TrainConfig` (each field
documents itself, CleanRL style). Every mistake a config can hold (a file that is not UTF-8 YAML,
an unknown or misspelt key, a value of the wrong type, a number out of range or not finite, keys
that disagree with each other, ``env_kwargs`` the env refuses) raises :class:`ConfigError` naming
the file, the key and what is allowed, so a run fails at start-up rather than hours in. The same
checks apply to configs stored in checkpoints (:meth:`TrainConfig.from_dict`), except building the
env (:meth:`TrainConfig.check_env`, which :func:`load_config` and the trainer call).

Every integer must fit in 64 bits and every float must be finite; sizes that take memory have
maxima (:data:`MAX_NUM_ENVS`, :data:`MAX_BATCH_SIZE`, :data:`MAX_HIDDEN_LAYERS` layers of at most
:data:`MAX_HIDDEN_WIDTH` units, ...), so a typo cannot ask for terabytes: the largest network
allowed has about 34 M parameters on a 2132-float observation, the largest a bundled game has
(135 MB of float32 weights).
"""

from __future__ import annotations

import dataclasses
import difflib
import math
import os
import stat
import typing
from collections.abc import Callable, Mapping
from dataclasses import InitVar, dataclass, field
from pathlib import Path
from typing import Any

import yaml

from reborn_env.core import registry
from training.common.envs import COOPERATIVE, MODES, env_mode, env_names, env_sizes, make_env

BUILTIN_OPPONENTS = ("random", "heuristic")
MAX_INT = 2**63 - 1
"""Largest integer any key takes (torch's and numpy's 64-bit integers; seeds included)."""
MAX_CONFIG_BYTES = 1 << 20
"""Largest config file read (a config is a few hundred bytes)."""
MAX_NUM_ENVS = 1024
MAX_BATCH_SIZE = 1 << 18
"""Most learner decisions per rollout (num_envs * num_steps): the buffers hold them all (about
2.3 GB for 2132-float observations at the maximum)."""
MAX_HIDDEN_LAYERS = 8
MAX_HIDDEN_WIDTH = 2048
MAX_POOL_SIZE = 64
MAX_IMITATION_CHUNK = 5000
MAX_DAGGER_ROUNDS = 50
MAX_TORCH_THREADS = 256
MAX_VECTOR_THREADS = 64
OPPONENT_SAMPLING = ("uniform", "pfsp")
NETWORKS = ("mlp", "records")


class ConfigError(ValueError):
    """A config file or mapping that cannot describe a run; the message says where and why."""


@dataclass(frozen=True, kw_only=True)
class TrainConfig:
    """Everything that defines a PPO run, self-play or cooperative (the YAML keys are these field
    names)."""

    env: str = field(default_factory=registry.default_name)
    """the environment's name, a registered game (``training.common.envs.env_names()``; default the
    first bundled game in name order, ``reborn_env.core.registry.default_name()``)"""
    env_kwargs: dict[str, Any] = field(default_factory=dict)
    """keyword arguments passed to the environment's constructor (e.g. ``scenario``)"""
    mode: str = "auto"
    """"competitive" (self-play: the learner in one seat against an opponent), "cooperative" (one
    policy acts for every agent and learns from the shared team reward; no opponents, no pool) or
    "auto" (the mode the env's game declares, ``training.common.envs.env_mode``)"""
    seed: int = 1
    """seed of the run's generators (torch, numpy, python, environments), in 0..2**63-1"""
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
    """widths of the network's hidden layers (at most 8 layers of at most 2048 units)"""
    network: str = "mlp"
    """the torso (``reborn_env/policies/network.py``): "mlp" (the flat observation) or "records"
    (each field of records of the env's observation layout, e.g. one per character, through one
    shared encoder first)"""
    record_embed: int = 64
    """with the "records" torso: floats each record is encoded into"""
    torch_threads: int = 1
    """threads torch may use"""
    snapshot_every: int = 10
    """updates between adding the current policy to the opponent pool (competitive mode); 0:
    never, so the pool holds only the snapshot taken when imitation ends (as RLlib's config)"""
    pool_size: int = 8
    """most snapshots kept in the opponent pool (oldest dropped first)"""
    latest_opponent_prob: float = 0.5
    """probability an episode's opponent is the current policy rather than a pool snapshot (with
    ``pfsp``: rather than a snapshot or a bot)"""
    bot_opponents: list[str] = field(default_factory=list)
    """scripted or saved bots that also sit opposite the learner ("random", "heuristic", a path)"""
    bot_opponent_prob: float = 0.0
    """probability an episode's opponent is one of ``bot_opponents`` (drawn uniformly; ``uniform``
    sampling only)"""
    opponent_sampling: str = "uniform"
    """how an episode's opponent is drawn (``training/ppo/opponents.py``): "uniform" (a bot with
    ``bot_opponent_prob``, else the current policy or a snapshot) or "pfsp" (prioritised
    fictitious self-play: the current policy with ``latest_opponent_prob``, else the snapshots
    and bots that still beat the learner in its seat, most often)"""
    seat_sampling: str = "uniform"
    """how the learner's seat is drawn: "uniform" or "pfsp" (the seat that loses most to the
    bots of ``bot_opponents`` is played most, training/ppo/opponents.py)"""
    pfsp_power: float = 2.0
    """with ``pfsp``: an opponent's weight is (1 - the learner's score against it) ** pfsp_power"""
    learner_seat: str = ""
    """the one seat (agent name) the learner plays in every game; empty: drawn per game by
    ``seat_sampling`` (competitive runs; a best response, ``training/exploit.py``, fixes it)"""
    max_minutes: float = 0.0
    """stop after the first update that ends past this many minutes of training (imitation
    excluded), with a final evaluation and checkpoint as at ``total_steps``; 0: no limit"""
    restart_prob: float = 0.0
    """probability a training game begins from a position of an earlier training game rather
    than at the start (``training/ppo/restarts.py``), so late, rare decisions are met more often"""
    num_threads: int = 1
    """threads the game vector steps its games with (games with a compiled core; 1 elsewhere)"""
    init_policy: str = ""
    """a checkpoint of the same env and network whose weights the network starts from (before
    any imitation); empty: fresh weights"""
    imitation_games: int = 0
    """teacher games (``imitation_teacher``) to imitate before PPO starts; 0 turns it off"""
    imitation_teacher: str = "heuristic"
    """the bot whose decisions the warm start imitates: a name its game registers
    (``GameSpec.bots``, e.g. "heuristic"), "random", or a policy file (a best response's clone
    of the policy it answers, ``training/exploit``)"""
    imitation_epochs: int = 4
    """passes over each chunk of teacher decisions"""
    dagger_rounds: int = 0
    """rounds of DAgger after cloning (training/warmstart/imitation.py): the policy plays
    ``imitation_chunk`` games, the teacher labels its decisions, and the network is fitted to all
    labels so far (all rounds' labels are kept: about 85 MB per 200 games of the default game)"""
    imitation_chunk: int = 200
    """teacher games recorded and cloned at a time: fewer keep memory small, more (all of
    ``imitation_games``) let every pass see every game, so later chunks do not wash out earlier
    ones (about 1.2 GB per 1000 games of a bundled team game)"""
    eval_every: int = 10
    """updates between evaluations"""
    eval_games: int = 20
    """evaluation games per seat against each evaluation opponent (cooperative: games per
    evaluated team, on the same seeds)"""
    eval_greedy: bool = False
    """competitive mode: evaluate the policy playing its most likely action (greedy) instead of
    sampling (a cooperative run evaluates both)"""
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
        check_fields(self, source, _VALUE_RULES)
        self._check_cross_keys(source)

    def _check_cross_keys(self, source: str) -> None:
        if self.batch_size > MAX_BATCH_SIZE:
            raise ConfigError(
                f"{source}: keys 'num_envs'/'num_steps': num_envs * num_steps = {self.batch_size} "
                f"learner decisions per rollout; at most {MAX_BATCH_SIZE} (the rollout buffers "
                "hold them all)"
            )
        if self.batch_size % self.num_minibatches:
            raise ConfigError(
                f"{source}: key 'num_minibatches': num_envs * num_steps = {self.batch_size} is "
                f"not divisible by num_minibatches = {self.num_minibatches}; use a divisor of "
                f"{self.batch_size}"
            )
        bots = sorted(registry.get(self.env).bots)
        for key in ("eval_opponents", "bot_opponents"):
            for entry in getattr(self, key):
                if entry not in (*BUILTIN_OPPONENTS, *bots) and not os.path.isfile(entry):
                    raise ConfigError(
                        f"{source}: key {key!r}: {entry!r} is neither "
                        f"{' nor '.join(map(repr, BUILTIN_OPPONENTS))} nor a bot of "
                        f"{self.env!r} ({_names(bots) or 'none'}) nor an existing checkpoint file"
                    )
        if self.dagger_rounds and not self.imitation_games:
            raise ConfigError(
                f"{source}: key 'dagger_rounds': DAgger rounds follow the cloning warm start; "
                "set imitation_games > 0 or dagger_rounds to 0"
            )
        teacher = self.imitation_teacher
        known = teacher in (*bots, "random") or os.path.isfile(teacher)
        if self.imitation_games and not known:
            raise ConfigError(
                f"{source}: key 'imitation_teacher': {teacher!r} is not a bot of {self.env!r} "
                f"nor an existing policy file; "
                + (f"its bots are {', '.join(map(repr, bots))}" if bots else "it has none")
                + ", and 'random'"
            )
        if self.init_policy and not os.path.isfile(self.init_policy):
            raise ConfigError(
                f"{source}: key 'init_policy': {self.init_policy!r} is no existing checkpoint file"
            )
        declared = env_mode(self.env)
        if self.mode != "auto" and self.mode != declared:
            raise ConfigError(
                f"{source}: key 'mode': env {self.env!r} is {declared}, not {self.mode}; "
                f"use 'auto' or {declared!r}"
            )
        if self.resolved_mode == COOPERATIVE and (self.bot_opponents or self.bot_opponent_prob):
            raise ConfigError(
                f"{source}: keys 'bot_opponents'/'bot_opponent_prob': a cooperative run has no "
                "opponents (one policy plays every agent); remove them"
            )
        if self.opponent_sampling == "pfsp" and self.bot_opponent_prob:
            raise ConfigError(
                f"{source}: key 'bot_opponent_prob': with opponent_sampling 'pfsp' bots are "
                "drawn by how often they beat the learner; remove bot_opponent_prob (or use "
                "'uniform' sampling)"
            )
        if self.learner_seat and self.resolved_mode == COOPERATIVE:
            raise ConfigError(
                f"{source}: key 'learner_seat': a cooperative run plays every agent; remove it"
            )
        if self.bot_opponent_prob > 0 and not self.bot_opponents:
            raise ConfigError(
                f"{source}: key 'bot_opponent_prob': {self.bot_opponent_prob} > 0 needs at least "
                "one entry in 'bot_opponents'"
            )

    def check_env(self) -> tuple[int, int]:
        """Build the env once from ``env_kwargs``, as every rollout env will be; its
        ``(obs_size, n_actions)``.

        :class:`ConfigError` naming ``env_kwargs`` if the env refuses them (an unknown keyword,
        ``max_steps: -1``, an unknown scenario): found before any training, not when the first
        env is made. ``learner_seat``, if set, must be one of its agents.
        """
        try:
            sizes = env_sizes(self.env, **self.env_kwargs)
        except (ValueError, TypeError) as exc:
            raise ConfigError(
                f"{self._source}: key 'env_kwargs': env {self.env!r} refuses "
                f"{_short(self.env_kwargs)}: {exc}"
            ) from exc
        if self.learner_seat:
            agents = list(make_env(self.env, **self.env_kwargs).possible_agents)
            if self.learner_seat not in agents:
                raise ConfigError(
                    f"{self._source}: key 'learner_seat': {self.learner_seat!r} is not an agent "
                    f"of {self.env!r}; its agents are {', '.join(map(repr, agents))}"
                )
        return sizes

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
        check_keys(cls, d, source, "learner decisions to train")
        return cls(**d, source=source)


def load_config(path: str | os.PathLike[str]) -> TrainConfig:
    """Read and check the YAML config at ``path``, building its env once
    (:meth:`TrainConfig.check_env`); any problem raises :class:`ConfigError`."""
    cfg = TrainConfig.from_dict(read_config_mapping(path), source=str(path))
    cfg.check_env()
    return cfg


def read_config_mapping(path: str | os.PathLike[str]) -> dict[Any, Any]:
    """The YAML mapping a config file holds, read as every config of the project is read (a
    bounded regular file, valid YAML, not nested too deeply, a mapping); ConfigError if not."""
    text = _read_config_text(Path(path))
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: not valid YAML: {_yaml_problem(exc)}") from exc
    except RecursionError as exc:
        raise ConfigError(f"{path}: not a config: YAML nested too deeply") from exc
    if not isinstance(data, dict):
        found = "an empty file" if data is None else f"a {type(data).__name__}"
        raise ConfigError(f"{path}: expected a mapping of config keys to values, found {found}")
    return data


def _read_config_text(path: Path) -> str:
    """The file's text: a regular file of at most :data:`MAX_CONFIG_BYTES`, in UTF-8."""
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            raise ConfigError(f"{path}: not a regular file (a folder, a device or a pipe)")
        if info.st_size > MAX_CONFIG_BYTES:
            raise ConfigError(
                f"{path}: {info.st_size} bytes; a config file is at most {MAX_CONFIG_BYTES} bytes"
            )
        raw = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the config file: {exc.strerror or exc}") from exc
    try:
        return raw[: MAX_CONFIG_BYTES + 1].decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"{path}: not a text file in UTF-8 (byte {exc.start}: {exc.reason}); a config is "
            "YAML text"
        ) from exc


def _yaml_problem(exc: yaml.YAMLError) -> str:
    """PyYAML's complaint in one line, with the line and column where it noticed it."""
    if not isinstance(exc, yaml.MarkedYAMLError) or exc.problem_mark is None:
        return " ".join(str(exc).split())
    mark = exc.problem_mark
    what = ", ".join(part for part in (exc.context, exc.problem) if part)
    return f"line {mark.line + 1}, column {mark.column + 1}: {what}"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _unknown_key(key: Any, known: list[str]) -> str:
    close = difflib.get_close_matches(str(key), known, n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    return f"unknown key {key!r}; {hint}known keys: {', '.join(known)}"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _item_checker(item: type) -> Callable[[Any], bool]:
    return _is_int if item is int else lambda v: isinstance(v, item)


def check_keys(cls: type, d: Mapping[Any, Any], source: str, total_steps: str) -> None:
    """Refuse keys that are no field of the config dataclass ``cls`` (the closest one
    suggested) and a missing ``total_steps`` (``total_steps`` says what it counts)."""
    known = [f.name for f in dataclasses.fields(cls)]
    unknown = [key for key in d if key not in known]
    if unknown:
        raise ConfigError(f"{source}: " + "; ".join(_unknown_key(k, known) for k in unknown))
    if "total_steps" not in d:
        raise ConfigError(
            f"{source}: missing required key 'total_steps' ({total_steps}, an integer > 0)"
        )


def check_fields(
    cfg: Any, source: str, rules: dict[str, tuple[Callable[[Any], bool], Any]]
) -> None:
    """Check a frozen config dataclass's fields in place (any trainer's): each value fits 64 bits
    and its type hint (converted where lossless), then each key's rule in ``rules``; the first
    that fails is a :class:`ConfigError` naming ``source``, the key and what is allowed."""
    object.__setattr__(cfg, "_source", source)
    hints = typing.get_type_hints(type(cfg))
    for f in dataclasses.fields(cfg):
        _check_64_bits(source, f.name, getattr(cfg, f.name))
        value = _check_type(source, f.name, getattr(cfg, f.name), hints[f.name])
        object.__setattr__(cfg, f.name, value)
    for key, (holds, allowed) in rules.items():
        value = getattr(cfg, key)
        if not holds(value):
            allowed = allowed() if callable(allowed) else allowed
            raise ConfigError(f"{source}: key {key!r}: {allowed}, got {value!r}")


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


def _check_64_bits(source: str, key: str, value: Any) -> None:
    """Every integer of a key (or of its list) within +-:data:`MAX_INT`: what torch and numpy
    hold, and far beyond any sensible value."""
    numbers = value if isinstance(value, list) else [value]
    for number in numbers:
        if _is_int(number) and abs(number) > MAX_INT:
            raise ConfigError(
                f"{source}: key {key!r}: {_short(number)} does not fit in 64 bits; integers here "
                f"are at most 2**63-1 ({MAX_INT})"
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


def _integer_rule(low: int, high: int = MAX_INT) -> tuple[Callable[[Any], bool], str]:
    """An integer in ``low..high``; the text says ``> 0`` for positive ones."""
    floor = "> 0" if low == 1 else f">= {low}"
    text = f"must be an integer {floor}" + ("" if high == MAX_INT else f" and at most {high}")
    return (lambda v: low <= v <= high), text


def _finite(test: Callable[[float], bool]) -> Callable[[float], bool]:
    return lambda v: math.isfinite(v) and test(v)


def _names(values: list[str]) -> str:
    """``'a', 'b'``: allowed values as an error message lists them."""
    return ", ".join(map(repr, values))


def _hidden_sizes_fit(sizes: list[int]) -> bool:
    return 0 < len(sizes) <= MAX_HIDDEN_LAYERS and all(0 < s <= MAX_HIDDEN_WIDTH for s in sizes)


_POSITIVE = _integer_rule(1)
_FINITE_POSITIVE = (_finite(lambda v: v > 0), "must be a finite number > 0")
_FINITE_NON_NEGATIVE = (_finite(lambda v: v >= 0), "must be a finite number >= 0")
_UNIT_HALF_OPEN = (_finite(lambda v: 0.0 < v <= 1.0), "must be in (0, 1]")
_PROBABILITY = (_finite(lambda v: 0.0 <= v <= 1.0), "must be a probability in [0, 1]")
_VALUE_RULES: dict[str, tuple[Callable[[Any], bool], str | Callable[[], str]]] = {
    "env": (lambda v: v in env_names(), lambda: f"must be one of {_names(env_names())}"),
    "mode": (
        lambda v: v in ("auto", *MODES),
        f"must be one of {_names(['auto', *MODES])}",
    ),
    "seed": (lambda v: 0 <= v <= MAX_INT, f"must be an integer in 0..2**63-1 ({MAX_INT})"),
    "total_steps": _POSITIVE,
    "num_envs": _integer_rule(1, MAX_NUM_ENVS),
    "num_steps": _integer_rule(1, MAX_BATCH_SIZE),
    "learning_rate": _FINITE_POSITIVE,
    "gamma": _UNIT_HALF_OPEN,
    "gae_lambda": _UNIT_HALF_OPEN,
    "num_minibatches": _POSITIVE,
    "update_epochs": _POSITIVE,
    "clip_coef": _FINITE_POSITIVE,
    "ent_coef": _FINITE_NON_NEGATIVE,
    "vf_coef": _FINITE_NON_NEGATIVE,
    "max_grad_norm": _FINITE_POSITIVE,
    "hidden_sizes": (
        _hidden_sizes_fit,
        f"must be a non-empty list of at most {MAX_HIDDEN_LAYERS} layer widths, each an integer "
        f"in 1..{MAX_HIDDEN_WIDTH}",
    ),
    "torch_threads": _integer_rule(1, MAX_TORCH_THREADS),
    "network": (lambda v: v in NETWORKS, f"must be one of {_names(list(NETWORKS))}"),
    "record_embed": _integer_rule(1, MAX_HIDDEN_WIDTH),
    "snapshot_every": (lambda v: 0 <= v <= MAX_INT, "must be an integer >= 0 (0: never)"),
    "pool_size": _integer_rule(1, MAX_POOL_SIZE),
    "latest_opponent_prob": _PROBABILITY,
    "opponent_sampling": (
        lambda v: v in OPPONENT_SAMPLING,
        f"must be one of {_names(list(OPPONENT_SAMPLING))}",
    ),
    "pfsp_power": _FINITE_NON_NEGATIVE,
    "seat_sampling": (
        lambda v: v in OPPONENT_SAMPLING,
        f"must be one of {_names(list(OPPONENT_SAMPLING))}",
    ),
    "num_threads": _integer_rule(1, MAX_VECTOR_THREADS),
    "restart_prob": _PROBABILITY,
    "max_minutes": _FINITE_NON_NEGATIVE,
    "bot_opponent_prob": _PROBABILITY,
    "imitation_games": _integer_rule(0),
    "imitation_epochs": _POSITIVE,
    "dagger_rounds": _integer_rule(0, MAX_DAGGER_ROUNDS),
    "imitation_chunk": _integer_rule(1, MAX_IMITATION_CHUNK),
    "eval_every": _POSITIVE,
    "eval_games": _POSITIVE,
    "checkpoint_dir": (bool, "must be a non-empty path"),
    "checkpoint_every": _POSITIVE,
    "run_name": (bool, "must be a non-empty string"),
}
"""Config key -> (predicate its value must satisfy, what is allowed). Every numeric key has one,
every float rule requires a finite number, and NaN fails every one."""
