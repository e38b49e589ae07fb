"""Each scenario of a game side by side: its size, the scripted bot's balance, the vector's pace.

Run: ``python benchmarks/bench_scenarios.py [--env NAME] [--games 200] [--seconds 3]``. For every
packaged scenario of a two-seat competitive game whose scenarios are maps of characters (the
registry's default game unless ``--env``), one table row, by rising map size: the
map's squares and teams, turns, observation and action sizes; the heuristic against itself, the
score of each seat over ``--games`` games a seat on the same deals, with its 95% Wilson interval
(a win 1, a draw 1/2: how balanced the map is for the scripted bot); the heuristic against
uniform random play, both seats together; the mean decisions of a heuristic game; then the vector
env on the compiled core (256 games, one thread, a random legal action each, as bench_fast.py
steps it) in decisions per
second, and as a ratio to the game's default scenario measured in the same run.
``--generated FIRST COUNT`` adds one row for the maps ``generated:FIRST`` .. ``generated:FIRST +
COUNT - 1`` taken together (rules spec ER-MAPGEN; the held-out seeds are 1000000 20): the games
a seat shared among the maps, the sizes as ranges, the pace on the first map. A game with a
map-independent layout (Earth Reborn's ``layout="universal"``, ER-UNI) gets one more column: the
vector's pace in that layout, every map of the row in one mixed batch.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout (its package and its built core) first

from random_legal import random_legal  # noqa: E402

from reborn_env.core import registry  # noqa: E402
from training.bench.matches import play_vector_match, player  # noqa: E402
from training.exploit.score import Score  # noqa: E402

NUM_ENVS = 256


def score_text(score: Score) -> str:
    low, high = score.interval()
    return f"{score.value:.3f} [{low:.3f}, {high:.3f}]"


def heuristic_scores(
    env_name: str, opponent: str, scenarios: list[str], games: int, seed: int
) -> dict[str, Score]:
    """The heuristic against ``opponent``: its score in each seat over ``games`` games a seat,
    shared among ``scenarios`` (at least one on each)."""
    totals: dict[str, list[int]] = {}
    for k, scenario in enumerate(scenarios):
        options = {"scenario": scenario}
        result = play_vector_match(
            env_name,
            options,
            player("heuristic", env_name, seed + 1, env_kwargs=options),
            player(opponent, env_name, seed + 2, env_kwargs=options),
            max(1, games // len(scenarios) + (k < games % len(scenarios))),
            seed,
        )
        for agent, record in result.seats.items():
            total = totals.setdefault(agent, [0, 0, 0])
            for i, value in enumerate((record.wins, record.draws, record.losses)):
                total[i] += value
    return {agent: Score(*total) for agent, total in totals.items()}


def both_seats(scores: dict[str, Score]) -> Score:
    """The seats' games taken together."""
    return Score(
        *(
            sum(values)
            for values in zip(*((s.wins, s.draws, s.losses) for s in scores.values()), strict=True)
        )
    )


def game_length(env_name: str, scenarios: list[str], games: int, seed: int) -> float:
    """Mean decisions of a heuristic-against-heuristic game (the vector's steps per game),
    ``games`` on each of ``scenarios``."""
    return sum(_game_length(env_name, s, games, seed) for s in scenarios) / len(scenarios)


def _game_length(env_name: str, scenario: str, games: int, seed: int) -> float:
    spec = registry.get(env_name)
    venv = spec.make_vector_env(games, seed, 1, scenario=scenario)
    bots = player("heuristic", env_name, seed, env_kwargs={"scenario": scenario})(games)
    obs, mask, _ = venv.reset()
    steps = np.zeros(games, dtype=np.int64)
    ended = np.zeros(games, dtype=bool)
    slots = np.arange(games)
    while not ended.all():
        actions = np.asarray(bots.act(slots, obs, mask))
        obs, mask, _, _, terminated, truncated = venv.step(actions)
        steps += ~ended
        ended |= np.asarray(terminated) | np.asarray(truncated)
    venv.close()
    return float(steps.mean())


def vector_rate(
    env_name: str, scenario: str | list[str], seconds: float, **options: object
) -> float:
    """Decisions per second of the vector env, a random legal action per game each step."""
    venv = registry.get(env_name).make_vector_env(NUM_ENVS, 0, 1, scenario=scenario, **options)
    _, mask, _ = venv.reset()
    rng = np.random.default_rng(0)
    calls, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(8):
            _, mask, _, _, _, _ = venv.step(random_legal(mask, rng))
        calls += 8
    rate = calls * NUM_ENVS / (time.perf_counter() - start)
    venv.close()
    return rate


def _area(scn: object) -> int:
    return scn.board.width * scn.board.height


def _team(scn: object, faction: str) -> int:
    return sum(1 for c in scn.characters if c.faction == faction)


def _span(items: list, value: object) -> str:
    """``value`` of the items: one number, or their range ``low-high``."""
    values = [value(item) for item in items]
    low, high = min(values), max(values)
    return str(low) if low == high else f"{low}-{high}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    competitive = [n for n in registry.names() if not registry.get(n).facts.cooperative]
    parser.add_argument("--env", default=registry.default_name(), choices=competitive)
    parser.add_argument("--games", type=int, default=200, help="games a seat (default 200)")
    parser.add_argument("--seconds", type=float, default=3.0, help="timing per scenario")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--generated",
        nargs=2,
        type=int,
        metavar=("FIRST", "COUNT"),
        help="one more row: the generated maps of seeds FIRST .. FIRST + COUNT - 1 together",
    )
    args = parser.parse_args(argv)
    spec = registry.get(args.env)
    pools = {name: [name] for name in spec.scenario_names()}
    if args.generated:
        first, count = args.generated
        label = f"generated:{first}..{first + count - 1}"
        pools[label] = [f"generated:{s}" for s in range(first, first + count)]
    universal = "universal" in spec.layouts
    rows, rates, mixed = [], {}, {}
    for label, names in pools.items():
        envs = [spec.make_env(scenario=name) for name in names]
        scns = [env.unwrapped.rules.scenario for env in envs]
        agents = list(envs[0].possible_agents)
        seats = heuristic_scores(args.env, "heuristic", names, args.games, args.seed)
        games = max(20, args.games // 4)
        versus = both_seats(heuristic_scores(args.env, "random", names, games, args.seed))
        length = game_length(args.env, names, max(4, 64 // len(names)), args.seed)
        rates[label] = vector_rate(args.env, names[0], args.seconds)
        if universal:  # every map of the row in one batch
            mixed[label] = vector_rate(args.env, names, args.seconds, layout="universal")
        rows.append((label, scns, envs, agents, seats, versus, length))
        print(f"{label}: done", file=sys.stderr)
    base = rates[spec.default_scenario]
    print(
        f"\n{args.env}: heuristic against itself {args.games} games a seat (seed {args.seed}); "
        f"vector env {NUM_ENVS} games, 1 thread, random legal actions, {args.seconds:g} s each"
    )
    agents = rows[0][3]
    seat = agents[0]
    print(
        "| scenario | map | squares | teams | turns | obs | actions | "
        + " | ".join(f"heuristic as {a}" for a in agents)
        + " | heuristic vs random | decisions a game | vector decisions/s | vs default |"
        + (" universal layout, decisions/s |" if universal else "")
    )
    print("| --- " * (11 + universal + len(agents)) + "|")
    rows.sort(key=lambda row: (len(row[1]), _area(row[1][0]), len(row[1][0].characters)))
    for label, scns, envs, _, seats, versus, length in rows:
        cells = " | ".join(score_text(seats[a]) for a in agents)
        print(
            f"| {label} | {_span(scns, lambda s: s.board.width)} x "
            f"{_span(scns, lambda s: s.board.height)} "
            f"| {_span(scns, lambda s: s.board.void.count(False))} "
            f"| {' v '.join(_span(scns, lambda s, a=a: _team(s, a)) for a in agents)} "
            f"| {_span(scns, lambda s: s.turns)} "
            f"| {_span(envs, lambda e: e.observation_space(seat)['observation'].shape[0])} "
            f"| {_span(envs, lambda e: e.action_space(seat).n)} | {cells} "
            f"| {score_text(versus)} | {length:.0f} | {rates[label]:,.0f} "
            f"| {rates[label] / base:.2f}x |" + (f" {mixed[label]:,.0f} |" if universal else "")
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
