"""What a game registers is what the conformance suite needs: the environment over the contract
and the hooks (per-step check, eventful policy, step bound, hidden-information variant)."""

from __future__ import annotations

import pytest

from reborn_env.core import registry
from reborn_env.core.contract import STATUSES
from reborn_env.core.game_env import GameEnv

from .harness import GAMES, required


@pytest.mark.parametrize("name", GAMES)
def test_the_game_is_the_one_environment_over_the_contract(name: str) -> None:
    """``GameEnv`` given the game's Rules: the suite reads the match behind it (hidden
    information) and its positions, and the environment's name is the registered one."""
    env = registry.get(name).make_env()
    assert isinstance(env.unwrapped, GameEnv)
    assert env.metadata["name"] == env.unwrapped.rules.name == name
    assert env.possible_agents == list(env.unwrapped.rules.agents)
    env.reset(seed=0)
    assert env.unwrapped.match.status() in STATUSES


@pytest.mark.parametrize("name", GAMES)
def test_the_game_gives_every_hook_the_suite_needs(name: str) -> None:
    """Required of every registered game (none is skipped for lack of one): the per-step check,
    the eventful policy, a bound on a game's decisions and the hidden-information variant."""
    for hook in ("step_check", "busy", "hidden"):
        assert callable(required(name, hook))
    facts = registry.get(name).facts
    assert facts.max_game_length > 0, f"{name} registers no GameFacts.max_game_length"
