"""Per-rule haven tests of abilities (section 7, HV-ABL-*)."""

from __future__ import annotations

import pytest

from tests.haven.helpers import (
    BOTTOM,
    BOX,
    CARD,
    DEFAULT,
    FAR_MARAUDER,
    HEX,
    LEAD,
    NO,
    OTHER,
    PRINTED,
    TOP,
    YES,
    cards_in_order,
    cell,
    char,
    coins,
    conditions,
    conjurer_c06_game,
    element,
    events_of,
    expect,
    hp,
    mon,
    monster,
    new,
    play,
    pos,
    summon,
    wisp,
)

# =================================================================================================
# 7: abilities (HV-ABL-*)


@pytest.mark.parametrize("ally", ["conjurer", "wisp"])
def test_abl_1_move_destinations(ally):
    """HV-ABL-1, HV-MAP-4, HV-STURN-5: Move 2 from (0,4) with an ally (the Conjurer or its Wisp)
    on (1,4) and a Marauder on (0,3): the mover passes through its ally but not the enemy and
    ends only on empty cells: (0,5) (2,4) (1,3) (1,5) (0,6) (1,6); (2,4) and (1,3) only via
    the ally, (0,2)/(1,2) only via the enemy."""
    characters = {"bulwark": {"cell": [0, 4], "played": ["B01", "B02"]}}
    if ally == "conjurer":
        characters["conjurer"] = {"cell": [1, 4]}
        summons = []
    else:
        characters["conjurer"] = {"cell": [8, 0]}
        summons = [wisp(1, 4)]
    game = new(
        {
            "sequence": ["bulwark"],
            "characters": characters,
            "summons": summons,
            "monsters": [mon("marauder", 1, 0, 3)],
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, BOTTOM, PRINTED)))
    legal = {HEX(0, 5), HEX(2, 4), HEX(1, 3), HEX(1, 5), HEX(0, 6), HEX(1, 6), NO}
    expect(game, "MOVE_DEST", "bulwark", legal=legal)
    game.apply(HEX(1, 3))
    assert pos(game, "bulwark") == cell(1, 3)
    assert [(e.data["from"], e.data["to"]) for e in events_of(game, "MOVE")] == [
        (cell(0, 4), cell(1, 3))
    ]


def test_abl_2_target_n_one_target_at_a_time():
    """HV-ABL-2, HV-BOX-11 step 3, HV-MAP-8: C06 (Attack 2, Range 3, Target 2) from (5,3): valid
    targets need R <= 3 and LOS; the first target is resolved (HP 5 -> 3) before the second prompt,
    which no longer offers it; after two targets no third prompt; C06 goes to lost."""
    game = conjurer_c06_game()
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)))
    expect(game, "ATTACK_TARGET", "conjurer", legal={HEX(3, 4), HEX(5, 0), NO})
    game.apply(HEX(3, 4))
    assert hp(game, "marauder#2") == 3  # 2 + 0
    expect(game, "ATTACK_TARGET", legal={HEX(5, 0), NO})
    assert game.prompt.targets == (cell(3, 4),)
    game.apply(HEX(5, 0))
    assert hp(game, "slinger#1") == 1  # 2 + 1
    expect(game, "WINDOW_1")
    assert cards_in_order(game, "conjurer", "lost") == ["C06"]


def test_abl_2_target_n_stops_when_no_target_left():
    """HV-ABL-2, HV-BOX-11 step 3: with only one valid target the Target 2 attack asks once."""
    game = conjurer_c06_game(slinger=False)
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)), ("ATTACK_TARGET", HEX(3, 4)))
    expect(game, "WINDOW_1")
    assert len(events_of(game, "ATTACK")) == 1


def test_abl_3_heal_self_only():
    """HV-ABL-3: B04 bottom 'Heal 2, self' offers only the Bulwark's own hex even with a hurt ally
    adjacent; 5 -> 7."""
    game = new(
        {
            "sequence": ["bulwark"],
            "characters": {
                "bulwark": {"cell": [2, 2], "hp": 5, "played": ["B04", "B01"]},
                "conjurer": {"cell": [2, 3], "hp": 3},
            },
            "monsters": [FAR_MARAUDER],
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, BOTTOM, PRINTED)))
    expect(game, "HEAL_TARGET", "bulwark", legal={HEX(2, 2), NO})
    game.apply(HEX(2, 2))
    assert hp(game, "bulwark") == 7 and hp(game, "conjurer") == 3


def test_abl_3_stu_5_heal_range():
    """HV-ABL-3, HV-STURN-5: C05 bottom 'Heal 2, Range 3' offers the Conjurer, the Bulwark (R 2)
    and the Wisp (R 1), not the adjacent Marauder (an enemy) nor the second Wisp at R 4;
    healing the Wisp 2 -> 4."""
    game = new(
        {
            "sequence": ["conjurer"],
            "characters": {
                "conjurer": {"cell": [2, 4], "played": ["C05", "C01"]},
                "bulwark": {"cell": [4, 4], "hp": 5},
            },
            "summons": [wisp(2, 5, hp=2), wisp(6, 4, hp=1)],
            "monsters": [mon("marauder", 1, 1, 4, hp=3)],
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, BOTTOM, PRINTED)))
    expect(game, "HEAL_TARGET", "conjurer", legal={HEX(2, 4), HEX(4, 4), HEX(2, 5), NO})
    game.apply(HEX(2, 5))
    assert hp(game, "ember_wisp#1") == 4 and hp(game, "bulwark") == 5


def test_abl_4_shields_add_up():
    """HV-ABL-4, HV-ATK-1 step 4: a shield of 1 already gained this round, B02 top (Shield 2) and
    B09 bottom (Shield 1) add up to 4; the elite Marauder's MA2 attack 3 + '+2' = 5 deals 1."""
    game = new(
        {
            "sequence": ["bulwark", "marauder"],
            "characters": {
                "bulwark": {"cell": [2, 2], "played": ["B02", "B09"], "shield": 1},
                "conjurer": {"cell": [0, 6]},
            },
            "monsters": [mon("marauder", 3, 3, 2, rank="elite")],
            "monster_cards": {"marauder": "MA2"},
            "monster_amd": ["+2"],
        }
    )
    play(
        game,
        ("WINDOW_0", BOX(LEAD, TOP, PRINTED)),
        ("WINDOW_1", BOX(OTHER, BOTTOM, PRINTED)),
        ("MOVE_DEST", NO),
        ("WINDOW_2", NO),
    )
    assert char(game, "bulwark").shield == 4
    assert cards_in_order(game, "bulwark", "round_bonus") == ["B02", "B09"]
    expect(game, "DAMAGE_RESPONSE", "bulwark")
    assert game.prompt.value == 1
    game.apply(NO)
    assert hp(game, "bulwark") == 9


def test_abl_5_retaliate():
    """HV-ABL-5: Retaliate 1 (earlier) + B06's Retaliate 2 = 3 hits the adjacent elite Marauder
    after its attack (8 -> 5: no modifier card, its shield 1 does not reduce it) but not the
    Slinger attacking from range 3 (SL2: 2+1 = 3)."""
    game = new(
        {
            "sequence": ["bulwark", "slinger", "marauder"],
            "characters": {
                "bulwark": {"cell": [2, 2], "played": ["B02", "B06"], "retaliate": 1},
                "conjurer": {"cell": [0, 6]},
            },
            "monsters": [mon("slinger", 1, 5, 2), mon("marauder", 3, 3, 2, rank="elite")],
            "monster_cards": {"marauder": "MA2", "slinger": "SL2"},
            "monster_amd": ["+0", "+0"],
        }
    )
    play(
        game,
        ("WINDOW_0", BOX(OTHER, TOP, PRINTED)),  # B06 top: Retaliate 2
        ("WINDOW_1", BOX(LEAD, BOTTOM, DEFAULT)),
        ("MOVE_DEST", NO),
        ("WINDOW_2", NO),
    )
    assert char(game, "bulwark").retaliate == 3
    play(game, ("DAMAGE_RESPONSE", NO, "bulwark"))  # Slinger: 3
    assert hp(game, "bulwark") == 7 and hp(game, "slinger#1") == 4
    play(game, ("DAMAGE_RESPONSE", NO, "bulwark"))  # elite Marauder: 3 + 0
    assert hp(game, "bulwark") == 4 and hp(game, "marauder#3") == 5
    assert game.state.monster_amd.discard == ["+0", "+0"]
    assert char(game, "bulwark").amd.discard == []


def test_abl_5_no_retaliate_from_a_dead_figure():
    """HV-ABL-5: the Bulwark (HP 3, Retaliate 2) exhausted by the elite Marauder's attack 3 does
    not retaliate."""
    game = new(
        {
            "sequence": ["marauder"],
            "characters": {
                "bulwark": {"cell": [2, 2], "hp": 3, "retaliate": 2},
                "conjurer": {"cell": [0, 6]},
            },
            "monsters": [mon("marauder", 3, 3, 2, rank="elite")],
            "monster_cards": {"marauder": "MA2"},
            "monster_amd": ["+0"],
        }
    )
    play(game, ("DAMAGE_RESPONSE", NO, "bulwark"))
    assert char(game, "bulwark").exhausted and hp(game, "marauder#3") == 8


def test_abl_6_invisible_self():
    """HV-ABL-6, HV-BOX-9: C04 bottom applies Invisible to the Conjurer automatically (the move
    declined), so the box is performed and C04 goes to lost."""
    game = new(
        {
            "characters": {"conjurer": {"cell": [2, 4], "played": ["C04", "C01"]}},
            "monsters": [FAR_MARAUDER],
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, BOTTOM, PRINTED)), ("MOVE_DEST", NO))
    assert conditions(game, "conjurer") == {"invisible"}
    assert cards_in_order(game, "conjurer", "lost") == ["C04"]


def test_abl_7_summon_placement_and_removal():
    """HV-ABL-7, HV-STURN-5, HV-DMG-1: SUMMON_HEX offers the empty floor neighbours of (3,4)
    ((2,3) (2,5) (3,5); not the obstacle (3,3) or the occupied (2,4)/(4,4)); C03 goes to the
    active area; the Marauder (focusing the Wisp, which precedes its summoner) deals 2 x2 = 4:
    the Wisp is removed with no DAMAGE_RESPONSE, C03 goes to lost and no coin is dropped."""
    game = new(
        {
            "characters": {
                "conjurer": {"cell": [3, 4], "played": ["C03", "C01"]},
                "bulwark": {"cell": [2, 4]},
            },
            "sequence": ["conjurer", "marauder"],
            "monsters": [mon("marauder", 1, 4, 4)],
            "monster_cards": {"marauder": "MA3"},
            "monster_amd": ["x2"],
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)))
    expect(game, "SUMMON_HEX", "conjurer", legal={HEX(2, 3), HEX(2, 5), HEX(3, 5), NO})
    game.apply(HEX(3, 5))
    assert cards_in_order(game, "conjurer", "persistent") == ["C03"] and pos(
        game, "ember_wisp#1"
    ) == cell(3, 5)
    play(game, ("WINDOW_1", BOX(OTHER, BOTTOM, DEFAULT)), ("MOVE_DEST", NO), ("WINDOW_2", NO))
    assert summon(game, 1) is None and events_of(game, "DEATH", figure="ember_wisp#1")
    assert (
        cards_in_order(game, "conjurer", "lost") == ["C03"]
        and cards_in_order(game, "conjurer", "persistent") == []
    )
    assert coins(game) == {} and hp(game, "conjurer") == 7
    assert events_of(game, "DAMAGE", figure="ember_wisp#1")[0].data["amount"] == 4


def test_abl_8_loot_x():
    """HV-ABL-8, HV-LOOT-3: B03 bottom 'Move 2; Loot 1' (move declined) takes, at once, every coin
    and the treasure within range 1 of (2,2), own hex included: 4 coins x 2 + 5 = 13 gold,
    treasure Heal 3 (5 -> 8); the coin at (4,2) (range 2) stays."""
    game = new(
        {
            "characters": {"bulwark": {"cell": [2, 2], "hp": 5, "played": ["B03", "B01"]}},
            "monsters": [FAR_MARAUDER],
            "coins": [[2, 2], [3, 2], [3, 2], [2, 3], [4, 2]],
            "treasures": [{"number": 1, "cell": [1, 2]}],
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, BOTTOM, PRINTED)), ("MOVE_DEST", NO))
    expect(game, "WINDOW_1")
    assert char(game, "bulwark").gold == 13 and hp(game, "bulwark") == 8
    assert coins(game) == {cell(4, 2): 1} and game.state.treasures == {}


def test_abl_10_consume_adds_condition():
    """HV-ABL-10, HV-ABL-12: C08 top (Attack 4, Range 3; consume Fire: add Wound) with Fire
    consumed: 4 + 0 damage (5 -> 1) and the Marauder is wounded; C08 goes to lost."""
    game = new(
        {
            "characters": {"conjurer": {"cell": [2, 4], "played": ["C08", "C01"], "amd": ["+0"]}},
            "monsters": [mon("marauder", 1, 4, 4)],
            "elements": {"fire": "strong"},
        }
    )
    play(
        game,
        ("WINDOW_0", BOX(LEAD, TOP, PRINTED)),
        ("CONSUME", YES),
        ("ATTACK_TARGET", HEX(4, 4)),
    )
    assert hp(game, "marauder#1") == 1 and conditions(game, "marauder#1") == {"wound"}
    assert element(game, "fire") == "inert" and cards_in_order(game, "conjurer", "lost") == ["C08"]


def test_abl_11_dmg_3_self_damage_negatable():
    """HV-ABL-11, HV-BOX-7, HV-DMG-3: B03's self-damage is executed although the attack before it
    could not be (no target), and can be negated by losing a hand card."""
    game = new(
        {
            "characters": {"bulwark": {"cell": [2, 2], "played": ["B03", "B01"]}},
            "monsters": [FAR_MARAUDER],
        }
    )
    play(
        game,
        ("WINDOW_0", BOX(LEAD, TOP, PRINTED)),  # no target in reach: the attack is skipped
        ("DAMAGE_RESPONSE", CARD("B09")),
    )
    assert hp(game, "bulwark") == 10 and cards_in_order(game, "bulwark", "lost") == ["B09", "B03"]


@pytest.mark.parametrize(
    ("amd", "start_hp", "left", "immobilized"),
    [
        ("null", 5, 5, True),  # 0 damage: the condition still applies
        ("+0", 5, 3, True),
        ("+0", 2, None, False),  # killed: no condition
    ],
)
def test_abl_12_added_conditions(amd, start_hp, left, immobilized):
    """HV-ABL-12, HV-ATK-1 step 6: B04 top's Immobilize is applied after the damage, also after a
    null (0 damage), but not to a target the attack killed."""
    game = new(
        {
            "characters": {"bulwark": {"cell": [2, 2], "played": ["B04", "B01"], "amd": [amd]}},
            "monsters": [mon("marauder", 1, 3, 2, hp=start_hp), FAR_MARAUDER | {"standee": 2}],
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)), ("ATTACK_TARGET", HEX(3, 2)))
    if left is None:
        assert monster(game, "marauder#1") is None
    else:
        assert hp(game, "marauder#1") == left
    assert (
        bool(events_of(game, "COND_ADD", figure="marauder#1", condition="immobilize"))
        is immobilized
    )
