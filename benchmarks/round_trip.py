"""Round trip at every decision: a restored position is the same game, for every pair of players.

Run: ``python benchmarks/round_trip.py [--env NAME ...] [--games 2000]``. The games of each env are
shared among every ordered pair of player kinds (random, heuristic, the shipped policy); before
each decision the position is saved, sent through JSON, restored into a twin environment and
required to give the same position, observations and masks, and after the same action the same
position, rewards and ends (reborn_env.core.round_trip); the ruleset's invariants and exact
masks are checked too. Prints progress and a table per pair; exits with status 1 on any failure.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time

from players import GAMES, PLAYER_KINDS, make_players

from reborn_env.core.round_trip import play_round_trip_game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", nargs="+", choices=sorted(GAMES), default=sorted(GAMES))
    parser.add_argument("--games", type=int, default=2000, help="per env, over all pairs")
    parser.add_argument("--players", nargs="+", choices=PLAYER_KINDS, default=PLAYER_KINDS)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--show", type=int, default=20, help="failures to print")
    args = parser.parse_args(argv)
    rows = []
    failures: list[str] = []
    for name in args.env:
        game = GAMES[name]
        agents = game.make().possible_agents
        pairs = list(itertools.product(args.players, repeat=len(agents)))
        start = time.perf_counter()
        counts = {pair: [0, 0, 0] for pair in pairs}  # games, decisions, failures
        for g in range(args.games):
            seed = args.first_seed + g
            pair = pairs[g % len(pairs)]
            try:
                report = play_round_trip_game(
                    game.make, make_players(name, pair, seed), seed, game.check
                )
            except AssertionError as err:
                counts[pair][2] += 1
                failures.append(f"{name} {'/'.join(pair)} seed {seed}: {err}")
            else:
                counts[pair][1] += report.decisions
            counts[pair][0] += 1
            if (g + 1) % 100 == 0:
                done = sum(c[1] for c in counts.values())
                print(
                    f"  {name}: {g + 1:>5} games  {done:>8} decisions  {len(failures)} failures  "
                    f"{time.perf_counter() - start:6.0f} s",
                    flush=True,
                )
        rows.append((name, agents, counts, time.perf_counter() - start))
    _print_table(rows)
    for failure in failures[: args.show]:
        print(f"FAIL {failure}")
    return 1 if failures else 0


def _print_table(rows: list) -> None:
    print()
    print("| env | players | games | decisions checked | failures |")
    print("| --- | --- | ---: | ---: | ---: |")
    for name, agents, counts, seconds in rows:
        for pair, (games, decisions, failed) in counts.items():
            players = ", ".join(f"{a} {k}" for a, k in zip(agents, pair, strict=True))
            print(f"| {name} | {players} | {games} | {decisions} | {failed} |")
        total = [sum(c[i] for c in counts.values()) for i in range(3)]
        print(f"| {name} | all ({seconds:.0f} s) | {total[0]} | {total[1]} | {total[2]} |")


if __name__ == "__main__":
    sys.exit(main())
