"""A chain of training commands (training/chain): each stage reads the chain's own files where its
config named an earlier stage's, a finished stage is not run again, and a chain that would read a
policy it did not train is refused before anything runs.

The chain is how a shipped policy made by several commands in turn is retrained from scratch by
one; a stage that silently read the shipped file instead of the chain's would make the retrained
policy a fine-tune of the shipped one, which these tests would catch.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from reborn_env.bots.loading import load_bot
from reborn_env.core import registry
from training.chain import run as chain_run
from training.chain.config import ChainConfig
from training.chain.run import main, stage_configs, stage_policy

GAME = next(n for n in registry.names() if not registry.get(n).facts.cooperative)
SHIPPED = str(Path(__file__).resolve().parents[2] / registry.get(GAME).policy)
SMALL = {"env": GAME, "total_steps": 64, "num_envs": 4, "num_steps": 16, "num_minibatches": 2,
         "update_epochs": 1, "hidden_sizes": [16], "eval_opponents": []}  # fmt: skip


def _yaml(path: Path, keys: dict[str, Any]) -> str:
    path.write_text(yaml.safe_dump(keys))
    return str(path)


def _chain(tmp_path: Path, **second: Any) -> Path:
    """Two stages: PPO from scratch, then MMD whose config names the shipped policy as its start,
    magnet and one of its opponents: in the chain all three are the first stage's policy."""
    first = _yaml(tmp_path / "first.yaml", {**SMALL, "bot_opponents": ["random"]})
    then = _yaml(tmp_path / "then.yaml", {
        **SMALL, "init_policy": SHIPPED, "magnet": SHIPPED, "bot_opponents": ["random", SHIPPED],
        "latest_opponent_prob": 0.5, "snapshot_every": 1, **second,
    })  # fmt: skip
    stages = {
        "first": {"trainer": "ppo", "config": first, "makes": SHIPPED},
        "then": {"trainer": "mmd", "config": then, "makes": str(tmp_path / "then.pt")},
    }
    return Path(_yaml(tmp_path / "chain.yaml", {"stages": stages, "out": str(tmp_path / "out")}))


def test_each_stage_reads_the_chain_s_own_policies_and_a_rerun_runs_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = _chain(tmp_path)
    assert main(["--config", str(config)]) == 0
    out = tmp_path / "out"
    first = str(stage_policy(out, "first"))
    ran = yaml.safe_load((out / "then" / "config.yaml").read_text())
    assert ran["init_policy"] == ran["magnet"] == first
    assert ran["bot_opponents"] == ["random", first]
    assert ran["checkpoint_dir"] == str(out / "then" / "run")
    assert (out / "policy.pt").read_bytes() == stage_policy(out, "then").read_bytes()
    load_bot(str(out / "policy.pt"), GAME)  # a policy file of the game, as front-ends load it
    summary = json.loads((out / "chain.json").read_text())
    assert list(summary["stages"]) == ["first", "then"]
    assert all(s["wall_s"] > 0 for s in summary["stages"].values())
    assert "2 stages" in capsys.readouterr().out

    records = {name: (out / name / "stage.json").stat().st_mtime_ns for name in ("first", "then")}
    assert main(["--config", str(config)]) == 0
    assert capsys.readouterr().out.count("done earlier") == 2
    assert {n: (out / n / "stage.json").stat().st_mtime_ns for n in records} == records

    changed = _chain(tmp_path, total_steps=128)
    assert main(["--config", str(changed)]) == 2
    error = capsys.readouterr().err
    assert error.startswith("error: ") and "total_steps" in error and "--overwrite" in error
    assert {n: (out / n / "stage.json").stat().st_mtime_ns for n in records} == records


def test_the_plan_names_each_stage_s_command_and_inputs_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--config", str(_chain(tmp_path)), "--plan"]) == 0
    first, then = capsys.readouterr().out.splitlines()
    assert "python -m training.ppo" in first and "reads no earlier policy" in first
    assert "python -m training.mmd" in then and "reads the policy of 'first'" in then
    assert not (tmp_path / "out").exists()


def test_a_chain_that_reads_a_policy_it_did_not_train_is_refused_before_running(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    only = _yaml(tmp_path / "only.yaml", {**SMALL, "bot_opponents": ["random", SHIPPED]})
    config = _yaml(tmp_path / "chain.yaml", {
        "stages": {"only": {"trainer": "ppo", "config": only, "makes": str(tmp_path / "a.pt")}},
        "out": str(tmp_path / "out"),
    })  # fmt: skip
    assert main(["--config", config]) == 2
    error = capsys.readouterr().err
    assert SHIPPED in error and "no earlier stage makes" in error
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("stage", "words"),
    [
        ({"trainer": "nfsp", "config": "x.yaml", "makes": "a.pt"}, "trainer: one of 'ppo'"),
        ({"trainer": "ppo", "config": "x.yaml"}, "makes: the file"),
    ],
)
def test_a_malformed_stage_is_refused_saying_what_a_stage_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], stage: dict[str, str], words: str
) -> None:
    config = _yaml(tmp_path / "chain.yaml", {"stages": {"a": stage}, "out": str(tmp_path)})
    assert main(["--config", config]) == 2
    error = capsys.readouterr().err
    assert "key 'stages'" in error and words in error


def test_a_failed_stage_keeps_the_stages_before_it_and_writes_no_policy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    config = _chain(tmp_path)

    def first_trains_then_fails(trainer: str, stage_config: Path) -> int:
        if trainer == "mmd":
            return 1
        run = Path(yaml.safe_load(stage_config.read_text())["checkpoint_dir"])
        run.mkdir(parents=True)
        (run / "policy.pt").write_bytes(b"weights")
        return 0

    monkeypatch.setattr(chain_run, "run_stage", first_trains_then_fails)
    assert main(["--config", str(config)]) == 2
    assert "stage 'then' failed (exit status 1" in capsys.readouterr().err
    out = tmp_path / "out"
    assert (out / "first" / "stage.json").is_file() and not (out / "then" / "stage.json").exists()
    assert not (out / "policy.pt").exists() and not (out / "chain.json").exists()


def test_overwrite_deletes_only_what_the_chain_wrote(tmp_path: Path) -> None:
    cfg = ChainConfig.from_dict(yaml.safe_load(_chain(tmp_path).read_text()))
    out = tmp_path / "out"
    for made in ("first/run/policy.pt", "then/stage.json", "policy.pt", "chain.json", "notes.txt"):
        (out / made).parent.mkdir(parents=True, exist_ok=True)
        (out / made).write_text("x")
    chain_run._start_again(cfg)
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]
    assert list(stage_configs(cfg)) == ["first", "then"]
