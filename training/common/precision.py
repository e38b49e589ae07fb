"""The arithmetic a trainer's network runs in: the ``precision`` config key, resolved once per run.

``bfloat16`` runs the network's matrix products in the update and the warm start's fits under
``torch.autocast`` in bfloat16 (the weights, the optimiser's state, the losses and everything a
policy file holds stay float32): on a CPU with AMX or AVX-512 bf16 units the update runs about
twice as fast (``benchmarks/bench_training.py``). ``float32`` is the reference path. ``auto``
takes bfloat16 where the hardware has it (those CPU units, or a GPU that supports bfloat16) and
float32 elsewhere. Rollouts, evaluation and every bot play in float32 whatever the run's
precision: entered per call, autocast measured slower at a rollout's usual batch sizes, and what
is measured is the policy file a front-end loads.
"""

from __future__ import annotations

import contextlib
from functools import cache
from pathlib import Path

import torch

PRECISIONS = ("auto", "float32", "bfloat16")
BF16_FLAGS = ("amx_bf16", "avx512_bf16")
"""/proc/cpuinfo flags of the units that run bfloat16 products natively."""


@cache
def _this_cpuinfo() -> str:
    try:
        return Path("/proc/cpuinfo").read_text()
    except OSError:
        return ""


def cpu_has_bf16_units(cpuinfo: str | None = None) -> bool:
    """True if the CPU has AMX or AVX-512 bf16 units (read from ``/proc/cpuinfo``, or from
    ``cpuinfo`` given as its text); False where that cannot be read."""
    if cpuinfo is None:
        cpuinfo = _this_cpuinfo()
    flags = set()
    for line in cpuinfo.splitlines():
        if line.startswith("flags"):
            flags.update(line.partition(":")[2].split())
            break
    return any(flag in flags for flag in BF16_FLAGS)


def resolve_precision(
    name: str, device_type: str = "cpu", cpuinfo: str | None = None
) -> torch.dtype:
    """The dtype a run's network products use for config value ``name`` (one of
    :data:`PRECISIONS`) on a device of ``device_type``: ``auto`` is bfloat16 on a CPU with bf16
    units or a GPU that supports it, else float32."""
    if name not in PRECISIONS:
        raise ValueError(f"precision {name!r}: one of {', '.join(PRECISIONS)}")
    if name == "auto":
        if device_type == "cuda":
            fast = torch.cuda.is_available() and torch.cuda.is_bf16_supported()
        else:
            fast = cpu_has_bf16_units(cpuinfo)
        return torch.bfloat16 if fast else torch.float32
    return torch.bfloat16 if name == "bfloat16" else torch.float32


def autocast(dtype: torch.dtype, device_type: str = "cpu") -> contextlib.AbstractContextManager:
    """The context a network's forward (and the loss on it) runs in for ``dtype`` on a device
    of ``device_type``: torch's autocast for bfloat16, nothing for float32. The backward pass
    and the optimiser's step run outside it."""
    if dtype == torch.float32:
        return contextlib.nullcontext()
    return torch.autocast(device_type, dtype=dtype)


def network_precision(model: torch.nn.Module, name: str) -> tuple[torch.dtype, str]:
    """(dtype of the products, device type) for config value ``name`` and a network on the
    device it lives on."""
    device_type = next(model.parameters()).device.type
    return resolve_precision(name, device_type), device_type
