"""Per-rule haven tests of summons (section 13, HV-STURN-*) and loot (section 14, HV-LOOT-*)."""

from __future__ import annotations

import pytest

from tests.haven.helpers import (
    BOTTOM,
    BOX,
    DEFAULT,
    FAR_MARAUDER,
    HEX,
    LEAD,
    NO,
    OTHER,
    PRINTED,
    TOP,
    cell,
    char,
    coins,
    conditions,
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
# 13-14: summons (HV-STURN-*) and loot (HV-LOOT-*)


def test_sturn_5_summon_kill_drops_coin_and_no_loot():
    """HV-STURN-5, HV-STURN-4, HV-LOOT-2, HV-AMD-2: the Wisp (standing on a coin) kills the
    adjacent Marauder (HP 2; 2 + 0 from the Conjurer's deck): a coin drops in the Marauder's hex;
    the Wisp picks up nothing."""
    game = new(
        {
            "sequence": ["summon:1"],
            "characters": {
                "conjurer": {"cell": [0, 6], "amd": ["+0"]},
                "bulwark": {"cell": [0, 0]},
            },
            "summons": [wisp(3, 4)],
            "monsters": [mon("marauder", 1, 4, 4, hp=2), FAR_MARAUDER | {"standee": 2}],
            "coins": [[3, 4]],
        }
    )
    assert monster(game, "marauder#1") is None
    assert coins(game) == {cell(3, 4): 1, cell(4, 4): 1}
    assert events_of(game, "LOOT") == [] and char(game, "conjurer").amd.discard == ["+0"]


def test_loot_2_3_end_of_turn_loot_only():
    """HV-LOOT-2/3, HV-CEND-1: moving through a coin hex picks up nothing; at the end of the turn
    the Bulwark loots its own hex: 2 coins x 2 gold + treasure (5 gold, Heal 3: 5 -> 8) = 9."""
    game = new(
        {
            "characters": {"bulwark": {"cell": [2, 2], "hp": 5, "played": ["B01", "B02"]}},
            "monsters": [FAR_MARAUDER],
            "coins": [[3, 2], [4, 2], [4, 2]],
            "treasures": [{"number": 1, "cell": [4, 2]}],
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, BOTTOM, PRINTED)), ("MOVE_DEST", HEX(4, 2)))
    expect(game, "WINDOW_1")
    assert coins(game) == {cell(3, 2): 1, cell(4, 2): 2} and char(game, "bulwark").gold == 0
    play(game, ("WINDOW_1", BOX(OTHER, TOP, DEFAULT)), ("WINDOW_2", NO))
    assert char(game, "bulwark").gold == 9 and hp(game, "bulwark") == 8
    assert coins(game) == {cell(3, 2): 1} and game.state.treasures == {}


@pytest.mark.parametrize("listed_first", ["marauder", "slinger"])
def test_ai_4_sturn_2_summon_focus_uses_monster_turn_order(listed_first):
    """HV-AI-4, HV-STURN-2: a summon's focus tie-break is the turn order position of the enemy.
    The Wisp at (3,4) has a Marauder (2,4) and a Slinger (4,4) both adjacent (cost 0, proximity
    1); the Slinger type acts first this round (SL1 16 < MA5 58), so the Wisp attacks the Slinger,
    whichever of the two the fixture lists first."""
    monsters = {"marauder": mon("marauder", 1, 2, 4), "slinger": mon("slinger", 1, 4, 4)}
    order = [listed_first, "slinger" if listed_first == "marauder" else "marauder"]
    game = new(
        {
            "sequence": ["slinger", "summon:1", "conjurer", "marauder"],
            "next": 1,
            "characters": {
                "conjurer": {"cell": [0, 6], "played": ["C01", "C02"], "amd": ["+0"]},
                "bulwark": {"cell": [0, 0]},
            },
            "summons": [wisp(3, 4)],
            "monsters": [monsters[k] for k in order],
            "monster_cards": {"slinger": "SL1", "marauder": "MA5"},
        }
    )
    assert [e.data["target"] for e in events_of(game, "ATTACK")] == ["slinger#1"]
    assert hp(game, "slinger#1") == 2 and hp(game, "marauder#1") == 5


def test_sturn_1_3_stunned_wounded_summon():
    """HV-STURN-1/3: a stunned, wounded Wisp suffers 1 (4 -> 3), does nothing (no attack on the
    adjacent Marauder) and its stun ends with the turn; wound stays."""
    game = new(
        {
            "sequence": ["summon:1", "conjurer"],
            "characters": {
                "conjurer": {"cell": [0, 6], "played": ["C01", "C02"]},
                "bulwark": {"cell": [0, 0]},
            },
            "summons": [wisp(3, 4, conditions=["stun", "wound"])],
            "monsters": [mon("marauder", 1, 4, 4)],
        }
    )
    expect(game, "WINDOW_0", "conjurer")
    assert hp(game, "ember_wisp#1") == 3 and conditions(game, "ember_wisp#1") == {"wound"}
    assert events_of(game, "ATTACK") == [] and hp(game, "marauder#1") == 5
