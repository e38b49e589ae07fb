"""The environments the trainer knows, by name, their sizes and how they are trained.

Configs and checkpoints name an environment by its PettingZoo name (``earth_reborn_v0``); this
registry turns the name into an AEC env. Env modules are imported inside the factories so that
reading a config or a checkpoint never pays for importing every rules engine.

Each env also declares its training *mode* (:data:`ENV_MODES`): ``competitive`` games (Earth
Reborn) are trained by self-play, the learner in one seat against an opponent; ``cooperative``
games (haven, where every agent shares the team reward) are trained with one policy acting for
every agent. A config may name the mode; by default it is taken from here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pettingzoo import AECEnv


def _earth_reborn_v0(**kwargs: Any) -> AECEnv:
    from reborn_env import earth_reborn_v0

    return earth_reborn_v0.env(**kwargs)


def _haven_v0(**kwargs: Any) -> AECEnv:
    from reborn_env import haven_v0

    return haven_v0.env(**kwargs)


ENVS: dict[str, Callable[..., AECEnv]] = {
    "earth_reborn_v0": _earth_reborn_v0,
    "haven_v0": _haven_v0,
}
"""Environment name -> factory taking the env's constructor keyword arguments."""

COMPETITIVE, COOPERATIVE = "competitive", "cooperative"
MODES = (COMPETITIVE, COOPERATIVE)
ENV_MODES: dict[str, str] = {"earth_reborn_v0": COMPETITIVE, "haven_v0": COOPERATIVE}
"""Environment name -> how it is trained; an env missing here is competitive unless its config
says otherwise."""


def _check_name(name: str) -> None:
    if name not in ENVS:
        raise ValueError(f"unknown env {name!r}; known envs: {', '.join(sorted(ENVS))}")


def make_env(name: str, **kwargs: Any) -> AECEnv:
    """The AEC env called ``name``, built with ``kwargs`` (e.g. ``scenario``, ``max_steps``)."""
    _check_name(name)
    return ENVS[name](**kwargs)


def env_mode(name: str) -> str:
    """The training mode env ``name`` declares: ``"competitive"`` (the default) or
    ``"cooperative"``."""
    return ENV_MODES.get(name, COMPETITIVE)


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
