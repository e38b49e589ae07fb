"""The long random-play run: invariants after every step over many seeded games (nightly mode).

Run: ``python benchmarks/fuzz.py --games 10000 [--policy uniform|busy] [--first-seed S]``. Prints
progress, then a summary: games, decisions, outcomes, longest game against the ER-SCN-13 bound.
"""

from __future__ import annotations

import argparse
import time

from reborn_env import earth_reborn_v0
from reborn_env.common.fuzz import play_random_games, uniform_policy
from reborn_env.earth_reborn.fuzz_policies import busy_policy, check_step
from reborn_env.earth_reborn.invariants import STEP_BOUND

POLICIES = {"uniform": uniform_policy, "busy": busy_policy}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--policy", choices=sorted(POLICIES), default="uniform")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--chunk", type=int, default=500, help="games between progress lines")
    args = parser.parse_args()
    env = earth_reborn_v0.env()
    start = time.perf_counter()
    outcomes = {"norad": 0, "salemite": 0, "draw": 0}
    lengths: list[int] = []
    for first in range(args.first_seed, args.first_seed + args.games, args.chunk):
        last = min(first + args.chunk, args.first_seed + args.games)
        report = play_random_games(env, range(first, last), POLICIES[args.policy], check_step)
        for returns in report.returns:
            if sum(returns.values()) != 0.0:
                raise AssertionError(f"returns {returns} are not zero-sum")
            winner = max(returns, key=returns.get) if any(returns.values()) else "draw"
            outcomes[winner] += 1
        if report.truncated:
            raise AssertionError(f"{report.truncated} games were truncated (ER-ENV-9)")
        lengths += report.lengths
        elapsed = time.perf_counter() - start
        progress = f"  {len(lengths):>6} games  {sum(lengths):>9} decisions  {elapsed:7.1f} s"
        print(progress, flush=True)
    print(
        f"fuzz ({args.policy}): {len(lengths)} games, {sum(lengths)} decisions, "
        f"every invariant held; "
        f"outcomes {outcomes}; longest game {max(lengths)} decisions (bound {STEP_BOUND}); "
        f"{time.perf_counter() - start:.0f} s"
    )


if __name__ == "__main__":
    main()
