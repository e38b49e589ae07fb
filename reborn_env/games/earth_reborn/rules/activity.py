"""The round-level choices of the activity phase, the seed's rules (ER-ACT-1..17, ER-ENV-2)."""

from __future__ import annotations

from . import tiles
from .orders import activation_actions
from .state import ACTIVATION, CHOOSE_DISCARD, GameState
from .turn import ask, end_round


def reactivation_has_use(state: GameState, c: int) -> bool:
    """ER-ACT-8: a reactivation must be able to do something other than END_ROUND."""
    options: list[int] = []
    activation_actions(state, c, True, options)
    return bool(options)


def legal_round(state: GameState, out: list[int]) -> None:
    """ER-ENV-10 round level: ACTIVATE, REACTIVATE, DRAW_BAG, PICK_DISCARD, PASS."""
    player = state.decider
    base = state.codec.base
    living = state.living(player)
    waiting = [c for c in living if not state.chars[c].engaged]
    out.extend(base["ACTIVATE"] + c for c in waiting)  # ER-ACT-4
    if not waiting:  # ER-ACT-6/-7: every living character activated at least once
        out.extend(base["REACTIVATE"] + c for c in living if reactivation_has_use(state, c))
    if state.cp[player] >= 1 and (state.bag or state.discard):  # ER-ACT-9
        out.append(base["DRAW_BAG"])
    if state.cp[player] >= 2 and state.discard:  # ER-ACT-10
        out.append(base["PICK_DISCARD"])
    out.append(base["PASS"])  # ER-ACT-11


def legal_choose_discard(state: GameState, out: list[int]) -> None:
    """ER-ACT-10: any one tile of the discard pile."""
    base = state.codec.base["CHOOSE_DISCARD"]
    out.extend(base + t for t in state.discard)


def activate(state: GameState, c: int, again: bool) -> None:
    """ER-ACT-4/-6: engage the character (it stays engaged) and open its round (section 7)."""
    state.passes = 0  # ER-ACT-13: a non-pass round breaks the run of passes
    state.chars[c].engaged = True
    state.char = c
    state.reactivation = again
    state.acted = False
    state.round_decisions = 0
    ask(state, ACTIVATION, state.decider)


def draw_bag(state: GameState) -> None:
    """ER-ACT-9 / ER-CP-2: 1 CP to the bank, draw one tile; the round ends."""
    state.passes = 0
    state.cp[state.decider] -= 1
    tiles.draw_from_bag(state, state.decider)
    end_round(state)


def pick_discard(state: GameState) -> None:
    """ER-ACT-10 / ER-CP-2: 2 CP to the bank, then look through the discard pile."""
    state.passes = 0
    state.cp[state.decider] -= 2
    ask(state, CHOOSE_DISCARD, state.decider)


def choose_discard(state: GameState, tile: int) -> None:
    """ER-ACT-10: the chosen tile goes secretly behind the screen; the round ends."""
    tiles.take_from_discard(state, state.decider, tile)
    end_round(state)
