"""Kuhn poker's rules in plain Python: the smallest poker, and a game with hidden information.

- **KP-DEAL-1** Three cards rank J < Q < K. Each player antes 1 and is dealt one card from a
  shuffle of the seeded generator; the third card is dealt to nobody.
- **KP-BET-1** Player 0 acts first, PASS or BET (1 more chip); the players alternate.
- **KP-BET-2** After PASS, player 1 may PASS (the showdown for the antes) or BET; facing a BET a
  player may PASS (fold: the other takes the pot) or BET (call: the showdown for 2 each).
- **KP-END-1** At the showdown the higher card takes the pot; the game is zero-sum.
- **KP-HID-1** A player sees his own card and every action; the other player's card only at the
  showdown; the third card never.
"""

from __future__ import annotations

from reborn_env.core.rng import SplitMix64

CARDS = ("J", "Q", "K")  # KP-DEAL-1, in rank order
PASS, BET = 0, 1
ACTIONS = ("PASS", "BET")
# KP-BET-1/2: the histories that end the game (two of them by a fold), and those still deciding.
FOLDS = ((BET, PASS), (PASS, BET, PASS))
TERMINAL = ((PASS, PASS), (BET, BET), (PASS, BET, BET), *FOLDS)
DECIDING = ((), (PASS,), (BET,), (PASS, BET))


class KuhnState:
    """The deal (player 0's card, player 1's card) and the actions so far."""

    __slots__ = ("cards", "history")

    def __init__(self, cards: tuple[int, int], history: tuple[int, ...] = ()) -> None:
        self.cards = cards
        self.history = history


def deal(seed: int) -> KuhnState:
    """KP-DEAL-1: shuffle the three cards with the seeded generator, one to each player."""
    deck = list(range(len(CARDS)))
    SplitMix64(seed).shuffle(deck)
    return KuhnState((deck[0], deck[1]))


def undealt(state: KuhnState) -> int:
    """KP-DEAL-1: the card nobody holds."""
    return ({0, 1, 2} - set(state.cards)).pop()


def is_over(state: KuhnState) -> bool:
    return state.history in TERMINAL


def is_showdown(state: KuhnState) -> bool:
    """KP-END-1: the game ended with both cards turned up (not by a fold)."""
    return is_over(state) and state.history not in FOLDS


def to_move(state: KuhnState) -> int:
    """KP-BET-1: the players alternate, player 0 first."""
    return len(state.history) % 2


def legal_actions(state: KuhnState) -> list[int]:
    """KP-BET-1/2: PASS or BET at every decision; nothing once the game is over."""
    return [] if is_over(state) else [PASS, BET]


def play(state: KuhnState, action: int) -> None:
    """Add a legal action to the history."""
    state.history = (*state.history, action)


def payoff(state: KuhnState) -> tuple[float, float]:
    """KP-END-1: what each player wins at the end (zero-sum): the antes, and the bets called."""
    if state.history in FOLDS:
        won = 1.0 if to_move(state) == 0 else -1.0  # the one who did not fold acts next
    else:
        stake = 2.0 if BET in state.history else 1.0
        won = stake if state.cards[0] > state.cards[1] else -stake
    return won, -won
