"""Behaviour cloning from a scripted teacher: a warm start before PPO.

Sparse end-of-game rewards and long action sequences (walk to a terminal, open a magnetic door,
hack) are rarely found by random exploration in a CPU budget. Imitating the heuristic bot first
gives PPO a policy that already plays the scenario; self-play then improves on it. In a
competitive game the teacher plays one seat against itself or the random bot; in a cooperative
one (``team=True``) it plays every agent. The network learns the teacher's actions (masked
cross-entropy) and, for the critic, the discounted return that followed each decision in the
deciding agent's own trajectory. :func:`imitate_teacher` is the run's warm start, as a config's
``imitation_games`` asks.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
import torch
from torch import nn

from reborn_env.bots import Bot, RandomBot

from .envs import COOPERATIVE, make_env
from .model import MaskedActorCritic

if TYPE_CHECKING:
    from .state import Trainer

Demonstrations = dict[str, torch.Tensor]


def record_games(
    make_env: Callable[[], Any],
    teacher: Bot,
    games: int,
    seed: int,
    gamma: float,
    team: bool = False,
) -> Demonstrations:
    """Play ``games`` games and record the teacher's decisions, each with the discounted return
    from it to the end of its game along its agent's own decisions.

    Competitive (``team=False``): the teacher sits in each seat in turn, against itself or the
    random bot, and only that seat is recorded. Cooperative (``team=True``): the teacher plays and
    is recorded in every seat.
    """
    env = make_env()
    obs, masks, actions, returns = [], [], [], []
    for g in range(games):
        env.reset(seed=seed + g)
        if team:
            recorded = set(env.possible_agents)
            opponent: Bot = teacher
        else:
            recorded = {env.possible_agents[g % len(env.possible_agents)]}
            opponent = teacher if g % 4 < 2 else RandomBot(seed + g)
        teacher.reset()
        opponent.reset()
        rewards: dict[str, list[float]] = {agent: [] for agent in recorded}
        rows: dict[str, list[int]] = {agent: [] for agent in recorded}
        for agent in env.agent_iter():
            ob, reward, term, trunc, _ = env.last()
            if agent in recorded and rewards[agent]:
                rewards[agent][-1] += reward  # what it received since its last decision
            if term or trunc:
                env.step(None)
                continue
            bot = teacher if agent in recorded else opponent
            action = bot.act(ob["observation"], ob["action_mask"])
            if agent in recorded:
                rows[agent].append(len(actions))
                obs.append(ob["observation"])
                masks.append(ob["action_mask"].astype(bool))
                actions.append(action)
                rewards[agent].append(0.0)
            env.step(action)
        returns.extend([0.0] * (len(actions) - len(returns)))
        for agent in recorded:
            running = 0.0
            for row, r in zip(reversed(rows[agent]), reversed(rewards[agent]), strict=True):
                running = r + gamma * running
                returns[row] = running
    return {
        "obs": torch.from_numpy(np.stack(obs)),
        "masks": torch.from_numpy(np.stack(masks)),
        "actions": torch.tensor(actions, dtype=torch.long),
        "returns": torch.tensor(returns, dtype=torch.float32),
    }


def clone(
    model: MaskedActorCritic,
    data: Demonstrations,
    epochs: int,
    learning_rate: float,
    vf_coef: float,
    rng: np.random.Generator,
    batch_size: int = 256,
) -> dict[str, float]:
    """Fit the policy to the teacher's actions and the value head to the returns."""
    optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate, eps=1e-5)
    n = data["actions"].shape[0]
    order = np.arange(n)
    for _ in range(epochs):
        rng.shuffle(order)
        for begin in range(0, n, batch_size):
            mb = torch.from_numpy(order[begin : begin + batch_size])
            logits, value = model(data["obs"][mb], data["masks"][mb])
            policy_loss = nn.functional.cross_entropy(logits, data["actions"][mb])
            value_loss = 0.5 * ((value - data["returns"][mb]) ** 2).mean()
            optimizer.zero_grad()
            (policy_loss + vf_coef * value_loss).backward()
            nn.utils.clip_grad_norm_(model.parameters(), 0.5)
            optimizer.step()
    with torch.no_grad():
        logits, _ = model(data["obs"], data["masks"])
        accuracy = (logits.argmax(-1) == data["actions"]).float().mean().item()
    return {
        "policy_loss": policy_loss.item(),
        "value_loss": value_loss.item(),
        "accuracy": accuracy,
    }


def warm_start(
    model: MaskedActorCritic,
    make_env: Callable[[], Any],
    teacher: Bot,
    games: int,
    epochs: int,
    seed: int,
    gamma: float,
    learning_rate: float,
    vf_coef: float,
    rng: np.random.Generator,
    chunk: int = 200,
    team: bool = False,
) -> None:
    """Record and clone ``chunk`` games at a time, so memory stays bounded; prints progress.
    ``team``: see :func:`record_games`."""
    start = time.perf_counter()
    for first in range(0, games, chunk):
        count = min(chunk, games - first)
        data = record_games(make_env, teacher, count, seed + first, gamma, team)
        stats = clone(model, data, epochs, learning_rate, vf_coef, rng)
        print(
            f"imitation: {first + count}/{games} teacher games, {len(data['actions'])} decisions, "
            f"accuracy {stats['accuracy']:.3f}, value loss {stats['value_loss']:.3f}, "
            f"{time.perf_counter() - start:.0f} s",
            flush=True,
        )


def imitate_teacher(trainer: Trainer) -> None:
    """The run's warm start (``imitation_games``): clone the heuristic bot into the trainer's
    network, timed as imitation; in a cooperative run the teacher plays, and is imitated in,
    every seat. In self-play the imitated policy becomes the pool's first opponent."""
    from .evaluate import make_opponent

    cfg = trainer.cfg
    start = time.perf_counter()
    warm_start(
        trainer.model,
        lambda: make_env(cfg.env, **cfg.env_kwargs),
        make_opponent("heuristic", cfg.env, seed=cfg.seed),
        cfg.imitation_games,
        cfg.imitation_epochs,
        seed=cfg.seed * 7919,
        gamma=cfg.gamma,
        learning_rate=cfg.learning_rate * 4,
        vf_coef=cfg.vf_coef,
        rng=trainer.np_rng,
        chunk=cfg.imitation_chunk,
        team=trainer.seating.mode == COOPERATIVE,
    )
    if trainer.seating.uses_pool:
        trainer.opponents.add_snapshot(trainer.model)
    trainer.timers.imitation = time.perf_counter() - start
