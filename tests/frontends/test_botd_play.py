"""The bot server and the terminal player, driven as real processes the way front-ends and people
drive them: botd over its JSON line protocol for whole games (errors included), the player through
scripted stdin, and its saved log replayed against the positions it showed.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from reborn_env import earth_reborn_v0
from reborn_env.bots import RandomBot
from reborn_env.frontends.game_log import load_log, new_log, replay
from reborn_env.frontends.play import parse_choice

TIMEOUT_S = 60


class Botd:
    """A botd subprocess and a client for it, killed after ``timeout_s``: a hang fails the test."""

    def __init__(
        self, spec: str, stderr_path: Path, *extra: str, timeout_s: float = TIMEOUT_S
    ) -> None:
        self.stderr = stderr_path.open("w")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "reborn_env.frontends.botd",
                "--bot",
                spec,
                "--seed",
                "1",
                *extra,
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            text=True,
        )
        self.watchdog = threading.Timer(timeout_s, self.proc.kill)
        self.watchdog.start()

    def raw(self, line: str) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        reply = self.proc.stdout.readline()
        assert reply, f"botd gave no reply to {line!r} (exit code {self.proc.poll()})"
        return json.loads(reply)

    def send(self, **request: Any) -> dict[str, Any]:
        return self.raw(json.dumps(request))

    def error(self, line: str) -> str:
        reply = self.raw(line)
        assert reply["ok"] is False and isinstance(reply["error"], str), reply
        return reply["error"]

    def close(self) -> int:
        """Wait for the process to exit; its exit code."""
        try:
            return self.proc.wait(timeout=TIMEOUT_S)
        finally:
            self.watchdog.cancel()
            self.stderr.close()


@pytest.fixture
def mirror() -> Any:
    """The test's own copy of the game, to check every botd reply against."""
    return earth_reborn_v0.env()


def legal_names(env: Any) -> list[str]:
    mask = env.observe(env.agent_selection)["action_mask"]
    return [env.action_name(a) for a in np.flatnonzero(mask)]


def check_state(reply: dict[str, Any], env: Any, seat: str) -> None:
    """botd's game is the mirror's: same side to play and the same legal actions."""
    assert reply["ok"] is True and reply["seat"] == seat, reply
    if reply["over"]:
        assert all(env.terminations.values()) or all(env.truncations.values())
        return
    assert reply["to_play"] == env.agent_selection
    assert reply["bot_turn"] == (env.agent_selection == seat)
    assert reply["legal"] == legal_names(env)


def malformed_requests(botd: Botd, env: Any) -> None:
    """Bad requests mid-game: each gets an error reply and the game stays as it was."""
    assert "not JSON" in botd.error("{not json")
    assert "JSON object" in botd.error("[1, 2]")
    assert "unknown cmd 'resign'" in botd.error('{"cmd": "resign"}')
    assert "unknown cmd" in botd.error('{"cmd": ["hello"]}')
    illegal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])
    assert "legal:" in botd.error(json.dumps({"cmd": "move", "action": illegal}))
    assert "0..202" in botd.error('{"cmd": "move", "action": 999}')
    assert "unknown action" in botd.error('{"cmd": "move", "action": "FLY(N)"}')
    assert "unknown field" in botd.error('{"cmd": "move", "actoin": 1}')
    assert "position" in botd.error('{"cmd": "position", "position": {"format": "chess"}}')
    assert "954 numbers" in botd.error(
        '{"cmd": "observation", "observation": [0.5], "action_mask": [1]}'
    )


def play_over_protocol(botd: Botd, env: Any, seat: str, seed: int) -> dict[str, Any]:
    """A whole game: botd's bot in ``seat``, a RandomBot choosing from the replies' legal names."""
    other = RandomBot(seed)
    reply = botd.send(cmd="new_game", seat=seat, seed=seed)
    env.reset(seed=seed)
    check_state(reply, env, seat)
    for n in range(env.max_steps):
        if reply["over"]:
            return reply
        if n == 5:
            malformed_requests(botd, env)
            reply = botd.send(cmd="position", position=env.get_state())
            check_state(reply, env, seat)
        if reply["bot_turn"]:
            best = botd.send(cmd="best_action")
            assert best["name"] in reply["legal"] and set(best["probabilities"]) == set(
                reply["legal"]
            )
            assert sum(best["probabilities"].values()) == pytest.approx(1.0)
            action: int | str = best["action"] if n % 2 else best["name"]
        else:
            assert "bot's" in botd.error('{"cmd": "best_action"}')
            mask = np.zeros(env.action_space(env.agent_selection).n, dtype=np.int8)
            mask[[env.action_from_name(name) for name in reply["legal"]]] = 1
            action = env.action_name(other.act(np.zeros(1), mask))
        reply = botd.send(cmd="move", action=action)
        env.step(action if isinstance(action, int) else env.action_from_name(action))
        check_state(reply, env, seat)
    raise AssertionError("the game did not end within max_steps")


@pytest.mark.parametrize(("spec", "seat"), [("random", "norad"), ("heuristic", "salemite")])
def test_botd_plays_a_whole_game_and_survives_bad_requests(
    spec: str, seat: str, mirror: Any, tmp_path: Path
) -> None:
    botd = Botd(spec, tmp_path / "stderr.txt")
    assert "no game" in botd.error('{"cmd": "move", "action": 0}')
    assert "no game" in botd.error('{"cmd": "best_action"}')
    hello = botd.send(cmd="hello")
    assert hello["ok"] and hello["protocol"] == 1 and hello["bot"] == spec
    assert hello["envs"] == ["earth_reborn_v0"]
    final = play_over_protocol(botd, mirror, seat, seed=7)
    assert final["winner"] in (*mirror.possible_agents, "draw")
    assert "game is over" in botd.error('{"cmd": "move", "action": 0}')
    assert botd.send(cmd="quit") == {"ok": True, "bye": True}
    assert botd.close() == 0


def test_botd_serves_a_haven_partner(tmp_path: Path) -> None:
    """``botd --env haven_v0``: the scripted bot plays the Conjurer, the front-end the Bulwark
    (first legal action each time); every reply matches a mirror game, a position request
    mid-game resumes it, and the end reports the team's outcome and shared returns (HV-API-6)."""
    from reborn_env import haven_v0

    botd = Botd("heuristic", tmp_path / "stderr.txt", "--env", "haven_v0")
    assert botd.send(cmd="hello")["envs"] == ["haven_v0"]
    assert "--env earth_reborn_v0" in botd.error(
        '{"cmd": "new_game", "env": "earth_reborn_v0", "seat": "norad"}'
    )
    env = haven_v0.env()
    env.reset(seed=5)
    reply = botd.send(cmd="new_game", seat="conjurer", seed=5)
    for n in range(3000):
        check_state(reply, env, "conjurer")
        if reply["over"]:
            break
        if n == 10:
            reply = botd.send(cmd="position", position=env.unwrapped.get_state())
            check_state(reply, env, "conjurer")
        if reply["bot_turn"]:
            action = botd.send(cmd="best_action")["action"]
        else:
            action = env.action_from_name(reply["legal"][0])
        reply = botd.send(cmd="move", action=action)
        env.step(action)
    assert reply["over"] and reply["outcome"] == env.unwrapped.game.outcome
    assert len(set(reply["returns"].values())) == 1
    assert botd.send(cmd="quit") == {"ok": True, "bye": True}
    assert botd.close() == 0


def test_botd_answers_raw_observations_and_exits_on_eof(mirror: Any, tmp_path: Path) -> None:
    botd = Botd("random", tmp_path / "stderr.txt")
    mirror.reset(seed=3)
    seen = mirror.observe(mirror.agent_selection)
    request = {
        "cmd": "observation",
        "observation": seen["observation"].tolist(),
        "action_mask": seen["action_mask"].tolist(),
    }
    assert botd.send(**request)["legal"] == legal_names(mirror)
    best = botd.send(cmd="best_action")
    assert best["name"] in legal_names(mirror)
    assert set(best["probabilities"].values()) == {1.0 / len(legal_names(mirror))}
    assert "no game" in botd.error('{"cmd": "best_action"}')  # the observation answered once
    assert "0 and 1" in botd.error(json.dumps({**request, "action_mask": [2] * 203}))
    assert botd.proc.stdin is not None
    botd.proc.stdin.close()
    assert botd.close() == 0


def test_parse_choice_takes_list_numbers_indices_and_names(mirror: Any) -> None:
    mirror.reset(seed=0)
    legal = [0, 1]  # MULLIGAN_KEEP, MULLIGAN_REDRAW
    assert parse_choice("2", legal, mirror) == 1
    assert parse_choice("#0", legal, mirror) == 0
    assert parse_choice(" mulligan_redraw ", legal, mirror) == 1
    for bad in ("0", "3", "#55", "PASS", "xyz", ""):
        with pytest.raises(ValueError):
            parse_choice(bad, legal, mirror)


def run_play(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "reborn_env.frontends.play", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )


def replayed_boards(log: dict[str, Any]) -> list[tuple[str, dict[str, Any] | None]]:
    """Each position of ``log`` (ansi render) with the move played from it."""
    env = earth_reborn_v0.env(render_mode="ansi", scenario=log["start"]["scenario"])
    return [(env.render(), move) for _, move in replay(log, env)]


def assert_in_order(text: str, parts: list[str]) -> None:
    at = 0
    for part in parts:
        found = text.find(part, at)
        assert found >= 0, f"not found in order:\n{part}"
        at = found + len(part)


def test_terminal_game_rejects_bad_entries_saves_and_replays(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    script = "xyz\n999\n?\n#0\n1\n1\n1\nq\n"
    args = ("--seat", "norad", "--opponent", "random", "--seed", "4", "--save-log", str(path))
    done = run_play(*args, stdin=script)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "not accepted: 'xyz'" in out and "not accepted: 999 is not in the list" in out
    assert "#141       the action with index 141" in out
    assert "norad (you) plays MULLIGAN_KEEP" in out and "game log saved" in out

    log = load_log(path)
    played = [line.split(" plays ")[1] for line in out.splitlines() if " plays " in line]
    assert played == [move["name"] for move in log["moves"]]
    assert sum(move["agent"] == "norad" for move in log["moves"]) == 4 and log["result"] is None
    boards = replayed_boards(log)
    assert_in_order(out, [board for board, move in boards if move and move["agent"] == "norad"])

    shown = run_play("--replay", str(path), stdin="")
    assert shown.returncode == 0, shown.stderr
    assert_in_order(shown.stdout, [board for board, _ in boards])
    assert "result: unfinished" in shown.stdout
    stepped = run_play("--replay", str(path), "--step", stdin="\n")
    assert "move 2:" in stepped.stdout and "move 3:" not in stepped.stdout


def test_terminal_game_to_the_end_as_salemite(tmp_path: Path) -> None:
    path = tmp_path / "full.json"
    args = ("--seat", "salemite", "--opponent", "heuristic", "--seed", "2", "--save-log", str(path))
    done = run_play(*args, stdin="1\n" * 5000)
    assert done.returncode == 0, done.stderr
    assert "Result: " in done.stdout
    log = load_log(path)
    assert log["result"] is not None and set(log["result"]) == {"norad", "salemite"}
    final_board, last = replayed_boards(log)[-1]
    assert last is None and final_board in done.stdout


def test_the_documented_front_end_plays_a_game() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "bot_protocol.md").read_text()
    code = doc.split("```python\n")[1].split("```")[0]
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=TIMEOUT_S, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("winner: ")


def test_terminal_haven_game_with_a_bot_partner_saves_and_replays(tmp_path: Path) -> None:
    """haven in the terminal: you play the Conjurer, the scripted bot the Bulwark (HV-API-1); the
    log replays to the same end (HV-API-9) and the result is the team's shared return (HV-API-6)."""
    path = tmp_path / "haven.json"
    args = ("--env", "haven_v0", "--seat", "conjurer", "--seed", "3", "--save-log", str(path))
    done = run_play(*args, stdin="1\n" * 3000)
    assert done.returncode == 0, done.stderr
    assert "you play conjurer with heuristic" in done.stdout
    assert "your hand (conjurer): C01 C02" in done.stdout
    assert "bulwark (bot) plays" in done.stdout and "conjurer (you) plays" in done.stdout
    assert "Result: the team " in done.stdout
    log = load_log(path)
    assert log["env"] == "haven_v0"
    assert len(set(log["result"].values())) == 1 and set(log["result"]) == {"bulwark", "conjurer"}
    assert {move["agent"] for move in log["moves"]} == {"bulwark", "conjurer"}
    shown = run_play("--replay", str(path), stdin="")
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.rstrip().endswith(
        f"result: bulwark {log['result']['bulwark']:+g}, conjurer {log['result']['conjurer']:+g}"
    )


def test_game_logs_keep_the_format_marker_they_were_saved_with(tmp_path: Path) -> None:
    """Before: moving game_log into reborn_env/frontends renamed the marker written into every
    log to ``reborn_env.frontends.game_log``, so logs saved before the move were refused."""
    env = earth_reborn_v0.env()
    env.reset(seed=0)
    log = new_log(env, "earth_reborn_v0")
    assert log["format"] == "reborn_env.game_log"
    path = tmp_path / "saved_before.json"
    path.write_text(json.dumps({**log, "format": "reborn_env.game_log"}))
    assert load_log(path)["start"] == log["start"]
