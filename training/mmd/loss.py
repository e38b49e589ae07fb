"""Magnetic mirror descent (Sokota et al., 2023) as a policy-gradient update: PPO's surrogate
plus a reverse KL to a magnet and a reverse KL to the policy before the update.

Each update minimises, over the rollout's decisions,

    surrogate + alpha * KL(pi || magnet) + (1 / eta) * KL(pi || pi_old) + vf_coef * value loss

where ``pi_old`` is the whole action distribution of the network as the update begins (the
policy that played the rollout), the mirror-descent step that keeps each update close to the
last, and the magnet is the uniform distribution over the legal actions (then the magnet term is
an entropy bonus) or a fixed policy such as the teacher's clone. Both KLs are exact, summed over
the legal actions. ``alpha`` falls linearly from ``magnet_coef`` to ``magnet_coef_end`` over the
run: a regularised game's equilibrium (a quantal response equilibrium) that moves toward the
original game's Nash equilibrium as the regularisation fades. In self-play against the current
policy and its past selves this is the regularised self-play that Sokota et al. and Rudolph et
al. (2026) find competitive with NFSP, PSRO and CFR-based deep methods on exploitability.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from reborn_env.policies.network import MaskedActorCritic
from training.common.mlp_forward import supports
from training.common.precision import autocast, network_precision
from training.ppo import fused
from training.ppo.inputs import Batch, Hyperparameters
from training.ppo.loss import policy_loss, value_loss


@dataclass(frozen=True, kw_only=True)
class MMDLoss(Hyperparameters):
    """What the update reads: PPO's update's keys and MMD's three, taken from a run's config by
    ``training.common.schema.settings_of``."""

    magnet_coef: float
    magnet_coef_end: float
    kl_coef: float

    def alpha(self, update: int) -> float:
        """The magnet's weight at ``update`` (updates done before it): linear from
        ``magnet_coef`` to ``magnet_coef_end``."""
        done = min(update / max(self.num_updates - 1, 1), 1.0)
        return self.magnet_coef + (self.magnet_coef_end - self.magnet_coef) * done


def uniform_log_probs(mask: torch.Tensor) -> torch.Tensor:
    """The uniform distribution over each row's legal actions, as log-probabilities."""
    legal = mask.sum(-1, keepdim=True).clamp(min=1).to(torch.float32)
    return (-legal.log()).expand(mask.shape).masked_fill(~mask, 0.0)


def reverse_kl(log_p: torch.Tensor, log_q: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """KL(p || q) per row, summed over the legal actions."""
    return (log_p.exp() * mask * (log_p - log_q)).sum(-1)


def mmd_by_autograd(
    model: MaskedActorCritic,
    mb: Batch,
    hp: MMDLoss,
    dtype: torch.dtype,
    device_type: str,
    alpha: float,
    pull: torch.Tensor,
    old: torch.Tensor,
) -> tuple[torch.Tensor, ...]:
    """Backpropagate MMD's loss on ``mb`` (toward ``pull``, the magnet's log-probabilities of its
    rows, and ``old``, the update's first ones) into the parameters' ``.grad``, which must be
    cleared first; (policy loss, value loss, KL to the magnet, KL to the previous policy, the
    log-probabilities)."""
    mask = mb.masks
    with autocast(dtype, device_type):
        log_p, newvalue = model.log_probs_and_value(mb.obs, mask)
        newlogprob = log_p.gather(-1, mb.actions.unsqueeze(-1)).squeeze(-1)
        ratio = (newlogprob - mb.logprobs).exp()
        pg_loss = policy_loss(ratio, mb.advantages, hp)
        v_loss = value_loss(newvalue, mb.values, mb.returns, hp)
        kl_magnet = reverse_kl(log_p, pull, mask).mean()
        kl_prev = reverse_kl(log_p, old, mask).mean()
        loss = pg_loss + alpha * kl_magnet + hp.kl_coef * kl_prev + hp.vf_coef * v_loss
    loss.backward()
    return pg_loss, v_loss, kl_magnet, kl_prev, log_p


def mmd_by_hand(
    model: MaskedActorCritic,
    mb: Batch,
    hp: MMDLoss,
    dtype: torch.dtype,
    alpha: float,
    pull: torch.Tensor,
    old: torch.Tensor,
    threads: int = 1,
) -> tuple[torch.Tensor, ...]:
    """:func:`mmd_by_autograd`'s gradients and losses for the MLP network, by the chain rule
    written out (``training/ppo/fused.py``). A reverse KL's gradient with respect to the
    logits: ``d KL(p || q) / d z = p * (log p - log q - KL(p || q))``. Run under
    ``torch.no_grad()``; the rows split over ``threads`` as ``fused.Pass`` splits them."""
    fwd = fused.Pass(model, mb.obs, mb.masks, dtype, threads)
    probs, mask, taken = fwd.probs, mb.masks, mb.actions.unsqueeze(-1)
    log_p = fwd.log_probs.masked_fill(~mask, 0.0)
    ratio = (log_p.gather(-1, taken).squeeze(-1) - mb.logprobs).exp()
    pg_loss, d_logprob = fused.surrogate(ratio, mb.advantages, hp)
    v_loss, d_value = fused.value_error(mb, fwd.value, hp)
    n, kls, d_logits = len(ratio), [], torch.zeros_like(probs)
    for weight, toward in ((alpha, pull), (hp.kl_coef, old)):
        rows = reverse_kl(log_p, toward, mask)
        d_logits += probs * (log_p - toward - rows.unsqueeze(-1)) * (weight / n)
        kls.append(rows.mean())
    d_logits = fused.through_taken(d_logits, probs, taken, d_logprob)
    fwd.backward(lambda rows, begin, end: d_logits[begin:end], d_value)
    return pg_loss, v_loss, *kls, log_p


def mmd_update(
    model: MaskedActorCritic,
    optimizer: torch.optim.Optimizer,
    batch: Batch,
    hp: MMDLoss,
    rng: np.random.Generator,
    update: int,
    magnet: MaskedActorCritic | None = None,
) -> dict[str, float]:
    """Update ``model`` on ``batch`` (``update`` updates done before this one) toward the
    magnet (``None``: uniform); the last minibatch's losses and the update's statistics."""
    if hp.anneal_lr:
        optimizer.param_groups[0]["lr"] = (1.0 - update / hp.num_updates) * hp.learning_rate
    alpha = hp.alpha(update)
    dtype, device_type = network_precision(model, hp.precision)
    whole = batch.on(model, dtype)
    if magnet is not None:
        magnet.to(next(model.parameters()))  # where the learner is
    with torch.no_grad(), autocast(dtype, device_type):
        old, _ = model.log_probs_and_value(whole.obs, whole.masks)
        pull = (
            uniform_log_probs(whole.masks)
            if magnet is None
            else magnet.log_probs_and_value(whole.obs, whole.masks)[0]
        )
    order = np.arange(hp.batch_size)
    by_hand = hp.fused_update and supports(model)
    for _ in range(hp.update_epochs):
        rng.shuffle(order)
        for begin in range(0, hp.batch_size, hp.minibatch_size):
            index = torch.from_numpy(order[begin : begin + hp.minibatch_size])
            mb = whole.rows(index)
            mask = mb.masks
            toward = (pull.index_select(0, index), old.index_select(0, index))
            if by_hand:
                with torch.no_grad():
                    losses = mmd_by_hand(model, mb, hp, dtype, alpha, *toward, hp.update_threads)
            else:
                optimizer.zero_grad()
                losses = mmd_by_autograd(model, mb, hp, dtype, device_type, alpha, *toward)
            pg_loss, v_loss, kl_magnet, kl_prev, log_p = losses
            nn.utils.clip_grad_norm_(model.parameters(), hp.max_grad_norm)
            optimizer.step()
    with torch.no_grad():
        entropy = -(log_p.exp() * mask * log_p).sum(-1).mean()
    return {
        "policy_loss": pg_loss.item(),
        "value_loss": v_loss.item(),
        "entropy": entropy.item(),
        "kl_magnet": kl_magnet.item(),
        "kl_previous": kl_prev.item(),
        "magnet_coef": alpha,
        "learning_rate": optimizer.param_groups[0]["lr"],
    }
