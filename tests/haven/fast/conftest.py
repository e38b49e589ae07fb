"""Fixtures of the compiled observer's tests: the two bundled scenarios and their observers.

A core that should have been built here (``fast.build_expected()``: C sources and a compiler) and
did not import fails the test that asks for it; only where no compiler exists are these skipped.
"""

from __future__ import annotations

import pytest

from reborn_env.games.haven import fast
from reborn_env.games.haven.scenario.loader import load_scenario
from reborn_env.games.haven.scenario.model import Scenario

SCENARIOS = ("raider_camp", "mire_crossing")


def need_core() -> None:
    """Fail where the core should be built and is not; skip where it cannot be built."""
    if fast.build_expected():
        assert fast.AVAILABLE, f"haven's compiled core was not built: {fast.IMPORT_ERROR}"
    elif not fast.AVAILABLE:
        pytest.skip(f"no C compiler here, so no compiled core ({fast.IMPORT_ERROR})")


@pytest.fixture(scope="session")
def scenarios() -> dict[str, Scenario]:
    """Both bundled scenarios, loaded once: Raider Camp (the default) and Mire Crossing."""
    return {name: load_scenario(name) for name in SCENARIOS}


@pytest.fixture(scope="session", params=SCENARIOS)
def scn(request: pytest.FixtureRequest, scenarios: dict[str, Scenario]) -> Scenario:
    return scenarios[request.param]


@pytest.fixture()
def core_needed() -> None:
    need_core()
