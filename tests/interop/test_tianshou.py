"""Tianshou on every registered game: its ``PettingZooEnv`` wrapper in a ``DummyVectorEnv``, and a
``Collector`` driving Tianshou's masked random multi-agent policy collects whole games, each the
game its own env plays from the same seed.

Tianshou 2.0 gives one observation per step, ``{"agent_id", "obs", "mask"}`` for the agent to
move, every agent's reward of the step as one vector, and a buffer that stores the infos as
arrays (which is why every info value must be a number, an array or a string).
"""

from __future__ import annotations

import numpy as np
import pytest
from tianshou.algorithm.multiagent.marl import MultiAgentOffPolicyAlgorithm
from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm
from tianshou.data import Batch, Collector, VectorReplayBuffer
from tianshou.env import DummyVectorEnv, PettingZooEnv

from reborn_env.core import registry

from .helpers import GAMES, SEED, Decision, assert_same_game, step_limit

ENVS = 3


def wrapped(name: str) -> PettingZooEnv:
    """The game's AEC env as Tianshou wraps it."""
    return PettingZooEnv(registry.get(name).make_env())


def masked_random_players(env: PettingZooEnv) -> MultiAgentOffPolicyAlgorithm:
    """Tianshou's random player that draws from the mask, one per agent."""
    players = [MARLRandomDiscreteMaskedOffPolicyAlgorithm(env.action_space) for _ in env.agents]
    return MultiAgentOffPolicyAlgorithm(algorithms=players, env=env)


def decisions_of(env: PettingZooEnv, episode: Batch) -> list[Decision]:
    """The game's decisions, one per transition of the episode's buffer."""
    return [
        Decision(
            agent=str(step.obs.agent_id),
            observation=step.obs.obs,
            mask=np.asarray(step.obs.mask, bool),
            action=int(step.act),
            rewards={agent: float(step.rew[i]) for agent, i in env.agent_idx.items()},
        )
        for step in episode
    ]


@pytest.mark.parametrize("name", GAMES)
def test_a_collector_plays_whole_games(name: str) -> None:
    """``ENVS`` games, one per env, each reset with the same seed and played by the masked
    random policy: every transition is the game's own, and the collector's episode lengths and
    returns are the games'."""
    env = wrapped(name)
    venv = DummyVectorEnv([lambda: wrapped(name) for _ in range(ENVS)])
    buffer = VectorReplayBuffer(ENVS * step_limit(name), ENVS)
    collector = Collector(masked_random_players(env), venv, buffer)
    collector.reset(gym_reset_kwargs={"seed": SEED})
    drawn = np.random.get_state()
    np.random.seed(SEED)  # the random player draws from NumPy's global generator
    try:
        stats = collector.collect(n_episode=ENVS)
    finally:
        np.random.set_state(drawn)
    assert stats.n_collected_episodes == ENVS
    episodes = []
    for part in buffer.buffers:
        episode = part[np.arange(len(part))]
        assert episode.done[-1] and not episode.done[:-1].any(), "one whole game per env"
        returns = assert_same_game(name, SEED, decisions_of(env, episode))
        episodes.append((len(episode), [returns[a] for a in env.agents]))
    assert sorted(episodes) == sorted(zip(stats.lens.tolist(), stats.returns.tolist(), strict=True))


def collected_games(name: str, episodes: int) -> tuple[list[int], np.ndarray, np.ndarray]:
    """A fresh collector seeded once, as Tianshou users seed it, collecting ``episodes`` whole
    games over ``ENVS`` envs (the games after the first of each env come from unseeded resets):
    the episode lengths, returns and every observation it stored."""
    env = wrapped(name)
    venv = DummyVectorEnv([lambda: wrapped(name) for _ in range(ENVS)])
    buffer = VectorReplayBuffer(episodes * step_limit(name), ENVS)
    collector = Collector(masked_random_players(env), venv, buffer)
    collector.reset(gym_reset_kwargs={"seed": SEED})
    drawn = np.random.get_state()
    np.random.seed(SEED)
    try:
        stats = collector.collect(n_episode=episodes)
    finally:
        np.random.set_state(drawn)
    stored = buffer[np.arange(len(buffer))]
    return stats.lens.tolist(), stats.returns, np.asarray(stored.obs.obs)


@pytest.mark.parametrize("name", GAMES)
def test_a_collector_seeded_once_plays_the_same_games_on_every_run(name: str) -> None:
    """Tianshou seeds each env's first reset and resets unseeded after: the later games continue
    the env's generator (Gymnasium's convention), so two runs collect the very same games."""
    first = collected_games(name, 2 * ENVS)
    second = collected_games(name, 2 * ENVS)
    assert first[0] == second[0]
    np.testing.assert_array_equal(first[1], second[1])
    np.testing.assert_array_equal(first[2], second[2])
