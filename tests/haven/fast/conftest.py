"""Fixtures of the compiled observer's tests: the bundled scenarios and their observers.

A missing core is a failure here, never a skip, as for Earth Reborn's core: these tests exist to
prove the compiled pieces identical to the Python.
"""

from __future__ import annotations

import pytest

from reborn_env.games.haven import fast
from reborn_env.games.haven.scenario.loader import load_scenario
from reborn_env.games.haven.scenario.model import Scenario
from tests.haven.helpers import BUNDLED

SCENARIOS = BUNDLED


def need_core() -> None:
    """Fail, naming why, where the compiled core did not import."""
    assert fast.AVAILABLE, f"haven's compiled core is not available: {fast.IMPORT_ERROR}"


@pytest.fixture(scope="session")
def scenarios() -> dict[str, Scenario]:
    """The bundled scenarios, loaded once by name."""
    return {name: load_scenario(name) for name in SCENARIOS}


@pytest.fixture(scope="session", params=SCENARIOS)
def scn(request: pytest.FixtureRequest, scenarios: dict[str, Scenario]) -> Scenario:
    return scenarios[request.param]


@pytest.fixture()
def core_needed() -> None:
    need_core()
