"""The environments the trainer knows, by name, their sizes and how they are trained.

Configs and checkpoints name an environment by its registered name (``reborn_env.core.registry``,
e.g. ``registry.default_name()``); this module turns the name into an AEC env. The registry keeps
each game's factory as a lazy ``"module:attribute"`` string, so reading a config or a checkpoint
never pays for importing every rules engine.

Each game's facts say how it is trained (``GameFacts.kind``, ``reborn_env.core.facts``):
``competitive`` (zero-sum) games are trained by self-play, the learner in one seat against an
opponent; ``cooperative`` games (identical utility: every agent shares the team reward) are
trained with one policy acting for every agent. A config may name the mode; by default it is the
game's.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from reborn_env.core import registry
from reborn_env.core.vector_env import GameVector

COMPETITIVE, COOPERATIVE = "competitive", "cooperative"
MODES = (COMPETITIVE, COOPERATIVE)


def env_names() -> list[str]:
    """Every environment the trainer can build: the registry's games, sorted."""
    return registry.names()


def _check_name(name: str) -> None:
    if name not in env_names():
        raise ValueError(f"unknown env {name!r}; known envs: {', '.join(env_names())}")


def make_env(name: str, **kwargs: Any) -> AECEnv:
    """The AEC env called ``name``, built with ``kwargs`` (e.g. ``scenario``, ``max_steps``)."""
    _check_name(name)
    return registry.get(name).make_env(**kwargs)


def make_vector_env(
    name: str, num_envs: int, seed: int, num_threads: int = 1, **kwargs: Any
) -> GameVector:
    """``num_envs`` games of env ``name`` as one vector (``GameSpec.make_vector_env``: the game's
    compiled core, stepping with ``num_threads``, or its AEC envs in a loop), from ``seed``."""
    _check_name(name)
    return registry.get(name).make_vector_env(num_envs, seed, num_threads, **kwargs)


def observation_layout(name: str, kwargs: dict[str, Any]) -> Any:
    """The named fields of env ``name``'s observation (``env.unwrapped.observation_layout``,
    ``reborn_env.core.observation_views.Layout``), or None if the game declares none."""
    env = make_env(name, **kwargs)
    try:
        return getattr(env.unwrapped, "observation_layout", None)
    finally:
        env.close()


def env_mode(name: str) -> str:
    """How env ``name`` is trained: ``"cooperative"`` if its game's facts make it one team, else
    (an unknown env too, which fails where it is built) ``"competitive"``."""
    known = name in env_names()
    return COOPERATIVE if known and registry.get(name).facts.cooperative else COMPETITIVE


def env_version(name: str) -> int:
    """The version of env ``name``: the number after PettingZoo's ``_v`` suffix (0 for ``_v0``)."""
    _check_name(name)
    return int(name.rsplit("_v", 1)[1])


def env_sizes(name: str, **kwargs: Any) -> tuple[int, int]:
    """``(obs_size, n_actions)`` of env ``name`` built with ``kwargs``; every agent must agree.

    The observation must be PettingZoo's action-mask dict: ``{"observation": Box((obs_size,)),
    "action_mask": Box((n_actions,))}`` with a ``Discrete(n_actions)`` action space.
    """
    env = make_env(name, **kwargs)
    try:
        sizes = {
            (
                int(env.observation_space(agent)["observation"].shape[0]),
                int(env.action_space(agent).n),
            )
            for agent in env.possible_agents
        }
    finally:
        env.close()
    if len(sizes) != 1:
        raise ValueError(f"env {name!r}: agents have different (obs_size, n_actions): {sizes}")
    return sizes.pop()
