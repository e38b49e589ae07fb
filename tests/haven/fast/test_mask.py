"""The compiled action mask against its reference (16.4: the mask is exactly the legal actions)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from reborn_env.games.haven.fast import core
from reborn_env.games.haven.fast.mask import mark_legal_reference
from tests.haven.helpers import ACTIONS

CASES = [(), (0,), (3, 5, 86), tuple(range(ACTIONS.N_ACTIONS)), (7, 7)]


@pytest.mark.parametrize("legal", CASES, ids=str)
def test_the_compiled_mask_marks_what_the_reference_marks(legal: tuple[int, ...]) -> None:
    """16.4: ones exactly at the legal actions, zeros elsewhere, on a fresh mask."""
    fast = np.zeros(ACTIONS.N_ACTIONS, np.int8)
    reference = np.zeros(ACTIONS.N_ACTIONS, np.int8)
    core.mark_legal(fast, legal)
    mark_legal_reference(reference, legal)
    assert fast.tolist() == reference.tolist()
    assert set(np.flatnonzero(fast).tolist()) == set(legal)


@pytest.mark.parametrize(
    ("mask", "legal", "error", "says"),
    [
        (np.zeros(87, np.int8), (3, 87), ValueError, "legal[1] = 87 is not an action in 0..86"),
        (np.zeros(87, np.int8), (-1,), ValueError, "is not an action"),
        (np.zeros(87, np.int8), (True,), ValueError, "is not an action"),
        (np.zeros(87, np.int8), ("3",), ValueError, "is not an action"),
        (np.zeros(87, np.int8), 5, TypeError, "legal must be a sequence"),
        (np.zeros(87, np.float32), (3,), ValueError, "mask must be a int8 array of shape (*,)"),
        (np.zeros((3, 29), np.int8), (3,), ValueError, "of shape (*,), got int8 (3, 29)"),
        ([0] * 87, (3,), ValueError, "got list"),
    ],
)
def test_bad_input_is_refused_and_leaves_the_mask_as_it_was(mask, legal, error, says) -> None:
    """A bad action anywhere in ``legal`` is refused before any byte is written."""
    before = np.array(mask, copy=True)
    with pytest.raises(error, match=re.escape(says)):
        core.mark_legal(mask, legal)
    assert np.array_equal(np.asarray(mask), before)


def test_a_read_only_mask_is_refused() -> None:
    mask = np.zeros(87, np.int8)
    mask.flags.writeable = False
    with pytest.raises(ValueError, match="mask must be writable and C-contiguous"):
        core.mark_legal(mask, (1,))
