"""Section-17 test cases of haven.md on a character's turn from start to end: HV-TEST-01
(wound at turn start), HV-TEST-02 (stunned character), HV-TEST-06 (end-of-turn loot, win at
the end of the round) and HV-TEST-07 (condition expiry, advantage and disadvantage).

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
    CARD,
    DEFAULT,
    HEX,
    ITEM0,
    ITEM1,
    LEAD,
    LOSE_TWO,
    NO,
    OTHER,
    PRINTED,
    TOP,
    auto_actions,
    cards,
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
    marauder,
    new,
    norm_cell,
    play,
    pos,
)

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
