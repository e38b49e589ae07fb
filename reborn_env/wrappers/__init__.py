"""Adapters from reborn_env's PettingZoo games to other interfaces.

:class:`SingleAgentEnv` turns one seat of a masked AEC env into a ``gymnasium.Env`` (the other
seats played by a fixed bot), for single-agent libraries such as Stable-Baselines3 and
sb3-contrib's ``MaskablePPO``; :class:`SingleAgentVectorEnv` is that seat in many games at once,
a ``gymnasium.vector.VectorEnv`` over the game's vector of games (its opponent a batched bot).
"""

from __future__ import annotations

from .single_agent import SingleAgentEnv
from .vector import SingleAgentVectorEnv

__all__ = ["SingleAgentEnv", "SingleAgentVectorEnv"]
