"""Per-rule haven tests of area-of-effect attacks (HV-AOE-*): pattern geometry, placements, the
character's AREA_TARGET prompts, monsters aiming an area, bad patterns refused on load.

The scenario is Raider Camp with three cards edited (:func:`aoe_scenario`): the Bulwark's B01 top
is a melee Attack 3 on two neighbouring hexes, the Conjurer's C01 top a ranged Attack 2 Range 3
on a triangle, the Marauder's MA2 a melee Attack +0 on a line of two hexes, the Slinger's SL2 a
ranged Attack +1 Range +1 on a pair of hexes.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from reborn_env.core.data_files import ScenarioError
from reborn_env.games.haven.bots import HavenScriptedBot
from reborn_env.games.haven.fuzz_policies import busy_choice
from reborn_env.games.haven.invariants import check_invariants
from reborn_env.games.haven.observation import Observer, layout_for
from reborn_env.games.haven.render import render_ansi
from reborn_env.games.haven.rules.area import (
    mirror,
    orientations,
    placements,
    rotate,
)
from reborn_env.games.haven.rules.engine import HavenConfig, HavenGame, new_game
from reborn_env.games.haven.rules.figures import board_for
from reborn_env.games.haven.rules.hexgrid import hex_distance, neighbours
from reborn_env.games.haven.rules.prompts import AREA_TARGET, PROMPT_KINDS
from reborn_env.games.haven.scenario.loader import load_scenario
from tests.haven.helpers import (
    BOX,
    HEX,
    LEAD,
    NO,
    PRINTED,
    TOP,
    cell,
    default_text,
    events_of,
    expect,
    hp,
    load_text,
    mon,
    play,
    pos,
)

MELEE_PAIR = "[[1, 0], [0, 1]]"  # B01: two hexes next to the attacker and to each other
TRIANGLE = "[[0, 0], [1, 0], [0, 1]]"  # C01: a ranged triangle around its anchor
LINE = "[[1, 0], [2, 0]]"  # MA2: the next two hexes in one direction
PAIR = "[[0, 0], [1, 0]]"  # SL2: a ranged pair of hexes around its anchor
MA2 = 'abilities = [{ kind = "move", value = 0 }, { kind = "attack", value = 0'

EDITS = (
    (
        '[{ kind = "attack", value = 3 }]',
        f'[{{ kind = "attack", value = 3, area = {MELEE_PAIR} }}]',
    ),
    (
        '{ kind = "attack", value = 2, range = 3 }',
        f'{{ kind = "attack", value = 2, range = 3, area = {TRIANGLE} }}',
    ),
    (
        f"{MA2} }}]",
        f"{MA2}, area = {LINE} }}]",
    ),
    (
        'abilities = [{ kind = "attack", value = 1, range = 1 }]',
        f'abilities = [{{ kind = "attack", value = 1, range = 1, area = {PAIR} }}]',
    ),
    ("max_prompts_per_agent_round = 40", "max_prompts_per_agent_round = 54"),  # HV-AOE-10
    ("max_agent_steps = 2240", "max_agent_steps = 3024"),  # 28 rounds x 2 agents x 54
)


def scenario_text(edits=EDITS) -> str:
    """Raider Camp's file with ``edits`` (old, new) applied, each once."""
    text = default_text()
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


def aoe_scenario(folder: Path, edits=EDITS):
    """Raider Camp with the area cards of the module docstring, written to ``folder``, loaded."""
    return load_text(folder, "aoe", scenario_text(edits))


def aoe_game(folder: Path, fixture: dict):
    return new_game(scenario=aoe_scenario(folder), seed=0, config=HavenConfig(), fixture=fixture)


# =================================================================================================
# HV-AOE-1: orientations


def test_aoe_1_rotation_steps_round_the_six_neighbours():
    """HV-AOE-1: one turn maps (dq, dr) to (-dr, dq + dr): (1, 0) visits the six neighbour offsets
    in order and is back after six turns; the mirror image is its own inverse."""
    ring = [rotate((1, 0), k) for k in range(7)]
    assert ring == [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1), (1, 0)]
    assert rotate((2, -1), 3) == (-2, 1)  # half a turn is the point reflection
    assert mirror((1, 0)) == (1, 0) and mirror((0, 1)) == (1, -1)
    assert all(mirror(mirror(o)) == o for o in [(2, -1), (0, 3), (-1, 2)])


def test_aoe_1_orientations_rotations_and_mirror_images_without_repeats():
    """HV-AOE-1 [GH:RB p21, FAQ]: any rotation, and the mirror image: a symmetric pair or line has
    6 orientations, a chiral pattern 12, a ring around the anchor 1."""
    assert len(orientations([(1, 0), (0, 1)])) == 6
    assert len(orientations([(1, 0), (2, 0)])) == 6
    chiral = [(1, 0), (2, 0), (2, 1)]
    assert len(orientations(chiral)) == 12
    ring = [(0, 0), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)]
    assert len(orientations(ring)) == 1


# =================================================================================================
# HV-AOE-2/3: placements


def test_aoe_2_melee_pair_placements_are_the_six_neighbouring_pairs():
    """HV-AOE-2: the melee pair from (4,3) covers two neighbours of the attacker that are
    neighbours of each other: exactly the six such pairs of its ring."""
    scn = load_scenario()
    origin = cell(4, 3)
    ring = neighbours(origin)
    pairs = {frozenset((a, b)) for a in ring for b in ring if b in neighbours(a)}
    assert len(pairs) == 6
    assert placements(board_for(scn), origin, [(1, 0), (0, 1)], 1) == pairs


def test_aoe_2_melee_placements_at_the_corner_keep_their_on_grid_hexes():
    """HV-AOE-2 [DEF]: at (0,0) only (1,0) and (0,1) of the ring are on the grid; the placements
    are the pair of them and each alone (its partner off the grid); none is empty."""
    scn = load_scenario()
    found = placements(board_for(scn), cell(0, 0), [(1, 0), (0, 1)], 1)
    assert found == {
        frozenset({cell(1, 0), cell(0, 1)}),
        frozenset({cell(1, 0)}),
        frozenset({cell(0, 1)}),
    }


def test_aoe_3_ranged_triangle_needs_one_hex_in_range():
    """HV-AOE-3 [GH:RB p21]: every placement of the triangle from (1,4) with Range 3 has a hex
    within 3 (HV-MAP-5); one reaching 4 away, (5,4), by its hex (4,4) is among them; none covers
    (6,4), 5 away (the triangle spans 1)."""
    scn = load_scenario()
    board = board_for(scn)
    origin = cell(1, 4)
    found = placements(board, origin, [(0, 0), (1, 0), (0, 1)], 3)
    assert found and all(any(board.distance(origin, c) <= 3 for c in p) for p in found)
    assert any(cell(5, 4) in p and cell(4, 4) in p for p in found)
    assert hex_distance(origin, cell(6, 4)) == 5
    assert not any(cell(6, 4) in p for p in found)


# =================================================================================================
# HV-AOE-4..6: the character places its area


def _bulwark_fixture() -> dict:
    """The Bulwark at (2,4) with B01 leading; around it E (3,4) marauder#1, NE (2,3) marauder#2,
    W (1,4) an invisible slinger#1, SE (2,5) its ally the Conjurer."""
    return {
        "sequence": ["bulwark"],
        "characters": {
            "bulwark": {"cell": [2, 4], "played": ["B01", "B02"], "amd": ["+1", "+0"]},
            "conjurer": {"cell": [2, 5]},
        },
        "monsters": [
            mon("marauder", 1, 3, 4),
            mon("marauder", 2, 2, 3),
            mon("slinger", 1, 1, 4, conditions=["invisible"]),
        ],
    }


def test_aoe_6_melee_prompt_names_enemies_each_attacked_with_its_own_draw(tmp_path):
    """HV-AOE-4/5/6: of the six pairs around (2,4) only E+NE, NE+NW and SE+E attack anyone (the
    slinger is invisible, the Conjurer an ally): the first AREA_TARGET offers HEX(3,4), HEX(2,3)
    and NO. Naming NE then E leaves nothing to add, so no third prompt: marauder#2 is attacked
    first (+1: 4 damage, 5 -> 1), then marauder#1 (+0: 3, 5 -> 2); the ally and the slinger are
    untouched."""
    game = aoe_game(tmp_path, _bulwark_fixture())
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)))
    expect(game, AREA_TARGET, "bulwark", legal={HEX(3, 4), HEX(2, 3), NO})
    assert game.prompt.targets == () and game.prompt.value == 3
    play(game, (AREA_TARGET, HEX(2, 3)))
    expect(game, AREA_TARGET, "bulwark", legal={HEX(3, 4), NO})
    assert game.prompt.targets == (cell(2, 3),)
    assert "prompt: AREA_TARGET for bulwark (B01 top, attack 3, targeted (2,3))" in render_ansi(
        game
    )
    play(game, (AREA_TARGET, HEX(3, 4)))
    expect(game, "WINDOW_1", "bulwark")
    assert events_of(game, "AREA")[0].data["targets"] == [cell(2, 3), cell(3, 4)]
    attacks = [
        (e.data["target"], e.data["damage"], e.data["cards"]) for e in events_of(game, "ATTACK")
    ]
    assert attacks == [("marauder#2", 4, ["+1"]), ("marauder#1", 3, ["+0"])]
    assert hp(game, "marauder#2") == 1 and hp(game, "marauder#1") == 2
    assert hp(game, "conjurer") == 7 and hp(game, "slinger#1") == 4


def test_aoe_6_no_ends_the_area_when_one_placement_attacks_just_those(tmp_path):
    """HV-AOE-6: after HEX(3,4) the pair SE+E attacks marauder#1 alone, so NO is legal: only it is
    attacked (5 - 4 = 1); marauder#2 is not."""
    game = aoe_game(tmp_path, _bulwark_fixture())
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)), (AREA_TARGET, HEX(3, 4)))
    expect(game, AREA_TARGET, "bulwark", legal={HEX(2, 3), NO})
    play(game, (AREA_TARGET, NO))
    assert [e.data["target"] for e in events_of(game, "ATTACK")] == ["marauder#1"]
    assert hp(game, "marauder#1") == 1 and hp(game, "marauder#2") == 5


def test_aoe_3_4_ranged_area_in_range_and_adjacent_disadvantage(tmp_path):
    """HV-AOE-3/4, HV-ATK-3: the Conjurer at (1,4) with C01's triangle (Range 3). marauder#1 at
    (2,4) (adjacent), marauder#2 at (3,4), slinger#1 at (5,4) (4 away, reached by a triangle with
    (4,4) in range) may be named; slinger#2 at (6,4) (5 away) may not. Naming (3,4) then (2,4):
    marauder#2 draws one card (+1: 3 damage), marauder#1, adjacent to a ranged attack, two
    (+0, -1: the worse, 1 damage)."""
    fixture = {
        "sequence": ["conjurer"],
        "characters": {
            "bulwark": {"cell": [0, 0]},
            "conjurer": {"cell": [1, 4], "played": ["C01", "C02"], "amd": ["+1", "+0", "-1"]},
        },
        "monsters": [
            mon("marauder", 1, 2, 4),
            mon("marauder", 2, 3, 4),
            mon("slinger", 1, 5, 4),
            mon("slinger", 2, 6, 4),
        ],
    }
    game = aoe_game(tmp_path, fixture)
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)))
    expect(game, AREA_TARGET, "conjurer", legal={HEX(2, 4), HEX(3, 4), HEX(5, 4), NO})
    play(game, (AREA_TARGET, HEX(3, 4)))
    expect(game, AREA_TARGET, "conjurer", legal={HEX(2, 4), NO})  # (5,4) is 2 from (3,4)
    play(game, (AREA_TARGET, HEX(2, 4)))
    attacks = [
        (e.data["target"], e.data["damage"], e.data["cards"]) for e in events_of(game, "ATTACK")
    ]
    assert attacks == [("marauder#2", 3, ["+1"]), ("marauder#1", 1, ["+0", "-1"])]


def test_aoe_5_no_area_attack_without_an_enemy_to_attack(tmp_path):
    """HV-AOE-5, HV-BOX-11: with only an invisible enemy near, B01's area attacks no one: no
    AREA_TARGET prompt, the box is not performed (its card is discarded, HV-BOX-9)."""
    fixture = _bulwark_fixture()
    fixture["monsters"] = [mon("slinger", 1, 1, 4, conditions=["invisible"])]
    game = aoe_game(tmp_path, fixture)
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)))
    expect(game, "WINDOW_1", "bulwark")
    assert events_of(game, "ATTACK") == []


# =================================================================================================
# HV-AOE-7..9: monsters aim their area


def test_aoe_8_9_monster_moves_and_turns_its_line_to_hit_focus_and_another(tmp_path):
    """HV-AOE-7/8/9, HV-AI-4/5: the Marauder at (6,4) with MA2's line (Move 2). Its focus is the
    Conjurer at (3,4): the line from (5,4), 1 step, reaches it (the Bulwark at (2,4) needs 2). Of
    its hexes in reach it ends at (4,4), 2 steps, where the line pointing west covers the Conjurer
    and the Bulwark, not at (5,4) (the Conjurer alone): it attacks the Conjurer (focus) first, then
    the Bulwark, each with its own card (+0, +1)."""
    fixture = {
        "sequence": ["marauder"],
        "characters": {"bulwark": {"cell": [2, 4]}, "conjurer": {"cell": [3, 4]}},
        "monsters": [mon("marauder", 1, 6, 4)],
        "monster_cards": {"marauder": "MA2"},
        "monster_amd": ["+0", "+1"],
    }
    game = aoe_game(tmp_path, fixture)
    assert pos(game, "marauder#1") == cell(4, 4)
    (area,) = events_of(game, "AREA")
    assert area.data["cells"] == sorted([cell(3, 4), cell(2, 4)])
    assert area.data["targets"] == [cell(3, 4), cell(2, 4)]
    play(game, ("DAMAGE_RESPONSE", NO, "conjurer"))
    play(game, ("DAMAGE_RESPONSE", NO, "bulwark"))
    attacks = [
        (e.data["target"], e.data["damage"], e.data["cards"]) for e in events_of(game, "ATTACK")
    ]
    assert attacks == [("conjurer", 2, ["+0"]), ("bulwark", 3, ["+1"])]
    assert hp(game, "conjurer") == 5 and hp(game, "bulwark") == 7


def test_aoe_9_monster_turns_its_line_without_moving(tmp_path):
    """HV-AOE-8/9: the Marauder at (4,4), next to its focus the Conjurer at (3,4), already stands
    where a line covers the Conjurer and the Bulwark behind it at (2,4): it does not move, turns
    the line west and attacks both, the focus first."""
    fixture = {
        "sequence": ["marauder"],
        "characters": {"bulwark": {"cell": [2, 4]}, "conjurer": {"cell": [3, 4]}},
        "monsters": [mon("marauder", 1, 4, 4)],
        "monster_cards": {"marauder": "MA2"},
        "monster_amd": ["+0", "+0"],
    }
    game = aoe_game(tmp_path, fixture)
    assert pos(game, "marauder#1") == cell(4, 4) and events_of(game, "MOVE") == []
    play(game, ("DAMAGE_RESPONSE", NO, "conjurer"), ("DAMAGE_RESPONSE", NO, "bulwark"))
    assert [e.data["target"] for e in events_of(game, "ATTACK")] == ["conjurer", "bulwark"]


def test_aoe_3_9_ranged_monster_area_reaches_one_beyond_its_range(tmp_path):
    """HV-AOE-3/7/9, HV-AI-4: the Slinger at (7,0) with SL2 (no Move; Attack 2 + 1, Range 3 + 1)
    and its ranged pair. Both characters are attackable from where it stands (cost 0); the
    Conjurer at (3,0), 4 away, is nearer than the Bulwark at (2,0), 5 away, so it is the focus.
    The pair on (3,0) and (2,0) has (3,0) in range, so the Bulwark, out of range for a single
    target, is attacked too, after the focus: 3 damage each."""
    fixture = {
        "sequence": ["slinger"],
        "characters": {"bulwark": {"cell": [2, 0]}, "conjurer": {"cell": [3, 0]}},
        "monsters": [mon("slinger", 1, 7, 0)],
        "monster_cards": {"slinger": "SL2"},
        "monster_amd": ["+0", "+0"],
    }
    game = aoe_game(tmp_path, fixture)
    (area,) = events_of(game, "AREA")
    assert area.data["cells"] == [cell(2, 0), cell(3, 0)]
    play(game, ("DAMAGE_RESPONSE", NO, "conjurer"), ("DAMAGE_RESPONSE", NO, "bulwark"))
    attacks = [(e.data["target"], e.data["damage"]) for e in events_of(game, "ATTACK")]
    assert attacks == [("conjurer", 3), ("bulwark", 3)]
    assert pos(game, "slinger#1") == cell(7, 0)


# =================================================================================================
# HV-AOE-1..3, HV-AOE-10: bad patterns refused on load


@pytest.mark.parametrize(
    ("area", "extra", "message"),
    [
        ("[[2, 0], [3, 0]]", "", "needs a hex next to the attacker"),
        ("[[0, 0], [1, 0]]", "", "is ranged: the attack needs a range"),
        ("[[1, 0], [1, 0]]", "", "listed twice"),
        ("[[1, 0], [4, 0]]", "", "outside -3..3"),
        ("[[1, 0], [2, 2]]", "", "farther than 3 hexes"),
        ("[[1, 0, 0]]", "", "2"),
        ("[]", "", "at least 1"),
        ("[[1, 0], [2, 0], [3, 0], [1, 1], [2, 1], [0, 1], [-1, 1], [-1, 2]]", "", "at most 7"),
        ("[[1, 0]]", ", targets = 2", "no targets"),
        ("[[1, 0]]", ", range = 2", "takes no range"),
    ],
)
def test_aoe_bad_pattern_refused_on_load(tmp_path, area, extra, message):
    """HV-AOE-1..3: a bad ``area`` on B01's attack is refused with what was wrong."""
    edits = (
        (
            '[{ kind = "attack", value = 3 }]',
            f'[{{ kind = "attack", value = 3, area = {area}{extra} }}]',
        ),
    )
    with pytest.raises(ScenarioError, match="area|targets") as err:
        aoe_scenario(tmp_path, edits)
    assert message in str(err.value)


def test_aoe_10_prompt_bound_must_cover_the_area_attacks(tmp_path):
    """HV-AOE-10, 15.10: with these area cards Raider Camp's 40 prompts a round is too few (the
    triangle box may pose 3 AREA_TARGET prompts and 2 more retaliations: 40 + 2 x 7 = 54)."""
    with pytest.raises(ScenarioError, match=r"at least 54 = 40 \+ 14 for area attacks"):
        aoe_scenario(tmp_path, EDITS[:4])


# =================================================================================================
# HV-AOE-6: observation and bot


def test_aoe_6_prompt_kind_only_in_scenarios_with_areas(tmp_path):
    """HV-AOE-6, 16.5: Raider Camp's prompt kinds are 16.2's table exactly (its layout unchanged);
    the area scenario adds AREA_TARGET after them, and its observation at the prompt marks it."""
    assert layout_for(load_scenario())["prompt"]["kind"].labels == PROMPT_KINDS
    scn = aoe_scenario(tmp_path)
    assert layout_for(scn)["prompt"]["kind"].labels == (*PROMPT_KINDS, AREA_TARGET)
    game = new_game(scenario=scn, seed=0, config=HavenConfig(), fixture=_bulwark_fixture())
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)))
    view = layout_for(scn).view(Observer(scn).observe(game, 0))
    assert view["prompt"].label("kind") == AREA_TARGET


def test_aoe_6_scripted_bot_names_every_enemy_it_can(tmp_path):
    """HV-AOE-6: the scripted bot answers AREA_TARGET without falling back: it names marauder#1
    at (3,4) or #2 at (2,3) and then the other, never NO while an enemy can join."""
    scn = aoe_scenario(tmp_path)
    bot = HavenScriptedBot(str(tmp_path / "aoe.toml"))
    game = new_game(scenario=scn, seed=0, config=HavenConfig(), fixture=_bulwark_fixture())
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)))
    observer = Observer(scn)
    named = []
    while game.prompt is not None and game.prompt.kind == AREA_TARGET:
        mask = np.zeros(87, dtype=np.int8)
        mask[list(game.prompt.legal)] = 1
        action = bot.act(observer.observe(game, 0), mask)
        named.append(action)
        game.apply(action)
    assert sorted(named) == sorted([HEX(3, 4), HEX(2, 3)]) and bot.fallbacks == 0


# =================================================================================================
# Whole games on the area scenario


def test_aoe_10_busy_games_keep_invariants_positions_and_the_prompt_bound(tmp_path):
    """HV-AOE-6/10, 15.10, HV-API positions: 24 busy random games on the area scenario keep the
    engine invariants at every step, save and restore through JSON at every step of the first 4,
    pose at most 54 prompts per agent and round, and both characters and monsters attack with an
    area."""
    scn = aoe_scenario(tmp_path)
    bound = scn.rules.bounds.max_prompts_per_agent_round
    areas = Counter()
    for seed in range(24):
        game = new_game(scenario=scn, seed=seed, config=HavenConfig())
        rng = np.random.default_rng(seed)
        per_round = Counter()
        while game.prompt is not None:
            check_invariants(game)
            if seed < 4:
                position = json.loads(json.dumps(game.to_position()))
                restored = HavenGame.from_position(position, scn)
                assert restored.prompt == game.prompt and restored.to_position() == position
                game = restored
            per_round[(game.state.round, game.prompt.agent)] += 1
            areas[game.prompt.kind] += 1
            game.apply(busy_choice(rng, game))
        assert game.outcome in ("win", "loss")
        assert max(per_round.values()) <= bound
        for event in events_of(game, "AREA"):
            areas["monster" if "#" in event.data["figure"] else "character"] += 1
    assert areas[AREA_TARGET] > 0 and areas["character"] > 0 and areas["monster"] > 0, areas


def test_aoe_6_scripted_bot_plays_whole_area_games_without_fallback(tmp_path):
    """HV-AOE-6: the scripted bot in both seats plays 6 whole games of the area scenario with
    legal actions only, answers AREA_TARGET prompts, and never falls back to random play."""
    scn = aoe_scenario(tmp_path)
    bot = HavenScriptedBot(str(tmp_path / "aoe.toml"), seed=0)
    observer = Observer(scn)
    answered = 0
    for seed in range(6):
        game = new_game(scenario=scn, seed=seed, config=HavenConfig())
        while game.prompt is not None:
            mask = np.zeros(87, dtype=np.int8)
            mask[list(game.prompt.legal)] = 1
            action = bot.act(observer.observe(game, game.prompt.agent), mask)
            assert mask[action] == 1
            answered += game.prompt.kind == AREA_TARGET
            game.apply(action)
    assert answered > 0 and bot.fallbacks == 0
