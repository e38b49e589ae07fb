"""Adjacency through edges and close-combat arcs on the square grid (ER-MOV-3, ER-LOS-2)."""

from __future__ import annotations

from ..scenario.model import OPEN_EDGE, WALL
from .state import CLOSED, GameState


def step_target(state: GameState, square: int, d: int) -> int:
    """ER-MOV-3: the square adjacent across edge ``d`` (no wall, no closed door), else -1."""
    board = state.scenario.board
    e = board.edge[square][d]
    if e == WALL or (e != OPEN_EDGE and state.doors[e] == CLOSED):
        return -1
    return board.neighbor[square][d]


def closed_door(state: GameState, square: int, d: int) -> int:
    """The id of a closed, intact door on edge ``d`` of ``square``, else -1 (ER-DOOR-2)."""
    e = state.scenario.board.edge[square][d]
    return e if e >= 0 and state.doors[e] == CLOSED else -1


def arc_colour(state: GameState, c: int, d: int) -> int:
    """ER-LOS-2: colour of the close-combat arc on side ``d`` of ``c`` (relative to its facing)."""
    return state.scenario.characters[c].arcs[(d - state.chars[c].facing) % 4]


def occupied_squares(state: GameState) -> list[bool]:
    """Squares holding a living figure (they block LoS, ER-LOS-5)."""
    occ = [False] * len(state.scenario.board.void)
    for ch in state.chars:
        if not ch.dead:
            occ[ch.square] = True
    return occ


def closed_doors(state: GameState) -> list[bool]:
    """Per door: closed (blocks movement and LoS, ER-DOOR-8)."""
    return [s == CLOSED for s in state.doors]
