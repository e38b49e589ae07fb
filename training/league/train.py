"""A league with exploiters, as AlphaStar's: each round, exploiters learn to beat the main policy,
then the main policy learns against the field and every exploiter so far (``schedule:
continuous``: exploiters that keep learning as the main policy does, in
``training/league/continuous.py``).

Run: ``python -m training.league --config configs/earth_reborn_league.yaml [--overwrite]``.
Round ``r`` (in ``<checkpoint_dir>/round-<r>/``):

1. ``exploit/``: the exploitability protocol (``training.exploit``) against the main policy:
   its scripted bots, and PPO best responses warm-started from each bot's clone and from the
   main policy itself, in each seat at the config's budget (``exploiter_*`` keys), in
   ``exploiter_workers`` processes at once. Its report
   (``exploit.json``) is the main policy's approximate exploitability at the round's start.
2. ``main/``: the main policy trains by MMD (``training.mmd``: every MMD and PPO key of the
   config) from its last weights, its opponents drawn by PFSP from ``bot_opponents`` and every
   learned exploiter of this round and the earlier ones; its ``policy.pt`` is the next round's
   main policy.

The last round's main policy is copied to ``<checkpoint_dir>/policy.pt``, and ``league.json``
lists each round's exploitability, its exploiters and its main policy. The final policy's own
exploitability is the protocol's to measure (``python -m training.exploit --bot
<checkpoint_dir>/policy.pt``). A stopped league starts again (``--overwrite``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from reborn_env.core.files import atomic_copy, atomic_write
from reborn_env.policies.artifact import CheckpointError
from training.common.cli import fail
from training.common.schema import ConfigError
from training.exploit.exploiters import Budget
from training.exploit.parallel import measure_at_once
from training.league.config import CONTINUOUS, LeagueConfig, load_league_config
from training.league.continuous import train_continuous
from training.mmd.train import train as train_mmd
from training.runs.run_files import POLICY, RunDirError, prepare_run_dirs

REPORT = "league.json"


def budget_of(cfg: LeagueConfig) -> Budget:
    """The exploiters' budget of every round."""
    return Budget(
        minutes=cfg.exploiter_minutes,
        updates=cfg.exploiter_updates,
        games=cfg.exploiter_games,
        imitation_games=cfg.exploiter_imitation_games,
        ppo=dict(cfg.exploiter_ppo),
        skip=frozenset(cfg.exploiter_skip),
    )


def play_round(
    cfg: LeagueConfig,
    r: int,
    main: str,
    earlier: list[str],
    overwrite: bool,
    log: Callable[[str], None],
) -> dict[str, Any]:
    """Round ``r`` against ``main`` (a policy file), with the exploiters of the ``earlier``
    rounds in the field; the round's record (its own exploiters under ``exploiters``)."""
    folder = Path(cfg.checkpoint_dir) / f"round-{r}"
    log(f"league round {r}: exploiters against {main}")
    report = measure_at_once(
        main, cfg.env, budget_of(cfg), cfg.seed + r, folder / "exploit",
        cfg.exploiter_workers, overwrite, log,
    )  # fmt: skip
    learned = sorted(str(p) for p in (folder / "exploit").glob(f"vs-*/*/checkpoints/{POLICY}"))
    exploiters = [*earlier, *learned]
    round_cfg = cfg.main_config(
        seed=cfg.seed + r,
        init_policy=main,
        bot_opponents=[*cfg.bot_opponents, *exploiters],
        checkpoint_dir=str(folder / "main"),
        run_name=f"{cfg.run_name}-round{r}",
    )
    log(f"league round {r}: main policy against the field and {len(exploiters)} exploiters")
    trainer = train_mmd(round_cfg, overwrite=overwrite)
    return {
        "round": r,
        "main_before": main,
        "exploitability_before": report["exploitability"],
        "best_exploiters": {seat: s["best"] for seat, s in report["seats"].items()},
        "exploiters": learned,
        "main_after": str(folder / "main" / POLICY),
        "updates": trainer.update,
    }


def train(
    cfg: LeagueConfig, overwrite: bool = False, log: Callable[[str], None] = print
) -> list[dict[str, Any]]:
    """Every round; the rounds' records (also in ``<checkpoint_dir>/league.json``). A
    continuous league (``schedule: continuous``) is :func:`~.continuous.train_continuous`'s."""
    if cfg.schedule == CONTINUOUS:
        return train_continuous(cfg, overwrite, log)
    prepare_run_dirs(cfg, overwrite=overwrite)
    out = Path(cfg.checkpoint_dir)
    rounds: list[dict[str, Any]] = []
    main = cfg.init_policy
    for r in range(cfg.rounds):
        earlier = [path for done in rounds for path in done["exploiters"]]
        rounds.append(play_round(cfg, r, main, earlier, overwrite, log))
        main = rounds[-1]["main_after"]
        with atomic_write(out / REPORT) as f:
            f.write(json.dumps({"config": cfg.to_dict(), "rounds": rounds}, indent=1).encode())
    atomic_copy(main, out / POLICY)
    shown = ", ".join(f"round {x['round']}: {x['exploitability_before']:.3f}" for x in rounds)
    log(f"league done: {out / POLICY}; main policy's exploitability at each round's start: {shown}")
    return rounds


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; the exit status (2, with one ``error:`` line, on a user's mistake)."""
    from training.bench.evaluate import OpponentError

    parser = argparse.ArgumentParser(
        prog="python -m training.league",
        description="A league: exploiters against the main policy, then MMD against them, rounds",
    )
    parser.add_argument("--config", required=True, help="YAML file in configs/")
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help="start again, deleting the earlier league's files in its checkpoint_dir",
    )
    args = parser.parse_args(argv)
    try:
        train(load_league_config(args.config), overwrite=args.overwrite)
    except (ConfigError, CheckpointError, OpponentError, RunDirError) as exc:
        return fail(exc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
