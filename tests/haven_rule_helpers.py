"""Helpers for the per-rule haven tests (tests/test_haven_rules.py).

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

from reborn_env.haven import actions
from reborn_env.haven.engine import HavenConfig, HavenGame, new_game
from reborn_env.haven.prompts import Event
from reborn_env.haven.scenario import ELEMENTS
from reborn_env.haven.state import ELEMENT_STATE_NAMES

AGENTS = ("bulwark", "conjurer")

LONG_REST = actions.LONG_REST  # 81
ITEM0 = actions.item_action(0)  # 82
ITEM1 = actions.item_action(1)  # 83
YES = actions.YES  # 84
NO = actions.NO  # 85
LOSE_TWO = actions.LOSE_TWO_DISCARDS  # 86
LEAD, OTHER = actions.LEAD, actions.OTHER
TOP, BOTTOM = actions.TOP, actions.BOTTOM
PRINTED, DEFAULT = actions.PRINTED, actions.DEFAULT
BOX_ACTIONS = frozenset(range(73, 81))
ITEM_ACTIONS = frozenset({ITEM0, ITEM1})

BULWARK_CARDS = tuple(f"B{i:02d}" for i in range(1, 10))
CONJURER_CARDS = tuple(f"C{i:02d}" for i in range(1, 9))


# --- Cells and actions ---------------------------------------------------------------------------


def cell(col: int, row: int) -> int:
    """HV-MAP-1: cell id ``9*row + col``."""
    return 9 * row + col


def HEX(col: int, row: int) -> int:  # noqa: N802 - the spec's spelling
    return actions.hex_action(cell(col, row))


def CARD(card_id: str) -> int:  # noqa: N802 - the spec's spelling
    """``CARD(k)`` of a card id: k is the table index (B01 -> 0, C08 -> 7)."""
    return actions.card_action(int(card_id[1:]) - 1)


def BOX(slot: int, half: int, mode: int) -> int:  # noqa: N802 - the spec's spelling
    return actions.box_action(slot, half, mode)


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


def _norm(value: Any) -> Any:
    if (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(v, int) for v in value)
    ):
        return cell(value[0], value[1])
    return value


def matches(event: Event, etype: str, data: dict[str, Any]) -> bool:
    return event.type == etype and all(
        _norm(event.data.get(k)) == _norm(v) for k, v in data.items()
    )


def events(game: HavenGame, etype: str, since: int = 0, **data: Any) -> list[Event]:
    return [e for e in game.events[since:] if matches(e, etype, data)]


def first(game: HavenGame, etype: str, since: int = 0, **data: Any) -> int:
    """Index of the first matching event from ``since`` on; fails if there is none."""
    for i in range(since, len(game.events)):
        if matches(game.events[i], etype, data):
            return i
    raise AssertionError(f"no {etype} {data} from {since}:\n{log(game, since)}")


def log(game: HavenGame, since: int = 0) -> str:
    return "\n".join(f"{i}: {e.type} {e.data}" for i, e in enumerate(game.events) if i >= since)


def reveal(game: HavenGame, since: int = 0) -> list[str]:
    """The ``sequence`` of the first REVEAL event from ``since`` on."""
    return list(game.events[first(game, "REVEAL", since)].data["sequence"])


def turn_starts(game: HavenGame, since: int = 0) -> list[str]:
    return [e.data["figure"] for e in events(game, "TURN_START", since)]


# --- State readers -------------------------------------------------------------------------------


def char(game: HavenGame, agent: str):
    return game.state.characters[AGENTS.index(agent)]


def monster(game: HavenGame, lbl: str):
    kind, _, standee = lbl.partition("#")
    t = game.scenario.monster_type_index[kind]
    return next((m for m in game.state.monsters if m.type == t and m.standee == int(standee)), None)


def summon(game: HavenGame, number: int = 1):
    return next((s for s in game.state.summons if s.number == number), None)


def fig(game: HavenGame, lbl: str):
    if lbl in AGENTS:
        return char(game, lbl)
    if lbl.startswith("ember_wisp#"):
        return summon(game, int(lbl.partition("#")[2]))
    return monster(game, lbl)


def hp(game: HavenGame, lbl: str) -> int:
    f = fig(game, lbl)
    assert f is not None, f"{lbl} is not on the map"
    return f.hp


def at(game: HavenGame, lbl: str) -> int | None:
    f = fig(game, lbl)
    return None if f is None else f.cell


def conds(game: HavenGame, lbl: str) -> set[str]:
    f = fig(game, lbl)
    assert f is not None, f"{lbl} is not on the map"
    return set(f.conditions)


def zone(game: HavenGame, agent: str, name: str) -> list[str]:
    """Card ids of a zone, in the order the state keeps them."""
    ch = char(game, agent)
    cards = game.scenario.characters[ch.index].cards
    return [cards[k].id for k in getattr(ch, name)]


def element(game: HavenGame, name: str) -> str:
    return ELEMENT_STATE_NAMES[game.state.elements[ELEMENTS.index(name)]]


def coins(game: HavenGame) -> dict[int, int]:
    return dict(game.state.coins)
