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

from functools import partial
from typing import Any

import numpy as np
import torch
from torch import nn

from reborn_env.policies.network import MaskedActorCritic, to_host, to_network
from training.common.compact_rows import CompactRows, RowRecorder
from training.common.driver import Driver, Seating, Turn, first_come
from training.common.envs import make_vector_env
from training.common.precision import autocast, network_precision
from training.common.progress_bar import ProgressBar

Demonstrations = dict[str, torch.Tensor | CompactRows]  # "obs": CompactRows


def record_games(
    env_name: str,
    env_kwargs: dict[str, Any],
    games: int,
    seed: int,
    gamma: float,
    team: bool = False,
    num_envs: int = 256,
    teacher_name: str = "heuristic",
    learner: Any = None,
) -> Demonstrations:
    """Play ``games`` games in the game vector (``num_envs`` at a time, on
    :class:`~training.common.driver.Driver`) and record the teacher's decisions (the game's bot
    ``teacher_name``, batched: compiled where the game has it; a search bot gets its seat's
    public view), each with the discounted return from it to the end of its game along its
    seat's own decisions.

    Competitive (``team=False``): game ``g`` records seat ``g % seats``, whose other seat is the
    teacher too in games ``g % 4 < 2`` and the random bot otherwise. Cooperative (``team=True``):
    the teacher plays and is recorded in every seat.

    ``learner`` (a batched bot, e.g. the policy being trained): it plays the recorded seats
    instead, and the teacher only labels its decisions (DAgger: the states the learner reaches,
    the actions the teacher would take there). ``played`` holds the actions played in the
    recorded seats; without a learner they are the teacher's.
    """
    from training.bench.matches import player

    n = min(num_envs, games)
    venv = make_vector_env(env_name, n, seed, **env_kwargs)
    seats = len(venv.agents)
    teacher = player(teacher_name, env_name, seed, env_kwargs=env_kwargs)(n)
    rival = player("random", env_name, seed)(n)
    recorder = Recorder(n, seats, learner)
    driver = Driver(venv, (teacher, rival), partial(seating, seats, team), first_come(games),
                    recorder)  # fmt: skip
    driver.run(lambda end: None)
    venv.close()
    returns = [0.0] * len(recorder.actions)
    for rows in recorder.ended:
        running = 0.0
        for row in reversed(rows):
            running = recorder.rewards[row] + gamma * running
            returns[row] = running
    return {
        "obs": recorder.obs.rows(),
        "masks": torch.from_numpy(np.stack(recorder.masks)),
        "actions": torch.tensor(np.array(recorder.actions), dtype=torch.long),
        "returns": torch.tensor(returns, dtype=torch.float32),
        "played": torch.tensor(recorder.played, dtype=torch.long),
    }


TEACHER, RIVAL = 0, 1
"""The players of :func:`record_games`, by index."""


def seating(seats: int, team: bool, slot: int, game: int) -> Seating:
    """Game ``game``'s seats, in any slot: the teacher, recorded, in every seat (``team``), else
    in seat ``game % seats``, the other seats the teacher's when ``game % 4 < 2`` and the random
    bot's otherwise."""
    if team:
        return Seating((TEACHER,) * seats, (True,) * seats)
    recorded = tuple(k == game % seats for k in range(seats))
    others = TEACHER if game % 4 < 2 else RIVAL
    return Seating(tuple(TEACHER if mine else others for mine in recorded), recorded)


class Recorder:
    """The recorded seats' decisions: the observation, the mask and the teacher's action (the
    label); the action played there is the ``learner``'s when there is one (DAgger), else the
    teacher's. Each decision's reward is what its seat received until its next one; ``ended``
    holds each finished game's recorded seats' decisions (rows), seat by seat."""

    def __init__(self, n: int, seats: int, learner: Any = None) -> None:
        self.learner = learner
        self.obs = RowRecorder()
        self.masks: list[np.ndarray] = []
        self.actions: list[np.ndarray] = []
        self.played: list[int] = []
        self.rewards: list[float] = []
        self.streams: list[list[list[int]]] = [[[] for _ in range(seats)] for _ in range(n)]
        self.ended: list[list[int]] = []

    def decide(self, turn: Turn) -> np.ndarray:
        slots, seats, obs, mask, chosen = turn.slots, turn.seats, turn.obs, turn.mask, turn.chosen
        assert chosen is not None, "the teacher labels before the learner decides"
        moves = chosen if self.learner is None else self.learner.act(slots, obs, mask)
        for r, (i, k) in enumerate(zip(slots.tolist(), seats.tolist(), strict=True)):
            self.streams[i][k].append(len(self.actions))
            self.obs.append(obs[r])
            self.masks.append(mask[r].astype(bool))
            self.actions.append(chosen[r])
            self.played.append(int(moves[r]))
            self.rewards.append(0.0)
        return moves

    def close(self, slots: np.ndarray, seats: np.ndarray, rewards: np.ndarray, done: bool) -> None:
        for i, k, reward in zip(slots.tolist(), seats.tolist(), rewards.tolist(), strict=True):
            self.rewards[self.streams[i][k][-1]] = reward
            if done:
                self.ended.append(self.streams[i][k])
                self.streams[i][k] = []

    def reset(self, i: int) -> None:
        if self.learner is not None:
            self.learner.reset(i)


def clone(
    model: MaskedActorCritic,
    data: Demonstrations,
    epochs: int,
    learning_rate: float,
    vf_coef: float,
    rng: np.random.Generator,
    batch_size: int = 256,
    precision: str = "float32",
) -> dict[str, float]:
    """Fit the policy to the teacher's actions and the value head to the returns, the network's
    forward in ``precision`` (``training/common/precision.py``; the step itself in float32)."""
    optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate, eps=1e-5, fused=True)
    dtype, device_type = network_precision(model, precision)
    n = data["actions"].shape[0]
    order = np.arange(n)
    for _ in range(epochs):
        rng.shuffle(order)
        for begin in range(0, n, batch_size):
            mb = torch.from_numpy(order[begin : begin + batch_size])
            obs, mask, actions, returns = (
                to_network(model, data[key][mb]) for key in ("obs", "masks", "actions", "returns")
            )
            with autocast(dtype, device_type):
                logits, value = model(obs, mask)
                policy_loss = nn.functional.cross_entropy(logits.float(), actions)
                value_loss = 0.5 * ((value.float() - returns) ** 2).mean()
            optimizer.zero_grad()
            (policy_loss + vf_coef * value_loss).backward()
            nn.utils.clip_grad_norm_(model.parameters(), 0.5)
            optimizer.step()
    with torch.no_grad():
        hits = 0
        for begin in range(0, n, 8192):
            rows = slice(begin, begin + 8192)
            obs, mask = to_network(model, data["obs"][rows]), to_network(model, data["masks"][rows])
            logits, _ = model(obs, mask)
            hits += int((to_host(logits.argmax(-1)) == data["actions"][rows]).sum())
        accuracy = hits / max(n, 1)
    return {
        "policy_loss": policy_loss.item(),
        "value_loss": value_loss.item(),
        "accuracy": accuracy,
    }


def warm_start(
    model: MaskedActorCritic,
    env_name: str,
    env_kwargs: dict[str, Any],
    games: int,
    epochs: int,
    seed: int,
    gamma: float,
    learning_rate: float,
    vf_coef: float,
    rng: np.random.Generator,
    chunk: int = 200,
    team: bool = False,
    teacher_name: str = "heuristic",
    dagger_rounds: int = 0,
    precision: str = "float32",
) -> None:
    """Record and clone ``chunk`` games at a time, so memory stays bounded; a progress bar and
    a line per chunk. ``team`` and ``teacher_name``: see :func:`record_games`. Then
    ``dagger_rounds`` rounds of :func:`dagger_round`. ``precision``: the fits' forward passes
    (:func:`clone`)."""
    bar = ProgressBar("imitation", games)
    for first in range(0, games, chunk):
        count = min(chunk, games - first)
        data = record_games(
            env_name, env_kwargs, count, seed + first, gamma, team, teacher_name=teacher_name
        )
        stats = clone(model, data, epochs, learning_rate, vf_coef, rng, precision=precision)
        bar.update(first + count)
        print(
            f"imitation: {first + count}/{games} teacher games, {len(data['actions'])} decisions, "
            f"accuracy {stats['accuracy']:.3f}, value loss {stats['value_loss']:.3f}",
            flush=True,
        )
    bar.close()
    labelled: list[Demonstrations] = []
    for r in range(dagger_rounds):
        start = seed + games + r * chunk
        stats = dagger_round(
            model, labelled, env_name, env_kwargs, chunk, start, gamma, team, teacher_name,
            epochs, learning_rate, vf_coef, rng, precision,
        )  # fmt: skip
        print(
            f"dagger: round {r + 1}/{dagger_rounds}, {chunk} games played by the policy, "
            f"{stats['labelled']:.0f} decisions labelled by the teacher, {stats['agreed']:.3f} "
            f"of them its choice already; fitted on {stats['fitted']:.0f}, accuracy "
            f"{stats['accuracy']:.3f}",
            flush=True,
        )


def dagger_round(
    model: MaskedActorCritic,
    labelled: list[Demonstrations],
    env_name: str,
    env_kwargs: dict[str, Any],
    games: int,
    seed: int,
    gamma: float,
    team: bool,
    teacher_name: str,
    epochs: int,
    learning_rate: float,
    vf_coef: float,
    rng: np.random.Generator,
    precision: str = "float32",
) -> dict[str, float]:
    """One round of DAgger (Ross, Gordon and Bagnell 2011): the policy plays ``games`` games
    in the recorded seats (sampled), the teacher labels every decision it met, the labels join
    ``labelled`` and the network is fitted to all of them. A clone alone meets only the
    teacher's states, so its first mistakes lead where it never learned what to do; these
    rounds teach it there. Returns :func:`clone`'s statistics, with ``labelled`` (this round's
    decisions), ``agreed`` (the share of them where the policy chose the teacher's action) and
    ``fitted`` (all labels so far)."""
    from reborn_env.policies.bot import PolicyBatch

    learner = PolicyBatch(model, greedy=False, seed=seed)
    data = record_games(
        env_name, env_kwargs, games, seed, gamma, team, teacher_name=teacher_name, learner=learner
    )
    agreed = float((data["played"] == data["actions"]).float().mean())
    labelled.append(data)
    merged: Demonstrations = {
        key: torch.cat([d[key] for d in labelled]) for key in data if key != "obs"
    }
    merged["obs"] = CompactRows.cat([d["obs"] for d in labelled])
    stats = clone(model, merged, epochs, learning_rate, vf_coef, rng, precision=precision)
    return {
        "labelled": float(len(data["actions"])),
        "agreed": agreed,
        "fitted": float(len(merged["actions"])),
        **stats,
    }
