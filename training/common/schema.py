"""One config schema for every trainer: each field declared once, read from YAML and checked.

A trainer's config is a frozen dataclass deriving from :class:`Schema` whose fields are declared
with :func:`setting`: the type (the annotation), the default, the :class:`~.rules.Rule` its value
must pass, and the docstring below it. Loading (:meth:`Schema.load`), checking and
:meth:`Schema.to_dict` come from here. Every mistake a config can hold (a file that is not UTF-8
YAML, an unknown or misspelt key, a missing required one, a value of the wrong type, a number out
of range, too large for 64 bits or not finite, ``env_kwargs`` the env refuses) raises
:class:`ConfigError` naming the file, the key and what is allowed, so a run fails at start-up
rather than hours in. The errors are worded through the core's path-aware validator
(:mod:`reborn_env.core.fields`), as positions and scenario files are.
"""

from __future__ import annotations

import copy
import dataclasses
import difflib
import functools
import math
import os
import stat
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import InitVar, dataclass
from pathlib import Path
from typing import Any, Self, TypeVar

import yaml

from reborn_env.core import fields
from reborn_env.core.fields import show
from training.common.envs import env_sizes
from training.common.rules import MAX_INT, Rule

Settings = TypeVar("Settings")

MAX_CONFIG_BYTES = 1 << 20
"""Largest config file read (a config is a few hundred bytes)."""


class ConfigError(ValueError):
    """A config file or mapping that cannot describe a run; the message says where and why."""


class ConfigErrors(fields.FieldErrors):
    """How a config words its errors: the file (or mapping) it came from, then the key."""

    def __init__(self, source: str, required: Mapping[str, str] | None = None) -> None:
        self.source = source
        self.required = required or {}
        """required key -> what it means, said when it is missing"""

    def at(self, path: str, problem: str) -> ConfigError:
        """The error for the value of the key ``path``."""
        return ConfigError(f"{self.source}: key {path!r}: {problem}")

    def missing(self, path: str) -> ConfigError:
        """The error for a required key that is absent, saying what it means."""
        return ConfigError(
            f"{self.source}: missing required key {path!r} ({self.required.get(path, 'required')})"
        )

    def unknown(self, path: str, unknown: Sequence[Any], allowed: Sequence[str]) -> ConfigError:
        """The error for keys no field declares, each with the closest known key suggested."""
        return ConfigError(f"{self.source}: " + "; ".join(_unknown(k, allowed) for k in unknown))


def _shown(value: Any) -> str:
    """``value`` as Python writes it, or :func:`~reborn_env.core.fields.show`'s short form of a
    long one (or one whose repr fails: an integer of thousands of digits)."""
    try:
        text = repr(value)
    except ValueError:
        return show(value)
    return text if len(text) <= 120 else show(value)


def _unknown(key: Any, known: Sequence[str]) -> str:
    close = difflib.get_close_matches(str(key), list(known), n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    return f"unknown key {key!r}; {hint}known keys: {', '.join(known)}"


def setting(
    default: Any = dataclasses.MISSING,
    rule: Rule | None = None,
    *,
    factory: Callable[[], Any] | None = None,
    required: str = "",
) -> Any:
    """A config field: its ``default`` (a list or mapping is copied for each config) or
    ``factory``, the :class:`~.rules.Rule` its value must pass, or, with neither default nor
    factory, ``required``: what the required key means, said when it is missing."""
    if factory is None and isinstance(default, list | dict):
        factory, default = functools.partial(copy.deepcopy, default), dataclasses.MISSING
    return dataclasses.field(
        default=default,
        default_factory=factory if factory is not None else dataclasses.MISSING,
        metadata={"rule": rule, "required": required},
    )


def settings_of(record: type[Settings], config: Any) -> Settings:
    """A ``record`` (a dataclass of some of a config's keys) holding ``config``'s values of the
    same names: what a component receives instead of the whole config."""
    return record(**{f.name: getattr(config, f.name) for f in dataclasses.fields(record)})


def rules(config: type[Schema]) -> dict[str, Rule]:
    """Each field of ``config`` that has a rule, and its rule."""
    found = {f.name: f.metadata.get("rule") for f in dataclasses.fields(config)}
    return {name: rule for name, rule in found.items() if rule is not None}


@dataclass(frozen=True, kw_only=True)
class Schema:
    """A trainer's config: fields declared with :func:`setting`, checked when built."""

    source: InitVar[str | None] = None
    """where the values came from, named in error messages (not a config key; default the class
    name)"""

    def __post_init__(self, source: str | None) -> None:
        origin = f"<{type(self).__name__}>" if source is None else source
        object.__setattr__(self, "_origin", origin)
        check_values(self, ConfigErrors(origin))
        self.check_together()

    @property
    def origin(self) -> str:
        """Where the values came from (a file, a checkpoint), as errors name it."""
        return self._origin

    def check_together(self) -> None:
        """Refuse keys that disagree with each other; a config with such rules overrides it."""

    def check_env(self) -> tuple[int, int]:
        """Build the env once from ``env_kwargs``, as every training env will be; its
        ``(obs_size, n_actions)``, or :class:`ConfigError` naming ``env_kwargs`` if the env
        refuses them (an unknown keyword, ``max_steps: -1``, an unknown scenario)."""
        try:
            return env_sizes(self.env, **self.env_kwargs)
        except (ValueError, TypeError) as exc:
            raise ConfigErrors(self.origin).at(
                "env_kwargs", f"env {self.env!r} refuses {_shown(self.env_kwargs)}: {exc}"
            ) from exc

    def to_dict(self) -> dict[str, Any]:
        """The config as plain YAML/JSON-ready data (a deep copy), e.g. for a checkpoint."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: Mapping[Any, Any], source: str = "<dict>") -> Self:
        """Check ``d`` (keys, types, values) and build the config; ``source`` names it in errors."""
        declared = dataclasses.fields(cls)
        required = {
            f.name: _meaning(f)
            for f in declared
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        }
        errors = ConfigErrors(source, required)
        fields.known_keys(errors, "", dict(d), [f.name for f in declared])
        for key in required:
            fields.entry(errors, dict(d), key, key)
        return cls(**d, source=source)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Self:
        """Read and check the YAML config at ``path``, building its env once
        (:meth:`check_env`); any problem raises :class:`ConfigError`."""
        config = cls.from_dict(read_config_mapping(path), source=str(path))
        config.check_env()
        return config


def _meaning(field: dataclasses.Field[Any]) -> str:
    """What a required field means and, from its rule, what it may be."""
    rule = field.metadata.get("rule")
    allowed = rule.words().removeprefix("must be ") if rule is not None else ""
    return ", ".join(part for part in (field.metadata.get("required"), allowed) if part)


def check_values(config: Schema, errors: ConfigErrors) -> None:
    """Check a config's fields in place: each value fits 64 bits and its type (converted where
    lossless: an integer where a number is expected), then each field's rule; the first that
    fails is a :class:`ConfigError` naming the key and what is allowed."""
    declared = dataclasses.fields(config)
    hints = _hints(type(config))
    for f in declared:
        value = getattr(config, f.name)
        _check_64_bits(errors, f.name, value)
        object.__setattr__(config, f.name, _typed(errors, f.name, value, hints[f.name]))
    for f in declared:
        rule, value = f.metadata.get("rule"), getattr(config, f.name)
        if rule is not None and not rule.holds(value):
            raise errors.at(f.name, f"{rule.words()}, got {_shown(value)}")


@functools.cache
def _hints(config: type) -> dict[str, Any]:
    return typing.get_type_hints(config)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _typed(errors: ConfigErrors, key: str, value: Any, hint: Any) -> Any:
    """``value`` if it has the type ``hint`` (ints accepted and converted where floats are)."""
    item = (typing.get_args(hint) or (None,))[0]
    origin = typing.get_origin(hint) or hint
    if origin is float and (_is_int(value) or isinstance(value, float)):
        return float(value)
    if origin is int and _is_int(value):
        return value
    if origin in (bool, str) and isinstance(value, origin):
        return value
    items_fit = _is_int if item is int else lambda v: isinstance(v, item)
    if origin is list and isinstance(value, list) and all(map(items_fit, value)):
        return list(value)
    if origin is dict and isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return dict(value)
    raise errors.at(
        key,
        f"expected {_TYPE_NAMES[hint]}, got {type(value).__name__} {_shown(value)}"
        + _yaml_hint(value),
    )


def _check_64_bits(errors: ConfigErrors, key: str, value: Any) -> None:
    """Every integer of a key (or of its list) within +-:data:`~.rules.MAX_INT`: what torch and
    numpy hold, and far beyond any sensible value."""
    for number in value if isinstance(value, list) else [value]:
        if _is_int(number) and abs(number) > MAX_INT:
            raise errors.at(
                key,
                f"{_shown(number)} does not fit in 64 bits; integers here are at most 2**63-1 "
                f"({MAX_INT})",
            )


def _yaml_hint(value: Any) -> str:
    """A hint for YAML 1.1's trap: ``1e-4`` (no dot) is read as a string, not a float."""
    if isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            return ""
        if not math.isfinite(number):
            return ""
        return f" (YAML reads {value!r} as a string; write it with a dot, e.g. {number!r})"
    return ""


_TYPE_NAMES: dict[Any, str] = {
    str: "a string",
    int: "an integer (not a boolean)",
    float: "a number",
    bool: "true or false",
    list[int]: "a list of integers",
    list[str]: "a list of strings",
    dict[str, Any]: "a mapping of keyword arguments (string keys)",
}


def read_config_mapping(path: str | os.PathLike[str]) -> dict[Any, Any]:
    """The YAML mapping a config file holds, read as every config of the project is read (a
    bounded regular file, valid YAML, not nested too deeply, a mapping); ConfigError if not."""
    text = _read_config_text(Path(path))
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: not valid YAML: {_yaml_problem(exc)}") from exc
    except RecursionError as exc:
        raise ConfigError(f"{path}: not a config: YAML nested too deeply") from exc
    if not isinstance(data, dict):
        found = "an empty file" if data is None else f"a {type(data).__name__}"
        raise ConfigError(f"{path}: expected a mapping of config keys to values, found {found}")
    return data


def _read_config_text(path: Path) -> str:
    """The file's text: a regular file of at most :data:`MAX_CONFIG_BYTES`, in UTF-8."""
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            raise ConfigError(f"{path}: not a regular file (a folder, a device or a pipe)")
        if info.st_size > MAX_CONFIG_BYTES:
            raise ConfigError(
                f"{path}: {info.st_size} bytes; a config file is at most {MAX_CONFIG_BYTES} bytes"
            )
        raw = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the config file: {exc.strerror or exc}") from exc
    try:
        return raw[: MAX_CONFIG_BYTES + 1].decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"{path}: not a text file in UTF-8 (byte {exc.start}: {exc.reason}); a config is "
            "YAML text"
        ) from exc


def _yaml_problem(exc: yaml.YAMLError) -> str:
    """PyYAML's complaint in one line, with the line and column where it noticed it."""
    if not isinstance(exc, yaml.MarkedYAMLError) or exc.problem_mark is None:
        return " ".join(str(exc).split())
    mark = exc.problem_mark
    what = ", ".join(part for part in (exc.context, exc.problem) if part)
    return f"line {mark.line + 1}, column {mark.column + 1}: {what}"
