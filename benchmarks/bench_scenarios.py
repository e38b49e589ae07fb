"""Each scenario of a game side by side: its size, the scripted bot's balance, the vector's pace.

Run: ``python benchmarks/bench_scenarios.py [--env NAME] [--games 200] [--seconds 3]``. For every
packaged scenario of a two-seat competitive game whose scenarios are maps of characters (the
registry's default game unless ``--env``), one table row, by rising map size: the
map's squares and teams, turns, observation and action sizes; the heuristic against itself, the
score of each seat over ``--games`` games a seat on the same deals, with its 95% Wilson interval
(a win 1, a draw 1/2: how balanced the map is for the scripted bot); the heuristic against
uniform random play, both seats together; the mean decisions of a heuristic game; then the vector
env on the compiled core (256 games, one thread, a random legal action each) in decisions per
second, and as a ratio to the game's default scenario measured in the same run.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout (its package and its built core) first

from reborn_env.core import registry  # noqa: E402
from training.bench.matches import play_vector_match, player  # noqa: E402
from training.exploit.score import Score  # noqa: E402

NUM_ENVS = 256


def score_text(score: Score) -> str:
    low, high = score.interval()
    return f"{score.value:.3f} [{low:.3f}, {high:.3f}]"


def balance(env_name: str, scenario: str, games: int, seed: int) -> dict[str, Score]:
    """The heuristic against itself: each seat's score over ``games`` games."""
    options = {"scenario": scenario}
    result = play_vector_match(
        env_name,
        options,
        player("heuristic", env_name, seed + 1, env_kwargs=options),
        player("heuristic", env_name, seed + 2, env_kwargs=options),
        games,
        seed,
        label=f"{scenario}: heuristic against itself",
    )
    return {agent: Score.of(record) for agent, record in result.seats.items()}


def against_random(env_name: str, scenario: str, games: int, seed: int) -> Score:
    """The heuristic against uniform random play, both seats' games together."""
    options = {"scenario": scenario}
    result = play_vector_match(
        env_name,
        options,
        player("heuristic", env_name, seed + 1, env_kwargs=options),
        player("random", env_name, seed + 2, env_kwargs=options),
        games,
        seed,
    )
    records = list(result.seats.values())
    total = records[0]
    for record in records[1:]:
        total = type(total)(
            total.wins + record.wins, total.draws + record.draws, total.losses + record.losses
        )
    return Score.of(total)


def game_length(env_name: str, scenario: str, games: int, seed: int) -> float:
    """Mean decisions of a heuristic-against-heuristic game (the vector's steps per game)."""
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


def vector_rate(env_name: str, scenario: str, seconds: float) -> float:
    """Decisions per second of the vector env, a random legal action per game each step."""
    venv = registry.get(env_name).make_vector_env(NUM_ENVS, 0, 1, scenario=scenario)
    _, mask, _ = venv.reset()
    rng = np.random.default_rng(0)
    calls, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(8):
            noise = rng.random(mask.shape) * mask
            _, mask, _, _, _, _ = venv.step(noise.argmax(axis=1))
        calls += 8
    rate = calls * NUM_ENVS / (time.perf_counter() - start)
    venv.close()
    return rate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    competitive = [n for n in registry.names() if not registry.get(n).facts.cooperative]
    parser.add_argument("--env", default=registry.default_name(), choices=competitive)
    parser.add_argument("--games", type=int, default=200, help="games a seat (default 200)")
    parser.add_argument("--seconds", type=float, default=3.0, help="timing per scenario")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    spec = registry.get(args.env)
    names = spec.scenario_names()
    rows, rates = [], {}
    for name in names:
        env = spec.make_env(scenario=name)
        scn = env.unwrapped.rules.scenario
        agents = list(env.possible_agents)
        teams = " v ".join(str(sum(1 for c in scn.characters if c.faction == a)) for a in agents)
        seats = balance(args.env, name, args.games, args.seed)
        versus = against_random(args.env, name, max(20, args.games // 4), args.seed)
        length = game_length(args.env, name, 64, args.seed)
        rates[name] = vector_rate(args.env, name, args.seconds)
        rows.append((name, scn, teams, env, agents, seats, versus, length))
        print(f"{name}: done", file=sys.stderr)
    base = rates[spec.default_scenario]
    print(
        f"\n{args.env}: heuristic against itself {args.games} games a seat (seed {args.seed}); "
        f"vector env {NUM_ENVS} games, 1 thread, random legal actions, {args.seconds:g} s each"
    )
    agents = rows[0][4]
    print(
        "| scenario | map | squares | teams | turns | obs | actions | "
        + " | ".join(f"heuristic as {a}" for a in agents)
        + " | heuristic vs random | decisions a game | vector decisions/s | vs default |"
    )
    print("| --- " * (11 + len(agents)) + "|")
    rows.sort(key=lambda row: (row[1].board.width * row[1].board.height, len(row[1].characters)))
    for name, scn, teams, env, agents, seats, versus, length in rows:
        board = scn.board
        obs = env.observation_space(agents[0])["observation"].shape[0]
        actions = env.action_space(agents[0]).n
        cells = " | ".join(score_text(seats[a]) for a in agents)
        print(
            f"| {name} | {board.width} x {board.height} | {board.void.count(False)} | {teams} "
            f"| {scn.turns} | {obs} | {actions} | {cells} | {score_text(versus)} | {length:.0f} "
            f"| {rates[name]:,.0f} | {rates[name] / base:.2f}x |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
