"""ReferenceGames: the class API of the compiled core's ``Games`` in pure Python.

It steps ``n`` games of the reference engine (``rules/engine.py``) exactly as the compiled
``_core.Games`` must: one SplitMix64 generator per slot drawn from the
vector's seed, every action checked before any is applied (ER-ENV-8), this step's rewards as
:class:`~reborn_env.core.game_env.GameEnv` gives them (MP shaping, then +1 / -1 / 0 at the end,
ER-WIN-3), truncation at ``max_steps`` (ER-ENV-9) and a finished game replaced in the same call.
It is the vector env's fallback when the core is not built, and the oracle the differential tests
hold the core to.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ....core.errors import IllegalActionError
from ....core.rng import SplitMix64
from ..observation import observer_for
from ..rules import engine
from ..rules.state import GameState
from ..scenario.model import Scenario

MAX_SEED = 2**64 - 1
WAIT = -1
"""The action that leaves a slot as it is for one step: a trainer's slot that has the decisions it
needs waits while the others play on."""
Status = tuple[int, int, int | None, int, int, int]


def slot_generators(seed: int, n: int) -> list[SplitMix64]:
    """Slot ``i``'s generator is SplitMix64 of the ``i``-th output of SplitMix64(``seed``)."""
    root = SplitMix64(seed)
    return [SplitMix64(root.next64()) for _ in range(n)]


def refusal(state: GameState, action: int) -> str:
    """The reference engine's refusal of ``action`` at ``state``: the decision in progress and
    the legal actions by name (ER-ENV-8); ``state`` is not changed."""
    try:
        engine.apply_action(state.clone(), action)
    except IllegalActionError as err:
        return str(err)
    raise RuntimeError(f"action {action} was refused, but the reference engine allows it")


def illegal_action_message(state: GameState, slot: int, action: int) -> str:
    """:func:`refusal`, naming the slot of a vector of games."""
    return f"slot {slot}: {refusal(state, action)}"


def final_rewards(winner: int | None) -> tuple[float, float]:
    """ER-WIN-3: +1 / -1 for a win, 0 each for a draw or the step limit (ER-ENV-9)."""
    if winner is None or winner == -1:
        return (0.0, 0.0)
    return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)


def _integer(name: str, value: Any, low: int, high: int | None = None) -> int:
    """``value`` as an int in ``low..high``; booleans and non-integers are refused."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    if value < low or (high is not None and value > high):
        bound = f"{low}..{high}" if high is not None else f">= {low}"
        raise ValueError(f"{name} must be in {bound}, got {value}")
    return int(value)


def _buffer(name: str, out: Any, dtype: type, shape: tuple[int, ...]) -> np.ndarray:
    """``out`` as a writable C-contiguous array of ``dtype`` and ``shape``, or a ValueError."""
    array = np.asarray(out)
    if array.dtype != dtype or array.shape != shape:
        raise ValueError(
            f"{name} must be a {np.dtype(dtype).name} array of shape {shape}, "
            f"got {array.dtype.name} {array.shape}"
        )
    if not array.flags.writeable or not array.flags.c_contiguous:
        raise ValueError(f"{name} must be writable and C-contiguous")
    return array


class ReferenceGames:
    """``n`` game slots of the reference engine behind ``_core.Games``'s methods."""

    def __init__(
        self,
        scenario: Scenario,
        codec: Any,
        layout: Any,
        n: int,
        max_steps: int,
        mp_shaping: float,
        seed: int,
    ) -> None:
        self.n = _integer("n", n, 1)
        self.max_steps = _integer("max_steps", max_steps, 1)  # ER-ENV-9
        self.mp_shaping = float(mp_shaping)
        self.scenario = scenario
        self.codec = codec
        self.observer = observer_for(scenario)
        if layout.size != self.observer.size:
            raise ValueError(f"layout has {layout.size} floats, the observer {self.observer.size}")
        self.n_actions = codec.size
        self.obs_size = self.observer.size
        self._generators = slot_generators(_integer("seed", seed, 0, MAX_SEED), self.n)
        self._states: list[GameState | None] = [None] * self.n

    # --- one slot -------------------------------------------------------------------------------

    def new_game(self, i: int, seed: int) -> None:
        """Slot ``i`` := engine.new_game(scenario, ``seed``) (ER-TURN-4)."""
        self._states[self._slot(i)] = engine.new_game(
            self.scenario, _integer("seed", seed, 0, MAX_SEED)
        )

    def seed_state(self, i: int) -> int:
        """Slot ``i``'s seed generator state (the SplitMix64 of its next games' seeds)."""
        return self._generators[self._slot(i)].state

    def set_seed_state(self, i: int, state: int) -> None:
        """Slot ``i``'s seed generator state := ``state`` (a resumed run puts it back)."""
        self._generators[self._slot(i)].state = _integer("seed state", state, 0, MAX_SEED)

    def load(self, i: int, state: GameState) -> None:
        """Slot ``i`` := a copy of ``state`` (validated before, by positions.state_from_dict)."""
        i = self._slot(i)
        if not isinstance(state, GameState) or state.scenario is not self.scenario:
            raise ValueError(f"slot {i}: load() takes a GameState of this Games' scenario")
        self._states[i] = state.clone()

    def dump(self, i: int) -> GameState:
        """A new reference GameState equal to slot ``i``."""
        return self._state(i).clone()

    def copy_slot(self, i: int, other: ReferenceGames, j: int) -> None:
        """Slot ``i`` := a copy of slot ``j`` of ``other``, a Games of this scenario."""
        i = self._slot(i)
        if not isinstance(other, ReferenceGames) or other.scenario is not self.scenario:
            raise ValueError(
                f"slot {i}: copy_slot() takes a Games of this Games' scenario, got {other!r}"
            )
        self._states[i] = other._state(j).clone()

    def legal(self, i: int) -> list[int]:
        """ER-ENV-10: the legal actions of slot ``i``'s decision, sorted."""
        return list(engine.legal_actions(self._state(i)))

    def mask(self, i: int, out: Any) -> None:
        """``out`` (int8 [n_actions]) := 1 for each legal action of slot ``i``, else 0."""
        legal = engine.legal_actions(self._state(i))
        row = _buffer("mask", out, np.int8, (self.n_actions,))
        row[:] = 0
        row[legal] = 1

    def apply(self, i: int, action: int) -> bool:
        """Play ``action`` in slot ``i``; False, nothing changed, if it is not legal."""
        state = self._state(i)
        action = _integer("action", action, -(2**63), 2**63 - 1)
        if action not in engine.legal_actions(state):
            return False
        engine.apply_action(state, action)
        return True

    def observe(self, i: int, seat: int, out: Any) -> None:
        """``out`` (float32 [obs_size]) := Observer.observe(slot ``i``, ``seat``) (ER-HID-1..12)."""
        state = self._state(i)
        seat = _integer("seat", seat, 0, 1)
        _buffer("obs", out, np.float32, (self.obs_size,))[:] = self.observer.observe(state, seat)

    def status(self, i: int) -> Status:
        """(decider, active, winner, steps, mp0, mp1); winner None while running, -1 a draw."""
        s = self._state(i)
        return s.decider, s.active, s.winner, s.steps, s.mp[0], s.mp[1]

    # --- every slot at once ---------------------------------------------------------------------

    def reset_all(self, obs: Any, mask: Any, agent: Any) -> None:
        """Every slot: a new game with its generator's next seed; its first decision written."""
        obs, mask, agent = self._outputs(obs, mask, agent)
        for i in range(self.n):
            self._states[i] = engine.new_game(self.scenario, self._generators[i].next64())
            self._write(i, obs, mask, agent)

    def step(
        self,
        actions: Any,
        obs: Any,
        mask: Any,
        agent: Any,
        rewards: Any,
        terminated: Any,
        truncated: Any,
        num_threads: int = 1,
    ) -> None:
        """One action per slot for its seat to move (or WAIT), every one checked first (ER-ENV-8: an
        illegal one raises naming the slot, nothing changed); then this step's rewards and
        flags, and each finished game replaced by the slot's next one."""
        actions = np.asarray(actions)
        if actions.dtype != np.int64 or actions.shape != (self.n,):
            raise ValueError(
                f"actions must be an int64 array of shape ({self.n},), "
                f"got {actions.dtype.name} {actions.shape}"
            )
        obs, mask, agent = self._outputs(obs, mask, agent)
        rewards = _buffer("rewards", rewards, np.float32, (self.n, 2))
        terminated = _buffer("terminated", terminated, np.bool_, (self.n,))
        truncated = _buffer("truncated", truncated, np.bool_, (self.n,))
        _integer("num_threads", num_threads, 1)
        states = [self._state(i) for i in range(self.n)]
        chosen = actions.tolist()
        for i, (state, action) in enumerate(zip(states, chosen, strict=True)):
            if action != WAIT and action not in engine.legal_actions(state):
                raise IllegalActionError(illegal_action_message(state, i, action))
        for i, (state, action) in enumerate(zip(states, chosen, strict=True)):
            if action == WAIT:  # the slot waits: its game and its rows stay as they are
                rewards[i] = 0.0
                terminated[i] = truncated[i] = False
                continue
            mp_before = state.mp[:]
            engine.apply_action(state, action)
            gained = [state.mp[p] - mp_before[p] for p in (0, 1)]
            reward = [0.0, 0.0]
            if self.mp_shaping:  # match.py: the MP a seat gained minus the MP its opponent gained
                reward = [0.0 + self.mp_shaping * (gained[p] - gained[1 - p]) for p in (0, 1)]
            ended = state.winner is not None
            cut = not ended and state.steps >= self.max_steps  # ER-ENV-9
            if ended or cut:
                final = final_rewards(state.winner)
                reward = [reward[p] + final[p] for p in (0, 1)]
                self._states[i] = engine.new_game(self.scenario, self._generators[i].next64())
            self._write(i, obs, mask, agent)
            rewards[i] = reward
            terminated[i] = ended
            truncated[i] = cut

    # --- internals ------------------------------------------------------------------------------

    def _slot(self, i: Any) -> int:
        if isinstance(i, bool | np.bool_) or not isinstance(i, int | np.integer):
            raise TypeError(f"slot must be an integer, got {i!r}")
        if not 0 <= i < self.n:
            raise IndexError(f"slot {i} is out of range 0..{self.n - 1}")
        return int(i)

    def _state(self, i: Any) -> GameState:
        i = self._slot(i)
        state = self._states[i]
        if state is None:
            raise ValueError(f"slot {i} holds no game yet: call reset_all, new_game or load")
        return state

    def _outputs(self, obs: Any, mask: Any, agent: Any) -> tuple[np.ndarray, ...]:
        return (
            _buffer("obs", obs, np.float32, (self.n, self.obs_size)),
            _buffer("mask", mask, np.int8, (self.n, self.n_actions)),
            _buffer("agent", agent, np.int8, (self.n,)),
        )

    def _write(self, i: int, obs: np.ndarray, mask: np.ndarray, agent: np.ndarray) -> None:
        """Row ``i``: the observation and the mask of the seat to move (ER-ENV-1), and that seat."""
        state = self._states[i]
        seat = state.decider if state.winner is None else state.active
        obs[i] = self.observer.observe(state, seat)
        mask[i] = 0
        mask[i, engine.legal_actions(state)] = 1
        agent[i] = seat
