"""Fixtures the haven tests share: the default scenario, Raider Camp, loaded once per module."""

from __future__ import annotations

import pytest

from reborn_env.games.haven.scenario.loader import load_scenario
from reborn_env.games.haven.scenario.model import Scenario


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    """The default scenario as the loader gives it (haven.md section 15)."""
    return load_scenario()
