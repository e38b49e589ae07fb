"""NFSP's two memories: a circular replay buffer for the best response, a reservoir for the average.

Why two (Heinrich & Silver 2016, and OpenSpiel's and RLCard's NFSP): the best response is a DQN
that should learn from recent play, so its transitions go into a fixed-size buffer that overwrites
its oldest rows first (:class:`CircularBuffer`); the average policy must imitate the best
response's behaviour averaged over the whole run, so its (observation, mask, action) samples go
into a reservoir (:class:`ReservoirBuffer`, Vitter's Algorithm R), which after ``t`` additions
holds a uniform sample of all ``t`` of them, however large ``t`` grows.

Both hold named numpy columns allocated once (``columns``: name -> (shape of one row, dtype)),
take rows in batches (``add``) and give uniform random batches (``sample``) from a
``numpy.random.Generator`` the caller owns, so a run is reproducible from its seed.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

Columns = Mapping[str, tuple[tuple[int, ...], type]]
"""name -> (shape of one row, numpy dtype)."""


class _Buffer:
    """Named columns of ``capacity`` rows, of which the first ``len(self)`` are filled."""

    def __init__(self, capacity: int, columns: Columns) -> None:
        if not isinstance(capacity, int) or isinstance(capacity, bool) or capacity < 1:
            raise ValueError(f"a buffer's capacity must be an integer > 0, got {capacity!r}")
        self.capacity = capacity
        self.data = {
            name: np.zeros((capacity, *shape), dtype=dtype)
            for name, (shape, dtype) in columns.items()
        }
        self.size = 0
        self.added = 0
        """rows ever offered to the buffer (kept or not)"""

    def __len__(self) -> int:
        return self.size

    def sample(self, batch: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
        """``batch`` rows drawn uniformly with replacement: a copy of each column."""
        if self.size == 0:
            raise ValueError("cannot sample from an empty buffer")
        rows = rng.integers(0, self.size, size=batch)
        return {name: column[rows] for name, column in self.data.items()}

    def _rows(self, rows: Mapping[str, np.ndarray]) -> int:
        """The number of rows in ``rows`` (every column given, all the same length)."""
        if set(rows) != set(self.data):
            raise ValueError(f"rows must have exactly the columns {sorted(self.data)}")
        counts = {len(values) for values in rows.values()}
        if len(counts) != 1:
            raise ValueError(f"columns of different lengths: {sorted(counts)}")
        return counts.pop()


class CircularBuffer(_Buffer):
    """The best response's replay memory: once full, each new row replaces the oldest."""

    def __init__(self, capacity: int, columns: Columns) -> None:
        super().__init__(capacity, columns)
        self.next = 0

    def add(self, rows: Mapping[str, np.ndarray]) -> None:
        """Append ``rows`` (a batch per column), overwriting the oldest rows once full."""
        k = self._rows(rows)
        if k == 0:
            return
        keep = min(k, self.capacity)  # of a batch larger than the buffer, its newest rows
        at = (self.next + (k - keep) + np.arange(keep)) % self.capacity
        for name, column in self.data.items():
            column[at] = np.asarray(rows[name])[k - keep :]
        self.next = (self.next + k) % self.capacity
        self.added += k
        self.size = min(self.capacity, self.size + k)


class ReservoirBuffer(_Buffer):
    """The average policy's memory: a uniform sample of every row ever added (Algorithm R)."""

    def add(self, rows: Mapping[str, np.ndarray], rng: np.random.Generator) -> None:
        """Offer ``rows`` in order: row number ``t`` (counting every row ever offered from 0) is
        kept while the buffer has room, and afterwards replaces a uniform row with probability
        ``capacity / (t + 1)``, exactly as if the rows came one at a time."""
        k = self._rows(rows)
        if k == 0:
            return
        t = self.added + np.arange(k)
        slot = np.where(t < self.capacity, t, rng.integers(0, t + 1))
        kept = np.flatnonzero(slot < self.capacity)
        # a batch may pick one slot twice: the later row replaces the earlier, as in sequence
        last = len(kept) - 1 - np.unique(slot[kept][::-1], return_index=True)[1]
        kept = kept[last]
        for name, column in self.data.items():
            column[slot[kept]] = np.asarray(rows[name])[kept]
        self.added += k
        self.size = min(self.capacity, self.added)
