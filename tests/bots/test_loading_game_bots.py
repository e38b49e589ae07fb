"""load_bot takes every bot a game registers by its name (GameSpec.bots), not only "heuristic",
so a front-end, the tournament or the bot server can seat any of them."""

from __future__ import annotations

import pytest

from reborn_env.bots.loading import load_bot
from reborn_env.core import registry

REGISTERED = [(game, name) for game in registry.names() for name in registry.get(game).bots]


@pytest.mark.parametrize(("game", "name"), REGISTERED, ids=[f"{g}:{n}" for g, n in REGISTERED])
def test_every_registered_bot_loads_by_name_and_answers_legally(game, name):
    spec = registry.get(game)
    bot = load_bot(name, game, seed=0)
    assert type(bot) is registry.resolve(spec.bots[name])
    env = spec.make_env()
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    assert obs["action_mask"][bot.act(obs["observation"], obs["action_mask"])] == 1


def test_a_name_no_game_registers_is_still_refused():
    with pytest.raises(ValueError, match="bot spec 'minimax'"):
        load_bot("minimax", registry.default_name())
