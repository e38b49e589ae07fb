"""The warm start's observation store (training/common/compact_rows.py): lossless, a quarter the
size."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from reborn_env.core import registry
from training.common.compact_rows import MAX_CODES, CompactRows, RowRecorder

torch.set_num_threads(1)


def observed_rows(name: str, games: int = 3) -> np.ndarray:
    """Every observation of a few seeded games of random legal play."""
    from reborn_env.bots import RandomBot

    env = registry.get(name).make_env()
    rows = []
    for seed in range(games):
        env.reset(seed=seed)
        bot = RandomBot(seed=seed)
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            rows.append(obs["observation"].copy())
            env.step(bot.act(obs["observation"], obs["action_mask"]))
    return np.stack(rows)


@pytest.mark.parametrize("name", registry.names())
def test_real_observations_come_back_bit_for_bit_in_a_quarter_of_the_memory(name):
    rows = observed_rows(name)
    recorder = RowRecorder(block=64)  # several blocks, the table growing between them
    for row in rows:
        recorder.append(row)
    stored = recorder.rows()
    assert stored.table is not None and stored.codes.dtype == torch.uint8
    assert stored.nbytes * 4 == rows.nbytes
    back = stored.decode().numpy()
    assert back.dtype == np.float32 and back.tobytes() == rows.tobytes()
    pick = torch.tensor([5, 0, len(rows) - 1])
    assert torch.equal(stored[pick], torch.from_numpy(rows[pick.numpy()]))


def test_more_distinct_values_than_a_byte_holds_keeps_float32_rows():
    rng = np.random.default_rng(0)
    first = rng.integers(0, 4, size=(50, 8)).astype(np.float32) / 4
    many = rng.random((50, 8), dtype=np.float32)  # far more than MAX_CODES distinct values
    assert len(np.unique(many)) > MAX_CODES
    recorder = RowRecorder(block=16)
    recorder.extend(first)
    recorder.extend(many)
    stored = recorder.rows()
    assert stored.table is None and stored.codes.dtype == torch.float32
    assert stored.decode().numpy().tobytes() == np.concatenate([first, many]).tobytes()


def test_non_finite_values_are_kept_as_they_are():
    rows = np.array([[0.0, 1.0], [np.nan, np.inf]], dtype=np.float32)
    recorder = RowRecorder()
    recorder.extend(rows)
    stored = recorder.rows()
    assert stored.table is None
    assert stored.decode().numpy().tobytes() == rows.tobytes()


def test_cat_joins_parts_with_different_tables_in_order():
    a = np.array([[0.0, 0.5], [0.5, 0.0]], dtype=np.float32)
    b = np.array([[0.25, 1.0]], dtype=np.float32)
    parts = []
    for rows in (a, b):
        recorder = RowRecorder()
        recorder.extend(rows)
        parts.append(recorder.rows())
    joined = CompactRows.cat(parts)
    assert len(joined) == 3 and joined.table is not None
    assert joined.decode().numpy().tobytes() == np.concatenate([a, b]).tobytes()


def test_cloning_from_the_store_trains_exactly_as_from_float32_rows():
    """The warm start's fit (training/warmstart/imitation.py clone) gives the same weights, to the
    bit,
    from the store as from the plain float32 tensor of the same demonstrations."""
    from reborn_env.policies.network import build_model
    from training.warmstart.imitation import clone, record_games

    name = registry.default_name()
    data = record_games(name, {}, games=4, seed=3, gamma=0.99, num_envs=4)
    plain = {**data, "obs": data["obs"].decode()}
    weights = []
    for demos in (data, plain):
        torch.manual_seed(0)
        spec = registry.get(name)
        env = spec.make_env()
        agent = env.possible_agents[0]
        size = env.observation_space(agent)["observation"].shape[0]
        model = build_model(size, env.action_space(agent).n, [32, 32])
        clone(model, demos, 1, 1e-3, 0.5, np.random.default_rng(0))
        weights.append(torch.cat([p.detach().flatten() for p in model.parameters()]))
    assert torch.equal(weights[0], weights[1])
