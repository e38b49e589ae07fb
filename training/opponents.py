"""Who plays the learner's other seat in self-play: the current policy, a past snapshot or a bot.

The pool keeps the latest ``pool_size`` snapshots of the policy (taken every ``snapshot_every``
updates, and once after the imitation warm start); each new episode draws its opponent
(:meth:`OpponentPool.draw`). An opponent is named by a key: ``"self"`` (the current policy),
``"pool<k>"`` (snapshot ``k``, oldest first) or ``"bot:<name>"`` (a scripted bot of
``bot_opponents``, one instance per env since bots may keep per-game state). The snapshots are
saved in a run's checkpoint (its ``pool``); the networks and bots built from them are not.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import torch

from .model import MaskedActorCritic, build_model

if TYPE_CHECKING:
    import numpy as np

    from reborn_env.bots import Bot

    from .config import TrainConfig

SELF = "self"
POOL = "pool"
BOT = "bot:"


@dataclass
class OpponentPool:
    """The snapshots of the policy, and the networks and bots that play as opponents."""

    cfg: TrainConfig
    snapshots: list[dict[str, torch.Tensor]] = field(default_factory=list)  # oldest first
    _models: dict[int, MaskedActorCritic] = field(default_factory=dict)
    _bots: dict[int, dict[str, Bot]] = field(default_factory=dict)  # env -> key -> bot

    def draw(self, rng: np.random.Generator) -> str:
        """A scripted bot with ``bot_opponent_prob``, else the current policy or a snapshot."""
        cfg = self.cfg
        if cfg.bot_opponents and rng.random() < cfg.bot_opponent_prob:
            return BOT + cfg.bot_opponents[int(rng.integers(len(cfg.bot_opponents)))]
        if self.snapshots and rng.random() >= cfg.latest_opponent_prob:
            return f"{POOL}{int(rng.integers(len(self.snapshots)))}"
        return SELF

    def bot(self, i: int, key: str) -> Bot:
        """Env ``i``'s own instance of the scripted opponent ``key`` (``bot:<name>``)."""
        from .evaluate import make_opponent

        bots = self._bots.setdefault(i, {})
        if key not in bots:
            bots[key] = make_opponent(key[len(BOT) :], self.cfg.env, seed=self.cfg.seed + i)
        return bots[key]

    def model(self, key: str, current: MaskedActorCritic) -> MaskedActorCritic:
        """The network behind ``"self"`` (``current``) or ``"pool<k>"``."""
        if key == SELF:
            return current
        index = int(key[len(POOL) :])
        if index not in self._models:
            net = build_model(current.obs_size, current.n_actions, self.cfg.hidden_sizes)
            net.load_state_dict(self.snapshots[index])
            self._models[index] = net
        return self._models[index]

    def add_snapshot(self, model: MaskedActorCritic) -> None:
        """Keep a copy of ``model``'s weights, and only the latest ``pool_size`` snapshots."""
        self.snapshots.append({k: v.detach().clone() for k, v in model.state_dict().items()})
        self.restore(self.snapshots[-self.cfg.pool_size :])

    def restore(self, snapshots: list[dict[str, torch.Tensor]]) -> None:
        """Replace the snapshots (a resumed run's ``pool``); their networks are built anew."""
        self.snapshots = snapshots
        self._models.clear()
