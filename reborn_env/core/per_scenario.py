"""One derived object per scenario object (an observer, a board's tables), built on first use.

Scenarios hold dicts, so they are not hashable; they are keyed by identity, and the scenario is
kept with its derived object so that a recycled ``id`` can never return a stale one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class PerScenario(Generic[T]):
    """``build(scenario)``, computed once per scenario object."""

    def __init__(self, build: Callable[[Any], T]) -> None:
        self._build = build
        self._cache: dict[int, tuple[Any, T]] = {}

    def __call__(self, scenario: Any) -> T:
        cached = self._cache.get(id(scenario))
        if cached is None or cached[0] is not scenario:
            cached = self._cache[id(scenario)] = (scenario, self._build(scenario))
        return cached[1]
