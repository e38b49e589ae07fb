"""Section-17 test cases of haven.md on resting, exhaustion and loss: HV-TEST-09 (long rest) and
HV-TEST-15 (short rest with reroll, exhaustion by cards and by HP, loss).

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
    BULWARK_CARDS,
    CARD,
    LONG_REST,
    LOSE_TWO,
    NO,
    YES,
    auto_actions,
    card,
    cards,
    cards_in,
    cell,
    char,
    conditions,
    env_run,
    events_of,
    expect,
    hp,
    in_order,
    index_of,
    item,
    marauder,
    new,
    play,
    pos,
    sequence,
    slinger,
)

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
