"""Per-rule tests of orders (ER-ORD-2, -4, -5, -6, -9, -11, -12), interacting and searching
(ER-INT-1, ER-SRCH-1).
"""

from __future__ import annotations

from typing import Any

import pytest

from reborn_env.games.earth_reborn.positions import state_to_dict
from reborn_env.games.earth_reborn.rules.state import GameState
from tests.earth_reborn.helpers import (
    END_MOVES,
    char,
    cp,
    decider,
    legal,
    load,
    move_tiles,
    place,
    play,
    position,
    section_cp,
    tiles,
    xy,
)
from tests.earth_reborn.helpers import inject_next as inject

# --- Interact, Search (ER-INT-1, ER-SRCH-1) ------------------------------------------------------


def step_onto_then_select_order_3(
    state: GameState, cid: str, tile: str, way: str, square: tuple[int, int]
) -> None:
    """``cid`` activates with ``tile``, whose section 3 is not usable yet; one Move step ``way``
    onto ``square`` makes it usable; selected, it offers 1 or 2 CP."""
    play(state, f"ACTIVATE({cid})", f"ASSIGN({tile})")
    assert "SELECT_ORDER(3)" not in legal(state)
    play(state, "MOVE_CP(0)", f"STEP({way})", f"END_MOVE({way})")
    assert xy(state, cid) == square
    assert "SELECT_ORDER(3)" in legal(state)
    play(state, "SELECT_ORDER(3)")
    assert legal(state) == {"CHOOSE_CP(1)", "CHOOSE_CP(2)"}


def test_interact_only_on_a_terminal_extra_cp_add_dice():
    """ER-INT-1 (v1 form ER-INT-3): vasquez's Interact section is usable only on O1; 2 CP on it
    roll TEC 3 + 1 = 4 dice."""
    pos = position(active="norad")
    place(pos, "vasquez", (4, 1), "N")
    move_tiles(pos, ["T07"], "hand:norad")  # M1k C2g F2k I2r
    pos["players"]["norad"]["cp"] = 5
    state = load(pos)
    step_onto_then_select_order_3(state, "vasquez", "T07", "N", (4, 0))
    inject(state, "Y4 Y5 Y6 Y5")
    play(state, "CHOOSE_CP(2)")
    assert state.last_roll == ["Y4", "Y5", "Y6", "Y5"]
    assert state_to_dict(state)["terminals"]["O1"] is False  # 1 < 3
    assert cp(state, "norad") == 2 and section_cp(state, "vasquez", 0) == [1, 0, 0, 2]


@pytest.mark.parametrize(("faces", "found"), [("B1 B1 B3", False), ("B1 B3 B3", True)])
def test_search_only_on_the_cache_extra_cp_add_dice(faces, found):
    """ER-SRCH-1 (v1 form ER-SRCH-2): deeler's Search section is usable only on the cache; 2 CP
    roll SRCH 2 + 1 = 3 black dice; 3 search points take the card."""
    pos = position(active="salemite")
    place(pos, "deeler", (7, 5), "S")
    move_tiles(pos, ["T04"], "hand:salemite")  # M2g C1r F3k S2k
    pos["players"]["salemite"]["cp"] = 6
    state = load(pos)
    step_onto_then_select_order_3(state, "deeler", "T04", "S", (7, 6))
    inject(state, faces)
    play(state, "CHOOSE_CP(2)")
    assert state.last_roll == faces.split()
    assert char(state, "deeler").cards == int(found)
    assert state.cache_full == [not found]


# --- Orders (ER-ORD-2, -4, -5, -6, -9, -11, -12) -------------------------------------------------


def reactivation_position(assigned: list[str], held: list[str]) -> dict[str, Any]:
    """NORAD active; bolter (0,2) and vasquez engaged; ``assigned`` tiles on bolter."""
    pos = position(active="norad")
    place(pos, "bolter", engaged=True)
    place(pos, "vasquez", engaged=True)
    move_tiles(pos, assigned, "char:bolter")
    move_tiles(pos, held, "hand:norad")
    pos["players"]["norad"]["cp"] = 5
    return pos


def test_assign_only_as_the_first_decision():
    """ER-ORD-2: ASSIGN is offered right after REACTIVATE, not after a Move order."""
    state = load(reactivation_position(["T01"], ["T02"]))
    play(state, "REACTIVATE(bolter)")
    assert legal(state) == {"ASSIGN(T02)", "MOVE_CP(0)"}
    play(state, "MOVE_CP(0)", "END_MOVE(E)")
    assert legal(state) == {"MOVE_CP(0)", "END_ROUND"}


def test_at_most_four_tiles_per_character():
    """ER-ORD-4: with 3 tiles bolter may take a 4th; with 4 no ASSIGN is offered."""
    state = load(reactivation_position(tiles(1, 3), ["T05"]))
    play(state, "REACTIVATE(bolter)")
    assert legal(state) == {"ASSIGN(T05)", "MOVE_CP(0)", "MOVE_CP(4)", "MOVE_CP(8)"}
    play(state, "ASSIGN(T05)")
    assert len(char(state, "bolter").tiles) == 4
    state = load(reactivation_position(tiles(1, 4), ["T05"]))
    play(state, "REACTIVATE(bolter)")
    assert legal(state) == {"MOVE_CP(0)", "MOVE_CP(4)", "MOVE_CP(8)", "MOVE_CP(12)"}


def test_a_tile_may_be_assigned_without_cp():
    """ER-ORD-5: T01 assigned with no CP; its sections take CP in a later round."""
    pos = position(active="norad")
    move_tiles(pos, ["T01"], "hand:norad")
    pos["players"]["norad"]["cp"] = 5
    state = load(pos)
    play(state, "ACTIVATE(bolter)", "ASSIGN(T01)", "END_ROUND")
    assert section_cp(state, "bolter", 0) == [0, 0, 0, 0]
    assert cp(state, "norad") == 5 and char(state, "bolter").cp_spent == 0
    play(state, "PASS", "ACTIVATE(vasquez)", "END_ROUND", "PASS", "REACTIVATE(bolter)")
    play(state, "MOVE_CP(0)")
    assert section_cp(state, "bolter", 0) == [1, 0, 0, 0] and cp(state, "norad") == 4


def adjacent_fight(assigned: list[str] | None = None, held: list[str] | None = None) -> GameState:
    """bolter (3,3) facing E next to the zombie (4,3) facing W; NORAD CP 9."""
    pos = position(active="norad")
    place(pos, "bolter", (3, 3), "E")
    place(pos, "zombie", (4, 3), "W")
    if assigned:
        place(pos, "bolter", engaged=True)
        place(pos, "vasquez", engaged=True)
        move_tiles(pos, assigned, "char:bolter")
    move_tiles(pos, held or [], "hand:norad")
    pos["players"]["norad"]["cp"] = 9
    return load(pos)


def test_an_order_places_cp_on_a_section_of_that_type():
    """ER-ORD-6: SELECT_ORDER on T01's C1k builds a Close Combat (a direction target), on its F2r a
    Shoot (a character target); the CP land on the selected section and it is carried out."""
    state = adjacent_fight(held=["T01"])
    play(state, "ACTIVATE(bolter)", "ASSIGN(T01)")
    shoot = state.clone()
    play(shoot, "SELECT_ORDER(2)")
    assert legal(shoot) == {"CHOOSE_TARGET(zombie)"}
    play(state, "SELECT_ORDER(1)")
    assert legal(state) == {"CHOOSE_TARGET(E)"}
    play(state, "CHOOSE_TARGET(E)")
    assert legal(state) == {"CHOOSE_CP(1)"}
    inject(state, "Y5 Y5 Y5 Y5 Y5 Y5")
    play(state, "CHOOSE_CP(1)")
    assert len(state.last_roll) == 6  # both sides rolled: the combat happened
    assert section_cp(state, "bolter", 0) == [0, 1, 0, 0]
    assert cp(state, "norad") == 8 and char(state, "bolter").cp_spent == 1
    assert "SELECT_ORDER(1)" not in legal(state)


def test_several_cp_on_one_section_are_one_order_two_sections_two_orders():
    """ER-ORD-9: 2 CP on T16's C2k are one combat (4 + 3 dice, one roll); T05's C2k is a second,
    separate order."""
    state = adjacent_fight(assigned=["T16", "T05"])
    play(state, "REACTIVATE(bolter)", "SELECT_ORDER(1)", "CHOOSE_TARGET(E)")
    inject(state, " ".join(["Y5"] * 7))
    play(state, "CHOOSE_CP(2)")
    assert len(state.last_roll) == 7 and state.dice_queue == []
    assert section_cp(state, "bolter", 0) == [0, 2, 0, 0]
    now = legal(state)
    assert "SELECT_ORDER(1)" not in now and "SELECT_ORDER(6)" in now
    play(state, "SELECT_ORDER(6)", "CHOOSE_TARGET(E)")
    inject(state, " ".join(["Y5"] * 6))
    play(state, "CHOOSE_CP(1)")
    assert len(state.last_roll) == 6
    assert section_cp(state, "bolter", 1) == [0, 0, 1, 0]
    assert char(state, "bolter").cp_spent == 3


def test_many_orders_in_one_round():
    """ER-ORD-11: one round of bolter: a move, a close combat, a shot and another move (from the
    same Move section), then END_ROUND."""
    state = adjacent_fight(held=["T01"])
    play(state, "ACTIVATE(bolter)", "ASSIGN(T01)", "MOVE_CP(0)", "STEP(N)", "STEP(S)")
    play(state, "END_MOVE(E)", "SELECT_ORDER(1)", "CHOOSE_TARGET(E)")
    inject(state, " ".join(["Y5"] * 6))
    play(state, "CHOOSE_CP(1)", "SELECT_ORDER(2)", "CHOOSE_TARGET(zombie)")
    inject(state, "Y4 Y4 Y4 Y5 Y5 Y5 Y5")  # distance 9 >= 1; 4 blank damage dice
    play(state, "CHOOSE_CP(1)")
    assert len(state.last_roll) == 7
    play(state, "MOVE_CP(0)", "STEP(W)", "END_MOVE(E)")
    assert "END_ROUND" in legal(state)
    play(state, "END_ROUND")
    assert section_cp(state, "bolter", 0) == [2, 1, 1, 0]
    assert char(state, "bolter").cp_spent == 4 and cp(state, "norad") == 5
    assert xy(state, "bolter") == (2, 3) and decider(state) == "salemite"


def test_a_move_order_must_end_before_anything_else():
    """ER-ORD-12: while vasquez moves, no SELECT_ORDER, RELOAD, ASSIGN or END_ROUND; after
    END_MOVE they are back."""
    pos = position(active="norad")
    place(pos, "vasquez", (3, 3), "E", weapon_ready=False)
    place(pos, "zombie", (4, 3), "W")
    move_tiles(pos, ["T01", "T02"], "hand:norad")
    pos["players"]["norad"]["cp"] = 6
    state = load(pos)
    play(state, "ACTIVATE(vasquez)", "ASSIGN(T01)")
    idle = {"MOVE_CP(0)", "SELECT_ORDER(1)", "RELOAD", "END_ROUND"}
    assert legal(state) == idle
    play(state, "MOVE_CP(0)")
    assert legal(state) == {"STEP(N)", "STEP(S)", "STEP(W)", "MOVE_CP(0)"} | END_MOVES
    play(state, "STEP(N)", "STEP(S)")
    assert legal(state) == {"STEP(N)", "STEP(S)", "STEP(W)", "MOVE_CP(0)"} | END_MOVES
    play(state, "END_MOVE(E)")
    assert legal(state) == idle
