"""PPO for any PettingZoo AEC environment with action masks (after CleanRL's ppo.py): self-play
for competitive games, one shared policy for cooperative ones.

Run: ``python -m training.ppo --config configs/quickstart.yaml [--resume | --overwrite]``.
Everything a run needs is checked before it trains (:func:`preflight`): the config (with its env
built once), its opponents' files, and its folders (``training/runs/run_files.py``: a run never
writes over an earlier one unless told ``--overwrite``). A user's mistake ends the command with one
line ``error: ...`` and status 2 (``training/common/cli.py``).

Read top to bottom: :func:`build_trainer` seeds everything and makes the game vector and the
network; :func:`train` is the loop, each step a module with one job:

1. collect a rollout (``training/ppo/rollout.py``): the game vector steps every game in one
   call, the learner's moves in one forward pass and each opponent's in one batched call;
2. compute advantages (``training/ppo/advantages.py``): GAE along each agent's own decisions;
3. update (``training/ppo/loss.py``): the clipped PPO loss and the optimiser's steps; with
   ``overlap``, on a second thread while the next rollout is collected
   (``training/ppo/overlap.py``);
4. snapshot the policy into the opponent pool (``training/selfplay/opponents.py``), log and evaluate
   (``training/ppo/progress.py``) and checkpoint (``training/ppo/resume.py``) on schedule.

Who the learner plays is the run's *seating* (``training/selfplay/seating.py``): in a competitive
game it takes one seat (at random, or by ``seat_sampling``) and the other seat is played by the
current policy, a past snapshot from the pool or a scripted bot (drawn by ``opponent_sampling``);
in a cooperative game it plays every agent. Only the learner's
decisions are trained on, and each learner agent's decisions form their own trajectory (a GAE
stream): what happens between two of its decisions (the opponent's or its partner's moves) is
part of the environment, and the rewards that agent receives meanwhile belong to its last
decision; the team reward at the end of a cooperative game reaches every agent's last decision.
The whole state of a run is one :class:`~training.ppo.state.Trainer` (``training/ppo/state.py``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch

from reborn_env.policies.artifact import CheckpointError
from reborn_env.policies.network import MaskedActorCritic, build_model, record_sets
from training.common.cli import fail
from training.common.device import resolve_device, run_device
from training.common.envs import COOPERATIVE, make_vector_env, observation_layout
from training.common.schema import ConfigError, settings_of
from training.ppo.advantages import rollout_advantages
from training.ppo.config import TrainConfig, load_config
from training.ppo.init_policy import initial_weights
from training.ppo.inputs import Batch, Hyperparameters, Update, flatten
from training.ppo.loss import ppo_update
from training.ppo.overlap import learn_while_collecting, runs_alone, start_acting
from training.ppo.progress import done_line, evaluate_policy, log_update, progress_line
from training.ppo.resume import resume_run, save_run
from training.ppo.rollout import collect_rollout, start_episode
from training.ppo.state import Slots, Trainer
from training.runs.run_files import CURVE, LATEST, POLICY, RunDirError, prepare_run_dirs
from training.selfplay.opponents import League, OpponentPool
from training.selfplay.restarts import RestartPool
from training.selfplay.seating import Competitive, Cooperative, Evaluation, Seating
from training.warmstart.imitation import warm_start


def imitate_teacher(trainer: Trainer) -> None:
    """The run's warm start (``imitation_games``): clone ``imitation_teacher`` into the trainer's
    network, timed as imitation; in a cooperative run the teacher plays, and is imitated in,
    every seat. In self-play the imitated policy becomes the pool's first opponent."""
    cfg = trainer.cfg
    start = time.perf_counter()
    warm_start(
        trainer.model,
        cfg.env,
        cfg.env_kwargs,
        cfg.imitation_games,
        cfg.imitation_epochs,
        seed=cfg.seed * 7919,
        gamma=cfg.gamma,
        learning_rate=cfg.learning_rate * 4,
        vf_coef=cfg.vf_coef,
        rng=trainer.np_rng,
        chunk=cfg.imitation_chunk,
        team=trainer.seating.mode == COOPERATIVE,
        teacher_name=cfg.imitation_teacher,
        dagger_rounds=cfg.dagger_rounds,
        precision=cfg.precision,
    )
    if trainer.seating.uses_pool:
        trainer.opponents.add_snapshot(trainer.model)
    trainer.timers.imitation = time.perf_counter() - start


def seating_for(cfg: TrainConfig) -> Seating:
    """The seating of the run ``cfg`` describes (``cfg.resolved_mode``), with the settings it
    reads."""
    evaluation = settings_of(Evaluation, cfg)
    if cfg.resolved_mode == COOPERATIVE:
        return Cooperative(evaluation)
    return Competitive(evaluation, cfg.learner_seat)


def build_trainer(cfg: TrainConfig) -> Trainer:
    """Seed everything, make the envs and the network (CleanRL's opening lines)."""
    random.seed(cfg.seed)
    np_rng = np.random.default_rng(cfg.seed)
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(cfg.torch_threads)
    venv = make_vector_env(cfg.env, cfg.num_envs, cfg.seed, cfg.num_threads, **cfg.env_kwargs)
    sets = (
        record_sets(observation_layout(cfg.env, cfg.env_kwargs)) if cfg.network == "records" else []
    )
    model = build_model(venv.obs_size, venv.n_actions, cfg.hidden_sizes, sets, cfg.record_embed)
    if cfg.init_policy:
        model.load_state_dict(initial_weights(cfg, venv.obs_size, venv.n_actions))
    model.to(resolve_device(cfg.device))
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.learning_rate, eps=1e-5, fused=True)
    slots = Slots.empty(venv.num_envs, len(venv.agents))
    opponents = OpponentPool(settings_of(League, cfg))
    restarts = RestartPool(cfg.restart_prob)
    trainer = Trainer(
        cfg, model, optimizer, venv, slots, np_rng, seating_for(cfg), opponents, restarts
    )
    venv.reset()
    for i in range(venv.num_envs):
        start_episode(trainer, i)
    return trainer


def preflight(
    cfg: TrainConfig, log_dir: str | None = None, resume: bool = False, overwrite: bool = False
) -> Path:
    """Check everything a run needs before it trains; the log folder to write to.

    The env is built once from ``env_kwargs`` (:meth:`TrainConfig.check_env`), every opponent
    file is loaded and verified once (a damaged one would otherwise stop the run at its first
    game against it), and the folders are checked (:func:`training.runs.run_files.prepare_run_dirs`,
    which deletes an earlier run's files only with ``overwrite``, and only after the other checks
    passed). Raises :class:`ConfigError`, :class:`CheckpointError`, ``OpponentError`` or
    :class:`RunDirError`.
    """
    from training.bench.evaluate import make_opponent

    obs_size, n_actions = cfg.check_env()
    run_device(cfg)
    if cfg.init_policy:
        initial_weights(cfg, obs_size, n_actions)
    for spec in dict.fromkeys([*cfg.bot_opponents, *cfg.eval_opponents]):
        make_opponent(spec, cfg.env, seed=cfg.seed)
    return prepare_run_dirs(cfg, log_dir, resume=resume, overwrite=overwrite)


def ppo_step(cfg: TrainConfig) -> Update:
    """PPO's update with the run's hyperparameters: the loop's default."""
    hyperparameters = settings_of(Hyperparameters, cfg)

    def step(
        model: MaskedActorCritic,
        optimizer: torch.optim.Optimizer,
        batch: Batch,
        rng: np.random.Generator,
        update: int,
    ) -> dict[str, float]:
        return ppo_update(model, optimizer, batch, hyperparameters, rng, update)

    return step


def train(
    cfg: TrainConfig,
    resume: bool = False,
    log_dir: str | None = None,
    stop_after: int | None = None,
    overwrite: bool = False,
    update: Update | None = None,
) -> Trainer:
    """The loop: rollout, advantages, update, then snapshots, evaluation and checkpoints on
    schedule.

    :func:`preflight` runs first: a fresh run refuses a ``checkpoint_dir`` holding an earlier run
    unless ``overwrite``; ``log_dir`` replaces ``runs/<run_name>`` (and is the caller's to keep
    apart). ``stop_after`` ends the run after that many updates in this call, as if it were killed
    after its checkpoint (tests use it to check that ``--resume`` loses nothing). ``update`` is
    the algorithm's step on each rollout (PPO's, :func:`ppo_step`, unless another algorithm that
    plays this loop gives its own, as ``training.mmd`` does).
    """
    from torch.utils.tensorboard import SummaryWriter

    logs = preflight(cfg, log_dir, resume=resume, overwrite=overwrite)
    trainer = build_trainer(cfg)
    out = Path(cfg.checkpoint_dir)
    if resume:
        resume_run(trainer, out / LATEST)
        print(f"resumed {out / LATEST} at update {trainer.update}, step {trainer.global_step}")
    elif cfg.imitation_games:
        imitate_teacher(trainer)
    writer = SummaryWriter(str(logs))
    if not resume and cfg.imitation_games and cfg.eval_opponents:
        print(f"imitation done in {trainer.timers.imitation:.0f} s" + evaluate_policy(
            trainer, writer, out / CURVE), flush=True)  # fmt: skip
    begun = time.perf_counter() - trainer.wall_time
    last = (
        cfg.num_updates if stop_after is None else min(cfg.num_updates, trainer.update + stop_after)
    )
    learn = update if update is not None else ppo_step(cfg)
    if cfg.overlap:
        start_acting(trainer)
    collected = None
    while trainer.update < last:
        rollout = collected if collected is not None else collect_rollout(trainer)
        with trainer.timers.timed("learning"):
            advantages, returns = rollout_advantages(rollout, cfg.gamma, cfg.gae_lambda)
            batch = flatten(rollout, advantages, returns)
        if cfg.overlap:
            collect = not runs_alone(trainer, last)
            stats, collected = learn_while_collecting(trainer, learn, batch, collect)
        else:
            with trainer.timers.timed("learning"):
                model, optimizer = trainer.model, trainer.optimizer
                stats = learn(model, optimizer, batch, trainer.np_rng, trainer.update)
        trainer.update += 1
        trainer.wall_time = time.perf_counter() - begun
        log_update(writer, trainer, stats)
        if (
            trainer.seating.uses_pool
            and cfg.snapshot_every
            and trainer.update % cfg.snapshot_every == 0
        ):
            trainer.opponents.add_snapshot(trainer.model)
        line = progress_line(trainer, stats)
        out_of_time = 0 < cfg.max_minutes * 60 <= trainer.wall_time
        if out_of_time and collected is not None:
            trainer.global_step -= cfg.num_envs * cfg.num_steps  # played, never learnt from
        final = trainer.update == cfg.num_updates or out_of_time
        if cfg.eval_opponents and (trainer.update % cfg.eval_every == 0 or final):
            line += evaluate_policy(trainer, writer, out / CURVE)
        print(line, flush=True)
        if trainer.update % cfg.checkpoint_every == 0 or final:
            save_run(trainer, out)
        if out_of_time:
            print(f"max_minutes: stopped after update {trainer.update} ({cfg.max_minutes} min)")
            break
    writer.close()
    print(done_line(trainer, out / POLICY))
    return trainer


def main(
    argv: list[str] | None = None,
    prog: str = "python -m training.ppo",
    description: str = "PPO with action masks: self-play, or one policy for a cooperative team",
    load: Callable[[str], TrainConfig] = load_config,
    step: Callable[[TrainConfig], Update] = ppo_step,
) -> int:
    """Run the CLI; the exit status (2, with one ``error:`` line, on a user's mistake). Another
    algorithm of this loop runs it with its own ``load`` (its config) and ``step`` (its update)."""
    from training.bench.evaluate import OpponentError

    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--config", required=True, help="YAML file in configs/")
    again = parser.add_mutually_exclusive_group()
    again.add_argument(
        "--resume", action="store_true", help="continue from <checkpoint_dir>/latest.pt"
    )
    again.add_argument(
        "--overwrite",
        action="store_true",
        help="start again, deleting the earlier run's checkpoints, curve and TensorBoard events",
    )
    args = parser.parse_args(argv)
    try:
        cfg = load(args.config)
        train(cfg, resume=args.resume, overwrite=args.overwrite, update=step(cfg))
    except (ConfigError, CheckpointError, OpponentError, RunDirError) as exc:
        return fail(exc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
