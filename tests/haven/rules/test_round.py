"""Per-rule haven tests of the round (section 4): card selection (HV-SEL-*), monster ability cards
(HV-MCARD-*), initiative and the turn sequence (HV-INIT-*), the round's structure (HV-ROUND-*)
and cleanup (HV-CLEAN-1).
"""

from __future__ import annotations

import pytest

from reborn_env.games.haven.rules.state import SUMMON_SLOT
from tests.haven.helpers import (
    BOTTOM,
    BOX,
    BULWARK_CARDS,
    CARD,
    DEFAULT,
    FAR_MARAUDER,
    HEX,
    ITEM0,
    LEAD,
    LONG_REST,
    NO,
    OTHER,
    PRINTED,
    TOP,
    cards_in_order,
    char,
    drive,
    edited,
    element,
    events_of,
    expect,
    hp,
    index_of,
    mon,
    monster,
    new,
    others,
    play,
    reveal,
    select,
    slot_labels,
    turn_starts,
    wisp,
)

# =================================================================================================
# 4.2: card selection (HV-SEL-*)


def test_sel_1_4_two_cards_first_leads():
    """HV-SEL-1/4, HV-INIT-1: a character picks two hand cards; the first pick leads and sets
    the initiative (B05 38 leading, not B01 14), so the Conjurer (C05, 33) goes before it."""
    game = new(None)
    expect(game, "SELECT_LEAD", "bulwark", legal=[CARD(c) for c in BULWARK_CARDS])
    play(game, ("SELECT_LEAD", CARD("B05")))
    expect(game, "SELECT_SECOND", "bulwark", legal=[CARD(c) for c in others(BULWARK_CARDS, "B05")])
    play(game, ("SELECT_SECOND", CARD("B01")))
    select(game, conjurer=("C05", "C01"))
    assert char(game, "bulwark").initiative == 38 and char(game, "conjurer").initiative == 33
    order = reveal(game)
    assert order.index("conjurer") < order.index("bulwark")


def _select_fixture(hand=None, discard=(), lost=()):
    node = {"cell": [1, 2], "discard": list(discard), "lost": list(lost)}
    if hand is not None:
        node["hand"] = list(hand)
    return {
        "phase": "select",
        "characters": {"bulwark": node, "conjurer": {"cell": [1, 4]}},
        "monsters": [FAR_MARAUDER],
    }


@pytest.mark.parametrize(("discard", "rest_legal"), [(["B01"], False), (["B01", "B02"], True)])
def test_sel_2_long_rest_needs_two_discards(discard, rest_legal):
    """HV-SEL-2: LONG_REST is legal only with at least 2 discard cards; hand cards stay legal."""
    game = new(_select_fixture(discard=discard))
    hand = [CARD(c) for c in others(BULWARK_CARDS, *discard)]
    expect(game, "SELECT_LEAD", "bulwark", legal=hand + ([LONG_REST] if rest_legal else []))


@pytest.mark.parametrize("auto_forced", [True, False])
def test_sel_2_forced_long_rest(auto_forced):
    """HV-SEL-2, HV-LREST-1: with fewer than 2 hand cards the long rest is the only option (auto
    answered by default, HV-API-4); no second pick is asked; initiative 99."""
    fixture = _select_fixture(["B03"], ["B01", "B02"], others(BULWARK_CARDS, "B01", "B02", "B03"))
    game = new(fixture, auto_forced=auto_forced)
    if not auto_forced:
        expect(game, "SELECT_LEAD", "bulwark", legal=[LONG_REST])
        game.apply(LONG_REST)
    else:
        auto = events_of(game, "AUTO_ACTION", agent="bulwark", prompt="SELECT_LEAD")
        assert [e.data["action"] for e in auto] == ["LONG_REST"]
    expect(game, "SELECT_LEAD", "conjurer")
    assert char(game, "bulwark").long_rest
    select(game, conjurer=("C01", "C02"))
    assert char(game, "bulwark").initiative == 99


def test_sel_3_selection_events_are_secret_until_reveal():
    """HV-SEL-3: the events telling a character's picks are marked secret to that character and
    come before the REVEAL that makes them public."""
    game = new(None)
    select(game, ("B01", "B02"), ("C01", "C02"))
    picks = events_of(game, "CARD_TO", to="played")
    assert [(e.data["figure"], e.secret_of) for e in picks] == [
        ("bulwark", 0),
        ("bulwark", 0),
        ("conjurer", 1),
        ("conjurer", 1),
    ]
    assert game.events.index(picks[-1]) < index_of(game, "REVEAL")


# =================================================================================================
# 4.3: monster ability cards (HV-MCARD-*)


def test_mcard_1_draw_for_types_on_the_map():
    """HV-MCARD-1: after selection each monster type with a figure on the map draws the top card
    of its ability deck; a type with no figure draws nothing."""
    game = new(
        {
            "phase": "select",
            "characters": {"bulwark": {"cell": [1, 2]}, "conjurer": {"cell": [1, 4]}},
            "monsters": [FAR_MARAUDER],
            "monster_cards": {"marauder": "MA3", "slinger": "SL2"},
        }
    )
    before = len(game.events)
    select(game, ("B01", "B02"), ("C01", "C02"))
    marauder, slinger = game.state.monster_decks
    assert marauder.current == "MA3" and "MA3" not in marauder.draw and len(marauder.draw) == 6
    assert slinger.current is None and slinger.draw[0] == "SL2" and len(slinger.draw) == 7
    draws = [
        e.data for e in events_of(game, "DRAW", before) if e.data["deck"] in ("marauder", "slinger")
    ]
    assert draws == [{"deck": "marauder", "card": "MA3"}]
    assert "slinger" not in reveal(game) and "marauder" in reveal(game)
    assert index_of(game, "CARD_TO", to="played") < index_of(game, "DRAW", deck="marauder")


def test_mcard_2_empty_ability_pile_reshuffles():
    """HV-MCARD-2: with an empty ability draw pile, the discard is shuffled into a new draw pile
    before the card is drawn."""
    game = new(_select_fixture())
    all_cards = [c.id for c in game.scenario.monster_types[0].deck]

    def empty_pile(state):
        state["monster_decks"]["marauder"] = {
            "draw": [],
            "discard": all_cards,
            "current": None,
            "consumed": False,
        }

    game = edited(game, empty_pile)
    select(game, ("B01", "B02"), ("C01", "C02"))
    deck = game.state.monster_decks[0]
    assert deck.current in all_cards and deck.discard == []
    assert sorted(deck.draw + [deck.current]) == sorted(all_cards)


# =================================================================================================
# 4.4: initiative and turn sequence (HV-INIT-*)


def _round_start(bulwark_discard=(), conjurer_discard=(), monsters=(), cards=None, summons=()):
    return {
        "phase": "select",
        "characters": {
            "bulwark": {"cell": [1, 2], "discard": list(bulwark_discard)},
            "conjurer": {"cell": [1, 4], "discard": list(conjurer_discard)},
        },
        "monsters": list(monsters) or [FAR_MARAUDER],
        "monster_cards": cards or {},
        "summons": list(summons),
    }


BOTH_TYPES = [mon("marauder", 1, 8, 6), mon("slinger", 1, 8, 0)]


@pytest.mark.parametrize(
    ("bulwark", "expected"),
    [
        (("B07", "B01"), ["slinger", "bulwark", "marauder", "conjurer"]),  # 16, 22, 32, 33
        ("rest", ["slinger", "marauder", "conjurer", "bulwark"]),  # long rest = 99
    ],
)
def test_init_1_ascending_initiative(bulwark, expected):
    """HV-INIT-1: characters by their leading card (long rest 99), monster types by their drawn
    card, ascending. SL1 16, B07 22, MA2 32, C05 33."""
    game = new(
        _round_start(
            ["B08", "B09"], monsters=BOTH_TYPES, cards={"marauder": "MA2", "slinger": "SL1"}
        )
    )
    select(game, bulwark, ("C05", "C01"))
    assert reveal(game) == expected


def test_init_2_character_before_monster_on_tie():
    """HV-INIT-2: a character tying with a monster type goes first (C01 and MA1 are both 18)."""
    game = new(_round_start(cards={"marauder": "MA1"}))
    select(game, ("B03", "B01"), ("C01", "C02"))
    assert reveal(game) == ["conjurer", "marauder", "bulwark"]


@pytest.mark.parametrize(
    ("bulwark_played", "expected"),
    [(["B01", "B03"], ["conjurer", "bulwark"]), (["B01", "B02"], ["bulwark", "conjurer"])],
)
def test_init_2_characters_tie_on_other_card(bulwark_played, expected):
    """HV-INIT-2: two characters with the same initiative (50, set by the fixture) are ordered by
    their non-leading cards: B03 71 > C02 27 puts the Conjurer first, B02 11 < 27 the Bulwark."""
    game = new(
        {
            "characters": {
                "bulwark": {"cell": [1, 2], "played": bulwark_played, "initiative": 50},
                "conjurer": {"cell": [1, 4], "played": ["C01", "C02"], "initiative": 50},
            },
            "monsters": [FAR_MARAUDER],
        }
    )
    assert slot_labels(game) == expected


def test_init_3_remaining_ties():
    """HV-INIT-3: two long-resting characters (99/99) go by agent index; tied monster types (MA3
    and SL3, both 41) go Marauder before Slinger."""
    game = new(
        _round_start(
            ["B08", "B09"],
            ["C07", "C08"],
            monsters=BOTH_TYPES,
            cards={"slinger": "SL3", "marauder": "MA3"},
        )
    )
    select(game, "rest", "rest")
    assert reveal(game) == ["marauder", "slinger", "bulwark", "conjurer"]


def test_init_3_long_rest_counts_99_as_other_card():
    """HV-INIT-3: a long-resting character (99) tied with a character at initiative 99 whose
    other card is C08 (64) goes after it, although its agent index is lower."""
    game = new(
        {
            "characters": {
                "bulwark": {"cell": [1, 2], "long_rest": True, "discard": ["B01", "B02"]},
                "conjurer": {"cell": [1, 4], "played": ["C07", "C08"], "initiative": 99},
            },
            "monsters": [FAR_MARAUDER],
        }
    )
    assert slot_labels(game) == ["conjurer", "bulwark"]


def test_init_4_summons_before_long_resting_summoner():
    """HV-INIT-4: each summon takes its turn directly before its summoner's, also when the
    summoner long rests (99), several summons in summoning order."""
    game = new(
        _round_start(
            conjurer_discard=["C01", "C02"],
            cards={"marauder": "MA1"},
            summons=[wisp(2, 4), wisp(2, 5)],
        )
    )
    select(game, ("B09", "B01"), "rest")
    assert reveal(game) == ["marauder", "bulwark", "summon:1", "summon:2", "conjurer"]


def test_init_5_no_turn_in_the_round_summoned():
    """HV-INIT-5, HV-INIT-4: a Wisp summoned this round has no slot and no turn; in the next round
    it acts directly before the Conjurer."""
    game = new(
        {
            "characters": {"conjurer": {"cell": [3, 4], "played": ["C03", "C05"]}},
            "monsters": [mon("marauder", 1, 8, 0)],
        }
    )
    play(
        game,
        ("WINDOW_0", BOX(LEAD, TOP, PRINTED)),
        ("SUMMON_HEX", HEX(4, 4)),
        ("WINDOW_1", BOX(OTHER, BOTTOM, DEFAULT)),
        ("MOVE_DEST", NO),
        ("WINDOW_2", NO),
    )
    assert all(s.kind != SUMMON_SLOT for s in game.state.sequence)
    assert events_of(game, "TURN_START", figure="ember_wisp#1") == []
    start = index_of(game, "ROUND_START", round=2)
    drive(game, lambda g: bool(events_of(g, "ROUND_END", start, round=2)))
    seq = reveal(game, start)
    assert seq[seq.index("conjurer") - 1] == "summon:1"
    turns = turn_starts(game, start)
    assert turns[turns.index("conjurer") - 1] == "ember_wisp#1"


def test_init_6_7_fixed_sequence_skips_removed_figures():
    """HV-INIT-6/7: the sequence fixed at reveal keeps its slots; the Slinger type whose only
    monster the Conjurer killed is skipped, both Marauders act in their slot, and the Bulwark,
    exhausted by Marauder #1 before its turn, is skipped."""
    game = new(
        {
            "characters": {
                "conjurer": {"cell": [5, 4], "played": ["C01", "C02"], "amd": ["+0"]},
                "bulwark": {"cell": [2, 2], "hp": 2, "played": ["B03", "B01"]},
            },
            "monsters": [
                mon("slinger", 1, 6, 4, hp=1),
                mon("marauder", 1, 3, 2),
                mon("marauder", 2, 8, 6),
            ],
            "monster_cards": {"slinger": "SL2", "marauder": "MA3"},
            "monster_amd": ["+0", "+0"],
        }
    )
    assert slot_labels(game) == ["conjurer", "slinger", "marauder", "bulwark"]  # 18 31 41 71
    play(
        game,
        ("WINDOW_0", BOX(LEAD, TOP, DEFAULT)),
        ("ATTACK_TARGET", HEX(6, 4)),
        ("WINDOW_1", BOX(OTHER, BOTTOM, DEFAULT)),
        ("MOVE_DEST", NO),
        ("WINDOW_2", NO),
        ("DAMAGE_RESPONSE", NO, "bulwark"),  # Marauder #1: 2 + 0 on the adjacent Bulwark
    )
    assert char(game, "bulwark").exhausted
    expect(game, "SHORT_REST", "conjurer")  # cleanup: the Bulwark slot was skipped
    assert turn_starts(game) == ["conjurer", "marauder#1", "marauder#2"]
    assert slot_labels(game) == ["conjurer", "slinger", "marauder", "bulwark"]


# =================================================================================================
# 4: round structure (HV-ROUND-*)


def test_round_1_2_round_steps_and_turn_order():
    """HV-ROUND-2: a round is selection, reveal with monster card draws, turns, cleanup, in that
    order; HV-ROUND-1: the turns follow the revealed sequence."""
    game = new(None, seed=3)
    drive(game, lambda g: bool(events_of(g, "ROUND_END", round=1)))
    last_pick = max(game.events.index(e) for e in events_of(game, "CARD_TO", to="played"))
    draws = [
        game.events.index(e)
        for e in events_of(game, "DRAW")
        if e.data["deck"] in ("marauder", "slinger")
    ]
    reveal_at = index_of(game, "REVEAL")
    turns = [game.events.index(e) for e in events_of(game, "TURN_START")]
    assert index_of(game, "ROUND_START", round=1) < last_pick < min(draws)
    assert max(draws) < reveal_at < min(turns) and max(turns) < index_of(game, "ROUND_END", round=1)
    slots = []
    for e in events_of(game, "TURN_START"):
        who = e.data["figure"].partition("#")[0]
        if not slots or slots[-1] != who or who in ("bulwark", "conjurer"):
            slots.append(who)
    assert slots == reveal(game)


# =================================================================================================
# 4.5: cleanup (HV-CLEAN-1)


def test_clean_1_steps_in_order():
    """HV-CLEAN-1, HV-AMD-3, HV-ELEM-3: at the first short-rest prompt (step 5) steps 1-4 are
    done: the Conjurer's deck, which showed an (unused) null, is reshuffled, the Bulwark's (+1 only)
    is not; MA5 (shuffle mark) went back into a full draw pile, SL3 stays on the discard; fire
    strong -> waning, ice waning -> inert; the B02 round bonus is in the discard and shields end.
    Short rests are offered in agent order; then the round ends and round 2 starts."""
    game = new(
        {
            "sequence": ["bulwark", "conjurer"],
            "characters": {
                "bulwark": {
                    "cell": [2, 2],
                    "played": ["B01", "B03"],
                    "round_bonus": ["B02"],
                    "shield": 2,
                    "amd": ["+1"],
                },
                "conjurer": {"cell": [2, 4], "played": ["C01", "C02"], "amd": ["+1", "null"]},
            },
            "monsters": [mon("marauder", 1, 3, 2, shield=1), mon("marauder", 2, 4, 4)],
            "monster_cards": {"marauder": "MA5", "slinger": "SL3"},
            "elements": {"fire": "strong", "ice": "waning"},
        }
    )
    play(
        game,
        ("WINDOW_0", BOX(LEAD, TOP, PRINTED), "bulwark"),
        ("ATTACK_TARGET", HEX(3, 2)),  # B01: 3 + 1 - shield 1 = 3
        ("WINDOW_1", BOX(OTHER, BOTTOM, DEFAULT)),
        ("MOVE_DEST", NO),
        ("WINDOW_2", NO),
        ("WINDOW_0", ITEM0, "conjurer"),  # Seer's Lens
        ("WINDOW_0", BOX(LEAD, TOP, PRINTED)),
        ("ATTACK_TARGET", HEX(4, 4)),  # C01 top: advantage +1 (3) vs null (0) -> 3
        ("WINDOW_1", BOX(OTHER, BOTTOM, DEFAULT)),
        ("MOVE_DEST", NO),
        ("WINDOW_2", NO),
    )
    assert (hp(game, "marauder#1"), hp(game, "marauder#2")) == (2, 2)
    expect(game, "SHORT_REST", "bulwark")
    b, c = game.state.characters
    assert (len(c.amd.draw), c.amd.discard) == (20, [])  # step 1: null was drawn
    assert (len(b.amd.draw), b.amd.discard) == (19, ["+1"])
    marauder_deck, slinger_deck = game.state.monster_decks
    assert (len(marauder_deck.draw), marauder_deck.discard, marauder_deck.current) == (7, [], None)
    assert (slinger_deck.discard, len(slinger_deck.draw), slinger_deck.current) == (
        ["SL3"],
        6,
        None,
    )
    assert (element(game, "fire"), element(game, "ice")) == ("waning", "inert")  # step 3
    assert cards_in_order(game, "bulwark", "round_bonus") == [] and "B02" in cards_in_order(
        game, "bulwark", "discard"
    )
    assert b.shield == 0 and monster(game, "marauder#1").shield == 0  # step 4
    assert game.state.round == 1 and events_of(game, "ROUND_END") == []
    play(game, ("SHORT_REST", NO, "bulwark"), ("SHORT_REST", NO, "conjurer"))
    assert index_of(game, "ROUND_END", round=1) < index_of(game, "ROUND_START", round=2)
    assert game.state.round == 2
    expect(game, "SELECT_LEAD", "bulwark")


def test_clean_1_step_2_whole_discard_shuffled_back():
    """HV-CLEAN-1 step 2: a current card with the shuffle mark (MA5) takes the whole discard
    (MA2, MA3) and itself back into the draw pile (7 cards); a current card without the mark
    (SL3) is added on top of the existing discard (SL1)."""
    game = new(
        {
            "phase": "select",
            "characters": {"bulwark": {"cell": [1, 2]}, "conjurer": {"cell": [1, 4]}},
            "monsters": [FAR_MARAUDER],
        }
    )

    def decks(state):
        state["phase"] = "turns"
        state["sequence"] = []
        state["slot"] = 0
        for ch in state["characters"]:
            ch["sits_out"], ch["acted"] = True, True
        state["monster_decks"]["marauder"] = {
            "draw": ["MA1", "MA4", "MA6", "MA7"],
            "discard": ["MA2", "MA3"],
            "current": "MA5",
            "consumed": False,
        }
        state["monster_decks"]["slinger"] = {
            "draw": ["SL2", "SL4", "SL5", "SL6", "SL7"],
            "discard": ["SL1"],
            "current": "SL3",
            "consumed": False,
        }

    game = edited(game, decks)
    marauder_deck, slinger_deck = game.state.monster_decks
    assert sorted(marauder_deck.draw) == ["MA1", "MA2", "MA3", "MA4", "MA5", "MA6", "MA7"]
    assert marauder_deck.discard == [] and marauder_deck.current is None
    assert slinger_deck.discard == ["SL1", "SL3"] and len(slinger_deck.draw) == 5
