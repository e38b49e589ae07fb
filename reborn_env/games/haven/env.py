"""The PettingZoo AEC environment of haven: the core environment over its rules (section 16).

The environment card (agents, actions, observations, rewards, config) is the docstring of
:mod:`reborn_env.haven_v0`; the AEC logic is :class:`reborn_env.core.game_env.GameEnv`, written
once for every game, and this module only names the game and its 16.8 options.
"""

from __future__ import annotations

from typing import Any

from ...core.game_env import RENDER_MODES, GameEnv
from .match import ENV_NAME, HavenRules


class raw_env(GameEnv):  # noqa: N801 - PettingZoo's naming convention
    """haven, two cooperating characters, one AEC step per prompt of 16.2 (HV-API-1/2)."""

    metadata = {
        "name": ENV_NAME,
        "render_modes": RENDER_MODES,
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        render_mode: str | None = None,
        scenario: str = "raider_camp",
        illegal_action: str = "raise",
        event_feed: bool = False,
        backend: str | None = None,
        **config: Any,
    ) -> None:
        """``event_feed``: each agent's infos carry its HV-API-8 event feed (lists of dicts,
        which trainers' buffers refuse: off by default). ``backend``: ``"fast"`` (the compiled
        core), ``"python"`` (the reference) or None, the core where it is built (as for
        earth_reborn_v0; ``$REBORN_ENV_BACKEND`` sets the default). ``config``: the 16.8 options
        by name, their defaults and checks those of :class:`~.rules.config.HavenConfig` (an
        unknown one is a TypeError listing them)."""
        rules = HavenRules(scenario, event_feed, backend, **config)
        super().__init__(rules, render_mode, illegal_action)  # HV-API-5
        self.scenario, self.config, self.observer = rules.scenario, rules.config, rules.observer
        self.backend = rules.backend  # "fast" (the compiled core) or "python"


def env(**kwargs: Any) -> raw_env:
    """The environment as users get it: order checks and illegal-move handling are built in.

    As for earth_reborn_v0, PettingZoo's standard wrappers would only repeat checks raw_env
    already makes (HV-API-5) and slow every step down; ``env`` returns raw_env itself.
    """
    return raw_env(**kwargs)
