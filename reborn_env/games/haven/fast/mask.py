"""The action mask of the pending prompt (16.4): its legal actions set to 1 in an int8 array.

:func:`mark_legal_for` gives the compiled core's for backend ``"fast"``, else
:func:`mark_legal_reference`; the two are held identical by tests/haven/fast/test_mask.py. The
mask comes new at every observation, so setting a handful of bytes in C instead of NumPy fancy
indexing is a measurable part of a step.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from . import core

MarkLegal = Callable[[np.ndarray, Sequence[int]], None]


def mark_legal_reference(mask: np.ndarray, legal: Sequence[int]) -> None:
    """Set ``mask[a] = 1`` for each legal action ``a`` (16.4)."""
    if legal:
        mask[list(legal)] = 1


def mark_legal_for(backend: str) -> MarkLegal:
    """The mask writer of a resolved backend (:func:`~.resolve_backend`): ``"fast"`` or
    ``"python"``."""
    return core.mark_legal if backend == "fast" else mark_legal_reference  # type: ignore[union-attr]
