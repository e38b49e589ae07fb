"""What the conformance suite asks of Kuhn poker besides the contract: the per-step check, an
eventful random player, and a game that differs only in what a player may not see (KP-HID-1)."""

from __future__ import annotations

import numpy as np
from pettingzoo import AECEnv

from reborn_env.core.fuzz import check_masks

from . import rules
from .game import KuhnMatch


def check_step(env: AECEnv, agent: str) -> None:
    """KP-DEAL-1: two different cards of the three; KP-BET-1/2: a history of the rules, the
    mask exactly the legal set, zeros for the other player."""
    state = env.unwrapped.game
    if len(set(state.cards)) != 2 or not set(state.cards) <= {0, 1, 2}:
        raise AssertionError(f"KP-DEAL-1: the cards {state.cards} are not two of the three")
    if state.history not in rules.DECIDING + rules.TERMINAL:
        raise AssertionError(f"KP-BET-1/2: {state.history} is no history of the rules")
    check_masks(env, agent, rules.legal_actions(state), "KP-BET-2")


def busy_policy(rng: np.random.Generator, mask: np.ndarray, env: AECEnv) -> int:
    """Legal play that bets (or calls) four times in five: more pots are raised and called."""
    if mask[rules.BET] and rng.random() < 0.8:
        return rules.BET
    return int(rng.choice(np.flatnonzero(mask)))


def hidden_variant(match: KuhnMatch, seat: int, rng: np.random.Generator) -> KuhnMatch | None:
    """KP-HID-1: the other player holding the card nobody was dealt instead of his; None at the
    showdown, where both cards are turned up."""
    state = match.state
    if rules.is_showdown(state):
        return None
    cards = list(state.cards)
    cards[1 - seat] = rules.undealt(state)
    return KuhnMatch(rules.KuhnState((cards[0], cards[1]), state.history))
