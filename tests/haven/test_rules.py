"""Per-rule unit tests of the haven rules engine: one small fixture-based test (or parametrised
group) per rule id of /work/shared/rules/haven.md, each docstring starting with the id(s) it checks.

The section-17 cases live in tests/haven/test_tc.py, the map rules in tests/haven/test_hexgrid.py
and the AEC interface in tests/haven/test_env_api.py; this file covers the remaining rule ids and
adds independent checks of the others. Every expected number is worked out from the spec text
(map of 15.1, content of 15.2-15.6) in the comments next to it.

Fixture conventions (HV-API-10): a TURNS fixture starts at the first slot of its sequence; an
unlisted character stands at its start hex and takes no turn (it is still on the map, so tests
with acting monsters list both characters and put the uninvolved one out of reach).
"""

from __future__ import annotations

from collections import Counter

import pytest

from reborn_env.core.errors import PositionError
from reborn_env.games.haven.rules.state import SUMMON_SLOT
from reborn_env.games.haven.scenario.model import ELEMENTS
from tests.haven.helpers import (
    BOTTOM,
    BOX,
    BOX_ACTIONS,
    BULWARK_CARDS,
    CARD,
    CONJURER_CARDS,
    DEFAULT,
    HEX,
    ITEM0,
    ITEM1,
    ITEM_ACTIONS,
    LEAD,
    LONG_REST,
    LOSE_TWO,
    NO,
    OTHER,
    PRINTED,
    TOP,
    YES,
    cards_in_order,
    cell,
    char,
    coins,
    conditions,
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
    passive_answer,
    play,
    pos,
    prompt_is,
    reveal,
    summon,
    turn_starts,
    wisp,
)

STANDARD_AMD = Counter({"+0": 6, "+1": 5, "-1": 5, "+2": 1, "-2": 1, "x2": 1, "null": 1})
FAR_MARAUDER = mon("marauder", 1, 8, 6)  # keeps the scenario from being won, reaches no one


def select(game, bulwark=None, conjurer=None):
    """Answer the selection prompts: ``(lead, second)`` card ids or ``"rest"`` per character."""
    for agent, pick in (("bulwark", bulwark), ("conjurer", conjurer)):
        if pick is None:
            continue
        if pick == "rest":
            play(game, ("SELECT_LEAD", LONG_REST, agent))
        else:
            play(
                game, ("SELECT_LEAD", CARD(pick[0]), agent), ("SELECT_SECOND", CARD(pick[1]), agent)
            )
    return game


def slot_labels(game) -> list[str]:
    return [game.slot_label(s) for s in game.state.sequence]


# =================================================================================================
# Section 1: state records (HV-STATE-*) and setup (HV-SETUP-*)


def test_state_1_character_records():
    """HV-STATE-1: a new game's characters hold class, max/current HP, position, conditions, the
    five card zones (hand, played split into leading/other, discard, lost, active), item states,
    an own modifier deck (draw + discard), gold and the exhausted flag."""
    game = new(None)
    expected = {"bulwark": (10, cell(1, 2), 9), "conjurer": (7, cell(1, 4), 8)}
    for index, (agent, (max_hp, start, cards)) in enumerate(expected.items()):
        ch = game.state.characters[index]
        assert game.scenario.characters[index].id == agent
        assert (ch.max_hp, ch.hp, ch.cell) == (max_hp, max_hp, start)
        assert ch.conditions == []
        assert ch.hand == list(range(cards))
        assert (ch.played, ch.lead, ch.second) == ([], None, None)
        assert ch.discard == ch.lost == ch.active == []
        assert ch.items == ["ready", "ready"]
        assert len(ch.amd.draw) == 20 and ch.amd.discard == []
        assert ch.gold == 0 and ch.exhausted is False
    select(game, ("B05", "B01"), ("C01", "C02"))
    bulwark = char(game, "bulwark")
    assert (bulwark.lead, bulwark.second) == (4, 0)  # B05 leading, B01 other
    assert cards_in_order(game, "bulwark", "played") == ["B05", "B01"]
    assert "B05" not in cards_in_order(game, "bulwark", "hand")


def test_state_2_monster_records():
    """HV-STATE-2: each monster has type, rank, standee, max and current HP, position, conditions
    and round bonuses; the default scenario places the five monsters of 15.1 with 15.5 HP."""
    game = new(None)
    got = {
        (game.scenario.monster_types[m.type].id, m.rank, m.standee, m.max_hp, m.hp, m.cell)
        for m in game.state.monsters
    }
    assert got == {
        ("marauder", "normal", 1, 5, 5, cell(7, 2)),
        ("marauder", "normal", 2, 5, 5, cell(6, 5)),
        ("marauder", "elite", 3, 8, 8, cell(7, 4)),
        ("slinger", "normal", 1, 4, 4, cell(8, 3)),
        ("slinger", "elite", 2, 6, 6, cell(7, 6)),
    }
    for m in game.state.monsters:
        assert m.conditions == [] and m.shield == 0 and m.retaliate == 0


def test_state_3_summon_record():
    """HV-STATE-3: a summon records owner, the card it came from, max HP, HP, Move, Attack, Range
    (15.3: 4/2/2/melee), position, conditions, the round it was summoned in and its number."""
    game = new(
        {
            "round": 3,
            "characters": {"conjurer": {"cell": [3, 4], "played": ["C03", "C05"]}},
            "monsters": [FAR_MARAUDER],
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)), ("SUMMON_HEX", HEX(4, 4)))
    s = summon(game, 1)
    assert s is not None
    assert (s.owner, s.summon, s.card) == (1, "ember_wisp", 2)  # conjurer, C03 = index 2
    assert (s.max_hp, s.hp, s.move, s.attack, s.range) == (4, 4, 2, 2, 0)
    assert (s.cell, s.conditions, s.summoned_round, s.number) == (cell(4, 4), [], 3, 1)


def test_state_4_monster_ability_decks():
    """HV-STATE-4: each monster type has an ability draw pile, a discard and at most one current
    card; the current card is the one drawn at the round's reveal."""
    game = new(None)
    for t, deck in zip(game.scenario.monster_types, game.state.monster_decks, strict=True):
        assert sorted(deck.draw) == sorted(c.id for c in t.deck) and len(deck.draw) == 7
        assert deck.discard == [] and deck.current is None
    tops = [deck.draw[0] for deck in game.state.monster_decks]
    rest = [deck.draw[1:] for deck in game.state.monster_decks]
    select(game, ("B01", "B02"), ("C01", "C02"))
    for deck, top, remaining in zip(game.state.monster_decks, tops, rest, strict=True):
        assert deck.current == top and deck.draw == remaining


def test_state_5_elements_and_pending_infusions():
    """HV-STATE-5, HV-ELEM-1: six elements (fire, ice, air, earth, light, dark), all inert at the
    start, and
    a pending-infusion set for the running turn (Kindle's infusion waits in it)."""
    game = new(None)
    assert ELEMENTS == ("fire", "ice", "air", "earth", "light", "dark")
    assert [element(game, e) for e in ELEMENTS] == ["inert"] * 6
    assert game.state.pending_infusions == []
    game = new(
        {
            "characters": {"conjurer": {"cell": [2, 4], "played": ["C01", "C02"]}},
            "monsters": [FAR_MARAUDER],
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, BOTTOM, PRINTED)), ("MOVE_DEST", HEX(3, 4)))
    expect(game, "WINDOW_1", "conjurer")
    assert game.state.pending_infusions == [ELEMENTS.index("fire")]
    assert element(game, "fire") == "inert"


def test_state_6_tokens_and_gold_per_character():
    """HV-STATE-6: coins (any number per hex) and treasure tiles lie on the map; gold belongs to
    the character that loots and is not shared."""
    game = new(None)
    assert coins(game) == {cell(0, 5): 1, cell(8, 6): 1}
    assert game.state.treasures == {cell(8, 0): 1}
    game = new(
        {
            "sequence": ["bulwark"],
            "characters": {
                "bulwark": {"cell": [2, 2], "played": ["B01", "B02"]},
                "conjurer": {"cell": [1, 4], "gold": 3},
            },
            "monsters": [FAR_MARAUDER],
            "coins": [[2, 2], [2, 2], [2, 2]],
        }
    )
    assert coins(game) == {cell(2, 2): 3}
    drive(game, lambda g: bool(events_of(g, "TURN_END", figure="bulwark")))
    assert char(game, "bulwark").gold == 6  # 3 coins x 2 gold
    assert char(game, "conjurer").gold == 3


def test_state_7_global_state():
    """HV-STATE-7: round number (starts at 1), phase, turn sequence, pending decision, outcome,
    seeded generator and event log."""
    game = new(None)
    state = game.state
    assert (state.round, state.phase, state.sequence, state.outcome) == (1, "select", [], "running")
    assert state.rng is not None
    assert game.prompt is not None and game.prompt.kind == "SELECT_LEAD"
    assert game.events[0].type == "ROUND_START" and game.events[0].data["round"] == 1
    select(game, ("B01", "B02"), ("C01", "C02"))
    assert state.phase == "turns" and len(state.sequence) == 4  # 2 characters + 2 monster types


def test_setup_1_default_scenario():
    """HV-SETUP-1: the default scenario is loaded: characters at their 15.1 starts with all class
    cards, ready items, full HP and no conditions; monsters and tokens of 15.1; elements inert."""
    game = new(None)
    b, c = game.state.characters
    assert (b.cell, c.cell) == (cell(1, 2), cell(1, 4))
    assert cards_in_order(game, "bulwark", "hand") == list(BULWARK_CARDS)
    assert cards_in_order(game, "conjurer", "hand") == list(CONJURER_CARDS)
    assert b.items == c.items == ["ready", "ready"]
    assert (b.hp, c.hp) == (10, 7) and b.conditions == c.conditions == []
    assert len(game.state.monsters) == 5
    assert coins(game) == {cell(0, 5): 1, cell(8, 6): 1} and game.state.treasures == {8: 1}
    assert all(e == 0 for e in game.state.elements)
    assert game.outcome == "running"


def _deck_orders(game):
    state = game.state
    return (
        [list(c.amd.draw) for c in state.characters],
        list(state.monster_amd.draw),
        [list(d.draw) for d in state.monster_decks],
    )


def test_setup_2_decks_shuffled_by_seed():
    """HV-SETUP-2, HV-AMD-1/2: every modifier and ability deck is shuffled by the seeded
    generator: the same seed gives the same orders, different seeds different ones; each modifier
    deck is a full standard 20-card deck and each character has its own."""
    a, b, other = new(None, seed=7), new(None, seed=7), new(None, seed=8)
    assert _deck_orders(a) == _deck_orders(b)
    assert _deck_orders(a) != _deck_orders(other)
    assert a.state.characters[0].amd.draw != other.state.characters[0].amd.draw
    for deck in [c.amd for c in a.state.characters] + [a.state.monster_amd]:
        assert Counter(deck.draw) == STANDARD_AMD
    assert a.state.characters[0].amd is not a.state.characters[1].amd


# =================================================================================================
# Section 3: end of the scenario (HV-END-*)


def _one_kill_fixture(extra_monsters=()):
    return {
        "characters": {
            "conjurer": {"cell": [2, 4], "played": ["C01", "C02"], "amd": ["+0"]},
            "bulwark": {"cell": [1, 2], "played": ["B08", "B01"]},
        },
        "monsters": [mon("marauder", 1, 3, 4, hp=1), *extra_monsters],
    }


def _conjurer_kills(game):
    # C01 top in default mode = Attack 2 (melee) on the adjacent marauder (HP 1): it dies.
    play(
        game,
        ("WINDOW_0", BOX(LEAD, TOP, DEFAULT), "conjurer"),
        ("ATTACK_TARGET", HEX(3, 4)),
        ("WINDOW_1", BOX(OTHER, BOTTOM, DEFAULT)),
        ("MOVE_DEST", NO),
        ("WINDOW_2", NO),
    )


def test_end_1_2_win_at_end_of_round():
    """HV-END-1/2: when the last monster dies the rest of the round is still played (the Bulwark
    still gets its turn) and the scenario ends with win after cleanup (no short rest offered)."""
    game = new(_one_kill_fixture())
    _conjurer_kills(game)
    assert game.state.monsters == [] and game.outcome == "running"
    expect(game, "WINDOW_0", "bulwark")
    play(
        game,
        ("WINDOW_0", BOX(LEAD, BOTTOM, DEFAULT)),
        ("MOVE_DEST", NO),
        ("WINDOW_1", BOX(OTHER, TOP, DEFAULT)),
        ("WINDOW_2", NO),
    )
    assert game.outcome == "win" and game.prompt is None
    assert events_of(game, "SHORT_REST") == []
    assert index_of(game, "ROUND_END", round=1) < index_of(game, "OUTCOME", outcome="win")


def test_end_2_monsters_left_no_win():
    """HV-END-2: the win condition is 'no monster on the map': with one monster left the round
    ends without an outcome and round 2 starts."""
    game = new(_one_kill_fixture([FAR_MARAUDER | {"standee": 2}]))
    _conjurer_kills(game)
    drive(game, lambda g: g.state.round == 2)
    assert game.outcome == "running" and not game.state.win_met
    expect(game, "SELECT_LEAD", "bulwark")


def _last_stand_fixture():
    return {
        "characters": {
            # Conjurer leads C04 (9): its wound exhausts it at HP 1.
            "conjurer": {
                "cell": [0, 6],
                "hp": 1,
                "conditions": ["wound"],
                "played": ["C04", "C01"],
            },
            # Bulwark leads B01 (14); B03 top: Attack 4, then suffer 1 damage.
            "bulwark": {"cell": [2, 2], "hp": 1, "played": ["B01", "B03"], "amd": ["+0"]},
        },
        "monsters": [mon("marauder", 1, 3, 2, hp=2)],
        "monster_cards": {"marauder": "MA4"},  # initiative 15: after the Bulwark
    }


@pytest.mark.parametrize("kill", [False, True])
def test_end_3_last_exhaustion(kill):
    """HV-END-3: the last character's exhaustion ends the scenario at once with loss (the
    Marauder's later slot never runs) - or with win when the last monster died earlier in the
    same round (Bulwark kills it with B03, then its self-damage exhausts it)."""
    game = new(_last_stand_fixture())
    play(game, ("DAMAGE_RESPONSE", NO, "conjurer"))
    assert char(game, "conjurer").exhausted and game.outcome == "running"
    play(
        game,
        ("WINDOW_0", BOX(OTHER, TOP, PRINTED), "bulwark"),
        ("ATTACK_TARGET", HEX(3, 2) if kill else NO),
        ("DAMAGE_RESPONSE", NO, "bulwark"),
    )
    assert game.outcome == ("win" if kill else "loss")
    assert game.prompt is None
    assert events_of(game, "TURN_START", figure="marauder#1") == []
    assert events_of(game, "ROUND_END") == []  # ended at once, not after cleanup
    assert [e.data["outcome"] for e in events_of(game, "OUTCOME")] == [game.outcome]


@pytest.mark.parametrize(("max_rounds", "truncated"), [(3, True), (4, False)])
def test_end_4_round_cap(max_rounds, truncated):
    """HV-END-4: if round ``max_rounds`` ends without an outcome the episode is truncated; an
    earlier round just ends."""
    fixture = {
        "round": 3,
        "characters": {"bulwark": {"cell": [1, 2], "played": ["B01", "B02"]}},
        "monsters": [FAR_MARAUDER],
    }
    game = new(fixture, max_rounds=max_rounds)
    drive(game, lambda g: g.prompt is None or g.state.round == 4)
    if truncated:
        assert game.outcome == "truncated" and game.prompt is None
        assert events_of(game, "OUTCOME", outcome="truncated")
    else:
        assert game.outcome == "running"
        expect(game, "SELECT_LEAD", "bulwark")


# =================================================================================================
# 4.1 / 11: exhaustion (HV-EXH-*)


@pytest.mark.parametrize(
    ("hand", "discard", "exhausted"),
    [
        (["B01"], ["B02"], True),
        ([], ["B01"], True),
        (["B01"], ["B02", "B03"], False),
        (["B01", "B02"], [], False),
        ([], ["B01", "B02"], False),
    ],
)
def test_exh_1_start_of_round_exhaustion(hand, discard, exhausted):
    """HV-EXH-1: at the start of a round, before selection, a character with fewer than 2 hand
    cards and fewer than 2 discard cards is exhausted; either pile with 2 cards saves it."""
    lost = others(BULWARK_CARDS, *hand, *discard)
    game = new(
        {
            "phase": "select",
            "characters": {
                "bulwark": {"cell": [1, 2], "hand": hand, "discard": discard, "lost": lost},
                "conjurer": {"cell": [1, 4]},
            },
            "monsters": [FAR_MARAUDER],
        }
    )
    assert char(game, "bulwark").exhausted is exhausted
    if exhausted:
        assert cards_in_order(game, "bulwark", "lost") == list(BULWARK_CARDS)
        assert pos(game, "bulwark") is None
        expect(game, "SELECT_LEAD", "conjurer")  # the bulwark is never asked
        assert index_of(game, "ROUND_START") < index_of(game, "EXHAUSTED", figure="bulwark")
        assert (
            events_of(game, "CARD_TO", to="played") == [] and events_of(game, "AUTO_ACTION") == []
        )
    else:
        assert events_of(game, "EXHAUSTED") == []


@pytest.mark.parametrize(("start_hp", "exhausted"), [(3, False), (2, True)])
def test_exh_2_hp_below_one(start_hp, exhausted):
    """HV-EXH-2: a character whose HP drops below 1 is exhausted; HP 1 is not. (Marauder MA2:
    Attack 2 + '+0' on the adjacent Bulwark.)"""
    game = new(
        {
            "sequence": ["marauder"],
            "characters": {
                "bulwark": {"cell": [2, 2], "hp": start_hp},
                "conjurer": {"cell": [0, 6]},
            },
            "monsters": [mon("marauder", 1, 3, 2)],
            "monster_cards": {"marauder": "MA2"},
            "monster_amd": ["+0"],
        }
    )
    play(game, ("DAMAGE_RESPONSE", NO, "bulwark"))
    assert char(game, "bulwark").exhausted is exhausted
    if exhausted:
        assert pos(game, "bulwark") is None and events_of(game, "EXHAUSTED", figure="bulwark")
    else:
        assert hp(game, "bulwark") == 1


def test_exh_3_4_exhaustion_effects():
    """HV-EXH-3/4, HV-CTURN-4: exhausted by its wound at turn start, the Conjurer loses every
    card (hand, played, discard, active), its Wisp is removed, it leaves the map, keeps its gold;
    it is never asked anything again (round 2 reveal and prompts are the Bulwark's only)."""
    game = new(
        {
            "characters": {
                "conjurer": {
                    "cell": [2, 4],
                    "hp": 1,
                    "conditions": ["wound"],
                    "played": ["C01", "C02"],
                    "discard": ["C05"],
                    "lost": ["C04"],
                    "gold": 5,
                },
                "bulwark": {"cell": [1, 2], "played": ["B08", "B01"]},
            },
            "summons": [wisp(3, 4)],
            "monsters": [mon("marauder", 1, 8, 0)],
        }
    )
    assert slot_labels(game) == ["summon:1", "conjurer", "bulwark"]
    play(game, ("DAMAGE_RESPONSE", NO, "conjurer"))
    ch = char(game, "conjurer")
    assert ch.exhausted and ch.cell is None and ch.gold == 5
    assert cards_in_order(game, "conjurer", "lost") == list(CONJURER_CARDS)
    assert ch.hand == ch.played == ch.discard == ch.active == []
    assert game.state.summons == [] and events_of(game, "DEATH", figure="ember_wisp#1")
    assert events_of(game, "TURN_END", figure="conjurer") == []
    start = len(game.events)
    for _ in range(200):
        if events_of(game, "ROUND_END", start, round=2):
            break
        assert game.prompt is not None and game.prompt.agent == 0
        game.apply(passive_answer(game))
    else:
        raise AssertionError("round 2 never ended")
    assert "conjurer" not in reveal(game, start)
    assert game.outcome == "running"


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


# =================================================================================================
# 5: character turn (HV-CTURN-*, HV-BOX-*, HV-ITEM-*)


def test_cturn_1_cend_2_only_start_conditions_expire():
    """HV-CTURN-1, HV-CEND-2, HV-ABL-6, HV-COND-11: the set S recorded at turn start decides
    expiry: muddle (in S) ends, strengthen gained from B06 this turn stays, poison is not an
    expiring condition and stays."""
    game = new(
        {
            "characters": {
                "bulwark": {
                    "cell": [2, 2],
                    "played": ["B06", "B01"],
                    "conditions": ["muddle", "poison"],
                }
            },
            "monsters": [FAR_MARAUDER],
        }
    )
    play(
        game,
        ("WINDOW_0", BOX(LEAD, BOTTOM, PRINTED)),  # B06 bottom: Move 2; Strengthen, self
        ("MOVE_DEST", NO),
    )
    assert conditions(game, "bulwark") == {"muddle", "poison", "strengthen"}
    play(game, ("WINDOW_1", BOX(OTHER, TOP, DEFAULT)), ("WINDOW_2", NO))
    assert conditions(game, "bulwark") == {"poison", "strengthen"}
    assert [e.data["condition"] for e in events_of(game, "COND_REMOVE")] == ["muddle"]


def test_cturn_4_exhausted_in_own_turn_ends_it():
    """HV-CTURN-4, HV-CTURN-2: exhausted by its wound (1 damage) at turn start, the Bulwark's turn
    ends at once: no box prompt, no end-of-turn loot of its hex, no condition expiry, no
    TURN_END."""
    game = new(
        {
            "sequence": ["bulwark"],
            "characters": {
                "bulwark": {
                    "cell": [2, 2],
                    "hp": 1,
                    "conditions": ["wound", "muddle"],
                    "played": ["B01", "B02"],
                },
                "conjurer": {"cell": [1, 4]},
            },
            "monsters": [FAR_MARAUDER],
            "coins": [[2, 2]],
        }
    )
    play(game, ("DAMAGE_RESPONSE", NO, "bulwark"))
    assert char(game, "bulwark").exhausted
    assert coins(game) == {cell(2, 2): 1} and char(game, "bulwark").gold == 0
    assert events_of(game, "TURN_END", figure="bulwark") == []
    assert events_of(game, "COND_REMOVE") == [] and events_of(game, "BOX") == []
    expect(game, "SELECT_LEAD", "conjurer")  # round 2: only the Conjurer selects


@pytest.mark.parametrize(
    ("played", "hidden_effect"),
    [(["B04", "B09"], "immobilize"), (["B09", "B04"], "stun")],
)
def test_box_6_default_mode_ignores_printed_text(played, hidden_effect):
    """HV-BOX-6, HV-BOX-5, HV-BOX-8: a box in default mode is Attack 2 / Move 2 only and its card
    always goes to discard: B04's immobilize and Earth, B09's stun and lost mark, B09's bottom
    shield and round-bonus mark do not apply. The first card is in the discard before the second
    box."""
    game = new(
        {
            "characters": {"bulwark": {"cell": [2, 2], "played": played, "amd": ["+0"]}},
            "monsters": [mon("marauder", 1, 3, 2)],
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, TOP, DEFAULT)), ("ATTACK_TARGET", HEX(3, 2)))
    assert hp(game, "marauder#1") == 3 and conditions(game, "marauder#1") == set()
    assert hidden_effect not in conditions(game, "marauder#1")
    assert cards_in_order(game, "bulwark", "discard") == [played[0]]
    play(game, ("WINDOW_1", BOX(OTHER, BOTTOM, DEFAULT)), ("MOVE_DEST", NO), ("WINDOW_2", NO))
    assert (
        cards_in_order(game, "bulwark", "discard") == played
        and cards_in_order(game, "bulwark", "lost") == []
    )
    assert (
        char(game, "bulwark").shield == 0 and cards_in_order(game, "bulwark", "round_bonus") == []
    )
    assert element(game, "earth") == "inert" and events_of(game, "INFUSE_PENDING") == []


def _box9_game(played, **extra):
    return new(
        {
            "characters": {
                "bulwark": {"cell": [2, 2], "played": played, "amd": ["+0"]},
                "conjurer": {"cell": [0, 6]},
            },
            "sequence": ["bulwark"],
            "monsters": [mon("marauder", 1, 3, 2)],
            **extra,
        }
    )


def test_box_9_printed_not_performed_goes_to_discard():
    """HV-BOX-9: B09 top (Attack 2, Stun; lost mark) with the attack declined is not performed:
    the card goes to discard, not lost; same for B07 bottom (Move 4, lost mark) with no move."""
    game = _box9_game(["B09", "B07"])
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)), ("ATTACK_TARGET", NO))
    assert cards_in_order(game, "bulwark", "discard") == ["B09"]
    play(game, ("WINDOW_1", BOX(OTHER, BOTTOM, PRINTED)), ("MOVE_DEST", NO))
    assert (
        cards_in_order(game, "bulwark", "discard") == ["B09", "B07"]
        and cards_in_order(game, "bulwark", "lost") == []
    )


def test_box_9_performed_lost_mark_goes_to_lost():
    """HV-BOX-9, HV-ABL-12: B09 top performed (its target attacked and stunned) goes to lost."""
    game = _box9_game(["B09", "B02"])
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)), ("ATTACK_TARGET", HEX(3, 2)))
    expect(game, "WINDOW_1")
    assert (
        cards_in_order(game, "bulwark", "lost") == ["B09"]
        and cards_in_order(game, "bulwark", "discard") == []
    )
    assert "stun" in conditions(game, "marauder#1")


def test_box_9_round_bonus_card_to_active_then_discard():
    """HV-BOX-9, HV-ABL-4: B02 top performed: card in the active area (round bonus), Shield 2
    for the round, then discard at cleanup."""
    game = _box9_game(["B02", "B01"])
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)))
    assert (
        cards_in_order(game, "bulwark", "round_bonus") == ["B02"]
        and char(game, "bulwark").shield == 2
    )
    play(game, ("WINDOW_1", BOX(OTHER, BOTTOM, DEFAULT)), ("MOVE_DEST", NO))
    expect(game, "WINDOW_2")
    assert cards_in_order(game, "bulwark", "round_bonus") == ["B02"]
    game.apply(NO)
    expect(game, "SHORT_REST", "bulwark")  # cleanup step 4 has run
    assert (
        cards_in_order(game, "bulwark", "discard") == ["B01", "B02"]
        and char(game, "bulwark").shield == 0
    )


@pytest.mark.parametrize(("half", "card"), [(TOP, "C05"), (BOTTOM, "C01")])
def test_box_9_elem_2_infusion_alone_does_not_perform(half, card):
    """HV-BOX-9, HV-ELEM-2: a printed box whose only carried-out part would be its infusion is
    not performed: C05 top with the attack declined, C01 bottom with the move declined: no
    infusion, card to discard."""
    game = new(
        {
            "characters": {"conjurer": {"cell": [2, 4], "played": [card, "C08"]}},
            "monsters": [mon("marauder", 1, 4, 4)],
        }
    )
    kind = "ATTACK_TARGET" if half == TOP else "MOVE_DEST"
    play(game, ("WINDOW_0", BOX(LEAD, half, PRINTED)), (kind, NO))
    assert cards_in_order(game, "conjurer", "discard") == [card]
    assert events_of(game, "INFUSE_PENDING") == [] and game.state.pending_infusions == []
    drive(game, lambda g: bool(events_of(g, "TURN_END", figure="conjurer")))
    assert events_of(game, "INFUSE_PENDING") == []
    assert element(game, "ice") == element(game, "fire") == "inert"


def test_box_10_disarm_immobilize_skip_without_prompt():
    """HV-BOX-10, HV-COND-4/5, HV-BOX-1: a disarmed, immobilized Bulwark may still choose any box,
    but the attack (default Attack 2 too) and the move are skipped with no prompt. After the
    leading card's top, only the other card's bottom is offered."""
    game = new(
        {
            "characters": {
                "bulwark": {
                    "cell": [2, 2],
                    "played": ["B01", "B02"],
                    "conditions": ["disarm", "immobilize"],
                }
            },
            "monsters": [mon("marauder", 1, 3, 2)],
        }
    )
    expect(game, "WINDOW_0", legal=set(BOX_ACTIONS) | ITEM_ACTIONS)
    game.apply(BOX(LEAD, TOP, DEFAULT))
    expect(
        game,
        "WINDOW_1",
        legal={BOX(OTHER, BOTTOM, PRINTED), BOX(OTHER, BOTTOM, DEFAULT), ITEM0, ITEM1},
    )
    game.apply(BOX(OTHER, BOTTOM, PRINTED))  # B02 bottom: Move 3
    expect(game, "WINDOW_2")
    assert events_of(game, "ATTACK") == [] and events_of(game, "MOVE") == []
    assert hp(game, "marauder#1") == 5 and pos(game, "bulwark") == cell(2, 2)


def test_box_11_no_consume_prompt_when_ability_skipped():
    """HV-BOX-11 step 1: C02 top (consume Fire) with no enemy in range is skipped without a
    CONSUME prompt and Fire stays strong; C07 bottom (consume Ice) while immobilized likewise."""
    game = new(
        {
            "characters": {
                "conjurer": {"cell": [1, 4], "played": ["C02", "C07"], "conditions": ["immobilize"]}
            },
            "monsters": [FAR_MARAUDER],
            "elements": {"fire": "strong", "ice": "strong"},
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)))
    expect(game, "WINDOW_1")
    play(game, ("WINDOW_1", BOX(OTHER, BOTTOM, PRINTED)))
    expect(game, "WINDOW_2")
    assert events_of(game, "CONSUME") == []
    assert element(game, "fire") == element(game, "ice") == "strong"


def test_box_11_consumed_element_stays_inert_after_no():
    """HV-BOX-11 step 2, HV-ELEM-4: CONSUME is asked before the target; after YES, Fire is inert at
    once and stays inert although the attack is then declined."""
    game = new(
        {
            "characters": {"conjurer": {"cell": [2, 4], "played": ["C02", "C01"]}},
            "monsters": [mon("marauder", 1, 4, 4)],
            "elements": {"fire": "strong"},
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)))
    expect(game, "CONSUME", "conjurer", legal={YES, NO})
    game.apply(YES)
    assert element(game, "fire") == "inert"
    play(game, ("ATTACK_TARGET", NO))
    assert element(game, "fire") == "inert" and cards_in_order(game, "conjurer", "discard") == [
        "C02"
    ]


def test_box_11_summon_and_move_without_room_are_skipped():
    """HV-BOX-11 step 1, HV-ABL-7: hemmed in at (0,0) by two Marauders, the Conjurer's summon
    (no empty adjacent hex) and its Move 2 (no destination) are skipped with no prompt; C03 was
    not performed and goes to discard."""
    game = new(
        {
            "characters": {"conjurer": {"cell": [0, 0], "played": ["C03", "C01"]}},
            "monsters": [mon("marauder", 1, 1, 0), mon("marauder", 2, 0, 1)],
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)))
    expect(game, "WINDOW_1")
    assert game.state.summons == [] and cards_in_order(game, "conjurer", "discard") == ["C03"]
    play(game, ("WINDOW_1", BOX(OTHER, BOTTOM, DEFAULT)))
    expect(game, "WINDOW_2")


# The corner of 15.1: from (0,0) the mover can leave only through its ally at (1,0) and the Wisp
# at (2,0) (Marauders hold (0,1) and (1,1)); the first empty cells are 3 steps away: (3,0), (2,1);
# at 4 steps: (4,0), (3,1), (2,2), (3,2).
CORNER_3_4 = {HEX(3, 0), HEX(2, 1), HEX(4, 0), HEX(3, 1), HEX(2, 2), HEX(3, 2)}


def _corner(mover, ally, played, **extra):
    return new(
        {
            "sequence": [mover],
            "characters": {
                mover: {"cell": [0, 0], "played": played},
                ally: {"cell": [1, 0]},
            },
            "summons": [wisp(2, 0)],
            "monsters": [mon("marauder", 1, 0, 1), mon("marauder", 2, 1, 1)],
            **extra,
        }
    )


@pytest.mark.parametrize("ice", ["strong", "waning", "inert"])
def test_box_11_abl_10_consume_bonus_counts_for_skipping(ice):
    """HV-BOX-11 step 1, HV-ABL-10, HV-ELEM-4: C07 bottom (Move 2; consume Ice +2 Move) from the
    corner: with Ice strong or waning the move is not skipped (its destinations 3-4 steps away
    need the bonus), CONSUME comes first and MOVE_DEST offers the 3-4 step cells; with Ice inert
    it is skipped with no prompt."""
    game = _corner("conjurer", "bulwark", ["C07", "C01"], elements={"ice": ice})
    game.apply(BOX(LEAD, BOTTOM, PRINTED))
    if ice == "inert":
        expect(game, "WINDOW_1")
        return
    play(game, ("CONSUME", YES))
    assert element(game, "ice") == "inert"
    expect(game, "MOVE_DEST", "conjurer", legal=CORNER_3_4 | {NO})
    play(game, ("MOVE_DEST", HEX(2, 2)))
    assert pos(game, "conjurer") == cell(2, 2)


def test_item_4_swift_boots_widen_move_dest():
    """HV-ITEM-4: Swift Boots used in WINDOW_0 wait over the attack box and attach to the next
    Move; the +2 already counts for the skip test: without them Move 2 from the corner is
    skipped, with them MOVE_DEST offers the 3-4 step cells."""
    game = _corner("bulwark", "conjurer", ["B01", "B02"])
    play(game, ("WINDOW_0", BOX(LEAD, TOP, DEFAULT)), ("ATTACK_TARGET", NO))
    play(game, ("WINDOW_1", BOX(OTHER, BOTTOM, DEFAULT)))
    expect(game, "WINDOW_2")  # Move 2 skipped: nothing within 2 steps
    game = _corner("bulwark", "conjurer", ["B01", "B02"])
    play(game, ("WINDOW_0", ITEM0), ("WINDOW_0", BOX(LEAD, TOP, DEFAULT)), ("ATTACK_TARGET", NO))
    assert char(game, "bulwark").items[0] == "spent"
    play(game, ("WINDOW_1", BOX(OTHER, BOTTOM, DEFAULT)))
    expect(game, "MOVE_DEST", "bulwark", legal=CORNER_3_4 | {NO})


def test_item_4_swift_boots_used_up_by_declined_move():
    """HV-ITEM-4, HV-BOX-4: the Boots' bonus attaches to B07's Move 2, asked before its Attack 2
    (MOVE_DEST offers 3-4 step cells), and
    is used up although the move is declined: the second box's Move 2 is then skipped."""
    game = _corner("bulwark", "conjurer", ["B07", "B01"])
    play(game, ("WINDOW_0", ITEM0), ("WINDOW_0", BOX(LEAD, TOP, PRINTED)))
    expect(game, "MOVE_DEST", "bulwark", legal=CORNER_3_4 | {NO})
    play(game, ("MOVE_DEST", NO), ("ATTACK_TARGET", NO))  # B07: Move 2; Attack 2
    play(game, ("WINDOW_1", BOX(OTHER, BOTTOM, DEFAULT)))
    expect(game, "WINDOW_2")


def test_item_4_swift_boots_skip_past_skipped_move():
    """HV-ITEM-4: a Move skipped under HV-BOX-11 step 1 (no destination even with the +2) does not
    use up the Boots; after the Bulwark kills the Marauder blocking it, the next Move gets +2:
    (4,0) 4 steps away is offered, (5,0) is not."""
    game = new(
        {
            "sequence": ["bulwark"],
            "characters": {
                "bulwark": {"cell": [0, 0], "played": ["B07", "B01"], "amd": ["+0"]},
                "conjurer": {"cell": [0, 6]},
            },
            "monsters": [mon("marauder", 1, 1, 0, hp=1), mon("marauder", 2, 0, 1)],
        }
    )
    play(game, ("WINDOW_0", ITEM0), ("WINDOW_0", BOX(LEAD, TOP, PRINTED)))
    play(game, ("ATTACK_TARGET", HEX(1, 0)))  # B07's Move 2 was skipped; Attack 2 kills #1
    assert monster(game, "marauder#1") is None
    play(game, ("WINDOW_1", BOX(OTHER, BOTTOM, DEFAULT)))
    expect(game, "MOVE_DEST", "bulwark")
    assert HEX(4, 0) in game.legal_actions() and HEX(5, 0) not in game.legal_actions()


def test_item_4_seers_lens_advantage_on_next_attack():
    """HV-ITEM-4, HV-ATK-2, HV-BOX-2/3: Seer's Lens used in WINDOW_0 waits over the move box (the
    other card's bottom, played first) and gives the next attack (the leading card's top)
    advantage: two cards drawn (-1, +1), the better used: 3 + 1 = 4 on the Marauder
    (HP 5 -> 1); both cards in the discard."""
    game = new(
        {
            "characters": {
                "conjurer": {"cell": [2, 4], "played": ["C05", "C01"], "amd": ["-1", "+1"]}
            },
            "monsters": [mon("marauder", 1, 4, 4)],
        }
    )
    play(
        game,
        ("WINDOW_0", ITEM0),
        ("WINDOW_0", BOX(OTHER, BOTTOM, DEFAULT)),
        ("MOVE_DEST", NO),
        ("WINDOW_1", BOX(LEAD, TOP, PRINTED)),
        ("ATTACK_TARGET", HEX(4, 4)),
    )
    assert hp(game, "marauder#1") == 1
    assert char(game, "conjurer").amd.discard == ["-1", "+1"]
    assert [e.data["card"] for e in events_of(game, "DRAW", deck="conjurer")] == ["-1", "+1"]
    assert char(game, "conjurer").items[0] == "spent"


def test_item_2_items_only_in_windows():
    """HV-ITEM-2, HV-ITEM-1, 16.4: with both items ready, ITEM actions are legal in the three
    windows but not in CONSUME, ATTACK_TARGET or MOVE_DEST; an item may be used in WINDOW_2 even
    with no ability left, and the other item is still offered after it."""
    game = new(
        {
            "characters": {"conjurer": {"cell": [2, 4], "played": ["C02", "C01"], "amd": ["+0"]}},
            "monsters": [mon("marauder", 1, 4, 4)],
            "elements": {"fire": "strong"},
        }
    )
    expect(game, "WINDOW_0", legal=set(BOX_ACTIONS) | ITEM_ACTIONS)
    game.apply(BOX(LEAD, TOP, PRINTED))
    expect(game, "CONSUME", legal={YES, NO})
    game.apply(NO)
    expect(game, "ATTACK_TARGET", legal={HEX(4, 4), NO})
    game.apply(NO)
    expect(
        game,
        "WINDOW_1",
        legal={BOX(OTHER, BOTTOM, PRINTED), BOX(OTHER, BOTTOM, DEFAULT)} | ITEM_ACTIONS,
    )
    game.apply(BOX(OTHER, BOTTOM, DEFAULT))
    expect(game, "MOVE_DEST")
    assert not ITEM_ACTIONS & set(game.legal_actions())
    game.apply(NO)
    expect(game, "WINDOW_2", legal={NO} | ITEM_ACTIONS)
    game.apply(ITEM0)
    assert (
        events_of(game, "ITEM_USE", item="seers_lens")
        and char(game, "conjurer").items[0] == "spent"
    )
    expect(game, "WINDOW_2", legal={NO, ITEM1})


def test_item_3_spent_and_consumed_items():
    """HV-ITEM-3, HV-DMG-2: only ready items can be used: spent Swift Boots are not offered; the
    Healing Draught heals 3 (5 -> 8) and becomes consumed, after which no item is offered."""
    game = new(
        {
            "characters": {
                "bulwark": {
                    "cell": [2, 2],
                    "hp": 5,
                    "played": ["B01", "B02"],
                    "items": {"swift_boots": "spent"},
                }
            },
            "monsters": [FAR_MARAUDER],
        }
    )
    expect(game, "WINDOW_0", legal=set(BOX_ACTIONS) | {ITEM1})
    game.apply(ITEM1)
    assert hp(game, "bulwark") == 8 and char(game, "bulwark").items == ["spent", "consumed"]
    expect(game, "WINDOW_0", legal=set(BOX_ACTIONS))


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


# =================================================================================================
# 7: abilities (HV-ABL-*)


@pytest.mark.parametrize("ally", ["conjurer", "wisp"])
def test_abl_1_move_destinations(ally):
    """HV-ABL-1, HV-MAP-4, HV-STURN-5: Move 2 from (0,4) with an ally (the Conjurer or its Wisp)
    on (1,4) and a Marauder on (0,3): the mover passes through its ally but not the enemy and
    ends only on empty cells: (0,5) (2,4) (1,3) (1,5) (0,6) (1,6); (2,4) and (1,3) only via
    the ally, (0,2)/(1,2) only via the enemy."""
    characters = {"bulwark": {"cell": [0, 4], "played": ["B01", "B02"]}}
    if ally == "conjurer":
        characters["conjurer"] = {"cell": [1, 4]}
        summons = []
    else:
        characters["conjurer"] = {"cell": [8, 0]}
        summons = [wisp(1, 4)]
    game = new(
        {
            "sequence": ["bulwark"],
            "characters": characters,
            "summons": summons,
            "monsters": [mon("marauder", 1, 0, 3)],
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, BOTTOM, PRINTED)))
    legal = {HEX(0, 5), HEX(2, 4), HEX(1, 3), HEX(1, 5), HEX(0, 6), HEX(1, 6), NO}
    expect(game, "MOVE_DEST", "bulwark", legal=legal)
    game.apply(HEX(1, 3))
    assert pos(game, "bulwark") == cell(1, 3)
    assert [(e.data["from"], e.data["to"]) for e in events_of(game, "MOVE")] == [
        (cell(0, 4), cell(1, 3))
    ]


def _c06_game(slinger=True, amd=("+0", "+1")):
    monsters = [
        mon("marauder", 1, 7, 3),  # R 3 but no LOS (the wall at (6,3))
        mon("marauder", 2, 3, 4),  # R 3
        mon("slinger", 2, 1, 3, rank="elite"),  # R 4: out of range
    ]
    if slinger:
        monsters.append(mon("slinger", 1, 5, 0))  # R 3
    return new(
        {
            "characters": {
                "conjurer": {"cell": [5, 3], "played": ["C06", "C01"], "amd": list(amd)}
            },
            "monsters": monsters,
        }
    )


def test_abl_2_target_n_one_target_at_a_time():
    """HV-ABL-2, HV-BOX-11 step 3, HV-MAP-8: C06 (Attack 2, Range 3, Target 2) from (5,3): valid
    targets need R <= 3 and LOS; the first target is resolved (HP 5 -> 3) before the second prompt,
    which no longer offers it; after two targets no third prompt; C06 goes to lost."""
    game = _c06_game()
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)))
    expect(game, "ATTACK_TARGET", "conjurer", legal={HEX(3, 4), HEX(5, 0), NO})
    game.apply(HEX(3, 4))
    assert hp(game, "marauder#2") == 3  # 2 + 0
    expect(game, "ATTACK_TARGET", legal={HEX(5, 0), NO})
    assert game.prompt.targets == (cell(3, 4),)
    game.apply(HEX(5, 0))
    assert hp(game, "slinger#1") == 1  # 2 + 1
    expect(game, "WINDOW_1")
    assert cards_in_order(game, "conjurer", "lost") == ["C06"]


def test_abl_2_target_n_stops_when_no_target_left():
    """HV-ABL-2, HV-BOX-11 step 3: with only one valid target the Target 2 attack asks once."""
    game = _c06_game(slinger=False)
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)), ("ATTACK_TARGET", HEX(3, 4)))
    expect(game, "WINDOW_1")
    assert len(events_of(game, "ATTACK")) == 1


def test_abl_3_heal_self_only():
    """HV-ABL-3: B04 bottom 'Heal 2, self' offers only the Bulwark's own hex even with a hurt ally
    adjacent; 5 -> 7."""
    game = new(
        {
            "sequence": ["bulwark"],
            "characters": {
                "bulwark": {"cell": [2, 2], "hp": 5, "played": ["B04", "B01"]},
                "conjurer": {"cell": [2, 3], "hp": 3},
            },
            "monsters": [FAR_MARAUDER],
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, BOTTOM, PRINTED)))
    expect(game, "HEAL_TARGET", "bulwark", legal={HEX(2, 2), NO})
    game.apply(HEX(2, 2))
    assert hp(game, "bulwark") == 7 and hp(game, "conjurer") == 3


def test_abl_3_stu_5_heal_range():
    """HV-ABL-3, HV-STURN-5: C05 bottom 'Heal 2, Range 3' offers the Conjurer, the Bulwark (R 2)
    and the Wisp (R 1), not the adjacent Marauder (an enemy) nor the second Wisp at R 4;
    healing the Wisp 2 -> 4."""
    game = new(
        {
            "sequence": ["conjurer"],
            "characters": {
                "conjurer": {"cell": [2, 4], "played": ["C05", "C01"]},
                "bulwark": {"cell": [4, 4], "hp": 5},
            },
            "summons": [wisp(2, 5, hp=2), wisp(6, 4, hp=1)],
            "monsters": [mon("marauder", 1, 1, 4, hp=3)],
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, BOTTOM, PRINTED)))
    expect(game, "HEAL_TARGET", "conjurer", legal={HEX(2, 4), HEX(4, 4), HEX(2, 5), NO})
    game.apply(HEX(2, 5))
    assert hp(game, "ember_wisp#1") == 4 and hp(game, "bulwark") == 5


def test_abl_4_shields_add_up():
    """HV-ABL-4, HV-ATK-1 step 4: a shield of 1 already gained this round, B02 top (Shield 2) and
    B09 bottom (Shield 1) add up to 4; the elite Marauder's MA2 attack 3 + '+2' = 5 deals 1."""
    game = new(
        {
            "sequence": ["bulwark", "marauder"],
            "characters": {
                "bulwark": {"cell": [2, 2], "played": ["B02", "B09"], "shield": 1},
                "conjurer": {"cell": [0, 6]},
            },
            "monsters": [mon("marauder", 3, 3, 2, rank="elite")],
            "monster_cards": {"marauder": "MA2"},
            "monster_amd": ["+2"],
        }
    )
    play(
        game,
        ("WINDOW_0", BOX(LEAD, TOP, PRINTED)),
        ("WINDOW_1", BOX(OTHER, BOTTOM, PRINTED)),
        ("MOVE_DEST", NO),
        ("WINDOW_2", NO),
    )
    assert char(game, "bulwark").shield == 4
    assert cards_in_order(game, "bulwark", "round_bonus") == ["B02", "B09"]
    expect(game, "DAMAGE_RESPONSE", "bulwark")
    assert game.prompt.value == 1
    game.apply(NO)
    assert hp(game, "bulwark") == 9


def test_abl_5_retaliate():
    """HV-ABL-5: Retaliate 1 (earlier) + B06's Retaliate 2 = 3 hits the adjacent elite Marauder
    after its attack (8 -> 5: no modifier card, its shield 1 does not reduce it) but not the
    Slinger attacking from range 3 (SL2: 2+1 = 3)."""
    game = new(
        {
            "sequence": ["bulwark", "slinger", "marauder"],
            "characters": {
                "bulwark": {"cell": [2, 2], "played": ["B02", "B06"], "retaliate": 1},
                "conjurer": {"cell": [0, 6]},
            },
            "monsters": [mon("slinger", 1, 5, 2), mon("marauder", 3, 3, 2, rank="elite")],
            "monster_cards": {"marauder": "MA2", "slinger": "SL2"},
            "monster_amd": ["+0", "+0"],
        }
    )
    play(
        game,
        ("WINDOW_0", BOX(OTHER, TOP, PRINTED)),  # B06 top: Retaliate 2
        ("WINDOW_1", BOX(LEAD, BOTTOM, DEFAULT)),
        ("MOVE_DEST", NO),
        ("WINDOW_2", NO),
    )
    assert char(game, "bulwark").retaliate == 3
    play(game, ("DAMAGE_RESPONSE", NO, "bulwark"))  # Slinger: 3
    assert hp(game, "bulwark") == 7 and hp(game, "slinger#1") == 4
    play(game, ("DAMAGE_RESPONSE", NO, "bulwark"))  # elite Marauder: 3 + 0
    assert hp(game, "bulwark") == 4 and hp(game, "marauder#3") == 5
    assert game.state.monster_amd.discard == ["+0", "+0"]
    assert char(game, "bulwark").amd.discard == []


def test_abl_5_no_retaliate_from_a_dead_figure():
    """HV-ABL-5: the Bulwark (HP 3, Retaliate 2) exhausted by the elite Marauder's attack 3 does
    not retaliate."""
    game = new(
        {
            "sequence": ["marauder"],
            "characters": {
                "bulwark": {"cell": [2, 2], "hp": 3, "retaliate": 2},
                "conjurer": {"cell": [0, 6]},
            },
            "monsters": [mon("marauder", 3, 3, 2, rank="elite")],
            "monster_cards": {"marauder": "MA2"},
            "monster_amd": ["+0"],
        }
    )
    play(game, ("DAMAGE_RESPONSE", NO, "bulwark"))
    assert char(game, "bulwark").exhausted and hp(game, "marauder#3") == 8


def test_abl_6_invisible_self():
    """HV-ABL-6, HV-BOX-9: C04 bottom applies Invisible to the Conjurer automatically (the move
    declined), so the box is performed and C04 goes to lost."""
    game = new(
        {
            "characters": {"conjurer": {"cell": [2, 4], "played": ["C04", "C01"]}},
            "monsters": [FAR_MARAUDER],
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, BOTTOM, PRINTED)), ("MOVE_DEST", NO))
    assert conditions(game, "conjurer") == {"invisible"}
    assert cards_in_order(game, "conjurer", "lost") == ["C04"]


def test_abl_7_summon_placement_and_removal():
    """HV-ABL-7, HV-STURN-5, HV-DMG-1: SUMMON_HEX offers the empty floor neighbours of (3,4)
    ((2,3) (2,5) (3,5); not the obstacle (3,3) or the occupied (2,4)/(4,4)); C03 goes to the
    active area; the Marauder (focusing the Wisp, which precedes its summoner) deals 2 x2 = 4:
    the Wisp is removed with no DAMAGE_RESPONSE, C03 goes to lost and no coin is dropped."""
    game = new(
        {
            "characters": {
                "conjurer": {"cell": [3, 4], "played": ["C03", "C01"]},
                "bulwark": {"cell": [2, 4]},
            },
            "sequence": ["conjurer", "marauder"],
            "monsters": [mon("marauder", 1, 4, 4)],
            "monster_cards": {"marauder": "MA3"},
            "monster_amd": ["x2"],
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)))
    expect(game, "SUMMON_HEX", "conjurer", legal={HEX(2, 3), HEX(2, 5), HEX(3, 5), NO})
    game.apply(HEX(3, 5))
    assert cards_in_order(game, "conjurer", "persistent") == ["C03"] and pos(
        game, "ember_wisp#1"
    ) == cell(3, 5)
    play(game, ("WINDOW_1", BOX(OTHER, BOTTOM, DEFAULT)), ("MOVE_DEST", NO), ("WINDOW_2", NO))
    assert summon(game, 1) is None and events_of(game, "DEATH", figure="ember_wisp#1")
    assert (
        cards_in_order(game, "conjurer", "lost") == ["C03"]
        and cards_in_order(game, "conjurer", "persistent") == []
    )
    assert coins(game) == {} and hp(game, "conjurer") == 7
    assert events_of(game, "DAMAGE", figure="ember_wisp#1")[0].data["amount"] == 4


def test_abl_8_loot_x():
    """HV-ABL-8, HV-LOOT-3: B03 bottom 'Move 2; Loot 1' (move declined) takes, at once, every coin
    and the treasure within range 1 of (2,2), own hex included: 4 coins x 2 + 5 = 13 gold,
    treasure Heal 3 (5 -> 8); the coin at (4,2) (range 2) stays."""
    game = new(
        {
            "characters": {"bulwark": {"cell": [2, 2], "hp": 5, "played": ["B03", "B01"]}},
            "monsters": [FAR_MARAUDER],
            "coins": [[2, 2], [3, 2], [3, 2], [2, 3], [4, 2]],
            "treasures": [{"number": 1, "cell": [1, 2]}],
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, BOTTOM, PRINTED)), ("MOVE_DEST", NO))
    expect(game, "WINDOW_1")
    assert char(game, "bulwark").gold == 13 and hp(game, "bulwark") == 8
    assert coins(game) == {cell(4, 2): 1} and game.state.treasures == {}


def test_abl_10_consume_adds_condition():
    """HV-ABL-10, HV-ABL-12: C08 top (Attack 4, Range 3; consume Fire: add Wound) with Fire
    consumed: 4 + 0 damage (5 -> 1) and the Marauder is wounded; C08 goes to lost."""
    game = new(
        {
            "characters": {"conjurer": {"cell": [2, 4], "played": ["C08", "C01"], "amd": ["+0"]}},
            "monsters": [mon("marauder", 1, 4, 4)],
            "elements": {"fire": "strong"},
        }
    )
    play(
        game,
        ("WINDOW_0", BOX(LEAD, TOP, PRINTED)),
        ("CONSUME", YES),
        ("ATTACK_TARGET", HEX(4, 4)),
    )
    assert hp(game, "marauder#1") == 1 and conditions(game, "marauder#1") == {"wound"}
    assert element(game, "fire") == "inert" and cards_in_order(game, "conjurer", "lost") == ["C08"]


def test_abl_11_dmg_3_self_damage_negatable():
    """HV-ABL-11, HV-BOX-7, HV-DMG-3: B03's self-damage is executed although the attack before it
    could not be (no target), and can be negated by losing a hand card."""
    game = new(
        {
            "characters": {"bulwark": {"cell": [2, 2], "played": ["B03", "B01"]}},
            "monsters": [FAR_MARAUDER],
        }
    )
    play(
        game,
        ("WINDOW_0", BOX(LEAD, TOP, PRINTED)),  # no target in reach: the attack is skipped
        ("DAMAGE_RESPONSE", CARD("B09")),
    )
    assert hp(game, "bulwark") == 10 and cards_in_order(game, "bulwark", "lost") == ["B09", "B03"]


@pytest.mark.parametrize(
    ("amd", "start_hp", "left", "immobilized"),
    [
        ("null", 5, 5, True),  # 0 damage: the condition still applies
        ("+0", 5, 3, True),
        ("+0", 2, None, False),  # killed: no condition
    ],
)
def test_abl_12_added_conditions(amd, start_hp, left, immobilized):
    """HV-ABL-12, HV-ATK-1 step 6: B04 top's Immobilize is applied after the damage, also after a
    null (0 damage), but not to a target the attack killed."""
    game = new(
        {
            "characters": {"bulwark": {"cell": [2, 2], "played": ["B04", "B01"], "amd": [amd]}},
            "monsters": [mon("marauder", 1, 3, 2, hp=start_hp), FAR_MARAUDER | {"standee": 2}],
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)), ("ATTACK_TARGET", HEX(3, 2)))
    if left is None:
        assert monster(game, "marauder#1") is None
    else:
        assert hp(game, "marauder#1") == left
    assert (
        bool(events_of(game, "COND_ADD", figure="marauder#1", condition="immobilize"))
        is immobilized
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


def _adjacent_marauder(card, amd, conditions=(), hp_=5, **extra):
    return new(
        {
            "sequence": ["marauder"],
            "characters": {"bulwark": {"cell": [2, 2]}, "conjurer": {"cell": [0, 6]}},
            "monsters": [
                mon("marauder", 1, 3, 2, conditions=list(conditions), hp=hp_),
                *extra.pop("more", []),
            ],
            "monster_cards": {"marauder": card},
            "monster_amd": amd,
            **extra,
        }
    )


@pytest.mark.parametrize(
    ("condition", "amd", "damage"),
    [("muddle", ["+1", "-1"], 1), ("strengthen", ["-1", "+1"], 3)],
)
def test_cond_7_9_10_monster_disadvantage_and_advantage(condition, amd, damage):
    """HV-COND-7/9/10, HV-MEND-1: a muddled Marauder draws two and uses the worse (2 - 1), a
    strengthened one the better (2 + 1); the condition, present at its turn start, then ends."""
    game = _adjacent_marauder("MA2", amd, [condition])
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
    names = {c for deck in _deck_orders(game)[0] for c in deck} | set(game.state.monster_amd.draw)
    assert names == set(STANDARD_AMD)


# =================================================================================================
# 10: elements (HV-ELEM-*)


def test_elem_2_cend_3_infusion_pending_until_end_of_turn():
    """HV-ELEM-2, HV-CEND-3, HV-ABL-9: C05 top performed infuses Ice: inert (pending) during the
    turn, strong at its end."""
    game = new(
        {
            "characters": {"conjurer": {"cell": [2, 4], "played": ["C05", "C01"], "amd": ["+0"]}},
            "monsters": [mon("marauder", 1, 4, 4)],
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)), ("ATTACK_TARGET", HEX(4, 4)))
    expect(game, "WINDOW_1")
    assert element(game, "ice") == "inert" and events_of(game, "INFUSE_PENDING", element="ice")
    play(game, ("WINDOW_1", BOX(OTHER, BOTTOM, DEFAULT)), ("MOVE_DEST", NO), ("WINDOW_2", NO))
    assert events_of(game, "ELEMENT", element="ice", state="strong")
    assert index_of(game, "ELEMENT", element="ice", state="strong") < index_of(
        game, "TURN_END", figure="conjurer"
    )


def test_elem_4_waning_element_consumed():
    """HV-ELEM-4, HV-ABL-10: a waning Fire can be consumed: inert at once, C02 gets +2:
    2 + 2 + 0 = 4 (Marauder 5 -> 1)."""
    game = new(
        {
            "characters": {"conjurer": {"cell": [2, 4], "played": ["C02", "C01"], "amd": ["+0"]}},
            "monsters": [mon("marauder", 1, 4, 4)],
            "elements": {"fire": "waning"},
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)), ("CONSUME", YES))
    assert element(game, "fire") == "inert"
    play(game, ("ATTACK_TARGET", HEX(4, 4)))
    assert hp(game, "marauder#1") == 1


def test_elem_4_own_infusion_not_yet_available():
    """HV-ELEM-4, HV-ITEM-4: Fire infused this turn by the Ember Flask is still pending: C02 gets
    no CONSUME prompt (2 + 0 = 2, 5 -> 3); Fire becomes strong at the end of the turn."""
    game = new(
        {
            "characters": {"conjurer": {"cell": [2, 4], "played": ["C02", "C01"], "amd": ["+0"]}},
            "monsters": [mon("marauder", 1, 4, 4)],
        }
    )
    play(game, ("WINDOW_0", ITEM1), ("WINDOW_0", BOX(LEAD, TOP, PRINTED)))
    assert char(game, "conjurer").items[1] == "consumed"
    expect(game, "ATTACK_TARGET", "conjurer")
    play(game, ("ATTACK_TARGET", HEX(4, 4)))
    assert hp(game, "marauder#1") == 3
    play(game, ("WINDOW_1", BOX(OTHER, BOTTOM, DEFAULT)), ("MOVE_DEST", NO), ("WINDOW_2", NO))
    assert events_of(game, "ELEMENT", element="fire", state="strong")


@pytest.mark.parametrize(
    ("first_state", "consumer"), [("disarm", "marauder#3"), ("stun", "marauder#1")]
)
def test_elem_5_monsters_consume_once_per_activation(first_state, consumer):
    """HV-ELEM-5: MA6's Dark (+2) is consumed by the first non-stunned Marauder reaching the line,
    also a disarmed one that cannot attack (elite #3 acts first); a stunned one does not reach it.
    Marauder #1 then attacks with the bonus without consuming again: 2 + 2 + 0 = 4."""
    game = _adjacent_marauder(
        "MA6",
        ["+0"],
        more=[mon("marauder", 3, 8, 6, rank="elite", conditions=[first_state])],
        elements={"dark": "strong"},
    )
    play(game, ("DAMAGE_RESPONSE", NO, "bulwark"))
    assert hp(game, "bulwark") == 6
    assert [e.data["figure"] for e in events_of(game, "CONSUME")] == [consumer]
    assert element(game, "dark") == "inert"


@pytest.mark.parametrize("state", ["disarm", "stun"])
def test_elem_6_mend_2_monster_infusion(state):
    """HV-ELEM-6, HV-MEND-2: a disarmed Slinger (SL5) still infuses Dark, which is strong when its
    turn ends, before the next Slinger's turn; a stunned one infuses nothing."""
    game = new(
        {
            "sequence": ["slinger"],
            "characters": {"bulwark": {"cell": [0, 0]}, "conjurer": {"cell": [0, 6]}},
            "monsters": [mon("slinger", 1, 8, 4, conditions=[state]), mon("slinger", 2, 8, 0)],
            "monster_cards": {"slinger": "SL5"},
        }
    )
    next_turn = index_of(game, "TURN_START", figure="slinger#2")
    before = game.events[:next_turn]
    strong = [
        e
        for e in before
        if e.type == "ELEMENT" and e.data == {"element": "dark", "state": "strong"}
    ]
    if state == "disarm":
        assert len(strong) == 1 and events_of(game, "ATTACK", attacker="slinger#1") == []
    else:
        assert strong == [] and [e for e in before if e.type == "INFUSE_PENDING"] == []


def test_elem_6_killed_monster_does_not_infuse():
    """HV-ELEM-6/7: a Slinger killed by retaliation during its attack (before its infuse line)
    infuses nothing. Immobilized next to the Bulwark (Retaliate 2): ranged-adjacent disadvantage
    draws +0/+0: 2 damage; retaliation kills it (HP 1)."""
    game = new(
        {
            "sequence": ["slinger"],
            "characters": {
                "bulwark": {"cell": [2, 2], "retaliate": 2},
                "conjurer": {"cell": [0, 6]},
            },
            "monsters": [mon("slinger", 1, 3, 2, hp=1, conditions=["immobilize"]), FAR_MARAUDER],
            "monster_cards": {"slinger": "SL5"},
            "monster_amd": ["+0", "+0"],
        }
    )
    play(game, ("DAMAGE_RESPONSE", NO, "bulwark"))
    assert hp(game, "bulwark") == 8 and monster(game, "slinger#1") is None
    assert events_of(game, "INFUSE_PENDING") == [] and element(game, "dark") == "inert"


def test_elem_7_exhausted_figure_loses_pending_infusion():
    """HV-ELEM-7, HV-CTURN-4: the Conjurer (HP 1) uses the Ember Flask (Fire pending), attacks the
    Marauder (Retaliate 1) and is exhausted by the retaliation: Fire never becomes strong."""
    game = new(
        {
            "sequence": ["conjurer", "bulwark"],
            "characters": {
                "conjurer": {"cell": [2, 4], "hp": 1, "played": ["C01", "C02"], "amd": ["+0"]},
                "bulwark": {"cell": [1, 2], "played": ["B01", "B02"]},
            },
            "monsters": [mon("marauder", 1, 3, 4, retaliate=1)],
        }
    )
    play(
        game,
        ("WINDOW_0", ITEM1),
        ("WINDOW_0", BOX(LEAD, TOP, DEFAULT)),
        ("ATTACK_TARGET", HEX(3, 4)),
        ("DAMAGE_RESPONSE", NO, "conjurer"),
    )
    assert char(game, "conjurer").exhausted and hp(game, "marauder#1") == 3
    expect(game, "WINDOW_0", "bulwark")
    assert element(game, "fire") == "inert" and game.state.pending_infusions == []
    assert events_of(game, "ELEMENT", element="fire") == []


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


# =================================================================================================
# 12: monster turns (HV-MTURN-*, HV-MEND-*) and focus / movement (HV-AI-*)


def test_mturn_2_3_elites_first_then_by_standee():
    """HV-MTURN-1/2/3/4/9, HV-INIT-6: in the Marauder slot elites act first, then normals, each in
    ascending standee order: #3, #4 (elite), #1, #2 (normal); all four act on the one card MA4
    (each gains its Shield 1 / Retaliate 1) and none moves (MA4 has no Move)."""
    game = new(
        {
            "sequence": ["marauder", "bulwark"],  # the Bulwark's prompt comes before cleanup
            "characters": {
                "bulwark": {"cell": [0, 0], "played": ["B03", "B01"]},
                "conjurer": {"cell": [0, 6]},
            },
            "monsters": [
                mon("marauder", 1, 8, 6),
                mon("marauder", 4, 8, 5, rank="elite"),
                mon("marauder", 2, 7, 6),
                mon("marauder", 3, 8, 4, rank="elite"),
            ],
            "monster_cards": {"marauder": "MA4"},
        }
    )
    assert turn_starts(game) == ["marauder#3", "marauder#4", "marauder#1", "marauder#2", "bulwark"]
    assert [(m.shield, m.retaliate) for m in game.state.monsters] == [(1, 1)] * 4
    assert events_of(game, "MOVE") == [] and events_of(game, "ATTACK") == []


def test_mturn_5_6_mend_1_cond_11_monster_turn_frame():
    """HV-MTURN-5/6, HV-MEND-1, HV-COND-11: a wounded Marauder suffers 1 at turn start (5 -> 4);
    immobilized and muddled it stays and attacks with disadvantage (+1/-1: 2 - 1 = 1); at its turn
    end immobilize and muddle end, poison and wound stay."""
    game = _adjacent_marauder("MA2", ["+1", "-1"], ["immobilize", "muddle", "poison", "wound"])
    play(game, ("DAMAGE_RESPONSE", NO, "bulwark"))
    assert hp(game, "marauder#1") == 4 and hp(game, "bulwark") == 9
    assert conditions(game, "marauder#1") == {"poison", "wound"}
    assert {e.data["condition"] for e in events_of(game, "COND_REMOVE")} == {"immobilize", "muddle"}


def test_mturn_6_wound_kills_at_turn_start():
    """HV-MTURN-6, HV-LOOT-1, HV-MTURN-4: a Marauder at HP 1 with wound dies at its turn start:
    it drops a coin and does nothing; the next Marauder still takes its turn."""
    game = _adjacent_marauder("MA2", ["+0"], ["wound"], hp_=1, more=[mon("marauder", 2, 8, 6)])
    drive(game, lambda g: bool(events_of(g, "TURN_END", figure="marauder#2")))
    assert monster(game, "marauder#1") is None and coins(game) == {cell(3, 2): 1}
    assert events_of(game, "ATTACK", attacker="marauder#1") == [] and hp(game, "bulwark") == 10
    assert events_of(game, "TURN_END", figure="marauder#1") == []


@pytest.mark.parametrize(
    ("card", "dest", "damage"),
    [("MA1", (1, 4), 1), ("MA5", (3, 4), 0), ("MA2", (2, 4), 0)],
)
def test_mturn_8_10_card_values(card, dest, damage):
    """HV-MTURN-8/10, HV-AI-5: Move +/-X and Attack +/-X modify the base stats (Move 2, Attack 2):
    MA1 (Move 3) reaches (1,4) next to the Bulwark at (0,4) and attacks for 2 - 1 + 0 = 1 after
    moving; MA5 (Move 1) and MA2 (Move 2) only get closer along row 4 and do not attack."""
    game = new(
        {
            "sequence": ["marauder"],
            "characters": {"bulwark": {"cell": [0, 4]}, "conjurer": {"cell": [0, 0]}},
            "monsters": [mon("marauder", 1, 4, 4)],
            "monster_cards": {"marauder": card},
            "monster_amd": ["+0"],
        }
    )
    if damage:
        play(game, ("DAMAGE_RESPONSE", NO, "bulwark"))
        assert index_of(game, "MOVE") < index_of(game, "ATTACK")
    else:
        assert events_of(game, "ATTACK") == []
    assert pos(game, "marauder#1") == cell(*dest)
    assert hp(game, "bulwark") == 10 - damage


def test_mturn_10_card_shield_from_its_line_to_round_end():
    """HV-MTURN-10: MA4's Shield 1 counts from the Marauder's turn to the end of the round; the
    elite's stat Shield 1 always: the Bulwark (before it) deals 3 - 1 = 2 (8 -> 6), the Conjurer
    (after it) 3 - 2 = 1 (6 -> 5); the round bonuses are gone at cleanup."""
    game = new(
        {
            "sequence": ["bulwark", "marauder", "conjurer"],
            "characters": {
                "bulwark": {"cell": [2, 2], "played": ["B02", "B01"], "amd": ["+0"]},
                "conjurer": {"cell": [3, 4], "played": ["C05", "C01"], "amd": ["+0"]},
            },
            "monsters": [mon("marauder", 3, 3, 2, rank="elite")],
            "monster_cards": {"marauder": "MA4"},
            "monster_amd": ["+0"],
        }
    )
    play(
        game,
        ("WINDOW_0", BOX(OTHER, TOP, PRINTED)),
        ("ATTACK_TARGET", HEX(3, 2)),
        ("WINDOW_1", BOX(LEAD, BOTTOM, DEFAULT)),
        ("MOVE_DEST", NO),
        ("WINDOW_2", NO),
    )
    assert hp(game, "marauder#3") == 6 and hp(game, "bulwark") == 10  # no retaliate yet
    play(game, ("DAMAGE_RESPONSE", NO, "bulwark"))  # MA4: attack 3 + 0
    assert hp(game, "bulwark") == 7
    m = monster(game, "marauder#3")
    assert (m.shield, m.retaliate) == (1, 1)
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED), "conjurer"), ("ATTACK_TARGET", HEX(3, 2)))
    assert hp(game, "marauder#3") == 5 and hp(game, "conjurer") == 7  # range 2: no retaliate
    play(game, ("WINDOW_1", BOX(OTHER, BOTTOM, DEFAULT)), ("MOVE_DEST", NO), ("WINDOW_2", NO))
    expect(game, "SHORT_REST")
    assert (m.shield, m.retaliate) == (0, 0)


def test_mturn_11_ai_8_focus_fixed_before_moving():
    """HV-MTURN-11, HV-AI-4/5: the Marauder at (5,5) picks its focus before moving: the Conjurer
    at (3,5) (cost 2 like the Bulwark at (3,4), but proximity 2 < 3). It moves to (4,4) (attack
    hexes (4,4) and (4,6) both 2 steps, lower id) where both are adjacent and the Bulwark earlier
    in turn order, and still attacks the Conjurer: 2 + 0."""
    game = new(
        {
            "sequence": ["bulwark", "conjurer", "marauder"],
            "next": 2,
            "characters": {
                "bulwark": {"cell": [3, 4], "played": ["B01", "B02"]},
                "conjurer": {"cell": [3, 5], "played": ["C01", "C02"]},
            },
            "monsters": [mon("marauder", 1, 5, 5)],
            "monster_cards": {"marauder": "MA2"},
            "monster_amd": ["+0"],
        }
    )
    play(game, ("DAMAGE_RESPONSE", NO, "conjurer"))
    assert pos(game, "marauder#1") == cell(4, 4)
    assert hp(game, "conjurer") == 5 and hp(game, "bulwark") == 10


@pytest.mark.parametrize("card", ["MA2", "MA4"])
def test_ai_1_7_no_focus(card):
    """HV-AI-1/7: with both characters invisible the Marauder has no focus: it neither moves nor
    attacks (MA2), but still gains MA4's Shield 1 and Retaliate 1."""
    game = new(
        {
            "sequence": [
                "marauder",
                "bulwark",
            ],  # the Bulwark's prompt stops the game before cleanup
            "characters": {
                "bulwark": {"cell": [2, 2], "conditions": ["invisible"], "played": ["B03", "B01"]},
                "conjurer": {"cell": [4, 4], "conditions": ["invisible"]},
            },
            "monsters": [mon("marauder", 1, 3, 2)],
            "monster_cards": {"marauder": card},
        }
    )
    expect(game, "WINDOW_0", "bulwark")
    assert events_of(game, "MOVE") == [] and events_of(game, "ATTACK") == []
    m = monster(game, "marauder#1")
    assert m.cell == cell(3, 2)
    assert (m.shield, m.retaliate) == ((1, 1) if card == "MA4" else (0, 0))


def test_ai_2_8_9_allies_passable_positions_now_no_loot():
    """HV-AI-2/8/9: Marauder #1 passes through Marauder #2 to the attack hex (4,4) (2 steps) and
    does not pick up the coin there; #2, acting after it, sees (4,4) taken and goes through it to
    (4,3); both hit the Bulwark at (5,4) for 2."""
    game = new(
        {
            "sequence": ["marauder"],
            "characters": {"bulwark": {"cell": [5, 4]}, "conjurer": {"cell": [0, 0]}},
            "monsters": [mon("marauder", 1, 2, 4), mon("marauder", 2, 3, 4)],
            "monster_cards": {"marauder": "MA2"},
            "monster_amd": ["+0", "+0"],
            "coins": [[4, 4]],
        }
    )
    play(game, ("DAMAGE_RESPONSE", NO, "bulwark"), ("DAMAGE_RESPONSE", NO, "bulwark"))
    moves = [(e.data["figure"], e.data["from"], e.data["to"]) for e in events_of(game, "MOVE")]
    assert moves == [
        ("marauder#1", cell(2, 4), cell(4, 4)),
        ("marauder#2", cell(3, 4), cell(4, 3)),
    ]
    assert hp(game, "bulwark") == 6 and coins(game) == {cell(4, 4): 1}


@pytest.mark.parametrize("disarmed", [False, True])
def test_ai_3_disarmed_monster_moves_as_without_attack(disarmed):
    """HV-AI-3, HV-COND-5: a Slinger (SL3) 3 hexes from the Bulwark stays and shoots (2 + 0);
    disarmed, it moves as if its card had no attack (r = 1) to (3,4) next to it."""
    game = new(
        {
            "sequence": ["slinger"],
            "characters": {"bulwark": {"cell": [2, 4]}, "conjurer": {"cell": [0, 0]}},
            "monsters": [mon("slinger", 1, 5, 4, conditions=["disarm"] if disarmed else [])],
            "monster_cards": {"slinger": "SL3"},
            "monster_amd": ["+0"],
        }
    )
    if disarmed:
        assert pos(game, "slinger#1") == cell(3, 4) and events_of(game, "ATTACK") == []
    else:
        play(game, ("DAMAGE_RESPONSE", NO, "bulwark"))
        assert pos(game, "slinger#1") == cell(5, 4) and hp(game, "bulwark") == 8


@pytest.mark.parametrize(
    ("case", "monster_", "chars", "sequence", "victim", "dest"),
    [
        # cost first: the Bulwark (R 3, no LOS behind the wall, earlier) costs 1, the Conjurer 0
        (
            "cost",
            mon("slinger", 1, 7, 3),
            ((5, 3), (7, 6)),
            ["bulwark", "conjurer"],
            "conjurer",
            (7, 3),
        ),
        # equal cost 2: proximity 2 (Conjurer at (3,2)) beats 3 (Bulwark at (7,4), earlier)
        (
            "proximity",
            mon("marauder", 1, 4, 4),
            ((7, 4), (3, 2)),
            ["bulwark", "conjurer"],
            "conjurer",
            (4, 2),
        ),
        # equal cost 1 and proximity 2: the earlier in turn order wins
        (
            "order",
            mon("marauder", 1, 4, 4),
            ((2, 4), (6, 4)),
            ["conjurer", "bulwark"],
            "conjurer",
            (5, 4),
        ),
        (
            "order",
            mon("marauder", 1, 4, 4),
            ((2, 4), (6, 4)),
            ["bulwark", "conjurer"],
            "bulwark",
            (3, 4),
        ),
    ],
)
def test_ai_4_focus_key(case, monster_, chars, sequence, victim, dest):
    """HV-AI-4: focus = smallest (cost, proximity, turn order position); the monster then moves
    (Case A) and attacks its focus for 2 + 0."""
    kind = monster_["type"]
    played = {"bulwark": ["B01", "B02"], "conjurer": ["C01", "C02"]}
    game = new(
        {
            "sequence": [*sequence, kind],
            "next": 2,
            "characters": {
                "bulwark": {"cell": list(chars[0]), "played": played["bulwark"]},
                "conjurer": {"cell": list(chars[1]), "played": played["conjurer"]},
            },
            "monsters": [monster_],
            "monster_cards": {kind: "SL3" if kind == "slinger" else "MA2"},
            "monster_amd": ["+0"],
        }
    )
    play(game, ("DAMAGE_RESPONSE", NO, victim))
    assert pos(game, f"{kind}#1") == cell(*dest)
    assert [e.data["target"] for e in events_of(game, "ATTACK")] == [victim]


def test_ai_5_case_a_ranged_avoids_adjacency():
    """HV-AI-5 Case A: a Slinger (SL3) adjacent to its focus steps away to (4,4) (1 step, range 2,
    lower id than (3,5)) rather than shoot with disadvantage: one card drawn, 2 + 0."""
    game = new(
        {
            "sequence": ["slinger"],
            "characters": {"bulwark": {"cell": [2, 4]}, "conjurer": {"cell": [0, 0]}},
            "monsters": [mon("slinger", 1, 3, 4)],
            "monster_cards": {"slinger": "SL3"},
            "monster_amd": ["+0", "-2"],
        }
    )
    play(game, ("DAMAGE_RESPONSE", NO, "bulwark"))
    assert pos(game, "slinger#1") == cell(4, 4)
    assert hp(game, "bulwark") == 8 and game.state.monster_amd.discard == ["+0"]


@pytest.mark.parametrize("card", ["SL6", "SL3"])
def test_ai_5_6_extra_targets(card):
    """HV-AI-5 Case A (e), HV-AI-6: with SL6 (Target 2, Attack 2 - 1) the Slinger at (8,4) moves to
    (7,4), from where the Conjurer (R 3) can be shot too, and hits its focus the Bulwark (1 + 0)
    then the Conjurer (1 + 1); with SL3 (one target) it stays and hits the Bulwark for 2 + 0."""
    game = new(
        {
            "sequence": ["slinger"],
            "characters": {"bulwark": {"cell": [5, 4]}, "conjurer": {"cell": [5, 6]}},
            "monsters": [mon("slinger", 1, 8, 4)],
            "monster_cards": {"slinger": card},
            "monster_amd": ["+0", "+1"],
        }
    )
    play(game, ("DAMAGE_RESPONSE", NO, "bulwark"))
    if card == "SL6":
        play(game, ("DAMAGE_RESPONSE", NO, "conjurer"))
        assert pos(game, "slinger#1") == cell(7, 4)
        assert (hp(game, "bulwark"), hp(game, "conjurer")) == (9, 5)
    else:
        assert pos(game, "slinger#1") == cell(8, 4)
        assert (hp(game, "bulwark"), hp(game, "conjurer")) == (8, 7)
    assert [e.data["target"] for e in events_of(game, "ATTACK")] == (
        ["bulwark", "conjurer"] if card == "SL6" else ["bulwark"]
    )


@pytest.mark.parametrize(
    ("sequence", "extra", "victim_hp"),
    [(["bulwark", "conjurer"], "bulwark", 9), (["conjurer", "bulwark"], "ember_wisp#1", 3)],
)
def test_ai_6_extra_target_choice(sequence, extra, victim_hp):
    """HV-AI-6: an immobilized Slinger at (5,4) with SL6 focuses the Conjurer (R 2) and adds one
    extra target by (proximity, turn order): the Bulwark (2,4) and the Wisp (8,4) are both at R 3;
    the Wisp's position is just before the Conjurer, so the Bulwark wins only when it acts first.
    Each hit is 2 - 1 + 0 = 1."""
    played = {"bulwark": ["B01", "B02"], "conjurer": ["C01", "C02"]}
    if sequence[0] == "conjurer":
        played = {"bulwark": ["B01", "B02"], "conjurer": ["C04", "C01"]}
    game = new(
        {
            "sequence": [*sequence, "slinger"],
            "next": 2,
            "characters": {
                "bulwark": {"cell": [2, 4], "played": played["bulwark"]},
                "conjurer": {"cell": [7, 4], "played": played["conjurer"]},
            },
            "summons": [wisp(8, 4)],
            "monsters": [mon("slinger", 1, 5, 4, conditions=["immobilize"])],
            "monster_cards": {"slinger": "SL6"},
            "monster_amd": ["+0", "+0"],
        }
    )
    play(game, ("DAMAGE_RESPONSE", NO, "conjurer"))
    if extra == "bulwark":
        play(game, ("DAMAGE_RESPONSE", NO, "bulwark"))
    assert [e.data["target"] for e in events_of(game, "ATTACK")] == ["conjurer", extra]
    assert hp(game, extra) == victim_hp and hp(game, "conjurer") == 6


def test_ai_5_case_b():
    """HV-AI-5 Case B: a Marauder (MA2) at (8,6) that cannot reach the Bulwark at (1,6) moves to
    the reachable cell closest in steps to an attack hex: (6,6), 4 steps from (2,6)."""
    game = new(
        {
            "sequence": ["marauder"],
            "characters": {"bulwark": {"cell": [1, 6]}, "conjurer": {"cell": [0, 0]}},
            "monsters": [mon("marauder", 1, 8, 6)],
            "monster_cards": {"marauder": "MA2"},
        }
    )
    assert [(e.data["from"], e.data["to"]) for e in events_of(game, "MOVE")] == [
        (cell(8, 6), cell(6, 6))
    ]
    assert events_of(game, "ATTACK") == []


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


# =================================================================================================
# Additional checks


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


def test_mturn_10_range_modifier():
    """HV-MTURN-10: SL2 'Attack +1, Range +1' lets a Slinger (Range 3) hit the Bulwark 4 hexes
    away without moving: 2 + 1 + 0 = 3."""
    game = new(
        {
            "sequence": ["slinger"],
            "characters": {"bulwark": {"cell": [1, 4]}, "conjurer": {"cell": [0, 0]}},
            "monsters": [mon("slinger", 1, 5, 4)],
            "monster_cards": {"slinger": "SL2"},
            "monster_amd": ["+0"],
        }
    )
    play(game, ("DAMAGE_RESPONSE", NO, "bulwark"))
    assert hp(game, "bulwark") == 7 and pos(game, "slinger#1") == cell(5, 4)


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


def test_item_4_seers_lens_on_every_target():
    """HV-ITEM-4: Seer's Lens gives advantage on all targets of the attack: C06 (Target 2)
    draws two cards per target: max(2-1, 2+1) = 3 on Marauder #2 (5 -> 2), max(2+0, 2+2) = 4 on
    Slinger #1 (4 -> dead)."""
    game = _c06_game(amd=("-1", "+1", "+0", "+2"))
    play(
        game,
        ("WINDOW_0", ITEM0),
        ("WINDOW_0", BOX(LEAD, TOP, PRINTED)),
        ("ATTACK_TARGET", HEX(3, 4)),
        ("ATTACK_TARGET", HEX(5, 0)),
    )
    assert hp(game, "marauder#2") == 2 and monster(game, "slinger#1") is None
    assert len(events_of(game, "DRAW", deck="conjurer")) == 4


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


def test_fixture_default_sequence_with_idle_listed_character():
    """HV-API-10 (fixture defaults): without a listed sequence a TURNS fixture holds the listed
    characters that have played cards (or a long rest); a listed character without played cards
    (here the Conjurer, only placed on the map) simply has no slot."""
    game = new(
        {
            "characters": {
                "bulwark": {"cell": [1, 2], "played": ["B01", "B02"]},
                "conjurer": {"cell": [3, 4]},
            },
            "monsters": [FAR_MARAUDER],
        }
    )
    assert slot_labels(game) == ["bulwark"]


def test_mturn_7_stunned_monster_does_nothing():
    """HV-MTURN-7, HV-COND-6, HV-MEND-1: a stunned Marauder with MA4 next to the Bulwark gains no
    Shield/Retaliate and does not attack; its stun (present at turn start) ends with the turn."""
    game = new(
        {
            "sequence": ["marauder", "bulwark"],
            "characters": {
                "bulwark": {"cell": [2, 2], "played": ["B03", "B01"]},
                "conjurer": {"cell": [0, 6]},
            },
            "monsters": [mon("marauder", 1, 3, 2, conditions=["stun"])],
            "monster_cards": {"marauder": "MA4"},
        }
    )
    expect(game, "WINDOW_0", "bulwark")
    m = monster(game, "marauder#1")
    assert (m.shield, m.retaliate, m.conditions) == (0, 0, [])
    assert events_of(game, "ATTACK") == [] and events_of(game, "STUN_SKIP", figure="marauder#1")


def test_cturn_3_stunned_character():
    """HV-CTURN-3: a stunned Bulwark is asked nothing: leading then other card go to discard (B09's
    lost mark does not apply), no item is used, the stun ends with the turn."""
    game = new(
        {
            "characters": {
                "bulwark": {"cell": [2, 2], "played": ["B09", "B01"], "conditions": ["stun"]}
            },
            "monsters": [mon("marauder", 1, 3, 2), FAR_MARAUDER | {"standee": 2}],
        }
    )
    assert [e.data["card"] for e in events_of(game, "CARD_TO", figure="bulwark")] == ["B09", "B01"]
    assert (
        cards_in_order(game, "bulwark", "discard") == ["B09", "B01"]
        and cards_in_order(game, "bulwark", "lost") == []
    )
    assert (
        char(game, "bulwark").items == ["ready", "ready"] and conditions(game, "bulwark") == set()
    )
    assert events_of(game, "ATTACK") == [] and hp(game, "marauder#1") == 5


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
