"""Typed readers of haven position JSON: every error names the field and what is allowed.

Why a module of its own: a position (and a fixture, HV-API-10) comes from users and front-ends, so
each value is checked for its JSON type and size before anything reads it (:func:`check_json`),
and each reader below returns a checked value or raises PositionError, never another exception.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ...core.errors import PositionError
from ...core.positions import choice, entry, fail, flag, int_range, items, obj, show
from .position_rules import limits_of
from .rules.config import HavenConfig, UnknownOptionError, option_names, option_problem
from .rules.state import ModifierDeck
from .scenario.model import CONDITIONS, Scenario

# What any JSON value of a position may be: no valid position comes near these, and beyond them
# an error message could not even show the value (Python refuses to print huge integers).
MAX_DEPTH = 8  # containers inside containers (position > state > characters > [i] > amd > draw)
MAX_VALUES = 20_000  # values in the whole position
MAX_TEXT = 100  # characters in a string (ids, names, the 16 hex digits of the generator)
MAX_INT = 2**63  # magnitude of an integer
MODIFIER_DECK_KEYS = ("draw", "discard", "shuffle_due")


def check_json(data: Any) -> None:
    """Every value of ``data`` is JSON (objects with string keys, lists, strings, numbers, true,
    false, null) within the sizes a position can have. Checked before anything reads or copies
    the data, so no later step meets a value it cannot handle, copy or even print."""
    if not isinstance(data, dict):
        raise PositionError(f"a position must be a JSON object, got {type(data).__name__}")
    stack: list[tuple[str, Any, int]] = [("", data, 1)]
    seen = 0
    while stack:
        path, value, depth = stack.pop()
        seen += 1
        if seen > MAX_VALUES:
            raise PositionError(f"a position holds far fewer than {MAX_VALUES} values")
        if isinstance(value, (dict, list)) and depth > MAX_DEPTH:
            raise fail(path, f"nested deeper than any position field ({MAX_DEPTH} levels)")
        if isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, str) or len(key) > MAX_TEXT:
                    raise fail(path or "position", f"keys are short strings, got {show(key)}")
                stack.append((_join(path, key), item, depth + 1))
        elif isinstance(value, list):
            stack.extend((f"{path}[{i}]", item, depth + 1) for i, item in enumerate(value))
        elif isinstance(value, bool) or value is None or isinstance(value, float):
            continue
        elif isinstance(value, int):
            if abs(value) >= MAX_INT:
                raise fail(path, f"an integer of {value.bit_length()} bits is out of every range")
        elif isinstance(value, str):
            if len(value) > MAX_TEXT:
                raise fail(path, f"a string of {len(value)} characters is longer than any value")
        else:
            raise fail(path, f"{type(value).__name__} is not a JSON value")


def _join(path: str, key: str) -> str:
    """A field name as errors spell it; the state's own fields bare (``characters[0].hp``)."""
    return key if path in ("", "state") else f"{path}.{key}"


def node(field: str, value: Any, keys: tuple[str, ...]) -> dict[str, Any]:
    """``value`` as an object with exactly ``keys`` (:func:`obj`), the state's own fields
    named bare as :func:`_join` names them."""
    return obj(field, value, keys, prefix="" if field in ("", "state") else field)


def id_list(field: str, value: Any, allowed: list[str], most: int | None = None) -> list[int]:
    """A list of strings from ``allowed`` as indices: distinct, or up to ``most`` with repeats."""
    found = [
        choice(f"{field}[{i}]", v, allowed)
        for i, v in enumerate(items(field, value, most or len(allowed)))
    ]
    if most is None and len(set(found)) != len(found):
        raise fail(field, "lists an entry twice")
    return found


def read_cell(scenario: Scenario, field: str, value: Any) -> int:
    """A ``[col, row]`` floor cell of the grid (HV-MAP-1, HV-MAP-3) as its cell id."""
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise fail(field, f"a cell is [col, row], got {show(value)}")
    col, row = value
    grid = scenario.map.grid
    if not grid.contains(col, row):
        raise fail(field, f"cell ({col},{row}) is outside the {grid.width} x {grid.height} grid")
    cell = grid.id(col, row)
    if cell not in limits_of(scenario).floor:
        kind = scenario.map.cells[cell]
        raise fail(field, f"cell ({col},{row}) is {kind}, not floor (HV-MAP-3)")
    return cell


def read_conditions(field: str, value: Any) -> list[str]:
    """HV-COND-1, HV-COND-12: distinct conditions of section 9, in name order."""
    return sorted(CONDITIONS[k] for k in id_list(field, value, list(CONDITIONS)))


def read_modifier_deck(field: str, value: Any, expected: Counter) -> ModifierDeck:
    """HV-AMD-1/4: draw pile (top first) and discard hold the whole standard deck."""
    deck = node(field, value, MODIFIER_DECK_KEYS)
    names = sorted(expected)
    size = sum(expected.values())
    draw = [names[k] for k in id_list(f"{field}.draw", deck["draw"], names, size)]
    discard = [names[k] for k in id_list(f"{field}.discard", deck["discard"], names, size)]
    if Counter(draw) + Counter(discard) != expected:
        raise fail(field, f"draw + discard must be the whole deck {dict(expected)}")
    return ModifierDeck(draw, discard, flag(f"{field}.shuffle_due", deck["shuffle_due"]))


def read_config(value: Any) -> HavenConfig:
    """The 16.8 options: every key of :class:`HavenConfig`, each passing its check
    (:func:`.rules.config.option_problem`: max_rounds HV-END-4), no other key."""
    if not isinstance(value, dict):
        raise fail("config", f"must be an object, got {show(value)}")
    for key in option_names():
        problem = option_problem(key, entry(value, key, f"config.{key}"))
        if problem is not None:
            raise fail(f"config.{key}", problem)
    try:
        return HavenConfig.from_dict(value)
    except UnknownOptionError as err:
        raise fail("config", str(err)) from None


def read_answers(value: Any, most: int, n_actions: int) -> list[int]:
    """Action integers of a space of ``n_actions`` (16.3), at most one slot's prompts (15.10)."""
    answers = items("answers", value, most)
    return [int_range(f"answers[{i}]", a, 0, n_actions - 1) for i, a in enumerate(answers)]
