"""Tests of the default scenario file and its loader (rules spec section 19, ER-SCN-1..13).

The expected values are copied from the spec, not from the data file, so that the file, the parser
and the spec are checked against each other.
"""

from __future__ import annotations

from collections import Counter, deque
from pathlib import Path

import pytest

from reborn_env.games.earth_reborn.scenario import loader as scenario_file
from reborn_env.games.earth_reborn.scenario.loader import ScenarioError, load_scenario, parse_map
from reborn_env.games.earth_reborn.scenario.model import (
    DARK_BLUE,
    GREY,
    LIGHT_BLUE,
    OPEN_EDGE,
    WALL,
    Board,
    E,
    N,
    S,
    Scenario,
    W,
)

DATA_FILE = Path(scenario_file.__file__).parent / "data" / "vault_raid.toml"


def squares(board: Board, *coords: tuple[int, int]) -> set[int]:
    return {board.square(x, y) for x, y in coords}


def walking_distance(board: Board, start: tuple[int, int], goal: tuple[int, int]) -> int:
    """Breadth-first search; every door counts as open, walls and void block."""
    origin, target = board.square(*start), board.square(*goal)
    dist = {origin: 0}
    queue = deque([origin])
    while queue:
        sq = queue.popleft()
        for d in range(4):
            nxt = board.neighbor[sq][d]
            if board.edge[sq][d] != WALL and nxt not in dist:
                dist[nxt] = dist[sq] + 1
                queue.append(nxt)
    return dist[target]


# --- the map: ER-SCN-1, ER-SCN-2 -----------------------------------------------------------------


def test_er_scn_1_map_is_9_by_7_with_55_floor_squares(scenario: Scenario) -> None:
    board = scenario.board
    assert (board.width, board.height) == (9, 7)
    assert board.void.count(False) == 55


def test_er_scn_2_void_squares(scenario: Scenario) -> None:
    board = scenario.board
    void = {sq for sq, is_void in enumerate(board.void) if is_void}
    assert void == squares(board, (2, 0), (2, 1), (6, 0), (6, 1), (2, 5), (2, 6), (6, 5), (6, 6))


def test_er_scn_2_five_doors_with_kinds_edges_and_reading_order_ids(scenario: Scenario) -> None:
    board = scenario.board
    doors = [(d.id, d.kind, board.xy(d.a), board.xy(d.b)) for d in board.doors]
    assert doors == [
        (0, "magnetic_sliding", (4, 1), (4, 2)),
        (1, "wooden", (1, 2), (2, 2)),
        (2, "wooden", (6, 2), (7, 2)),
        (3, "sliding", (6, 3), (7, 3)),
        (4, "magnetic_wooden", (4, 4), (4, 5)),
    ]
    for door in board.doors:
        direction = E if board.neighbor[door.a][E] == door.b else S
        assert board.edge[door.a][direction] == door.id
        assert board.edge[door.b][(direction + 2) % 4] == door.id


def test_er_scn_2_open_gap_and_walls_between_corridor_hall_and_lab(scenario: Scenario) -> None:
    board = scenario.board
    assert board.edge[board.square(1, 3)][E] == OPEN_EDGE
    assert board.edge[board.square(2, 3)][W] == OPEN_EDGE
    assert board.edge[board.square(1, 4)][E] == WALL
    assert board.edge[board.square(6, 4)][E] == WALL
    for x in (2, 3, 5, 6):  # the hall's north and south sides, except the two doors at x = 4
        assert board.edge[board.square(x, 2)][N] == WALL
        assert board.edge[board.square(x, 4)][S] == WALL


def test_er_scn_1_edges_to_void_or_off_the_map_are_walls(scenario: Scenario) -> None:
    board = scenario.board
    assert board.edge[board.square(1, 0)][E] == WALL  # (2,0) is void
    assert board.edge[board.square(3, 0)][W] == WALL
    assert board.edge[board.square(0, 0)][N] == WALL
    assert board.neighbor[board.square(0, 0)][N] == -1
    assert board.neighbor[board.square(8, 6)][E] == -1
    assert all(
        edge == (WALL,) * 4 for edge, void in zip(board.edge, board.void, strict=True) if void
    )


def test_er_scn_1_neighbors_follow_section_0_4_directions(scenario: Scenario) -> None:
    board = scenario.board
    assert board.neighbor[board.square(4, 3)] == (
        board.square(4, 2),
        board.square(5, 3),
        board.square(4, 4),
        board.square(3, 3),
    )


def test_er_scn_2_terminals_and_cache(scenario: Scenario) -> None:
    board = scenario.board
    assert [(t.id, board.xy(t.square)) for t in scenario.terminals] == [
        ("O1", (4, 0)),
        ("O2", (4, 6)),
    ]
    assert [(board.xy(c.square), c.item) for c in scenario.caches] == [((7, 6), "magnetic_card")]


def test_er_scn_2_walking_distances_with_all_doors_open(scenario: Scenario) -> None:
    assert walking_distance(scenario.board, (0, 2), (4, 0)) == 6  # NORAD start to O1
    assert walking_distance(scenario.board, (8, 3), (4, 2)) == 5  # Salemite start to vault door


def test_er_scn_3_door_defense_by_kind(scenario: Scenario) -> None:
    defense = {door.kind: door.defense for door in scenario.board.doors}
    assert defense == {"sliding": 5, "wooden": 4, "magnetic_sliding": 7, "magnetic_wooden": 6}


# --- characters: ER-SCN-4..7 ---------------------------------------------------------------------


def test_er_scn_4_characters_in_card_order_with_factions(scenario: Scenario) -> None:
    assert [(c.id, c.faction) for c in scenario.characters] == [
        ("bolter", "norad"),
        ("vasquez", "norad"),
        ("jack_saw", "salemite"),
        ("deeler", "salemite"),
        ("zombie", "salemite"),
    ]
    assert scenario.char_index["deeler"] == 3


def test_er_scn_4_stat_lines(scenario: Scenario) -> None:
    bolter = scenario.characters[scenario.char_index["bolter"]]
    assert (bolter.healthy.mov, bolter.healthy.cc, bolter.healthy.sht) == (4, (3, 2, 1), 2)
    assert (bolter.healthy.maxcp, bolter.healthy.bonus, bolter.healthy.tec) == (6, 2, 2)
    vasquez = scenario.characters[scenario.char_index["vasquez"]]
    assert (vasquez.wounded.cc, vasquez.wounded.arm, vasquez.wounded.lp) == ((1, 1, 0), 0, 2)
    jack = scenario.characters[scenario.char_index["jack_saw"]]
    assert (jack.healthy.cc, jack.healthy.lp, jack.healthy.maxcp) == ((4, 2, 1), 4, 5)
    zombie = scenario.characters[scenario.char_index["zombie"]]
    assert (zombie.wounded.mov, zombie.wounded.maxcp) == (2, 3)
    assert all(c.healthy.auto_hits == c.wounded.auto_hits == 0 for c in scenario.characters)


def test_er_scn_5_arc_maps(scenario: Scenario) -> None:
    arcs = {c.id: c.arcs for c in scenario.characters}  # front, right, back, left
    assert arcs["jack_saw"] == (DARK_BLUE, DARK_BLUE, GREY, LIGHT_BLUE)
    for other in ("bolter", "vasquez", "deeler", "zombie"):
        assert arcs[other] == (DARK_BLUE, LIGHT_BLUE, GREY, LIGHT_BLUE)


def test_er_scn_6_weapons_cards_and_abilities(scenario: Scenario) -> None:
    chars = {c.id: c for c in scenario.characters}
    rifle = chars["bolter"].weapon
    assert rifle is not None
    assert (rifle.targeting_bonus, rifle.damage_red, rifle.damage_orange) == (1, 4, 3)
    assert not rifle.out_of_ammo_icon
    for pistol in (chars["vasquez"].weapon, chars["deeler"].weapon):
        assert pistol is not None
        assert (pistol.name, pistol.targeting_bonus, pistol.damage_red) == ("pistol", 0, 3)
        assert (pistol.damage_orange, pistol.out_of_ammo_icon) == (2, True)
    assert chars["jack_saw"].weapon is None
    assert chars["zombie"].weapon is None
    assert {c.id: c.cards for c in scenario.characters if c.cards} == {"bolter": 1}
    assert chars["jack_saw"].abilities == frozenset({"saw_door"})  # ER-ABIL-1
    assert all(not c.abilities for c in scenario.characters if c.id != "jack_saw")


def test_er_scn_7_starts_and_facings(scenario: Scenario) -> None:
    board = scenario.board
    starts = {c.id: (board.xy(c.start), c.facing) for c in scenario.characters}
    assert starts == {
        "bolter": ((0, 2), E),
        "vasquez": ((0, 4), E),
        "deeler": ((8, 1), W),
        "jack_saw": ((8, 3), W),
        "zombie": ((8, 5), W),
    }


# --- CP, initiative, mission: ER-SCN-8..11 -------------------------------------------------------


def test_er_scn_8_to_11_cp_initiative_turns_and_mission(scenario: Scenario) -> None:
    assert scenario.factions == ("norad", "salemite")
    assert scenario.base_cp == {"norad": 6, "salemite": 7}
    assert scenario.start_mp == {"norad": 0, "salemite": 0}
    assert scenario.turns == 6
    assert [scenario.initiative_for_turn(t) for t in (1, 2, 3, 6)] == [
        "norad",
        "salemite",
        "norad",
        "salemite",
    ]
    assert scenario.marker_at_setup == "norad"
    assert scenario.initiative_duel is False
    mission = scenario.mission
    assert (mission.hack_mp, mission.hacker_faction) == (3, "norad")
    assert mission.kill_mp == {"norad": 1, "salemite": 2}
    assert mission.unhacked_terminal_mp == {"norad": 0, "salemite": 1}
    assert (mission.interact_threshold, mission.search_threshold) == (3, 3)
    assert mission.end_when_all_hacked is True
    assert (scenario.hand_limit, scenario.max_tiles_per_character) == (5, 4)


# --- tiles: ER-SCN-12 ----------------------------------------------------------------------------


def test_er_scn_12_tile_ids_and_first_tile(scenario: Scenario) -> None:
    assert [t.id for t in scenario.tiles] == [f"T{i:02d}" for i in range(1, 25)]
    first = scenario.tiles[0]
    assert [(s.type, s.max, s.colour) for s in first.sections] == [
        ("M", 3, "black"),
        ("C", 1, "black"),
        ("F", 2, "red"),
        ("I", 1, "black"),
    ]
    assert scenario.tiles[scenario.tile_index["T15"]].sections[2].colour == "gold"


def test_er_scn_12_tile_set_totals(scenario: Scenario) -> None:
    sections = [s for tile in scenario.tiles for s in tile.sections]
    assert len(sections) == 96
    assert Counter(s.type for s in sections) == {"M": 27, "C": 22, "F": 22, "I": 15, "S": 10}
    by_max = Counter((s.type, s.max) for s in sections)
    assert [by_max["M", m] for m in (1, 2, 3)] == [9, 12, 6]
    assert [by_max["C", m] for m in (1, 2, 3)] == [10, 9, 3]
    assert [by_max["F", m] for m in (1, 2, 3, 4)] == [10, 8, 3, 1]
    assert [by_max["I", m] for m in (1, 2)] == [11, 4]
    assert [by_max["S", m] for m in (1, 2)] == [7, 3]
    assert all(any(s.type == "M" for s in tile.sections) for tile in scenario.tiles)


# --- loading -------------------------------------------------------------------------------------


def test_default_load_is_cached_and_equals_a_load_by_path(scenario: Scenario) -> None:
    assert load_scenario() is scenario
    assert load_scenario("vault_raid") is scenario
    by_path = load_scenario(str(DATA_FILE))
    assert by_path == scenario
    assert by_path is not scenario


def test_unknown_bundled_name_lists_the_bundled_scenarios() -> None:
    with pytest.raises(ScenarioError, match=r"no bundled scenario.*vault_raid"):
        load_scenario("no_such_scenario")


def test_missing_file_is_a_scenario_error(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="cannot read"):
        load_scenario(str(tmp_path / "absent.toml"))


def test_er_scn_1_parse_map_of_a_small_map() -> None:
    board, marks = parse_map(
        """
+-+-+-+
|Ns. X|
+ +k+-+
|. .|1|
+-+-+-+
""",
        {"sliding": 5, "wooden": 4, "magnetic_sliding": 7, "magnetic_wooden": 6},
    )
    assert (board.width, board.height) == (3, 2)
    assert board.void == (False, False, True, False, False, False)
    assert [(d.id, d.kind, d.a, d.b, d.defense) for d in board.doors] == [
        (0, "sliding", 0, 1, 5),
        (1, "magnetic_wooden", 1, 4, 6),
    ]
    assert board.edge[0] == (WALL, 0, OPEN_EDGE, WALL)
    assert board.edge[1][E] == WALL  # a space next to a void square is a wall
    assert marks == {"N": (0,), "1": (5,)}


def test_er_scn_3_parse_map_uses_the_default_door_defense() -> None:
    board, _ = parse_map("+-+-+\n|.w.|\n+-+-+")
    assert board.doors[0].defense == 4


# --- errors: every message names the file and the field ------------------------------------------

BROKEN = {
    "bad map character": (
        "|N .w. . . . .w. .|",
        "|N .w. ? . . .w. .|",
        ["map", "square (3,2)", "'?'"],
    ),
    "ragged map row": ("|. . . . . . .s. S|", "|. . . . . . .s. S", ["map", "row 7", "ragged"]),
    "door touching a void square": ("|. .|X|. 1", "|. .wX|. 1", ["map", "(2,0)", "void"]),
    "wrong cross-check door": (
        '{ id = 1, kind = "wooden"',
        '{ id = 1, kind = "sliding"',
        ["cross_check.doors", "door 1", "listed sliding (1,2)|(2,2)", "map has wooden"],
    ),
    "wrong cross-check floor count": (
        "floor_squares = 55",
        "floor_squares = 54",
        ["cross_check.floor_squares", "55"],
    ),
    "wrong cross-check void list": (
        "void = [[2, 0],",
        "void = [[3, 0],",
        ["cross_check.void", "(3,0)", "(2,0)"],
    ),
    "wrong cross-check terminal": ("O1 = [4, 0]", "O1 = [5, 0]", ["cross_check.terminals.O1"]),
    "missing character field": (
        "healthy = { mov = 4, cc = [3, 2, 1],",
        "healthy = { cc = [3, 2, 1],",
        ["characters.bolter.healthy.mov", "missing"],
    ),
    "unknown key": ("cards = 1", "cards = 1\nspeed = 9", ["characters.bolter.speed", "unknown"]),
    "wrong type": ("turns = 6 ", 'turns = "6" ', ["turns", "integer"]),
    "non-positive value": ("turns = 6 ", "turns = 0 ", ["turns", ">= 1"]),
    "negative stat": ("sht = 2, arm = 2,", "sht = 2, arm = -2,", ["characters.bolter.healthy.arm"]),
    "bad tile section": ('"F1g"]', '"Z9q"]', ["tiles.T05[3]", "Z9q", "M C F I S"]),
    "short tile": ('T02 = ["M2k", "C2r", "F1k", "S1k"]', 'T02 = ["M2k"]', ["tiles.T02", "4"]),
    "start on a void square": ("start = [0, 2]", "start = [2, 0]", ["bolter.start", "void"]),
    "start not marked on the map": (
        "start = [0, 4]",
        "start = [1, 4]",
        ["characters.vasquez.start", "'N'"],
    ),
    "map start letter without character": (
        "|. .|X|. . .|X|. S|\n+ + +-+ + + +-+ + +",
        "|. .|X|. . .|X|S S|\n+ + +-+ + + +-+ + +",
        ["characters", "salemite", "(7,5)"],
    ),
    "unknown faction": ('faction = "salemite"', 'faction = "zombies"', ["jack_saw.faction"]),
    "unknown initiative faction": ('odd = "norad"', 'odd = "nato"', ["initiative.odd", "norad"]),
    "unknown weapon": ('weapon = "pistol"', 'weapon = "laser"', ["vasquez.weapon", "pistol"]),
    "unknown ability": ('["saw_door"]', '["fly"]', ["jack_saw.abilities[0]", "saw_door"]),
    "bad facing": ('facing = "E"', 'facing = "NE"', ["bolter.facing", "N, E, S, W"]),
    "missing door defense": ("sliding = 5\n", "", ["door_defense.sliding", "missing"]),
    "terminal letter missing from map": ('O2 = "2"', 'O2 = "3"', ["terminals.O2", "'3'"]),
    "income beyond a CP pool (ER-INI-5)": (
        "base_cp = { norad = 6,",
        "base_cp = { norad = 38,",
        ["base_cp", "norad's income can reach 41 CP", "at most 40"],
    ),
    "duplicate tile id": ("[tiles]\n", '[tiles]\nT01 = ["M1k", "C1k", "F1k", "S1k"]\n', ["TOML"]),
}


@pytest.mark.parametrize("case", list(BROKEN))
def test_broken_file_raises_scenario_error_naming_file_and_field(case: str, tmp_path: Path) -> None:
    old, new, fragments = BROKEN[case]
    text = DATA_FILE.read_text(encoding="utf-8")
    assert old in text, f"test case {case!r} no longer matches the data file"
    broken = tmp_path / "broken.toml"
    broken.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:
        load_scenario(str(broken))
    message = str(caught.value)
    assert str(broken) in message
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"
