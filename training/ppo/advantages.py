"""Generalised advantage estimation over a rollout whose columns hold several agents' decisions.

In a multi-agent game one env's column of a rollout interleaves decisions of different agents
(a cooperative team, or the learner's turns between an opponent's). Each agent's decisions form
their own trajectory, a *stream*: a decision bootstraps from the same agent's next decision, which
need not be the next row. :func:`stream_links` finds those rows, :func:`compute_stream_gae` runs
GAE along them, and :func:`compute_gae` is the plain one-stream-per-column case of CleanRL's
``ppo.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import torch

if TYPE_CHECKING:
    from training.ppo.rollout import Rollout


def compute_stream_gae(
    rewards: torch.Tensor,
    values: torch.Tensor,
    dones: torch.Tensor,
    links: torch.Tensor,
    bootstrap: torch.Tensor,
    gamma: float,
    gae_lambda: float,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Generalised advantage estimation over [T, N] tensors whose rows form streams; (advantages,
    returns).

    Column ``n`` holds the decisions made in env ``n`` in time order, possibly of several agents;
    ``links[t, n]`` is the row of the same agent's next decision in that column, or -1 if it is not
    in this rollout; then ``bootstrap[t, n]`` stands for that decision's value (the value at the
    decision the agent will take next, or 0). ``dones[t, n]`` is 1 when the episode ended after
    decision ``t``: nothing of what follows flows back.
    """
    steps = rewards.shape[0]
    advantages = torch.zeros_like(rewards)
    for t in reversed(range(steps)):
        linked = links[t] >= 0
        row = links[t].clamp(min=0).unsqueeze(0)
        following_value = torch.where(linked, values.gather(0, row)[0], bootstrap[t])
        following_adv = torch.where(linked, advantages.gather(0, row)[0], 0.0)
        nonterminal = 1.0 - dones[t]
        delta = rewards[t] + gamma * following_value * nonterminal - values[t]
        advantages[t] = delta + gamma * gae_lambda * nonterminal * following_adv
    return advantages, advantages + values


def compute_gae(
    rewards: torch.Tensor,
    values: torch.Tensor,
    dones: torch.Tensor,
    next_value: torch.Tensor,
    gamma: float,
    gae_lambda: float,
) -> tuple[torch.Tensor, torch.Tensor]:
    """GAE when each column is one stream: decision ``t`` is followed by ``t + 1``, the last one by
    the decision each env is parked at, whose value is ``next_value``."""
    steps = rewards.shape[0]
    links = torch.arange(1, steps + 1).unsqueeze(1).expand_as(rewards).clone()
    links[-1] = -1
    bootstrap = torch.zeros_like(rewards)
    bootstrap[-1] = next_value
    return compute_stream_gae(rewards, values, dones, links, bootstrap, gamma, gae_lambda)


def stream_links(agents: np.ndarray) -> torch.Tensor:
    """``links`` for :func:`compute_stream_gae` from the [T, N] agent index of every row: each row
    points at the next row of the same agent in its column (-1: none in this rollout).

    Rows of different episodes may be linked; the ``dones`` of the earlier one cut the link.
    """
    links = np.full(agents.shape, -1, dtype=np.int64)
    for n in range(agents.shape[1]):
        following: dict[int, int] = {}
        for t in range(agents.shape[0] - 1, -1, -1):
            agent = int(agents[t, n])
            links[t, n] = following.get(agent, -1)
            following[agent] = t
    return torch.from_numpy(links)


def rollout_advantages(
    rollout: Rollout, gamma: float, gae_lambda: float
) -> tuple[torch.Tensor, torch.Tensor]:
    """(advantages, returns) [T, N] of a rollout: one stream per agent in each env's column,
    each open stream bootstrapped from its agent's view of the position its env is parked at."""
    return compute_stream_gae(
        rollout.rewards,
        rollout.values,
        rollout.dones,
        stream_links(rollout.agents.numpy()),
        rollout.bootstrap,
        gamma,
        gae_lambda,
    )
