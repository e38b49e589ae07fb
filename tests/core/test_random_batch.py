"""RandomBatch (reborn_env/bots/batched.py): uniform random legal play for many slots at once."""

from __future__ import annotations

import numpy as np
import pytest

from reborn_env.bots.batched import RandomBatch
from reborn_env.core.rng import SplitMix64


def reference(seed: int, masks: list[np.ndarray]) -> list[int]:
    """What slot ``seed`` plays, by the docstring: the k-legal-actions pick of SplitMix64."""
    rng, moves = SplitMix64(seed), []
    for mask in masks:
        legal = np.flatnonzero(mask)
        moves.append(int(legal[(rng.next64() >> 11) * len(legal) >> 53]))
    return moves


def test_each_slot_plays_its_own_stream_whoever_shares_the_call():
    rng = np.random.default_rng(0)
    masks = (rng.random((40, 3, 9)) < 0.4).astype(np.int8)
    masks[:, :, 0] = 1  # every row has a legal action
    obs = np.zeros((3, 5), dtype=np.float32)
    together, apart = RandomBatch([5, 6, 2**64 - 1]), RandomBatch([5, 6, 2**64 - 1])
    moves = {slot: [] for slot in range(3)}
    for t in range(40):
        both = together.act(np.arange(3), obs, masks[t])
        for slot in range(3):
            moves[slot].append(
                int(apart.act(np.array([slot]), obs[:1], masks[t, slot : slot + 1])[0])
            )
            assert both[slot] == moves[slot][-1]
    for slot, seed in enumerate([5, 6, 2**64 - 1]):
        assert moves[slot] == reference(seed, list(masks[:, slot]))


def test_moves_are_legal_and_uniform():
    batch = RandomBatch([1])
    mask = np.array([[0, 1, 0, 1, 1, 0]], dtype=np.int8)
    counts = np.bincount(
        [
            int(batch.act(np.zeros(1, dtype=np.int64), np.zeros((1, 2)), mask)[0])
            for _ in range(3000)
        ],
        minlength=6,
    )
    assert counts[[0, 2, 5]].sum() == 0
    assert all(abs(c / 3000 - 1 / 3) < 0.03 for c in counts[[1, 3, 4]])


def test_bad_input_is_refused():
    batch = RandomBatch([1, 2])
    obs, mask = np.zeros((2, 2)), np.ones((2, 3), dtype=np.int8)
    with pytest.raises(ValueError, match="slots must lie in 0..1"):
        batch.act(np.array([0, 2]), obs, mask)
    with pytest.raises(ValueError, match="mask must be 2-D"):
        batch.act(np.arange(2), obs, mask[0])
    with pytest.raises(ValueError, match="no legal action"):
        batch.act(np.arange(2), obs, np.zeros((2, 3), dtype=np.int8))
    with pytest.raises(ValueError, match="at least one seed"):
        RandomBatch([])
