"""Section-20 test cases of doors: TC-05 (sliding versus wooden) and TC-06 (magnetic sliding door,
handing over the card), step for step as the spec writes them."""

from __future__ import annotations

from typing import Any

from tests.earth_reborn.helpers import (
    char,
    cp,
    decider,
    door_state,
    facing,
    hand,
    legal,
    load,
    move_tiles,
    place,
    play,
    position,
    tiles,
    xy,
)

SLIDING = "6,3|7,3"  # sliding door between the hall and the lab
WOODEN = "6,2|7,2"  # wooden door between the hall and the lab
MAGNETIC_SLIDING = "4,1|4,2"  # the vault door


# --- TC-05: sliding versus wooden doors ----------------------------------------------------------


def tc05_position() -> dict[str, Any]:
    """Turn 1, activity, Salemite active; deeler at (7,3) facing W; Salemite CP 4, hand {T02}.

    The rest of the tiles lie in the bag so that the game can be played on to turn 2 (step 5),
    where Salemite needs a tile (every tile has a Move section, ER-SCN-12).
    """
    pos = position(active="salemite")
    place(pos, "deeler", (7, 3), "W")
    move_tiles(pos, ["T02"], "hand:salemite")
    move_tiles(pos, ["T01", *tiles(3, 24)], "bag")
    pos["players"]["salemite"]["cp"] = 4
    for edge in pos["doors"]:
        assert pos["doors"][edge]["state"] == "closed"
    return pos


def test_tc_05_sliding_door_closes_at_round_end_wooden_door_stays_open():
    """TC-05: ER-DOOR-2, ER-DOOR-4, ER-DOOR-5, ER-DOOR-6, ER-DOOR-7, ER-ACT-14 (also ER-FIN-3)."""
    state = load(tc05_position())
    assert decider(state) == "salemite"

    # 1. A Move order of 4 MVP next to the closed sliding door.
    play(state, "ACTIVATE(deeler)", "ASSIGN(T02)", "MOVE_CP(0)")
    assert state.mvp == 4
    assert cp(state, "salemite") == 3
    now = legal(state)
    assert "OPEN(W)" in now
    assert "CLOSE(W)" not in now
    assert "STEP(W)" not in now
    assert now == {
        "OPEN(W)",
        "STEP(N)",
        "STEP(S)",
        "STEP(E)",  # into jack_saw's (8,3): 3 MVP left and (8,2) free (ER-MOV-6)
        "MOVE_CP(0)",
        "END_MOVE(N)",
        "END_MOVE(E)",
        "END_MOVE(S)",
        "END_MOVE(W)",
    }

    # 2. Open the sliding door: 1 MVP; a sliding door can never be closed by hand (ER-DOOR-5).
    play(state, "OPEN(W)")
    assert state.mvp == 3
    assert door_state(state, SLIDING) == "open"
    assert facing(state, "deeler") == "W"
    assert "CLOSE(W)" not in legal(state)

    # 3. North, open the wooden door, step through it.
    play(state, "STEP(N)")
    assert xy(state, "deeler") == (7, 2)
    assert state.mvp == 2
    assert "OPEN(W)" in legal(state)
    play(state, "OPEN(W)")
    assert state.mvp == 1
    assert door_state(state, WOODEN) == "open"
    assert door_state(state, SLIDING) == "open"  # open until the round ends
    play(state, "STEP(W)")
    assert xy(state, "deeler") == (6, 2)
    assert state.mvp == 0
    play(state, "END_MOVE(S)", "END_ROUND")

    # 4. The round is over: the sliding door shut itself, the wooden one stays open.
    assert door_state(state, SLIDING) == "closed"
    assert door_state(state, WOODEN) == "open"
    assert xy(state, "deeler") == (6, 2)
    assert facing(state, "deeler") == "S"
    assert decider(state) == "norad"

    # 5. Play on to turn 2 without touching that door (ER-DOOR-7, ER-FIN-3).
    play(state, "PASS", "PASS")
    assert state.phase == "final"
    assert door_state(state, WOODEN) == "open"
    assert decider(state) == "norad"  # initiative holder first (ER-FIN-5)
    play(state, "KEEP_HAND")
    assert decider(state) == "salemite"
    play(state, "KEEP_HAND")
    # Turn 2: the draws happen by themselves (no redraw after turn 1); Salemite plays first.
    assert state.turn == 2
    assert state.phase == "activity" and state.decision == "round"
    assert decider(state) == "salemite"
    assert len(hand(state, "salemite")) == 5
    assert door_state(state, WOODEN) == "open"
    assert door_state(state, SLIDING) == "closed"
    assert xy(state, "deeler") == (6, 2)

    tile = hand(state, "salemite")[0]
    play(state, "ACTIVATE(deeler)", f"ASSIGN({tile})", "MOVE_CP(0)")
    assert state.decision == "move"
    mvp = state.mvp
    assert mvp == 4
    assert "CLOSE(E)" in legal(state)
    play(state, "CLOSE(E)")
    assert state.mvp == mvp - 1
    assert door_state(state, WOODEN) == "closed"
    assert facing(state, "deeler") == "E"
    assert "STEP(E)" not in legal(state)


# --- TC-06: magnetic sliding door and handing over the card --------------------------------------


def tc06_position() -> dict[str, Any]:
    pos = position(active="norad")
    place(pos, "bolter", (4, 2), "N", engaged=False)
    place(pos, "vasquez", (3, 2), "E", engaged=True)
    assert pos["characters"]["bolter"]["cards"] == 1
    assert pos["characters"]["vasquez"]["cards"] == 0
    move_tiles(pos, ["T03", "T05"], "hand:norad")
    pos["players"]["norad"]["cp"] = 6
    return pos


def test_tc_06_a_without_hand_over_the_follower_is_locked_out():
    """TC-06 (a) [SEED]: ER-DOOR-3, ER-DOOR-6, ER-ACT-14."""
    state = load(tc06_position())
    play(state, "ACTIVATE(bolter)", "ASSIGN(T03)", "MOVE_CP(0)")
    assert state.mvp == 4
    play(state, "OPEN(N)")
    assert state.mvp == 3
    assert door_state(state, MAGNETIC_SLIDING) == "open"
    play(state, "STEP(N)")
    assert xy(state, "bolter") == (4, 1)
    assert state.mvp == 2
    play(state, "END_MOVE(N)", "END_ROUND")
    assert door_state(state, MAGNETIC_SLIDING) == "closed"

    play(state, "PASS")  # Salemite
    assert decider(state) == "norad"
    play(state, "REACTIVATE(vasquez)", "ASSIGN(T05)", "MOVE_CP(0)")
    assert state.mvp == 5
    play(state, "STEP(E)")
    assert xy(state, "vasquez") == (4, 2)
    now = legal(state)
    assert "OPEN(N)" not in now  # no magnetic card (ER-DOOR-3)
    assert "STEP(N)" not in now  # locked out
    assert char(state, "vasquez").cards == 0
    assert char(state, "bolter").cards == 1


def test_tc_06_b_hand_the_card_over_then_pass_through():
    """TC-06 (b) [SEED]: ER-DOOR-3, ER-DOOR-6, ER-DOOR-10, ER-MOV-5, ER-MOV-6."""
    state = load(tc06_position())
    play(state, "ACTIVATE(bolter)", "ASSIGN(T03)", "MOVE_CP(0)")
    assert state.mvp == 4
    play(state, "OPEN(N)")
    assert state.mvp == 3
    assert door_state(state, MAGNETIC_SLIDING) == "open"

    # Into vasquez's square: legal with 2 MVP left and (4,2) free (ER-MOV-6).
    assert "STEP(W)" in legal(state)
    play(state, "STEP(W)")
    assert xy(state, "bolter") == (3, 2) == xy(state, "vasquez")
    assert state.mvp == 2
    now = legal(state)
    assert not {a for a in now if a.startswith("END_MOVE")}  # ER-MOV-5
    assert "GIVE_CARD" in now
    play(state, "GIVE_CARD")
    assert char(state, "vasquez").cards == 1
    assert char(state, "bolter").cards == 0
    now = legal(state)
    assert "GIVE_CARD" not in now and "TAKE_CARD" not in now  # one transfer per entry

    play(state, "STEP(E)")
    assert xy(state, "bolter") == (4, 2)
    assert state.mvp == 1
    play(state, "STEP(N)")  # the door is open until the round ends
    assert xy(state, "bolter") == (4, 1)
    assert state.mvp == 0
    assert door_state(state, MAGNETIC_SLIDING) == "open"
    play(state, "END_MOVE(N)", "END_ROUND")
    assert door_state(state, MAGNETIC_SLIDING) == "closed"

    play(state, "PASS")  # Salemite
    assert decider(state) == "norad"

    # bolter, without a card now, could not open the door from inside.
    inside = state.clone()
    play(inside, "REACTIVATE(bolter)", "ASSIGN(T05)", "MOVE_CP(4)")  # T05 is slot 1
    assert xy(inside, "bolter") == (4, 1)
    assert "OPEN(S)" not in legal(inside)
    assert "STEP(S)" not in legal(inside)

    play(state, "REACTIVATE(vasquez)", "ASSIGN(T05)", "MOVE_CP(0)", "STEP(E)")
    assert xy(state, "vasquez") == (4, 2)
    assert "OPEN(N)" in legal(state)
    play(state, "OPEN(N)")
    assert door_state(state, MAGNETIC_SLIDING) == "open"
