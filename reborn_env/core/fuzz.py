"""Random legal play through any masked AEC environment, with a check after every step.

Shared by the test suites and ``benchmarks/fuzz.py`` (the 10,000-game nightly mode): the policy
only ever picks actions its mask allows, the check sees the environment before each decision, and
the report says how the games ended so a caller can assert zero-sum returns and bounded length.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from pettingzoo import AECEnv

Policy = Callable[[np.random.Generator, np.ndarray, AECEnv], int]


def uniform_policy(rng: np.random.Generator, mask: np.ndarray, env: AECEnv) -> int:
    """Any legal action, uniformly."""
    return int(rng.choice(np.flatnonzero(mask)))


@dataclass
class FuzzReport:
    """What the games did: per-game returns and lengths."""

    returns: list[dict[str, float]] = field(default_factory=list)
    lengths: list[int] = field(default_factory=list)
    truncated: int = 0

    @property
    def steps(self) -> int:
        return sum(self.lengths)


def play_random_games(
    env: AECEnv,
    seeds: range,
    policy: Policy = uniform_policy,
    check: Callable[[AECEnv, str], None] | None = None,
) -> FuzzReport:
    """Play one game per seed; ``check(env, agent)`` runs before every live decision."""
    report = FuzzReport()
    for seed in seeds:
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        returns = dict.fromkeys(env.possible_agents, 0.0)
        length = 0
        truncated = False
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            returns[agent] += reward
            if term or trunc:
                truncated |= trunc
                env.step(None)
                continue
            mask = obs["action_mask"]
            if not mask.any():
                raise AssertionError(
                    f"seed {seed}: empty action mask for {agent} in a running game"
                )
            if check is not None:
                check(env, agent)
            env.step(policy(rng, mask, env))
            length += 1
        report.returns.append(returns)
        report.lengths.append(length)
        report.truncated += truncated
    return report


def check_masks(env: AECEnv, agent: str, legal: Sequence[int], rule: str) -> None:
    """The deciding agent's mask is exactly ``legal`` (int8); every other agent's is all zeros."""
    mask = env.observe(agent)["action_mask"]
    if mask.dtype != np.int8 or np.flatnonzero(mask).tolist() != list(legal):
        raise AssertionError(f"{rule}: the mask differs from the engine's legal set")
    for other in env.agents:
        if other != agent and env.observe(other)["action_mask"].any():
            raise AssertionError(f"the mask of {other}, who is not deciding, is not all zeros")
