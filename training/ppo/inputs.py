"""What a PPO update takes: a rollout's decisions as one flat batch (:func:`flatten`), and the
hyperparameters it reads (:class:`Hyperparameters`, a run's config keys of the same names).
The update itself is ``training/ppo/loss.py``; its gradients by hand, ``training/ppo/fused.py``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING

import numpy as np
import torch
from torch import nn

from reborn_env.policies.network import to_network

if TYPE_CHECKING:
    from training.ppo.rollout import Rollout


@dataclass(frozen=True, kw_only=True)
class Hyperparameters:
    """What a PPO update reads: the keys of a run's config of the same names
    (``training.common.schema.settings_of`` takes them from it)."""

    learning_rate: float
    anneal_lr: bool
    num_updates: int
    """updates in the run, over which an annealed learning rate falls to 0"""
    update_epochs: int
    batch_size: int
    minibatch_size: int
    clip_coef: float
    clip_vloss: bool
    norm_adv: bool
    ent_coef: float
    vf_coef: float
    max_grad_norm: float
    precision: str
    """the network's arithmetic (``training/common/precision.py``)"""
    fused_update: bool
    """the gradients written out by hand where the network allows (``training/ppo/fused.py``);
    autograd otherwise, and always when false"""
    update_threads: int = 1
    """threads the gradients by hand split each minibatch's rows over, on a CPU"""


Update = Callable[[nn.Module, torch.optim.Optimizer, "Batch", np.random.Generator, int], dict]
"""An algorithm's step on one rollout: ``(model, optimizer, batch, rng, updates_done)`` -> the
statistics logged as TensorBoard's ``losses/`` scalars. The PPO loop calls it once per rollout."""


@dataclass
class Batch:
    """A rollout's decisions as one flat batch, with their advantages and returns."""

    obs: torch.Tensor
    masks: torch.Tensor
    actions: torch.Tensor
    logprobs: torch.Tensor
    values: torch.Tensor
    advantages: torch.Tensor
    returns: torch.Tensor

    def rows(self, index: torch.Tensor) -> Batch:
        """The decisions at ``index``, a minibatch (``index_select``: about twice as fast as
        indexing on a CPU)."""
        return Batch(*(getattr(self, f.name).index_select(0, index) for f in fields(self)))

    def on(self, model: nn.Module, dtype: torch.dtype) -> Batch:
        """The batch where ``model`` computes, moved once for the whole update; its observations
        in ``dtype`` when the products run in bfloat16 (cast once rather than in each
        minibatch's first layer, and half the bytes each minibatch gathers)."""
        moved = Batch(*(to_network(model, getattr(self, f.name)) for f in fields(self)))
        return moved if dtype == torch.float32 else replace(moved, obs=moved.obs.to(dtype))


def flatten(rollout: Rollout, advantages: torch.Tensor, returns: torch.Tensor) -> Batch:
    """The [T, N] rollout (and its [T, N] advantages and returns) as [T * N] rows."""
    return Batch(
        obs=rollout.obs.reshape(-1, rollout.obs.shape[-1]),
        masks=rollout.masks.reshape(-1, rollout.masks.shape[-1]),
        actions=rollout.actions.reshape(-1),
        logprobs=rollout.logprobs.reshape(-1),
        values=rollout.values.reshape(-1),
        advantages=advantages.reshape(-1),
        returns=returns.reshape(-1),
    )
