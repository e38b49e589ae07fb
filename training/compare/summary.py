"""A comparison's figures across seeds: each algorithm's mean and 95% interval of every measure,
and the table printed at the end of a run."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any

T_975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
         9: 2.262, 10: 2.228}  # fmt: skip
"""Student's t at 0.975 by degrees of freedom: the interval of a mean over a few seeds."""
Z_975 = 1.96
RATE = (0.0, 1.0)
EXPLOITABILITY = (-0.5, 0.5)
"""The range of a win rate and of the symmetrised game's exploitability estimate."""


def across_seeds(
    values: Sequence[float], bounds: tuple[float, float] = (-math.inf, math.inf)
) -> dict[str, Any]:
    """The mean of ``values`` (one a seed) and its 95% t interval (none from one seed), clipped
    to the measure's ``bounds``."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return {"mean": mean, "low": None, "high": None, "values": list(values)}
    half = T_975.get(len(values) - 1, Z_975) * statistics.stdev(values) / math.sqrt(len(values))
    low, high = max(bounds[0], mean - half), min(bounds[1], mean + half)
    return {"mean": mean, "low": low, "high": high, "values": list(values)}


def per_run(jobs: dict[str, Any], method: str, seed: int) -> dict[str, Any] | None:
    """The measures of ``method``'s run from ``seed``, once all of them are done."""
    key = f"{method}-{seed}"
    versus, exploit = jobs.get(f"heuristic:{key}"), jobs.get(f"exploit:{key}")
    ratings = jobs.get("round-robin")
    if not (versus and exploit and ratings):
        return None
    overall = versus["overall"]
    games = sum(overall.values())
    return {
        "heuristic_win_rate": overall["wins"] / games,
        "heuristic_win_rate_by_seat": {
            seat: r["wins"] / sum(r.values()) for seat, r in versus["seats"].items()
        },
        "rating": ratings["bots"][jobs[f"train:{key}"]["policy"]]["rating"],
        "exploitability": exploit["exploitability"],
        "train_wall_s": jobs[f"train:{key}"]["wall_s"],
    }


def by_method(jobs: dict[str, Any], methods: Sequence[str], seeds: Sequence[int]) -> dict[str, Any]:
    """Each method's measures across the seeds whose runs are fully measured."""
    found: dict[str, Any] = {}
    for method in methods:
        runs = [r for s in seeds if (r := per_run(jobs, method, s)) is not None]
        if not runs:
            continue
        seats = sorted(runs[0]["heuristic_win_rate_by_seat"])
        found[method] = {
            "seeds": len(runs),
            "heuristic_win_rate": across_seeds([r["heuristic_win_rate"] for r in runs], RATE),
            "heuristic_win_rate_by_seat": {
                seat: across_seeds([r["heuristic_win_rate_by_seat"][seat] for r in runs], RATE)
                for seat in seats
            },
            "rating": across_seeds([r["rating"] for r in runs]),
            "exploitability": across_seeds([r["exploitability"] for r in runs], EXPLOITABILITY),
            "train_wall_s": across_seeds([r["train_wall_s"] for r in runs]),
        }
    return found


def shown(figure: dict[str, Any], percent: bool = False, digits: int = 3) -> str:
    """``mean [low, high]`` (percent: in %, one decimal)."""
    scale, fmt = (100, ".1f") if percent else (1, f".{digits}f")
    mean = f"{figure['mean'] * scale:{fmt}}"
    if figure["low"] is None:
        return mean
    return f"{mean} [{figure['low'] * scale:{fmt}}, {figure['high'] * scale:{fmt}}]"


def table(methods: dict[str, Any]) -> list[list[str]]:
    """The comparison as rows: a header, then one row an algorithm."""
    if not methods:
        return []
    seats = list(next(iter(methods.values()))["heuristic_win_rate_by_seat"])
    header = ["algorithm", "seeds", "vs heuristic (%)", *[f"as {s} (%)" for s in seats],
              "rating", "exploitability", "training wall (s)"]  # fmt: skip
    rows = [header]
    for name, m in methods.items():
        rows.append([
            name, str(m["seeds"]), shown(m["heuristic_win_rate"], percent=True),
            *[shown(m["heuristic_win_rate_by_seat"][s], percent=True) for s in seats],
            shown(m["rating"], digits=0), shown(m["exploitability"]),
            shown(m["train_wall_s"], digits=0),
        ])  # fmt: skip
    return rows


def markdown(rows: list[list[str]]) -> str:
    """Rows as a Markdown table, the figures aligned right."""
    if not rows:
        return ""
    align = ["---", *["---:"] * (len(rows[0]) - 1)]
    return "\n".join("| " + " | ".join(r) + " |" for r in [rows[0], align, *rows[1:]])
