"""The PPO loop's minibatch gradients written out by hand for the MLP network: the loss of
``training/ppo/loss.py`` (and, from the same pieces, MMD's in ``training/mmd/loss.py``),
differentiated by the chain rule in fewer operations than autograd runs, for the update's
minibatches, where torch's cost per operation weighs beside the arithmetic.

Autograd stays the reference (``fused_update: false``), and
``tests/training/test_fused_update.py`` holds the two to the same gradients. The arithmetic is
autocast's: in bfloat16 the matrix products (forward and backward) take bfloat16 inputs and
everything else is float32, tanh included (``reborn_env/policies/network.py``).

With ``p`` the legal actions' probabilities, ``a`` the action taken and ``H`` the entropy, the
gradients of the loss ``policy - ent_coef * entropy + vf_coef * value`` (each a mean over the
minibatch's ``n`` rows) with respect to the logits ``z`` and the value ``v``:

- the clipped surrogate, through the log-probability of ``a``: ``g * (onehot(a) - p)``, where
  ``g = d policy / d ratio * ratio``, and ``d policy / d ratio`` is ``-advantage / n`` where the
  unclipped term is the larger (half of it from each term where they tie, as ``torch.max``
  splits a tie, the clipped half lost outside the clip range);
- the entropy: ``d H / d z = -p * (log p + H)``;
- the value loss ``0.5 * (v - return)^2`` (the larger of it and the clipped value's with
  ``clip_vloss``, a tie split alike): ``(v - return) / n`` through the term that counts.

An illegal action's probability is exactly 0, so every term above is 0 there, as autograd's
gradient through the mask is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import torch
from torch import nn

from reborn_env.policies.network import Tanh

if TYPE_CHECKING:
    from reborn_env.policies.network import MaskedActorCritic
    from training.ppo.inputs import Batch, Hyperparameters


def supports(model: MaskedActorCritic) -> bool:
    """Whether the network is one this module differentiates: the ``mlp`` torso, linear layers
    each followed by tanh."""
    layers = list(model.torso)
    return (
        model.encoder is None
        and len(layers) % 2 == 0
        and all(isinstance(layer, nn.Linear) for layer in layers[0::2])
        and all(isinstance(layer, Tanh) for layer in layers[1::2])
    )


def _tie_split(first: torch.Tensor, second: torch.Tensor) -> torch.Tensor:
    """The share of ``torch.max(first, second)``'s gradient that reaches ``first``: 1 where it
    is larger, 1/2 where they tie, 0 elsewhere."""
    return (first > second).float() + 0.5 * (first == second).float()


def _narrowing(dtype: torch.dtype) -> Callable[[torch.Tensor], torch.Tensor]:
    """A float32 tensor in ``dtype``, any other as it is: what autocast does to a product's
    inputs (a float64 network, as the device tests use, computes in float64)."""
    return lambda t: t.to(dtype) if t.dtype == torch.float32 else t


def wide(t: torch.Tensor) -> torch.Tensor:
    """A half-precision tensor in float32, any other as it is (as the network's ``Tanh`` and its
    float32 outputs under autocast)."""
    return t.float() if t.dtype in (torch.bfloat16, torch.float16) else t


class Pass:
    """One forward pass of the MLP network, kept for its backward pass: each layer's input (in
    the products' dtype) and tanh output (float32, or the network's wider dtype), the masked
    logits and the value (likewise), and the legal actions' log-probabilities and
    probabilities."""

    def __init__(self, model: MaskedActorCritic, obs: torch.Tensor, masks: torch.Tensor,
                 dtype: torch.dtype) -> None:  # fmt: skip
        self.model = model
        self.low = (lambda t: t) if dtype == torch.float32 else _narrowing(dtype)
        low, h = self.low, obs
        self.linears = list(model.torso)[0::2]
        self.weights = [low(layer.weight) for layer in self.linears]
        self.inputs, self.outputs = [], []
        for layer, weight in zip(self.linears, self.weights, strict=True):
            self.inputs.append(low(h))
            h = torch.tanh(wide(torch.addmm(low(layer.bias), self.inputs[-1], weight.t())))
            self.outputs.append(h)
        self.last = low(h)
        self.policy_weight, self.value_weight = low(model.policy.weight), low(model.value.weight)
        logits = torch.addmm(low(model.policy.bias), self.last, self.policy_weight.t())
        self.logits = wide(logits).masked_fill_(~masks, -1e9)
        value = torch.addmm(low(model.value.bias), self.last, self.value_weight.t())
        self.value = wide(value).squeeze(-1)
        self.log_probs = torch.log_softmax(self.logits, dim=-1)
        self.probs = torch.softmax(self.logits, dim=-1)

    def backward(self, d_logits: torch.Tensor, d_value: torch.Tensor) -> None:
        """Set every parameter's ``.grad`` from the loss's gradients with respect to the logits
        and the value, products in the pass's dtype as autocast's backward runs them."""
        model, low, last = self.model, self.low, self.last
        d_out = low(d_logits)
        model.policy.weight.grad = wide(d_out.t() @ last)
        model.policy.bias.grad = d_logits.sum(0)
        model.value.weight.grad = wide(low(d_value.unsqueeze(0)) @ last)
        model.value.bias.grad = d_value.sum(0, keepdim=True)
        d_h = wide(d_out @ self.policy_weight)
        d_h += wide(low(d_value.unsqueeze(-1)) @ self.value_weight)
        for k in range(len(self.linears) - 1, -1, -1):
            layer, h = self.linears[k], self.outputs[k]
            d_z = d_h * (1 - h * h)
            d_low = low(d_z)
            layer.weight.grad = wide(d_low.t() @ self.inputs[k])
            layer.bias.grad = d_z.sum(0)
            if k:
                d_h = wide(d_low @ self.weights[k])


def surrogate(
    ratio: torch.Tensor, advantages: torch.Tensor, hp: Hyperparameters
) -> tuple[torch.Tensor, torch.Tensor]:
    """The clipped surrogate (``training.ppo.loss.policy_loss``) and its gradient with respect
    to each row's log-probability of the action taken."""
    n, c = len(ratio), hp.clip_coef
    if hp.norm_adv:
        advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
    clipped = ratio.clamp(1 - c, 1 + c)
    unclipped_term, clipped_term = -advantages * ratio, -advantages * clipped
    inside = ((ratio >= 1 - c) & (ratio <= 1 + c)).float()
    share = (
        _tie_split(unclipped_term, clipped_term) + _tie_split(clipped_term, unclipped_term) * inside
    )
    return torch.max(unclipped_term, clipped_term).mean(), (-advantages / n) * share * ratio


def value_error(mb: Batch, value: torch.Tensor, hp: Hyperparameters) -> tuple[torch.Tensor, ...]:
    """The value loss (``training.ppo.loss.value_loss``) and its gradient with respect to each
    row's value, ``vf_coef`` included."""
    c, error = hp.clip_coef, value - mb.returns
    if hp.clip_vloss:
        moved = value - mb.values
        clipped_error = mb.values + moved.clamp(-c, c) - mb.returns
        squares, clipped_squares = error * error, clipped_error * clipped_error
        v_loss = 0.5 * torch.max(squares, clipped_squares).mean()
        moved_inside = ((moved >= -c) & (moved <= c)).float()
        d_value = (
            _tie_split(squares, clipped_squares) * error
            + _tie_split(clipped_squares, squares) * moved_inside * clipped_error
        )
    else:
        v_loss = 0.5 * (error * error).mean()
        d_value = error
    return v_loss, d_value * (hp.vf_coef / len(value))


def through_taken(
    d_logits: torch.Tensor, probs: torch.Tensor, taken: torch.Tensor, d_logprob: torch.Tensor
) -> torch.Tensor:
    """Add to ``d_logits`` the gradient that reaches the logits through the log-probability of
    the action taken, ``d_logprob * (onehot(taken) - p)``."""
    d_logits -= probs * d_logprob.unsqueeze(-1)
    return d_logits.scatter_add_(-1, taken, d_logprob.unsqueeze(-1))


def fused_losses(
    model: MaskedActorCritic, mb: Batch, hp: Hyperparameters, dtype: torch.dtype
) -> tuple[torch.Tensor, ...]:
    """Set every parameter's ``.grad`` to the gradient of the PPO loss on ``mb`` (products in
    ``dtype``); the minibatch's (policy loss, value loss, mean entropy, log-ratios, ratios), as
    ``training.ppo.loss.Losses`` holds them. Run under ``torch.no_grad()``."""
    fwd = Pass(model, mb.obs, mb.masks, dtype)
    probs, log_probs, taken = fwd.probs, fwd.log_probs, mb.actions.unsqueeze(-1)
    entropy = -(probs * log_probs).sum(-1)
    logratio = log_probs.gather(-1, taken).squeeze(-1) - mb.logprobs
    ratio = logratio.exp()
    pg_loss, d_logprob = surrogate(ratio, mb.advantages, hp)
    v_loss, d_value = value_error(mb, fwd.value, hp)
    d_logits = probs * (log_probs + entropy.unsqueeze(-1)) * (hp.ent_coef / len(ratio))
    fwd.backward(through_taken(d_logits, probs, taken, d_logprob), d_value)
    return pg_loss, v_loss, entropy.mean(), logratio, ratio
