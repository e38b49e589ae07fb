"""Random legal haven play over many seeded games, invariants after every step.

Checks, after every decision: cards conserved across hand/played/discard/lost/active, HP within
bounds (HV-EXH-2, HV-DMG-1), one figure per hex (HV-MAP-4), complete modifier decks (HV-AMD-1), a
non-empty legal set while the game runs (16.4), and the end within the bound of 15.10 (no round
beyond 29, no truncation, HV-END-4). A second family of games starts from a small fixture (one
weak monster) so that wins are reached too. The position round trip is checked at every step of
the seeded games: a game saved and restored through JSON at every step plays on exactly like one
never saved. REBORN_HAVEN_FUZZ_GAMES sets the number of games (benchmarks/fuzz.py runs more).
"""

from __future__ import annotations

import json
import os
from collections import Counter

import numpy as np
import pytest

from reborn_env import haven_v0
from reborn_env.core.fuzz import play_random_games, uniform_policy
from reborn_env.games.haven.fuzz_policies import busy_choice, busy_policy, check_step
from reborn_env.games.haven.invariants import check_invariants
from reborn_env.games.haven.rules.engine import HavenGame, new_game

GAMES = int(os.environ.get("REBORN_HAVEN_FUZZ_GAMES", "400"))
ROUND_TRIP_GAMES = int(os.environ.get("REBORN_HAVEN_ROUND_TRIP_GAMES", "40"))
STEP_BOUND = 2240  # 15.10: at most 28 x 2 x 40 agent steps

ONE_MONSTER = {
    "phase": "select",
    "characters": {"bulwark": {}, "conjurer": {}},
    "monsters": [{"type": "slinger", "rank": "normal", "standee": 1, "cell": [5, 3]}],
    "coins": [[3, 2]],
    "treasures": [{"number": 1, "cell": [8, 0]}],
}


def _uniform(rng: np.random.Generator, game: HavenGame) -> int:
    legal = game.legal_actions()
    return int(legal[rng.integers(len(legal))])


def play(game: HavenGame, rng: np.random.Generator, policy, round_trip: bool = False) -> int:
    """Play ``game`` to its end with ``policy``, checking invariants every step; return steps."""
    steps = 0
    last_round = game.scenario.rules.bounds.last_exhaustion_round  # 15.10: 29 from setup
    while game.prompt is not None:
        check_invariants(game)
        assert game.state.round <= last_round, "15.10: a round past the last exhaustion round"
        if round_trip:
            position = json.loads(json.dumps(game.to_position()))
            restored = HavenGame.from_position(position)
            assert restored.prompt == game.prompt
            assert restored.to_position() == position
            game = restored
        game.apply(policy(rng, game))
        steps += 1
        assert steps <= STEP_BOUND, "15.10: more agent steps than the bound"
    check_invariants(game)
    assert game.outcome in ("win", "loss"), "HV-END-4's cap must never trigger (15.10)"
    return steps


@pytest.mark.parametrize("policy", [_uniform, busy_choice], ids=["uniform", "busy"])
def test_random_games_keep_every_invariant(policy):
    """15.10, HV-END-3, HV-EXH-2/3, HV-MAP-4, HV-AMD-1: every seeded game ends by loss or win."""
    outcomes = Counter()
    for seed in range(GAMES):
        game = new_game(seed=seed)
        play(game, np.random.default_rng(seed), policy)
        outcomes[game.outcome] += 1
    assert sum(outcomes.values()) == GAMES


@pytest.mark.parametrize("policy", [uniform_policy, busy_policy], ids=["uniform", "busy"])
def test_random_games_through_the_environment(policy):
    """16.4 (mask = the engine's legal set, zeros for the other agent), HV-API-6/7 (shared
    reward, everyone terminated at once), with the engine invariants before every decision."""
    games = GAMES // 4
    report = play_random_games(haven_v0.env(), range(games), policy, check_step)
    assert report.truncated == 0
    assert max(report.lengths) <= STEP_BOUND
    for returns in report.returns:
        assert returns["bulwark"] == returns["conjurer"] and returns["bulwark"] in (-1.0, 1.0)


def test_busy_games_from_a_small_fixture_reach_wins():
    """HV-END-1/2 under random play: with one weak monster, busy play wins some games."""
    outcomes = Counter()
    for seed in range(GAMES // 3):
        game = new_game(seed=seed, fixture=ONE_MONSTER)
        play(game, np.random.default_rng(seed), busy_choice)
        outcomes[game.outcome] += 1
    assert outcomes["win"] > 0 and outcomes["loss"] > 0, outcomes


@pytest.mark.parametrize("seed", range(ROUND_TRIP_GAMES))
def test_saving_and_loading_every_step_changes_nothing(seed):
    """Positions: restore through JSON at every step and play on: the same game as unsaved."""
    reference = new_game(seed=seed)
    saved = new_game(seed=seed)
    rng = np.random.default_rng(seed)
    while reference.prompt is not None:
        position = json.loads(json.dumps(saved.to_position()))
        saved = HavenGame.from_position(position)
        assert saved.prompt == reference.prompt
        assert saved.to_position() == reference.to_position()
        action = busy_choice(rng, reference)
        reference.apply(action)
        saved.apply(action)
    assert saved.outcome == reference.outcome
    assert saved.state == reference.state
