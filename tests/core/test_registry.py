"""The game registry (reborn_env.core.registry) and the registries of PettingZoo and Gymnasium.

Every registered game's spec must resolve (its env, bots, colours, scenarios, fuzz kit and shipped
policy); an unknown name is a clear error that lists the games, wherever it is given (the registry,
bot loading, the trainer, the wrapper, PettingZoo, the command lines); ``import reborn_env.envs``
makes every game a ``pettingzoo.make`` env and one seat of it a ``gymnasium.make`` env (the
conformance suite, tests/conformance/, runs PettingZoo's api_test and Gymnasium's check_env on
them). And no module outside the games' packages names a game: front-ends, trainers, bot loading,
benchmarks and the conformance suite ask here.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import gymnasium
import numpy as np
import pettingzoo
import pytest

import reborn_env.envs
from reborn_env.bots import Bot
from reborn_env.bots.loading import load_bot
from reborn_env.core import registry
from reborn_env.core.facts import GameFacts, Kind
from reborn_env.frontends import botd, play
from reborn_env.wrappers import SingleAgentEnv
from training.common.envs import make_env

ROOT = Path(__file__).resolve().parents[2]
GAMES = registry.names()
# What a fresh interpreter registers: not the games tests/conftest.py adds from tests/games/.
FRESH_GAMES = [name for name in GAMES if not registry.get(name).env.startswith("tests.")]
UNKNOWN = "chess_v6"


def toy_env(**kwargs):
    """A plug-in's env factory, in its own module (this one): the first game's env."""
    return registry.get(GAMES[0]).make_env(**kwargs)


@pytest.fixture
def toy_game():
    """A game registered directly, as a test or a plug-in does, first in name order."""
    spec = registry.GameSpec("aaa_v0", "first in name order", f"{__name__}:toy_env")
    registry.register(spec)
    yield spec
    registry.unregister(spec.name)


# --- Every spec resolves ------------------------------------------------------------------------


def test_the_bundled_games_are_registered() -> None:
    """Both games' packages register themselves; names are sorted."""
    assert sorted(GAMES) == GAMES
    assert {"earth_reborn_v0", "haven_v0"} <= set(GAMES)


@pytest.mark.parametrize("name", GAMES)
def test_every_spec_resolves(name: str) -> None:
    """What a game declares resolves: the env, each bot, one colour per agent, the bundled
    scenarios (the default among them), the seat and the shipped policy. All but the env are
    optional (a game may have no scenario, bot, colours, seat or policy); the hooks of the
    conformance suite are required there (tests/conformance/test_hooks.py)."""
    spec = registry.get(name)
    env = spec.make_env()
    assert isinstance(env, pettingzoo.AECEnv) and env.metadata["name"] == name
    assert spec.title and isinstance(spec.facts.cooperative, bool)
    if spec.scenarios:
        assert spec.default_scenario in spec.scenario_names()
    else:
        assert spec.default_scenario == "" and spec.scenario_names() == []
    assert spec.seat == "" or spec.seat in env.possible_agents
    colours = spec.agent_colours()
    assert len(colours) == (len(env.possible_agents) if spec.colours else 0)
    assert all(len(c) == 3 and all(0 <= v <= 255 for v in c) for c in colours)
    env.reset(seed=0)
    seen = env.observe(env.agent_selection)
    for kind in spec.bots:
        bot = spec.make_bot(kind, seed=0)
        assert isinstance(bot, Bot)
        assert seen["action_mask"][bot.act(seen["observation"], seen["action_mask"])] == 1
    assert spec.policy == "" or (ROOT / spec.policy).is_file()


@pytest.mark.parametrize("name", GAMES)
def test_a_finished_game_has_a_result_a_summary_and_a_caption(name: str) -> None:
    """What the front-ends read of a finished game: the match's result, summary and returns
    (play's log, botd's reply) and the caption animate draws from them."""
    spec = registry.get(name)
    env = spec.make_env()
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    while not play.is_over(env):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    returns = play.returns_of(env)
    assert set(returns) == set(env.possible_agents)
    assert returns == env.rewards  # the end's rewards, as the env gave them (no shaping here)
    assert isinstance(env.unwrapped.match.summary(), str)
    reply = botd._result(env)
    assert reply["returns"] == returns and len(reply) == 2
    caption = spec.result_caption(returns)
    assert caption.endswith("WINS") or caption in ("TEAM LOSES", spec.draw_caption)


def test_result_captions_of_a_competitive_and_a_cooperative_game() -> None:
    versus = registry.GameSpec("versus_v0", "versus", "x:y")
    team_facts = GameFacts(kind=Kind.IDENTICAL)
    team = registry.GameSpec("team_v0", "team", "x:y", draw_caption="TIME UP", facts=team_facts)
    assert versus.result_caption({"a": 1.0, "b": -1.0}) == "a WINS"
    assert versus.result_caption({"a": 0.0, "b": 0.0}) == "DRAW"
    assert team.result_caption({"a": -1.0, "b": -1.0}) == "TEAM LOSES"
    assert team.result_caption({"a": 0.0, "b": 0.0}) == "TIME UP"


def test_the_default_game_is_the_first_bundled_one(toy_game: registry.GameSpec) -> None:
    """A game registered directly, even first in name order, never becomes the default that
    play, botd, demo, the trainer's config and the wrapper start."""
    assert registry.names()[0] == toy_game.name
    assert registry.default_name() == GAMES[0] == "earth_reborn_v0"
    assert SingleAgentEnv().game == GAMES[0]
    default_bot = type(registry.get(GAMES[0]).make_bot("heuristic"))
    assert isinstance(load_bot("heuristic", seed=0), default_bot)


def test_registering_a_name_twice_with_another_spec_is_refused(toy_game) -> None:
    other = registry.GameSpec(toy_game.name, "another game", toy_game.env)
    with pytest.raises(ValueError, match="already registered"):
        registry.register(other)
    assert registry.get(toy_game.name) is toy_game


# --- Unknown names ------------------------------------------------------------------------------


def test_an_unknown_game_is_a_clear_error_listing_the_games() -> None:
    games = ", ".join(GAMES)
    with pytest.raises(ValueError, match=f"no game named '{UNKNOWN}'; the games are {games}"):
        registry.get(UNKNOWN)
    with pytest.raises(ValueError, match=f"no heuristic bot for env '{UNKNOWN}'; there is one for"):
        load_bot("heuristic", UNKNOWN)
    with pytest.raises(ValueError, match=f"unknown env '{UNKNOWN}'; known envs: {games}"):
        make_env(UNKNOWN)
    with pytest.raises(ValueError, match=f"the games are {games}"):
        SingleAgentEnv(UNKNOWN)
    with pytest.raises(pettingzoo.env_registry.exceptions.NameNotFound):
        pettingzoo.make("aec", f"reborn_env/{UNKNOWN}")
    with pytest.raises(gymnasium.error.NameNotFound):
        gymnasium.make(f"reborn_env/{UNKNOWN.replace('_v', '-v')}")


def test_a_bot_without_that_kind_names_the_kinds_there_are() -> None:
    spec = registry.get(GAMES[0])
    with pytest.raises(ValueError, match=f"no 'minimax' bot for {spec.name}; it has heuristic"):
        spec.make_bot("minimax")


@pytest.mark.parametrize("module", ["reborn_env.frontends.play", "reborn_env.frontends.demo"])
def test_command_lines_offer_the_registered_games(module: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", module, "--env", UNKNOWN],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert f"invalid choice: '{UNKNOWN}'" in done.stderr
    assert all(name in done.stderr for name in FRESH_GAMES)


# --- PettingZoo and Gymnasium -------------------------------------------------------------------


def test_the_ids_follow_each_librarys_spelling() -> None:
    assert reborn_env.envs.pettingzoo_id("earth_reborn_v0") == "reborn_env/earth_reborn_v0"
    assert reborn_env.envs.gymnasium_id("earth_reborn_v0") == "reborn_env/earth_reborn-v0"
    assert reborn_env.envs.gymnasium_id("haven_v12") == "reborn_env/haven-v12"
    assert reborn_env.envs.gymnasium_id("toy") == "reborn_env/toy"


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_make_gives_the_game_env_with_its_arguments(name: str) -> None:
    """The env PettingZoo's registry gives is the game's own, built with the arguments given
    (PettingZoo's api_test on it: tests/conformance/test_pettingzoo.py)."""
    env = pettingzoo.make("aec", f"reborn_env/{name}", render_mode="ansi")
    assert type(env) is type(registry.get(name).make_env()) and env.render_mode == "ansi"


@pytest.mark.parametrize("name", GAMES)
def test_gymnasium_make_gives_one_seat_of_the_game(name: str) -> None:
    """The single-agent wrapper of the game, its first seat by default (Gymnasium's check_env on
    it: tests/conformance/test_pettingzoo.py)."""
    env = gymnasium.make(reborn_env.envs.gymnasium_id(name))
    assert env.unwrapped.game == name
    assert env.unwrapped.agent == env.unwrapped.aec.possible_agents[0]


def test_gymnasium_make_takes_the_seat_and_the_opponent() -> None:
    env = gymnasium.make("reborn_env/earth_reborn-v0", agent="salemite", opponent="heuristic")
    obs, info = env.reset(seed=0)
    wrapper = env.unwrapped
    assert wrapper.agent == "salemite" and type(wrapper.opponent).__name__.endswith("Bot")
    assert wrapper.aec.agent_selection == "salemite" and obs in env.observation_space
    assert info["action_mask"].any()


def test_gymnasium_imports_the_module_named_before_the_colon() -> None:
    """``gymnasium.make("reborn_env.envs:reborn_env/<game>-v0")`` in a fresh interpreter that
    never imported reborn_env: Gymnasium imports the module, which registers the games."""
    code = (
        "import gymnasium\n"
        "env = gymnasium.make('reborn_env.envs:reborn_env/haven-v0')\n"
        "obs, info = env.reset(seed=1)\n"
        "print(env.unwrapped.game, env.unwrapped.agent, obs.shape)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[:2] == ["haven_v0", "bulwark"]


def test_register_all_adds_a_game_registered_later(toy_game: registry.GameSpec) -> None:
    assert reborn_env.envs.register_all() == [toy_game.name]
    assert reborn_env.envs.register_all() == []
    assert isinstance(pettingzoo.make("aec", "reborn_env/aaa_v0"), pettingzoo.AECEnv)


# --- No module outside the games names a game ---------------------------------------------------

SCANNED = ("reborn_env", "training", "benchmarks", "tests/conformance")


def game_words() -> set[str]:
    """What naming a game looks like: its registered name, that name without the version, its
    package's name and its title (compared case-insensitively)."""
    words = set()
    for name in GAMES:
        spec = registry.get(name)
        package = spec.env.split(":")[0].split(".")[2]  # reborn_env.games.<package>.env
        words |= {name, name.rsplit("_v", 1)[0], package, spec.title}
    return {w.lower() for w in words}


def exempt(path: Path) -> bool:
    """The games' own packages; each game's public entry point ``reborn_env/<name>.py``; and
    ``reborn_env/__init__.py``, which lists those entry points."""
    relative = path.relative_to(ROOT)
    if relative.parts[:2] == ("reborn_env", "games"):
        return True
    return relative.as_posix() in {
        "reborn_env/__init__.py",
        *(f"reborn_env/{name}.py" for name in GAMES),
    }


def names_in(source: str) -> Iterator[tuple[int, str]]:
    """(line, text) of every identifier, imported module and string of ``source`` (docstrings
    and comments are prose and may mention a game)."""
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings:
                yield node.lineno, node.value
        elif isinstance(node, ast.Name):
            yield node.lineno, node.id
        elif isinstance(node, ast.Attribute):
            yield node.lineno, node.attr
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield node.lineno, node.name
        elif isinstance(node, ast.arg):
            yield node.lineno, node.arg
        elif isinstance(node, ast.ImportFrom):
            yield node.lineno, node.module or ""
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)


def naming(source: str, words: set[str]) -> list[str]:
    """``line N: text`` for each name or string of ``source`` that contains one of ``words``."""
    return [
        f"line {line}: {text!r}"
        for line, text in sorted(names_in(source))
        if any(word in text.lower() for word in words)
    ]


def scanned_modules() -> list[Path]:
    return [
        path
        for package in SCANNED
        for path in sorted((ROOT / package).rglob("*.py"))
        if not exempt(path)
    ]


@pytest.mark.parametrize("path", scanned_modules(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_module_outside_the_games_names_a_game(path: Path) -> None:
    found = naming(path.read_text(), game_words())
    assert not found, f"{path.relative_to(ROOT)} names a game: " + "; ".join(found)


def test_the_scan_sees_identifiers_strings_and_imports_but_not_prose() -> None:
    words = {"haven", "earth_reborn"}
    source = (
        '"""A module about haven."""\n'
        "from reborn_env.games.haven import bots  # haven's bot\n"
        "import reborn_env.games.earth_reborn.rules\n"
        "DEFAULT = 'haven_v0'\n"
        "def earth_reborn_hand(state):\n"
        '    """Earth_Reborn prose."""\n'
        "    return state.HavenGame\n"
    )
    assert [line for line, *_ in (f.split(":") for f in naming(source, words))] == [
        "line 2",
        "line 3",
        "line 4",
        "line 5",
        "line 7",
    ]
    assert naming('"""haven"""\nx = 1  # earth_reborn\n', words) == []
    assert game_words() >= {"earth_reborn_v0", "earth_reborn", "haven_v0", "haven"}
    assert scanned_modules() and not any(exempt(p) for p in scanned_modules())
