"""Tests of the haven default scenario "Raider Camp" and its loader (haven.md section 15).

The expected values are copied from the spec (15.1-15.10 and the rules they cite), not from the
data file, so that the file, the loader and the spec are checked against each other. The error
tests load broken copies of the data file and check that the message names the file and the field.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from reborn_env.games.haven.scenario import loader as scenario_file
from reborn_env.games.haven.scenario.loader import ScenarioError, load_scenario
from reborn_env.games.haven.scenario.model import (
    FLOOR,
    OBSTACLE,
    WALL,
    Ability,
    Box,
    Scenario,
)
from tests.haven.helpers import cell as cell_id

DATA_FILE = Path(scenario_file.__file__).parent / "data" / "raider_camp.toml"


def cells(*coords: tuple[int, int]) -> set[int]:
    return {cell_id(col, row) for col, row in coords}


def ability_text(a: Ability) -> str:
    """A compact rendering of an ability close to the spec's card text."""
    parts = [a.kind]
    if a.kind not in ("condition", "infuse", "summon"):
        parts.append(str(a.value))
    if a.range:
        parts.append(f"range {a.range}")
    if a.targets > 1:
        parts.append(f"target {a.targets}")
    if a.pierce:
        parts.append(f"pierce {a.pierce}")
    parts += [*a.conditions, *filter(None, (a.element, a.summon))]
    if a.consume:
        bonus = f" +{a.consume.bonus}" if a.consume.bonus else ""
        parts.append(
            f"consume {a.consume.element}{bonus}{''.join(' ' + c for c in a.consume.conditions)}"
        )
    return " ".join(parts)


def box_text(box: Box) -> str:
    return "; ".join(ability_text(a) for a in box.abilities)


# --- 15.1 map (HV-MAP-1, HV-MAP-3, HV-STATE-6) ---------------------------------------------------


def test_bundled_load_is_cached_and_equals_the_path_load(scenario: Scenario) -> None:
    assert load_scenario("raider_camp") is scenario
    by_path = load_scenario(str(DATA_FILE))
    assert by_path.map == scenario.map and by_path.characters == scenario.characters
    assert by_path.monster_types == scenario.monster_types and by_path.rules == scenario.rules


def test_map_cells_15_1(scenario: Scenario) -> None:
    hex_map = scenario.map
    assert len(hex_map.cells) == 63  # HV-MAP-1: 9 x 7, cell id = 9 * row + col
    walls, obstacles = cells((6, 2), (6, 3)), cells((4, 1), (3, 3), (4, 5))
    assert {c for c, k in enumerate(hex_map.cells) if k == WALL} == walls
    assert {c for c, k in enumerate(hex_map.cells) if k == OBSTACLE} == obstacles
    assert hex_map.kind(6, 2) == WALL and hex_map.kind(4, 5) == OBSTACLE
    assert hex_map.kind(0, 0) == FLOOR and hex_map.kind(8, 6) == FLOOR
    assert cell_id(8, 6) == 62


def test_map_tokens_and_starts_15_1(scenario: Scenario) -> None:
    hex_map = scenario.map
    assert sorted(hex_map.coins) == sorted(cells((0, 5), (8, 6)))
    (treasure,) = hex_map.treasures
    assert (treasure.number, treasure.cell, treasure.heal, treasure.gold) == (1, 8, 3, 5)
    assert hex_map.starts == (cell_id(1, 2), cell_id(1, 4))  # bulwark, conjurer (15.2)


def test_monster_placements_15_1(scenario: Scenario) -> None:
    placed = {(p.type, p.standee): (p.rank, p.cell) for p in scenario.map.monsters}
    assert placed == {
        ("marauder", 1): ("normal", cell_id(7, 2)),
        ("marauder", 2): ("normal", cell_id(6, 5)),
        ("marauder", 3): ("elite", cell_id(7, 4)),
        ("slinger", 1): ("normal", cell_id(8, 3)),
        ("slinger", 2): ("elite", cell_id(7, 6)),
    }


# --- 15.2 characters and cards, 15.3 summon, 15.4 items ------------------------------------------

CARDS = {  # id: (name, initiative, top, top fate, bottom, bottom fate), 15.2 in table order
    "B01": ("Hammer Swing", 14, "attack 3", "discard", "move 2", "discard"),
    "B02": ("Brace", 11, "shield 2", "round", "move 3", "discard"),
    "B03": ("Reckless Blow", 71, "attack 4; suffer_damage 1", "lost", "move 2; loot 1", "discard"),
    "B04": ("Earthshaker", 45, "attack 2 immobilize; infuse earth", "discard", "heal 2", "discard"),
    "B05": ("Quake Strike", 38, "attack 2 consume earth +2", "discard", "move 3", "discard"),
    "B06": ("Battle Cry", 62, "retaliate 2", "round", "move 2; condition strengthen", "discard"),
    "B07": ("Bull Rush", 22, "move 2; attack 2", "discard", "move 4", "lost"),
    "B08": ("Piercing Thrust", 54, "attack 3 pierce 2", "discard", "heal 2", "discard"),
    "B09": ("Skull Crack", 80, "attack 2 stun", "lost", "move 2; shield 1", "round"),
    "C01": ("Kindle", 18, "attack 2 range 3", "discard", "move 2; infuse fire", "discard"),
    "C02": ("Flame Lance", 27, "attack 2 range 3 consume fire +2", "discard", "move 3", "discard"),
    "C03": ("Call Ember Wisp", 40, "summon ember_wisp", "persistent", "move 2", "discard"),
    "C04": (
        "Veil Step",
        9,
        "attack 1 range 3 muddle",
        "discard",
        "move 2; condition invisible",
        "lost",
    ),
    "C05": (
        "Frost Shard",
        33,
        "attack 3 range 2; infuse ice",
        "discard",
        "heal 2 range 3",
        "discard",
    ),
    "C06": ("Arc Burst", 52, "attack 2 range 3 target 2", "lost", "move 3", "discard"),
    "C07": ("Glacial Mend", 76, "heal 3 range 3", "discard", "move 2 consume ice +2", "discard"),
    "C08": ("Searing Ray", 64, "attack 4 range 3 consume fire wound", "lost", "move 3", "discard"),
}


def test_characters_15_2(scenario: Scenario) -> None:
    rows = [(c.id, c.name, c.max_hp, c.hand_size) for c in scenario.characters]
    assert rows == [("bulwark", "Bulwark", 10, 9), ("conjurer", "Conjurer", 7, 8)]
    assert [c.id for c in scenario.characters[0].cards] == [f"B0{i}" for i in range(1, 10)]
    assert [c.id for c in scenario.characters[1].cards] == [f"C0{i}" for i in range(1, 9)]


def test_every_character_card_15_2(scenario: Scenario) -> None:
    actual = {
        card.id: (
            card.name,
            card.initiative,
            box_text(card.top),
            card.top.fate,
            box_text(card.bottom),
            card.bottom.fate,
        )
        for character in scenario.characters
        for card in character.cards
    }
    assert actual == CARDS


def test_element_use_15_2(scenario: Scenario) -> None:
    infused, consumed = set(), set()
    for card in (c for ch in scenario.characters for c in ch.cards):
        for a in (*card.top.abilities, *card.bottom.abilities):
            if a.element:
                infused.add((card.id, a.element))
            if a.consume:
                consumed.add((card.id, a.consume.element))
    assert infused == {("B04", "earth"), ("C01", "fire"), ("C05", "ice")}
    assert consumed == {("B05", "earth"), ("C02", "fire"), ("C08", "fire"), ("C07", "ice")}
    marauder, slinger = scenario.monster_types
    assert [c.id for c in slinger.deck if any(a.element == "dark" for a in c.abilities)] == ["SL5"]
    assert [c.id for c in marauder.deck if any(a.consume for a in c.abilities)] == ["MA6"]


def test_summon_15_3(scenario: Scenario) -> None:
    wisp = scenario.summon("ember_wisp")
    assert (wisp.name, wisp.hp, wisp.move, wisp.attack, wisp.range) == ("Ember Wisp", 4, 2, 2, 0)


def test_items_15_4(scenario: Scenario) -> None:
    items = {
        ch.id: [(i.name, i.use, i.effect, i.value, i.element) for i in ch.items]
        for ch in scenario.characters
    }
    assert items == {
        "bulwark": [
            ("Swift Boots", "spent", "next_move_bonus", 2, None),
            ("Healing Draught", "consumed", "heal_self", 3, None),
        ],
        "conjurer": [
            ("Seer's Lens", "spent", "next_attack_advantage", 0, None),
            ("Ember Flask", "consumed", "infuse", 0, "fire"),
        ],
    }


# --- 15.5 monsters, 15.6 monster ability decks, 15.7 modifier decks -------------------------------


def test_monster_stats_15_5(scenario: Scenario) -> None:
    stats = {
        (t.id, rank): (s.hp, s.move, s.attack, s.range, s.shield, s.retaliate)
        for t in scenario.monster_types
        for rank, s in (("normal", t.normal), ("elite", t.elite))
    }
    assert stats == {
        ("marauder", "normal"): (5, 2, 2, 0, 0, 0),
        ("marauder", "elite"): (8, 2, 3, 0, 1, 0),
        ("slinger", "normal"): (4, 2, 2, 3, 0, 0),
        ("slinger", "elite"): (6, 2, 3, 3, 0, 0),
    }
    assert [t.id for t in scenario.monster_types] == ["marauder", "slinger"]  # HV-INIT-3 order


MONSTER_CARDS = {  # id: (name, initiative, abilities, shuffle), 15.6
    "MA1": ("Rush", 18, "move 1; attack -1", False),
    "MA2": ("Hack", 32, "move 0; attack 0", False),
    "MA3": ("Hack", 41, "move 0; attack 0", False),
    "MA4": ("Guard Up", 15, "shield 1; retaliate 1; attack 0", True),
    "MA5": ("Brutal Chop", 58, "move -1; attack 1", True),
    "MA6": ("Shadow Fury", 66, "move 0; attack 0 consume dark +2", False),
    "MA7": ("Hamstring", 74, "move 0; attack -1 immobilize", False),
    "SL1": ("Snap Shot", 16, "move 1; attack -1", False),
    "SL2": ("Steady Aim", 31, "attack 1 range 1", False),
    "SL3": ("Volley", 41, "move 0; attack 0", False),
    "SL4": ("Venom Bolt", 56, "move 0; attack -1 poison", False),
    "SL5": ("Shadow Shot", 29, "move -1; attack 0; infuse dark", True),
    "SL6": ("Twin Bolts", 68, "move 0; attack -1 target 2", True),
    "SL7": ("Crippling Shot", 77, "move 1; attack -1 disarm", False),
}


def test_monster_ability_decks_15_6(scenario: Scenario) -> None:
    actual = {
        card.id: (card.name, card.initiative, box_text(Box(card.abilities, "")), card.shuffle)
        for t in scenario.monster_types
        for card in t.deck
    }
    assert actual == MONSTER_CARDS
    assert [len(t.deck) for t in scenario.monster_types] == [7, 7]
    # 15.6 deliberate ties: C01/MA1 at 18, MA3/SL3 at 41.
    assert CARDS["C01"][1] == MONSTER_CARDS["MA1"][1] == 18
    assert MONSTER_CARDS["MA3"][1] == MONSTER_CARDS["SL3"][1] == 41


def test_attack_modifier_decks_15_7(scenario: Scenario) -> None:
    standard = {"+0": 6, "+1": 5, "-1": 5, "+2": 1, "-2": 1, "x2": 1, "null": 1}  # HV-AMD-1
    for deck in (scenario.character_modifier_deck, scenario.monster_modifier_deck):
        assert Counter(card.name for card in deck) == standard
        assert {card.name for card in deck if card.shuffle} == {"x2", "null"}  # HV-AMD-3
        assert sorted(card.value for card in deck if card.kind == "add") == sorted(
            [0] * 6 + [1] * 5 + [-1] * 5 + [2, -2]
        )


def test_condition_coverage_15_8(scenario: Scenario) -> None:
    by_condition: dict[str, set[str]] = {}
    abilities = [(c.id, a) for ch in scenario.characters for c in ch.cards for a in c.top.abilities]
    abilities += [
        (c.id, a) for ch in scenario.characters for c in ch.cards for a in c.bottom.abilities
    ]
    abilities += [(c.id, a) for t in scenario.monster_types for c in t.deck for a in c.abilities]
    for card_id, a in abilities:
        for condition in (*a.conditions, *(a.consume.conditions if a.consume else ())):
            by_condition.setdefault(condition, set()).add(card_id)
    assert by_condition == {
        "poison": {"SL4"},
        "wound": {"C08"},
        "immobilize": {"B04", "MA7"},
        "disarm": {"SL7"},
        "stun": {"B09"},
        "muddle": {"C04"},
        "invisible": {"C04"},
        "strengthen": {"B06"},
    }


def test_rules_hv_end_and_bounds_15_10(scenario: Scenario) -> None:
    rules = scenario.rules
    assert (rules.win_condition, rules.round_cap, rules.coin_gold) == ("no_monsters", 30, 2)
    assert rules.bounds.max_rounds_by_hand_size == {9: 28, 8: 23}
    assert rules.bounds.last_exhaustion_round == 29
    assert rules.bounds.max_prompts_per_agent_round == 40
    assert rules.bounds.max_agent_steps == 2240


# --- errors: broken copies of the data file ------------------------------------------------------

BROKEN = [
    # (description, old text, new text, field named in the message, problem fragment)
    ("bad map cell", ".   .   .   .   O", ".   .   .   .   X", "map", "token 'X'"),
    (
        "unknown ability kind",
        '{ kind = "attack", value = 3 }',
        '{ kind = "smash", value = 3 }',
        "characters.bulwark.cards[0].top.abilities[0].kind",
        "'smash' is not allowed",
    ),
    (
        "duplicate standee",
        "standee = 2\ncell = [7, 6]",
        "standee = 1\ncell = [7, 6]",
        "placements",
        "repeated: 1",
    ),
    (
        "monster on a wall",
        "standee = 1\ncell = [7, 2]",
        "standee = 1\ncell = [6, 2]",
        "placements[0].cell",
        "'wall'",
    ),
    ("initiative out of range", "initiative = 14", "initiative = 100", "cards[0].initiative", "99"),
    ("unknown condition", '["immobilize"] },', '["burn"] },', "conditions", "'burn'"),
    (
        "unknown element",
        'element = "earth" }',
        'element = "aether" }',
        "cards[3].top.abilities[1].element",
        "'aether'",
    ),
    (
        "unknown key",
        'use = "spent"',
        'use = "spent"\ncolour = "red"',
        "items.swift_boots.colour",
        "unknown key",
    ),
    ("duplicate card id", 'id = "B02"', 'id = "B01"', "characters", "repeated: B01"),
    ("map disagrees with placements", "#   m1", "#   m4", "placements", "marauder normal #4"),
    (
        "start on an obstacle",
        "start = [1, 2]",
        "start = [4, 1]",
        "characters.bulwark.start",
        "'obstacle'",
    ),
    (
        "cross-check walls",
        "walls = [[6, 2], [6, 3]]",
        "walls = [[6, 2]]",
        "cross_check.walls",
        "(6,3)",
    ),
    ("modifier deck size", '"+0" = 6', '"+0" = 7', "modifier_decks.characters", "21 cards"),
    (
        "bounds",
        "max_agent_steps = 2240",
        "max_agent_steps = 2000",
        "bounds.max_agent_steps",
        "2240",
    ),
    ("hand size", "bulwark = 9,", "bulwark = 10,", "cross_check.hand_sizes.bulwark", "9"),
    ("unknown summon", 'summon = "ember_wisp"', 'summon = "imp"', "abilities[0].summon", "'imp'"),
    (
        "summon box not persistent",
        'fate = "persistent"',
        'fate = "discard"',
        "characters.conjurer.cards[2].top.fate",
        "HV-ABL-7",
    ),
    (
        "heal on a monster card",
        'abilities = [{ kind = "move", value = 1 }, { kind = "attack", value = -1 }]',
        'abilities = [{ kind = "heal", value = 1 }]',
        "monsters.marauder.deck[0].abilities[0].kind",
        "'heal' is not allowed",
    ),
    ("treasure off its tile", "cell = [8, 0]", "cell = [0, 0]", "treasures", "'T' cells (8,0)"),
]


def broken_copy(tmp_path: Path, old: str, new: str) -> Path:
    text = DATA_FILE.read_text(encoding="utf-8")
    assert old in text, f"test setup: {old!r} not in the data file"
    path = tmp_path / "broken.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("old", "new", "field", "problem"),
    [case[1:] for case in BROKEN],
    ids=[case[0] for case in BROKEN],
)
def test_broken_file_names_file_and_field(
    tmp_path: Path, old: str, new: str, field: str, problem: str
) -> None:
    path = broken_copy(tmp_path, old, new)
    with pytest.raises(ScenarioError) as caught:
        load_scenario(str(path))
    message = str(caught.value)
    assert message.startswith(f"{path}: ")
    assert field in message and problem in message, message


def test_wrong_monster_deck_size_names_the_deck(tmp_path: Path) -> None:
    """15.6: 7 cards per type; a deck of 6 is caught by the cross-check and names the deck."""
    text = DATA_FILE.read_text(encoding="utf-8")
    start = text.index('[[monsters.marauder.deck]]\nid = "MA7"')
    end = text.index("[monsters.slinger]")
    path = tmp_path / "short.toml"
    path.write_text(text[:start] + text[end:], encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"monsters\.marauder\.deck: has 6 deck") as caught:
        load_scenario(str(path))
    assert str(path) in str(caught.value) and "monster_deck_size" in str(caught.value)


def test_unreadable_and_unknown_files(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="cannot read"):
        load_scenario(str(tmp_path / "missing.toml"))
    bundled = "bundled: frost_keep, mire_crossing, raider_camp, walled_camp"
    with pytest.raises(ScenarioError, match=bundled):
        load_scenario("no_such_scenario")
    bad = tmp_path / "bad.toml"
    bad.write_text("name = ", encoding="utf-8")
    with pytest.raises(ScenarioError, match="not a valid UTF-8 TOML file"):
        load_scenario(str(bad))
