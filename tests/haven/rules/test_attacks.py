"""Per-rule haven tests of modifier decks and attacks (section 8, HV-AMD-*, HV-ATK-*)."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.haven.helpers import (
    BOX,
    FAR_MARAUDER,
    HEX,
    ITEM0,
    LEAD,
    PRINTED,
    STANDARD_AMD,
    TOP,
    cell,
    char,
    coins,
    conditions,
    drive,
    edited,
    events_of,
    expect,
    hp,
    mon,
    monster,
    new,
    play,
    wisp,
)

# =================================================================================================
# 8: modifier decks and attacks (HV-AMD-*, HV-ATK-*)


def test_amd_2_decks_per_attacker():
    """HV-AMD-2: a summon draws from its owner's deck (Wisp: 2 + 1 on the Marauder, 5 -> 2);
    Marauders and Slingers share the monster deck (MA2 2 - 1 and SL2 3 - 1 on the Wisp, 4 -> 3
    -> 1); the Bulwark's deck is untouched."""
    game = new(
        {
            "sequence": ["summon:1", "marauder", "slinger"],
            "characters": {
                "conjurer": {"cell": [0, 6], "amd": ["+1"]},
                "bulwark": {"cell": [0, 0]},
            },
            "summons": [wisp(3, 4)],
            "monsters": [mon("marauder", 1, 4, 4), mon("slinger", 1, 6, 4)],
            "monster_cards": {"marauder": "MA2", "slinger": "SL2"},
            "monster_amd": ["-1", "-1"],
        }
    )
    drive(game, lambda g: bool(events_of(g, "TURN_END", figure="slinger#1")))
    assert hp(game, "marauder#1") == 2 and hp(game, "ember_wisp#1") == 1
    assert (
        char(game, "conjurer").amd.discard == ["+1"] and len(char(game, "conjurer").amd.draw) == 19
    )
    assert game.state.monster_amd.discard == ["-1", "-1"]
    assert char(game, "bulwark").amd.discard == [] and len(char(game, "bulwark").amd.draw) == 20


def test_amd_4_empty_draw_pile_reshuffles():
    """HV-AMD-4: a character deck whose draw pile is empty shuffles its discard into a new draw
    pile when a card is needed: after one attack 19 cards are in the pile, 1 in the discard."""
    game = new(
        {
            "characters": {"bulwark": {"cell": [2, 2], "played": ["B01", "B02"]}},
            "monsters": [mon("marauder", 1, 3, 2, rank="elite")],
        }
    )
    full = list(char(game, "bulwark").amd.draw)

    def empty_pile(state):
        state["characters"][0]["amd"] = {"draw": [], "discard": full, "shuffle_due": False}

    game = edited(game, empty_pile)
    assert char(game, "bulwark").amd.draw == []
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)), ("ATTACK_TARGET", HEX(3, 2)))
    deck = char(game, "bulwark").amd
    assert len(deck.draw) == 19 and len(deck.discard) == 1
    assert Counter(deck.draw + deck.discard) == STANDARD_AMD


@pytest.mark.parametrize(("extra_shield", "left"), [(1, 5), (2, 6)])
def test_atk_1_pierce(extra_shield, left):
    """HV-ATK-1 step 4: B08 top (Attack 3, Pierce 2) on the elite Marauder (stat Shield 1 plus a
    round shield): shield 2 - pierce 2 -> 3 damage (8 -> 5); shield 3 - 2 = 1 -> 2 (8 -> 6)."""
    game = new(
        {
            "characters": {"bulwark": {"cell": [2, 2], "played": ["B08", "B01"], "amd": ["+0"]}},
            "monsters": [mon("marauder", 3, 3, 2, rank="elite", shield=extra_shield)],
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)), ("ATTACK_TARGET", HEX(3, 2)))
    assert hp(game, "marauder#3") == left


@pytest.mark.parametrize(("amd", "left"), [("x2", 1), ("null", 8), ("-2", 7)])
def test_atk_1_value_order(amd, left):
    """HV-ATK-1 steps 2-4, HV-COND-2: B01 top (Attack 3) on the poisoned elite Marauder (Shield 1):
    (3 + 1 poison) x2 = 8, - 1 = 7 (HP 8 -> 1); null deals nothing at all; -2: 2 - 1 = 1."""
    game = new(
        {
            "characters": {"bulwark": {"cell": [2, 2], "played": ["B01", "B02"], "amd": [amd]}},
            "monsters": [mon("marauder", 3, 3, 2, rank="elite", conditions=["poison"])],
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)), ("ATTACK_TARGET", HEX(3, 2)))
    assert hp(game, "marauder#3") == left
    assert events_of(game, "ATTACK")[0].data["damage"] == 8 - left


def test_atk_1_negative_value_floors_at_zero():
    """HV-ATK-1 step 3: C04 top Attack 1 with '-2' gives max(0, -1) = 0: no damage."""
    game = new(
        {
            "characters": {"conjurer": {"cell": [2, 4], "played": ["C04", "C01"], "amd": ["-2"]}},
            "monsters": [mon("marauder", 1, 4, 4)],
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)), ("ATTACK_TARGET", HEX(4, 4)))
    assert hp(game, "marauder#1") == 5 and events_of(game, "ATTACK")[0].data["damage"] == 0
    assert conditions(game, "marauder#1") == {"muddle"}


@pytest.mark.parametrize(
    ("conditions", "lens", "target", "amd", "left", "drawn"),
    [
        # strengthen + Seer's Lens: still one advantage: -1/+1 drawn, +1 used: 3+1 = 4 (8-1 shield)
        (["strengthen"], True, (4, 4), ["-1", "+1", "+2"], 5, 2),
        # muddle + ranged at an adjacent target: one disadvantage: +1/-1, -1 used: 2
        (["muddle"], False, (3, 4), ["+1", "-1", "+2"], 7, 2),
        # strengthen + ranged adjacent: they cancel, one card: 3 - 1 = 2
        (["strengthen"], False, (3, 4), ["-1", "+2"], 7, 1),
    ],
)
def test_atk_2_advantage_does_not_stack(conditions, lens, target, amd, left, drawn):
    """HV-ATK-2: instances of advantage (strengthen, Seer's Lens) or of disadvantage (muddle, a
    ranged attack on an adjacent target) do not stack; having both is a single draw. C05 top:
    Attack 3, Range 2 on the elite Marauder (Shield 1)."""
    game = new(
        {
            "characters": {
                "conjurer": {
                    "cell": [2, 4],
                    "played": ["C05", "C01"],
                    "amd": amd,
                    "conditions": conditions,
                }
            },
            "monsters": [mon("marauder", 3, target[0], target[1], rank="elite")],
        }
    )
    if lens:
        game.apply(ITEM0)
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)), ("ATTACK_TARGET", HEX(*target)))
    assert hp(game, "marauder#3") == left
    assert len(events_of(game, "DRAW", deck="conjurer")) == drawn
    assert char(game, "conjurer").amd.draw[0] == amd[drawn]


@pytest.mark.parametrize(
    ("card", "amd", "left"),
    [
        ("C04", ["x2", "+2"], 6),  # Attack 1: x2 -> 2, +2 -> 3: +2 is better; 3 - 1 = 2
        ("C05", ["+2", "x2"], 3),  # Attack 3: +2 -> 5, x2 -> 6: x2 is better; 6 - 1 = 5
    ],
)
def test_atk_3_better_means_higher_value(card, amd, left):
    """HV-ATK-3: 'better' compares the values after the modifier, not the cards: with Seer's Lens
    on Attack 1 '+2' beats 'x2', on Attack 3 'x2' beats '+2'. Target: elite Marauder, Shield 1."""
    game = new(
        {
            "characters": {"conjurer": {"cell": [2, 4], "played": [card, "C01"], "amd": amd}},
            "monsters": [mon("marauder", 3, 4, 4, rank="elite")],
        }
    )
    play(
        game,
        ("WINDOW_0", ITEM0),
        ("WINDOW_0", BOX(LEAD, TOP, PRINTED)),
        ("ATTACK_TARGET", HEX(4, 4)),
    )
    assert hp(game, "marauder#3") == left


def test_atk_3_worse_null_gives_zero():
    """HV-ATK-3: with disadvantage (muddle) 'null' (0) is worse than '-2' (3 - 2 = 1)."""
    game = new(
        {
            "characters": {
                "conjurer": {
                    "cell": [2, 4],
                    "played": ["C05", "C01"],
                    "amd": ["-2", "null"],
                    "conditions": ["muddle"],
                }
            },
            "monsters": [mon("marauder", 1, 4, 4)],
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)), ("ATTACK_TARGET", HEX(4, 4)))
    assert hp(game, "marauder#1") == 5


def test_atk_4_loot_1_death_drops_coin():
    """HV-ATK-4, HV-LOOT-1, HV-STATE-6: a Marauder at 0 HP is removed at once and drops a coin
    in its hex, which already held one (2 coins)."""
    game = new(
        {
            "characters": {"bulwark": {"cell": [2, 2], "played": ["B01", "B02"], "amd": ["+0"]}},
            "monsters": [mon("marauder", 1, 3, 2, hp=3), FAR_MARAUDER | {"standee": 2}],
            "coins": [[3, 2]],
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)), ("ATTACK_TARGET", HEX(3, 2)))
    expect(game, "WINDOW_1")
    assert monster(game, "marauder#1") is None and coins(game) == {cell(3, 2): 2}
    assert events_of(game, "DEATH", figure="marauder#1", cell=cell(3, 2))
