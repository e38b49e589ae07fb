"""What a run reports after each update: TensorBoard scalars, one progress line, evaluations.

TensorBoard gets the update's ``losses/*``, ``charts/SPS`` and ``charts/env_SPS`` (learner and
all-agent decisions per second of PPO wall time) and ``charts/selfplay_return`` (the mean return
of the last ``RECENT_RETURNS`` finished episodes); each evaluation adds its seating's ``eval/*``
win rates, a line per record under the progress line, and redraws ``learning_curve.png``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import torch

from training.ppo.resume import run_payload
from training.ppo.state import RECENT_RETURNS

if TYPE_CHECKING:
    from pathlib import Path

    from torch.utils.tensorboard import SummaryWriter

    from training.ppo.state import Trainer


def rates(trainer: Trainer) -> tuple[float, float]:
    """(learner, all-agent) decisions per second of PPO wall time so far."""
    wall = max(trainer.wall_time, 1e-9)
    return trainer.global_step / wall, trainer.env_steps / wall


def log_update(writer: SummaryWriter, trainer: Trainer, stats: dict[str, float]) -> None:
    """The update's scalars, at the run's learner step."""
    sps, env_sps = rates(trainer)
    for key, value in stats.items():
        writer.add_scalar(f"losses/{key}", value, trainer.global_step)
    writer.add_scalar("charts/SPS", sps, trainer.global_step)
    writer.add_scalar("charts/env_SPS", env_sps, trainer.global_step)
    recent = trainer.finished_returns[-RECENT_RETURNS:]
    if recent:
        writer.add_scalar("charts/selfplay_return", float(np.mean(recent)), trainer.global_step)


def progress_line(trainer: Trainer, stats: dict[str, float]) -> str:
    """``update U/N  step S  SPS ... entropy E  value loss V``."""
    sps, env_sps = rates(trainer)
    return (
        f"update {trainer.update}/{trainer.cfg.num_updates}  step {trainer.global_step}  "
        f"SPS {sps:.0f} learner / {env_sps:.0f} env ({trainer.timers.split()})  "
        f"entropy {stats['entropy']:.2f}  "
        f"value loss {stats['value_loss']:.3f}"
    )


def evaluate_policy(trainer: Trainer, writer: SummaryWriter, curve: Path) -> str:
    """Evaluate the current policy as the run's seating does, add the records to the history and
    TensorBoard, redraw the learning curve at ``curve``; the log lines, each after a newline."""
    from training.runs.plots import plot_learning_curve

    seating = trainer.seating
    with trainer.timers.timed("evaluation"):
        records = seating.evaluate(trainer, run_payload(trainer, full=False))
    torch.set_num_threads(trainer.cfg.torch_threads)  # a policy bot plays on one thread
    trainer.history += records
    when = "after imitation" if trainer.update == 0 else f"after update {trainer.update}"
    lines = (
        f"\n  evaluation {when} (step {trainer.global_step}), {trainer.cfg.eval_games} seeded "
        "games per seat (per team):"
    )
    for record in records:
        tag, text = seating.describe(record)
        writer.add_scalar(tag, record["win_rate"], record["step"])
        lines += f"\n    {text}"
    scores = trainer.opponents.summary(list(trainer.venv.agents))
    if scores:
        lines += f"\n    training games, the learner's score per seat (last ~50): {scores}"
    marks = {"imitation ended": 0} if trainer.cfg.imitation_games else {}
    plot_learning_curve(trainer.history, curve, None, seating.legend, seating.reference, marks)
    return lines


def done_line(trainer: Trainer, policy: Path) -> str:
    """The run's last line: updates, decisions, time and rates, and where its policy is."""
    rate, env_rate = rates(trainer)
    imitation = (
        f" after {trainer.timers.imitation:.0f} s of imitation" if trainer.timers.imitation else ""
    )
    return (
        f"done: {trainer.update} updates, {trainer.global_step} learner decisions in "
        f"{trainer.wall_time:.0f} s of PPO{imitation} ({rate:.0f} learner / {env_rate:.0f} env "
        f"decisions per s; {trainer.timers.split()}); checkpoint {policy}"
    )
