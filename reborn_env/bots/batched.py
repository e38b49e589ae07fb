"""Bots for many games at once: one call decides a row of observations, one slot per game.

What: the :class:`BatchedBot` interface (``reset(i)``, ``act(slots, obs, mask)``), the generic
:class:`PerSlotBots` that holds one ordinary :class:`~reborn_env.bots.base.Bot` per slot and
loops, and :func:`batched_bot`, which gives a registered game's compiled batch when the game
registers one (``GameSpec.batched_bots``) and it is built here, else PerSlotBots. Why: a trainer
playing hundreds of games against a scripted opponent asks for all their decisions at once, and
a game with a compiled bot answers them in one native call; every other game still works. A
batch that keeps random generators also gives their state (:class:`KeepsRngState`), which a
trainer's checkpoint saves so that a resumed run's opponents play as the uninterrupted run's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, Protocol, runtime_checkable

import numpy as np

from ..core import registry
from ..core.public_view import PublicView, view_of
from .base import Bot, decide, sees_public_view
from .loading import load_bot

Views = Callable[[int], PublicView]
"""``views(i)``: the public view of slot i's game for its seat to move (``core.public_view``)."""


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


@runtime_checkable
class KeepsRngState(Protocol):
    """Optional, for batched bots whose generators a trainer saves in its checkpoint, so a
    resumed run's opponents draw what an uninterrupted run's would have drawn."""

    def rng_state(self) -> list[Any]:
        """Every slot's generator state, as plain Python values (a checkpoint holds them)."""
        ...

    def set_rng_state(self, state: list[Any]) -> None:
        """Put back the generators :meth:`rng_state` returned."""
        ...


def bot_rng_state(bot: Bot) -> Any:
    """An ordinary bot's generator state: its own ``rng_state()``, else its numpy ``rng``'s,
    else None (a bot without either draws nothing)."""
    if callable(getattr(bot, "rng_state", None)):
        return bot.rng_state()  # type: ignore[attr-defined]
    rng = getattr(bot, "rng", None)
    return rng.bit_generator.state if isinstance(rng, np.random.Generator) else None


def set_bot_rng_state(bot: Bot, state: Any) -> None:
    """Put back what :func:`bot_rng_state` returned for ``bot``."""
    if callable(getattr(bot, "set_rng_state", None)):
        bot.set_rng_state(state)  # type: ignore[attr-defined]
    elif state is not None:
        bot.rng.bit_generator.state = state  # type: ignore[attr-defined]


def _check_state_length(state: list[Any], n: int) -> None:
    """A ValueError unless ``state`` holds one generator per slot."""
    if not isinstance(state, list) or len(state) != n:
        got = len(state) if isinstance(state, list) else type(state).__name__
        raise ValueError(f"the generator state must be a list of {n} slots' states, got {got}")


class PerSlotBots:
    """A BatchedBot made of one ordinary bot per slot, ``factory(seeds[i])``, asked in turn. Its
    bots may see the public view (``base.SeesPublicView``): then :attr:`sees_public_view` is True
    and the driver passes ``views`` to :meth:`act` (:func:`act_batch` does)."""

    def __init__(self, factory: Callable[[int | None], Bot], seeds: Sequence[int | None]) -> None:
        self.seeds = list(seeds)
        if not self.seeds:
            raise ValueError("PerSlotBots needs at least one seed (one slot per seed)")
        self.bots = [factory(seed) for seed in self.seeds]
        self.sees_public_view = any(sees_public_view(bot) for bot in self.bots)

    def __len__(self) -> int:
        return len(self.bots)

    def reset(self, i: int) -> None:
        if not 0 <= i < len(self.bots):
            raise IndexError(f"slot {i} is out of range: there are slots 0..{len(self) - 1}")
        self.bots[i].reset()

    def act(
        self, slots: np.ndarray, obs: np.ndarray, mask: np.ndarray, views: Views | None = None
    ) -> np.ndarray:
        """As BatchedBot's, and ``views(i)`` gives slot i's public view to a bot that asks."""
        slots = _checked_rows(slots, obs, mask, len(self))
        out = np.empty(len(slots), dtype=np.int64)
        for r, i in enumerate(slots.tolist()):
            view = None if views is None else partial(views, i)
            out[r] = decide(self.bots[i], obs[r], mask[r], view)
        return out

    def rng_state(self) -> list[Any]:
        """Each slot's bot's generator state (:func:`bot_rng_state`)."""
        return [bot_rng_state(bot) for bot in self.bots]

    def set_rng_state(self, state: list[Any]) -> None:
        """Put back what :meth:`rng_state` returned."""
        _check_state_length(state, len(self.bots))
        for bot, saved in zip(self.bots, state, strict=True):
            set_bot_rng_state(bot, saved)


def vector_view(vector: Any, seat: int, i: int) -> PublicView:
    """Slot ``i`` of a game vector (``GameSpec.make_vector_env``: its ``rules`` and
    ``get_state(i)``) as ``seat`` may know it; ``partial(vector_view, vector, seat)`` is the
    ``views`` of :func:`act_batch`."""
    return view_of(vector.rules, vector.get_state(i), seat)


def act_batch(
    bot: BatchedBot, slots: np.ndarray, obs: np.ndarray, mask: np.ndarray, views: Views
) -> np.ndarray:
    """``bot.act(slots, obs, mask)``, with ``views`` for a batch whose bots see the public view
    (``sees_public_view``): how a driver of the game vector asks any batched bot."""
    if getattr(bot, "sees_public_view", False):
        return bot.act(slots, obs, mask, views=views)
    return bot.act(slots, obs, mask)


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1, _MIX2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)
_SHIFT11, _SHIFT27, _SHIFT30, _SHIFT31, _SHIFT53 = (np.uint64(k) for k in (11, 27, 30, 31, 53))


class RandomBatch:
    """Uniform random legal play for many slots in one vectorised call: slot ``i`` draws from its
    own SplitMix64 stream seeded ``seeds[i]`` (``core.rng``), so a slot's moves do not depend on
    which other slots share a call. Each decision takes the stream's next 64-bit output ``x`` and
    plays the ``(x >> 11) * k >> 53``-th of its ``k`` legal actions, in action order."""

    def __init__(self, seeds: Sequence[int | None]) -> None:
        seeds = list(seeds)
        if not seeds:
            raise ValueError("RandomBatch needs at least one seed (one slot per seed)")
        fresh = np.random.SeedSequence().generate_state(len(seeds), dtype=np.uint64)
        self.state = np.array(
            [int(fresh[i]) if s is None else int(s) % 2**64 for i, s in enumerate(seeds)],
            dtype=np.uint64,
        )

    def __len__(self) -> int:
        return len(self.state)

    def reset(self, i: int) -> None:
        """Nothing to forget: as RandomBot's, the stream runs on, so successive games differ."""
        if not 0 <= i < len(self):
            raise IndexError(f"slot {i} is out of range: there are slots 0..{len(self) - 1}")

    def act(self, slots: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        slots = _checked_rows(slots, obs, mask, len(self))
        return self.draw(slots, np.asarray(mask) != 0)

    def rng_state(self) -> list[int]:
        """Each slot's SplitMix64 state."""
        return [int(x) for x in self.state]

    def set_rng_state(self, state: list[int]) -> None:
        """Put back what :meth:`rng_state` returned."""
        _check_state_length(state, len(self))
        self.state[:] = np.array([int(x) % 2**64 for x in state], dtype=np.uint64)

    def draw(self, slots: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """:meth:`act` for a driver that built its own arrays: ``slots`` int64 [k] in range and
        ``legal`` bool [k, n_actions], taken as they are (no observation: the draw needs none).
        A row without a legal action is still a ValueError."""
        width = legal.shape[1]
        row_offsets = np.arange(len(slots) + 1) * width
        flat_legal = legal.ravel().nonzero()[0]  # every row's legal actions, rows in order
        row_bounds = np.searchsorted(flat_legal, row_offsets)
        counts = np.diff(row_bounds)
        if not counts.all():
            raise ValueError(
                f"slot {int(slots[np.argmin(counts)])}: the action mask has no legal action"
            )
        z = self.state[slots]  # a copy: the streams advance by one output each
        z += _GOLDEN
        self.state[slots] = z
        z ^= z >> _SHIFT30  # array arithmetic wraps modulo 2**64 without a warning
        z *= _MIX1
        z ^= z >> _SHIFT27
        z *= _MIX2
        z ^= z >> _SHIFT31
        z >>= _SHIFT11
        z *= counts.astype(np.uint64)
        z >>= _SHIFT53  # the pick, < k: the index among the row's legal actions
        return flat_legal[row_bounds[:-1] + z.astype(np.int64)] - row_offsets[:-1]


def _checked_rows(slots: Any, obs: Any, mask: Any, n: int) -> np.ndarray:
    """``slots`` as a 1-D int64 array of slots in ``0..n-1``, with ``obs`` and ``mask`` 2-D with
    one row per slot; a ValueError saying what is wrong otherwise."""
    slots = np.asarray(slots)
    if slots.ndim != 1 or slots.dtype.kind not in "iu":
        raise ValueError(
            f"slots must be a 1-D integer array, got {slots.dtype} of shape {slots.shape}"
        )
    if len(slots) and (slots.min() < 0 or slots.max() >= n):
        raise ValueError(f"slots must lie in 0..{n - 1}, got {slots.tolist()}")
    for name, array in (("obs", obs), ("mask", mask)):
        if np.ndim(array) != 2 or len(array) != len(slots):
            raise ValueError(
                f"{name} must be 2-D with one row per slot ({len(slots)}), got shape "
                f"{np.shape(array)}"
            )
    return slots.astype(np.int64)


def batched_bot(
    game_name: str, bot_name: str, seeds: Sequence[int | None], **options: Any
) -> BatchedBot:
    """Bots ``bot_name`` of game ``game_name`` for ``len(seeds)`` slots, slot i seeded
    ``seeds[i]``: the game's compiled batch (``GameSpec.batched_bots``, for ``scenario`` or the
    game's default scenario) when it has one built here, else PerSlotBots over the game's bot
    class (``options`` go to it, e.g. ``scenario=``), :class:`RandomBatch` for ``random``, or
    PerSlotBots over :func:`load_bot` (policy files: they read any scenario's observation, so
    ``scenario`` is not passed to them). With a ``layout`` the game registers
    (``GameSpec.layouts``), the scenario's bots, adapted to that layout's observations and
    actions (a policy file reads its own layout and is not adapted)."""
    spec = registry.get(game_name)
    seeds = list(seeds)
    layout = options.get("layout", "scenario")
    if layout != "scenario" and bot_name in {*spec.bots, *spec.batched_bots}:
        if layout not in spec.layouts:
            known = ", ".join(["scenario", *spec.layouts])
            raise ValueError(f"{game_name} has no layout {layout!r}; its layouts: {known}")
        rest = {k: v for k, v in options.items() if k not in ("layout", "scenario")}
        adapt = registry.resolve(spec.layouts[layout])
        scenario = options.get("scenario", spec.default_scenario)
        return adapt(
            lambda name, some: batched_bot(game_name, bot_name, some, scenario=name, **rest),
            scenario, seeds,
        )  # fmt: skip
    options = {k: v for k, v in options.items() if k != "layout"}
    factory = spec.batched_bots.get(bot_name)
    rest = {k: v for k, v in options.items() if k != "scenario"}
    if factory:
        scenario = options.get("scenario", spec.default_scenario)
        batch = registry.resolve(factory)(scenario, seeds, **rest)
        if batch is not None:
            return batch
    if bot_name == "random":
        return RandomBatch(seeds)
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
