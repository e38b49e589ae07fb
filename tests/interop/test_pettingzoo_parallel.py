"""Every registered game through PettingZoo's turn-based conversion to its parallel API:
PettingZoo's own parallel checks pass, and masked play of a whole game is the AEC game's.

``turn_based_aec_to_parallel`` asks every live agent for an action at each step and applies only
the one of the agent to move (whose mask is the only non-empty one); it takes the dead steps at
the end itself, so the parallel episode ends with the game.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo import ParallelEnv
from pettingzoo.test import parallel_api_test, parallel_seed_test
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from reborn_env.core import registry

from .helpers import GAMES, SEED, Decision, assert_same_game, legal_choice, step_limit


def parallel(name: str, **options: object) -> ParallelEnv:
    """The game's AEC env (built with ``options``) as PettingZoo's turn-based parallel env."""
    return turn_based_aec_to_parallel(registry.get(name).make_env(**options))


@pytest.mark.parametrize("name", GAMES)
def test_parallel_api_test(name: str) -> None:
    """PettingZoo's parallel contract, with its masked random actions, over whole games; it
    warns of nothing."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        parallel_api_test(parallel(name), num_cycles=step_limit(name))


@pytest.mark.parametrize("name", GAMES)
def test_parallel_seed_test(name: str) -> None:
    """The same seed gives the same parallel episode. PettingZoo's seed test draws its actions
    without the mask, so the envs refuse them PettingZoo's way (``illegal_action="penalize"``:
    the game ends, the offender gets -1) rather than by raising."""
    parallel_seed_test(lambda: parallel(name, illegal_action="penalize"))


@pytest.mark.parametrize("name", GAMES)
def test_masked_parallel_play_is_the_aec_game(name: str) -> None:
    """Each step every live agent sends an action drawn from its own mask (0 when it is not to
    move): the episode is the AEC game's, decision for decision, and ends when it ends."""
    env = parallel(name)
    rng = np.random.default_rng(SEED)
    observations, infos = env.reset(seed=SEED)
    assert set(observations) == set(infos) == set(env.possible_agents)
    decisions = []
    while env.agents:
        masks = {a: observations[a]["action_mask"].astype(bool) for a in env.agents}
        to_move = [a for a, mask in masks.items() if mask.any()]
        assert len(to_move) == 1, f"exactly one agent has legal actions: {to_move}"
        actions = {a: legal_choice(rng, masks[a]) for a in env.agents}
        mover = to_move[0]
        seen = observations[mover]["observation"]
        observations, rewards, terminations, truncations, infos = env.step(actions)
        decisions.append(Decision(mover, seen, masks[mover], actions[mover], dict(rewards)))
        assert len(decisions) <= step_limit(name)
    assert_same_game(name, SEED, decisions)
    assert all(terminations[a] or truncations[a] for a in env.possible_agents)
