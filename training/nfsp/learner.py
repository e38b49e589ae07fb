"""NFSP's two networks and how each acts and learns: a DQN best response, a supervised average.

After Heinrich & Silver (2016) and the NFSP agents of OpenSpiel (``algorithms/nfsp.py``) and
RLCard (``agents/nfsp_agent.py``):

- the **best response** is a Q-network (``reborn_env.policies.network.build_model``'s MLP, its
  policy head read as Q-values; the value head is unused) with a target network copied every
  ``target_update_every`` learning steps, played epsilon-greedily over the legal actions and
  trained with the Huber loss on transitions from a circular replay buffer;
- the **average policy** is the same network shape, a masked softmax trained by cross-entropy on
  the reservoir of the best response's decisions: it imitates the best responses of the whole
  run, and is the bot a checkpoint ships (its value head stays untrained).

Every action is chosen among the legal ones only: illegal Q-values and logits are the model's
``ILLEGAL_LOGIT`` (-1e9) before any argmax or softmax, and exploration draws uniformly from the
mask (:func:`epsilon_greedy`).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F

from reborn_env.policies.bot import PolicyBatch
from reborn_env.policies.network import MaskedActorCritic, build_model, to_host, to_network
from training.common.device import resolve_device
from training.nfsp.buffers import CircularBuffer, ReservoirBuffer


def random_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """int64 [k]: for each row of the bool ``mask`` [k, n_actions], a legal action drawn
    uniformly; ValueError if a row has none."""
    counts = mask.sum(1)
    if (counts == 0).any():
        raise ValueError(f"rows {np.flatnonzero(counts == 0).tolist()} have no legal action")
    pick = (rng.random(len(mask)) * counts).astype(np.int64)  # the pick-th legal action
    return np.argmax(np.cumsum(mask, axis=1) > pick[:, None], axis=1).astype(np.int64)


def epsilon_greedy(
    q_values: torch.Tensor, mask: np.ndarray, epsilon: float, rng: np.random.Generator
) -> np.ndarray:
    """int64 [k]: with probability ``epsilon`` a uniform legal action, else the legal action of
    highest Q (``q_values`` [k, n_actions]; illegal entries are ignored whatever they hold)."""
    legal = torch.from_numpy(mask)
    greedy = q_values.masked_fill(~legal, -torch.inf).argmax(-1).numpy()
    explore = rng.random(len(mask)) < epsilon
    if explore.any():
        greedy[explore] = random_legal(mask[explore], rng)
    return greedy.astype(np.int64)


@dataclass(frozen=True, kw_only=True)
class LearnerSettings:
    """What the learner reads: the keys of an NFSP run's config of the same names
    (``training.common.schema.settings_of`` takes them from it)."""

    seed: int
    """seed of the average policy's sampler"""
    hidden_sizes: list[int]
    rl_learning_rate: float
    sl_learning_rate: float
    replay_capacity: int
    reservoir_capacity: int
    min_buffer_size: int
    target_update_every: int
    batch_size: int
    gamma: float
    max_grad_norm: float
    device: str
    """where both networks compute (``training/common/device.py``)"""


class NFSPLearner:
    """The networks, optimisers and memories of the NFSP agents (one set, shared by every seat:
    a seat's observation is from its own point of view, as PPO's one policy plays both seats)."""

    def __init__(self, settings: LearnerSettings, obs_size: int, n_actions: int) -> None:
        self.settings = settings
        device = resolve_device(settings.device)
        self.q = build_model(obs_size, n_actions, settings.hidden_sizes).to(device)
        self.q_target = copy.deepcopy(self.q).requires_grad_(False)
        self.average = build_model(obs_size, n_actions, settings.hidden_sizes).to(device)
        self.q_optimizer = torch.optim.Adam(
            self.q.parameters(), lr=settings.rl_learning_rate, fused=True
        )
        self.sl_optimizer = torch.optim.Adam(
            self.average.parameters(), lr=settings.sl_learning_rate, fused=True
        )
        self.sampler = PolicyBatch(self.average, greedy=False, seed=settings.seed)
        self.replay = CircularBuffer(
            settings.replay_capacity,
            {
                "obs": ((obs_size,), np.float32),
                "action": ((), np.int64),
                "reward": ((), np.float32),
                "next_obs": ((obs_size,), np.float32),
                "next_mask": ((n_actions,), np.bool_),
                "done": ((), np.float32),
            },
        )
        self.reservoir = ReservoirBuffer(
            settings.reservoir_capacity,
            {"obs": ((obs_size,), np.float32), "mask": ((n_actions,), np.bool_),
             "action": ((), np.int64)},
        )  # fmt: skip
        self.steps = 0
        """learning steps done (one gradient step of each network)"""

    def best_response(
        self, obs: np.ndarray, mask: np.ndarray, epsilon: float, rng: np.random.Generator
    ) -> np.ndarray:
        """The best response's actions for rows ``obs`` / bool ``mask``, epsilon-greedy; the
        rows go into the reservoir, the average policy's training data."""
        q = self.q
        with torch.inference_mode():
            q_values, _ = q(
                to_network(q, torch.from_numpy(obs)), to_network(q, torch.from_numpy(mask))
            )
        actions = epsilon_greedy(to_host(q_values), mask, epsilon, rng)
        self.reservoir.add({"obs": obs, "mask": mask, "action": actions}, rng)
        return actions

    def average_policy(self, slots: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The average policy's actions, sampled from its masked softmax."""
        return self.sampler.act(slots, obs, mask)

    def ready(self) -> bool:
        """Both memories hold ``min_buffer_size`` rows: learning may start."""
        need = self.settings.min_buffer_size
        return len(self.replay) >= need and len(self.reservoir) >= need

    def learn(self, rng: np.random.Generator) -> dict[str, float]:
        """One gradient step of each network on a batch of its memory; the two losses. Every
        ``target_update_every`` steps the Q-network is copied into its target."""
        losses = {"rl_loss": self._q_step(rng), "sl_loss": self.learn_average(rng)}
        self.steps += 1
        if self.steps % self.settings.target_update_every == 0:
            self.q_target.load_state_dict(self.q.state_dict())
        return losses

    def _q_step(self, rng: np.random.Generator) -> float:
        """Q-learning: Huber loss between Q(s, a) and r + gamma * max over legal a' of the
        target's Q(s', a') (0 after the game's end)."""
        batch = {
            k: to_network(self.q, torch.from_numpy(v))
            for k, v in self.replay.sample(self.settings.batch_size, rng).items()
        }
        everything = torch.ones_like(batch["next_mask"])
        q, _ = self.q(batch["obs"], everything)
        taken = q.gather(1, batch["action"][:, None])[:, 0]
        with torch.no_grad():
            nxt, _ = self.q_target(batch["next_obs"], batch["next_mask"])
            ended = batch["done"] > 0
            best = torch.where(ended, 0.0, nxt.max(-1).values)
            target = batch["reward"] + self.settings.gamma * best
        loss = F.smooth_l1_loss(taken, target)
        _step(self.q, self.q_optimizer, loss, self.settings.max_grad_norm)
        return loss.item()

    def learn_average(self, rng: np.random.Generator) -> float:
        """Supervised: cross-entropy of the average policy's masked softmax on the reservoir's
        best-response actions."""
        average = self.average
        batch = {
            k: to_network(average, torch.from_numpy(v))
            for k, v in self.reservoir.sample(self.settings.batch_size, rng).items()
        }
        logits, _ = average(batch["obs"], batch["mask"])
        loss = F.cross_entropy(logits, batch["action"])
        _step(self.average, self.sl_optimizer, loss, self.settings.max_grad_norm)
        return loss.item()


def _step(
    model: MaskedActorCritic, optimizer: torch.optim.Optimizer, loss: torch.Tensor, clip: float
) -> None:
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
    optimizer.step()
