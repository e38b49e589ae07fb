"""The shipped checkpoint: it loads for this environment, plays only legal moves, beats random.

checkpoints/earth_reborn_ppo.pt is what a user downloads with the repository; if the environment's
observation or action layout ever changes, this test says the checkpoint must be retrained.
"""

from __future__ import annotations

from pathlib import Path

from reborn_env import earth_reborn_v0
from reborn_env.bots import RandomBot, play_match
from reborn_env.bots.loading import load_bot
from reborn_env.policies.artifact import load_checkpoint

SHIPPED = Path(__file__).resolve().parents[2] / "checkpoints" / "earth_reborn_ppo.pt"


def test_shipped_checkpoint_matches_the_environment():
    env = earth_reborn_v0.env()
    payload = load_checkpoint(
        SHIPPED,
        expect_env="earth_reborn_v0",
        expect_obs_size=env.observation_space("norad")["observation"].shape[0],
        expect_n_actions=int(env.action_space("norad").n),
    )
    assert payload["env"]["version"] == 0
    assert SHIPPED.stat().st_size < 4 * 2**20  # a few MB at most


def test_shipped_policy_beats_the_random_bot_in_both_seats():
    """A learning test: 10 seeded games per seat; the policy must win at least 9 in each."""
    bot = load_bot(str(SHIPPED), seed=0)
    result = play_match(earth_reborn_v0.env, bot, RandomBot(1), games=10, seed=555)
    for seat, record in result.seats.items():
        assert record.wins >= 9, f"{seat}: {result.score_line()}"


def test_shipped_policy_beats_the_heuristic_bot_in_both_seats():
    """100 seeded games per seat in the game vector, greedy (the model card has 1,000 a seat):
    measured when shipped, 96.7% as NORAD and 83.7% as Salemite over 1,000 games a seat, and
    98/100 and 84/100 on these deals. Here it must win 170 of 200 (issue 12's 85% overall), 90 as
    NORAD and 75 as Salemite (above the issue's 70% a seat): a few games below what it won."""
    from training.bench.matches import play_vector_match, player

    payload = load_checkpoint(SHIPPED)
    env, kwargs = "earth_reborn_v0", payload["config"]["env_kwargs"]
    result = play_vector_match(
        env, kwargs, player(payload, env, 0, greedy=True), player("heuristic", env, 1), 100, 31
    )
    assert result.overall.wins >= 170, result.score_line()
    assert result.seats["norad"].wins >= 90, result.score_line()
    assert result.seats["salemite"].wins >= 75, result.score_line()
