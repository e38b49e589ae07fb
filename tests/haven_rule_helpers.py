"""Helpers for the per-rule haven tests (tests/haven/test_rules.py).

Games are built from HV-API-10 fixtures with :func:`new`; prompts are answered with :func:`play`,
whose every step names the prompt kind (and optionally the agent) it expects, so a prompt that
appears out of order fails at once. Readers speak the spec's language: figures by label
(``"bulwark"``, ``"marauder#3"``, ``"ember_wisp#1"``), cards by id (``"B03"``), cells as
``(col, row)`` or cell ids. Action numbers follow 16.3: ``HEX(c,r) = 9r+c``, ``CARD(k) = 63+k``,
``BOX(s,h,m) = 73+4s+2h+m``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from typing import Any

from reborn_env.games.haven import actions
from reborn_env.games.haven.rules.engine import HavenConfig, HavenGame, new_game
from tests.haven_helpers import (
    AGENTS,
    BOTTOM,
    BOX,
    BOX_ACTIONS,
    CARD,
    DEFAULT,
    HEX,
    ITEM0,
    ITEM1,
    LEAD,
    LONG_REST,
    LOSE_TWO,
    NO,
    OTHER,
    PRINTED,
    TOP,
    YES,
    cell,
    char,
    element,
    hp,
    log,
    matches,
    monster,
    summon,
)
from tests.haven_helpers import conditions as conds
from tests.haven_helpers import events_of as events
from tests.haven_helpers import figure as fig
from tests.haven_helpers import index_of as first
from tests.haven_helpers import pos as at

# Shared with tests/haven/test_tc.py through tests/haven_helpers.py, re-exported here.
__all__ = [
    "AGENTS",
    "BOTTOM",
    "BOX",
    "BOX_ACTIONS",
    "CARD",
    "DEFAULT",
    "HEX",
    "ITEM0",
    "ITEM1",
    "LEAD",
    "LONG_REST",
    "LOSE_TWO",
    "NO",
    "OTHER",
    "PRINTED",
    "TOP",
    "YES",
    "cell",
    "char",
    "element",
    "hp",
    "log",
    "matches",
    "monster",
    "summon",
    "conds",
    "events",
    "fig",
    "first",
    "at",
]

ITEM_ACTIONS = frozenset({ITEM0, ITEM1})

BULWARK_CARDS = tuple(f"B{i:02d}" for i in range(1, 10))
CONJURER_CARDS = tuple(f"C{i:02d}" for i in range(1, 9))


# --- Cells and actions ---------------------------------------------------------------------------


def others(prefix_cards: Iterable[str], *without: str) -> list[str]:
    """The cards of ``prefix_cards`` except ``without``, in table order."""
    return [c for c in prefix_cards if c not in without]


# --- Fixture pieces ------------------------------------------------------------------------------


def mon(kind: str, standee: int, col: int, row: int, rank: str = "normal", **extra: Any) -> dict:
    return {"type": kind, "rank": rank, "standee": standee, "cell": [col, row], **extra}


def wisp(col: int, row: int, **extra: Any) -> dict:
    return {"owner": "conjurer", "cell": [col, row], **extra}


# --- Games and prompts ---------------------------------------------------------------------------


def new(fixture: dict[str, Any] | None, seed: int = 0, **config: Any) -> HavenGame:
    return new_game(scenario=None, seed=seed, config=HavenConfig(**config), fixture=fixture)


def expect(game: HavenGame, kind: str, agent: str | None = None, legal=None) -> None:
    """The pending prompt is ``kind`` (for ``agent``), with exactly ``legal`` if given."""
    prompt = game.prompt
    assert prompt is not None, f"expected {kind}, but the game is over ({game.outcome})"
    assert prompt.kind == kind, f"expected {kind}, got {prompt.kind} for {AGENTS[prompt.agent]}"
    if agent is not None:
        assert AGENTS[prompt.agent] == agent, f"{kind} for {AGENTS[prompt.agent]}, not {agent}"
    if legal is not None:
        got, want = set(game.legal_actions()), set(legal)
        assert got == want, (
            f"{kind}: legal {sorted(actions.name(a) for a in got)} != "
            f"{sorted(actions.name(a) for a in want)}"
        )


def play(game: HavenGame, *steps: tuple) -> HavenGame:
    """Answer prompts; each step is ``(kind, action)`` or ``(kind, action, agent)``."""
    for step in steps:
        expect(game, step[0], step[2] if len(step) > 2 else None)
        assert step[1] in game.legal_actions(), (
            f"{actions.name(step[1])} not legal at {step[0]}: "
            f"{[actions.name(a) for a in game.legal_actions()]}"
        )
        game.apply(step[1])
    return game


def passive(game: HavenGame) -> int:
    """An answer that changes as little as possible: lowest cards, default boxes with no move
    and no target, suffer damage, no rest, no consume, no item."""
    prompt = game.prompt
    assert prompt is not None
    legal = set(prompt.legal)
    if prompt.kind in ("SELECT_LEAD", "SELECT_SECOND"):
        cards = sorted(a for a in legal if a != LONG_REST)
        return cards[0] if cards else LONG_REST
    if prompt.kind == "WINDOW_0":
        return BOX(LEAD, BOTTOM, DEFAULT)
    if prompt.kind == "WINDOW_1":
        return max(legal & BOX_ACTIONS)
    if prompt.kind in ("PICK_DISCARD", "LONG_REST_LOSE"):
        return min(legal)
    assert NO in legal, f"no passive answer to {prompt.kind}"
    return NO


def drive(game: HavenGame, until: Callable[[HavenGame], bool], limit: int = 300) -> HavenGame:
    """Answer passively until ``until(game)`` holds."""
    for _ in range(limit):
        if until(game):
            return game
        assert game.prompt is not None, f"game over ({game.outcome}) before the condition held"
        game.apply(passive(game))
    raise AssertionError("condition never held")


def prompt_is(kind: str, agent: str | None = None) -> Callable[[HavenGame], bool]:
    def check(game: HavenGame) -> bool:
        p = game.prompt
        return p is not None and p.kind == kind and (agent is None or AGENTS[p.agent] == agent)

    return check


def edited(game: HavenGame, edit: Callable[[dict[str, Any]], None]) -> HavenGame:
    """The game rebuilt from its position after ``edit`` changed the position's state dict (used
    for what a fixture cannot say, e.g. an empty draw pile)."""
    data = copy.deepcopy(game.to_position())
    assert data["answers"] == [], "edit a position only at a quiet point"
    edit(data["state"])
    return HavenGame.from_position(data)


# --- Events --------------------------------------------------------------------------------------


def reveal(game: HavenGame, since: int = 0) -> list[str]:
    """The ``sequence`` of the first REVEAL event from ``since`` on."""
    return list(game.events[first(game, "REVEAL", since)].data["sequence"])


def turn_starts(game: HavenGame, since: int = 0) -> list[str]:
    return [e.data["figure"] for e in events(game, "TURN_START", since)]


# --- State readers -------------------------------------------------------------------------------


def zone(game: HavenGame, agent: str, name: str) -> list[str]:
    """Card ids of a zone, in the order the state keeps them."""
    ch = char(game, agent)
    cards = game.scenario.characters[ch.index].cards
    return [cards[k].id for k in getattr(ch, name)]


def coins(game: HavenGame) -> dict[int, int]:
    return dict(game.state.coins)
