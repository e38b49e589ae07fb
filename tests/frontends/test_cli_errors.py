"""Every command-line tool answers a user's mistake with one line and status 2.

The training, evaluation, export and checkpoint tools, and play, animate and demo: a bad config,
a missing, damaged or NaN checkpoint, a refused position, a folder that cannot be written, an
unknown scenario or seat print ``error: <what was wrong and what is allowed>`` as the only line
on stderr and exit with status 2 (argparse's own usage errors already do). A run never writes
over an earlier run unless told ``--overwrite``, and ``--overwrite`` deletes only that run's files.
Most tests call ``main(argv)`` in-process; two run the real process to show no traceback appears.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
import torch

from reborn_env import earth_reborn_v0
from reborn_env.frontends import animate, demo, play
from reborn_env.frontends.game_log import new_log, save_log
from reborn_env.policies.artifact import load_checkpoint, save_checkpoint
from training import export
from training.bench import evaluate
from training.ppo import train as ppo
from training.ppo.config import load_config
from training.ppo.resume import parked_slots
from training.runs.run_files import RunDirError

torch.set_num_threads(1)

ROOT = Path(__file__).resolve().parents[2]
TINY = {
    "env": "earth_reborn_v0",
    "env_kwargs": "{max_steps: 40}",
    "total_steps": 16,
    "num_envs": 1,
    "num_steps": 16,
    "num_minibatches": 1,
    "update_epochs": 1,
    "hidden_sizes": "[8]",
    "eval_opponents": "[]",
    "checkpoint_every": 1,
    "checkpoint_dir": "ckpt",
    "run_name": "tiny",
}
"""A one-update run of 16 decisions (well under a second); paths are relative to the test's cwd."""


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test runs in its own folder, so ``runs/<run_name>`` and ``ckpt`` are its own."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def config(tmp_path: Path, name: str = "tiny.yaml", **over: Any) -> str:
    keys = {**TINY, **over}
    path = tmp_path / name
    path.write_text("".join(f"{key}: {value}\n" for key, value in keys.items()))
    return str(path)


def run(main: Callable[[Sequence[str]], int | None], argv: list[str], capsys) -> tuple[Any, str]:
    """(exit status, stderr) of ``main(argv)``, argparse's SystemExit included."""
    try:
        status = main(argv)
    except SystemExit as exit_:
        status = exit_.code
    return status, capsys.readouterr().err


def one_error_line(status: Any, err: str, *fragments: str) -> None:
    assert status == 2, err
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in err, err


def usage_error(status: Any, err: str, fragment: str) -> None:
    """argparse's way: status 2, the usage line and ``<prog>: error: ...``."""
    assert status == 2 and "error: " in err and fragment in err and "Traceback" not in err, err


def trained(tmp_path: Path, capsys, **over: Any) -> str:
    """Train the tiny run once (into ``ckpt``, logs in ``runs/tiny``); its config's path."""
    cfg = config(tmp_path, **over)
    assert ppo.main(["--config", cfg]) == 0
    capsys.readouterr()
    return cfg


# --- training: the config and its env, checked before anything trains -----------------------------


@pytest.mark.parametrize(
    ("over", "fragments"),
    [
        ({"env_kwargs": "{foo: 1}"}, ["key 'env_kwargs'", "'foo'"]),
        ({"env_kwargs": "{max_steps: -1}"}, ["key 'env_kwargs'", "max_steps must be a positive"]),
        ({"seed": 2**64}, ["key 'seed'", "64 bits"]),
        ({"hidden_sizes": "[1000000000]"}, ["key 'hidden_sizes'", "1..2048"]),
        ({"max_grad_norm": ".inf"}, ["key 'max_grad_norm'", "finite"]),
        ({"learning_rate": ".nan"}, ["key 'learning_rate'", "finite"]),
        (
            {"imitation_games": 2, "imitation_teacher": "grandmaster"},
            ["key 'imitation_teacher'", "'grandmaster' is not a bot of", "'heuristic'"],
        ),
    ],
)
def test_training_refuses_a_bad_config_in_one_line(
    tmp_path: Path, capsys, over: dict[str, Any], fragments: list[str]
) -> None:
    one_error_line(*run(ppo.main, ["--config", config(tmp_path, **over)], capsys), *fragments)
    assert not (tmp_path / "ckpt").exists() and not (tmp_path / "runs").exists()


def test_training_refuses_missing_and_binary_configs(tmp_path: Path, capsys) -> None:
    """Before: a traceback ending in ConfigError, and for binary data in UnicodeDecodeError."""
    one_error_line(*run(ppo.main, ["--config", "absent.yaml"], capsys), "cannot read")
    (tmp_path / "image.yaml").write_bytes(bytes(range(128, 256)))
    one_error_line(*run(ppo.main, ["--config", "image.yaml"], capsys), "not a text file in UTF-8")


def test_an_unwritable_checkpoint_dir_is_refused_before_training(tmp_path: Path, capsys) -> None:
    """Before: found when the first checkpoint was saved, after the training it was to keep."""
    (tmp_path / "blocker").write_text("a file, so no folder can be made under it")
    status, err = run(
        ppo.main, ["--config", config(tmp_path, checkpoint_dir="blocker/ckpt")], capsys
    )
    one_error_line(status, err, "checkpoint_dir blocker/ckpt: cannot create it or write in it")
    assert not (tmp_path / "runs").exists()


def test_a_damaged_opponent_file_is_refused_before_training(tmp_path: Path, capsys) -> None:
    (tmp_path / "rival.pt").write_bytes(b"not a checkpoint")
    cfg = config(tmp_path, bot_opponents="[rival.pt]", bot_opponent_prob=0.5)
    one_error_line(*run(ppo.main, ["--config", cfg], capsys), "rival.pt: holds objects other")
    assert not (tmp_path / "ckpt").exists()


# --- training: a second run never mixes with the first ------------------------------------------


def test_a_second_run_without_resume_is_refused_and_leaves_the_first(
    tmp_path: Path, capsys
) -> None:
    """Before: the second run silently replaced the first's checkpoints and added a second
    TensorBoard event file to runs/tiny."""
    cfg = trained(tmp_path, capsys)
    before = {p.name: p.read_bytes() for p in (tmp_path / "ckpt").iterdir()}
    events = sorted((tmp_path / "runs" / "tiny").iterdir())
    assert sorted(before) == ["latest.pt", "policy.pt"] and len(events) == 1
    status, err = run(ppo.main, ["--config", cfg], capsys)
    one_error_line(status, err, "checkpoint_dir ckpt is not empty", "--resume", "--overwrite")
    assert {p.name: p.read_bytes() for p in (tmp_path / "ckpt").iterdir()} == before
    assert sorted((tmp_path / "runs" / "tiny").iterdir()) == events


def test_event_files_of_an_earlier_run_are_refused_too(tmp_path: Path, capsys) -> None:
    logs = tmp_path / "runs" / "tiny"
    logs.mkdir(parents=True)
    (logs / "events.out.tfevents.1.host").write_bytes(b"")
    status, err = run(ppo.main, ["--config", config(tmp_path)], capsys)
    one_error_line(status, err, "log folder runs/tiny holds TensorBoard event files")


def test_overwrite_deletes_only_the_earlier_runs_files(tmp_path: Path, capsys) -> None:
    cfg = trained(tmp_path, capsys)
    old_events = sorted((tmp_path / "runs" / "tiny").iterdir())
    (tmp_path / "ckpt" / "notes.txt").write_text("mine")
    (tmp_path / "ckpt" / ".latest.pt.abcd1234.tmp").write_bytes(b"killed write")
    assert ppo.main(["--config", cfg, "--overwrite"]) == 0
    names = sorted(p.name for p in (tmp_path / "ckpt").iterdir())
    assert names == ["latest.pt", "notes.txt", "policy.pt"]
    new_events = sorted((tmp_path / "runs" / "tiny").iterdir())
    assert len(new_events) == 1 and new_events != old_events
    usage_error(*run(ppo.main, ["--config", cfg, "--resume", "--overwrite"], capsys), "--resume")


def test_resume_needs_a_run_to_resume(tmp_path: Path, capsys) -> None:
    status, err = run(ppo.main, ["--config", config(tmp_path), "--resume"], capsys)
    one_error_line(status, err, "nothing to resume: ckpt/latest.pt does not exist")


def test_resume_refuses_a_refused_position_and_a_changed_network(tmp_path: Path, capsys) -> None:
    """Before: the env's PositionError (and load_state_dict's RuntimeError) as a traceback."""
    cfg = trained(tmp_path, capsys)
    latest = tmp_path / "ckpt" / "latest.pt"
    good = load_checkpoint(latest)
    wider = config(tmp_path, "wider.yaml", hidden_sizes="[16]")
    one_error_line(*run(ppo.main, ["--config", wider, "--resume"], capsys), "does not fit")
    more = config(tmp_path, "more.yaml", num_envs=2)
    one_error_line(*run(ppo.main, ["--config", more, "--resume"], capsys), "played 1 envs")
    bad = {**good, "slots": [{**parked_slots(good)[0], "position": {"format": "chess"}}]}
    save_checkpoint(latest, bad)
    one_error_line(*run(ppo.main, ["--config", cfg, "--resume"], capsys), "slot 0's saved position")
    save_checkpoint(latest, {**good, "slots": b"{not json"})
    one_error_line(*run(ppo.main, ["--config", cfg, "--resume"], capsys), "not readable JSON")
    old = {key: value for key, value in good.items() if key != "slots"}
    save_checkpoint(latest, {**old, "envs": [{}]})  # a run of the trainer before the game vector
    one_error_line(*run(ppo.main, ["--config", cfg, "--resume"], capsys), "cannot be resumed")


def test_the_quickstart_still_runs_from_a_fresh_clone(tmp_path: Path) -> None:
    """configs/quickstart.yaml writes checkpoints/quickstart and runs/quickstart, both ignored by
    git, so a fresh clone has neither and its first run starts; a second is refused."""
    ignored = (ROOT / ".gitignore").read_text().splitlines()
    assert "/checkpoints/*/" in ignored and "runs/" in ignored
    cfg = load_config(ROOT / "configs" / "quickstart.yaml")
    assert (cfg.checkpoint_dir, cfg.run_name) == ("checkpoints/quickstart", "quickstart")
    assert ppo.preflight(cfg) == Path("runs/quickstart")
    (tmp_path / "checkpoints" / "quickstart" / "latest.pt").write_bytes(b"")
    with pytest.raises(RunDirError, match="checkpoints/quickstart is not empty"):
        ppo.preflight(cfg)


# --- evaluation and export ------------------------------------------------------------------------


@pytest.fixture
def policy(tmp_path: Path, capsys) -> Path:
    trained(tmp_path, capsys)
    return tmp_path / "ckpt" / "policy.pt"


def nan_copy(policy: Path) -> Path:
    """The policy with one NaN weight, written as a pre-checksum tool would (checksum fixed up)."""
    from reborn_env.policies.artifact import payload_checksum

    payload = load_checkpoint(policy)
    payload["model"]["policy.bias"][0] = float("nan")
    payload["checksum"] = payload_checksum(payload)
    path = policy.with_name("nan.pt")
    torch.save(payload, path)
    return path


def test_evaluation_refuses_nan_refused_env_kwargs_and_bad_seeds(policy: Path, capsys) -> None:
    """Before: a NaN policy died in torch.multinomial with a RuntimeError traceback, and
    env_kwargs the env refuses with a TypeError traceback."""
    argv = ["--games", "1", "--checkpoint"]
    one_error_line(*run(evaluate.main, [*argv, str(nan_copy(policy))], capsys), "non-finite")
    payload = load_checkpoint(policy)
    payload["config"]["env_kwargs"] = {"bogus": 1}
    save_checkpoint(policy.with_name("odd.pt"), payload)
    status, err = run(evaluate.main, [*argv, str(policy.with_name("odd.pt"))], capsys)
    one_error_line(status, err, "cannot be built", "bogus")
    usage_error(*run(evaluate.main, [*argv, str(policy), "--seed", "-1"], capsys), "0..2**63-1")
    assert run(evaluate.main, [*argv, str(policy), "--seed", "3"], capsys)[0] == 0


@pytest.mark.filterwarnings(r"ignore:`torch\.jit\.:DeprecationWarning")
def test_export_refuses_an_unwritable_out_and_a_nan_policy(
    tmp_path: Path, policy: Path, capsys
) -> None:
    """Before: NotADirectoryError from the temporary file, as a traceback."""
    (tmp_path / "blocker").write_text("")
    argv = ["--format", "torchscript", "--checkpoint"]
    status, err = run(export.main, [*argv, str(policy), "--out", "blocker/p.ts"], capsys)
    one_error_line(status, err, "cannot write --out blocker/p.ts")
    status, err = run(export.main, [*argv, str(nan_copy(policy)), "--out", "p.ts"], capsys)
    one_error_line(status, err, "non-finite")
    assert not (tmp_path / "p.ts").exists()


# --- play, animate, demo --------------------------------------------------------------------------


@pytest.fixture
def no_input(monkeypatch: pytest.MonkeyPatch) -> None:
    """A refusal must come before the game asks for a move."""

    def refuse(prompt: str = "") -> str:
        raise AssertionError(f"the game started and asked {prompt!r}")

    monkeypatch.setattr("builtins.input", refuse)


@pytest.mark.parametrize(
    ("argv", "fragments"),
    [
        (["--scenario", "nowhere"], ["--scenario 'nowhere'", "no bundled scenario"]),
        (["--seat", "king"], ["--seat 'king'", "norad, salemite"]),
        (["--opponent", "absent.pt"], ["cannot load the bot 'absent.pt'"]),
        (["--save-log", "blocker/game.json"], ["--save-log blocker/game.json", "cannot write"]),
        (["--replay", "absent.json"], ["cannot replay absent.json"]),
    ],
)
def test_play_refuses_bad_arguments_in_one_line(
    tmp_path: Path, capsys, no_input: None, argv: list[str], fragments: list[str]
) -> None:
    """Before: an unknown scenario was a traceback, --save-log failed after the whole game, and
    the other refusals lacked the ``error:`` line or exited with 1."""
    (tmp_path / "blocker").write_text("")
    one_error_line(*run(play.main, argv, capsys), *fragments)


def test_play_and_demo_refuse_seeds_outside_64_bits(capsys, no_input: None) -> None:
    """Before: demo's negative seed ended in numpy's ValueError traceback."""
    usage_error(*run(play.main, ["--seed", "-1"], capsys), "--seed must be in 0..2**63-1")
    usage_error(*run(demo.main, ["--seed", "-1"], capsys), "--seed must be in 0..2**63-1")
    usage_error(*run(demo.main, ["--seed", str(2**64)], capsys), "--seed must be in 0..2**63-1")
    usage_error(*run(demo.main, ["--show-every", "-2"], capsys), "--show-every must be >= 0")


def test_animate_refuses_a_missing_log_and_an_unwritable_out(tmp_path: Path, capsys) -> None:
    """Before: status 1 without ``error:``, and a traceback for an --out it cannot create."""
    one_error_line(*run(animate.main, ["absent.json", "--out", "a.gif"], capsys), "cannot animate")
    env = earth_reborn_v0.env()
    env.reset(seed=1)
    save_log(new_log(env, "earth_reborn_v0"), tmp_path / "game.json")
    (tmp_path / "blocker").write_text("")
    status, err = run(animate.main, ["game.json", "--out", "blocker/a.gif"], capsys)
    one_error_line(status, err, "cannot write --out blocker/a.gif")


# --- the real processes -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("module", "argv", "fragment"),
    [
        ("training.ppo.train", ["--config", "bad.yaml"], "key 'env_kwargs'"),
        ("reborn_env.frontends.play", ["--scenario", "nowhere"], "no bundled scenario"),
    ],
)
def test_the_real_process_prints_one_line_and_no_traceback(
    tmp_path: Path, module: str, argv: list[str], fragment: str
) -> None:
    (tmp_path / "bad.yaml").write_text("total_steps: 10\nenv_kwargs: {max_stepz: 5}\n")
    done = subprocess.run(
        [sys.executable, "-m", module, *argv],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env={"PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1", "PATH": "/usr/bin:/bin"},
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1, done.stderr
    assert fragment in done.stderr and "Traceback" not in done.stderr


def _a_position_after_a_death() -> tuple[dict[str, Any], str]:
    """A heuristic-vs-heuristic position with a dead character, and the agent to move there."""
    from reborn_env.bots.loading import load_bot

    env = earth_reborn_v0.env()
    env.reset(seed=0)
    bots = {a: load_bot("heuristic", "earth_reborn_v0", seed=i) for i, a in enumerate(env.agents)}
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        assert not (term or trunc), "no character died in the game"
        position = env.unwrapped.get_state()
        if any(c["dead"] for c in position["characters"].values()):
            return position, agent
        env.step(bots[agent].act(obs["observation"], obs["action_mask"]))
    raise AssertionError("unreachable")


def test_resume_continues_a_run_whose_game_holds_a_dead_character(tmp_path: Path, capsys) -> None:
    """ER-WND-3: a parked game in which a character has died used to be
    refused on --resume ("wounds: 2 is outside 0..1"), so such a run could not be resumed."""
    trained(tmp_path, capsys, env_kwargs="{max_steps: 4000}")
    latest = tmp_path / "ckpt" / "latest.pt"
    saved = load_checkpoint(latest)
    position, agent = _a_position_after_a_death()
    parked = {**parked_slots(saved)[0], "position": position, "learners": [agent]}
    save_checkpoint(latest, {**saved, "slots": [parked]})
    longer = config(tmp_path, "longer.yaml", env_kwargs="{max_steps: 4000}", total_steps=32)
    status, err = run(ppo.main, ["--config", longer, "--resume"], capsys)
    assert status == 0, err
    assert load_checkpoint(latest)["global_step"] == 32
