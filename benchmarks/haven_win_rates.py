"""Win rates of a cooperative game's teams: random play, the scripted bot and a learned policy.

Run: ``python benchmarks/haven_win_rates.py [--env NAME] [--scenario NAME] [--games 200]
[--seed 20261129] [--checkpoint PATH]``. ``--env`` is a cooperative registered game (default
the first in name order; the file is named for the one that is bundled, whose model card quotes
this table); ``--scenario`` one of its bundled scenarios.

Each team plays ``--games`` seeded games (game ``i`` from ``seed + i``, so every team meets the
same deals), one bot per agent: random legal play, the game's scripted (``heuristic``) bot and the
checkpoint's policy, greedily (its most likely action) and sampled. The checkpoint defaults to
the game's shipped policy (its registration's ``policy``) when it exists; without one the
learned rows are left out. The table gives the win rate with its 95% Wilson interval, and the
mean rounds and agent decisions (steps) per game.
"""

from __future__ import annotations

import sys
import time

from team_args import team_args


def main(argv: list[str] | None = None) -> int:
    args = team_args(__doc__, 200, argv, need_policy=False)
    import torch

    from reborn_env.policies.artifact import CheckpointError, load_checkpoint
    from training.bench.evaluate import evaluate_team, format_team_table
    from training.common.envs import env_sizes

    torch.set_num_threads(1)
    teams: list[tuple[str, str | dict, bool]] = [
        ("random", "random", False),
        ("scripted", "heuristic", False),
    ]
    if args.checkpoint:
        # refused here, before any game, if it was trained on another scenario's spaces
        sizes = env_sizes(args.env, **args.env_kwargs)
        try:
            payload = load_checkpoint(args.checkpoint, args.env, *sizes)
        except CheckpointError as err:
            print(f"error: {err}", file=sys.stderr)
            return 2
        teams += [("learned (greedy)", payload, True), ("learned (sampled)", payload, False)]
    else:
        print("no checkpoint (the game's shipped one is absent): learned rows left out")
    rows = []
    for name, spec, greedy in teams:
        start = time.perf_counter()
        result = evaluate_team(spec, args.env, args.games, args.seed, greedy, args.env_kwargs)
        rows.append((name, result))
        print(f"  played {name}: {result.games} games in {time.perf_counter() - start:.1f} s")
    where = f" ({args.env_kwargs['scenario']})" if args.env_kwargs else ""
    print(f"\n{args.env}{where}, {args.games} games per team from seed {args.seed}"
          + (f", checkpoint {args.checkpoint}" if args.checkpoint else ""))  # fmt: skip
    print(format_team_table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
