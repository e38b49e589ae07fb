"""The trainer's infrastructure: config checks, checkpoints, the learning-curve plot, evaluation.

These are the parts a long run depends on before it ever learns anything: a config mistake must
stop it at start-up with a message naming the file and the key; a checkpoint must never be half
written and a bad one must say what is wrong; the evaluation CLI must play a checkpoint end to end.
"""

from __future__ import annotations

import dataclasses
import typing
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

from reborn_env.policies.artifact import CheckpointError, load_checkpoint, save_checkpoint
from tests.training.checkpoint_payload import tiny_payload
from training.common.envs import env_sizes, env_version, make_env
from training.common.schema import rules
from training.ppo.config import ConfigError, TrainConfig, load_config
from training.runs.plots import plot_learning_curve

ENV = "earth_reborn_v0"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


# --- config ---------------------------------------------------------------------------------------


def write(tmp_path: Path, text: str, name: str = "run.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def config_error(path: Path) -> str:
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert str(path) in message
    return message


def test_good_config_loads_with_defaults_and_derived_sizes(tmp_path: Path) -> None:
    path = write(tmp_path, "total_steps: 5000\nlearning_rate: 1\nnum_envs: 2\nnum_steps: 64\n")
    cfg = load_config(path)
    assert cfg.learning_rate == 1.0 and isinstance(cfg.learning_rate, float)
    assert cfg.hidden_sizes == [256, 256] and cfg.eval_opponents == ["random", "heuristic"]
    assert (cfg.batch_size, cfg.minibatch_size, cfg.num_updates) == (128, 32, 39)
    assert TrainConfig(total_steps=1).num_updates == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        cfg.seed = 2  # type: ignore[misc]


def test_config_round_trips_through_a_dict(tmp_path: Path) -> None:
    opponent = tmp_path / "old.pt"
    opponent.write_bytes(b"")
    cfg = TrainConfig(
        total_steps=10_000,
        env_kwargs={"max_steps": 300},
        hidden_sizes=[32],
        eval_opponents=["random", str(opponent)],
        run_name="tiny",
    )
    data = cfg.to_dict()
    assert "source" not in data and data["env_kwargs"] == {"max_steps": 300}
    data["hidden_sizes"].append(7)  # a deep copy: the config is unchanged
    assert cfg.hidden_sizes == [32]
    assert TrainConfig.from_dict(cfg.to_dict()) == cfg


def test_unknown_key_suggests_the_closest_one(tmp_path: Path) -> None:
    message = config_error(write(tmp_path, "total_steps: 100\nlearning_rat: 0.001\n"))
    assert "unknown key 'learning_rat'" in message
    assert "did you mean 'learning_rate'" in message


@pytest.mark.parametrize(
    ("line", "fragments"),
    [
        ("num_envs: true", ["'num_envs'", "an integer", "bool"]),
        ("num_envs: 2.0", ["'num_envs'", "an integer", "float"]),
        ("learning_rate: 1e-4", ["'learning_rate'", "a number", "with a dot"]),
        ("anneal_lr: 1", ["'anneal_lr'", "true or false"]),
        ("hidden_sizes: [64, x]", ["'hidden_sizes'", "a list of integers"]),
        ("eval_opponents: random", ["'eval_opponents'", "a list of strings"]),
        ("env_kwargs: [1]", ["'env_kwargs'", "mapping"]),
    ],
)
def test_wrong_types_name_the_key_and_the_type(
    tmp_path: Path, line: str, fragments: list[str]
) -> None:
    message = config_error(write(tmp_path, f"total_steps: 100\n{line}\n"))
    for fragment in fragments:
        assert fragment in message


@pytest.mark.parametrize(
    ("line", "fragments"),
    [
        ("num_envs: 0", ["'num_envs'", "> 0"]),
        ("total_steps: -5", ["'total_steps'", "> 0"]),
        ("gamma: 0", ["'gamma'", "(0, 1]"]),
        ("gae_lambda: 1.5", ["'gae_lambda'", "(0, 1]"]),
        ("latest_opponent_prob: 1.2", ["'latest_opponent_prob'", "[0, 1]"]),
        ("latest_opponent_prob: .nan", ["'latest_opponent_prob'", "[0, 1]"]),
        ("hidden_sizes: []", ["'hidden_sizes'", "non-empty"]),
        ("num_minibatches: 3", ["'num_minibatches'", "not divisible", "1024"]),
        ("eval_opponents: [random, nowhere.pt]", ["'eval_opponents'", "'nowhere.pt'"]),
        ("env: chess_v6", ["'env'", "'earth_reborn_v0'"]),
        ("run_name: ''", ["'run_name'", "non-empty"]),
    ],
)
def test_bad_values_name_the_key_and_what_is_allowed(
    tmp_path: Path, line: str, fragments: list[str]
) -> None:
    message = config_error(write(tmp_path, f"total_steps: 100\n{line}\n"))
    for fragment in fragments:
        assert fragment in message


def test_missing_total_steps_is_reported(tmp_path: Path) -> None:
    assert "missing required key 'total_steps'" in config_error(write(tmp_path, "seed: 3\n"))


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("total_steps: [100\n", "not valid YAML: line 2"),
        ("total_steps: 1\n  seed: 2\n", "not valid YAML: line 2"),
        ("- total_steps\n- 100\n", "found a list"),
        ("100\n", "found a int"),
        ("", "found an empty file"),
    ],
)
def test_yaml_that_is_not_a_mapping_is_reported(tmp_path: Path, text: str, fragment: str) -> None:
    assert fragment in config_error(write(tmp_path, text))


def test_missing_config_file_is_reported(tmp_path: Path) -> None:
    assert "cannot read" in config_error(tmp_path / "absent.yaml")


def test_from_dict_names_its_source() -> None:
    with pytest.raises(ConfigError, match=r"^latest\.pt \(config\): key 'seed'"):
        TrainConfig.from_dict({"total_steps": 10, "seed": -1}, source="latest.pt (config)")


# --- config: every number in range, the env built once, only UTF-8 YAML text ---------------------

HINTS = typing.get_type_hints(TrainConfig)
FLOAT_KEYS = [key for key, hint in HINTS.items() if hint is float]
INT_KEYS = [key for key, hint in HINTS.items() if hint is int]


def test_every_numeric_key_has_a_range_rule() -> None:
    numeric = [key for key, hint in HINTS.items() if hint in (int, float, list[int])]
    ruled = rules(TrainConfig)
    assert FLOAT_KEYS and INT_KEYS and [key for key in numeric if key not in ruled] == []


@pytest.mark.parametrize("value", [".inf", "-.inf", ".nan"])
@pytest.mark.parametrize("key", FLOAT_KEYS)
def test_every_float_key_refuses_infinity_and_nan(tmp_path: Path, key: str, value: str) -> None:
    """Before: ``max_grad_norm: .inf`` was accepted (and gradients were never clipped)."""
    message = config_error(write(tmp_path, f"total_steps: 100\n{key}: {value}\n"))
    assert f"key {key!r}: must be" in message


@pytest.mark.parametrize("key", INT_KEYS)
def test_every_integer_key_refuses_numbers_past_64_bits(tmp_path: Path, key: str) -> None:
    """Before: ``seed: 18446744073709551616`` passed the check and torch.manual_seed overflowed."""
    message = config_error(write(tmp_path, f"total_steps: 100\n{key}: {2**64}\n"))
    assert f"key {key!r}" in message and "64 bits" in message and "2**63-1" in message


@pytest.mark.parametrize(
    ("line", "fragments"),
    [
        ("hidden_sizes: [1000000000]", ["'hidden_sizes'", "1..2048"]),  # was a 3.8 TB network
        ("hidden_sizes: [8, 8, 8, 8, 8, 8, 8, 8, 8]", ["'hidden_sizes'", "at most 8 layer"]),
        ("hidden_sizes: [64, 0]", ["'hidden_sizes'", "1..2048"]),
        ("num_envs: 100000", ["'num_envs'", "at most 1024"]),
        ("num_steps: 1000000", ["'num_steps'", "at most 262144"]),
        ("num_envs: 1024\nnum_steps: 1024", ["num_envs * num_steps = 1048576", "262144"]),
        ("pool_size: 1000", ["'pool_size'", "at most 64"]),
        ("imitation_chunk: 100000", ["'imitation_chunk'", "at most 5000"]),
        ("torch_threads: 100000", ["'torch_threads'", "at most 256"]),
        ("seed: -1", ["'seed'", "0..2**63-1"]),
        ("learning_rate: 2e-4", ["'learning_rate'", "with a dot"]),
    ],
)
def test_sizes_that_take_memory_have_maxima(
    tmp_path: Path, line: str, fragments: list[str]
) -> None:
    message = config_error(write(tmp_path, f"total_steps: 100\n{line}\n"))
    for fragment in fragments:
        assert fragment in message


@pytest.mark.parametrize(
    ("env_kwargs", "fragment"),
    [
        ("{foo: 1}", "'foo'"),
        ("{max_steps: -1}", "max_steps must be a positive integer"),
        ("{scenario: nowhere}", "no bundled scenario"),
    ],
)
def test_env_kwargs_are_checked_by_building_the_env(
    tmp_path: Path, env_kwargs: str, fragment: str
) -> None:
    """Before: the config loaded, and the env refused its kwargs when training began."""
    message = config_error(write(tmp_path, f"total_steps: 100\nenv_kwargs: {env_kwargs}\n"))
    assert "key 'env_kwargs'" in message and fragment in message


def test_a_config_built_in_python_checks_its_env_too() -> None:
    with pytest.raises(ConfigError, match=r"^<TrainConfig>: key 'env_kwargs'.*'bogus'"):
        TrainConfig(total_steps=10, env_kwargs={"bogus": True}).check_env()
    assert TrainConfig(total_steps=10, env_kwargs={"max_steps": 9}).check_env() == env_sizes(ENV)


def test_a_binary_file_is_a_config_error(tmp_path: Path) -> None:
    """Before: UnicodeDecodeError escaped load_config with a traceback."""
    path = tmp_path / "weights.yaml"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\xff\xfe total_steps: 1")
    assert "not a text file in UTF-8" in config_error(path)


def test_a_folder_a_huge_file_and_deep_nesting_are_config_errors(tmp_path: Path) -> None:
    (tmp_path / "folder.yaml").mkdir()
    assert "not a regular file" in config_error(tmp_path / "folder.yaml")
    huge = write(tmp_path, "total_steps: 100\n" + "# padding\n" * 200_000, "huge.yaml")
    assert "a config file is at most 1048576 bytes" in config_error(huge)
    deep = write(tmp_path, "total_steps: " + "[" * 50_000, "deep.yaml")
    assert "nested too deeply" in config_error(deep)


# --- envs -----------------------------------------------------------------------------------------


def test_env_registry() -> None:
    assert env_version(ENV) == 0
    env = make_env(ENV, max_steps=50)
    agent = env.possible_agents[0]
    assert env_sizes(ENV) == (
        env.observation_space(agent)["observation"].shape[0],
        env.action_space(agent).n,
    )
    with pytest.raises(ValueError, match="unknown env 'chess_v6'"):
        make_env("chess_v6")


# --- checkpoints ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def payload() -> dict[str, Any]:
    return tiny_payload()


def leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(".tmp"))


def test_checkpoint_round_trip_restores_every_generator(
    tmp_path: Path, payload: dict[str, Any]
) -> None:
    path = tmp_path / "run" / "latest.pt"
    save_checkpoint(path, payload)
    assert leftovers(path.parent) == []
    loaded = load_checkpoint(path, expect_env=ENV, expect_obs_size=payload["env"]["obs_size"])
    assert loaded["config"] == payload["config"] and loaded["history"] == payload["history"]
    for key, tensor in payload["model"].items():
        assert torch.equal(loaded["model"][key], tensor)
    generator = np.random.default_rng()
    generator.bit_generator.state = loaded["rng"]["numpy"]
    assert generator.integers(1 << 30) == np.random.default_rng(7).integers(1 << 30)
    assert loaded["rng"]["python"] == payload["rng"]["python"]
    assert torch.equal(loaded["rng"]["torch"], payload["rng"]["torch"])


def test_failed_save_leaves_the_old_checkpoint_intact(
    tmp_path: Path, payload: dict[str, Any]
) -> None:
    path = tmp_path / "latest.pt"
    save_checkpoint(path, payload)
    before = path.read_bytes()
    with pytest.raises(Exception, match="pickle|lambda"):
        save_checkpoint(path, {**payload, "history": [lambda: None]})
    with pytest.raises(CheckpointError, match="numpy arrays"):
        save_checkpoint(path, {**payload, "history": [np.zeros(3)]})
    assert path.read_bytes() == before
    assert leftovers(tmp_path) == []
    assert load_checkpoint(path)["update"] == 0


def test_save_refuses_an_incomplete_payload(tmp_path: Path, payload: dict[str, Any]) -> None:
    broken = {key: value for key, value in payload.items() if key != "model"}
    with pytest.raises(CheckpointError, match="lacks model"):
        save_checkpoint(tmp_path / "x.pt", broken)
    assert list(tmp_path.iterdir()) == []


@pytest.fixture
def saved(tmp_path: Path, payload: dict[str, Any]) -> Path:
    path = tmp_path / "good.pt"
    save_checkpoint(path, payload)
    return path


def damaged(saved: Path, data: bytes) -> Path:
    path = saved.with_name("damaged.pt")
    path.write_bytes(data)
    return path


def test_load_reports_corrupt_truncated_and_empty_files(saved: Path) -> None:
    good = saved.read_bytes()
    for data in (b"this is not a torch file", good[: len(good) // 2], b""):
        path = damaged(saved, data)
        with pytest.raises(CheckpointError, match="not a readable torch file") as info:
            load_checkpoint(path)
        assert str(path) in str(info.value)


def test_load_reports_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(CheckpointError, match="no such checkpoint file"):
        load_checkpoint(tmp_path / "absent.pt")


def test_load_reports_foreign_files(tmp_path: Path, payload: dict[str, Any]) -> None:
    torch.save({"state_dict": payload["model"]}, tmp_path / "other.pt")
    with pytest.raises(CheckpointError, match="format marker None"):
        load_checkpoint(tmp_path / "other.pt")
    torch.save({**payload, "version": 3}, tmp_path / "newer.pt")
    with pytest.raises(CheckpointError, match="schema version 3; this code reads version 2"):
        load_checkpoint(tmp_path / "newer.pt")


def test_load_reports_a_checkpoint_for_another_env(saved: Path) -> None:
    with pytest.raises(CheckpointError) as info:
        load_checkpoint(saved, expect_env="chess_v6")
    assert "name 'earth_reborn_v0' (expected 'chess_v6')" in str(info.value)
    with pytest.raises(CheckpointError) as info:
        load_checkpoint(saved, expect_obs_size=10, expect_n_actions=4)
    assert "obs_size" in str(info.value) and "(expected 10)" in str(info.value)
    assert "(expected 4)" in str(info.value)


# --- plot -----------------------------------------------------------------------------------------


def test_learning_curve_is_a_png(tmp_path: Path) -> None:
    history = [
        {"step": 1000 * u, "update": u, "opponent": name, "win_rate": rate, "low": 0.0, "high": 1.0}
        for u in (2, 1, 3)
        for name, rate in (("random", 0.6), ("heuristic", 0.2))
    ]
    history.append({"step": 500, "update": 1, "opponent": "old.pt", "win_rate": 0.5})
    path = tmp_path / "plots" / "curve.png"
    plot_learning_curve(history, path, title="tiny")
    plot_learning_curve([], tmp_path / "empty.png")
    for png in (path, tmp_path / "empty.png"):
        assert png.read_bytes()[:8] == PNG_SIGNATURE
    assert leftovers(path.parent) == [] and leftovers(tmp_path) == []


# --- policy bot and evaluation --------------------------------------------------------------------


def first_decision() -> tuple[np.ndarray, np.ndarray]:
    env = make_env(ENV)
    env.reset(seed=3)
    observation = env.observe(env.agent_selection)
    return observation["observation"], observation["action_mask"]


def test_policy_bot_plays_legal_actions(saved: Path) -> None:
    from reborn_env.policies.bot import PolicyBot

    obs, mask = first_decision()
    probs = PolicyBot(saved).probabilities(obs, mask)
    assert probs.shape == mask.shape and probs.sum() == pytest.approx(1.0)
    assert np.all(probs[mask == 0] == 0.0)
    greedy = PolicyBot(saved, greedy=True).act(obs, mask)
    assert greedy == int(np.argmax(probs))
    draws = [PolicyBot(saved, seed=5).act(obs, mask) for _ in range(2)]
    assert draws[0] == draws[1] and mask[draws[0]]
    with pytest.raises(ValueError, match="takes"):
        PolicyBot(saved).act(obs[:10], mask)


def small_checkpoint(tmp_path: Path, name: str) -> Path:
    payload = tiny_payload()
    payload["config"]["env_kwargs"] = {"max_steps": 400}  # short games either way
    path = tmp_path / name
    save_checkpoint(path, payload)
    return path


def test_evaluate_cli_plays_a_checkpoint_end_to_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from training.bench.evaluate import evaluate, main

    path = small_checkpoint(tmp_path, "policy.pt")
    argv = ["--checkpoint", str(path), "--opponent", "random", "--games", "2", "--seed", "1"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "overall" in out and "95% interval" in out
    result = evaluate(path, "random", games=2, seed=1)
    assert result.overall.games == 4
    assert [record.games for record in result.seats.values()] == [2, 2]
    low, high = result.wilson()
    assert 0.0 <= low <= result.overall.win_rate <= high <= 1.0


def test_evaluate_against_another_checkpoint_greedily(tmp_path: Path) -> None:
    from training.bench.evaluate import main

    path = small_checkpoint(tmp_path, "a.pt")
    rival = small_checkpoint(tmp_path, "b.pt")
    argv = ["--checkpoint", str(path), "--opponent", str(rival), "--games", "1", "--greedy"]
    assert main(argv) == 0


def test_evaluate_cli_reports_bad_opponents_and_checkpoints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from training.bench.evaluate import main

    path = small_checkpoint(tmp_path, "policy.pt")
    assert main(["--checkpoint", str(path), "--opponent", "nobody", "--games", "1"]) == 2
    assert "'nobody': not 'random', 'heuristic'" in capsys.readouterr().err
    absent = tmp_path / "absent.pt"
    assert main(["--checkpoint", str(absent), "--games", "1"]) == 2
    assert "no such checkpoint file" in capsys.readouterr().err
