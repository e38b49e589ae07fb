"""Bots for many games at once: one call decides a row of observations, one slot per game.

What: the :class:`BatchedBot` interface (``reset(i)``, ``act(slots, obs, mask)``), the generic
:class:`PerSlotBots` that holds one ordinary :class:`~reborn_env.bots.base.Bot` per slot and
loops, and :func:`batched_bot`, which gives a registered game's compiled batch when the game
registers one (``GameSpec.batched_bots``) and it is built here, else PerSlotBots. Why: a trainer
playing hundreds of games against a scripted opponent asks for all their decisions at once, and
a game with a compiled bot answers them in one native call; every other game still works.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from ..core import registry
from .base import Bot
from .loading import load_bot


@runtime_checkable
class BatchedBot(Protocol):
    """Bots for ``n`` slots; slot i answers for game i (its own seed and tie-breaker)."""

    def reset(self, i: int) -> None:
        """Slot i starts a new game (as ``Bot.reset``)."""
        ...

    def act(self, slots: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """int64 [k]: the action of slot ``slots[r]`` for observation row r (float32
        [k, obs_size]) and action-mask row r (int8 or bool [k, n_actions])."""
        ...


class PerSlotBots:
    """A BatchedBot made of one ordinary bot per slot, ``factory(seeds[i])``, asked in turn."""

    def __init__(self, factory: Callable[[int | None], Bot], seeds: Sequence[int | None]) -> None:
        self.seeds = list(seeds)
        if not self.seeds:
            raise ValueError("PerSlotBots needs at least one seed (one slot per seed)")
        self.bots = [factory(seed) for seed in self.seeds]

    def __len__(self) -> int:
        return len(self.bots)

    def reset(self, i: int) -> None:
        if not 0 <= i < len(self.bots):
            raise IndexError(f"slot {i} is out of range: there are slots 0..{len(self) - 1}")
        self.bots[i].reset()

    def act(self, slots: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        slots = np.asarray(slots)
        if slots.ndim != 1 or slots.dtype.kind not in "iu":
            raise ValueError(
                f"slots must be a 1-D integer array, got {slots.dtype} of shape {slots.shape}"
            )
        k = len(slots)
        if k and (slots.min() < 0 or slots.max() >= len(self)):
            raise ValueError(f"slots must lie in 0..{len(self) - 1}, got {slots.tolist()}")
        for name, array in (("obs", obs), ("mask", mask)):
            if np.ndim(array) != 2 or len(array) != k:
                raise ValueError(
                    f"{name} must be 2-D with one row per slot ({k}), got shape {np.shape(array)}"
                )
        out = np.empty(k, dtype=np.int64)
        for r, i in enumerate(slots):
            out[r] = self.bots[int(i)].act(obs[r], mask[r])
        return out


def batched_bot(
    game_name: str, bot_name: str, seeds: Sequence[int | None], **options: Any
) -> BatchedBot:
    """Bots ``bot_name`` of game ``game_name`` for ``len(seeds)`` slots, slot i seeded
    ``seeds[i]``: the game's compiled batch (``GameSpec.batched_bots``, for ``scenario`` or the
    game's default scenario) when it has one built here, else PerSlotBots over the game's bot
    class (``options`` go to it, e.g. ``scenario=``) or over :func:`load_bot` (``random``, policy
    files: they read any scenario's observation, so ``scenario`` is not passed to them)."""
    spec = registry.get(game_name)
    seeds = list(seeds)
    factory = spec.batched_bots.get(bot_name)
    rest = {k: v for k, v in options.items() if k != "scenario"}
    if factory:
        scenario = options.get("scenario", spec.default_scenario)
        batch = registry.resolve(factory)(scenario, seeds, **rest)
        if batch is not None:
            return batch
    if bot_name in spec.bots:
        cls = registry.resolve(spec.bots[bot_name])
        return PerSlotBots(lambda seed: cls(seed=seed, **options), seeds)
    return PerSlotBots(lambda seed: load_bot(bot_name, game_name, seed=seed, **rest), seeds)


class SlotBot:
    """Slot ``i`` of a BatchedBot behind the ordinary Bot API (one decision a call)."""

    def __init__(self, batch: BatchedBot, i: int = 0) -> None:
        self.batch = batch
        self.slot = np.array([i], dtype=np.int64)

    def reset(self) -> None:
        self.batch.reset(int(self.slot[0]))

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        obs = np.ascontiguousarray(observation, dtype=np.float32).reshape(1, -1)
        mask = (np.asarray(action_mask) != 0).reshape(1, -1)
        return int(self.batch.act(self.slot, obs, mask)[0])
