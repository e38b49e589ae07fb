"""Position-mutation fuzz: every mutated position is refused cleanly or plays on soundly.

Run: ``python benchmarks/position_fuzz.py [--env NAME ...] [--mutations 10000] [--games 30]``.
Positions come from seeded games of random, scripted (heuristic) and shipped-policy players;
each mutation (reborn_env.core.position_fuzz) must be refused with PositionError, the previous
game intact, or accepted and then played to the end with the invariants holding and the position
round-tripping. Prints progress, a table per env (tried / refused / accepted-and-fine / crashed)
and per operator, and the first crashes; exits with status 1 if anything crashed.
"""

from __future__ import annotations

import argparse
import sys
import time

from players import GAMES, PLAYER_KINDS, make_players

from reborn_env.core.position_fuzz import MutationReport, collect_positions, fuzz_positions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", nargs="+", choices=sorted(GAMES), default=sorted(GAMES))
    parser.add_argument("--mutations", type=int, default=10_000, help="per env")
    parser.add_argument(
        "--games", type=int, default=30, help="games per env to take positions from"
    )
    parser.add_argument("--per-game", type=int, default=8, help="positions taken from each game")
    parser.add_argument(
        "--players", nargs="+", choices=PLAYER_KINDS, default=PLAYER_KINDS, help="kinds, in turn"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--show", type=int, default=20, help="crashes to print per env")
    args = parser.parse_args(argv)
    rows = []
    failed = False
    for name in args.env:
        game = GAMES[name]
        start = time.perf_counter()
        positions = collect_positions(
            game.make,
            lambda g, name=name: make_players(name, args.players[g % len(args.players)], g),
            args.games,
            args.per_game,
            seed=args.seed,
        )
        print(f"{name}: {len(positions)} positions from {args.games} games", flush=True)

        def progress(report: MutationReport, name: str = name, start: float = start) -> None:
            elapsed = time.perf_counter() - start
            print(
                f"  {name}: {report.tried:>6} tried  {report.refused:>6} refused  "
                f"{report.accepted:>6} accepted  {report.crashed:>4} crashed  {elapsed:6.0f} s",
                flush=True,
            )

        report = fuzz_positions(
            game.make, positions, args.mutations, game.check, args.seed, progress
        )
        rows.append((name, report, time.perf_counter() - start))
        failed |= report.crashed > 0
    _print_tables(rows, args.show)
    return 1 if failed else 0


def _print_tables(rows: list[tuple[str, MutationReport, float]], show: int) -> None:
    print()
    print("| env | tried | refused | accepted and fine | crashed | seconds |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name, r, seconds in rows:
        print(f"| {name} | {r.tried} | {r.refused} | {r.accepted} | {r.crashed} | {seconds:.0f} |")
    print()
    print("| env | operator | tried | refused | accepted |")
    print("| --- | --- | ---: | ---: | ---: |")
    for name, r, _ in rows:
        for operator, (tried, refused, accepted) in sorted(r.by_operator.items()):
            print(f"| {name} | {operator} | {tried} | {refused} | {accepted} |")
    for name, r, _ in rows:
        for crash in r.crashes[:show]:
            print(f"CRASH {name}: {crash}")


if __name__ == "__main__":
    sys.exit(main())
