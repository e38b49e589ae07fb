"""Section 26: icy terrain (HV-ICE-1..6), step by step with positions.

Every game here plays Raider Camp with icy hexes drawn on its map (``iced``, written to
``tmp_path`` by ``terrain_scenario``), the figures placed by a fixture (HV-API-10). The ice of
most tests is the bottom row's (1,6), (2,6) and (3,6), east of the Bulwark or the Marauder at
(0,6). Each rule is shown beside the same position without ice, so a test fails if the ice were
ignored. The monster positions run on the reference kernels and, where the compiled core is
built, on the compiled ones too: both must give the same game.
"""

from __future__ import annotations

import pytest

from reborn_env.games.haven import board_view, render
from reborn_env.games.haven.observation import layout_for, observer_for
from reborn_env.games.haven.rules.engine import HavenGame, new_game
from reborn_env.games.haven.rules.kernels import REFERENCE
from reborn_env.games.haven.rules.path_graph import PathGraph

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
    destinations,
    events_of,
    expect,
    mon,
    play,
    pos,
    random_game,
    targets,
)
from .test_terrain import B01_MOVE, NO_NEGATION, RAIDER_CAMP, TERRAIN, moves, terrain_scenario

ROW_ICE = ((1, 6), (2, 6), (3, 6))
MARKS = {"trap": "^", "hazardous": "~", "difficult": "=", "icy": "*"}


def iced(icy=ROW_ICE, **tokens) -> str:
    """The default map with ``icy`` cells (and ``trap``/``hazardous``/``difficult`` ones) drawn."""
    rows = [row.split() for row in RAIDER_CAMP]
    for kind, cells in dict(tokens, icy=icy).items():
        for col, row in cells:
            assert rows[row][col] == "."
            rows[row][col] = MARKS[kind]
    return "\n" + "\n".join(("   " if r % 2 else " ") + "   ".join(t) for r, t in enumerate(rows))


def scenario_of(tmp_path, picture: str, edits=()):
    """Raider Camp drawn as ``picture``, with a ``[terrain]`` table where it shows negatives."""
    terrain = TERRAIN if ("^" in picture or "~" in picture) else None
    return terrain_scenario(tmp_path, picture, terrain, list(edits))


def bulwark_walks(scenario, conjurer=(8, 6), at=(0, 6)) -> HavenGame:
    """The Bulwark at ``at`` with B01 (bottom Move 2) led, at its bottom box's Move."""
    fixture = {
        "sequence": ["bulwark"],
        "characters": {
            "bulwark": {"cell": list(at), "played": ["B01", "B02"]},
            "conjurer": {"cell": list(conjurer)},
        },
        "monsters": [mon("marauder", 1, 8, 0)],
    }
    game = new_game(scenario, seed=0, config=NO_NEGATION, fixture=fixture)
    play(game, ("WINDOW_0", BOX(LEAD, BOTTOM, PRINTED)))
    return game


def marauder_turn(scenario, card, slinger=None, kernels=REFERENCE) -> HavenGame:
    """Marauder #1 at (0,6) runs ``card`` toward the Bulwark at (6,6) (the Conjurer far off at
    (8,0)); Slinger #1, which does not act, stands at ``slinger`` if named."""
    monsters = [mon("marauder", 1, 0, 6)] + ([mon("slinger", 1, *slinger)] if slinger else [])
    fixture = {
        "sequence": ["marauder"],
        "characters": {"bulwark": {"cell": [6, 6]}, "conjurer": {"cell": [8, 0]}},
        "monsters": monsters,
        "monster_cards": {"marauder": card},
    }
    return new_game(scenario, seed=0, config=NO_NEGATION, fixture=fixture, kernels=kernels)


# --- HV-ICE-1: data -----------------------------------------------------------------------------


def test_ice_1_icy_cells_are_read_from_the_map_and_need_no_terrain_table(tmp_path):
    """HV-ICE-1: ``*`` is an icy floor cell; a map with ice alone loads without ``[terrain]``."""
    scenario = scenario_of(tmp_path, iced())
    assert scenario.map.icy == tuple(cell(*c) for c in ROW_ICE)
    assert scenario.map.kind(1, 6) == "floor"
    assert scenario.map.terrain_kinds == ("icy",)


# --- HV-ICE-2: slides ---------------------------------------------------------------------------


def test_ice_2_a_character_slides_over_the_ice_to_the_first_hex_past_it(tmp_path):
    """HV-ICE-2/4: the Bulwark at (0,6) with Move 2. Without ice it reaches (1,6) and (2,6)
    east. With the row's ice, its step east slides over (1,6) (2,6) (3,6) to (4,6) for one
    point, so (4,6), and (5,6) or (3,5) after it, are in reach; (2,6) is not, as no step stops
    there. (1,6) still is: stepping into it south-east from (0,5), the slide runs off the grid
    and stops. It goes to (4,6) in one MOVE."""
    plain = bulwark_walks(scenario_of(tmp_path, iced(icy=())))
    assert destinations(plain) == {(0, 4), (0, 5), (1, 4), (1, 5), (1, 6), (2, 6)}
    game = bulwark_walks(scenario_of(tmp_path, iced()))
    assert destinations(game) == {(0, 4), (0, 5), (1, 4), (1, 5), (1, 6), (3, 5), (4, 6), (5, 6)}
    game.apply(HEX(4, 6))
    assert moves(game) == [(cell(0, 6), cell(4, 6))]
    assert pos(game, "bulwark") == cell(4, 6)


def test_ice_2_an_ally_stops_a_slide_but_a_step_into_its_icy_hex_slides_past_it(tmp_path):
    """HV-ICE-2: the Conjurer on (3,6), the last icy hex. The Bulwark's slide east stops on (2,6)
    before it (1 point); from there a second step into the Conjurer's hex slides on past it to
    (4,6). (5,6) is now out of reach."""
    game = bulwark_walks(scenario_of(tmp_path, iced()), conjurer=(3, 6))
    assert {(2, 6), (4, 6)} <= destinations(game)
    assert (5, 6) not in destinations(game)
    game.apply(HEX(4, 6))
    assert pos(game, "bulwark") == cell(4, 6)


def test_ice_2_a_jump_lands_on_ice_without_sliding(tmp_path):
    """HV-ICE-2: B01's Move 2 as a jump lands on (2,6), in the middle of the ice, and stays."""
    jump = (B01_MOVE, B01_MOVE.replace("value = 2", "value = 2, jump = true"))
    game = bulwark_walks(scenario_of(tmp_path, iced(), edits=[jump]))
    game.apply(HEX(2, 6))
    assert moves(game) == [(cell(0, 6), cell(2, 6))]


def test_ice_2_the_graph_of_a_walk_lists_each_cells_slides(tmp_path):
    """HV-ICE-2/3: the Bulwark's walk graph from (0,6): the step east enters (1,6) (2,6) (3,6)
    (4,6) and costs 1, so (4,6) costs 1; (2,6), which a walk crosses in 2 steps without ice,
    costs 3 (by (0,5) and (1,5), then south-east into it, where the slide runs off the grid); and
    the way from (4,6) back to (2,6) is 3 as well (by (3,5) and (2,5)), as a step west from (4,6)
    slides past it to (0,6)."""
    game = bulwark_walks(scenario_of(tmp_path, iced()))
    graph = PathGraph(game.context, game.state.characters[0])
    east = [s for s in graph.slides.steps[cell(0, 6)] if s[0] == cell(1, 6)]
    assert east == [tuple(cell(c, 6) for c in range(1, 5))]
    assert graph.cost[cell(4, 6)] == 1 and graph.cost[cell(2, 6)] == 3
    assert graph.remaining(cell(2, 6))[cell(4, 6)] == 3
    assert graph.path(cell(4, 6)) == [cell(c, 6) for c in range(1, 5)]


# --- HV-ICE-3: costs and terrain at the stop ----------------------------------------------------


def test_ice_3_the_hex_a_slide_stops_on_acts_and_costs_nothing_more(tmp_path):
    """HV-ICE-3: a trap on (4,6), where the slide stops: the Bulwark's move there springs it.
    With difficult terrain on (4,6) instead, (5,6) stays 2 points away (1 for the slide, which
    stops on the difficult hex for free, 1 more)."""
    trap = bulwark_walks(scenario_of(tmp_path, iced(trap=((4, 6),))))
    trap.apply(HEX(4, 6))
    assert [e.data["cell"] for e in events_of(trap, "TRAP")] == [cell(4, 6)]
    difficult = bulwark_walks(scenario_of(tmp_path, iced(difficult=((4, 6),))))
    assert (5, 6) in destinations(difficult)
    without_ice = bulwark_walks(scenario_of(tmp_path, iced(icy=(), difficult=((4, 6),))))
    assert (5, 6) not in destinations(without_ice)


# --- HV-ICE-5: monsters -------------------------------------------------------------------------


@pytest.mark.parametrize("kernels", KERNELS, ids=KERNEL_NAMES)
def test_ice_5_a_monster_slides_along_the_ice_to_attack(tmp_path, kernels):
    """HV-ICE-5 (the solver's "Monsters slide along icy terrain"): the Marauder at (0,6), MA2
    (Move 2), the Bulwark at (6,6). Without ice it walks to (2,6) and cannot attack; with the
    row's ice one step slides it to (4,6) and a second takes it to (5,6), next to the Bulwark,
    and it attacks."""
    plain = marauder_turn(scenario_of(tmp_path, iced(icy=())), "MA2", kernels=kernels)
    assert moves(plain) == [(cell(0, 6), cell(2, 6))] and targets(plain) == []
    game = marauder_turn(scenario_of(tmp_path, iced()), "MA2", kernels=kernels)
    assert moves(game) == [(cell(0, 6), cell(5, 6))] and targets(game) == ["bulwark"]


@pytest.mark.parametrize(
    ("card", "slinger", "stop"),
    [("MA5", (3, 6), (2, 6)), ("MA5", (4, 6), (3, 6)), ("MA2", (3, 6), (4, 6))],
)
@pytest.mark.parametrize("kernels", KERNELS, ids=KERNEL_NAMES)
def test_ice_5_another_monster_stops_a_slide_and_is_stepped_past_on_ice(
    tmp_path, card, slinger, stop, kernels
):
    """HV-ICE-2/5 (the solver's "Monsters do not slide through other monsters", "will slide into
    a blocking monster to move closer to their focus" and "can step through other monsters that
    are on icy terrain"): a Slinger that does not act stands on the ice. With Move 1 (MA5) the
    Marauder's slide stops before it: on (2,6) with the Slinger on (3,6), on (3,6) with it on
    (4,6). With Move 2 (MA2) and the Slinger on (3,6) it stops on (2,6), then steps into the
    Slinger's icy hex and slides past it to (4,6)."""
    game = marauder_turn(scenario_of(tmp_path, iced()), card, slinger=slinger, kernels=kernels)
    assert moves(game) == [(cell(0, 6), cell(*stop))]


# --- HV-ICE-6: interface, summons and play ------------------------------------------------------


def test_ice_6_the_board_shows_ice_only_where_a_map_has_it(tmp_path):
    """HV-ICE-6: on a map with ice the board's terrain features gain ``icy``, set on its cells
    (and floor cleared there); Raider Camp's layout has no such feature. The text map marks it
    ``*`` with the key, the image colours it and the board view names it."""
    plain = new_game(None, seed=0).scenario
    assert "icy" not in layout_for(plain)["board"]["terrain"].labels
    scenario = scenario_of(tmp_path, iced())
    assert layout_for(scenario)["board"]["terrain"].labels == ("floor", "obstacle", "wall", "icy")
    game = new_game(scenario, seed=0)
    board = layout_for(scenario).view(observer_for(scenario).observe(game, 0))["board"]
    icy = {c for c in range(63) if board[c].label("terrain") == "icy"}
    assert icy == {cell(*c) for c in ROW_ICE}
    text = render.render_ansi(game)
    assert "terrain: * icy" in text
    assert render.cell_tokens(game.state, scenario)[cell(2, 6)] == "*"
    image = render.render_rgb(game)
    y, x = render.centre(STANDARD, cell(2, 6))
    assert tuple(image[y, x]) == render.ICY_COLOUR
    keys = {(c["x"], c["y"]): c["key"] for c in board_view._cells(game)}
    assert {keys[c] for c in ROW_ICE} == {"icy"}
    assert "icy" in [row["key"] for row in board_view._legend(scenario)]


def test_ice_6_a_summon_is_not_placed_on_ice(tmp_path):
    """HV-ICE-6, HV-TER-9: the Conjurer at (3,4) summons (C03 top). Of its empty floor
    neighbours (2,3), (2,5), (3,5), ice on (2,5) leaves (2,3) and (3,5)."""
    fixture = {
        "characters": {
            "conjurer": {"cell": [3, 4], "played": ["C03", "C01"]},
            "bulwark": {"cell": [2, 4]},
        },
        "sequence": ["conjurer", "marauder"],
        "monsters": [mon("marauder", 1, 4, 4)],
        "monster_cards": {"marauder": "MA3"},
    }
    game = new_game(scenario_of(tmp_path, iced(icy=((2, 5),))), seed=0, fixture=fixture)
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)))
    expect(game, "SUMMON_HEX", "conjurer", legal={HEX(2, 3), HEX(3, 5), NO})


def test_ice_6_random_games_on_an_icy_map_keep_invariants_and_play_alike_on_both_backends(
    tmp_path,
):
    """HV-ICE-2..6, HV-API-10: random legal play on a map with ice, traps and difficult terrain:
    after every step the invariants hold and the game saved and restored through JSON plays on
    the same; the reference and the compiled kernels give the same event log; and figures do
    slide (a MOVE ends past an icy hex it entered)."""
    picture = iced(
        icy=((2, 2), (3, 2), (2, 4), (3, 4), (5, 3), (5, 4), (1, 6), (2, 6)),
        trap=((4, 2),),
        difficult=((4, 3),),
    )
    scenario = scenario_of(tmp_path, picture)
    icy = set(scenario.map.icy)
    slid = 0
    for seed in range(6):
        random_game(scenario, seed, checked=True)
        logs = [
            [(e.type, e.data) for e in random_game(scenario, seed, kernels).events]
            for kernels in KERNELS
        ]
        assert all(log == logs[0] for log in logs)
        slid += sum(
            1
            for kind, data in logs[0]
            if kind == "MOVE" and data["from"] in icy and data["to"] not in icy
        )
    assert slid > 0
