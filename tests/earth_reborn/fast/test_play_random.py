"""The compiled core's ``play_random`` (``VectorEnv.play_random``): the Gym vector env's random
opponent played in one core call must be, bit for bit, the Python loop of batched
``RandomBatch`` calls it replaces: the same moves from the same SplitMix64 streams, rewards
(MP shaping, then ER-WIN-3's +1 / -1), flags (ER-ENV-9's step limit included), opponent move
counts and next games (auto-reset), at one thread and several.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from reborn_env import earth_reborn_v0
from reborn_env.bots.batched import RandomBatch
from reborn_env.wrappers import SingleAgentVectorEnv
from reborn_env.wrappers.vector import BOT_STREAM, slot_roots

GAME = "earth_reborn_v0"
SEED = 3


class LoopedRandomBatch(RandomBatch):
    """RandomBatch by another type: the Gym vector env then plays it by its Python loop."""


def _pair(
    num_envs: int, num_threads: int, **env_kwargs: Any
) -> tuple[SingleAgentVectorEnv, SingleAgentVectorEnv]:
    """The env whose random opponent the core plays, and the env that loops over the same
    streams (its own batch, seeded as the first env's ``reset(seed=SEED)`` seeds its)."""
    options = {"backend": "fast", "num_threads": num_threads}
    common = {"num_envs": num_envs, "game": GAME, "env_kwargs": env_kwargs}
    core = SingleAgentVectorEnv(opponent="random", vector_options=options, **common)
    seeds = [root ^ BOT_STREAM for root in slot_roots(SEED, num_envs)]
    looped = SingleAgentVectorEnv(
        opponent=LoopedRandomBatch(seeds), vector_options=options, **common
    )
    return core, looped


def _counting_steps(envs: SingleAgentVectorEnv) -> Callable[[], int]:
    """Counts the game vector's ``step`` calls of ``envs`` from now on."""
    calls, step = [0], envs.vector.step

    def counted(actions: Any) -> Any:
        calls[0] += 1
        return step(actions)

    envs.vector.step = counted
    return lambda: calls[0]


def _assert_same(a: Any, b: Any) -> None:
    """Equal step or reset results: tuples and dicts item by item, arrays element-wise."""
    if isinstance(a, tuple):
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            _assert_same(x, y)
    elif isinstance(a, dict):
        assert a.keys() == b.keys()
        for key in a:
            _assert_same(a[key], b[key])
    else:
        assert np.array_equal(a, b), (a, b)


@pytest.mark.parametrize(
    ("num_envs", "num_threads", "env_kwargs"),
    [
        (5, 1, {"max_steps": 300, "mp_shaping": 0.05}),
        (70, 3, {"max_steps": 300, "mp_shaping": 0.05}),
        (6, 1, {}),
    ],
    ids=["truncations", "threads", "whole-games"],
)
def test_the_core_plays_what_the_python_loop_plays(
    num_envs: int, num_threads: int, env_kwargs: dict[str, Any]
) -> None:
    """Masked random actions for the agent (an illegal one now and then: the slot's episode
    ends with -1 and its next game starts), until many episodes have ended by a win or loss
    and by the step limit: both envs return equal observations, rewards, flags and infos, and
    the opponent's streams end equal; the core's env steps its vector once a step."""
    core, looped = _pair(num_envs, num_threads, **env_kwargs)
    steps_of_core = _counting_steps(core)
    results = core.reset(seed=SEED), looped.reset(seed=SEED)
    _assert_same(*results)
    rng = np.random.default_rng(1)
    ends = {"won or lost": 0, "illegal": 0, "truncated": 0}
    truncations = 3 if "max_steps" in env_kwargs else 0
    for step in range(1, 3000):
        mask = results[0][-1]["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in mask])
        if rng.random() < 0.05:
            forbidden = np.flatnonzero(~mask[0])
            actions[0] = forbidden[0] if len(forbidden) else actions[0]
        results = core.step(actions), looped.step(actions)
        _assert_same(*results)
        _, _, terminated, truncated, infos = results[0]
        illegal = infos.get("final_info", {}).get("_illegal_action", np.zeros(num_envs, bool))
        ends["won or lost"] += int((terminated & ~illegal).sum())
        ends["illegal"] += int(illegal.sum())
        ends["truncated"] += int(truncated.sum())
        assert steps_of_core() == step
        if ends["won or lost"] >= 3 and ends["illegal"] and ends["truncated"] >= truncations:
            break
    assert np.array_equal(core.opponent.state, looped.opponent.state)
    assert ends["won or lost"] >= 3 and ends["illegal"] > 0, ends
    assert ends["truncated"] >= truncations, ends


def test_bad_arrays_are_refused_with_nothing_played(make_vector: Callable[..., Any]) -> None:
    """A span array of the wrong dtype or length is a ValueError naming it; no slot moves."""
    vector = make_vector(num_envs=4, seed=2)
    vector.reset()
    before = [vector.get_state(i) for i in range(4)]
    streams = np.arange(4, dtype=np.uint64)
    span = {
        "reward": np.zeros(4),
        "ended": np.zeros(4, dtype=bool),
        "moves": np.zeros(4, dtype=np.int64),
        "moves_at_end": np.zeros(4, dtype=np.int64),
        "terminated": np.zeros(4, dtype=bool),
        "truncated": np.zeros(4, dtype=bool),
    }
    seat = 1 - int(vector.agent[0])  # slot 0's seat to move is the opponent's
    for key, bad in [("reward", np.zeros(4, dtype=np.float32)), ("moves", np.zeros(3, int))]:
        with pytest.raises(ValueError, match=key):
            vector.play_random(seat, streams, {**span, key: bad})
    with pytest.raises(ValueError, match="streams"):
        vector.play_random(seat, streams.astype(np.int64), span)
    assert [vector.get_state(i) for i in range(4)] == before
    assert np.array_equal(streams, np.arange(4, dtype=np.uint64))
    assert vector.play_random(seat, streams, span)
    assert (vector.agent == seat).all() and span["moves"][0] > 0


def test_without_the_core_nothing_is_played() -> None:
    """On the reference games (``backend="python"``) play_random answers False and moves
    nothing: the Gym vector env then plays the opponent by its loop, the same moves."""
    vector = earth_reborn_v0.vector_env(num_envs=3, seed=2, backend="python")
    vector.reset()
    before = [vector.get_state(i) for i in range(3)]
    span = {key: np.zeros(3, dtype=bool) for key in ("ended", "terminated", "truncated")}
    span |= {"reward": np.zeros(3), "moves": np.zeros(3, int), "moves_at_end": np.zeros(3, int)}
    assert not vector.play_random(0, np.arange(3, dtype=np.uint64), span)
    assert [vector.get_state(i) for i in range(3)] == before and not span["moves"].any()
