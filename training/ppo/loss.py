"""The PPO update (CleanRL's ``ppo.py``): a few epochs of minibatch steps on the clipped objective.

The rollout is flattened into one batch (``training/ppo/inputs.py``, which also holds the
``Hyperparameters`` the update reads, a run's config keys of the same names). Each epoch
shuffles the batch with the run's generator and takes ``num_minibatches`` optimiser steps on the
loss ``policy - ent_coef * entropy + vf_coef * value``: the clipped surrogate objective with
(optionally) normalised advantages, the value loss (optionally clipped around the rollout's
values), and the entropy over legal actions. The gradients come from autograd, or for the MLP
network from the chain rule written out (``training/ppo/fused.py``, ``fused_update``), the same
within rounding. Gradients are clipped to ``max_grad_norm``; with ``anneal_lr`` the learning
rate falls linearly to 0 over the run. The batch moves to the network's device once; each
minibatch's products run in the run's ``precision`` (``training/common/precision.py``), the
optimiser's step in float32."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import torch
from torch import nn

from training.common.mlp_forward import supports
from training.common.precision import autocast, network_precision
from training.ppo import fused
from training.ppo.inputs import Batch, Hyperparameters

if TYPE_CHECKING:
    from reborn_env.policies.network import MaskedActorCritic


@dataclass
class Losses:
    """One minibatch's losses (the policy's, the value's, the mean entropy), and its log-ratios
    and ratios for the update's statistics."""

    policy: torch.Tensor
    value: torch.Tensor
    entropy: torch.Tensor
    logratio: torch.Tensor
    ratio: torch.Tensor


def autograd_losses(
    model: MaskedActorCritic, mb: Batch, hp: Hyperparameters, dtype: torch.dtype, device_type: str
) -> Losses:
    """Backpropagate the PPO loss on ``mb`` (its forward pass in ``dtype``) into the parameters'
    ``.grad``, which must be cleared first; the minibatch's losses."""
    with autocast(dtype, device_type):
        _, newlogprob, entropy, newvalue = model.get_action_and_value(mb.obs, mb.masks, mb.actions)
        logratio = newlogprob - mb.logprobs
        ratio = logratio.exp()
        pg_loss = policy_loss(ratio, mb.advantages, hp)
        v_loss = value_loss(newvalue, mb.values, mb.returns, hp)
        entropy_loss = entropy.mean()
        loss = pg_loss - hp.ent_coef * entropy_loss + hp.vf_coef * v_loss
    loss.backward()
    return Losses(pg_loss, v_loss, entropy_loss, logratio, ratio)


def minibatch_step(
    model: MaskedActorCritic,
    optimizer: torch.optim.Optimizer,
    mb: Batch,
    hp: Hyperparameters,
    dtype: torch.dtype,
    device_type: str,
    by_hand: bool,
) -> Losses:
    """One optimiser step on minibatch ``mb``: its gradients by hand (``fused.fused_losses``,
    for a network ``mlp_forward.supports``) or by autograd, clipped to ``max_grad_norm``; the
    minibatch's losses."""
    if by_hand:
        with torch.no_grad():
            losses = Losses(*fused.fused_losses(model, mb, hp, dtype, hp.update_threads))
    else:
        optimizer.zero_grad()
        losses = autograd_losses(model, mb, hp, dtype, device_type)
    nn.utils.clip_grad_norm_(model.parameters(), hp.max_grad_norm)
    optimizer.step()
    return losses


def ppo_update(
    model: MaskedActorCritic,
    optimizer: torch.optim.Optimizer,
    batch: Batch,
    hp: Hyperparameters,
    rng: np.random.Generator,
    update: int,
) -> dict[str, float]:
    """Update ``model`` on ``batch`` (``update`` updates done before this one); the last
    minibatch's losses and the update's statistics, as TensorBoard's ``losses/`` scalars."""
    if hp.anneal_lr:
        optimizer.param_groups[0]["lr"] = (1.0 - update / hp.num_updates) * hp.learning_rate
    order = np.arange(hp.batch_size)
    clipfracs = []
    dtype, device_type = network_precision(model, hp.precision)
    whole = batch.on(model, dtype)
    by_hand = hp.fused_update and supports(model)
    for _ in range(hp.update_epochs):
        rng.shuffle(order)
        for begin in range(0, hp.batch_size, hp.minibatch_size):
            mb = whole.rows(torch.from_numpy(order[begin : begin + hp.minibatch_size]))
            losses = minibatch_step(model, optimizer, mb, hp, dtype, device_type, by_hand)
            with torch.no_grad():
                ratio, logratio = losses.ratio, losses.logratio
                approx_kl = ((ratio - 1) - logratio).mean()
                clipfracs.append(((ratio - 1.0).abs() > hp.clip_coef).float().mean().item())
    var_y = batch.returns.var()
    explained = (
        float("nan") if var_y == 0 else float(1 - (batch.returns - batch.values).var() / var_y)
    )
    return {
        "policy_loss": losses.policy.item(),
        "value_loss": losses.value.item(),
        "entropy": losses.entropy.item(),
        "approx_kl": approx_kl.item(),
        "clipfrac": float(np.mean(clipfracs)),
        "explained_variance": explained,
        "learning_rate": optimizer.param_groups[0]["lr"],
    }


def policy_loss(ratio: torch.Tensor, advantages: torch.Tensor, hp: Hyperparameters) -> torch.Tensor:
    """The clipped surrogate objective (to minimise), advantages normalised if ``norm_adv``."""
    if hp.norm_adv:
        advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
    clipped = ratio.clamp(1 - hp.clip_coef, 1 + hp.clip_coef)
    return torch.max(-advantages * ratio, -advantages * clipped).mean()


def value_loss(
    new: torch.Tensor, old: torch.Tensor, returns: torch.Tensor, hp: Hyperparameters
) -> torch.Tensor:
    """Half the squared error to the returns; with ``clip_vloss`` the larger of it and that of the
    new value clipped to ``clip_coef`` around the rollout's."""
    unclipped = (new - returns) ** 2
    if not hp.clip_vloss:
        return 0.5 * unclipped.mean()
    clipped = old + (new - old).clamp(-hp.clip_coef, hp.clip_coef)
    return 0.5 * torch.max(unclipped, (clipped - returns) ** 2).mean()
