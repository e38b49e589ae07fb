"""Per-rule haven tests of elements (section 10, HV-ELEM-*)."""

from __future__ import annotations

import pytest

from tests.haven.helpers import (
    BOTTOM,
    BOX,
    DEFAULT,
    FAR_MARAUDER,
    HEX,
    ITEM1,
    LEAD,
    NO,
    OTHER,
    PRINTED,
    TOP,
    YES,
    char,
    element,
    events_of,
    expect,
    hp,
    index_of,
    marauder_turn_game,
    mon,
    monster,
    new,
    play,
)

# =================================================================================================
# 10: elements (HV-ELEM-*)


def test_elem_2_cend_3_infusion_pending_until_end_of_turn():
    """HV-ELEM-2, HV-CEND-3, HV-ABL-9: C05 top performed infuses Ice: inert (pending) during the
    turn, strong at its end."""
    game = new(
        {
            "characters": {"conjurer": {"cell": [2, 4], "played": ["C05", "C01"], "amd": ["+0"]}},
            "monsters": [mon("marauder", 1, 4, 4)],
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)), ("ATTACK_TARGET", HEX(4, 4)))
    expect(game, "WINDOW_1")
    assert element(game, "ice") == "inert" and events_of(game, "INFUSE_PENDING", element="ice")
    play(game, ("WINDOW_1", BOX(OTHER, BOTTOM, DEFAULT)), ("MOVE_DEST", NO), ("WINDOW_2", NO))
    assert events_of(game, "ELEMENT", element="ice", state="strong")
    assert index_of(game, "ELEMENT", element="ice", state="strong") < index_of(
        game, "TURN_END", figure="conjurer"
    )


def test_elem_4_waning_element_consumed():
    """HV-ELEM-4, HV-ABL-10: a waning Fire can be consumed: inert at once, C02 gets +2:
    2 + 2 + 0 = 4 (Marauder 5 -> 1)."""
    game = new(
        {
            "characters": {"conjurer": {"cell": [2, 4], "played": ["C02", "C01"], "amd": ["+0"]}},
            "monsters": [mon("marauder", 1, 4, 4)],
            "elements": {"fire": "waning"},
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)), ("CONSUME", YES))
    assert element(game, "fire") == "inert"
    play(game, ("ATTACK_TARGET", HEX(4, 4)))
    assert hp(game, "marauder#1") == 1


def test_elem_4_own_infusion_not_yet_available():
    """HV-ELEM-4, HV-ITEM-4: Fire infused this turn by the Ember Flask is still pending: C02 gets
    no CONSUME prompt (2 + 0 = 2, 5 -> 3); Fire becomes strong at the end of the turn."""
    game = new(
        {
            "characters": {"conjurer": {"cell": [2, 4], "played": ["C02", "C01"], "amd": ["+0"]}},
            "monsters": [mon("marauder", 1, 4, 4)],
        }
    )
    play(game, ("WINDOW_0", ITEM1), ("WINDOW_0", BOX(LEAD, TOP, PRINTED)))
    assert char(game, "conjurer").items[1] == "consumed"
    expect(game, "ATTACK_TARGET", "conjurer")
    play(game, ("ATTACK_TARGET", HEX(4, 4)))
    assert hp(game, "marauder#1") == 3
    play(game, ("WINDOW_1", BOX(OTHER, BOTTOM, DEFAULT)), ("MOVE_DEST", NO), ("WINDOW_2", NO))
    assert events_of(game, "ELEMENT", element="fire", state="strong")


@pytest.mark.parametrize(
    ("first_state", "consumer"), [("disarm", "marauder#3"), ("stun", "marauder#1")]
)
def test_elem_5_monsters_consume_once_per_activation(first_state, consumer):
    """HV-ELEM-5: MA6's Dark (+2) is consumed by the first non-stunned Marauder reaching the line,
    also a disarmed one that cannot attack (elite #3 acts first); a stunned one does not reach it.
    Marauder #1 then attacks with the bonus without consuming again: 2 + 2 + 0 = 4."""
    game = marauder_turn_game(
        "MA6",
        ["+0"],
        more=[mon("marauder", 3, 8, 6, rank="elite", conditions=[first_state])],
        elements={"dark": "strong"},
    )
    play(game, ("DAMAGE_RESPONSE", NO, "bulwark"))
    assert hp(game, "bulwark") == 6
    assert [e.data["figure"] for e in events_of(game, "CONSUME")] == [consumer]
    assert element(game, "dark") == "inert"


@pytest.mark.parametrize("state", ["disarm", "stun"])
def test_elem_6_mend_2_monster_infusion(state):
    """HV-ELEM-6, HV-MEND-2: a disarmed Slinger (SL5) still infuses Dark, which is strong when its
    turn ends, before the next Slinger's turn; a stunned one infuses nothing."""
    game = new(
        {
            "sequence": ["slinger"],
            "characters": {"bulwark": {"cell": [0, 0]}, "conjurer": {"cell": [0, 6]}},
            "monsters": [mon("slinger", 1, 8, 4, conditions=[state]), mon("slinger", 2, 8, 0)],
            "monster_cards": {"slinger": "SL5"},
        }
    )
    next_turn = index_of(game, "TURN_START", figure="slinger#2")
    before = game.events[:next_turn]
    strong = [
        e
        for e in before
        if e.type == "ELEMENT" and e.data == {"element": "dark", "state": "strong"}
    ]
    if state == "disarm":
        assert len(strong) == 1 and events_of(game, "ATTACK", attacker="slinger#1") == []
    else:
        assert strong == [] and [e for e in before if e.type == "INFUSE_PENDING"] == []


def test_elem_6_killed_monster_does_not_infuse():
    """HV-ELEM-6/7: a Slinger killed by retaliation during its attack (before its infuse line)
    infuses nothing. Immobilized next to the Bulwark (Retaliate 2): ranged-adjacent disadvantage
    draws +0/+0: 2 damage; retaliation kills it (HP 1)."""
    game = new(
        {
            "sequence": ["slinger"],
            "characters": {
                "bulwark": {"cell": [2, 2], "retaliate": 2},
                "conjurer": {"cell": [0, 6]},
            },
            "monsters": [mon("slinger", 1, 3, 2, hp=1, conditions=["immobilize"]), FAR_MARAUDER],
            "monster_cards": {"slinger": "SL5"},
            "monster_amd": ["+0", "+0"],
        }
    )
    play(game, ("DAMAGE_RESPONSE", NO, "bulwark"))
    assert hp(game, "bulwark") == 8 and monster(game, "slinger#1") is None
    assert events_of(game, "INFUSE_PENDING") == [] and element(game, "dark") == "inert"


def test_elem_7_exhausted_figure_loses_pending_infusion():
    """HV-ELEM-7, HV-CTURN-4: the Conjurer (HP 1) uses the Ember Flask (Fire pending), attacks the
    Marauder (Retaliate 1) and is exhausted by the retaliation: Fire never becomes strong."""
    game = new(
        {
            "sequence": ["conjurer", "bulwark"],
            "characters": {
                "conjurer": {"cell": [2, 4], "hp": 1, "played": ["C01", "C02"], "amd": ["+0"]},
                "bulwark": {"cell": [1, 2], "played": ["B01", "B02"]},
            },
            "monsters": [mon("marauder", 1, 3, 4, retaliate=1)],
        }
    )
    play(
        game,
        ("WINDOW_0", ITEM1),
        ("WINDOW_0", BOX(LEAD, TOP, DEFAULT)),
        ("ATTACK_TARGET", HEX(3, 4)),
        ("DAMAGE_RESPONSE", NO, "conjurer"),
    )
    assert char(game, "conjurer").exhausted and hp(game, "marauder#1") == 3
    expect(game, "WINDOW_0", "bulwark")
    assert element(game, "fire") == "inert" and game.state.pending_infusions == []
    assert events_of(game, "ELEMENT", element="fire") == []
