"""Positions checked at every decision: saving and restoring a game must change nothing.

Why: a position (``get_state()`` / ``set_state()``) is how training resumes, how front-ends and
the bot protocol set up a game and how tests build cases. It must restore everything an
observation, a mask, a reward or a later step depends on. :func:`play_round_trip_game` plays one
game and, before every decision, restores the position into a twin environment and requires the
twin to be the same game: the same position saved again (and through JSON), the same observation
and mask for every agent, and after the same action the same position, rewards and ends.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
from pettingzoo import AECEnv


class Player(Protocol):
    """What plays a seat here: the bot interface of :mod:`reborn_env.bots`."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int: ...

    def reset(self) -> None: ...


class RoundTripError(AssertionError):
    """A restored position differs from the game it was saved from."""


@dataclass
class RoundTripReport:
    """One checked game: its decisions and how it ended."""

    decisions: int
    returns: dict[str, float]
    truncated: bool


def check_restores(env: AECEnv, twin: AECEnv) -> dict[str, Any]:
    """Restore ``env``'s position into ``twin`` and require the same game; returns the position.

    The position must survive JSON unchanged, load into ``twin``, be saved again identically,
    and give every agent the same observation and mask and ``twin`` the same agent to move.
    """
    position = env.unwrapped.get_state()
    if json.loads(json.dumps(position)) != position:
        raise RoundTripError("the position does not survive a JSON round trip")
    twin.unwrapped.set_state(json.loads(json.dumps(position)))
    again = twin.unwrapped.get_state()
    if again != position:
        raise RoundTripError(
            f"saved again, the position differs: {_first_difference(position, again)}"
        )
    if twin.agent_selection != env.agent_selection:
        raise RoundTripError(
            f"restored, {twin.agent_selection} is to move instead of {env.agent_selection}"
        )
    for agent in env.agents:
        mine, theirs = env.observe(agent), twin.observe(agent)
        for key in mine:
            if not np.array_equal(mine[key], theirs[key]):
                where = np.flatnonzero(mine[key] != theirs[key])[:8].tolist()
                raise RoundTripError(f"restored, {agent}'s {key} differs at indices {where}")
    return position


def check_same_step(env: AECEnv, twin: AECEnv, action: int) -> None:
    """Step both with ``action``; the positions, rewards and ends must stay identical."""
    env.step(action)
    twin.step(action)
    if env.unwrapped.get_state() != twin.unwrapped.get_state():
        diff = _first_difference(env.unwrapped.get_state(), twin.unwrapped.get_state())
        raise RoundTripError(f"after the same action from a restored position: {diff}")
    for name in ("rewards", "terminations", "truncations"):
        if getattr(env, name) != getattr(twin, name):
            raise RoundTripError(
                f"after the same action, {name} differ: {getattr(env, name)} vs "
                f"{getattr(twin, name)}"
            )


def play_round_trip_game(
    make_env: Callable[[], AECEnv],
    bots: Mapping[str, Player],
    seed: int,
    check: Callable[[AECEnv], None] | None = None,
) -> RoundTripReport:
    """Play one seeded game with ``bots`` (agent -> bot), round-tripping before every decision.

    ``check(env)`` (e.g. the ruleset's invariants) runs at every decision as well.
    """
    env, twin = make_env(), make_env()
    env.reset(seed=seed)
    for bot in bots.values():
        bot.reset()
    returns = dict.fromkeys(env.possible_agents, 0.0)
    decisions, truncated = 0, False
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        returns[agent] += reward
        if term or trunc:
            truncated |= trunc
            env.step(None)
            continue
        check_restores(env, twin)
        if check is not None:
            check(env)
        action = int(bots[agent].act(obs["observation"], obs["action_mask"]))
        check_same_step(env, twin, action)
        decisions += 1
    return RoundTripReport(decisions, returns, truncated)


def _first_difference(a: Any, b: Any, path: str = "") -> str:
    """Where two JSON values first differ, as ``path: a != b`` (values shortened)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                return f"{path}.{key}: present in only one"
            if a[key] != b[key]:
                return _first_difference(a[key], b[key], f"{path}.{key}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
    return f"{path or '.'}: {str(a)[:80]} != {str(b)[:80]}"
