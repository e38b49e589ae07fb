"""The command line the team benchmarks share: a cooperative game, games, seed, and its policy.

``haven_win_rates.py`` and ``haven_losses.py`` both take ``--env`` (a cooperative registered game),
``--scenario`` (one it bundles; default its default scenario), ``--games``, ``--seed`` and
``--checkpoint`` (default: the game's shipped policy, which plays the default scenario), check them
the same way, and run single-threaded torch from this checkout. ``args.env_kwargs`` is what the
env is built with (the scenario, when it is not the default).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from reborn_env.core import registry

ROOT = Path(__file__).resolve().parents[1]
TEAM_GAMES = [name for name in registry.names() if registry.get(name).facts.cooperative]


def team_args(
    doc: str, games: int, argv: list[str] | None, need_policy: bool
) -> argparse.Namespace:
    """The parsed and checked arguments; ``need_policy``: a usage error if no policy is found."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--env", choices=TEAM_GAMES, default=TEAM_GAMES[0] if TEAM_GAMES else None)
    parser.add_argument(
        "--games", type=int, default=games, help=f"games per team (default {games})"
    )
    parser.add_argument("--seed", type=int, default=20261129, help="first game's seed")
    parser.add_argument(
        "--scenario", help="a scenario the game bundles (default: the game's default scenario)"
    )
    parser.add_argument(
        "--checkpoint", help="learned policy to play (default the game's shipped policy)"
    )
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.env is None:
        parser.error("no cooperative game is registered")
    spec = registry.get(args.env)
    bundled = spec.scenario_names()
    if args.scenario is not None and args.scenario not in bundled:
        parser.error(f"--scenario {args.scenario!r}: {args.env} bundles {', '.join(bundled)}")
    other = args.scenario not in (None, spec.default_scenario)
    args.env_kwargs = {"scenario": args.scenario} if other else {}
    shipped = spec.policy
    if args.checkpoint is None and not other and shipped and (ROOT / shipped).exists():
        args.checkpoint = str(ROOT / shipped)
    if need_policy and args.checkpoint is None:
        parser.error("the game ships no policy: name one with --checkpoint")
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    sys.path.insert(0, str(ROOT))
    return args
