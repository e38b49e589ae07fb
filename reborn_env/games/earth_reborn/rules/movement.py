"""The Move order: steps, doors, magnetic-card hand-over and pick-up (sections 8 and 9)."""

from __future__ import annotations

from ..scenario.model import MAGNETIC_WOODEN, WOODEN
from .geometry import closed_door, step_target
from .orders import spending_actions
from .state import ACTIVATION, CLOSED, OPENED, GameState
from .turn import ask


def has_way_out(state: GameState, c: int, square: int, mvp: int) -> bool:
    """ER-MOV-6: alone on ``square``, or 1+ MVP and a free enterable neighbour (no door to open)."""
    if state.figure_at(square, exclude=c) < 0:
        return True
    if mvp < 1:
        return False
    for d in range(4):
        target = step_target(state, square, d)
        if target >= 0 and state.figure_at(target, exclude=c) < 0:
            return True
    return False


def can_step(state: GameState, c: int, d: int) -> bool:
    """ER-MOV-3/-4/-6: an adjacent, enterable square with no living enemy, and no stranding."""
    target = step_target(state, state.chars[c].square, d)
    if target < 0:
        return False
    other = state.figure_at(target, exclude=c)
    if other >= 0 and state.faction_of[other] != state.faction_of[c]:
        return False
    return has_way_out(state, c, target, state.mvp - 1)


def door_toggle_keeps_way_out(state: GameState, c: int, door: int, new_state: int) -> bool:
    """ER-MOV-6 for OPEN/CLOSE: judged with the door already in its new state."""
    old = state.doors[door]
    state.doors[door] = new_state
    ok = has_way_out(state, c, state.chars[c].square, state.mvp - 1)
    state.doors[door] = old
    return ok


def openable_door(state: GameState, c: int, d: int) -> int:
    """ER-DOOR-2/-3: a closed intact door on edge ``d``, magnetic ones only with a card."""
    door = closed_door(state, state.chars[c].square, d)
    if door < 0:
        return -1
    if state.scenario.board.doors[door].magnetic and state.chars[c].cards < 1:
        return -1
    return door


def closable_door(state: GameState, c: int, d: int) -> int:
    """ER-DOOR-4/-5: an open wooden door (plain or magnetic) on edge ``d``; never a sliding one."""
    e = state.scenario.board.edge[state.chars[c].square][d]
    if e < 0 or state.doors[e] != OPENED:
        return -1
    return e if state.scenario.board.doors[e].kind in (WOODEN, MAGNETIC_WOODEN) else -1


def friend_here(state: GameState, c: int) -> int:
    """The friendly living figure sharing the mover's square (ER-DOOR-10), else -1."""
    return state.figure_at(state.chars[c].square, exclude=c)


def marker_with_card(state: GameState, c: int) -> int:
    """ER-DOOR-11: a dead marker on the mover's square with a card on it, else -1."""
    square = state.chars[c].square
    for i, other in enumerate(state.chars):
        if other.dead and other.square == square and other.cards > 0:
            return i
    return -1


def legal_move(state: GameState, out: list[int]) -> None:
    """ER-ENV-4 / ER-ENV-10: the decisions of a Move order in progress."""
    c = state.char
    base = state.codec.base
    if state.mvp >= 1:
        out.extend(base["STEP"] + d for d in range(4) if can_step(state, c, d))
        for d in range(4):
            door = openable_door(state, c, d)
            if door >= 0 and door_toggle_keeps_way_out(state, c, door, OPENED):
                out.append(base["OPEN"] + d)
        for d in range(4):
            door = closable_door(state, c, d)
            if door >= 0 and door_toggle_keeps_way_out(state, c, door, CLOSED):
                out.append(base["CLOSE"] + d)
    spending_actions(state, c, out, moving=True)
    friend = friend_here(state, c)
    if friend >= 0 and not state.transferred:
        if state.chars[c].cards > 0:
            out.append(base["GIVE_CARD"])
        if state.chars[friend].cards > 0:
            out.append(base["TAKE_CARD"])
    if marker_with_card(state, c) >= 0:
        out.append(base["PICKUP_CARD"])
    if friend < 0:
        out.extend(base["END_MOVE"] + f for f in range(4))  # ER-MOV-5


def step(state: GameState, d: int) -> None:
    """ER-MOV-3/-8: 1 MVP to the adjacent square; the figure now faces ``d``."""
    ch = state.chars[state.char]
    ch.square = step_target(state, ch.square, d)
    ch.facing = d
    state.mvp -= 1
    state.transferred = False  # a new entry into a square (ER-DOOR-10)


def open_door(state: GameState, d: int) -> None:
    """ER-DOOR-2: turn to face the door, spend 1 MVP, open it."""
    ch = state.chars[state.char]
    door = closed_door(state, ch.square, d)
    ch.facing = d
    state.mvp -= 1
    state.doors[door] = OPENED
    state.door_opened[door] = True


def close_door(state: GameState, d: int) -> None:
    """ER-DOOR-4: turn to face the wooden door, spend 1 MVP, close it (no card needed)."""
    ch = state.chars[state.char]
    door = state.scenario.board.edge[ch.square][d]
    ch.facing = d
    state.mvp -= 1
    state.doors[door] = CLOSED


def give_card(state: GameState) -> None:
    """ER-DOOR-10: the mover hands one magnetic card to the friend in its square."""
    state.chars[state.char].cards -= 1
    state.chars[friend_here(state, state.char)].cards += 1
    state.transferred = True


def take_card(state: GameState) -> None:
    """ER-DOOR-10: the mover takes one magnetic card from the friend in its square."""
    state.chars[friend_here(state, state.char)].cards -= 1
    state.chars[state.char].cards += 1
    state.transferred = True


def pickup_card(state: GameState) -> None:
    """ER-DOOR-11: take one magnetic card from a dead marker on the mover's square."""
    state.chars[marker_with_card(state, state.char)].cards -= 1
    state.chars[state.char].cards += 1


def end_move(state: GameState, facing: int) -> None:
    """ER-MOV-2/-8: unused MVP are lost; the figure keeps the chosen final facing."""
    state.chars[state.char].facing = facing
    state.mvp = 0
    ask(state, ACTIVATION, state.decider)
