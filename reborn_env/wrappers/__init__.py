"""Adapters from reborn_env's PettingZoo games to other interfaces.

:class:`SingleAgentEnv` turns one seat of a masked AEC env into a ``gymnasium.Env`` (the other
seats played by a fixed bot), for single-agent libraries such as Stable-Baselines3 and
sb3-contrib's ``MaskablePPO``.
"""

from __future__ import annotations

from .single_agent import SingleAgentEnv

__all__ = ["SingleAgentEnv"]
