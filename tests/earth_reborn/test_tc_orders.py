"""Section-20 test cases of orders: TC-10 (CP constraints) and TC-11 (interact with a terminal,
search a cache), step for step as the spec writes them. Every "Expected", "Legal now" and
"exactly" of the spec is an assertion here; dice are injected in roll order (ER-DICE-4).
"""

from __future__ import annotations

from typing import Any

import pytest

from reborn_env.games.earth_reborn.positions import state_to_dict
from tests.earth_reborn.helpers import (
    char,
    cp,
    decider,
    hand,
    legal,
    load,
    move_tiles,
    mp,
    place,
    play,
    position,
    section_cp,
    xy,
)
from tests.earth_reborn.helpers import inject_next as inject


def of_kind(names: set[str], kind: str) -> set[str]:
    return {n for n in names if n == kind or n.startswith(kind + "(")}


# =================================================================================================
# TC-10: CP constraints
# =================================================================================================


def tc10_position() -> dict[str, Any]:
    pos = position("norad")
    place(pos, "bolter", (4, 3), "N", side="healthy")
    move_tiles(pos, ["T01", "T16"], "hand:norad")  # T01 M3k C1k F2r I1k; T16 M2k C2k F2r I1k
    place(pos, "vasquez", (0, 4), engaged=True)
    place(pos, "zombie", (4, 2), "S")
    pos["players"]["norad"]["cp"] = 10
    return pos


def test_tc10_cp_constraints_step_by_step():
    """TC-10 steps 1-4: ER-ORD-1 (one tile per round), ER-ORD-7 (section maximum), ER-ORD-8
    (a non-Move section is used up), ER-ORD-10 (Move sections refill while below the maximum),
    ER-MOV-1 (MOV per CP), ER-MOV-2 (MOVE_CP merges into one Move order), ER-CP-3 (MAXCP 6),
    ER-ORD-6 (CP placed on a section), ER-ORD-9 (a second Close Combat section is a second order),
    ER-ORD-12 (no other order during a Move order), ER-ORD-13, ER-ENV-6 (slot 1 = sections 4..7).
    """
    state = load(tc10_position())
    # Step 1.
    play(state, "ACTIVATE(bolter)")
    assert of_kind(legal(state), "ASSIGN") == {"ASSIGN(T01)", "ASSIGN(T16)"}
    play(state, "ASSIGN(T01)")
    assert of_kind(legal(state), "ASSIGN") == set()  # no further ASSIGN this round
    assert hand(state, "norad") == ["T16"]

    # Step 2: C1k against the zombie; CHOOSE_CP offers exactly {1}.
    play(state, "SELECT_ORDER(1)", "CHOOSE_TARGET(N)")
    assert legal(state) == {"CHOOSE_CP(1)"}
    inject(state, "Y5 Y5 Y5 Y5 Y5 Y5")  # bolter 3 (front dark-blue), zombie 3 (front dark-blue)
    play(state, "CHOOSE_CP(1)")
    assert state.last_roll == ["Y5"] * 6
    assert state.dice_queue == []
    assert char(state, "bolter").cp_spent == 1
    assert char(state, "zombie").wounds == 0 and char(state, "bolter").wounds == 0
    assert section_cp(state, "bolter", 0) == [0, 1, 0, 0]
    assert "SELECT_ORDER(1)" not in legal(state)  # used up for the rest of the turn

    # Step 3: three MOVE_CP(0) in one Move order.
    play(state, "MOVE_CP(0)")
    assert state.decision == "move"
    assert state.mvp == 4
    # ER-ORD-12: no other order starts while the Move order lasts (F2r could shoot the zombie).
    assert of_kind(legal(state), "SELECT_ORDER") == set()
    play(state, "MOVE_CP(0)")
    assert state.mvp == 8
    play(state, "MOVE_CP(0)")
    assert state.mvp == 12
    assert section_cp(state, "bolter", 0) == [3, 1, 0, 0]
    assert "MOVE_CP(0)" not in legal(state)  # a fourth would exceed M3k's maximum
    play(state, "END_MOVE(N)")
    assert xy(state, "bolter") == (4, 3)
    assert char(state, "bolter").cp_spent == 4
    assert cp(state, "norad") == 6
    assert "SELECT_ORDER(1)" not in legal(state)
    play(state, "END_ROUND")

    # Step 4.
    assert decider(state) == "salemite"
    play(state, "PASS")
    assert "REACTIVATE(bolter)" in legal(state)
    play(state, "REACTIVATE(bolter)", "ASSIGN(T16)")
    now = legal(state)
    assert "SELECT_ORDER(1)" not in now  # C1k of T01 stays used up
    assert "MOVE_CP(0)" not in now  # M3k of T01 is full
    assert "SELECT_ORDER(5)" in now  # C2k of T16 (slot 1)
    play(state, "SELECT_ORDER(5)", "CHOOSE_TARGET(N)")
    assert legal(state) == {"CHOOSE_CP(1)", "CHOOSE_CP(2)"}
    inject(state, "Y5 Y5 Y5 Y5  Y5 Y5 Y5")  # 3 + 1 striking hard, then the zombie's 3
    play(state, "CHOOSE_CP(2)")
    assert state.last_roll == ["Y5"] * 7
    assert state.dice_queue == []
    assert char(state, "zombie").wounds == 0 and char(state, "bolter").wounds == 0
    assert char(state, "bolter").cp_spent == 6  # = MAXCP
    assert section_cp(state, "bolter", 1) == [0, 2, 0, 0]
    assert cp(state, "norad") == 4
    now = legal(state)
    assert of_kind(now, "MOVE_CP") == set()
    assert of_kind(now, "SELECT_ORDER") == set()
    assert of_kind(now, "RELOAD") == set()
    assert now == {"END_ROUND"}


def tc10_variant_position(norad_hand: list[str]) -> dict[str, Any]:
    pos = tc10_position()
    move_tiles(pos, ["T01", "T16"], "box")
    move_tiles(pos, ["T01"], "char:bolter")
    pos["characters"]["bolter"]["tiles"][0]["cp"] = [3, 1, 0, 0]
    place(pos, "bolter", side="wounded", engaged=True, cp_spent=4)
    pos["players"]["norad"]["cp"] = 5  # 9 of income less the 4 spent: CP 10 is unreachable here
    move_tiles(pos, norad_hand, "hand:norad")
    return pos


def test_tc10_variant_wounded_at_maxcp_can_only_assign():
    """TC-10 step 5: ER-CP-3, -4 (the Wounded side's MAXCP 4 is reached), ER-ACT-8 (a reactivation
    must do something: here only ASSIGN), ER-ORD-1."""
    state = load(tc10_variant_position(["T16"]))
    assert "REACTIVATE(bolter)" in legal(state)
    play(state, "REACTIVATE(bolter)")
    assert legal(state) == {"ASSIGN(T16)"}


def test_tc10_variant_wounded_at_maxcp_empty_hand_not_offered():
    """TC-10 step 5: ER-ACT-8, ER-ENV-10 (REACTIVATE only if the character can do something)."""
    state = load(tc10_variant_position([]))
    assert "REACTIVATE(bolter)" not in legal(state)


# =================================================================================================
# TC-11: interact (terminal) and search (cache)
# =================================================================================================


def tc11a_position() -> dict[str, Any]:
    pos = position("norad")
    pos["players"]["norad"]["cp"] = 9
    place(pos, "vasquez", (4, 0))  # on O1
    move_tiles(pos, ["T07", "T08"], "hand:norad")  # T07 M1k C2g F2k I2r; T08 M2k C1k F1r I2k
    return pos


def try_terminal(faces: str):
    """TC-11(a)/(b): vasquez tries O1 with 1 CP on T07's I2r."""
    state = load(tc11a_position())
    assert not state.hacked[0]
    play(state, "ACTIVATE(vasquez)", "ASSIGN(T07)")
    assert "SELECT_ORDER(3)" in legal(state)
    play(state, "SELECT_ORDER(3)")
    assert state.decision == "cp"  # no target step
    assert legal(state) == {"CHOOSE_CP(1)", "CHOOSE_CP(2)"}
    inject(state, faces)
    play(state, "CHOOSE_CP(1)")
    assert state.last_roll == faces.split()  # TEC 3 + 0 yellow dice
    assert state.dice_queue == []
    assert cp(state, "norad") == 8
    assert char(state, "vasquez").cp_spent == 1
    assert section_cp(state, "vasquez", 0) == [0, 0, 0, 1]
    return state


def test_tc11a_terminal_hacked():
    """TC-11(a): ER-INT-3 (TEC + n - 1 yellow dice, threshold 3, NORAD +3 MP), ER-SCN-10,
    ER-INT-2 (no Interact on a hacked terminal for anyone afterwards)."""
    state = try_terminal("Y2 Y4 Y5")  # 2 + 1 + 0 = 3
    assert state.hacked[0]
    assert not state.hacked[1]
    assert mp(state, "norad") == 3
    assert mp(state, "salemite") == 0
    play(state, "END_ROUND")

    # Anyone else on O1 afterwards: bolter with T08's I2k is not offered an Interact order.
    later = state_to_dict(state)
    place(later, "vasquez", (3, 0))
    place(later, "bolter", (4, 0))
    later.update(active="norad", decision={"kind": "round", "player": "norad"})
    state = load(later)
    play(state, "ACTIVATE(bolter)", "ASSIGN(T08)")
    assert "SELECT_ORDER(3)" not in legal(state)


def test_tc11b_failed_hack_once_per_turn_per_character():
    """TC-11(b): ER-INT-3 (1 < 3: not hacked, CP spent), ER-INT-2 (one try per character per
    turn: vasquez's other Interact section is not offered; bolter on O1 would be; next turn she
    may try again), ER-FIN-2 (per-turn interact memory resets), ER-TILE-8 (assigned tiles go to
    the discard), ER-INI-2 and ER-TILE-6 (turn 2's draw refills the empty bag from the discard),
    ER-ENV-6 (T08 in slot 1: its Interact section is 7)."""
    state = try_terminal("Y5 Y6 Y4")  # 0 + 0 + 1 = 1
    assert not state.hacked[0]
    assert mp(state, "norad") == 0
    play(state, "END_ROUND", "PASS", "ACTIVATE(bolter)", "END_ROUND", "PASS")
    play(state, "REACTIVATE(vasquez)", "ASSIGN(T08)")
    assert xy(state, "vasquez") == (4, 0)
    now = legal(state)
    assert "SELECT_ORDER(7)" not in now  # T08's I2k (slot 1): not offered to her this turn
    assert "SELECT_ORDER(3)" not in now  # T07's I2r: used up
    assert "MOVE_CP(4)" in now  # T08 is assigned and usable
    play(state, "END_ROUND")

    # bolter on O1 (in her place) would be offered it.
    other = state_to_dict(state)
    place(other, "vasquez", (3, 0))
    place(other, "bolter", (4, 0), engaged=False)
    other.update(active="norad", decision={"kind": "round", "player": "norad"})
    move_tiles(other, ["T01"], "hand:norad")  # M3k C1k F2r I1k
    bolter_state = load(other)
    play(bolter_state, "ACTIVATE(bolter)", "ASSIGN(T01)")
    assert "SELECT_ORDER(3)" in legal(bolter_state)

    # Next turn vasquez may try again: play on to turn 2 (both pass; nothing to discard).
    play(state, "PASS")  # Salemite
    play(state, "PASS")  # NORAD: the activity phase ends
    assert state.phase == "final"
    play(state, "KEEP_HAND", "KEEP_HAND")
    assert state.turn == 2 and state.phase == "activity"
    assert decider(state) == "salemite"
    play(state, "PASS")
    assert sorted(hand(state, "norad")) == ["T07", "T08"]
    play(state, "ACTIVATE(vasquez)", "ASSIGN(T07)")
    assert "SELECT_ORDER(3)" in legal(state)


def test_tc11c_salemite_never_interacts():
    """TC-11(c): ER-INT-3 (the terminal condition needs a NORAD character)."""
    pos = position("salemite")
    pos["players"]["salemite"]["cp"] = 8
    place(pos, "deeler", (4, 0))
    move_tiles(pos, ["T07"], "hand:salemite")
    state = load(pos)
    play(state, "ACTIVATE(deeler)", "ASSIGN(T07)")
    assert "SELECT_ORDER(3)" not in legal(state)


def tc11d_position() -> dict[str, Any]:
    pos = position("salemite")
    pos["players"]["salemite"]["cp"] = 8
    place(pos, "deeler", (7, 6))  # on the cache
    move_tiles(pos, ["T02"], "hand:salemite")  # M2k C2r F1k S1k
    return pos


@pytest.mark.parametrize(("faces", "found"), [("B3 B1", False), ("B4 B1", True)])
def test_tc11d_search_the_cache(faces: str, found: bool):
    """TC-11(d): ER-SRCH-2 (SRCH + n - 1 black dice, 3 search points take the cache's item; the
    cache is then empty for good), ER-SCN-6 (the cache holds the second magnetic card)."""
    state = load(tc11d_position())
    play(state, "ACTIVATE(deeler)", "ASSIGN(T02)")
    assert "SELECT_ORDER(3)" in legal(state)
    play(state, "SELECT_ORDER(3)")
    assert state.decision == "cp"  # no target step
    assert legal(state) == {"CHOOSE_CP(1)"}
    inject(state, faces)
    play(state, "CHOOSE_CP(1)")
    assert state.last_roll == faces.split()  # SRCH 2 black dice
    assert state.dice_queue == []
    assert cp(state, "salemite") == 7
    assert char(state, "deeler").cp_spent == 1
    deeler = char(state, "deeler")
    if not found:
        assert state.cache_full == [True]
        assert deeler.cards == 0
        return
    assert deeler.cards == 1
    assert state.cache_full == [False]
    play(state, "END_ROUND")

    # No Search order is offered there again (a fresh Search section, later).
    later = state_to_dict(state)
    later.update(active="salemite", decision={"kind": "round", "player": "salemite"})
    place(later, "deeler", engaged=False, cp_spent=0, tiles=[])
    move_tiles(later, ["T02"], "discard")
    move_tiles(later, ["T04"], "hand:salemite")  # M2g C1r F3k S2k
    state = load(later)
    play(state, "ACTIVATE(deeler)", "ASSIGN(T04)")
    assert xy(state, "deeler") == (7, 6)
    assert "SELECT_ORDER(3)" not in legal(state)
