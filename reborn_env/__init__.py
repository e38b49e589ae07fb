"""reborn_env: tactical board games with hidden information as PettingZoo environments.

``from reborn_env import earth_reborn_v0`` gives the Earth Reborn environment and
``from reborn_env import haven_v0`` the cooperative haven environment; the rules engines
themselves (``reborn_env.games.earth_reborn.rules``, ``reborn_env.games.haven.rules``) are pure
Python and can be used without any RL library.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

__version__ = "0.1.0"
__all__ = ["earth_reborn_v0", "haven_v0"]


def __getattr__(name: str) -> ModuleType:
    """Import environment modules on first use, so the rules engine loads without pettingzoo."""
    if name in __all__:
        return import_module(f".{name}", __name__)
    raise AttributeError(f"module 'reborn_env' has no attribute {name!r}")
