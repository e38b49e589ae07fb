"""Evaluate a checkpoint against a scripted bot or another checkpoint, from Python or the shell.

    python -m training.bench.evaluate --checkpoint checkpoints/run/latest.pt --opponent heuristic \\
        --games 50 --seed 0 [--greedy]

plays ``--games`` games in each seat (``reborn_env.bots.arena.play_match``) and prints wins, draws
and losses with the 95% Wilson interval of the win rate, per seat and overall. :func:`evaluate`
does the same from Python, and :func:`make_opponent` builds the bots the trainer evaluates
against. ``reborn_env.bots`` is imported when a match is set up, not with this module.

A checkpoint of a cooperative env (one team) has no opponent: its policy plays every agent, and the
CLI prints the team's record over ``--games`` seeded games (:func:`evaluate_team`,
:func:`play_team`) with mean rounds and steps per game; ``--opponent`` is ignored there.

The table is drawn from the arena's ``MatchResult`` (the checkpoint's view): ``seats`` (agent
name -> ``Record``), ``record(seat)`` and ``wilson(seat)`` (``None``: overall), and a ``Record``'s
``wins``, ``draws``, ``losses``, ``games`` and ``win_rate``.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reborn_env.bots.arena import Record, play_counted
from reborn_env.core import registry
from reborn_env.policies.artifact import CheckpointError, load_checkpoint
from reborn_env.policies.bot import PolicyBot
from training.common.cli import fail, seed_arg
from training.common.envs import COOPERATIVE, env_mode, env_sizes, make_env
from training.common.progress_bar import ProgressBar

if TYPE_CHECKING:
    from pettingzoo import AECEnv

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
    scenario: str | None = None,
) -> MatchResult:
    """The arena's ``MatchResult`` of the checkpoint against ``opponent``, ``games`` per seat,
    played in the game vector (``training/bench/matches.py``, with a progress bar), on the
    checkpoint's scenario or ``scenario`` (a policy of a map-independent layout plays any).

    ``opponent`` is ``"random"``, ``"heuristic"`` or the path of a policy file for the same env
    (played greedily too when ``greedy``). The checkpoint's policy samples with ``seed``, the
    opponent's bots are seeded from ``seed + 1``, and ``seed`` is the match's seed.
    """
    from training.bench.matches import play_vector_match, player

    payload = load_checkpoint(checkpoint_path)
    env_name, env_kwargs = checkpoint_env(checkpoint_path, payload)
    if scenario is not None:
        env_kwargs = other_scenario(checkpoint_path, payload, env_kwargs, scenario)
    # OpponentError if it names no bot (built on the default scenario for another layout)
    own_layout = env_kwargs.get("layout", "scenario") == "scenario"
    make_opponent(
        opponent, env_name, seed + 1, greedy, env_kwargs.get("scenario") if own_layout else None
    )
    return play_vector_match(
        env_name,
        env_kwargs,
        player(payload, env_name, seed, greedy),
        player(opponent, env_name, seed + 1, greedy, env_kwargs),
        games,
        seed,
        label=f"{Path(str(checkpoint_path)).name} vs {Path(opponent).name}",
    )


@dataclass
class TeamResult(Record):
    """A team's games of a cooperative env: wins/draws/losses and each game's length.

    A draw is a game that ended without a win or a loss (truncation). ``rounds`` is filled only
    for envs that report their round (:func:`game_rounds`).
    """

    rounds: list[int] = field(default_factory=list)
    steps: list[int] = field(default_factory=list)

    @property
    def mean_rounds(self) -> float:
        return sum(self.rounds) / len(self.rounds) if self.rounds else math.nan

    @property
    def mean_steps(self) -> float:
        return sum(self.steps) / len(self.steps) if self.steps else math.nan

    def summary(self) -> str:
        """``W/D/L (rate% [low, high]), N rounds, M steps`` per game on average."""
        return f"{super().summary()}, {self.mean_rounds:.1f} rounds, {self.mean_steps:.0f} steps"


def game_outcome(env: AECEnv, team_return: float) -> int:
    """+1 win, -1 loss, 0 otherwise, of the game ``env`` just finished.

    Read from the game's match (the sign of its first seat's final reward, the game contract's
    ``final_rewards``) where there is one, since with reward shaping the return's sign need not
    be the outcome; else (an env outside the contract) the sign of ``team_return``.
    """
    match = getattr(env.unwrapped, "match", None)
    final = team_return if match is None else match.final_rewards()[0]
    return (final > 0) - (final < 0)


def game_rounds(env: AECEnv) -> int | None:
    """The round the game in ``env`` is in (or ended in), if its engine reports one."""
    state = getattr(getattr(env.unwrapped, "game", None), "state", None)
    rounds = getattr(state, "round", None)
    return rounds if isinstance(rounds, int) else None


def play_team(
    env_fn: Callable[[], AECEnv],
    make_bot: Callable[[], Bot],
    games: int,
    seed: int,
    label: str | None = None,
) -> TeamResult:
    """``games`` seeded games (game ``i`` from ``seed + i``) of a cooperative env in which every
    agent is played by its own bot from ``make_bot`` (bots may keep per-agent state), each game
    by :func:`reborn_env.bots.arena.play_counted`; ``label`` shows a progress bar."""
    env = env_fn()
    bots = {agent: make_bot() for agent in env.possible_agents}
    result = TeamResult()
    bar = ProgressBar(label, games) if label else None
    for i in range(games):
        if bar:
            bar.update(i)
        returns, steps = play_counted(env, bots, seed + i)
        result.add(game_outcome(env, returns[env.possible_agents[0]]))
        result.steps.append(steps)
        rounds = game_rounds(env)
        if rounds is not None:
            result.rounds.append(rounds)
    if bar:
        bar.close()
    env.close()
    return result


def evaluate_team(
    spec: str | dict[str, Any],
    env_name: str,
    games: int,
    seed: int,
    greedy: bool = False,
    env_kwargs: dict[str, Any] | None = None,
    label: str | None = None,
) -> TeamResult:
    """The record of a team that plays every agent of cooperative env ``env_name`` with the bot
    ``spec`` names ("random", "heuristic", a policy file, or a checkpoint payload already read).

    Agent ``k``'s bot is seeded with ``seed + k``; game ``i`` is played from ``seed + i``, so
    teams evaluated with the same ``seed`` meet the same deals. ``label`` shows a progress bar.
    """
    from reborn_env.bots.loading import load_bot

    count = iter(range(1 << 30))
    if isinstance(spec, dict):
        payload = spec

        def make_bot() -> Bot:
            return PolicyBot(payload, greedy=greedy, seed=seed + next(count))

    else:
        scenario = (env_kwargs or {}).get("scenario")

        def make_bot() -> Bot:
            return load_bot(spec, env_name, seed + next(count), greedy, scenario)

    kwargs = dict(env_kwargs or {})
    return play_team(lambda: make_env(env_name, **kwargs), make_bot, games, seed, label)


def make_opponent(
    spec: str, env_name: str, seed: int, greedy: bool = False, scenario: str | None = None
) -> Bot:
    """The bot named by ``spec`` to play ``env_name`` (on ``scenario``): random, a bot the game
    registers (heuristic ...) or a policy file (``reborn_env.bots.loading.load_bot``);
    :class:`OpponentError` if it names none."""
    from reborn_env.bots.loading import load_bot

    bots = ("random", "heuristic", *registry.get(env_name).bots)
    if spec not in bots and not os.path.isfile(spec):
        raise OpponentError(
            f"opponent {spec!r}: not {', '.join(map(repr, dict.fromkeys(bots)))} or an existing "
            "policy file"
        )
    try:
        return load_bot(spec, env_name, seed=seed, greedy=greedy, scenario=scenario)
    except CheckpointError:
        raise
    except ValueError as err:
        raise OpponentError(f"opponent {spec!r}: {err}") from err


def checkpoint_env(
    path: str | os.PathLike[str], payload: dict[str, Any]
) -> tuple[str, dict[str, Any]]:
    """(env name, env_kwargs) the checkpoint's policy plays, after building that env once;
    :class:`CheckpointError` if the env no longer exists, refuses the checkpoint's
    ``env_kwargs`` or has other sizes than the policy's."""
    env = payload["env"]
    env_kwargs = payload["config"].get("env_kwargs", {})
    if not isinstance(env_kwargs, dict):
        raise CheckpointError(f"{path}: config env_kwargs is a {type(env_kwargs).__name__}")
    try:
        sizes = env_sizes(env["name"], **env_kwargs)
    except (ValueError, TypeError) as exc:
        raise CheckpointError(
            f"{path}: its env {env['name']!r} with its env_kwargs {env_kwargs!r} cannot be "
            f"built: {exc}"
        ) from exc
    if (env["obs_size"], env["n_actions"]) != sizes:
        raise CheckpointError(
            f"{path}: written for {env['name']} with obs_size {env['obs_size']} and n_actions "
            f"{env['n_actions']}, but that env (with the checkpoint's env_kwargs) now has "
            f"obs_size {sizes[0]} and n_actions {sizes[1]}"
        )
    return env["name"], dict(env_kwargs)


def other_scenario(
    path: str | os.PathLike[str], payload: dict[str, Any], env_kwargs: dict[str, Any], scenario: str
) -> dict[str, Any]:
    """The checkpoint's env_kwargs playing ``scenario`` instead; :class:`CheckpointError` if its
    policy cannot read that scenario's observation (its layout is the scenario's own)."""
    env_kwargs = {**env_kwargs, "scenario": scenario}
    env = payload["env"]
    try:
        sizes = env_sizes(env["name"], **env_kwargs)
    except (ValueError, TypeError) as exc:
        raise CheckpointError(f"{path}: scenario {scenario!r} cannot be built: {exc}") from exc
    if (env["obs_size"], env["n_actions"]) != sizes:
        raise CheckpointError(
            f"{path}: its policy reads obs_size {env['obs_size']} and n_actions "
            f"{env['n_actions']}; scenario {scenario!r} gives {sizes[0]} and {sizes[1]} "
            "(a policy trained with layout 'universal' plays every scenario)"
        )
    return env_kwargs


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


def format_team_table(rows: Sequence[tuple[str, TeamResult]]) -> str:
    """One line per team: games, W/D/L, win rate with its 95% Wilson interval, mean length."""
    header = (
        f"{'team':<20}{'games':>6}{'wins':>6}{'draws':>7}{'losses':>8}{'win rate':>10}"
        f"  {'95% interval':<16}{'rounds':>7}{'steps':>8}"
    )
    lines = [header]
    for name, r in rows:
        low, high = r.wilson()
        lines.append(
            f"{name:<20}{r.games:>6}{r.wins:>6}{r.draws:>7}{r.losses:>8}{r.win_rate:>10.3f}"
            f"  [{low:.3f}, {high:.3f}]  {r.mean_rounds:>7.1f}{r.mean_steps:>8.1f}"
        )
    return "\n".join(lines)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m training.bench.evaluate",
        description="Play a checkpoint's policy against a bot or another checkpoint.",
    )
    parser.add_argument("--checkpoint", required=True, help="checkpoint file to evaluate")
    parser.add_argument(
        "--opponent", default="random", help="random, heuristic or a checkpoint path"
    )
    parser.add_argument(
        "--games", type=int, default=20, help="games per seat, or per team (default 20)"
    )
    parser.add_argument(
        "--seed", type=seed_arg, default=0, help="match and bot seed, 0..2**63-1 (default 0)"
    )
    parser.add_argument(
        "--greedy", action="store_true", help="play the most likely action instead of sampling"
    )
    parser.add_argument(
        "--scenario",
        help="play this scenario instead of the checkpoint's (names as the env's scenario option)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; print the table, return the exit status (2, with one ``error:`` line, on a
    usage, checkpoint or opponent error)."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    mode = "greedy" if args.greedy else "sampled"
    try:
        payload = load_checkpoint(args.checkpoint)
        if env_mode(payload["env"]["name"]) == COOPERATIVE:
            return _team_main(args.checkpoint, payload, args.games, args.seed, args.greedy)
        result = evaluate(
            args.checkpoint, args.opponent, args.games, args.seed, args.greedy, args.scenario
        )
    except (CheckpointError, OpponentError) as exc:
        return fail(exc)
    except ImportError as exc:  # an exported opponent whose runtime is not installed
        return fail(f"opponent {args.opponent!r}: {exc}")
    where = f", scenario {args.scenario}" if args.scenario else ""
    print(
        f"{args.checkpoint} ({mode}) vs {args.opponent}: {args.games} games per seat, "
        f"seed {args.seed}{where}"
    )
    print(format_table(result))
    return 0


def _team_main(path: str, payload: dict[str, Any], games: int, seed: int, greedy: bool) -> int:
    """The CLI for a cooperative env's checkpoint: the policy's team over seeded games."""
    env_name, env_kwargs = checkpoint_env(path, payload)
    mode = "greedy" if greedy else "sampled"
    result = evaluate_team(payload, env_name, games, seed, greedy, env_kwargs, f"policy ({mode})")
    print(f"{path} ({mode}) playing every agent of {env_name}: {games} games, seed {seed}")
    print(format_team_table([(f"policy ({mode})", result)]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
