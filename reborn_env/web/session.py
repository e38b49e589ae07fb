"""One browser tab's game: play against bots, watch two bots, or replay an uploaded game log.

Why apart from the server: the rules of a session (whose turn, which bots a client may pick,
what a seat may see) are plain Python, tested without a socket. :meth:`Session.handle` takes one
decoded client message and returns the replies; a bad message raises :class:`ClientError`, whose
text says what was wrong and what is allowed, and leaves the session as it was.

Messages (docs/web.md): ``new`` (mode ``play`` or ``watch``, ``env``, ``scenario``, ``seat``,
``bot``, ``bot2``, ``seed``), ``move`` (``action``), ``step`` (one bot move while watching, one
log move while replaying), ``goto`` (``index``: a replay's position), ``replay`` (``log``: a
game log's content, never a path), ``log`` (the game so far, for download). A client names bots
only from the list the server offers (:func:`bot_choices`) and scenarios only from the game's
bundled ones (``GameSpec.scenario_names``; a log's too), so it can never make the server read a
file.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from reborn_env.bots import Bot, decide
from reborn_env.bots.loading import load_bot
from reborn_env.core import registry
from reborn_env.core.public_view import env_view, offers_views
from reborn_env.frontends.botd import quote
from reborn_env.frontends.game_log import GameLogError, check_log, new_log, record_move
from reborn_env.frontends.scenario_bots import misfit

MODES = ("play", "watch")
MAX_SEED = 2**31 - 1
TOP_MOVES = 3  # the bot's most likely moves shown, for bots that give probabilities
SEARCH_BOT = "ismcts:ms=300"  # offered for games with public views: a short search a move


class ClientError(ValueError):
    """A client message that cannot be done; its text goes back to the client."""


def bot_choices(env_name: str, server_bot: str | None, server_env: str | None) -> list[str]:
    """The bot names a client may pick for ``env_name``: random, the game's own bots, a short
    search where the game offers views, its shipped policy where the file is there (a path the
    server names, never the client), and the server's ``--bot`` for the game it was given."""
    spec = registry.get(env_name)
    names = ["random", *spec.bots]
    if offers_views(env_name):
        names.append(SEARCH_BOT)
    if spec.policy and Path(spec.policy).is_file():  # the shipped policy, run from a checkout
        names.append(spec.policy)
    if server_bot and env_name == server_env and server_bot not in names:
        names.insert(0, server_bot)
    return names


def drawable_games() -> list[str]:
    """The registered games the page can draw: those with a board view (GameSpec.board_view)."""
    return [name for name in registry.names() if registry.get(name).board_view]


def scenario_env(env_name: str, scenario: Any, where: str) -> Any:
    """A new env of ``env_name``'s bundled scenario ``scenario`` (a name the client gave, in
    ``where``); ClientError listing the bundled names for anything else (a path included)."""
    spec = registry.get(env_name)
    names = spec.scenario_names()
    if not isinstance(scenario, str) or scenario not in names:
        raise ClientError(
            f"{where} {quote(scenario)}: choose one of {env_name}'s scenarios: {', '.join(names)}"
        )
    return spec.make_env(scenario=scenario)


def _is_over(env: Any) -> bool:
    return any(env.terminations.values()) or any(env.truncations.values())


def _field(message: Mapping[str, Any], key: str, kind: type, default: Any = None) -> Any:
    """``message[key]`` checked to be a ``kind`` (bool is no int), or ``default`` if absent or
    null."""
    value = message.get(key)
    if value is None:
        return default
    if isinstance(value, kind) and not isinstance(value, bool):
        return value
    raise ClientError(f"{key!r} must be a {kind.__name__}, got {type(value).__name__}")


class Session:
    """A game in one tab: its env, its bots, its log, and where a replay stands."""

    def __init__(self, server_bot: str | None = None, server_env: str | None = None) -> None:
        self.server_bot, self.server_env = server_bot, server_env
        self.env: Any = None
        self.mode = ""
        self.env_name = ""
        self.scenario = ""
        self.seat = ""
        self.bots: dict[str, Bot] = {}
        self.log: dict[str, Any] = {}
        self.top: list[dict[str, Any]] = []
        self.replay_index = 0

    # --- messages ---------------------------------------------------------------------------

    def handle(self, message: Any) -> list[dict[str, Any]]:
        """The replies to one decoded client message; ClientError for a bad one."""
        if not isinstance(message, Mapping):
            raise ClientError("a message must be a JSON object with a 'kind'")
        kind = message.get("kind")
        handlers = {
            "hello": self._hello,
            "new": self._new,
            "move": self._move,
            "step": self._step,
            "goto": self._goto,
            "replay": self._replay,
            "log": self._log,
        }
        if kind not in handlers:
            raise ClientError(f"unknown message kind {kind!r}; the kinds are {', '.join(handlers)}")
        return handlers[kind](message)

    def _hello(self, message: Mapping[str, Any]) -> list[dict[str, Any]]:
        games = []
        for name in drawable_games():
            spec = registry.get(name)
            agents = list(spec.make_env().possible_agents)
            games.append(
                {
                    "env": name,
                    "title": spec.title,
                    "agents": agents,
                    "seat": spec.seat or agents[0],
                    "cooperative": spec.facts.cooperative,
                    "scenarios": spec.scenario_names(),
                    "scenario": spec.default_scenario,
                    "bots": bot_choices(name, self.server_bot, self.server_env),
                }
            )
        default = self.server_env or drawable_games()[0]
        return [{"kind": "hello", "games": games, "default": default}]

    def _new(self, message: Mapping[str, Any]) -> list[dict[str, Any]]:
        mode = _field(message, "mode", str, "play")
        if mode not in MODES:
            raise ClientError(f"mode {mode!r}: choose one of {', '.join(MODES)}")
        env_name = _field(message, "env", str, self.server_env or drawable_games()[0])
        if env_name not in drawable_games():
            games = ", ".join(drawable_games())
            raise ClientError(f"no game {env_name!r} to draw; the games are {games}")
        spec = registry.get(env_name)
        scenario = _field(message, "scenario", str, spec.default_scenario)
        env = scenario_env(env_name, scenario, "scenario")
        seat = _field(message, "seat", str, spec.seat or env.possible_agents[0])
        if seat not in env.possible_agents:
            raise ClientError(f"seat {seat!r}: choose one of {', '.join(env.possible_agents)}")
        seed = _field(message, "seed", int)
        if seed is None:
            seed = secrets.randbits(31)
        if not 0 <= seed <= MAX_SEED:
            raise ClientError(f"seed must be in 0..{MAX_SEED}, got {seed}")
        choices = bot_choices(env_name, self.server_bot, self.server_env)
        names = [_field(message, "bot", str, choices[0]), _field(message, "bot2", str, None)]
        for name in names:
            if name is not None and name not in choices:
                raise ClientError(f"bot {name!r}: choose one of {', '.join(choices)}")
        bots: dict[str, Bot] = {}
        others = [a for a in env.possible_agents if mode == "watch" or a != seat]
        for i, agent in enumerate(others):
            name = names[1] if i % 2 and names[1] else names[0]
            try:
                bots[agent] = load_bot(name, env_name=env_name, seed=seed + i, scenario=scenario)
            except (ValueError, OSError) as err:
                raise ClientError(f"bot {name!r} does not load: {err}") from None
            problem = misfit(bots[agent], env, agent, scenario)
            if problem:
                raise ClientError(f"bot {name!r} cannot play {scenario!r}: {problem}")
        env.reset(seed=seed)
        for bot in bots.values():
            bot.reset()
        self.env, self.mode, self.env_name, self.seat, self.bots = env, mode, env_name, seat, bots
        self.scenario = scenario
        self.log, self.top = new_log(env, env_name), []
        if mode == "play":
            self._bots_to_seat()
        return [self.state()]

    def _move(self, message: Mapping[str, Any]) -> list[dict[str, Any]]:
        if self.mode != "play" or _is_over(self.env):
            raise ClientError("no game of yours is waiting for a move; send 'new' to start one")
        action = _field(message, "action", int)
        agent = self.env.agent_selection
        if agent != self.seat:
            raise ClientError(f"it is {agent}'s turn, not yours ({self.seat})")
        mask = self.env.observe(agent)["action_mask"]
        if action is None or not 0 <= action < len(mask) or not mask[action]:
            raise ClientError(f"action {action!r} is not legal now; 'legal' lists the legal ones")
        record_move(self.log, self.env, agent, action)
        self.env.step(action)
        self._bots_to_seat()
        return [self.state()]

    def _step(self, message: Mapping[str, Any]) -> list[dict[str, Any]]:
        if self.mode == "replay":
            return self._goto({"index": self.replay_index + 1})
        if self.mode != "watch":
            raise ClientError("'step' moves a watched game or a replay; start one first")
        if not _is_over(self.env):
            self._bot_move()
        return [self.state()]

    def _goto(self, message: Mapping[str, Any]) -> list[dict[str, Any]]:
        if self.mode != "replay":
            raise ClientError("'goto' moves through a replay; send 'replay' with a log first")
        index = _field(message, "index", int)
        if index is None:
            raise ClientError("'goto' needs an integer 'index'")
        index = min(max(index, 0), len(self.log["moves"]))
        env = self.env
        env.reset(options={"position": self.log["start"]})
        for move in self.log["moves"][:index]:
            env.step(move["action"])
        self.replay_index = index
        return [self.state()]

    def _replay(self, message: Mapping[str, Any]) -> list[dict[str, Any]]:
        env, log = _checked_replay(message.get("log"))
        self.env, self.mode, self.env_name = env, "replay", log["env"]
        self.scenario = log["start"]["scenario"]
        self.seat = self.seat if self.seat in env.possible_agents else env.possible_agents[0]
        seat = _field(message, "seat", str, self.seat)
        if seat not in env.possible_agents:
            raise ClientError(f"seat {seat!r}: choose one of {', '.join(env.possible_agents)}")
        self.seat, self.log, self.bots, self.top = seat, log, {}, []
        return self._goto({"index": 0})

    def _log(self, message: Mapping[str, Any]) -> list[dict[str, Any]]:
        if not self.log:
            raise ClientError("no game yet: send 'new' or 'replay' first")
        return [{"kind": "log", "log": self.log}]

    # --- playing ----------------------------------------------------------------------------

    def _bot_move(self) -> None:
        env = self.env
        agent = env.agent_selection
        seen = env.observe(agent)
        bot = self.bots[agent]
        action = decide(
            bot, seen["observation"], seen["action_mask"], partial(env_view, env, agent)
        )
        self.top = _top_moves(bot, env, seen)
        record_move(self.log, env, agent, action)
        env.step(action)
        if _is_over(env):
            self.log["result"] = _returns(env)

    def _bots_to_seat(self) -> None:
        """Let the bots move until it is the person's turn or the game is over."""
        while not _is_over(self.env) and self.env.agent_selection != self.seat:
            self._bot_move()
        if _is_over(self.env):
            self.log["result"] = _returns(self.env)

    def state(self) -> dict[str, Any]:
        """What the page shows now: the seat's board view, the legal moves when the seat is to
        decide (play mode), the history, the bot's top moves and the result."""
        env = self.env
        over = _is_over(env)
        seat_index = env.possible_agents.index(self.seat)
        mover = None if over else env.agent_selection
        legal: list[int] = []
        if self.mode == "play" and mover == self.seat:
            legal = [int(a) for a in np.flatnonzero(env.observe(self.seat)["action_mask"])]
        view_of = registry.get(self.env_name).board()
        moves = (
            self.log["moves"][: self.replay_index] if self.mode == "replay" else self.log["moves"]
        )
        return {
            "kind": "state",
            "mode": self.mode,
            "env": self.env_name,
            "scenario": self.scenario,
            "seat": self.seat,
            "to_move": mover,
            "view": view_of(env.unwrapped.match, seat_index, legal),
            "legal": [{"action": a, "name": env.unwrapped.action_name(a)} for a in legal],
            "history": [{"agent": m["agent"], "name": m["name"]} for m in moves],
            "top": self.top,
            "over": over,
            "result": env.unwrapped.match.summary() if over else "",
            "replay": {"index": self.replay_index, "total": len(self.log["moves"])}
            if self.mode == "replay"
            else None,
        }


def _returns(env: Any) -> dict[str, float]:
    final = env.unwrapped.match.final_rewards()
    return {agent: float(final[i]) for i, agent in enumerate(env.possible_agents)}


def _top_moves(bot: Bot, env: Any, seen: Mapping[str, np.ndarray]) -> list[dict[str, Any]]:
    """The bot's most likely moves with their probabilities, for bots that give them (an
    optional ``probabilities(observation, mask)`` method, as policy bots have); else none."""
    probabilities = getattr(bot, "probabilities", None)
    if not callable(probabilities):
        return []
    p = np.asarray(probabilities(seen["observation"], seen["action_mask"]), dtype=float)
    best = [int(a) for a in np.argsort(-p, kind="stable")[:TOP_MOVES] if p[a] > 0]
    return [{"name": env.unwrapped.action_name(a), "p": float(p[a])} for a in best]


def _checked_replay(log: Any) -> tuple[Any, dict[str, Any]]:
    """An env of ``log``'s game and the log rebuilt from what replays (the names the game gives,
    not the client's), once every move replays legally; ClientError otherwise. The log is
    content the client uploaded: every field is checked before it is used."""
    try:
        check_log(log, "the uploaded log")
    except GameLogError as err:
        raise ClientError(str(err)) from None
    name, start, moves = log["env"], log["start"], log["moves"]
    if name not in drawable_games():
        raise ClientError(f"log 'env' {name!r}: the games are {', '.join(drawable_games())}")
    if not isinstance(start, Mapping) or not isinstance(moves, list):
        raise ClientError("log 'start' must be a position (an object) and 'moves' a list")
    env = scenario_env(name, start.get("scenario"), "log 'start' scenario")
    try:
        env.reset(options={"position": dict(start)})
    except (ValueError, KeyError, TypeError) as err:
        raise ClientError(f"log 'start' is not a position of {name}: {err}") from None
    clean = new_log(env, name)
    for i, move in enumerate(moves):
        if not isinstance(move, Mapping) or set(move) != {"agent", "action", "name"}:
            raise ClientError(f"log move {i} must be an object with agent, action and name")
        action = move["action"]
        if _is_over(env) or move["agent"] != env.agent_selection:
            raise ClientError(f"log move {i} is not for the agent to move: the log does not replay")
        mask = env.observe(env.agent_selection)["action_mask"]
        if type(action) is not int or not 0 <= action < len(mask) or not mask[action]:
            raise ClientError(f"log move {i}: action {action!r} is not legal there")
        record_move(clean, env, env.agent_selection, action)
        env.step(action)
    if _is_over(env):
        clean["result"] = _returns(env)
    return env, clean
