"""Checkpoint integrity: a checkpoint is verified before anything plays it.

A SHA-256 checksum of the payload is stored and checked on every load (``load_checkpoint``,
``PolicyBot``, ``load_bot`` of a ``.pt``, the evaluation and export CLIs), so a flipped bit is
refused instead of played; NaN or infinite weights are refused at save (a diverged run keeps its
last good checkpoint) and at load (evaluation used to die in ``torch.multinomial``); a write
killed before its rename leaves a temporary file that the next save of the same file removes; the
old, checksum-less version 1 is refused with the command that upgrades it, which keeps every
tensor bit for bit. The shipped checkpoints are in the new format.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
import torch

from reborn_env.bots.loading import load_bot
from reborn_env.core.files import stale_temp_files
from reborn_env.policies import artifact as ckpt
from reborn_env.policies.__main__ import main as policies_cli
from reborn_env.policies.artifact import (
    CheckpointError,
    load_checkpoint,
    payload_checksum,
    save_checkpoint,
    upgrade_checkpoint,
)
from reborn_env.policies.bot import PolicyBot
from tests.training.checkpoint_payload import tiny_payload

ENV = "earth_reborn_v0"
SHIPPED = sorted((Path(__file__).resolve().parents[2] / "checkpoints").glob("*.pt"))


@pytest.fixture(scope="module")
def payload() -> dict[str, Any]:
    return tiny_payload()


@pytest.fixture
def saved(tmp_path: Path, payload: dict[str, Any]) -> Path:
    path = tmp_path / "policy.pt"
    save_checkpoint(path, payload)
    return path


def flip_a_weight_bit(path: Path, tensor: torch.Tensor) -> Path:
    """A copy of ``path`` with one bit flipped inside ``tensor``'s stored bytes (torch's zip
    format stores tensor data uncompressed and does not check it)."""
    data = bytearray(path.read_bytes())
    raw = tensor.contiguous().numpy().tobytes()
    offset = bytes(data).find(raw)
    assert offset >= 0 and bytes(data).count(raw) == 1
    data[offset + len(raw) // 2] ^= 0x04
    damaged = path.with_name("flipped.pt")
    damaged.write_bytes(bytes(data))
    return damaged


def save_unchecked(path: Path, payload: dict[str, Any], version: int = ckpt.VERSION) -> Path:
    """Write ``payload`` as a torch file with a correct checksum but none of save_checkpoint's
    checks (what a foreign tool or an older trainer could have written)."""
    data = {**payload, "format": ckpt.FORMAT, "version": version}
    if version == ckpt.VERSION:
        data["checksum"] = payload_checksum(data)
    torch.save(data, path)
    return path


def with_nan(state: dict[str, torch.Tensor], key: str = "policy.bias") -> dict[str, torch.Tensor]:
    state = {k: v.clone() for k, v in state.items()}
    state[key].view(-1)[0] = float("nan")
    return state


# --- the checksum ---------------------------------------------------------------------------------


def test_a_flipped_weight_bit_is_refused_everywhere_a_checkpoint_is_read(
    saved: Path, payload: dict[str, Any]
) -> None:
    """Before: the damaged file loaded silently and played with the wrong weights."""
    damaged = flip_a_weight_bit(saved, payload["model"]["torso.0.weight"])
    assert torch.load(damaged, weights_only=True)["model"]["torso.0.weight"].shape  # it loads
    with pytest.raises(CheckpointError, match="checksum mismatch") as info:
        load_checkpoint(damaged)
    assert str(damaged) in str(info.value)
    with pytest.raises(CheckpointError, match="checksum mismatch"):
        PolicyBot(damaged)
    with pytest.raises(CheckpointError, match="checksum mismatch"):
        load_bot(str(damaged), ENV)
    assert load_checkpoint(saved)["checksum"].startswith("sha256:")


def test_a_flipped_bit_in_a_pool_snapshot_is_refused(saved: Path, payload: dict[str, Any]) -> None:
    damaged = flip_a_weight_bit(saved, payload["pool"][0]["torso.0.weight"])
    with pytest.raises(CheckpointError, match="checksum mismatch"):
        load_checkpoint(damaged)


def test_the_checksum_covers_every_entry_and_ignores_dict_order(payload: dict[str, Any]) -> None:
    base = payload_checksum(payload)
    assert base == payload_checksum(dict(reversed(list(payload.items()))))
    assert base == payload_checksum({**payload, "checksum": "sha256:whatever"})
    nudged = {k: v.clone() for k, v in payload["model"].items()}
    nudged["value.bias"] = torch.nextafter(nudged["value.bias"], torch.tensor(1.0))
    changes = [
        {**payload, "model": nudged},
        {**payload, "update": 1},
        {**payload, "history": [{**payload["history"][0], "win_rate": 0.25}]},
        {**payload, "config": {**payload["config"], "hidden_sizes": [9]}},
        {**payload, "wall_time": -0.0},
    ]
    sums = {payload_checksum(change) for change in changes}
    assert len(sums) == len(changes) and base not in sums


def test_the_checksum_survives_a_reload_and_resave(saved: Path, tmp_path: Path) -> None:
    loaded = load_checkpoint(saved)
    copy = tmp_path / "copy.pt"
    save_checkpoint(copy, loaded)
    assert load_checkpoint(copy)["checksum"] == loaded["checksum"]


def test_a_missing_or_malformed_checksum_is_refused(
    tmp_path: Path, payload: dict[str, Any]
) -> None:
    data = {**payload, "format": ckpt.FORMAT, "version": ckpt.VERSION}
    torch.save(data, tmp_path / "none.pt")
    with pytest.raises(CheckpointError, match="lacks checksum"):
        load_checkpoint(tmp_path / "none.pt")
    torch.save({**data, "checksum": 12}, tmp_path / "odd.pt")
    with pytest.raises(CheckpointError, match="is not 'sha256:<hex digest>'"):
        load_checkpoint(tmp_path / "odd.pt")


# --- non-finite weights ---------------------------------------------------------------------------


@pytest.mark.parametrize("where", ["model", "pool"])
def test_non_finite_weights_are_refused_at_save_and_the_old_file_is_kept(
    tmp_path: Path, payload: dict[str, Any], where: str
) -> None:
    path = tmp_path / "latest.pt"
    save_checkpoint(path, payload)
    before = path.read_bytes()
    broken = (
        {**payload, "model": with_nan(payload["model"])}
        if where == "model"
        else {**payload, "pool": [payload["pool"][0], with_nan(payload["pool"][0])]}
    )
    what = "model" if where == "model" else r"pool\[1\]"
    with pytest.raises(CheckpointError, match=rf"{what} weight 'policy.bias' holds 1 non-finite"):
        save_checkpoint(path, broken)
    assert path.read_bytes() == before
    assert stale_temp_files(path) == []


def test_non_finite_weights_are_refused_at_load(tmp_path: Path, payload: dict[str, Any]) -> None:
    """Before: a NaN policy loaded, and evaluation died with torch's RuntimeError."""
    model = with_nan(payload["model"], "torso.0.weight")
    model["value.weight"][0, 0] = float("inf")
    path = save_unchecked(tmp_path / "nan.pt", {**payload, "model": model})
    with pytest.raises(CheckpointError, match="model weight 'torso.0.weight' holds 1 non-finite"):
        load_checkpoint(path)
    with pytest.raises(CheckpointError, match="non-finite"):
        load_bot(str(path), ENV)


# --- temporary files of killed writes ----------------------------------------------------------


def test_a_killed_writes_temp_file_is_removed_by_the_next_save(
    tmp_path: Path, payload: dict[str, Any]
) -> None:
    """Before: ``.latest.pt.<random>.tmp`` of a write killed before its rename stayed forever."""
    path = tmp_path / "latest.pt"
    killed = [
        Path(tempfile.mkstemp(prefix=".latest.pt.", suffix=".tmp", dir=tmp_path)[1])
        for _ in range(2)
    ]
    others = [tmp_path / ".policy.pt.abcd1234.tmp", tmp_path / "latest.pt.tmp", tmp_path / "x.tmp"]
    for other in others:
        other.write_bytes(b"not ours")
    assert stale_temp_files(path) == sorted(killed)
    save_checkpoint(path, payload)
    assert not any(stale.exists() for stale in killed)
    assert all(other.read_bytes() == b"not ours" for other in others)
    assert load_checkpoint(path)["update"] == 0


# --- the old format -------------------------------------------------------------------------------


def test_a_version_1_file_is_refused_with_the_upgrade_command(
    tmp_path: Path, payload: dict[str, Any]
) -> None:
    old = save_unchecked(tmp_path / "old.pt", payload, version=1)
    with pytest.raises(CheckpointError) as info:
        load_checkpoint(old)
    assert "version 1 has no checksum" in str(info.value)
    assert f"python -m reborn_env.policies upgrade {old}" in str(info.value)


def test_upgrade_keeps_every_tensor_bit_for_bit(tmp_path: Path, payload: dict[str, Any]) -> None:
    old = save_unchecked(tmp_path / "old.pt", payload, version=1)
    before = torch.load(old, weights_only=True)
    assert policies_cli(["upgrade", str(old)]) == 0
    after = load_checkpoint(old)
    assert after["version"] == ckpt.VERSION
    assert set(after) == set(before) | {"checksum"}
    for key in before["model"]:
        assert after["model"][key].dtype == before["model"][key].dtype
        assert after["model"][key].numpy().tobytes() == before["model"][key].numpy().tobytes()
    assert after["config"] == before["config"] and after["history"] == before["history"]
    assert upgrade_checkpoint(old)["checksum"] == after["checksum"]  # a second upgrade: no-op


def test_upgrade_refuses_non_finite_weights_and_leaves_the_file(
    tmp_path: Path, payload: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    old = save_unchecked(tmp_path / "old.pt", {**payload, "model": with_nan(payload["model"])}, 1)
    before = old.read_bytes()
    assert policies_cli(["upgrade", str(old)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and "non-finite" in err
    assert old.read_bytes() == before


def test_verify_command_reports_a_damaged_file(
    saved: Path, payload: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    assert policies_cli(["verify", str(saved)]) == 0
    damaged = flip_a_weight_bit(saved, payload["model"]["policy.weight"])
    assert policies_cli(["verify", str(damaged)]) == 2
    assert capsys.readouterr().err.startswith(f"error: {damaged}: checksum mismatch")


@pytest.mark.parametrize("path", SHIPPED, ids=[p.name for p in SHIPPED])
def test_the_shipped_checkpoints_verify(path: Path) -> None:
    payload = load_checkpoint(path)
    assert payload["version"] == ckpt.VERSION
    assert payload["checksum"] == payload_checksum(payload)


def test_the_shipped_checkpoints_are_there() -> None:
    assert [p.name for p in SHIPPED] == [
        "earth_reborn_continued_league.pt",
        "earth_reborn_continuous_league.pt",
        "earth_reborn_final_league.pt",
        "earth_reborn_league.pt",
        "earth_reborn_nfsp.pt",
        "earth_reborn_ppo.pt",
        "earth_reborn_salemite_league.pt",
        "haven_frost_ppo.pt",
        "haven_mire_ppo.pt",
        "haven_ppo.pt",
        "haven_walled_ppo.pt",
    ]


# --- a network that does not fit its config -------------------------------------------------------


def test_a_config_naming_a_huge_network_is_refused_before_allocating(
    tmp_path: Path, payload: dict[str, Any]
) -> None:
    """The weights are 8 wide; a config claiming 10**9 would once have allocated 3.8 TB."""
    path = tmp_path / "liar.pt"
    save_checkpoint(path, {**payload, "config": {**payload["config"], "hidden_sizes": [10**9]}})
    with pytest.raises(CheckpointError, match=r"does not fit the network build_model\(954, 203"):
        PolicyBot(path)
