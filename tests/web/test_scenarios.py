"""The web API on every bundled scenario of every drawable game: ``hello`` offers the scenarios,
``new`` plays the one named against the game's heuristic bot (made for that scenario), the log
records it and replays in it, the board view keys every cell to its legend, and names that are
not bundled (a path included) are refused with the allowed ones while the session goes on.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reborn_env.core import registry
from reborn_env.web.session import ClientError, Session, drawable_games
from tests.frontends.test_scenarios import BAD_NAME, OTHER_SIZES, policy_for_default_sizes

from .conftest import TestClient
from .test_api import ask, play_out

CASES = [
    (game, scenario)
    for game in drawable_games()
    if "heuristic" in registry.get(game).bots
    for scenario in registry.get(game).scenario_names()
]
IDS = [":".join(case) for case in CASES]
DRAWN_OTHER_SIZES = [case for case in OTHER_SIZES if case in CASES]


def test_hello_offers_each_games_bundled_scenarios(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        hello = ask(ws, {"kind": "hello"})
    for game in hello["games"]:
        spec = registry.get(game["env"])
        assert game["scenarios"] == spec.scenario_names()
        assert game["scenario"] == spec.default_scenario in game["scenarios"]


@pytest.mark.parametrize(("game", "scenario"), CASES, ids=IDS)
def test_a_whole_game_of_each_scenario_against_the_heuristic_bot_then_its_log_replays(
    client: TestClient, game: str, scenario: str
) -> None:
    with client.websocket_connect("/ws") as ws:
        message = {"kind": "new", "env": game, "scenario": scenario, "bot": "heuristic", "seed": 4}
        state = ask(ws, message)
        assert state["kind"] == "state" and state["scenario"] == scenario, state
        legend = {row["key"] for row in state["view"]["legend"]}
        assert {cell["key"] for cell in state["view"]["cells"]} <= legend
        end = play_out(ws, state)
        assert end["over"] and end["result"] and end["scenario"] == scenario
        log = ask(ws, {"kind": "log"})["log"]
        assert log["start"]["scenario"] == scenario and log["result"] is not None
        replay = ask(ws, {"kind": "replay", "log": log, "seat": end["seat"]})
        assert replay["scenario"] == scenario and replay["replay"]["total"] == len(log["moves"])
        last = ask(ws, {"kind": "goto", "index": len(log["moves"])})
        assert last["over"] and last["result"] == end["result"]
        assert last["view"] == {**end["view"], "targets": []}


@pytest.mark.parametrize("game", sorted({game for game, _ in CASES}))
def test_a_scenario_not_bundled_is_refused_and_the_session_goes_on(
    client: TestClient, game: str
) -> None:
    names = registry.get(game).scenario_names()
    package = registry.get(game).scenarios.replace(".", "/")
    bundled_path = str(Path(package) / "data" / f"{names[0]}.toml")
    with client.websocket_connect("/ws") as ws:
        state = ask(ws, {"kind": "new", "env": game, "bot": "random", "seed": 1})
        assert state["scenario"] == registry.get(game).default_scenario
        for bad in (BAD_NAME, "/etc/passwd", bundled_path, f"{names[0]}.toml", 7, ["x"]):
            reply = ask(ws, {"kind": "new", "env": game, "scenario": bad, "bot": "random"})
            assert reply["kind"] == "error", bad
            if isinstance(bad, str):
                assert f"scenarios: {', '.join(names)}" in reply["message"], reply
        kept = ask(ws, {"kind": "move", "action": state["legal"][0]["action"]})
        assert kept["kind"] == "state" and len(kept["history"]) > len(state["history"])
        log = ask(ws, {"kind": "log"})["log"]
        for bad in (BAD_NAME, bundled_path, None):
            tampered = {**log, "start": {**log["start"], "scenario": bad}}
            reply = ask(ws, {"kind": "replay", "log": tampered})
            assert reply["kind"] == "error" and "scenario" in reply["message"], bad
        again = ask(ws, {"kind": "replay", "log": json.loads(json.dumps(log))})
        assert again["kind"] == "state" and again["replay"]["total"] == len(log["moves"])


@pytest.mark.parametrize(
    ("game", "scenario"), DRAWN_OTHER_SIZES, ids=[":".join(c) for c in DRAWN_OTHER_SIZES]
)
def test_the_servers_policy_is_refused_for_a_scenario_of_other_sizes(
    game: str, scenario: str, tmp_path: Path
) -> None:
    policy = str(policy_for_default_sizes(game, tmp_path / "policy.pt"))
    session = Session(server_bot=policy, server_env=game)
    state = session.handle({"kind": "new", "env": game, "bot": policy, "seed": 1})[0]
    assert state["scenario"] == registry.get(game).default_scenario
    with pytest.raises(ClientError, match=f"cannot play {scenario!r}: this policy takes"):
        session.handle({"kind": "new", "env": game, "scenario": scenario, "bot": policy})
    assert session.state()["scenario"] == state["scenario"]
