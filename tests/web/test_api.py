"""The web server through an HTTP / websocket test client: whole games, and hostile messages."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest
from starlette.websockets import WebSocketDisconnect

from reborn_env.core import registry
from reborn_env.web.server import MAX_MESSAGE, create_app
from reborn_env.web.session import ClientError, Session, drawable_games

from .conftest import TestClient

GAMES = drawable_games()


def ask(ws, message) -> dict:
    ws.send_text(message if isinstance(message, str) else json.dumps(message))
    return ws.receive_json()


def play_out(ws, state: dict) -> dict:
    """Play the first legal move until the game ends; each move must be answered by a state."""
    for _ in range(5000):
        if state["over"]:
            return state
        assert state["legal"], "the person is to move but no move is offered"
        before = len(state["history"])
        state = ask(ws, {"kind": "move", "action": state["legal"][0]["action"]})
        assert state["kind"] == "state", state
        assert len(state["history"]) > before
    raise AssertionError("the game did not end")


def test_page_and_static_files_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "app.js" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert client.get("/static/app.js").status_code == 200
    for path in ("/static/../session.py", "/static/%2e%2e/server.py", "/static/../../__init__.py"):
        assert client.get(path).status_code == 404


def test_hello_lists_the_games_and_only_offered_bots(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        hello = ask(ws, {"kind": "hello"})
    assert [g["env"] for g in hello["games"]] == GAMES
    for game in hello["games"]:
        assert game["bots"][0] == "random" and game["seat"] in game["agents"]


@pytest.mark.parametrize("name", GAMES)
def test_a_whole_game_against_the_random_bot_then_its_log_replays(
    client: TestClient, name: str
) -> None:
    with client.websocket_connect("/ws") as ws:
        state = ask(ws, {"kind": "new", "env": name, "bot": "random", "seed": 5})
        assert state["kind"] == "state" and state["mode"] == "play"
        end = play_out(ws, state)
        assert end["result"] and end["legal"] == [] and end["to_move"] is None
        log = ask(ws, {"kind": "log"})["log"]
        assert len(log["moves"]) == len(end["history"]) and log["result"] is not None
        replay = ask(ws, {"kind": "replay", "log": log, "seat": end["seat"]})
        assert replay["mode"] == "replay" and replay["replay"] == {
            "index": 0,
            "total": len(log["moves"]),
        }
        step = ask(ws, {"kind": "step"})
        assert step["replay"]["index"] == 1 and step["history"] == end["history"][:1]
        last = ask(ws, {"kind": "goto", "index": len(log["moves"])})
        assert last["over"] and last["result"] == end["result"]
        assert last["view"] == {**end["view"], "targets": []}


def test_watching_two_bots_steps_one_move_at_a_time(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        state = ask(ws, {"kind": "new", "mode": "watch", "bot": "random", "bot2": "random"})
        assert state["history"] == [] and state["legal"] == []
        for n in range(1, 6):
            state = ask(ws, {"kind": "step"})
            assert len(state["history"]) == n


HOSTILE = [
    "not json",
    "{",
    "[1, 2]",
    "null",
    "42",
    json.dumps({"no": "kind"}),
    json.dumps({"kind": "shutdown"}),
    json.dumps({"kind": ["hello"]}),
    json.dumps({"kind": "new", "env": "no_such_game_v0"}),
    json.dumps({"kind": "new", "env": {"$ne": 1}}),
    json.dumps({"kind": "new", "mode": "god"}),
    json.dumps({"kind": "new", "seat": "nobody"}),
    json.dumps({"kind": "new", "seed": -1}),
    json.dumps({"kind": "new", "seed": 2**80}),
    json.dumps({"kind": "new", "seed": True}),
    json.dumps({"kind": "new", "seed": "1"}),
    json.dumps({"kind": "new", "bot": "/etc/passwd"}),
    json.dumps({"kind": "new", "bot": "../checkpoints/x.pt"}),
    json.dumps({"kind": "new", "bot": "policy.onnx"}),
    json.dumps({"kind": "move", "action": 0}),  # no game yet
    json.dumps({"kind": "step"}),
    json.dumps({"kind": "goto", "index": 3}),
    json.dumps({"kind": "log"}),
    json.dumps({"kind": "replay", "log": "/etc/passwd"}),
    json.dumps({"kind": "replay", "log": {"format": "reborn_env.game_log", "version": 1}}),
    json.dumps({"kind": "replay"}),
    "[" * 100_000 + "]" * 100_000,  # nested past Python's recursion limit
    json.dumps({"kind": "new", "seed": int("9" * 400)}),
    '{"kind": "new", "seed": ' + "9" * 5000 + "}",  # past Python's int-parsing limit
    json.dumps({"kind": "new", "bot": None, "env": None}) + "trailing",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_a_bad_message_gets_an_error_and_the_session_lives_on(client: TestClient, text) -> None:
    with client.websocket_connect("/ws") as ws:
        reply = ask(ws, text)
        assert reply["kind"] == "error" and reply["message"]
        assert ask(ws, {"kind": "hello"})["kind"] == "hello"


def test_bad_moves_in_a_game_are_refused_and_change_nothing(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        state = ask(ws, {"kind": "new", "bot": "random", "seed": 1})
        legal = {m["action"] for m in state["legal"]}
        illegal = next(a for a in range(10_000) if a not in legal)
        for action in (illegal, -1, 10**12, "1", 1.5, True, None, [0]):
            reply = ask(ws, {"kind": "move", "action": action})
            assert reply["kind"] == "error", action
        assert ask(ws, {"kind": "move", "action": min(legal)})["kind"] == "state"


@pytest.mark.parametrize("name", GAMES)
def test_a_tampered_log_is_refused(client: TestClient, name: str) -> None:
    with client.websocket_connect("/ws") as ws:
        state = ask(ws, {"kind": "new", "env": name, "bot": "random", "seed": 2})
        for _ in range(3):
            state = ask(ws, {"kind": "move", "action": state["legal"][-1]["action"]})
        log = ask(ws, {"kind": "log"})["log"]
        bad = [
            {**log, "env": "other_v0"},
            {**log, "start": {"format": "nothing"}},
            {**log, "start": [1, 2]},
            {**log, "moves": [{**log["moves"][0], "action": 10**9}] + log["moves"][1:]},
            {**log, "moves": [{**log["moves"][0], "action": "0"}]},
            {**log, "moves": [{**log["moves"][0], "agent": "nobody"}]},
            {**log, "moves": [{"agent": 1}]},
            {**log, "moves": "all"},
            {**log, "version": 2},
        ]
        for tampered in bad:
            reply = ask(ws, {"kind": "replay", "log": tampered})
            assert reply["kind"] == "error", tampered
        named = {**log, "moves": [{**m, "name": "<script>x</script>"} for m in log["moves"]]}
        replay = ask(ws, {"kind": "replay", "log": named})
        assert replay["kind"] == "state"
        assert ask(ws, {"kind": "log"})["log"]["moves"][0]["name"] == log["moves"][0]["name"]


def test_an_oversized_message_is_refused(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        reply = ask(ws, json.dumps({"kind": "hello", "pad": "x" * MAX_MESSAGE}))
        assert reply["kind"] == "error" and str(MAX_MESSAGE) in reply["message"]
        ws.send_bytes(b"\xff\xfe" * 10)
        assert ws.receive_json()["kind"] == "error"
        assert ask(ws, {"kind": "hello"})["kind"] == "hello"


def test_sessions_are_bounded_and_kept_apart() -> None:
    app = create_app(max_sessions=2)
    with TestClient(app) as client:
        with client.websocket_connect("/ws") as one, client.websocket_connect("/ws") as two:
            a = ask(one, {"kind": "new", "bot": "random", "seed": 1})
            b = ask(two, {"kind": "new", "bot": "random", "seed": 2})
            ask(one, {"kind": "move", "action": a["legal"][0]["action"]})
            assert ask(two, {"kind": "log"})["log"]["moves"] == b["history"]
            with client.websocket_connect("/ws") as three:
                full = three.receive_json()
                assert full["kind"] == "error" and "2 sessions" in full["message"]
                with pytest.raises(WebSocketDisconnect):
                    three.receive_json()
        with client.websocket_connect("/ws") as again:  # the two have gone: room again
            assert ask(again, {"kind": "hello"})["kind"] == "hello"
    assert app.state.live["sessions"] == 0


def test_a_page_of_another_origin_cannot_open_a_session(client: TestClient) -> None:
    evil = {"origin": "http://evil.example"}
    with pytest.raises(WebSocketDisconnect), client.websocket_connect("/ws", headers=evil) as ws:
        ws.receive_json()
    with client.websocket_connect("/ws", headers={"origin": "http://testserver"}) as ws:
        assert ask(ws, {"kind": "hello"})["kind"] == "hello"


@pytest.mark.parametrize("name", GAMES)
def test_a_policy_bot_shows_its_three_likeliest_moves(name: str) -> None:
    """A bot with probabilities (the game's shipped policy, offered by the server) shows its
    top moves, likeliest first; the random bot shows none."""
    policy = registry.get(name).policy
    with (
        TestClient(create_app(bot=policy, env=name)) as client,
        client.websocket_connect("/ws") as ws,
    ):
        assert policy in ask(ws, {"kind": "hello"})["games"][GAMES.index(name)]["bots"]
        state = ask(ws, {"kind": "new", "mode": "watch", "env": name, "bot": policy})
        state = ask(ws, {"kind": "step"})
        top = state["top"]
        assert 1 <= len(top) <= 3 and all(t["p"] > 0 for t in top)
        assert [t["p"] for t in top] == sorted((t["p"] for t in top), reverse=True)
        assert 0 < sum(t["p"] for t in top) <= 1.0 + 1e-6
        state = ask(ws, {"kind": "new", "mode": "watch", "env": name, "bot": "random"})
        assert ask(ws, {"kind": "step"})["top"] == []


def _junk(rng, depth: int = 0):
    """A random JSON value: numbers out of range, wrong types, nested junk."""
    choice = int(rng.integers(8 if depth < 2 else 5))
    return [
        lambda: int(rng.integers(-(2**40), 2**40)),
        lambda: str(rng.choice(["", "random", "heuristic", "play", "watch", "../x.pt", "\x00"])),
        lambda: bool(rng.integers(2)),
        lambda: None,
        lambda: float(rng.normal()) * 1e6,
        lambda: [_junk(rng, depth + 1) for _ in range(int(rng.integers(3)))],
        lambda: {str(k): _junk(rng, depth + 1) for k in range(int(rng.integers(3)))},
        lambda: {"format": "reborn_env.game_log", "version": 1, "env": _junk(rng, depth + 1)},
    ][choice]()


def test_random_junk_messages_never_break_a_session(client: TestClient) -> None:
    """Fuzz: 400 messages of known kinds with random fields; each gets a state, a log, a hello
    or an error that says what was wrong (never a fault inside the game), and the session still
    plays a legal move at the end."""
    rng = np.random.default_rng(15)
    kinds = ["new", "move", "step", "goto", "replay", "log", "hello"]
    fields = ["mode", "env", "seat", "bot", "bot2", "seed", "action", "index", "log"]
    with client.websocket_connect("/ws") as ws:
        for _ in range(400):
            message = {"kind": str(rng.choice(kinds))}
            for key in rng.choice(fields, size=int(rng.integers(4)), replace=False):
                message[str(key)] = _junk(rng)
            reply = ask(ws, message)
            assert reply["kind"] in ("state", "log", "hello", "error"), reply
            assert "could not do that" not in reply.get("message", ""), (message, reply)
        state = ask(ws, {"kind": "new", "bot": "random", "seed": 9})
        assert ask(ws, {"kind": "move", "action": state["legal"][0]["action"]})["kind"] == "state"


def _paths(value, prefix=()):
    """Every key path into a JSON value."""
    if isinstance(value, dict | list):
        for key, inner in value.items() if isinstance(value, dict) else enumerate(value):
            yield (*prefix, key)
            yield from _paths(inner, (*prefix, key))


@pytest.mark.parametrize("name", GAMES)
def test_a_log_whose_start_position_is_mangled_gets_an_error_never_a_fault(name: str) -> None:
    """Fuzz: 200 logs, each with one field of the start position replaced by junk, are replayed
    or refused with an error that says what is wrong."""
    session = Session()
    state = session.handle({"kind": "new", "env": name, "bot": "random", "seed": 1})[0]
    for _ in range(5):
        state = session.handle({"kind": "move", "action": state["legal"][0]["action"]})[0]
    log = session.handle({"kind": "log"})[0]["log"]
    paths = list(_paths(log["start"]))
    rng = np.random.default_rng(3)
    for _ in range(200):
        mangled = copy.deepcopy(log)
        *parents, last = paths[int(rng.integers(len(paths)))]
        target = mangled["start"]
        for key in parents:
            target = target[key]
        target[last] = _junk(rng)
        try:
            session.handle({"kind": "replay", "log": mangled})
        except ClientError as err:
            assert str(err)
