"""Neural Fictitious Self-Play over the game vector: a second learning family beside PPO.

Run: ``python -m training.nfsp --config configs/earth_reborn_nfsp.yaml [--overwrite]``. It writes
``<checkpoint_dir>/policy.pt`` (the average policy, a checkpoint that ``load_bot``, the
evaluation, the tournament and the export read like PPO's) and ``learning_curve.png``. A user's
mistake ends the command with one line ``error: ...`` and status 2 (``training/common/cli.py``).
``--resume`` is not supported: continuing a run exactly would need its two memories (hundreds of
MB) and every game in progress saved, so an interrupted run starts again.

Every seat of every game is an NFSP agent (``training/nfsp/learner.py``; the seats share one set
of networks). At the start of each game each seat draws its mode for the game, as OpenSpiel and
RLCard do: with probability ``anticipatory`` (eta) it plays its best response (epsilon-greedy
DQN), and its decisions go into the reservoir; otherwise it samples the average policy. Either
way its transitions go into the replay buffer: (observation, action, the rewards that seat
received until its next decision, that decision's observation and mask), closed at the end of the
game with the final reward (ER-WIN-3's +1/-1, and ``mp_shaping``'s per-step reward if the config
sets it), as ``training/ppo/rollout.py`` credits a seat's rewards to its last decision; a game cut
at ``max_steps`` closes the same way (a draw, ER-ENV-9: nothing is bootstrapped). Every
``learn_every`` decisions (of both seats) both networks take one gradient step (a *learning step*,
counted in the checkpoint's ``update``).

With ``teacher_games`` the run starts as PPO's shipped run does, from a bot of the game's: its
decisions (``training/warmstart/imitation.py``'s recording) seed the reservoir and the average
policy is cloned from them, so fictitious play averages from the teacher's strategy rather than
from a uniform one, and the best response learns from games that reach the scenario's objectives.

Every ``eval_every`` learning steps the average policy plays ``eval_opponents`` in both seats in
the game vector (``training/selfplay/seating.py``'s evaluation, as PPO's runs are evaluated), and
the records go into the history, the learning curve and ``policy.pt``. Its ``step`` counts every
decision trained on, of both seats, the x axis of PPO's curve (whose learner plays one seat).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

from reborn_env.policies.artifact import CheckpointError, save_checkpoint
from reborn_env.policies.network import host_state, network_entry, to_host, to_network
from training.bench.matches import outcome
from training.common.cli import fail
from training.common.device import run_device
from training.common.driver import Driver, GameEnd, Seating, Turn, endless
from training.common.envs import env_version, make_vector_env
from training.common.schema import ConfigError, settings_of
from training.nfsp.config import NFSPConfig, load_nfsp_config
from training.nfsp.learner import LearnerSettings, NFSPLearner
from training.runs.run_files import CURVE, POLICY, RunDirError, prepare_run_dirs
from training.selfplay.seating import Competitive, Evaluation

ALGORITHM = "nfsp"
"""The checkpoint's ``algorithm`` entry (PPO's checkpoints have none)."""
PROGRESS_EVERY_S = 15.0
"""Seconds of training between two progress lines."""
RECENT_GAMES = 500
"""Self-play games the progress line's seat scores are over."""


class SeatAgents:
    """Every seat of every game an NFSP agent, as the driver's learner: each decides in its
    seat's mode for the game (best response or average policy) and keeps its last decision
    until the driver closes it, then it goes into the replay buffer as a transition."""

    def __init__(self, run: NFSPRun) -> None:
        n, seats, obs_size = run.venv.num_envs, len(run.venv.agents), run.venv.obs_size
        self.run = run
        self.obs = np.zeros((n, seats, obs_size), dtype=np.float32)
        self.action = np.zeros((n, seats), dtype=np.int64)
        self.best_response = run.rng.random((n, seats)) < run.cfg.anticipatory
        """each (game, seat)'s mode for this game"""

    def decide(self, turn: Turn) -> np.ndarray:
        run, learner, mask = self.run, self.run.learner, turn.mask.view(np.bool_)
        slots, seats, obs = turn.slots, turn.seats, turn.obs
        actions = np.empty(len(slots), dtype=np.int64)
        responding = self.best_response[slots, seats]
        br, avg = np.flatnonzero(responding), np.flatnonzero(~responding)
        if len(br):
            epsilon = run.cfg.epsilon(run.global_step)
            actions[br] = learner.best_response(obs[br], mask[br], epsilon, run.rng)
        if len(avg):
            actions[avg] = learner.average_policy(slots[avg], obs[avg], mask[avg])
        self.obs[slots, seats] = obs
        self.action[slots, seats] = actions
        return actions

    def close(self, slots: np.ndarray, seats: np.ndarray, rewards: np.ndarray, done: bool) -> None:
        """The transitions of (``slots``, ``seats``) into the replay buffer: closed by the
        seat's next decision (the vector's rows now), or by the game's end (zeros)."""
        venv = self.run.venv
        if done:
            next_obs = np.zeros((len(slots), venv.obs_size), dtype=np.float32)
            next_mask = np.zeros((len(slots), venv.n_actions), dtype=np.bool_)
        else:
            next_obs, next_mask = venv.obs[slots], venv.mask[slots].view(np.bool_)
        self.run.learner.replay.add(
            {
                "obs": self.obs[slots, seats],
                "action": self.action[slots, seats],
                "reward": rewards,
                "next_obs": next_obs,
                "next_mask": next_mask,
                "done": np.full(len(slots), float(done), dtype=np.float32),
            }
        )

    def reset(self, i: int) -> None:
        """Slot ``i``'s new game: every seat draws its mode."""
        run = self.run
        self.best_response[i] = run.rng.random(len(run.venv.agents)) < run.cfg.anticipatory


@dataclass
class NFSPRun:
    """The whole state of a run (``global_step`` and ``update`` are what an evaluation record of
    ``training/selfplay/seating.py`` carries)."""

    cfg: NFSPConfig
    learner: NFSPLearner
    venv: Any
    rng: np.random.Generator
    global_step: int = 0  # decisions played, both seats
    update: int = 0  # learning steps
    games: int = 0
    history: list[dict[str, Any]] = field(default_factory=list)
    losses: dict[str, float] = field(default_factory=dict)
    credit: float = 0.0  # learning steps due
    recent: deque[int] = field(default_factory=lambda: deque(maxlen=RECENT_GAMES))
    """the winning seat of each recent self-play game (-1: a draw)"""
    wall_time: float = 0.0
    timers: dict[str, float] = field(
        default_factory=lambda: {"play": 0.0, "learning": 0.0, "evaluation": 0.0}
    )
    driver: Driver | None = None
    """plays every seat of the vector's games endlessly, each seat a :class:`SeatAgents`"""


def build_run(cfg: NFSPConfig) -> NFSPRun:
    """Seed everything, make the game vector, the networks and the memories; draw every seat's
    mode for its first game."""
    random.seed(cfg.seed)
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(cfg.torch_threads)
    rng = np.random.default_rng(cfg.seed)
    venv = make_vector_env(cfg.env, cfg.num_envs, cfg.seed, cfg.num_threads, **cfg.env_kwargs)
    venv.reset()
    learner = NFSPLearner(settings_of(LearnerSettings, cfg), venv.obs_size, venv.n_actions)
    run = NFSPRun(cfg, learner, venv, rng)
    everyone = Seating((0,) * len(venv.agents), (True,) * len(venv.agents))
    run.driver = Driver(
        venv, (), lambda slot, game: everyone, endless(), SeatAgents(run), np.float32
    )
    run.driver.start(reset=False)
    return run


def play_round(run: NFSPRun) -> None:
    """One step of every game on the driver: the movers' open transitions closed, each mover
    acting in its mode, the rewards credited and the games that ended closed."""
    assert run.driver is not None, "build_run makes the driver"

    def count(end: GameEnd) -> None:
        result = outcome(end.rewards, 0, end.terminated)
        run.recent.append(0 if result > 0 else 1 if result < 0 else -1)
        run.games += 1

    run.driver.play_round(count)
    run.global_step += run.venv.num_envs


def policy_payload(run: NFSPRun) -> dict[str, Any]:
    """The policy file: the average policy as ``model`` (what ``load_bot`` plays), the best
    response's Q-network beside it, the config, the history."""
    venv, learner = run.venv, run.learner
    weights = host_state(learner.average)
    return {
        "env": {
            "name": run.cfg.env,
            "version": env_version(run.cfg.env),
            "obs_size": venv.obs_size,
            "n_actions": venv.n_actions,
            "agents": list(venv.agents),
        },
        "config": run.cfg.to_dict(),
        "algorithm": ALGORITHM,
        "model": weights,
        "network": network_entry(learner.average),
        "best_response": host_state(learner.q),
        "global_step": run.global_step,
        "update": run.update,
        "games": run.games,
        "history": [dict(record) for record in run.history],
        "wall_time": run.wall_time,
    }


def seed_reservoir(run: NFSPRun) -> str:
    """``teacher_games`` games of the teacher (``training/warmstart/imitation.py``'s recording: one
    seat a game, against itself or the random bot) into the reservoir, and ``teacher_epochs``
    passes of the average policy over them; the log line. The reservoir then averages the teacher's
    decisions with every best response's, as fictitious play averages from a first strategy."""
    from training.warmstart.imitation import record_games

    cfg, learner = run.cfg, run.learner
    begun = time.perf_counter()
    data = record_games(cfg.env, cfg.env_kwargs, cfg.teacher_games, cfg.seed, cfg.gamma,
                        num_envs=cfg.num_envs, teacher_name=cfg.teacher)  # fmt: skip
    rows = {"obs": data["obs"].decode().numpy(), "mask": data["masks"].numpy()}
    learner.reservoir.add({**rows, "action": data["actions"].numpy()}, run.rng)
    steps = math.ceil(cfg.teacher_epochs * len(data["actions"]) / cfg.batch_size)
    losses = [learner.learn_average(run.rng) for _ in range(steps)]
    average = learner.average
    with torch.no_grad():
        obs, mask = (to_network(average, data[k][:4096]) for k in ("obs", "masks"))
        choices = to_host(average(obs, mask)[0].argmax(-1))
    agree = float((choices == data["actions"][:4096]).float().mean())
    run.timers["teacher"] = time.perf_counter() - begun
    return (
        f"{cfg.teacher} cloned in {run.timers['teacher']:.0f} s: {len(data['actions'])} decisions "
        f"of {cfg.teacher_games} games, {steps} steps, loss {losses[-1]:.3f}, the average policy's "
        f"first choice is the teacher's in {agree:.1%} of the first 4096"
    )


def evaluate(run: NFSPRun, out: Path) -> str:
    """Evaluate the average policy against ``eval_opponents``, add the records to the history,
    redraw the curve and save the policy; the log lines, each after a newline."""
    from training.runs.plots import plot_learning_curve

    seating = Competitive(settings_of(Evaluation, run.cfg))
    begun = time.perf_counter()
    records = seating.evaluate(run, policy_payload(run))
    run.history += records
    run.timers["evaluation"] += time.perf_counter() - begun
    lines = (
        f"\n  evaluation after learning step {run.update} (decision {run.global_step}), "
        f"{run.cfg.eval_games} seeded games per seat:"
    )
    for record in records:
        lines += f"\n    {seating.describe(record)[1]}"
    title = f"{run.cfg.run_name} (NFSP average policy)"
    marks = {f"{run.cfg.teacher} cloned": 0} if run.cfg.teacher_games else {}
    plot_learning_curve(run.history, out / CURVE, title, seating.legend, seating.reference, marks)
    save_checkpoint(out / POLICY, policy_payload(run))
    return lines


def progress_line(run: NFSPRun) -> str:
    """``decisions D/T  R decisions/s  learning step U  games G (each seat's share of the last
    500 won)  epsilon E  losses  memories``."""
    training = max(run.wall_time - run.timers["evaluation"], 1e-9)
    learner, cfg = run.learner, run.cfg
    losses = "  ".join(f"{k.replace('_', ' ')} {v:.4f}" for k, v in run.losses.items())
    wins = "/".join(
        f"{agent} {run.recent.count(k) / max(len(run.recent), 1):.0%}"
        for k, agent in enumerate(run.venv.agents)
    )
    return (
        f"decisions {run.global_step}/{cfg.total_steps}  {run.global_step / training:.0f} "
        f"decisions/s  learning step {run.update}  games {run.games} (won {wins})  "
        f"epsilon {cfg.epsilon(run.global_step):.4f}  {losses}  replay {len(learner.replay)}  "
        f"reservoir {len(learner.reservoir)} of {learner.reservoir.added}"
    )


def summary_line(run: NFSPRun, policy: Path) -> str:
    """The run's last line: what it did, how fast, where its policy is."""
    training = max(run.wall_time - run.timers["evaluation"], 1e-9)
    split = ", ".join(f"{k} {v:.0f} s" for k, v in run.timers.items())
    return (
        f"done: {run.global_step} decisions ({run.games} games), {run.update} learning steps "
        f"in {run.wall_time:.0f} s ({run.global_step / training:.0f} decisions/s outside "
        f"evaluation; {split}); average policy {policy}"
    )


def preflight(cfg: NFSPConfig, overwrite: bool = False) -> Path:
    """Check the env, the evaluation opponents and the output folder before training (a fresh
    run refuses a ``checkpoint_dir`` holding files unless ``overwrite``); the folder."""
    from training.bench.evaluate import make_opponent

    cfg.check_env()
    run_device(cfg)
    for spec in dict.fromkeys(cfg.eval_opponents):
        make_opponent(spec, cfg.env, seed=cfg.seed)
    out = Path(cfg.checkpoint_dir)
    written = [name for name in (POLICY, CURVE) if (out / name).exists()]
    if written and not overwrite:
        raise RunDirError(
            f"checkpoint_dir {out} holds an earlier run's {' and '.join(written)}; pass "
            "--overwrite to delete them and start again (an NFSP run cannot be resumed)"
        )
    prepare_run_dirs(cfg, log_dir=str(out), overwrite=overwrite)  # type: ignore[arg-type]
    return out


def train(cfg: NFSPConfig, overwrite: bool = False) -> NFSPRun:
    """The loop: play a round of every game, take the learning steps due, evaluate and save on
    schedule; the policy is evaluated before learning and at the end too."""
    out = preflight(cfg, overwrite)
    run = build_run(cfg)
    begun = time.perf_counter()
    if cfg.teacher_games:
        print(seed_reservoir(run), flush=True)
    if cfg.eval_opponents:
        start = "cloned" if cfg.teacher_games else "untrained"
        print(f"{start} average policy" + evaluate(run, out), flush=True)
    shown = learning_began = time.perf_counter()
    while run.global_step < cfg.total_steps:
        if 0 < cfg.max_minutes * 60 <= time.perf_counter() - learning_began:
            print(f"max_minutes: stopped at step {run.global_step} ({cfg.max_minutes} min)")
            break
        start = time.perf_counter()
        play_round(run)
        learning = time.perf_counter()
        run.timers["play"] += learning - start
        run.credit += run.venv.num_envs / cfg.learn_every
        line = ""
        while run.credit >= 1.0 and run.learner.ready():
            run.credit -= 1.0
            run.losses = run.learner.learn(run.rng)
            run.update += 1
            if run.update % cfg.eval_every == 0:
                run.timers["learning"] += time.perf_counter() - learning
                run.wall_time = time.perf_counter() - begun
                line += progress_line(run) + (evaluate(run, out) if cfg.eval_opponents else "")
                learning = time.perf_counter()
        if not run.learner.ready():
            run.credit = 0.0
        run.timers["learning"] += time.perf_counter() - learning
        run.wall_time = time.perf_counter() - begun
        if not line and time.perf_counter() - shown >= PROGRESS_EVERY_S:
            line = progress_line(run)
        if line:
            print(line, flush=True)
            shown = time.perf_counter()
    if cfg.eval_opponents and (not run.history or run.history[-1]["step"] != run.global_step):
        print(progress_line(run) + evaluate(run, out), flush=True)
    run.wall_time = time.perf_counter() - begun
    save_checkpoint(out / POLICY, policy_payload(run))
    run.venv.close()
    print(summary_line(run, out / POLICY), flush=True)
    return run


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; the exit status (2, with one ``error:`` line, on a user's mistake)."""
    from training.bench.evaluate import OpponentError

    parser = argparse.ArgumentParser(
        prog="python -m training.nfsp",
        description="Neural Fictitious Self-Play: a DQN best response and a supervised average "
        "policy for every seat; the average policy is saved as a bot",
    )
    parser.add_argument("--config", required=True, help="YAML file in configs/")
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help="start again, deleting the earlier run's policy.pt and learning curve",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="not supported: an NFSP run cannot be continued (its memories are not saved)",
    )
    args = parser.parse_args(argv)
    if args.resume:
        return fail(
            "--resume is not supported by training.nfsp.train: a run's replay buffer and reservoir "
            "are not saved, so it cannot continue exactly; start it again with --overwrite"
        )
    try:
        train(load_nfsp_config(args.config), overwrite=args.overwrite)
    except (ConfigError, CheckpointError, OpponentError, RunDirError) as exc:
        return fail(exc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
