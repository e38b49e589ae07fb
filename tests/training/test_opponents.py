"""The self-play opponent pool (training/selfplay/opponents.py): snapshots, their networks, draws,
bots."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
import torch

from reborn_env.policies.network import build_model
from training.common.schema import settings_of
from training.ppo.config import TrainConfig
from training.selfplay.opponents import League, OpponentPool


def _config(**over) -> TrainConfig:
    base = dict(
        env="earth_reborn_v0",
        total_steps=64,
        num_envs=1,
        num_steps=64,
        pool_size=2,
        hidden_sizes=[8],
    )
    base.update(over)
    return TrainConfig.from_dict(base)


def _pool(cfg: TrainConfig) -> OpponentPool:
    """The pool of a run of ``cfg``, as the trainer builds it: with its league's settings."""
    return OpponentPool(settings_of(League, cfg))


def _model(seed: int):
    torch.manual_seed(seed)
    return build_model(5, 3, [8])


def test_the_pool_keeps_copies_of_the_latest_snapshots_only():
    """pool_size 2: a third snapshot drops the first; a snapshot does not follow later training."""
    pool = _pool(_config())
    models = [_model(seed) for seed in range(3)]
    for model in models:
        pool.add_snapshot(model)
    assert len(pool.snapshots) == 2
    for snapshot, model in zip(pool.snapshots, models[1:], strict=True):
        assert all(torch.equal(snapshot[k], v) for k, v in model.state_dict().items())
    with torch.no_grad():
        models[2].value.bias.add_(1.0)
    assert not torch.equal(pool.snapshots[1]["value.bias"], models[2].value.bias)


def test_pool_keys_play_their_snapshot_and_self_plays_the_current_network():
    pool = _pool(_config())
    old, current = _model(0), _model(1)
    pool.add_snapshot(old)
    obs, mask = torch.randn(4, 5), torch.ones(4, 3, dtype=torch.bool)
    assert pool.model("self", current) is current
    with torch.no_grad():
        assert torch.equal(pool.model("pool0", current)(obs, mask)[0], old(obs, mask)[0])
        assert not torch.equal(pool.model("pool0", current)(obs, mask)[0], current(obs, mask)[0])
    pool.restore([current.state_dict()])  # a resumed run's pool: its networks are built anew
    with torch.no_grad():
        assert torch.equal(pool.model("pool0", old)(obs, mask)[0], current(obs, mask)[0])


def test_draw_follows_the_configured_probabilities():
    """bot_opponent_prob 0.25 over two bots; otherwise the current policy half the time."""
    pool = _pool(_config(bot_opponents=["random", "heuristic"], bot_opponent_prob=0.25))
    rng = np.random.default_rng(0)
    early = {pool.draw(rng, 0) for _ in range(200)}
    assert early == {"bot:random", "bot:heuristic", "self"}  # no snapshot yet: never a pool key
    pool.add_snapshot(_model(0))
    pool.add_snapshot(_model(1))
    draws = Counter(pool.draw(rng, 1) for _ in range(4000))
    assert set(draws) == {"bot:random", "bot:heuristic", "self", "pool0", "pool1"}
    bots = draws["bot:random"] + draws["bot:heuristic"]
    assert bots / 4000 == pytest.approx(0.25, abs=0.03)
    assert draws["self"] / (4000 - bots) == pytest.approx(0.5, abs=0.03)


def test_each_slot_has_its_own_bot():
    """Bots may keep per-game state and each slot's tie-breaker is its own: the pool's bots for
    a key answer per slot (slot i seeded seed + i), as separate bots would."""
    from reborn_env.core import registry

    pool = _pool(_config(bot_opponents=["heuristic"], num_envs=3))
    batch = pool.bots("bot:heuristic")
    assert pool.bots("bot:heuristic") is batch
    env = registry.get("earth_reborn_v0").make_env()
    env.reset(seed=3)
    observed = env.observe(env.agent_selection)
    obs = np.stack([observed["observation"]] * 3)
    mask = np.stack([observed["action_mask"]] * 3)
    alone = [registry.get("earth_reborn_v0").make_bot("heuristic", seed=1 + i) for i in range(3)]
    expected = [bot.act(o, m) for bot, o, m in zip(alone, obs, mask, strict=True)]
    assert pool.act("bot:heuristic", np.arange(3), obs, mask, _model(0)).tolist() == expected


def test_snapshots_keep_their_numbers_and_a_dropped_ones_games_meet_the_oldest_kept():
    """Snapshot keys are numbers counting up: after pool_size 2 drops pool0, pool1 and pool2 are
    kept, and a game still naming pool0 plays the oldest snapshot kept (pool1)."""
    pool = _pool(_config())
    models = [_model(seed) for seed in range(3)]
    for model in models:
        pool.add_snapshot(model)
    assert pool.ids == [1, 2] and pool.taken == 3
    obs, mask = torch.randn(4, 5), torch.ones(4, 3, dtype=torch.bool)
    with torch.no_grad():
        for key, model in (("pool1", models[1]), ("pool2", models[2]), ("pool0", models[1])):
            assert torch.equal(pool.model(key, models[0])(obs, mask)[0], model(obs, mask)[0])


def _finish(pool: OpponentPool, key: str, seat: int, result: float, games: int) -> None:
    """``games`` finished games of the learner in ``seat`` against ``key``: won, lost or drawn."""
    learner = np.array([seat == 0, seat == 1])
    rewards = np.zeros(2)
    if result != 0.5:
        rewards[seat], rewards[1 - seat] = (1.0, -1.0) if result else (-1.0, 1.0)
    for _ in range(games):
        pool.record(key, learner, rewards + 0.05, terminated=True)


def test_scores_follow_each_opponent_and_seat():
    """A win scores 1, a loss 0, a draw and a game cut at max_steps 0.5, per opponent and seat
    (MP shaping on both rewards does not change the result)."""
    pool = _pool(_config(bot_opponents=["heuristic"]))
    assert pool.score("bot:heuristic", 1) == 0.5
    _finish(pool, "bot:heuristic", 0, 1.0, 300)
    _finish(pool, "bot:heuristic", 1, 0.0, 300)
    assert pool.score("bot:heuristic", 0) > 0.99 and pool.score("bot:heuristic", 1) < 0.01
    pool.record("self", np.array([True, False]), np.array([0.3, -0.3]), terminated=False)
    assert pool.score("self", 0) == pytest.approx(0.5)  # cut at max_steps: a draw
    assert "heuristic norad 1.00 salemite 0.00" in pool.summary(["norad", "salemite"])


def test_pfsp_meets_most_the_opponents_that_still_beat_the_learner_in_its_seat():
    """Prioritised fictitious self-play: weight (1 - score) ** pfsp_power, per seat; the current
    policy keeps latest_opponent_prob."""
    cfg = _config(
        bot_opponents=["random", "heuristic"], opponent_sampling="pfsp", latest_opponent_prob=0.2
    )
    pool = _pool(cfg)
    _finish(pool, "bot:random", 0, 1.0, 400)
    _finish(pool, "bot:random", 1, 1.0, 400)
    _finish(pool, "bot:heuristic", 0, 1.0, 400)
    _finish(pool, "bot:heuristic", 1, 0.0, 400)
    rng = np.random.default_rng(1)
    as_salemite = Counter(pool.draw(rng, 1) for _ in range(3000))
    as_norad = Counter(pool.draw(rng, 0) for _ in range(3000))
    assert as_salemite["self"] / 3000 == pytest.approx(0.2, abs=0.03)
    assert as_salemite["bot:heuristic"] / 3000 == pytest.approx(0.8, abs=0.03)
    assert as_salemite["bot:random"] < 10
    assert as_norad["bot:heuristic"] < 3000 * 0.8 and as_norad["bot:random"] < 3000 * 0.8


def test_pfsp_refuses_bot_opponent_prob():
    from training.ppo.config import ConfigError

    with pytest.raises(ConfigError, match="bot_opponent_prob"):
        _config(bot_opponents=["random"], bot_opponent_prob=0.3, opponent_sampling="pfsp")
    with pytest.raises(ConfigError, match="opponent_sampling"):
        _config(opponent_sampling="elo")


def test_pfsp_counts_the_pool_as_one_opponent_so_it_does_not_crowd_out_the_bots():
    """Eight snapshots the learner loses to as often as to the heuristic: the heuristic is still
    drawn about half the time (pool and bot weigh alike), not a ninth."""
    cfg = _config(
        bot_opponents=["heuristic"], opponent_sampling="pfsp", latest_opponent_prob=0.0,
        pool_size=8,
    )  # fmt: skip
    pool = _pool(cfg)
    for seed in range(8):
        pool.add_snapshot(_model(seed))
    for key in ["bot:heuristic", *(f"pool{i}" for i in pool.ids)]:
        _finish(pool, key, 1, 0.0, 200)
    rng = np.random.default_rng(2)
    draws = Counter(pool.draw(rng, 1) for _ in range(4000))
    assert draws["bot:heuristic"] / 4000 == pytest.approx(0.5, abs=0.04)
    assert len([k for k in draws if k.startswith("pool")]) == 8


def test_seat_sampling_trains_most_the_seat_that_loses_to_the_bots():
    """seat_sampling pfsp: weights 1.1 - score against the bots per seat; uniform without bot
    games or with uniform seat sampling."""
    cfg = _config(bot_opponents=["heuristic"], opponent_sampling="pfsp", seat_sampling="pfsp")
    pool = _pool(cfg)
    assert pool.seat_weights(2).tolist() == [0.5, 0.5]
    _finish(pool, "bot:heuristic", 0, 1.0, 400)
    _finish(pool, "bot:heuristic", 1, 0.0, 400)
    weights = pool.seat_weights(2)
    assert weights[1] / weights[0] == pytest.approx(1.1 / 0.1, rel=0.05)
    uniform = _pool(_config(bot_opponents=["heuristic"], opponent_sampling="pfsp"))
    _finish(uniform, "bot:heuristic", 1, 0.0, 400)
    assert uniform.seat_weights(2).tolist() == [0.5, 0.5]


def test_restarts_begin_games_from_positions_of_earlier_games():
    """restart_prob (training/selfplay/restarts.py): positions are kept from the vector's games (at
    most
    the reservoir's size) and a restarted slot holds one of them; probability 0 keeps none."""
    from reborn_env.core import registry
    from training.selfplay.restarts import RestartPool

    name = registry.default_name()
    venv = registry.get(name).make_vector_env(4, seed=2)
    venv.reset()
    rng = np.random.default_rng(0)
    pool, off = RestartPool(1.0, capacity=5), RestartPool(0.0)
    for _ in range(30):
        venv.step(np.array([rng.choice(np.flatnonzero(m)) for m in venv.mask]))
        pool.sample(venv, rng)
        off.sample(venv, rng)
    assert len(pool.positions) == 5 and pool.seen == 30 and not off.positions
    assert not off.restart(venv, 0, rng)
    assert pool.restart(venv, 3, rng)
    assert venv.get_state(3) in pool.positions


def test_snapshot_every_zero_means_never_and_negative_is_refused():
    """0 keeps the pool at the snapshot imitation leaves (the shipped run's field); a negative
    interval is a config error that says what is allowed."""
    from training.ppo.config import ConfigError

    assert TrainConfig(total_steps=64, snapshot_every=0).snapshot_every == 0
    with pytest.raises(ConfigError, match=r"snapshot_every.*>= 0 \(0: never\)"):
        TrainConfig(total_steps=64, snapshot_every=-1)
