"""Collect a rollout: step the game vector until each slot holds ``num_steps`` learner decisions.

The games are one vector (``GameSpec.make_vector_env``: the compiled core, or AEC envs in a loop),
played by the run's :class:`~training.common.driver.Driver` (the learner deciding first, then the
opponents): each round is one ``step`` call for every slot. The slots where the learner is to move
are batched into one forward pass (recorded); the slots where an opponent moves are grouped by
opponent, one batched call each (``training/selfplay/opponents.py``: the current policy, a
snapshot, or a scripted bot, not recorded), every network in float32 whatever the run's
``precision`` (entered per call, autocast measured slower at a rollout's usual batch sizes,
``benchmarks/bench_training.py``); a slot that already holds its ``num_steps`` decisions
and waits at its next learner decision sits the round out (``WAIT``). Who plays which seat is the
run's seating (``training/selfplay/seating.py``), drawn when a slot's game starts
(:func:`start_episode`).

Each learner seat's decisions form their own trajectory: the rewards a seat receives between two
of its decisions (while the opponent or its partner moves) are credited to its last decision (the
driver's credit, written when the driver closes it or the rollout ends), and when a game ends
every learner seat's last decision is marked done. After the last round every
slot waits at its next learner decision, and each open trajectory is bootstrapped from its seat's
view of that position.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

import numpy as np
import torch

from reborn_env.bots.batched import Views
from reborn_env.policies.network import to_host, to_network
from training.common.driver import Driver, GameEnd, Seating, Turn, endless

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
    def empty(cls, steps: int, n: int, obs_size: int, n_actions: int, pin: bool = False) -> Rollout:
        """Zeros for ``steps`` decisions in each of ``n`` slots, on the host; in pinned memory
        with ``pin`` (the update's network is on a GPU: the batch moves to it faster)."""

        def zeros(*shape: int, dtype: torch.dtype = torch.float32) -> torch.Tensor:
            return torch.zeros(*shape, dtype=dtype, pin_memory=pin)

        return cls(
            obs=zeros(steps, n, obs_size),
            masks=zeros(steps, n, n_actions, dtype=torch.bool),
            actions=zeros(steps, n, dtype=torch.long),
            logprobs=zeros(steps, n),
            values=zeros(steps, n),
            rewards=zeros(steps, n),
            dones=zeros(steps, n),
            agents=zeros(steps, n, dtype=torch.long),
            bootstrap=zeros(steps, n),
        )


def collect_rollout(trainer: Trainer) -> Rollout:
    """Step every slot until it holds ``num_steps`` learner decisions and waits at its next."""
    venv, slots, steps = trainer.venv, trainer.slots, trainer.cfg.num_steps
    n = venv.num_envs
    model = trainer.playing
    pin = next(model.parameters()).is_cuda
    rollout = Rollout.empty(steps, n, model.obs_size, model.n_actions, pin)
    columns = np.arange(n)
    count = np.zeros(n, dtype=np.int64)
    slots.last_row.fill(-1)
    driver = trainer.driver if trainer.driver is not None else seated_driver(trainer)
    trainer.driver = driver
    driver.open.fill(False)  # a decision of the last rollout takes no more credit
    driver.learner = LearnerSeats(trainer, rollout, count)
    on_end, on_step = partial(_finish, trainer), partial(_after_step, trainer)
    while True:
        seat = venv.agent.astype(np.int64)
        learner_turn = slots.learner[columns, seat]
        deciding = int((learner_turn & (count < steps)).sum())
        opponents = n - int(learner_turn.sum())
        if not deciding and not opponents:
            break
        trainer.env_steps += deciding + opponents
        start, inference = time.perf_counter(), trainer.timers.inference
        driver.play_round(on_end, on_step)
        played = time.perf_counter() - start - (trainer.timers.inference - inference)
        trainer.timers.simulation += played
    open_rows = (slots.last_row >= 0) & slots.learner
    slot, k = np.nonzero(open_rows)
    if len(slot):
        at = (torch.from_numpy(slots.last_row[slot, k]), torch.from_numpy(slot))
        rollout.rewards[at] = torch.from_numpy(driver.credit[slot, k])
    _bootstrap(trainer, rollout)
    return rollout


def start_episode(trainer: Trainer, i: int) -> None:
    """Seat slot ``i``'s new game: the learner's seats and an opponent, if any (the vector has
    already started the game, with the slot's next seed; with ``restart_prob`` it may begin from
    an earlier game's position instead, ``training/selfplay/restarts.py``)."""
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


def seats_of(trainer: Trainer, i: int) -> Seating:
    """Slot ``i``'s game as the driver seats it: the learner's seats recorded, with no player,
    the others played by :class:`OpponentSeats`."""
    learner = trainer.slots.learner[i].tolist()
    return Seating(tuple(-1 if mine else 0 for mine in learner), tuple(learner))


def seated_driver(trainer: Trainer) -> Driver:
    """The driver of the run's vector, its games as they stand (seated by :func:`start_episode`
    when the run was built or resumed), each new game seated by :func:`start_episode`."""

    def seat(i: int, game: int) -> Seating:
        start_episode(trainer, i)
        return seats_of(trainer, i)

    venv = trainer.venv
    schedule = endless()
    driver = Driver(venv, [OpponentSeats(trainer)], seat, schedule, None, np.float32, True)
    for i in range(venv.num_envs):
        driver.place(i, schedule(i), seats_of(trainer, i))
    return driver


class LearnerSeats:
    """The learner's seats as the driver's learner: one batched forward pass for the slots that
    still need decisions (recorded in the rollout); a slot that holds its ``num_steps`` passes
    and waits. A decision's reward is its seat's credit when it closes (or when the rollout
    ends), ``done`` when its game ended."""

    def __init__(self, trainer: Trainer, rollout: Rollout, count: np.ndarray) -> None:
        self.trainer, self.rollout, self.count = trainer, rollout, count

    def decide(self, turn: Turn) -> np.ndarray:
        trainer, rollout, count, slots = self.trainer, self.rollout, self.count, turn.slots
        actions = np.full(len(slots), trainer.venv.WAIT, dtype=np.int64)
        room = count[slots] < trainer.cfg.num_steps
        deciding, seat = slots[room], turn.seats[room]
        if not len(deciding):
            return actions
        rows = count[deciding]
        obs_t, mask_t, action, logprob, value = _act(trainer, trainer.playing, deciding)
        at = (torch.from_numpy(rows), torch.from_numpy(deciding))
        rollout.obs[at], rollout.masks[at], rollout.actions[at] = obs_t, mask_t, action
        rollout.logprobs[at], rollout.values[at] = logprob, value
        rollout.agents[at] = torch.from_numpy(seat)
        trainer.slots.last_row[deciding, seat] = rows
        count[deciding] += 1
        trainer.global_step += len(deciding)
        actions[room] = action.numpy()
        return actions

    def close(self, slots: np.ndarray, seats: np.ndarray, rewards: np.ndarray, done: bool) -> None:
        rows = torch.from_numpy(self.trainer.slots.last_row[slots, seats])
        at = (rows, torch.from_numpy(slots))
        self.rollout.rewards[at] = torch.from_numpy(rewards)
        if done:
            self.rollout.dones[at] = 1.0

    def reset(self, i: int) -> None:
        """Nothing: :func:`start_episode` seats the slot's new game."""


class OpponentSeats:
    """Every slot's opponent as one of the driver's players: the slots it moves in, grouped by
    opponent in the order they come, one batched call each (``training/selfplay/opponents.py``: the
    current policy, a snapshot, or bots given the public view they ask for; timed as
    inference)."""

    sees_public_view = True  # passes the views on to the bots that see them

    def __init__(self, trainer: Trainer) -> None:
        self.trainer = trainer

    def reset(self, i: int) -> None:
        """Nothing: :func:`start_episode` tells the pool (``OpponentPool.start``)."""

    def act(
        self, slots: np.ndarray, obs: np.ndarray, mask: np.ndarray, views: Views | None = None
    ) -> np.ndarray:
        trainer = self.trainer
        start = time.perf_counter()
        groups: dict[str, list[int]] = {}
        for r, i in enumerate(slots.tolist()):
            groups.setdefault(trainer.slots.opponent[i], []).append(r)
        actions = np.empty(len(slots), dtype=np.int64)
        for key, members in groups.items():
            rows = np.array(members, dtype=np.int64)
            actions[rows] = trainer.opponents.act(
                key, slots[rows], obs[rows], mask[rows], trainer.playing, views
            )
        trainer.timers.inference += time.perf_counter() - start
        return actions


def _act(trainer: Trainer, model: MaskedActorCritic, idxs: np.ndarray) -> tuple[torch.Tensor, ...]:
    """One batched forward pass of ``model`` over slots ``idxs`` (timed as inference): (obs, mask,
    action, logprob, value)."""
    start = time.perf_counter()
    venv = trainer.venv
    obs = torch.from_numpy(venv.obs[idxs])
    mask = torch.from_numpy(venv.mask[idxs].view(np.bool_))
    with torch.no_grad():
        decided = model.get_action_and_value(to_network(model, obs), to_network(model, mask))
    action, logprob, _, value = (to_host(t) for t in decided)
    trainer.timers.inference += time.perf_counter() - start
    return obs, mask, action, logprob, value


def _after_step(trainer: Trainer, rewards: np.ndarray) -> None:
    """After each step: keep a position for restarts, add to each game's mean learner return."""
    slots = trainer.slots
    trainer.restarts.sample(trainer.venv, trainer.np_rng)
    learners = np.maximum(slots.learner.sum(1), 1)
    slots.episode_return += (rewards * slots.learner).sum(1) / learners


def _finish(trainer: Trainer, end: GameEnd) -> None:
    """A game ended: its mean learner return kept, its opponent scored (the driver then seats
    the slot's next game, :func:`start_episode`)."""
    slots, i = trainer.slots, end.slot
    trainer.finished_returns.append(float(slots.episode_return[i]))
    trainer.opponents.record(slots.opponent[i], slots.learner[i], end.rewards, end.terminated)


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
    model = trainer.playing
    mask = torch.ones(len(slot), model.n_actions, dtype=torch.bool)
    with torch.no_grad():
        _, value = model(to_network(model, torch.from_numpy(obs)), to_network(model, mask))
    rollout.bootstrap[torch.from_numpy(slots.last_row[slot, seat]), torch.from_numpy(slot)] = (
        to_host(value)
    )
    trainer.timers.inference += time.perf_counter() - start
