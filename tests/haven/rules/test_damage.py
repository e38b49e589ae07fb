"""Per-rule haven tests of damage (section 11, HV-DMG-*)."""

from __future__ import annotations

from tests.haven.helpers import (
    BOTTOM,
    BOX,
    CARD,
    DEFAULT,
    FAR_MARAUDER,
    LEAD,
    LOSE_TWO,
    NO,
    OTHER,
    PRINTED,
    TOP,
    cards_in_order,
    events_of,
    expect,
    hp,
    mon,
    new,
    play,
)

# =================================================================================================
# 11: damage (HV-DMG-*)


def test_dmg_3_no_prompt_for_zero_damage():
    """HV-DMG-3: an attack fully absorbed by shields (2 + 0 - Shield 3) asks nothing and deals
    nothing; the next prompt is already the next round's selection."""
    game = new(
        {
            "sequence": ["marauder"],
            "characters": {"bulwark": {"cell": [2, 2], "shield": 3}, "conjurer": {"cell": [0, 6]}},
            "monsters": [mon("marauder", 1, 3, 2)],
            "monster_cards": {"marauder": "MA2"},
            "monster_amd": ["+0"],
        }
    )
    assert [e.data["damage"] for e in events_of(game, "ATTACK")] == [0]
    assert events_of(game, "DAMAGE") == [] and hp(game, "bulwark") == 10
    expect(game, "SELECT_LEAD", "bulwark")


def test_dmg_3_played_cards_cannot_be_lost():
    """HV-DMG-3: against B03's self-damage the Bulwark may lose a hand card or two discards, but
    neither played card (B03 being executed, B01 waiting)."""
    game = new(
        {
            "characters": {
                "bulwark": {"cell": [2, 2], "played": ["B03", "B01"], "discard": ["B04", "B05"]}
            },
            "monsters": [FAR_MARAUDER],
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)))
    hand = [CARD(c) for c in ("B02", "B06", "B07", "B08", "B09")]
    expect(game, "DAMAGE_RESPONSE", "bulwark", legal=set(hand) | {NO, LOSE_TWO})
    game.apply(LOSE_TWO)
    expect(game, "PICK_DISCARD", "bulwark", legal={CARD("B04"), CARD("B05")})
    game.apply(CARD("B04"))
    expect(game, "WINDOW_1")  # the second pick (B05) was forced
    assert hp(game, "bulwark") == 10
    assert cards_in_order(game, "bulwark", "lost") == ["B04", "B05", "B03"]


def test_dmg_3_card_of_first_box_is_a_normal_discard():
    """HV-DMG-3: once B01 (first box) is in the discard it may be lost against the self-damage of
    B03 in the second box."""
    game = new(
        {
            "characters": {
                "bulwark": {"cell": [2, 2], "played": ["B01", "B03"], "discard": ["B04"]}
            },
            "monsters": [FAR_MARAUDER],
        }
    )
    play(
        game,
        ("WINDOW_0", BOX(LEAD, BOTTOM, DEFAULT)),
        ("MOVE_DEST", NO),
        ("WINDOW_1", BOX(OTHER, TOP, PRINTED)),
        ("DAMAGE_RESPONSE", LOSE_TWO),
    )
    expect(game, "PICK_DISCARD", "bulwark", legal={CARD("B01"), CARD("B04")})
