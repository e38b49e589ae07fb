"""A game's compiled core under a memory checker, running a slice of its differential test.

Run: ``python benchmarks/memcheck_fast.py [--games 30] [--tool asan|valgrind] [--env NAME]``
(the game with a compiled core, as ``bench_fast.py`` finds it: Earth Reborn's today).

``asan`` (the default) copies the package, the tests (where the differential harness lives) and
the benchmarks into a scratch folder, builds every core there with
``-fsanitize=address,undefined`` (every undefined behaviour fatal), and runs ``bench_fast.py
differential`` on that copy with the sanitizer runtime preloaded, so any out-of-bounds access,
use after free or undefined behaviour in the C code stops the run with a report. ``valgrind``
runs the same slice on an -O1 build under valgrind's memcheck (much slower: use a few games).
Prints a summary and exits non-zero if the checker found anything or a game did not match the
reference.
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


def slice_command(games: int, env: str | None) -> list[str]:
    return [
        sys.executable,
        "benchmarks/bench_fast.py",
        *(["--env", env] if env else []),
        "differential",
        "--games",
        str(games),
        "--workers",
        "1",
    ]


def run_asan(scratch: Path, games: int, env_name: str | None) -> subprocess.CompletedProcess:
    build(scratch, SANITIZE)
    if not all(b"__asan_" in so.read_bytes() for so in scratch.glob(CORES)):
        sys.exit("the sanitizer build has no AddressSanitizer instrumentation")
    env = {
        **os.environ,
        "PYTHONPATH": str(scratch),
        "LD_PRELOAD": runtime_library("libasan.so"),
        # Python frees little at exit by design: leaks are not what this run looks for.
        "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=0:halt_on_error=1",
        "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1",
        "PYTHONMALLOC": "malloc",
    }
    return subprocess.run(
        slice_command(games, env_name), cwd=scratch, env=env, capture_output=True, text=True
    )


def run_valgrind(scratch: Path, games: int, env_name: str | None) -> subprocess.CompletedProcess:
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (apt-get install valgrind), or use --tool asan")
    build(scratch, "-O1")
    env = {**os.environ, "PYTHONPATH": str(scratch), "PYTHONMALLOC": "malloc"}
    command = ["valgrind", "--error-exitcode=99", "--leak-check=no", "--track-origins=yes"]
    return subprocess.run(
        command + slice_command(games, env_name),
        cwd=scratch,
        env=env,
        capture_output=True,
        text=True,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="differential games to run")
    parser.add_argument("--tool", choices=("asan", "valgrind"), default="asan")
    parser.add_argument("--env", help="the game (default: bench_fast.py's first with a core)")
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder")
    args = parser.parse_args(argv)
    scratch = Path(tempfile.mkdtemp(prefix="memcheck_fast_"))
    start = time.perf_counter()
    try:
        copy_tree(scratch)
        run = run_asan if args.tool == "asan" else run_valgrind
        done = run(scratch, args.games, args.env)
    finally:
        if not args.keep:
            shutil.rmtree(scratch, ignore_errors=True)
    output = done.stdout + done.stderr
    findings = [line for line in output.splitlines() if FINDINGS.search(line)]
    loaded = [line.split("core: ", 1)[1] for line in done.stdout.splitlines() if "core: " in line]
    if not loaded or not loaded[0].startswith(str(scratch)):
        findings.append(f"the slice did not load the checked build (core: {loaded})")
    table = [line for line in done.stdout.splitlines() if line.startswith("|")]
    print("\n".join(table))
    tail = [line for line in done.stdout.splitlines() if re.match(r"\d+ games, ", line)]
    print("\n".join(tail))
    print()
    print(f"memory check ({args.tool}) of {args.games} differential games: exit {done.returncode}")
    print(f"  in {time.perf_counter() - start:.0f} s; core loaded from {loaded[:1]}")
    if findings:
        print(f"  {len(findings)} findings of the checker, first ones:")
        for line in findings[:20]:
            print(f"    {line}")
    if done.returncode:
        print("  output tail:\n" + "\n".join(output.splitlines()[-40:]))
    verdict = "clean" if done.returncode == 0 and not findings else "NOT clean"
    print(f"  verdict: {verdict}")
    return 0 if verdict == "clean" else 1


if __name__ == "__main__":
    sys.exit(main())
