"""The policy artifact (docs/policy_artifact.md): a file any algorithm writes through the library
and every consumer plays, refused with a reason when an entry is wrong.

The entries every consumer reads are checked when the file is written and when it is read:
``env`` (name, version, sizes, distinct agents), ``network`` (a registered torso), ``algorithm``
(a name), and ``model`` against the network those entries name. ``python -m reborn_env.policies``
verifies and upgrades files from the command line.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

from reborn_env.bots.loading import load_bot
from reborn_env.core import registry
from reborn_env.policies.artifact import (
    FORMAT,
    VERSION,
    CheckpointError,
    load_checkpoint,
    payload_checksum,
    policy_network,
    save_checkpoint,
    write_policy,
)
from reborn_env.policies.bot import PolicyBot
from reborn_env.policies.network import build_model, network_entry

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((ROOT / "checkpoints").glob("*.pt"))
GAMES = registry.names()
HIDDEN = [16]


def env_entry(name: str) -> dict[str, Any]:
    """The ``env`` entry of a policy for game ``name``, read from the registry."""
    env = registry.get(name).make_env()
    env.reset(seed=0)
    agent = env.agents[0]
    return {
        "name": name,
        "version": int(name.rsplit("_v", 1)[1]),
        "obs_size": int(env.observation_space(agent)["observation"].shape[0]),
        "n_actions": int(env.action_space(agent).n),
        "agents": list(env.possible_agents),
    }


def fresh_model(env: dict[str, Any], hidden: list[int] = HIDDEN) -> torch.nn.Module:
    torch.manual_seed(0)
    return build_model(env["obs_size"], env["n_actions"], hidden)


def unchecked(path: Path, payload: dict[str, Any]) -> Path:
    """``payload`` written with a correct checksum but none of the library's checks (what a
    foreign tool could write)."""
    data = {**payload, "format": FORMAT, "version": VERSION}
    data["checksum"] = payload_checksum(data)
    torch.save(data, path)
    return path


@pytest.mark.parametrize("name", GAMES)
def test_a_policy_written_by_hand_plays_wherever_a_policy_file_is_read(
    tmp_path: Path, name: str
) -> None:
    """Any module whose weights fit a registered network, written with ``write_policy``, is
    loaded by ``load_bot`` and gives the module's own probabilities."""
    env = env_entry(name)
    model = fresh_model(env)
    path = tmp_path / "policy.pt"
    written = write_policy(path, model, env, {"hidden_sizes": HIDDEN}, algorithm="by_hand")
    assert written["algorithm"] == "by_hand" and written["network"] == {"torso": "mlp"}
    assert load_checkpoint(path, expect_env=name)["checksum"] == written["checksum"]
    bot = load_bot(str(path), name, seed=0)
    assert isinstance(bot, PolicyBot)
    game = registry.get(name).make_env()
    game.reset(seed=3)
    observation = game.observe(game.agent_selection)
    obs, mask = observation["observation"], observation["action_mask"]
    with torch.inference_mode():
        logits, _ = model(torch.from_numpy(obs[None]), torch.from_numpy(mask[None] != 0))
    expected = torch.softmax(logits[0].double(), dim=-1).numpy()
    np.testing.assert_allclose(bot.probabilities(obs, mask), expected, rtol=1e-12, atol=1e-15)
    assert mask[bot.act(obs, mask)]


def test_the_records_torso_round_trips_through_its_network_entry(tmp_path: Path) -> None:
    env = env_entry(GAMES[0])
    torch.manual_seed(0)
    sets = [(0, 3, 5), (20, 2, 4)]
    model = build_model(env["obs_size"], env["n_actions"], HIDDEN, sets, record_embed=6)
    path = tmp_path / "records.pt"
    payload = write_policy(path, model, env, {"hidden_sizes": HIDDEN}, network=network_entry(model))
    rebuilt = policy_network(load_checkpoint(path), path)
    assert rebuilt.record_sets == sets and rebuilt.record_embed == 6
    for key, tensor in model.state_dict().items():
        assert torch.equal(rebuilt.state_dict()[key], tensor)
    assert payload["network"] == {"torso": "records", "record_sets": [[0, 3, 5], [20, 2, 4]],
                                  "record_embed": 6}  # fmt: skip


def test_weights_that_do_not_fit_the_named_network_are_refused_before_writing(
    tmp_path: Path,
) -> None:
    env = env_entry(GAMES[0])
    path = tmp_path / "policy.pt"
    write_policy(path, fresh_model(env), env, {"hidden_sizes": HIDDEN})
    before = path.read_bytes()
    with pytest.raises(CheckpointError, match=r"model does not fit the network .*torso\.0\.weight"):
        write_policy(path, fresh_model(env, [8]), env, {"hidden_sizes": HIDDEN})
    assert path.read_bytes() == before  # the previous file is intact


BAD_ENTRIES = {
    "duplicate agents": (
        lambda p: {**p, "env": {**p["env"], "agents": ["a", "a"]}},
        "env.agents .* is not a list of distinct agent names",
    ),
    "agents not a list": (
        lambda p: {**p, "env": {**p["env"], "agents": "a b"}},
        "env.agents .* is not a list",
    ),
    "negative size": (
        lambda p: {**p, "env": {**p["env"], "obs_size": -1}},
        "env.obs_size -1 is not a non-negative integer",
    ),
    "bool version": (
        lambda p: {**p, "env": {**p["env"], "version": True}},
        "env.version True is not a non-negative integer",
    ),
    "empty name": (lambda p: {**p, "env": {**p["env"], "name": ""}}, "env.name '' is not a name"),
    "algorithm not a name": (lambda p: {**p, "algorithm": 3}, "algorithm 3 is not the name"),
    "unknown torso": (
        lambda p: {**p, "network": {"torso": "transformer"}},
        "not an mlp or a records torso",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_ENTRIES))
def test_a_malformed_entry_is_refused_when_written_and_when_read(tmp_path: Path, case: str) -> None:
    env = env_entry(GAMES[0])
    good = {"env": env, "config": {"hidden_sizes": HIDDEN}, "model": fresh_model(env).state_dict()}
    spoil, message = BAD_ENTRIES[case]
    bad = spoil(good)
    path = tmp_path / "policy.pt"
    with pytest.raises(CheckpointError, match=message):
        save_checkpoint(path, bad)
    assert not path.exists()
    unchecked(path, bad)
    with pytest.raises(CheckpointError, match=message) as info:
        load_checkpoint(path)
    assert str(path) in str(info.value)
    with pytest.raises(CheckpointError, match=message):
        load_bot(str(path), GAMES[0])


def test_a_network_entry_read_without_config_sizes_is_refused(tmp_path: Path) -> None:
    env = env_entry(GAMES[0])
    path = unchecked(
        tmp_path / "policy.pt",
        {"env": env, "config": {}, "model": fresh_model(env).state_dict()},
    )
    with pytest.raises(CheckpointError, match="config has no hidden_sizes"):
        policy_network(load_checkpoint(path), path)


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "reborn_env.policies", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "OMP_NUM_THREADS": "1", "PYTHONPATH": str(ROOT)},
    )


def test_the_command_line_verifies_the_shipped_policies() -> None:
    run = run_cli("verify", *map(str, SHIPPED))
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == len(SHIPPED) >= 4
    for path, line in zip(SHIPPED, lines, strict=True):
        assert line == f"{path}: version {VERSION}, {load_checkpoint(path)['checksum']}"


def test_the_command_line_refuses_weights_that_do_not_fit_with_one_error_line(
    tmp_path: Path,
) -> None:
    """``verify`` builds the network too: a checksummed file whose weights do not fit the
    config's sizes is refused, where reading alone would pass it."""
    env = env_entry(GAMES[0])
    payload = {"env": env, "config": {"hidden_sizes": [32]}, "model": fresh_model(env).state_dict()}
    path = unchecked(tmp_path / "misfit.pt", payload)
    load_checkpoint(path)  # the schema, the checksum and the weights' values are fine
    run = run_cli("verify", str(path))
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith(f"error: {path}: model does not fit the network")
    assert run.stderr.count("\n") == 1


@pytest.mark.parametrize("path", SHIPPED, ids=[p.name for p in SHIPPED])
def test_the_shipped_policies_build_their_networks(path: Path) -> None:
    payload = load_checkpoint(path)
    model = policy_network(payload, path)
    assert (model.obs_size, model.n_actions) == (
        payload["env"]["obs_size"],
        payload["env"]["n_actions"],
    )
    for key, tensor in payload["model"].items():
        assert torch.equal(model.state_dict()[key], tensor)
