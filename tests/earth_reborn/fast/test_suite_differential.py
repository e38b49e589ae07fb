"""Every scenario of the suite, and generated maps, play on the compiled core as on the reference
engine (ER-SUITE-6, ER-MAPGEN-1).

The harness of :mod:`.differential`, on each map beside Vault Raid: a ``Games`` slot against the
engine at every decision (position, status, legal set, mask, both seats' observations), with
illegal actions refused alike and positions crossing between the two; then the AEC env on both
backends, and the vector env against reference matches. Each game ends by the rules or at the
step limit (ER-SCN-13, ER-ENV-9).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.earth_reborn.fast import differential as diff

SCENARIOS = (
    "corridor_duel",
    "ambush",
    "cache_run",
    "hold_the_line",
    "compound",
    "generated:3",
    "generated:1000000",
)
# Slot games per scenario and player: (first seed, games); the large map's games are long.
SLOT_GAMES = {"random": (0, 4), "busy": (100, 3), "heuristic": (200, 2)}


@pytest.mark.parametrize("name", SCENARIOS)
@pytest.mark.parametrize("player", sorted(SLOT_GAMES))
def test_er_suite_6_a_core_slot_plays_every_scenario_as_the_engine(
    fast_games: type, name: str, player: str
) -> None:
    rules = diff.reference_rules(scenario=name)
    first, games = SLOT_GAMES[player]
    tally = diff.Tally()
    for seed in range(first, first + games):
        tally.add(diff.play_slot_game(fast_games, rules, seed, player, cross_rate=0.05))
    assert tally.games == games and tally.decisions > 30 * games
    assert tally.illegal > 0 and tally.crossings > 0, tally


@pytest.mark.parametrize("name", SCENARIOS)
def test_er_suite_6_the_env_on_the_core_is_the_reference_env(make_env: Callable, name: str) -> None:
    tally = diff.Tally()
    for seed in range(2):
        tally.add(
            diff.play_aec_game(
                lambda backend: make_env(backend, scenario=name), "fast", seed, "random"
            )
        )
    assert tally.games == 2 and tally.illegal > 0


@pytest.mark.parametrize("name", SCENARIOS)
def test_er_suite_6_the_vector_env_is_n_reference_games(make_vector: Callable, name: str) -> None:
    options = {"scenario": name, "max_steps": 400}
    tally = diff.play_vector(
        lambda **kw: make_vector(**kw, **options),
        diff.reference_rules(**options),
        4,
        seed=7,
        steps=600,
        illegal_rate=0.05,
    )
    assert tally.illegal > 0 and tally.crossings > 0
    assert tally.ends.get("terminated", 0) + tally.ends.get("truncated", 0) > 0
