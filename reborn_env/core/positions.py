"""Reading saved positions: typed field access whose every error names the field and the rule.

Both rulesets save games as JSON objects and load them back with validation; these helpers keep
the error messages uniform: ``position field 'characters[0].hp': 12 is outside 1..10``.
"""

from __future__ import annotations

import reprlib
from collections.abc import Iterable
from typing import Any

from .errors import PositionError


def exact_keys(field: str, node: dict[str, Any], allowed: Iterable[str]) -> None:
    """Refuse keys a position object does not define: a typo would otherwise be ignored silently."""
    allowed = list(allowed)
    unknown = sorted(set(node) - set(allowed), key=str)
    if unknown:
        where = f"position field '{field}'" if field else "position"
        names = ", ".join(map(show, unknown[:8])) + (", ..." if len(unknown) > 8 else "")
        raise PositionError(f"{where}: unknown key(s) {names}; allowed: {', '.join(allowed)}")


_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxstring, _SHORT.maxother = 3, 100, 40
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxdict = _SHORT.maxset = 6
_LONGEST_INT = 10**30


def show(value: Any) -> str:
    """A short printable form of any value for an error message; it never raises.

    Plain ``repr`` fails on an integer of thousands of digits and on very deep nesting, and would
    copy a huge value into the message whole; this one cuts each of those short.
    """
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > _LONGEST_INT:
        return f"an integer of {value.bit_length()} bits"
    try:
        return _SHORT.repr(value)
    except Exception:  # a caller's object whose repr fails: its type is all we can name
        return f"a {type(value).__name__}"


def fail(field: str, problem: str) -> PositionError:
    """The error for a field that is present but wrong."""
    return PositionError(f"position field '{field}': {problem}")


def child(field: str, key: str) -> str:
    """The name of ``key`` inside the object ``field`` (a top-level key names itself)."""
    return f"{field}.{key}" if field else key


def entry(node: dict[str, Any], key: str, field: str) -> Any:
    """``node[key]``, or an error naming the missing ``field``."""
    if key not in node:
        raise PositionError(f"position field '{field}' is missing")
    return node[key]


def obj(field: str, value: Any, keys: Iterable[str], prefix: str | None = None) -> dict[str, Any]:
    """``value`` as an object with exactly ``keys``, none missing and none unknown; a missing
    key is named inside ``prefix`` (``field`` unless given)."""
    keys = list(keys)
    if not isinstance(value, dict):
        raise fail(field or "position", f"must be an object, got {show(value)}")
    exact_keys(field, value, keys)
    for key in keys:
        entry(value, key, child(field if prefix is None else prefix, key))
    return value


def items(field: str, value: Any, most: int) -> list[Any]:
    """``value`` as a list of at most ``most`` entries (checked before anything reads them)."""
    if not isinstance(value, list):
        raise fail(field, f"must be a list, got {show(value)}")
    if len(value) > most:
        raise fail(field, f"holds {len(value)} entries; at most {most} are possible")
    return value


def flag(field: str, value: Any) -> bool:
    """``value`` as true or false."""
    if not isinstance(value, bool):
        raise fail(field, f"must be true or false, got {show(value)}")
    return value


def choice(field: str, value: Any, allowed: list[str] | tuple[str, ...]) -> int:
    """The index of the string ``value`` in ``allowed``, or an error listing what is allowed."""
    if not isinstance(value, str) or value not in allowed:
        raise fail(field, f"{show(value)} is not one of {', '.join(map(str, allowed))}")
    return list(allowed).index(value)


def int_range(field: str, value: Any, low: int, high: int) -> int:
    """``value`` if it is an integer (not a bool, not a float) in ``low..high``, else an error
    naming the bounds."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise fail(field, f"must be an integer {low}..{high}, got {show(value)}")
    if not low <= value <= high:
        raise fail(field, f"{show(value)} is outside {low}..{high}")
    return value
