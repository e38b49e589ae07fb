"""The rules engine's front door: start a game, list the legal actions, apply one (section 18).

Actions are the integers of :mod:`actions` (readable names are accepted too). ``apply_action``
checks legality first and raises :class:`IllegalActionError` naming the decision and the legal
choices, leaving the state untouched (ER-ENV-8).
"""

from __future__ import annotations

from ....core.errors import IllegalActionError
from ..scenario.loader import load_scenario
from ..scenario.model import Scenario
from . import activity, movement, orders, turn
from .state import (
    ACTIVATION,
    AIM,
    CHOOSE_DISCARD,
    CP,
    DISCARD,
    DUEL_ANSWER,
    DUEL_ASK,
    GAME_OVER,
    MOVING,
    MULLIGAN,
    ROUND,
    TARGET,
    GameState,
)


def new_game(scenario: Scenario | str = "vault_raid", seed: int = 0) -> GameState:
    """ER-TURN-4 setup, then turn 1 begins; the state waits at the first decision."""
    if isinstance(scenario, str):
        scenario = load_scenario(scenario)
    state = GameState(scenario, seed)
    turn.begin_turn(state)
    return state


# --- Legal actions per decision (ER-ENV-10) -----------------------------------------------------


def _legal_mulligan(state: GameState, out: list[int]) -> None:
    out.append(state.codec.base["MULLIGAN_KEEP"])
    if turn.can_redraw(state, state.decider):
        out.append(state.codec.base["MULLIGAN_REDRAW"])


def _legal_duel(state: GameState, out: list[int]) -> None:
    base = state.codec.base["DUEL_BID"]
    out.extend(base + b for b in range(state.cp[state.decider] + 1))  # 0 = no duel (ER-INI-8)


def _legal_discard(state: GameState, out: list[int]) -> None:
    base = state.codec.base["DISCARD_TILE"]
    hand = state.hands[state.decider]
    out.extend(base + t for t in hand)
    if len(hand) <= state.scenario.hand_limit:
        out.append(state.codec.base["KEEP_HAND"])


_LEGAL = {
    MULLIGAN: _legal_mulligan,
    DUEL_ASK: _legal_duel,
    DUEL_ANSWER: _legal_duel,
    ROUND: activity.legal_round,
    CHOOSE_DISCARD: activity.legal_choose_discard,
    ACTIVATION: orders.legal_activation,
    MOVING: movement.legal_move,
    TARGET: orders.legal_target,
    CP: orders.legal_cp,
    AIM: orders.legal_aim,
    DISCARD: _legal_discard,
    GAME_OVER: lambda state, out: None,
}


def legal_actions(state: GameState) -> list[int]:
    """The exact legal set of the decision in progress, sorted; empty once the game is over."""
    if state._legal is None:
        out: list[int] = []
        _LEGAL[state.decision](state, out)
        out.sort()
        state._legal = out
    return state._legal


# --- Applying an action -------------------------------------------------------------------------

_APPLY = {
    "MULLIGAN_KEEP": lambda s, a: turn.mulligan(s, False),
    "MULLIGAN_REDRAW": lambda s, a: turn.mulligan(s, True),
    "DUEL_BID": turn.duel_bid,
    "ACTIVATE": lambda s, c: activity.activate(s, c, again=False),
    "REACTIVATE": lambda s, c: activity.activate(s, c, again=True),
    "DRAW_BAG": lambda s, a: activity.draw_bag(s),
    "PICK_DISCARD": lambda s, a: activity.pick_discard(s),
    "PASS": lambda s, a: turn.pass_round(s),
    "CHOOSE_DISCARD": activity.choose_discard,
    "ASSIGN": orders.assign,
    "MOVE_CP": orders.move_cp,
    "SELECT_ORDER": orders.select_order,
    "RELOAD": lambda s, a: orders.reload(s),
    "SAW_DOOR": orders.saw_door,
    "END_ROUND": lambda s, a: turn.end_round(s),
    "STEP": movement.step,
    "OPEN": movement.open_door,
    "CLOSE": movement.close_door,
    "GIVE_CARD": lambda s, a: movement.give_card(s),
    "TAKE_CARD": lambda s, a: movement.take_card(s),
    "PICKUP_CARD": lambda s, a: movement.pickup_card(s),
    "END_MOVE": movement.end_move,
    "CHOOSE_TARGET_DIR": orders.choose_target,
    "CHOOSE_TARGET_CHAR": orders.choose_target,
    "CHOOSE_CP": lambda s, i: orders.choose_cp(s, i + 1),
    "CHOOSE_AIM": orders.execute_order,
    "DISCARD_TILE": turn.discard_tile,
    "KEEP_HAND": lambda s, a: turn.keep_hand(s),
}


def describe_decision(state: GameState) -> str:
    """A one-line account of the decision in progress, for error messages and logs."""
    if state.decision == GAME_OVER:
        return "the game is over"
    player = state.scenario.factions[state.decider]
    where = f"turn {state.turn}, {state.phase} phase, decision '{state.decision}' for {player}"
    if state.char >= 0:
        where += f" (activated: {state.scenario.characters[state.char].id})"
    return where


def apply_action(state: GameState, action: int | str) -> None:
    """Apply one legal action (integer or readable name); refuse anything else unchanged."""
    codec = state.codec
    if isinstance(action, str):
        try:
            action = codec.parse(action)
        except ValueError as err:
            raise IllegalActionError(f"{err} ({describe_decision(state)})") from None
    legal = legal_actions(state)
    if action not in legal:
        shown = action if not 0 <= action < codec.size else f"{action} = {codec.name(action)}"
        names = ", ".join(codec.name(a) for a in legal) or "none"
        raise IllegalActionError(
            f"illegal action {shown} at {describe_decision(state)}; legal: {names}"
        )
    kind, arg = codec.decode(action)
    state._legal = None
    state.last_roll = []
    state.steps += 1
    if state.decision == ACTIVATION:
        state.round_decisions += 1
    _APPLY[kind](state, arg)
