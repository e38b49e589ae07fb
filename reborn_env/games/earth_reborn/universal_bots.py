"""The scenario's bots in the universal layout (ER-UNI-7): a scripted bot reads its scenario's own
observation, which a universal one holds entry for entry, so it plays any slot of a mixed vector.

Slot ``i`` plays ``scenarios[i % len(scenarios)]`` (the first ``len(seeds)`` of them), as in
:class:`~.fast.mixed_vector.MixedVectorEnv`; each scenario's slots are one batch of its own
bots, slot ``i`` being that batch's ``i // len(scenarios)``-th.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .scenario.loader import load_scenario
from .universal import (
    UNIVERSAL_CODEC,
    UNIVERSAL_LAYOUT,
    scenario_names,
    slot_of,
    universal_view,
)

MakeBatch = Callable[[str, list[int | None]], Any]


class UniversalBatch:
    """Batched bots over ``scenarios``, in the universal layout (a BatchedBot)."""

    def __init__(self, make: MakeBatch, scenarios: Sequence[str], seeds: Sequence[int | None]):
        self.seeds = list(seeds)
        if not self.seeds:
            raise ValueError("UniversalBatch needs at least one seed (one slot per seed)")
        self.scenarios = list(scenarios)[: len(self.seeds)]  # as MixedVectorEnv's slots
        k = len(self.scenarios)
        self.views = [universal_view(load_scenario(name)) for name in self.scenarios]
        self.batches = [make(name, self.seeds[j::k]) for j, name in enumerate(self.scenarios)]
        self.obs_size, self.n_actions = UNIVERSAL_LAYOUT.size, UNIVERSAL_CODEC.size

    def __len__(self) -> int:
        return len(self.seeds)

    def reset(self, i: int) -> None:
        if not 0 <= i < len(self):
            raise IndexError(f"slot {i} is out of range: there are slots 0..{len(self) - 1}")
        k, j = slot_of(i, len(self.scenarios))
        self.batches[k].reset(j)

    def act(self, slots: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Each row's action: its scenario's bot on the scenario's part of the row."""
        slots = np.asarray(slots, dtype=np.int64)
        obs, mask = np.asarray(obs), np.asarray(mask)
        out = np.empty(len(slots), dtype=np.int64)
        owner, own_slot = slot_of(slots, len(self.scenarios))
        for j, (view, batch) in enumerate(zip(self.views, self.batches, strict=True)):
            rows = np.flatnonzero(owner == j)
            if not len(rows):
                continue
            own_obs = view.gather(np.asarray(obs[rows], dtype=np.float32), view.obs_spans)
            own_mask = view.gather(mask[rows], view.action_spans)
            chosen = batch.act(own_slot[rows], own_obs, own_mask)
            out[rows] = view.action_index[chosen]
        return out

    def rng_state(self) -> list[Any]:
        """Each scenario's batch's generator state, in scenario order."""
        return [getattr(b, "rng_state", lambda: None)() for b in self.batches]

    def set_rng_state(self, state: list[Any]) -> None:
        for batch, saved in zip(self.batches, state, strict=True):
            if saved is not None:
                batch.set_rng_state(saved)


def universal_batch(
    make: MakeBatch, scenario: str | Sequence[str], seeds: Sequence[int | None]
) -> UniversalBatch:
    """ER-UNI-7: ``make``'s bots for ``scenario`` (a name or a list), in the universal layout."""
    return UniversalBatch(make, scenario_names(scenario), seeds)
