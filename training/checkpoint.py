"""Checkpoints: written atomically, read back with ``weights_only=True``, checked before use.

A checkpoint is one ``torch.save`` file holding a dict (version 1)::

    {
        "format": "reborn_env.checkpoint",   # marker: this is one of ours
        "version": 1,                        # of this schema
        "env": {"name": str, "version": int, "obs_size": int, "n_actions": int},
        "config": dict,                      # TrainConfig.to_dict()
        "model": state_dict,                 # the policy/value network
        "optimizer": state_dict,
        "global_step": int,                  # learner decisions trained so far
        "update": int,                       # PPO updates done so far
        "pool": [state_dict, ...],           # opponent pool snapshots, oldest first
        "rng": {"torch": ByteTensor,         # torch.get_rng_state()
                "numpy": dict,               # np.random.Generator.bit_generator.state
                "python": tuple},            # random.getstate()
        "history": [dict, ...],              # evaluations: {"step", "update", "opponent",
                                             #   "win_rate", "low", "high", ...}
        "wall_time": float,                  # seconds trained so far
    }

``format``, ``version``, ``env``, ``config`` and ``model`` are required (they are all a policy
needs); the rest is what the trainer needs to resume.

Why ``weights_only=True``: a pickle can run arbitrary code when loaded, and checkpoints get passed
around. Every entry above is a tensor or a plain Python container of ints, floats, strings, bools
and ``None``, which PyTorch's restricted unpickler reads; that includes the numpy Generator state
(a dict of Python ints) and ``random.getstate()`` (tuples of ints). What it does not read is numpy
arrays (e.g. the legacy ``np.random.get_state()``): convert them to lists. :func:`save_checkpoint`
reads each file back the same way before it replaces the previous checkpoint, so a payload that
could not be loaded is refused at save time, not discovered when resuming.
"""

from __future__ import annotations

import os
import pickle
from pathlib import Path
from typing import Any

import torch

from reborn_env.common.files import atomic_write

FORMAT = "reborn_env.checkpoint"
VERSION = 1
REQUIRED_KEYS = ("format", "version", "env", "config", "model")
ENV_KEYS = ("name", "version", "obs_size", "n_actions")


class CheckpointError(ValueError):
    """A file that is not a usable checkpoint (or not for this env); the message says why."""


def save_checkpoint(path: str | os.PathLike[str], payload: dict[str, Any]) -> None:
    """Write ``payload`` to ``path`` atomically: the old file stays intact unless this succeeds.

    The payload is checked, written with :func:`atomic_write`, and read back and checked again
    before it replaces the old file.
    """
    path = Path(path)
    _check_payload(path, payload)

    def read_back(tmp: Path) -> None:
        _check_payload(path, _read(tmp, shown_as=path))

    with atomic_write(path, check=read_back) as f:
        torch.save(payload, f)


def load_checkpoint(
    path: str | os.PathLike[str],
    expect_env: str | None = None,
    expect_obs_size: int | None = None,
    expect_n_actions: int | None = None,
) -> dict[str, Any]:
    """The checked payload at ``path``; :class:`CheckpointError` if it is unusable or mismatched.

    ``expect_*`` (when given) must match the checkpoint's ``env`` entry.
    """
    path = Path(path)
    payload = _read(path, shown_as=path)
    _check_payload(path, payload)
    _check_env(path, payload["env"], expect_env, expect_obs_size, expect_n_actions)
    return payload


def _read(path: Path, shown_as: Path) -> Any:
    """``torch.load`` with ``weights_only=True``, every failure turned into a CheckpointError."""
    try:
        return torch.load(path, map_location="cpu", weights_only=True)
    except FileNotFoundError as exc:
        raise CheckpointError(f"{shown_as}: no such checkpoint file") from exc
    except (IsADirectoryError, PermissionError) as exc:
        raise CheckpointError(f"{shown_as}: cannot read: {exc.strerror or exc}") from exc
    except Exception as exc:  # on damage: RuntimeError, OSError, KeyError, IndexError, EOFError...
        raise CheckpointError(f"{shown_as}: {_load_failure(exc)}") from exc


def _load_failure(exc: Exception) -> str:
    """What a torch.load failure means, in one line."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    if isinstance(exc, pickle.UnpicklingError) and "Weights only load failed" in str(exc):
        detail = next((line for line in lines if line.startswith("WeightsUnpickler")), "")
        return (
            "holds objects other than tensors and plain Python containers, which weights_only "
            f"loading refuses (not a {FORMAT} file, or numpy arrays in the payload): "
            + detail.split(". ")[0]
        )
    first = lines[0] if lines else "no details"
    return f"not a readable torch file (corrupt or truncated): {type(exc).__name__}: {first}"


def _check_payload(path: Path, payload: Any) -> None:
    if not isinstance(payload, dict):
        raise CheckpointError(
            f"{path}: not a {FORMAT} checkpoint (holds a {type(payload).__name__}, not a dict)"
        )
    if payload.get("format") != FORMAT:
        raise CheckpointError(
            f"{path}: not a {FORMAT} checkpoint (format marker {payload.get('format')!r}, "
            f"expected {FORMAT!r})"
        )
    if payload.get("version") != VERSION:
        raise CheckpointError(
            f"{path}: checkpoint schema version {payload.get('version')!r}; "
            f"this code reads version {VERSION}"
        )
    missing = [key for key in REQUIRED_KEYS if key not in payload]
    env = payload.get("env")
    if isinstance(env, dict):
        missing += [f"env.{key}" for key in ENV_KEYS if key not in env]
    elif "env" not in missing:
        missing.append("env (a dict)")
    if missing:
        raise CheckpointError(f"{path}: checkpoint lacks {', '.join(missing)}")


def _check_env(
    path: Path,
    env: dict[str, Any],
    expect_env: str | None,
    expect_obs_size: int | None,
    expect_n_actions: int | None,
) -> None:
    expected = {"name": expect_env, "obs_size": expect_obs_size, "n_actions": expect_n_actions}
    wrong = [
        f"{key} {env[key]!r} (expected {want!r})"
        for key, want in expected.items()
        if want is not None and env[key] != want
    ]
    if wrong:
        raise CheckpointError(
            f"{path}: checkpoint is for another environment: {', '.join(wrong)}; it was "
            f"written for env {env['name']!r} (obs_size {env['obs_size']}, "
            f"n_actions {env['n_actions']})"
        )
