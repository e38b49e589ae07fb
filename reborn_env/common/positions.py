"""Reading saved positions: typed field access whose every error names the field and the rule.

Both rulesets save games as JSON objects and load them back with validation; these helpers keep
the error messages uniform: ``position field 'characters[0].hp': 12 is outside 1..10``.
"""

from __future__ import annotations

import reprlib
from collections.abc import Iterable
from typing import Any

from .errors import PositionError


class PositionReader:
    """Typed access to a position dict; every error names its field."""

    def __init__(self, data: Any) -> None:
        if not isinstance(data, dict):
            raise PositionError(f"a position must be a JSON object, got {type(data).__name__}")
        self.data = data

    def get(self, path: str, kind: type | tuple[type, ...], where: Any = None) -> Any:
        """The value at ``path`` (its last dotted part is the key in ``where`` or the root)."""
        node = self.data if where is None else where
        key = path.rsplit(".", 1)[-1]
        if not isinstance(node, dict) or key not in node:
            raise PositionError(f"position field '{path}' is missing")
        value = node[key]
        if kind is int and isinstance(value, bool) or not isinstance(value, kind):
            names = (
                kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
            )
            raise PositionError(f"position field '{path}' must be {names}, got {show(value)}")
        return value


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


def choice(field: str, value: Any, allowed: list[str] | tuple[str, ...]) -> int:
    """The index of ``value`` in ``allowed``, or an error listing what is allowed."""
    if value not in allowed:
        raise fail(field, f"{show(value)} is not one of {', '.join(map(str, allowed))}")
    return list(allowed).index(value)


def int_range(field: str, value: Any, low: int, high: int) -> int:
    """``value`` if it is an integer in ``low..high``, else an error naming the bounds."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise fail(field, f"must be an integer, got {show(value)}")
    if not low <= value <= high:
        raise fail(field, f"{value} is outside {low}..{high}")
    return value
