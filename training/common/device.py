"""Where a trainer's networks compute: the ``device`` config key, resolved once per run.

The game vector, the rollout's buffers and every file stay on the host (the CPU); the networks
live on the run's device. Each transfer goes through ``reborn_env.policies.network``'s
``to_network`` (inputs, to the network's device) and ``to_host`` (outputs and weights, back to the
CPU in float32), so checkpoints and policy files are device-free and load anywhere. A rollout is
moved to the device once, for its update, from pinned memory when the device is a GPU.
"""

from __future__ import annotations

from typing import Any

import torch

from training.common.schema import ConfigError

DEVICES = ("auto", "cpu", "cuda")


def resolve_device(name: str) -> torch.device:
    """The device for config value ``name`` (one of :data:`DEVICES`): ``auto`` is the GPU
    where torch sees one, else the CPU. ValueError for ``cuda`` where torch sees none."""
    if name not in DEVICES:
        raise ValueError(f"device {name!r}: one of {', '.join(DEVICES)}")
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name == "cuda" and not torch.cuda.is_available():
        build = "a CPU-only build" if torch.version.cuda is None else f"CUDA {torch.version.cuda}"
        raise ValueError(
            f"device 'cuda': torch {torch.__version__} ({build}) sees no CUDA device; use "
            "'auto' or 'cpu'"
        )
    return torch.device(name)


def run_device(cfg: Any) -> torch.device:
    """The device of a run's config (its ``device`` key); :class:`ConfigError` naming the key
    where that device is missing, so a run stops at its checks rather than at its first
    network."""
    try:
        return resolve_device(cfg.device)
    except ValueError as exc:
        raise ConfigError(f"{cfg.origin}: key 'device': {exc}") from None
