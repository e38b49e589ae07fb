"""The long random-play run: invariants after every step over many seeded games (nightly mode).

Run: ``python benchmarks/fuzz.py --games 10000 [--env earth_reborn_v0|haven_v0]
[--policy uniform|busy] [--first-seed S]``. Prints progress, then a summary: games, decisions,
outcomes, longest game against the game's bound (ER-SCN-13; haven 15.10).
"""

from __future__ import annotations

import argparse
import time

from reborn_env import earth_reborn_v0, haven_v0
from reborn_env.core.fuzz import play_random_games, uniform_policy
from reborn_env.games.earth_reborn import fuzz_policies as er_fuzz
from reborn_env.games.earth_reborn.invariants import STEP_BOUND
from reborn_env.games.haven import fuzz_policies as haven_fuzz

# env name -> (env factory, busy policy, per-step check, step bound)
GAMES = {
    "earth_reborn_v0": (earth_reborn_v0.env, er_fuzz.busy_policy, er_fuzz.check_step, STEP_BOUND),
    "haven_v0": (haven_v0.env, haven_fuzz.busy_policy, haven_fuzz.check_step, 2240),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--env", choices=sorted(GAMES), default="earth_reborn_v0")
    parser.add_argument("--policy", choices=("uniform", "busy"), default="uniform")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--chunk", type=int, default=500, help="games between progress lines")
    args = parser.parse_args()
    make_env, busy, check_step, bound = GAMES[args.env]
    policy = busy if args.policy == "busy" else uniform_policy
    env = make_env()
    start = time.perf_counter()
    outcomes: dict[str, int] = {}
    lengths: list[int] = []
    for first in range(args.first_seed, args.first_seed + args.games, args.chunk):
        last = min(first + args.chunk, args.first_seed + args.games)
        report = play_random_games(env, range(first, last), policy, check_step)
        for returns in report.returns:
            outcome = _outcome(args.env, returns)
            outcomes[outcome] = outcomes.get(outcome, 0) + 1
        if report.truncated:
            raise AssertionError(f"{report.truncated} games were truncated (ER-ENV-9, HV-END-4)")
        lengths += report.lengths
        elapsed = time.perf_counter() - start
        progress = f"  {len(lengths):>6} games  {sum(lengths):>9} decisions  {elapsed:7.1f} s"
        print(progress, flush=True)
    if max(lengths) > bound:
        raise AssertionError(f"a game took {max(lengths)} decisions, over the bound {bound}")
    print(
        f"fuzz {args.env} ({args.policy}): {len(lengths)} games, {sum(lengths)} decisions, "
        f"every invariant held; "
        f"outcomes {outcomes}; longest game {max(lengths)} decisions (bound {bound}); "
        f"{time.perf_counter() - start:.0f} s"
    )


def _outcome(env_name: str, returns: dict[str, float]) -> str:
    """Earth Reborn: the winner (returns must be zero-sum); haven: win/loss (shared returns)."""
    values = set(returns.values())
    if env_name == "haven_v0":
        if len(values) != 1 or values - {1.0, -1.0}:
            raise AssertionError(f"haven returns {returns} are not one shared +1/-1")
        return "win" if values == {1.0} else "loss"
    if sum(returns.values()) != 0.0:
        raise AssertionError(f"returns {returns} are not zero-sum")
    return max(returns, key=returns.get) if any(returns.values()) else "draw"


if __name__ == "__main__":
    main()
