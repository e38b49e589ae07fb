"""Fixtures the Earth Reborn tests share: the default scenario, Vault Raid, loaded per module."""

from __future__ import annotations

import pytest

from reborn_env.games.earth_reborn.scenario.loader import load_scenario
from reborn_env.games.earth_reborn.scenario.model import Scenario


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    """The default scenario as the loader gives it (rules spec section 19)."""
    return load_scenario()
