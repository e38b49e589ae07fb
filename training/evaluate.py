"""Evaluate a checkpoint against a scripted bot or another checkpoint, from Python or the shell.

    python -m training.evaluate --checkpoint checkpoints/run/latest.pt --opponent heuristic \\
        --games 50 --seed 0 [--greedy]

plays ``--games`` games in each seat (``reborn_env.bots.arena.play_match``) and prints wins, draws
and losses with the 95% Wilson interval of the win rate, per seat and overall. :func:`evaluate`
does the same from Python, and :func:`make_opponent` builds the bots the trainer evaluates
against. ``reborn_env.bots`` is imported when a match is set up, not with this module.

The table is drawn from the arena's ``MatchResult`` (the checkpoint's view): ``seats`` (agent
name -> ``Record``), ``record(seat)`` and ``wilson(seat)`` (``None``: overall), and a ``Record``'s
``wins``, ``draws``, ``losses``, ``games`` and ``win_rate``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .checkpoint import CheckpointError, load_checkpoint
from .envs import env_sizes, make_env
from .policy_bot import PolicyBot

if TYPE_CHECKING:
    from reborn_env.bots import Bot
    from reborn_env.bots.arena import MatchResult


class OpponentError(ValueError):
    """An opponent spec that names no bot: not random, heuristic or a checkpoint file."""


def evaluate(
    checkpoint_path: str | os.PathLike[str],
    opponent: str,
    games: int,
    seed: int,
    greedy: bool = False,
) -> MatchResult:
    """The arena's ``MatchResult`` of the checkpoint against ``opponent``, ``games`` per seat.

    ``opponent`` is ``"random"``, ``"heuristic"`` or the path of a checkpoint for the same env
    (played greedily too when ``greedy``). The checkpoint's bot is seeded with ``seed``, the
    opponent with ``seed + 1``, and ``seed`` is the match's seed.
    """
    from reborn_env.bots.arena import play_match

    payload = load_checkpoint(checkpoint_path)
    env_name = payload["env"]["name"]
    env_kwargs = dict(payload["config"].get("env_kwargs", {}))
    _check_sizes(checkpoint_path, payload, env_sizes(env_name, **env_kwargs))
    bot = PolicyBot(payload, greedy=greedy, seed=seed)
    rival = make_opponent(opponent, env_name, seed + 1, greedy)
    return play_match(lambda: make_env(env_name, **env_kwargs), bot, rival, games, seed)


def make_opponent(spec: str, env_name: str, seed: int, greedy: bool = False) -> Bot:
    """The bot named by ``spec`` to play ``env_name``: random, heuristic or a policy file
    (``reborn_env.bots.loading.load_bot``); :class:`OpponentError` if it names none."""
    from reborn_env.bots.loading import load_bot

    if spec not in ("random", "heuristic") and not os.path.isfile(spec):
        raise OpponentError(
            f"opponent {spec!r}: not 'random', 'heuristic' or an existing policy file"
        )
    try:
        return load_bot(spec, env_name, seed=seed, greedy=greedy)
    except CheckpointError:
        raise
    except ValueError as err:
        raise OpponentError(f"opponent {spec!r}: {err}") from err


def _check_sizes(
    path: str | os.PathLike[str], payload: dict[str, Any], sizes: tuple[int, int]
) -> None:
    env = payload["env"]
    if (env["obs_size"], env["n_actions"]) != sizes:
        raise CheckpointError(
            f"{path}: written for {env['name']} with obs_size {env['obs_size']} and n_actions "
            f"{env['n_actions']}, but that env (with the checkpoint's env_kwargs) now has "
            f"obs_size {sizes[0]} and n_actions {sizes[1]}"
        )


def format_table(result: MatchResult) -> str:
    """Wins, draws, losses and the win rate's 95% Wilson interval, per seat and overall."""
    header = (
        f"{'seat':<12}{'games':>6}{'wins':>6}{'draws':>7}{'losses':>8}"
        f"{'win rate':>10}  95% interval"
    )
    rows = [_row(result, seat) for seat in [*result.seats, None]]
    return "\n".join([header, *rows])


def _row(result: MatchResult, seat: str | None) -> str:
    record = result.record(seat)
    low, high = result.wilson(seat)
    return (
        f"{seat or 'overall':<12}{record.games:>6}{record.wins:>6}{record.draws:>7}"
        f"{record.losses:>8}{record.win_rate:>10.3f}  [{low:.3f}, {high:.3f}]"
    )


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m training.evaluate",
        description="Play a checkpoint's policy against a bot or another checkpoint.",
    )
    parser.add_argument("--checkpoint", required=True, help="checkpoint file to evaluate")
    parser.add_argument(
        "--opponent", default="random", help="random, heuristic or a checkpoint path"
    )
    parser.add_argument("--games", type=int, default=20, help="games per seat (default 20)")
    parser.add_argument("--seed", type=int, default=0, help="match and bot seed (default 0)")
    parser.add_argument(
        "--greedy", action="store_true", help="play the most likely action instead of sampling"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; print the table, return the exit status (2 on a usage or checkpoint error)."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    try:
        result = evaluate(args.checkpoint, args.opponent, args.games, args.seed, args.greedy)
    except (CheckpointError, OpponentError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    mode = "greedy" if args.greedy else "sampled"
    print(
        f"{args.checkpoint} ({mode}) vs {args.opponent}: {args.games} games per seat, "
        f"seed {args.seed}"
    )
    print(format_table(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
