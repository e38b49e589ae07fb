"""The terminal front-end (reborn_env.frontends.play): the hand's tiles and cards explained at
each choice, ``--greedy`` for policy bots, and replays that page in a terminal."""

from __future__ import annotations

import builtins
import io

import numpy as np
import pytest

from reborn_env.core import registry
from reborn_env.frontends import play
from reborn_env.frontends.game_log import save_log
from reborn_env.web.session import Session, drawable_games

GAMES = drawable_games()


def _quit(prompt: str = "") -> str:
    raise EOFError


@pytest.mark.parametrize("name", GAMES)
def test_each_held_tile_or_card_is_explained_where_a_choice_is_asked(
    name: str, monkeypatch, capsys
) -> None:
    monkeypatch.setattr(builtins, "input", _quit)
    assert play.main(["--env", name, "--opponent", "random", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    env = registry.get(name).make_env()
    env.reset(seed=3)
    seat = registry.get(name).seat or env.possible_agents[0]
    while env.agent_selection != seat:  # the bots' moves before the first choice
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(np.flatnonzero(mask)[0]))
    legal = [int(a) for a in np.flatnonzero(env.observe(seat)["action_mask"])]
    details = play.hand_details(env, seat, legal)
    assert details and all(line in out for line in details)
    assert len(details) == len(env.unwrapped.match.hand(env.possible_agents.index(seat)))


def test_greedy_reaches_the_policy_bot(monkeypatch, capsys) -> None:
    seen = {}

    def fake_load_bot(spec, env_name=None, seed=None, greedy=False, scenario=None):
        seen.update(greedy=greedy, scenario=scenario)
        raise ValueError("stop here")

    monkeypatch.setattr(play, "load_bot", fake_load_bot)
    default = registry.get(registry.default_name()).default_scenario  # the bot is made for it
    assert play.main(["--opponent", "x.pt", "--greedy"]) == 2
    assert seen == {"greedy": True, "scenario": default}
    assert play.main(["--opponent", "x.pt"]) == 2
    assert seen == {"greedy": False, "scenario": default}
    assert "stop here" in capsys.readouterr().err


@pytest.fixture
def log_file(tmp_path):
    session = Session()
    state = session.handle({"kind": "new", "env": GAMES[0], "bot": "random", "seed": 2})[0]
    for _ in range(3):
        state = session.handle({"kind": "move", "action": state["legal"][0]["action"]})[0]
    path = tmp_path / "log.json"
    save_log(session.handle({"kind": "log"})[0]["log"], path)
    return path


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("terminal", "flags", "waits"),
    [(True, [], True), (True, ["--no-page"], False), (False, [], False), (False, ["--step"], True)],
)
def test_a_replay_pages_in_a_terminal_unless_told_not_to(
    log_file, monkeypatch, capsys, terminal, flags, waits
) -> None:
    prompts = []
    monkeypatch.setattr(builtins, "input", lambda prompt="": prompts.append(prompt) or "")
    if terminal:
        monkeypatch.setattr("sys.stdin", _Terminal())
        monkeypatch.setattr(play.sys.stdout, "isatty", lambda: True)
    assert play.main(["--replay", str(log_file), *flags]) == 0
    moves = capsys.readouterr().out.count("\nmove ")
    assert moves >= 3 and len(prompts) == (moves if waits else 0)
