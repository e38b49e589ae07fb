"""Section-17 test cases of haven.md on playing the two cards: HV-TEST-03 (default Attack 2 /
Move 2), HV-TEST-04 (either box first, items only around the boxes) and HV-TEST-05 (optional
parts, negative self-effects, top to bottom).

The cases are played step for step as the spec writes them: every listed action is played through
:func:`play` (which checks the prompt kind and that the action is legal) and every "Expected" of
the spec is an assertion. Setups are HV-API-10 fixtures: "it is X's slot" is a TURNS-phase fixture
whose sequence starts at X, "AMD [a, b, ...]" lists the top of a modifier draw pile, a character
the spec does not list takes no part in the round. Where a test spans rounds the game is driven on
with passive answers (default boxes, no moves, no targets, no rests) that cannot touch what the
test checks.
"""

from __future__ import annotations

from tests.haven.helpers import (
    BOTTOM,
    BOX,
    BOX_ACTIONS,
    BULWARK_CARDS,
    CARD,
    DEFAULT,
    HEX,
    ITEM0,
    ITEM1,
    LEAD,
    NO,
    OTHER,
    PRINTED,
    TOP,
    box_legal,
    cards_in,
    cell,
    events_of,
    expect,
    hp,
    in_order,
    item,
    marauder,
    new,
    play,
    pos,
)

# =================================================================================================
# HV-TEST-03


def test_03_default_boxes():
    """HV-TEST-03: default Attack 2 / Move 2; one card's top and the other card's bottom; the
    card is placed before the next box; default mode ignores printed marks (HV-BOX-1, HV-BOX-5,
    HV-BOX-8, HV-BOX-6)."""
    game = new(
        {
            "phase": "turns",
            "sequence": ["bulwark"],
            "characters": {
                "bulwark": {
                    "cell": [3, 2],
                    "hp": 10,
                    "played": ["B03", "B07"],
                    "amd": ["+0"],
                }
            },
            "monsters": [marauder(1, 4, 2, hp=5)],
        }
    )
    expect(game, "WINDOW_0", "bulwark", legal=set(BOX_ACTIONS) | {ITEM0, ITEM1})
    play(
        game,
        ("WINDOW_0", BOX(LEAD, TOP, DEFAULT)),  # 74
        ("ATTACK_TARGET", HEX(4, 2)),  # 22
    )
    assert BOX(LEAD, TOP, DEFAULT) == 74 and HEX(4, 2) == 22
    assert hp(game, "marauder#1") == 3
    attack = events_of(game, "ATTACK", attacker="bulwark")
    assert len(attack) == 1 and attack[0].data["damage"] == 2 and attack[0].data["cards"] == ["+0"]
    # WINDOW_1: B03 is already in the discard pile (not lost); BOX mask exactly {79, 80}.
    expect(game, "WINDOW_1", "bulwark", legal={79, 80, ITEM0, ITEM1})
    assert box_legal(game) == {79, 80}
    assert cards_in(game, "bulwark", "discard") == {"B03"}
    assert cards_in(game, "bulwark", "lost") == set()
    assert hp(game, "bulwark") == 10  # B03's printed self-damage is not applied
    play(
        game,
        ("WINDOW_1", BOX(OTHER, BOTTOM, DEFAULT)),  # 80
        ("MOVE_DEST", HEX(1, 2)),  # 19
    )
    assert HEX(1, 2) == 19
    assert pos(game, "bulwark") == cell(1, 2)
    assert cards_in(game, "bulwark", "discard") == {"B03", "B07"}  # B07's bottom lost mark ignored
    assert cards_in(game, "bulwark", "lost") == set()
    assert hp(game, "bulwark") == 10
    expect(game, "WINDOW_2", "bulwark", legal={ITEM0, ITEM1, NO})


# =================================================================================================
# HV-TEST-04


def test_04_box_order_and_items():
    """HV-TEST-04: either box first, the leading card is irrelevant, items only before, between
    and after the boxes; spent/consumed items (HV-BOX-2, HV-BOX-3, HV-BOX-8, HV-ITEM-1,
    HV-ITEM-2, HV-ITEM-3, HV-BOX-11).
    Seed rules checked here as well (section 18): HV-BOX-1.
    """
    game = new(
        {
            "phase": "turns",
            "sequence": ["bulwark"],
            "characters": {
                "bulwark": {
                    "cell": [2, 2],
                    "hp": 6,
                    "played": ["B08", "B05"],
                    "items": {"swift_boots": "ready", "healing_draught": "ready"},
                }
            },
            "elements": {"earth": "inert"},
            "monsters": [marauder(1, 8, 6)],
        }
    )
    expect(game, "WINDOW_0", "bulwark", legal=set(BOX_ACTIONS) | {ITEM0, ITEM1})
    # The bottom half of the leading card first.
    play(game, ("WINDOW_0", BOX(LEAD, BOTTOM, PRINTED)))  # 75
    expect(game, "HEAL_TARGET", "bulwark", legal={HEX(2, 2), NO})  # items illegal here
    play(game, ("HEAL_TARGET", HEX(2, 2)))  # 20
    assert hp(game, "bulwark") == 8
    assert cards_in(game, "bulwark", "discard") == {"B08"}
    expect(game, "WINDOW_1", "bulwark", legal={77, 78, ITEM0, ITEM1})
    play(game, ("WINDOW_1", ITEM1))  # Healing Draught
    assert hp(game, "bulwark") == 10  # capped
    assert item(game, "bulwark", 1) == "consumed"
    assert events_of(game, "ITEM_USE", figure="bulwark")
    expect(game, "WINDOW_1", "bulwark", legal={77, 78, ITEM0})
    assert box_legal(game) == {77, 78}
    mark = len(game.events)
    play(game, ("WINDOW_1", BOX(OTHER, TOP, PRINTED)))  # 77
    # B05's attack has no valid target: skipped with no prompt (no CONSUME: Earth is inert and the
    # attack is skipped before any CONSUME prompt); the box is not performed, B05 is discarded.
    expect(game, "WINDOW_2", "bulwark", legal={ITEM0, NO})
    assert not events_of(game, "ATTACK", since=mark)
    assert not events_of(game, "CONSUME", since=mark)
    assert cards_in(game, "bulwark", "discard") == {"B08", "B05"}
    assert cards_in(game, "bulwark", "lost") == set()
    play(game, ("WINDOW_2", NO))
    assert item(game, "bulwark", 0) == "ready"  # Swift Boots
    assert item(game, "bulwark", 1) == "consumed"
    assert hp(game, "bulwark") == 10


# =================================================================================================
# HV-TEST-05


def _test_05_game():
    return new(
        {
            "phase": "turns",
            "sequence": ["bulwark"],
            "characters": {
                "bulwark": {"cell": [2, 2], "hp": 10, "played": ["B03", "B01"], "amd": ["+0"]}
            },
            "monsters": [marauder(1, 3, 2, hp=5)],
        }
    )


def test_05_optional_and_mandatory_parts():
    """HV-TEST-05: optional parts may be skipped, negative self-effects may not; a box runs top
    to bottom and counts as performed through its mandatory part (HV-BOX-4, HV-BOX-7, HV-BOX-9,
    HV-ABL-11, HV-DMG-3).
    Seed rules checked here as well (section 18): HV-BOX-8.
    """
    # Variant A: skip the attack; the self-damage still comes.
    game = _test_05_game()
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)), ("ATTACK_TARGET", NO))  # 73
    # The played B01 cannot be lost; B03 is still being played (HV-DMG-3).
    expect(
        game,
        "DAMAGE_RESPONSE",
        "bulwark",
        legal={NO} | {CARD(c) for c in BULWARK_CARDS if c not in ("B01", "B03")},
    )
    assert game.prompt.value == 1
    play(game, ("DAMAGE_RESPONSE", NO))
    assert hp(game, "marauder#1") == 5
    assert not events_of(game, "ATTACK")
    assert hp(game, "bulwark") == 9
    assert cards_in(game, "bulwark", "lost") == {"B03"}
    assert "B03" not in cards_in(game, "bulwark", "discard")
    expect(game, "WINDOW_1", "bulwark")

    # Variant B: attack the Marauder, then the self-damage.
    game = _test_05_game()
    play(
        game,
        ("WINDOW_0", BOX(LEAD, TOP, PRINTED)),
        ("ATTACK_TARGET", HEX(3, 2)),  # 21
        ("DAMAGE_RESPONSE", NO, "bulwark"),
    )
    assert hp(game, "marauder#1") == 1
    attack, damage = in_order(
        game,
        ("ATTACK", {"attacker": "bulwark", "target": "marauder#1"}),
        ("DAMAGE", {"figure": "bulwark", "amount": 1}),
    )
    assert game.events[attack].data["damage"] == 4
    assert hp(game, "bulwark") == 9
    assert cards_in(game, "bulwark", "lost") == {"B03"}
    expect(game, "WINDOW_1", "bulwark")
