"""Learning curves of several runs (or algorithms) on one chart, from the shell or Python.

    python -m training.runs.plot RUN [RUN ...] [--out FILE] [--opponent heuristic]

A RUN is a checkpoint (``latest.pt``, ``policy.pt`` or any file the trainer saved: its
``history``), a run's checkpoint folder (its ``latest.pt``, else its ``policy.pt``), a JSON file
of evaluation records (a list, or ``{"history": [...]}``: how another algorithm's trainer writes
its curve), or a TensorBoard log folder (``runs/<run_name>``: its ``eval/win_rate*`` scalars,
overall rates only). Records are the trainer's (``training/selfplay/seating.py``): ``step`` (learner
decisions), ``win_rate``, and optionally ``opponent`` or ``series`` (the line), ``low`` and
``high`` (a 95% interval, shaded) and ``win_rate_<agent>`` (the rate in one seat).

The axes are PPO's learning curve's (``training/runs/plots.py``): learner decisions across, win rate
up, one panel per opponent or (a cooperative run) per team (``--opponent`` keeps one); each run
has one colour, its overall rate a solid line and each seat's a dashed or dotted one.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from reborn_env.core.files import atomic_write
from training.common.cli import fail
from training.runs.run_files import EVENT_GLOB, LATEST, POLICY

SEAT_STYLES = ("--", ":", "-.")
EVAL_TAG = "eval/win_rate_"
"""TensorBoard's evaluation scalars: ``eval/win_rate_vs_<opponent>`` or ``eval/win_rate_<team>``."""

History = list[dict[str, Any]]


class PlotError(ValueError):
    """A run that cannot be plotted; the message names it and says why."""


class NotARun(PlotError):
    """A folder holding no run (no checkpoint, no TensorBoard log): ``runs/*`` may match one."""


def load_history(run: str | Path) -> History:
    """The evaluation records of ``run`` (see the module's docstring for what a run may be)."""
    path = Path(run)
    if path.is_dir():
        for name in (LATEST, POLICY):
            if (path / name).is_file():
                return load_history(path / name)
        if any(path.glob(EVENT_GLOB)):
            return _tensorboard_history(path)
        raise NotARun(f"{run}: holds no {LATEST}, {POLICY} or TensorBoard event files")
    if not path.is_file():
        raise PlotError(f"{run}: no such file or folder")
    if path.suffix == ".json":
        try:
            data = json.loads(path.read_text())
        except ValueError as err:
            raise PlotError(f"{run}: not JSON ({err})") from err
        history = data.get("history") if isinstance(data, dict) else data
    else:
        from reborn_env.policies.artifact import load_checkpoint

        history = load_checkpoint(path).get("history", [])
    return _checked(history, run)


def _checked(history: Any, run: str | Path) -> History:
    """``history`` if it is a list of records with a numeric ``step`` and ``win_rate``."""
    if not isinstance(history, list):
        raise PlotError(f"{run}: its history is a {type(history).__name__}, not a list of records")
    for n, record in enumerate(history):
        ok = isinstance(record, dict) and all(
            isinstance(record.get(k), int | float) and not isinstance(record.get(k), bool)
            for k in ("step", "win_rate")
        )
        if not ok:
            raise PlotError(f"{run}: record {n} needs a numeric 'step' and 'win_rate': {record!r}")
    return history


def _tensorboard_history(folder: Path) -> History:
    """The ``eval/win_rate*`` scalars of a TensorBoard log folder as evaluation records."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    events = EventAccumulator(str(folder))
    events.Reload()
    history: History = []
    for tag in events.Tags().get("scalars", []):
        if tag.startswith(EVAL_TAG):
            line = tag.removeprefix(EVAL_TAG)
            key = "opponent" if line.startswith("vs_") else "series"
            for event in events.Scalars(tag):
                record = {"step": event.step, key: line.removeprefix("vs_")}
                history.append({**record, "win_rate": event.value})
    return history


def panel_of(record: Mapping[str, Any]) -> str:
    """The panel a record belongs to, as titled: ``team <series>`` (a cooperative run's team),
    else ``vs <opponent>`` (a policy file by its stem)."""
    if "series" in record:
        return f"team {record['series']}"
    name = str(record.get("opponent", ""))
    return f"vs {Path(name).stem if name.endswith('.pt') else name}"


def run_label(run: str | Path) -> str:
    """A run's name in the legend: a folder's name, a run file's folder, else the file's stem."""
    path = Path(run)
    if path.is_dir():
        return path.resolve().name
    return path.resolve().parent.name if path.name in (LATEST, POLICY) else path.stem


def plot_runs(
    runs: Mapping[str, History],
    path: str | Path,
    opponent: str | None = None,
    title: str | None = None,
) -> Any:
    """Draw every run's curves (``runs``: label -> records) and write the PNG to ``path``;
    the matplotlib figure. ``opponent`` keeps that panel only (PlotError if no run has it)."""
    from matplotlib import colormaps
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    panels = list(dict.fromkeys(panel_of(r) for history in runs.values() for r in history))
    if opponent is not None:
        kept = [p for p in panels if p in (f"vs {opponent}", f"team {opponent}")]
        if not kept:
            raise PlotError(
                f"no run has evaluations against {opponent!r}; they have {', '.join(panels)}"
            )
        panels = kept
    if not panels:
        raise PlotError("the runs hold no evaluations yet")
    fig = Figure(figsize=(6 * len(panels) + 1, 4.5), dpi=100, layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(1, len(panels), sharey=True, squeeze=False)[0]
    palette = colormaps["tab10" if len(runs) <= 10 else "tab20"]
    colours = [palette(k % palette.N) for k in range(len(runs))]
    for ax, panel in zip(axes, panels, strict=True):
        for k, (label, history) in enumerate(runs.items()):
            records = sorted((r for r in history if panel_of(r) == panel), key=lambda r: r["step"])
            if records:
                _draw_run(ax, label, records, colours[k])
        if panel.startswith("vs "):
            ax.axhline(0.5, color="grey", linewidth=0.8, linestyle=":")  # an even match
        ax.set(title=panel, xlabel="learner decisions", ylim=(-0.02, 1.02))
        ax.grid(alpha=0.3)
        ax.legend(loc="best", fontsize=8)
    axes[0].set_ylabel("win rate")
    if title:
        fig.suptitle(title)
    with atomic_write(path) as f:
        fig.savefig(f, format="png")
    return fig


def _draw_run(ax: Any, label: str, records: list[Mapping[str, Any]], colour: str) -> None:
    """One run's overall line (with its interval band) and a line per seat, in ``colour``."""
    steps = [r["step"] for r in records]
    ax.plot(steps, [r["win_rate"] for r in records], color=colour, marker="o", markersize=3,
            label=label)  # fmt: skip
    if all("low" in r and "high" in r for r in records):
        lows, highs = [r["low"] for r in records], [r["high"] for r in records]
        ax.fill_between(steps, lows, highs, color=colour, alpha=0.15, linewidth=0)
    seats = [k for k in records[0] if k.startswith("win_rate_") and all(k in r for r in records)]
    for key, style in zip(seats, SEAT_STYLES, strict=False):
        ax.plot(steps, [r[key] for r in records], color=colour, linestyle=style, linewidth=1,
                label=f"{label}, as {key.removeprefix('win_rate_')}")  # fmt: skip


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m training.runs.plot",
        description="Learning curves of several runs on one chart.",
    )
    parser.add_argument("runs", nargs="+", metavar="RUN", help="checkpoint, run folder or JSON")
    parser.add_argument("--out", default="learning_curves.png", help="the PNG to write")
    parser.add_argument("--opponent", help="draw only the curves against this opponent")
    parser.add_argument("--title", help="the chart's title")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; 0, or 2 with one ``error:`` line for a run that cannot be plotted."""
    from reborn_env.policies.artifact import CheckpointError

    args = _parser().parse_args(argv)
    labels = [run_label(run) for run in args.runs]
    if len(set(labels)) < len(labels):
        labels = list(args.runs)  # two runs of one name: tell them apart by their paths
    runs, notes = {}, []
    try:
        for label, run in zip(labels, args.runs, strict=True):
            try:
                runs[label] = load_history(run)
            except NotARun as err:
                notes.append(f"  skipped {err}")
        plot_runs(runs, args.out, args.opponent, args.title)
    except (PlotError, CheckpointError) as err:
        return fail(err)
    points = sum(len(h) for h in runs.values())
    print(f"wrote {args.out}: {len(runs)} runs, {points} evaluations")
    notes += [f"  {label}: no evaluations, not drawn" for label, h in runs.items() if not h]
    for note in notes:
        print(note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
