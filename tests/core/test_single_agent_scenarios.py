"""SingleAgentEnv on every bundled scenario of every game: an opponent named by a spec string is
made for the scenario of ``env_kwargs`` (a game's own bot reads that scenario's observation), a
policy that does not fit the scenario's sizes is refused when the env is built, and an unknown
scenario is a ValueError listing the bundled ones. Games and scenarios come from the registry.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from reborn_env.core import registry
from reborn_env.wrappers import SingleAgentEnv
from tests.frontends.test_scenarios import (
    BAD_NAME,
    CASES,
    IDS,
    OTHER_SIZES,
    policy_for_default_sizes,
    sizes,
)


@pytest.mark.parametrize(("game", "scenario"), CASES, ids=IDS)
def test_a_whole_episode_of_each_scenario_against_the_heuristic_bot(
    game: str, scenario: str
) -> None:
    env = SingleAgentEnv(game, opponent="heuristic", env_kwargs={"scenario": scenario})
    assert env.observation_space.shape == (sizes(game, scenario)[0],)
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=3)
    opponent_moves, done = info["opponent_moves"], False
    while not done:
        assert obs in env.observation_space
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        obs, reward, terminated, truncated, info = env.step(action)
        opponent_moves += info["opponent_moves"]
        done = terminated or truncated
    assert opponent_moves > 0 and not env.action_masks().any()
    assert env.aec.unwrapped.get_state()["scenario"] == scenario
    assert -1.0 <= reward <= 1.0


@pytest.mark.parametrize("game", sorted({game for game, _ in CASES}))
def test_an_unknown_scenario_is_refused_naming_the_bundled_ones(game: str) -> None:
    with pytest.raises(ValueError) as refused:
        SingleAgentEnv(game, opponent="heuristic", env_kwargs={"scenario": BAD_NAME})
    for name in registry.get(game).scenario_names():
        assert name in str(refused.value)


@pytest.mark.parametrize(("game", "scenario"), OTHER_SIZES, ids=[":".join(c) for c in OTHER_SIZES])
def test_a_policy_opponent_of_other_sizes_is_refused(
    game: str, scenario: str, tmp_path: Path
) -> None:
    policy = str(policy_for_default_sizes(game, tmp_path / "policy.pt"))
    assert SingleAgentEnv(game, opponent=policy).opponent is not None  # its own scenario: fine
    with pytest.raises(ValueError, match=f"scenario {scenario!r} gives {sizes(game, scenario)[0]}"):
        SingleAgentEnv(game, opponent=policy, env_kwargs={"scenario": scenario})
