"""How far a policy carries beyond the maps it was trained on: its score against the heuristic on
held-out generated maps and on every hand-made scenario, one row per policy.

Run: ``python benchmarks/bench_generalisation.py --policies A.pt B.pt [--games 200] [--seed 0]
[--out docs/generalisation.md]``.
Each policy must read the universal layout (trained with ``env_kwargs: {layout: universal}``,
rules spec ER-UNI): it plays, greedy, ``--games`` games a seat against the greedy heuristic on
the held-out generated maps (``generated:1000000..1000019``, ER-MAPGEN-4, the games shared
among them) and on each packaged scenario, with the same deals for every policy. A cell is the
policy's score (a win 1, a draw 1/2) over both seats, with its 95% Wilson interval, and its two
seats' win rates; the last line gives the command. The table is markdown, printed and written
to ``--out``, which ``benchmarks/leaderboard.py`` puts in ``docs/benchmark.md``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout (its package and its built core) first

from reborn_env.core import registry  # noqa: E402
from reborn_env.core.data_files import bundled_names  # noqa: E402
from reborn_env.policies.artifact import load_checkpoint  # noqa: E402
from training.bench.evaluate import evaluate  # noqa: E402
from training.exploit.score import Score  # noqa: E402

HELD_OUT = "generated:1000000..1000019"
OUT = Path("docs") / "generalisation.md"


def cell(result: object) -> str:
    """Score over both seats with its interval, then each seat's win rate."""
    seats = result.seats  # type: ignore[attr-defined]
    score = Score(
        *(sum(getattr(r, k) for r in seats.values()) for k in ("wins", "draws", "losses"))
    )
    low, high = score.interval()
    per_seat = " / ".join(f"{100 * r.win_rate:.0f}" for r in seats.values())
    return f"{score.value:.3f} [{low:.2f}, {high:.2f}] ({per_seat})"


def trained_on(path: str) -> str:
    """The scenario option the policy was trained with, as its checkpoint records it."""
    kwargs = load_checkpoint(path)["config"].get("env_kwargs", {})
    scenario = kwargs.get("scenario", "the default scenario")
    return ", ".join(scenario) if isinstance(scenario, list) else str(scenario)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--policies", nargs="+", required=True, help="universal-layout policies")
    parser.add_argument("--games", type=int, default=200, help="games a seat per cell")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=str(ROOT / OUT), help=f"the table's file ({OUT})")
    args = parser.parse_args()
    env_name = load_checkpoint(args.policies[0])["env"]["name"]
    spec = registry.get(env_name)
    scenarios = [HELD_OUT, *bundled_names(spec.scenarios)]
    lines = [
        "| policy | trained on | " + " | ".join(scenarios) + " |",
        "|---|---|" + "---|" * len(scenarios),
    ]
    for path in args.policies:
        cells = []
        for scenario in scenarios:
            result = evaluate(path, "heuristic", args.games, args.seed, True, scenario)
            cells.append(cell(result))
        lines.append(f"| `{path}` | {trained_on(path)} | " + " | ".join(cells) + " |")
    lines += [
        "",
        f"Each cell: the score against the greedy heuristic over {args.games} games a seat "
        "(a win 1, a draw 1/2) [95% Wilson interval] (win % as NORAD / as Salemite). Command: "
        f"`python benchmarks/bench_generalisation.py --policies {' '.join(args.policies)} "
        f"--games {args.games} --seed {args.seed}`",
    ]
    text = "\n".join(lines) + "\n"
    print(text, end="")
    from reborn_env.core.files import atomic_write

    with atomic_write(args.out) as out:
        out.write(text.encode())
    return 0


if __name__ == "__main__":
    sys.exit(main())
