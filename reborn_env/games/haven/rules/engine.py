"""The haven game driver: one object that holds a game, poses its prompts and takes answers.

The rules are written as generators that ``yield`` a :class:`~.prompts.Prompt` wherever an agent
decides (16.2) and receive the answer, so rules code reads like the rulebook. Each rule is given
the game's :class:`~.context.RuleContext` (scenario, options, state, event log), never this
driver. :class:`HavenGame` runs them: it answers forced prompts itself (HV-API-4), refuses illegal
actions before anything changes (HV-API-5) and knows the last *quiet point* (the start of a round,
of a turn-sequence slot, or of cleanup), where the state is plain data, and the answers given
since. A position (``reborn_env.games.haven.positions``) is exactly that pair, so it saves and
loads exactly at any decision.

Writing the state down at every quiet point would cost more than the rules between two of them,
so the game keeps one written-down quiet point (its *anchor*) and every answer since; a position
asked for later replays those answers from the anchor, in a twin game, up to the last quiet point,
which becomes the new anchor (so asking at every decision replays each answer once).
"""

from __future__ import annotations

import copy
from collections.abc import Generator
from typing import Any

from ....core.errors import IllegalActionError
from ....core.positions import fail
from ..actions import ActionSpace
from ..fixtures import state_from_fixture
from ..position_rules import check_config_fit
from ..positions import dump_state, position_of, read_position
from ..scenario.loader import load_scenario
from ..scenario.model import Scenario
from .config import HavenConfig
from .context import Kernels, RuleContext
from .damage import ScenarioEnded
from .kernels import REFERENCE
from .prompts import SELECT_LEAD, SELECT_SECOND, Event, Prompt
from .round import cleanup, run_slot, slot_label, start_round
from .setup import new_state
from .state import CLEANUP, OVER, RUNNING, SELECT, TURNS, CharacterState, HavenState, Slot


class HavenGame:
    """A running haven game: state, pending prompt, event log (HV-STATE-7, HV-API-1..5).

    ``kernels``: the path graphs and monster AI its rules call (:mod:`.kernels`), the Python
    reference unless the caller (the environment, by its backend) gives the compiled ones."""

    def __init__(
        self,
        scenario: Scenario,
        state: HavenState,
        config: HavenConfig,
        kernels: Kernels = REFERENCE,
    ) -> None:
        self.context = RuleContext(scenario, state, config, kernels)
        self.prompt: Prompt | None = None
        self._anchor: dict[str, Any] | None = None  # a quiet point's state as position data
        self._anchor_at = 0  # how many answers of the history came before the anchor
        self._history: list[int] = []  # every answer given to this object
        self._quiet_at = 0  # how many came before the last quiet point
        # a quiet point to write down: here every one before the first answer, so that the
        # anchor is the last of them (where the first prompt is posed); in a twin of
        # _materialize, the one it is to capture
        self._capture_at: int | None = 0
        self._proc = self._run()
        self._advance(None)
        self._capture_at = None

    # --- Public API ---------------------------------------------------------------------------

    @property
    def scenario(self) -> Scenario:
        """The scenario being played (read it, do not change it)."""
        return self.context.scenario

    @property
    def actions(self) -> ActionSpace:
        """The action space of the scenario's grid (16.3)."""
        return self.context.actions

    @property
    def state(self) -> HavenState:
        """The whole state of the game (HV-STATE-1..7); the rules change it, callers read it."""
        return self.context.state

    @property
    def config(self) -> HavenConfig:
        """The options of 16.8."""
        return self.context.config

    @property
    def kernels(self) -> Kernels:
        """The path graphs and monster AI its rules call; copies and clones keep them."""
        return self.context.kernels

    @property
    def events(self) -> list[Event]:
        """The event log, oldest first (HV-API-8)."""
        return self.context.events

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
            space = self.context.actions
            legal = ", ".join(space.name(a) for a in prompt.legal)
            known = isinstance(action, int) and 0 <= action < space.N_ACTIONS
            shown = space.name(action) if known else action
            raise IllegalActionError(
                f"{shown!r} is not legal at prompt {prompt.kind} of "
                f"{self.scenario.characters[prompt.agent].id}; legal: {legal}"
            )
        self._history.append(action)
        self._advance(action)

    def card_ids(self, ch: CharacterState, cards: list[int]) -> list[str]:
        """Printed ids (``B03``) of card indices of ``ch``."""
        return self.context.card_ids(ch, cards)

    def slot_label(self, slot: Slot) -> str:
        """A turn-sequence slot as text: agent, monster type, or ``summon:N``."""
        return slot_label(self.scenario, slot)

    def to_position(self) -> dict[str, Any]:
        """The game as JSON-ready data: the last quiet point and the answers since."""
        if self._anchor_at != self._quiet_at:
            self._materialize()
        assert self._anchor is not None  # written in __init__, before the first prompt
        answers = self._history[self._quiet_at :]
        return position_of(self.scenario, self.config, self._anchor, answers)

    @classmethod
    def from_position(
        cls, data: Any, scenario: Scenario | None = None, kernels: Kernels = REFERENCE
    ) -> HavenGame:
        """Rebuild a game from :meth:`to_position` data: the state is validated (``read_position``
        of ``reborn_env.games.haven.positions``), then the answers are replayed, each legal at its
        moment and all before the next quiet point; PositionError says what is wrong."""
        scenario, state, config, answers = read_position(data, scenario)
        game = cls(scenario, state, config, kernels)
        game._replay(answers)
        return game

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled and deep-copied as its position and its event log, since the generator that
        runs the rules cannot be: the copy replays the answers since the last quiet point, so it
        poses the same prompt and plays on exactly as this game would."""
        position = self.to_position()
        return _resumed, (type(self), self.scenario, position, self.events, self.kernels)

    def __copy__(self) -> HavenGame:
        """A whole copy, as :func:`copy.deepcopy` makes: two games never share an event log."""
        return copy.deepcopy(self)

    def clone(self) -> HavenGame:
        """An independent copy at the same decision."""
        return HavenGame.from_position(self.to_position(), self.scenario, self.kernels)

    # --- Driver -------------------------------------------------------------------------------

    def _replay(self, answers: list[int]) -> None:
        """Answer the prompts again, each legal at its moment, all before the next quiet point."""
        for i, answer in enumerate(answers):
            try:
                self.apply(answer)
            except IllegalActionError as err:
                raise fail(f"answers[{i}]", str(err)) from None
            if self._quiet_at != 0:
                raise fail(
                    f"answers[{i}]",
                    "reaches the next quiet point; a position holds only the answers "
                    "since its last",
                )

    def _advance(self, action: int | None) -> None:
        """Send ``action`` into the rules and answer forced prompts (HV-API-4) until one is open."""
        try:
            prompt = self._proc.send(action)  # type: ignore[arg-type]
            while self.config.auto_forced and len(prompt.legal) == 1:
                secret = prompt.agent if prompt.kind in (SELECT_LEAD, SELECT_SECOND) else None
                self.context.log(
                    "AUTO_ACTION",
                    secret_of=secret,
                    private=prompt.kind == SELECT_SECOND and self.config.reveal_second_card_at_turn,
                    agent=self.scenario.characters[prompt.agent].id,
                    prompt=prompt.kind,
                    action=self.context.actions.name(prompt.legal[0]),
                )
                prompt = self._proc.send(prompt.legal[0])
        except StopIteration:
            prompt = None
        self.prompt = prompt

    def _run(self) -> Generator[Prompt, int, None]:
        """HV-ROUND-2: rounds of selection, turns and cleanup until the outcome is decided."""
        context = self.context
        state = context.state
        try:
            while state.outcome == RUNNING:
                if state.phase == SELECT:
                    self._mark_quiet()
                    yield from start_round(context)
                elif state.phase == TURNS:
                    while state.slot < len(state.sequence):
                        self._mark_quiet()
                        yield from run_slot(context, state.sequence[state.slot])
                        state.slot += 1
                    state.phase = CLEANUP
                else:
                    self._mark_quiet()
                    yield from cleanup(context)
        except ScenarioEnded:
            pass
        state.phase = OVER
        context.turn_figure = None
        self._mark_quiet()

    def _mark_quiet(self) -> None:
        """A quiet point: no answer since. Those the game passes before its first prompt are
        written down at once (the last is the anchor); a twin of :meth:`_materialize` writes down
        the one it is to capture."""
        self._quiet_at = len(self._history)
        if self._quiet_at == self._capture_at:
            self._anchor = dump_state(self.scenario, self.state)
            self._anchor_at = self._quiet_at

    def _materialize(self) -> None:
        """Make the last quiet point the anchor: a twin game started at the anchor replays the
        answers since and writes its state down at that quiet point. The twin must end where
        this game is; a game whose state was changed other than by its rules cannot be saved."""
        assert self._anchor is not None
        start = position_of(self.scenario, self.config, self._anchor, [])
        twin = HavenGame(*read_position(start, self.scenario)[:3], self.kernels)
        twin._capture_at = self._quiet_at - self._anchor_at
        for answer in self._history[self._anchor_at :]:
            twin.apply(answer)
        if twin._anchor_at != twin._capture_at or dump_state(
            self.scenario, twin.state
        ) != dump_state(self.scenario, self.state):
            raise RuntimeError(
                "this haven game was changed other than by its rules since its last saved quiet "
                "point, so no position can be written; change games through positions or fixtures"
            )
        self._anchor, self._anchor_at = twin._anchor, self._quiet_at


def _resumed(
    cls: type[HavenGame],
    scenario: Scenario,
    position: dict[str, Any],
    events: list[Event],
    kernels: Kernels,
) -> HavenGame:
    """The game :meth:`HavenGame.__reduce__` describes: ``position`` loaded, ``events`` its log."""
    game = cls.from_position(position, scenario, kernels)
    game.context.events = events
    return game


def new_game(
    scenario: Scenario | str | None = None,
    seed: int = 0,
    config: HavenConfig | None = None,
    fixture: dict[str, Any] | None = None,
    kernels: Kernels = REFERENCE,
) -> HavenGame:
    """A new game of ``scenario`` (default Raider Camp) from ``seed`` (HV-SETUP-1/2, HV-API-9),
    or the position a fixture describes (HV-API-10), its rules calling ``kernels``."""
    if scenario is None or isinstance(scenario, str):
        scenario = load_scenario(scenario or "raider_camp")
    config = config or HavenConfig()
    if fixture is not None:
        state = state_from_fixture(scenario, seed, fixture)
        check_config_fit(scenario, state, config)
    else:
        state = new_state(scenario, seed)
    return HavenGame(scenario, state, config, kernels)
