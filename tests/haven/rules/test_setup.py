"""Per-rule haven tests of section 1, state records (HV-STATE-*) and setup (HV-SETUP-*), and
of the fixtures' defaults (HV-API-10).
"""

from __future__ import annotations

from collections import Counter

from reborn_env.games.haven.scenario.model import ELEMENTS
from tests.haven.helpers import (
    BOTTOM,
    BOX,
    BULWARK_CARDS,
    CONJURER_CARDS,
    FAR_MARAUDER,
    HEX,
    LEAD,
    PRINTED,
    STANDARD_AMD,
    TOP,
    cards_in_order,
    cell,
    char,
    coins,
    deck_orders,
    drive,
    element,
    events_of,
    expect,
    new,
    play,
    select,
    slot_labels,
    summon,
)

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


def test_setup_2_decks_shuffled_by_seed():
    """HV-SETUP-2, HV-AMD-1/2: every modifier and ability deck is shuffled by the seeded
    generator: the same seed gives the same orders, different seeds different ones; each modifier
    deck is a full standard 20-card deck and each character has its own."""
    a, b, other = new(None, seed=7), new(None, seed=7), new(None, seed=8)
    assert deck_orders(a) == deck_orders(b)
    assert deck_orders(a) != deck_orders(other)
    assert a.state.characters[0].amd.draw != other.state.characters[0].amd.draw
    for deck in [c.amd for c in a.state.characters] + [a.state.monster_amd]:
        assert Counter(deck.draw) == STANDARD_AMD
    assert a.state.characters[0].amd is not a.state.characters[1].amd


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
