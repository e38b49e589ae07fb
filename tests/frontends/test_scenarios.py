"""Every bundled scenario of every game through terminal play and botd, against the game's own
heuristic bot (made for that scenario: its observation's size differs between scenarios), and bad
scenario names refused with the allowed ones while the session goes on.

The games and scenarios come from the registry, so a new game or scenario is tested here too.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import torch

from reborn_env.core import registry
from reborn_env.frontends.game_log import load_log, log_env, replay
from reborn_env.policies.artifact import save_checkpoint
from reborn_env.policies.network import build_model
from tests.frontends.test_botd_play import Botd, check_state, run_play
from tests.training.checkpoint_payload import tiny_payload

CASES = [
    (game, scenario)
    for game in registry.names()
    if "heuristic" in registry.get(game).bots
    for scenario in registry.get(game).scenario_names()
]
IDS = [":".join(case) for case in CASES]
BAD_NAME = "no_such_scenario"


def sizes(game: str, scenario: str) -> tuple[int, int]:
    """(observation size, number of actions) of ``scenario``'s env."""
    env = registry.get(game).make_env(scenario=scenario)
    agent = env.possible_agents[0]
    return int(env.observation_space(agent)["observation"].shape[0]), int(env.action_space(agent).n)


# (game, scenario) whose observation or action sizes are not those of the game's default
OTHER_SIZES = [
    (game, scenario)
    for game, scenario in CASES
    if sizes(game, scenario) != sizes(game, registry.get(game).default_scenario)
]


def human_and_bot_seats(game: str) -> tuple[str, str]:
    agents = registry.get(game).make_env().possible_agents
    return agents[0], agents[-1]


@pytest.mark.parametrize(("game", "scenario"), CASES, ids=IDS)
def test_terminal_play_of_each_scenario_against_the_heuristic_bot(
    game: str, scenario: str, tmp_path: Path
) -> None:
    """A whole game (the person takes the first legal move each time); its log records the
    scenario and replays to the same end in an env of that scenario."""
    seat, bot_seat = human_and_bot_seats(game)
    path = tmp_path / "game.json"
    args = ("--env", game, "--scenario", scenario, "--seat", seat, "--seed", "5")
    done = run_play(*args, "--opponent", "heuristic", "--save-log", str(path), stdin="1\n" * 5000)
    assert done.returncode == 0, done.stderr
    assert f", {scenario}, seed 5:" in done.stdout and "Result: " in done.stdout
    assert f"{bot_seat} (bot) plays" in done.stdout
    log = load_log(path)
    assert log["start"]["scenario"] == scenario and log["result"] is not None
    env = log_env(log)
    assert list(replay(log, env))[-1] == (len(log["moves"]), None)
    assert any(env.terminations.values()) or any(env.truncations.values())


@pytest.mark.parametrize("game", sorted({game for game, _ in CASES}))
def test_terminal_play_refuses_an_unknown_scenario_naming_the_bundled_ones(game: str) -> None:
    done = run_play("--env", game, "--scenario", BAD_NAME, stdin="")
    assert done.returncode == 2 and done.stdout == ""
    line = done.stderr.strip()
    assert line.startswith(f"error: --scenario {BAD_NAME!r}") and "\n" not in line
    for name in registry.get(game).scenario_names():
        assert name in line


def play_scenario_over_botd(botd: Botd, game: str, scenario: str, seat: str) -> dict[str, Any]:
    """A whole game of ``scenario``: botd's bot in ``seat``, the client the first legal name;
    every reply matches the test's own env of that scenario."""
    env = registry.get(game).make_env(scenario=scenario)
    env.reset(seed=2)
    reply = botd.send(cmd="new_game", env=game, scenario=scenario, seat=seat, seed=2)
    for _ in range(10_000):
        check_state(reply, env, seat)
        if reply["over"]:
            return reply
        if reply["bot_turn"]:
            action = botd.send(cmd="best_action")["action"]
        else:
            action = env.action_from_name(reply["legal"][0])
        reply = botd.send(cmd="move", action=action)
        env.step(action)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("game", sorted({game for game, _ in CASES}))
def test_botd_plays_every_scenario_with_the_bot_made_for_it(game: str, tmp_path: Path) -> None:
    """One server, one heuristic bot spec: each bundled scenario a client names is played to the
    end by the bot for that scenario (the default's bot would misread another's observation); a
    bad name is an error reply listing the scenarios, and the session goes on."""
    names = registry.get(game).scenario_names()
    _, seat = human_and_bot_seats(game)
    botd = Botd("heuristic", tmp_path / "stderr.txt", "--env", game)
    assert botd.send(cmd="hello")["scenarios"] == names
    for scenario in [*reversed(names), names[0]]:  # the default one last too: bots are kept
        final = play_scenario_over_botd(botd, game, scenario, seat)
        assert final["over"] and set(final["returns"]) == set(
            registry.get(game).make_env().possible_agents
        )
        message = botd.error(json.dumps({"cmd": "new_game", "seat": seat, "scenario": BAD_NAME}))
        assert f"must name one of this server's scenarios: {', '.join(names)}" in message
        assert "game is over" in botd.error('{"cmd": "best_action"}')  # the game kept
    assert botd.send(cmd="hello")["ok"] is True
    assert botd.send(cmd="quit") == {"ok": True, "bye": True}
    assert botd.close() == 0


def policy_for_default_sizes(game: str, path: Path) -> Path:
    """A small untrained policy checkpoint of ``game``'s default scenario sizes, saved at path."""
    obs_size, n_actions = sizes(game, registry.get(game).default_scenario)
    payload = tiny_payload(env=game)
    torch.manual_seed(0)
    model = build_model(obs_size, n_actions, [8])
    payload["env"].update(obs_size=obs_size, n_actions=n_actions)
    payload["model"] = model.state_dict()
    payload["optimizer"] = torch.optim.Adam(model.parameters()).state_dict()
    payload["pool"] = [dict(model.state_dict())]
    save_checkpoint(path, payload)
    return path


@pytest.mark.parametrize(("game", "scenario"), OTHER_SIZES, ids=[":".join(c) for c in OTHER_SIZES])
def test_botd_refuses_a_scenario_whose_sizes_a_policy_does_not_take(
    game: str, scenario: str, tmp_path: Path
) -> None:
    """A policy plays the sizes it was trained on: naming another scenario is an error reply
    saying so, and the server then still plays the default scenario with it."""
    policy = policy_for_default_sizes(game, tmp_path / "policy.pt")
    _, seat = human_and_bot_seats(game)
    botd = Botd(str(policy), tmp_path / "stderr.txt", "--env", game)
    message = botd.error(json.dumps({"cmd": "new_game", "seat": seat, "scenario": scenario}))
    obs_size, n_actions = sizes(game, registry.get(game).default_scenario)
    assert f"takes observations of size {obs_size} and {n_actions} actions" in message
    assert f"scenario {scenario!r} gives {sizes(game, scenario)[0]}" in message
    reply = botd.send(cmd="new_game", seat=seat, seed=1)
    assert reply["ok"] is True and reply["seat"] == seat
    while not reply["bot_turn"] and not reply["over"]:
        reply = botd.send(cmd="move", action=reply["legal"][0])
    if not reply["over"]:
        best = botd.send(cmd="best_action")
        assert best["ok"] is True and best["name"] in reply["legal"]
    assert botd.send(cmd="quit")["bye"] is True
    assert botd.close() == 0


def test_some_bundled_scenario_has_other_sizes_than_its_default() -> None:
    """The policy test above has cases, and the heuristic bots face observations of more than
    one size here (what the default scenario's bot could not read)."""
    assert OTHER_SIZES
