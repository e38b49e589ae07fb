"""The PettingZoo AEC environment around the haven rules engine (section 16, HV-API-1..10).

The environment card (agents, actions, observations, rewards, config) is the docstring of
:mod:`reborn_env.haven_v0`. This module adds agent names, the AEC bookkeeping, rewards (HV-API-6),
termination (HV-API-7), the per-agent event feed with secret selections withheld until the reveal
(HV-API-8), illegal-move handling (HV-API-5) and rendering; it never re-implements a rule.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import numpy as np

from ...core.errors import IllegalActionError
from ...core.game_env import GameEnv
from . import actions
from .observation import observer_for
from .rules.engine import HavenConfig, HavenGame, new_game
from .scenario.loader import load_scenario

# 16.8: the config keys and their defaults (all booleans but max_rounds), as HavenConfig has them.
CONFIG_DEFAULTS: dict[str, Any] = {f.name: f.default for f in fields(HavenConfig)}
SHAPING_PER_HP = 0.02  # HV-API-6
OUTCOME_REWARDS = {"win": 1.0, "loss": -1.0, "truncated": 0.0}  # HV-API-6


def make_config(**kwargs: Any) -> HavenConfig:
    """16.8: a :class:`HavenConfig` from keyword arguments, each checked with a clear error."""
    unknown = sorted(set(kwargs) - set(CONFIG_DEFAULTS))
    if unknown:
        raise TypeError(
            f"unknown haven config key(s) {unknown}; the keys are {sorted(CONFIG_DEFAULTS)}"
        )
    values = {**CONFIG_DEFAULTS, **kwargs}
    for key, value in values.items():
        if key == "max_rounds":
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
                raise ValueError(f"max_rounds must be a positive integer (HV-END-4), got {value!r}")
            values[key] = int(value)
        elif not isinstance(value, (bool, np.bool_)):
            raise ValueError(f"{key} must be True or False (16.8), got {value!r}")
        else:
            values[key] = bool(value)
    return HavenConfig(**values)


class raw_env(GameEnv):  # noqa: N801 - PettingZoo's naming convention
    """haven, two cooperating characters, one AEC step per prompt of 16.2 (HV-API-1/2)."""

    render_module = "reborn_env.games.haven.render"
    metadata = {
        "name": "haven_v0",
        "render_modes": ["human", "ansi", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        render_mode: str | None = None,
        scenario: str = "raider_camp",
        illegal_action: str = "raise",
        allow_damage_negation: bool = True,
        auto_forced: bool = True,
        hide_other_piles: bool = False,
        reward_shaping: bool = False,
        max_rounds: int = 30,
        reveal_second_card_at_turn: bool = False,
    ) -> None:
        super().__init__()
        self._set_modes(render_mode, illegal_action)  # HV-API-5
        self.config = make_config(
            allow_damage_negation=allow_damage_negation,
            auto_forced=auto_forced,
            hide_other_piles=hide_other_piles,
            reward_shaping=reward_shaping,
            max_rounds=max_rounds,
            reveal_second_card_at_turn=reveal_second_card_at_turn,
        )
        self.scenario = load_scenario(scenario)
        self.observer = observer_for(self.scenario)
        # HV-API-1, 16.3, 16.5: the characters; Discrete(87); the observation and its mask
        agents = [c.id for c in self.scenario.characters]
        self._set_spaces(agents, self.observer.size, actions.N_ACTIONS)
        self.game: HavenGame | None = None

    # --- PettingZoo API -------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """HV-API-9/10: a new game from ``seed`` (random if None).

        ``options={"fixture": dict}`` sets up a fixture (HV-API-10); ``options={"position": dict}``
        restores a saved position (:meth:`get_state`); other option keys are ignored.
        """
        options = self._options_of(options)
        if options.get("fixture") is not None and options.get("position") is not None:
            raise ValueError("reset options 'fixture' and 'position' exclude each other")
        seed = self._seed_of(seed)
        if options.get("position") is not None:
            game = HavenGame.from_position(options["position"], scenario=self.scenario)
        else:
            game = new_game(
                scenario=self.scenario,
                seed=seed,
                config=self.config,
                fixture=options.get("fixture"),
            )
        self._start(game)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """16.5 observation of ``agent`` and its mask (16.4; zeros unless it must answer)."""
        game = self._require_game()
        me = self.agent_index[agent]
        mask = np.zeros(actions.N_ACTIONS, dtype=np.int8)
        prompt = game.prompt
        if prompt is not None and prompt.agent == me and game.outcome == "running":
            mask[list(game.legal_actions())] = 1
        return {"observation": self.observer.observe(game, me), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """HV-API-1: apply the selected agent's answer, then run to the next prompt."""
        checked = self._action_of_step(action)
        if checked is None:
            return
        agent, action = checked
        game = self._require_game()
        if action not in game.legal_actions():
            self._refuse(agent, self._illegal_message(agent, action))
            return
        before = len(game.events)
        held = self._still_held(agent)
        try:
            game.apply(action)
        except IllegalActionError as err:
            self._refuse(agent, f"{self._illegal_message(agent, action)}: {err}")
            return
        self._held[agent], self._cursor[agent] = held, before
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if self.config.reward_shaping:
            self._shape(game.events[before:])
        if game.outcome != "running":
            self._finish()
        else:
            self._sync_selection()
        self._update_infos()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # --- Positions and names --------------------------------------------------------------------

    def get_state(self) -> dict[str, Any]:
        """The full position as JSON-ready data (``HavenGame.to_position``)."""
        return self._require_game().to_position()

    def set_state(self, position: dict[str, Any]) -> None:
        """Restore a position; on a bad one ``PositionError`` is raised and nothing changes.

        A position carries its rules config (16.8), which the game then follows; the reward
        options of this environment (``reward_shaping``) stay as constructed.
        """
        game = HavenGame.from_position(position, scenario=self.scenario)
        self._start(game)

    def action_name(self, action: int) -> str:
        """Readable name of an action integer, e.g. ``HEX(4,2)`` or ``BOX(lead,top,printed)``."""
        return actions.name(int(action))

    def action_from_name(self, name: str) -> int:
        """The action integer of a readable name (inverse of :meth:`action_name`)."""
        return actions.parse(name)

    # --- Internals ------------------------------------------------------------------------------

    def _start(self, game: HavenGame) -> None:
        """A new episode around ``game``, with the HV-API-8 event bookkeeping."""
        self._new_episode(game, lambda: {"events": []})
        # HV-API-8: per agent, the first event not yet handed over and the withheld ones before it.
        self._cursor = {a: 0 for a in self.agents}
        self._held: dict[str, list[int]] = {a: [] for a in self.agents}
        self._event_dicts: list[dict[str, Any]] = []
        self._last_reveal = -1  # where the last REVEAL, which releases withheld events, is
        self.agent_selection = self.agents[0]
        self._sync_selection()
        if game.outcome != "running":
            self._finish()
            self._accumulate_rewards()
        self._update_infos()

    def _sync_selection(self) -> None:
        """HV-API-1: the selected agent is whoever must answer the pending prompt."""
        prompt = self._require_game().prompt
        if prompt is not None:
            self.agent_selection = self.possible_agents[prompt.agent]

    def _finish(self) -> None:
        """HV-API-6/7: shared +1 / -1 / 0 at the end; everyone terminated (or truncated)."""
        outcome = self._require_game().outcome
        for a in self.agents:
            self.rewards[a] += OUTCOME_REWARDS[outcome]
        if outcome == "truncated":
            self.truncations = {a: True for a in self.agents}
        else:
            self.terminations = {a: True for a in self.agents}

    def _shape(self, events: list[Any]) -> None:
        """HV-API-6 shaping: +0.02 per monster HP lost, -0.02 per character HP lost, shared."""
        monster_types = {t.id for t in self.scenario.monster_types}
        total = 0.0
        for event in events:
            if event.type != "DAMAGE":
                continue
            figure = str(event.data.get("figure", ""))
            amount = int(event.data.get("amount", 0))
            if figure in self.agent_index:
                total -= SHAPING_PER_HP * amount
            elif figure.split("#")[0] in monster_types:
                total += SHAPING_PER_HP * amount
        for a in self.agents:
            self.rewards[a] += total

    def _visible(self, me: int, index: int) -> bool:
        """HV-API-8 / HV-SEL-3: another character's selection events wait for a later REVEAL;
        private ones (the second pick under ``reveal_second_card_at_turn``, 16.8) are never
        shown: a public REVEAL names that card when its owner's turn starts."""
        event = self._require_game().events[index]
        if event.secret_of is None or event.secret_of == me:
            return True
        return not event.private and self._last_reveal > index

    def _sync_events(self) -> None:
        """Convert new log lines to dicts once and note the last REVEAL."""
        events = self._require_game().events
        for index in range(len(self._event_dicts), len(events)):
            event = events[index]
            self._event_dicts.append({"type": event.type, **event.data})
            if event.type == "REVEAL":
                self._last_reveal = index

    def _pending(self, agent: str) -> list[int]:
        """Indices of the events not yet handed to ``agent`` (withheld ones first, in order)."""
        return self._held[agent] + list(range(self._cursor[agent], len(self._event_dicts)))

    def _update_infos(self) -> None:
        """HV-API-8: ``infos[a]["events"]``: what ``a`` may see since its previous step."""
        self._sync_events()
        for a in self.agents:
            me = self.agent_index[a]
            events = [self._event_dicts[i] for i in self._pending(a) if self._visible(me, i)]
            self.infos[a] = {**self.infos.get(a, {}), "events": events}

    def _still_held(self, agent: str) -> list[int]:
        """The events ``agent`` was not shown so far (withheld): they stay pending after its step,
        while everything it was shown, and the private events it may never see, are spent."""
        self._sync_events()
        me = self.agent_index[agent]
        events = self._require_game().events
        return [
            i for i in self._pending(agent) if not self._visible(me, i) and not events[i].private
        ]

    def _prompt_text(self) -> str:
        game = self._require_game()
        prompt = game.prompt
        if prompt is None:
            return f"the game is over ({game.outcome})"
        return f"{self.possible_agents[prompt.agent]}'s {prompt.kind} prompt"

    def _decision_text(self) -> str:
        legal = ", ".join(actions.name(a) for a in self._require_game().legal_actions())
        return f"{self._prompt_text()}; legal actions: {legal or 'none'}"

    def _illegal_message(self, agent: str, action: int) -> str:
        """HV-API-5: name the prompt, the refused action and the legal actions."""
        shown = actions.name(action) if 0 <= action < actions.N_ACTIONS else str(action)
        return f"illegal action {shown} for {agent} at {self._decision_text()}"


def env(**kwargs: Any) -> raw_env:
    """The environment as users get it: order checks and illegal-move handling are built in.

    As for earth_reborn_v0, PettingZoo's standard wrappers would only repeat checks raw_env
    already makes (HV-API-5) and slow every step down; ``env`` returns raw_env itself.
    """
    return raw_env(**kwargs)
