"""Per-rule haven tests of resting (section 6): long rests (HV-LREST-*) and short rests
(HV-SREST-*).
"""

from __future__ import annotations

import pytest

from tests.haven.helpers import (
    BULWARK_CARDS,
    CARD,
    FAR_MARAUDER,
    LONG_REST,
    NO,
    YES,
    cards_in_order,
    char,
    coins,
    conditions,
    drive,
    events_of,
    expect,
    hp,
    index_of,
    new,
    others,
    play,
    prompt_is,
    reveal,
    select,
    summon,
    wisp,
)

# =================================================================================================
# 6: resting (HV-LREST-*, HV-SREST-*)


def test_lrest_1_long_rest_takes_the_turn_at_99():
    """HV-LREST-1, HV-SEL-1: a long rest declared at selection (no second pick) puts the Bulwark
    last (99) behind C08 (64) and MA7 (74); its turn is the long rest (LONG_REST_LOSE), with no
    box window."""
    game = new(
        {
            "phase": "select",
            "characters": {
                "bulwark": {
                    "cell": [1, 2],
                    "hand": ["B01", "B02", "B03"],
                    "discard": ["B04", "B05"],
                    "lost": ["B06", "B07", "B08", "B09"],
                },
                "conjurer": {"cell": [1, 4]},
            },
            "monsters": [FAR_MARAUDER],
            "monster_cards": {"marauder": "MA7"},
        }
    )
    play(game, ("SELECT_LEAD", LONG_REST, "bulwark"))
    expect(game, "SELECT_LEAD", "conjurer")
    select(game, conjurer=("C08", "C07"))
    assert reveal(game) == ["conjurer", "marauder", "bulwark"]
    drive(game, prompt_is("LONG_REST_LOSE", "bulwark"))
    expect(game, "LONG_REST_LOSE", legal={CARD("B04"), CARD("B05")})
    game.apply(CARD("B04"))
    assert events_of(game, "BOX", figure="bulwark") == []
    assert events_of(game, "TURN_END", figure="bulwark")
    assert cards_in_order(game, "bulwark", "lost")[-1] == "B04"


def test_lrest_7_active_cards_are_not_rested():
    """HV-LREST-7: C03 in the active area (its Wisp alive) is not part of the discard for the
    long rest: only C01/C02 can be lost, and C03 stays active with its Wisp."""
    game = new(
        {
            "characters": {
                "conjurer": {
                    "cell": [2, 4],
                    "hp": 5,
                    "long_rest": True,
                    "discard": ["C01", "C02"],
                }
            },
            "summons": [wisp(2, 5)],
            "monsters": [FAR_MARAUDER],
        }
    )
    drive(game, prompt_is("LONG_REST_LOSE", "conjurer"))
    expect(game, "LONG_REST_LOSE", legal={CARD("C01"), CARD("C02")})
    game.apply(CARD("C01"))
    assert cards_in_order(game, "conjurer", "persistent") == ["C03"] and summon(game, 1) is not None
    assert "C02" in cards_in_order(game, "conjurer", "hand") and cards_in_order(
        game, "conjurer", "lost"
    ) == ["C01"]
    assert hp(game, "conjurer") == 7


def test_lrest_6_cond_6_stun_does_not_prevent_long_rest():
    """HV-LREST-6, HV-COND-6: a stunned character still long rests (loses a card, Heal 2), and
    the stun, present at turn start, ends with the turn."""
    game = new(
        {
            "characters": {
                "bulwark": {
                    "cell": [1, 2],
                    "hp": 6,
                    "long_rest": True,
                    "conditions": ["stun"],
                    "discard": ["B01", "B02"],
                }
            },
            "monsters": [FAR_MARAUDER],
        }
    )
    play(game, ("LONG_REST_LOSE", CARD("B02"), "bulwark"))
    assert hp(game, "bulwark") == 8 and conditions(game, "bulwark") == set()
    assert cards_in_order(game, "bulwark", "lost") == ["B02"] and "B01" in cards_in_order(
        game, "bulwark", "hand"
    )


def _cleanup(bulwark, picks=None, conjurer=None):
    return {
        "phase": "cleanup",
        "characters": {"bulwark": bulwark, **({"conjurer": conjurer} if conjurer else {})},
        "monsters": [FAR_MARAUDER],
        "short_rest_picks": {"bulwark": picks} if picks else {},
    }


def test_srest_1_3_short_rest():
    """HV-SREST-1/3: in cleanup a character with 2+ discards may short rest: the random card
    (scripted B02, shown in the reroll prompt) is lost, the others return to hand; no heal, no
    item refresh. The Conjurer with one discard is not asked."""
    game = new(
        _cleanup(
            {
                "cell": [1, 2],
                "hp": 6,
                "discard": ["B01", "B02", "B03"],
                "items": {"swift_boots": "spent"},
            },
            ["B02"],
            {"cell": [1, 4], "discard": ["C01"]},
        )
    )
    play(game, ("SHORT_REST", YES, "bulwark"))
    expect(game, "SHORT_REST_REROLL", "bulwark", legal={YES, NO})
    assert game.prompt.rest_card == 1  # B02
    game.apply(NO)
    assert (
        cards_in_order(game, "bulwark", "lost") == ["B02"]
        and cards_in_order(game, "bulwark", "discard") == []
    )
    assert {"B01", "B03"} <= set(cards_in_order(game, "bulwark", "hand"))
    assert hp(game, "bulwark") == 6 and char(game, "bulwark").items[0] == "spent"
    expect(game, "SELECT_LEAD", "bulwark")  # next round; the Conjurer was never asked to rest


def test_srest_1_random_pick_comes_from_discard():
    """HV-SREST-1: without a script the lost card is drawn by the seeded generator from the
    discard pile; over several seeds more than one card comes up."""
    lost = set()
    for seed in range(8):
        game = new(_cleanup({"cell": [1, 2], "discard": ["B01", "B02", "B03"]}), seed=seed)
        play(game, ("SHORT_REST", YES), ("SHORT_REST_REROLL", NO))
        pile = cards_in_order(game, "bulwark", "lost")
        assert len(pile) == 1 and pile[0] in {"B01", "B02", "B03"}
        assert sorted(cards_in_order(game, "bulwark", "hand")) == others(BULWARK_CARDS, pile[0])
        lost.add(pile[0])
    assert len(lost) > 1


def test_srest_2_reroll_costs_one_unnegatable_damage():
    """HV-SREST-2: paying 1 HP (no DAMAGE_RESPONSE although negation is on) keeps B02 and loses
    a different random card (scripted B03); only one reroll."""
    game = new(
        _cleanup({"cell": [1, 2], "hp": 6, "discard": ["B01", "B02", "B03"]}, ["B02", "B03"])
    )
    play(game, ("SHORT_REST", YES), ("SHORT_REST_REROLL", YES))
    assert hp(game, "bulwark") == 5
    assert cards_in_order(game, "bulwark", "lost") == ["B03"]
    assert {"B01", "B02"} <= set(cards_in_order(game, "bulwark", "hand"))
    expect(game, "SELECT_LEAD", "bulwark")


def test_srest_2_reroll_may_exhaust():
    """HV-SREST-2, HV-EXH-2: YES stays legal at HP 1 and exhausts the Bulwark."""
    game = new(_cleanup({"cell": [1, 2], "hp": 1, "discard": ["B01", "B02"]}, ["B01"]))
    play(game, ("SHORT_REST", YES))
    expect(game, "SHORT_REST_REROLL", legal={YES, NO})
    game.apply(YES)
    assert char(game, "bulwark").exhausted
    assert cards_in_order(game, "bulwark", "lost") == list(BULWARK_CARDS)
    expect(game, "SELECT_LEAD", "conjurer")


def test_lrest_6_long_rest_turn_ends_with_loot():
    """HV-LREST-6, HV-CEND-1: the long-rest turn ends with the usual end-of-turn steps: the coin
    on the resting Bulwark's hex is looted (2 gold)."""
    game = new(
        {
            "characters": {
                "bulwark": {"cell": [1, 2], "long_rest": True, "discard": ["B01", "B02"]}
            },
            "monsters": [FAR_MARAUDER],
            "coins": [[1, 2]],
        }
    )
    play(game, ("LONG_REST_LOSE", CARD("B01"), "bulwark"))
    assert char(game, "bulwark").gold == 2 and coins(game) == {}


@pytest.mark.parametrize("discard", [["B01", "B02", "B03"], []])
def test_lrest_2_3_4_5_long_rest_steps(discard):
    """HV-LREST-2/3/4/5, HV-LREST-6: after the wound (6 -> 5) the long rest loses the chosen
    discard card (B02; nothing when the discard is empty, and no prompt), returns the others to
    hand, then Heal 2 (removes wound, 5 -> 7), then refreshes the spent Boots but not the consumed
    Draught, in this order, and the turn ends."""
    lost = ["B09"]
    game = new(
        {
            "characters": {
                "bulwark": {
                    "cell": [1, 2],
                    "hp": 6,
                    "conditions": ["wound"],
                    "long_rest": True,
                    "discard": discard,
                    "lost": lost,
                    "items": {"swift_boots": "spent", "healing_draught": "consumed"},
                }
            },
            "monsters": [FAR_MARAUDER],
        }
    )
    play(game, ("DAMAGE_RESPONSE", NO, "bulwark"))
    assert [e.data["hp"] for e in events_of(game, "DAMAGE", figure="bulwark")] == [5]
    if discard:
        expect(game, "LONG_REST_LOSE", legal={CARD(c) for c in discard})
        game.apply(CARD("B02"))
        assert cards_in_order(game, "bulwark", "lost") == ["B09", "B02"]
        assert index_of(game, "CARD_TO", card="B02", to="lost") < index_of(
            game, "HEAL", figure="bulwark"
        )
    else:
        assert cards_in_order(game, "bulwark", "lost") == ["B09"]
    assert cards_in_order(game, "bulwark", "discard") == []
    assert sorted(cards_in_order(game, "bulwark", "hand")) == others(
        BULWARK_CARDS, "B09", *discard[1:2]
    )
    assert hp(game, "bulwark") == 7 and conditions(game, "bulwark") == set()
    assert char(game, "bulwark").items == ["ready", "consumed"]
    assert index_of(game, "HEAL", figure="bulwark") < index_of(game, "TURN_END", figure="bulwark")
