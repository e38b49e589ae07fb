"""The search bot's strength and speed: its score against an opponent seat by seat, and its pace.

Run: ``python benchmarks/bench_ismcts.py --bot ismcts:ms=1000 [--opponent heuristic] [--env NAME]
[--games 10] [--seed 20261201]``. The bot (any ``load_bot`` spec; the ISMCTS spec names its
budget) plays ``--games`` seeded games in each seat against the opponent through
``arena.play_match`` (game ``i`` from ``seed + i``, the same deals in both seats), then prints
its W/D/L per seat and overall with 95% Wilson intervals, the wall time, its decisions a second
(searched ones and forced ones apart: a decision with one legal action is played at once) and its
simulations a second. Why: the search bot's target is stated at a budget a move (>= 80% against the
heuristic at 1 s), and that figure needs both numbers beside it.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from reborn_env.bots.arena import play_match
from reborn_env.bots.loading import load_bot
from reborn_env.core import registry


class Timed:
    """A search bot's moves, timed and counted, with the simulations it reports."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.searched = self.forced = self.simulations = 0
        self.seconds = 0.0

    def reset(self) -> None:
        self.bot.reset()

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return self.bot.act(observation, action_mask)

    def act_public(self, view: Any, observation: np.ndarray, action_mask: np.ndarray) -> int:
        start = time.perf_counter()
        action = self.bot.act_public(view, observation, action_mask)
        self.seconds += time.perf_counter() - start
        if np.count_nonzero(action_mask) == 1:
            self.forced += 1
        else:
            self.searched += 1
        self.simulations += getattr(self.bot, "last_simulations", 0)
        return action


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", choices=registry.names(), default=registry.default_name())
    parser.add_argument("--bot", default="ismcts:ms=1000", help="the search bot's spec")
    parser.add_argument("--opponent", default="heuristic", help="a load_bot spec")
    parser.add_argument("--games", type=int, default=10, help="games per seat (default 10)")
    parser.add_argument("--seed", type=int, default=20261201)
    args = parser.parse_args()
    if args.games < 1:
        parser.error(f"--games must be >= 1, got {args.games}")
    try:
        bot = Timed(load_bot(args.bot, args.env, seed=args.seed))
        opponent = load_bot(args.opponent, args.env, seed=args.seed + 1)
    except ValueError as err:
        parser.error(str(err))
    spec = registry.get(args.env)
    start = time.perf_counter()
    result = play_match(spec.make_env, bot, opponent, args.games, args.seed)
    wall = time.perf_counter() - start
    print(f"{args.bot} against {args.opponent}, {args.games} games a seat from seed {args.seed}")
    print(result.score_line())
    searching = max(bot.seconds, 1e-9)
    print(
        f"{wall:.0f} s wall; {bot.searched} searched decisions ({bot.searched / searching:.2f}/s), "
        f"{bot.forced} forced; {bot.simulations} simulations ({bot.simulations / searching:.0f}/s)"
    )


if __name__ == "__main__":
    main()
