"""An RLlib checkpoint (``training.rllib.train``'s) into one of our policy checkpoints.

    python -m training.rllib.convert RLLIB_CHECKPOINT OUT.pt [--module learner]

Why: so an RLlib-trained policy plays wherever ours do: ``load_bot`` (``*.pt``), the tournament,
ONNX export (``training.export``) and the bot server. The RLlib module's network is our own MLP
(``training.rllib.module``), so its weights copy exactly: the ``net.`` prefix comes off and the
result is checked to be the state_dict of ``build_model(obs_size, n_actions, hidden_sizes)``.

What is read: ``learner_group/learner/rl_module/<module>/module_state.pkl`` (the weights, as
numpy arrays) and ``reborn_env_run.json``, the run's config that ``rllib_train`` writes next to
RLlib's files (the env, its kwargs and the network's sizes). The weights are a pickle: they are
read by an unpickler that builds only numpy arrays and ordered dicts, so a hostile checkpoint
cannot run code. A missing, corrupt or mismatched checkpoint is a
:class:`~reborn_env.policies.artifact.CheckpointError` that says what was wrong. Our file is
written by ``save_checkpoint`` (atomically, with its checksum, read back before it replaces
anything).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import pickle
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch

from reborn_env.policies.artifact import CheckpointError, check_network, save_checkpoint
from training.common.envs import env_sizes, env_version

RUN_FILE = "reborn_env_run.json"
MODULE_STATE = Path("learner_group", "learner", "rl_module")
PREFIX = "net."
# What numpy arrays and RLlib's ordered state dict pickle as; nothing else is built.
_ALLOWED = {
    ("collections", "OrderedDict"),
    ("numpy", "dtype"),
    ("numpy", "ndarray"),
    ("numpy._core.numeric", "_frombuffer"),
    ("numpy.core.numeric", "_frombuffer"),
    ("numpy._core.multiarray", "_reconstruct"),
    ("numpy.core.multiarray", "_reconstruct"),
}


class _WeightsUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if (module, name) not in _ALLOWED:
            raise pickle.UnpicklingError(f"{module}.{name} is not a numpy array")
        return super().find_class(module, name)


def write_run_file(rllib_dir: str | os.PathLike[str], config: dict[str, Any]) -> None:
    """Record the run's config (``RllibConfig.to_dict()``) in RLlib's checkpoint folder."""
    from reborn_env.core.files import atomic_write

    with atomic_write(Path(rllib_dir) / RUN_FILE) as f:
        f.write(json.dumps(config, indent=1, sort_keys=True).encode())


def read_module_weights(rllib_dir: Path, module: str) -> dict[str, torch.Tensor]:
    """The weights of RLlib module ``module`` as our network's state_dict (prefix removed)."""
    path = rllib_dir / MODULE_STATE / module / "module_state.pkl"
    if not path.is_file():
        found = sorted(p.name for p in (rllib_dir / MODULE_STATE).glob("*/") if p.is_dir())
        raise CheckpointError(
            f"{rllib_dir}: no weights of module {module!r} ({path} is missing); "
            + (f"its modules: {', '.join(found)}" if found else "not an RLlib checkpoint folder")
        )
    try:
        state = _WeightsUnpickler(io.BytesIO(path.read_bytes())).load()
    except Exception as exc:  # on damage: UnpicklingError, EOFError, ValueError...
        raise CheckpointError(
            f"{path}: not readable RLlib module weights (corrupt, truncated or not numpy "
            f"arrays): {type(exc).__name__}: {exc}"
        ) from exc
    if not isinstance(state, dict) or not all(
        isinstance(k, str) and k.startswith(PREFIX) and isinstance(v, np.ndarray)
        for k, v in state.items()
    ):
        raise CheckpointError(
            f"{path}: not the weights of training.rllib.module.MaskedActorCriticModule (a dict "
            f"of numpy arrays named {PREFIX}*); was it trained by training.rllib.train?"
        )
    return {k[len(PREFIX) :]: torch.from_numpy(np.array(v)) for k, v in state.items()}


def read_run_config(rllib_dir: Path) -> dict[str, Any]:
    """The run's config as ``rllib_train`` recorded it."""
    path = rllib_dir / RUN_FILE
    try:
        config = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise CheckpointError(
            f"{rllib_dir}: no {RUN_FILE}; convert checkpoints that training.rllib.train saved"
        ) from exc
    except (OSError, ValueError) as exc:
        raise CheckpointError(f"{path}: not a readable JSON config: {exc}") from exc
    if not isinstance(config, dict) or not isinstance(config.get("env"), str):
        raise CheckpointError(f"{path}: holds no run config with an 'env' name")
    return config


def convert(
    rllib_dir: str | os.PathLike[str],
    out: str | os.PathLike[str],
    module: str = "learner",
) -> dict[str, Any]:
    """Write our checkpoint of ``module``'s policy from RLlib checkpoint ``rllib_dir`` to
    ``out``; the payload written."""
    rllib_dir = Path(rllib_dir)
    config = read_run_config(rllib_dir)
    weights = read_module_weights(rllib_dir, module)
    try:
        obs_size, n_actions = env_sizes(config["env"], **dict(config.get("env_kwargs") or {}))
    except (ValueError, TypeError) as exc:
        raise CheckpointError(f"{rllib_dir}: its env cannot be built: {exc}") from exc
    hidden = config.get("hidden_sizes")
    if not isinstance(hidden, list) or not all(isinstance(h, int) and h > 0 for h in hidden):
        raise CheckpointError(f"{rllib_dir}: {RUN_FILE} has no hidden_sizes list: {hidden!r}")
    check_network(rllib_dir, f"module {module!r}", weights, obs_size, n_actions, hidden)
    payload = {
        "env": {
            "name": config["env"],
            "version": env_version(config["env"]),
            "obs_size": obs_size,
            "n_actions": n_actions,
        },
        "config": config,
        "model": weights,
        "network": {"torso": "mlp"},
        "algorithm": "rllib",
    }
    save_checkpoint(out, payload)
    return payload


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; exit status 2 on a checkpoint error."""
    from training.common.cli import fail

    parser = argparse.ArgumentParser(
        prog="python -m training.rllib.convert",
        description="Convert an RLlib checkpoint of training.rllib.train into a policy file.",
    )
    parser.add_argument("rllib_checkpoint", help="the folder RLlib saved (checkpoint_dir/rllib)")
    parser.add_argument("out", help="the policy checkpoint to write (*.pt)")
    parser.add_argument("--module", default="learner", help="RLlib module (default: learner)")
    args = parser.parse_args(argv)
    try:
        payload = convert(args.rllib_checkpoint, args.out, args.module)
    except CheckpointError as exc:
        return fail(exc)
    env = payload["env"]
    print(f"{args.out}: {env['name']} policy ({env['obs_size']} -> {env['n_actions']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
