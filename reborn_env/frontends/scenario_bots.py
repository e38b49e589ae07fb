"""Whether a bot can play a scenario's env: a policy takes the sizes it was trained on.

Why: a game's own bots are made for the scenario they play (``load_bot(..., scenario=)``), but a
policy file plays only observations and masks of the sizes it was trained on, whatever scenario
it is asked to play. The front-ends that let a person or a client name a scenario check this
where they make the bot, so a misfit is a clear error before the game, never a crash in it.
"""

from __future__ import annotations

from typing import Any


def bot_sizes(bot: object) -> tuple[int, int] | None:
    """``(observation size, number of actions)`` a policy bot takes (a policy file's
    ``obs_size`` and ``n_actions``, an exported policy's ``metadata``); None for a bot that
    reads any size (random, scripted, search)."""
    source = getattr(bot, "metadata", bot)
    obs_size, n_actions = getattr(source, "obs_size", None), getattr(source, "n_actions", None)
    if isinstance(obs_size, int) and isinstance(n_actions, int):
        return obs_size, n_actions
    return None


def env_sizes(env: Any, agent: str) -> tuple[int, int]:
    """``(observation size, number of actions)`` of ``agent``'s decisions in ``env``."""
    return int(env.observation_space(agent)["observation"].shape[0]), int(env.action_space(agent).n)


def misfit(bot: object, env: Any, agent: str, scenario: str) -> str | None:
    """Why ``bot`` cannot play ``agent``'s seat of ``env`` (of ``scenario``), or None if it can."""
    wanted = bot_sizes(bot)
    given = env_sizes(env, agent)
    if wanted is None or wanted == given:
        return None
    return (
        f"this policy takes observations of size {wanted[0]} and {wanted[1]} actions, but "
        f"scenario {scenario!r} gives {given[0]} and {given[1]}: a policy plays the scenario it "
        "was trained on, so name that one"
    )
