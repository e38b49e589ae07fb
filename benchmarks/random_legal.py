"""The random legal policy the benchmarks step vector envs with, shared so that every pace they
quote pays the same cost per decision for its actions."""

from __future__ import annotations

import numpy as np


def random_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of ``mask`` (int8 [N, A], no empty row), as
    int64 [N]: the legal entries in one flat pass, then a uniform pick within each row's run."""
    rows, width = mask.shape
    legal = np.flatnonzero(mask.view(np.bool_))
    counts = np.bincount(legal // width, minlength=rows)
    ends = np.cumsum(counts)
    return legal[ends - 1 - (rng.random(rows) * counts).astype(np.int64)] % width
