"""Seeding as Gymnasium has it, on every registered game: ``reset(seed=s)`` plays the game of
``s`` and seeds the env's generator (``np_random``); a later ``reset()`` plays the game of the
generator's next seed, so a run seeded once is the same run however its library resets; a first
reset without any seed seeds the generator from the OS. A position's chance events are its own:
the env's generator draws nothing for a reset to a position.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from pettingzoo import AECEnv

from .harness import CASES, Case, play_for

RESETS = 8  # enough that even a game of few deals (Kuhn poker: 6) differs between seeds


def run(env: AECEnv, seed: int | None) -> list[dict[str, Any]]:
    """The positions of a run: ``reset(seed=seed)``, then unseeded resets, each game played a
    few uniform decisions first (as a library plays some steps between resets)."""
    positions = []
    for k in range(RESETS):
        env.reset(seed=seed if k == 0 else None)
        positions.append(env.unwrapped.get_state())
        play_for(env, np.random.default_rng(k), 5)
    return positions


@pytest.mark.parametrize("case", CASES, ids=str)
def test_a_seeded_run_replays_its_unseeded_resets(case: Case) -> None:
    first, again = run(case.make_env(), 3), run(case.make_env(), 3)
    assert first == again, "reset() after reset(seed=3) plays other games on another run"
    assert any(p != first[0] for p in first[1:]), "every unseeded reset replays the seeded game"
    assert run(case.make_env(), 4) != first


@pytest.mark.parametrize("case", CASES, ids=str)
def test_a_seed_plays_the_same_game_whatever_came_before(case: Case) -> None:
    """``reset(seed=s)`` is the game of ``s`` and starts the generator over."""
    fresh = run(case.make_env(), 7)
    env = case.make_env()
    env.reset()
    env.reset(seed=1)
    env.reset()
    assert run(env, 7) == fresh


@pytest.mark.parametrize("case", CASES, ids=str)
def test_unseeded_runs_differ(case: Case) -> None:
    """Without any seed the generator comes from the OS: two envs play different games."""
    assert run(case.make_env(), None) != run(case.make_env(), None)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_a_reset_to_a_position_draws_no_seed(case: Case) -> None:
    env, twin = case.make_env(), case.make_env()
    env.reset(seed=11)
    twin.reset(seed=11)
    position = env.unwrapped.get_state()
    twin.reset(options={"position": position})
    assert twin.unwrapped.get_state() == position
    for _ in range(RESETS):
        env.reset()
        twin.reset()
        assert twin.unwrapped.get_state() == env.unwrapped.get_state()


@pytest.mark.parametrize("case", CASES, ids=str)
def test_np_random_is_the_generator_of_the_seeds(case: Case) -> None:
    """``np_random`` is Gymnasium's: a NumPy Generator seeded by ``reset(seed=...)``."""
    env = case.make_env()
    env.reset(seed=5)
    assert isinstance(env.unwrapped.np_random, np.random.Generator)
    drawn = env.unwrapped.np_random.integers(1 << 30)
    env.reset(seed=5)
    assert env.unwrapped.np_random.integers(1 << 30) == drawn
