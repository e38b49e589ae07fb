"""A game's compiled scripted bot against its Python original, in microseconds per decision.

The games measured are the registered games with a batched bot (``GameSpec.batched_bots``),
found through the registry as every benchmark finds its games. Run:
``python benchmarks/bench_heuristic.py [--games 6] [--repeat 3]``. It records every decision
(observation and mask, both seats) of a few seeded games between the game's Python bots, then
feeds that same stream of decisions to: the Python bot (one ``act`` a call); the compiled bot
one decision a call through the Bot API (``SlotBot`` over a one-slot batch, which is what the
game's one-seat fast bot does); and the compiled batch, 256 decisions a call (one slot each).
The table gives the best of ``--repeat`` runs of each, and each row's speed-up over the Python
bot measured in the same run.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout (its package and its built core) first

from reborn_env.bots.batched import SlotBot, batched_bot  # noqa: E402
from reborn_env.core import registry  # noqa: E402

BATCH = 256


def record(game: str, kind: str, n_games: int) -> tuple[np.ndarray, np.ndarray]:
    """Every decision of ``n_games`` seeded games between two of the game's Python bots."""
    spec = registry.get(game)
    obs_rows, mask_rows = [], []
    for g in range(n_games):
        env = spec.make_env()
        env.reset(seed=g)
        bots = {agent: spec.make_bot(kind, seed=100 * g + k) for k, agent in enumerate(env.agents)}
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            obs_rows.append(np.array(obs["observation"], dtype=np.float32))
            mask_rows.append(np.array(obs["action_mask"], dtype=np.int8))
            env.step(bots[agent].act(obs_rows[-1], mask_rows[-1]))
    return np.stack(obs_rows), np.stack(mask_rows)


def per_decision(run, n: int, repeat: int) -> float:
    """The best time of ``repeat`` runs, in microseconds per decision."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best / n * 1e6


def bench(game: str, kind: str, n_games: int, repeat: int) -> list[tuple[str, float]]:
    spec = registry.get(game)
    obs, mask = record(game, kind, n_games)
    n = len(obs)
    python_bot = spec.make_bot(kind, seed=0)
    one = SlotBot(batched_bot(game, kind, [0]), 0)
    batch = batched_bot(game, kind, list(range(BATCH)))
    slots = np.arange(BATCH, dtype=np.int64)
    chunks = [(s, min(s + BATCH, n)) for s in range(0, n, BATCH)]

    def python() -> None:
        for r in range(n):
            python_bot.act(obs[r], mask[r])

    def single() -> None:
        for r in range(n):
            one.act(obs[r], mask[r])

    def batched() -> None:
        for lo, hi in chunks:
            batch.act(slots[: hi - lo], obs[lo:hi], mask[lo:hi])

    print(f"{game} {kind}: {n} decisions of {n_games} games", flush=True)
    return [
        (f"{kind}: Python bot", per_decision(python, n, repeat)),
        (f"{kind}: compiled, 1 a call (Bot API)", per_decision(single, n, repeat)),
        (f"{kind}: compiled batch, k={BATCH}", per_decision(batched, n, repeat)),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="seeded games recorded")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each, best kept")
    args = parser.parse_args()
    games = [(g, kind) for g in registry.names() for kind in registry.get(g).batched_bots]
    if not games:
        sys.exit("no registered game has a batched bot")
    for game, kind in games:
        rows = bench(game, kind, args.games, args.repeat)
        base = rows[0][1]
        print(f"\n{'':<40} {'us/decision':>12} {'speed-up':>9}")
        for name, us in rows:
            print(f"{name:<40} {us:>12.2f} {base / us:>8.1f}x")
        print()


if __name__ == "__main__":
    main()
