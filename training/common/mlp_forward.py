"""The MLP network's forward pass written out, for the update's gradients by hand
(``training/ppo/fused.py``), which keep each layer's input and output for the backward pass:
autocast's arithmetic (bfloat16 products, everything else float32, tanh included), the weights
cast once per pass and shared by every share of its rows.

The rollout does not use it: its forward passes in bfloat16, with the weights cast once per
update, made a short seeded run slower than the network's float32 forward pass (15.7k against
17.5k-18.4k learner decisions/s); half of a rollout's passes are of fewer than 32 rows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

import torch
from torch import nn

from reborn_env.policies.network import MaskedActorCritic, Tanh


def supports(model: MaskedActorCritic) -> bool:
    """Whether the network is one this module runs: the ``mlp`` torso, linear layers each
    followed by tanh."""
    layers = list(model.torso)
    return (
        model.encoder is None
        and len(layers) % 2 == 0
        and all(isinstance(layer, nn.Linear) for layer in layers[0::2])
        and all(isinstance(layer, Tanh) for layer in layers[1::2])
    )


def narrowing(dtype: torch.dtype) -> Callable[[torch.Tensor], torch.Tensor]:
    """A float32 tensor in ``dtype``, any other as it is: what autocast does to a product's
    inputs (a float64 network, as the device tests use, computes in float64); for float32 every
    tensor as it is."""
    if dtype == torch.float32:
        return lambda t: t
    return lambda t: t.to(dtype) if t.dtype == torch.float32 else t


def wide(t: torch.Tensor) -> torch.Tensor:
    """A half-precision tensor in float32, any other as it is (as the network's ``Tanh`` and its
    float32 outputs under autocast)."""
    return t.float() if t.dtype in (torch.bfloat16, torch.float16) else t


class CastWeights:
    """A network's weights in its products' dtype (:func:`narrowing`)."""

    def __init__(self, model: MaskedActorCritic, dtype: torch.dtype) -> None:
        self.low = low = narrowing(dtype)
        self.linears = list(model.torso)[0::2]
        self.weights = [low(layer.weight) for layer in self.linears]
        self.biases = [low(layer.bias) for layer in self.linears]
        self.policy_weight, self.policy_bias = low(model.policy.weight), low(model.policy.bias)
        self.value_weight, self.value_bias = low(model.value.weight), low(model.value.bias)


@dataclass
class Rows:
    """A forward pass over some rows: each layer's input (in the products' dtype) and tanh
    output (float32, or the network's wider dtype), the last hidden layer as the heads take
    it, the value, and the legal actions' log-probabilities and probabilities."""

    inputs: list[torch.Tensor] = field(default_factory=list)
    outputs: list[torch.Tensor] = field(default_factory=list)
    last: torch.Tensor = field(default_factory=lambda: torch.empty(0))
    value: torch.Tensor = field(default_factory=lambda: torch.empty(0))
    log_probs: torch.Tensor = field(default_factory=lambda: torch.empty(0))
    probs: torch.Tensor = field(default_factory=lambda: torch.empty(0))

    @cached_property
    def entropy(self) -> torch.Tensor:
        """Each row's entropy over the legal actions, computed when first asked for (PPO's loss
        needs it, MMD's does not)."""
        return -(self.probs * self.log_probs).sum(-1)


def illegal_offset(masks: torch.Tensor) -> torch.Tensor:
    """-1e9 where ``masks`` (bool) is False, 0 where True, as float32: added to the logits it
    gives every illegal action probability exactly 0, as ``masked_fill`` with -1e9 does, at a
    quarter of its cost on a CPU (whose ``masked_fill`` and bool-to-float conversion take a slow
    path; the byte view does not)."""
    return masks.view(torch.uint8).float().sub_(1.0).mul_(1e9)


def forward_rows(weights: CastWeights, obs: torch.Tensor, masks: torch.Tensor) -> Rows:
    """The network's forward pass over rows ``obs`` with legal actions ``masks``, in the
    arithmetic of ``weights``; an illegal action's logit is -1e9, its probability 0."""
    low, rows, h = weights.low, Rows(), obs
    for weight, bias in zip(weights.weights, weights.biases, strict=True):
        rows.inputs.append(low(h))
        h = torch.tanh(wide(torch.addmm(bias, rows.inputs[-1], weight.t())))
        rows.outputs.append(h)
    rows.last = low(h)
    logits = wide(torch.addmm(weights.policy_bias, rows.last, weights.policy_weight.t()))
    logits += illegal_offset(masks)
    value = torch.addmm(weights.value_bias, rows.last, weights.value_weight.t())
    rows.value = wide(value).squeeze(-1)
    rows.log_probs = torch.log_softmax(logits, dim=-1)
    rows.probs = torch.softmax(logits, dim=-1)
    return rows
