"""The self-play opponent pool (training/opponents.py): snapshots, their networks, draws, bots."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
import torch

from training.config import TrainConfig
from training.model import build_model
from training.opponents import OpponentPool


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


def _model(seed: int):
    torch.manual_seed(seed)
    return build_model(5, 3, [8])


def test_the_pool_keeps_copies_of_the_latest_snapshots_only():
    """pool_size 2: a third snapshot drops the first; a snapshot does not follow later training."""
    pool = OpponentPool(_config())
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
    pool = OpponentPool(_config())
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
    pool = OpponentPool(_config(bot_opponents=["random", "heuristic"], bot_opponent_prob=0.25))
    rng = np.random.default_rng(0)
    early = {pool.draw(rng) for _ in range(200)}
    assert early == {"bot:random", "bot:heuristic", "self"}  # no snapshot yet: never a pool key
    pool.add_snapshot(_model(0))
    pool.add_snapshot(_model(1))
    draws = Counter(pool.draw(rng) for _ in range(4000))
    assert set(draws) == {"bot:random", "bot:heuristic", "self", "pool0", "pool1"}
    bots = draws["bot:random"] + draws["bot:heuristic"]
    assert bots / 4000 == pytest.approx(0.25, abs=0.03)
    assert draws["self"] / (4000 - bots) == pytest.approx(0.5, abs=0.03)


def test_each_env_has_its_own_bot_instance():
    """Bots may keep per-game state, so two envs never share one; an env keeps its own."""
    pool = OpponentPool(_config(bot_opponents=["random"], bot_opponent_prob=1.0))
    first = pool.bot(0, "bot:random")
    assert pool.bot(0, "bot:random") is first
    assert pool.bot(1, "bot:random") is not first
