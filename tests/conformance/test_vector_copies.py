"""AECVectorEnv over every registered game copies as its AEC envs do: a deep copy or a pickle
round trip, before the first reset or along the games, plays on exactly as the original (every
output of every step, positions and seed generator states), independently of it; and its
``reset(seed)`` then ``reset()`` continues the slots' generators as a vector made with that seed
does (the vector's seeding; the first reset without a seed uses the constructor's).
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from reborn_env.core import registry
from reborn_env.core.aec_vector import AECVectorEnv

from .harness import GAMES

COPIERS: dict[str, Callable[[Any], Any]] = {
    "deepcopy": copy.deepcopy,
    "pickle": lambda thing: pickle.loads(pickle.dumps(thing)),
}
SLOTS = 3


def vector(name: str, seed: int) -> AECVectorEnv:
    return AECVectorEnv(registry.get(name).make_env, SLOTS, seed=seed)


def random_actions(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(row)) for row in mask], dtype=np.int64)


def same_outputs(outputs: tuple[np.ndarray, ...], others: tuple[np.ndarray, ...]) -> None:
    for x, y in zip(outputs, others, strict=True):
        assert np.array_equal(x, y)


def step_both(venv: AECVectorEnv, twin: AECVectorEnv, steps: int, seed: int) -> None:
    """The same legal actions in both, whose outputs, positions and seed generator states must
    agree after every step."""
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        actions = random_actions(rng, venv.mask)
        same_outputs(venv.step(actions), twin.step(actions))
    for i in range(SLOTS):
        assert venv.get_state(i) == twin.get_state(i)
        assert venv.seed_state(i) == twin.seed_state(i)


@pytest.mark.parametrize("how", COPIERS)
@pytest.mark.parametrize("name", GAMES)
def test_a_copy_of_the_vector_plays_on_exactly(name: str, how: str) -> None:
    copier = COPIERS[how]
    venv = vector(name, seed=8)
    unstarted = copier(venv)
    same_outputs(venv.reset(), unstarted.reset())
    step_both(venv, unstarted, 40, seed=1)
    clone, other = copier(venv), copier(venv)
    assert all(a is not b for a, b in zip(clone.envs, venv.envs, strict=True))
    positions = [venv.get_state(i) for i in range(SLOTS)]
    step_both(other, copier(other), 40, seed=2)
    assert [venv.get_state(i) for i in range(SLOTS)] == positions, "a copy changed the original"
    step_both(venv, clone, 200, seed=3)  # games end and are replaced from the slots' generators


@pytest.mark.parametrize("name", GAMES)
def test_a_vectors_unseeded_reset_continues_its_seeded_generators(name: str) -> None:
    made = vector(name, seed=6)
    first, second = [np.copy(a) for a in made.reset()], [np.copy(a) for a in made.reset()]
    states = [made.get_state(i) for i in range(SLOTS)]
    reseeded = vector(name, seed=1)
    reseeded.reset()
    reseeded.step(random_actions(np.random.default_rng(0), reseeded.mask))
    same_outputs(reseeded.reset(seed=6), first)
    same_outputs(reseeded.reset(), second)
    assert [reseeded.get_state(i) for i in range(SLOTS)] == states
