"""Kuhn poker behind the game contract: positions, observations, pictures, the environment, a bot.

Everything a game gives the project, in one small file: :class:`KuhnRules` and :class:`KuhnMatch`
implement :mod:`reborn_env.core.contract`, ``env()`` is the one AEC environment over them, and the
package ``__init__`` registers the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from reborn_env.core.contract import RUNNING, TERMINATED
from reborn_env.core.errors import IllegalActionError
from reborn_env.core.game_env import RENDER_MODES, GameEnv
from reborn_env.core.positions import choice, fail, int_range, items, obj

from . import rules

NAME = "kuhn_poker_v0"
AGENTS = ("player_0", "player_1")
FORMAT, VERSION = "kuhn_poker.position", 1
POSITION_KEYS = ("format", "version", "cards", "history")
# KP-HID-1: my card, each of the (at most three) actions, the seat to move, the other card at the
# showdown; one-hot each.
MINE, ACTED, TURN, SHOWN = 0, 3, 9, 11
OBS_SIZE = 14


class KuhnRules:
    """The one configuration of Kuhn poker: no scenario, no options."""

    name = NAME
    agents = AGENTS
    n_actions = len(rules.ACTIONS)
    obs_size = OBS_SIZE

    def new_match(self, seed: int, options: Mapping[str, Any]) -> KuhnMatch:
        return KuhnMatch(rules.deal(seed))

    def from_position(self, position: Any, options: Mapping[str, Any] | None = None) -> KuhnMatch:
        """A deal of two different cards and a history the rules allow (KP-DEAL-1, KP-BET-2)."""
        data = obj("", position, POSITION_KEYS)
        if data["format"] != FORMAT:
            raise fail("format", f"must be {FORMAT!r}: this is not a Kuhn poker position")
        int_range("version", data["version"], VERSION, VERSION)
        cards = tuple(
            choice(f"cards[{i}]", card, rules.CARDS)
            for i, card in enumerate(items("cards", data["cards"], 2))
        )
        if len(cards) != 2 or cards[0] == cards[1]:
            raise fail("cards", "must be two different cards, one per player (KP-DEAL-1)")
        history = tuple(
            choice(f"history[{i}]", action, rules.ACTIONS)
            for i, action in enumerate(items("history", data["history"], 3))
        )
        if history not in rules.TERMINAL + rules.DECIDING:
            raise fail("history", f"{list(data['history'])} is no sequence of KP-BET-1/2")
        return KuhnMatch(rules.KuhnState(cards, history))

    def action_name(self, action: int) -> str:
        return rules.ACTIONS[action]

    def parse_action(self, name: str) -> int:
        if name not in rules.ACTIONS:
            raise ValueError(f"unknown action {name!r}; the actions are {', '.join(rules.ACTIONS)}")
        return rules.ACTIONS.index(name)


class KuhnMatch:
    """One hand of Kuhn poker; ``state`` is the rules'."""

    def __init__(self, state: rules.KuhnState) -> None:
        self.state = state

    def to_move(self) -> int | None:
        return None if rules.is_over(self.state) else rules.to_move(self.state)

    def legal_actions(self) -> Sequence[int]:
        return rules.legal_actions(self.state)

    def apply(self, action: int) -> None:
        if action not in self.legal_actions():
            raise IllegalActionError(f"illegal action {action}; {self.describe()}")
        rules.play(self.state, action)

    def status(self) -> str:
        return TERMINATED if rules.is_over(self.state) else RUNNING

    def final_rewards(self) -> Sequence[float]:
        return rules.payoff(self.state)

    def shaped_rewards(self) -> Sequence[float] | None:
        return None

    def observe(self, seat: int) -> np.ndarray:
        """KP-HID-1: my card, the actions, whose turn, and the other card at the showdown only."""
        state = self.state
        obs = np.zeros(OBS_SIZE, dtype=np.float32)
        obs[MINE + state.cards[seat]] = 1.0
        for i, action in enumerate(state.history):
            obs[ACTED + 2 * i + action] = 1.0
        if not rules.is_over(state):
            obs[TURN + rules.to_move(state)] = 1.0
        if rules.is_showdown(state):
            obs[SHOWN + state.cards[1 - seat]] = 1.0
        return obs

    def infos(self, seat: int) -> Mapping[str, Any]:
        return {}

    def hand(self, seat: int) -> list[str]:
        return [rules.CARDS[self.state.cards[seat]]]

    def result(self) -> dict[str, Any]:
        return {"payoff": list(rules.payoff(self.state))}

    def summary(self) -> str:
        won = rules.payoff(self.state)[0]
        return f"{AGENTS[0] if won > 0 else AGENTS[1]} wins {abs(won):g}"

    def describe(self) -> str:
        state = self.state
        acted = " ".join(rules.ACTIONS[a] for a in state.history) or "nothing yet"
        if rules.is_over(state):
            return f"the hand is over after {acted}; legal: none"
        legal = ", ".join(rules.ACTIONS[a] for a in self.legal_actions())
        return f"{AGENTS[rules.to_move(state)]} to act after {acted}; legal: {legal}"

    def to_position(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "cards": [rules.CARDS[c] for c in self.state.cards],
            "history": [rules.ACTIONS[a] for a in self.state.history],
        }

    def render_ansi(self) -> str:
        """The public table: the actions, and both cards at the showdown."""
        state = self.state
        shown = [rules.CARDS[c] if rules.is_showdown(state) else "?" for c in state.cards]
        acted = " ".join(rules.ACTIONS[a] for a in state.history) or "-"
        return f"cards {shown[0]} {shown[1]}; actions {acted}"

    def render_rgb(self) -> np.ndarray:
        """One bar per action so far (dark: PASS, light: BET) on a green table."""
        image = np.zeros((16, 48, 3), dtype=np.uint8)
        image[:] = (20, 90, 40)
        for i, action in enumerate(self.state.history):
            image[4:12, 4 + 14 * i : 14 + 14 * i] = (230, 230, 230) if action else (60, 60, 60)
        return image


class raw_env(GameEnv):  # noqa: N801 - PettingZoo's naming convention
    """Kuhn poker as a PettingZoo AEC environment."""

    metadata = {
        "name": NAME,
        "render_modes": RENDER_MODES,
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, render_mode: str | None = None, illegal_action: str = "raise") -> None:
        super().__init__(KuhnRules(), render_mode, illegal_action)


def env(**kwargs: Any) -> raw_env:
    return raw_env(**kwargs)


class KuhnBot:
    """The scripted bot: bets or calls with the king, passes or folds with the jack, and with the
    queen passes first and calls a bet."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        mine = int(np.argmax(observation[MINE:ACTED]))
        history = [
            int(np.argmax(slot)) for slot in observation[ACTED:TURN].reshape(3, 2) if slot.any()
        ]
        facing_bet = bool(history) and history[-1] == rules.BET
        choice = rules.BET if mine == 2 or (mine == 1 and facing_bet) else rules.PASS
        return choice if action_mask[choice] else int(np.flatnonzero(action_mask)[0])

    def reset(self) -> None:
        """Nothing to forget."""
