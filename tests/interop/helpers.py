"""What the library bridges' tests share: the games, a masked random choice, and the same game
replayed on the plain AEC env, so a library's trajectory can be held against the game's own.

Each test plays a whole game through a library's wrapper from a known seed, records every
decision (who moved, what it saw, the mask, the action, every agent's reward of the step) and
hands the record to :func:`assert_same_game`, which replays the actions on ``env()`` from the
same seed: the library must have shown the same observations and masks, passed the actions on
unchanged (the replay refuses an illegal one), paid the same rewards and ended where the game
ends.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pytest

from reborn_env.core import registry

GAMES = registry.names()  # the bundled games and the test games tests/conftest.py registered
SEED = 7  # the seed of every game the bridges' tests play


@dataclass
class Decision:
    """One decision as a library reported it."""

    agent: str
    observation: np.ndarray
    mask: np.ndarray  # True where legal
    action: int
    rewards: dict[str, float] = field(default_factory=dict)  # each agent's reward of the step


def legal_choice(rng: np.random.Generator, mask: np.ndarray) -> int:
    """A uniformly drawn legal action of ``mask``; 0 when nothing is legal (an agent that is not
    to move, whose action a turn-based wrapper ignores)."""
    legal = np.flatnonzero(mask)
    return int(rng.choice(legal)) if len(legal) else 0


def step_limit(name: str) -> int:
    """More decisions than any game of ``name`` takes (its registered bound, if known)."""
    return registry.get(name).facts.max_game_length or 100_000


def assert_same_game(name: str, seed: int, decisions: Sequence[Decision]) -> dict[str, float]:
    """Replay ``decisions``' actions on the game's own env reset with ``seed`` and check that the
    library showed what the env shows, paid what it pays and stopped where the game ends; the
    agents' returns over the game."""
    env = registry.get(name).make_env()
    env.reset(seed=seed)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    assert decisions, "the library reported no decision"
    for i, decision in enumerate(decisions):
        where = f"{name}, seed {seed}, decision {i}"
        assert env.agents and not any(env.terminations.values()), f"{where}: the game had ended"
        agent = env.agent_selection
        seen = env.observe(agent)
        assert decision.agent == agent, f"{where}: the library moved {decision.agent}, not {agent}"
        np.testing.assert_array_equal(decision.observation, seen["observation"], err_msg=where)
        np.testing.assert_array_equal(decision.mask, seen["action_mask"].astype(bool), where)
        assert decision.mask[decision.action], f"{where}: illegal action {decision.action}"
        env.step(decision.action)
        paid = {a: float(env.rewards.get(a, 0.0)) for a in env.possible_agents}
        assert decision.rewards == pytest.approx(paid), f"{where}: the env paid {paid}"
        for a in returns:
            returns[a] += paid[a]
    ended = all(env.terminations[a] or env.truncations[a] for a in env.agents)
    assert ended, f"{name}, seed {seed}: the game goes on after {len(decisions)} decisions"
    return returns
