"""The inference network of policy files: an actor-critic with action masking (CleanRL style).

Illegal actions get a logit of -1e9 before the softmax, so they are never sampled, and the entropy
is computed over the legal actions only (their probabilities are exactly zero after masking).

Two torsos share the heads. ``mlp``: the flat observation through the hidden layers. ``records``:
the observation's fields of records (Earth Reborn's one record per character, read from the env's
``observation_layout``) first go through one encoder shared by every record of a field (the record
and a one-hot of its place, since actions name characters by place), and the encodings, one after
the other, with the rest of the observation, through the hidden layers: every character is read
by the same weights, so what is learnt of one serves the others.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from torch import nn

ILLEGAL_LOGIT = -1e9


def layer_init(layer: nn.Linear, std: float = float(np.sqrt(2)), bias: float = 0.0) -> nn.Linear:
    """Orthogonal weights and constant bias, as in CleanRL's PPO."""
    nn.init.orthogonal_(layer.weight, std)
    nn.init.constant_(layer.bias, bias)
    return layer


class Tanh(nn.Tanh):
    """tanh, computed in float32 or wider: under bfloat16 autocast torch's CPU tanh is 4.5
    times slower in bfloat16 than in float32, and a float32 tanh is also the more exact."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.tanh(x.float() if x.dtype in (torch.bfloat16, torch.float16) else x)


RecordSet = tuple[int, int, int]
"""(offset, count, width): ``count`` records of ``width`` floats from ``offset`` on."""


def record_sets(layout: Any) -> list[RecordSet]:
    """The fields of records of an observation layout (``core.observation_views.Layout``): every
    top-level group of more than one record."""
    if layout is None:
        return []
    return [
        (f.offset, f.count, f.item.size)
        for f in layout
        if f.item is not None and len(f.shape) == 1 and f.count > 1
    ]


class RecordEncoder(nn.Module):
    """Each field of records through its own shared encoder; the rest of the observation as it is.

    Output: the floats outside every field, then each record's encoding (``embed`` floats) in
    order; a record's encoder input is the record and a one-hot of its place in the field."""

    def __init__(self, obs_size: int, sets: list[RecordSet], embed: int) -> None:
        super().__init__()
        inside = np.zeros(obs_size, dtype=np.bool_)
        for offset, count, width in sets:
            if offset < 0 or offset + count * width > obs_size:
                raise ValueError(
                    f"record field {offset, count, width} is outside {obs_size} floats"
                )
            inside[offset : offset + count * width] = True
        rest = np.flatnonzero(~inside).tolist()
        self.register_buffer("rest", torch.tensor(rest, dtype=torch.long), persistent=False)
        self.sets = [tuple(int(v) for v in s) for s in sets]
        self.encoders = nn.ModuleList(
            nn.Sequential(
                layer_init(nn.Linear(width + count, embed)),
                Tanh(),
                layer_init(nn.Linear(embed, embed)),
                Tanh(),
            )
            for _, count, width in self.sets
        )
        for k, (_, count, _) in enumerate(self.sets):
            self.register_buffer(f"places{k}", torch.eye(count), persistent=False)
        self.out_size = int(self.rest.numel()) + sum(count * embed for _, count, _ in self.sets)

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        parts = [obs.index_select(1, self.rest)]
        for k, ((offset, count, width), encoder) in enumerate(
            zip(self.sets, self.encoders, strict=True)
        ):
            records = obs[:, offset : offset + count * width].reshape(-1, count, width)
            places = getattr(self, f"places{k}").expand(obs.shape[0], count, count)
            parts.append(encoder(torch.cat([records, places], dim=-1)).flatten(1))
        return torch.cat(parts, dim=1)


class MaskedActorCritic(nn.Module):
    """A torso (``mlp``, or ``records`` with ``record_sets``), a policy head over the flat action
    space and a value head."""

    def __init__(
        self,
        obs_size: int,
        n_actions: int,
        hidden_sizes: list[int],
        record_sets: list[RecordSet] | None = None,
        record_embed: int = 64,
    ) -> None:
        super().__init__()
        self.record_sets = [tuple(s) for s in record_sets or []]
        self.record_embed = record_embed
        self.encoder = (
            RecordEncoder(obs_size, self.record_sets, record_embed) if self.record_sets else None
        )
        layers: list[nn.Module] = []
        width = self.encoder.out_size if self.encoder is not None else obs_size
        for size in hidden_sizes:
            layers += [layer_init(nn.Linear(width, size)), Tanh()]
            width = size
        self.torso = nn.Sequential(*layers)
        self.policy = layer_init(nn.Linear(width, n_actions), std=0.01)
        self.value = layer_init(nn.Linear(width, 1), std=1.0)
        self.obs_size, self.n_actions = obs_size, n_actions

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(masked logits [B, n_actions], value [B])."""
        hidden = self.torso(self.encoder(obs) if self.encoder is not None else obs)
        logits = self.policy(hidden).masked_fill(~mask, ILLEGAL_LOGIT)
        return logits, self.value(hidden).squeeze(-1)

    def log_probs_and_value(
        self, obs: torch.Tensor, mask: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """(log-probability of every action [B, n_actions], 0 where illegal; value [B]), in
        float32 even where the products ran in bfloat16 (under autocast)."""
        logits, value = self(obs, mask)
        log_probs = torch.log_softmax(logits.float(), dim=-1)
        return log_probs.masked_fill(~mask, 0.0), value.float()

    def get_action_and_value(
        self, obs: torch.Tensor, mask: torch.Tensor, action: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        """Sample (or score) an action: (action, log-prob, entropy over legal actions, value).

        Written with log_softmax and :func:`sample_actions` rather than
        torch.distributions.Categorical, whose per-call checks cost more than the forward pass at
        the batch sizes of a rollout. An illegal action's probability is exactly 0 (its logit is
        -1e9), so it adds nothing to the entropy and needs no second mask. The results are
        float32 even where the products ran in bfloat16 (under autocast).
        """
        logits, value = self(obs, mask)
        log_probs = torch.log_softmax(logits.float(), dim=-1)
        probs = torch.softmax(logits.float(), dim=-1)  # exp(log_probs) is 20x slower: -1e9
        if action is None:
            action = sample_actions(probs)
        logprob = log_probs.gather(-1, action.unsqueeze(-1)).squeeze(-1)
        entropy = -(probs * log_probs).sum(-1)
        return action, logprob, entropy, value.float()


def sample_actions(probs: torch.Tensor, generator: torch.Generator | None = None) -> torch.Tensor:
    """One action per row of ``probs`` [B, n] (rows of non-negative weights), by the inverse of
    each row's cumulative distribution: ten times faster than ``torch.multinomial`` on a rollout's
    batch. An action of weight 0 is never drawn: row ``b`` draws the first action whose cumulative
    weight exceeds ``u < total``. ValueError if a row's total is not a positive finite number (a
    diverged network), as ``torch.multinomial`` refuses it."""
    cumulative = probs.cumsum(-1)
    total = cumulative[:, -1:]
    if not bool(((total > 0) & torch.isfinite(total)).all()):
        raise ValueError("the action probabilities hold NaN, inf or a row of zeros")
    drawn = torch.rand(total.shape, generator=generator, dtype=total.dtype) * total
    below_total = torch.minimum(drawn, torch.nextafter(total, torch.zeros_like(total)))
    return (cumulative <= below_total).sum(-1)


def to_network(model: nn.Module, tensor: torch.Tensor) -> torch.Tensor:
    """``tensor`` where ``model`` computes: on its device, a floating tensor in its weights'
    dtype (a no-op for a float32 network on the CPU). Every input a network is fed goes through
    this, so a network may live on any device."""
    weight = next(model.parameters())
    dtype = weight.dtype if tensor.is_floating_point() else tensor.dtype
    return tensor.to(weight.device, dtype, non_blocking=True)


def to_host(tensor: torch.Tensor) -> torch.Tensor:
    """A network's output (or weights) as the host keeps them: on the CPU, floating tensors in
    float32, the dtype of rollout buffers and policy files."""
    if tensor.is_floating_point():
        return tensor.to("cpu", torch.float32)
    return tensor.cpu()


def host_state(model: nn.Module) -> dict[str, torch.Tensor]:
    """A copy of ``model``'s weights on the host (:func:`to_host`): what a checkpoint and the
    opponent pool keep, wherever the network lives."""
    return {k: to_host(v.detach()).clone() for k, v in model.state_dict().items()}


def build_model(
    obs_size: int,
    n_actions: int,
    hidden_sizes: list[int],
    record_sets: list[RecordSet] | None = None,
    record_embed: int = 64,
) -> MaskedActorCritic:
    """The network every trainer, bot and exporter builds from a checkpoint's sizes (and, for
    the ``records`` torso, its record fields)."""
    return MaskedActorCritic(obs_size, n_actions, list(hidden_sizes), record_sets, record_embed)


def network_entry(model: MaskedActorCritic) -> dict[str, Any]:
    """What a checkpoint records of the network beyond its sizes: its torso."""
    if not model.record_sets:
        return {"torso": "mlp"}
    sets = [list(s) for s in model.record_sets]
    return {"torso": "records", "record_sets": sets, "record_embed": model.record_embed}


def network_options(entry: Any) -> dict[str, Any]:
    """``build_model``'s keyword arguments from a checkpoint's ``network`` entry (none, for
    checkpoints from before it: an MLP); ValueError if it is malformed."""
    if entry is None or entry == {"torso": "mlp"}:
        return {}
    ok = isinstance(entry, dict) and entry.get("torso") == "records"
    sets = entry.get("record_sets") if ok else None
    embed = entry.get("record_embed") if ok else None
    if not (
        isinstance(sets, list)
        and sets
        and all(
            isinstance(s, list | tuple)
            and len(s) == 3
            and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in s)
            for s in sets
        )
        and isinstance(embed, int)
        and 0 < embed <= 4096
    ):
        raise ValueError(f"network entry {entry!r}: not an mlp or a records torso")
    return {"record_sets": [tuple(s) for s in sets], "record_embed": embed}
