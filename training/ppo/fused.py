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
from concurrent.futures import ThreadPoolExecutor
from functools import cache, cached_property, partial
from typing import TYPE_CHECKING, TypeVar

import torch

from training.common.mlp_forward import CastWeights, Rows, forward_rows, wide

if TYPE_CHECKING:
    from reborn_env.policies.network import MaskedActorCritic
    from training.ppo.inputs import Batch, Hyperparameters

_T = TypeVar("_T")
ShareGradient = Callable[[Rows, int, int], torch.Tensor]
"""The loss's gradient with respect to the logits of one share of a pass's rows: ``(its
rows, begin, end)`` -> [end - begin, actions]."""


def _tie_split(first: torch.Tensor, second: torch.Tensor) -> torch.Tensor:
    """The share of ``torch.max(first, second)``'s gradient that reaches ``first``: 1 where it
    is larger, 1/2 where they tie, 0 elsewhere."""
    return (first > second).float() + 0.5 * (first == second).float()


class Pass:
    """One forward pass of the MLP network, kept for its backward pass: the legal actions'
    log-probabilities and probabilities and the value (float32, or the network's wider dtype),
    and per share of the rows each layer's input (in the products' dtype) and tanh output.

    With ``threads`` above 1, on a CPU, the minibatch's rows are split into that many contiguous
    shares, each run forward and backward on its own thread (torch's products release the
    interpreter's lock), and the shares' weight gradients summed in a fixed order: both cores at
    work without torch's OpenMP threads, whose spin makes them many times slower beside another
    job (``docs/training.md``). The split changes only the order of the sums, so the gradients
    agree with one share's within rounding."""

    def __init__(self, model: MaskedActorCritic, obs: torch.Tensor, masks: torch.Tensor,
                 dtype: torch.dtype, threads: int = 1) -> None:  # fmt: skip
        self.model = model
        self.cast = CastWeights(model, dtype)
        self.shares = row_shares(len(obs), threads if obs.device.type == "cpu" else 1)
        self.rows = _in_parallel(
            [partial(forward_rows, self.cast, obs[a:b], masks[a:b]) for a, b in self.shares]
        )
        self.value = _joined([rows.value for rows in self.rows])

    @cached_property
    def log_probs(self) -> torch.Tensor:
        """[rows, actions]: the shares' log-probabilities joined (a copy where they are two)."""
        return _joined([rows.log_probs for rows in self.rows])

    @cached_property
    def entropy(self) -> torch.Tensor:
        """[rows]: the shares' entropies joined (each computed on its share's thread when the
        loss's gradient asks for it, :meth:`backward`)."""
        return _joined([rows.entropy for rows in self.rows])

    @cached_property
    def probs(self) -> torch.Tensor:
        """[rows, actions]: the shares' probabilities joined."""
        return _joined([rows.probs for rows in self.rows])

    def taken(self, actions: torch.Tensor) -> torch.Tensor:
        """Each row's log-probability of ``actions`` ([rows, 1]), share by share."""
        return _joined(
            [
                rows.log_probs.gather(-1, actions[a:b]).squeeze(-1)
                for rows, (a, b) in zip(self.rows, self.shares, strict=True)
            ]
        )

    def backward(self, d_logits: ShareGradient, d_value: torch.Tensor) -> None:
        """Set every parameter's ``.grad`` from the loss's gradients with respect to the logits
        (``d_logits(rows, begin, end)`` for each share, computed on the share's thread) and the
        value, products in the pass's dtype as autocast's backward runs them."""
        model = self.model
        parameters = [model.policy.weight, model.policy.bias, model.value.weight, model.value.bias]
        for layer in reversed(self.cast.linears):
            parameters += [layer.weight, layer.bias]
        per_share = _in_parallel(
            [
                partial(self._backward, rows, partial(d_logits, rows, a, b), d_value[a:b])
                for rows, (a, b) in zip(self.rows, self.shares, strict=True)
            ]
        )
        for k, parameter in enumerate(parameters):
            grad = per_share[0][k]
            for other in per_share[1:]:
                grad = grad + other[k]
            parameter.grad = grad

    def _backward(
        self, rows: Rows, share_d_logits: Callable[[], torch.Tensor], d_value: torch.Tensor
    ) -> list[torch.Tensor]:
        """One share's gradients, in the order :meth:`backward` lists the parameters."""
        cast, last = self.cast, rows.last
        low = cast.low
        d_logits = share_d_logits()
        d_out = low(d_logits)
        grads = [
            wide(d_out.t() @ last),
            d_logits.sum(0),
            wide(low(d_value.unsqueeze(0)) @ last),
            d_value.sum(0, keepdim=True),
        ]
        d_h = wide(d_out @ cast.policy_weight)
        d_h += wide(low(d_value.unsqueeze(-1)) @ cast.value_weight)
        for k in range(len(cast.linears) - 1, -1, -1):
            h = rows.outputs[k]
            d_z = d_h * (1 - h * h)
            d_low = low(d_z)
            grads += [wide(d_low.t() @ rows.inputs[k]), d_z.sum(0)]
            if k:
                d_h = wide(d_low @ cast.weights[k])
        return grads


def row_shares(n: int, threads: int) -> list[tuple[int, int]]:
    """``n`` rows as at most ``threads`` contiguous ``(begin, end)`` shares, none empty, their
    sizes differing by at most one."""
    count = max(1, min(threads, n))
    bounds = [n * k // count for k in range(count + 1)]
    return list(zip(bounds[:-1], bounds[1:], strict=True))


@cache
def _workers(count: int) -> ThreadPoolExecutor:
    """The threads that run a pass's shares beyond the first (which the calling thread runs)."""
    return ThreadPoolExecutor(count, thread_name_prefix="fused-rows")


def _without_grad(work: Callable[[], _T]) -> _T:
    """``work()`` with autograd off in the thread that runs it (the mode is per thread)."""
    with torch.no_grad():
        return work()


def _in_parallel(works: list[Callable[[], _T]]) -> list[_T]:
    """Each of ``works`` run, the first on this thread and the others on worker threads; their
    results in order."""
    if len(works) == 1:
        return [works[0]()]
    futures = [_workers(len(works) - 1).submit(_without_grad, work) for work in works[1:]]
    first = works[0]()
    return [first, *(future.result() for future in futures)]


def _joined(parts: list[torch.Tensor]) -> torch.Tensor:
    """The shares' rows as one tensor (the one share itself, uncopied)."""
    return parts[0] if len(parts) == 1 else torch.cat(parts)


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
    model: MaskedActorCritic, mb: Batch, hp: Hyperparameters, dtype: torch.dtype, threads: int = 1
) -> tuple[torch.Tensor, ...]:
    """Set every parameter's ``.grad`` to the gradient of the PPO loss on ``mb`` (products in
    ``dtype``, the rows split over ``threads``, :class:`Pass`); the minibatch's (policy loss,
    value loss, mean entropy, log-ratios, ratios), as ``training.ppo.loss.Losses`` holds them.
    Run under ``torch.no_grad()``."""
    fwd = Pass(model, mb.obs, mb.masks, dtype, threads)
    taken = mb.actions.unsqueeze(-1)
    logratio = fwd.taken(taken) - mb.logprobs
    ratio = logratio.exp()
    pg_loss, d_logprob = surrogate(ratio, mb.advantages, hp)
    v_loss, d_value = value_error(mb, fwd.value, hp)
    scale = hp.ent_coef / len(ratio)

    def d_logits(rows: Rows, begin: int, end: int) -> torch.Tensor:
        entropy_part = rows.probs * (rows.log_probs + rows.entropy.unsqueeze(-1)) * scale
        return through_taken(entropy_part, rows.probs, taken[begin:end], d_logprob[begin:end])

    fwd.backward(d_logits, d_value)
    return pg_loss, v_loss, fwd.entropy.mean(), logratio, ratio
