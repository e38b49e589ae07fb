"""FastMatch: one game of Earth Reborn behind the game contract, played by the compiled core.

It keeps its game in slot 0 of a one-slot ``_core.Games`` and answers every method of
:class:`~reborn_env.core.contract.Match` exactly as the reference ``EarthRebornMatch`` does (who
decides, ER-ENV-1; the legal set, ER-ENV-10; the engine's refusal of an illegal action, ER-ENV-8;
+1 / -1 / 0 at the end, ER-WIN-3; truncation, ER-ENV-9; MP shaping), so the AEC env is the same
on either backend. What the core does not hold in Python form (descriptions, positions,
pictures, hands) comes from a reference copy of the slot (``dump``). Reading :attr:`state`, the
engine's own object that game-specific code may read and alter, hands the game over to the
reference engine for the rest of the match, so that object stays live.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ....core.contract import RUNNING, TERMINATED, TRUNCATED
from ....core.errors import IllegalActionError
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


class FastMatch:
    """One game in slot 0 of a one-slot ``_core.Games``; ``rules`` is its EarthRebornRules."""

    def __init__(self, rules: Any, games: Any) -> None:
        self.rules = rules
        self._games = games
        self._shaped = [0.0, 0.0]
        self._legal: list[int] | None = None
        self._status: tuple | None = None  # games.status(0) until the next action
        self._reference: Any = None  # the reference match once :attr:`state` was read

    @classmethod
    def new_game(cls, rules: Any, seed: int) -> FastMatch:
        """ER-TURN-4 setup from ``seed`` and the first decision of turn 1."""
        games = core_games(rules, 1)
        games.new_game(0, seed)
        return cls(rules, games)

    @classmethod
    def from_state(cls, rules: Any, state: GameState) -> FastMatch:
        """The game ``state`` (validated by positions.state_from_dict) holds."""
        games = core_games(rules, 1)
        games.load(0, state)
        return cls(rules, games)

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

    def _read_status(self) -> tuple:
        """(decider, active, winner, steps, mp0, mp1) of the slot, kept until the next action."""
        self._status = self._games.status(0)
        return self._status

    def to_move(self) -> int | None:
        """ER-ENV-1: the decider; once the game is over, the active player."""
        if self._reference is not None:
            return self._reference.to_move()
        decider, active, winner, *_ = self._status or self._read_status()
        return decider if winner is None else active

    def legal_actions(self) -> Sequence[int]:
        if self._reference is not None:
            return self._reference.legal_actions()
        if self._legal is None:
            self._legal = self._games.legal(0)
        return self._legal

    def apply(self, action: int) -> None:
        """ER-ENV-8: an illegal action is refused with the reference engine's words, nothing
        changed; MP shaping per player is the MP it gained minus the MP the opponent gained."""
        if self._reference is not None:
            self._reference.apply(action)
            return
        games = self._games
        if self.rules.mp_shaping:
            mp_before = (self._status or self._read_status())[4:]
        if not 0 <= action < self.rules.n_actions or not games.apply(0, action):
            raise IllegalActionError(refusal(games.dump(0), action))
        self._legal = self._status = None
        if self.rules.mp_shaping:
            mp = self._read_status()[4:]
            gained = [mp[p] - mp_before[p] for p in (0, 1)]
            self._shaped = [self.rules.mp_shaping * (gained[p] - gained[1 - p]) for p in (0, 1)]

    def status(self) -> str:
        if self._reference is not None:
            return self._reference.status()
        _, _, winner, steps, _, _ = self._status or self._read_status()
        if winner is not None:
            return TERMINATED
        return TRUNCATED if steps >= self.rules.max_steps else RUNNING

    def final_rewards(self) -> Sequence[float]:
        """ER-WIN-3: +1 / -1, 0 and 0 for a draw or the step limit."""
        if self._reference is not None:
            return self._reference.final_rewards()
        return final_rewards((self._status or self._read_status())[2])

    def shaped_rewards(self) -> Sequence[float] | None:
        if self._reference is not None:
            return self._reference.shaped_rewards()
        return self._shaped if self.rules.mp_shaping else None

    def observe(self, seat: int) -> np.ndarray:
        if self._reference is not None:
            return self._reference.observe(seat)
        out = np.empty(self.rules.obs_size, dtype=np.float32)
        self._games.observe(0, seat, out)
        return out

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
