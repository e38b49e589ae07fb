"""A short, throwaway PPO run of ``training.ppo.train``, for the benchmarks that time the
trainer (``bench_sb3.py``, ``bench_training.py``): no imitation, no evaluation, no wall-clock
guard, one checkpoint at the end, everything it writes in a temporary folder."""

from __future__ import annotations

import contextlib
import io
import sys
import tempfile
from pathlib import Path
from typing import Any

SHORT = {
    "imitation_games": 0,
    "dagger_rounds": 0,
    "init_policy": "",
    "max_minutes": 0.0,
    "eval_opponents": [],
    "checkpoint_every": 10**6,
}
"""What a timed run leaves out, over any config."""


def short_run(settings: dict[str, Any], name: str, quiet: bool = True) -> Any:
    """The trainer of a run of ``settings`` (a config as a mapping) with :data:`SHORT` over
    them, its log lines hidden if ``quiet``."""
    from training.ppo.config import TrainConfig
    from training.ppo.train import train

    with tempfile.TemporaryDirectory(prefix=f"{name}_") as tmp:
        cfg = TrainConfig.from_dict(
            {**settings, **SHORT, "checkpoint_dir": str(Path(tmp) / "checkpoints"),
             "run_name": name},
            source=name,
        )  # fmt: skip
        with contextlib.redirect_stdout(io.StringIO() if quiet else sys.stdout):
            return train(cfg, log_dir=str(Path(tmp) / "runs"))
