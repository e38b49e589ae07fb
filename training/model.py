"""The actor-critic network with action masking (gym-microrts / CleanRL style).

Illegal actions get a logit of -1e9 before the softmax, so they are never sampled, and the entropy
is computed over the legal actions only (their probabilities are exactly zero after masking).
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

ILLEGAL_LOGIT = -1e9


def layer_init(layer: nn.Linear, std: float = float(np.sqrt(2)), bias: float = 0.0) -> nn.Linear:
    """Orthogonal weights and constant bias, as in CleanRL's PPO."""
    nn.init.orthogonal_(layer.weight, std)
    nn.init.constant_(layer.bias, bias)
    return layer


class MaskedActorCritic(nn.Module):
    """Shared MLP torso, a policy head over the flat action space and a value head."""

    def __init__(self, obs_size: int, n_actions: int, hidden_sizes: list[int]) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        width = obs_size
        for size in hidden_sizes:
            layers += [layer_init(nn.Linear(width, size)), nn.Tanh()]
            width = size
        self.torso = nn.Sequential(*layers)
        self.policy = layer_init(nn.Linear(width, n_actions), std=0.01)
        self.value = layer_init(nn.Linear(width, 1), std=1.0)
        self.obs_size, self.n_actions = obs_size, n_actions

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(masked logits [B, n_actions], value [B])."""
        hidden = self.torso(obs)
        logits = self.policy(hidden).masked_fill(~mask, ILLEGAL_LOGIT)
        return logits, self.value(hidden).squeeze(-1)

    def get_action_and_value(
        self, obs: torch.Tensor, mask: torch.Tensor, action: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        """Sample (or score) an action: (action, log-prob, entropy over legal actions, value).

        Written with log_softmax and multinomial rather than torch.distributions.Categorical,
        whose per-call checks cost more than the forward pass at the batch sizes of a rollout.
        """
        logits, value = self(obs, mask)
        log_probs = torch.log_softmax(logits, dim=-1).masked_fill(~mask, 0.0)
        probs = log_probs.exp() * mask
        if action is None:
            action = torch.multinomial(probs, 1).squeeze(-1)
        logprob = log_probs.gather(-1, action.unsqueeze(-1)).squeeze(-1)
        entropy = -(probs * log_probs).sum(-1)
        return action, logprob, entropy, value


def build_model(obs_size: int, n_actions: int, hidden_sizes: list[int]) -> MaskedActorCritic:
    """The network every trainer, bot and exporter builds from a checkpoint's sizes."""
    return MaskedActorCritic(obs_size, n_actions, list(hidden_sizes))
