"""Copies of what the compiled core plays, on either backend: a match whose game was handed over
to the reference engine (its ``state`` read) copies and pickles with the engine's state and stays
handed over; a half-built FastMatch is let go quietly; the vector env pickles and deep-copies
(each slot's position and seed generator state stand for the core's games) and plays on exactly
as the original; its ``reset(seed)`` then ``reset()`` continues the slots' generators as a vector
made with that seed does. (Every registered game's AEC env is held to copying in
tests/conformance/test_copies.py.)
"""

from __future__ import annotations

import copy
import gc
import pickle
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from reborn_env import earth_reborn_v0
from reborn_env.games.earth_reborn import positions
from reborn_env.games.earth_reborn.fast.match import FastMatch
from reborn_env.games.earth_reborn.fast.reference import ReferenceGames
from tests.earth_reborn.fast.differential import new_games, reference_rules

BACKENDS = ["fast", "python"]
COPIERS: dict[str, Callable[[Any], Any]] = {
    "deepcopy": copy.deepcopy,
    "pickle": lambda thing: pickle.loads(pickle.dumps(thing)),
}


def random_actions(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(row)) for row in mask], dtype=np.int64)


def play_both(env: Any, twin: Any, decisions: int, seed: int) -> None:
    """The same uniform legal actions in ``env`` and ``twin`` (ER-ENV-10), which must show the
    same position, agent, rewards and observation after each."""
    rng = np.random.default_rng(seed)
    for _ in range(decisions):
        agent = env.agent_selection
        assert twin.agent_selection == agent
        if env.terminations[agent] or env.truncations[agent]:
            return
        view, twin_view = env.observe(agent), twin.observe(agent)
        for key in view:
            assert np.array_equal(view[key], twin_view[key]), key
        action = int(rng.choice(np.flatnonzero(view["action_mask"])))
        env.step(action)
        twin.step(action)
        assert env.get_state() == twin.get_state() and env.rewards == twin.rewards


@pytest.mark.parametrize("how", COPIERS)
def test_a_handed_over_match_copies_handed_over(core: Any, how: str) -> None:
    """Once ``env.game`` is read the reference engine plays the match on; a copy plays on the
    same, on a state of its own (stepping the copy leaves the original's live state alone)."""
    env = earth_reborn_v0.env(backend="fast", mp_shaping=0.1)
    env.reset(seed=4)
    play_both(env, copy.deepcopy(env), 20, seed=1)
    live = env.game
    clone = COPIERS[how](env)
    assert clone.match._reference is not None and clone.game is not live
    before = env.get_state()
    play_both(clone, copy.deepcopy(clone), 40, seed=2)
    assert env.get_state() == before and env.game is live
    twin = COPIERS[how](env)
    play_both(env, twin, 400, seed=3)


@pytest.mark.parametrize("backend", BACKENDS)
def test_mp_shaping_of_the_last_step_is_copied(core: Any, backend: str) -> None:
    """The match's shaping of its last step (what ``shaped_rewards`` answers) comes along."""
    env = earth_reborn_v0.env(backend=backend, mp_shaping=0.5)
    env.reset(seed=9)
    rng = np.random.default_rng(0)
    while not env.match.shaped_rewards() or not any(env.match.shaped_rewards()):
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    for copier in COPIERS.values():
        assert list(copier(env).match.shaped_rewards()) == list(env.match.shaped_rewards())


def test_a_half_built_fast_match_is_let_go_quietly(core: Any) -> None:
    """A FastMatch whose building stopped before its rules (a failed unpickling) gives nothing
    back to any spares when it goes, and raises nothing."""
    match = FastMatch.__new__(FastMatch)
    match.__del__()
    del match
    gc.collect()


@pytest.fixture(params=BACKENDS)
def make_vector(request: pytest.FixtureRequest, core: Any) -> Callable[..., Any]:
    return lambda **kw: earth_reborn_v0.vector_env(backend=request.param, **kw)


def step_both(vector: Any, twin: Any, steps: int, seed: int) -> None:
    """The same legal actions in both vectors, whose every output, position and seed generator
    state must agree after each step."""
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        actions = random_actions(rng, vector.mask)
        for x, y in zip(vector.step(actions), twin.step(actions), strict=True):
            assert np.array_equal(x, y)
    for i in range(vector.num_envs):
        assert vector.get_state(i) == twin.get_state(i)
        assert vector.seed_state(i) == twin.seed_state(i)


@pytest.mark.parametrize("how", COPIERS)
def test_the_vector_env_copies_and_plays_on_exactly(make_vector: Callable, how: str) -> None:
    copier = COPIERS[how]
    vector = make_vector(num_envs=3, seed=8, max_steps=200)
    unstarted = copier(vector)
    for x, y in zip(vector.reset(), unstarted.reset(), strict=True):
        assert np.array_equal(x, y)
    step_both(vector, unstarted, 150, seed=1)
    clone = copier(vector)
    assert clone._games is not vector._games
    for x, y in zip(
        (vector.obs, vector.mask, vector.agent), (clone.obs, clone.mask, clone.agent), strict=True
    ):
        assert np.array_equal(x, y) and x is not y
    step_both(vector, clone, 400, seed=2)  # games end and are replaced from the generators
    for x, y in zip(vector.reset(), clone.reset(), strict=True):
        assert np.array_equal(x, y)


def test_a_copy_of_the_vector_env_is_independent(make_vector: Callable) -> None:
    vector = make_vector(num_envs=2, seed=3)
    vector.reset()
    clone = copy.deepcopy(vector)
    positions = [vector.get_state(i) for i in range(2)]
    step_both(clone, copy.deepcopy(clone), 30, seed=4)
    assert [vector.get_state(i) for i in range(2)] == positions


def test_a_vectors_unseeded_reset_continues_its_seeded_generators(make_vector: Callable) -> None:
    """``reset(seed=s)`` then ``reset()`` plays what a vector made with seed ``s`` plays at its
    first two resets, whatever the vector played before."""
    made = make_vector(num_envs=3, seed=6)
    first, second = [np.copy(a) for a in made.reset()], [np.copy(a) for a in made.reset()]
    states = [made.get_state(i) for i in range(3)]
    reseeded = make_vector(num_envs=3, seed=1)
    reseeded.reset()
    reseeded.step(random_actions(np.random.default_rng(0), reseeded.mask))
    for x, y in zip(reseeded.reset(seed=6), first, strict=True):
        assert np.array_equal(x, y)
    for x, y in zip(reseeded.reset(), second, strict=True):
        assert np.array_equal(x, y)
    assert [reseeded.get_state(i) for i in range(3)] == states


@pytest.mark.parametrize("games_kind", ["compiled", "reference"])
def test_copy_slot_copies_a_game_between_games_of_one_scenario(
    fast_games: type, games_kind: str
) -> None:
    """``copy_slot(i, other, j)`` (a match's deep copy, no Python state made): slot ``i`` then
    holds slot ``j``'s game, equal and independent; a Games of another scenario or kind, or an
    empty slot, is refused with the target slot unchanged."""
    games_class = fast_games if games_kind == "compiled" else ReferenceGames
    other_class = ReferenceGames if games_kind == "compiled" else fast_games
    rules = reference_rules()
    source, target = new_games(games_class, rules, 2, 5), new_games(games_class, rules, 2, 6)
    source.new_game(1, 11)
    target.new_game(0, 12)
    rng = np.random.default_rng(0)
    for _ in range(30):  # a game under way in the source's slot 1, by legal actions (ER-ENV-10)
        source.apply(1, int(rng.choice(source.legal(1))))
    target.copy_slot(0, source, 1)
    assert position(target, 0) == position(source, 1)
    target.apply(0, target.legal(0)[0])
    assert position(target, 0) != position(source, 1)
    before = position(target, 0)
    elsewhere = copy.deepcopy(rules.scenario)  # equal, but not this Games' scenario
    refused = [
        (object(), 0),
        (new_games(other_class, rules, 1, 0), 0),
        (games_class(elsewhere, *new_games_args(rules)), 0),
    ]
    for wrong, j in refused:
        with pytest.raises(ValueError, match="copy_slot"):
            target.copy_slot(0, wrong, j)
    with pytest.raises(ValueError, match="holds no game"):
        target.copy_slot(0, source, 0)
    assert position(target, 0) == before


def position(games: Any, i: int) -> dict[str, Any]:
    """Slot ``i``'s position (docs/position_format.md)."""
    return positions.state_to_dict(games.dump(i))


def new_games_args(rules: Any) -> tuple:
    """What ``Games`` takes after its scenario, for one slot of ``rules``' options."""
    return (rules.codec, rules.observer.layout, 1, rules.max_steps, rules.mp_shaping, 0)
