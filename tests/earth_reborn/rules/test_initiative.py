"""Per-rule tests of the initiative: the optional duel (ER-INI-8, ER-HID-10) and the draws
(ER-INI-2).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from reborn_env.games.earth_reborn.rules.engine import new_game
from reborn_env.games.earth_reborn.rules.state import GameState
from tests.earth_reborn.helpers import (
    blocks,
    cp,
    decider,
    duel_scenario,
    hand,
    keep_both,
    legal,
    load,
    move_tiles,
    pile,
    play,
    position,
    scaled,
    tiles,
    view_bytes,
)

# --- Initiative duel (ER-INI-8, ER-HID-10) -------------------------------------------------------


def duel_game(tmp_path: Path) -> GameState:
    """Turn 1 of the duel scenario at Salemite's DUEL_ASK (NORAD 9 CP holds the marker, Salemite
    8 CP)."""
    state = new_game(duel_scenario(tmp_path), seed=11)
    play(state, "MULLIGAN_KEEP", "MULLIGAN_KEEP")
    assert state.phase == "initiative" and state.decision == "duel_ask"
    assert decider(state) == "salemite"
    assert state.scenario.factions[state.initiative] == "norad"
    assert (cp(state, "norad"), cp(state, "salemite")) == (9, 8)
    return state


def test_duel_asker_bidding_zero_means_no_duel(tmp_path):
    """ER-INI-8: DUEL_BID(0) from the asker is no duel: NORAD keeps the marker, nobody pays, the
    holder is never asked."""
    state = duel_game(tmp_path)
    play(state, "DUEL_BID(0)")
    assert state.phase == "activity" and state.decision == "round"
    assert decider(state) == "norad" and state.scenario.factions[state.initiative] == "norad"
    assert (cp(state, "norad"), cp(state, "salemite")) == (9, 8)


@pytest.mark.parametrize(
    ("ask", "answer", "holder", "cps"),
    [
        (3, 2, "salemite", (7, 5)),  # higher bid takes the marker
        (3, 0, "salemite", (9, 5)),
        (3, 3, "norad", (6, 5)),  # equal bids leave it
        (3, 4, "norad", (5, 5)),
        (8, 9, "norad", (0, 0)),  # whole pools
    ],
)
def test_duel_bids_decide_the_marker_and_are_all_paid(tmp_path, ask, answer, holder, cps):
    """ER-INI-8, ER-HID-10: the asker bids 1..CP, the holder answers 0..CP without seeing it; the
    higher bid takes the marker and plays first, equal leaves it; both bids are paid; once both
    are chosen both bids are public."""
    state = duel_game(tmp_path)
    play(state, f"DUEL_BID({ask})")
    assert state.decision == "duel_answer" and decider(state) == "norad"
    assert legal(state) == {f"DUEL_BID({b})" for b in range(0, 10)}
    assert (cp(state, "norad"), cp(state, "salemite")) == (9, 8)  # nothing paid yet
    assert scaled(blocks(state, "norad")["duel bids: mine, opponent's once revealed"], 40) == [0, 0]
    assert scaled(blocks(state, "salemite")["duel bids: mine, opponent's once revealed"], 40) == [
        ask,
        0,
    ]
    play(state, f"DUEL_BID({answer})")
    assert state.phase == "activity" and state.decision == "round"
    assert state.scenario.factions[state.initiative] == holder
    assert decider(state) == holder
    assert (cp(state, "norad"), cp(state, "salemite")) == cps
    assert scaled(blocks(state, "norad")["duel bids: mine, opponent's once revealed"], 40) == [
        answer,
        ask,
    ]
    assert scaled(blocks(state, "salemite")["duel bids: mine, opponent's once revealed"], 40) == [
        ask,
        answer,
    ]


def test_duel_bids_are_secret_until_both_are_chosen(tmp_path):
    """ER-HID-10: at the holder's answer, asker bids of 1 and 5 give NORAD byte-identical views."""
    first, second = duel_game(tmp_path), duel_game(tmp_path)
    play(first, "DUEL_BID(1)")
    play(second, "DUEL_BID(5)")
    assert view_bytes(first, "norad") == view_bytes(second, "norad")
    assert view_bytes(first, "salemite") != view_bytes(second, "salemite")  # its own bid shows


def test_the_duel_marker_is_for_this_turn_only(tmp_path):
    """ER-INI-8: after Salemite won turn 1's duel, turn 3's Initiative again gives the marker to
    the scenario's holder (NORAD) and Salemite is the asker."""
    state = duel_game(tmp_path)
    play(state, "DUEL_BID(1)", "DUEL_BID(0)")
    assert decider(state) == "salemite"
    play(state, "PASS", "PASS")
    keep_both(state)
    assert state.turn == 2 and state.decision == "duel_ask" and decider(state) == "norad"
    play(state, "DUEL_BID(0)", "PASS", "PASS")
    keep_both(state)
    assert state.turn == 3 and state.decision == "duel_ask" and decider(state) == "salemite"
    assert state.scenario.factions[state.initiative] == "norad"


# --- Initiative draws (ER-INI-2) -----------------------------------------------------------------


def test_a_bag_running_empty_while_drawing_takes_the_discard_back():
    """ER-INI-2 (ER-TILE-6, -7): NORAD needs 3 tiles, the bag holds 1 and the discard 4: it draws
    the bag's tile, the discard goes into the bag, it draws 2 more."""
    pos = position()
    pos.update(phase="final", decision={"kind": "discard", "player": "norad"})
    move_tiles(pos, ["T01", "T02"], "hand:norad")
    move_tiles(pos, tiles(3, 7), "hand:salemite")
    move_tiles(pos, ["T08"], "bag")
    move_tiles(pos, tiles(9, 12), "discard")
    state = load(pos)
    keep_both(state)
    assert state.turn == 2
    drawn = set(hand(state, "norad")) - {"T01", "T02"}
    assert len(drawn) == 3 and "T08" in drawn and drawn - {"T08"} <= set(tiles(9, 12))
    assert len(pile(state, "bag")) == 2 and set(pile(state, "bag")) <= set(tiles(9, 12))
    assert pile(state, "discard") == []
    assert hand(state, "salemite") == tiles(3, 7)
