"""Per-rule tests of the decision protocol: who decides what, and when (ER-ENV-2, -3, -4, -6,
-7).
"""

from __future__ import annotations

from reborn_env.games.earth_reborn.rules.engine import new_game
from tests.earth_reborn.helpers import (
    END_MOVES,
    WOODEN_WEST,
    char,
    decider,
    door_state,
    duel_scenario,
    final_position,
    legal,
    load,
    move_tiles,
    pile,
    place,
    play,
    position,
    section_cp,
    tiles,
    xy,
)

# --- Decision protocol (ER-ENV-2, -3, -4, -6, -7) ------------------------------------------------


def test_round_level_decisions_and_which_end_the_round():
    """ER-ENV-2: ACTIVATE, DRAW_BAG, PICK_DISCARD then CHOOSE_DISCARD, PASS (REACTIVATE once all
    are engaged); DRAW_BAG, CHOOSE_DISCARD and PASS end the round at once, ACTIVATE does not."""
    pos = position(active="norad")
    move_tiles(pos, ["T13", "T14"], "bag")
    move_tiles(pos, ["T12"], "discard")
    pos["players"]["norad"]["cp"] = 3
    state = load(pos)
    assert legal(state) == {
        "ACTIVATE(bolter)",
        "ACTIVATE(vasquez)",
        "DRAW_BAG",
        "PICK_DISCARD",
        "PASS",
    }
    for action in ("DRAW_BAG", "PASS"):
        s = state.clone()
        play(s, action)
        assert s.decision == "round" and decider(s) == "salemite"
    s = state.clone()
    play(s, "PICK_DISCARD")
    assert s.decision == "choose_discard" and decider(s) == "norad"
    assert legal(s) == {"CHOOSE_DISCARD(T12)"}
    play(s, "CHOOSE_DISCARD(T12)")
    assert s.decision == "round" and decider(s) == "salemite"
    s = state.clone()
    play(s, "ACTIVATE(bolter)")
    assert s.decision == "activation" and decider(s) == "norad"

    move_tiles(pos, ["T01"], "char:bolter")
    place(pos, "bolter", engaged=True)
    place(pos, "vasquez", engaged=True)
    assert legal(load(pos)) == {"REACTIVATE(bolter)", "DRAW_BAG", "PICK_DISCARD", "PASS"}


def test_decisions_with_nothing_in_progress():
    """ER-ENV-3: after ACTIVATE: ASSIGN (first decision only), MOVE_CP, SELECT_ORDER, RELOAD,
    SAW_DOOR, END_ROUND, exactly as the position allows."""
    pos = position(active="norad")
    place(pos, "vasquez", (3, 3), "E", weapon_ready=False)
    place(pos, "zombie", (4, 3), "W")
    move_tiles(pos, ["T01", "T02"], "hand:norad")
    pos["players"]["norad"]["cp"] = 6
    state = load(pos)
    play(state, "ACTIVATE(vasquez)")
    assert legal(state) == {"ASSIGN(T01)", "ASSIGN(T02)", "RELOAD", "END_ROUND"}
    play(state, "ASSIGN(T01)")
    assert legal(state) == {"MOVE_CP(0)", "SELECT_ORDER(1)", "RELOAD", "END_ROUND"}
    play(state, "RELOAD")
    assert legal(state) == {"MOVE_CP(0)", "SELECT_ORDER(1)", "SELECT_ORDER(2)", "END_ROUND"}

    pos = position(active="salemite")
    place(pos, "jack_saw", (4, 2), "N")
    move_tiles(pos, ["T03"], "hand:salemite")
    pos["players"]["salemite"]["cp"] = 3
    state = load(pos)
    play(state, "ACTIVATE(jack_saw)")
    assert legal(state) == {"ASSIGN(T03)", "SAW_DOOR(N)", "END_ROUND"}
    play(state, "SAW_DOOR(N)")
    assert legal(state) == {"END_ROUND"}


def test_decisions_during_a_move_order():
    """ER-ENV-4 (ER-MOV-3): STEP, OPEN, CLOSE, MOVE_CP, END_MOVE in a Move order; STEP, OPEN and
    CLOSE need at least 1 MVP."""
    pos = position(active="norad")
    place(pos, "bolter", (1, 2), "E")
    move_tiles(pos, ["T17"], "hand:norad")  # M1k M1k C2r F2g
    pos["players"]["norad"]["cp"] = 5
    state = load(pos)
    play(state, "ACTIVATE(bolter)", "ASSIGN(T17)", "MOVE_CP(0)")
    assert state.mvp == 4
    assert legal(state) == {"STEP(N)", "STEP(S)", "STEP(W)", "OPEN(E)", "MOVE_CP(1)"} | END_MOVES
    play(state, "OPEN(E)")
    assert state.mvp == 3 and door_state(state, WOODEN_WEST) == "open"
    assert (
        legal(state)
        == {
            "STEP(N)",
            "STEP(E)",
            "STEP(S)",
            "STEP(W)",
            "CLOSE(E)",
            "MOVE_CP(1)",
        }
        | END_MOVES
    )
    play(state, "STEP(E)", "STEP(W)", "CLOSE(E)")
    assert state.mvp == 0 and xy(state, "bolter") == (1, 2)
    assert door_state(state, WOODEN_WEST) == "closed"
    assert legal(state) == {"MOVE_CP(1)"} | END_MOVES  # no OPEN(E) without MVP
    play(state, "MOVE_CP(1)")
    assert state.mvp == 4
    assert legal(state) == {"STEP(N)", "STEP(S)", "STEP(W)", "OPEN(E)"} | END_MOVES


def test_section_ids_follow_assignment_order_and_earlier_tiles_stay_usable():
    """ER-ENV-6, ER-ORD-3: a tile assigned in a later round is slot 1 (section ids 4..7); the tile
    of slot 0 stays assigned and its sections take CP in the later round; all leave in the Final
    phase."""
    pos = position(active="norad")
    move_tiles(pos, ["T01", "T05"], "hand:norad")
    pos["players"]["norad"]["cp"] = 6
    state = load(pos)
    play(state, "ACTIVATE(bolter)", "ASSIGN(T01)", "END_ROUND", "PASS")
    play(state, "ACTIVATE(vasquez)", "END_ROUND", "PASS")
    play(state, "REACTIVATE(bolter)", "ASSIGN(T05)")  # M3k M1r C2k F1g
    assert [state.scenario.tiles[a.tile].id for a in char(state, "bolter").tiles] == ["T01", "T05"]
    assert legal(state) == {"MOVE_CP(0)", "MOVE_CP(4)", "MOVE_CP(5)", "END_ROUND"}
    play(state, "MOVE_CP(5)")
    assert section_cp(state, "bolter", 0) == [0, 0, 0, 0]
    assert section_cp(state, "bolter", 1) == [0, 1, 0, 0]
    assert "MOVE_CP(5)" not in legal(state)  # M1r is full
    play(state, "MOVE_CP(0)", "END_MOVE(E)", "MOVE_CP(4)", "END_MOVE(E)", "END_ROUND")
    assert section_cp(state, "bolter", 0) == [1, 0, 0, 0]
    assert section_cp(state, "bolter", 1) == [1, 1, 0, 0]
    play(state, "PASS", "PASS")
    assert state.phase == "final" and char(state, "bolter").tiles == []
    assert pile(state, "discard") == ["T01", "T05"]


def test_final_phase_initiative_and_duel_decisions(tmp_path):
    """ER-ENV-7: MULLIGAN_KEEP / MULLIGAN_REDRAW in turn 1; DISCARD_TILE then KEEP_HAND (only at 5
    or fewer); DUEL_BID(b) for b in 0..CP."""
    state = new_game(seed=1)
    assert state.decision == "mulligan" and decider(state) == "norad"
    assert legal(state) == {"MULLIGAN_KEEP", "MULLIGAN_REDRAW"}

    for held, keep in ((tiles(1, 3), True), (tiles(1, 6), False), ([], True)):
        pos = final_position()
        move_tiles(pos, held, "hand:norad")
        expected = {f"DISCARD_TILE({t})" for t in held} | ({"KEEP_HAND"} if keep else set())
        assert legal(load(pos)) == expected

    state = new_game(duel_scenario(tmp_path), seed=1)
    play(state, "MULLIGAN_KEEP", "MULLIGAN_KEEP")
    assert state.decision == "duel_ask" and decider(state) == "salemite"
    assert legal(state) == {f"DUEL_BID({b})" for b in range(0, 9)}
