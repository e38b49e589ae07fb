"""A continuous league: main exploiters that keep learning against the current main policy while
it learns against them and their past selves, as AlphaStar's main exploiters do.

Frozen exploiters are beaten one by one and a fresh one finds the same weakness again (the
rounds of ``training/league/train.py``); here the exploiters follow the main policy as it moves.
Each phase, in ``exploiter_workers`` processes at once:

- the main policy makes ``phase_updates`` MMD updates (``training.mmd``) against the field
  (``bot_opponents``), the current main exploiters and their frozen copies, by PFSP;
- each main exploiter makes ``exploiter_phase_updates`` PPO updates (the protocol's best
  response, ``training/exploit/best_response.py``) against the main policy as it stood at the
  phase's start;

then each publishes its weights for the next phase. Before the first phase each exploiter
learns ``exploiter_warmup_updates`` against the starting policy alone. Every
``exploiter_snapshot_every`` phases a frozen copy of each exploiter joins the main policy's
opponents for good. Every ``exploiter_reset_every`` phases the exploiters, frozen first, start
again from their warm starts (``clone:target`` from the main policy's weights of the moment), as
AlphaStar resets its main exploiters: an exploiter that has stopped finding anything is
replaced by a fresh one, as the protocol's own exploiters are fresh. The league stops when the
main policy has made its ``total_steps``' updates, or before a phase that would end past
``max_minutes`` (the league's whole clock; the main policy's first phase always runs).

In ``<checkpoint_dir>``: ``main/`` and ``exploiters/<seat>--<name>/`` (each run's checkpoints,
TensorBoard events and ``train.log``), ``opponents/`` (the weights each side meets this phase,
and the frozen copies), ``league.json`` (each phase's scores) and the last main policy,
``policy.pt``.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reborn_env.core.files import atomic_copy, atomic_write
from training.common.schema import ConfigError
from training.exploit.best_response import best_response_config
from training.exploit.exploiters import Budget, Exploiter
from training.exploit.protocol import lineup
from training.league.config import LeagueConfig
from training.runs.run_files import POLICY, prepare_run_dirs

REPORT = "league.json"
MAIN = "main"


@dataclass(frozen=True)
class MainExploiter:
    """One main exploiter: the protocol's learned ``exploiter``, attacking the main policy's
    seat ``target_seat`` (at index ``target`` of the game's seats) from ``seat`` (at ``index``)."""

    exploiter: Exploiter
    target_seat: str
    seat: str
    index: int
    target: int
    seed: int

    @property
    def key(self) -> str:
        """Its folder's and its published weights' name."""
        return f"{self.target_seat}--{self.exploiter.name.replace(':', '-')}"


def main_exploiters(cfg: LeagueConfig) -> list[MainExploiter]:
    """The league's main exploiters; ConfigError for a seat or a name the game does not have."""
    agents, found = lineup(cfg.init_policy, cfg.env, Budget(), cfg.seed)
    learned = {e.name: e for e in found if e.learned}
    for seat in cfg.main_exploiters:
        if seat not in agents:
            raise ConfigError(
                f"{cfg.origin}: key 'main_exploiters': {seat!r} is not a seat of {cfg.env}; "
                f"the seats: {', '.join(agents)}"
            )
    chosen = []
    for t, target_seat in enumerate(agents):
        for name in cfg.main_exploiters.get(target_seat, ["clone:target"]):
            if name not in learned:
                raise ConfigError(
                    f"{cfg.origin}: key 'main_exploiters': {name!r} is not a learned exploiter "
                    f"of the protocol; they are: {', '.join(learned)}"
                )
            seed = cfg.seed + 1000 * t + list(learned).index(name)
            chosen.append(MainExploiter(learned[name], target_seat, agents[1 - t], 1 - t, t, seed))
    return chosen


def exploiter_keys(cfg: LeagueConfig, exploiter: MainExploiter, out: Path) -> dict[str, Any]:
    """The PPO config (as a dict) of ``exploiter``'s whole run against the published main."""
    phases = math.ceil(cfg.main_config().num_updates / cfg.phase_updates)
    budget = Budget(
        updates=cfg.exploiter_warmup_updates + phases * cfg.exploiter_phase_updates,
        imitation_games=cfg.exploiter_imitation_games,
        ppo=dict(cfg.exploiter_ppo),
    )
    train_cfg = best_response_config(
        exploiter.exploiter, str(published(out, MAIN)), cfg.env, exploiter.seat, budget,
        exploiter.seed, out / "exploiters" / exploiter.key,
    )  # fmt: skip
    return train_cfg.to_dict()


def main_keys(cfg: LeagueConfig, out: Path, opponents: list[str]) -> dict[str, Any]:
    """The MMD config (as a dict) of the main policy's run, meeting ``opponents`` too."""
    return cfg.main_config(
        bot_opponents=[*cfg.bot_opponents, *opponents],
        checkpoint_dir=str(out / MAIN / "checkpoints"),
        run_name=f"{cfg.run_name}-main",
        max_minutes=0.0,  # the league keeps the clock
    ).to_dict()


def published(out: Path, key: str) -> Path:
    """Where a run's weights are published for the other side to meet."""
    return out / "opponents" / f"{key}.pt"


def run_leg(
    kind: str, keys: dict[str, Any], resume: bool, updates: int, folder: str
) -> dict[str, Any]:
    """``updates`` more updates of one run (``kind``: the main policy's MMD, or an exploiter's
    PPO), in a worker; its update count and its scores against its opponents."""
    from training.mmd.config import MMDConfig
    from training.mmd.train import train as train_mmd
    from training.ppo.config import TrainConfig
    from training.ppo.resume import save_run
    from training.ppo.train import train as train_ppo

    config, train = (MMDConfig, train_mmd) if kind == MAIN else (TrainConfig, train_ppo)
    cfg = config.from_dict(keys, source=f"training.league ({kind})")
    with open(Path(folder) / "train.log", "a") as log, redirect_stdout(log):
        trainer = train(
            cfg, resume=resume, overwrite=not resume, stop_after=updates,
            log_dir=str(Path(folder) / "runs"),
        )  # fmt: skip
        save_run(trainer, Path(cfg.checkpoint_dir))  # the phase ends on a checkpoint
    return {"update": trainer.update, "scores": trainer.opponents.scores}


def score_of(scores: dict[str, list[float]], opponent: Path, seat: int) -> float | None:
    """A run's moving-average score against the policy file ``opponent`` in ``seat``."""
    found = scores.get(f"bot:{opponent}")
    return None if found is None else round(found[seat], 3)


class League:
    """The state of a continuous league between phases."""

    def __init__(self, cfg: LeagueConfig, log: Callable[[str], None]) -> None:
        self.cfg, self.log = cfg, log
        self.out = Path(cfg.checkpoint_dir)
        self.exploiters = main_exploiters(cfg)
        atomic_copy(Path(cfg.init_policy), published(self.out, MAIN))  # what the exploiters meet
        self.exploiter_cfgs = {e.key: exploiter_keys(cfg, e, self.out) for e in self.exploiters}
        self.frozen: list[str] = []
        self.phases: list[dict[str, Any]] = []
        self.started: set[str] = set()

    def leg(
        self, pool: ProcessPoolExecutor, kind: str, keys: dict[str, Any], updates: int
    ) -> Future[dict[str, Any]]:
        """Submit ``updates`` more updates of the run ``kind`` (resumed after its first leg)."""
        folder = self.out / (MAIN if kind == MAIN else f"exploiters/{kind}")
        folder.mkdir(parents=True, exist_ok=True)
        future = pool.submit(run_leg, kind, keys, kind in self.started, updates, str(folder))
        self.started.add(kind)
        return future

    def play_phase(self, pool: ProcessPoolExecutor, phase: int) -> dict[str, Any]:
        """One phase (0: the exploiters' warm-up alone); its record."""
        began = time.perf_counter()
        cfg = self.cfg
        opponents = [str(published(self.out, e.key)) for e in self.exploiters] + self.frozen
        main = None
        if phase > 0:
            main = self.leg(pool, MAIN, main_keys(cfg, self.out, opponents), cfg.phase_updates)
        updates = cfg.exploiter_phase_updates if phase > 0 else cfg.exploiter_warmup_updates
        legs = {e.key: self.leg(pool, e.key, self.exploiter_cfgs[e.key], updates)
                for e in self.exploiters}  # fmt: skip
        record: dict[str, Any] = {"phase": phase, "exploiters": {}}
        main_file = published(self.out, MAIN)
        for e in self.exploiters:
            done = legs[e.key].result()
            run = self.out / "exploiters" / e.key / "checkpoints"
            atomic_copy(run / POLICY, published(self.out, e.key))
            record["exploiters"][e.key] = {
                "updates": done["update"],
                "score_vs_main": score_of(done["scores"], main_file, e.index),
            }
        if main is not None:
            done = main.result()
            atomic_copy(self.out / MAIN / "checkpoints" / POLICY, main_file)
            record["main"] = {
                "updates": done["update"],
                "score_vs_exploiters": {
                    e.key: score_of(done["scores"], published(self.out, e.key), e.target)
                    for e in self.exploiters
                },
            }
            self.freeze(phase)
            record["reset"] = self.resets(phase)
        record["wall_s"] = round(time.perf_counter() - began, 1)
        self.phases.append(record)
        self.log(phase_line(record))
        return record

    def freeze(self, phase: int) -> None:
        """Every ``exploiter_snapshot_every`` phases, and before a reset, keep each exploiter's
        weights as they are in the main policy's field."""
        every, reset = self.cfg.exploiter_snapshot_every, self.resets(phase)
        if reset or (every and phase % every == 0):
            for e in self.exploiters:
                copy = self.out / "opponents" / f"{e.key}-phase{phase}.pt"
                atomic_copy(published(self.out, e.key), copy)
                self.frozen.append(str(copy))
        if reset:
            self.reset(phase)

    def resets(self, phase: int) -> bool:
        """Whether the exploiters start again after ``phase``."""
        every = self.cfg.exploiter_reset_every
        return bool(every) and phase % every == 0

    def reset(self, phase: int) -> None:
        """Each exploiter starts its run again from its warm start, a clone by imitating its bot
        again and ``clone:target`` from the main policy's current weights (the protocol's fresh
        best responses, met by the main policy from the next phase on)."""
        main_now = self.out / "opponents" / f"{MAIN}-phase{phase}.pt"
        atomic_copy(published(self.out, MAIN), main_now)
        for e in self.exploiters:
            keys = self.exploiter_cfgs[e.key]
            if keys.get("init_policy"):
                keys["init_policy"] = str(main_now)
            keys["seed"] = e.seed + phase  # a new run, not the first one's again
            self.started.discard(e.key)

    def write(self) -> None:
        """``league.json``, atomically."""
        report = {"config": self.cfg.to_dict(), "schedule": "continuous",
                  "exploiters": [{"name": e.exploiter.name, "target_seat": e.target_seat,
                                  "seed": e.seed} for e in self.exploiters], "frozen": self.frozen,
                  "phases": self.phases}  # fmt: skip
        with atomic_write(self.out / REPORT) as f:
            f.write(json.dumps(report, indent=1).encode())


def shown(score: float | None) -> str:
    """A score as a progress line shows it ("-": no game finished against that one yet)."""
    return "-" if score is None else f"{score:.2f}"


def phase_line(record: dict[str, Any]) -> str:
    """A phase's progress line: what each side scores against the other now."""
    line = f"league phase {record['phase']} ({record['wall_s']:.0f} s):"
    if "main" in record:
        main = record["main"]
        against = ", ".join(f"{k} {shown(v)}" for k, v in main["score_vs_exploiters"].items())
        line += f" main update {main['updates']}, its score vs {against};"
    mains = ", ".join(
        f"{k} {shown(v['score_vs_main'])} ({v['updates']} updates)"
        for k, v in record["exploiters"].items()
    )
    reset = "; the exploiters start again" if record.get("reset") else ""
    return f"{line} exploiters' score vs main: {mains}{reset}"


def train_continuous(
    cfg: LeagueConfig, overwrite: bool = False, log: Callable[[str], None] = print
) -> list[dict[str, Any]]:
    """The whole continuous league; its phases' records (also in ``league.json``)."""
    prepare_run_dirs(cfg, overwrite=overwrite)
    league = League(cfg, log)
    out = league.out
    start = time.perf_counter()
    target = cfg.main_config().num_updates
    context = multiprocessing.get_context("spawn")  # no copy of a parent's torch threads
    with ProcessPoolExecutor(cfg.exploiter_workers, mp_context=context) as pool:
        league.play_phase(pool, 0)
        phase, main_updates = 1, 0
        while main_updates < target:
            elapsed = time.perf_counter() - start
            last = league.phases[-1]["wall_s"]
            if phase > 1 and 0 < cfg.max_minutes * 60 < elapsed + last:
                log(f"league: stopped before phase {phase}: max_minutes ({cfg.max_minutes}) "
                    f"would pass ({elapsed:.0f} s so far)")  # fmt: skip
                break
            main_updates = league.play_phase(pool, phase)["main"]["updates"]
            league.write()
            phase += 1
    league.write()
    atomic_copy(out / MAIN / "checkpoints" / POLICY, out / POLICY)
    log(f"league done in {time.perf_counter() - start:.0f} s: {out / POLICY}, "
        f"{main_updates} main updates over {phase - 1} phases")  # fmt: skip
    return league.phases
