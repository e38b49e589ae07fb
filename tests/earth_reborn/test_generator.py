"""The seeded map generator (rules spec section 23.1, ER-MAPGEN-1..4).

Each test reads the spec's words: the same seed is the same map, a draw stays within the drawn
ranges, every kept map is connected and loads as a data file would, and the scripted bot plays
the held-out maps.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from reborn_env.games.earth_reborn import positions
from reborn_env.games.earth_reborn.match import EarthRebornRules
from reborn_env.games.earth_reborn.rules.engine import new_game
from reborn_env.games.earth_reborn.scenario import generator
from reborn_env.games.earth_reborn.scenario.loader import (
    ScenarioError,
    build_scenario,
    generated_scenario,
    load_scenario,
)
from reborn_env.games.earth_reborn.scenario.model import DOOR_KINDS, WALL, E, W
from training.bench.matches import play_vector_match, player

GAME = "earth_reborn_v0"
SEEDS = range(200)


def test_er_mapgen_1_a_seed_is_one_map_everywhere() -> None:
    first = generator.draw_document(random.Random(42), "generated:42")
    again = generator.draw_document(random.Random(42), "generated:42")
    other = generator.draw_document(random.Random(43), "generated:43")
    assert first == again and first["map"] != other["map"]
    scenario = load_scenario("generated:42")
    assert scenario.name == "generated:42"
    assert scenario == build_scenario(first, "<generated:42>")  # the first draw was kept


def test_er_mapgen_1_its_positions_name_it_and_load_without_the_scenario() -> None:
    rules = EarthRebornRules(scenario="generated:7")
    state = new_game(rules.scenario, 3)
    position = positions.state_to_dict(state)
    assert position["scenario"] == "generated:7"
    again = positions.state_from_dict(position)
    assert positions.state_to_dict(again) == position


@pytest.mark.parametrize(
    "name", ["generated:", "generated:-1", "generated:x", f"generated:{2**63}"]
)
def test_er_mapgen_1_a_bad_seed_is_a_clear_error(name: str) -> None:
    assert not generator.is_generated(name)
    with pytest.raises(ScenarioError, match="no bundled scenario of that name"):
        load_scenario(name)
    with pytest.raises(ValueError, match="generated:<seed>"):
        generated_scenario(name)


def test_er_mapgen_2_draws_stay_in_their_ranges() -> None:
    kinds: set[str] = set()
    teams: set[tuple[int, int]] = set()
    for seed in SEEDS:
        scn = load_scenario(f"generated:{seed}")
        board = scn.board
        assert 8 <= board.width <= 14 and 6 <= board.height <= 12
        norad = [c for c in scn.characters if c.faction == "norad"]
        salemite = [c for c in scn.characters if c.faction == "salemite"]
        assert [c.id for c in norad] == list(generator.NORAD_POOL[: len(norad)])
        assert [c.id for c in salemite] == list(generator.SALEMITE_POOL[: len(salemite)])
        teams.add((len(norad), len(salemite)))
        assert all(board.xy(c.start)[0] == 0 and c.facing == E for c in norad)
        assert all(board.xy(c.start)[0] == board.width - 1 and c.facing == W for c in salemite)
        assert scn.base_cp == {"norad": 4 + len(norad), "salemite": 7 + len(salemite)}
        assert 1 <= len(scn.terminals) <= 3 and len(scn.caches) == 1
        assert scn.turns == 6
        magnetic = any(d.kind.startswith("magnetic") for d in board.doors)
        assert norad[0].cards == (1 if magnetic else 0)  # ER-DOOR-3
        kinds |= {d.kind for d in board.doors}
    assert kinds == set(DOOR_KINDS)
    assert teams == {(n, s) for n in range(1, 4) for s in range(1, 5)}


def test_er_mapgen_3_every_kept_map_is_connected() -> None:
    for seed in range(500):
        rng = random.Random(seed)
        scn = build_scenario(generator.draw_document(rng, f"generated:{seed}"), "<draw>")
        assert generator.problems(scn) == [], seed


def test_er_mapgen_3_a_map_cut_in_two_is_refused() -> None:
    """``problems`` finds a square no path reaches: every edge into one square walled up."""
    scn = load_scenario("generated:5")
    board = scn.board
    starts = {c.start for c in scn.characters}
    sq = max(s for s in range(len(board.void)) if not board.void[s] and s not in starts)
    edge = [list(row) for row in board.edge]
    for d in range(4):
        nxt = board.neighbor[sq][d]
        edge[sq][d] = WALL
        if nxt >= 0:
            edge[nxt][(d + 2) % 4] = WALL
    cut = replace(scn, board=replace(board, edge=tuple(tuple(r) for r in edge)))
    assert generator.problems(cut) == ["1 squares cut off"]


def test_er_mapgen_4_the_scripted_bot_plays_the_held_out_maps() -> None:
    assert tuple(range(1_000_000, 1_000_020)) == generator.HELD_OUT_SEEDS
    for seed in generator.HELD_OUT_SEEDS[:3]:
        options = {"scenario": f"generated:{seed}"}
        result = play_vector_match(
            GAME,
            options,
            player("heuristic", GAME, 1, env_kwargs=options),
            player("random", GAME, 2, env_kwargs=options),
            games=8,
            seed=seed,
            num_envs=8,
        )
        assert result.overall.wins >= 14, (seed, result.score_line())
