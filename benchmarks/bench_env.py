"""Decisions per second of random legal play: our engines, raw_env and env() vs connect_four_v3.

Run: ``python benchmarks/bench_env.py`` (needs ``pip install -e .[bench]`` for pygame, which
PettingZoo's classic games import). Every environment (each registered game's, and
connect_four_v3) is driven by the same AEC loop (``last()``, a uniformly random legal action from
the mask, ``step``), in this one process, one after the other, and the table quotes each rate as a
ratio to connect_four_v3 ``env()`` measured in the same run. The rules rows drive each game's
match alone through the game contract (legal actions, apply), without observations. A game with
more than one bundled scenario gets both rows on each.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable

import numpy as np

from reborn_env.core import registry
from reborn_env.core.contract import RUNNING, Rules


def rules_rate(rules: Rules, seconds: float) -> tuple[int, float]:
    """A game's match alone (the contract's legal_actions + apply), no observation: whole games
    of uniformly random legal play until time is up. Only the agents' decisions are counted,
    as in the env (a game that answers forced prompts itself does so inside apply)."""
    steps, seed, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        match, rng = rules.new_match(seed, {}), random.Random(seed)
        while match.status() == RUNNING:
            match.apply(rng.choice(match.legal_actions()))
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


def game_rows(name: str, seconds: float) -> list[tuple[str, Callable[[], tuple[int, float]]]]:
    """The rows of one registered game: its rules alone, then its env, on its default scenario
    and then on each other scenario it bundles (named in brackets)."""
    spec = registry.get(name)
    others = [s for s in spec.scenario_names() if s != spec.default_scenario]
    rows = []
    for scenario in ["", *others]:
        kwargs = {"scenario": scenario} if scenario else {}
        tag = f" [{scenario}]" if scenario else ""

        def make(kwargs: dict = kwargs) -> object:
            return spec.make_env(**kwargs)

        rows += [
            (f"{name}{tag} rules (no observation)", lambda m=make: rules_rate(m().rules, seconds)),
            (f"{name}{tag} env()", lambda m=make: aec_rate(m, seconds)),
        ]
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per row (default 5)")
    args = parser.parse_args()
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from pettingzoo.classic import connect_four_v3

    rows = [row for name in registry.names() for row in game_rows(name, args.seconds)]
    rows += [
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
    print(f"| {header[0]:<50} | {header[1]:>9} | {header[2]:>11} | {header[3]:>21} |")
    print(f"| {'-' * 50} | {'-' * 9}: | {'-' * 11}: | {'-' * 21}: |")
    for name, steps, rate in results:
        print(f"| {name:<50} | {steps:>9} | {rate:>11,.0f} | {rate / peer:>20.2f}x |")


if __name__ == "__main__":
    main()
