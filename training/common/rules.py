"""What a config key's value may be: a test and the words that say what passes it.

Each trainer's config declares one :class:`Rule` per field (``training.common.schema.setting``);
the rules and limits every trainer shares are here, so a seed, a layer width or a probability is
refused in the same words by PPO, NFSP and RLlib. Every number rule refuses infinities and NaN.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from training.common.envs import env_names

MAX_INT = 2**63 - 1
"""Largest integer any key takes (torch's and numpy's 64-bit integers; seeds included)."""
MAX_NUM_ENVS = 1024
MAX_HIDDEN_LAYERS = 8
MAX_HIDDEN_WIDTH = 2048
MAX_TORCH_THREADS = 256
MAX_VECTOR_THREADS = 64


@dataclass(frozen=True)
class Rule:
    """A test a key's value must pass, and what is allowed, as an error message says it."""

    holds: Callable[[Any], bool]
    allowed: str | Callable[[], str]
    """"must be ...": a callable when it lists something only known at run time (the games)"""

    def words(self) -> str:
        """What is allowed, in words."""
        return self.allowed() if callable(self.allowed) else self.allowed


def names(values: Sequence[str]) -> str:
    """``'a', 'b'``: allowed values as an error message lists them."""
    return ", ".join(map(repr, values))


def integer(low: int, high: int = MAX_INT, allowed: str | None = None) -> Rule:
    """An integer in ``low..high``; the words say ``> 0`` for positive ones unless given."""
    floor = "> 0" if low == 1 else f">= {low}"
    words = f"must be an integer {floor}" + ("" if high == MAX_INT else f" and at most {high}")
    return Rule(lambda v: low <= v <= high, allowed or words)


def number(test: Callable[[float], bool], allowed: str) -> Rule:
    """A finite number that passes ``test``."""
    return Rule(lambda v: math.isfinite(v) and test(v), allowed)


def choice(options: Sequence[str] | Callable[[], Sequence[str]]) -> Rule:
    """One of ``options`` (or of what ``options()`` returns when checked)."""
    if callable(options):
        return Rule(lambda v: v in options(), lambda: f"must be one of {names(options())}")
    return Rule(lambda v: v in options, f"must be one of {names(options)}")


def non_empty(what: str) -> Rule:
    """A non-empty string, ``what`` naming what it is (a path, a bot name)."""
    return Rule(bool, f"must be a non-empty {what}")


def _layer_widths_fit(sizes: list[int]) -> bool:
    return 0 < len(sizes) <= MAX_HIDDEN_LAYERS and all(0 < s <= MAX_HIDDEN_WIDTH for s in sizes)


POSITIVE = integer(1)
COUNT = integer(0)
SEED = integer(0, allowed=f"must be an integer in 0..2**63-1 ({MAX_INT})")
NUM_ENVS = integer(1, MAX_NUM_ENVS)
TORCH_THREADS = integer(1, MAX_TORCH_THREADS)
VECTOR_THREADS = integer(1, MAX_VECTOR_THREADS)
POSITIVE_NUMBER = number(lambda v: v > 0, "must be a finite number > 0")
NON_NEGATIVE_NUMBER = number(lambda v: v >= 0, "must be a finite number >= 0")
UNIT_HALF_OPEN = number(lambda v: 0.0 < v <= 1.0, "must be in (0, 1]")
PROBABILITY = number(lambda v: 0.0 <= v <= 1.0, "must be a probability in [0, 1]")
ENV = choice(env_names)
LAYER_WIDTHS = Rule(
    _layer_widths_fit,
    f"must be a non-empty list of at most {MAX_HIDDEN_LAYERS} layer widths, each an integer "
    f"in 1..{MAX_HIDDEN_WIDTH}",
)
"""The hidden layers of a trainer's network: the largest allowed has about 34 M parameters on a
2132-float observation, the largest a bundled game has (135 MB of float32 weights)."""
