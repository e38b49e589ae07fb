"""Decisions per second of random legal play: our engines, raw_env and env() vs connect_four_v3.

Run: ``python benchmarks/bench_env.py`` (needs ``pip install -e .[bench]`` for pygame, which
PettingZoo's classic games import). Every environment (earth_reborn_v0, haven_v0,
connect_four_v3) is driven by the same AEC loop (``last()``, a uniformly random legal action from
the mask, ``step``), in this one process, one after the other, and the table quotes each rate as a
ratio to connect_four_v3 ``env()`` measured in the same run. The engine rows drive each rules
engine alone (legal actions, apply), without observations.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable

import numpy as np


def engine_rate(seconds: float) -> tuple[int, float]:
    """The rules engine alone: legal_actions + apply_action, no observation."""
    from reborn_env.games.earth_reborn.rules.engine import apply_action, legal_actions, new_game

    steps, seed, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, rng = new_game(seed=seed), random.Random(seed)
        while state.winner is None:
            apply_action(state, rng.choice(legal_actions(state)))
            steps += 1
        seed += 1
    return steps, time.perf_counter() - start


def haven_engine_rate(seconds: float) -> tuple[int, float]:
    """The haven rules engine alone: legal_actions + apply, no observation (auto_forced on, so
    only the agents' decisions are counted, as in the env)."""
    from reborn_env.games.haven.rules.engine import new_game

    steps, seed, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        game, rng = new_game(seed=seed), random.Random(seed)
        while game.outcome == "running":
            game.apply(rng.choice(game.legal_actions()))
            steps += 1
        seed += 1
    return steps, time.perf_counter() - start


def aec_rate(make_env: Callable[[], object], seconds: float) -> tuple[int, float]:
    """Any AEC env with action masks, played to the end of whole games until time is up."""
    env = make_env()
    rng = np.random.default_rng(0)
    steps, seed, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed)
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        seed += 1
    return steps, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per row (default 5)")
    args = parser.parse_args()
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from pettingzoo.classic import connect_four_v3

    from reborn_env import earth_reborn_v0, haven_v0

    rows = [
        ("earth_reborn engine (no observation)", lambda: engine_rate(args.seconds)),
        ("earth_reborn_v0 raw_env()", lambda: aec_rate(earth_reborn_v0.raw_env, args.seconds)),
        ("earth_reborn_v0 env()", lambda: aec_rate(earth_reborn_v0.env, args.seconds)),
        ("haven engine (no observation)", lambda: haven_engine_rate(args.seconds)),
        ("haven_v0 raw_env()", lambda: aec_rate(haven_v0.raw_env, args.seconds)),
        ("haven_v0 env()", lambda: aec_rate(haven_v0.env, args.seconds)),
        ("connect_four_v3 raw_env()", lambda: aec_rate(connect_four_v3.raw_env, args.seconds)),
        ("connect_four_v3 env()", lambda: aec_rate(connect_four_v3.env, args.seconds)),
    ]
    results = []
    for name, run in rows:
        steps, elapsed = run()
        results.append((name, steps, steps / elapsed))
        print(f"  measured {name}: {steps} decisions in {elapsed:.1f} s", flush=True)
    peer = results[-1][2]
    print()
    header = ("environment", "decisions", "decisions/s", "vs connect_four env()")
    print(f"| {header[0]:<38} | {header[1]:>9} | {header[2]:>11} | {header[3]:>21} |")
    print(f"| {'-' * 38} | {'-' * 9}: | {'-' * 11}: | {'-' * 21}: |")
    for name, steps, rate in results:
        print(f"| {name:<38} | {steps:>9} | {rate:>11,.0f} | {rate / peer:>20.2f}x |")


if __name__ == "__main__":
    main()
