"""Fixtures of the compiled core's tests: the core's ``Games`` class, and the environments on a
backend. A missing core is a failure here, never a skip: the suite exists to prove the core."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from reborn_env import earth_reborn_v0
from reborn_env.games.earth_reborn import fast


@pytest.fixture(scope="session")
def core() -> Any:
    """The extension module ``fast._core``; the test fails, naming why, if it did not import."""
    assert fast.AVAILABLE, f"the compiled Earth Reborn core is not available: {fast.IMPORT_ERROR}"
    return fast.core


@pytest.fixture(scope="session")
def fast_games(core: Any) -> type:
    """The core's ``Games`` class."""
    return core.Games


@pytest.fixture(scope="session")
def make_env(core: Any) -> Callable[..., Any]:
    """``make_env(backend, **options)``: ``earth_reborn_v0.env`` on that backend."""
    return lambda backend, **options: earth_reborn_v0.env(backend=backend, **options)


@pytest.fixture(scope="session")
def make_vector(core: Any) -> Callable[..., Any]:
    """``earth_reborn_v0.vector_env`` on the core (``backend="fast"``, never the fallback)."""
    return lambda **options: earth_reborn_v0.vector_env(backend="fast", **options)
