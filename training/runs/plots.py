"""The learning curve: evaluation win rate against learner steps, one line per opponent (or, in a
cooperative run, per team: the policy and the baseline bots).

Drawn with matplotlib's object-oriented API on an Agg canvas (imported when called, never through
pyplot), so it needs no display, leaves the process's backend alone and keeps no figure alive.
The PNG is written to a temporary file and renamed (``atomic_write``), so a viewer never sees
half an image.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from reborn_env.core.files import atomic_write


def plot_learning_curve(
    history: Iterable[Mapping[str, Any]],
    path: str | os.PathLike[str],
    title: str | None = None,
    legend: str = "opponent",
    reference: float | None = 0.5,
    marks: Mapping[str, float] | None = None,
) -> None:
    """Write a PNG of ``win_rate`` vs ``step`` per line from evaluation records.

    A record's line is its ``series`` (cooperative runs) or else its ``opponent``; ``legend``
    titles the legend; ``reference`` draws a dotted level (an even match), None for none.
    Records with ``low`` and ``high`` (a 95% interval) get a shaded band, and records with a
    win rate per seat (``win_rate_<agent>``) a thin dashed line per seat; ``marks`` draws a
    labelled vertical line at each step it names (e.g. where imitation ended). An empty history
    gives an empty chart saying so.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(8, 4.5), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    curves = _curves(history)
    for opponent, records in curves.items():
        steps = [r["step"] for r in records]
        (line,) = ax.plot(steps, [r["win_rate"] for r in records], marker="o", label=opponent)
        if all("low" in r and "high" in r for r in records):
            low, high = [r["low"] for r in records], [r["high"] for r in records]
            ax.fill_between(steps, low, high, color=line.get_color(), alpha=0.2, linewidth=0)
        for key, style in zip(_seat_keys(records), ("--", ":", "-."), strict=False):
            seat = key.removeprefix("win_rate_")
            rates = [r[key] for r in records]
            ax.plot(steps, rates, linestyle=style, linewidth=1, color=line.get_color(),
                    label=f"{opponent}, as {seat}")  # fmt: skip
    for label, step in (marks or {}).items():
        ax.axvline(step, color="black", linewidth=0.8, linestyle="--")
        ax.annotate(label, (step, 0.98), rotation=90, va="top", ha="right", fontsize=8)
    if curves:
        if reference is not None:
            ax.axhline(reference, color="grey", linewidth=0.8, linestyle=":")
        ax.legend(title=legend, loc="best")
    else:
        ax.text(0.5, 0.5, "no evaluations yet", ha="center", va="center", transform=ax.transAxes)
    ax.set(xlabel="learner steps", ylabel="win rate", ylim=(-0.02, 1.02), title=title)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    with atomic_write(path) as f:
        fig.savefig(f, format="png")


def _curves(history: Iterable[Mapping[str, Any]]) -> dict[str, list[Mapping[str, Any]]]:
    """Records grouped by line (in order of first appearance), each group sorted by step."""
    groups: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for record in history:
        groups[str(record.get("series", record.get("opponent")))].append(record)
    return {name: sorted(records, key=lambda r: r["step"]) for name, records in groups.items()}


def _seat_keys(records: list[Mapping[str, Any]]) -> list[str]:
    """The ``win_rate_<agent>`` keys every record of a line has, in order."""
    keys = [k for k in records[0] if k.startswith("win_rate_")]
    return [k for k in keys if all(k in r for r in records)]
