"""The OpenSpiel bridge's cost: random play through pyspiel beside env(), clone() beside a position
round trip, for every registered game.

Run: ``python benchmarks/bench_openspiel.py [--seconds 2]`` (needs OpenSpiel: ``pip install
open_spiel``). In this one process, per game: decisions per second of whole games of uniformly
random legal play through the bridge's pyspiel state API (``legal_actions``, ``apply_action``;
without the mover's observation, then with it through ``observation_tensor`` and through
``state.observation``, as env() builds it at each ``last()``) beside the game's ``env()`` AEC
loop, quoted as ratios to env(); then the mean cost in microseconds of ``state.clone()`` beside
``to_position``/``from_position`` of the same matches (states taken along random games), and the
ratio of the two.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

import numpy as np
import pyspiel
from bench_env import aec_rate

from reborn_env.core import registry
from reborn_env.interop import openspiel as bridge

OBSERVING = {
    "pyspiel state API": None,
    "pyspiel + observation_tensor": "observation_tensor",
    "pyspiel + state.observation (numpy)": "observation",
}
"""Each bridge row and the state method it calls for the mover's observation at each decision."""


def bridge_rate(game: pyspiel.Game, seconds: float, observe: str | None) -> tuple[int, float]:
    """Whole games of random play through the pyspiel state API until time is up, reading the
    mover's observation through the state method ``observe`` (None: not at all)."""
    rng = np.random.default_rng(0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if observe is not None:
                getattr(state, observe)(state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
            steps += 1
    return steps, time.perf_counter() - start


def sampled_states(game: pyspiel.Game, count: int) -> list[bridge.RebornState]:
    """``count`` states taken along random games, every few decisions, terminal ones left out."""
    rng = np.random.default_rng(1)
    states: list[bridge.RebornState] = []
    while len(states) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(states) < count:
            if rng.random() < 0.1:
                states.append(state.clone())
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
    return states


def clone_costs(game: pyspiel.Game, seconds: float) -> tuple[float, float]:
    """Mean microseconds of ``clone()`` and of a position round trip of the same states."""
    states = sampled_states(game, 200)
    rules = game.rules
    clone_us = _mean_us(lambda s: s.clone(), states, seconds / 2)
    trip_us = _mean_us(lambda s: rules.from_position(s.position()), states, seconds / 2)
    return clone_us, trip_us


def _mean_us(
    operation: Callable[[bridge.RebornState], object], states: list, seconds: float
) -> float:
    """Mean microseconds of ``operation`` over ``states``, cycled until time is up."""
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for state in states:
            operation(state)
        done += len(states)
    return (time.perf_counter() - start) / done * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per row (default 2)")
    parser.add_argument("--games", nargs="*", help="registered game names (default: all)")
    args = parser.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    names = args.games or registry.names()
    print(f"{'game':<22} {'row':<36} {'decisions/s':>12} {'vs env()':>9}")
    costs = []
    for name in names:
        spec = registry.get(name)
        game = pyspiel.load_game(bridge.short_name(name), {"seed": 0})
        steps, elapsed = aec_rate(spec.make_env, args.seconds)
        env_per_s = steps / elapsed
        print(f"{name:<22} {'env() (AEC, observation + mask)':<36} {env_per_s:>12,.0f} {1:>8.2f}x")
        for label, observe in OBSERVING.items():
            steps, elapsed = bridge_rate(game, args.seconds, observe)
            rate = steps / elapsed
            print(f"{name:<22} {label:<36} {rate:>12,.0f} {rate / env_per_s:>8.2f}x")
        costs.append((name, *clone_costs(game, args.seconds)))
    print()
    print(f"{'game':<22} {'clone() us':>11} {'position round trip us':>23} {'ratio':>7}")
    for name, clone_us, trip_us in costs:
        print(f"{name:<22} {clone_us:>11.0f} {trip_us:>23.0f} {clone_us / trip_us:>6.2f}x")


if __name__ == "__main__":
    main()
