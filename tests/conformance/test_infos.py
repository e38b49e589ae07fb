"""Every value a registered game puts in ``infos`` is one a trainer's buffer can store.

TorchRL's PettingZoo wrapper builds a tensor spec from each info value and Tianshou's buffer
stacks them into arrays: both refuse a list of dicts. So, by default, every value in ``infos`` is
a number, a NumPy array or a string, at every step of uniform and eventful play and after a
refused action in ``penalize`` mode (which reports why in ``infos``).
"""

from __future__ import annotations

import numbers

import numpy as np
import pytest

from .harness import CASES, Case, play, policies

GAMES_PER_POLICY = 3


def unsafe_values(infos: dict[str, dict]) -> list[str]:
    """``agent.key (type)`` for each info value that is not a number, an array or a string."""
    return [
        f"{agent}.{key} ({type(value).__name__})"
        for agent, told in infos.items()
        for key, value in told.items()
        if not isinstance(value, numbers.Number | np.ndarray | np.generic | str)
    ]


def test_the_check_finds_a_list_of_dicts() -> None:
    """The check itself: an event feed, as a game could hand it out, is found."""
    assert unsafe_values({"a": {"events": [{"type": "MOVE"}], "n": 3, "s": "x"}}) == [
        "a.events (list)"
    ]


@pytest.mark.parametrize("case", CASES, ids=str)
@pytest.mark.parametrize("policy", ["uniform", "busy"])
def test_infos_hold_only_numbers_arrays_and_strings(case: Case, policy: str) -> None:
    env = case.make_env()
    steps = 0
    for seed in range(GAMES_PER_POLICY):
        env.reset(seed=seed)
        assert unsafe_values(env.infos) == []
        for _ in play(env, np.random.default_rng(seed), policies(case.name)[policy]):
            assert unsafe_values(env.infos) == [], f"after {steps} steps"
            steps += 1
    assert steps > 0


@pytest.mark.parametrize("case", CASES, ids=str)
def test_a_penalized_action_is_reported_as_a_string(case: Case) -> None:
    env = case.make_env(illegal_action="penalize")
    env.reset(seed=0)
    agent = env.agent_selection
    env.step(int(env.action_space(agent).n))  # one past the last action: never legal
    assert isinstance(env.infos[agent]["illegal_action"], str)
    assert unsafe_values(env.infos) == []
