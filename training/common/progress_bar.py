"""A progress bar for a long phase (imitation, evaluation): done/total, rate and time left.

Why: a phase of minutes that prints nothing looks hung. The bar redraws in place on a terminal
and, in a log file, writes a line at most every ``every`` seconds (and at the end), so logs stay
short. No dependency: one class.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

WIDTH = 24


class ProgressBar:
    """``label [#####-----] done/total unit  rate unit/s  left Ns``, redrawn as work is done."""

    def __init__(
        self,
        label: str,
        total: int,
        unit: str = "games",
        stream: TextIO | None = None,
        every: float = 5.0,
    ) -> None:
        self.label, self.total, self.unit = label, max(int(total), 1), unit
        self.stream = stream if stream is not None else sys.stdout
        self.live = bool(getattr(self.stream, "isatty", lambda: False)())
        self.every = 0.2 if self.live else every
        self.start = self.last = time.perf_counter()
        self.done = 0

    def update(self, done: int) -> None:
        """``done`` of ``total`` are finished; draw if it is time."""
        self.done = min(int(done), self.total)
        now = time.perf_counter()
        if self.done >= self.total or now - self.last >= self.every:
            self.last = now
            self._draw(now)

    def close(self) -> float:
        """Finish the bar (its last line, unless already drawn full); the phase's seconds."""
        if self.done < self.total:
            self.update(self.total)
        if self.live:
            self.stream.write("\n")
            self.stream.flush()
        return time.perf_counter() - self.start

    def text(self, now: float) -> str:
        """The bar's line at time ``now``."""
        elapsed = max(now - self.start, 1e-9)
        rate = self.done / elapsed
        left = (self.total - self.done) / rate if rate > 0 else float("inf")
        filled = WIDTH * self.done // self.total
        eta = f"left {left:.0f} s" if left != float("inf") else "left ?"
        return (
            f"{self.label} [{'#' * filled}{'-' * (WIDTH - filled)}] {self.done}/{self.total} "
            f"{self.unit}  {rate:.1f} {self.unit}/s  {eta}"
        )

    def _draw(self, now: float) -> None:
        line = self.text(now)
        self.stream.write(f"\r{line}" if self.live else f"{line}\n")
        self.stream.flush()
