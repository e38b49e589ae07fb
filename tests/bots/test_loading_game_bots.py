"""load_bot takes every bot a game registers by its name (GameSpec.bots), not only "heuristic",
so a front-end, the tournament or the bot server can seat any of them."""

from __future__ import annotations

import pytest

from reborn_env.bots.loading import load_bot
from reborn_env.core import registry

REGISTERED = [(game, name) for game in registry.names() for name in registry.get(game).bots]
ON_OTHER_SCENARIOS = [
    (game, name, scenario)
    for game, name in REGISTERED
    for scenario in registry.get(game).scenario_names()
    if scenario != registry.get(game).default_scenario
]


@pytest.mark.parametrize(("game", "name"), REGISTERED, ids=[f"{g}:{n}" for g, n in REGISTERED])
def test_every_registered_bot_loads_by_name_and_answers_legally(game, name):
    spec = registry.get(game)
    bot = load_bot(name, game, seed=0)
    assert type(bot) is registry.resolve(spec.bots[name])
    env = spec.make_env()
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    assert obs["action_mask"][bot.act(obs["observation"], obs["action_mask"])] == 1


@pytest.mark.parametrize(
    ("game", "name", "scenario"), ON_OTHER_SCENARIOS, ids=[":".join(c) for c in ON_OTHER_SCENARIOS]
)
def test_a_registered_bot_plays_a_whole_game_of_another_bundled_scenario(game, name, scenario):
    """load_bot(..., scenario=) gives the bot that reads that scenario's observation (its size
    differs from the default's): it answers every decision of a game legally."""
    bot = load_bot(name, game, seed=0, scenario=scenario)
    env = registry.get(game).make_env(scenario=scenario)
    env.reset(seed=0)
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        action = (
            None if terminated or truncated else bot.act(obs["observation"], obs["action_mask"])
        )
        assert action is None or obs["action_mask"][action] == 1, agent
        env.step(action)


def test_a_name_no_game_registers_is_still_refused():
    with pytest.raises(ValueError, match="bot spec 'minimax'"):
        load_bot("minimax", registry.default_name())
