"""Collect a rollout: step the game vector until each slot holds ``num_steps`` learner decisions.

The games are one vector (``GameSpec.make_vector_env``: the compiled core, or AEC envs in a loop):
each round is one ``step`` call for every slot. The slots where the learner is to move are batched
into one forward pass (recorded); the slots where an opponent moves are grouped by opponent, one
batched call each (``training/ppo/opponents.py``: the current policy, a snapshot, or a scripted bot,
not recorded); a slot that already holds its ``num_steps`` decisions and waits at its next learner
decision sits the round out (``WAIT``). Who plays which seat is the run's seating
(``training/ppo/seating.py``), drawn when a slot's game starts (:func:`start_episode`).

Each learner seat's decisions form their own trajectory: the rewards a seat receives between two
of its decisions (while the opponent or its partner moves) are credited to its last decision, and
when a game ends every learner seat's last decision is marked done. After the last round every
slot waits at its next learner decision, and each open trajectory is bootstrapped from its seat's
view of that position.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import torch

if TYPE_CHECKING:
    from reborn_env.policies.network import MaskedActorCritic
    from training.ppo.state import Trainer


@dataclass
class Rollout:
    """[T, N] tensors of the learner's decisions: row ``t`` of column ``n`` is slot ``n``'s
    ``t``-th learner decision (of any learner seat: ``agents`` is its index in the game's
    agents)."""

    obs: torch.Tensor  # [T, N, obs_size]
    masks: torch.Tensor  # [T, N, n_actions], bool
    actions: torch.Tensor
    logprobs: torch.Tensor
    values: torch.Tensor
    rewards: torch.Tensor  # received after the decision, until the seat's next one
    dones: torch.Tensor  # 1.0: the episode ended after the decision
    agents: torch.Tensor
    bootstrap: torch.Tensor  # at a stream's open last row, the value of its parked view; else 0

    @classmethod
    def empty(cls, steps: int, n: int, obs_size: int, n_actions: int) -> Rollout:
        """Zeros for ``steps`` decisions in each of ``n`` slots."""
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
    """Step every slot until it holds ``num_steps`` learner decisions and waits at its next."""
    venv, slots, steps = trainer.venv, trainer.slots, trainer.cfg.num_steps
    n = venv.num_envs
    rollout = Rollout.empty(steps, n, trainer.model.obs_size, trainer.model.n_actions)
    columns = np.arange(n)
    count = np.zeros(n, dtype=np.int64)
    actions = np.empty(n, dtype=np.int64)
    slots.last_row.fill(-1)
    while True:
        seat = venv.agent.astype(np.int64)
        learner_turn = slots.learner[columns, seat]
        deciding = np.flatnonzero(learner_turn & (count < steps))
        opponents = np.flatnonzero(~learner_turn)
        if not len(deciding) and not len(opponents):
            break
        actions.fill(venv.WAIT)
        if len(deciding):
            rows = count[deciding]
            obs, mask, action, logprob, value = _act(trainer, trainer.model, deciding)
            at = (torch.from_numpy(rows), torch.from_numpy(deciding))
            rollout.obs[at], rollout.masks[at], rollout.actions[at] = obs, mask, action
            rollout.logprobs[at], rollout.values[at] = logprob, value
            rollout.agents[at] = torch.from_numpy(seat[deciding])
            slots.last_row[deciding, seat[deciding]] = rows
            count[deciding] += 1
            actions[deciding] = action.numpy()
            trainer.global_step += len(deciding)
        if len(opponents):
            _opponents_act(trainer, opponents, actions)
        trainer.env_steps += len(deciding) + len(opponents)
        start = time.perf_counter()
        rewards, terminated, truncated = venv.step(actions)[3:]
        trainer.restarts.sample(venv, trainer.np_rng)
        trainer.timers.simulation += time.perf_counter() - start
        _credit(trainer, rollout, rewards, terminated, truncated)
    _bootstrap(trainer, rollout)
    return rollout


def start_episode(trainer: Trainer, i: int) -> None:
    """Seat slot ``i``'s new game: the learner's seats and an opponent, if any (the vector has
    already started the game, with the slot's next seed; with ``restart_prob`` it may begin from
    an earlier game's position instead, ``training/ppo/restarts.py``)."""
    slots = trainer.slots
    trainer.restarts.restart(trainer.venv, i, trainer.np_rng)
    learners, opponent = trainer.seating.seat(
        trainer.venv.agents, trainer.np_rng, trainer.opponents
    )
    slots.learner[i] = False
    slots.learner[i, list(learners)] = True
    slots.opponent[i] = opponent
    slots.last_row[i] = -1
    slots.episode_return[i] = 0.0
    trainer.opponents.start(i, opponent)


def _act(trainer: Trainer, model: MaskedActorCritic, idxs: np.ndarray) -> tuple[torch.Tensor, ...]:
    """One batched forward pass of ``model`` over slots ``idxs`` (timed as inference): (obs, mask,
    action, logprob, value)."""
    start = time.perf_counter()
    venv = trainer.venv
    obs = torch.from_numpy(venv.obs[idxs])
    mask = torch.from_numpy(venv.mask[idxs].view(np.bool_))
    with torch.no_grad():
        action, logprob, _, value = model.get_action_and_value(obs, mask)
    trainer.timers.inference += time.perf_counter() - start
    return obs, mask, action, logprob, value


def _opponents_act(trainer: Trainer, idxs: np.ndarray, actions: np.ndarray) -> None:
    """Fill ``actions`` at slots ``idxs`` with their opponents' moves: one batched call per
    opponent (timed as inference)."""
    start = time.perf_counter()
    groups: dict[str, list[int]] = {}
    for i in idxs.tolist():
        groups.setdefault(trainer.slots.opponent[i], []).append(i)
    venv = trainer.venv
    for key, members in groups.items():
        rows = np.array(members, dtype=np.int64)
        obs, mask = venv.obs[rows], venv.mask[rows]
        actions[rows] = trainer.opponents.act(key, rows, obs, mask, trainer.model)
    trainer.timers.inference += time.perf_counter() - start


def _credit(
    trainer: Trainer,
    rollout: Rollout,
    rewards: np.ndarray,
    terminated: np.ndarray,
    truncated: np.ndarray,
) -> None:
    """Credit each learner seat's last decision with the reward this step gave that seat (the
    vector's ``rewards`` hold every seat's reward of the step, whoever moved); close the episodes
    that ended, and seat the games that replaced them."""
    slots = trainer.slots
    open_rows = (slots.last_row >= 0) & slots.learner
    slot, seat = np.nonzero(open_rows)
    if len(slot):
        at = (torch.from_numpy(slots.last_row[slot, seat]), torch.from_numpy(slot))
        rollout.rewards[at] += torch.from_numpy(rewards[slot, seat].astype(np.float32))
    learners = np.maximum(slots.learner.sum(1), 1)
    slots.episode_return += (rewards * slots.learner).sum(1) / learners
    for i in np.flatnonzero(terminated | truncated).tolist():
        for k in np.flatnonzero(open_rows[i]).tolist():
            rollout.dones[slots.last_row[i, k], i] = 1.0
        trainer.finished_returns.append(float(slots.episode_return[i]))
        trainer.opponents.record(slots.opponent[i], slots.learner[i], rewards[i], terminated[i])
        start_episode(trainer, i)


def _bootstrap(trainer: Trainer, rollout: Rollout) -> None:
    """Fill ``rollout.bootstrap``: at each learner seat's open last row, the value of its view of
    the position its slot waits at.

    The seat need not be the one to move (a cooperative partner): its view is still its
    observation of the position, and only the value head is read (the mask does not enter it).
    """
    slots, venv = trainer.slots, trainer.venv
    slot, seat = np.nonzero((slots.last_row >= 0) & slots.learner)
    if not len(slot):
        return
    start = time.perf_counter()
    obs = np.stack(
        [
            venv.obs[i] if venv.agent[i] == k else venv.observe(i, k)
            for i, k in zip(slot.tolist(), seat.tolist(), strict=True)
        ]
    )
    mask = torch.ones(len(slot), trainer.model.n_actions, dtype=torch.bool)
    with torch.no_grad():
        _, value = trainer.model(torch.from_numpy(obs), mask)
    rollout.bootstrap[torch.from_numpy(slots.last_row[slot, seat]), torch.from_numpy(slot)] = value
    trainer.timers.inference += time.perf_counter() - start
