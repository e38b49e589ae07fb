"""The PettingZoo AEC environment of Earth Reborn: the core environment over its rules (section 18).

The environment card (agents, actions, observations, rewards, versions) is the docstring of
:mod:`reborn_env.earth_reborn_v0`; the AEC logic is :class:`reborn_env.core.game_env.GameEnv`,
written once for every game, and this module only names the game and its options (``backend``
picks the compiled core or the reference engine; both behave the same; ``layout="universal"``
gives every scenario the one observation and action space of ``universal.py``, ER-UNI-1..5).
"""

from __future__ import annotations

from typing import Any

from ...core.game_env import RENDER_MODES, GameEnv
from .match import ENV_NAME
from .universal_match import rules_for


class raw_env(GameEnv):  # noqa: N801 - PettingZoo's naming convention
    """Earth Reborn, two players, one AEC step per decision of section 18."""

    metadata = {
        "name": ENV_NAME,
        "render_modes": RENDER_MODES,
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        render_mode: str | None = None,
        scenario: str | list[str] = "vault_raid",
        illegal_action: str = "raise",
        mp_shaping: float = 0.0,
        max_steps: int = 5000,
        backend: str | None = None,
        layout: str = "scenario",
    ) -> None:
        rules = rules_for(layout)(scenario, mp_shaping, max_steps, backend)
        super().__init__(rules, render_mode, illegal_action)  # ER-ENV-8
        self.scenario, self.codec, self.observer = rules.scenario, rules.codec, rules.observer
        self.mp_shaping, self.max_steps = rules.mp_shaping, rules.max_steps
        self.backend = rules.backend  # "fast" (the compiled core) or "python"


def env(**kwargs: Any) -> raw_env:
    """The environment as users get it: order checks and illegal-move handling are built in.

    PettingZoo's three standard wrappers would forward every attribute read and cost 2-4x on a
    game this size (docs/architecture.md); raw_env does their checks itself.
    """
    return raw_env(**kwargs)
