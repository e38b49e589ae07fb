"""haven behind the game contract (:mod:`reborn_env.core.contract`), section 16.

:class:`HavenRules` is a scenario with the 16.8 options; :class:`HavenMatch` is one game: the rules
engine's :class:`HavenGame` and what the contract asks of it: who answers (HV-API-1), the legal
answers (16.4), one shared +1 / -1 / 0 at the end and optional shaping (HV-API-6), termination or
truncation (HV-API-7), and each character's event feed with the other's secret selection withheld
until the reveal (HV-API-8).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ...core.contract import RUNNING, TERMINATED, TRUNCATED
from ...core.errors import IllegalActionError
from . import render
from .actions import action_space
from .event_feed import EventFeed
from .fast import resolve_backend
from .fast.kernels import COMPILED
from .fast.mask import mark_legal_for
from .fast.observer import best_observer_for
from .rules.engine import HavenConfig, HavenGame, new_game
from .rules.kernels import REFERENCE
from .scenario.loader import load_scenario

ENV_NAME = "haven_v0"
SHAPING_PER_HP = 0.02  # HV-API-6
OUTCOME_REWARDS = {"win": 1.0, "loss": -1.0, "truncated": 0.0}  # HV-API-6


def make_config(**options: Any) -> HavenConfig:
    """16.8: the :class:`HavenConfig` of keyword arguments, which it checks (a NumPy scalar, as a
    caller may pass, counts as the Python value it holds)."""
    return HavenConfig.from_dict(
        {
            key: value.item() if isinstance(value, np.generic) else value
            for key, value in options.items()
        }
    )


class HavenRules:
    """A scenario and its 16.8 options (``reward_shaping`` is the environment's own: a restored
    position follows the rules config it carries, but shaping stays as configured here).

    ``event_feed``: whether each seat's infos carry its HV-API-8 event feed, a list of dicts.
    Off by default, so that every value in ``infos`` is one a trainer's buffer can store (TorchRL
    and Tianshou refuse lists of dicts); front-ends and tests that read the feed ask for it.

    ``backend``: ``"fast"`` (the compiled core's observer, mask and rules kernels), ``"python"``
    (the reference of each) or None, the core where it is built (``$REBORN_ENV_BACKEND`` if set),
    as for Earth Reborn; the games give the same results on both."""

    name = ENV_NAME

    def __init__(
        self,
        scenario: str = "raider_camp",
        event_feed: bool = False,
        backend: str | None = None,
        **config: Any,
    ) -> None:
        if not isinstance(event_feed, bool):
            raise ValueError(f"event_feed must be True or False, got {event_feed!r}")
        self.event_feed = event_feed
        self.backend = resolve_backend(backend)
        self.config = make_config(**config)
        self.scenario = load_scenario(scenario)
        self._take_backend()
        # HV-API-1, 16.3, 16.5: the characters; the grid's actions (Discrete(87) on 9 x 7); the
        # observation and its mask
        self.agents = tuple(c.id for c in self.scenario.characters)
        self.actions = action_space(self.scenario.map.grid)
        self.n_actions = self.actions.N_ACTIONS
        self.obs_size = self.observer.size

    def _take_backend(self) -> None:
        """The one place the backend is applied: the observer (16.5), the mask writer (16.4) and
        the kernels every game of these rules calls (HV-AI-2..10, HV-TER-7)."""
        self.observer = best_observer_for(self.scenario, self.backend)
        self.mark_legal = mark_legal_for(self.backend)
        self.kernels = COMPILED if self.backend == "fast" else REFERENCE

    def __deepcopy__(self, memo: dict[int, object]) -> HavenRules:
        """Itself: a scenario, options, a backend and that scenario's observer, which no game
        changes, so a copied match plays by the same rules object."""
        return self

    def __getstate__(self) -> dict[str, Any]:
        """Pickled with its backend as resolved here; :meth:`__setstate__` takes that backend's
        observer (the compiled one's C encoder is built again), mask writer and kernels."""
        taken = ("observer", "mark_legal", "kernels")
        return {key: value for key, value in self.__dict__.items() if key not in taken}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._take_backend()

    def new_match(self, seed: int, options: Mapping[str, Any]) -> HavenMatch:
        """HV-API-9/10: a new game from ``seed``, or the fixture ``options["fixture"]``."""
        game = new_game(
            scenario=self.scenario,
            seed=seed,
            config=self.config,
            fixture=options.get("fixture"),
            kernels=self.kernels,
        )
        return HavenMatch(self, game)

    def from_position(self, position: Any, options: Mapping[str, Any] | None = None) -> HavenMatch:
        """The game ``position`` holds (docs/haven_position_format.md), validated."""
        if options and options.get("fixture") is not None:
            raise ValueError("reset options 'fixture' and 'position' exclude each other")
        game = HavenGame.from_position(position, self.scenario, self.kernels)
        return HavenMatch(self, game)

    def action_name(self, action: int) -> str:
        return self.actions.name(action)

    def parse_action(self, name: str) -> int:
        return self.actions.parse(name)


def rules_step_bound(rules: HavenRules) -> int:
    """15.10: the most agent decisions a game of ``rules`` takes: its scenario's bound, which the
    characters' exhaustion keeps whatever the round cap (``GameFacts.max_game_length_of``)."""
    return rules.scenario.rules.bounds.max_agent_steps


class HavenMatch:
    """One game of haven; ``state`` is the rules engine's :class:`HavenGame`.

    A match deep-copies and pickles: its game as its position and event log (the copy replays to
    the same prompt), its event feed and shaping as they are, its rules shared; the copy plays
    on exactly as the original would."""

    def __init__(self, rules: HavenRules, game: HavenGame) -> None:
        self.rules = rules
        self.state = game
        # HV-API-8, kept only where the env hands it out
        self._feed = EventFeed(game.events, len(rules.agents)) if rules.event_feed else None
        self._shaped: list[float] = [0.0] * len(rules.agents)

    def to_move(self) -> int | None:
        """HV-API-1: whoever must answer the pending prompt; None once the game is over."""
        prompt = self.state.prompt
        return prompt.agent if prompt is not None and self.state.outcome == "running" else None

    def legal_actions(self) -> Sequence[int]:
        return self.state.legal_actions()

    def apply(self, action: int) -> None:
        """HV-API-5: an illegal answer is refused, nothing changed; then HV-API-8's bookkeeping
        and HV-API-6's shaping for the answer and everything it set off."""
        game = self.state
        seat = game.prompt.agent if game.prompt is not None else 0
        if action not in game.legal_actions():
            raise IllegalActionError(self._illegal_message(seat, action))
        before = len(game.events)
        feed = self._feed
        held = feed.still_held(seat) if feed is not None else []
        try:
            game.apply(action)
        except IllegalActionError as err:
            raise IllegalActionError(f"{self._illegal_message(seat, action)}: {err}") from None
        if feed is not None:
            feed.stepped(seat, held, before)
        if self.rules.config.reward_shaping:
            self._shaped = [self._shaping(game.events[before:])] * len(self.rules.agents)

    def play(self, action: int) -> tuple[str, int | None, Sequence[float] | None, bool]:
        """The contract's ``Plays``: :meth:`apply`, then status, who answers next, shaping, and
        whether infos may tell something (only with the event feed)."""
        self.apply(action)
        status = self.status()
        to_move = self.to_move() if status == RUNNING else None
        return status, to_move, self.shaped_rewards(), self._feed is not None

    def status(self) -> str:
        outcome = self.state.outcome
        if outcome == "running":
            return RUNNING
        return TRUNCATED if outcome == "truncated" else TERMINATED

    def final_rewards(self) -> Sequence[float]:
        """HV-API-6: one shared +1 (win), -1 (loss) or 0 (truncated)."""
        return [OUTCOME_REWARDS.get(self.state.outcome, 0.0)] * len(self.rules.agents)

    def shaped_rewards(self) -> Sequence[float] | None:
        return self._shaped if self.rules.config.reward_shaping else None

    def observe(self, seat: int) -> np.ndarray:
        return self.rules.observer.observe(self.state, seat)

    def observe_into(self, seat: int, observation: np.ndarray, mask: np.ndarray) -> None:
        """The contract's ``WritesArrays``: 16.5 into ``observation``, the legal actions into
        ``mask`` when ``seat`` is to answer."""
        self.rules.observer.observe_into(self.state, seat, observation)
        if self.to_move() == seat:
            self.rules.mark_legal(mask, self.state.legal_actions())

    def infos(self, seat: int) -> Mapping[str, Any]:
        """HV-API-8: ``{"events": [...]}``, what ``seat`` may see since its previous step, when
        the env was made with ``event_feed=True``; else nothing."""
        if self._feed is None:
            return {}
        return {"events": self._feed.shown(seat)}

    def hand(self, seat: int) -> list[str]:
        """The cards in ``seat``'s hand (hidden from the other character), by id."""
        ch = self.state.state.characters[seat]
        return self.state.card_ids(ch, ch.hand)

    def result(self) -> dict[str, Any]:
        """The team's outcome: ``win``, ``loss`` or ``truncated``."""
        return {"outcome": self.state.outcome}

    def summary(self) -> str:
        verdict = {"win": "wins", "loss": "loses"}.get(self.state.outcome, "runs out of rounds")
        return f"the team {verdict} in round {self.state.state.round}"

    def describe(self) -> str:
        legal = ", ".join(self.rules.actions.name(a) for a in self.state.legal_actions())
        return f"{self._prompt_text()}; legal actions: {legal or 'none'}"

    def to_position(self) -> dict[str, Any]:
        return self.state.to_position()

    def render_ansi(self) -> str:
        return render.render_ansi(self.state)

    def render_rgb(self) -> np.ndarray:
        return render.render_rgb(self.state)

    # --- HV-API-6: shaping ----------------------------------------------------------------------

    def _shaping(self, events: list[Any]) -> float:
        """+0.02 per monster HP lost, -0.02 per character HP lost, shared."""
        monster_types = {t.id for t in self.rules.scenario.monster_types}
        total = 0.0
        for event in events:
            if event.type != "DAMAGE":
                continue
            figure = str(event.data.get("figure", ""))
            amount = int(event.data.get("amount", 0))
            if figure in self.rules.agents:
                total -= SHAPING_PER_HP * amount
            elif figure.split("#")[0] in monster_types:
                total += SHAPING_PER_HP * amount
        return total

    def _prompt_text(self) -> str:
        prompt = self.state.prompt
        if prompt is None:
            return f"the game is over ({self.state.outcome})"
        return f"{self.rules.agents[prompt.agent]}'s {prompt.kind} prompt"

    def _illegal_message(self, seat: int, action: int) -> str:
        """HV-API-5: name the prompt, the refused action and the legal actions."""
        space = self.rules.actions
        shown = space.name(action) if 0 <= action < space.N_ACTIONS else str(action)
        return f"illegal action {shown} for {self.rules.agents[seat]} at {self.describe()}"
