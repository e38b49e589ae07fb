"""botd against hostile or mistaken input: every request line gets one reply and
the server keeps serving; requests are bounded before they are parsed; scenarios are chosen by name,
never by a client's path; observations must lie in the observation space; no reply echoes a
request; and a command-line mistake is one ``error:`` line with exit status 2.

Most checks drive the real process over pipes (``Botd``, as a front-end would); the field checks
run in-process on :class:`BotServer` for speed.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from reborn_env.bots import RandomBot
from reborn_env.core import registry
from reborn_env.frontends.botd import (
    MAX_DEPTH,
    MAX_ERROR_CHARS,
    MAX_LINE_BYTES,
    MAX_NUMBER_CHARS,
    MAX_QUOTE_CHARS,
    MAX_SEED,
    BotServer,
    main,
    nests_too_deep,
    read_lines,
)
from tests.frontends.test_botd_play import TIMEOUT_S, Botd

VAULT_RAID = resources.files("reborn_env.games.earth_reborn.scenario") / "data" / "vault_raid.toml"
PACKAGED = registry.get(registry.default_name()).scenario_names()  # the default game's scenarios


def server(env_name: str = "earth_reborn_v0") -> BotServer:
    return BotServer(RandomBot(0), "random", env_name)


def error_of(srv: BotServer, line: str) -> str:
    reply = srv.handle(line)
    assert reply["ok"] is False and isinstance(reply["error"], str), reply
    return reply["error"]


def game(srv: BotServer, seat: str = "norad") -> dict[str, Any]:
    reply = srv.handle(json.dumps({"cmd": "new_game", "seat": seat, "seed": 3}))
    assert reply["ok"], reply
    return reply


def raw_observation(env_name: str = "earth_reborn_v0") -> dict[str, Any]:
    env = registry.get(env_name).make_env()
    env.reset(seed=1)
    seen = env.observe(env.agent_selection)
    return {
        "cmd": "observation",
        "observation": seen["observation"].tolist(),
        "action_mask": seen["action_mask"].tolist(),
    }


# --- One line never ends the server -------------------------------------------------------------


def test_deep_nesting_and_huge_numbers_are_error_replies_and_the_server_keeps_serving(
    tmp_path: Path,
) -> None:
    """Lines that crashed botd (RecursionError, the int-string limit's ValueError) get replies."""
    botd = Botd("random", tmp_path / "stderr.txt")
    assert f"at most {MAX_DEPTH} deep" in botd.error("[" * 100_000)
    assert f"at most {MAX_DEPTH} deep" in botd.error('{"cmd": "hello", "x": ' + "{" * 50_000)
    huge = '{"cmd": "new_game", "seat": "norad", "seed": 1' + "0" * 5000 + "}"
    assert f"at most {MAX_NUMBER_CHARS}" in botd.error(huge)
    assert f"at most {MAX_NUMBER_CHARS}" in botd.error(
        '{"cmd": "hello", "x": 1.' + "5" * 5000 + "}"
    )
    assert "not a JSON number" in botd.error('{"cmd": "new_game", "seat": "norad", "seed": NaN}')
    assert "not JSON" in botd.error("\xff\xfe{")
    assert botd.send(cmd="hello")["ok"] is True
    assert botd.send(cmd="quit") == {"ok": True, "bye": True}
    assert botd.close() == 0


def test_a_line_over_the_limit_is_skipped_with_an_error_reply(tmp_path: Path) -> None:
    """A 2 MiB line is refused (not parsed, not echoed); the next request is answered."""
    botd = Botd("random", tmp_path / "stderr.txt")
    long_line = '{"cmd": "hello", "pad": "' + "x" * (2 * MAX_LINE_BYTES) + '"}'
    message = botd.error(long_line)
    assert f"longer than {MAX_LINE_BYTES} bytes" in message and len(message) < 200
    assert botd.send(cmd="hello")["ok"] is True
    assert botd.send(cmd="quit")["bye"] is True
    assert botd.close() == 0


class RecordingStream(io.BytesIO):
    """A byte stream that records the size limit of each readline it is asked for."""

    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.limits: list[int] = []

    def readline(self, size: int | None = -1) -> bytes:
        self.limits.append(-1 if size is None else size)
        return super().readline(size)


def test_request_lines_are_read_with_a_bounded_readline() -> None:
    """No read asks for more than the limit, so an endless line never sits in memory whole; a
    line of exactly the limit is served, one byte more is not, and the line after it is."""
    exact = b"[" + b" " * (MAX_LINE_BYTES - 2) + b"]"
    data = exact + b"\n" + b"y" * (3 * MAX_LINE_BYTES) + b"\n" + b'{"cmd": "hello"}\n'
    stream = RecordingStream(data)
    lines = list(read_lines(stream))
    assert [len(line) if line else line for line in lines] == [MAX_LINE_BYTES + 1, None, 17]
    assert all(0 < limit <= MAX_LINE_BYTES + 1 for limit in stream.limits)


def test_nesting_is_counted_outside_strings_only() -> None:
    """Brackets in strings (escaped quotes included) do not nest; MAX_DEPTH is allowed, one more
    is refused before json.loads sees it."""
    srv = server()
    within = '{"cmd": "hello", "x": ' + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "}"
    assert not nests_too_deep(within) and "unknown field" in error_of(srv, within)
    beyond = '{"cmd": "hello", "x": ' + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "}"
    assert nests_too_deep(beyond) and f"at most {MAX_DEPTH} deep" in error_of(srv, beyond)
    in_string = json.dumps({"cmd": "hello", "x": '\\"' + "[{" * 1000})
    assert not nests_too_deep(in_string) and "unknown field" in error_of(srv, in_string)


# --- Replies never echo the request -------------------------------------------------------------

BIG = "x" * 100_000


@pytest.mark.parametrize(
    "request_",
    [
        {"cmd": BIG},
        {"cmd": "hello", BIG: 1},
        {"cmd": "new_game", "seat": BIG},
        {"cmd": "new_game", "seat": "norad", "scenario": BIG},
        {"cmd": "new_game", "seat": "norad", "env": BIG},
        {"cmd": "new_game", "seat": "norad", "seed": BIG},
        {"cmd": "move", "action": BIG},
        {"cmd": "move", "action": [BIG]},
        {"cmd": "position", "position": {"format": BIG}},
        {"cmd": "observation", "observation": [0.5, BIG] + [0.0] * 952, "action_mask": [1] * 203},
        {"cmd": "observation", "observation": [0.0] * 954, "action_mask": [1, BIG] + [0] * 201},
    ],
    ids=lambda r: "-".join(k[:10] for k in r),
)
def test_error_replies_quote_client_input_only_cut_short(request_: dict[str, Any]) -> None:
    srv = server()
    if request_["cmd"] in ("move", "position"):
        game(srv)
    message = error_of(srv, json.dumps(request_))
    assert len(message) <= MAX_ERROR_CHARS and "x" * (MAX_QUOTE_CHARS + 1) not in message


def test_a_position_error_on_a_huge_value_is_cut_short() -> None:
    """A position error on a huge value is a short reply (the engine quotes values short, and
    botd cuts any message to MAX_ERROR_CHARS)."""
    srv = server()
    game(srv)
    assert srv.env is not None
    start = srv.env.unwrapped.get_state()
    for position in ({**start, "turn": BIG}, {**start, "scenario": BIG}):
        message = error_of(srv, json.dumps({"cmd": "position", "position": position}))
        assert message.startswith("position: ") and len(message) <= 300


def test_the_unknown_command_reply_of_a_huge_request_is_short(tmp_path: Path) -> None:
    botd = Botd("random", tmp_path / "stderr.txt")
    message = botd.error(json.dumps({"cmd": "z" * 500_000}))
    assert message.startswith("unknown cmd 'zzz") and "...; commands: hello" in message
    assert len(message) < 200
    assert botd.send(cmd="quit")["bye"] is True
    assert botd.close() == 0


# --- Scenarios by name only ---------------------------------------------------------------------


def test_new_game_opens_no_client_path(tmp_path: Path) -> None:
    """A FIFO hung botd and /dev/zero filled its memory; now any path (even a good scenario file)
    is refused with the names allowed, and a packaged name still works (real process)."""
    fifo = tmp_path / "hang.toml"
    os.mkfifo(fifo)
    copy = tmp_path / "copy.toml"
    copy.write_bytes(VAULT_RAID.read_bytes())
    botd = Botd("random", tmp_path / "stderr.txt", timeout_s=10)  # the FIFO hung the old botd
    for path in (str(fifo), "/dev/zero", str(copy), "vault_raid.toml", "../data/vault_raid"):
        message = botd.error(json.dumps({"cmd": "new_game", "seat": "norad", "scenario": path}))
        assert f"must name one of this server's scenarios: {', '.join(PACKAGED)}; got" in message
    assert f"scenarios: {', '.join(PACKAGED)}" in botd.error(
        '{"cmd": "new_game", "seat": "norad", "scenario": 7}'
    )
    assert botd.send(cmd="new_game", seat="norad", scenario="vault_raid", seed=1)["ok"] is True
    assert botd.send(cmd="hello")["scenarios"] == PACKAGED
    assert botd.send(cmd="quit")["bye"] is True
    assert botd.close() == 0


@pytest.mark.parametrize(
    ("env_name", "seat"), [("earth_reborn_v0", "norad"), ("haven_v0", "bulwark")]
)
def test_a_position_cannot_name_another_scenario_or_a_path(env_name: str, seat: str) -> None:
    """A position carries a scenario NAME, and the env checks it against its own scenario: a path
    or another name is refused and the server's game is left exactly as it was."""
    srv = server(env_name)
    game(srv, seat)
    assert srv.env is not None
    before = srv.env.unwrapped.get_state()
    for name in ("/dev/zero", str(VAULT_RAID), "no_such_scenario"):
        message = error_of(
            srv, json.dumps({"cmd": "position", "position": {**before, "scenario": name}})
        )
        assert message.startswith("position: ") and f"position is for {name!r}" in message
        assert srv.env.unwrapped.get_state() == before
    assert srv.handle(json.dumps({"cmd": "position", "position": before}))["ok"] is True


def test_haven_scenarios_are_its_packaged_ones() -> None:
    """haven's names come from its own package; a refused new_game keeps the game in progress."""
    srv = server("haven_v0")
    names = registry.get("haven_v0").scenario_names()
    assert "raider_camp" in names and srv.handle('{"cmd": "hello"}')["scenarios"] == names
    game(srv, "bulwark")
    kept = srv.env
    message = error_of(srv, '{"cmd": "new_game", "seat": "bulwark", "scenario": "vault_raid"}')
    assert f"scenarios: {', '.join(names)}; got 'vault_raid'" in message
    assert srv.env is kept and srv.seat == "bulwark"


def scenario_dir(tmp_path: Path, **files: str) -> Path:
    directory = tmp_path / "scenarios"
    directory.mkdir(parents=True)
    for stem, text in files.items():
        (directory / f"{stem}.toml").write_text(text)
    return directory


def renamed_vault_raid(name: str) -> str:
    text = VAULT_RAID.read_text()
    assert text.count('name = "vault_raid"') == 1
    return text.replace('name = "vault_raid"', f'name = "{name}"')


def test_scenario_dir_adds_scenarios_by_stem_name(tmp_path: Path) -> None:
    """``--scenario-dir DIR``: the server's own flag makes DIR's ``*.toml`` selectable by stem;
    positions of that game name it, and one of the packaged scenario is refused (real process)."""
    directory = scenario_dir(tmp_path, other_raid=renamed_vault_raid("other_raid"))
    botd = Botd("random", tmp_path / "stderr.txt", "--scenario-dir", str(directory))
    assert botd.send(cmd="hello")["scenarios"] == [*PACKAGED, "other_raid"]
    assert botd.send(cmd="new_game", seat="norad", scenario="other_raid", seed=2)["ok"] is True
    env = registry.get("earth_reborn_v0").make_env(scenario=str(directory / "other_raid.toml"))
    env.reset(seed=2)
    position = env.get_state()
    assert position["scenario"] == "other_raid"
    assert botd.send(cmd="position", position=position)["ok"] is True
    refused = botd.error(
        json.dumps({"cmd": "position", "position": {**position, "scenario": "vault_raid"}})
    )
    assert "position is for 'vault_raid'" in refused
    assert f"scenarios: {', '.join(PACKAGED)}, other_raid; got 'other_raid.toml'" in botd.error(
        json.dumps({"cmd": "new_game", "seat": "norad", "scenario": "other_raid.toml"})
    )
    assert botd.send(cmd="quit")["bye"] is True
    assert botd.close() == 0


# --- Observations inside the space --------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "index", "value", "expected"),
    [
        ("observation", 5, 1.5, "observation[5] is 1.5; the observation space allows 0..1"),
        ("observation", 0, -0.25, "observation[0] is -0.25; the observation space allows 0..1"),
        ("observation", 3, 1e300, "observation[3] is 1e+300; the observation space allows 0..1"),
        ("action_mask", 2, 1.0, "only 0 and 1, at least one 1; action_mask[2] is 1.0"),
        ("action_mask", 2, True, "only 0 and 1, at least one 1; action_mask[2] is True"),
        ("action_mask", 0, 2, "only 0 and 1, at least one 1; action_mask[0] is 2"),
        ("action_mask", 1, -1, "only 0 and 1, at least one 1; action_mask[1] is -1"),
    ],
)
def test_observations_outside_the_space_are_refused(
    field: str, index: int, value: Any, expected: str
) -> None:
    srv = server()
    request = raw_observation()
    request[field][index] = value
    assert expected in error_of(srv, json.dumps(request))
    assert srv.pending is None


def test_an_infinite_observation_value_or_an_all_zero_mask_is_refused() -> None:
    """1e999 parses as inf (refused as not finite); a mask must allow some action; haven's space
    is checked the same way."""
    srv = server()
    request = raw_observation()
    request["observation"][0] = "INFINITE"
    infinite = json.dumps(request).replace('"INFINITE"', "1e999")
    assert "observation[0] must be a finite number, got inf" in error_of(srv, infinite)
    assert "it has no 1" in error_of(
        srv, json.dumps({**raw_observation(), "action_mask": [0] * 203})
    )
    haven_srv = server("haven_v0")
    haven = raw_observation("haven_v0")
    haven["observation"][-1] = 2.0
    assert "observation[2131] is 2.0; the observation space allows 0..1" in error_of(
        haven_srv, json.dumps(haven)
    )
    assert haven_srv.handle(json.dumps(raw_observation("haven_v0")))["ok"] is True


# --- Values checked for range -------------------------------------------------------------------


@pytest.mark.parametrize("seed", [-1, MAX_SEED + 1, 2**100, 1.5, True, "7"])
def test_a_seed_outside_0_to_max_seed_is_refused(seed: Any) -> None:
    srv = server()
    message = error_of(srv, json.dumps({"cmd": "new_game", "seat": "norad", "seed": seed}))
    assert f"'seed' must be an integer in 0..{MAX_SEED}" in message
    assert srv.env is None
    assert srv.handle(json.dumps({"cmd": "new_game", "seat": "norad", "seed": MAX_SEED}))["ok"]


# --- The command line ---------------------------------------------------------------------------


def run_botd(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "reborn_env.frontends.botd", *args],
        input="",
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )


def test_a_bot_that_cannot_be_loaded_is_one_error_line_and_status_2(tmp_path: Path) -> None:
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"not a model")
    for spec, expected in [
        ("minimax", "error: cannot load bot 'minimax': bot spec 'minimax': expected 'random'"),
        (str(broken), f"error: cannot load bot '{broken}': {broken}: not a loadable ONNX model"),
    ]:
        done = run_botd("--bot", spec)
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.startswith(expected) and done.stderr.count("\n") == 1, done.stderr


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        ([], "error: the following arguments are required: --bot"),
        (["--bot", "random", "--env", "chess"], "error: argument --env: invalid choice: 'chess'"),
        (
            ["--bot", "random", "--seed", "-1"],
            f"error: argument --seed: must be an integer in 0..{MAX_SEED}",
        ),
        (["--bot", "random", "--seed", "x"], "error: argument --seed: must be an integer in 0.."),
        (["--bot", "random", "--colour", "red"], "error: unrecognized arguments: --colour red"),
    ],
)
def test_bad_flags_are_one_error_line_and_status_2(
    argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(expected) and err.count("\n") == 1, err


def bad_scenario_dirs(tmp_path: Path) -> list[tuple[str, str]]:
    """(directory, what its error says) for each kind of bad ``--scenario-dir``."""
    (tmp_path / "empty").mkdir()
    (tmp_path / "fifo").mkdir()
    os.mkfifo(tmp_path / "fifo" / "hang.toml")
    broken = scenario_dir(tmp_path / "a", broken='name = "broken"\n')
    packaged = scenario_dir(tmp_path / "b", vault_raid=VAULT_RAID.read_text())
    renamed = scenario_dir(tmp_path / "c", mine=renamed_vault_raid("theirs"))
    not_toml = scenario_dir(tmp_path / "d", bad="[[[\n")
    return [
        (str(tmp_path / "missing"), "is not a directory; give a directory of *.toml"),
        (str(tmp_path / "empty"), "holds no *.toml scenario file"),
        (str(tmp_path / "fifo"), "hang.toml is not a regular file"),
        (str(broken), "broken.toml"),
        (
            str(packaged),
            f"vault_raid.toml has the name of a packaged scenario ({', '.join(PACKAGED)})",
        ),
        (str(renamed), "mine.toml names its scenario 'theirs'"),
        (str(not_toml), "not a valid UTF-8 TOML file"),
    ]


def test_a_bad_scenario_dir_is_one_error_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for directory, expected in bad_scenario_dirs(tmp_path):
        assert main(["--bot", "random", "--scenario-dir", directory]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1, err
        assert err.startswith(f"error: --scenario-dir {directory!r}") and expected in err, err


def test_a_bad_flag_in_the_real_process_prints_no_traceback(tmp_path: Path) -> None:
    done = run_botd("--bot", "random", "--scenario-dir", str(tmp_path / "missing"))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    missing = str(tmp_path / "missing")
    assert done.stderr == (
        f"error: --scenario-dir {missing!r} is not a directory; give a directory of *.toml "
        "scenario files\n"
    )


def test_help_still_goes_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    assert "--scenario-dir DIR" in capsys.readouterr().out
