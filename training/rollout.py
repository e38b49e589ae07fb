"""Collect a rollout: step every env in lockstep until each holds ``num_steps`` learner decisions.

Each round batches the decisions of one policy into one forward pass: the learner's (recorded),
then each opponent's (``training/opponents.py``: the current policy, a snapshot, or a scripted
bot, not recorded). Who plays which agent is the run's seating (``training/seating.py``), drawn
when an episode starts (:func:`start_episode`). Each learner agent's decisions form their own
trajectory: the rewards an agent receives between two of its decisions (while the opponent or its
partner moves) are credited to its last decision, and when a game ends every learner agent's last
decision is marked done. After the last round each env is parked at its next learner decision,
and each open trajectory is bootstrapped from its agent's view of that position.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import torch

from .opponents import BOT

if TYPE_CHECKING:
    from .model import MaskedActorCritic
    from .state import Trainer

Decisions = tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]
"""(obs, mask, action, logprob, value) of a batch of decisions."""


@dataclass
class Rollout:
    """[T, N] tensors of the learner's decisions: row ``t`` of column ``n`` is env ``n``'s ``t``-th
    learner decision (of any learner agent: ``agents`` is its index in ``possible_agents``)."""

    obs: torch.Tensor  # [T, N, obs_size]
    masks: torch.Tensor  # [T, N, n_actions], bool
    actions: torch.Tensor
    logprobs: torch.Tensor
    values: torch.Tensor
    rewards: torch.Tensor  # received after the decision, until the agent's next one
    dones: torch.Tensor  # 1.0: the episode ended after the decision
    agents: torch.Tensor
    bootstrap: torch.Tensor  # at a stream's open last row, the value of its parked view; else 0

    @classmethod
    def empty(cls, steps: int, n: int, obs_size: int, n_actions: int) -> Rollout:
        """Zeros for ``steps`` decisions in each of ``n`` envs."""
        return cls(
            obs=torch.zeros(steps, n, obs_size),
            masks=torch.zeros(steps, n, n_actions, dtype=torch.bool),
            actions=torch.zeros(steps, n, dtype=torch.long),
            logprobs=torch.zeros(steps, n),
            values=torch.zeros(steps, n),
            rewards=torch.zeros(steps, n),
            dones=torch.zeros(steps, n),
            agents=torch.zeros(steps, n, dtype=torch.long),
            bootstrap=torch.zeros(steps, n),
        )


def collect_rollout(trainer: Trainer) -> Rollout:
    """Run every env until it holds ``num_steps`` learner decisions and waits at its next."""
    envs, seats, steps = trainer.envs, trainer.seats, trainer.cfg.num_steps
    rollout = Rollout.empty(steps, len(envs), trainer.model.obs_size, trainer.model.n_actions)
    count = [0] * len(envs)
    for seat in seats:
        seat.last_row = {}
    while True:
        learners, opponents = [], {}
        for i, env in enumerate(envs):
            if env.agent_selection in seats[i].learners:
                if count[i] < steps:
                    learners.append(i)
            else:
                opponents.setdefault(seats[i].opponent, []).append(i)
        if not learners and not opponents:
            break
        if learners:
            agents = [envs[i].agent_selection for i in learners]
            obs, mask, action, logprob, value = _act(trainer, trainer.model, learners, agents)
            rows = (torch.tensor([count[i] for i in learners]), torch.tensor(learners))
            rollout.obs[rows], rollout.masks[rows] = obs, mask
            rollout.actions[rows], rollout.logprobs[rows] = action, logprob
            rollout.values[rows] = value
            rollout.agents[rows] = torch.tensor(
                [envs[i].possible_agents.index(envs[i].agent_selection) for i in learners]
            )
            for i, agent, chosen in zip(learners, agents, action.tolist(), strict=True):
                seats[i].last_row[agent] = count[i]
                count[i] += 1
                _step_env(trainer, i, chosen, rollout)
            trainer.global_step += len(learners)
        for key, idxs in opponents.items():
            if key.startswith(BOT):
                for i in idxs:
                    _step_env(trainer, i, _bot_action(trainer, i, key), rollout)
                continue
            agents = [envs[i].agent_selection for i in idxs]
            model = trainer.opponents.model(key, trainer.model)
            action = _act(trainer, model, idxs, agents)[2]
            for i, chosen in zip(idxs, action.tolist(), strict=True):
                _step_env(trainer, i, chosen, rollout)
    _bootstrap(trainer, rollout)
    return rollout


def start_episode(trainer: Trainer, i: int) -> None:
    """Reset env ``i`` with a fresh seed and seat the learner (and an opponent, if any)."""
    env, seat = trainer.envs[i], trainer.seats[i]
    seed = trainer.cfg.seed * 1_000_003 + i * 100_003 + seat.episode
    env.reset(seed=seed)
    seat.episode += 1
    rng = trainer.np_rng
    seat.learners, seat.opponent = trainer.seating.seat(env, rng, trainer.opponents.draw)
    if seat.opponent.startswith(BOT):
        trainer.opponents.bot(i, seat.opponent).reset()
    seat.last_row, seat.episode_return = {}, 0.0


def _act(
    trainer: Trainer, model: MaskedActorCritic, idxs: list[int], agents: list[str]
) -> Decisions:
    """One batched forward pass over envs ``idxs`` for ``agents`` (reading the observations is
    timed as simulation, the pass as inference)."""
    start = time.perf_counter()
    observations = [trainer.envs[i].observe(a) for i, a in zip(idxs, agents, strict=True)]
    obs = torch.from_numpy(np.stack([o["observation"] for o in observations]))
    mask = torch.from_numpy(np.stack([o["action_mask"] for o in observations]).astype(bool))
    middle = time.perf_counter()
    with torch.no_grad():
        action, logprob, _, value = model.get_action_and_value(obs, mask)
    trainer.timers.simulation += middle - start
    trainer.timers.inference += time.perf_counter() - middle
    return obs, mask, action, logprob, value


def _bot_action(trainer: Trainer, i: int, key: str) -> int:
    """A scripted opponent's move in env ``i`` (timed as inference)."""
    env = trainer.envs[i]
    start = time.perf_counter()
    observed = env.observe(env.agent_selection)
    action = trainer.opponents.bot(i, key).act(observed["observation"], observed["action_mask"])
    trainer.timers.inference += time.perf_counter() - start
    return int(action)


def _step_env(trainer: Trainer, i: int, action: int, rollout: Rollout) -> None:
    """Step env ``i`` by whoever decides there, then credit rewards (timed as simulation)."""
    trainer.env_steps += 1
    start = time.perf_counter()
    trainer.envs[i].step(action)
    _credit(trainer, i, rollout)
    trainer.timers.simulation += time.perf_counter() - start


def _credit(trainer: Trainer, i: int, rollout: Rollout) -> None:
    """Credit each learner agent's last decision with the reward this step gave that agent
    (``env.rewards`` holds every agent's reward of the last step, whoever moved); close the
    episode if the game ended."""
    env, seat = trainer.envs[i], trainer.seats[i]
    ended = False
    for agent in seat.learners:
        reward = env.rewards.get(agent, 0.0)
        seat.episode_return += reward / len(seat.learners)
        if agent in seat.last_row:
            rollout.rewards[seat.last_row[agent], i] += reward
        ended = ended or bool(env.terminations.get(agent) or env.truncations.get(agent))
    if ended:
        for row in seat.last_row.values():
            rollout.dones[row, i] = 1.0
        _settle(trainer, i)


def _settle(trainer: Trainer, i: int) -> None:
    """Step dead agents out of a finished game and start the next episode."""
    env = trainer.envs[i]
    while env.agents and (
        env.terminations[env.agent_selection] or env.truncations[env.agent_selection]
    ):
        env.step(None)
    if not env.agents:
        trainer.finished_returns.append(trainer.seats[i].episode_return)
        start_episode(trainer, i)


def _bootstrap(trainer: Trainer, rollout: Rollout) -> None:
    """Fill ``rollout.bootstrap``: at each learner agent's open last row, the value of its view of
    the position its env is parked at.

    The agent need not be the one to move (a cooperative partner): its observation is still its
    view of the position, and only the value head is read (the mask does not enter it).
    """
    open_rows = [
        (i, agent, row)
        for i, seat in enumerate(trainer.seats)
        for agent, row in seat.last_row.items()
    ]
    if not open_rows:
        return
    start = time.perf_counter()
    obs = np.stack([trainer.envs[i].observe(agent)["observation"] for i, agent, _ in open_rows])
    mask = torch.ones(len(open_rows), trainer.model.n_actions, dtype=torch.bool)
    middle = time.perf_counter()
    with torch.no_grad():
        _, value = trainer.model(torch.from_numpy(obs), mask)
    for (i, _, row), v in zip(open_rows, value, strict=True):
        rollout.bootstrap[row, i] = v
    trainer.timers.simulation += middle - start
    trainer.timers.inference += time.perf_counter() - middle
