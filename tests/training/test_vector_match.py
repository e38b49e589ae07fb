"""Matches in the game vector (training/bench/matches.py): every counted game is a real game of the
players, results come from the rules' final reward, and a match is reproducible from its seed."""

from __future__ import annotations

import numpy as np
import pytest

from reborn_env.core import registry
from training.bench.matches import outcome, play_vector_match, player

COMPETITIVE = [name for name in registry.names() if not registry.get(name).facts.cooperative]


def test_outcome_reads_the_final_reward_not_the_shaping():
    """ER-WIN-3: +1 to the winner, -1 to the loser; MP shaping on the last step moves both by
    less than 1; a draw or a game cut at max_steps is 0."""
    assert outcome(np.array([1.2, -1.2]), 0, True) == 1.0
    assert outcome(np.array([-0.8, 0.8]), 0, True) == -1.0
    assert outcome(np.array([0.1, -0.1]), 1, True) == 0.0  # a draw with a last MP gained
    assert outcome(np.array([1.0, -1.0]), 0, False) == 0.0  # truncated


@pytest.mark.parametrize("name", COMPETITIVE)
def test_a_vector_match_counts_every_game_once_and_repeats_from_its_seed(name: str) -> None:
    play = (name, {}, player("random", name, 1), player("random", name, 50))
    first = play_vector_match(*play, games=12, seed=3, num_envs=5)
    again = play_vector_match(*play, games=12, seed=3, num_envs=5)
    assert [r.games for r in first.seats.values()] == [12, 12]
    assert first.score_line() == again.score_line()
    other = play_vector_match(*play, games=12, seed=4, num_envs=5)
    assert other.overall.games == 24


BUNDLED = [n for n in COMPETITIVE if registry.get(n).env.startswith("reborn_env.games.")]


@pytest.mark.parametrize("name", [n for n in BUNDLED if registry.get(n).bots])
def test_the_scripted_bot_beats_random_play_in_the_vector(name: str) -> None:
    """Players keep their seats: a bundled game's scripted bot against random play wins nearly
    every game in both seats (a mix-up of seats or of players would halve it)."""
    kind = next(iter(registry.get(name).bots))
    result = play_vector_match(
        name, {}, player(kind, name, 1), player("random", name, 9), games=20, seed=1
    )
    for record in result.seats.values():
        assert record.wins >= 17, result.score_line()
