"""Game logs: a start position and the actions taken, enough to replay a game exactly.

A log is JSON: ``{"format": "reborn_env.game_log", "version": 1, "env": <registered game's name>,
"start": <position>, "moves": [{"agent", "action", "name"}, ...], "result": {agent: return}}``.
Replaying steps a fresh environment from the start position through the moves; positions carry
the generator, so dice and draws come out the same. Files are written atomically.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pettingzoo import AECEnv

from ..core import registry
from ..core.files import atomic_write

FORMAT = "reborn_env.game_log"  # in every saved log: it never changes with the module's place
VERSION = 1


class GameLogError(ValueError):
    """A game log that is malformed or does not replay."""


def new_log(env: AECEnv, env_name: str) -> dict[str, Any]:
    """A log that starts at ``env``'s current position (call right after ``reset``)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "env": env_name,
        "start": env.unwrapped.get_state(),
        "moves": [],
        "result": None,
    }


def record_move(log: dict[str, Any], env: AECEnv, agent: str, action: int) -> None:
    """Append one move (before ``env.step(action)`` is called)."""
    log["moves"].append(
        {"agent": agent, "action": int(action), "name": env.unwrapped.action_name(action)}
    )


def save_log(log: dict[str, Any], path: str | os.PathLike[str]) -> None:
    """Write ``log`` as JSON atomically (temp file in the same folder, then rename)."""
    with atomic_write(path) as handle:
        handle.write(json.dumps(log).encode())


def load_log(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read and check a log file; GameLogError says what is wrong."""
    try:
        log = json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError) as err:
        raise GameLogError(f"{path}: not a readable JSON game log ({err})") from None
    return check_log(log, str(path))


def check_log(log: Any, where: str = "game log") -> dict[str, Any]:
    """``log`` if it has a game log's header (format, version) and fields; GameLogError says what
    is wrong, naming ``where`` the log came from. Its moves are checked by replaying them."""
    if not isinstance(log, dict) or log.get("format") != FORMAT or log.get("version") != VERSION:
        raise GameLogError(f"{where}: not a game log ('format' must be {FORMAT!r}, version 1)")
    for key in ("env", "start", "moves"):
        if key not in log:
            raise GameLogError(f"{where}: game log field {key!r} is missing")
    return log


def log_env(log: dict[str, Any], render_mode: str | None = None) -> AECEnv:
    """A new environment of the game and scenario ``log`` was played in (a registered game);
    GameLogError if its game is not one."""
    name = log["env"]
    if not isinstance(name, str):
        raise GameLogError(f"game log field 'env' must be a game's name, got {name!r}")
    try:
        game = registry.get(name)
    except ValueError as err:
        raise GameLogError(f"a log of {name!r}: {err}") from None
    return game.make_env(render_mode=render_mode, scenario=log["start"]["scenario"])


def replay(log: dict[str, Any], env: AECEnv) -> Iterator[tuple[int, dict[str, Any] | None]]:
    """Step ``env`` through the log: yields (number of moves applied, next move or None) before
    each move and once at the end, so a caller can render every position."""
    env.reset(options={"position": log["start"]})
    for i, move in enumerate(log["moves"]):
        yield i, move
        if env.agent_selection != move["agent"]:
            raise GameLogError(
                f"move {i} ({move['name']}) is for {move['agent']}, but {env.agent_selection} "
                "is to decide: the log does not match its start position"
            )
        env.step(move["action"])
    yield len(log["moves"]), None
