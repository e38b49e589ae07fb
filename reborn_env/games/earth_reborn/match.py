"""Earth Reborn behind the game contract (:mod:`reborn_env.core.contract`), section 18.

:class:`EarthRebornRules` is Vault Raid (or another scenario) with the environment's options;
:class:`EarthRebornMatch` is one game: the rules engine's :class:`GameState` and what the contract
asks of it (who decides, ER-ENV-1; the legal set, ER-ENV-10; +1 / -1 / 0 at the end, ER-WIN-3;
truncation at ``max_steps`` game steps as a draw, ER-ENV-9; optional MP shaping). With
``backend="fast"`` (the default when the compiled core is built) a match is a
:class:`~.fast.match.FastMatch` instead, which answers the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ...core.contract import RUNNING, TERMINATED, TRUNCATED
from . import positions, render
from .actions import codec_for
from .fast import resolve_backend
from .fast.match import FastMatch
from .invariants import turn_step_bound
from .observation import observer_for
from .rules import engine
from .rules.state import GameState
from .scenario.loader import load_scenario

ENV_NAME = "earth_reborn_v0"


class EarthRebornRules:
    """A scenario and the environment's options: ``mp_shaping`` (reward per MP of difference
    gained), ``max_steps`` (ER-ENV-9) and ``backend``: ``"fast"`` (the compiled core),
    ``"python"`` (the reference engine) or None, the core when it is built."""

    name = ENV_NAME

    def __init__(
        self,
        scenario: str = "vault_raid",
        mp_shaping: float = 0.0,
        max_steps: int = 5000,
        backend: str | None = None,
    ) -> None:
        if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
            raise ValueError(f"max_steps must be a positive integer (ER-ENV-9), got {max_steps!r}")
        self.mp_shaping = float(mp_shaping)
        self.max_steps = max_steps
        self.backend = resolve_backend(backend)
        self.scenario = load_scenario(scenario)
        self.codec = codec_for(self.scenario)
        self.observer = observer_for(self.scenario)
        self.agents = tuple(self.scenario.factions)
        self.n_actions = self.codec.size
        self.obs_size = self.observer.size
        self.spare_games: list[Any] = []  # the compiled core's one-slot Games, for reuse
        self._arguments = (scenario, self.mp_shaping, max_steps, self.backend)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled and deep-copied as its configuration (the backend as resolved here): the
        scenario is read again (cached), and the spare Games, a cache the core cannot pickle,
        start empty."""
        return (type(self), self._arguments)

    def new_match(self, seed: int, options: Mapping[str, Any]) -> EarthRebornMatch | FastMatch:
        """ER-TURN-4 setup and the first decision of turn 1."""
        if self.backend == "fast":
            return FastMatch.new_game(self, seed)
        return EarthRebornMatch(self, engine.new_game(self.scenario, seed))

    def from_position(
        self, position: Any, options: Mapping[str, Any] | None = None
    ) -> EarthRebornMatch | FastMatch:
        """The game ``position`` holds (docs/position_format.md), validated (ER-GEN-3)."""
        state = positions.state_from_dict(position, self.scenario)
        if self.backend == "fast":
            return FastMatch.from_state(self, state)
        return EarthRebornMatch(self, state)

    def reference_match(
        self, state: GameState, shaped: Sequence[float] | None = None
    ) -> EarthRebornMatch:
        """The reference engine's match of ``state``, with the shaping its last step earned."""
        return EarthRebornMatch(self, state, shaped)

    def step_bound(self) -> int:
        """ER-SCN-13, ER-ENV-9: the most decisions a game takes from its setup: the scenario's
        turns times ``turn_step_bound``, or the step limit of its truncation if that comes
        first."""
        return min(self.scenario.turns * turn_step_bound(self.scenario), self.max_steps)

    def action_name(self, action: int) -> str:
        return self.codec.name(action)

    def parse_action(self, name: str) -> int:
        return self.codec.parse(name)


def rules_step_bound(rules: EarthRebornRules) -> int:
    """The game's ``GameFacts.max_game_length_of``: ``rules.step_bound()``, for these rules or
    the universal layout's (several scenarios)."""
    return rules.step_bound()


class EarthRebornMatch:
    """One game of Earth Reborn; ``state`` is the rules engine's."""

    def __init__(
        self, rules: EarthRebornRules, state: GameState, shaped: Sequence[float] | None = None
    ) -> None:
        self.rules = rules
        self.state = state
        self._shaped = list(shaped) if shaped is not None else [0.0, 0.0]

    def __deepcopy__(self, memo: dict[int, Any]) -> EarthRebornMatch:
        """An independent match on a clone of the state; the rules, the configuration that the
        state's scenario belongs to and that no step changes, are shared."""
        return EarthRebornMatch(self.rules, self.state.clone(), self._shaped)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its position (docs/position_format.md) and the shaping its last step
        earned."""
        return (EarthRebornMatch.unpickled, (self.rules, self.to_position(), self._shaped))

    @classmethod
    def unpickled(
        cls, rules: EarthRebornRules, position: dict[str, Any], shaped: Sequence[float]
    ) -> EarthRebornMatch:
        """The match a pickle holds (:meth:`__reduce__`)."""
        return cls(rules, positions.state_from_dict(position, rules.scenario), shaped)

    def to_move(self) -> int | None:
        """ER-ENV-1: the decider; once the game is over, the active player."""
        state = self.state
        return state.decider if state.winner is None else state.active

    def legal_actions(self) -> Sequence[int]:
        return engine.legal_actions(self.state)

    def apply(self, action: int) -> None:
        """ER-ENV-8: the engine refuses an illegal action, unchanged; MP shaping per player is
        the MP it gained minus the MP the opponent gained."""
        state = self.state
        mp_before = state.mp[:]
        engine.apply_action(state, action)
        gained = [state.mp[p] - mp_before[p] for p in (0, 1)]
        self._shaped = [self.rules.mp_shaping * (gained[p] - gained[1 - p]) for p in (0, 1)]

    def status(self) -> str:
        if self.state.winner is not None:
            return TERMINATED
        return TRUNCATED if self.state.steps >= self.rules.max_steps else RUNNING

    def final_rewards(self) -> Sequence[float]:
        """ER-WIN-3: +1 / -1, 0 and 0 for a draw or the step limit."""
        winner = self.state.winner
        if winner is None or winner == -1:
            return (0.0, 0.0)
        return tuple(1.0 if p == winner else -1.0 for p in (0, 1))

    def shaped_rewards(self) -> Sequence[float] | None:
        return self._shaped if self.rules.mp_shaping else None

    def observe(self, seat: int) -> np.ndarray:
        return self.rules.observer.observe(self.state, seat)

    def peek(self) -> GameState:
        """The game's GameState to read (the live one: this match plays it in Python)."""
        return self.state

    def infos(self, seat: int) -> Mapping[str, Any]:
        return {}

    def hand(self, seat: int) -> list[str]:
        """The tiles behind ``seat``'s screen (ER-HID-1), by id."""
        return [self.rules.scenario.tiles[t].id for t in self.state.hands[seat]]

    def result(self) -> dict[str, Any]:
        """The winning faction, or ``"draw"`` (also at the step limit)."""
        winner = self.state.winner
        return {"winner": "draw" if winner is None or winner < 0 else self.rules.agents[winner]}

    def summary(self) -> str:
        """How the game ended, with the mission points, in a line."""
        mp = "-".join(str(m) for m in self.state.mp)
        winner = self.state.winner
        if winner is None:
            return f"draw: the step limit was reached (MP {mp})"
        if winner == -1:
            return f"draw (MP {mp})"
        return f"{self.rules.agents[winner]} wins (MP {mp})"

    def describe(self) -> str:
        names = ", ".join(self.rules.codec.name(a) for a in self.legal_actions()) or "none"
        return f"{engine.describe_decision(self.state)}; legal: {names}"

    def to_position(self) -> dict[str, Any]:
        return positions.state_to_dict(self.state)

    def render_ansi(self) -> str:
        return render.render_ansi(self.state)

    def render_rgb(self) -> np.ndarray:
        return render.render_rgb(self.state)
