"""FastMatch: one game of Earth Reborn behind the game contract, played by the compiled core.

It keeps its game in slot 0 of a one-slot ``_core.Games`` and answers every method of
:class:`~reborn_env.core.contract.Match` exactly as the reference ``EarthRebornMatch`` does (who
decides, ER-ENV-1; the legal set, ER-ENV-10; the engine's refusal of an illegal action, ER-ENV-8;
+1 / -1 / 0 at the end, ER-WIN-3; truncation, ER-ENV-9; MP shaping), so the AEC env is the same
on either backend. What the core does not hold in Python form (descriptions, positions,
pictures, hands) comes from a reference copy of the slot (``dump``). Reading :attr:`state`, the
engine's own object that game-specific code may read and alter, hands the game over to the
reference engine for the rest of the match, so that object stays live; :meth:`FastMatch.peek`
reads a copy and leaves the core playing. The AEC env takes the contract's optional fast paths
(``observe_into``, ``play``), and a finished match's one-slot Games serves the next match.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ....core.contract import RUNNING, TERMINATED, TRUNCATED
from ....core.errors import IllegalActionError
from .. import positions
from ..rules.state import GameState
from . import core
from .reference import final_rewards, refusal


def core_games(rules: Any, n: int, seed: int = 0) -> Any:
    """A ``_core.Games`` of ``n`` slots for ``rules`` (an EarthRebornRules)."""
    return core.Games(
        rules.scenario,
        rules.codec,
        rules.observer.layout,
        n,
        rules.max_steps,
        rules.mp_shaping,
        seed,
    )


MAX_SPARES = 2  # one-slot Games kept per EarthRebornRules for its next matches


def _spare_games(rules: Any) -> Any:
    """A one-slot ``_core.Games`` for ``rules``: a spare one of a finished match, else a new
    one. Its slot is overwritten (new_game or load) before any use."""
    spares = getattr(rules, "spare_games", None)
    return spares.pop() if spares else core_games(rules, 1)


class FastMatch:
    """One game in slot 0 of a one-slot ``_core.Games``; ``rules`` is its EarthRebornRules."""

    def __init__(self, rules: Any, games: Any) -> None:
        self.rules = rules
        self._games = games
        self._n_actions, self._max_steps, self._mp_shaping = (
            rules.n_actions,
            rules.max_steps,
            rules.mp_shaping,
        )
        self._shaped = [0.0, 0.0]
        self._legal: list[int] | None = None  # games.legal(0) until the next action
        self._reference: Any = None  # the reference match once :attr:`state` was read
        self._read_status()

    @classmethod
    def new_game(cls, rules: Any, seed: int) -> FastMatch:
        """ER-TURN-4 setup from ``seed`` and the first decision of turn 1."""
        games = _spare_games(rules)
        games.new_game(0, seed)
        return cls(rules, games)

    @classmethod
    def from_state(cls, rules: Any, state: GameState) -> FastMatch:
        """The game ``state`` (validated by positions.state_from_dict) holds."""
        games = _spare_games(rules)
        games.load(0, state)
        return cls(rules, games)

    def __del__(self) -> None:
        """The one-slot Games goes back to the rules' spares: making one reads the whole
        scenario, more than a hundred decisions cost, and a new game overwrites its slot. An
        object left half-built (its ``__init__`` or an unpickling failed) gives back nothing."""
        spares = getattr(self.__dict__.get("rules"), "spare_games", None)
        games = self.__dict__.get("_games")
        if spares is not None and games is not None and len(spares) < MAX_SPARES:
            spares.append(games)

    def __deepcopy__(self, memo: dict[int, Any]) -> FastMatch:
        """An independent match of the same game in a Games slot of its own (the slot copied
        within the core, no Python state made; or the reference's GameState once it was handed
        over); the rules, the configuration that the state's scenario belongs to and that no
        step changes, are shared."""
        reference = self._reference
        if reference is not None:
            return FastMatch.restored(self.rules, reference.state.clone(), self._shaped, True)
        games = _spare_games(self.rules)
        games.copy_slot(0, self._games, 0)
        match = FastMatch(self.rules, games)
        match._shaped = list(self._shaped)
        return match

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its position (docs/position_format.md; a ``_core.Games`` cannot be), the
        shaping its last step earned and whether the reference engine plays it."""
        handed_over = self._reference is not None
        return (FastMatch.unpickled, (self.rules, self.to_position(), self._shaped, handed_over))

    @classmethod
    def unpickled(
        cls, rules: Any, position: dict[str, Any], shaped: Sequence[float], handed_over: bool
    ) -> FastMatch:
        """The match a pickle holds (:meth:`__reduce__`)."""
        state = positions.state_from_dict(position, rules.scenario)
        return cls.restored(rules, state, shaped, handed_over)

    @classmethod
    def restored(
        cls, rules: Any, state: GameState, shaped: Sequence[float], handed_over: bool
    ) -> FastMatch:
        """The match of ``state`` whose last step earned ``shaped``; ``handed_over``: played by
        the reference engine on ``state`` itself, as after :attr:`state` was read."""
        match = cls.from_state(rules, state)
        match._shaped = list(shaped)
        if handed_over:
            match._reference = rules.reference_match(state, shaped)
        return match

    @property
    def state(self) -> GameState:
        """The rules engine's GameState of this game, live: from here on the reference engine
        plays it (the AEC env's ``game`` property reads this)."""
        if self._reference is None:
            self._reference = self.rules.reference_match(self._games.dump(0), self._shaped)
        return self._reference.state

    def _snapshot(self) -> Any:
        """The reference match of a copy of the game, for what is read and not played."""
        if self._reference is not None:
            return self._reference
        return self.rules.reference_match(self._games.dump(0))

    def _read_status(self) -> None:
        """What the slot's status says, read once per action: the seat to move (ER-ENV-1: the
        decider; once the game is over, the active player), how the game stands (ER-ENV-9), the
        winner and the MP."""
        decider, active, winner, steps, mp0, mp1 = self._games.status(0)
        self._winner, self._mp = winner, (mp0, mp1)
        self._to_move = decider if winner is None else active
        if winner is not None:
            self._standing = TERMINATED
        else:
            self._standing = TRUNCATED if steps >= self._max_steps else RUNNING

    def to_move(self) -> int | None:
        """ER-ENV-1: the decider; once the game is over, the active player."""
        if self._reference is not None:
            return self._reference.to_move()
        return self._to_move

    def legal_actions(self) -> Sequence[int]:
        if self._reference is not None:
            return self._reference.legal_actions()
        if self._legal is None:
            self._legal = self._games.legal(0)
        return self._legal

    def apply(self, action: int) -> None:
        """ER-ENV-8: an illegal action is refused with the reference engine's words, nothing
        changed; MP shaping per player is the MP it gained minus the MP the opponent gained."""
        self.play(action)

    def play(self, action: int) -> tuple[str, int | None, Sequence[float] | None, bool]:
        """:meth:`apply`, then (status, to_move, shaped_rewards, False: no infos), in one call
        (the contract's Plays)."""
        reference = self._reference
        if reference is not None:
            reference.apply(action)
            return reference.status(), reference.to_move(), reference.shaped_rewards(), False
        games = self._games
        if not 0 <= action < self._n_actions or not games.apply(0, action):
            raise IllegalActionError(refusal(games.dump(0), action))
        self._legal = None
        mp_before = self._mp
        self._read_status()
        if not self._mp_shaping:
            return self._standing, self._to_move, None, False
        gained = [self._mp[p] - mp_before[p] for p in (0, 1)]
        self._shaped = [self._mp_shaping * (gained[p] - gained[1 - p]) for p in (0, 1)]
        return self._standing, self._to_move, self._shaped, False

    def status(self) -> str:
        if self._reference is not None:
            return self._reference.status()
        return self._standing

    def final_rewards(self) -> Sequence[float]:
        """ER-WIN-3: +1 / -1, 0 and 0 for a draw or the step limit."""
        if self._reference is not None:
            return self._reference.final_rewards()
        return final_rewards(self._winner)

    def shaped_rewards(self) -> Sequence[float] | None:
        if self._reference is not None:
            return self._reference.shaped_rewards()
        return self._shaped if self._mp_shaping else None

    def observe(self, seat: int) -> np.ndarray:
        if self._reference is not None:
            return self._reference.observe(seat)
        out = np.empty(self.rules.obs_size, dtype=np.float32)
        self._games.observe(0, seat, out)
        return out

    def observe_into(self, seat: int, observation: np.ndarray, mask: np.ndarray) -> None:
        """:meth:`observe` of ``seat`` written into ``observation`` by the core and, if ``seat``
        is to move, the legal set into ``mask`` (ER-ENV-10; the contract's WritesArrays)."""
        reference = self._reference
        if reference is not None:
            observation[:] = reference.observe(seat)
            if reference.to_move() == seat:
                mask[reference.legal_actions()] = 1
        else:
            self._games.observe(0, seat, observation)
            if seat == self._to_move:
                self._games.mask(0, mask)

    def peek(self) -> GameState:
        """The game's GameState to read: the live one once :attr:`state` handed the game over,
        else a copy of the slot (changing it changes nothing; the core plays on)."""
        if self._reference is not None:
            return self._reference.state
        return self._games.dump(0)

    def infos(self, seat: int) -> Mapping[str, Any]:
        return {}

    def hand(self, seat: int) -> list[str]:
        """The tiles behind ``seat``'s screen (ER-HID-1), by id."""
        return self._snapshot().hand(seat)

    def result(self) -> dict[str, Any]:
        return self._snapshot().result()

    def summary(self) -> str:
        return self._snapshot().summary()

    def describe(self) -> str:
        return self._snapshot().describe()

    def to_position(self) -> dict[str, Any]:
        return self._snapshot().to_position()

    def render_ansi(self) -> str:
        return self._snapshot().render_ansi()

    def render_rgb(self) -> np.ndarray:
        return self._snapshot().render_rgb()
