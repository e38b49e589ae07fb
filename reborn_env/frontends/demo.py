"""Play one seeded game of Earth Reborn between two random bots and show how it ended.

Run: ``python -m reborn_env.frontends.demo [--seed N] [--show-every K]``. The bots pick
uniformly among the legal actions (the action mask); the final board is the environment's ansi
render. A seed outside 0..2**63-1 or a negative K is a usage error (status 2).
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from reborn_env import earth_reborn_v0
from reborn_env.frontends.play import MAX_SEED


def play(seed: int, show_every: int) -> dict[str, float]:
    """Play one game to the end, printing the board every ``show_every`` decisions (0 = never)."""
    env = earth_reborn_v0.env(render_mode="ansi")
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    decisions = 0
    for agent in env.agent_iter():
        obs, reward, termination, truncation, _ = env.last()
        returns[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        if show_every and decisions % show_every == 0:
            print(env.render())
            print(f"{agent} plays {env.unwrapped.action_name(action)}\n")
        env.step(action)
        decisions += 1
    game = env.unwrapped.game
    print(env.render())
    winner = "draw" if game.winner == -1 else env.possible_agents[game.winner]
    mp = ", ".join(f"{a} {m} MP" for a, m in zip(env.possible_agents, game.mp, strict=True))
    print(f"Result after {decisions} decisions (turn {game.turn}): {winner} ({mp})")
    return returns


def main(argv: list[str] | None = None) -> int:
    """Run the demo; the exit status (argparse's 2 for a bad command line)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0, help="game seed, 0..2**63-1 (default 0)")
    parser.add_argument("--show-every", type=int, default=0, help="board every K decisions")
    args = parser.parse_args(argv)
    if not 0 <= args.seed <= MAX_SEED:
        parser.error(f"--seed must be in 0..2**63-1, got {args.seed}")
    if args.show_every < 0:
        parser.error(f"--show-every must be >= 0 (0: only the final board), got {args.show_every}")
    play(args.seed, args.show_every)
    return 0


if __name__ == "__main__":
    sys.exit(main())
