"""Every registered game in PettingZoo's registry and Gymnasium's, as their users expect.

Importing this module registers, for each game of :mod:`reborn_env.core.registry`:

- its AEC environment with PettingZoo as ``reborn_env/<name>``:
  ``pettingzoo.make("aec", "reborn_env/<name>", **env_kwargs)`` (PettingZoo spells the id with
  ``-vN`` as well: ``reborn_env/<game>-v0`` and ``reborn_env/<game>_v0`` are the same);
- one seat of it as a single-agent Gymnasium env (:class:`~reborn_env.wrappers.SingleAgentEnv`)
  as ``reborn_env/<game>-vN``: ``gymnasium.make("reborn_env/<game>-v0", agent=..., opponent=...,
  env_kwargs=..., illegal_action=...)``. Gymnasium imports a module named before a colon first,
  so ``gymnasium.make("reborn_env.envs:reborn_env/<game>-v0")`` needs no import of this module;
- under the same id, many games of that seat as one Gymnasium vector env over the game's vector
  (:class:`~reborn_env.wrappers.SingleAgentVectorEnv`, its opponent a batched bot):
  ``gymnasium.make_vec("reborn_env/<game>-v0", num_envs=N, opponent=...)``.

Why a module of its own: ``import reborn_env`` stays free of pettingzoo and gymnasium (the rules
engines need neither); registering is one explicit import. Factories stay lazy strings, so
registering imports no game's rules.
"""

from __future__ import annotations

import re

import gymnasium
import pettingzoo

from .core import registry

NAMESPACE = "reborn_env"
_VERSIONED = re.compile(r"^(?P<base>.+)_v(?P<version>\d+)$")


def pettingzoo_id(name: str) -> str:
    """The PettingZoo id of game ``name``: ``reborn_env/<name>``."""
    return f"{NAMESPACE}/{name}"


def gymnasium_id(name: str) -> str:
    """The Gymnasium id of game ``name``'s single-agent env: its ``_vN`` suffix written the
    Gymnasium way, ``reborn_env/<base>-vN`` (a name without one keeps it whole)."""
    versioned = _VERSIONED.match(name)
    if versioned is None:
        return f"{NAMESPACE}/{name}"
    return f"{NAMESPACE}/{versioned['base']}-v{versioned['version']}"


def register_all() -> list[str]:
    """Register every game of the registry with PettingZoo and Gymnasium (again, for one
    registered since: ids already there are left as they are); the names registered now."""
    added = []
    for name in registry.names():
        if gymnasium_id(name) in gymnasium.registry:
            continue
        spec = registry.get(name)
        pettingzoo.register("aec", pettingzoo_id(name), entry_point=spec.env)
        gymnasium.register(
            gymnasium_id(name),
            entry_point="reborn_env.wrappers.single_agent:SingleAgentEnv",
            vector_entry_point="reborn_env.wrappers.vector:SingleAgentVectorEnv",
            kwargs={"game": name},
        )
        added.append(name)
    return added


register_all()
