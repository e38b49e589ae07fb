"""Reading scenario data files (TOML) so that every error names the file and the field.

Both rulesets keep their scenarios as TOML inside their package. This module finds a file (a
bundled name or a path), decodes it, and walks it through :class:`DataNode`, a value that knows its
dotted path (the checks of :mod:`.fields`, worded for TOML), so a loader's checks read like the
schema and its errors say where the problem is.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from . import fields

T = TypeVar("T")


class ScenarioError(ValueError):
    """A scenario file that cannot be loaded; the message names the file and the field."""


def is_path(name_or_path: str) -> bool:
    """A string with a path separator or a ``.toml`` suffix is a file path, else a bundled name."""
    return "/" in name_or_path or "\\" in name_or_path or name_or_path.endswith(".toml")


def read_file(path: str | Path) -> tuple[str, dict[str, Any]]:
    """(source, document) of a TOML file on disk."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ScenarioError(f"{path}: cannot read the scenario file ({exc.strerror})") from exc
    return str(path), decode_toml(raw, str(path))


def bundled_names(package: str) -> list[str]:
    """The names of the scenarios bundled with ``package``: its ``data/*.toml`` files' stems."""
    data_dir = resources.files(package) / "data"
    return sorted(
        p.name.removesuffix(".toml") for p in data_dir.iterdir() if p.name.endswith(".toml")
    )


def read_bundled(package: str, name: str) -> tuple[str, dict[str, Any]]:
    """(source, document) of ``<package>/data/<name>.toml``; the error lists the bundled names."""
    resource = resources.files(package) / "data" / f"{name}.toml"
    if not resource.is_file():
        known = bundled_names(package)
        raise ScenarioError(
            f"{name}: no bundled scenario of that name; bundled: {', '.join(known)}"
        )
    return str(resource), decode_toml(resource.read_bytes(), str(resource))


def scenario_loader(package: str, build: Callable[[dict[str, Any], str], T]) -> Callable[[str], T]:
    """``load(name_or_path)``: ``build(document, source)`` of a ruleset's scenario file.

    A bare name such as ``"vault_raid"`` loads ``<package>/data/<name>.toml`` (cached: the result
    is frozen); a string with a path separator or a ``.toml`` suffix is a file path.
    """

    @functools.lru_cache(maxsize=16)
    def load_bundled(name: str) -> T:
        source, doc = read_bundled(package, name)
        return build(doc, source)

    def load(name_or_path: str) -> T:
        if is_path(name_or_path):
            source, doc = read_file(name_or_path)
            return build(doc, source)
        return load_bundled(name_or_path)

    return load


def decode_toml(raw: bytes, source: str) -> dict[str, Any]:
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ScenarioError(f"{source}: not a valid UTF-8 TOML file: {exc}") from exc


@dataclass(frozen=True)
class FileErrors(fields.FieldErrors):
    """ScenarioError, ``file: dotted.path: problem``, in TOML's words (table, array)."""

    source: str
    mapping = "a table"
    sequence = "an array"

    def at(self, path: str, problem: str) -> ScenarioError:
        return ScenarioError(f"{self.source}: {path or '(top level)'}: {problem}")


@dataclass(frozen=True)
class DataNode:
    """A TOML value with its dotted field path and its file, so that every error can name both:
    the checks of :mod:`reborn_env.core.fields` as methods."""

    source: str
    path: str
    value: Any

    @property
    def _errors(self) -> FileErrors:
        return FileErrors(self.source)

    def error(self, problem: str) -> ScenarioError:
        return self._errors.at(self.path, problem)

    def child(self, key: str) -> DataNode:
        value = self.value.get(key) if isinstance(self.value, dict) else None
        return DataNode(self.source, fields.child(self.path, key), value)

    def table(self, required: Sequence[str], optional: Sequence[str] = ()) -> dict[str, DataNode]:
        """The entries of a table with a fixed set of keys."""
        fields.keyed(self._errors, self.path, self.value, required, optional)
        return self.entries()

    def entries(self) -> dict[str, DataNode]:
        """The entries of a table with free keys (ids), in file order."""
        return {key: self.child(key) for key in fields.mapping(self._errors, self.path, self.value)}

    def items(self, length: int | None = None, minimum: int = 0) -> list[DataNode]:
        values = fields.sequence(self._errors, self.path, self.value, length, minimum)
        return [DataNode(self.source, fields.item(self.path, i), v) for i, v in enumerate(values)]

    def integer(self, minimum: int | None = None, maximum: int | None = None) -> int:
        return fields.integer(self._errors, self.path, self.value, minimum, maximum)

    def text(self, allowed: Iterable[str] | None = None) -> str:
        return fields.text(self._errors, self.path, self.value, allowed)

    def flag(self) -> bool:
        return fields.flag(self._errors, self.path, self.value)

    def texts(self, allowed: Iterable[str], minimum: int = 0) -> tuple[str, ...]:
        """An array of distinct strings, each one of ``allowed``."""
        values = tuple(item.text(allowed) for item in self.items(minimum=minimum))
        if len(set(values)) != len(values):
            raise self.error(f"lists an entry twice: {fields.show(list(values))}")
        return values

    def xy(self) -> tuple[int, int]:
        """A pair of integers ``[x, y]``."""
        x, y = (item.integer() for item in self.items(2))
        return x, y
