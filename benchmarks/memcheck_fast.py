"""A game's compiled core under a memory checker, running a slice of its differential test.

Run: ``python benchmarks/memcheck_fast.py [--games 30] [--vector-runs 2] [--tool asan|valgrind]
[--env NAME] [--tests PACKAGE ...]`` (the game with a compiled core, as ``bench_fast.py`` finds
it: Earth Reborn's).

``asan`` (the default) copies the package, the tests (where the differential harness lives) and
the benchmarks into a scratch folder, builds every core there with
``-fsanitize=address,undefined`` (every undefined behaviour fatal), and runs ``bench_fast.py
differential`` on that copy, slot-level games and then vector_env runs whose step uses 2
threads, with the sanitizer runtime preloaded: any out-of-bounds access, use after free or
undefined behaviour in the C code stops the run with a report. ``--tests PACKAGE`` also runs
that game package's own compiled-core tests (``tests/<PACKAGE>/fast``, pytest) over the checked
build: the cores without a differential harness of their own are checked that way (``--tests
haven``; ``--games 0 --vector-runs 0`` for those tests alone). ``valgrind`` runs the same slices
on an -O1 build under valgrind's memcheck (much slower: use a few games). Prints a summary and
exits non-zero if the checker found anything or a game did not match the reference.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORES = "reborn_env/games/*/fast/_core*.so"
SANITIZE = "-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
COPIED = ("reborn_env", "benchmarks", "tests", "setup.py", "pyproject.toml")
FINDINGS = re.compile(
    r"(ERROR: AddressSanitizer|runtime error:|ERROR SUMMARY: [1-9]|Invalid (read|write)|"
    r"uninitialised|definitely lost: [1-9])"
)


def copy_tree(scratch: Path) -> None:
    """The package (without any built core), the benchmarks, the tests and the build files."""
    ignore = shutil.ignore_patterns("__pycache__", "_core*.so", "*.pyc")
    for name in COPIED:
        source, target = ROOT / name, scratch / name
        if source.is_dir():
            shutil.copytree(source, target, ignore=ignore)
        else:
            shutil.copy2(source, target)


def build(scratch: Path, flags: str) -> None:
    """The core built in place in ``scratch`` with ``flags`` added to the compile and link."""
    env = {**os.environ, "CFLAGS": f"{flags} -g", "LDFLAGS": flags}
    done = subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--inplace", "--force"],
        cwd=scratch,
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode or not list(scratch.glob(CORES)):
        sys.exit(f"the build with {flags or 'no extra flags'} failed:\n{done.stderr[-3000:]}")


def runtime_library(name: str) -> str:
    """The compiler's own copy of a sanitizer runtime (it must be preloaded into python)."""
    found = subprocess.run(
        ["cc", f"-print-file-name={name}"], capture_output=True, text=True, check=True
    ).stdout.strip()
    if not os.path.isabs(found):
        sys.exit(f"the compiler has no {name}: install the sanitizer runtime (libasan, libubsan)")
    return found


def slice_command(level: str, games: int, env: str | None) -> list[str]:
    """bench_fast.py's differential on one worker: ``games`` games (slot) or runs (vector)."""
    return [
        sys.executable,
        "benchmarks/bench_fast.py",
        *(["--env", env] if env else []),
        "differential",
        "--level",
        level,
        "--games",
        str(games),
        "--workers",
        "1",
    ]


def asan(scratch: Path) -> tuple[list[str], dict[str, str]]:
    """The sanitizer build, and how to run python over it: no prefix, the runtime preloaded."""
    build(scratch, SANITIZE)
    if not all(b"__asan_" in so.read_bytes() for so in scratch.glob(CORES)):
        sys.exit("the sanitizer build has no AddressSanitizer instrumentation")
    return [], {
        "PYTHONPATH": str(scratch),
        "LD_PRELOAD": runtime_library("libasan.so"),
        # Python frees little at exit by design: leaks are not what this run looks for.
        "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=0:halt_on_error=1",
        "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1",
        "PYTHONMALLOC": "malloc",
    }


def valgrind(scratch: Path) -> tuple[list[str], dict[str, str]]:
    """An -O1 build, and python run under valgrind's memcheck."""
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (apt-get install valgrind), or use --tool asan")
    build(scratch, "-O1")
    prefix = ["valgrind", "--error-exitcode=99", "--leak-check=no", "--track-origins=yes"]
    return prefix, {"PYTHONPATH": str(scratch), "PYTHONMALLOC": "malloc"}


def tests_command(package: str) -> list[str]:
    """pytest over ``tests/<package>/fast``, saying first which core it imported (as
    bench_fast.py's slices do, so :func:`report` can hold it to the checked build)."""
    run = (
        "import importlib, sys, pytest; "
        f"fast = importlib.import_module('reborn_env.games.{package}.fast'); "
        "print('core:', fast.core.__file__, flush=True); "
        f"sys.exit(pytest.main(['-p', 'no:cacheprovider', 'tests/{package}/fast']))"
    )
    return [sys.executable, "-c", run]


def report(level: str, done: subprocess.CompletedProcess, scratch: Path) -> bool:
    """Print one slice's table and findings; whether it was clean."""
    output = done.stdout + done.stderr
    findings = [line for line in output.splitlines() if FINDINGS.search(line)]
    loaded = [line.split("core: ", 1)[1] for line in done.stdout.splitlines() if "core: " in line]
    if not loaded or not loaded[0].startswith(str(scratch)):
        findings.append(f"the slice did not load the checked build (core: {loaded})")
    print(f"{level} slice: exit {done.returncode}, core loaded from {loaded[:1]}")
    print("\n".join(line for line in done.stdout.splitlines() if line.startswith("|")))
    summary = re.compile(r"\d+ games, |=* ?\d+ (passed|failed)")
    print("\n".join(line for line in done.stdout.splitlines() if summary.match(line)))
    for line in findings[:20]:
        print(f"  FINDING {line}")
    if done.returncode:
        print("  output tail:\n" + "\n".join(output.splitlines()[-40:]))
    print()
    return done.returncode == 0 and not findings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="differential games (slot level)")
    parser.add_argument(
        "--vector-runs", type=int, default=2, help="vector_env runs (64 games, 2 threads each)"
    )
    parser.add_argument("--tool", choices=("asan", "valgrind"), default="asan")
    parser.add_argument("--env", help="the game (default: bench_fast.py's first with a core)")
    parser.add_argument(
        "--tests",
        nargs="+",
        default=[],
        metavar="PACKAGE",
        help="also run tests/<PACKAGE>/fast over the checked build (a game package's folder)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder")
    args = parser.parse_args(argv)
    for package in args.tests:
        if not (ROOT / "tests" / package / "fast").is_dir():
            known = sorted(p.parent.name for p in (ROOT / "tests").glob("*/fast"))
            parser.error(f"--tests: no tests/{package}/fast; the packages: {', '.join(known)}")
    scratch = Path(tempfile.mkdtemp(prefix="memcheck_fast_"))
    start = time.perf_counter()
    clean = True
    try:
        copy_tree(scratch)
        prefix, env = (asan if args.tool == "asan" else valgrind)(scratch)
        for level, count in (("slot", args.games), ("vector", args.vector_runs)):
            if count > 0:
                done = subprocess.run(
                    prefix + slice_command(level, count, args.env),
                    cwd=scratch,
                    env={**os.environ, **env},
                    capture_output=True,
                    text=True,
                )
                clean &= report(level, done, scratch)
        for package in args.tests:
            done = subprocess.run(
                prefix + tests_command(package),
                cwd=scratch,
                env={**os.environ, **env},
                capture_output=True,
                text=True,
            )
            clean &= report(f"tests/{package}/fast", done, scratch)
    finally:
        if not args.keep:
            shutil.rmtree(scratch, ignore_errors=True)
    tests = "".join(f", tests/{package}/fast" for package in args.tests)
    print(
        f"memory check ({args.tool}) of {args.games} slot games and {args.vector_runs} vector "
        f"runs{tests} in {time.perf_counter() - start:.0f} s: {'clean' if clean else 'NOT clean'}"
    )
    return 0 if clean else 1


if __name__ == "__main__":
    sys.exit(main())
