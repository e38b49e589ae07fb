"""A comparison's report as docs/benchmark.md shows it (the command, the budget, the table across
seeds, each run's figures, where a method did not beat today's recipe) and as a picture."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from training.compare.summary import markdown, per_run, shown, table

BASELINE = "ppo"
"""Today's recipe, the one every other method is held against."""


def verdicts(methods: dict[str, Any]) -> list[str]:
    """One sentence a method: is its exploitability lower or higher than the baseline's beyond
    both intervals across seeds, or not told apart from it."""
    base = methods.get(BASELINE)
    if base is None or base["exploitability"]["low"] is None:
        return []
    said = []
    b = base["exploitability"]
    for name, m in methods.items():
        if name == BASELINE:
            continue
        e = m["exploitability"]
        if e["low"] is None:
            continue
        if e["high"] < b["low"]:
            word = "lower than"
        elif e["low"] > b["high"]:
            word = "higher than"
        else:
            word = "not told apart from"
        said.append(
            f"- {name}: exploitability {shown(e)}, {word} {BASELINE}'s {shown(b)} "
            f"(95% intervals across {m['seeds']} seeds)."
        )
    return said


def run_rows(report: dict[str, Any]) -> list[list[str]]:
    """Each run's own figures: its learning, its measures and its best exploiter per seat."""
    jobs, cfg = report["jobs"], report["config"]
    rows = [["run", "learning", "wall (s)", "vs heuristic (%)", "rating",
             "exploitability", "best exploiter per seat (score)"]]  # fmt: skip
    for method in cfg["methods"]:
        for seed in cfg["seeds"]:
            key = f"{method}-{seed}"
            trained, figures = jobs.get(f"train:{key}"), per_run(jobs, method, seed)
            if not trained or figures is None:
                continue
            steps = "learning steps" if method == "nfsp" else "updates"
            learned = (
                f"{trained['updates']:,} {steps}"
                + (f", {trained['decisions']:,} decisions" if "decisions" in trained else "")
                + (f", {trained['exploiters']} exploiters" if "exploiters" in trained else "")
            )
            best = jobs[f"exploit:{key}"]["best"]
            worst = "; ".join(
                f"vs {seat}: {b['exploiter']} ({b['score']:.3f})" for seat, b in best.items()
            )
            rows.append([
                f"{method}, seed {seed}", learned,
                f"{trained['wall_s']:.0f}", f"{100 * figures['heuristic_win_rate']:.1f}",
                f"{figures['rating']:.0f}", f"{figures['exploitability']:.3f}", worst,
            ])  # fmt: skip
    return rows


def doc_section(report: dict[str, Any], path: str, doc_folder: str = "docs") -> str:
    """The comparison's part of a doc in ``doc_folder`` (docs/benchmark.md), the report at
    ``path``: its picture is linked relative to that folder."""
    cfg = report["config"]
    picture = Path(path).with_suffix(".png")
    lines = [
        f"### {cfg['env']}: {', '.join(cfg['methods'])} at {cfg['minutes']} minutes each",
        "",
        f"Command: `{report['command']}` (the report: `{path}`"
        + ("" if report["complete"] else "; **not complete**: rerun the command to finish it")
        + ").",
        "",
        f"Budget: each run learns for {cfg['minutes']} minutes on one core after one warm "
        f"start per seed ({cfg['warm_start_games']} games of `{cfg['warm_start_teacher']}` "
        "imitated, shared by the PPO-family runs; NFSP seeds its reservoir with as many), "
        f"seeds {', '.join(map(str, cfg['seeds']))}; {cfg['workers']} runs at once. Measures, "
        f"the same for every policy: greedy against `{cfg['heuristic']}`, "
        f"{cfg['heuristic_games']} games a seat; the exploitability protocol at "
        f"{cfg['exploit_minutes']} min of PPO per learned exploiter, {cfg['exploit_games']} "
        f"games per exploiter a seat, {cfg['exploit_imitation_games']} games of imitation per "
        f"clone, without {', '.join(cfg['exploit_skip']) or 'nothing'}; a greedy round robin "
        f"of every policy and `{cfg['heuristic']}` (rated 0), {cfg['tournament_games']} games "
        "a seating. A figure is the mean over seeds and its 95% t interval.",
        "",
        markdown(table(report["methods"])),
        "",
        f"Held against today's recipe (`{BASELINE}`):",
        "",
        *(verdicts(report["methods"]) or ["- (not enough seeds measured yet)"]),
    ]
    if picture.is_file():
        link = Path(os.path.relpath(picture, doc_folder)).as_posix()
        lines += ["", f"![each run's exploitability and win rate]({link})"]
    lines += ["", "Each run:", "", markdown(run_rows(report))]
    return "\n".join(lines)


def plot(report: dict[str, Any], path: Path) -> None:
    """Each run as a point: win rate against the heuristic across, exploitability up; one
    colour a method (matplotlib, written atomically)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from reborn_env.core.files import atomic_write

    jobs, cfg = report["jobs"], report["config"]
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for method in cfg["methods"]:
        runs = [r for s in cfg["seeds"] if (r := per_run(jobs, method, s)) is not None]
        if runs:
            ax.scatter([100 * r["heuristic_win_rate"] for r in runs],
                       [r["exploitability"] for r in runs], label=method, s=40)  # fmt: skip
    ax.set_xlabel(f"win rate against {cfg['heuristic']} (%), greedy, both seats")
    ax.set_ylabel("approximate exploitability (lower is better)")
    ax.set_title(f"{cfg['env']}: {cfg['minutes']} min of learning a run, one point a seed")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    with atomic_write(path) as f:
        fig.savefig(f, format="png", dpi=110)
    plt.close(fig)
