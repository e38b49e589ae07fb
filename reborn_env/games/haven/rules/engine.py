"""The haven game driver: one object that holds a game, poses its prompts and takes answers.

The rules are written as generators that ``yield`` a :class:`~.prompts.Prompt` wherever an agent
decides (16.2) and receive the answer, so rules code reads like the rulebook. :class:`HavenGame`
runs them: it answers forced prompts itself (HV-API-4), refuses illegal actions before anything
changes (HV-API-5) and remembers the last *quiet point* (the start of a round, of a turn-sequence
slot, or of cleanup), where the state is plain data, plus the answers given since. A position
(:mod:`.positions`) is exactly that pair, so it saves and loads exactly at any decision.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Generator
from typing import Any

from ....core.errors import IllegalActionError
from .. import actions
from ..scenario.loader import load_scenario
from ..scenario.model import ELEMENTS, ModifierCard, MonsterAbilityCard, Scenario
from .config import HavenConfig
from .damage import ScenarioEnded
from .figures import Figure, all_figures, allies_of, board_for, enemies_of, label, on_map
from .prompts import SELECT_LEAD, SELECT_SECOND, Event, Prompt
from .round import cleanup, run_slot, start_round
from .state import (
    CLEANUP,
    EXPIRING_CONDITIONS,
    OVER,
    RUNNING,
    SELECT,
    STRONG,
    TURNS,
    CharacterState,
    HavenState,
)


class HavenGame:
    """A running haven game: state, pending prompt, event log (HV-STATE-7, HV-API-1..5)."""

    def __init__(self, scenario: Scenario, state: HavenState, config: HavenConfig) -> None:
        self.scenario = scenario
        self.state = state
        self.config = config
        self.board = board_for(scenario)
        self.modifier_cards: dict[str, ModifierCard] = _modifier_cards(scenario)
        self._monster_cards = _monster_cards(scenario)
        self.standard_deck = Counter(c.name for c in scenario.character_modifier_deck)
        self.events: list[Event] = []
        self.prompt: Prompt | None = None
        self.turn_figure: Figure | None = None
        self.fresh_conditions: set[str] = set()
        self._quiet: dict[str, Any] = {}
        self._answers: list[int] = []
        self._proc = self._run()
        self._advance(None)

    # --- Public API ---------------------------------------------------------------------------

    @property
    def outcome(self) -> str:
        """``running``, ``win``, ``loss`` or ``truncated`` (HV-STATE-7)."""
        return self.state.outcome

    def legal_actions(self) -> tuple[int, ...]:
        """The legal answers to the pending prompt (16.4); empty once the game is over."""
        return self.prompt.legal if self.prompt is not None else ()

    def apply(self, action: int) -> None:
        """Answer the pending prompt and run every automatic step up to the next prompt.

        HV-API-5: an action that is not legal raises IllegalActionError naming the prompt and the
        legal actions, and nothing changes.
        """
        prompt = self.prompt
        if prompt is None:
            raise IllegalActionError(f"the game is over ({self.outcome}); no action is legal")
        if isinstance(action, bool) or not isinstance(action, int) or action not in prompt.legal:
            legal = ", ".join(actions.name(a) for a in prompt.legal)
            shown = actions.name(action) if isinstance(action, int) and 0 <= action < 87 else action
            raise IllegalActionError(
                f"{shown!r} is not legal at prompt {prompt.kind} of "
                f"{self.scenario.characters[prompt.agent].id}; legal: {legal}"
            )
        self._answers.append(action)
        self._advance(action)

    @property
    def quiet_point(self) -> dict[str, Any]:
        """The state at the last quiet point, as position data (read it, do not change it)."""
        return self._quiet

    @property
    def answers_since_quiet(self) -> tuple[int, ...]:
        """The answers given since the last quiet point, in order."""
        return tuple(self._answers)

    def to_position(self) -> dict[str, Any]:
        """The game as JSON-ready data: the last quiet point and the answers since."""
        from ..positions import position_of

        return position_of(self)

    @classmethod
    def from_position(cls, data: Any, scenario: Scenario | None = None) -> HavenGame:
        """Rebuild a game from :meth:`to_position` data; PositionError says what is wrong."""
        from ..positions import game_from_position

        return game_from_position(data, scenario)

    def clone(self) -> HavenGame:
        """An independent copy at the same decision."""
        return HavenGame.from_position(self.to_position(), self.scenario)

    # --- Driver -------------------------------------------------------------------------------

    def _advance(self, action: int | None) -> None:
        """Send ``action`` into the rules and answer forced prompts (HV-API-4) until one is open."""
        try:
            prompt = self._proc.send(action)  # type: ignore[arg-type]
            while self.config.auto_forced and len(prompt.legal) == 1:
                secret = prompt.agent if prompt.kind in (SELECT_LEAD, SELECT_SECOND) else None
                self.log(
                    "AUTO_ACTION",
                    secret_of=secret,
                    private=prompt.kind == SELECT_SECOND and self.config.reveal_second_card_at_turn,
                    agent=self.scenario.characters[prompt.agent].id,
                    prompt=prompt.kind,
                    action=actions.name(prompt.legal[0]),
                )
                prompt = self._proc.send(prompt.legal[0])
        except StopIteration:
            prompt = None
        self.prompt = prompt

    def _run(self) -> Generator[Prompt, int, None]:
        """HV-ROUND-2: rounds of selection, turns and cleanup until the outcome is decided."""
        state = self.state
        try:
            while state.outcome == RUNNING:
                if state.phase == SELECT:
                    self._mark_quiet()
                    yield from start_round(self)
                elif state.phase == TURNS:
                    while state.slot < len(state.sequence):
                        self._mark_quiet()
                        yield from run_slot(self, state.sequence[state.slot])
                        state.slot += 1
                    state.phase = CLEANUP
                else:
                    self._mark_quiet()
                    yield from cleanup(self)
        except ScenarioEnded:
            pass
        state.phase = OVER
        self.turn_figure = None
        self._mark_quiet()

    def _mark_quiet(self) -> None:
        from ..positions import state_to_dict

        self._quiet = state_to_dict(self)
        self._answers = []

    # --- Services for the rules modules -------------------------------------------------------

    def log(
        self, type_: str, secret_of: int | None = None, private: bool = False, **data: Any
    ) -> None:
        """Append an event (HV-API-8)."""
        self.events.append(Event(type_, data, secret_of, private))

    def log_card(self, ch: CharacterState, card: int, to: str) -> None:
        """A CARD_TO event for one card of ``ch``."""
        cls = self.scenario.characters[ch.index]
        self.log("CARD_TO", figure=cls.id, card=cls.cards[card].id, to=to)

    def card_ids(self, ch: CharacterState, cards: list[int]) -> list[str]:
        """Printed ids (``B03``) of card indices of ``ch``."""
        printed = self.scenario.characters[ch.index].cards
        return [printed[k].id for k in cards]

    def monster_card(self, type_index: int, card_id: str | None) -> MonsterAbilityCard:
        """The monster ability card ``card_id`` of a type."""
        return self._monster_cards[type_index][card_id]

    def slot_label(self, slot: Any) -> str:
        """A turn-sequence slot as text: agent, monster type, or ``summon:N``."""
        if slot.kind == "character":
            return self.scenario.characters[slot.index].id
        if slot.kind == "summon":
            return f"summon:{slot.index}"
        return self.scenario.monster_types[slot.index].id

    def figure_on_map(self, fig: Figure) -> bool:
        return on_map(self.state, fig)

    def figures(self) -> list[Figure]:
        return all_figures(self.state)

    def enemies_of(self, fig: Figure) -> list[Figure]:
        return enemies_of(self.state, fig)

    def allies_of(self, fig: Figure) -> list[Figure]:
        return allies_of(self.state, fig)

    def element_index(self, element: str) -> int:
        return ELEMENTS.index(element)

    def element_name(self, element: int) -> str:
        return ELEMENTS[element]

    def infuse(self, element: str | None) -> None:
        """HV-ELEM-2: an infusion joins the running turn's pending set."""
        index = self.element_index(element or "")
        if index not in self.state.pending_infusions:
            self.state.pending_infusions.append(index)
        self.log("INFUSE_PENDING", element=element)

    def consume(self, element: int, fig: Figure) -> None:
        """HV-ELEM-4: a strong or waning element becomes inert at once."""
        self.state.elements[element] = 0
        self.log("CONSUME", element=ELEMENTS[element], figure=label(self.scenario, fig))

    def begin_turn(self, fig: Figure) -> set[str]:
        """HV-CTURN-1, HV-MTURN-5, HV-STURN-1: start a turn; returns the set S of expiring
        conditions the figure has now."""
        self.turn_figure = fig
        self.fresh_conditions = set()
        self.state.pending_infusions = []
        self.log("TURN_START", figure=label(self.scenario, fig))
        return {c for c in fig.conditions if c in EXPIRING_CONDITIONS}

    def end_turn_conditions_and_elements(self, fig: Figure, start: set[str]) -> None:
        """HV-CEND-2/3, HV-MEND-1/2, HV-STURN-3: conditions present at the start (and not
        re-applied since) end; pending infusions become strong."""
        from .damage import remove_condition

        for condition in sorted(start - self.fresh_conditions):
            if condition in fig.conditions:
                remove_condition(self, fig, condition)
        for element in self.state.pending_infusions:
            self.state.elements[element] = STRONG
            self.log("ELEMENT", element=ELEMENTS[element], state="strong")
        self.state.pending_infusions = []
        self.log("TURN_END", figure=label(self.scenario, fig))
        self.turn_figure = None

    def abort_turn(self, fig: Figure) -> None:
        """HV-CTURN-4, HV-ELEM-7: a figure removed in its own turn runs no end-of-turn step."""
        self.state.pending_infusions = []
        self.turn_figure = None

    def random_discard(self, ch: CharacterState, exclude: int | None) -> int:
        """HV-SREST-1/2: a uniformly random discard card (scripted picks first, HV-API-10)."""
        options = [k for k in ch.discard if k != exclude]
        script = self.state.scripted_picks.get(ch.index)
        while script:
            card = script.pop(0)
            if card in options:
                return card
        return options[self.state.rng.below(len(options))]


def _monster_cards(scenario: Scenario) -> tuple[dict[str | None, MonsterAbilityCard], ...]:
    return tuple({card.id: card for card in t.deck} for t in scenario.monster_types)


def _modifier_cards(scenario: Scenario) -> dict[str, ModifierCard]:
    cards = {c.name: c for c in scenario.character_modifier_deck}
    cards.update({c.name: c for c in scenario.monster_modifier_deck})
    return cards


def new_game(
    scenario: Scenario | str | None = None,
    seed: int = 0,
    config: HavenConfig | None = None,
    fixture: dict[str, Any] | None = None,
) -> HavenGame:
    """A new game of ``scenario`` (default Raider Camp) from ``seed`` (HV-SETUP-1/2, HV-API-9),
    or the position a fixture describes (HV-API-10)."""
    if scenario is None or isinstance(scenario, str):
        scenario = load_scenario(scenario or "raider_camp")
    config = config or HavenConfig()
    if fixture is not None:
        from ..fixtures import state_from_fixture
        from ..position_rules import check_config_fit

        state = state_from_fixture(scenario, seed, fixture)
        check_config_fit(scenario, state, config)
    else:
        from .setup import new_state

        state = new_state(scenario, seed)
    return HavenGame(scenario, state, config)
