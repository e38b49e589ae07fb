"""A bot as a line-protocol server, so any front-end (a GUI, a web page) can use it over a pipe.

Run: ``python -m reborn_env.frontends.botd --bot SPEC [--env NAME] [--seed S] [--greedy]
[--scenario-dir DIR]``; ``--env`` is any registered game (default the first bundled one in name
order, ``reborn_env.core.registry.default_name()``). Like a UCI chess engine, it
reads one JSON request per line on stdin and writes exactly one JSON reply per line on stdout
(flushed); blank lines are skipped. Why: a front-end then needs neither Python nor torch, only a
pipe, and the bot answers for its seat of a game the server keeps (``new_game``, ``position``,
``move``) or for a raw observation and mask the front-end computed itself (``observation``).
The protocol, with an example session, is documented in docs/bot_protocol.md.

A bad request never stops the server: it gets ``{"ok": false, "error": ...}`` saying what was
wrong and what is allowed, and the game is left as it was. Requests are bounded (line length,
nesting, digits per number) before they are parsed, replies quote client input only cut short,
and a client names scenarios, it never sends a path: the server opens only its game's packaged
scenarios and those of its own ``--scenario-dir``. Each scenario is played by the bot made for
it when a ``new_game`` first names it (a game's own bots read one scenario's observation); a
policy whose sizes do not fit the scenario is an error reply. Only replies go to stdout;
anything else (logs, stray prints) goes to stderr. A command-line mistake is one ``error: ...``
line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import re
import sys
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any, BinaryIO, TextIO

import numpy as np

import reborn_env
from reborn_env.bots import Bot, RandomBot
from reborn_env.bots.base import decide, sees_public_view
from reborn_env.bots.loading import load_bot
from reborn_env.core import registry
from reborn_env.core.errors import IllegalActionError, PositionError
from reborn_env.core.game_env import GameEnv as raw_env
from reborn_env.core.public_view import env_view
from reborn_env.frontends.play import is_over, returns_of
from reborn_env.frontends.scenario_bots import misfit

PROTOCOL = 1

MAX_LINE_BYTES = 1 << 20
"""The longest request line (1 MiB, newline excluded); a longer one is skipped, unread, refused."""
MAX_DEPTH = 64
"""How deep arrays and objects may nest in a request (checked before the JSON parser recurses)."""
MAX_NUMBER_CHARS = 100
"""The most characters of one JSON number (Python would parse a million-digit integer slowly)."""
MAX_QUOTE_CHARS = 60
"""The most characters of client input an error message quotes (then ``...``)."""
MAX_ERROR_CHARS = 4096
"""The longest error message (room for every action name); replies never echo a request."""
MAX_SEED = 2**63 - 1
"""Seeds (the game's and the bot's) are 0..2**63-1, as in reborn_env.frontends.play: every
generator they reach takes them (the games' keep 64 bits; numpy and torch), where a larger one
would alias."""
_SKIP_CHUNK = 1 << 16  # how much of an over-long line is read (and dropped) at a time

log = logging.getLogger("reborn_env.frontends.botd")

Reply = dict[str, Any]


class RequestError(ValueError):
    """A request that cannot be served; its message becomes the error reply."""


class UsageError(Exception):
    """A command-line mistake: reported as one ``error: ...`` line with exit status 2."""


def quote(value: Any) -> str:
    """``repr(value)`` cut to MAX_QUOTE_CHARS, ``...`` marking the cut: replies never echo input."""
    text = repr(value)
    return text if len(text) <= MAX_QUOTE_CHARS else text[: MAX_QUOTE_CHARS - 3] + "..."


# --- Reading and parsing request lines ----------------------------------------------------------


def read_lines(stream: BinaryIO) -> Iterator[str | None]:
    """Each request line of ``stream``, decoded (bad UTF-8 replaced); ``None`` for a line longer
    than MAX_LINE_BYTES, of which no more than that is held in memory at once."""
    while line := stream.readline(MAX_LINE_BYTES + 1):
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
            _skip_rest_of_line(stream)
            yield None
        else:
            yield line.decode("utf-8", errors="replace")


def _skip_rest_of_line(stream: BinaryIO) -> None:
    """Read up to and including the next newline (or the end), keeping nothing."""
    while chunk := stream.readline(_SKIP_CHUNK):
        if chunk.endswith(b"\n"):
            return


_STRUCTURE = re.compile(r'\\.|["\[\]{}]', re.DOTALL)  # an escape pair, a quote or a bracket


def nests_too_deep(text: str) -> bool:
    """Whether arrays and objects in the JSON ``text`` nest deeper than MAX_DEPTH; brackets in
    strings do not count. One linear scan, so json.loads is never asked to recurse too deep."""
    depth = 0
    in_string = False
    for match in _STRUCTURE.finditer(text):
        token = match.group()
        if token == '"':
            in_string = not in_string
        elif in_string or len(token) == 2:
            continue
        elif token in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        else:
            depth -= 1
    return False


def _number(convert: Callable[[str], Any]) -> Callable[[str], Any]:
    """A json.loads number hook that refuses numbers of more than MAX_NUMBER_CHARS characters."""

    def parse(text: str) -> Any:
        if len(text) > MAX_NUMBER_CHARS:
            raise RequestError(
                f"a number of {len(text)} characters; a number may have at most {MAX_NUMBER_CHARS}"
            )
        return convert(text)

    return parse


def _refuse_constant(name: str) -> Any:
    raise RequestError(f"{name} is not a JSON number; send finite numbers")


def parse_request(line: str) -> Any:
    """The JSON value of one request line; RequestError for a line beyond the limits, ValueError
    (json.JSONDecodeError) for one that is not JSON."""
    if nests_too_deep(line):
        raise RequestError(f"arrays and objects may nest at most {MAX_DEPTH} deep in a request")
    return json.loads(
        line,
        parse_int=_number(int),
        parse_float=_number(float),
        parse_constant=_refuse_constant,
    )


# --- Checking request fields --------------------------------------------------------------------


def _fields(request: dict[str, Any], allowed: tuple[str, ...]) -> None:
    """Refuse fields a command does not take (a typo would otherwise be silently ignored)."""
    unknown = sorted(set(request) - {"cmd", *allowed})
    if unknown:
        takes = ", ".join(allowed) if allowed else "no fields"
        raise RequestError(f"unknown field(s) {quote(unknown)}; it takes {takes}")


def _int_field(request: dict[str, Any], name: str, low: int, high: int) -> int | None:
    """An optional integer field in ``low..high``."""
    value = request.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RequestError(f"{name!r} must be an integer in {low}..{high}, got {quote(value)}")
    return value


def _number_list(request: dict[str, Any], name: str, size: int) -> list[float]:
    values = request.get(name)
    if not isinstance(values, list) or len(values) != size:
        got = f"{len(values)} items" if isinstance(values, list) else repr(type(values).__name__)
        raise RequestError(f"{name!r} must be a list of {size} numbers, got {got}")
    for i, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
            raise RequestError(f"{name}[{i}] must be a finite number, got {quote(v)}")
    return values


def _observation(request: dict[str, Any], space: Any) -> np.ndarray:
    """The ``observation`` field as float32, each value finite and inside the observation space's
    Box bounds (0..1 for both games): a bot was trained on nothing else."""
    values = np.asarray(_number_list(request, "observation", space.shape[0]), dtype=np.float64)
    low, high = space.low.astype(np.float64), space.high.astype(np.float64)
    outside = np.flatnonzero((values < low) | (values > high))
    if outside.size:
        i = int(outside[0])
        raise RequestError(
            f"observation[{i}] is {quote(float(values[i]))}; the observation space allows "
            f"{low[i]:g}..{high[i]:g} (float32)"
        )
    return values.astype(np.float32)


def _action_mask(request: dict[str, Any], size: int) -> np.ndarray:
    """The ``action_mask`` field: ``size`` integers, each 0 or 1, at least one 1."""
    values = request.get("action_mask")
    rule = f"'action_mask' must be a list of {size} integers, only 0 and 1, at least one 1"
    if not isinstance(values, list) or len(values) != size:
        got = f"{len(values)} items" if isinstance(values, list) else type(values).__name__
        raise RequestError(f"{rule}; got {got}")
    for i, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, int) or v not in (0, 1):
            raise RequestError(f"{rule}; action_mask[{i}] is {quote(v)}")
    if 1 not in values:
        raise RequestError(f"{rule}; it has no 1 (no legal action)")
    return np.asarray(values, dtype=np.int8)


def _result(env: raw_env) -> dict[str, Any]:
    """How a finished game ended, in the game's own terms (the match's ``result()``, e.g. a
    winner or a team's outcome), and each agent's return."""
    return {**env.unwrapped.match.result(), "returns": returns_of(env)}


# --- Scenarios: by name, from the package or the server's own directory -------------------------


def packaged_scenarios(env_name: str) -> dict[str, str]:
    """Name -> ``scenario`` argument of each scenario bundled with the game (its registration's
    ``data/*.toml`` files)."""
    return {name: name for name in registry.get(env_name).scenario_names()}


def scenario_dir_choices(env_name: str, directory: str, taken: dict[str, str]) -> dict[str, str]:
    """Stem name -> path of each ``*.toml`` in the server's ``--scenario-dir``, each one loaded
    now, so a bad file stops the start rather than a later ``new_game``; UsageError otherwise."""
    where = f"--scenario-dir {directory!r}"
    root = Path(directory)
    if not root.is_dir():
        raise UsageError(f"{where} is not a directory; give a directory of *.toml scenario files")
    files = sorted(root.glob("*.toml"))
    if not files:
        raise UsageError(f"{where} holds no *.toml scenario file")
    for path in files:
        _check_scenario_file(env_name, path, taken, where)
    return {path.stem: str(path.resolve()) for path in files}


def _check_scenario_file(env_name: str, path: Path, taken: dict[str, str], where: str) -> None:
    """A ``--scenario-dir`` file must be a regular file holding a valid scenario named by its
    stem (the one name a client selects it by and its positions carry), not a packaged name."""
    if path.stem in taken:
        raise UsageError(
            f"{where}: {path.name} has the name of a packaged scenario ({', '.join(taken)}); "
            "rename the file"
        )
    if not path.is_file():
        raise UsageError(f"{where}: {path.name} is not a regular file")
    try:
        name = registry.get(env_name).make_env(scenario=str(path)).unwrapped.scenario.name
    except (ValueError, OSError) as err:  # ScenarioError names the file and the field
        raise UsageError(f"{where}: {err}") from None
    if name != path.stem:
        raise UsageError(
            f"{where}: {path.name} names its scenario {name!r}; the file stem and the 'name' "
            f"must agree, so rename the file {name}.toml or set name = {path.stem!r}"
        )


def scenario_choices(env_name: str, directory: str | None = None) -> dict[str, str]:
    """The scenarios a client may name: the packaged ones, then those of ``directory``."""
    packaged = packaged_scenarios(env_name)
    if directory is None:
        return packaged
    return {**packaged, **scenario_dir_choices(env_name, directory, packaged)}


class BotServer:
    """Serves one bot: a game it may keep, a raw observation it may be given, and the requests.

    ``bot`` plays the game's default scenario; ``make_bot(scenario)`` (a ``scenario`` argument
    of ``self.scenarios``) makes the bot for another one when a ``new_game`` first names it, as
    a game's own bots read one scenario's observation. Without ``make_bot``, ``bot`` plays every
    scenario (a bot that reads no scenario: random, or a policy, whose sizes are checked).
    """

    def __init__(
        self,
        bot: Bot,
        spec: str,
        env_name: str | None = None,
        scenarios: dict[str, str] | None = None,
        make_bot: Callable[[str], Bot] | None = None,
    ) -> None:
        self.bot = bot
        self.spec = spec
        self.env_name = env_name or registry.default_name()
        self.game = registry.get(self.env_name)
        self.scenarios = scenarios if scenarios is not None else packaged_scenarios(self.env_name)
        self.make_bot = make_bot
        self.bots: dict[str, Bot] = {self.game.default_scenario: bot}  # scenario name -> its bot
        self.env: raw_env | None = None
        self.scenario: str | None = None  # the name of the game's scenario
        self.template = self.game.make_env()  # sizes and names for raw observations
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

    def handle(self, line: str | None) -> Reply:
        """The reply to one request line (``None``: one over MAX_LINE_BYTES); every failure
        becomes an error reply."""
        if line is None:
            return self._error(
                f"request line longer than {MAX_LINE_BYTES} bytes, skipped; send at most that "
                "per line"
            )
        try:
            request = parse_request(line.strip())
        except RequestError as err:
            return self._error(f"request refused: {err}")
        except ValueError as err:  # json.JSONDecodeError: its message quotes no input
            return self._error(f"not JSON ({err}); send one JSON object per line")
        if not isinstance(request, dict):
            return self._error(
                f'a request must be a JSON object like {{"cmd": "hello"}}, got '
                f"{type(request).__name__}"
            )
        cmd = request.get("cmd")
        if not isinstance(cmd, str) or cmd not in self.handlers:
            return self._error(f"unknown cmd {quote(cmd)}; commands: {', '.join(self.handlers)}")
        try:
            return self.handlers[cmd](request)
        except (RequestError, IllegalActionError, PositionError) as err:
            return self._error(f"{cmd}: {err}")
        except Exception as err:  # a bot or engine failure must not end the session
            log.exception("internal error on %s", cmd)
            return self._error(f"{cmd}: internal error: {type(err).__name__}: {err}")

    @staticmethod
    def _error(message: str) -> Reply:
        """An error reply, cut to MAX_ERROR_CHARS (an engine message may quote what it was sent)."""
        if len(message) > MAX_ERROR_CHARS:
            message = message[: MAX_ERROR_CHARS - 3] + "..."
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
            "scenarios": list(self.scenarios),
        }

    def new_game(self, request: dict[str, Any]) -> Reply:
        _fields(request, ("env", "scenario", "seat", "seed"))
        env_name = request.get("env", self.env_name)
        if env_name != self.env_name:
            envs = registry.names()
            hint = f"--env {env_name}" if env_name in envs else f"--env NAME ({', '.join(envs)})"
            raise RequestError(
                f"this server's bot plays {self.env_name!r}, not {quote(env_name)} (start botd "
                f"with {hint} for that game)"
            )
        scenario = request.get("scenario", self.game.default_scenario)
        seed = _int_field(request, "seed", 0, MAX_SEED)
        env = self._make(scenario)
        seat = request.get("seat")
        if seat not in env.possible_agents:
            raise RequestError(
                f"'seat' (the bot's agent) must be one of {env.possible_agents}, got {quote(seat)}"
            )
        bot = self._bot_for(scenario, env, seat)
        env.reset(seed=seed)
        self.env, self.scenario, self.seat, self.pending, self.bot = env, scenario, seat, None, bot
        self.bot.reset()
        return self._game_reply(env)

    def position(self, request: dict[str, Any]) -> Reply:
        """Restore a position into a fresh env of the game's scenario, kept only if it loads: a
        position names its scenario, and one naming another (or a path) is refused."""
        _fields(request, ("position",))
        self._require_game()
        if "position" not in request:
            raise RequestError("the 'position' field (docs/position_format.md) is missing")
        env = self._make(self.scenario)
        env.reset(options={"position": request["position"]})  # PositionError names the field
        self.env, self.pending = env, None
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
        obs = _observation(request, env.observation_space(agent)["observation"])
        mask = _action_mask(request, env.action_space(agent).n)
        self.pending = (obs, mask)
        return {"ok": True, "legal": self._names(env, mask)}

    def best_action(self, request: dict[str, Any]) -> Reply:
        _fields(request, ())
        view = None  # a raw observation comes with no game, so with no public view
        if self.pending is not None:
            env = self.env or self.template
            obs, mask = self.pending
            self.pending = None
            if sees_public_view(self.bot):
                raise RequestError(
                    "this bot plans on the game's public view, which a raw observation does "
                    "not give; play it on a game the server keeps ('new_game' or 'position')"
                )
        else:
            env = self._require_live_game()
            if env.agent_selection != self.seat:
                raise RequestError(
                    f"it is {env.agent_selection}'s decision, not the bot's "
                    f"({self.seat}); send the move with 'move' first"
                )
            seen = env.observe(self.seat)
            obs, mask = seen["observation"], seen["action_mask"]
            view = partial(env_view, env, self.seat)  # built only for a bot that asks
        action = decide(self.bot, obs, mask, view)
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

    def _make(self, scenario: Any) -> raw_env:
        """A new env of the scenario a client named: one of ``self.scenarios``, never a path."""
        if not isinstance(scenario, str) or scenario not in self.scenarios:
            raise RequestError(
                f"'scenario' must name one of this server's scenarios: "
                f"{', '.join(self.scenarios)}; got {quote(scenario)} (no path is opened; the "
                "server's --scenario-dir DIR adds the scenarios of DIR)"
            )
        try:
            return self.game.make_env(scenario=self.scenarios[scenario])
        except (ValueError, OSError) as err:  # a --scenario-dir file changed since the start
            raise RequestError(f"scenario {scenario!r}: {err}") from None

    def _bot_for(self, scenario: str, env: raw_env, seat: str) -> Bot:
        """The bot for ``scenario`` (made the first time it is named, then kept); RequestError
        for one that does not load for it, or a policy whose sizes do not fit its env."""
        bot = self.bots.get(scenario)
        if bot is None:
            if self.make_bot is None:
                bot = self.bots[self.game.default_scenario]
            else:
                try:
                    bot = self.make_bot(self.scenarios[scenario])
                except (ValueError, OSError) as err:
                    raise RequestError(
                        f"the bot {quote(self.spec)} does not load for scenario {scenario!r}: {err}"
                    ) from None
            self.bots[scenario] = bot
        problem = misfit(bot, env, seat, scenario)
        if problem:
            raise RequestError(f"the bot {quote(self.spec)} does not fit: {problem}")
        return bot

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
            if len(value) > MAX_QUOTE_CHARS:  # no action name is that long; the error quotes it
                raise RequestError(f"unknown action {quote(value)}; the game replies list names")
            try:
                return env.action_from_name(value)
            except ValueError as err:
                raise RequestError(str(err)) from None
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n_actions:
            raise RequestError(
                f"'action' must be an action name or an integer in 0..{n_actions - 1}, "
                f"got {quote(value)}"
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


def serve(server: BotServer, requests: BinaryIO, replies: TextIO) -> None:
    """Answer every non-blank request line until ``quit`` or end of input."""
    for line in read_lines(requests):
        if line is not None and not line.strip():
            continue
        reply = server.handle(line)
        replies.write(json.dumps(reply) + "\n")
        replies.flush()
        if reply.get("bye"):
            return


# --- The command line ---------------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    """argparse whose mistakes raise UsageError (one ``error:`` line) instead of printing usage."""

    def error(self, message: str) -> Any:
        raise UsageError(f"{message} (see --help)")


def _seed(text: str) -> int:
    try:
        seed = int(text)
    except ValueError:
        seed = -1
    if not 0 <= seed <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"must be an integer in 0..{MAX_SEED}, got {text!r}")
    return seed


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--bot", required=True, help="random, heuristic, ismcts[:options] or a .pt/.ts/.onnx file"
    )
    parser.add_argument(
        "--env",
        choices=registry.names(),
        default=registry.default_name(),
        help="the game the bot plays (default %(default)s)",
    )
    parser.add_argument("--seed", type=_seed, default=None, help="the bot's seed (0..2**63-1)")
    parser.add_argument("--greedy", action="store_true", help="a policy plays its argmax")
    parser.add_argument(
        "--scenario-dir",
        metavar="DIR",
        help="a directory whose *.toml scenarios clients may also name (by file stem)",
    )
    return parser


def _load_server(args: argparse.Namespace) -> BotServer:
    """The server the command line asks for; UsageError for a bot or scenario that is no good."""
    scenarios = scenario_choices(args.env, args.scenario_dir)
    load = partial(load_bot, args.bot, env_name=args.env, seed=args.seed, greedy=args.greedy)
    try:
        bot = load()
    except (ValueError, OSError) as err:
        raise UsageError(f"cannot load bot {args.bot!r}: {err or type(err).__name__}") from None
    return BotServer(bot, args.bot, args.env, scenarios, make_bot=lambda s: load(scenario=s))


def main(argv: list[str] | None = None) -> int:
    """Serve stdin until ``quit`` or its end: 0; a command-line mistake: 2, one line on stderr."""
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="botd: %(message)s")
    try:
        args = _parser().parse_args(argv)  # --help is printed to stdout, before the redirect
        replies, sys.stdout = sys.stdout, sys.stderr  # nothing but replies may reach stdout
        try:
            server = _load_server(args)
            log.info("serving bot %r (protocol %d)", server.spec, PROTOCOL)
            serve(server, sys.stdin.buffer, replies)
        finally:
            sys.stdout = replies
    except UsageError as err:
        print("error: " + " ".join(str(err).split()), file=sys.stderr)  # one line, breaks folded
        return 2
    except BrokenPipeError:
        log.info("the front-end closed the pipe")
    return 0


if __name__ == "__main__":
    sys.exit(main())
