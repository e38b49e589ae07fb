"""A game's compiled core, measured against its peers in one run, and proved at scale.

The games with a compiled core are the registered games whose package has a ``fast`` subpackage
(Earth Reborn's: ``_core``, ``vector_env``); the game is found through the registry, as every
benchmark finds its games, and its differential harness is the one in ``tests/<package>/fast``.

Run: ``python benchmarks/bench_fast.py [--seconds 3] [--env NAME]`` prints one table of decisions
per second, each as a ratio to PettingZoo's connect_four_v3 ``env()`` measured in the same run:
connect_four_v3 env(), the game's ``env()`` on each backend, the vector core (the game's
``vector_env``, observations and masks included) at N = 1, 64, 256, 1024 on 1 and 2 threads,
and pgx connect four (B = 256, ``jax.jit`` of ``vmap``, compile time excluded); then the build
time, the first import, the memory of one game, the deep copy of a mid-game env on each backend
and a vector slot's position out and in. Every row plays uniformly random legal
actions: one at a time from the mask for the AEC envs (as bench_env.py does), for the whole batch
at once from the mask array for the vector core (numpy) and pgx (jax), as batched environments
are driven. Needs the ``bench`` extra (pygame-ce for PettingZoo's classic games;
pgx and jax for the pgx row, which otherwise says it is missing and why).

``python benchmarks/bench_fast.py differential --games 20000 [--workers 2]`` runs the
differential harness (tests/<package>/fast/differential.py) over that many seeded games of
random, busy and heuristic players, a ``Games`` slot of the core against the reference engine at
every decision (``--level aec``: env(backend="fast") against env(backend="python"); ``--level
vector``: runs of 64 games of vector_env on 2 threads against their reference matches), with
illegal actions and crossings, and prints a summary table; it exits with status 1 on any
mismatch (2 if it was stopped, by Ctrl-C or SIGTERM, before the end: the table then counts the
games done).
"""

from __future__ import annotations

import argparse
import copy
import importlib
import importlib.util
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from functools import cached_property
from pathlib import Path
from types import ModuleType

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
# This checkout first (its package, its built core, and the harness that lives with the tests),
# before any installed copy.
sys.path.insert(0, str(ROOT))

from bench_env import aec_rate  # noqa: E402
from random_legal import random_legal  # noqa: E402

from reborn_env.core import registry  # noqa: E402

VECTOR_SIZES = (1, 64, 256, 1024)
THREADS = (1, 2)
PGX_BATCH = 256
PEER = "connect_four_v3 env()"


class Compiled:
    """A registered game with a compiled core, and its modules: ``fast`` (the core and
    ``AVAILABLE``), ``public`` (``env``, ``vector_env``) and ``harness`` (the differential one)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.package = registry.get(name).env.split(":")[0].rsplit(".", 1)[0]

    @cached_property
    def fast(self) -> ModuleType:
        return importlib.import_module(f"{self.package}.fast")

    @cached_property
    def public(self) -> ModuleType:
        return importlib.import_module(f"reborn_env.{self.name}")

    @cached_property
    def harness(self) -> ModuleType:
        folder = self.package.rsplit(".", 1)[1]
        return importlib.import_module(f"tests.{folder}.fast.differential")

    @property
    def sources(self) -> Path:
        return ROOT.joinpath(*self.package.split("."), "fast", "src")

    def missing(self) -> str | None:
        """Why the core cannot be measured, or None."""
        if not self.fast.AVAILABLE:
            return f"core not built: {self.fast.IMPORT_ERROR}"
        return None

    def vector_missing(self) -> str | None:
        """Why the vector core cannot be measured (not built, or a game whose core compiles
        only hot pieces, as haven's), or None."""
        if self.missing():
            return self.missing()
        if not hasattr(self.fast.core, "Games"):
            return "no vector core: this game compiles only pieces of its engine"
        return None


def compiled_games() -> list[str]:
    """The registered games whose package has a compiled core (a ``fast`` subpackage)."""
    return [
        name
        for name in registry.names()
        if importlib.util.find_spec(f"{Compiled(name).package}.fast") is not None
    ]


# --- The random legal policy of the batched rows ----------------------------------------------


def policy_rate(game: Compiled, n: int = 1024, calls: int = 200) -> float:
    """Actions per second of :func:`random_legal` alone, on masks of real decisions."""
    mask_of = game.harness.mask_of
    rules = game.harness.reference_rules()
    rng = np.random.default_rng(0)
    matches = [rules.new_match(seed, {}) for seed in range(n)]
    for match in matches:
        for _ in range(int(rng.integers(60))):
            match.apply(int(rng.choice(match.legal_actions())))
    mask = np.stack([mask_of(list(m.legal_actions()), rules.n_actions) for m in matches])
    start = time.perf_counter()
    for _ in range(calls):
        random_legal(mask, rng)
    return n * calls / (time.perf_counter() - start)


# --- Rows --------------------------------------------------------------------------------------


def vector_rate(
    game: Compiled, num_envs: int, num_threads: int, seconds: float
) -> tuple[int, float]:
    """The vector core stepped with a random legal action per game, observations and masks
    written every step, until time is up; decisions = games x steps."""
    venv = game.public.vector_env(
        num_envs=num_envs, seed=0, num_threads=num_threads, backend="fast"
    )
    _, mask, _ = venv.reset()
    rng = np.random.default_rng(0)
    calls_per_check = max(1, 2048 // num_envs)
    calls, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(calls_per_check):
            _, mask, _, _, _, _ = venv.step(random_legal(mask, rng))
        calls += calls_per_check
    return calls * num_envs, time.perf_counter() - start


def pgx_rate(seconds: float) -> tuple[int, float, float]:
    """pgx connect four, B games per call of one jitted function (random legal action by
    jax.random.categorical over the mask, vmap of the step with auto-reset); the first call,
    which compiles, is timed apart. Returns decisions, seconds, compile seconds."""
    import jax
    import jax.numpy as jnp
    import pgx
    from pgx.experimental import auto_reset

    env = pgx.make("connect_four")
    step = jax.vmap(auto_reset(env.step, env.init))

    @jax.jit
    def play(state, key):  # noqa: ANN001, ANN202 - jax pytrees
        choose, advance = jax.random.split(key)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        action = jax.random.categorical(choose, logits, axis=-1)
        return step(state, action, jax.random.split(advance, PGX_BATCH))

    compile_start = time.perf_counter()
    keys = jax.random.split(jax.random.PRNGKey(0), 1024)
    state = jax.jit(jax.vmap(env.init))(jax.random.split(keys[0], PGX_BATCH))
    state = jax.block_until_ready(play(state, keys[1]))
    compiled = time.perf_counter() - compile_start
    calls, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for key in keys[calls % 1024 : calls % 1024 + 64]:
            state = play(state, key)
        jax.block_until_ready(state)
        calls += 64
    return calls * PGX_BATCH, time.perf_counter() - start, compiled


def speed_rows(
    game: Compiled, seconds: float
) -> list[tuple[str, Callable[[], tuple[int, float]] | str]]:
    """(name, measure or the reason it cannot be measured), the peer first."""
    from pettingzoo.classic import connect_four_v3

    env = game.public.env
    rows: list[tuple[str, Callable[[], tuple[int, float]] | str]] = [
        (PEER, lambda: aec_rate(connect_four_v3.env, seconds)),
        (
            f'{game.name} env(backend="python")',
            lambda: aec_rate(lambda: env(backend="python"), seconds),
        ),
    ]
    missing = game.missing()
    rows.append(
        (
            f'{game.name} env(backend="fast")',
            missing or (lambda: aec_rate(lambda: env(backend="fast"), seconds)),
        )
    )
    missing = game.vector_missing()
    for n in VECTOR_SIZES:
        for threads in THREADS:
            rows.append(
                (
                    f"vector core N={n}, {threads} thread{'s' * (threads > 1)}",
                    missing or (lambda n=n, t=threads: vector_rate(game, n, t, seconds)),
                )
            )
    return rows


# --- Build, import and memory ------------------------------------------------------------------


def build_seconds(game: Compiled) -> float | str:
    """Wall time of a clean build of the extension (setup.py build_ext, into a scratch folder)."""
    if not list(game.sources.glob("*.c")):
        return "no C sources"
    with tempfile.TemporaryDirectory() as scratch:
        start = time.perf_counter()
        done = subprocess.run(
            [
                sys.executable,
                "setup.py",
                "-q",
                "build_ext",
                "--force",
                "-b",
                scratch,
                "-t",
                scratch,
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        elapsed = time.perf_counter() - start
        built = list(Path(scratch).rglob("_core*.so"))
    if done.returncode or not built:
        return f"build failed: {(done.stderr or done.stdout).strip().splitlines()[-1:]}"
    return elapsed


IMPORT_PROBE = """
import importlib, json, time
start = time.perf_counter()
importlib.import_module("{package}")
parent = time.perf_counter()
importlib.import_module("{package}.fast")
figures = {{"core": time.perf_counter() - parent}}
try:
    importlib.import_module("reborn_env.{name}").env(backend="fast").reset(seed=0)
    figures["first"] = time.perf_counter() - start
except Exception as err:
    figures["first"] = f"failed: {{type(err).__name__}}"
print(json.dumps(figures))
"""


def import_seconds(game: Compiled) -> tuple[float, float | str]:
    """In a fresh interpreter: the import of the fast package (the extension loads there; no
    compilation or JIT happens at import), and from nothing to a reset env on the core."""
    probe = IMPORT_PROBE.format(package=game.package, name=game.name)
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    figures = json.loads(out.stdout)
    return figures["core"], figures["first"]


def _resident_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def core_bytes_per_game(game: Compiled, n: int = 8192) -> float | str:
    """RSS growth per slot of a ``Games`` of ``n`` slots after reset_all (its output arrays are
    allocated and touched before the first reading)."""
    missing = game.vector_missing()
    if missing:
        return missing
    rules = game.harness.reference_rules()
    obs = np.ones((n, rules.obs_size), dtype=np.float32)
    mask = np.ones((n, rules.n_actions), dtype=np.int8)
    agent = np.ones(n, dtype=np.int8)
    before = _resident_bytes()
    games = game.harness.new_games(game.fast.core.Games, rules, n, 0)
    games.reset_all(obs, mask, agent)
    return (_resident_bytes() - before) / n


def reference_bytes_per_game(game: Compiled, n: int = 200) -> float:
    """Python heap per game of the reference engine (tracemalloc), after its first decisions."""
    rules = game.harness.reference_rules()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    matches = [rules.new_match(seed, {}) for seed in range(n)]
    for match in matches:
        for _ in range(10):
            match.apply(match.legal_actions()[0])
    used = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    return used / n


# --- The speed command -------------------------------------------------------------------------


def speed(args: argparse.Namespace) -> int:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    game = Compiled(args.env)
    results: list[tuple[str, int | None, float | None, str]] = []
    for name, measure in speed_rows(game, args.seconds):
        if isinstance(measure, str):
            results.append((name, None, None, measure))
            print(f"  skipped {name}: {measure}", flush=True)
            continue
        try:
            steps, elapsed = measure()
        except Exception as err:  # a core still being written: the row says how it failed
            results.append((name, None, None, f"failed: {type(err).__name__}: {err}"[:160]))
            print(f"  failed {name}: {err}", flush=True)
            continue
        results.append((name, steps, steps / elapsed, ""))
        print(f"  measured {name}: {steps} decisions in {elapsed:.1f} s", flush=True)
    pgx_compile: float | None = None
    pgx_name = f"pgx connect_four B={PGX_BATCH} (jit+vmap)"
    try:
        steps, elapsed, pgx_compile = pgx_rate(args.seconds)
    except ImportError as err:
        results.append((pgx_name, None, None, f"not installed ({err}): pip install pgx"))
    else:
        results.append((pgx_name, steps, steps / elapsed, f"compile {pgx_compile:.1f} s excluded"))
        print(f"  measured {pgx_name}: {steps} decisions in {elapsed:.1f} s", flush=True)
    peer = results[0][2]
    print()
    head = ("environment", "decisions", "decisions/s", f"vs {PEER}")
    print(f"| {head[0]:<42} | {head[1]:>9} | {head[2]:>11} | {head[3]:>25} | note")
    print(f"| {'-' * 42} | {'-' * 8}: | {'-' * 10}: | {'-' * 24}: | ---")
    for name, steps, rate, note in results:
        if rate is None:
            print(f"| {name:<42} | {'-':>9} | {'-':>11} | {'-':>25} | {note}")
        else:
            print(f"| {name:<42} | {steps:>9} | {rate:>11,.0f} | {rate / peer:>24.2f}x | {note}")
    print()
    if not game.vector_missing():
        rate = policy_rate(game)
        print(f"the vector rows include their policy: {rate:,.0f} random legal actions/s")
        print("(numpy, N = 1024, on the masks of real decisions)")
        print()
    _print_costs(game)
    _print_targets(game, results, peer)
    return 0


def copy_seconds(game: Compiled, backend: str, copies: int = 200) -> float | str:
    """Seconds per ``copy.deepcopy`` of a mid-game ``env(backend=...)`` (how OpenSpiel clones a
    Python state, and how search bots branch), best of five rounds."""
    missing = game.missing() if backend == "fast" else None
    if missing:
        return missing
    env = game.public.env(backend=backend)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(40):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
    rounds = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(copies):
            copy.deepcopy(env)
        rounds.append((time.perf_counter() - start) / copies)
    return min(rounds)


def position_seconds(game: Compiled, reps: int = 500) -> tuple[float, float]:
    """Seconds per ``get_state`` and per ``set_state`` of one slot of the game's vector env (a
    run's checkpoint, a search bot's determinization), mid-game, best of five rounds each."""
    vector = game.public.vector_env(2, seed=0)
    vector.reset()
    rng = np.random.default_rng(0)
    for _ in range(30):
        vector.step(random_legal(vector.mask, rng))
    position = vector.get_state(0)

    def best(call: Callable[[], object]) -> float:
        rounds = []
        for _ in range(5):
            start = time.perf_counter()
            for _ in range(reps):
                call()
            rounds.append((time.perf_counter() - start) / reps)
        return min(rounds)

    return best(lambda: vector.get_state(0)), best(lambda: vector.set_state(1, position))


def _print_costs(game: Compiled) -> None:
    built = _attempt(lambda: build_seconds(game))
    core_import, first_env = _attempt(lambda: import_seconds(game), pair=True)
    per_core = _attempt(lambda: core_bytes_per_game(game))
    per_reference = _attempt(lambda: reference_bytes_per_game(game))
    copy_fast = _attempt(lambda: copy_seconds(game, "fast"))
    copy_python = _attempt(lambda: copy_seconds(game, "python"))
    no_vector = game.vector_missing()
    position_out, position_in = (
        (no_vector, no_vector) if no_vector else _attempt(lambda: position_seconds(game), pair=True)
    )
    figures = [
        ("build of the core (setup.py build_ext, clean)", _seconds(built)),
        ("first import of the fast package (no JIT)", _millis(core_import)),
        ("fresh interpreter to a reset env(backend='fast')", _millis(first_env)),
        ("memory per game, core (RSS growth per Games slot)", _bytes(per_core)),
        ("memory per game, reference GameState (Python heap)", _bytes(per_reference)),
        ("deep copy of a mid-game env(backend='fast')", _micros(copy_fast)),
        ("deep copy of a mid-game env(backend='python')", _micros(copy_python)),
        ("a slot's position out, vector get_state (mid-game)", _micros(position_out)),
        ("a slot's position in, vector set_state (mid-game)", _micros(position_in)),
    ]
    print("| figure | value |")
    print("| --- | ---: |")
    for name, value in figures:
        print(f"| {name} | {value} |")
    print()


def _attempt(measure: Callable[[], object], pair: bool = False) -> object:
    """``measure()``, or what went wrong in words (twice for a pair), for a core in progress."""
    try:
        return measure()
    except Exception as err:
        failed = f"failed: {type(err).__name__}: {err}"[:120]
        return (failed, failed) if pair else failed


def _seconds(value: float | str) -> str:
    return value if isinstance(value, str) else f"{value:.1f} s"


def _micros(value: float | str) -> str:
    return value if isinstance(value, str) else f"{value * 1e6:,.0f} us"


def _millis(value: float | str) -> str:
    return value if isinstance(value, str) else f"{value * 1000:.0f} ms"


def _bytes(value: float | str) -> str:
    return value if isinstance(value, str) else f"{value:,.0f} bytes"


def _print_targets(
    game: Compiled, results: list[tuple[str, int | None, float | None, str]], peer: float
) -> None:
    """The compiled core's targets, each met or not in this run."""
    rate = {name: r for name, _, r, _ in results}
    env_fast = rate.get(f'{game.name} env(backend="fast")')
    vector = max(
        (r for name, r in rate.items() if name.startswith("vector core") and r), default=None
    )
    pgx = next((r for name, r in rate.items() if name.startswith("pgx")), None)
    targets = [
        ("env(backend='fast') >= 5x connect_four_v3 env()", env_fast, 5 * peer),
        ("vector core >= 100x connect_four_v3 env()", vector, 100 * peer),
        ("vector core >= pgx connect four", vector, pgx),
    ]
    for what, got, needed in targets:
        if got is None or needed is None:
            verdict = "not measured"
        else:
            verdict = f"{'met' if got >= needed else 'NOT met'} ({got:,.0f} vs {needed:,.0f}/s)"
        print(f"target {what}: {verdict}")


# --- The differential command ------------------------------------------------------------------


def _differential_chunk(job: tuple[str, str, str, int, int]) -> tuple[dict, list[str], float]:
    """Games ``first .. first + count - 1`` (player by seed) of the game ``name``, on the given
    level and candidate; per-player tallies as dicts, the mismatches, the seconds."""
    name, level, candidate, first, count = job
    game = Compiled(name)
    diff = game.harness
    rules = diff.reference_rules()
    games_class = _candidate_class(game, candidate)
    tallies: dict[str, diff.Tally] = {p: diff.Tally() for p in diff.PLAYERS}
    mismatches: list[str] = []
    start = time.perf_counter()
    for seed in range(first, first + count):
        player = diff.PLAYERS[seed % len(diff.PLAYERS)]
        try:
            if level == "slot":
                tally = diff.play_slot_game(games_class, rules, seed, player)
            elif level == "vector":
                tally = _vector_run(game, seed, player)
            else:
                tally = diff.play_aec_game(
                    lambda backend: game.public.env(backend=backend), "fast", seed, player
                )
        except AssertionError as err:
            mismatches.append(f"{player} seed {seed}: {str(err).splitlines()[0][:300]}")
            tally = diff.Tally(ends={"MISMATCH": 1}, games=1)
        tallies[player].add(tally)
    return {p: t.__dict__ for p, t in tallies.items()}, mismatches, time.perf_counter() - start


VECTOR_RUN = {"num_envs": 64, "steps": 250, "num_threads": 2}  # one "game" of --level vector
VECTOR_OPTIONS = {"max_steps": 200, "mp_shaping": 0.1}  # short games: resets, both flags


def _vector_run(game: Compiled, seed: int, player: str) -> object:
    """One seeded run of the game's vector_env on the core against its reference matches."""
    vector_env = game.public.vector_env
    return game.harness.play_vector(
        lambda **kw: vector_env(backend="fast", **kw, **VECTOR_OPTIONS),
        game.harness.reference_rules(**VECTOR_OPTIONS),
        VECTOR_RUN["num_envs"],
        seed,
        VECTOR_RUN["steps"],
        num_threads=VECTOR_RUN["num_threads"],
        player=player,
    )


def _quiet_worker() -> None:
    """A worker ends without a traceback when the pool is stopped; Ctrl-C is the parent's."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _candidate_class(game: Compiled, candidate: str) -> type:
    if candidate == "reference":  # the harness itself, checked on the pure-Python twin
        return importlib.import_module(f"{game.package}.fast.reference").ReferenceGames
    missing = game.missing()
    if missing:
        raise SystemExit(f"the compiled core cannot be checked: {missing}")
    return game.fast.core.Games


def differential(args: argparse.Namespace) -> int:
    game = Compiled(args.env)
    _candidate_class(game, args.candidate)
    PLAYERS, Tally = game.harness.PLAYERS, game.harness.Tally  # noqa: N806 - the harness's names
    where = game.fast.core.__file__ if game.fast.AVAILABLE else "not built"
    print(
        f"differential of {game.name}: {args.games} games, level {args.level}, "
        f"candidate {args.candidate}"
    )
    print(f"  core: {where}", flush=True)
    chunk = max(1, min(20, args.games // (args.workers * 4) or 1))
    jobs = [
        (game.name, args.level, args.candidate, args.seed + g, min(chunk, args.games - g))
        for g in range(0, args.games, chunk)
    ]
    totals = {p: Tally() for p in PLAYERS}
    mismatches: list[str] = []
    start = time.perf_counter()
    interrupted = crashed = False
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # a timeout stops it as Ctrl-C does
    pool = ProcessPoolExecutor(args.workers, multiprocessing.get_context("fork"), _quiet_worker)
    try:
        chunks = as_completed([pool.submit(_differential_chunk, job) for job in jobs])
        for done, chunk_done in enumerate(chunks):
            tallies, found, _ = chunk_done.result()
            for player, tally in tallies.items():
                totals[player].add(Tally(**tally))
            mismatches += found
            if (done + 1) % max(1, len(jobs) // 40) == 0:
                games = sum(t.games for t in totals.values())
                elapsed = time.perf_counter() - start
                print(
                    f"  {games:>6} games  {len(mismatches)} mismatches  {elapsed:6.0f} s",
                    flush=True,
                )
    except KeyboardInterrupt:  # the games finished so far are still a result: print them
        interrupted = True
    except BrokenProcessPool:  # a worker died: the core crashed (or a memory checker stopped it)
        crashed = True
        mismatches.append("a worker process died in the middle of its games: a crash")
    finally:
        pool.shutdown(wait=False, cancel_futures=True)  # the chunks under way end on their own
    elapsed = time.perf_counter() - start
    print("\nINTERRUPTED: the table counts the games finished before the stop" * interrupted)
    print(
        "| player | games | decisions compared | illegal refused | crossings | ends | mismatches |"
    )
    print("| --- | ---: | ---: | ---: | ---: | --- | ---: |")
    for player, t in totals.items():
        ends = ", ".join(f"{k} {v}" for k, v in sorted(t.ends.items()))
        bad = t.ends.get("MISMATCH", 0)
        print(
            f"| {player} | {t.games} | {t.decisions} | {t.illegal} | {t.crossings} | {ends} | "
            f"{bad} |"
        )
    games = sum(t.games for t in totals.values())
    decisions = sum(t.decisions for t in totals.values())
    print(f"\n{games} games, {decisions} decisions compared in {elapsed:.0f} s on {args.workers}")
    print(f"workers; {len(mismatches)} games with a mismatch")
    for line in mismatches[: args.show]:
        print(f"MISMATCH {line}")
    if args.json:
        Path(args.json).write_text(
            json.dumps({p: t.__dict__ for p, t in totals.items()} | {"mismatches": mismatches})
        )
    return 1 if mismatches or crashed else 2 if interrupted else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    games = compiled_games()
    parser.add_argument("--seconds", type=float, default=3.0, help="time per speed row")
    parser.add_argument(
        "--env", choices=games, default=games[0] if games else None, help="a game with a core"
    )
    sub = parser.add_subparsers(dest="command")
    proof = sub.add_parser("differential", help="the differential harness over many games")
    proof.add_argument("--games", type=int, default=20_000)
    proof.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    proof.add_argument(
        "--level",
        choices=("slot", "aec", "vector"),
        default="slot",
        help="a Games slot, the AEC env, or vector_env runs (64 games, 250 steps, 2 threads)",
    )
    proof.add_argument(
        "--candidate",
        choices=("core", "reference"),
        default="core",
        help="the Games class held to the engine: the compiled core, or ReferenceGames",
    )
    proof.add_argument("--seed", type=int, default=0, help="seed of the first game")
    proof.add_argument("--show", type=int, default=20, help="mismatches to print")
    proof.add_argument("--json", help="also write the tallies and mismatches to this file")
    args = parser.parse_args(argv)
    return differential(args) if args.command == "differential" else speed(args)


if __name__ == "__main__":
    sys.exit(main())
