"""Section 21: traps, hazardous and difficult terrain, jumps and flights (HV-TER-*, HV-AI-10,
HV-JMP-*, HV-FLY-*), step by step with positions.

Every game here plays Raider Camp with terrain tokens drawn on its map (``terrain_scenario``
writes the edited copy to ``tmp_path``), the figures placed by a fixture (HV-API-10). Damage
negation is off unless a test needs the prompt, so each step's damage shows at once.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reborn_env import haven_v0
from reborn_env.core.errors import PositionError
from reborn_env.games.haven import board_view, render
from reborn_env.games.haven.bots import HavenScriptedBot
from reborn_env.games.haven.invariants import check_invariants
from reborn_env.games.haven.observation import layout_for, observer_for
from reborn_env.games.haven.rules.engine import HavenConfig, HavenGame, new_game
from reborn_env.games.haven.scenario.loader import ScenarioError, load_scenario

from ..helpers import (
    BOTTOM,
    BOX,
    HEX,
    LEAD,
    NO,
    OTHER,
    PRINTED,
    STANDARD,
    TOP,
    cell,
    conditions,
    default_text,
    events_of,
    expect,
    hp,
    load_text,
    mon,
    play,
    pos,
    random_game,
    with_map,
)

# The default map (15.1); tests draw terrain tokens on its empty floor cells with ``drawn``.
RAIDER_CAMP = [
    ". . . . . . . . T",
    ". . . . O . . . .",
    ". B . . . . # m1 .",
    ". . . O . . # . s1",
    ". C . . . . . M3 .",
    "$ . . . O . m2 . .",
    ". . . . . . . S2 $",
]
TERRAIN = 'trap_damage = 2\ntrap_conditions = ["poison"]\nhazardous_damage = 1\n'
NO_NEGATION = HavenConfig(allow_damage_negation=False)
B01_MOVE = '[{ kind = "move", value = 2 }] }'  # B01's bottom, the first such line of the file
MARAUDER_WALK = '{ kind = "move", value = 0 }, { kind = "attack", value = 0 }]'  # MA2 (and MA3)


def drawn(**tokens: tuple[tuple[int, int], ...]) -> str:
    """The default map with ``trap``/``hazardous``/``difficult`` cells drawn (HV-TER-1)."""
    rows = [row.split() for row in RAIDER_CAMP]
    marks = {"trap": "^", "hazardous": "~", "difficult": "="}
    for kind, cells in tokens.items():
        for col, row in cells:
            assert rows[row][col] == "."
            rows[row][col] = marks[kind]
    return "\n" + "\n".join(("   " if r % 2 else " ") + "   ".join(t) for r, t in enumerate(rows))


def terrain_scenario(
    folder: Path, picture: str, terrain: str | None = TERRAIN, edits=(), prompts: int = 61
):
    """Raider Camp on ``picture`` with a ``[terrain]`` table and text ``edits``, loaded; it
    declares ``prompts`` a round (HV-TER-8: 61 covers walks onto traps and hazards)."""
    text = default_text().replace(
        "max_prompts_per_agent_round = 40\nmax_agent_steps = 2240",
        f"max_prompts_per_agent_round = {prompts}\nmax_agent_steps = {28 * 2 * prompts}",
    )
    text = with_map(text, picture + "\n")
    for old, new in edits:
        assert old in text
        text = text.replace(old, new)
    if terrain is not None:
        text += "\n[terrain]\n" + terrain
    return load_text(folder, "terrain", text)


def game_of(scenario, fixture, config=NO_NEGATION) -> HavenGame:
    return new_game(scenario=scenario, seed=0, config=config, fixture=fixture)


def bulwark_moves(scenario, monsters=(), config=NO_NEGATION) -> HavenGame:
    """The Bulwark at (2,0) with B01 (bottom Move 2) and B02 (bottom Move 3) played, its turn."""
    fixture = {
        "sequence": ["bulwark"],
        "characters": {
            "bulwark": {"cell": [2, 0], "played": ["B01", "B02"]},
            "conjurer": {"cell": [8, 6]},
        },
        "monsters": list(monsters) or [mon("marauder", 1, 8, 4)],
    }
    return game_of(scenario, fixture, config)


def marauder_turn(scenario, at, card, bulwark=(5, 0), conjurer=(8, 6)) -> HavenGame:
    """Marauder #1 at ``at`` runs ``card``; the Bulwark and the Conjurer stand where named."""
    fixture = {
        "sequence": ["marauder"],
        "characters": {"bulwark": {"cell": list(bulwark)}, "conjurer": {"cell": list(conjurer)}},
        "monsters": [mon("marauder", 1, *at)],
        "monster_cards": {"marauder": card},
    }
    return game_of(scenario, fixture)


def moves(game: HavenGame) -> list[tuple[int, int]]:
    return [(e.data["from"], e.data["to"]) for e in events_of(game, "MOVE")]


# --- traps, hazards, difficult terrain (HV-TER-2..4, HV-TER-6/7) ---------------------------------


def test_ter_2_a_trap_springs_once_and_becomes_floor(tmp_path):
    """HV-TER-2, HV-TER-6, HV-TER-7: Move 2 from (2,0) to (4,0) can only go through the trap at
    (3,0): the Bulwark stops there, the trap is removed, it suffers 2 damage (negation offered,
    HV-DMG-3) and poison, and goes on to (4,0). The hex is floor from then on."""
    scenario = terrain_scenario(tmp_path, drawn(trap=((3, 0),)))
    game = bulwark_moves(scenario, config=HavenConfig())
    assert game.state.traps == [cell(3, 0)]
    play(game, ("WINDOW_0", BOX(LEAD, BOTTOM, PRINTED)))
    game.apply(HEX(4, 0))
    expect(game, "DAMAGE_RESPONSE", "bulwark")
    game.apply(NO)
    assert moves(game) == [(cell(2, 0), cell(3, 0)), (cell(3, 0), cell(4, 0))]
    assert [e.data["cell"] for e in events_of(game, "TRAP")] == [cell(3, 0)]
    assert hp(game, "bulwark") == 8
    assert conditions(game, "bulwark") == {"poison"}
    assert pos(game, "bulwark") == cell(4, 0)
    assert game.state.traps == []


def test_ter_7_a_character_walks_round_a_trap_when_its_points_allow(tmp_path):
    """HV-TER-7: with Move 3 (B02) the same hex (4,0) is reached by (2,1) (3,1), entering no
    negative hex, so that path is taken: one MOVE, no trap sprung, no damage."""
    scenario = terrain_scenario(tmp_path, drawn(trap=((3, 0),)))
    game = bulwark_moves(scenario)
    play(game, ("WINDOW_0", BOX(OTHER, BOTTOM, PRINTED)))
    game.apply(HEX(4, 0))
    assert moves(game) == [(cell(2, 0), cell(4, 0))]
    assert events_of(game, "TRAP") == []
    assert hp(game, "bulwark") == 10
    assert game.state.traps == [cell(3, 0)]


def test_ter_3_hazardous_terrain_hurts_at_each_entry_and_stays(tmp_path):
    """HV-TER-3: hazards at (3,0) and (4,0); Move 2 to (4,0) enters both: 1 damage at each, and
    both hexes stay hazardous."""
    scenario = terrain_scenario(tmp_path, drawn(hazardous=((3, 0), (4, 0))))
    game = bulwark_moves(scenario)
    play(game, ("WINDOW_0", BOX(LEAD, BOTTOM, PRINTED)))
    game.apply(HEX(4, 0))
    assert moves(game) == [(cell(2, 0), cell(3, 0)), (cell(3, 0), cell(4, 0))]
    assert [e.data["cell"] for e in events_of(game, "HAZARD")] == [cell(3, 0), cell(4, 0)]
    assert [e.data["hp"] for e in events_of(game, "DAMAGE")] == [9, 8]
    assert scenario.map.hazardous == (cell(3, 0), cell(4, 0))


def test_ter_4_difficult_terrain_costs_two_points(tmp_path):
    """HV-TER-4, HV-ABL-1: difficult terrain at (3,0). Move 2 from (2,0) still ends on (3,0)
    (2 points) but no longer reaches (4,0), which now costs 3 either way; the rest is as on the
    plain map. No [terrain] table is needed for difficult terrain alone."""
    scenario = terrain_scenario(tmp_path, drawn(difficult=((3, 0),)), terrain=None)
    game = bulwark_moves(scenario)
    play(game, ("WINDOW_0", BOX(LEAD, BOTTOM, PRINTED)))
    plain = {HEX(c, r) for c, r in ((0, 0), (1, 0), (3, 0), (0, 1), (1, 1), (2, 1), (3, 1))}
    plain |= {HEX(1, 2), HEX(2, 2), HEX(3, 2)}
    expect(game, "MOVE_DEST", "bulwark", legal=plain | {NO})


# --- monsters (HV-AI-10) --------------------------------------------------------------------------


def test_ai_10_a_monster_takes_a_longer_clean_path(tmp_path):
    """HV-AI-10 Case A: the Marauder at (2,0) (MA1, Move 3) attacks the Bulwark at (5,0) from
    (4,0). The 2-step path crosses the trap at (3,0); the 3-step path by (2,1) (3,1) is clean
    and within its move, so it walks that one: the trap stays."""
    scenario = terrain_scenario(tmp_path, drawn(trap=((3, 0),)))
    game = marauder_turn(scenario, (2, 0), "MA1")
    assert moves(game) == [(cell(2, 0), cell(4, 0))]
    assert events_of(game, "TRAP") == []
    assert game.state.traps == [cell(3, 0)]
    assert len(events_of(game, "ATTACK")) == 1


def test_ai_10_a_monster_with_no_clean_path_enters_the_fewest_traps(tmp_path):
    """HV-AI-10, HV-TER-6: traps at (1,0), (0,1) and (2,0) ring the Marauder at (0,0) (MA1,
    Move 3); the Bulwark is at (3,0). The attack hex (2,0) is a trap reached through another (2
    negative hexes, 2 steps); (2,1) by (1,0) (1,1) costs one trap and 3 steps, so it goes there:
    it springs (1,0) (the lower-id first hex of the two 1-trap paths), takes 2 damage and poison
    there, walks on to (2,1) and attacks. Traps (0,1) and (2,0) remain."""
    traps = ((1, 0), (0, 1), (2, 0))
    scenario = terrain_scenario(tmp_path, drawn(trap=traps))
    game = marauder_turn(scenario, (0, 0), "MA1", bulwark=(3, 0))
    assert moves(game) == [(cell(0, 0), cell(1, 0)), (cell(1, 0), cell(2, 1))]
    assert [e.data["cell"] for e in events_of(game, "TRAP")] == [cell(1, 0)]
    assert hp(game, "marauder#1") == 3
    assert "poison" in conditions(game, "marauder#1")
    assert game.state.traps == [cell(2, 0), cell(0, 1)]
    assert len(events_of(game, "ATTACK")) == 1


@pytest.mark.parametrize(("card", "expected", "attacks"), [("MA2", (3, 0), 0), ("MA1", (4, 0), 1)])
def test_ter_4_difficult_terrain_costs_a_monster_two_points(tmp_path, card, expected, attacks):
    """HV-TER-4, HV-AI-5: difficult terrain at (3,0); the Marauder at (2,0), the Bulwark at (5,0).
    Its attack hex (4,0) now costs 3 points either way (on the plain map 2: it would attack with
    MA2's Move 2). With MA2 it falls short (Case B) and stops 1 step from (4,0), on (3,0) (lower
    id than (3,1)); with MA1's Move 3 it gets there and attacks."""
    scenario = terrain_scenario(tmp_path, drawn(difficult=((3, 0),)), terrain=None)
    game = marauder_turn(scenario, (2, 0), card)
    assert moves(game) == [(cell(2, 0), cell(*expected))]
    assert len(events_of(game, "ATTACK")) == attacks


def test_ai_10_focus_prefers_the_enemy_without_negative_hexes(tmp_path):
    """HV-AI-10 with HV-AI-4 ([GH:RB p31]'s example): the Marauder at (2,0) (MA2, Move 2); the
    Conjurer at (4,0) is nearest, but its only attack hexes, (3,0) and (3,1), are traps; the
    Bulwark at (0,2) is reached cleanly, so it is the focus and the Marauder walks to it."""
    scenario = terrain_scenario(tmp_path, drawn(trap=((3, 0), (3, 1), (5, 0))))
    game = marauder_turn(scenario, (2, 0), "MA2", bulwark=(0, 2), conjurer=(4, 0))
    assert events_of(game, "TRAP") == []
    assert [e.data["target"] for e in events_of(game, "ATTACK")] == ["bulwark"]


# --- jumps and flights (HV-JMP-*, HV-FLY-*) -------------------------------------------------------


def test_jmp_2_a_jumping_monster_passes_over_a_trap(tmp_path):
    """HV-JMP-2: MA2 (Move 2) from (2,0) toward the Bulwark at (5,0), trap at (3,0). Walking, the
    Marauder avoids it and stops at (3,1) (Case B); with Jump it goes over it to (4,0) and
    attacks, and the trap is not sprung."""
    picture = drawn(trap=((3, 0),))
    walk = marauder_turn(terrain_scenario(tmp_path, picture), (2, 0), "MA2")
    assert moves(walk) == [(cell(2, 0), cell(3, 1))]
    jump = [(MARAUDER_WALK, MARAUDER_WALK.replace("value = 0 }", "value = 0, jump = true }", 1))]
    game = marauder_turn(terrain_scenario(tmp_path, picture, edits=jump), (2, 0), "MA2")
    assert moves(game) == [(cell(2, 0), cell(4, 0))]
    assert events_of(game, "TRAP") == []
    assert game.state.traps == [cell(3, 0)]
    assert len(events_of(game, "ATTACK")) == 1


def test_jmp_3_a_jumping_monster_short_of_its_goal_stops_off_a_trap(tmp_path):
    """HV-JMP-3: MA2 with Jump (Move 2) from (0,0) toward the Bulwark at (6,0): its goal (5,0)
    is 5 steps away, so it stops on its way (Case B). With the trap far off it lands on (2,0),
    nearest the goal; with the trap on (2,0) it stops on (1,0), the way's nearest cell with no
    negative hex, and springs nothing."""
    jump = [(MARAUDER_WALK, MARAUDER_WALK.replace("value = 0 }", "value = 0, jump = true }", 1))]
    far = terrain_scenario(tmp_path, drawn(trap=((8, 1),)), edits=jump)
    game = marauder_turn(far, (0, 0), "MA2", bulwark=(6, 0))
    assert moves(game) == [(cell(0, 0), cell(2, 0))]
    near = terrain_scenario(tmp_path, drawn(trap=((2, 0),)), edits=jump)
    game = marauder_turn(near, (0, 0), "MA2", bulwark=(6, 0))
    assert moves(game) == [(cell(0, 0), cell(1, 0))]
    assert events_of(game, "TRAP") == [] and game.state.traps == [cell(2, 0)]


def test_jmp_2_a_character_jumps_over_an_enemy_and_springs_its_landing_trap(tmp_path):
    """HV-JMP-1/2: B01's Move 2 with Jump; a Marauder at (3,0), a trap at (4,0). Walking, (4,0)
    is 3 steps away (the enemy blocks (3,0)); jumping it is a destination, and landing there
    springs the trap (the last hex counts)."""
    picture = drawn(trap=((4, 0),))
    walk = bulwark_moves(terrain_scenario(tmp_path, picture), [mon("marauder", 1, 3, 0)])
    play(walk, ("WINDOW_0", BOX(LEAD, BOTTOM, PRINTED)))
    assert HEX(4, 0) not in walk.prompt.legal
    edits = [(B01_MOVE, B01_MOVE.replace("value = 2", "value = 2, jump = true"))]
    game = bulwark_moves(
        terrain_scenario(tmp_path, picture, edits=edits), [mon("marauder", 1, 3, 0)]
    )
    play(game, ("WINDOW_0", BOX(LEAD, BOTTOM, PRINTED)))
    assert set(game.prompt.legal) == set(walk.prompt.legal) | {HEX(4, 0)}
    game.apply(HEX(4, 0))
    assert moves(game) == [(cell(2, 0), cell(4, 0))]
    assert [e.data["cell"] for e in events_of(game, "TRAP")] == [cell(4, 0)]
    assert hp(game, "bulwark") == 8
    assert game.state.traps == []


def test_fly_2_a_flying_character_passes_enemies_and_traps(tmp_path):
    """HV-FLY-1/2: B01's Move 2 with Flying, same board: (4,0) is a destination over the
    Marauder, and the trap under it is not sprung; the enemy's hex is never a destination."""
    edits = [(B01_MOVE, B01_MOVE.replace("value = 2", "value = 2, flying = true"))]
    scenario = terrain_scenario(tmp_path, drawn(trap=((4, 0),)), edits=edits)
    game = bulwark_moves(scenario, [mon("marauder", 1, 3, 0)])
    play(game, ("WINDOW_0", BOX(LEAD, BOTTOM, PRINTED)))
    assert HEX(4, 0) in game.prompt.legal
    assert HEX(3, 0) not in game.prompt.legal
    game.apply(HEX(4, 0))
    assert moves(game) == [(cell(2, 0), cell(4, 0))]
    assert events_of(game, "TRAP") == []
    assert game.state.traps == [cell(4, 0)]


@pytest.mark.parametrize(
    ("card", "flying", "expected"),
    [
        ("MA2", False, [(cell(3, 5), cell(5, 6))]),
        ("MA2", True, [(cell(3, 5), cell(5, 5))]),
        ("MA5", True, []),
    ],
)
def test_fly_2_a_flying_monster_crosses_an_obstacle_but_never_ends_on_one(
    tmp_path, card, flying, expected
):
    """HV-FLY-1..3: the Marauder at (3,5) heads for the Bulwark at (6,5); the obstacle (4,5)
    lies between, a trap at (4,4). Walking (MA2, Move 2) it goes round by (4,6) to (5,6). With
    the Flying trait it crosses the obstacle to the attack hex (5,5). With Move 1 (MA5) the only
    hex on its way is the obstacle itself, where it may not end: it stays."""
    edits = [('letter = "m"\n', 'letter = "m"\nflying = true\n')] if flying else []
    scenario = terrain_scenario(tmp_path, drawn(trap=((4, 4),)), edits=edits)
    game = marauder_turn(scenario, (3, 5), card, bulwark=(6, 5))
    assert moves(game) == expected
    assert game.state.traps == [cell(4, 4)]


# --- scenario files and positions (HV-TER-1, HV-TER-2) --------------------------------------------


@pytest.mark.parametrize(
    ("picture", "terrain", "edits", "message"),
    [
        (drawn(trap=((3, 0),)), None, [], r"needs a \[terrain\] table"),
        (drawn(difficult=((3, 0),)), TERRAIN, [], r"only allowed when the map shows traps"),
        (
            drawn(trap=((3, 0),)),
            "trap_damage = 0\ntrap_conditions = []\nhazardous_damage = 0\n",
            [],
            "a trap must do something",
        ),
        (
            drawn(hazardous=((3, 0),)),
            "trap_damage = 1\ntrap_conditions = []\nhazardous_damage = 0\n",
            [],
            "hazardous_damage: must be at least 1",
        ),
        (
            drawn(trap=((3, 0),)),
            'trap_damage = 1\ntrap_conditions = ["bless"]\nhazardous_damage = 1\n',
            [],
            "bless",
        ),
        (
            drawn(trap=((3, 0),)),
            TERRAIN,
            [('letter = "m"\n', 'letter = "m"\nflying = "yes"\n')],
            "flying",
        ),
        (
            drawn(),
            None,
            [(B01_MOVE, B01_MOVE.replace("value = 2", "value = 2, jump = true, flying = true"))],
            "at most one of jump, flying, teleport, not jump and flying",
        ),
        (
            drawn().replace("B   .", "B   ?"),
            None,
            [],
            r"\^ \(trap\), ~ \(hazardous\), = \(difficult\)",
        ),
    ],
)
def test_ter_1_bad_terrain_fields_are_refused(tmp_path, picture, terrain, edits, message):
    """HV-TER-1..3, HV-JMP-1, HV-FLY-1: a bad terrain field is refused on load, saying what is
    allowed."""
    with pytest.raises(ScenarioError, match=message):
        terrain_scenario(tmp_path, picture, terrain, edits)


def test_ter_2_a_position_with_a_sprung_trap_round_trips(tmp_path):
    """HV-TER-2: after the trap at (3,0) sprang, the next quiet point's position lists only the
    unsprung (5,0); it loads to the same state, and a position naming a cell that is no trap, or
    a trap under a figure, is refused."""
    scenario = terrain_scenario(tmp_path, drawn(trap=((3, 0), (5, 0))))
    game = bulwark_moves(scenario)
    play(game, ("WINDOW_0", BOX(LEAD, BOTTOM, PRINTED)))
    game.apply(HEX(4, 0))
    while game.state.phase != "select":
        game.apply(game.legal_actions()[-1])
    position = json.loads(json.dumps(game.to_position()))
    assert position["state"]["traps"] == [[5, 0]]
    restored = HavenGame.from_position(position, scenario)
    assert restored.state == game.state
    assert restored.state.traps == [cell(5, 0)]
    bad = json.loads(json.dumps(position))
    bad["state"]["traps"] = [[6, 0]]
    with pytest.raises(PositionError, match=r"traps\[0\].*not a trap of the map"):
        HavenGame.from_position(bad, scenario)
    bad["state"]["traps"] = [[5, 0]]
    bad["state"]["characters"][1]["cell"] = [5, 0]
    with pytest.raises(PositionError, match="unsprung trap"):
        HavenGame.from_position(bad, scenario)


def test_fly_2_only_a_figure_that_can_fly_stands_on_an_unsprung_trap(tmp_path):
    """HV-FLY-2, HV-TER-2: a Marauder of a flying type may stand on the unsprung trap (5,0) in a
    position (it flew there, the trap stays); the same Marauder of a walking type, or the
    Conjurer, whose cards have no flying Move, may not."""
    flying = [('letter = "m"\n', 'letter = "m"\nflying = true\n')]
    for edits, accepted in ((flying, True), ((), False)):
        scenario = terrain_scenario(tmp_path, drawn(trap=((5, 0),)), edits=edits)
        position = json.loads(json.dumps(bulwark_moves(scenario).to_position()))
        position["state"]["monsters"][0]["cell"] = [5, 0]
        if accepted:
            game = HavenGame.from_position(position, scenario)
            assert game.state.traps == [cell(5, 0)] and pos(game, "marauder#1") == cell(5, 0)
            check_invariants(game)
        else:
            with pytest.raises(PositionError, match=r"monsters\[0\].*unsprung trap"):
                HavenGame.from_position(position, scenario)
    position["state"]["monsters"][0]["cell"] = [8, 4]
    position["state"]["characters"][1]["cell"] = [5, 0]
    with pytest.raises(PositionError, match=r"characters\[1\].*unsprung trap"):
        HavenGame.from_position(position, scenario)


def test_ter_8_the_board_shows_current_terrain_with_the_maps_kinds_only(tmp_path):
    """HV-TER-8, 16.5: the terrain one-hot lists floor, obstacle, wall and the kinds the map
    uses (Raider Camp: the first three only). A trap shows until it springs, then the hex is
    floor; hazardous and difficult hexes show as such."""
    picture = drawn(trap=((3, 0),), hazardous=((0, 6),), difficult=((5, 6),))
    scenario = terrain_scenario(tmp_path, picture)
    assert layout_for(scenario)["board"]["terrain"].labels == (
        "floor",
        "obstacle",
        "wall",
        "trap",
        "hazardous",
        "difficult",
    )
    assert layout_for(load_scenario())["board"]["terrain"].labels == ("floor", "obstacle", "wall")
    game = bulwark_moves(scenario)
    board = layout_for(scenario).view(observer_for(scenario).observe(game, 0))["board"]
    assert [board[cell(c, r)].label("terrain") for c, r in ((3, 0), (0, 6), (5, 6), (2, 0))] == [
        "trap",
        "hazardous",
        "difficult",
        "floor",
    ]
    play(game, ("WINDOW_0", BOX(LEAD, BOTTOM, PRINTED)))
    game.apply(HEX(4, 0))
    board = layout_for(scenario).view(observer_for(scenario).observe(game, 0))["board"]
    assert board[cell(3, 0)].label("terrain") == "floor"


def test_ter_8_text_map_image_and_board_view_draw_terrain(tmp_path):
    """HV-TER-1/2, 16.6: the text map marks ^ ~ = as drawn, with a terrain key line; the image
    paints the three kinds in their own colours; the web board view's legend lists the map's
    kinds and its cells use them. A sprung trap is drawn as floor everywhere."""
    picture = drawn(trap=((3, 0),), hazardous=((0, 6),), difficult=((5, 6),))
    scenario = terrain_scenario(tmp_path, picture)
    game = bulwark_moves(scenario)
    text = render.render_ansi(game)
    assert "terrain: ^ trap  ~ hazardous  = difficult" in text
    tokens = render.cell_tokens(game.state, scenario)
    assert [tokens[cell(3, 0)], tokens[cell(0, 6)], tokens[cell(5, 6)]] == ["^", "~", "="]
    image = render.render_rgb(game)
    for (col, row), colour in (
        ((3, 0), render.TRAP_COLOUR),
        ((0, 6), render.HAZARD_COLOUR),
        ((5, 6), render.DIFFICULT_COLOUR),
    ):
        y, x = render.centre(STANDARD, cell(col, row))
        assert tuple(image[y, x]) == colour
    legend = [row["key"] for row in board_view._legend(scenario)]
    assert {"trap", "hazardous", "difficult"} <= set(legend)
    assert "trap" not in [row["key"] for row in board_view._legend(load_scenario())]
    keys = {(c["x"], c["y"]): c["key"] for c in board_view._cells(game)}
    assert [keys[(3, 0)], keys[(0, 6)], keys[(5, 6)]] == ["trap", "hazardous", "difficult"]
    play(game, ("WINDOW_0", BOX(LEAD, BOTTOM, PRINTED)))
    game.apply(HEX(4, 0))
    assert render.cell_tokens(game.state, scenario)[cell(3, 0)] == "."
    assert {(c["x"], c["y"]): c["key"] for c in board_view._cells(game)}[(3, 0)] == "floor"
    y, x = render.centre(STANDARD, cell(3, 0))
    assert tuple(render.render_rgb(game)[y, x]) == render.FLOOR_COLOUR


def test_ter_5_the_scripted_bot_plays_terrain_maps_legally_and_keeps_off_negative_hexes(tmp_path):
    """HV-TER-5/7 and the scripted bot: on Raider Camp with traps, hazards and difficult terrain
    drawn in the monsters' way, four whole games end (win or loss) with only legal actions and no
    random fallback. The bot reads the board's negative hexes (16.5) and waits on one only when it
    is the sole legal hex it could wait on; it steps onto one only to attack from it."""
    picture = drawn(trap=((3, 2), (5, 4), (4, 0)), hazardous=((2, 3),), difficult=((4, 3), (3, 4)))
    terrain_scenario(tmp_path, picture)
    path = str(tmp_path / "terrain.toml")
    env = haven_v0.env(scenario=path)
    bot = HavenScriptedBot(scenario=path, seed=0)
    negative = {cell(3, 2), cell(5, 4), cell(4, 0), cell(2, 3)}
    for game in range(4):
        env.reset(seed=7000 + game)
        assert bot.reader.read(env.observe("bulwark")["observation"]).negative == negative
        for _agent in env.agent_iter():
            obs, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            action = bot.act(obs["observation"], obs["action_mask"])
            assert obs["action_mask"][action] == 1
            view = bot.reader.read(obs["observation"])
            if view.prompt == "MOVE_DEST" and action in view.negative:
                assert bot._pending_reach(view)  # only to engage (HV-TER-5), never to wait
            env.step(action)
        assert env.unwrapped.game.outcome in ("win", "loss")
    assert bot.fallbacks == 0


def test_ter_2_random_games_on_a_terrain_map_keep_invariants_and_round_trip(tmp_path):
    """HV-TER-2, HV-API-10: random legal play on a map with traps, hazards and difficult terrain:
    after every step the invariants hold (no figure on an unsprung trap, traps only ever removed)
    and the game saved and restored through JSON plays on the same; traps do get sprung."""
    picture = drawn(trap=((3, 2), (5, 4), (4, 0), (2, 5)), hazardous=((2, 3),), difficult=((4, 3),))
    scenario = terrain_scenario(tmp_path, picture)
    sprung = 0
    for seed in range(6):
        game = random_game(scenario, seed, checked=True)
        sprung += 4 - len(game.state.traps)
    assert sprung > 0


def test_ter_9_a_summon_is_not_placed_on_terrain(tmp_path):
    """HV-TER-9: the Conjurer at (3,4) summons (C03 top). Of its empty floor neighbours (2,3),
    (2,5), (3,5) (HV-ABL-7), a trap on (2,3) and difficult terrain on (3,5) leave only (2,5); a
    hazard there too leaves none, and the summon fails (the box asks nothing)."""
    fixture = {
        "characters": {
            "conjurer": {"cell": [3, 4], "played": ["C03", "C01"]},
            "bulwark": {"cell": [2, 4]},
        },
        "sequence": ["conjurer", "marauder"],
        "monsters": [mon("marauder", 1, 4, 4)],
        "monster_cards": {"marauder": "MA3"},
    }
    picture = drawn(trap=((2, 3),), difficult=((3, 5),))
    game = game_of(terrain_scenario(tmp_path, picture), fixture)
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)))
    expect(game, "SUMMON_HEX", "conjurer", legal={HEX(2, 5), NO})
    picture = drawn(trap=((2, 3),), difficult=((3, 5),), hazardous=((2, 5),))
    game = game_of(terrain_scenario(tmp_path, picture), fixture)
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)))
    assert game.prompt is None or game.prompt.kind != "SUMMON_HEX"
    assert events_of(game, "SUMMON") == []


def test_ter_8_the_prompt_bound_must_cover_walks_onto_traps_and_hazards(tmp_path):
    """HV-TER-8, 15.10: with a trap on the map Raider Camp's 40 prompts a round is too few: the
    Bulwark's walks can enter 7 negative hexes a round (B07's top Move 2 and B05's bottom Move 3,
    plus Swift Boots' 2), 3 prompts each: 40 + 21 = 61. Declared 61 (and its step bound), it loads;
    difficult terrain alone needs nothing more."""
    needs = r"at least 61 = 40 \+ 0 for area attacks .* \+ 21 for walks"
    with pytest.raises(ScenarioError, match=needs):
        terrain_scenario(tmp_path, drawn(trap=((3, 0),)), prompts=60)
    scenario = terrain_scenario(tmp_path, drawn(hazardous=((3, 0),)))
    assert scenario.rules.bounds.max_prompts_per_agent_round == 61
    flat = terrain_scenario(tmp_path, drawn(difficult=((3, 0),)), terrain=None, prompts=40)
    assert flat.map.difficult == (cell(3, 0),)
