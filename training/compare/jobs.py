"""One job of a comparison, run in a worker process: a seed's warm start, one algorithm's run,
or one policy's measures. Each writes its files under its own folder and returns a JSON-ready
record; its printed lines go to ``log.txt`` there, not the terminal."""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from training.compare.config import SCHEMAS, CompareConfig
from training.runs.run_files import POLICY


@contextlib.contextmanager
def logged(folder: Path) -> Iterator[None]:
    """Send the job's printed lines to ``folder/log.txt``."""
    folder.mkdir(parents=True, exist_ok=True)
    with (
        open(folder / "log.txt", "a") as log,
        contextlib.redirect_stdout(log),
        contextlib.redirect_stderr(log),
    ):
        yield


def warm_start(cfg: CompareConfig, method: str, seed: int, folder: Path) -> dict[str, Any]:
    """The seed's clone of ``warm_start_teacher`` (``warm_start_games`` games, one round of
    DAgger), in the network ``method``'s config gives (PPO's keys of it): where PPO, MMD and the
    league start."""
    from dataclasses import fields

    from training.ppo.config import TrainConfig
    from training.ppo.resume import save_run
    from training.ppo.train import build_trainer, imitate_teacher

    start = time.perf_counter()
    with logged(folder):
        ppo_keys = {f.name for f in fields(TrainConfig)}
        base = SCHEMAS[method].load(cfg.methods[method]).to_dict()
        run = TrainConfig.from_dict(
            {k: v for k, v in base.items() if k in ppo_keys}
            | {
                "seed": seed,
                "imitation_games": cfg.warm_start_games,
                "imitation_teacher": cfg.warm_start_teacher,
                "dagger_rounds": 1,
                "checkpoint_dir": str(folder),
                "init_policy": "",
            },
            source=f"warm start of seed {seed}",
        )
        trainer = build_trainer(run)
        if cfg.warm_start_games:
            imitate_teacher(trainer)
        save_run(trainer, folder)
        trainer.venv.close()
    return {"policy": str(folder / POLICY), "wall_s": round(time.perf_counter() - start, 1)}


def _ppo_family(
    cfg: CompareConfig, base: dict[str, Any], seed: int, warm: str, folder: Path, minutes: float
) -> dict[str, Any]:
    """The keys every PPO-family run (PPO, MMD, the league's main policy) gets: the seed, the
    shared warm start, the budget, schedules stretched over more updates than it buys (so the
    clock ends the run), no evaluation while training."""
    batch = base.get("num_envs", 256) * base.get("num_steps", 64)
    updates = max(1, math.ceil(minutes * cfg.updates_per_minute))
    return base | {
        "seed": seed,
        "init_policy": warm,
        "imitation_games": 0,
        "dagger_rounds": 0,
        "total_steps": updates * batch,
        "max_minutes": minutes,
        "eval_opponents": [],
        "checkpoint_dir": str(folder),
        "run_name": f"compare-{folder.parent.name}",
    }


def _nfsp(cfg: CompareConfig, seed: int, warm: str, folder: Path) -> dict[str, Any]:
    """NFSP: its own warm start (the teacher's games seed its reservoir), then the budget."""
    from training.nfsp.config import NFSPConfig
    from training.nfsp.train import train

    base = NFSPConfig.load(cfg.methods["nfsp"]).to_dict()
    run = train(NFSPConfig.from_dict(base | {
        "seed": seed,
        "teacher_games": cfg.warm_start_games,
        "teacher": cfg.warm_start_teacher,
        "total_steps": 2**40,  # the clock ends it
        "max_minutes": cfg.minutes,
        "eval_opponents": [],
        "checkpoint_dir": str(folder),
        "run_name": f"compare-{folder.parent.name}",
    }, source=f"nfsp, seed {seed}"), overwrite=True)  # fmt: skip
    return {"updates": run.update, "decisions": run.global_step}


def _league(cfg: CompareConfig, seed: int, warm: str, folder: Path) -> dict[str, Any]:
    """One league round from the warm start, which is also its magnet: half the budget to its
    two exploiters (the main policy's own best responses, a quarter each), half to MMD."""
    from training.league.config import LeagueConfig
    from training.league.train import train

    base = LeagueConfig.load(cfg.methods["league"]).to_dict()
    keys = _ppo_family(cfg, base, seed, warm, folder, cfg.minutes / 2)
    rounds = train(LeagueConfig.from_dict(keys | {
        "rounds": 1,
        "magnet": warm,
        "exploiter_minutes": cfg.minutes / 4,
        "exploiter_games": cfg.exploit_games,
        "exploiter_skip": ["scripted", "search", "clone"],
    }, source=f"league, seed {seed}"), overwrite=True)  # fmt: skip
    return {"updates": rounds[-1]["updates"], "exploiters": len(rounds[-1]["exploiters"])}


def _ppo_loop(method: str) -> Any:
    """PPO or MMD (PPO's loop with MMD's update) from the warm start; MMD's magnet is the warm
    start unless its config's is uniform."""

    def run(cfg: CompareConfig, seed: int, warm: str, folder: Path) -> dict[str, Any]:
        from training.mmd.config import MMDConfig
        from training.mmd.train import train as train_mmd
        from training.ppo.config import TrainConfig
        from training.ppo.train import train as train_ppo

        schema, learn = (MMDConfig, train_mmd) if method == "mmd" else (TrainConfig, train_ppo)
        base = schema.load(cfg.methods[method]).to_dict()
        keys = _ppo_family(cfg, base, seed, warm, folder, cfg.minutes)
        if base.get("magnet") not in (None, "uniform"):
            keys["magnet"] = warm
        trainer = learn(schema.from_dict(keys, source=f"{method}, seed {seed}"),
                        log_dir=str(folder / "tensorboard"), overwrite=True)  # fmt: skip
        return {"updates": trainer.update, "decisions": trainer.global_step}

    return run


SHARE_THE_WARM_START = frozenset({"ppo", "mmd", "league"})
"""The algorithms that start from the seed's warm start (a PPO network); NFSP makes its own."""
TRAINERS = {"ppo": _ppo_loop("ppo"), "mmd": _ppo_loop("mmd"), "league": _league, "nfsp": _nfsp}
"""How each algorithm of ``config.SCHEMAS`` trains one run at the comparison's budget."""


def train_method(
    cfg: CompareConfig, method: str, seed: int, warm: str, folder: Path
) -> dict[str, Any]:
    """One run of ``method`` from ``seed`` at the comparison's budget; its policy file, wall
    time and learning steps."""
    start = time.perf_counter()
    with logged(folder):
        steps = TRAINERS[method](cfg, seed, warm, folder)
    wall = round(time.perf_counter() - start, 1)
    return {"policy": str(folder / POLICY), "wall_s": wall, **steps}


def against_heuristic(cfg: CompareConfig, policy: str, folder: Path) -> dict[str, Any]:
    """``policy`` (greedy) against ``cfg.heuristic``, ``heuristic_games`` a seat, as
    ``python -m training.bench.evaluate --greedy`` plays it: its wins, draws and losses per seat
    and overall."""
    from training.bench.evaluate import evaluate

    with logged(folder):
        result = evaluate(policy, cfg.heuristic, cfg.heuristic_games, cfg.seed, greedy=True)
    seats = {seat: vars(record).copy() for seat, record in result.seats.items()}
    return {"seats": seats, "overall": vars(result.overall).copy()}


def exploitability(cfg: CompareConfig, policy: str, folder: Path) -> dict[str, Any]:
    """The exploitability protocol on ``policy`` at the comparison's budget: the estimate, its
    interval and each seat's best exploiter (the full report in ``folder/exploit.json``)."""
    from training.exploit.exploiters import Budget
    from training.exploit.protocol import measure

    budget = Budget(
        minutes=cfg.exploit_minutes,
        games=cfg.exploit_games,
        imitation_games=cfg.exploit_imitation_games,
        skip=frozenset(cfg.exploit_skip),
    )
    with logged(folder):
        report = measure(policy, cfg.env, budget, cfg.seed, folder, overwrite=True)
    return {
        "exploitability": report["exploitability"],
        "interval": report["exploitability_interval"],
        "best": {seat: s["best"] for seat, s in report["seats"].items()},
        "report": str(folder / "exploit.json"),
    }


def round_robin(cfg: CompareConfig, policies: list[str], folder: Path) -> dict[str, Any]:
    """Every policy and ``cfg.heuristic`` (rated 0) in a greedy round robin,
    ``tournament_games`` a seating: each one's Bradley-Terry rating with its 95% interval."""
    from training.bench import tournament as t

    arguments = t.Arguments(cfg.env, (cfg.heuristic, *policies), cfg.tournament_games,
                            cfg.seed, greedy=True)  # fmt: skip
    with logged(folder):
        played = t.play(arguments, folder, t.check(arguments))
        ratings = t.ratings_of(played)
        t.save(played, folder, {"ratings": ratings.to_json()})
    return ratings.to_json()
