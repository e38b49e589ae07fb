"""Section-17 test cases of haven.md (HV-TEST-01 .. HV-TEST-15), step for step as the spec writes
them: every listed action is played through :func:`play` (which checks the prompt kind and that
the action is legal) and every "Expected" of the spec is an assertion. Setups are HV-API-10
fixtures: "it is X's slot" is a TURNS-phase fixture whose sequence starts at X, "AMD [a, b, ...]"
lists the top of a modifier draw pile, a character the spec does not list takes no part in the
round. Where a test spans rounds the game is driven on with passive answers (default boxes, no
moves, no targets, no rests) that cannot touch what the test checks.
"""

from __future__ import annotations

from typing import Any

from tests.haven.helpers import (
    BOTTOM,
    BOX,
    BOX_ACTIONS,
    CARD,
    DEFAULT,
    HEX,
    ITEM0,
    ITEM1,
    LEAD,
    LONG_REST,
    LOSE_TWO,
    NO,
    OTHER,
    PRINTED,
    TOP,
    YES,
    auto_actions,
    box_legal,
    card,
    cards_in,
    cell,
    char,
    conditions,
    drive,
    element,
    env_run,
    events_of,
    expect,
    hp,
    in_order,
    index_of,
    item,
    monster,
    new,
    play,
    pos,
    round_ended,
    sequence,
    summon,
)

BULWARK_CARDS = [f"B{i:02d}" for i in range(1, 10)]
CONJURER_CARDS = [f"C{i:02d}" for i in range(1, 9)]


def cards(first: str, last: str) -> list[str]:
    """Card ids ``first`` .. ``last`` of one class, e.g. ``cards("B03", "B09")``."""
    prefix = first[0]
    return [f"{prefix}{i:02d}" for i in range(card(first) + 1, card(last) + 2)]


def marauder(standee: int, col: int, row: int, **extra: Any) -> dict[str, Any]:
    return {"type": "marauder", "rank": "normal", "standee": standee, "cell": [col, row], **extra}


def slinger(standee: int, col: int, row: int, **extra: Any) -> dict[str, Any]:
    return {"type": "slinger", "rank": "normal", "standee": standee, "cell": [col, row], **extra}


# =================================================================================================
# HV-TEST-01


def test_01_wound_at_turn_start():
    """HV-TEST-01: wound deals 1 damage at the start of a character's turn; the damage can be
    suffered or negated (HV-CTURN-2, HV-COND-3, HV-DMG-3)."""

    def setup():
        return new(
            {
                "phase": "turns",
                "sequence": ["bulwark"],
                "characters": {
                    "bulwark": {
                        "cell": [2, 2],
                        "hp": 7,
                        "conditions": ["wound"],
                        "played": ["B01", "B02"],
                        "hand": cards("B03", "B09"),
                        "discard": [],
                    }
                },
                "monsters": [marauder(1, 8, 6)],
            }
        )

    game = setup()
    # The turn starts: the first prompt is the wound's DAMAGE_RESPONSE (pending damage 1); NO and
    # CARD(2..8) are legal, LOSE_TWO_DISCARDS is not (discard empty).
    expect(
        game,
        "DAMAGE_RESPONSE",
        "bulwark",
        legal={NO} | {CARD(c) for c in cards("B03", "B09")},
    )
    assert game.prompt.value == 1
    assert LOSE_TWO not in game.legal_actions()
    in_order(game, ("TURN_START", {"figure": "bulwark"}), ("WOUND", {"figure": "bulwark"}))
    assert hp(game, "bulwark") == 7
    play(game, ("DAMAGE_RESPONSE", NO, "bulwark"))
    # HP 6/10 before any other prompt; the next prompt is WINDOW_0.
    assert hp(game, "bulwark") == 6
    expect(game, "WINDOW_0", "bulwark")
    assert events_of(game, "DAMAGE", figure="bulwark", amount=1)
    # Finish the turn: both boxes in default mode, no target, no move.
    play(
        game,
        ("WINDOW_0", BOX(LEAD, TOP, DEFAULT)),  # Attack 2: no enemy adjacent, skipped
        ("WINDOW_1", BOX(OTHER, BOTTOM, DEFAULT)),
        ("MOVE_DEST", NO),
        ("WINDOW_2", NO),
    )
    index_of(game, "TURN_END", figure="bulwark")
    # Wound is still present after the turn (it is not in the end-of-turn list).
    assert "wound" in conditions(game, "bulwark")
    assert not events_of(game, "COND_REMOVE", figure="bulwark", condition="wound")
    assert hp(game, "bulwark") == 6

    # Variant: negate the wound damage by losing B09 from the hand.
    game = setup()
    play(game, ("DAMAGE_RESPONSE", CARD("B09"), "bulwark"))
    assert hp(game, "bulwark") == 7
    assert cards_in(game, "bulwark", "lost") == {"B09"}
    assert len(char(game, "bulwark").hand) == 6
    assert cards_in(game, "bulwark", "hand") == set(cards("B03", "B08"))
    assert not events_of(game, "DAMAGE", figure="bulwark")
    assert events_of(game, "NEGATE", figure="bulwark")
    expect(game, "WINDOW_0", "bulwark")


# =================================================================================================
# HV-TEST-02


def test_02_stunned_character():
    """HV-TEST-02: a stunned character takes wound damage first, executes nothing, both played
    cards go to discard and the stun expires (HV-CTURN-2, HV-CTURN-3, HV-CEND-2, HV-COND-6,
    HV-COND-10).
    Seed rules checked here as well (section 18): HV-COND-3.
    """
    game = new(
        {
            "phase": "turns",
            "sequence": ["conjurer"],
            "characters": {
                "conjurer": {
                    "cell": [2, 4],
                    "hp": 7,
                    "conditions": ["wound", "stun"],
                    "played": ["C08", "C01"],
                }
            },
            "elements": {"fire": "inert"},
        },
        allow_damage_negation=False,
    )
    # No prompt is given to the conjurer: the turn runs by itself. No monster is on the map, so the
    # round (the conjurer's slot only) ends the scenario (HV-END-1/2) and no prompt is left.
    assert game.prompt is None, f"unexpected prompt {game.prompt}"
    assert auto_actions(game, agent="conjurer") == []
    in_order(
        game,
        ("TURN_START", {"figure": "conjurer"}),
        ("WOUND", {"figure": "conjurer", "amount": 1}),
        ("STUN_SKIP", {"figure": "conjurer"}),
        ("CARD_TO", {"figure": "conjurer", "card": "C08", "to": "discard"}),
        ("CARD_TO", {"figure": "conjurer", "card": "C01", "to": "discard"}),
        ("COND_REMOVE", {"figure": "conjurer", "condition": "stun"}),
        ("TURN_END", {"figure": "conjurer"}),
    )
    assert hp(game, "conjurer") == 6
    assert cards_in(game, "conjurer", "lost") == set()  # C08 is not lost
    assert cards_in(game, "conjurer", "discard") == {"C08", "C01"}
    assert element(game, "fire") == "inert"
    assert not events_of(game, "INFUSE_PENDING")
    assert conditions(game, "conjurer") == {"wound"}
    assert item(game, "conjurer", 0) == "ready"
    assert item(game, "conjurer", 1) == "ready"
    assert not events_of(game, "ITEM_USE")
    assert not events_of(game, "BOX")


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


# =================================================================================================
# HV-TEST-06


TEST_06 = {
    "phase": "turns",
    "sequence": ["conjurer", "bulwark"],
    "next": 1,
    "characters": {
        "conjurer": {"acted": True, "initiative": 9, "discard": ["C04", "C02"]},
        "bulwark": {
            "cell": [6, 0],
            "hp": 5,
            "gold": 0,
            "played": ["B02", "B01"],
            "items": {"swift_boots": "ready", "healing_draught": "ready"},
        },
    },
    "coins": [[7, 0], [8, 0]],
    "treasures": [{"number": 1, "cell": [8, 0]}],
}
TEST_06_STEPS = (
    ("WINDOW_0", BOX(LEAD, BOTTOM, PRINTED), "bulwark"),  # 75: Move 3
    ("MOVE_DEST", HEX(8, 0), "bulwark"),  # 8
    ("WINDOW_1", BOX(OTHER, TOP, DEFAULT), "bulwark"),  # 78: attack auto-skipped, no target
    ("WINDOW_2", NO, "bulwark"),
)


def test_06_end_of_turn_loot_and_win():
    """HV-TEST-06: mandatory end-of-turn loot of the own hex only, treasure resolved at once, win
    at the end of the round with no short rest, every agent terminated with +1 (HV-CEND-1,
    HV-LOOT-2, HV-LOOT-3, HV-END-1, HV-END-2, HV-CLEAN-1, HV-API-6, HV-API-7)."""
    game = new(TEST_06)
    play(
        game,
        ("WINDOW_0", BOX(LEAD, BOTTOM, PRINTED), "bulwark"),  # 75: Move 3
        ("MOVE_DEST", HEX(8, 0)),  # 8
    )
    assert HEX(8, 0) == 8
    assert pos(game, "bulwark") == cell(8, 0)
    # Still inside the turn: all three tokens are on the map (moving through (7,0) loots nothing).
    expect(game, "WINDOW_1", "bulwark", legal={77, 78, ITEM0, ITEM1})
    assert game.state.coins == {cell(7, 0): 1, cell(8, 0): 1}
    assert game.state.treasures == {cell(8, 0): 1}
    assert not events_of(game, "LOOT")
    assert char(game, "bulwark").gold == 0
    mark = len(game.events)
    play(game, ("WINDOW_1", BOX(OTHER, TOP, DEFAULT)))  # 78: attack auto-skipped, no target
    assert not events_of(game, "ATTACK", since=mark)
    expect(game, "WINDOW_2", "bulwark")
    play(game, ("WINDOW_2", NO))
    # End of turn, no prompt: the coin and the treasure at (8,0) are looted.
    loot, _, _ = in_order(
        game,
        ("LOOT", {"figure": "bulwark"}),
        ("TURN_END", {"figure": "bulwark"}),
        ("ROUND_END", {"round": 1}),
    )
    assert norm_cell(game.events[loot].data["cell"]) == cell(8, 0)
    assert game.state.coins == {cell(7, 0): 1}
    assert game.state.treasures == {}
    assert char(game, "bulwark").gold == 7  # 2 (coin) + 5 (treasure)
    assert hp(game, "bulwark") == 8  # treasure Heal 3
    assert pos(game, "bulwark") == cell(8, 0)
    # The episode ends with the round; cleanup offers no SHORT_REST; the outcome is a win.
    assert not events_of(game, "SHORT_REST")
    assert auto_actions(game, prompt="SHORT_REST") == []
    assert game.prompt is None
    assert game.outcome == "win"
    assert game.legal_actions() == ()
    assert index_of(game, "OUTCOME", outcome="win") > loot
    # The same through the environment: all agents terminated with reward +1.
    env = env_run(TEST_06, TEST_06_STEPS)
    assert env.game.outcome == "win"
    assert env.agents == ["bulwark", "conjurer"]
    assert env.terminations == {"bulwark": True, "conjurer": True}
    assert env.truncations == {"bulwark": False, "conjurer": False}
    assert env.rewards == {"bulwark": 1.0, "conjurer": 1.0}


def norm_cell(value: Any) -> int:
    return cell(*value) if isinstance(value, list | tuple) else value


# =================================================================================================
# HV-TEST-07


def test_07_condition_expiry_and_advantage():
    """HV-TEST-07: only conditions present at turn start expire; strengthen and muddle cancel;
    an immobilized character skips Move (HV-CEND-2, HV-COND-4, HV-COND-7, HV-COND-9, HV-COND-10,
    HV-ATK-2, HV-BOX-10, HV-BOX-7)."""
    game = new(
        {
            "phase": "turns",
            "sequence": ["bulwark"],
            "characters": {
                "bulwark": {
                    "cell": [2, 2],
                    "hp": 10,
                    "conditions": ["immobilize", "muddle"],
                    "played": ["B06", "B01"],
                    "amd": ["+1", "-1"],
                }
            },
            "monsters": [marauder(1, 3, 2, hp=5)],
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, BOTTOM, PRINTED), "bulwark"))  # 75
    # Move 2 skipped automatically (no MOVE_DEST prompt), Strengthen applied.
    expect(game, "WINDOW_1", "bulwark")
    assert not events_of(game, "MOVE")
    assert pos(game, "bulwark") == cell(2, 2)
    assert conditions(game, "bulwark") == {"immobilize", "muddle", "strengthen"}
    assert events_of(game, "COND_ADD", figure="bulwark", condition="strengthen")
    play(game, ("WINDOW_1", BOX(OTHER, TOP, PRINTED)), ("ATTACK_TARGET", HEX(3, 2)))  # 77, 21
    attack = events_of(game, "ATTACK", attacker="bulwark")
    assert len(attack) == 1
    assert attack[0].data["cards"] == ["+1"]  # exactly one card drawn
    assert attack[0].data["damage"] == 4
    assert hp(game, "marauder#1") == 1
    assert char(game, "bulwark").amd.draw[0] == "-1"  # still on top of the deck
    assert char(game, "bulwark").amd.discard == ["+1"]
    play(game, ("WINDOW_2", NO, "bulwark"))
    assert cards_in(game, "bulwark", "discard") == {"B06", "B01"}
    # End of turn: immobilize and muddle removed, strengthen stays.
    end = index_of(game, "TURN_END", figure="bulwark")
    removed = {e.data["condition"] for e in events_of(game, "COND_REMOVE", figure="bulwark")}
    assert removed == {"immobilize", "muddle"}
    assert all(
        i < end for i, e in enumerate(game.events) if e.type == "COND_REMOVE"
    )  # expiry is part of the turn
    assert conditions(game, "bulwark") == {"strengthen"}

    # Next round: at the end of the Bulwark's next turn strengthen is removed. The Bulwark leads
    # B02 (11), before any Marauder card (>= 15); the Conjurer plays late cards and does nothing.
    mark = len(game.events)
    drive(
        game,
        lambda g: bool(events_of(g, "TURN_START", since=mark, figure="bulwark")),
        picks={"bulwark": ("B02", "B03"), "conjurer": ("C07", "C08")},
    )
    assert game.state.round == 2
    assert conditions(game, "bulwark") == {"strengthen"}
    start = len(game.events)
    drive(game, lambda g: bool(events_of(g, "TURN_END", since=start, figure="bulwark")))
    assert events_of(game, "COND_REMOVE", since=start, figure="bulwark", condition="strengthen")
    assert "strengthen" not in conditions(game, "bulwark")


# =================================================================================================
# HV-TEST-08


def test_08a_infusion_strong_at_end_of_turn_then_wanes():
    """HV-TEST-08 Part A: an element infused by a character is pending (not usable) until the end
    of its turn, then strong, waning after the round, inert after the next (HV-CEND-3,
    HV-ELEM-2, HV-ELEM-3, HV-ELEM-4)."""
    game = new(
        {
            "phase": "turns",
            "sequence": ["conjurer"],
            "characters": {
                "conjurer": {"cell": [2, 4], "played": ["C01", "C02"], "amd": ["+0"]},
            },
            "monsters": [slinger(1, 5, 4, hp=4)],
        }
    )
    assert all(element(game, e) == "inert" for e in ("fire", "ice", "air", "earth", "light"))
    play(
        game,
        ("WINDOW_0", BOX(LEAD, BOTTOM, PRINTED), "conjurer"),  # 75: Move 2; infuse Fire
        ("MOVE_DEST", HEX(3, 4)),  # 39
    )
    assert pos(game, "conjurer") == cell(3, 4)
    assert events_of(game, "INFUSE_PENDING", element="fire")
    assert element(game, "fire") == "inert"  # pending only
    play(game, ("WINDOW_1", BOX(OTHER, TOP, PRINTED)))  # 77: C02 top, consume Fire
    # No CONSUME prompt: Fire is inert during the turn; C02 gets no bonus.
    expect(game, "ATTACK_TARGET", "conjurer")
    assert element(game, "fire") == "inert"
    play(game, ("ATTACK_TARGET", HEX(5, 4)))  # 41
    attack = events_of(game, "ATTACK", attacker="conjurer")
    assert len(attack) == 1
    assert attack[0].data["cards"] == ["+0"]  # range 2: no disadvantage, one card
    assert attack[0].data["damage"] == 2
    assert hp(game, "slinger#1") == 2
    assert not events_of(game, "CONSUME")
    assert element(game, "fire") == "inert"
    play(game, ("WINDOW_2", NO))
    # At the end of the Conjurer's turn Fire = strong.
    in_order(
        game,
        ("ELEMENT", {"element": "fire", "state": "strong"}),
        ("TURN_END", {"figure": "conjurer"}),
    )
    # At the end of the round (cleanup; the Conjurer may short rest on C01 + C02): waning.
    expect(game, "SHORT_REST", "conjurer")
    assert element(game, "fire") == "waning"
    # The following round: nobody uses Fire (passive play); at its end Fire is inert.
    drive(game, lambda g: g.state.round == 2 and g.prompt.kind == "SELECT_LEAD")
    assert element(game, "fire") == "waning"
    drive(game, round_ended(2))
    assert not events_of(game, "CONSUME", element="fire")
    assert element(game, "fire") == "inert"


def test_08b_monster_infusion_and_consumption():
    """HV-TEST-08 Part B: a monster's infusion becomes strong at the end of that monster's turn;
    the first monster of a type consumes for its whole activation (HV-MEND-2, HV-ELEM-2,
    HV-ELEM-5, HV-ELEM-6, HV-INIT-6, HV-AI-4, HV-AI-5).
    Seed rules checked here as well (section 18): HV-MTURN-1.
    """
    game = new(
        {
            "phase": "turns",
            "sequence": ["conjurer", "bulwark", "slinger", "marauder"],
            "next": 2,
            "characters": {
                "conjurer": {
                    "cell": [1, 4],
                    "hp": 7,
                    "acted": True,
                    "initiative": 9,
                    "discard": ["C04", "C02"],
                },
                "bulwark": {
                    "cell": [2, 2],
                    "hp": 10,
                    "acted": True,
                    "initiative": 14,
                    "discard": ["B01", "B02"],
                },
            },
            "monsters": [
                slinger(1, 8, 3),
                slinger(2, 8, 5),
                marauder(1, 3, 2),
                marauder(2, 2, 1),
            ],
            "monster_cards": {"slinger": "SL5", "marauder": "MA6"},
            "monster_amd": ["+0", "+0"],
            "elements": {"dark": "inert"},
        }
    )
    # Slinger #1: focus Conjurer, moves (8,3) -> (7,3), no attack; Dark strong at its turn's end,
    # before Slinger #2's turn starts.
    s1_start, s1_move, dark, s1_end, s2_start = in_order(
        game,
        ("TURN_START", {"figure": "slinger#1"}),
        ("MOVE", {"figure": "slinger#1", "from": cell(8, 3), "to": cell(7, 3)}),
        ("ELEMENT", {"element": "dark", "state": "strong"}),
        ("TURN_END", {"figure": "slinger#1"}),
        ("TURN_START", {"figure": "slinger#2"}),
    )
    assert pos(game, "slinger#1") == cell(7, 3)
    # Slinger #2: moves (8,5) -> (8,4), no attack.
    in_order(
        game,
        ("MOVE", {"figure": "slinger#2", "from": cell(8, 5), "to": cell(8, 4)}),
        ("TURN_END", {"figure": "slinger#2"}),
        ("TURN_START", {"figure": "marauder#1"}),
    )
    assert pos(game, "slinger#2") == cell(8, 4)
    assert not [e for e in game.events if e.type == "ATTACK" and "slinger" in e.data["attacker"]]
    # Marauder #1 consumes Dark and attacks the Bulwark for 2 + 0 + 2 = 4.
    consume = index_of(game, "CONSUME", element="dark")
    assert game.events[consume].data["figure"] == "marauder#1"
    assert element(game, "dark") == "inert"
    expect(game, "DAMAGE_RESPONSE", "bulwark")
    assert game.prompt.value == 4
    first = events_of(game, "ATTACK", attacker="marauder#1", target="bulwark")
    assert len(first) == 1 and first[0].data["damage"] == 4
    assert first[0].data["cards"] == ["+0"]
    assert pos(game, "marauder#1") == cell(3, 2)
    play(game, ("DAMAGE_RESPONSE", NO, "bulwark"))
    # Marauder #2 also attacks for 4 although Dark is inert now.
    expect(game, "DAMAGE_RESPONSE", "bulwark")
    assert game.prompt.value == 4
    second = events_of(game, "ATTACK", attacker="marauder#2", target="bulwark")
    assert len(second) == 1 and second[0].data["damage"] == 4
    assert second[0].data["cards"] == ["+0"]
    assert len(events_of(game, "CONSUME")) == 1
    assert pos(game, "marauder#2") == cell(2, 1)
    play(game, ("DAMAGE_RESPONSE", NO, "bulwark"))
    assert hp(game, "bulwark") == 2
    # Dark stays inert at the end of the round (cleanup: the Bulwark may short rest).
    expect(game, "SHORT_REST", "bulwark")
    assert element(game, "dark") == "inert"


# =================================================================================================
# HV-TEST-09


def test_09a_forced_long_rest():
    """HV-TEST-09 Part A: a forced long rest: initiative 99, wound first, choose the card to lose,
    Heal 2 removes wound, spent items refreshed, consumed not (HV-LREST-1 .. HV-LREST-6,
    HV-SEL-2, HV-API-4).
    Seed rules checked here as well (section 18): HV-CTURN-2, HV-COND-3.
    """
    game = new(
        {
            "phase": "select",
            "characters": {
                "bulwark": {
                    "cell": [1, 2],
                    "hand": ["B01"],
                    "discard": ["B02", "B04", "B05"],
                    "lost": ["B03", "B06", "B07", "B08", "B09"],
                    "hp": 6,
                    "conditions": ["wound"],
                    "items": {"swift_boots": "spent", "healing_draught": "consumed"},
                }
            },
            "monsters": [marauder(1, 8, 6)],
            "monster_cards": {"marauder": "MA2"},
        }
    )
    # Selection is forced: LONG_REST auto-applied; the Bulwark's turn is last (initiative 99).
    assert auto_actions(game, agent="bulwark") == [("SELECT_LEAD", LONG_REST)]
    assert char(game, "bulwark").long_rest
    assert char(game, "bulwark").initiative == 99
    assert sequence(game)[-1] == "bulwark"
    assert index_of(game, "TURN_END", figure="marauder#1") < index_of(
        game, "TURN_START", figure="bulwark"
    )
    assert not events_of(game, "TURN_START", figure="conjurer")
    expect(game, "DAMAGE_RESPONSE", "bulwark")
    assert game.prompt.value == 1
    play(game, ("DAMAGE_RESPONSE", NO))
    assert hp(game, "bulwark") == 5
    expect(game, "LONG_REST_LOSE", "bulwark", legal={CARD("B02"), CARD("B04"), CARD("B05")})
    assert {CARD("B02"), CARD("B04"), CARD("B05")} == {64, 66, 67}
    mark = len(game.events)
    play(game, ("LONG_REST_LOSE", CARD("B04")))  # CARD(3)
    assert cards_in(game, "bulwark", "lost") == {"B03", "B04", "B06", "B07", "B08", "B09"}
    assert cards_in(game, "bulwark", "hand") == {"B01", "B02", "B05"}
    assert cards_in(game, "bulwark", "discard") == set()
    assert "wound" not in conditions(game, "bulwark")
    assert hp(game, "bulwark") == 7
    assert item(game, "bulwark", 0) == "ready"
    assert item(game, "bulwark", 1) == "consumed"
    # In this order: lose the card, Heal 2, then the turn ends.
    in_order(
        game,
        ("CARD_TO", {"figure": "bulwark", "card": "B04", "to": "lost"}),
        ("HEAL", {"figure": "bulwark"}),
        ("TURN_END", {"figure": "bulwark"}),
        since=mark,
    )


def test_09b_voluntary_long_rest_with_empty_discard():
    """HV-TEST-09 Part B: a voluntary long rest after the discard was emptied by damage
    negation: nothing is lost, Heal 2, spent items refreshed (HV-LREST-1 .. HV-LREST-5,
    HV-SEL-2, HV-DMG-3)."""
    game = new(
        {
            "phase": "select",
            "characters": {
                "bulwark": {
                    "cell": [2, 2],
                    "hand": ["B01", "B04", "B09"],
                    "discard": ["B02", "B05"],
                    "lost": ["B03", "B06", "B07", "B08"],
                    "hp": 8,
                    "items": {"swift_boots": "spent", "healing_draught": "ready"},
                }
            },
            "monsters": [marauder(1, 3, 2)],
            "monster_cards": {"marauder": "MA2"},
            "monster_amd": ["+1"],
        }
    )
    expect(
        game,
        "SELECT_LEAD",
        "bulwark",
        legal={CARD("B01"), CARD("B04"), CARD("B09"), LONG_REST},
    )
    play(game, ("SELECT_LEAD", LONG_REST))  # voluntary
    # The Marauder (MA2, 32) attacks for 2 + 1 = 3.
    expect(
        game,
        "DAMAGE_RESPONSE",
        "bulwark",
        legal={NO, CARD("B01"), CARD("B04"), CARD("B09"), LOSE_TWO},
    )
    assert game.prompt.value == 3
    assert auto_actions(game, prompt="SELECT_SECOND") == []
    play(game, ("DAMAGE_RESPONSE", LOSE_TWO))
    expect(game, "PICK_DISCARD", "bulwark", legal={CARD("B02"), CARD("B05")})
    mark = len(game.events)
    play(game, ("PICK_DISCARD", CARD("B02")))  # CARD(1); B05 is auto-picked
    assert auto_actions(game, mark, "bulwark", "PICK_DISCARD") == [("PICK_DISCARD", CARD("B05"))]
    assert hp(game, "bulwark") == 10  # no HP lost, then the long rest's Heal 2
    assert not events_of(game, "DAMAGE", figure="bulwark")
    assert events_of(game, "NEGATE", figure="bulwark")
    # The long rest: no LONG_REST_LOSE prompt (discard empty), nothing more lost.
    assert events_of(game, "TURN_END", figure="bulwark")
    assert auto_actions(game, prompt="LONG_REST_LOSE") == []
    assert cards_in(game, "bulwark", "lost") == {"B02", "B03", "B05", "B06", "B07", "B08"}
    assert cards_in(game, "bulwark", "hand") == {"B01", "B04", "B09"}
    assert cards_in(game, "bulwark", "discard") == set()
    assert events_of(game, "HEAL", figure="bulwark")
    assert item(game, "bulwark", 0) == "ready"
    assert item(game, "bulwark", 1) == "ready"
    # Round 2 begins with the Bulwark's selection.
    expect(game, "SELECT_LEAD", "bulwark")
    assert game.state.round == 2


# =================================================================================================
# HV-TEST-10


def test_10_monster_order_within_type():
    """HV-TEST-10: monsters of one type share one card; elites act first, then normals by
    standee number; focus and moves (HV-MTURN-1 .. HV-MTURN-4, HV-INIT-6, HV-AI-4, HV-AI-5).
    Seed rules checked here as well (section 18): HV-ROUND-1.
    """
    game = new(
        {
            "phase": "turns",
            "sequence": ["bulwark", "marauder", "conjurer"],
            "next": 1,
            "characters": {
                "bulwark": {
                    "cell": [1, 2],
                    "acted": True,
                    "initiative": 22,
                    "discard": ["B07", "B01"],
                },
                "conjurer": {"cell": [1, 4], "played": ["C06", "C01"]},
            },
            "monsters": [
                marauder(1, 5, 0),
                marauder(2, 5, 6),
                {"type": "marauder", "rank": "elite", "standee": 3, "cell": [8, 4]},
            ],
            "monster_cards": {"marauder": "MA2"},
        }
    )
    starts = [e.data["figure"] for e in events_of(game, "TURN_START")]
    assert starts == ["marauder#3", "marauder#1", "marauder#2", "conjurer"]
    assert pos(game, "marauder#3") == cell(6, 4)
    assert pos(game, "marauder#1") == cell(3, 0)
    assert pos(game, "marauder#2") == cell(3, 5)
    moves = [(e.data["figure"], e.data["from"], e.data["to"]) for e in events_of(game, "MOVE")]
    assert [(f, norm_cell(a), norm_cell(b)) for f, a, b in moves] == [
        ("marauder#3", cell(8, 4), cell(6, 4)),
        ("marauder#1", cell(5, 0), cell(3, 0)),
        ("marauder#2", cell(5, 6), cell(3, 5)),
    ]
    assert not events_of(game, "ATTACK")
    # All three executed the one card MA2.
    assert game.state.monster_decks[0].current == "MA2"
    expect(game, "WINDOW_0", "conjurer")


# =================================================================================================
# HV-TEST-11


def test_11_monster_turn_start_card_and_end():
    """HV-TEST-11: a monster does only what its card says; wound and stun at its turn start; stun
    expiry at its turn end; card shield and retaliate (HV-MTURN-5 .. HV-MTURN-9, HV-MEND-1,
    HV-ABL-4, HV-ABL-5, HV-COND-6, HV-BOX-5, HV-ATK-1).
    Seed rules checked here as well (section 18): HV-INIT-6, HV-COND-3, HV-COND-10.
    """
    game = new(
        {
            "phase": "turns",
            "sequence": ["marauder", "bulwark", "conjurer"],
            "characters": {
                "bulwark": {"cell": [2, 2], "hp": 10, "played": ["B06", "B01"], "amd": ["+0"]},
                "conjurer": {"cell": [0, 6], "played": ["C07", "C05"]},
            },
            "monsters": [
                marauder(1, 4, 2, hp=5, conditions=["wound"]),
                marauder(2, 4, 4, hp=5, conditions=["stun"]),
            ],
            "monster_cards": {"marauder": "MA4"},
        }
    )
    m1 = monster(game, "marauder#1")
    m2 = monster(game, "marauder#2")
    # #1: wound (HP 4/5), Shield 1 and Retaliate 1 for the round, no move, no attack.
    in_order(
        game,
        ("TURN_START", {"figure": "marauder#1"}),
        ("WOUND", {"figure": "marauder#1", "amount": 1}),
        ("TURN_END", {"figure": "marauder#1"}),
        ("TURN_START", {"figure": "marauder#2"}),
        ("STUN_SKIP", {"figure": "marauder#2"}),
        ("COND_REMOVE", {"figure": "marauder#2", "condition": "stun"}),
        ("TURN_END", {"figure": "marauder#2"}),
    )
    assert m1.hp == 4
    assert (m1.shield, m1.retaliate) == (1, 1)
    assert m1.cell == cell(4, 2)
    assert not events_of(game, "MOVE")
    assert not events_of(game, "ATTACK")
    assert m1.conditions == ["wound"]
    # #2: nothing (no shield, no retaliate); its stun is removed at the end of its turn.
    assert (m2.shield, m2.retaliate) == (0, 0)
    assert m2.cell == cell(4, 4)
    assert m2.conditions == []
    assert m2.hp == 5
    # Then the Bulwark.
    expect(game, "WINDOW_0", "bulwark")
    play(
        game,
        ("WINDOW_0", BOX(OTHER, BOTTOM, DEFAULT)),  # 80: B01 bottom, Move 2
        ("MOVE_DEST", HEX(3, 2)),  # 21
    )
    expect(game, "WINDOW_1", "bulwark", legal={73, 74, ITEM0, ITEM1})
    play(
        game,
        ("WINDOW_1", BOX(LEAD, TOP, DEFAULT)),  # 74: B06 top, Attack 2
        ("ATTACK_TARGET", HEX(4, 2)),  # 22
    )
    # Damage 2 - 1 (shield) = 1 -> HP 3/5; retaliate 1 against the Bulwark.
    assert hp(game, "marauder#1") == 3
    attack = events_of(game, "ATTACK", attacker="bulwark", target="marauder#1")
    assert len(attack) == 1 and attack[0].data["damage"] == 1
    expect(game, "DAMAGE_RESPONSE", "bulwark")
    assert game.prompt.value == 1
    play(game, ("DAMAGE_RESPONSE", NO))
    assert hp(game, "bulwark") == 9
    expect(game, "WINDOW_2", "bulwark")


# =================================================================================================
# HV-TEST-12


def test_12_summon():
    """HV-TEST-12: summon placement, no turn in the round summoned; the next round the summon
    acts right before its summoner, automatically, with the owner's modifier deck, and never
    loots (HV-STURN-1 .. HV-STURN-4, HV-INIT-4, HV-INIT-5, HV-ABL-7, HV-AMD-2, HV-COND-10).
    Seed rules checked here as well (section 18): HV-ROUND-1, HV-COND-3, HV-LOOT-2.
    """
    # Round N.
    game = new(
        {
            "phase": "turns",
            "sequence": ["conjurer"],
            "characters": {
                "conjurer": {"cell": [2, 4], "played": ["C03", "C05"]},
                "bulwark": {"cell": [1, 0], "acted": True},
            },
            "monsters": [marauder(1, 6, 4)],
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED), "conjurer"))  # 73
    expect(game, "SUMMON_HEX", "conjurer", legal={28, 29, 37, 39, 46, 47, NO})
    assert {HEX(1, 3), HEX(2, 3), HEX(1, 4), HEX(3, 4), HEX(1, 5), HEX(2, 5)} == {
        28,
        29,
        37,
        39,
        46,
        47,
    }
    play(game, ("SUMMON_HEX", HEX(3, 4)))  # 39
    wisp = summon(game, 1)
    assert wisp is not None and wisp.cell == cell(3, 4)
    assert (wisp.hp, wisp.max_hp) == (4, 4)
    assert wisp.owner == 1
    assert cards_in(game, "conjurer", "persistent") == {"C03"}
    assert events_of(game, "SUMMON", figure="ember_wisp#1")
    # Finish the round: the Wisp takes no turn in round N.
    drive(game, round_ended(game.state.round))
    assert not events_of(game, "TURN_START", figure="ember_wisp#1")

    # Round N+1.
    game = new(
        {
            "round": 2,
            "phase": "turns",
            "sequence": ["summon:1", "conjurer", "bulwark", "marauder"],
            "characters": {
                "conjurer": {"cell": [2, 4], "played": ["C02", "C01"], "amd": ["+1", "-1"]},
                "bulwark": {"cell": [1, 0], "played": ["B05", "B01"]},
            },
            "summons": [
                {
                    "owner": "conjurer",
                    "cell": [3, 4],
                    "hp": 4,
                    "conditions": ["wound", "muddle"],
                    "summoned_round": 1,
                }
            ],
            "coins": [[5, 4]],
            "monsters": [marauder(1, 6, 4, hp=5)],
            "monster_cards": {"marauder": "MA5"},
        }
    )
    assert sequence(game) == ["summon:1", "conjurer", "bulwark", "marauder"]
    monster_amd_before = (
        list(game.state.monster_amd.draw),
        list(game.state.monster_amd.discard),
    )
    wisp_start, _, _, wisp_end, conj_start = in_order(
        game,
        ("TURN_START", {"figure": "ember_wisp#1"}),
        ("WOUND", {"figure": "ember_wisp#1", "amount": 1}),
        ("MOVE", {"figure": "ember_wisp#1", "from": cell(3, 4), "to": cell(5, 4)}),
        ("TURN_END", {"figure": "ember_wisp#1"}),
        ("TURN_START", {"figure": "conjurer"}),
    )
    # The Wisp's turn comes immediately before the Conjurer's.
    assert [e.type for e in game.events[wisp_end:conj_start]].count("TURN_START") == 0
    assert wisp_start == index_of(game, "TURN_START")
    wisp = summon(game, 1)
    assert wisp.hp == 3
    assert wisp.cell == cell(5, 4)
    attack = events_of(game, "ATTACK", attacker="ember_wisp#1")
    assert len(attack) == 1
    assert attack[0].data["target"] == "marauder#1"
    assert attack[0].data["cards"] == ["+1", "-1"]  # disadvantage: the worse (-1) is used
    assert attack[0].data["damage"] == 1
    assert hp(game, "marauder#1") == 4
    assert sorted(char(game, "conjurer").amd.discard) == ["+1", "-1"]  # the Conjurer's deck
    assert (
        list(game.state.monster_amd.draw),
        list(game.state.monster_amd.discard),
    ) == monster_amd_before
    # End of the Wisp's turn: muddle removed, wound kept, no summon loot.
    assert events_of(game, "COND_REMOVE", figure="ember_wisp#1", condition="muddle")
    assert wisp.conditions == ["wound"]
    assert game.state.coins == {cell(5, 4): 1}
    assert not events_of(game, "LOOT")
    expect(game, "WINDOW_0", "conjurer")


# =================================================================================================
# HV-TEST-13


def _select(game, bulwark: tuple[str, str] | str, conjurer: tuple[str, str] | str) -> None:
    """Answer both characters' selection prompts ('long' = LONG_REST)."""
    for agent, choice in (("bulwark", bulwark), ("conjurer", conjurer)):
        if choice == "long":
            play(game, ("SELECT_LEAD", LONG_REST, agent))
        else:
            play(game, ("SELECT_LEAD", CARD(choice[0]), agent))
            play(game, ("SELECT_SECOND", CARD(choice[1]), agent))


FAR_MONSTERS = [marauder(1, 8, 6), slinger(1, 8, 0)]
WISP = {"owner": "conjurer", "cell": [2, 4], "hp": 4, "summoned_round": 0}


def test_13_initiative_order_and_ties():
    """HV-TEST-13: initiative order and ties: character before monster on a tie, type order on a
    monster tie, summon before summoner, long rest 99 (HV-ROUND-1, HV-INIT-1 .. HV-INIT-4,
    HV-AI-4).
    Seed rules checked here as well (section 18): HV-STURN-2.
    """
    # (a) Conjurer C01 (18), Bulwark B05 (38), MA1 (18), SL2 (31), Wisp in play.
    game = new(
        {
            "round": 2,
            "phase": "select",
            "characters": {"bulwark": {"cell": [1, 2]}, "conjurer": {"cell": [1, 4]}},
            "summons": [WISP],
            "monsters": FAR_MONSTERS,
            "monster_cards": {"marauder": "MA1", "slinger": "SL2"},
        }
    )
    _select(game, ("B05", "B01"), ("C01", "C02"))
    assert sequence(game) == ["summon:1", "conjurer", "marauder", "slinger", "bulwark"]
    expect(game, "WINDOW_0", "conjurer")

    # (b) Bulwark B05 (38), Conjurer C06 (52), MA3 (41), SL3 (41).
    game = new(
        {
            "phase": "select",
            "characters": {"bulwark": {"cell": [1, 2]}, "conjurer": {"cell": [1, 4]}},
            "monsters": FAR_MONSTERS,
            "monster_cards": {"marauder": "MA3", "slinger": "SL3"},
        }
    )
    _select(game, ("B05", "B01"), ("C06", "C01"))
    assert sequence(game) == ["bulwark", "marauder", "slinger", "conjurer"]
    expect(game, "WINDOW_0", "bulwark")

    # (c) Both characters long rest (99), Wisp in play.
    game = new(
        {
            "round": 2,
            "phase": "select",
            "characters": {
                "bulwark": {"discard": ["B01", "B02"]},
                "conjurer": {"discard": ["C01", "C02"]},
            },
            "summons": [WISP],
            "monsters": FAR_MONSTERS,
            "monster_cards": {"marauder": "MA1", "slinger": "SL2"},
        }
    )
    _select(game, "long", "long")
    assert sequence(game) == ["marauder", "slinger", "bulwark", "summon:1", "conjurer"]
    expect(game, "LONG_REST_LOSE", "bulwark")

    # (d) Focus tie between the Conjurer and its Wisp: the summon comes first.
    game = new(
        {
            "round": 2,
            "phase": "turns",
            "sequence": ["marauder", "summon:1", "conjurer"],
            "characters": {"conjurer": {"cell": [2, 4], "played": ["C06", "C01"]}},
            "summons": [{"owner": "conjurer", "cell": [3, 4], "hp": 4, "summoned_round": 1}],
            "monsters": [marauder(1, 2, 3)],
            "monster_cards": {"marauder": "MA2"},
            "monster_amd": ["+0"],
        }
    )
    attack = events_of(game, "ATTACK", attacker="marauder#1")
    assert len(attack) == 1
    assert attack[0].data["target"] == "ember_wisp#1"
    assert not events_of(game, "MOVE", figure="marauder#1")
    assert pos(game, "marauder#1") == cell(2, 3)
    assert hp(game, "ember_wisp#1") == 2
    assert hp(game, "conjurer") == 7


# =================================================================================================
# HV-TEST-14


def test_14_attack_arithmetic():
    """HV-TEST-14: consume bonus, poison, ranged attack on an adjacent target (disadvantage),
    shield, x2 reshuffle at the end of the round (HV-ATK-1, HV-ATK-2, HV-ATK-3, HV-ELEM-4,
    HV-COND-2, HV-CLEAN-1, HV-AMD-3)."""
    game = new(
        {
            "phase": "turns",
            "sequence": ["conjurer"],
            "characters": {
                "conjurer": {"cell": [5, 4], "played": ["C02", "C01"], "amd": ["+1", "x2"]}
            },
            "monsters": [
                {
                    "type": "marauder",
                    "rank": "elite",
                    "standee": 3,
                    "cell": [6, 4],
                    "hp": 8,
                    "conditions": ["poison"],
                }
            ],
            "elements": {"fire": "strong"},
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED), "conjurer"))  # 73
    expect(game, "CONSUME", "conjurer", legal={YES, NO})
    play(game, ("CONSUME", YES))
    assert element(game, "fire") == "inert"  # at once
    expect(game, "ATTACK_TARGET", "conjurer", legal={HEX(6, 4), NO})
    play(game, ("ATTACK_TARGET", HEX(6, 4)))  # 42
    attack = events_of(game, "ATTACK", attacker="conjurer", target="marauder#3")
    assert len(attack) == 1
    assert attack[0].data["cards"] == ["+1", "x2"]
    assert attack[0].data["damage"] == 5  # (2 + 2 + 1) + 1 = 6 (worse than 10), minus shield 1
    assert hp(game, "marauder#3") == 3
    amd = char(game, "conjurer").amd
    assert sorted(amd.discard) == ["+1", "x2"]
    assert len(amd.draw) == 18
    # Finish the turn passively; at the end of the round the deck is reshuffled (x2 was drawn).
    drive(game, round_ended(1))
    amd = char(game, "conjurer").amd
    assert len(amd.draw) == 20
    assert amd.discard == []


# =================================================================================================
# HV-TEST-15


TEST_15 = {
    "phase": "cleanup",
    "characters": {
        "conjurer": {
            "cell": [1, 4],
            "hp": 3,
            "hand": ["C07"],
            "discard": ["C01", "C02", "C05"],
            "lost": ["C03", "C04", "C06", "C08"],
        },
        "bulwark": {
            "cell": [1, 2],
            "hand": ["B01"],
            "discard": ["B02"],
            "lost": cards("B03", "B09"),
        },
    },
    "monsters": [slinger(1, 4, 4)],
    "monster_cards": {"slinger": "SL3"},
    "monster_amd": ["+1"],
    "short_rest_picks": {"conjurer": ["C02", "C05"]},
}


def test_15_short_rest_exhaustion_and_loss():
    """HV-TEST-15: short rest with a paid reroll; exhaustion by cards at the round start and by
    HP; loss as soon as the last character is exhausted; every agent terminated with -1, the
    exhausted one still in ``agents`` (HV-SREST-1 .. HV-SREST-3, HV-EXH-1 .. HV-EXH-4, HV-END-3,
    HV-API-6, HV-API-7, HV-CLEAN-1)."""
    game = new(TEST_15)
    # Part A: cleanup of round N.
    expect(game, "SHORT_REST", "conjurer", legal={YES, NO})
    play(game, ("SHORT_REST", YES))
    expect(game, "SHORT_REST_REROLL", "conjurer", legal={YES, NO})
    assert game.prompt.rest_card == card("C02")
    mark = len(game.events)
    play(game, ("SHORT_REST_REROLL", YES))
    assert hp(game, "conjurer") == 2
    assert auto_actions(game, mark, prompt="DAMAGE_RESPONSE") == []
    assert events_of(game, "DAMAGE", since=mark, figure="conjurer", amount=1)
    assert cards_in(game, "conjurer", "lost") == {"C03", "C04", "C05", "C06", "C08"}
    assert cards_in(game, "conjurer", "hand") == {"C07", "C01", "C02"}
    assert cards_in(game, "conjurer", "discard") == set()

    # Part B: start of round N+1. The Bulwark is exhausted before selection.
    assert char(game, "bulwark").exhausted
    assert char(game, "bulwark").cell is None
    assert pos(game, "bulwark") is None
    assert cards_in(game, "bulwark", "lost") == set(BULWARK_CARDS)
    assert cards_in(game, "bulwark", "hand") == set()
    assert cards_in(game, "bulwark", "discard") == set()
    exhausted_b = index_of(game, "EXHAUSTED", figure="bulwark")
    in_order(
        game,
        ("ROUND_START", {"round": 2}),
        ("EXHAUSTED", {"figure": "bulwark"}),
        since=mark,
    )
    # No second reroll prompt; the next prompt is the Conjurer's selection.
    expect(game, "SELECT_LEAD", "conjurer", legal={CARD("C07"), CARD("C01"), CARD("C02")})
    play(game, ("SELECT_LEAD", CARD("C07")), ("SELECT_SECOND", CARD("C01")))
    assert index_of(game, "CARD_TO", figure="conjurer", to="played") > exhausted_b
    # The Slinger (SL3, 41) stays in range 3 and attacks for 2 + 1 = 3.
    expect(game, "DAMAGE_RESPONSE", "conjurer", legal={NO, CARD("C02")})
    assert game.prompt.value == 3
    assert pos(game, "slinger#1") == cell(4, 4)
    assert not events_of(game, "MOVE", figure="slinger#1")
    attack = events_of(game, "ATTACK", attacker="slinger#1", target="conjurer")
    assert len(attack) == 1 and attack[0].data["cards"] == ["+1"]
    play(game, ("DAMAGE_RESPONSE", NO))
    # The Conjurer is exhausted: loss at once, no further turn is run.
    assert char(game, "conjurer").exhausted
    assert game.outcome == "loss"
    assert game.prompt is None
    assert game.legal_actions() == ()
    exhausted = index_of(game, "EXHAUSTED", figure="conjurer")
    outcome = index_of(game, "OUTCOME", outcome="loss")
    assert exhausted < outcome
    assert not events_of(game, "TURN_START", since=exhausted)
    assert not events_of(game, "ROUND_END", since=index_of(game, "ROUND_START", round=2))
    # The Bulwark was never asked anything again.
    assert auto_actions(game, exhausted_b, agent="bulwark") == []
    # The same through the environment: both agents terminated with reward -1, the exhausted
    # Bulwark still in the agent list and never selected (every step below is the Conjurer's).
    env = env_run(
        TEST_15,
        [
            ("SHORT_REST", YES, "conjurer"),
            ("SHORT_REST_REROLL", YES, "conjurer"),
            ("SELECT_LEAD", CARD("C07"), "conjurer"),
            ("SELECT_SECOND", CARD("C01"), "conjurer"),
            ("DAMAGE_RESPONSE", NO, "conjurer"),
        ],
    )
    assert env.game.outcome == "loss"
    assert env.agents == ["bulwark", "conjurer"]
    assert env.terminations == {"bulwark": True, "conjurer": True}
    assert env.rewards == {"bulwark": -1.0, "conjurer": -1.0}
