"""A bot as a line-protocol server, so any front-end (a GUI, a web page) can use it over a pipe.

Run: ``python -m reborn_env.botd --bot SPEC [--env earth_reborn_v0|haven_v0] [--seed S]
[--greedy]``. Like a UCI chess engine, it
reads one JSON request per line on stdin and writes exactly one JSON reply per line on stdout
(flushed); blank lines are skipped. Why: a front-end then needs neither Python nor torch, only a
pipe, and the bot answers for its seat of a game the server keeps (``new_game``, ``position``,
``move``) or for a raw observation and mask the front-end computed itself (``observation``).
The protocol, with an example session, is documented in docs/bot_protocol.md.

A bad request never stops the server: it gets ``{"ok": false, "error": ...}`` saying what was
wrong and what is allowed, and the game is left as it was. Only replies go to stdout; anything
else (logs, stray prints) goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import sys
from collections.abc import Callable
from typing import Any, TextIO

import numpy as np

import reborn_env
from reborn_env.bots import Bot, RandomBot
from reborn_env.bots.loading import load_bot
from reborn_env.common.errors import IllegalActionError, PositionError
from reborn_env.common.game_env import GameEnv as raw_env
from reborn_env.play import GAMES, is_over, result_of

PROTOCOL = 1
ENVS = tuple(GAMES)  # a server serves one of them, chosen with --env (its bot plays that game)
DEFAULT_ENV = "earth_reborn_v0"

log = logging.getLogger("reborn_env.botd")

Reply = dict[str, Any]


class RequestError(ValueError):
    """A request that cannot be served; its message becomes the error reply."""


def _fields(request: dict[str, Any], allowed: tuple[str, ...]) -> None:
    """Refuse fields a command does not take (a typo would otherwise be silently ignored)."""
    unknown = sorted(set(request) - {"cmd", *allowed})
    if unknown:
        takes = ", ".join(allowed) if allowed else "no fields"
        raise RequestError(f"unknown field(s) {unknown}; it takes {takes}")


def _int_field(request: dict[str, Any], name: str) -> int | None:
    value = request.get(name)
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise RequestError(f"{name!r} must be an integer, got {value!r}")
    return value


def _number_list(request: dict[str, Any], name: str, size: int) -> list[float]:
    values = request.get(name)
    if not isinstance(values, list) or len(values) != size:
        got = f"{len(values)} items" if isinstance(values, list) else repr(type(values).__name__)
        raise RequestError(f"{name!r} must be a list of {size} numbers, got {got}")
    for i, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
            raise RequestError(f"{name}[{i}] must be a finite number, got {v!r}")
    return values


def _result(env: raw_env) -> dict[str, Any]:
    """How a finished game ended and each agent's return: Earth Reborn's winner (a faction, or
    ``"draw"``, also at the step limit); haven's team outcome (``win``/``loss``/``truncated``)."""
    returns = result_of(env)
    if env.metadata["name"] == "haven_v0":
        return {"outcome": env.game.outcome, "returns": returns}
    winners = [agent for agent, value in returns.items() if value > 0]
    return {"winner": winners[0] if winners else "draw", "returns": returns}


class BotServer:
    """Serves one bot: a game it may keep, a raw observation it may be given, and the requests."""

    def __init__(self, bot: Bot, spec: str, env_name: str = DEFAULT_ENV) -> None:
        self.bot = bot
        self.spec = spec
        self.env_name = env_name
        self.env: raw_env | None = None
        self.template = GAMES[env_name].make()  # sizes and names for raw observations
        self.seat: str | None = None
        self.pending: tuple[np.ndarray, np.ndarray] | None = None
        self.handlers: dict[str, Callable[[dict[str, Any]], Reply]] = {
            "hello": self.hello,
            "new_game": self.new_game,
            "position": self.position,
            "move": self.move,
            "observation": self.observation,
            "best_action": self.best_action,
            "quit": self.quit,
        }

    # --- Lines in, replies out ------------------------------------------------------------------

    def handle(self, line: str) -> Reply:
        """The reply to one request line; every failure becomes an error reply."""
        try:
            request = json.loads(line.strip())
        except json.JSONDecodeError as err:
            return self._error(f"not JSON ({err}); send one JSON object per line")
        if not isinstance(request, dict):
            return self._error(
                f'a request must be a JSON object like {{"cmd": "hello"}}, got '
                f"{type(request).__name__}"
            )
        cmd = request.get("cmd")
        if not isinstance(cmd, str) or cmd not in self.handlers:
            return self._error(f"unknown cmd {cmd!r}; commands: {', '.join(self.handlers)}")
        try:
            return self.handlers[cmd](request)
        except (RequestError, IllegalActionError, PositionError) as err:
            return self._error(f"{cmd}: {err}")
        except Exception as err:  # a bot or engine failure must not end the session
            log.exception("internal error on %s", cmd)
            return self._error(f"{cmd}: internal error: {type(err).__name__}: {err}")

    @staticmethod
    def _error(message: str) -> Reply:
        return {"ok": False, "error": message}

    # --- Commands -------------------------------------------------------------------------------

    def hello(self, request: dict[str, Any]) -> Reply:
        _fields(request, ())
        return {
            "ok": True,
            "name": "reborn_env botd",
            "protocol": PROTOCOL,
            "version": reborn_env.__version__,
            "bot": self.spec,
            "envs": [self.env_name],
        }

    def new_game(self, request: dict[str, Any]) -> Reply:
        _fields(request, ("env", "scenario", "seat", "seed"))
        env_name = request.get("env", self.env_name)
        if env_name != self.env_name:
            raise RequestError(
                f"this server's bot plays {self.env_name!r}, not {env_name!r} (start botd with "
                f"--env {env_name} for that game)"
            )
        game = GAMES[env_name]
        scenario = request.get("scenario", game.scenario)
        if not isinstance(scenario, str):
            raise RequestError(f"'scenario' must be a string, got {scenario!r}")
        seed = _int_field(request, "seed")
        try:
            env = game.make(scenario=scenario)
        except (ValueError, OSError) as err:
            raise RequestError(f"scenario {scenario!r}: {err}") from None
        seat = request.get("seat")
        if seat not in env.possible_agents:
            raise RequestError(
                f"'seat' (the bot's agent) must be one of {env.possible_agents}, got {seat!r}"
            )
        env.reset(seed=seed)
        self.env, self.seat, self.pending = env, seat, None
        self.bot.reset()
        return self._game_reply(env)

    def position(self, request: dict[str, Any]) -> Reply:
        _fields(request, ("position",))
        env = self._require_game()
        if "position" not in request:
            raise RequestError("the 'position' field (docs/position_format.md) is missing")
        env.reset(options={"position": request["position"]})  # PositionError: nothing changed
        self.pending = None
        self.bot.reset()
        return self._game_reply(env)

    def move(self, request: dict[str, Any]) -> Reply:
        _fields(request, ("action",))
        env = self._require_live_game()
        action = self._action(env, request.get("action"))
        agent = env.agent_selection
        env.step(action)  # IllegalActionError names the legal choices; the state is unchanged
        played = {"ok": True, "played": env.action_name(action), "by": agent}
        return {**played, **self._game_reply(env)}

    def observation(self, request: dict[str, Any]) -> Reply:
        _fields(request, ("observation", "action_mask"))
        env = self.env or self.template
        agent = env.possible_agents[0]
        size = env.observation_space(agent)["observation"].shape[0]
        n_actions = env.action_space(agent).n
        obs = np.asarray(_number_list(request, "observation", size), dtype=np.float32)
        mask = np.asarray(_number_list(request, "action_mask", n_actions))
        if not np.isin(mask, (0, 1)).all() or not mask.any():
            raise RequestError("'action_mask' must hold only 0 and 1, at least one 1")
        self.pending = (obs, mask.astype(np.int8))
        return {"ok": True, "legal": self._names(env, self.pending[1])}

    def best_action(self, request: dict[str, Any]) -> Reply:
        _fields(request, ())
        if self.pending is not None:
            env = self.env or self.template
            obs, mask = self.pending
            self.pending = None
        else:
            env = self._require_live_game()
            if env.agent_selection != self.seat:
                raise RequestError(
                    f"it is {env.agent_selection}'s decision, not the bot's "
                    f"({self.seat}); send the move with 'move' first"
                )
            seen = env.observe(self.seat)
            obs, mask = seen["observation"], seen["action_mask"]
        action = int(self.bot.act(obs, mask))
        if not mask[action]:
            raise RuntimeError(f"the bot chose illegal action {action}")
        return {
            "ok": True,
            "action": action,
            "name": env.action_name(action),
            "probabilities": self._probabilities(env, obs, mask, action),
        }

    def quit(self, request: dict[str, Any]) -> Reply:
        _fields(request, ())
        return {"ok": True, "bye": True}

    # --- Helpers --------------------------------------------------------------------------------

    def _require_game(self) -> raw_env:
        if self.env is None:
            raise RequestError("no game; send new_game first (it sets the bot's seat)")
        return self.env

    def _require_live_game(self) -> raw_env:
        env = self._require_game()
        if is_over(env):
            raise RequestError("the game is over; send new_game or position")
        return env

    @staticmethod
    def _action(env: raw_env, value: Any) -> int:
        """An action integer from an integer or a name; legality is the env's to check."""
        n_actions = env.action_space(env.possible_agents[0]).n
        if isinstance(value, str):
            try:
                return env.action_from_name(value)
            except ValueError as err:
                raise RequestError(str(err)) from None
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n_actions:
            raise RequestError(
                f"'action' must be an action name or an integer in 0..{n_actions - 1}, "
                f"got {value!r}"
            )
        return value

    @staticmethod
    def _names(env: raw_env, mask: np.ndarray) -> list[str]:
        return [env.action_name(a) for a in np.flatnonzero(mask)]

    def _game_reply(self, env: raw_env) -> Reply:
        """The bot's seat, who is to play and their legal action names, or the result."""
        reply: Reply = {"ok": True, "seat": self.seat}
        if is_over(env):
            return {
                **reply,
                "over": True,
                "to_play": None,
                "bot_turn": False,
                "legal": [],
                **_result(env),
            }
        agent = env.agent_selection
        legal = self._names(env, env.observe(agent)["action_mask"])
        return {
            **reply,
            "over": False,
            "to_play": agent,
            "bot_turn": agent == self.seat,
            "legal": legal,
        }

    def _probabilities(
        self, env: raw_env, obs: np.ndarray, mask: np.ndarray, action: int
    ) -> dict[str, float]:
        """The bot's own ``probabilities`` if it has one; uniform for RandomBot; else 1.0 on the
        chosen action (a deterministic or opaque bot gives no distribution)."""
        legal = [int(a) for a in np.flatnonzero(mask)]
        probabilities = getattr(self.bot, "probabilities", None)
        if callable(probabilities):
            p = np.asarray(probabilities(obs, mask), dtype=np.float64).reshape(-1)
            values = {a: float(p[a]) for a in legal}
        elif isinstance(self.bot, RandomBot):
            values = dict.fromkeys(legal, 1.0 / len(legal))
        else:
            values = {a: float(a == action) for a in legal}
        return {env.action_name(a): v for a, v in values.items()}


def serve(server: BotServer, requests: TextIO, replies: TextIO) -> None:
    """Answer every non-blank request line until ``quit`` or end of input."""
    for line in requests:
        if not line.strip():
            continue
        reply = server.handle(line)
        replies.write(json.dumps(reply) + "\n")
        replies.flush()
        if reply.get("bye"):
            return


def run(
    spec: str, seed: int | None, greedy: bool, replies: TextIO, env_name: str = DEFAULT_ENV
) -> int:
    """Load the bot and serve stdin until ``quit`` or its end; 2 if the bot cannot be loaded."""
    try:
        bot = load_bot(spec, env_name=env_name, seed=seed, greedy=greedy)
    except (ValueError, OSError) as err:
        log.error("cannot load bot %r: %s", spec, err)
        return 2
    log.info("serving bot %r (protocol %d)", spec, PROTOCOL)
    sys.stdin.reconfigure(errors="replace")
    try:
        serve(BotServer(bot, spec, env_name), sys.stdin, replies)
    except BrokenPipeError:
        log.info("the front-end closed the pipe")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", required=True, help="random, heuristic or a .pt/.ts/.onnx file")
    parser.add_argument("--env", choices=ENVS, default=DEFAULT_ENV, help="the game the bot plays")
    parser.add_argument("--seed", type=int, default=None, help="the bot's seed")
    parser.add_argument("--greedy", action="store_true", help="a policy plays its argmax")
    args = parser.parse_args(argv)
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="botd: %(message)s")
    replies, sys.stdout = sys.stdout, sys.stderr  # nothing but replies may reach stdout
    try:
        return run(args.bot, args.seed, args.greedy, replies, args.env)
    finally:
        sys.stdout = replies


if __name__ == "__main__":
    sys.exit(main())
