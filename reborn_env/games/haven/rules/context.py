"""What every haven rule is given: the narrow context of a running game.

A rule reads the scenario and the options, changes the state, appends to the event log
(HV-API-8) and, while a turn runs, knows whose turn it is and which conditions the figure gained
in it (HV-CEND-2); the path graphs and monster AI it calls are the context's :class:`Kernels`.
That is all a :class:`RuleContext` holds; it knows nothing of the driver that poses the prompts
(:mod:`.engine`) and imports no rule, so every rule module can be read alone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from ..actions import ActionSpace, action_space
from ..scenario.model import Scenario
from .config import HavenConfig
from .prompts import Event
from .state import CharacterState, Figure, HavenState

_new_tuple = tuple.__new__


class Kernels(NamedTuple):
    """The hot pieces the rules call through the context, so that compiled twins of the Python
    reference (:data:`.kernels.REFERENCE`) can stand in without any rule importing them: how a
    path graph is built (HV-AI-2, HV-AI-10, HV-TER-7: a :class:`.path_graph.PathGraph` or a twin
    of it), how the focus is ranked (HV-AI-4) and where a Move ends (HV-AI-5)."""

    path_graph: Callable[..., Any]
    focus_ranking: Callable[..., Any]
    destination: Callable[..., int]


class RuleContext:
    """One game's scenario, its action space (16.3), options, state and event log, the running
    turn's figure, and the kernels its rules call."""

    def __init__(
        self, scenario: Scenario, state: HavenState, config: HavenConfig, kernels: Kernels
    ) -> None:
        self.scenario = scenario
        self.actions: ActionSpace = action_space(scenario.map.grid)
        self.state = state
        self.config = config
        self.kernels = kernels
        self.events: list[Event] = []
        self.turn_figure: Figure | None = None  # whose turn runs (HV-CTURN-1), None between
        self.fresh_conditions: set[str] = set()  # gained in the running turn (HV-CEND-2)

    def log(
        self, type_: str, secret_of: int | None = None, private: bool = False, **data: Any
    ) -> None:
        """Append an event (HV-API-8)."""
        # Event(type_, data, secret_of, private) without the Python-level __new__ of a
        # NamedTuple: a game logs several events per decision.
        self.events.append(_new_tuple(Event, (type_, data, secret_of, private)))

    def log_card(self, ch: CharacterState, card: int, to: str) -> None:
        """A CARD_TO event for one card of ``ch``."""
        cls = self.scenario.characters[ch.index]
        self.log("CARD_TO", figure=cls.id, card=cls.cards[card].id, to=to)

    def card_ids(self, ch: CharacterState, cards: list[int]) -> list[str]:
        """Printed ids (``B03``) of card indices of ``ch``."""
        printed = self.scenario.characters[ch.index].cards
        return [printed[k].id for k in cards]
