"""Copies of an environment on every registered game: ``copy.deepcopy``, ``copy.copy`` and a
``pickle`` round trip, taken before the first reset, at the first decision, deep into a seeded
random game, once it has ended and once every agent has left, each continue exactly as the
original: the same observations, masks, rewards, pending rewards, terminations, truncations,
infos, agent selection, positions (the generator of later chance events included) for the same
actions, and the same game at a later unseeded reset. The copy is independent: playing it to the
end leaves the original where it was, and the original then plays on as it would have. A pickle
plays on the same in a fresh interpreter (multiprocessing's case).

The suite runs on the default backend; ``REBORN_ENV_BACKEND=python`` runs it on every game's
pure-Python reference.
"""

from __future__ import annotations

import copy
import os
import pickle
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pettingzoo import AECEnv

from .harness import CASES, Case, policies, snapshot

ROOT = next(p for p in Path(__file__).resolve().parents if (p / "pyproject.toml").is_file())
COPIERS: dict[str, Callable[[AECEnv], AECEnv]] = {
    "deepcopy": copy.deepcopy,
    "copy": copy.copy,
    "pickle": lambda env: pickle.loads(pickle.dumps(env)),
}
SEEDS = range(2)


def record(case: Case, seed: int, policy: str) -> tuple[list[Any], list[dict[str, Any]]]:
    """A seeded random game to its end, every agent's last step included: the step actions
    (None: a dead step) and the snapshot before each step and after the last."""
    env = case.make_env()
    env.reset(seed=seed)
    choose, rng = policies(case.name)[policy], np.random.default_rng(seed)
    actions, snapshots = [], [snapshot(env)]
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        action = (
            None if terminated or truncated else choose(rng, env.observe(agent)["action_mask"], env)
        )
        env.step(action)
        actions.append(action)
        snapshots.append(snapshot(env))
    return actions, snapshots


def copy_points(snapshots: list[dict[str, Any]]) -> list[int]:
    """The steps before which to copy: the first decision, the second, two deep into the game,
    the last decision, the end (every agent terminated or truncated, still there), every agent
    gone."""
    ended = next(
        step
        for step, seen in enumerate(snapshots)
        if all(seen["terminations"][a] or seen["truncations"][a] for a in seen["agents"])
    )
    return sorted({0, 1, ended // 3, 2 * ended // 3, ended - 1, ended, len(snapshots) - 1})


def replay(case: Case, seed: int, actions: list[Any]) -> AECEnv:
    """The recorded game's env after ``actions``."""
    env = case.make_env()
    env.reset(seed=seed)
    for action in actions:
        env.step(action)
    return env


def play_along(env: AECEnv, actions: list[Any], expected: list[dict[str, Any]], what: str) -> None:
    """Step ``env`` through ``actions``; after each, it must show the next expected snapshot."""
    for step, action in enumerate(actions):
        env.step(action)
        assert snapshot(env) == expected[step], f"{what} differs after step {step} ({action})"


@pytest.mark.parametrize("how", COPIERS)
@pytest.mark.parametrize("policy", ["uniform", "busy"])
@pytest.mark.parametrize("case", CASES, ids=str)
def test_a_copy_plays_on_exactly_as_the_original(case: Case, policy: str, how: str) -> None:
    """One original plays the recorded game once; at each copy point a copy is taken and played
    to the end, the original must still be where it was and then plays on to the next point; once
    the original has ended, every copy must still be at the end, and all reset alike."""
    copier = COPIERS[how]
    for seed in SEEDS:
        actions, snapshots = record(case, seed, policy)
        original = case.make_env()
        original.reset(seed=seed)
        played, clones = 0, []
        for point in copy_points(snapshots):
            play_along(original, actions[played:point], snapshots[played + 1 :], "the original")
            played = point
            clone = copier(original)
            assert clone is not original and clone.unwrapped.match is not original.unwrapped.match
            assert snapshot(clone) == snapshots[point], f"{how} at step {point} is another game"
            play_along(clone, actions[point:], snapshots[point + 1 :], f"the {how} of step {point}")
            assert snapshot(original) == snapshots[point], (
                f"playing the {how} of step {point} changed the original"
            )
            clones.append((point, clone))
        play_along(original, actions[played:], snapshots[played + 1 :], "the original")
        original.reset()
        for point, clone in clones:
            assert snapshot(clone) == snapshots[-1], (
                f"playing the original changed the {how} of {point}"
            )
            clone.reset()
            assert snapshot(clone) == snapshot(original), (
                f"the {how} of step {point} resets without a seed to another game"
            )


@pytest.mark.parametrize("how", COPIERS)
@pytest.mark.parametrize("case", CASES, ids=str)
def test_a_copy_before_any_reset_plays_the_same_seeded_games(case: Case, how: str) -> None:
    env = case.make_env()
    clone = COPIERS[how](env)
    for seed in SEEDS:
        env.reset(seed=seed)
        clone.reset(seed=seed)
        assert snapshot(clone) == snapshot(env)
        env.reset()
        clone.reset()
        assert snapshot(clone) == snapshot(env)


@pytest.mark.parametrize("how", COPIERS)
@pytest.mark.parametrize("case", CASES, ids=str)
def test_a_copy_after_an_unseeded_reset_carries_its_generator(case: Case, how: str) -> None:
    """A first reset without a seed seeds the generator from the OS; a copy continues it."""
    env = case.make_env()
    env.reset()
    clone = COPIERS[how](env)
    for _ in range(3):
        env.reset()
        clone.reset()
        assert snapshot(clone) == snapshot(env)


def rules_objects(env: AECEnv) -> dict[str, Any]:
    """The env's attributes that are objects its rules hold (a scenario, an observer ...)."""
    held = [v for v in vars(env.unwrapped.rules).values() if not isinstance(v, int | float | str)]
    return {k: v for k, v in vars(env.unwrapped).items() if any(v is h for h in held)}


@pytest.mark.parametrize("case", CASES, ids=str)
def test_a_copy_shares_only_the_rules(case: Case) -> None:
    """The rules, the game's configuration that no step changes, and what they hold are shared
    by a deep copy; a pickle has rules of its own, and the env's attributes that were the rules'
    objects are its rules' objects again. Nothing that a step changes is shared."""
    env = case.make_env()
    env.reset(seed=0)
    clone = copy.deepcopy(env)
    assert clone.unwrapped.rules is env.unwrapped.rules
    assert all(getattr(clone.unwrapped, k) is v for k, v in rules_objects(env).items())
    unpickled = pickle.loads(pickle.dumps(env))
    assert unpickled.unwrapped.rules is not env.unwrapped.rules
    assert rules_objects(unpickled).keys() == rules_objects(env).keys()
    for name in ("match", "rewards", "_cumulative_rewards", "terminations", "truncations", "infos"):
        assert getattr(clone.unwrapped, name) is not getattr(env.unwrapped, name), name


PLAY_ON_ELSEWHERE = """
import pickle, sys
from tests.conformance.harness import snapshot
env, actions = pickle.load(sys.stdin.buffer)
seen = []
for action in actions:
    env.step(action)
    seen.append(snapshot(env))
env.reset()
seen.append(snapshot(env))
sys.stdout.buffer.write(pickle.dumps(seen))
"""


@pytest.mark.parametrize("case", CASES, ids=str)
def test_a_pickle_plays_on_in_another_interpreter(case: Case) -> None:
    """What multiprocessing does: the pickle of a game deep in progress, loaded by a fresh
    interpreter, plays on and resets there exactly as the original does here."""
    actions, snapshots = record(case, 0, "uniform")
    point = 2 * len(actions) // 3
    original = replay(case, 0, actions[:point])
    sent = pickle.dumps((original, actions[point:]))
    done = subprocess.run(
        [sys.executable, "-c", PLAY_ON_ELSEWHERE],
        input=sent,
        capture_output=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    original.reset()
    assert pickle.loads(done.stdout) == [*snapshots[point + 1 :], snapshot(original)]
