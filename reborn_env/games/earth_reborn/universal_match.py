"""The environment's ``layout="universal"`` option: a scenario's matches seen and played in the
universal layout and action space (ER-UNI-4), so one policy reads every scenario.

:class:`UniversalRules` is the scenario's :class:`~.match.EarthRebornRules` with the universal
sizes; its matches are the scenario's (compiled or reference) behind :class:`UniversalMatch`,
which translates observations, masks and actions through the scenario's
:class:`~.universal.UniversalView` and answers everything else as the match does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ...core.contract import RUNNING, Plays, WritesArrays
from ...core.errors import IllegalActionError
from .match import ENV_NAME, EarthRebornRules
from .rules.state import GameState
from .universal import (
    UNIVERSAL_CODEC,
    UNIVERSAL_LAYOUT,
    UniversalView,
    scenario_names,
    universal_view,
)

LAYOUTS = ("scenario", "universal")


def rules_for(layout: str) -> type[EarthRebornRules] | type[UniversalRules]:
    """The rules class of an env's ``layout`` option: the scenario's own, or universal."""
    if layout == "scenario":
        return EarthRebornRules
    if layout == "universal":
        return UniversalRules
    raise ValueError(f"layout {layout!r}: choose one of {', '.join(map(repr, LAYOUTS))}")


class UniversalObserver:
    """Observations in the universal layout, of a state of any of the rules' scenarios."""

    def __init__(self, owns: Sequence[EarthRebornRules]) -> None:
        self.layout, self.size = UNIVERSAL_LAYOUT, UNIVERSAL_LAYOUT.size
        self._of = {id(r.scenario): (r.observer, universal_view(r.scenario)) for r in owns}

    def observe(self, state: GameState, seat: int) -> np.ndarray:
        observer, view = self._of[id(state.scenario)]
        return view.observation(observer.observe(state, seat))


class UniversalRules:
    """The environment's rules with ``layout="universal"``: ``scenario`` is one name or a list
    of them (``owns``, one :class:`EarthRebornRules` each), the game of seed ``s`` playing the
    ``s % len``-th (ER-UNI-6), every one in the universal observation and action space."""

    name = ENV_NAME

    def __init__(
        self,
        scenario: str | Sequence[str] = "vault_raid",
        mp_shaping: float = 0.0,
        max_steps: int = 5000,
        backend: str | None = None,
    ) -> None:
        names = scenario_names(scenario)
        self.owns = [EarthRebornRules(n, mp_shaping, max_steps, backend) for n in names]
        self.views = [universal_view(r.scenario) for r in self.owns]
        first = self.owns[0]
        self.agents, self.backend = first.agents, first.backend
        self.mp_shaping, self.max_steps = first.mp_shaping, first.max_steps
        single = len(self.owns) == 1
        self.scenario = first.scenario if single else None  # None: it changes from game to game
        self.codec = first.codec if single else UNIVERSAL_CODEC
        self.observer = UniversalObserver(self.owns)
        self.obs_size, self.n_actions = UNIVERSAL_LAYOUT.size, UNIVERSAL_CODEC.size
        self._arguments = (scenario, mp_shaping, max_steps, backend)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), self._arguments)

    def step_bound(self) -> int:
        """The longest of its scenarios' bounds (``EarthRebornRules.step_bound``)."""
        return max(own.step_bound() for own in self.owns)

    def new_match(self, seed: int, options: Mapping[str, Any]) -> UniversalMatch:
        k = seed % len(self.owns)
        return UniversalMatch(self.owns[k].new_match(seed, options), self.views[k])

    def from_position(
        self, position: Any, options: Mapping[str, Any] | None = None
    ) -> UniversalMatch:
        """The position's game, in the scenario it names (the first's error if none)."""
        name = position.get("scenario") if isinstance(position, Mapping) else None
        names = [r.scenario.name for r in self.owns]
        k = names.index(name) if name in names else 0
        return UniversalMatch(self.owns[k].from_position(position, options), self.views[k])

    def action_name(self, action: int) -> str:
        """With one scenario, its name of a universal action (``ACTIVATE(vasquez)``); with
        several, or for a padded action, the universal name (``ACTIVATE(c0)``)."""
        own = self.views[0].to_scenario(int(action)) if self.scenario is not None else -1
        return self.codec.name(own) if own >= 0 else UNIVERSAL_CODEC.name(int(action))

    def parse_action(self, name: str) -> int:
        """The universal integer of a name (the scenario's names with one scenario)."""
        if self.scenario is None:
            return UNIVERSAL_CODEC.parse(name)
        return int(self.views[0].action_index[self.codec.parse(name)])


class UniversalMatch:
    """A scenario's match, observed and played in the universal layout."""

    __slots__ = ("match", "view")

    def __init__(self, match: Any, view: UniversalView) -> None:
        self.match = match
        self.view = view

    def __getattr__(self, name: str) -> Any:
        if name in UniversalMatch.__slots__:
            raise AttributeError(name)
        return getattr(self.match, name)

    def __deepcopy__(self, memo: dict[int, Any]) -> UniversalMatch:
        from copy import deepcopy

        return UniversalMatch(deepcopy(self.match, memo), self.view)

    def __reduce__(self) -> tuple[Any, ...]:
        return (UniversalMatch, (self.match, self.view))

    def _own(self, action: int) -> int:
        """The scenario's action of universal ``action``; IllegalActionError for a padded one."""
        own = self.view.to_scenario(action)
        if own < 0:
            raise IllegalActionError(
                f"action {action} ({UNIVERSAL_CODEC.name(action) if action >= 0 else action}) "
                f"names a character or tile slot this scenario does not have; {self.describe()}"
            )
        return own

    def _illegal(self, action: int, own: int) -> IllegalActionError:
        """ER-ENV-8's refusal, the action named by its universal integer."""
        name = self.match.rules.codec.name(own)
        return IllegalActionError(f"illegal action {action} = {name}; {self.describe()}")

    def legal_actions(self) -> Sequence[int]:
        return [int(self.view.action_index[a]) for a in self.match.legal_actions()]

    def observe(self, seat: int) -> np.ndarray:
        return self.view.observation(self.match.observe(seat))

    def observe_into(self, seat: int, observation: np.ndarray, mask: np.ndarray) -> None:
        """The universal observation and mask of ``seat`` into the arrays given."""
        view = self.view
        observation[:] = view.static
        if isinstance(self.match, WritesArrays):
            own_obs = np.empty(len(view.obs_index), np.float32)
            own_mask = np.zeros(len(view.action_index), np.int8)
            self.match.observe_into(seat, own_obs, own_mask)
            observation[view.obs_index] = own_obs
            mask[view.action_index] = own_mask
            return
        observation[view.obs_index] = self.match.observe(seat)
        if self.match.to_move() == seat:
            mask[self.legal_actions()] = 1

    def apply(self, action: int) -> None:
        own = self._own(action)
        try:
            self.match.apply(own)
        except IllegalActionError:
            raise self._illegal(action, own) from None

    def play(self, action: int) -> tuple[str, int | None, Sequence[float] | None, bool]:
        """The match's ``play`` of the scenario's action (or ``apply`` and its outcome)."""
        own = self._own(action)
        if isinstance(self.match, Plays):
            try:
                return self.match.play(own)
            except IllegalActionError:
                raise self._illegal(action, own) from None
        self.apply(action)
        status = self.match.status()
        to_move = self.match.to_move() if status == RUNNING else None
        return status, to_move, self.match.shaped_rewards(), True

    def describe(self) -> str:
        """The decision and its legal actions, named as the scenario names them, with their
        universal integers."""
        legal = self.legal_actions()
        names = ", ".join(
            f"{a} {self.match.rules.codec.name(self.view.to_scenario(a))}" for a in legal
        )
        return f"{self.match.describe().split('; legal:')[0]}; legal: {names or 'none'}"
