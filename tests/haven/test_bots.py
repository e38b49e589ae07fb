"""The scripted haven bot: it reads the observation right, answers every prompt by its own rules
with a legal action, and wins clearly more often than random play."""

from __future__ import annotations

import numpy as np
import pytest

from reborn_env import haven_v0
from reborn_env.bots import RandomBot
from reborn_env.bots.loading import load_bot
from reborn_env.games.haven.bots import HavenScriptedBot
from reborn_env.games.haven.rules.hexgrid import cell_id
from tests.haven.helpers import BUNDLED
from training.bench.evaluate import TeamResult, evaluate_team, play_team

SEED = 7000  # first seed of the fixed games below


def test_reader_decodes_the_opening_observation():
    """Start of Raider Camp (15.1): the Bulwark at (1,2) with 10 HP and 9 cards, five monsters."""
    env = haven_v0.env()
    env.reset(seed=3)
    bot = HavenScriptedBot()
    view = bot.reader.read(env.observe("bulwark")["observation"])
    assert view.me == 0 and view.prompt == "SELECT_LEAD"
    assert view.my_figure is not None and view.my_figure.cell == cell_id(1, 2)
    assert (view.mine.hp, view.mine.max_hp, view.mine.hand) == (10, 10, tuple(range(9)))
    monsters = sorted((m.kind, m.cell, m.hp, m.elite) for m in view.monsters())
    assert monsters == [
        ("marauder", cell_id(7, 2), 5, False),
        ("marauder", cell_id(7, 4), 8, True),
        ("marauder", cell_id(6, 5), 5, False),
        ("slinger", cell_id(8, 3), 4, False),
        ("slinger", cell_id(7, 6), 6, True),
    ]
    other = bot.reader.read(env.observe("conjurer")["observation"])
    assert other.me == 1 and other.my_figure.cell == cell_id(1, 4) and other.mine.hp == 7


def test_load_bot_names_the_scripted_bot_for_haven():
    assert isinstance(load_bot("heuristic", "haven_v0", seed=1), HavenScriptedBot)


@pytest.mark.parametrize("scenario", BUNDLED)
def test_scripted_bot_plays_legal_actions_by_its_rules_over_full_games(scenario):
    """Eight whole games of each bundled scenario (section 15, section 22), one bot playing both
    characters: every action is legal (the env raises on an illegal one) and no prompt falls
    through to the random fallback."""
    env = haven_v0.env(scenario=scenario)
    bot = HavenScriptedBot(scenario, seed=0)
    decisions = 0
    for game in range(8):
        env.reset(seed=SEED + game)
        for _agent in env.agent_iter():
            obs, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            action = bot.act(obs["observation"], obs["action_mask"])
            assert obs["action_mask"][action] == 1
            env.step(action)
            decisions += 1
        assert env.unwrapped.game.outcome in ("win", "loss")
    assert decisions > 8 * 50 and bot.fallbacks == 0


def test_scripted_bot_wins_clearly_more_often_than_random_play():
    """60 fixed seeds, every agent played by the same kind of bot.

    Measured when written: on these 60 seeds the scripted team won 24 (40%, 95% interval
    [28.6, 52.6]) and random play none ([0, 6.0]); on seeds 5000-5199 the scripted team won 69
    of 200 (34.5% [28.3, 41.3]) and random play none. The bounds (at least 10 against at most 2)
    leave room for rule or bot changes that halve the scripted rate without letting the gap close.
    """
    scripted = evaluate_team("heuristic", "haven_v0", games=60, seed=SEED)
    random_play = evaluate_team("random", "haven_v0", games=60, seed=SEED)
    assert scripted.wins >= 10, scripted.summary()
    assert random_play.wins <= 2, random_play.summary()
    assert scripted.mean_rounds > random_play.mean_rounds


def test_play_team_reports_length_and_outcome_per_game():
    result = play_team(haven_v0.env, lambda: RandomBot(3), games=3, seed=11)
    assert isinstance(result, TeamResult) and result.games == 3
    assert len(result.rounds) == len(result.steps) == 3
    assert all(r >= 1 for r in result.rounds) and all(s > 0 for s in result.steps)
    low, high = result.wilson()
    assert 0.0 <= low <= result.win_rate <= high <= 1.0


def test_bot_refuses_an_empty_mask():
    env = haven_v0.env()
    env.reset(seed=0)
    obs = env.observe("bulwark")["observation"]
    with pytest.raises(ValueError, match="no legal action"):
        HavenScriptedBot().act(obs, np.zeros(87, dtype=np.int8))
