"""Play one seeded game between two random bots and show how it ended.

Run: ``python -m reborn_env.frontends.demo [--env NAME] [--seed N] [--show-every K]``. ``--env``
is any registered game (default the first bundled one in name order,
``reborn_env.core.registry.default_name()``). The bots pick uniformly among the legal actions
(the action mask); the final board is the environment's ansi render and the last line the game's
own summary of the end. A seed outside 0..2**63-1 or a negative K is a usage error (status 2).
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from reborn_env.core import registry
from reborn_env.frontends.play import MAX_SEED


def play(seed: int, show_every: int, env_name: str | None = None) -> dict[str, float]:
    """Play one game of ``env_name`` (None: the default game) to the end, printing the board
    every ``show_every`` decisions (0 = never); each agent's return."""
    env = registry.get(env_name or registry.default_name()).make_env(render_mode="ansi")
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
    print(env.render())
    print(f"Result after {decisions} decisions: {env.unwrapped.match.summary()}")
    return returns


def main(argv: list[str] | None = None) -> int:
    """Run the demo; the exit status (argparse's 2 for a bad command line)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--env",
        choices=registry.names(),
        default=registry.default_name(),
        help="the game (default %(default)s)",
    )
    parser.add_argument("--seed", type=int, default=0, help="game seed, 0..2**63-1 (default 0)")
    parser.add_argument("--show-every", type=int, default=0, help="board every K decisions")
    args = parser.parse_args(argv)
    if not 0 <= args.seed <= MAX_SEED:
        parser.error(f"--seed must be in 0..2**63-1, got {args.seed}")
    if args.show_every < 0:
        parser.error(f"--show-every must be >= 0 (0: only the final board), got {args.show_every}")
    play(args.seed, args.show_every, args.env)
    return 0


if __name__ == "__main__":
    sys.exit(main())
