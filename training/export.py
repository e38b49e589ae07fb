"""Export a checkpoint's policy to ONNX or TorchScript, so it plays outside the trainer.

    python -m training.export --checkpoint checkpoints/run/policy.pt --format onnx --out policy.onnx

Why: a checkpoint needs this repository's code and torch to play; an exported file needs only a
runtime (onnxruntime for ONNX, which any language has, or libtorch for TorchScript) and is
played by ``reborn_env.bots.exported`` (``OnnxBot``, ``TorchScriptBot``) or by any front-end that
feeds it the env's observation and action mask.

The exported graph is the policy file's network (``reborn_env.policies.network``) in eval mode:
inputs ``observation`` float32 ``[B, obs_size]`` and ``action_mask`` ``[B, n_actions]`` (bool in
ONNX; bool or int8 in TorchScript), outputs ``logits`` ``[B, n_actions]`` (-1e9 where illegal) and
``value`` ``[B]``, with a dynamic batch axis. ONNX goes through ``torch.onnx.export``'s dynamo
exporter (needs the ``onnx`` and ``onnxscript`` packages); TorchScript through ``torch.jit.trace``
(``torch.jit.script`` cannot compile the model's module-level ``ILLEGAL_LOGIT``; tracing is exact
here because ``forward`` has no data-dependent control flow). PyTorch 2.13 deprecates TorchScript,
so ONNX is the format to prefer. The metadata of ``reborn_env.bots.exported.ExportMetadata`` (env
name and version, sizes, agents, hidden sizes, source checkpoint's file name) goes into the ONNX
``metadata_props`` or the TorchScript extra file ``meta.json``.

The file is written atomically (``reborn_env.core.files.atomic_write``) and checked before it
replaces ``--out``: it is loaded by the bot that will play it, its metadata compared, and its
outputs compared with the checkpoint's network on a random batch (a batch size other than the
one exported with, so the batch axis is checked to be dynamic).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from reborn_env.bots.exported import (
    INPUT_NAMES,
    OUTPUT_NAMES,
    TORCHSCRIPT_META_FILE,
    ExportedModelError,
    ExportMetadata,
    OnnxBot,
    TorchScriptBot,
)
from reborn_env.core.files import atomic_write
from reborn_env.policies.artifact import CheckpointError, load_checkpoint
from reborn_env.policies.bot import PolicyBot
from reborn_env.policies.network import ILLEGAL_LOGIT
from training.common.cli import fail
from training.common.envs import make_env

FORMATS = ("onnx", "torchscript")
VERIFY_TOLERANCE = 1e-4
"""Largest difference allowed between the exported file and the network (legal logits, values)."""


class ExportError(ValueError):
    """An export that cannot be done or did not reproduce the network; the message says why."""


class ExportableNet(nn.Module):
    """The network as exported: accepts a bool or int8 mask (nonzero: legal)."""

    def __init__(self, model: nn.Module) -> None:
        super().__init__()
        self.model = model

    def forward(
        self, observation: torch.Tensor, action_mask: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        return self.model(observation, action_mask.to(torch.bool))


def export_policy(
    checkpoint: str | os.PathLike[str], fmt: str, out: str | os.PathLike[str]
) -> ExportMetadata:
    """Export ``checkpoint``'s policy to ``out`` in ``fmt`` (one of :data:`FORMATS`).

    Returns the metadata written. Raises ``CheckpointError`` for an unusable checkpoint,
    :class:`ExportError` for an unknown format or an export that does not match the network, and
    ``ImportError`` when the format's packages are missing.
    """
    if fmt not in FORMATS:
        raise ExportError(f"unknown export format {fmt!r}; expected one of {', '.join(FORMATS)}")
    payload = load_checkpoint(checkpoint)
    net = ExportableNet(PolicyBot(payload).model).eval()
    metadata = export_metadata(payload, Path(checkpoint).name)
    writer = _write_onnx if fmt == "onnx" else _write_torchscript
    writer(net, metadata, Path(out))
    return metadata


def export_metadata(payload: dict[str, Any], source_checkpoint: str) -> ExportMetadata:
    """The metadata of a checkpoint payload; agents come from the env registry when the
    checkpoint predates recording them."""
    env = payload["env"]
    return ExportMetadata(
        env_name=env["name"],
        env_version=int(env["version"]),
        obs_size=int(env["obs_size"]),
        n_actions=int(env["n_actions"]),
        agents=tuple(env.get("agents") or _registry_agents(env["name"])),
        hidden_sizes=tuple(payload["config"]["hidden_sizes"]),
        source_checkpoint=source_checkpoint,
    )


def _registry_agents(env_name: str) -> list[str]:
    try:
        return list(make_env(env_name).possible_agents)
    except ValueError as exc:
        raise ExportError(f"the checkpoint records no agents, and {exc}") from exc


def _write_onnx(net: ExportableNet, metadata: ExportMetadata, out: Path) -> None:
    try:
        import onnx
        import onnxscript  # noqa: F401  (torch.onnx's dynamo exporter needs it)
    except ImportError as exc:
        raise ImportError("ONNX export needs onnx and onnxscript: pip install onnxscript") from exc
    batch = torch.export.Dim("batch")
    with warnings.catch_warnings():
        # Both inputs share the one Dim; torch warns that it keeps a single name for the axis,
        # which is that Dim's name, "batch", so there is nothing to act on.
        warnings.filterwarnings("ignore", message=r"# The axis name: batch will not be used")
        program = torch.onnx.export(
            net,
            _sample_inputs(metadata, batch_size=2),
            dynamo=True,
            input_names=list(INPUT_NAMES),
            output_names=list(OUTPUT_NAMES),
            dynamic_shapes=({0: batch}, {0: batch}),
            external_data=False,
            verbose=False,
        )
    proto = program.model_proto
    onnx.helper.set_model_props(
        proto, {key: json.dumps(value) for key, value in metadata.to_dict().items()}
    )
    onnx.checker.check_model(proto)
    with atomic_write(out, check=_verifier(net, metadata, OnnxBot, out)) as f:
        f.write(proto.SerializeToString())


def _write_torchscript(net: ExportableNet, metadata: ExportMetadata, out: Path) -> None:
    meta = {TORCHSCRIPT_META_FILE: json.dumps(metadata.to_dict())}
    with warnings.catch_warnings():
        # torch 2.13 deprecates TorchScript for new code; the format is kept for the bots that
        # read it, so the warnings are not the user's to act on (and a library's warning filters,
        # Tianshou's or TorchRL's, would otherwise print them into the command's one-line errors)
        warnings.filterwarnings("ignore", r"`torch\.jit\.\w+` is deprecated", DeprecationWarning)
        traced = torch.jit.trace(net, _sample_inputs(metadata, batch_size=2))
        with atomic_write(out, check=_verifier(net, metadata, TorchScriptBot, out)) as f:
            torch.jit.save(traced, f, _extra_files=meta)


def _sample_inputs(
    metadata: ExportMetadata, batch_size: int, seed: int = 0
) -> tuple[torch.Tensor, torch.Tensor]:
    """A random batch: observations in [0, 1) and masks with about half the actions legal."""
    generator = torch.Generator().manual_seed(seed)
    obs = torch.rand(batch_size, metadata.obs_size, generator=generator)
    mask = torch.rand(batch_size, metadata.n_actions, generator=generator) < 0.5
    mask[:, 0] = True
    return obs, mask


def _verifier(
    net: ExportableNet, metadata: ExportMetadata, bot_class: Callable[..., Any], out: Path
) -> Callable[[Path], None]:
    """The ``atomic_write`` check: the temporary file plays like ``net`` and says ``metadata``."""

    def verify(tmp: Path) -> None:
        try:
            bot = bot_class(tmp)
        except ExportedModelError as exc:
            raise ExportError(f"{out}: the exported file does not load back: {exc}") from exc
        if bot.metadata != metadata:
            raise ExportError(f"{out}: metadata read back as {bot.metadata}, wrote {metadata}")
        obs, mask = _sample_inputs(metadata, batch_size=5, seed=1)
        with torch.inference_mode():
            want_logits, want_values = net(obs, mask)
        logits, values = bot.forward(obs.numpy(), mask.numpy())
        _compare(out, logits, values, want_logits.numpy(), want_values.numpy(), mask.numpy())

    return verify


def _compare(
    out: Path,
    logits: np.ndarray,
    values: np.ndarray,
    want_logits: np.ndarray,
    want_values: np.ndarray,
    mask: np.ndarray,
) -> None:
    if not np.all(logits[~mask] == ILLEGAL_LOGIT):
        raise ExportError(f"{out}: the exported network does not put illegal actions at -1e9")
    error = max(
        float(np.abs(logits[mask] - want_logits[mask]).max()),
        float(np.abs(values - want_values).max()),
    )
    if error > VERIFY_TOLERANCE:
        raise ExportError(
            f"{out}: the exported network differs from the checkpoint's by {error:.3g} "
            f"(tolerance {VERIFY_TOLERANCE})"
        )


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m training.export",
        description="Export a checkpoint's policy to ONNX or TorchScript.",
    )
    parser.add_argument("--checkpoint", required=True, help="checkpoint file to export")
    parser.add_argument("--format", required=True, choices=FORMATS, help="file format")
    parser.add_argument("--out", required=True, help="file to write (replaced atomically)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; return the exit status (2, with one ``error:`` line, on a checkpoint, export,
    missing-package or output-file error)."""
    args = _parser().parse_args(argv)
    try:
        metadata = export_policy(args.checkpoint, args.format, args.out)
    except (CheckpointError, ExportError, ImportError) as exc:
        return fail(exc)
    except OSError as exc:  # --out in a folder that cannot be made or written, or a folder itself
        return fail(f"cannot write --out {args.out}: {exc.strerror or exc}")
    print(
        f"wrote {args.out} ({args.format}): {metadata.env_name} v{metadata.env_version}, "
        f"obs_size {metadata.obs_size}, n_actions {metadata.n_actions}, "
        f"hidden {list(metadata.hidden_sizes)}, from {metadata.source_checkpoint}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
