"""Per-rule haven tests of conditions (section 9, HV-COND-*)."""

from __future__ import annotations

import pytest

from reborn_env.core.errors import PositionError
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
    STANDARD_AMD,
    TOP,
    cell,
    char,
    conditions,
    deck_orders,
    events_of,
    expect,
    hp,
    marauder_turn_game,
    mon,
    monster,
    new,
    play,
    pos,
)

# =================================================================================================
# 9: conditions (HV-COND-*)


def test_cond_1_refresh_keeps_one_instance():
    """HV-COND-1, HV-CEND-2: the Conjurer, invisible and muddled at turn start, re-applies
    Invisible with C04: it holds Invisible once and keeps it (refreshed) while muddle ends."""
    game = new(
        {
            "characters": {
                "conjurer": {
                    "cell": [2, 4],
                    "played": ["C04", "C01"],
                    "conditions": ["invisible", "muddle"],
                }
            },
            "monsters": [FAR_MARAUDER],
        }
    )
    play(
        game,
        ("WINDOW_0", BOX(LEAD, BOTTOM, PRINTED)),
        ("MOVE_DEST", NO),
        ("WINDOW_1", BOX(OTHER, TOP, DEFAULT)),
        ("WINDOW_2", NO),
    )
    assert char(game, "conjurer").conditions == ["invisible"]


def test_cond_1_condition_applied_twice():
    """HV-COND-1: B04's Immobilize on an already immobilized Marauder leaves one instance."""
    game = new(
        {
            "characters": {"bulwark": {"cell": [2, 2], "played": ["B04", "B01"], "amd": ["+0"]}},
            "monsters": [mon("marauder", 1, 3, 2, conditions=["immobilize"])],
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)), ("ATTACK_TARGET", HEX(3, 2)))
    assert monster(game, "marauder#1").conditions == ["immobilize"]


@pytest.mark.parametrize(
    ("before", "start_hp", "after_hp"),
    [
        (["poison"], 5, 5),  # poison removed, no HP
        (["wound"], 5, 7),  # wound removed, then Heal 2
        (["poison", "wound"], 5, 5),  # both removed, no HP
        ([], 9, 10),  # capped at max HP
    ],
)
def test_cond_2_3_dmg_2_heal(before, start_hp, after_hp):
    """HV-COND-2/3, HV-DMG-2: a heal (B04 bottom, Heal 2 self) on a poisoned figure removes poison
    and restores nothing; on a wounded one removes wound and heals; never above max HP."""
    game = new(
        {
            "characters": {
                "bulwark": {
                    "cell": [2, 2],
                    "hp": start_hp,
                    "conditions": before,
                    "played": ["B04", "B01"],
                }
            },
            "monsters": [FAR_MARAUDER],
        }
    )
    if "wound" in before:
        play(game, ("DAMAGE_RESPONSE", CARD("B09")))  # negate the turn-start wound
    play(game, ("WINDOW_0", BOX(LEAD, BOTTOM, PRINTED)), ("HEAL_TARGET", HEX(2, 2)))
    assert hp(game, "bulwark") == after_hp and conditions(game, "bulwark") == set()


@pytest.mark.parametrize(
    ("condition", "amd", "damage"),
    [("muddle", ["+1", "-1"], 1), ("strengthen", ["-1", "+1"], 3)],
)
def test_cond_7_9_10_monster_disadvantage_and_advantage(condition, amd, damage):
    """HV-COND-7/9/10, HV-MEND-1: a muddled Marauder draws two and uses the worse (2 - 1), a
    strengthened one the better (2 + 1); the condition, present at its turn start, then ends."""
    game = marauder_turn_game("MA2", amd, [condition])
    play(game, ("DAMAGE_RESPONSE", NO, "bulwark"))
    assert hp(game, "bulwark") == 10 - damage
    assert game.state.monster_amd.discard == amd
    assert conditions(game, "marauder#1") == set()


@pytest.mark.parametrize("invisible", [False, True])
def test_cond_8_invisible_not_focused_or_targeted(invisible):
    """HV-COND-8, HV-AI-1: a Marauder (MA2) next to the Conjurer attacks it; when the Conjurer is
    invisible it focuses the Bulwark instead, moves (4,4) -> (5,4) and attacks it (2 + 0)."""
    game = new(
        {
            "sequence": ["marauder"],
            "characters": {
                "conjurer": {"cell": [3, 4], "conditions": ["invisible"] if invisible else []},
                "bulwark": {"cell": [6, 4]},
            },
            "monsters": [mon("marauder", 1, 4, 4)],
            "monster_cards": {"marauder": "MA2"},
            "monster_amd": ["+0"],
        }
    )
    victim = "bulwark" if invisible else "conjurer"
    play(game, ("DAMAGE_RESPONSE", NO, victim))
    assert pos(game, "marauder#1") == (cell(5, 4) if invisible else cell(4, 4))
    assert hp(game, "bulwark") == (8 if invisible else 10)
    assert hp(game, "conjurer") == (7 if invisible else 5)


def test_cond_8_invisible_is_an_obstacle():
    """HV-COND-8, HV-AI-2/5: an invisible Conjurer at (3,4) blocks the Marauder's way from (2,4)
    to the Bulwark at (5,4) ((4,4) would be 2 steps through it): Case B, it moves to (3,5), the
    only reachable cell 1 step from an attack hex, and does not attack."""
    game = new(
        {
            "sequence": ["marauder"],
            "characters": {
                "conjurer": {"cell": [3, 4], "conditions": ["invisible"]},
                "bulwark": {"cell": [5, 4]},
            },
            "monsters": [mon("marauder", 1, 2, 4)],
            "monster_cards": {"marauder": "MA2"},
        }
    )
    assert events_of(game, "ATTACK") == []
    assert [(e.data["from"], e.data["to"]) for e in events_of(game, "MOVE")] == [
        (cell(2, 4), cell(3, 5))
    ]


def test_cond_8_allies_still_see_the_invisible():
    """HV-COND-8: allies are unaffected: C07 (Heal 3, Range 3) may heal the invisible Bulwark."""
    game = new(
        {
            "sequence": ["conjurer"],
            "characters": {
                "conjurer": {"cell": [2, 4], "played": ["C07", "C01"]},
                "bulwark": {"cell": [4, 4], "hp": 4, "conditions": ["invisible"]},
            },
            "monsters": [FAR_MARAUDER],
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)))
    expect(game, "HEAL_TARGET", "conjurer", legal={HEX(2, 4), HEX(4, 4), NO})
    game.apply(HEX(4, 4))
    assert hp(game, "bulwark") == 7


@pytest.mark.parametrize("name", ["bless", "curse"])
def test_cond_12_no_bless_or_curse(name):
    """HV-COND-12: bless and curse are not conditions of haven (a fixture naming one is refused)
    and no modifier deck holds such cards."""
    with pytest.raises(PositionError):
        new({"characters": {"bulwark": {"cell": [1, 2], "conditions": [name]}}})
    game = new(None)
    names = {c for deck in deck_orders(game)[0] for c in deck} | set(game.state.monster_amd.draw)
    assert names == set(STANDARD_AMD)
