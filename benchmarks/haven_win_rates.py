"""Win rates on haven_v0 of random play, the scripted bot and a learned policy, on the same seeds.

Run: ``python benchmarks/haven_win_rates.py [--games 200] [--seed 20261129] [--checkpoint PATH]``.

Each team plays ``--games`` seeded games (game ``i`` from ``seed + i``, so every team meets the
same deals), one bot per character: random legal play, ``HavenScriptedBot`` and the checkpoint's
policy, greedily (its most likely action) and sampled. The checkpoint defaults to
``checkpoints/haven_ppo.pt`` when it exists; without one the learned rows are left out. The table
gives the win rate with its 95% Wilson interval, and the mean rounds and agent decisions (steps)
per game.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CHECKPOINT = ROOT / "checkpoints" / "haven_ppo.pt"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per team (default 200)")
    parser.add_argument("--seed", type=int, default=20261129, help="first game's seed")
    parser.add_argument(
        "--checkpoint",
        default=str(DEFAULT_CHECKPOINT) if DEFAULT_CHECKPOINT.exists() else None,
        help="learned policy to play (default checkpoints/haven_ppo.pt if it exists)",
    )
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    sys.path.insert(0, str(ROOT))
    import torch

    from training.checkpoint import load_checkpoint
    from training.evaluate import evaluate_team, format_team_table

    torch.set_num_threads(1)
    teams: list[tuple[str, str | dict, bool]] = [
        ("random", "random", False),
        ("scripted", "heuristic", False),
    ]
    if args.checkpoint:
        payload = load_checkpoint(args.checkpoint, expect_env="haven_v0")
        teams += [("learned (greedy)", payload, True), ("learned (sampled)", payload, False)]
    else:
        print(f"no checkpoint ({DEFAULT_CHECKPOINT} is absent): learned rows left out")
    rows = []
    for name, spec, greedy in teams:
        start = time.perf_counter()
        result = evaluate_team(spec, "haven_v0", args.games, args.seed, greedy=greedy)
        rows.append((name, result))
        print(f"  played {name}: {result.games} games in {time.perf_counter() - start:.1f} s")
    print(f"\nhaven_v0, {args.games} games per team from seed {args.seed}"
          + (f", checkpoint {args.checkpoint}" if args.checkpoint else ""))  # fmt: skip
    print(format_team_table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
