"""Per-rule tests of doors and magnetic cards (ER-DOOR-1, -11, -13, -14)."""

from __future__ import annotations

from typing import Any

import pytest

from reborn_env.games.earth_reborn.positions import state_to_dict
from reborn_env.games.earth_reborn.rules.engine import new_game
from reborn_env.games.earth_reborn.rules.state import DOOR_STATES
from reborn_env.games.earth_reborn.scenario.model import (
    DOOR_KINDS,
)
from tests.earth_reborn.helpers import (
    END_MOVES,
    VAULT,
    WOODEN_WEST,
    char,
    door,
    door_state,
    legal,
    load,
    move_tiles,
    place,
    play,
    position,
    xy,
)

STORE = "4,4|4,5"  # magnetic wooden door


# --- Doors and magnetic cards (ER-DOOR-1, -11, -13, -14) -----------------------------------------


def test_door_kinds_and_states_of_the_scenario():
    """ER-DOOR-1: five small doors of the four kinds, all closed at the start; states are
    closed, open and destroyed."""
    state = new_game(seed=0)
    doors = state_to_dict(state)["doors"]
    assert {edge: d["kind"] for edge, d in doors.items()} == {
        "4,1|4,2": "magnetic_sliding",
        "1,2|2,2": "wooden",
        "6,2|7,2": "wooden",
        "6,3|7,3": "sliding",
        "4,4|4,5": "magnetic_wooden",
    }
    assert {d["state"] for d in doors.values()} == {"closed"}
    assert DOOR_STATES == ("closed", "open", "destroyed")
    assert set(DOOR_KINDS) == {d["kind"] for d in doors.values()}
    board = state.scenario.board
    for d in board.doors:
        (ax, ay), (bx, by) = board.xy(d.a), board.xy(d.b)
        assert abs(ax - bx) + abs(ay - by) == 1  # a small door: one edge between two squares
        assert d.magnetic is d.kind.startswith("magnetic")
        assert d.sliding is d.kind.endswith("sliding")
    pos = position()
    door(pos, WOODEN_WEST, "open")
    door(pos, VAULT, "destroyed")
    loaded = load(pos)
    assert door_state(loaded, WOODEN_WEST) == "open"
    assert door_state(loaded, VAULT) == "destroyed"
    assert door_state(loaded, STORE) == "closed"


def marker_position(vasquez_at: tuple[int, int], cards_on_marker: int) -> dict[str, Any]:
    """vasquez (not engaged, hand {T05}) and the zombie's dead marker on (4,3) with cards."""
    pos = position(active="norad")
    place(pos, "vasquez", vasquez_at, "E")
    place(pos, "zombie", (4, 3), dead=True, cards=cards_on_marker)
    place(pos, "bolter", cards=2 - cards_on_marker)
    pos["caches"][0]["full"] = False
    move_tiles(pos, ["T05"], "hand:norad")
    pos["players"]["norad"]["cp"] = 5
    return pos


def test_pickup_card_from_a_dead_marker_one_card_each():
    """ER-DOOR-11: passing a dead marker with 2 cards, PICKUP_CARD (0 MVP) takes one card each
    time; not offered off the marker or once it is empty."""
    state = load(marker_position((3, 3), 2))
    play(state, "ACTIVATE(vasquez)", "ASSIGN(T05)", "MOVE_CP(0)")
    assert "PICKUP_CARD" not in legal(state)
    play(state, "STEP(E)")
    assert xy(state, "vasquez") == (4, 3) and state.mvp == 4
    assert "PICKUP_CARD" in legal(state)
    play(state, "PICKUP_CARD")
    assert (char(state, "vasquez").cards, char(state, "zombie").cards) == (1, 1)
    assert state.mvp == 4
    assert "PICKUP_CARD" in legal(state)
    play(state, "PICKUP_CARD")
    assert (char(state, "vasquez").cards, char(state, "zombie").cards) == (2, 0)
    assert "PICKUP_CARD" not in legal(state)
    play(state, "STEP(E)")
    assert "PICKUP_CARD" not in legal(state)
    play(state, "END_MOVE(E)")
    assert char(state, "vasquez").cards == 2


def test_pickup_card_on_the_square_where_the_move_order_began():
    """ER-DOOR-11: vasquez already stands on the marker: PICKUP_CARD is legal as soon as a Move
    order starts there (not before: no Move order in progress)."""
    state = load(marker_position((4, 3), 1))
    play(state, "ACTIVATE(vasquez)")
    assert "PICKUP_CARD" not in legal(state)
    play(state, "ASSIGN(T05)")
    assert "PICKUP_CARD" not in legal(state)
    play(state, "MOVE_CP(0)")
    assert "PICKUP_CARD" in legal(state)
    play(state, "PICKUP_CARD")
    assert (char(state, "vasquez").cards, char(state, "zombie").cards) == (1, 0)
    assert state.mvp == 5
    assert "PICKUP_CARD" not in legal(state)


def test_pickup_card_at_zero_mvp_by_the_other_faction():
    """ER-DOOR-11 (ER-DOOR-13): the Wounded zombie (MOV 2) ends its last MVP on bolter's dead
    marker: PICKUP_CARD is still legal at 0 MVP, and a Salemite takes NORAD's card."""
    pos = position(active="salemite")
    place(pos, "bolter", (4, 3), dead=True)
    place(pos, "zombie", (2, 3), "E", side="wounded")
    move_tiles(pos, ["T03"], "hand:salemite")  # M1r
    pos["players"]["salemite"]["cp"] = 4
    state = load(pos)
    play(state, "ACTIVATE(zombie)", "ASSIGN(T03)", "MOVE_CP(0)")
    assert state.mvp == 2
    play(state, "STEP(E)", "STEP(E)")
    assert state.mvp == 0 and xy(state, "zombie") == (4, 3)
    assert legal(state) == {"PICKUP_CARD"} | END_MOVES
    play(state, "PICKUP_CARD")
    assert (char(state, "zombie").cards, char(state, "bolter").cards) == (1, 0)
    assert legal(state) == END_MOVES


@pytest.mark.parametrize("cards", [0, 1, 2])
def test_a_salemite_carries_and_uses_a_magnetic_card(cards):
    """ER-DOOR-13: any faction may carry cards (several, weightless): the zombie with a card opens
    the vault's magnetic sliding door; without one it cannot."""
    pos = position(active="salemite")
    place(pos, "zombie", (4, 2), "S")
    place(pos, "bolter", cards=max(0, 1 - cards))
    place(pos, "zombie", cards=cards)
    pos["caches"][0]["full"] = cards < 2
    move_tiles(pos, ["T09"], "hand:salemite")
    pos["players"]["salemite"]["cp"] = 4
    state = load(pos)
    play(state, "ACTIVATE(zombie)", "ASSIGN(T09)", "MOVE_CP(0)")
    assert state.mvp == 3  # MOV 3 whatever it carries
    assert ("OPEN(N)" in legal(state)) is (cards > 0)
    if cards:
        play(state, "OPEN(N)", "STEP(N)", "END_MOVE(N)", "END_ROUND")
        assert xy(state, "zombie") == (4, 1)
        assert door_state(state, VAULT) == "closed"  # sliding: closed at the round's end
        assert char(state, "zombie").cards == cards


def test_no_shooting_at_doors_shoot_targets_are_characters_only():
    """ER-DOOR-14: a closed door is a Close Combat target, never a Shoot target; walls are no
    target at all."""
    # bolter faces the closed wooden door, no enemy in sight: Close Combat yes, Shoot no.
    pos = position(active="norad")
    place(pos, "bolter", (1, 2), "E")
    move_tiles(pos, ["T01"], "hand:norad")
    pos["players"]["norad"]["cp"] = 5
    state = load(pos)
    play(state, "ACTIVATE(bolter)", "ASSIGN(T01)")
    assert legal(state) == {"MOVE_CP(0)", "SELECT_ORDER(1)", "END_ROUND"}
    play(state, "SELECT_ORDER(1)")
    assert legal(state) == {"CHOOSE_TARGET(E)"}

    # Under the vault door with the zombie in sight: the Shoot order offers only the zombie.
    pos = position(active="norad")
    place(pos, "bolter", (4, 2), "N")
    place(pos, "zombie", (6, 2), "W")
    move_tiles(pos, ["T01"], "hand:norad")
    pos["players"]["norad"]["cp"] = 5
    state = load(pos)
    play(state, "ACTIVATE(bolter)", "ASSIGN(T01)")
    assert {"SELECT_ORDER(1)", "SELECT_ORDER(2)"} <= legal(state)
    cc = state.clone()
    play(cc, "SELECT_ORDER(1)")
    assert legal(cc) == {"CHOOSE_TARGET(N)"}
    play(state, "SELECT_ORDER(2)")
    assert legal(state) == {"CHOOSE_TARGET(zombie)"}

    # Facing a wall with no enemy adjacent: no Close Combat order at all.
    pos = position(active="norad")
    place(pos, "bolter", (1, 4), "E")
    place(pos, "vasquez", (0, 6), "E")
    move_tiles(pos, ["T01"], "hand:norad")
    pos["players"]["norad"]["cp"] = 5
    state = load(pos)
    play(state, "ACTIVATE(bolter)", "ASSIGN(T01)")
    assert legal(state) == {"MOVE_CP(0)", "END_ROUND"}
