"""Regenerate docs/benchmark.md: every registered game's tournament of the bots it ships.

Run from anywhere: ``python benchmarks/leaderboard.py [--games 800] [--seed 0] [--bots SPEC ...]
[--greedy] [--out docs/benchmark.md]``. For each game of the registry it plays
``python -m training.bench.tournament`` (``training/bench/tournament.py``) over ``random``, every
bot of the game's registration (``GameSpec.bots``), its shipped policy (``GameSpec.policy``) when
the file is there, and each ``--bots`` spec the game accepts (one it refuses is left out, and the
doc says why). A competitive game gets Bradley-Terry ratings and the win/draw/loss matrix of each
seat, a cooperative one a team leaderboard. Each section prints the exact tournament command,
seeds and budgets beside its tables, and that command, rerun, gives the same tables: results are
kept in ``runs/leaderboard/<env>/``, so a killed run resumes where it stopped.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNS = Path("runs") / "leaderboard"
DOC = Path("docs") / "benchmark.md"
EXPLOITABILITY = Path("docs") / "exploitability"
"""The reports of ``python -m training.exploit`` that the doc's exploitability section shows."""
GENERALISATION = Path("docs") / "generalisation.md"
"""The table of ``python benchmarks/bench_generalisation.py`` that the doc's last section shows."""
COMPARISON = Path("docs") / "comparison"
"""The reports of ``python -m training.compare`` that the doc's last section shows."""
DEFAULT_GAMES = 800
DEFAULT_SEED = 0


def shipped_bots(env: str) -> list[str]:
    """``random``, the game's registered bots and its shipped policy if the file exists."""
    from reborn_env.core import registry

    spec = registry.get(env)
    bots = ["random", *spec.bots]
    if spec.policy and Path(spec.policy).is_file():
        bots.append(spec.policy)
    return bots


def policy_env(spec: str) -> str | None:
    """The game a policy file (``.pt``) was written for, as its payload names it; None for any
    other spec, or a file that cannot be read (the tournament's own check then says why)."""
    if not spec.lower().endswith(".pt"):
        return None
    from reborn_env.policies.artifact import load_checkpoint

    try:
        return load_checkpoint(spec)["env"]["name"]
    except (ValueError, OSError, KeyError, TypeError):
        return None


def markdown(table: tuple[list[str], list[list[str]], int]) -> str:
    """A tournament table as a Markdown table (name columns to the left, figures to the right)."""
    header, rows, names = table
    align = ["---" if c < names else "---:" for c in range(len(header))]
    lines = [header, align, *rows]
    return "\n".join("| " + " | ".join(cells) + " |" for cells in lines)


def command(arguments: object, out: Path) -> str:
    """The shell command that plays (or resumes) this tournament."""
    a = arguments
    return (
        f"python -m training.bench.tournament --env {a.env} --bots {' '.join(a.bots)} "
        f"--games {a.games} --seed {a.seed} --num-envs {a.num_envs}"
        f"{' --greedy' if a.greedy else ''} --out {out}"
    )


def section(env: str, games: int, seed: int, greedy: bool, extra: list[str]) -> str:
    """Play one game's tournament (or resume it) and return its part of the doc."""
    from reborn_env.core import registry
    from training.bench import tournament as t

    bots, left_out, elsewhere = shipped_bots(env), [], []
    for spec in extra:
        if spec in bots:
            continue
        try:
            t.check_bot(spec, env, greedy)
            bots.append(spec)
        except t.TournamentError as err:
            if policy_env(spec) not in (None, env):  # read again only when refused
                elsewhere.append(f"`{spec}`")
            else:
                left_out.append(f"`{spec}` ({err})")
    arguments = t.Arguments(env, tuple(bots), games, seed, greedy)
    out = RUNS / env
    sources = t.check(arguments)
    kept = len(t.load_or_start(arguments, out).blocks)
    start = time.perf_counter()
    played = t.play(arguments, out, sources)
    seconds = time.perf_counter() - start
    ratings = t.report(played, out, t.RESAMPLES, sys.stdout)
    spec = registry.get(env)
    unit = "team" if played.cooperative else "seating"
    lines = [
        f"## {spec.title} (`{env}`)",
        "",
        f"Command: `{command(arguments, out)}`",
        "",
        f"Budget: {games} games per {unit}"
        + ("" if played.cooperative else f" ({2 * games} per pair, both seats on the same deals)")
        + f"; the deals come from seed {seed}, bot `k` (in `--bots` order) is seeded from "
        f"{seed} + 1 + k * {t.BOT_SEED_STRIDE}; policies play "
        + ("greedily" if greedy else "by sampling")
        + (f"; {seconds:.0f} s of play here." if not kept else "; resumed from kept blocks."),
    ]
    if elsewhere:
        lines += ["", "Not played here, policies of another game: " + ", ".join(elsewhere) + "."]
    if left_out:
        lines += ["", "Left out (refused for this game): " + "; ".join(left_out) + "."]
    if played.cooperative:
        lines += [
            "",
            "Each bot plays every seat as one team against the scenario, game `g` from seed "
            f"{seed} + g for every team; the win rate's interval is Wilson's, 95%.",
            "",
            markdown(t.team_table(played)),
        ]
        return "\n".join(lines)
    assert ratings is not None
    lines += [
        "",
        f"Ratings: Bradley-Terry by Hunter's MM, finished by Newton's method "
        "(`training/bench/ratings.py`), draws as half wins, on "
        f"the Elo scale with `{ratings.anchor}` at 0; the interval is the 2.5th to 97.5th "
        f"percentile of {ratings.resamples} bootstrap refits over the games (seed {seed}).",
        "",
        markdown(t.ratings_table(played, ratings)),
    ]
    for seat in (0, 1):
        me, other = played.agents[seat], played.agents[1 - seat]
        header, rows, names = t.seat_table(played, seat)
        header = [f"row bot as {me}, column bot as {other}", *header[1:]]
        lines += ["", f"Wins/draws/losses of the row bot as {me}:", ""]
        lines.append(markdown((header, rows, names)))
    return "\n".join(lines)


def kept_reports(folder: Path) -> list[tuple[dict, str]]:
    """Each JSON report in ``folder``, by name, with its path as the doc shows it."""
    import json

    return [(json.loads(r.read_text()), r.as_posix()) for r in sorted(folder.glob("*.json"))]


def exploitability_section(folder: Path = EXPLOITABILITY) -> str:
    """The doc's section on exploitability: each report kept in ``folder`` (written by
    ``python -m training.exploit``, a measurement of minutes to hours that this script does not
    rerun), with the protocol it follows; empty when there is none."""
    from training.exploit.report import doc_section, overview

    reports = kept_reports(folder)
    if not reports:
        return ""
    intro = [
        "## Exploitability",
        "",
        "How much a best response to a bot wins, in both seats (`training/exploit/`): each "
        "exploiter plays the frozen target from the seat facing each of the target's, the best "
        "per seat counts, and the mean of the two, minus 1/2, is the target's approximate "
        "exploitability in the symmetrised game (0: no exploiter beats a coin's share; 0.5: "
        "each seat always loses to one; below 0: the exploiters tried fall short of a best "
        "response, which scores at least a coin's share, so the estimate bounds nothing above "
        "0 and its interval says how much it could miss). The exploiters: every registered "
        "bot and `random` as "
        "they are; the search bot (`reborn_env/bots/ismcts.py`); PPO best responses "
        "warm-started from each registered bot's clone and from the target's own weights (or "
        "its clone). An estimate is a lower bound up to sampling noise (no exploiter beats the "
        "best response), and the best of several rows is biased up by their noise (most for "
        "the search bot's few games). On the test suite's toy poker game, small enough to "
        "enumerate, the protocol lands within 0.05 of the exact value for four fixed policies "
        "(the `test_exploitability.py` of `tests/games/`). A policy target plays as trained, "
        "sampling its moves (the leaderboard above plays policies greedily). A learned "
        "exploiter's minutes are wall time: the runs below shared two cores with other work, "
        "and a faster machine trains it further in the same budget (a 16-core "
        "machine running 16 jobs at once trained each in 3 minutes to about 119 updates, not "
        "the about 209 here, and measured the league policy at 0.041, not 0.102); `--updates` "
        "fixes the adversary instead. Three minutes also understate what a longer-trained "
        "exploiter finds: trained for 600 updates, the two strongest exploiters of each side "
        "raise the league policy's estimate from 0.102 to 0.173, the continuous league's from "
        "0.073 to 0.079, the continued league's from 0.049 to 0.058, the third run's from "
        "0.018 to 0.039 and the fourth's from -0.026 to 0.029, and leave the PPO "
        "policy's at 0.160 (each model card, 'Against a stronger adversary'). A report "
        "whose command skips the learned exploiters "
        "(`--skip clone target`) is the scripted and search bots' bound alone, weaker than "
        "the whole protocol's. The search bot is not measured as a target: a learned "
        "exploiter's PPO would wait on its 50 ms a move in every game of its vector.",
    ]
    parts = [doc_section(report, path) for report, path in reports]
    table = overview([report for report, _ in reports])
    return "\n".join([*intro, "", table, *("\n" + part for part in parts)])


def comparison_section(folder: Path = COMPARISON) -> str:
    """The doc's section comparing the training algorithms: each report kept in ``folder``
    (written by ``python -m training.compare``, an hour's run that this script does not rerun);
    empty when there is none."""
    from training.compare.report import doc_section

    reports = kept_reports(folder)
    if not reports:
        return ""
    intro = [
        "## Algorithms compared at one budget",
        "",
        "Which training algorithm gives the least exploitable policy for the same compute: each "
        "algorithm trains from the same warm start for the same minutes, from several seeds, "
        "and every policy it gives is measured the same way (`training/compare/`). The budget "
        "is small, so the figures rank the algorithms' early progress, not what each reaches "
        "in hours; the exploitability here is the protocol's above at a smaller budget, so it "
        "is a weaker adversary than the one that measured the shipped policies.",
    ]
    parts = [doc_section(report, path) for report, path in reports]
    return "\n".join([*intro, *("\n" + part for part in parts)])


def generalisation_section(table: Path = GENERALISATION) -> str:
    """The doc's section on one policy across maps: the table ``benchmarks/
    bench_generalisation.py`` kept in ``table`` (minutes of play and an hour of training that
    this script does not rerun), with what it measures; empty when there is none."""
    if not table.exists():
        return ""
    intro = [
        "## Generalisation: one policy on every map",
        "",
        "A game whose environment offers a map-independent layout lets one policy play every "
        "map, so a policy trained on some maps can be scored on others: maps generated from "
        "held-out seeds, never trained on, and every bundled scenario, against the greedy "
        "heuristic, greedy, on the same deals for every policy "
        "(`benchmarks/bench_generalisation.py`; the game's environment doc says how each "
        "policy was trained, and the policies, too large to ship, are remade by their configs).",
        "",
    ]
    return "\n".join(intro) + table.read_text().rstrip("\n")


def document(sections: list[str], games: int, seed: int, greedy: bool, extra: list[str]) -> str:
    """The whole of docs/benchmark.md."""
    bots = f" --bots {' '.join(extra)}" if extra else ""
    run = (
        f"python benchmarks/leaderboard.py --games {games} --seed {seed}"
        f"{' --greedy' if greedy else ''}{bots}"
    )
    intro = [
        "# Benchmark: the leaderboard of the shipped bots",
        "",
        f"Made by `{run}` at **{games} games** per seating (per team, in a cooperative game), "
        f"on {time.strftime('%Y-%m-%d', time.gmtime())}. That one command regenerates this "
        f"file (default: {DEFAULT_GAMES} games, seed {DEFAULT_SEED}); each section below gives "
        "the tournament command that plays its tables alone (`training/bench/tournament.py`).",
        "",
        "Every registered game plays `random`, the bots its registration names and its shipped "
        "policy. A competitive game is a round robin: every pair meets in both seatings on the "
        "same deals, and a game counts 1 for a win and half for a draw (the rules' result). A "
        "rating difference of 400 means 10 to 1 odds. Smoothing (a tenth of a win added to each "
        "pair that met, as OpenSpiel does) keeps a bot that never wins on the scale: its "
        "distance below the others says only that it lost every game, not by how much. An "
        "interval is a bot's rating relative to the anchor, so it carries the anchor's "
        "uncertainty too: two bots' ratings move together across resamples, and their "
        "difference is surer than their intervals side by side suggest.",
    ]
    extra_sections = [exploitability_section(), comparison_section(), generalisation_section()]
    sections = [*sections, *(s for s in extra_sections if s)]
    return "\n".join([*intro, *("\n" + s for s in sections)]) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int, default=DEFAULT_GAMES, help=f"games per seating or team "
        f"(default {DEFAULT_GAMES})"
    )  # fmt: skip
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="deals' and bots' seed")
    parser.add_argument("--bots", nargs="*", default=[], help="more bot specs to rate")
    parser.add_argument("--greedy", action="store_true", help="policies play their likeliest move")
    parser.add_argument("--out", default=str(DOC), help=f"the doc to write (default {DOC})")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    os.chdir(ROOT)  # the doc's commands and paths are the repository root's
    sys.path.insert(0, str(ROOT))
    import torch

    from reborn_env.core import registry
    from reborn_env.core.files import atomic_write
    from training.bench.tournament import TournamentError

    torch.set_num_threads(1)
    try:
        sections = [
            section(env, args.games, args.seed, args.greedy, args.bots) for env in registry.names()
        ]
    except TournamentError as err:  # e.g. runs/leaderboard/<env> holds other arguments' results
        print(f"error: {' '.join(str(err).split())}", file=sys.stderr)
        return 2
    text = document(sections, args.games, args.seed, args.greedy, args.bots)
    with atomic_write(args.out) as f:
        f.write(text.encode())
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
