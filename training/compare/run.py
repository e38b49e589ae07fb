"""Compare the algorithms at one equal training budget over seeds, and write the figures.

    python -m training.compare --config configs/earth_reborn_compare.yaml

For each seed: one warm start (a clone of ``warm_start_teacher``) that PPO, MMD and the league
start from (NFSP seeds its reservoir with as many of the teacher's games); then each algorithm
learns for ``minutes`` on one core; then each policy is measured greedily against the heuristic,
by the exploitability protocol (``training.exploit``) at the config's budget, and in one round
robin of every policy and the heuristic. ``workers`` jobs run at once, one process each; a job's
lines go to its folder's ``log.txt``, and a line here says when each ends. The report (``report``)
is written atomically after every job: the config, every job's record, and each algorithm's mean
and 95% interval across seeds; a rerun with the same config skips the jobs it holds. At the end,
a picture beside it (``.png``): each run's exploitability against its win rate.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import shlex
import sys
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reborn_env.core.files import atomic_write
from training.common.cli import fail
from training.common.schema import ConfigError
from training.compare import jobs
from training.compare.config import CompareConfig, load_compare_config
from training.compare.report import plot
from training.compare.summary import by_method, markdown, table

FORMAT = "reborn_env.comparison"
VERSION = 1


@dataclass(frozen=True)
class Job:
    """A unit of work: ``kind`` (warm, train, exploit, heuristic or round-robin), the run it
    concerns, and the jobs whose records it needs."""

    kind: str
    method: str = ""
    seed: int = 0
    needs: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        if self.kind == "warm":
            return f"warm-{self.seed}"
        return f"{self.kind}:{self.method}-{self.seed}" if self.method else self.kind


def plan(cfg: CompareConfig) -> list[Job]:
    """Every job of the comparison, the long ones first."""
    shared = any(m in jobs.SHARE_THE_WARM_START for m in cfg.methods)
    warm = [Job("warm", seed=s) for s in cfg.seeds] if shared else []
    trains = [
        Job("train", m, s, (f"warm-{s}",) if m in jobs.SHARE_THE_WARM_START else ())
        for s in cfg.seeds
        for m in cfg.methods
    ]
    measures = [Job(kind, t.method, t.seed, (t.key,)) for t in trains
                for kind in ("exploit", "heuristic")]  # fmt: skip
    robin = Job("round-robin", needs=tuple(t.key for t in trains))
    return [*warm, *trains, *measures, robin]


def launch(cfg: CompareConfig, job: Job, done: dict[str, Any]) -> tuple[Callable[..., Any], tuple]:
    """The function a worker runs for ``job`` and its arguments, from the records it needs."""
    out = Path(cfg.out)
    folder = out / f"{job.method}-{job.seed}"
    if job.kind == "warm":
        shaper = (
            "ppo"
            if "ppo" in cfg.methods
            else next(m for m in cfg.methods if m in jobs.SHARE_THE_WARM_START)
        )
        return jobs.warm_start, (cfg, shaper, job.seed, out / job.key)
    if job.kind == "train":
        warm = done.get(f"warm-{job.seed}", {}).get("policy", "")
        return jobs.train_method, (cfg, job.method, job.seed, warm, folder / "train")
    if job.kind == "round-robin":
        return jobs.round_robin, (cfg, [done[k]["policy"] for k in job.needs], out / job.kind)
    measure = jobs.exploitability if job.kind == "exploit" else jobs.against_heuristic
    return measure, (cfg, done[job.needs[0]]["policy"], folder / job.kind)


def load_done(cfg: CompareConfig) -> dict[str, Any]:
    """The records of an earlier run of this config (its report); ConfigError if the report
    holds another config's."""
    path = Path(cfg.report)
    if not path.is_file():
        return {}
    try:
        earlier = json.loads(path.read_text())
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{path}: not a readable report ({exc}); move it away") from exc
    if earlier.get("config") != cfg.to_dict():
        changed = sorted(
            k for k, v in cfg.to_dict().items() if earlier.get("config", {}).get(k) != v
        )
        raise ConfigError(
            f"{path} holds a comparison with other settings ({', '.join(changed)}); "
            "give another report path or pass --overwrite to start again"
        )
    return dict(earlier.get("jobs", {}))


def write_report(
    cfg: CompareConfig, done: dict[str, Any], total: int, command: str
) -> dict[str, Any]:
    """Write the report (atomically) and return it."""
    report = {
        "format": FORMAT,
        "version": VERSION,
        "command": command,
        "config": cfg.to_dict(),
        "complete": len(done) == total,
        "methods": by_method(done, list(cfg.methods), cfg.seeds),
        "jobs": done,
    }
    path = Path(cfg.report)
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_write(path) as f:
        f.write(json.dumps(report, indent=1).encode())
    return report


def compare(cfg: CompareConfig, overwrite: bool = False, command: str = "") -> dict[str, Any]:
    """Run every job not yet done, ``cfg.workers`` at once; the final report."""
    done = {} if overwrite else load_done(cfg)
    todo = [job for job in plan(cfg) if job.key not in done]
    total = len(todo) + len(done)
    began = time.perf_counter()
    print(f"compare: {len(todo)} jobs to run ({len(done)} already done), {cfg.workers} at once; "
          f"logs under {cfg.out}/", flush=True)  # fmt: skip
    running: dict[Future[dict[str, Any]], Job] = {}
    failed: dict[str, str] = {}
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=cfg.workers, mp_context=context) as pool:
        while todo or running:
            for job in [j for j in todo if any(n in failed for n in j.needs)]:
                todo.remove(job)
                failed[job.key] = (
                    f"not run: {', '.join(n for n in job.needs if n in failed)} failed"
                )
            for job in [j for j in todo if all(n in done for n in j.needs)]:
                if len(running) >= cfg.workers:
                    break
                todo.remove(job)
                run, arguments = launch(cfg, job, done)
                running[pool.submit(run, *arguments)] = job
            if not running:
                break
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                job = running.pop(future)
                minutes = (time.perf_counter() - began) / 60
                try:
                    done[job.key] = future.result()
                except Exception as exc:  # noqa: BLE001 - one job's failure, reported, not fatal
                    failed[job.key] = f"{type(exc).__name__}: {exc}"
                    print(f"compare: {job.key} FAILED ({failed[job.key]}); its log is under "
                          f"{cfg.out}/", flush=True)  # fmt: skip
                    continue
                print(f"compare: [{len(done)}/{total}] {job.key} done "
                      f"({minutes:.1f} min in all)", flush=True)  # fmt: skip
                write_report(cfg, done, total, command)
    report = write_report(cfg, done, total, command)
    for key, why in failed.items():
        print(f"compare: {key}: {why}")
    picture = Path(cfg.report).with_suffix(".png")
    if report["methods"]:
        plot(report, picture)
    print(markdown(table(report["methods"])))
    print(f"compare: report in {cfg.report}, picture in {picture}")
    return report


def main(argv: list[str] | None = None) -> int:
    """The CLI; exit status 2 with one ``error:`` line on a user's mistake, 1 if a job failed
    (the others run on, and a rerun runs what is missing)."""
    given = sys.argv[1:] if argv is None else list(argv)
    parser = argparse.ArgumentParser(prog="python -m training.compare",
                                     description=__doc__.splitlines()[0])  # fmt: skip
    parser.add_argument("--config", required=True, help="YAML file in configs/")
    parser.add_argument("--overwrite", action="store_true",
                        help="start again, ignoring the jobs an earlier report holds")  # fmt: skip
    args = parser.parse_args(given)
    try:
        cfg = load_compare_config(args.config)
        report = compare(
            cfg, args.overwrite, shlex.join(["python", "-m", "training.compare", *given])
        )
    except ConfigError as exc:
        return fail(exc)
    return 0 if report["complete"] else 1
