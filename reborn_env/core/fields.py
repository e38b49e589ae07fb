"""Path-aware checks of plain data: the one validator behind positions and scenario files.

A saved position (JSON) and a scenario file (TOML) are both plain data a user may have written by
hand, so every value is checked before it is used, and every error names where the value is, as
a dotted path (``characters[0].hp``), and what is allowed there. The checks below are written
once; :class:`FieldErrors` is all that differs between the two kinds of data: the error class,
how a message names the path, and the few phrases each kind's users (and tests and docs) know.
:mod:`.positions` binds the checks to :class:`~.errors.PositionError` as functions of a field
name; :class:`.data_files.DataNode` binds them to ScenarioError as methods of a value that knows
its path.
"""

from __future__ import annotations

import reprlib
from collections.abc import Iterable, Sequence
from typing import Any

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


def child(path: str, key: str) -> str:
    """The path of ``key`` inside the object at ``path`` (a top-level key names itself)."""
    return f"{path}.{key}" if path else key


def item(path: str, index: int) -> str:
    """The path of entry ``index`` of the list at ``path``."""
    return f"{path}[{index}]"


class FieldErrors:
    """How one kind of data words its errors; subclasses make the error of :meth:`at`."""

    mapping = "an object"  # what the data's format calls a mapping and a list
    sequence = "a list"

    def at(self, path: str, problem: str) -> Exception:
        """The error for the value at ``path``."""
        raise NotImplementedError

    def missing(self, path: str) -> Exception:
        """The error for a required key that is absent."""
        return self.at(path, "missing; this key is required")

    def unknown(self, path: str, unknown: Sequence[Any], allowed: Sequence[str]) -> Exception:
        """The error for keys of the object at ``path`` that are not in ``allowed``."""
        return self.at(
            child(path, str(unknown[0])), f"unknown key; allowed here: {', '.join(allowed)}"
        )

    def not_allowed(self, value: Any, allowed: Sequence[Any]) -> str:
        """The problem of a value that is not one of ``allowed``."""
        return f"{show(value)} is not allowed; allowed: {', '.join(map(str, allowed))}"


def integer(
    errors: FieldErrors, path: str, value: Any, low: int | None = None, high: int | None = None
) -> int:
    """``value`` if it is an integer (not a bool, not a float) within the bounds given."""
    if low is not None and high is not None:
        bounds = f"{low}..{high}"
    else:
        bounds = f">= {low}" if low is not None else f"<= {high}" if high is not None else ""
    if isinstance(value, bool) or not isinstance(value, int):
        raise errors.at(
            path, f"must be an integer{' ' if bounds else ''}{bounds}, got {show(value)}"
        )
    if (low is not None and value < low) or (high is not None and value > high):
        if low is not None and high is not None:
            raise errors.at(path, f"{show(value)} is outside {bounds}")
        raise errors.at(path, f"must be an integer {bounds}, got {show(value)}")
    return value


def flag(errors: FieldErrors, path: str, value: Any) -> bool:
    """``value`` as true or false."""
    if not isinstance(value, bool):
        raise errors.at(path, f"must be true or false, got {show(value)}")
    return value


def one_of(errors: FieldErrors, path: str, value: Any, allowed: Sequence[Any]) -> int:
    """The index in ``allowed`` of ``value`` (a string), or an error listing what is allowed."""
    if not isinstance(value, str) or value not in allowed:
        raise errors.at(path, errors.not_allowed(value, allowed))
    return list(allowed).index(value)


def text(errors: FieldErrors, path: str, value: Any, allowed: Iterable[str] | None = None) -> str:
    """``value`` as a non-empty string, one of ``allowed`` if given."""
    if not isinstance(value, str) or not value:
        raise errors.at(path, f"must be a non-empty string, got {show(value)}")
    if allowed is not None:
        one_of(errors, path, value, tuple(allowed))
    return value


def sequence(
    errors: FieldErrors,
    path: str,
    value: Any,
    length: int | None = None,
    minimum: int = 0,
    most: int | None = None,
) -> list[Any]:
    """``value`` as a list of exactly ``length``, at least ``minimum`` and at most ``most``
    entries (checked before anything reads them)."""
    if not isinstance(value, list):
        raise errors.at(path, f"must be {errors.sequence}, got {show(value)}")
    if most is not None and len(value) > most:
        raise errors.at(path, f"holds {len(value)} entries; at most {most} are possible")
    if length is not None and len(value) != length:
        raise errors.at(path, f"must have exactly {length} entries, got {len(value)}")
    if len(value) < minimum:
        raise errors.at(path, f"must have at least {minimum} entries, got {len(value)}")
    return value


def mapping(errors: FieldErrors, path: str, value: Any) -> dict[str, Any]:
    """``value`` as an object (a table)."""
    if not isinstance(value, dict):
        raise errors.at(path, f"must be {errors.mapping}, got {show(value)}")
    return value


def known_keys(
    errors: FieldErrors, path: str, value: dict[str, Any], allowed: Iterable[str]
) -> None:
    """Refuse keys the object at ``path`` may not have: a typo would otherwise be ignored."""
    allowed = list(allowed)
    unknown = [key for key in value if key not in allowed]
    if unknown:
        raise errors.unknown(path, unknown, allowed)


def entry(errors: FieldErrors, value: dict[str, Any], key: str, path: str) -> Any:
    """``value[key]``, or the error naming ``path``, the key's path, as missing."""
    if key not in value:
        raise errors.missing(path)
    return value[key]


def keyed(
    errors: FieldErrors,
    path: str,
    value: Any,
    required: Sequence[str],
    optional: Sequence[str] = (),
    prefix: str | None = None,
) -> dict[str, Any]:
    """``value`` as an object with every key of ``required``, others only from ``optional``; a
    missing key is named inside ``prefix`` (``path`` unless given)."""
    value = mapping(errors, path, value)
    known_keys(errors, path, value, (*required, *optional))
    for key in required:
        if key not in value:  # the missing key's path is built only when it is wanted
            raise errors.missing(child(path if prefix is None else prefix, key))
    return value
