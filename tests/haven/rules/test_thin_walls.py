"""Section 23: thin walls (HV-TW-1..5), step by step with positions.

Every game here plays Raider Camp with thin walls added to its file (``walled`` writes the edited
copy to ``tmp_path``), the figures placed by a fixture (HV-API-10). Each rule is shown against the
same position without the wall, so a test fails if the wall were ignored. The rules run on the
reference kernels and, where the compiled core is built, on the compiled ones too: both must give
the same game.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from reborn_env.games.haven import board_view, render
from reborn_env.games.haven.observation import layout_for, observer_for
from reborn_env.games.haven.rules.engine import HavenConfig, HavenGame, new_game
from reborn_env.games.haven.rules.figures import board_for
from reborn_env.games.haven.rules.hexgrid import edge
from reborn_env.games.haven.rules.kernels import REFERENCE
from reborn_env.games.haven.scenario.loader import ScenarioError, load_scenario

from ..helpers import (
    BOTTOM,
    BOX,
    HEX,
    KERNEL_NAMES,
    KERNELS,
    LEAD,
    NO,
    PRINTED,
    STANDARD,
    TOP,
    cell,
    default_text,
    events_of,
    expect,
    load_text,
    mon,
    play,
    pos,
)

NO_NEGATION = HavenConfig(allow_damage_negation=False)


def walled(folder, *walls: tuple[tuple[int, int], tuple[int, int]]):
    """Raider Camp with ``thin_walls`` (HV-TW-1) listing ``walls``, loaded from ``folder``."""
    listed = ", ".join(f"[[{a[0]}, {a[1]}], [{b[0]}, {b[1]}]]" for a, b in walls)
    text = default_text().replace("\n[rules]\n", f"\nthin_walls = [{listed}]\n\n[rules]\n", 1)
    return load_text(folder, "walled", text)


def game_of(scenario, fixture, kernels=REFERENCE) -> HavenGame:
    return new_game(scenario, seed=0, config=NO_NEGATION, fixture=fixture, kernels=kernels)


def marauder_turn(scenario, at, card, bulwark, kernels=REFERENCE) -> HavenGame:
    """Marauder #1 at ``at`` runs ``card`` against the Bulwark at ``bulwark`` (the Conjurer far
    away at (8,6))."""
    fixture = {
        "sequence": ["marauder"],
        "characters": {"bulwark": {"cell": list(bulwark)}, "conjurer": {"cell": [8, 6]}},
        "monsters": [mon("marauder", 1, *at)],
        "monster_cards": {"marauder": card},
    }
    return game_of(scenario, fixture, kernels)


def moves(game: HavenGame) -> list[tuple[int, int]]:
    return [(e.data["from"], e.data["to"]) for e in events_of(game, "MOVE")]


# --- HV-TW-1: data ------------------------------------------------------------------------------


def test_tw_1_thin_walls_are_read_as_sorted_edges_in_either_order(tmp_path):
    """HV-TW-1: each entry is stored once as (lower id, higher id), the list ascending."""
    scenario = walled(tmp_path, ((4, 0), (3, 0)), ((2, 0), (2, 1)))
    assert scenario.map.thin_walls == ((cell(2, 0), cell(2, 1)), (cell(3, 0), cell(4, 0)))


@pytest.mark.parametrize(
    ("walls", "message"),
    [
        ((((2, 0), (4, 0)),), "are not neighbours"),
        ((((5, 2), (6, 2)),), "is a wall cell"),
        ((((3, 0), (4, 0)), ((4, 0), (3, 0))), "listed twice"),
        ((((3, 0), (9, 0)),), "off the grid"),
        ((((3, 0), (3, 0)),), "are not neighbours"),
    ],
)
def test_tw_1_bad_thin_walls_are_refused_naming_what_is_allowed(tmp_path, walls, message):
    """HV-TW-1: an edge between cells that are not neighbours, beside a wall hex, listed twice or
    off the grid is refused on load."""
    with pytest.raises(ScenarioError, match=message):
        walled(tmp_path, *walls)


def test_tw_1_an_empty_list_is_refused(tmp_path):
    """HV-TW-1: ``thin_walls`` lists at least one edge (a map without any leaves the key out)."""
    with pytest.raises(ScenarioError, match="thin_walls"):
        walled(tmp_path)


# --- HV-TW-2: movement --------------------------------------------------------------------------


def test_tw_2_a_character_walks_round_a_thin_wall(tmp_path):
    """HV-TW-2, HV-TER-7: the Bulwark at (2,0) with Move 2 (B01's bottom). On the open map (3,0)
    is 1 step and (4,0) 2; with a thin wall between (2,0) and (3,0), (3,0) is 2 steps (by (2,1))
    and (4,0) 3, out of reach."""
    fixture = {
        "sequence": ["bulwark"],
        "characters": {
            "bulwark": {"cell": [2, 0], "played": ["B01", "B02"]},
            "conjurer": {"cell": [8, 6]},
        },
    }
    for walls, reach_4_0 in (((), True), ((((2, 0), (3, 0)),), False)):
        scenario = walled(tmp_path, *walls) if walls else None
        game = new_game(scenario, seed=0, config=NO_NEGATION, fixture=fixture)
        play(game, ("WINDOW_0", BOX(LEAD, BOTTOM, PRINTED)))
        assert game.prompt.kind == "MOVE_DEST"
        legal = set(game.legal_actions())
        assert HEX(3, 0) in legal
        assert (HEX(4, 0) in legal) is reach_4_0
    game.apply(HEX(3, 0))
    assert moves(game) == [(cell(2, 0), cell(3, 0))]
    assert pos(game, "bulwark") == cell(3, 0)


@pytest.mark.parametrize("kernels", KERNELS, ids=KERNEL_NAMES)
def test_tw_2_a_monster_goes_round_a_thin_wall(tmp_path, kernels):
    """HV-TW-2, HV-AI-5 (the solver's "Thin walls block movement. The monster must go around the
    wall."): the Marauder at (2,0) (MA1, Move 3), the Bulwark at (5,0). On the open map it walks to
    (4,0) and attacks. Thin walls on (4,0)'s west and south-west sides shut (4,0) off ((4,1) is an
    obstacle, (5,0) the Bulwark); the nearest attack hex is then (5,1), 5 steps round by (2,1)
    (3,1) (4,2) (5,2), so it walks 3 of them, to (4,2), and cannot attack."""
    open_game = marauder_turn(None, (2, 0), "MA1", (5, 0), kernels)
    assert pos(open_game, "marauder#1") == cell(4, 0)
    assert len(events_of(open_game, "ATTACK")) == 1
    scenario = walled(tmp_path, ((3, 0), (4, 0)), ((3, 1), (4, 0)))
    game = marauder_turn(scenario, (2, 0), "MA1", (5, 0), kernels)
    assert moves(game) == [(cell(2, 0), cell(4, 2))]
    assert events_of(game, "ATTACK") == []


def test_tw_2_no_jump_or_flight_crosses_a_thin_wall(tmp_path):
    """HV-TW-2: the board's neighbour lists, which every mover's path graph walks (walk, jump and
    flight alike, HV-JMP-2, HV-FLY-2), leave out the walled side in both directions and keep
    every other side."""
    board = board_for(walled(tmp_path, ((3, 0), (4, 0))))
    assert cell(4, 0) not in board.neighbours[cell(3, 0)]
    assert cell(3, 0) not in board.neighbours[cell(4, 0)]
    assert set(board.neighbours[cell(3, 0)]) == {cell(2, 0), cell(2, 1), cell(3, 1)}


def test_tw_2_a_summon_is_not_placed_behind_a_thin_wall(tmp_path):
    """HV-TW-2, HV-ABL-7: the Conjurer at (3,4) summons (C03's top). Its empty floor neighbours
    are (2,3), (2,5) and (3,5); a thin wall between (3,4) and (2,5) leaves (2,3) and (3,5)."""
    fixture = {
        "characters": {
            "conjurer": {"cell": [3, 4], "played": ["C03", "C01"]},
            "bulwark": {"cell": [2, 4]},
        },
        "sequence": ["conjurer", "marauder"],
        "monsters": [mon("marauder", 1, 4, 4)],
        "monster_cards": {"marauder": "MA3"},
    }
    for walls, places in (
        ((), {HEX(2, 3), HEX(2, 5), HEX(3, 5)}),
        ((((3, 4), (2, 5)),), {HEX(2, 3), HEX(3, 5)}),
    ):
        scenario = walled(tmp_path, *walls) if walls else None
        game = new_game(scenario, seed=0, config=NO_NEGATION, fixture=fixture)
        play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)))
        expect(game, "SUMMON_HEX", "conjurer", legal=places | {NO})


# --- HV-TW-3: range and adjacency ---------------------------------------------------------------


@pytest.mark.parametrize("kernels", KERNELS, ids=KERNEL_NAMES)
def test_tw_3_a_melee_monster_does_not_attack_across_a_thin_wall(tmp_path, kernels):
    """HV-TW-3 (the solver's "A melee attack cannot be performed around a thin wall"): the
    Marauder at (3,0) (MA2, Move 2) next to the Bulwark at (4,0). On the open map it attacks
    without moving. With a thin wall between them they are not adjacent (range 2, though a corner
    line round the wall's end still gives sight, HV-TW-4): it steps to (3,1), which is next to
    (4,0) with no wall between, and attacks from there."""
    open_game = marauder_turn(None, (3, 0), "MA2", (4, 0), kernels)
    assert moves(open_game) == []
    assert len(events_of(open_game, "ATTACK")) == 1
    scenario = walled(tmp_path, ((3, 0), (4, 0)))
    board = board_for(scenario)
    assert board.distance(cell(3, 0), cell(4, 0)) == 2
    assert board.sight(cell(3, 0), cell(4, 0))
    game = marauder_turn(scenario, (3, 0), "MA2", (4, 0), kernels)
    assert moves(game) == [(cell(3, 0), cell(3, 1))]
    assert len(events_of(game, "ATTACK")) == 1


def test_tw_3_range_is_counted_round_a_thin_wall_line(tmp_path):
    """HV-TW-3, HV-MAP-5: thin walls on (3,0)'s east side and on (3,1)'s north-east, east and
    south-east sides. The range from (3,0) to (5,0) was 2; round the line it is 5: (3,1) (3,2)
    (4,2) (4,1) (5,0) (the obstacle at (4,1) does not matter to range)."""
    assert board_for(walled(tmp_path, ((7, 6), (8, 6)))).distance(cell(3, 0), cell(5, 0)) == 2
    board = board_for(
        walled(tmp_path, ((3, 0), (4, 0)), ((3, 1), (4, 0)), ((3, 1), (4, 1)), ((3, 1), (4, 2)))
    )
    assert board.distance(cell(3, 0), cell(5, 0)) == 5
    assert board.distance(cell(3, 1), cell(4, 1)) == 3


# --- HV-TW-4: line of sight ---------------------------------------------------------------------


def test_tw_4_a_line_of_thin_walls_blocks_sight_across_it_but_not_round_its_end(tmp_path):
    """HV-TW-4: thin walls on every edge between columns 0-2 and 3-8 in rows 1 to 3 (five
    edges). (1,2) and (4,2), which saw each other on the open map, no longer do, nor do (2,2) and
    (3,2), which were neighbours. (1,0) still sees (4,0): their top corners' line runs above the
    line's upper end."""
    line = (
        ((2, 1), (3, 1)),
        ((2, 1), (3, 2)),
        ((2, 2), (3, 2)),
        ((2, 3), (3, 2)),
        ((2, 3), (3, 3)),
    )
    open_board = board_for(walled(tmp_path, ((7, 6), (8, 6))))
    board = board_for(walled(tmp_path, *line))
    for a, b in (((1, 2), (4, 2)), ((2, 2), (3, 2))):
        assert open_board.sight(cell(*a), cell(*b))
        assert not board.sight(cell(*a), cell(*b))
    assert board.sight(cell(1, 0), cell(4, 0))


# --- HV-TW-5: interface -------------------------------------------------------------------------


def test_tw_5_the_board_shows_thin_walls_on_both_sides_only_where_a_map_has_them(tmp_path):
    """HV-TW-5: on a map with thin walls each cell has six ``thin_walls`` features, set on the
    side of the wall: (3,0)|(4,0) is (3,0)'s east and (4,0)'s west side; (3,1)|(4,0) is (3,1)'s
    north-east and (4,0)'s south-west. Raider Camp's layout has no such feature."""
    plain = new_game(None, seed=0).scenario
    assert not any("thin_walls" in name for name in layout_for(plain).entry_names())
    scenario = walled(tmp_path, ((3, 0), (4, 0)), ((3, 1), (4, 0)))
    game = new_game(scenario, seed=0)
    board = layout_for(scenario).view(observer_for(scenario).observe(game, 0))["board"]
    sides = {
        c: tuple(np.flatnonzero(board[c]["thin_walls"]))
        for c in range(63)
        if board[c]["thin_walls"].any()
    }
    # SIDES = w e nw ne sw se
    assert sides == {cell(3, 0): (1,), cell(4, 0): (0, 4), cell(3, 1): (3,)}


def test_tw_5_text_map_image_and_board_view_draw_thin_walls(tmp_path):
    """HV-TW-5: the text render lists the thin walls, the image darkens their edge, the board
    view sends them as edges; Raider Camp shows none."""
    scenario = walled(tmp_path, ((3, 0), (4, 0)))
    game = new_game(scenario, seed=0)
    assert "thin walls: (3,0)|(4,0)" in render.render_ansi(game)
    assert "thin walls" not in render.render_ansi(new_game(None, seed=0))
    image, plain = render.render_rgb(game), render.render_rgb(new_game(None, seed=0))
    changed = np.flatnonzero((image != plain).any(axis=2).any(axis=0))
    y, x = render.centre(STANDARD, cell(3, 0))
    assert changed.size and all(abs(c - (x + render.PITCH_X // 2)) <= 4 for c in changed)
    assert board_view._edges(scenario) == [{"x": 3, "y": 0, "side": "E", "key": "wall"}]
    assert board_view._edges(new_game(None, seed=0).scenario) == []


# --- section 24: Walled Camp --------------------------------------------------------------------


def test_walled_camp_is_raider_camp_with_the_thin_walls_and_cards_of_24():
    """Section 24: the same scenario as Raider Camp in every field but its name, title, source,
    the ten thin walls and six icy hexes of 24.1 (HV-ICE-1), the four cards of 24.2 (two area
    attacks with Add Target 1, HV-AOE-11; two Moves that teleport, HV-TEL-1) and the prompt
    bound of 24.3."""
    raider, walled_camp = load_scenario("raider_camp"), load_scenario("walled_camp")
    edges = [
        ((4, 1), (5, 1)),
        ((4, 1), (5, 2)),
        ((4, 2), (5, 2)),
        ((4, 3), (5, 2)),
        ((4, 3), (5, 4)),
        ((4, 4), (5, 4)),
        ((4, 5), (5, 4)),
        ((4, 5), (5, 5)),
        ((7, 0), (8, 0)),
        ((7, 1), (8, 0)),
    ]
    expected = tuple(sorted(edge(cell(*a), cell(*b)) for a, b in edges))
    assert walled_camp.map.thin_walls == expected
    icy = tuple(cell(c, r) for c, r in ((4, 0), (5, 0), (6, 0), (3, 6), (4, 6), (5, 6)))
    assert walled_camp.map.icy == icy
    pair = ((0, 0), (1, 0))
    conjurer = {c.id: c for c in walled_camp.characters[1].cards}
    (burst,) = conjurer["C06"].top.abilities
    assert (burst.value, burst.range, burst.area, burst.add_targets) == (2, 3, pair, 1)
    slinger = {c.id: c for c in walled_camp.monster_types[1].deck}
    ricochet = slinger["SL6"].abilities[1]
    assert (ricochet.value, ricochet.area, ricochet.add_targets) == (-1, pair, 1)
    (blink, veil) = conjurer["C04"].bottom.abilities
    assert (conjurer["C04"].name, blink.kind, blink.value, blink.teleport) == (
        "Veil Blink",
        "move",
        2,
        True,
    )
    assert veil.conditions == ("invisible",)
    marauder = {c.id: c for c in walled_camp.monster_types[0].deck}
    leap = marauder["MA6"].abilities[0]
    assert (marauder["MA6"].name, leap.kind, leap.value, leap.teleport) == (
        "Shadow Leap",
        "move",
        0,
        True,
    )
    bounds = walled_camp.rules.bounds
    assert (bounds.max_prompts_per_agent_round, bounds.max_agent_steps) == (54, 3024)
    # everything else is Raider Camp's
    cards = list(raider.characters[1].cards)
    for changed in ("C04", "C06"):
        cards[[c.id for c in cards].index(changed)] = conjurer[changed]
    deck = list(raider.monster_types[1].deck)
    deck[[c.id for c in deck].index("SL6")] = slinger["SL6"]
    marauders = list(raider.monster_types[0].deck)
    marauders[[c.id for c in marauders].index("MA6")] = marauder["MA6"]
    same = replace(
        raider,
        name=walled_camp.name,
        title=walled_camp.title,
        source=walled_camp.source,
        map=replace(raider.map, thin_walls=expected, icy=icy),
        characters=(raider.characters[0], replace(raider.characters[1], cards=tuple(cards))),
        monster_types=(
            replace(raider.monster_types[0], deck=tuple(marauders)),
            replace(raider.monster_types[1], deck=tuple(deck)),
        ),
        rules=replace(raider.rules, bounds=bounds),
    )
    assert same == walled_camp
    board = board_for(walled_camp)
    assert board.neighbours[cell(8, 0)] == (cell(8, 1),)  # the alcove's one way in
    assert cell(5, 3) in board.neighbours[cell(4, 3)]  # the door
