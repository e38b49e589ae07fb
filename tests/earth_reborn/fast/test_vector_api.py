"""The vector API, ``earth_reborn_v0.vector_env``: shapes, dtypes and arrays reused;
each slot plays exactly the games of the AEC env from the slot's seeds, with its rewards, flags
and auto-reset (ER-ENV-1, -8, -9, -10, ER-WIN-3); determinism by seed and across num_threads;
positions in and out; bad actions, positions and options refused with nothing changed.

Every test runs on the reference games (``python``), on the core's code path with
:class:`ReferenceGames` standing in for ``_core.Games`` (``stand-in``), and on the compiled core
(``fast``) wherever it should have been built (its sources and a compiler are there): a missing
core then fails, it is not skipped.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from reborn_env import earth_reborn_v0
from reborn_env.core.errors import IllegalActionError, PositionError
from reborn_env.core.rng import SplitMix64
from reborn_env.games.earth_reborn import fast
from reborn_env.games.earth_reborn.fast import match as fast_match
from reborn_env.games.earth_reborn.fast.reference import ReferenceGames

BACKENDS = ["python", "stand-in"] + (["fast"] if fast.build_expected() or fast.AVAILABLE else [])


@pytest.fixture(params=BACKENDS)
def make(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Any]:
    """``make(**kwargs)``: ``vector_env`` on the backend of the parametrisation."""
    if request.param == "fast":
        assert fast.AVAILABLE, f"the core should have been built here: {fast.IMPORT_ERROR}"
        return lambda **kw: earth_reborn_v0.vector_env(backend="fast", **kw)
    if request.param == "stand-in":
        monkeypatch.setattr(fast, "AVAILABLE", True)
        monkeypatch.setattr(fast_match, "core", types.SimpleNamespace(Games=ReferenceGames))
        return lambda **kw: earth_reborn_v0.vector_env(backend="fast", **kw)
    return lambda **kw: earth_reborn_v0.vector_env(backend="python", **kw)


def random_actions(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(row)) for row in mask], dtype=np.int64)


def slot_seeds(seed: int, n: int) -> list[SplitMix64]:
    """The contract's seeds: slot i draws from SplitMix64(i-th output of seed)."""
    root = SplitMix64(seed)
    return [SplitMix64(root.next64()) for _ in range(n)]


class Oracle:
    """One AEC env (reference engine) per slot, reset from the slot's seeds as games end."""

    def __init__(self, n: int, seed: int, **options: Any) -> None:
        self.seeds = slot_seeds(seed, n)
        self.envs = [earth_reborn_v0.env(backend="python", **options) for _ in range(n)]
        for i in range(n):
            self.new_game(i)

    def new_game(self, i: int) -> None:
        self.envs[i].reset(seed=self.seeds[i].next64())

    def check(self, obs: np.ndarray, mask: np.ndarray, agent: np.ndarray) -> None:
        """Each slot's row is the AEC env's observation and mask of the agent to move."""
        for i, env in enumerate(self.envs):
            seat = env.possible_agents.index(env.agent_selection)
            assert agent[i] == seat, f"slot {i}: ER-ENV-1, the seat to move"
            seen = env.observe(env.agent_selection)
            assert np.array_equal(obs[i], seen["observation"]), f"slot {i}: observation"
            assert np.array_equal(mask[i], seen["action_mask"]), f"slot {i}: ER-ENV-10 mask"

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each env's step: its rewards per seat, terminated and truncated; then auto-reset."""
        n = len(self.envs)
        rewards = np.zeros((n, 2), np.float32)
        terminated, truncated = np.zeros(n, bool), np.zeros(n, bool)
        for i, env in enumerate(self.envs):
            env.step(int(actions[i]))
            rewards[i] = [env.rewards[a] for a in env.possible_agents]
            terminated[i] = all(env.terminations.values())
            truncated[i] = all(env.truncations.values())
            if terminated[i] or truncated[i]:
                self.new_game(i)
        return rewards, terminated, truncated


def test_arrays_have_the_contract_shapes_and_types_and_are_reused(make: Callable[..., Any]) -> None:
    """The arrays are float32 [N, obs], int8 [N, A], int8 [N]; rewards float32 [N, 2], flags bool
    [N]; preallocated, the same arrays at every call."""
    venv = make(num_envs=3, seed=5)
    obs, mask, agent = venv.reset()
    assert (obs.shape, obs.dtype) == ((3, venv.obs_size), np.float32)
    assert (mask.shape, mask.dtype) == ((3, venv.n_actions), np.int8)
    assert (agent.shape, agent.dtype) == ((3,), np.int8)
    out = venv.step(random_actions(np.random.default_rng(0), mask))
    assert out[0] is obs and out[1] is mask and out[2] is agent
    rewards, terminated, truncated = out[3:]
    assert (rewards.shape, rewards.dtype) == ((3, 2), np.float32)
    assert (terminated.shape, terminated.dtype) == ((3,), np.bool_)
    assert (truncated.shape, truncated.dtype) == ((3,), np.bool_)
    again = venv.step(random_actions(np.random.default_rng(1), mask))
    assert all(a is b for a, b in zip(out, again, strict=True))
    assert venv.reset()[0] is obs


@pytest.mark.parametrize(
    "options",
    [{"mp_shaping": 0.25}, {"max_steps": 40}],
    ids=["to-the-end-shaped", "truncated"],
)
def test_each_slot_plays_the_aec_env_from_its_seeds(
    make: Callable[..., Any], options: dict[str, Any]
) -> None:
    """Every step, every slot: the AEC env's observation, mask and seat (ER-ENV-1, -10), its
    rewards of that step (MP shaping, then ER-WIN-3's +1 / -1), terminated / truncated
    (ER-ENV-9), and a finished game replaced at once by the slot's next seed."""
    n, seed = 3, 11
    venv, oracle = make(num_envs=n, seed=seed, **options), Oracle(n, seed, **options)
    obs, mask, agent = venv.reset()
    oracle.check(obs, mask, agent)
    rng = np.random.default_rng(2)
    finished = [0, 0]
    shaped = False
    for _ in range(1500 if "mp_shaping" in options else 130):
        actions = random_actions(rng, mask)
        obs, mask, agent, rewards, terminated, truncated = venv.step(actions)
        want = oracle.step(actions)
        assert np.array_equal(rewards, want[0]), "this step's rewards, as GameEnv gives them"
        assert np.array_equal(terminated, want[1]) and np.array_equal(truncated, want[2])
        assert not (terminated & truncated).any()
        oracle.check(obs, mask, agent)
        finished[0] += int(terminated.sum())
        finished[1] += int(truncated.sum())
        shaped |= bool((rewards != np.round(rewards)).any())  # 0.25 per MP of difference
    if "mp_shaping" in options:
        assert finished[0] >= 1 and shaped, "games ended by the rules, MP shaping paid"
    else:
        assert finished[1] >= n, "every slot truncated at max_steps at least once"


def test_the_same_seed_gives_the_same_games_and_another_seed_others(
    make: Callable[..., Any],
) -> None:
    """Determinism by seed: two vectors of one seed agree at every step; reset(seed) starts the
    generators over; another seed gives other games."""
    a, b, c = make(num_envs=4, seed=7), make(num_envs=4, seed=7), make(num_envs=4, seed=8)
    first = [x.copy() for x in a.reset()]
    assert all(np.array_equal(x, y) for x, y in zip(first, b.reset(), strict=True))
    assert not np.array_equal(first[0], c.reset()[0])
    rng = np.random.default_rng(3)
    for _ in range(60):
        actions = random_actions(rng, a.mask)
        for x, y in zip(a.step(actions), b.step(actions), strict=True):
            assert np.array_equal(x, y)
    assert all(np.array_equal(x, y) for x, y in zip(first, a.reset(seed=7), strict=True))


def test_a_waiting_slot_stays_as_it_is_while_the_others_play(make: Callable[..., Any]) -> None:
    """WAIT (-1) leaves a game untouched for a step (no reward, no flag, same rows, same
    position); the other slots play exactly as in a vector where nobody waits (ER-ENV-8 still
    checks their actions)."""
    a, b = make(num_envs=3, seed=11), make(num_envs=3, seed=11)
    a.reset()
    b.reset()
    rng = np.random.default_rng(12)
    waits = 0
    for step in range(200):
        actions = random_actions(rng, a.mask)
        waiting = step % 3 == 0
        held = [x[1].copy() for x in (a.obs, a.mask, a.agent)], a.get_state(1)
        a_actions = actions.copy()
        if waiting:
            a_actions[1] = a.WAIT
            waits += 1
        out_a = a.step(a_actions)
        if waiting:
            assert [np.array_equal(x[1], y) for x, y in zip(out_a[:3], held[0], strict=True)]
            assert all(np.array_equal(x[1], y) for x, y in zip(out_a[:3], held[0], strict=True))
            assert a.get_state(1) == held[1]
            assert not out_a[3][1].any() and not out_a[4][1] and not out_a[5][1]
        else:
            b_actions = b.mask.argmax(1)
            b_actions[1] = actions[1]
            b.step(b_actions)
            assert a.get_state(1) == b.get_state(1)
    assert waits > 0
    with pytest.raises(IllegalActionError):
        a.step(np.full(3, -2))


def test_a_slots_position_and_seed_state_continue_its_games_in_another_vector(
    make: Callable[..., Any],
) -> None:
    """A resumed run: a slot's position plus its seed state, put into another vector's
    slot, play on exactly as the first slot does, through the auto-reset of its next games."""
    a, b = make(num_envs=3, seed=5), make(num_envs=3, seed=99)
    a.reset()
    b.reset()
    rng = np.random.default_rng(6)
    for _ in range(40):
        a.step(random_actions(rng, a.mask))
    b.set_state(1, a.get_state(2))
    b.set_seed_state(1, a.seed_state(2))
    assert b.seed_state(1) == a.seed_state(2) != a.seed_state(1)
    finished = 0
    for _ in range(3000):
        actions = random_actions(rng, a.mask)
        b_actions = b.mask.argmax(1)
        b_actions[1] = actions[2]
        out_a, out_b = a.step(actions), b.step(b_actions)
        for x, y in zip(out_a, out_b, strict=True):
            assert np.array_equal(x[2], y[1])
        finished += int(out_a[4][2] or out_a[5][2])
        if finished >= 2:
            break
    assert finished >= 2, "slot 2 should have finished two games and started the next ones"
    with pytest.raises(ValueError, match="seed state"):
        b.set_seed_state(0, -1)


def test_results_do_not_depend_on_num_threads(make: Callable[..., Any]) -> None:
    """Step can use every core; the results are the same for any num_threads."""
    one, two = make(num_envs=6, seed=3, num_threads=1), make(num_envs=6, seed=3, num_threads=2)
    one.reset()
    two.reset()
    rng = np.random.default_rng(4)
    for _ in range(80):
        actions = random_actions(rng, one.mask)
        for x, y in zip(one.step(actions), two.step(actions), strict=True):
            assert np.array_equal(x, y)
    assert [one.get_state(i) for i in range(6)] == [two.get_state(i) for i in range(6)]


def test_positions_go_out_and_in_as_the_env_has_them(make: Callable[..., Any]) -> None:
    """get_state(i) is env.unwrapped's position; set_state(j, it) plays on as slot i does, its
    rows rewritten (docs/position_format.md)."""
    venv = make(num_envs=3, seed=9)
    venv.reset()
    rng = np.random.default_rng(5)
    for _ in range(25):
        venv.step(random_actions(rng, venv.mask))
    position = venv.get_state(0)
    env = earth_reborn_v0.env(backend="python")
    env.unwrapped.set_state(position)
    assert env.unwrapped.get_state() == position
    venv.set_state(2, position)
    assert venv.get_state(2) == position
    assert np.array_equal(venv.obs[2], venv.obs[0]) and np.array_equal(venv.mask[2], venv.mask[0])
    assert venv.agent[2] == venv.agent[0]
    for _ in range(30):
        actions = random_actions(rng, venv.mask)
        actions[2] = actions[0]
        venv.step(actions)
        if venv.terminated[0] or venv.truncated[0]:
            break
        assert venv.get_state(2) == venv.get_state(0)


def snapshot(venv: Any) -> tuple[Any, ...]:
    arrays = tuple(x.copy() for x in (venv.obs, venv.mask, venv.agent))
    return arrays, [venv.get_state(i) for i in range(venv.num_envs)]


def assert_unchanged(venv: Any, before: tuple[Any, ...]) -> None:
    arrays, states = snapshot(venv)
    assert all(np.array_equal(x, y) for x, y in zip(arrays, before[0], strict=True))
    assert states == before[1], "ER-ENV-8: nothing changed"


def test_an_illegal_action_is_refused_naming_the_slot_with_nothing_changed(
    make: Callable[..., Any],
) -> None:
    """ER-ENV-8: every action is checked before any is applied; an illegal one raises naming the
    slot, with the AEC env's words (the decision and the legal actions)."""
    venv = make(num_envs=3, seed=1)
    venv.reset()
    rng = np.random.default_rng(6)
    for _ in range(10):
        venv.step(random_actions(rng, venv.mask))
    before = snapshot(venv)
    actions = random_actions(rng, venv.mask)
    bad = int(np.flatnonzero(venv.mask[1] == 0)[0])
    actions[1] = bad
    env = earth_reborn_v0.env(backend="python")
    env.unwrapped.set_state(venv.get_state(1))
    with pytest.raises(IllegalActionError) as expected:
        env.step(bad)
    with pytest.raises(IllegalActionError) as refused:
        venv.step(actions)
    assert str(refused.value) == f"slot 1: {expected.value}"
    assert_unchanged(venv, before)
    for wrong in (-2, venv.n_actions, 2**40):  # -1 is WAIT
        actions[1] = wrong
        with pytest.raises(IllegalActionError, match=f"^slot 1: illegal action {wrong} at"):
            venv.step(actions)
        assert_unchanged(venv, before)
    for shape_or_type in [actions[:2], actions.astype(np.float64), actions.astype(bool)]:
        with pytest.raises(ValueError, match="actions must be integers"):
            venv.step(shape_or_type)
    assert_unchanged(venv, before)


def test_a_bad_position_is_refused_as_the_env_refuses_it(make: Callable[..., Any]) -> None:
    """set_state validates with the env's reader: the same PositionError naming the field, and
    nothing changed; a finished game is no game in progress for a slot (ER-ENV-9)."""
    venv = make(num_envs=2, seed=4)
    venv.reset()
    before = snapshot(venv)
    position = venv.get_state(0)
    env = earth_reborn_v0.env(backend="python")
    env.reset(seed=0)
    for bad in [
        {**position, "turn": 99},
        {**position, "scenario": "elsewhere"},
        {k: v for k, v in position.items() if k != "bag"},
        "not a position",
    ]:
        with pytest.raises(PositionError) as expected:
            env.unwrapped.set_state(bad)
        with pytest.raises(PositionError) as refused:
            venv.set_state(1, bad)
        assert str(refused.value) == str(expected.value)
        assert_unchanged(venv, before)
    played = make(num_envs=1, seed=0, max_steps=3)
    played.reset()
    for _ in range(2):
        played.step(random_actions(np.random.default_rng(0), played.mask))
    two_steps = played.get_state(0)
    assert two_steps["steps"] == 2
    short = make(num_envs=2, seed=4, max_steps=2)
    short.reset()
    with pytest.raises(ValueError, match="finished game"):
        short.set_state(1, two_steps)
    with pytest.raises(ValueError, match="game index must be 0..1"):
        venv.set_state(2, position)
    assert_unchanged(venv, before)


def test_options_are_checked_as_env_checks_them(make: Callable[..., Any]) -> None:
    """Options as env(): the same errors for scenario and max_steps (ER-ENV-9); the vector's own
    sizes are positive integers, the seed a 64-bit one; only illegal_action='raise'."""
    for options in [{"max_steps": 0}, {"scenario": "no_such_scenario"}]:
        with pytest.raises(Exception) as expected:
            earth_reborn_v0.env(backend="python", **options)
        with pytest.raises(type(expected.value)) as refused:
            make(num_envs=2, **options)
        assert str(refused.value) == str(expected.value)
    for options, words in [
        ({"num_envs": 0}, "num_envs must be >= 1"),
        ({"num_threads": 0}, "num_threads must be >= 1"),
        ({"seed": -1}, "seed must be 0.."),
        ({"seed": 2.5}, "seed must be an integer"),
        ({"illegal_action": "penalize"}, "only raises"),
    ]:
        with pytest.raises(ValueError, match=words):
            make(**{"num_envs": 2, **options})
    venv = make(num_envs=2)
    with pytest.raises(RuntimeError, match="call reset"):
        venv.step(np.zeros(2, np.int64))


def test_every_backend_is_the_game_vector_of_the_aec_envs(make: Callable[..., Any]) -> None:
    """The compiled core, ReferenceGames and the core's path over ReferenceGames are each a
    ``core.vector_env.GameVector`` that plays as AECVectorEnv over the env on every method of it
    (ER-ENV-1, -8, -9)."""
    from reborn_env.core.aec_vector import AECVectorEnv
    from tests.conformance.test_vector_protocol import check_alike

    looped = AECVectorEnv(earth_reborn_v0.env, 3, seed=13, max_steps=200)
    check_alike(make(num_envs=3, seed=13, max_steps=200), looped, steps=250, seed=4)
