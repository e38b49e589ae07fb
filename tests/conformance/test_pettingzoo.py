"""PettingZoo's own tests (api, seed, render: every mode the env declares) on every registered
game, and Gymnasium's check_env on one seat of it as ``gymnasium.make`` gives it."""

from __future__ import annotations

import warnings

import gymnasium
import pettingzoo
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, render_test, seed_test

import reborn_env.envs  # registers every game with PettingZoo and Gymnasium
from reborn_env.core import registry

from .harness import CASES, GAMES, Case


@pytest.mark.parametrize("name", GAMES)
def test_api_test_through_pettingzoo_make(name: str) -> None:
    """The AEC contract (spaces, masks, last(), dead steps) on the env PettingZoo's registry
    gives, which is the game's own."""
    env = pettingzoo.make("aec", reborn_env.envs.pettingzoo_id(name))
    assert type(env) is type(registry.get(name).make_env())
    api_test(env, num_cycles=300)


@pytest.mark.parametrize("case", [c for c in CASES if c.scenario], ids=str)
def test_api_test_on_every_other_bundled_scenario(case: Case) -> None:
    """The AEC contract on each scenario a game bundles besides its default (that one goes
    through PettingZoo's registry above)."""
    api_test(case.make_env(), num_cycles=300)


def test_every_bundled_scenario_is_a_case() -> None:
    """The suite runs on every scenario each game bundles, not only on its default, and on the
    ones its registration adds (``more_scenarios``)."""
    for name in GAMES:
        spec = registry.get(name)
        covered = {c.scenario or spec.default_scenario for c in CASES if c.name == name}
        bundled = set(spec.scenario_names()) | {spec.default_scenario}
        assert covered == bundled | set(spec.more_scenarios), name


@pytest.mark.parametrize("case", CASES, ids=str)
def test_seed_test(case: Case) -> None:
    """The same seed gives the same game: observations, rewards, masks and infos."""
    seed_test(case.make_env, num_cycles=300)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_render_test_in_every_declared_mode(case: Case) -> None:
    modes = case.make_env().metadata["render_modes"]
    assert {"ansi", "rgb_array"} <= set(modes), modes
    render_test(case.make_env)


@pytest.mark.parametrize("name", GAMES)
def test_check_env_on_one_seat_through_gymnasium_make(name: str) -> None:
    """check_env on exactly what ``gymnasium.make(id)`` gives (render modes included, through the
    registered spec), whose action_space.sample() ignores the mask; its only warning is that
    gymnasium.make's own wrappers are around it."""
    env = gymnasium.make(reborn_env.envs.gymnasium_id(name))
    assert env.unwrapped.game == name
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env)
    messages = [str(w.message) for w in caught]
    assert len(messages) == 1 and "different from the unwrapped version" in messages[0], messages
