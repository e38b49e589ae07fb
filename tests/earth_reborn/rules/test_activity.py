"""Per-rule tests of the activity phase: rounds (ER-ACT-1, -2, -3, -15, -17) and command
points (ER-CP-1, -2, -6, ER-GEN-2, ER-INI-6).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from reborn_env.games.earth_reborn.rules.engine import new_game
from reborn_env.games.earth_reborn.rules.state import GameState
from reborn_env.games.earth_reborn.rules.turn import command_point_income
from tests.earth_reborn.helpers import (
    char,
    cp,
    decider,
    final_position,
    hand,
    keep_both,
    legal,
    load,
    move_tiles,
    place,
    play,
    position,
    random_game,
    section_cp,
    tiles,
)
from tests.earth_reborn.helpers import inject_next as inject

# --- Activity phase: rounds (ER-ACT-1, -2, -3, -15, -17) -----------------------------------------


def test_rounds_are_one_action_each_and_strictly_alternate():
    """ER-ACT-1, -3, -15: a round is one action of one player; the active player makes every
    decision of his round and pays its CP; rounds alternate, passes included."""
    pos = position(active="norad")
    move_tiles(pos, ["T01"], "hand:norad")
    move_tiles(pos, ["T02"], "hand:salemite")
    move_tiles(pos, tiles(3, 24), "bag")
    pos["players"]["norad"]["cp"] = 5
    pos["players"]["salemite"]["cp"] = 5
    state = load(pos)
    actives = []

    def round_start() -> None:
        assert state.decision == "round"
        assert decider(state) == state.scenario.factions[state.active]
        actives.append(decider(state))

    round_start()
    play(state, "DRAW_BAG")  # one action: the round is over at once (cost 1 CP)
    assert cp(state, "norad") == 4
    round_start()
    play(state, "PASS")  # a pass is a round too
    assert cp(state, "salemite") == 5
    round_start()
    # An activation round: every sub-decision is NORAD's until END_ROUND.
    for action in ("ACTIVATE(bolter)", "ASSIGN(T01)", "MOVE_CP(0)", "STEP(S)", "END_MOVE(E)"):
        play(state, action)
        assert decider(state) == "norad" and state.scenario.factions[state.active] == "norad"
        assert state.decision != "round"
    assert cp(state, "norad") == 3  # the active player paid the Move CP
    play(state, "END_ROUND")
    round_start()
    play(state, "ACTIVATE(zombie)", "END_ROUND")
    round_start()
    play(state, "PASS")
    round_start()
    play(state, "PASS")
    assert state.phase == "final"
    assert actives == ["norad", "salemite", "norad", "salemite", "norad", "salemite"]
    assert cp(state, "salemite") == 0 and cp(state, "norad") == 0  # Final phase: CP to the bank


def test_the_initiative_holder_plays_the_first_round():
    """ER-ACT-2: NORAD plays turn 1's first round, Salemite turn 2's (ER-SCN-9)."""
    state = new_game(seed=3)
    play(state, "MULLIGAN_KEEP", "MULLIGAN_KEEP")
    assert state.turn == 1 and state.phase == "activity" and state.decision == "round"
    assert decider(state) == "norad" and state.passes == 0
    play(state, "PASS", "PASS")
    keep_both(state)
    assert state.turn == 2 and state.phase == "activity" and state.decision == "round"
    assert state.scenario.factions[state.initiative] == "salemite"
    assert decider(state) == "salemite" and state.passes == 0
    play(state, "PASS", "PASS")
    keep_both(state)
    assert state.turn == 3 and decider(state) == "norad"


def test_an_attacker_cannot_attack_again_before_the_others_were_activated():
    """ER-ACT-17 (with ER-ACT-6): bolter attacks; NORAD's next round cannot reactivate him until
    vasquez was activated; then he may attack again with a new tile."""
    pos = position(active="norad")
    place(pos, "bolter", (3, 3), "E")
    place(pos, "zombie", (4, 3), "W")
    move_tiles(pos, ["T01", "T16"], "hand:norad")
    pos["players"]["norad"]["cp"] = 9
    state = load(pos)
    play(state, "ACTIVATE(bolter)", "ASSIGN(T01)", "SELECT_ORDER(1)", "CHOOSE_TARGET(E)")
    inject(state, "Y5 Y5 Y5 Y5 Y5 Y5")  # 3 attacker dice, 3 defender dice, all blank
    play(state, "CHOOSE_CP(1)", "END_ROUND", "PASS")
    assert legal(state) == {"ACTIVATE(vasquez)", "PASS"}  # no REACTIVATE(bolter)
    play(state, "ACTIVATE(vasquez)", "END_ROUND", "PASS")
    assert legal(state) == {"REACTIVATE(bolter)", "REACTIVATE(vasquez)", "PASS"}
    play(state, "REACTIVATE(bolter)", "ASSIGN(T16)")
    assert "SELECT_ORDER(5)" in legal(state)  # T16's C2k in slot 1
    play(state, "SELECT_ORDER(5)")
    assert legal(state) == {"CHOOSE_TARGET(E)"}


# --- Command points (ER-CP-1, -2, -6, ER-GEN-2, ER-INI-6) ----------------------------------------


def test_spent_cp_go_onto_a_section_onto_the_card_or_to_the_bank():
    """ER-CP-1: MOVE_CP puts a CP on the section, RELOAD on the card (no section), DRAW_BAG back
    to the bank; the pool pays each one."""
    pos = position(active="norad")
    place(pos, "vasquez", weapon_ready=False)
    move_tiles(pos, ["T01"], "hand:norad")
    move_tiles(pos, ["T20"], "bag")
    pos["players"]["norad"]["cp"] = 5
    state = load(pos)
    play(state, "ACTIVATE(vasquez)", "ASSIGN(T01)", "MOVE_CP(0)")
    assert cp(state, "norad") == 4
    assert section_cp(state, "vasquez", 0) == [1, 0, 0, 0]
    assert char(state, "vasquez").cp_spent == 1
    play(state, "END_MOVE(E)", "RELOAD")
    assert cp(state, "norad") == 3
    assert section_cp(state, "vasquez", 0) == [1, 0, 0, 0]  # not on a section ...
    assert char(state, "vasquez").cp_spent == 2  # ... but on the card
    assert char(state, "vasquez").weapon_ready
    play(state, "END_ROUND", "PASS", "DRAW_BAG")
    assert cp(state, "norad") == 2
    assert [ch.cp_spent for ch in state.chars] == [0, 2, 0, 0, 0]
    assert hand(state, "norad") == ["T20"]


def test_drawing_costs_one_cp_and_picking_from_the_discard_two():
    """ER-CP-2: DRAW_BAG -1 CP, PICK_DISCARD -2 CP, back to the bank (no character pays)."""
    pos = position(active="norad")
    move_tiles(pos, ["T13", "T15"], "bag")
    move_tiles(pos, ["T12", "T14"], "discard")
    pos["players"]["norad"]["cp"] = 3
    state = load(pos)
    play(state, "DRAW_BAG")
    assert cp(state, "norad") == 2
    play(state, "PASS")
    assert "PICK_DISCARD" in legal(state)
    play(state, "PICK_DISCARD")
    assert cp(state, "norad") == 0
    play(state, "CHOOSE_DISCARD(T14)")
    assert len(hand(state, "norad")) == 2 and "T14" in hand(state, "norad")
    assert all(ch.cp_spent == 0 for ch in state.chars)
    broke = copy.deepcopy(pos)
    broke["players"]["norad"]["cp"] = 1
    assert "DRAW_BAG" in legal(load(broke)) and "PICK_DISCARD" not in legal(load(broke))
    broke["players"]["norad"]["cp"] = 0
    assert "DRAW_BAG" not in legal(load(broke))


@pytest.mark.parametrize(
    ("changes", "income"),
    [
        ({}, (9, 8)),
        ({"bolter": {"side": "wounded"}}, (8, 8)),
        ({"vasquez": {"side": "wounded"}}, (8, 8)),
        ({"bolter": {"side": "wounded"}, "vasquez": {"dead": True}}, (7, 8)),
        ({"vasquez": {"dead": True}}, (8, 8)),
        ({"deeler": {"side": "wounded"}}, (9, 8)),
        ({"deeler": {"dead": True}}, (9, 7)),
        ({"jack_saw": {"dead": True}, "zombie": {"side": "wounded"}}, (9, 8)),
    ],
)
def test_income_adds_the_bonus_cp_of_the_shown_side_of_living_cards(changes, income):
    """ER-CP-6, ER-INI-6 (ER-INI-5): turn-2 income = base + Bonus CP of each living card's shown
    side (bolter 2/1, vasquez 1/0, deeler 1/1, jack_saw and zombie 0); dead cards give none."""
    pos = final_position(turn=1)
    for cid, fields in changes.items():
        place(pos, cid, **fields)
    state = load(pos)
    keep_both(state)
    assert state.turn == 2 and state.phase == "activity"
    assert (cp(state, "norad"), cp(state, "salemite")) == income


def test_the_bank_is_unlimited_income_is_paid_whatever_was_spent():
    """ER-GEN-2 (ER-INI-5, ER-CP-5): at every turn's first round each pool is exactly that turn's
    income, however many CP went to the bank before; income never runs short."""
    checked = 0
    spent_to_zero = 0
    for seed in range(4):
        previous: dict[str, Any] = {"phase": None, "turn": 0}

        def hook(state: GameState, previous: dict[str, Any] = previous) -> None:
            nonlocal checked, spent_to_zero
            if state.phase == "activity" and previous["phase"] != "activity":
                for p in (0, 1):
                    assert state.cp[p] == command_point_income(state, p)
                checked += 1
            if state.phase == "activity" and 0 in state.cp:
                spent_to_zero += 1
            previous["phase"] = state.phase

        random_game(seed, hook=hook)
    assert checked >= 8
    assert spent_to_zero > 0  # pools really were emptied into the bank along the way
