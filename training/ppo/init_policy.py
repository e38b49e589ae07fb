"""A run's starting weights from a checkpoint (``init_policy``): a best response that begins as
the policy it answers, then learns where that policy is weak (``training/exploit``)."""

from __future__ import annotations

from typing import Any

import torch

from reborn_env.policies.artifact import load_checkpoint
from reborn_env.policies.network import network_options
from training.common.schema import ConfigError
from training.ppo.config import TrainConfig


def initial_weights(cfg: TrainConfig, obs_size: int, n_actions: int) -> dict[str, torch.Tensor]:
    """The weights of ``cfg.init_policy``, after checking it plays ``cfg.env`` with these sizes
    (:class:`~reborn_env.policies.artifact.CheckpointError` if not) and has the network ``cfg``
    builds (:class:`ConfigError` naming both shapes if not)."""
    payload = load_checkpoint(
        cfg.init_policy, expect_env=cfg.env, expect_obs_size=obs_size, expect_n_actions=n_actions
    )
    theirs = _shape(payload["config"].get("hidden_sizes"), network_options(payload.get("network")))
    ours = _shape(cfg.hidden_sizes, {} if cfg.network == "mlp" else {"torso": cfg.network})
    if theirs["hidden_sizes"] != ours["hidden_sizes"] or bool(theirs["records"]) != bool(
        ours["records"]
    ):
        raise ConfigError(
            f"{cfg.origin}: key 'init_policy': {cfg.init_policy} holds a network {theirs}, "
            f"the run builds {ours}; set hidden_sizes and network to match it"
        )
    return payload["model"]


def _shape(hidden_sizes: Any, network: dict[str, Any]) -> dict[str, Any]:
    """What must agree for one network's weights to load into another."""
    return {"hidden_sizes": list(hidden_sizes or []), "records": bool(network)}
