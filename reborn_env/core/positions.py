"""Reading saved positions: typed field access whose every error names the field and the rule.

Both rulesets save games as JSON objects and load them back with validation. These are the checks
of :mod:`.fields` bound to :class:`~.errors.PositionError`, as functions of a field name, so the
error messages stay uniform: ``position field 'characters[0].hp': 12 is outside 1..10``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from . import fields
from .errors import PositionError
from .fields import show


class _PositionErrors(fields.FieldErrors):
    """PositionError, ``position field 'name': problem``; the phrases docs and tests quote."""

    def at(self, path: str, problem: str) -> PositionError:
        return PositionError(f"position field '{path or 'position'}': {problem}")

    def missing(self, path: str) -> PositionError:
        return PositionError(f"position field '{path}' is missing")

    def unknown(self, path: str, unknown: Sequence[Any], allowed: Sequence[str]) -> PositionError:
        unknown = sorted(unknown, key=str)
        where = f"position field '{path}'" if path else "position"
        names = ", ".join(map(show, unknown[:8])) + (", ..." if len(unknown) > 8 else "")
        return PositionError(f"{where}: unknown key(s) {names}; allowed: {', '.join(allowed)}")

    def not_allowed(self, value: Any, allowed: Sequence[Any]) -> str:
        return f"{show(value)} is not one of {', '.join(map(str, allowed))}"


POSITION = _PositionErrors()
child = fields.child


def fail(field: str, problem: str) -> PositionError:
    """The error for a field that is present but wrong."""
    return POSITION.at(field, problem)


def exact_keys(field: str, node: dict[str, Any], allowed: Iterable[str]) -> None:
    """Refuse keys a position object does not define: a typo would otherwise be ignored silently."""
    fields.known_keys(POSITION, field, node, allowed)


def entry(node: dict[str, Any], key: str, field: str) -> Any:
    """``node[key]``, or an error naming the missing ``field``."""
    return fields.entry(POSITION, node, key, field)


def obj(field: str, value: Any, keys: Iterable[str], prefix: str | None = None) -> dict[str, Any]:
    """``value`` as an object with exactly ``keys``, none missing and none unknown; a missing
    key is named inside ``prefix`` (``field`` unless given)."""
    return fields.keyed(POSITION, field, value, tuple(keys), prefix=prefix)


def items(field: str, value: Any, most: int) -> list[Any]:
    """``value`` as a list of at most ``most`` entries (checked before anything reads them)."""
    return fields.sequence(POSITION, field, value, most=most)


def flag(field: str, value: Any) -> bool:
    """``value`` as true or false."""
    return fields.flag(POSITION, field, value)


def choice(field: str, value: Any, allowed: list[str] | tuple[str, ...]) -> int:
    """The index of the string ``value`` in ``allowed``, or an error listing what is allowed."""
    return fields.one_of(POSITION, field, value, allowed)


def int_range(field: str, value: Any, low: int, high: int) -> int:
    """``value`` if it is an integer (not a bool, not a float) in ``low..high``, else an error
    naming the bounds."""
    return fields.integer(POSITION, field, value, low, high)
