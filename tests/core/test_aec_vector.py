"""The vector interface a trainer drives (``GameSpec.make_vector_env``), for every registered game.

A game's compiled vector and AECVectorEnv over its AEC envs are the same games from the same seed:
every step's observations, masks, agents, rewards and flags agree, WAIT included; AECVectorEnv
plays any game (its rows are the AEC env's ``last()``), refuses an illegal action naming the slot
with nothing changed (ER-ENV-8 for Earth Reborn, the same contract for every game), and resumes a
slot from its position and seed state.
"""

from __future__ import annotations

import numpy as np
import pytest

from reborn_env.core import registry
from reborn_env.core.aec_vector import AECVectorEnv
from reborn_env.core.errors import IllegalActionError

GAMES = registry.names()
COMPILED = [name for name in GAMES if registry.get(name).vector_env]


def random_actions(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(row)) for row in mask], dtype=np.int64)


@pytest.mark.parametrize("name", COMPILED)
def test_the_compiled_vector_plays_the_aec_envs_games(name: str) -> None:
    spec = registry.get(name)
    compiled = spec.make_vector_env(4, seed=21, max_steps=300)
    looped = AECVectorEnv(spec.make_env, 4, seed=21, max_steps=300)
    for x, y in zip(compiled.reset(), looped.reset(), strict=True):
        assert np.array_equal(x, y)
    rng = np.random.default_rng(2)
    ended = 0
    for step in range(700):
        actions = random_actions(rng, compiled.mask)
        if step % 5 == 0:
            actions[step % 4] = compiled.WAIT
        out_c, out_l = compiled.step(actions), looped.step(actions)
        for x, y in zip(out_c, out_l, strict=True):
            np.testing.assert_allclose(x, y, atol=1e-6)
        ended += int(out_c[4].sum() + out_c[5].sum())
    assert ended >= 4, "games should have ended and been replaced"
    for i in range(4):
        assert compiled.get_state(i) == looped.get_state(i)
        assert compiled.seed_state(i) == looped.seed_state(i)
        for seat in range(len(compiled.agents)):
            assert np.array_equal(compiled.observe(i, seat), looped.observe(i, seat))


@pytest.mark.parametrize("name", GAMES)
def test_aec_vector_rows_are_the_aec_envs_last(name: str) -> None:
    spec = registry.get(name)
    venv = AECVectorEnv(spec.make_env, 3, seed=5)
    venv.reset()
    rng = np.random.default_rng(3)
    for _ in range(60):
        venv.step(random_actions(rng, venv.mask))
        for i, env in enumerate(venv.envs):
            observed = env.observe(env.agent_selection)
            assert np.array_equal(venv.obs[i], observed["observation"])
            assert np.array_equal(venv.mask[i], observed["action_mask"])
            assert venv.agents[venv.agent[i]] == env.agent_selection


@pytest.mark.parametrize("name", GAMES)
def test_aec_vector_refuses_an_illegal_action_with_nothing_changed(name: str) -> None:
    spec = registry.get(name)
    venv = AECVectorEnv(spec.make_env, 2, seed=8)
    venv.reset()
    before = venv.obs.copy(), venv.mask.copy(), [env.agent_selection for env in venv.envs]
    actions = random_actions(np.random.default_rng(1), venv.mask)
    unlisted = np.flatnonzero(venv.mask[1] == 0)
    for bad in [*unlisted[:1].tolist(), venv.n_actions, -2]:
        actions[1] = bad
        with pytest.raises(IllegalActionError, match=f"^slot 1: illegal action {bad} "):
            venv.step(actions)
        assert np.array_equal(venv.obs, before[0]) and np.array_equal(venv.mask, before[1])
        assert [env.agent_selection for env in venv.envs] == before[2]
    with pytest.raises(ValueError, match="shape"):
        venv.step(actions[:1])


@pytest.mark.parametrize(
    "name", [n for n in GAMES if hasattr(registry.get(n).make_env().unwrapped, "get_state")]
)
def test_aec_vector_resumes_a_slot_from_its_position_and_seed_state(name: str) -> None:
    spec = registry.get(name)
    a, b = AECVectorEnv(spec.make_env, 2, seed=4), AECVectorEnv(spec.make_env, 2, seed=40)
    a.reset()
    b.reset()
    rng = np.random.default_rng(9)
    for _ in range(30):
        a.step(random_actions(rng, a.mask))
    b.set_state(0, a.get_state(1))
    b.set_seed_state(0, a.seed_state(1))
    replaced = 0
    for _ in range(3000):
        actions = random_actions(rng, a.mask)
        b_actions = random_actions(rng, b.mask)
        b_actions[0] = actions[1]
        out_a, out_b = a.step(actions), b.step(b_actions)
        for x, y in zip(out_a, out_b, strict=True):
            assert np.array_equal(x[1], y[0])
        replaced += int(out_a[4][1] or out_a[5][1])
        if replaced >= 2:
            break
    assert replaced >= 2
