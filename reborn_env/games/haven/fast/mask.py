"""The action mask of the pending prompt (16.4): its legal actions set to 1 in an int8 array.

:func:`mark_legal` is the compiled core's where it is built and switched on
(:func:`~reborn_env.games.haven.fast.use_core`), else :func:`mark_legal_reference`; the two are
held identical by tests/haven/fast/test_mask.py. The mask comes new at every observation, so
setting a handful of bytes in C instead of NumPy fancy indexing is a measurable part of a step.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from . import core, use_core


def mark_legal_reference(mask: np.ndarray, legal: Sequence[int]) -> None:
    """Set ``mask[a] = 1`` for each legal action ``a`` (16.4)."""
    if legal:
        mask[list(legal)] = 1


mark_legal: Callable[[np.ndarray, Sequence[int]], None] = (
    core.mark_legal if use_core() else mark_legal_reference  # type: ignore[union-attr]
)
