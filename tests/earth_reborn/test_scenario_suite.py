"""The scenario suite beside Vault Raid (rules spec section 23, ER-SUITE-1..6).

The expected values are copied from the spec, not from the data files, so that each file, the
loader and the spec are checked against each other; the bots and the renders are then held to
every map, none tuned to one.
"""

from __future__ import annotations

import pytest

from reborn_env.core.data_files import bundled_names
from reborn_env.games.earth_reborn.render import render_ansi, render_rgb
from reborn_env.games.earth_reborn.rules.engine import new_game
from reborn_env.games.earth_reborn.scenario import loader as scenario_file
from reborn_env.games.earth_reborn.scenario.loader import load_scenario
from reborn_env.games.earth_reborn.scenario.model import DOOR_KINDS, E, Scenario, W
from training.bench.matches import play_vector_match, player

GAME = "earth_reborn_v0"

# ER-SUITE-1: by rising size: (width, height, NORAD characters, Salemite characters).
SUITE = {
    "corridor_duel": (7, 4, 1, 1),
    "vault_raid": (9, 7, 2, 3),
    "ambush": (10, 7, 3, 3),
    "cache_run": (11, 9, 3, 3),
    "hold_the_line": (12, 9, 3, 4),
    "compound": (16, 16, 4, 5),
}
NEW = ("corridor_duel", "cache_run", "compound")  # the terminal missions of ER-SUITE-2..4
OTHER_MISSIONS = ("ambush", "hold_the_line")  # ER-SUITE-7, -8

# ER-SUITE-2..4, as the spec states them.
SPEC = {
    "corridor_duel": {
        "turns": 4,
        "floor": 26,
        "base_cp": {"norad": 5, "salemite": 5},
        "starts": {"vasquez": ((0, 1), E, 0), "deeler": ((6, 2), W, 0)},
        "terminals": {"O1": (4, 0), "O2": (4, 3)},
        "caches": [],
        "doors": {((4, 0), (4, 1)): "sliding", ((4, 2), (4, 3)): "wooden"},
        "kill_mp": {"norad": 3, "salemite": 3},
    },
    "cache_run": {
        "turns": 5,
        "floor": 91,
        "base_cp": {"norad": 6, "salemite": 9},
        "starts": {
            "bolter": ((0, 3), E, 0),
            "vasquez": ((0, 4), E, 0),
            "trooper": ((0, 5), E, 0),
            "deeler": ((10, 3), W, 0),
            "jack_saw": ((10, 4), W, 0),
            "zombie": ((10, 5), W, 0),
        },
        "terminals": {"O1": (5, 0), "O2": (5, 8)},
        "caches": [(2, 0), (8, 8)],
        "doors": {
            ((5, 1), (5, 2)): "magnetic_sliding",
            ((5, 6), (5, 7)): "magnetic_wooden",
            ((1, 1), (2, 1)): "wooden",
            ((8, 6), (8, 7)): "sliding",
        },
        "kill_mp": {"norad": 1, "salemite": 2},
    },
    "compound": {
        "turns": 8,
        "floor": 252,
        "base_cp": {"norad": 7, "salemite": 11},
        "starts": {
            "bolter": ((0, 6), E, 1),
            "vasquez": ((0, 7), E, 0),
            "trooper": ((0, 8), E, 0),
            "trooper_2": ((0, 9), E, 0),
            "deeler": ((15, 4), W, 0),
            "jack_saw": ((15, 6), W, 0),
            "zombie": ((15, 8), W, 0),
            "zombie_2": ((15, 10), W, 0),
            "deeler_2": ((15, 12), W, 0),
        },
        "terminals": {"O1": (4, 1), "O2": (11, 1), "O3": (4, 14), "O4": (11, 14)},
        "caches": [(8, 0), (8, 15)],
        "doors": {
            ((5, 3), (5, 4)): "magnetic_sliding",
            ((10, 3), (10, 4)): "sliding",
            ((5, 11), (5, 12)): "magnetic_wooden",
            ((10, 11), (10, 12)): "wooden",
        },
        "kill_mp": {"norad": 1, "salemite": 2},
    },
}


@pytest.fixture(scope="module", params=NEW)
def suite_scenario(request: pytest.FixtureRequest) -> Scenario:
    return load_scenario(request.param)


def test_er_suite_1_the_suite_rises_in_size_and_uses_every_door_kind() -> None:
    """ER-SUITE-1: the bundled maps, their sizes and teams, every door kind, and every mission:
    hack terminals, search caches, eliminate (kills only), hold squares (ER-SCN-14)."""
    assert set(SUITE) == set(bundled_names(scenario_file._PACKAGE))
    sizes = []
    kinds: set[str] = set()
    missions: set[str] = set()
    for name, (width, height, norad, salemite) in SUITE.items():
        scn = load_scenario(name)
        board = scn.board
        assert (board.width, board.height) == (width, height), name
        factions = [c.faction for c in scn.characters]
        assert (factions.count("norad"), factions.count("salemite")) == (norad, salemite), name
        missions |= {"hack"} if scn.terminals else set()
        missions |= {"search"} if scn.caches else set()
        missions |= {"hold"} if scn.mission.hold_squares else set()
        if not scn.terminals and not scn.mission.hold_squares:
            missions.add("eliminate")
            assert min(scn.mission.kill_mp.values()) > 0, name
        kinds |= {d.kind for d in board.doors}
        sizes.append((width * height, len(scn.characters)))
    assert sizes == sorted(sizes), "the suite is listed by rising size"
    assert kinds == set(DOOR_KINDS), "together the scenarios use every door kind (ER-DOOR-1)"
    assert missions == {"hack", "search", "eliminate", "hold"}
    assert sizes[-1][0] == 256, "the largest fills the compiled core's 256 squares"


def test_er_suite_2_to_4_each_map_is_the_spec_s(suite_scenario: Scenario) -> None:
    """ER-SUITE-2, -3, -4: turns, floor, CP, starts and cards, terminals, caches, doors, MP."""
    scn, spec = suite_scenario, SPEC[suite_scenario.name]
    board = scn.board
    assert scn.turns == spec["turns"]
    assert board.void.count(False) == spec["floor"]
    assert scn.base_cp == spec["base_cp"]
    assert scn.start_mp == {"norad": 0, "salemite": 0}
    starts = {c.id: (board.xy(c.start), c.facing, c.cards) for c in scn.characters}
    assert starts == spec["starts"]
    assert {t.id: board.xy(t.square) for t in scn.terminals} == spec["terminals"]
    assert [board.xy(c.square) for c in scn.caches] == spec["caches"]
    assert all(c.item == "magnetic_card" for c in scn.caches)
    doors = {(board.xy(d.a), board.xy(d.b)): d.kind for d in board.doors}
    assert spec["doors"].items() <= doors.items()
    mission = scn.mission
    assert (mission.hacker_faction, mission.hack_mp) == ("norad", 3)  # ER-SCN-10
    assert mission.unhacked_terminal_mp == {"norad": 0, "salemite": 1}
    assert mission.kill_mp == spec["kill_mp"]
    assert mission.end_when_all_hacked  # ER-SCN-11
    assert (scn.initiative_odd, scn.initiative_even, scn.marker_at_setup) == (
        "norad",
        "salemite",
        "norad",
    )  # ER-SCN-9


def test_er_suite_3_norad_must_search_a_cache_before_a_magnetic_door() -> None:
    """ER-SUITE-3: no NORAD card at setup; both terminals behind magnetic doors (ER-DOOR-3)."""
    scn = load_scenario("cache_run")
    assert all(c.cards == 0 for c in scn.characters)
    board = scn.board
    magnetic = [d for d in board.doors if d.kind.startswith("magnetic")]
    assert {board.xy(d.a) for d in magnetic} == {(5, 1), (5, 6)}
    assert len(scn.caches) == 2


def test_er_suite_5_the_trooper_and_the_second_zombie_and_deeler() -> None:
    """ER-SUITE-5: the trooper's stat lines and rifle; the second Zombie and Deeler are theirs."""
    scn = load_scenario("compound")
    by_id = {c.id: c for c in scn.characters}
    trooper = by_id["trooper"]
    healthy, wounded = trooper.healthy, trooper.wounded
    line = ("mov", "cc", "sht", "arm", "lp", "maxcp", "bonus", "tec", "srch")
    assert [getattr(healthy, k) for k in line] == [4, (2, 2, 1), 2, 2, 3, 5, 1, 1, 2]
    assert [getattr(wounded, k) for k in line] == [3, (1, 1, 0), 1, 1, 2, 4, 0, 1, 1]
    assert trooper.weapon is not None and trooper.weapon.damage_red == 4  # the assault rifle
    assert by_id["trooper_2"].healthy == healthy
    assert by_id["zombie_2"].healthy == by_id["zombie"].healthy
    assert by_id["deeler_2"].healthy == by_id["deeler"].healthy
    assert by_id["deeler_2"].weapon == by_id["deeler"].weapon


def test_er_suite_7_ambush_is_kills_only() -> None:
    """ER-SUITE-7: no terminal, no cache, no hold square; 2 MP a kill; the starts."""
    scn = load_scenario("ambush")
    board = scn.board
    assert (scn.turns, board.void.count(False), scn.base_cp) == (
        6,
        69,
        {"norad": 6, "salemite": 7},
    )
    assert not scn.terminals and not scn.caches and not scn.mission.hold_squares
    assert scn.mission.kill_mp == {"norad": 2, "salemite": 2}
    assert not scn.mission.end_when_all_hacked
    starts = {c.id: (board.xy(c.start), c.facing, c.cards) for c in scn.characters}
    assert starts == {
        "bolter": ((0, 1), E, 0),
        "vasquez": ((0, 2), E, 0),
        "trooper": ((0, 4), E, 0),
        "deeler": ((9, 1), W, 0),
        "jack_saw": ((9, 3), W, 0),
        "zombie": ((9, 5), W, 0),
    }
    assert board.void[board.square(5, 3)]


def test_er_suite_8_hold_the_line_scores_the_keep() -> None:
    """ER-SUITE-8, ER-SCN-14: the keep's four corners, 2 MP each; its four door kinds; the card
    in the store room."""
    scn = load_scenario("hold_the_line")
    board = scn.board
    mission = scn.mission
    assert [board.xy(sq) for sq in mission.hold_squares] == [(5, 3), (6, 3), (5, 5), (6, 5)]
    assert mission.hold_mp == {"norad": 2, "salemite": 2}
    assert mission.kill_mp == {"norad": 1, "salemite": 1}
    assert (scn.turns, board.void.count(False), scn.base_cp) == (
        6,
        106,
        {"norad": 7, "salemite": 9},
    )
    doors = {(board.xy(d.a), board.xy(d.b)): d.kind for d in board.doors}
    assert doors == {
        ((7, 1), (7, 2)): "wooden",
        ((5, 2), (5, 3)): "sliding",
        ((3, 4), (4, 4)): "magnetic_sliding",
        ((7, 4), (8, 4)): "magnetic_wooden",
        ((6, 5), (6, 6)): "wooden",
    }
    assert [board.xy(c.square) for c in scn.caches] == [(5, 0)]
    cards = {c.id: c.cards for c in scn.characters}
    assert cards["bolter"] == 1 and sum(cards.values()) == 1
    assert len([c for c in scn.characters if c.faction == "salemite"]) == 4


@pytest.mark.parametrize("name", NEW + OTHER_MISSIONS)
def test_er_suite_6_the_scripted_bot_plays_every_map(name: str) -> None:
    """ER-SUITE-6: the heuristic, written for no map in particular, beats uniform random play
    on each scenario from both seats."""
    options = {"scenario": name}
    result = play_vector_match(
        GAME,
        options,
        player("heuristic", GAME, 1, env_kwargs=options),
        player("random", GAME, 2, env_kwargs=options),
        games=16,
        seed=5,
        num_envs=16,
    )
    for seat, record in result.seats.items():
        assert record.wins >= 14, f"{name}: the heuristic as {seat}: {record}"


@pytest.mark.parametrize("name", ["corridor_duel", "hold_the_line"])
def test_er_suite_6_the_search_bot_plays_other_maps_with_their_heuristic(name: str) -> None:
    """ER-SUITE-6: ISMCTS's heuristic rollouts and prior are the map's own heuristic (one game
    a seat, whole and legal: the env refuses an illegal action, ER-ENV-8)."""
    from functools import partial

    from reborn_env.bots.arena import play_match
    from reborn_env.bots.loading import load_bot
    from reborn_env.core import registry

    spec = registry.get(GAME)
    bot = load_bot("ismcts:sims=3", GAME, seed=1)
    opponent = load_bot("heuristic", GAME, seed=2, scenario=name)
    result = play_match(partial(spec.make_env, scenario=name), bot, opponent, games=1, seed=3)
    assert [record.games for record in result.seats.values()] == [1, 1]
    assert set(bot._policies) == {name}


@pytest.mark.parametrize("name", NEW + OTHER_MISSIONS)
def test_er_suite_6_the_renders_draw_every_map(name: str) -> None:
    """The text render draws every square and a distinct letter on each character's start
    square; the RGB render is as large as the map."""
    scn = load_scenario(name)
    state = new_game(scn, 0)
    board = scn.board
    lines = render_ansi(state).splitlines()
    assert lines[0].split() == [str(x) for x in range(board.width)]
    assert len(scn.figure_letters) == len(set(scn.figure_letters)) == len(scn.characters)
    for c, letter in zip(scn.characters, scn.figure_letters, strict=True):
        x, y = board.xy(c.start)
        assert lines[2 + 2 * y][4 + 4 * x] == letter, (c.id, letter)
    for x, y in ((0, 0), (board.width - 1, board.height - 1)):
        shown = lines[2 + 2 * y][4 + 4 * x : 7 + 4 * x]
        assert shown.strip(), f"square ({x},{y}) is not drawn"
    image = render_rgb(state)
    wide = render_rgb(new_game(load_scenario("corridor_duel"), 0))
    assert image.ndim == 3 and image.shape[2] == 3
    if name != "corridor_duel":
        assert image.shape[0] > wide.shape[0] and image.shape[1] > wide.shape[1]
