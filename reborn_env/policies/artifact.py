"""The policy artifact: a policy file read, verified, upgraded and written atomically.

A policy file (a "checkpoint": the tag ``reborn_env.checkpoint``) is one ``torch.save`` file
holding a dict, what every consumer plays (``load_bot``, ``python -m training.export``, the
tournament, the bot server, the web page), whichever algorithm wrote it. ``docs/policy_artifact.md``
documents every entry; in short (schema version 2)::

    {
        "format": "reborn_env.checkpoint",   # marker: this is one of ours
        "version": 2,                        # of this schema
        "checksum": "sha256:<64 hex digits>",  # of everything else (payload_checksum)
        "env": {"name": str, "version": int, "obs_size": int, "n_actions": int,
                "agents": [str, ...]},       # agents optional
        "config": dict,                      # the run's config; hidden_sizes builds the network
        "model": state_dict,                 # the network's weights
        "network": {"torso": "mlp"} | {"torso": "records", ...},  # optional; none: an mlp
        "algorithm": str,                    # optional; none: PPO
        ...                                  # anything else the writer keeps (a training run's
    }                                        #   resume state: optimizer, pool, rng, slots...)

``format``, ``version``, ``checksum``, ``env``, ``config`` and ``model`` are required (they are
all a policy needs); the rest is the writer's. ``format``, ``version`` and ``checksum`` are
:func:`save_checkpoint`'s to write: a payload's own are replaced.

Integrity: ``checksum`` is the SHA-256 of a canonical serialisation of every other entry
(:func:`payload_checksum`: each tensor's dtype, shape and raw bytes, each plain value's type and
value, dict keys in a fixed order), so it does not depend on pickle's or torch's file layout and a
re-saved payload keeps it. :func:`load_checkpoint` recomputes it, so a damaged file (a flipped bit
in the weights) is refused instead of played. Weights that are not finite (NaN or infinite, in
``model`` or in a ``pool`` snapshot) are refused both when saving (a run that diverged does not
replace its last good checkpoint) and when loading. :func:`policy_network` builds the network the
file names and refuses weights of any other shape.

Old files: version 1 (before checksums) is refused with the command that upgrades it,
``python -m reborn_env.policies upgrade FILE``: it re-saves the file as version 2 with the
checksum of its current contents (every tensor bit-identical; :func:`upgrade_checkpoint`). A file
is not accepted unverified because a checksum written when loading could not tell a damaged old
file from a good one; the upgrade is the moment its owner vouches for it. The shipped checkpoints
are version 2.

Why ``weights_only=True``: a pickle can run arbitrary code when loaded, and checkpoints get passed
around. Every entry above is a tensor or a plain Python container of ints, floats, strings, bools
and ``None``, which PyTorch's restricted unpickler reads; that includes the numpy Generator state
(a dict of Python ints) and ``random.getstate()`` (tuples of ints). What it does not read is numpy
arrays (e.g. the legacy ``np.random.get_state()``): convert them to lists. :func:`save_checkpoint`
reads each file back the same way before it replaces the previous checkpoint, so a payload that
could not be loaded is refused at save time, not discovered when resuming.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import torch
from torch import nn

from ..core.files import atomic_write
from .network import build_model, network_options

FORMAT = "reborn_env.checkpoint"
VERSION = 2
UNCHECKSUMMED_VERSION = 1
CHECKSUM_KEY = "checksum"
CHECKSUM_ALGORITHM = "sha256"
REQUIRED_KEYS = ("format", "version", CHECKSUM_KEY, "env", "config", "model")
ENV_KEYS = ("name", "version", "obs_size", "n_actions")
ENV_SIZE_KEYS = ("version", "obs_size", "n_actions")
UPGRADE_COMMAND = "python -m reborn_env.policies upgrade"

__all__ = [
    "CheckpointError",
    "check_network",
    "load_checkpoint",
    "payload_checksum",
    "policy_network",
    "save_checkpoint",
    "upgrade_checkpoint",
    "write_policy",
]


class CheckpointError(ValueError):
    """A file that is not a usable checkpoint (or not for this env); the message says why."""


def save_checkpoint(path: str | os.PathLike[str], payload: Mapping[str, Any]) -> None:
    """Write ``payload`` to ``path`` atomically: the old file stays intact unless this succeeds.

    The payload gets this schema's ``format`` and ``version`` and its ``checksum``, is checked
    (structure, finite weights), written with :func:`atomic_write` (which also removes temporary
    files of earlier killed writes of ``path``), and read back, verified and checked again before
    it replaces the old file.
    """
    path = Path(path)
    data = {key: value for key, value in payload.items() if key != CHECKSUM_KEY}
    data.update(format=FORMAT, version=VERSION)
    data[CHECKSUM_KEY] = payload_checksum(data, shown_as=path)
    _check_payload(path, data)

    def read_back(tmp: Path) -> None:
        _check_verified(path, _read(tmp, shown_as=path))

    with atomic_write(path, check=read_back) as f:
        torch.save(data, f)


def load_checkpoint(
    path: str | os.PathLike[str],
    expect_env: str | None = None,
    expect_obs_size: int | None = None,
    expect_n_actions: int | None = None,
) -> dict[str, Any]:
    """The verified payload at ``path``; :class:`CheckpointError` if it is unusable or mismatched.

    Verified: its schema, its checksum and that its weights are finite. ``expect_*`` (when given)
    must match the checkpoint's ``env`` entry.
    """
    path = Path(path)
    payload = _read(path, shown_as=path)
    _check_verified(path, payload)
    _check_env(path, payload["env"], expect_env, expect_obs_size, expect_n_actions)
    return payload


def upgrade_checkpoint(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Re-save the version-1 checkpoint at ``path`` in place as version 2; the payload written.

    Every entry is kept as it is (tensors bit for bit); the file gains this schema's version and
    the checksum of its current contents, after the checks of any save (structure, finite
    weights). A file that already is version 2 is verified and left alone.
    """
    path = Path(path)
    payload = _read(path, shown_as=path)
    _check_marker(path, payload)
    if payload.get("version") != UNCHECKSUMMED_VERSION:
        _check_verified(path, payload)
        return payload
    save_checkpoint(path, payload)
    return load_checkpoint(path)


def check_network(
    path: str | os.PathLike[str],
    what: str,
    state: Any,
    obs_size: int,
    n_actions: int,
    hidden_sizes: Sequence[int],
    network: Mapping[str, Any] | None = None,
) -> None:
    """:class:`CheckpointError` unless ``state`` (a state_dict, named ``what`` in the message) has
    exactly the tensors of :func:`~.network.build_model` ``(obs_size, n_actions, hidden_sizes,
    **network)`` (``network``: the record torso's options, :func:`~.network.network_options`).

    The expected shapes come from a network built on torch's ``meta`` device, which allocates
    nothing, so a config that names an enormous network is refused before any memory is taken.
    """
    with torch.device("meta"):
        expected = build_model(obs_size, n_actions, list(hidden_sizes), **(network or {}))
        expected = expected.state_dict()
    if not isinstance(state, Mapping):
        raise CheckpointError(f"{path}: {what} is a {type(state).__name__}, not a state_dict")
    shapes = {key: tuple(value.shape) for key, value in expected.items()}
    found = {
        key: tuple(value.shape) if isinstance(value, torch.Tensor) else type(value).__name__
        for key, value in state.items()
    }
    if found != shapes:
        wrong = sorted(
            f"{key}: {found.get(key, 'missing')} (expected {shapes.get(key, 'none')})"
            for key in shapes.keys() | found.keys()
            if found.get(key) != shapes.get(key)
        )
        raise CheckpointError(
            f"{path}: {what} does not fit the network build_model({obs_size}, {n_actions}, "
            f"{list(hidden_sizes)}): {'; '.join(wrong[:4])}{' ...' if len(wrong) > 4 else ''}"
        )


def policy_network(payload: Mapping[str, Any], shown_as: str | os.PathLike[str]) -> nn.Module:
    """The network of a verified payload (:func:`load_checkpoint`), its weights loaded, on the
    CPU in eval mode; :class:`CheckpointError` (naming ``shown_as``) if the file does not say how
    to build it or its weights do not fit.

    Built from ``env.obs_size``, ``env.n_actions``, ``config.hidden_sizes`` and the ``network``
    entry; the weights are checked against the shapes first, so a config naming an enormous
    network is refused before anything is allocated.
    """
    env = payload["env"]
    hidden_sizes = payload["config"].get("hidden_sizes")
    if not isinstance(hidden_sizes, list) or not all(
        isinstance(size, int) and not isinstance(size, bool) and size > 0 for size in hidden_sizes
    ):
        raise CheckpointError(
            f"{shown_as}: config has no hidden_sizes list of positive integers: {hidden_sizes!r}"
        )
    try:
        network = network_options(payload.get("network"))
    except ValueError as exc:
        raise CheckpointError(f"{shown_as}: {exc}") from exc
    obs_size, n_actions = env["obs_size"], env["n_actions"]
    check_network(shown_as, "model", payload["model"], obs_size, n_actions, hidden_sizes, network)
    model = build_model(obs_size, n_actions, hidden_sizes, **network)
    model.load_state_dict(payload["model"])
    return model.eval()


def write_policy(
    path: str | os.PathLike[str],
    model: nn.Module,
    env: Mapping[str, Any],
    config: Mapping[str, Any],
    algorithm: str | None = None,
    network: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Write the policy file of ``model`` (any module whose weights fit the network that
    ``config["hidden_sizes"]`` and ``network`` name) to ``path`` atomically; the payload written.

    ``env`` is the ``env`` entry (``name``, ``version``, ``obs_size``, ``n_actions`` and, best,
    ``agents``); ``algorithm`` names the algorithm that trained it (None: PPO's files name none).
    The weights are checked to fit the network before anything is written, so every consumer
    that plays a policy file plays this one.
    """
    payload: dict[str, Any] = {
        "env": dict(env),
        "config": dict(config),
        "model": {key: value.detach().clone() for key, value in model.state_dict().items()},
        "network": dict(network) if network is not None else {"torso": "mlp"},
    }
    if algorithm is not None:
        payload["algorithm"] = algorithm
    _check_payload(Path(path), {**payload, "format": FORMAT, "version": VERSION, "checksum": ""})
    policy_network(payload, path)
    save_checkpoint(path, payload)
    return load_checkpoint(path)


# --- the checksum -------------------------------------------------------------------------------


def payload_checksum(payload: Mapping[str, Any], shown_as: str | os.PathLike[str] = "") -> str:
    """``"sha256:<hex>"`` of the canonical serialisation of every entry but ``checksum``.

    :class:`CheckpointError` (naming ``shown_as`` and the entry) for a value a checkpoint cannot
    hold: anything but tensors, ``None``, bools, ints, floats, strings, bytes, lists, tuples and
    dicts.
    """
    digest = hashlib.sha256()
    body = {key: value for key, value in payload.items() if key != CHECKSUM_KEY}
    _feed(digest, body, where="payload", shown_as=shown_as)
    return f"{CHECKSUM_ALGORITHM}:{digest.hexdigest()}"


def _feed(digest: Any, value: Any, where: str, shown_as: Any) -> None:
    """Add ``value``'s canonical bytes to ``digest``: a type tag, then a length-prefixed body."""
    if isinstance(value, torch.Tensor):
        _feed_tensor(digest, value)
    elif value is None or isinstance(value, bool):
        digest.update(b"N" if value is None else b"T" if value else b"F")
    elif isinstance(value, int):
        _feed_bytes(digest, b"i", str(value).encode())
    elif isinstance(value, float):
        _feed_bytes(digest, b"f", value.hex().encode())
    elif isinstance(value, str):
        _feed_bytes(digest, b"s", value.encode("utf-8", "surrogatepass"))
    elif isinstance(value, bytes):
        _feed_bytes(digest, b"b", value)
    elif isinstance(value, list | tuple):
        _feed_bytes(digest, b"l" if isinstance(value, list) else b"t", str(len(value)).encode())
        for i, item in enumerate(value):
            _feed(digest, item, f"{where}[{i}]", shown_as)
    elif isinstance(value, dict):
        _feed_dict(digest, value, where, shown_as)
    else:
        raise CheckpointError(
            f"{shown_as}: {where} holds {type(value).__module__}.{type(value).__qualname__} "
            f"{_short_repr(value)}; a checkpoint holds only tensors and plain Python values and "
            "containers, what a weights-only unpickler reads back (convert numpy arrays to lists)"
        )


def _feed_dict(digest: Any, value: dict[Any, Any], where: str, shown_as: Any) -> None:
    """A dict: its length, then (key, value) pairs in the order of the keys' canonical bytes."""
    entries = []
    for key, item in value.items():
        key_digest = hashlib.sha256()
        _feed(key_digest, key, f"{where} key", shown_as)
        entries.append((key_digest.digest(), key, item))
    entries.sort(key=lambda entry: entry[0])
    _feed_bytes(digest, b"d", str(len(entries)).encode())
    for key_bytes, key, item in entries:
        digest.update(key_bytes)
        _feed(digest, item, f"{where}[{key!r}]", shown_as)


def _feed_tensor(digest: Any, tensor: torch.Tensor) -> None:
    flat = tensor.detach().cpu().contiguous().reshape(-1)
    header = f"{flat.dtype}{tuple(tensor.shape)}".encode()
    _feed_bytes(digest, b"X", header)
    raw = flat.view(torch.uint8).numpy()
    _feed_bytes(digest, b"", raw.tobytes())


def _feed_bytes(digest: Any, tag: bytes, body: bytes) -> None:
    digest.update(tag + str(len(body)).encode() + b":" + body)


def _short_repr(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# --- reading and checking -----------------------------------------------------------------------


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
            f"loading refuses (not a {FORMAT} file, or numpy arrays in the payload)"
            + (f": {detail.split('. ')[0]}" if detail else "")
        )
    first = lines[0] if lines else "no details"
    return f"not a readable torch file (corrupt or truncated): {type(exc).__name__}: {first}"


def _check_verified(path: Path, payload: Any) -> None:
    """Everything a file read back must satisfy: schema, checksum, finite weights."""
    _check_payload(path, payload)
    _check_checksum(path, payload)


def _check_payload(path: Path, payload: Any) -> None:
    """The schema (marker, version, required keys) and finite weights."""
    _check_marker(path, payload)
    version = payload.get("version")
    if version == UNCHECKSUMMED_VERSION:
        raise CheckpointError(
            f"{path}: checkpoint schema version {version} has no checksum; this code reads "
            f"version {VERSION}: upgrade the file with `{UPGRADE_COMMAND} {path}` (re-saves it "
            "with the checksum of its current contents, weights unchanged)"
        )
    if version != VERSION:
        raise CheckpointError(
            f"{path}: checkpoint schema version {version!r}; this code reads version {VERSION}"
        )
    missing = [key for key in REQUIRED_KEYS if key not in payload]
    env = payload.get("env")
    if isinstance(env, dict):
        missing += [f"env.{key}" for key in ENV_KEYS if key not in env]
    elif "env" not in missing:
        missing.append("env (a dict)")
    if missing:
        raise CheckpointError(f"{path}: checkpoint lacks {', '.join(missing)}")
    if not isinstance(payload["config"], dict):
        raise CheckpointError(f"{path}: checkpoint config is a {type(payload['config']).__name__}")
    _check_env_entry(path, payload["env"])
    _check_optional(path, payload)
    _check_finite(path, payload)


def _check_env_entry(path: Path, env: dict[str, Any]) -> None:
    """``env``: a name, non-negative integer version and sizes, and (optional) distinct agents."""
    if not isinstance(env["name"], str) or not env["name"]:
        raise CheckpointError(f"{path}: env.name {_short_repr(env['name'])} is not a name")
    for key in ENV_SIZE_KEYS:
        value = env[key]
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise CheckpointError(
                f"{path}: env.{key} {_short_repr(value)} is not a non-negative integer"
            )
    agents = env.get("agents")
    if agents is not None and not (
        isinstance(agents, list)
        and agents
        and all(isinstance(agent, str) and agent for agent in agents)
        and len(set(agents)) == len(agents)
    ):
        raise CheckpointError(
            f"{path}: env.agents {_short_repr(agents)} is not a list of distinct agent names"
        )


def _check_optional(path: Path, payload: dict[str, Any]) -> None:
    """The optional entries every consumer reads: ``network`` (how to build the network) and
    ``algorithm`` (what trained it), when present."""
    try:
        network_options(payload.get("network"))
    except ValueError as exc:
        raise CheckpointError(f"{path}: {exc}") from exc
    algorithm = payload.get("algorithm")
    if algorithm is not None and not (isinstance(algorithm, str) and algorithm):
        raise CheckpointError(
            f"{path}: algorithm {_short_repr(algorithm)} is not the name of an algorithm"
        )


def _check_marker(path: Path, payload: Any) -> None:
    if not isinstance(payload, dict):
        raise CheckpointError(
            f"{path}: not a {FORMAT} checkpoint (holds a {type(payload).__name__}, not a dict)"
        )
    if payload.get("format") != FORMAT:
        raise CheckpointError(
            f"{path}: not a {FORMAT} checkpoint (format marker {payload.get('format')!r}, "
            f"expected {FORMAT!r})"
        )


def _check_checksum(path: Path, payload: dict[str, Any]) -> None:
    stored = payload[CHECKSUM_KEY]
    if not isinstance(stored, str) or not stored.startswith(f"{CHECKSUM_ALGORITHM}:"):
        raise CheckpointError(
            f"{path}: checksum {_short_repr(stored)} is not '{CHECKSUM_ALGORITHM}:<hex digest>'"
        )
    actual = payload_checksum(payload, shown_as=path)
    if stored != actual:
        raise CheckpointError(
            f"{path}: checksum mismatch, the file is damaged or was edited (it records {stored}, "
            f"its contents hash to {actual}); use an intact copy"
        )


def _check_finite(path: Path, payload: dict[str, Any]) -> None:
    """Every weight of ``model`` and of each ``pool`` snapshot is a tensor, and finite."""
    _check_weights(path, "model", payload["model"])
    pool = payload.get("pool", [])
    if not isinstance(pool, list):
        raise CheckpointError(f"{path}: pool is a {type(pool).__name__}, not a list")
    for i, snapshot in enumerate(pool):
        _check_weights(path, f"pool[{i}]", snapshot)


def _check_weights(path: Path, what: str, state: Any) -> None:
    if not isinstance(state, Mapping):
        raise CheckpointError(f"{path}: {what} is a {type(state).__name__}, not a state_dict")
    for key, tensor in state.items():
        if not isinstance(tensor, torch.Tensor):
            raise CheckpointError(
                f"{path}: {what} weight {key!r} is a {type(tensor).__name__}, not a tensor"
            )
        if tensor.is_floating_point() or tensor.is_complex():
            bad = int((~torch.isfinite(tensor)).sum())
            if bad:
                raise CheckpointError(
                    f"{path}: {what} weight {key!r} holds {bad} non-finite values (NaN or "
                    "infinite): the run diverged or the file is damaged; use an earlier checkpoint"
                )


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
