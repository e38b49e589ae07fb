"""Section 25: teleport (HV-TEL-1..6), step by step with positions.

Every game here plays Raider Camp with one Move made a teleport in its file (``terrain_scenario``
writes the edited copy to ``tmp_path``): the Bulwark's B01 bottom (Move 2) or the Marauder's
MA2 (Move +0, Attack +0), the figures placed by a fixture (HV-API-10). Each rule is shown beside
the same position with the Move a walk, so a test fails if the teleport were walked. The monster
positions run on the reference kernels and, where the compiled core is built, on the compiled
ones too: both must give the same game.
"""

from __future__ import annotations

import pytest

from reborn_env.games.haven.rules.engine import new_game
from reborn_env.games.haven.rules.kernels import REFERENCE
from reborn_env.games.haven.rules.path_graph import PathGraph
from reborn_env.games.haven.rules.terrain import TELEPORT
from reborn_env.games.haven.scenario.loader import ScenarioError

from ..helpers import (
    BOTTOM,
    BOX,
    HEX,
    KERNEL_NAMES,
    KERNELS,
    LEAD,
    PRINTED,
    cell,
    destinations,
    events_of,
    mon,
    play,
    pos,
    targets,
)
from .test_terrain import (
    B01_MOVE,
    MARAUDER_WALK,
    NO_NEGATION,
    TERRAIN,
    drawn,
    moves,
    terrain_scenario,
)

BULWARK_TELEPORT = (B01_MOVE, B01_MOVE.replace("value = 2", "value = 2, teleport = true"))
MARAUDER_TELEPORT = (
    MARAUDER_WALK,
    MARAUDER_WALK.replace("value = 0 }", "value = 0, teleport = true }", 1),
)
FLYING_MARAUDER = ('letter = "m"\n', 'letter = "m"\nflying = true\n')
NO_WALL_HEXES = ("walls = [[6, 2], [6, 3]]", "walls = []")  # the cross-check of an open map


def scenario_of(tmp_path, teleport: bool, picture=None, terrain=None, edits=()):
    """Raider Camp drawn as ``picture``, with the Bulwark's and the Marauder's Moves teleports
    when ``teleport``."""
    changes = [BULWARK_TELEPORT, MARAUDER_TELEPORT] if teleport else []
    return terrain_scenario(tmp_path, picture or drawn(), terrain, changes + list(edits))


def bulwark_turn(scenario, monsters, bulwark=(5, 3), conditions=()):
    """The Bulwark at ``bulwark`` with B01 (bottom Move 2) led, at its bottom box's Move."""
    fixture = {
        "sequence": ["bulwark"],
        "characters": {
            "bulwark": {"cell": list(bulwark), "played": ["B01", "B02"]},
            "conjurer": {"cell": [8, 6]},
        },
        "monsters": monsters,
    }
    if conditions:
        fixture["characters"]["bulwark"]["conditions"] = list(conditions)
    game = new_game(scenario, seed=0, config=NO_NEGATION, fixture=fixture)
    play(game, ("WINDOW_0", BOX(LEAD, BOTTOM, PRINTED)))
    return game


def marauder_turn(scenario, at, bulwark, conjurer=(8, 6), kernels=REFERENCE, **extra):
    """Marauder #1 at ``at`` runs MA2 (Move +0, Attack +0; its type's Move 2)."""
    fixture = {
        "sequence": ["marauder"],
        "characters": {"bulwark": {"cell": list(bulwark)}, "conjurer": {"cell": list(conjurer)}},
        "monsters": [mon("marauder", 1, *at, **extra)],
        "monster_cards": {"marauder": "MA2"},
    }
    return new_game(scenario, seed=0, config=NO_NEGATION, fixture=fixture, kernels=kernels)


# --- HV-TEL-1: data -----------------------------------------------------------------------------


def test_tel_1_a_teleport_is_read_and_is_no_jump_or_flight(tmp_path):
    """HV-TEL-1: ``teleport = true`` makes the Move a teleport, on a character's card and on a
    monster's; it is neither a jump nor a flight."""
    scenario = scenario_of(tmp_path, teleport=True)
    bulwark = next(c for c in scenario.characters if c.id == "bulwark")
    (move,) = next(k for k in bulwark.cards if k.id == "B01").bottom.abilities
    assert move.teleport and not move.jump and not move.flying
    marauder = next(t for t in scenario.monster_types if t.id == "marauder")
    assert next(k for k in marauder.deck if k.id == "MA2").abilities[0].teleport


@pytest.mark.parametrize("other", ["jump", "flying"])
def test_tel_1_a_move_is_at_most_one_kind(tmp_path, other):
    """HV-TEL-1: a Move that teleports and jumps, or teleports and flies, is refused on load,
    naming the kinds allowed."""
    both = (B01_MOVE, B01_MOVE.replace("value = 2", f"value = 2, {other} = true, teleport = true"))
    with pytest.raises(ScenarioError, match=f"at most one of jump, flying, teleport, not {other}"):
        terrain_scenario(tmp_path, drawn(), None, [both])


# --- HV-TEL-2: where a teleport goes ------------------------------------------------------------


def test_tel_2_a_character_teleports_across_wall_hexes_and_past_an_enemy(tmp_path):
    """HV-TEL-2: the Bulwark at (5,3) with Move 2, the wall hexes (6,2) and (6,3) east of it and
    Marauder #2 at (4,3) west. Walking it reaches 9 hexes. Teleporting it reaches every endable
    hex 2 straight hexes away, which adds (6,1), (7,2) and (7,3) beyond the walls (walking, 3
    steps or more). It lands on (7,3) in one MOVE."""
    monsters = [mon("marauder", 1, 8, 0), mon("marauder", 2, 4, 3)]
    walk = bulwark_turn(scenario_of(tmp_path, teleport=False), monsters)
    walked = {(4, 2), (4, 4), (5, 1), (5, 2), (5, 4), (5, 5), (6, 4), (6, 5), (7, 4)}
    assert destinations(walk) == walked
    game = bulwark_turn(scenario_of(tmp_path, teleport=True), monsters)
    assert destinations(game) == walked | {(6, 1), (7, 2), (7, 3)}
    game.apply(HEX(7, 3))
    assert moves(game) == [(cell(5, 3), cell(7, 3))]
    assert pos(game, "bulwark") == cell(7, 3)


def test_tel_2_a_teleport_ignores_thin_walls(tmp_path):
    """HV-TEL-2, section 19 item 19: thin walls on the Bulwark's south-west and south-east sides
    at (5,3). Every 2-step way to (5,5) crosses one, so walking (Move 2) it cannot reach (5,5);
    teleporting it can, (5,5) being 2 straight hexes away."""
    thin = "\nthin_walls = [[[5, 3], [5, 4]], [[5, 3], [6, 4]]]\n\n[rules]\n"
    edits = [("\n[rules]\n", thin)]
    monsters = [mon("marauder", 1, 8, 0)]
    walk = bulwark_turn(scenario_of(tmp_path, False, edits=edits), monsters)
    assert (5, 5) not in destinations(walk) and (5, 4) in destinations(walk)
    game = bulwark_turn(scenario_of(tmp_path, True, edits=edits), monsters)
    assert {(5, 4), (5, 5)} <= destinations(game)


def test_tel_2_a_graph_of_a_teleport_counts_straight_hex_distances(tmp_path):
    """HV-TEL-2: every cell is passable and a cell's cost is its hex distance, walls and all:
    from the Marauder at (5,3), (7,3) beyond the wall hex (6,3) costs 2 and (8,0) in the corner
    4, and the way back from (7,3) is as long."""
    scenario = scenario_of(tmp_path, teleport=True)
    game = bulwark_turn(scenario, [mon("marauder", 1, 5, 3)], bulwark=(0, 0))
    graph = PathGraph(game.context, game.state.monsters[0], TELEPORT)
    assert all(graph.passable)
    assert graph.cost[cell(7, 3)] == 2 and graph.cost[cell(6, 3)] == 1
    assert graph.cost[cell(8, 0)] == 4
    assert graph.remaining(cell(7, 3))[cell(5, 3)] == 2


# --- HV-TEL-3: the landing hex ------------------------------------------------------------------


def test_tel_3_only_the_landing_hex_acts_and_difficult_terrain_costs_nothing(tmp_path):
    """HV-TEL-3, HV-TER-2: traps on (5,4), (6,4) and (5,5), difficult terrain on (6,1). The
    Bulwark teleports from (5,3) to (5,5): the trap there springs; (5,4) and (6,4), one of which
    any walk to (5,5) enters first, stay. (6,1), 2 hexes away, stays in reach though difficult."""
    picture = drawn(trap=((5, 4), (6, 4), (5, 5)), difficult=((6, 1),))
    scenario = scenario_of(tmp_path, teleport=True, picture=picture, terrain=TERRAIN)
    game = bulwark_turn(scenario, [mon("marauder", 1, 8, 0)])
    assert {(6, 1), (5, 5)} <= destinations(game)
    game.apply(HEX(5, 5))
    assert [e.data["cell"] for e in events_of(game, "TRAP")] == [cell(5, 5)]
    assert game.state.traps == [cell(5, 4), cell(6, 4)]


@pytest.mark.parametrize("kernels", KERNELS, ids=KERNEL_NAMES)
def test_tel_3_a_monster_lands_off_a_trap_unless_it_flies(tmp_path, kernels):
    """HV-TEL-3, HV-TEL-5, HV-AI-10: the Marauder at (7,2), the Bulwark at (5,3) beyond the wall
    hexes. Its attack hexes 2 straight hexes away are (5,2) and (6,4); it teleports to (5,2), the
    lower id, and attacks. With a trap on (5,2) it lands on (6,4) instead. Of a flying type it
    suffers no terrain: it lands on the trap, which stays (the solver's "Flying monsters teleport
    onto obstacles and traps")."""
    open_game = marauder_turn(scenario_of(tmp_path, True), (7, 2), (5, 3), kernels=kernels)
    assert moves(open_game) == [(cell(7, 2), cell(5, 2))]
    assert targets(open_game) == ["bulwark"]
    trap = drawn(trap=((5, 2),))
    scenario = scenario_of(tmp_path, True, picture=trap, terrain=TERRAIN)
    game = marauder_turn(scenario, (7, 2), (5, 3), kernels=kernels)
    assert moves(game) == [(cell(7, 2), cell(6, 4))]
    assert targets(game) == ["bulwark"] and game.state.traps == [cell(5, 2)]
    flier = scenario_of(tmp_path, True, picture=trap, terrain=TERRAIN, edits=[FLYING_MARAUDER])
    game = marauder_turn(flier, (7, 2), (5, 3), kernels=kernels)
    assert moves(game) == [(cell(7, 2), cell(5, 2))]
    assert events_of(game, "TRAP") == [] and game.state.traps == [cell(5, 2)]


# --- HV-TEL-4: Immobilize -----------------------------------------------------------------------


def test_tel_4_an_immobilized_character_still_teleports(tmp_path):
    """HV-TEL-4, HV-COND-4: the Bulwark, immobilized, leads B01's bottom. Its walk is skipped (no
    MOVE_DEST); its teleport is offered as before."""
    monsters = [mon("marauder", 1, 8, 0)]
    walk = bulwark_turn(scenario_of(tmp_path, False), monsters, conditions=["immobilize"])
    assert walk.prompt is None or walk.prompt.kind != "MOVE_DEST"
    assert moves(walk) == []
    game = bulwark_turn(scenario_of(tmp_path, True), monsters, conditions=["immobilize"])
    assert (7, 3) in destinations(game)


@pytest.mark.parametrize("kernels", KERNELS, ids=KERNEL_NAMES)
def test_tel_4_an_immobilized_monster_still_teleports(tmp_path, kernels):
    """HV-TEL-4: the Marauder at (7,2), immobilized, the Bulwark at (5,3). Walking it stays and
    cannot attack; teleporting it lands on (5,2) and attacks."""
    held = {"conditions": ["immobilize"]}
    walk = marauder_turn(scenario_of(tmp_path, False), (7, 2), (5, 3), kernels=kernels, **held)
    assert moves(walk) == [] and targets(walk) == []
    game = marauder_turn(scenario_of(tmp_path, True), (7, 2), (5, 3), kernels=kernels, **held)
    assert moves(game) == [(cell(7, 2), cell(5, 2))]
    assert targets(game) == ["bulwark"]


# --- HV-TEL-5: the monster AI -------------------------------------------------------------------


@pytest.mark.parametrize("kernels", KERNELS, ids=KERNEL_NAMES)
def test_tel_5_a_monster_teleports_through_wall_hexes(tmp_path, kernels):
    """HV-TEL-5, HV-AI-5 (the solver's "Monsters teleport through walls"): the Marauder at (7,2),
    the Bulwark at (5,3) beyond the wall hexes. Walking (Move 2) it goes round them to (5,1) and
    cannot attack; teleporting, it lands on (5,2), 2 hexes straight, and attacks."""
    walk = marauder_turn(scenario_of(tmp_path, False), (7, 2), (5, 3), kernels=kernels)
    assert moves(walk) == [(cell(7, 2), cell(5, 1))] and targets(walk) == []
    game = marauder_turn(scenario_of(tmp_path, True), (7, 2), (5, 3), kernels=kernels)
    assert moves(game) == [(cell(7, 2), cell(5, 2))] and targets(game) == ["bulwark"]


@pytest.mark.parametrize("kernels", KERNELS, ids=KERNEL_NAMES)
def test_tel_5_a_teleporting_monster_measures_proximity_round_walls(tmp_path, kernels):
    """HV-TEL-5, HV-AI-4 (the solver's "Even teleporting monsters measure proximity around
    walls"): the Marauder at (7,2), the Bulwark at (4,2), the Conjurer at (6,5). An attack hex of
    each is 2 straight hexes away ((5,2), (6,4)), so proximity decides: the Conjurer's range is 3,
    the Bulwark's 4 round the wall hex (6,2). It lands on (6,4) and attacks the Conjurer. On the
    same map without wall hexes both ranges are 3, and the Bulwark, first in turn order, is the
    focus."""
    walled = scenario_of(tmp_path, True)
    game = marauder_turn(walled, (7, 2), (4, 2), conjurer=(6, 5), kernels=kernels)
    assert moves(game) == [(cell(7, 2), cell(6, 4))] and targets(game) == ["conjurer"]
    no_walls = drawn().replace("#", ".")
    opened = scenario_of(tmp_path, True, picture=no_walls, edits=[NO_WALL_HEXES])
    game = marauder_turn(opened, (7, 2), (4, 2), conjurer=(6, 5), kernels=kernels)
    assert moves(game) == [(cell(7, 2), cell(5, 2))] and targets(game) == ["bulwark"]


@pytest.mark.parametrize("kernels", KERNELS, ids=KERNEL_NAMES)
def test_tel_5_short_of_its_goal_a_monster_teleports_straight_toward_it(tmp_path, kernels):
    """HV-TEL-5, HV-AI-5 Case B: the Marauder at (7,3), the Bulwark far off at (2,3) (the
    Conjurer farther, at (0,6)). Walking it steps round the wall hex to (6,4); teleporting it
    lands on (5,3), 2 hexes straight through the wall hex (6,3), nearest its goal."""
    far = {"bulwark": (2, 3), "conjurer": (0, 6), "kernels": kernels}
    walk = marauder_turn(scenario_of(tmp_path, False), (7, 3), **far)
    assert moves(walk) == [(cell(7, 3), cell(6, 4))]
    game = marauder_turn(scenario_of(tmp_path, True), (7, 3), **far)
    assert moves(game) == [(cell(7, 3), cell(5, 3))] and targets(game) == []


# --- HV-TEL-6: bounds ---------------------------------------------------------------------------


def test_tel_6_the_prompt_bound_counts_a_teleport_as_its_landing_hex(tmp_path):
    """HV-TEL-6, HV-TER-8: with a trap on the map the Bulwark's walks can enter 7 negative hexes a
    round (B07's top Move 2, B05's bottom Move 3 and Swift Boots' 2: 61 prompts, test_terrain).
    With every bottom Move 3 a teleport, each enters one hex, its landing, so a Move 2 bottom is
    the longest: 2 + 2 + 2 = 6 hexes, 40 + 18 = 58 prompts load and 57 are refused."""
    move_3 = '{ kind = "move", value = 3 }'
    edits = [(move_3, move_3.replace("value = 3", "value = 3, teleport = true"))]
    picture = drawn(trap=((3, 0),))
    with pytest.raises(ScenarioError, match=r"at least 58 = 40 \+ 0 for area attacks .* \+ 18"):
        terrain_scenario(tmp_path, picture, TERRAIN, edits, prompts=57)
    scenario = terrain_scenario(tmp_path, picture, TERRAIN, edits, prompts=58)
    assert scenario.rules.bounds.max_prompts_per_agent_round == 58
