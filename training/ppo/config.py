"""PPO's configuration: one frozen dataclass, read from YAML and checked before anything runs.

A run is described by a YAML mapping whose keys are the fields of :class:`TrainConfig`, each
declared once (CleanRL style): its type, its default, what it may be and its docstring. Reading
and checking come from :mod:`training.common.schema`: every mistake raises :class:`ConfigError`
naming the file, the key and what is allowed; the keys that must agree with each other are checked
here. The same checks apply to configs stored in checkpoints (:meth:`TrainConfig.from_dict`),
except building the env (:meth:`TrainConfig.check_env`, which :func:`load_config` and the trainer
call).

Every integer must fit in 64 bits and every float must be finite; sizes that take memory have
maxima (:data:`~training.common.rules.MAX_NUM_ENVS`, :data:`MAX_BATCH_SIZE`, the network's
:data:`~training.common.rules.LAYER_WIDTHS`, ...), so a typo cannot ask for terabytes.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from reborn_env.core import registry
from training.common.device import DEVICES
from training.common.envs import COOPERATIVE, MODES, env_mode, make_env
from training.common.precision import PRECISIONS
from training.common.rules import (
    COUNT,
    ENV,
    LAYER_WIDTHS,
    MAX_HIDDEN_WIDTH,
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
    names,
    non_empty,
)
from training.common.schema import ConfigError, Schema, setting

BUILTIN_OPPONENTS = ("random", "heuristic")
MAX_BATCH_SIZE = 1 << 18
"""Most learner decisions per rollout (num_envs * num_steps): the buffers hold them all (about
2.3 GB for 2132-float observations at the maximum)."""
MAX_POOL_SIZE = 64
MAX_IMITATION_CHUNK = 5000
MAX_DAGGER_ROUNDS = 50
OPPONENT_SAMPLING = ("uniform", "pfsp")
NETWORKS = ("mlp", "records")


@dataclass(frozen=True, kw_only=True)
class TrainConfig(Schema):
    """Everything that defines a PPO run, self-play or cooperative (the YAML keys are these field
    names)."""

    env: str = setting(factory=registry.default_name, rule=ENV)
    """the environment's name, a registered game (``training.common.envs.env_names()``; default the
    first bundled game in name order, ``reborn_env.core.registry.default_name()``)"""
    env_kwargs: dict[str, Any] = setting({})
    """keyword arguments passed to the environment's constructor (e.g. ``scenario``)"""
    mode: str = setting("auto", choice(["auto", *MODES]))
    """"competitive" (self-play: the learner in one seat against an opponent), "cooperative" (one
    policy acts for every agent and learns from the shared team reward; no opponents, no pool) or
    "auto" (the mode the env's game declares, ``training.common.envs.env_mode``)"""
    seed: int = setting(1, SEED)
    """seed of the run's generators (torch, numpy, python, environments), in 0..2**63-1"""
    total_steps: int = setting(rule=POSITIVE, required="learner decisions to train")
    """learner decisions to train for (required)"""
    num_envs: int = setting(8, NUM_ENVS)
    """environments played in parallel"""
    num_steps: int = setting(128, integer(1, MAX_BATCH_SIZE))
    """learner decisions collected per environment per rollout"""
    learning_rate: float = setting(2.5e-4, POSITIVE_NUMBER)
    """the optimizer's learning rate"""
    anneal_lr: bool = setting(True)
    """anneal the learning rate linearly to 0 over the run"""
    gamma: float = setting(0.99, UNIT_HALF_OPEN)
    """discount factor"""
    gae_lambda: float = setting(0.95, UNIT_HALF_OPEN)
    """lambda of generalized advantage estimation"""
    num_minibatches: int = setting(4, POSITIVE)
    """minibatches each rollout is split into"""
    update_epochs: int = setting(4, POSITIVE)
    """passes over each rollout"""
    clip_coef: float = setting(0.2, POSITIVE_NUMBER)
    """PPO's surrogate clipping coefficient"""
    clip_vloss: bool = setting(True)
    """clip the value loss as PPO's paper does"""
    ent_coef: float = setting(0.01, NON_NEGATIVE_NUMBER)
    """coefficient of the entropy bonus"""
    vf_coef: float = setting(0.5, NON_NEGATIVE_NUMBER)
    """coefficient of the value loss"""
    max_grad_norm: float = setting(0.5, POSITIVE_NUMBER)
    """maximum norm of the gradient (clipped above it)"""
    norm_adv: bool = setting(True)
    """normalize advantages per minibatch"""
    hidden_sizes: list[int] = setting([256, 256], LAYER_WIDTHS)
    """widths of the network's hidden layers (at most 8 layers of at most 2048 units)"""
    network: str = setting("mlp", choice(NETWORKS))
    """the torso (``reborn_env/policies/network.py``): "mlp" (the flat observation) or "records"
    (each field of records of the env's observation layout, e.g. one per character, through one
    shared
    encoder first)"""
    record_embed: int = setting(64, integer(1, MAX_HIDDEN_WIDTH))
    """with the "records" torso: floats each record is encoded into"""
    torch_threads: int = setting(1, TORCH_THREADS)
    """threads torch may use"""
    overlap: bool = setting(False)
    """collect the next rollout while the update runs, on a second thread (a second core): each
    update then learns from games its policy of one update before played
    (``training/ppo/overlap.py``)"""
    device: str = setting("auto", choice(DEVICES))
    """where the networks compute (``training/common/device.py``): "cuda", "cpu", or "auto" (the
    GPU where torch sees one); checkpoints and policy files are device-free either way"""
    precision: str = setting("auto", choice(PRECISIONS))
    """the network's arithmetic in rollouts and updates (``training/common/precision.py``):
    "bfloat16" (torch's autocast; weights and policy files stay float32), "float32", or "auto"
    (bfloat16 on a CPU with AMX or AVX-512 bf16 units, else float32)"""
    fused_update: bool = setting(True)
    """PPO's update: the MLP network's gradients by the chain rule written out
    (``training/ppo/fused.py``: the same within rounding, in fewer of torch's operations);
    false: autograd, the reference. MMD's update (``training/mmd/loss.py``) reads it too"""
    update_threads: int = setting(1, TORCH_THREADS)
    """with ``fused_update``, on a CPU: threads each minibatch's rows are split over, each
    share's forward and backward on its own (``training/ppo/fused.py``); 2 uses both cores of
    a 2-core machine without torch's OpenMP threads, for a run that has the machine to itself
    (``docs/training.md``)"""
    snapshot_every: int = setting(10, integer(0, allowed="must be an integer >= 0 (0: never)"))
    """updates between adding the current policy to the opponent pool (competitive mode); 0:
    never, so the pool holds only the snapshot taken when imitation ends (as RLlib's config)"""
    pool_size: int = setting(8, integer(1, MAX_POOL_SIZE))
    """most snapshots kept in the opponent pool (oldest dropped first)"""
    latest_opponent_prob: float = setting(0.5, PROBABILITY)
    """probability an episode's opponent is the current policy rather than a pool snapshot (with
    ``pfsp``: rather than a snapshot or a bot)"""
    bot_opponents: list[str] = setting([])
    """scripted or saved bots that also sit opposite the learner ("random", "heuristic", a path)"""
    bot_opponent_prob: float = setting(0.0, PROBABILITY)
    """probability an episode's opponent is one of ``bot_opponents`` (drawn uniformly; ``uniform``
    sampling only)"""
    opponent_sampling: str = setting("uniform", choice(OPPONENT_SAMPLING))
    """how an episode's opponent is drawn (``training/selfplay/opponents.py``): "uniform" (a bot
    with ``bot_opponent_prob``, else the current policy or a snapshot) or "pfsp" (prioritised
    fictitious self-play: the current policy with ``latest_opponent_prob``, else the snapshots
    and bots that still beat the learner in its seat, most often)"""
    seat_sampling: str = setting("uniform", choice(OPPONENT_SAMPLING))
    """how the learner's seat is drawn: "uniform" or "pfsp" (the seat that loses most to the
    bots of ``bot_opponents`` is played most, training/selfplay/opponents.py)"""
    pfsp_power: float = setting(2.0, NON_NEGATIVE_NUMBER)
    """with ``pfsp``: an opponent's weight is (1 - the learner's score against it) ** pfsp_power"""
    learner_seat: str = setting("")
    """the one seat (agent name) the learner plays in every game; empty: drawn per game by
    ``seat_sampling`` (competitive runs; a best response, ``training/exploit.py``, fixes it)"""
    max_minutes: float = setting(0.0, NON_NEGATIVE_NUMBER)
    """stop after the first update that ends past this many minutes of training (imitation
    excluded), with a final evaluation and checkpoint as at ``total_steps``; 0: no limit"""
    restart_prob: float = setting(0.0, PROBABILITY)
    """probability a training game begins from a position of an earlier training game rather
    than at the start (``training/selfplay/restarts.py``), so late, rare decisions are met more
    often"""
    num_threads: int = setting(1, VECTOR_THREADS)
    """threads the game vector steps its games with (games with a compiled core; 1 elsewhere)"""
    init_policy: str = setting("")
    """a checkpoint of the same env and network whose weights the network starts from (before
    any imitation); empty: fresh weights"""
    imitation_games: int = setting(0, COUNT)
    """teacher games (``imitation_teacher``) to imitate before PPO starts; 0 turns it off"""
    imitation_teacher: str = setting("heuristic")
    """the bot whose decisions the warm start imitates: a name its game registers
    (``GameSpec.bots``, e.g. "heuristic"), "random", or a policy file (a best response's clone
    of the policy it answers, ``training/exploit``)"""
    imitation_epochs: int = setting(4, POSITIVE)
    """passes over each chunk of teacher decisions"""
    dagger_rounds: int = setting(0, integer(0, MAX_DAGGER_ROUNDS))
    """rounds of DAgger after cloning (training/warmstart/imitation.py): the policy plays
    ``imitation_chunk`` games, the teacher labels its decisions, and the network is fitted to all
    labels so far (all rounds' labels are kept: about 85 MB per 200 games of the default game)"""
    imitation_chunk: int = setting(200, integer(1, MAX_IMITATION_CHUNK))
    """teacher games recorded and cloned at a time: fewer keep memory small, more (all of
    ``imitation_games``) let every pass see every game, so later chunks do not wash out earlier
    ones (about 1.2 GB per 1000 games of a bundled team game)"""
    eval_every: int = setting(10, POSITIVE)
    """updates between evaluations"""
    eval_games: int = setting(20, POSITIVE)
    """evaluation games per seat against each evaluation opponent (cooperative: games per
    evaluated team, on the same seeds)"""
    eval_greedy: bool = setting(False)
    """competitive mode: evaluate the policy playing its most likely action (greedy) instead of
    sampling (a cooperative run evaluates both)"""
    eval_opponents: list[str] = setting(["random", "heuristic"])
    """evaluation opponents: "random", "heuristic" or the path of a checkpoint; in cooperative
    mode the teams of these bots whose win rates the policy's are logged next to"""
    checkpoint_dir: str = setting("checkpoints/run", non_empty("path"))
    """directory the run's checkpoints are written to"""
    checkpoint_every: int = setting(10, POSITIVE)
    """updates between checkpoints"""
    run_name: str = setting("run", non_empty("string"))
    """name of the run (logs, plots)"""

    def check_together(self) -> None:
        """Refuse keys that disagree with each other (or with the env's bots and agents)."""
        source = self.origin
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
                        f"{self.env!r} ({names(bots) or 'none'}) nor an existing checkpoint file"
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
        """Build the env once from ``env_kwargs`` (:meth:`Schema.check_env`): found before any
        training, not when the first env is made; ``learner_seat``, if set, must be one of its
        agents."""
        sizes = super().check_env()
        if self.learner_seat:
            agents = list(make_env(self.env, **self.env_kwargs).possible_agents)
            if self.learner_seat not in agents:
                raise ConfigError(
                    f"{self.origin}: key 'learner_seat': {self.learner_seat!r} is not an agent "
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


def load_config(path: str | os.PathLike[str]) -> TrainConfig:
    """Read and check the YAML config at ``path``, building its env once
    (:meth:`TrainConfig.check_env`); any problem raises :class:`ConfigError`."""
    return TrainConfig.load(path)
