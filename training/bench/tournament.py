"""A round robin of bots with Bradley-Terry ratings, resumable, from Python or the shell.

    python -m training.bench.tournament --env NAME --bots random heuristic checkpoints/x.pt \\
        --games N --seed S [--out DIR] [--greedy]

Competitive games: every pair of bots plays ``--games`` games in each seating (A in the first
seat and B in the second, then swapped), every block on the same deals (the game vector from
``--seed``, each slot playing a fixed share of the games, so game ``g`` is the same deal in every
block). Games are played in the game vector (:func:`training.bench.matches.player` builds the
players, so any spec it takes plays: ``random``, the game's bots, policy files, and whatever
``reborn_env.bots.loading.load_bot`` loads, a search bot given each game's public view as
``reborn_env.bots.batched.act_batch`` hands it) and read with the rules' result
(:func:`training.bench.matches.outcome`). It prints Bradley-Terry ratings
(``training.bench.ratings``: Hunter's MM fit, draws as half wins, Elo-scaled with ``random``, else
the first bot, at 0, 95% bootstrap intervals) and each seat's win/draw/loss matrix, and writes
``DIR/heatmap.png`` (the row bot's score in each seat).

Cooperative games (``GameFacts.cooperative``: a team of identical utility): each bot plays every
seat as one team against the scenario, game ``g`` from ``seed + g`` for every team
(:func:`training.bench.evaluate.play_team`); a leaderboard of win rates with 95% Wilson intervals.

``DIR/results.json`` holds the arguments, every game's outcome (per block: the bots by seat and
the first seat's result of each game, +1 / 0 / -1, in deal order) and, once done, the ratings. It
is rewritten atomically after each block, so a killed tournament rerun with the same arguments
skips the blocks it finished; other arguments into the same DIR are refused, naming what differs.
Bad input (an unknown env or bot, fewer than two bots for a competitive game, ``--games`` < 1)
is one ``error:`` line and exit status 2, before anything is written.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from reborn_env.bots.arena import Record, wilson_interval
from reborn_env.core.files import atomic_write
from training.bench.matches import outcome, player
from training.bench.ratings import Ratings, rate
from training.common.cli import fail, seed_arg
from training.common.driver import Driver, GameEnd, Seating, by_slot
from training.common.envs import env_mode, env_names, make_env, make_vector_env
from training.common.progress_bar import ProgressBar

FORMAT = "reborn_env.tournament"
VERSION = 1
RESULTS = "results.json"
HEATMAP = "heatmap.png"
BOT_SEED_STRIDE = 1 << 20
"""Bot ``k`` (in ``--bots`` order) seeds its slots from ``seed + 1 + k * BOT_SEED_STRIDE``."""
SCORE = {1: 1.0, 0: 0.5, -1: 0.0}
RESAMPLES = 200
"""Bootstrap refits behind each rating's interval."""


class TournamentError(ValueError):
    """Arguments a tournament cannot be played with; the message says what and what is allowed."""


@dataclass(frozen=True)
class Arguments:
    """What decides a tournament's games (a rerun into the same folder must repeat them)."""

    env: str
    bots: tuple[str, ...]
    games: int
    seed: int
    greedy: bool = False
    num_envs: int = 256

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "bots": list(self.bots)}


@dataclass
class Tournament:
    """A tournament's state: its arguments, the seats, and the blocks played so far."""

    arguments: Arguments
    cooperative: bool
    agents: list[str]
    blocks: list[dict[str, Any]]

    def block_keys(self) -> list[tuple[str, ...]]:
        """Every block, in playing order: a team (cooperative), else the bots by seat."""
        bots = self.arguments.bots
        if self.cooperative:
            return [(bot,) for bot in bots]
        pairs = itertools.combinations(bots, 2)
        return [seating for a, b in pairs for seating in ((a, b), (b, a))]

    def done(self) -> dict[tuple[str, ...], list[int]]:
        """The finished blocks' outcomes, by key."""
        return {tuple(b["bots"]): b["outcomes"] for b in self.blocks}

    def to_json(self, summary: dict[str, Any] | None = None) -> dict[str, Any]:
        data = {
            "format": FORMAT,
            "version": VERSION,
            "arguments": self.arguments.to_json(),
            "mode": "cooperative" if self.cooperative else "competitive",
            "agents": self.agents,
            "blocks": self.blocks,
            "complete": len(self.blocks) == len(self.block_keys()),
        }
        return {**data, **(summary or {})}


def anchor_of(bots: Sequence[str]) -> str:
    """The bot rated 0: ``random`` if it plays, else the first."""
    return "random" if "random" in bots else bots[0]


def check(arguments: Arguments) -> dict[str, Any]:
    """Each bot's player source (:func:`check_bot`), after checking the env, the bots and the
    counts; :class:`TournamentError` naming what is wrong."""
    if arguments.env not in env_names():
        raise TournamentError(
            f"unknown env {arguments.env!r}; the envs are {', '.join(env_names())}"
        )
    if arguments.games < 1:
        raise TournamentError(f"--games must be at least 1, got {arguments.games}")
    if arguments.num_envs < 1:
        raise TournamentError(f"--num-envs must be at least 1, got {arguments.num_envs}")
    bots = arguments.bots
    repeated = sorted({b for b in bots if bots.count(b) > 1})
    if repeated:
        raise TournamentError(f"bot {repeated[0]!r} is named twice; name each bot once")
    cooperative = env_mode(arguments.env) == "cooperative"
    if not cooperative and len(bots) < 2:
        raise TournamentError(
            f"{arguments.env} is a competitive game: a round robin needs at least 2 bots, got "
            f"{len(bots)}"
        )
    if not bots:
        raise TournamentError("no bots: name at least one with --bots")
    return {spec: check_bot(spec, arguments.env, arguments.greedy) for spec in bots}


def check_bot(spec: str, env: str, greedy: bool = False) -> Any:
    """The player source of bot ``spec`` in ``env``: a checkpoint's payload (read and checked to
    be for ``env``), else the spec once a player of it could be built; TournamentError if not."""
    from reborn_env.core import registry
    from reborn_env.policies.artifact import load_checkpoint

    try:
        if spec.lower().endswith(".pt"):
            return load_checkpoint(spec, expect_env=env)
        player(spec, env, 0, greedy)(1)
        return spec
    except (ValueError, ImportError, OSError) as err:
        kinds = ", ".join(["random", *registry.get(env).bots])
        raise TournamentError(f"bot {spec!r}: {err} (the game's bots: {kinds})") from err


def load_or_start(arguments: Arguments, out: Path) -> Tournament:
    """The tournament in ``out/results.json`` if it was started with these arguments, else a new
    one; :class:`TournamentError` if that file holds another tournament (naming what differs)
    or is not a tournament's results."""
    probe = make_env(arguments.env)
    agents, cooperative = list(probe.possible_agents), env_mode(arguments.env) == "cooperative"
    probe.close()
    if not cooperative and len(agents) != 2:
        raise TournamentError(
            f"{arguments.env} has {len(agents)} seats; the round robin seats two bots"
        )
    path = out / RESULTS
    if not path.is_file():
        return Tournament(arguments, cooperative, agents, [])
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as err:
        raise TournamentError(f"{path}: not a tournament's results ({err})") from err
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != VERSION:
        raise TournamentError(f"{path}: not a {FORMAT} file of version {VERSION}")
    mine, theirs = arguments.to_json(), data.get("arguments")
    if not isinstance(theirs, dict) or not isinstance(data.get("blocks"), list):
        raise TournamentError(f"{path}: its arguments or blocks are missing")
    differ = [key for key in mine if mine[key] != theirs.get(key)]
    if differ:
        said = "; ".join(f"{k} {theirs.get(k)!r} there, {mine[k]!r} now" for k in differ)
        raise TournamentError(
            f"{path} holds a tournament with other arguments ({said}); rerun with its "
            "arguments to resume it, or give another --out"
        )
    tournament = Tournament(arguments, cooperative, agents, [])
    known = set(tournament.block_keys())
    for n, block in enumerate(data["blocks"]):
        bots, outcomes = (
            (block.get("bots"), block.get("outcomes")) if isinstance(block, dict) else ((), ())
        )
        if (
            not isinstance(bots, list)
            or tuple(bots) not in known
            or not isinstance(outcomes, list)
            or len(outcomes) != arguments.games
            or not set(outcomes) <= {-1, 0, 1}
        ):
            raise TournamentError(
                f"{path}: block {n} is not one of this tournament's, with {arguments.games} "
                "outcomes of -1, 0 or 1; give another --out"
            )
        tournament.blocks.append(block)
    return tournament


def play(
    arguments: Arguments,
    out: Path,
    sources: dict[str, Any],
    stream: TextIO | None = None,
) -> Tournament:
    """Play every block not yet in ``out/results.json``, saving after each; the tournament."""
    stream = stream if stream is not None else sys.stdout
    tournament = load_or_start(arguments, out)
    keys, done = tournament.block_keys(), tournament.done()
    todo = [key for key in keys if key not in done]
    if done:
        print(
            f"{out / RESULTS}: {len(keys) - len(todo)} of {len(keys)} blocks already played, "
            f"skipped; {len(todo)} to play",
            file=stream,
        )
    bar = ProgressBar("tournament", len(todo) * arguments.games, stream=stream) if todo else None
    seeds = {bot: arguments.seed + 1 + k * BOT_SEED_STRIDE for k, bot in enumerate(arguments.bots)}
    for n, key in enumerate(todo):
        shown = n * arguments.games

        def progress(finished: int, shown: int = shown) -> None:
            if bar:
                bar.update(shown + finished)

        if tournament.cooperative:
            outcomes = play_team_block(arguments, sources[key[0]], seeds[key[0]], progress)
        else:
            makers = [player(sources[b], arguments.env, seeds[b], arguments.greedy) for b in key]
            outcomes = play_block(arguments, makers, progress)
        tournament.blocks.append({"bots": list(key), "outcomes": outcomes})
        save(tournament, out)
    if bar:
        bar.close()
    return tournament


def play_block(
    arguments: Arguments,
    makers: Sequence[Callable[[int], Any]],
    progress: Callable[[int], None] | None = None,
) -> list[int]:
    """``arguments.games`` games in the game vector, seat ``s`` played by ``makers[s](n)``; the
    first seat's outcome of each game (+1 / 0 / -1), in deal order: slot ``i`` plays deals
    ``i, i + n, i + 2n, ...``, its own seed stream's games, so every block meets the same deals."""
    games = arguments.games
    n = min(arguments.num_envs, games)
    venv = make_vector_env(arguments.env, n, arguments.seed)
    by_seat = Seating(tuple(range(len(makers))))
    driver = Driver(
        venv, [make(n) for make in makers], lambda slot, game: by_seat, by_slot(games, n)
    )
    outcomes = [0] * games

    def count(end: GameEnd) -> None:
        outcomes[end.game] = int(outcome(end.rewards, 0, end.terminated))

    driver.run(count, progress)
    venv.close()
    return outcomes


def play_team_block(
    arguments: Arguments,
    source: Any,
    seed: int,
    progress: Callable[[int], None] | None = None,
) -> list[int]:
    """The team of ``source`` (one bot per seat, seat ``k``'s seeded ``seed + k``) over
    ``arguments.games`` games, game ``g`` from ``arguments.seed + g``; each game's outcome."""
    from reborn_env.bots.batched import SlotBot
    from training.bench.evaluate import play_team

    env = make_env(arguments.env)
    seats = len(env.possible_agents)
    env.close()
    bots = [
        SlotBot(player(source, arguments.env, seed + k, arguments.greedy)(1)) for k in range(seats)
    ]
    turn = itertools.cycle(bots)  # play_team asks for one bot per seat, in seat order
    outcomes = []
    for g in range(arguments.games):
        result = play_team(
            lambda: make_env(arguments.env), lambda: next(turn), 1, arguments.seed + g
        )
        outcomes.append(result.wins - result.losses)
        if progress:
            progress(g + 1)
    return outcomes


def save(tournament: Tournament, out: Path, summary: dict[str, Any] | None = None) -> None:
    """``out/results.json`` (with ``summary``'s entries: the ratings or the leaderboard), written
    atomically."""
    with atomic_write(out / RESULTS) as f:
        f.write(json.dumps(tournament.to_json(summary)).encode())


def ratings_of(tournament: Tournament, resamples: int = RESAMPLES) -> Ratings:
    """The bots' Bradley-Terry ratings from every game played, draws as half wins."""
    blocks = [
        (b["bots"][0], b["bots"][1], [SCORE[o] for o in b["outcomes"]]) for b in tournament.blocks
    ]
    bots = list(tournament.arguments.bots)
    return rate(blocks, bots, anchor_of(bots), resamples, tournament.arguments.seed)


def seat_records(tournament: Tournament, seat: int) -> dict[tuple[str, str], Record]:
    """(bot in ``seat``, its opponent) -> that bot's wins, draws and losses there."""
    records: dict[tuple[str, str], Record] = {}
    for block in tournament.blocks:
        me, other = block["bots"][seat], block["bots"][1 - seat]
        record = records.setdefault((me, other), Record())
        for result in block["outcomes"]:
            record.add(result if seat == 0 else -result)
    return records


Table = tuple[list[str], list[list[str]], int]
"""A table: its header, its rows (text cells) and how many of its first columns are names."""


def bot_record(tournament: Tournament, bot: str) -> Record:
    """``bot``'s wins, draws and losses over every game it played, in either seat."""
    record = Record()
    for block in tournament.blocks:
        if bot in block["bots"]:
            sign = 1 if block["bots"][0] == bot else -1
            for result in block["outcomes"]:
                record.add(sign * result)
    return record


def ratings_table(tournament: Tournament, ratings: Ratings) -> Table:
    """Rank, bot, rating and its interval, games and score (draws half), best first."""
    header = ["rank", "bot", "rating", "95% interval", "games", "score"]
    rows = []
    for rank, i in enumerate(ratings.ranked(), 1):
        r = bot_record(tournament, ratings.names[i])
        score = (r.wins + r.draws / 2) / max(r.games, 1)
        interval = f"[{ratings.low[i]:.0f}, {ratings.high[i]:.0f}]"
        cells = [f"{ratings.rating[i]:.0f}", interval, str(r.games), f"{score:.1%}"]
        rows.append([str(rank), ratings.names[i], *cells])
    return header, rows, 2


def seat_table(tournament: Tournament, seat: int) -> Table:
    """Wins/draws/losses of the row bot in ``seat`` against the column bot in the other."""
    bots = list(tournament.arguments.bots)
    records = seat_records(tournament, seat)
    header = [f"{tournament.agents[seat]} \\ {tournament.agents[1 - seat]}", *bots]
    rows = []
    for me in bots:
        cells = []
        for other in bots:
            r = records.get((me, other))
            cells.append(f"{r.wins}/{r.draws}/{r.losses}" if r else "-")
        rows.append([me, *cells])
    return header, rows, 1


def team_table(tournament: Tournament) -> Table:
    """Rank, team, games, wins/draws/losses and the win rate's 95% Wilson interval, best first."""
    header = ["rank", "team", "games", "wins", "draws", "losses", "win rate", "95% interval"]
    records = []
    for block in tournament.blocks:
        record = Record()
        for result in block["outcomes"]:
            record.add(result)
        records.append((block["bots"][0], record))
    records.sort(key=lambda item: -item[1].win_rate)
    rows = []
    for rank, (team, r) in enumerate(records, 1):
        low, high = wilson_interval(r.wins, r.games)
        counts = [str(n) for n in (r.games, r.wins, r.draws, r.losses)]
        rows.append([str(rank), team, *counts, f"{r.win_rate:.1%}", f"[{low:.1%}, {high:.1%}]"])
    return header, rows, 2


def format_table(table: Table) -> str:
    """A table as aligned text: the name columns to the left, the rest to the right."""
    header, rows, names = table
    widths = [max(len(row[c]) for row in [header, *rows]) for c in range(len(header))]
    lines = []
    for row in [header, *rows]:
        cells = [
            cell.ljust(w) if c < names else cell.rjust(w)
            for c, (cell, w) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def plot_heatmap(tournament: Tournament, path: Path) -> Any:
    """The row bot's score (wins plus half the draws, per game) against the column bot, one panel
    per seat of the row bot, each cell annotated; written as a PNG. Returns the figure."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    bots = list(tournament.arguments.bots)
    size = max(4.0, 1.1 * len(bots) + 2)
    fig = Figure(figsize=(2 * size + 1, size), dpi=100, layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(1, 2, sharey=True)
    for seat, ax in enumerate(axes):
        records = seat_records(tournament, seat)
        scores = np.full((len(bots), len(bots)), np.nan)
        for (me, other), r in records.items():
            scores[bots.index(me), bots.index(other)] = (r.wins + r.draws / 2) / r.games
        image = ax.imshow(scores, vmin=0, vmax=1, cmap="RdYlGn")
        for i, j in itertools.product(range(len(bots)), repeat=2):
            if not np.isnan(scores[i, j]):
                ax.text(j, i, f"{scores[i, j]:.0%}", ha="center", va="center", fontsize=9)
        labels = [Path(b).name for b in bots]
        ax.set_xticks(range(len(bots)), labels, rotation=30, ha="right")
        ax.set_yticks(range(len(bots)), labels if seat == 0 else [])
        ax.set(
            title=f"row bot as {tournament.agents[seat]}",
            xlabel=f"opponent, as {tournament.agents[1 - seat]}",
        )
    fig.colorbar(image, ax=list(axes), shrink=0.8, label="score of the row bot")
    fig.suptitle(f"{tournament.arguments.env}: {tournament.arguments.games} games per seating")
    with atomic_write(path) as f:
        fig.savefig(f, format="png")
    return fig


def report(tournament: Tournament, out: Path, resamples: int, stream: TextIO) -> Ratings | None:
    """Print the tables, write the ratings into results.json and (competitive) the heatmap."""
    a = tournament.arguments
    print(
        f"{a.env}: {', '.join(a.bots)}; {a.games} games per "
        f"{'team' if tournament.cooperative else 'seating'}, seed {a.seed}"
        f"{', greedy' if a.greedy else ''}",
        file=stream,
    )
    if tournament.cooperative:
        table = team_table(tournament)
        print(format_table(table), file=stream)
        save(
            tournament,
            out,
            {"leaderboard": [dict(zip(table[0], row, strict=True)) for row in table[1]]},
        )
        print(f"\nwrote {out / RESULTS}", file=stream)
        return None
    ratings = ratings_of(tournament, resamples)
    print(
        f"\nBradley-Terry ratings (Elo scale, {ratings.anchor} = 0; 95% bootstrap intervals "
        f"over {resamples} resamples of the games):",
        file=stream,
    )
    print(format_table(ratings_table(tournament, ratings)), file=stream)
    for seat in (0, 1):
        print(f"\nwins/draws/losses of the row bot as {tournament.agents[seat]}:", file=stream)
        print(format_table(seat_table(tournament, seat)), file=stream)
    save(tournament, out, {"ratings": ratings.to_json()})
    plot_heatmap(tournament, out / HEATMAP)
    print(f"\nwrote {out / RESULTS} and {out / HEATMAP}", file=stream)
    return ratings


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m training.bench.tournament",
        description="A round robin of bots (or, in a cooperative game, a team leaderboard).",
    )
    parser.add_argument("--env", default=None, help="a registered game (default: the first)")
    parser.add_argument(
        "--bots", nargs="+", required=True, help="random, a bot of the game's, or a policy file"
    )
    parser.add_argument("--games", type=int, default=100, help="games per seating or team")
    parser.add_argument("--seed", type=seed_arg, default=0, help="deals' and bots' seed")
    parser.add_argument("--out", help="results folder (default runs/tournament/<env>)")
    parser.add_argument("--greedy", action="store_true", help="policies play their likeliest move")
    parser.add_argument("--num-envs", type=int, default=256, help="games played at once")
    parser.add_argument(
        "--resamples", type=int, default=RESAMPLES, help="bootstrap refits of the ratings"
    )
    return parser


def main(argv: Sequence[str] | None = None, stream: TextIO | None = None) -> int:
    """Run the CLI; 0, or 2 with one ``error:`` line for bad input (nothing written)."""
    from reborn_env.core import registry

    args = _parser().parse_args(argv)
    stream = stream if stream is not None else sys.stdout
    env = args.env if args.env is not None else registry.default_name()
    arguments = Arguments(env, tuple(args.bots), args.games, args.seed, args.greedy, args.num_envs)
    out = Path(args.out) if args.out else Path("runs") / "tournament" / env
    try:
        if args.resamples < 0:
            raise TournamentError(f"--resamples must be 0 or more, got {args.resamples}")
        sources = check(arguments)
        tournament = play(arguments, out, sources, stream)
    except TournamentError as err:
        return fail(err)
    report(tournament, out, args.resamples, stream)
    return 0


if __name__ == "__main__":
    sys.exit(main())
