"""Reading scenario data files (TOML) so that every error names the file and the field.

Both rulesets keep their scenarios as TOML inside their package. This module finds a file (a
bundled name or a path), decodes it, and walks it through :class:`DataNode`, a value that knows its
dotted path, so a loader's checks read like the schema and its errors say where the problem is.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

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
class DataNode:
    """A TOML value with its dotted field path and its file, so that every error can name both."""

    source: str
    path: str
    value: Any

    def error(self, problem: str) -> ScenarioError:
        return ScenarioError(f"{self.source}: {self.path or '(top level)'}: {problem}")

    def child(self, key: str) -> DataNode:
        path = f"{self.path}.{key}" if self.path else key
        value = self.value.get(key) if isinstance(self.value, dict) else None
        return DataNode(self.source, path, value)

    def table(self, required: Sequence[str], optional: Sequence[str] = ()) -> dict[str, DataNode]:
        """The entries of a table with a fixed set of keys."""
        entries = self.entries()
        allowed = (*required, *optional)
        for key, node in entries.items():
            if key not in allowed:
                raise node.error(f"unknown key; allowed here: {', '.join(allowed)}")
        for key in required:
            if key not in entries:
                raise self.child(key).error("missing; this key is required")
        return entries

    def entries(self) -> dict[str, DataNode]:
        """The entries of a table with free keys (ids), in file order."""
        if not isinstance(self.value, dict):
            raise self.error(f"must be a table, got {self.value!r}")
        return {key: self.child(key) for key in self.value}

    def items(self, length: int | None = None, minimum: int = 0) -> list[DataNode]:
        if not isinstance(self.value, list):
            raise self.error(f"must be an array, got {self.value!r}")
        if length is not None and len(self.value) != length:
            raise self.error(f"must have exactly {length} entries, got {len(self.value)}")
        if len(self.value) < minimum:
            raise self.error(f"must have at least {minimum} entries, got {len(self.value)}")
        return [DataNode(self.source, f"{self.path}[{i}]", v) for i, v in enumerate(self.value)]

    def integer(self, minimum: int | None = None, maximum: int | None = None) -> int:
        value = self.value
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(f"must be an integer, got {value!r}")
        if maximum is None:
            if minimum is not None and value < minimum:
                raise self.error(f"must be an integer >= {minimum}, got {value}")
            return value
        low = "" if minimum is None else f"{minimum} <= "
        if (minimum is not None and value < minimum) or value > maximum:
            raise self.error(f"must be an integer {low}n <= {maximum}, got {value}")
        return value

    def text(self, allowed: Iterable[str] | None = None) -> str:
        if not isinstance(self.value, str) or not self.value:
            raise self.error(f"must be a non-empty string, got {self.value!r}")
        if allowed is not None and self.value not in (choices := tuple(allowed)):
            raise self.error(f"{self.value!r} is not allowed; allowed: {', '.join(choices)}")
        return self.value

    def flag(self) -> bool:
        if not isinstance(self.value, bool):
            raise self.error(f"must be true or false, got {self.value!r}")
        return self.value

    def texts(self, allowed: Iterable[str], minimum: int = 0) -> tuple[str, ...]:
        """An array of distinct strings, each one of ``allowed``."""
        values = tuple(item.text(allowed) for item in self.items(minimum=minimum))
        if len(set(values)) != len(values):
            raise self.error(f"lists an entry twice: {list(values)}")
        return values

    def xy(self) -> tuple[int, int]:
        """A pair of integers ``[x, y]``."""
        x, y = (item.integer() for item in self.items(2))
        return x, y
