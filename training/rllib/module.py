"""The RLlib RLModule (new API stack) that holds our own masked actor-critic.

Why: a policy trained by RLlib must play wherever ours do (``load_bot``, the tournament, ONNX
export, the bot server). The module's network *is* ``reborn_env.policies.network.build_model``'s
MLP, so its state_dict, minus the ``net.`` prefix, is a ``model`` entry of our checkpoints
(``training.rllib.convert``) and the converted policy gives the same probabilities.

Masking: the observation is the env's ``Dict(observation, action_mask)``; the logits of actions
the mask forbids are set to ``reborn_env.policies.network.ILLEGAL_LOGIT`` (-1e9) by the network
itself, so RLlib's categorical never samples them and their probability is exactly zero in the
loss. We do not use RLlib's ``ActionMaskingTorchRLModule`` example
(``rllib/examples/rl_modules/classes/ action_masking_rlm.py``, still in 2.60): it expects the keys
``observations`` (plural) and ``action_mask``, pops them out of the observation dict of the batch
it is given (its ``_forward_train`` then finds the mask only if ``compute_values`` ran on the same
batch first, and put it back), and builds RLlib's default torso, whose weights do not map onto ours.
"""

from __future__ import annotations

from typing import Any

import torch
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.torch import TorchRLModule

from reborn_env.policies.network import ILLEGAL_LOGIT, build_model

PREFIX = "net."  # the module's state_dict keys are our network's with this prefix


class MaskedActorCriticModule(TorchRLModule, ValueFunctionAPI):
    """PPO's RLModule over ``build_model(obs_size, n_actions, model_config["hidden_sizes"])``."""

    def setup(self) -> None:
        obs_size = int(self.observation_space["observation"].shape[0])
        self.net = build_model(
            obs_size, int(self.action_space.n), self.model_config["hidden_sizes"]
        )

    def _hidden(self, batch: dict[str, Any]) -> tuple[torch.Tensor, torch.Tensor]:
        obs = batch[Columns.OBS]
        return self.net.torso(obs["observation"].float()), obs["action_mask"] != 0

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        """Sampling and inference: the masked logits only."""
        return {Columns.ACTION_DIST_INPUTS: self._forward_train(batch)[Columns.ACTION_DIST_INPUTS]}

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        """The masked logits and the torso's output, which the value loss reuses."""
        hidden, legal = self._hidden(batch)
        logits = self.net.policy(hidden).masked_fill(~legal, ILLEGAL_LOGIT)
        return {Columns.ACTION_DIST_INPUTS: logits, Columns.EMBEDDINGS: hidden}

    def compute_values(
        self, batch: dict[str, Any], embeddings: torch.Tensor | None = None
    ) -> torch.Tensor:
        """The value of each observation (from the torso's output when the forward pass gave
        it as ``embeddings``)."""
        if embeddings is None:
            embeddings, _ = self._hidden(batch)
        return self.net.value(embeddings).squeeze(-1)
