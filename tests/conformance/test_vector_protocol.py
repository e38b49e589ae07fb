"""Every game's vectors are one interface (``core.vector_env.GameVector``), and behave alike on it.

For every registered game, the vector it registers (``GameSpec.make_vector_env``: a compiled core
where it has one) and AECVectorEnv over its AEC envs satisfy the Protocol with the same sizes and
array dtypes, take ``num_threads`` from the same call, and agree on every method of it from the
same seed: the rows after ``reset`` and each ``step`` (WAIT included), each seat's ``observe``, the
positions and seed generator states, and ``set_state`` / ``set_seed_state`` putting a slot back
so that it replays its games. A refused ``set_state`` leaves the slot as it was.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from reborn_env.core import registry
from reborn_env.core.aec_vector import AECVectorEnv
from reborn_env.core.vector_env import GameVector

from .harness import GAMES

SLOTS = 3
DTYPES = {
    "obs": np.float32,
    "mask": np.int8,
    "agent": np.int8,
    "rewards": np.float32,
    "terminated": np.bool_,
    "truncated": np.bool_,
}


def check_conforms(vector: Any) -> None:
    """``vector`` is a GameVector whose arrays have the Protocol's shapes and dtypes."""
    assert isinstance(vector, GameVector)
    n, seats = vector.num_envs, len(vector.agents)
    shapes = {
        "obs": (n, vector.obs_size),
        "mask": (n, vector.n_actions),
        "agent": (n,),
        "rewards": (n, seats),
        "terminated": (n,),
        "truncated": (n,),
    }
    for name, dtype in DTYPES.items():
        array = getattr(vector, name)
        assert array.dtype == dtype, name
        assert array.shape == shapes[name], name


def same(outputs: tuple[np.ndarray, ...], others: tuple[np.ndarray, ...]) -> None:
    assert len(outputs) == len(others)
    for x, y in zip(outputs, others, strict=True):
        np.testing.assert_allclose(x, y, atol=1e-6)


def check_alike(a: Any, b: Any, steps: int = 120, seed: int = 0) -> None:
    """``a`` and ``b`` (reset from the same seed) agree on every GameVector method while the same
    random legal actions (every fifth step one slot WAITs) play ``steps`` steps, and a slot put
    back by ``set_state`` and ``set_seed_state`` replays its games in both."""
    for vector in (a, b):
        check_conforms(vector)
    assert (a.num_envs, list(a.agents), a.n_actions, a.obs_size, a.WAIT) == (
        b.num_envs, list(b.agents), b.n_actions, b.obs_size, b.WAIT,
    )  # fmt: skip
    same(a.reset(), b.reset())
    rng = np.random.default_rng(seed)
    saved: tuple[Any, int] | None = None
    for step in range(steps):
        if step == steps // 3:
            saved = (a.get_state(0), a.seed_state(0))
            mark = (a.obs[0].copy(), a.mask[0].copy(), int(a.agent[0]))
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in a.mask], dtype=np.int64)
        if step % 5 == 0:
            actions[step % a.num_envs] = a.WAIT
        same(a.step(actions), b.step(actions))
    for i in range(a.num_envs):
        assert a.get_state(i) == b.get_state(i)
        assert a.seed_state(i) == b.seed_state(i)
        for seat in range(len(a.agents)):
            assert np.array_equal(a.observe(i, seat), b.observe(i, seat))
    assert saved is not None
    for vector in (a, b):
        vector.set_state(0, saved[0])
        vector.set_seed_state(0, saved[1])
        assert vector.get_state(0) == saved[0] and vector.seed_state(0) == saved[1]
        assert np.array_equal(vector.obs[0], mark[0]) and np.array_equal(vector.mask[0], mark[1])
        assert int(vector.agent[0]) == mark[2]
    for _ in range(40):
        actions = np.full(a.num_envs, a.WAIT, dtype=np.int64)
        actions[0] = rng.choice(np.flatnonzero(a.mask[0]))
        same(a.step(actions), b.step(actions))
    a.close()
    b.close()


@pytest.mark.parametrize("name", GAMES)
def test_the_registered_vector_and_the_aec_vector_are_one_interface(name: str) -> None:
    spec = registry.get(name)
    check_alike(spec.make_vector_env(SLOTS, seed=13), AECVectorEnv(spec.make_env, SLOTS, seed=13))


@pytest.mark.parametrize("name", GAMES)
def test_every_vector_takes_num_threads_from_the_same_call(name: str) -> None:
    spec = registry.get(name)
    for threads in (1, 2):
        vector = spec.make_vector_env(2, 0, threads)
        assert isinstance(vector, GameVector) and vector.num_threads == threads
    with pytest.raises(ValueError, match="num_threads"):
        spec.make_vector_env(2, 0, 0)
    with pytest.raises(ValueError, match="num_threads"):
        AECVectorEnv(spec.make_env, 2, 0, 0)


@pytest.mark.parametrize("name", GAMES)
def test_a_refused_position_leaves_the_slot_as_it_was(name: str) -> None:
    vector = registry.get(name).make_vector_env(2, seed=3)
    vector.reset()
    before = (vector.get_state(1), vector.obs[1].copy(), vector.mask[1].copy())
    with pytest.raises((ValueError, TypeError, KeyError)):
        vector.set_state(1, {"not": "a position"})
    assert vector.get_state(1) == before[0]
    assert np.array_equal(vector.obs[1], before[1]) and np.array_equal(vector.mask[1], before[2])
