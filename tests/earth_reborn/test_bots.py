"""The bot interface, the scripted Earth Reborn bot and the match runner (reborn_env.bots).

Bots see only (observation, action_mask), so every test drives them through the environment: they
must answer every decision of full games legally in both seats, the arena must count and
reproduce matches, its Wilson interval must match a hand computation, and the heuristic must beat
random play clearly. Measured with ``play_match(earth_reborn_v0.env,
EarthRebornHeuristicBot(seed=0), RandomBot(seed=0), games=100, seed=s)`` for s in 0, 1000, 5000,
the heuristic won 99-100% in each seat (598 of 600 games, 2 draws), so the 0.75 floor below fails
only if it really got worse.
"""

from __future__ import annotations

import numpy as np
import pytest

from reborn_env import earth_reborn_v0
from reborn_env.bots import Bot, MatchResult, RandomBot, play_match
from reborn_env.bots.arena import Record, wilson_interval
from reborn_env.games.earth_reborn.bots import EarthRebornHeuristicBot, ObservationReader
from reborn_env.games.earth_reborn.rules.state import DECISIONS


def _play_checked(bots: dict[str, Bot], seed: int) -> int:
    """One game; asserts each action is in the mask; returns the number of decisions."""
    env = earth_reborn_v0.env()
    env.reset(seed=seed)
    for bot in bots.values():
        bot.reset()
    decisions = 0
    for agent in env.agent_iter():
        obs, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        action = bots[agent].act(obs["observation"], obs["action_mask"])
        assert isinstance(action, int)
        assert obs["action_mask"][action] == 1, f"{agent} chose illegal {env.action_name(action)}"
        env.step(action)
        decisions += 1
    assert all(env.terminations.values()), "the game was truncated instead of finishing"
    return decisions


def test_bots_implement_the_one_interface():
    assert isinstance(RandomBot(seed=0), Bot)
    assert isinstance(EarthRebornHeuristicBot(seed=0), Bot)


@pytest.mark.parametrize("seed", range(3))
def test_random_bot_plays_only_legal_actions_in_both_seats(seed):
    assert _play_checked({"norad": RandomBot(seed), "salemite": RandomBot(seed + 100)}, seed) > 0


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("seat", ["norad", "salemite"])
def test_heuristic_bot_plays_only_legal_actions_in_both_seats(seat, seed):
    other = "salemite" if seat == "norad" else "norad"
    bots = {seat: EarthRebornHeuristicBot(seed=seed), other: RandomBot(seed)}
    assert _play_checked(bots, seed) > 0


@pytest.mark.parametrize("seed", range(3))
def test_heuristic_bots_play_each_other_to_the_end(seed):
    bots = {"norad": EarthRebornHeuristicBot(seed=1), "salemite": EarthRebornHeuristicBot(seed=2)}
    assert _play_checked(bots, seed) > 0


@pytest.mark.parametrize("seed", range(6))
def test_heuristic_bot_takes_over_a_randomly_played_game(seed):
    """Odd positions (a random pick from the discard, half-built orders) still get legal answers."""
    env = earth_reborn_v0.env()
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    random_steps = int(rng.integers(50, 300))
    bots = {a: EarthRebornHeuristicBot(seed=seed) for a in env.possible_agents}
    for step, agent in enumerate(env.agent_iter()):
        obs, _, termination, truncation, _ = env.last()
        mask = obs["action_mask"]
        if termination or truncation:
            action = None
        elif step < random_steps:
            action = int(rng.choice(np.flatnonzero(mask)))
        else:
            action = bots[agent].act(obs["observation"], mask)
            assert mask[action] == 1
        env.step(action)
    assert all(env.terminations.values())


def test_random_bot_is_reproducible_with_a_seed():
    mask = np.zeros(203, dtype=np.int8)
    mask[[3, 50, 120, 200]] = 1
    obs = np.zeros(954, dtype=np.float32)
    first, second = RandomBot(seed=9), RandomBot(seed=9)
    picks = [first.act(obs, mask) for _ in range(20)]
    assert picks == [second.act(obs, mask) for _ in range(20)]
    assert set(picks) <= {3, 50, 120, 200} and len(set(picks)) > 1


def test_the_heuristic_reads_the_table_as_the_engine_holds_it():
    """ObservationReader's view matches the game state on everything public, over a game."""
    env = earth_reborn_v0.env()
    env.reset(seed=4)
    game = env.unwrapped.game
    reader = ObservationReader(game.scenario)
    rng = np.random.default_rng(4)
    for agent in env.agent_iter():
        obs, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        me = env.unwrapped.agent_index[agent]
        view = reader.read(obs["observation"])
        assert view.me == me and view.decision == game.decision
        assert view.cp == game.cp[me] and view.hand == tuple(game.hands[me])
        assert view.doors == tuple(game.doors) and view.hacked == tuple(game.hacked)
        assert view.mvp == game.mvp
        for fig, ch in zip(view.figures, game.chars, strict=True):
            assert (fig.square, fig.facing, fig.alive) == (ch.square, ch.facing, not ch.dead)
            assert fig.mine == (game.faction_of[fig.index] == me)
            assert fig.has_card == (ch.cards > 0) and fig.engaged == ch.engaged
            assert fig.cp_left == max(game.stats(fig.index).maxcp - ch.cp_spent, 0)
            assert [s.cp for s in fig.sections] == [cp for t in ch.tiles for cp in t.cp]
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert game.decision in DECISIONS


def test_play_match_counts_every_game_per_seat_and_reproduces():
    def match() -> MatchResult:
        bot_a, bot_b = EarthRebornHeuristicBot(seed=3), RandomBot(seed=3)
        return play_match(earth_reborn_v0.env, bot_a, bot_b, games=3, seed=11)

    first = match()
    assert list(first.seats) == ["norad", "salemite"]
    for record in first.seats.values():
        assert record.wins + record.draws + record.losses == record.games == 3
    assert first.overall.games == 6
    assert first.overall.wins == sum(r.wins for r in first.seats.values())
    assert match() == first
    assert match().score_line() == first.score_line()


def test_wilson_interval_matches_a_hand_computation():
    """48 of 50, z = 1.96: centre (0.96 + 3.8416/100) / (1 + 3.8416/50) = 0.927179; half width
    1.96 / 1.076832 * sqrt(0.96 * 0.04 / 50 + 3.8416 / 10000) = 1.820154 * 0.033944 = 0.061783."""
    low, high = wilson_interval(48, 50)
    assert low == pytest.approx(0.865396, abs=1e-5)
    assert high == pytest.approx(0.988962, abs=1e-5)
    # 0 of 10: centre = half width = 0.19208 / 1.38416 = 0.138770.
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.277540), abs=1e-5)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_match_result_reports_wins_draws_losses_with_intervals():
    result = MatchResult({"norad": Record(48, 2, 0), "salemite": Record(40, 5, 5)})
    assert result.overall == Record(88, 7, 5)
    assert result.wilson("norad") == pytest.approx(wilson_interval(48, 50))
    assert result.wilson() == pytest.approx(wilson_interval(88, 100))
    line = result.score_line()
    assert line.startswith("norad 48/2/0 (96.0% [86.5, 98.9]) | salemite 40/5/5 (80.0% [")
    assert line.endswith("| overall 88/7/5 (88.0% [80.2, 93.0])")


def test_heuristic_bot_beats_random_play_clearly():
    """20 games per seat, against 99-100% per seat measured over 100 (module docstring)."""
    result = play_match(
        earth_reborn_v0.env, EarthRebornHeuristicBot(seed=0), RandomBot(seed=0), 20, seed=1000
    )
    assert result.overall.win_rate >= 0.75, result.score_line()
