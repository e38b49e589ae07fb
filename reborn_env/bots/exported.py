"""Exported policies as bots: play an ONNX or TorchScript file written by ``training.export``.

Why: a trained policy should play wherever the game runs (a GUI, a web front-end, another
process) without the trainer's code or its checkpoints. An exported file holds the network alone
plus metadata naming the env it was trained for, so a bot can refuse a file meant for another
game. The ONNX path needs only numpy and onnxruntime, never torch: nothing here imports torch at
module level, and :class:`TorchScriptBot` imports it when it is built.

Every exported file holds one graph:

- inputs ``observation`` float32 ``[B, obs_size]`` and ``action_mask`` ``[B, n_actions]``
  (bool in ONNX; bool or int8 in TorchScript), with a dynamic batch axis ``B``;
- outputs ``logits`` float32 ``[B, n_actions]`` (illegal actions at -1e9, as in
  ``reborn_env.policies.network``) and ``value`` float32 ``[B]``.

Its metadata (the keys of :data:`META_KEYS`) is stored, each value JSON-encoded, in the ONNX
model's ``metadata_props``, and as one JSON object in the TorchScript archive's extra file
``meta.json``.
"""

from __future__ import annotations

import json
import os
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

EXPORT_FORMAT = "reborn_env.policy_export"
EXPORT_VERSION = 1
META_KEYS = (
    "format",
    "version",
    "env_name",
    "env_version",
    "obs_size",
    "n_actions",
    "agents",
    "hidden_sizes",
    "source_checkpoint",
)
INPUT_NAMES = ("observation", "action_mask")
OUTPUT_NAMES = ("logits", "value")
TORCHSCRIPT_META_FILE = "meta.json"


class ExportedModelError(ValueError):
    """A file that is not a usable exported policy (or not for this env); the message says why."""


@dataclass(frozen=True)
class ExportMetadata:
    """What an exported policy says about itself: its env, sizes, network and origin."""

    env_name: str
    env_version: int
    obs_size: int
    n_actions: int
    agents: tuple[str, ...]
    hidden_sizes: tuple[int, ...]
    source_checkpoint: str

    def to_dict(self) -> dict[str, Any]:
        """Every key of :data:`META_KEYS`, JSON-ready (tuples as lists)."""
        fields = {
            key: list(value) if isinstance(value, tuple) else value
            for key, value in asdict(self).items()
        }
        return {"format": EXPORT_FORMAT, "version": EXPORT_VERSION, **fields}

    @classmethod
    def from_dict(
        cls, path: str | os.PathLike[str], raw: Mapping[str, Any], expect_env: str | None = None
    ) -> ExportMetadata:
        """The metadata in ``raw``; :class:`ExportedModelError` if it is incomplete or for another
        env than ``expect_env`` (when given)."""
        missing = [key for key in META_KEYS if key not in raw]
        if missing:
            raise ExportedModelError(
                f"{path}: no export metadata {', '.join(missing)}: not written by training.export"
            )
        if raw["format"] != EXPORT_FORMAT or raw["version"] != EXPORT_VERSION:
            raise ExportedModelError(
                f"{path}: export format {raw['format']!r} version {raw['version']!r}; this code "
                f"reads {EXPORT_FORMAT!r} version {EXPORT_VERSION}"
            )
        if expect_env is not None and raw["env_name"] != expect_env:
            raise ExportedModelError(
                f"{path}: policy exported for env {raw['env_name']!r}, expected {expect_env!r}"
            )
        return cls(
            env_name=str(raw["env_name"]),
            env_version=int(raw["env_version"]),
            obs_size=int(raw["obs_size"]),
            n_actions=int(raw["n_actions"]),
            agents=tuple(str(agent) for agent in raw["agents"]),
            hidden_sizes=tuple(int(size) for size in raw["hidden_sizes"]),
            source_checkpoint=str(raw["source_checkpoint"]),
        )


class _ExportedBot(ABC):
    """The bot interface over a network that maps a batch to (masked logits, values).

    Subclasses implement :meth:`_load` and :meth:`_run`; sampling, checks and the per-decision
    API live here. ``seed`` seeds the sampling (``None``: fresh entropy); ``greedy`` plays the
    argmax instead; ``expect_env`` (when given) must be the env the policy was exported for.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        greedy: bool = False,
        seed: int | None = None,
        expect_env: str | None = None,
    ) -> None:
        self.metadata = ExportMetadata.from_dict(path, self._load(path), expect_env)
        self.greedy = greedy
        self._rng = np.random.default_rng(seed)

    def reset(self) -> None:  # noqa: B027 (concrete and empty on purpose: nothing to forget)
        """Start of a game: nothing to forget (the policy has no memory; sampling continues)."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """A legal action for this decision, sampled from the policy (or its argmax if greedy)."""
        logits, mask = self._decision_logits(observation, action_mask)
        if self.greedy:
            action = int(np.argmax(logits))
        else:
            action = int(self._rng.choice(logits.size, p=_masked_softmax(logits, mask)))
        if not mask[action]:
            raise RuntimeError(
                f"the policy chose illegal action {action}: the exported network must put "
                "illegal actions at -1e9"
            )
        return action

    def probabilities(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        """The policy's probability of each action: float64 ``(n_actions,)``, 0 where illegal."""
        return _masked_softmax(*self._decision_logits(observation, action_mask))

    def forward(
        self, observations: np.ndarray, action_masks: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """The network on a batch: (masked logits ``[B, n_actions]``, values ``[B]``), float32."""
        obs = np.ascontiguousarray(observations, dtype=np.float32)
        masks = np.asarray(action_masks) != 0
        expected = (self.metadata.obs_size, self.metadata.n_actions)
        if obs.ndim != 2 or masks.shape != (len(obs), expected[1]) or obs.shape[1] != expected[0]:
            raise ValueError(
                f"observations {obs.shape} and action masks {masks.shape}; this policy "
                f"({self.metadata.env_name}) takes [B, {expected[0]}] and [B, {expected[1]}]"
            )
        return self._run(obs, masks)

    @abstractmethod
    def _load(self, path: str | os.PathLike[str]) -> Mapping[str, Any]:
        """Load the network in the file at ``path``; its raw export metadata."""

    @abstractmethod
    def _run(self, observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(logits, values) of a checked float32 batch and its bool masks."""

    def _decision_logits(
        self, observation: np.ndarray, action_mask: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """(logits, legal) of one decision, both ``(n_actions,)``; refuses a mask with no move."""
        mask = np.asarray(action_mask).reshape(-1) != 0
        if not mask.any():
            raise ValueError("the action mask has no legal action: this bot is not to move")
        logits, _ = self.forward(np.asarray(observation).reshape(1, -1), mask[None])
        return logits[0], mask


class OnnxBot(_ExportedBot):
    """Plays an exported ONNX policy with onnxruntime on the CPU, one thread, no torch needed."""

    def _load(self, path: str | os.PathLike[str]) -> Mapping[str, Any]:
        self._session = _onnx_session(_existing(path))
        return _decode_onnx_metadata(path, self._session.get_modelmeta().custom_metadata_map)

    def _run(self, observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        feeds = dict(zip(INPUT_NAMES, (observations, masks), strict=True))
        logits, values = self._session.run(list(OUTPUT_NAMES), feeds)
        return logits, values


class TorchScriptBot(_ExportedBot):
    """Plays an exported TorchScript policy on the CPU in inference mode (imports torch).

    Like ``reborn_env.policies.bot.PolicyBot`` it drops torch to one thread: a single decision is
    too small a batch to gain from more.
    """

    def _load(self, path: str | os.PathLike[str]) -> Mapping[str, Any]:
        import torch

        if torch.get_num_threads() > 1:
            torch.set_num_threads(1)
        self._torch = torch
        self._module, raw = _load_torchscript(_existing(path))
        return raw

    def _run(self, observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        torch = self._torch
        with torch.inference_mode():
            logits, values = self._module(torch.from_numpy(observations), torch.from_numpy(masks))
        return logits.numpy(), values.numpy()


def _masked_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Softmax over the legal entries in float64; exactly 0 where illegal."""
    z = np.where(mask, logits.astype(np.float64), -np.inf)
    probs = np.exp(z - z.max())
    return probs / probs.sum()


def _existing(path: str | os.PathLike[str]) -> Path:
    path = Path(path)
    if not path.is_file():
        raise ExportedModelError(f"{path}: no such exported policy file")
    return path


def _onnx_session(path: Path) -> Any:
    """An onnxruntime session on the CPU provider with one intra-op thread."""
    try:
        import onnxruntime
    except ImportError as exc:
        raise ImportError("OnnxBot needs onnxruntime: pip install onnxruntime") from exc
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    try:
        return onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own types for bad or truncated files
        raise ExportedModelError(f"{path}: not a loadable ONNX model: {exc}") from exc


def _decode_onnx_metadata(path: str | os.PathLike[str], raw: Mapping[str, str]) -> dict[str, Any]:
    """``metadata_props`` values back from JSON (keys other than :data:`META_KEYS` are ignored)."""
    try:
        return {key: json.loads(raw[key]) for key in META_KEYS if key in raw}
    except json.JSONDecodeError as exc:
        raise ExportedModelError(f"{path}: export metadata is not JSON: {exc}") from exc


def _load_torchscript(path: Path) -> tuple[Any, dict[str, Any]]:
    """The TorchScript module at ``path`` and its ``meta.json`` (empty if it has none)."""
    import torch

    extra = {TORCHSCRIPT_META_FILE: ""}
    try:
        module = torch.jit.load(str(path), map_location="cpu", _extra_files=extra)
    except Exception as exc:  # RuntimeError or ValueError, depending on how the file is broken
        first = (str(exc).splitlines() or ["no details"])[0]
        raise ExportedModelError(f"{path}: not a loadable TorchScript archive: {first}") from exc
    text = extra[TORCHSCRIPT_META_FILE]
    try:
        return module.eval(), json.loads(text) if text else {}
    except json.JSONDecodeError as exc:
        raise ExportedModelError(f"{path}: {TORCHSCRIPT_META_FILE} is not JSON: {exc}") from exc
