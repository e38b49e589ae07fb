"""The long random-play run: invariants after every step over many seeded games (nightly mode).

Run: ``python benchmarks/fuzz.py --games 10000 [--env NAME] [--scenario NAME|all]
[--policy uniform|busy] [--first-seed S]``. ``--env`` is any registered game with a per-step check
(default the first bundled one in name order); its registration gives the check, the busy policy
and the bound on a game's decisions (each scenario's own). ``--scenario all`` shares the games
among every packaged scenario of the game, in turn, and ``--generated FIRST COUNT`` adds the
generated maps of those seeds; the default is the game's default scenario.
Prints progress, then a summary: games, decisions, outcomes, longest game against its bound.
"""

from __future__ import annotations

import argparse
import time

from reborn_env.core import registry
from reborn_env.core.fuzz import play_random_games, uniform_policy

GAMES = [name for name in registry.names() if registry.get(name).check_step]
"""The registered games that name a per-step check (and so can be fuzzed)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--env", choices=GAMES, default=registry.default_name())
    parser.add_argument("--policy", choices=("uniform", "busy"), default="uniform")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--chunk", type=int, default=500, help="games between progress lines")
    parser.add_argument(
        "--scenario", default="", help="a packaged scenario, or all of them in turn (all)"
    )
    parser.add_argument(
        "--generated",
        nargs=2,
        type=int,
        metavar=("FIRST", "COUNT"),
        help="also the maps generated:FIRST .. generated:FIRST + COUNT - 1, in turn",
    )
    args = parser.parse_args()
    game = registry.get(args.env)
    busy = game.busy()
    if args.policy == "busy" and busy is None:
        parser.error(f"--policy busy: {args.env} registers no busy policy; use uniform")
    policy = busy if args.policy == "busy" else uniform_policy
    names = game.scenario_names()
    if args.scenario and args.scenario != "all" and args.scenario not in names:
        parser.error(f"--scenario {args.scenario}: not one of all, {', '.join(names)}")
    scenarios = names if args.scenario == "all" else [args.scenario]
    if args.generated:
        first, count = args.generated
        scenarios += [f"generated:{s}" for s in range(first, first + count)]
    envs = [game.make_env(scenario=s) if s else game.make_env() for s in scenarios]
    bounds = [game.decision_bound(env.unwrapped.rules) for env in envs]
    start = time.perf_counter()
    outcomes: dict[str, int] = {}
    lengths: list[int] = []
    over: list[str] = []
    for k, first in enumerate(range(args.first_seed, args.first_seed + args.games, args.chunk)):
        last = min(first + args.chunk, args.first_seed + args.games)
        env, bound = envs[k % len(envs)], bounds[k % len(envs)]
        report = play_random_games(env, range(first, last), policy, game.step_check())
        if bound and max(report.lengths) > bound:
            over.append(f"{scenarios[k % len(envs)] or 'default'}: {max(report.lengths)} > {bound}")
        for returns in report.returns:
            outcome = _outcome(game, returns)
            outcomes[outcome] = outcomes.get(outcome, 0) + 1
        if report.truncated:
            raise AssertionError(f"{report.truncated} games were truncated at the game's limit")
        lengths += report.lengths
        elapsed = time.perf_counter() - start
        progress = f"  {len(lengths):>6} games  {sum(lengths):>9} decisions  {elapsed:7.1f} s"
        print(progress, flush=True)
    if over:
        raise AssertionError(f"games over their scenario's decision bound: {'; '.join(over)}")
    where = ", ".join(s or "the default scenario" for s in scenarios)
    print(
        f"fuzz {args.env} ({args.policy}, {where}): {len(lengths)} games, {sum(lengths)} "
        f"decisions, every invariant held; outcomes {outcomes}; longest game {max(lengths)} "
        f"decisions (bounds {', '.join(map(str, bounds))}); {time.perf_counter() - start:.0f} s"
    )


def _outcome(game: registry.GameSpec, returns: dict[str, float]) -> str:
    """A competitive game: the winner (returns must be zero-sum); a cooperative one: win or loss
    (one shared return)."""
    values = set(returns.values())
    if game.facts.cooperative:
        if len(values) != 1 or values - {1.0, -1.0}:
            raise AssertionError(f"{game.name} returns {returns} are not one shared +1/-1")
        return "win" if values == {1.0} else "loss"
    if sum(returns.values()) != 0.0:
        raise AssertionError(f"returns {returns} are not zero-sum")
    return max(returns, key=returns.get) if any(returns.values()) else "draw"


if __name__ == "__main__":
    main()
