"""Per-rule tests of movement (ER-MOV-2, -3, -4, -7, -8, -9, -10)."""

from __future__ import annotations

from typing import Any

from reborn_env.games.earth_reborn.rules.state import GameState
from reborn_env.games.earth_reborn.scenario.loader import load_scenario
from reborn_env.games.earth_reborn.scenario.model import (
    DIRECTION_NAMES,
    WALL,
)
from tests.earth_reborn.helpers import (
    END_MOVES,
    char,
    cp,
    decider,
    facing,
    legal,
    load,
    move_tiles,
    place,
    play,
    position,
    section_cp,
    starting,
    xy,
)

# --- Movement (ER-MOV-2, -3, -4, -7, -8, -9, -10) ------------------------------------------------


def test_move_cp_of_two_tiles_merge_into_one_move_order():
    """ER-MOV-2 (ER-ORD-10): MOVE_CP on T01's M3k, three steps, then MOVE_CP on T03's M1r in the
    same order: 1 + 4 = 5 MVP; END_MOVE loses the rest; the next MOVE_CP starts afresh."""
    pos = position(active="norad")
    place(pos, "bolter", (2, 3), "E", engaged=True)
    place(pos, "vasquez", engaged=True)
    move_tiles(pos, ["T01", "T03"], "char:bolter")
    pos["players"]["norad"]["cp"] = 6
    state = load(pos)
    play(state, "REACTIVATE(bolter)", "MOVE_CP(0)", "STEP(E)", "STEP(E)", "STEP(E)")
    assert state.mvp == 1 and xy(state, "bolter") == (5, 3)
    play(state, "MOVE_CP(4)")
    assert state.decision == "move" and state.mvp == 5
    play(state, "STEP(N)", "STEP(W)", "STEP(W)", "STEP(S)")
    assert state.mvp == 1 and xy(state, "bolter") == (3, 3)
    assert section_cp(state, "bolter", 0) == [1, 0, 0, 0]
    assert section_cp(state, "bolter", 1) == [1, 0, 0, 0]
    play(state, "END_MOVE(E)")
    assert state.mvp == 0 and state.decision == "activation"
    play(state, "MOVE_CP(0)")
    assert state.mvp == 4
    assert char(state, "bolter").cp_spent == 3 and cp(state, "norad") == 3


def moving(where: tuple[int, int], face: str = "N", **edits: Any) -> GameState:
    """NORAD active, bolter on ``where`` in a Move order of 4 MVP (T01's M3k)."""
    pos = position(active="norad")
    place(pos, "bolter", where, face)
    for cid, fields in edits.items():
        place(pos, cid, **fields)
    move_tiles(pos, ["T01"], "hand:norad")
    pos["players"]["norad"]["cp"] = 5
    state = load(pos)
    play(state, "ACTIVATE(bolter)", "ASSIGN(T01)", "MOVE_CP(0)")
    assert state.mvp == 4
    return state


def test_steps_are_orthogonal_and_blocked_by_walls_and_closed_doors():
    """ER-MOV-3: a step goes to the square across one side for 1 MVP, never diagonally (only
    N, E, S, W exist); a wall or closed door on that side blocks it."""
    assert DIRECTION_NAMES == ("N", "E", "S", "W")
    state = moving((1, 3))
    assert starting(legal(state), "STEP") == {"STEP(N)", "STEP(E)", "STEP(S)", "STEP(W)"}
    for d, square in (("N", (1, 2)), ("E", (2, 3)), ("S", (1, 4)), ("W", (0, 3))):
        s = state.clone()
        play(s, f"STEP({d})")
        assert xy(s, "bolter") == square and s.mvp == 3
    s = state.clone()
    play(s, "STEP(N)")
    assert "STEP(E)" not in legal(s)  # the closed wooden door (1,2)|(2,2)
    play(s, "OPEN(E)")
    assert "STEP(E)" in legal(s)
    s = state.clone()
    play(s, "STEP(S)")
    assert "STEP(E)" not in legal(s)  # the wall (1,4)|(2,4)


def test_through_friends_never_into_enemies_or_void():
    """ER-MOV-4: bolter may step into vasquez's square, never into the zombie's, never into a void
    square; a dead enemy does not stop him (ER-MOV-9)."""
    state = moving((1, 2), "S", vasquez={"square": [1, 3]}, zombie={"square": [1, 1]})
    assert starting(legal(state), "STEP") == {"STEP(S)", "STEP(W)"}
    state = moving((1, 2), "S", zombie={"square": [1, 1], "dead": True})
    assert "STEP(N)" in legal(state)
    state = moving((3, 0), "W")
    board = state.scenario.board
    assert board.void[board.square(2, 0)]
    assert starting(legal(state), "STEP") == {"STEP(E)", "STEP(S)"}


def test_facing_changes_freely_step_and_end_move_set_it():
    """ER-MOV-7, ER-MOV-8: a Move order with CP and no step turns the figure; STEP(d) faces d;
    END_MOVE(f) sets the final facing; turning costs no MVP; the facing is kept after the
    round."""
    state = moving((0, 2), "E")
    play(state, "END_MOVE(W)")
    assert facing(state, "bolter") == "W" and xy(state, "bolter") == (0, 2)
    assert char(state, "bolter").cp_spent == 1 and cp(state, "norad") == 4
    play(state, "MOVE_CP(0)", "STEP(S)")
    assert facing(state, "bolter") == "S" and state.mvp == 3
    play(state, "STEP(E)")
    assert facing(state, "bolter") == "E" and state.mvp == 2 and xy(state, "bolter") == (1, 3)
    play(state, "END_MOVE(N)")
    assert facing(state, "bolter") == "N" and state.mvp == 0
    play(state, "END_ROUND", "PASS")
    assert facing(state, "bolter") == "N"


def test_dead_markers_never_block_and_may_be_ended_on():
    """ER-MOV-9: bolter steps onto the zombie's dead marker and ends his move there."""
    state = moving((0, 2), "E", zombie={"square": [1, 2], "dead": True})
    assert "STEP(E)" in legal(state)
    play(state, "STEP(E)")
    assert xy(state, "bolter") == (1, 2) == xy(state, "zombie")
    assert legal(state) >= END_MOVES
    play(state, "END_MOVE(S)", "END_ROUND")
    assert xy(state, "bolter") == (1, 2) and decider(state) == "salemite"


def test_no_exit_off_the_map():
    """ER-MOV-10: every edge of the map's border is a wall; from the corner (0,0) only E and S."""
    board = load_scenario().board
    for x in range(board.width):
        for y in range(board.height):
            sq = board.square(x, y)
            if board.void[sq]:
                continue
            for d, (dx, dy) in enumerate(((0, -1), (1, 0), (0, 1), (-1, 0))):
                if not board.on_map(x + dx, y + dy):
                    assert board.edge[sq][d] == WALL
    state = moving((0, 0), "N")
    assert starting(legal(state), "STEP") == {"STEP(E)", "STEP(S)"}
    state = moving((8, 6), "S", zombie={"square": [8, 4]})
    assert starting(legal(state), "STEP") == {"STEP(N)", "STEP(W)"}
