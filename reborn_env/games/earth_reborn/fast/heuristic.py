"""The heuristic bots at the speed of the compiled core: EarthRebornHeuristicBot's decisions, and
the saw hunter's, in C.

What: :class:`HeuristicBatch` takes the decisions of many heuristic bots (one per slot, each with
its own tie-break generator) in one C call; :class:`FastHeuristicBot` is one slot behind the
ordinary Bot API. With ``saw_hunt=True`` both play
:class:`~reborn_env.games.earth_reborn.saw_hunter.EarthRebornSawHunterBot` instead, which differs
only in the Salemites' plans. Why: these bots are the trainer's opponents and the exploitability
protocol's adversaries, and the Python bot's reading of the observation and its routes cost
~300 us a decision. Both play exactly as the Python bot with the same seed (a test plays them side
by side): from the seat's observation and action mask only (ER-HID-1), ties broken by a bit-exact
copy of numpy's ``default_rng(seed)``. Without the compiled core both fall back to the Python bot
itself: the same decisions, slowly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..actions import codec_for
from ..bots import EarthRebornHeuristicBot
from ..observation import observer_for
from ..saw_hunter import EarthRebornSawHunterBot
from ..scenario.loader import load_scenario
from . import AVAILABLE, core

_WORD = (1 << 64) - 1


def generator_words(seed: int | None) -> tuple[int, int, int, int, int, int]:
    """numpy's ``default_rng(seed)`` PCG64 state as the core takes it: (state high, state low,
    increment high, increment low, has_uint32, uinteger)."""
    st = np.random.default_rng(seed).bit_generator.state
    state, inc = st["state"]["state"], st["state"]["inc"]
    return state >> 64, state & _WORD, inc >> 64, inc & _WORD, st["has_uint32"], st["uinteger"]


class HeuristicBatch:
    """``len(seeds)`` heuristic bots for one scenario; slot i plays as
    ``EarthRebornHeuristicBot(scenario, seed=seeds[i])`` after its reset, or as
    ``EarthRebornSawHunterBot`` with ``saw_hunt``."""

    def __init__(
        self,
        scenario: str = "vault_raid",
        seeds: Sequence[int | None] = (None,),
        saw_hunt: bool = False,
    ) -> None:
        self.seeds = list(seeds)
        if not self.seeds:
            raise ValueError("HeuristicBatch needs at least one seed (one slot per seed)")
        scn = load_scenario(scenario)
        self.scenario = scenario
        self.obs_size = observer_for(scn).size
        self.n_actions = codec_for(scn).size
        self.compiled = AVAILABLE
        if AVAILABLE:
            self._core = core.Heuristic(
                scn, codec_for(scn), observer_for(scn).layout, len(self.seeds), saw_hunt=saw_hunt
            )
            for i in range(len(self.seeds)):
                self.reset(i)
        else:
            bot = EarthRebornSawHunterBot if saw_hunt else EarthRebornHeuristicBot
            self._bots = [bot(scenario, seed=s) for s in self.seeds]

    def __len__(self) -> int:
        return len(self.seeds)

    def reset(self, i: int) -> None:
        """Slot i starts a new game: its tie-breaker restarts, as ``bot.reset()`` does."""
        if not 0 <= i < len(self.seeds):
            raise IndexError(f"slot {i} is out of range: this batch has slots 0..{len(self) - 1}")
        if self.compiled:
            self._core.set_rng(i, *generator_words(self.seeds[i]))
        else:
            self._bots[i].reset()

    def rng_state(self) -> list[Any]:
        """Each slot's tie-break generator state (mid-game it has moved on from the seed)."""
        if self.compiled:
            return [list(self._core.rng_state(i)) for i in range(len(self))]
        return [bot.rng.bit_generator.state for bot in self._bots]

    def set_rng_state(self, state: list[Any]) -> None:
        """Put back what :meth:`rng_state` returned."""
        if not isinstance(state, list) or len(state) != len(self):
            got = len(state) if isinstance(state, list) else type(state).__name__
            raise ValueError(f"the generator state must be a list of {len(self)} slots', got {got}")
        for i, saved in enumerate(state):
            if self.compiled:
                self._core.set_rng(i, *saved)
            else:
                self._bots[i].rng.bit_generator.state = saved

    def act(self, slots: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The action of slot ``slots[r]`` for row r of ``obs`` (float32 [k, obs_size]) and
        ``mask`` (int8 or bool [k, n_actions]), as int64 [k]; one C call for all k."""
        slots, obs, mask = self._check(slots, obs, mask)
        out = np.empty(len(slots), dtype=np.int64)
        if self.compiled:
            self._core.act(slots, obs, mask, out)
        else:
            for r, i in enumerate(slots):
                out[r] = self._bots[i].act(obs[r], mask[r])
        return out

    def _check(
        self, slots: np.ndarray, obs: np.ndarray, mask: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The three arrays as act reads them; ValueError naming what is wrong and what is
        allowed (no silent copy of an observation or a mask of the wrong kind)."""
        slots = np.asarray(slots)
        if slots.ndim != 1 or slots.dtype.kind not in "iu":
            raise ValueError(
                f"slots must be a 1-D integer array, got {slots.dtype} of shape {slots.shape}"
            )
        slots = slots.astype(np.int64, copy=False)
        k = len(slots)
        if k and (slots.min() < 0 or slots.max() >= len(self)):
            raise ValueError(f"slots must lie in 0..{len(self) - 1}, got {slots.tolist()}")
        for name, array, dtypes, width in (
            ("obs", obs, (np.float32,), self.obs_size),
            ("mask", mask, (np.int8, np.bool_), self.n_actions),
        ):
            if not isinstance(array, np.ndarray) or array.dtype not in dtypes:
                got = array.dtype if isinstance(array, np.ndarray) else type(array).__name__
                allowed = " or ".join(np.dtype(d).name for d in dtypes)
                raise ValueError(f"{name} must be a numpy {allowed} array, got {got}")
            if array.shape != (k, width):
                raise ValueError(
                    f"{name} must have shape ({k}, {width}) (one row per slot), got {array.shape}"
                )
            if not array.flags.c_contiguous:
                raise ValueError(f"{name} must be C-contiguous (np.ascontiguousarray)")
        return slots, obs, mask


class FastHeuristicBot:
    """EarthRebornHeuristicBot's Bot API on one compiled slot (the saw hunter's with
    ``saw_hunt``): the same decisions, same seed."""

    def __init__(
        self, scenario: str = "vault_raid", seed: int | None = None, saw_hunt: bool = False
    ) -> None:
        self.seed = seed
        self.batch = HeuristicBatch(scenario, [seed], saw_hunt=saw_hunt)
        self._slot = np.zeros(1, dtype=np.int64)

    def reset(self) -> None:
        """A new game: nothing is remembered between decisions, so only the tie-breaker restarts."""
        self.batch.reset(0)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        obs = np.ascontiguousarray(observation, dtype=np.float32).reshape(1, -1)
        mask = (np.asarray(action_mask) != 0).reshape(1, -1)
        return int(self.batch.act(self._slot, obs, mask)[0])


def compiled_batch(scenario: str, seeds: Sequence[int | None]) -> HeuristicBatch | None:
    """The registry's batched heuristic (GameSpec.batched_bots): the compiled batch, or None
    without the compiled core (batched_bot then loops over Python bots)."""
    return HeuristicBatch(scenario, seeds) if AVAILABLE else None


def compiled_saw_hunter_batch(scenario: str, seeds: Sequence[int | None]) -> HeuristicBatch | None:
    """The registry's batched saw hunter, as :func:`compiled_batch` gives the heuristic."""
    return HeuristicBatch(scenario, seeds, saw_hunt=True) if AVAILABLE else None
