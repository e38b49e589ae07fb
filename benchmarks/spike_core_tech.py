"""The measured spike behind the compiled core's technology: one kernel, six ways.

Run: ``python benchmarks/spike_core_tech.py [--repeats 5]`` builds, checks and times ONE small
kernel representative of the Earth Reborn core's hot path (benchmarks/spike/kernel.h: SplitMix64
with below(n), a tile drawn as the k-th set bit of a 64-bit bag mask, a die, and a 954-float
observation written from a 104-byte state struct, for each of N games in one call from Python over
numpy buffers), implemented the same way in each technology:

- C through the CPython API (spike/capi.c, compiled here with the system C compiler), and the
  same built with ``-march=native`` (what compiling for this CPU alone buys),
- cffi in API mode (spike/kernel.cdef + kernel.h, compiled by cffi),
- Cython (spike/kernel_cy.pyx, cythonized and compiled here),
- numba (spike/kernel_numba.py, ``@njit(cache=True)``),
- numpy, every game at once as whole-array operations, and plain Python, one game at a time
  (spike/kernel_py.py), the baselines.

It first asserts that every variant gives the same states, observations and tiles as plain Python
over several steps of 1,024 games, then prints one table: build time, the import and the first
call in a fresh process (numba's JIT compile, with an empty cache and then with its cache), the
cost of a call at N = 1, the throughput at N = 1024, and the installed size of the packages a
variant needs. A variant whose package is missing (or with no C compiler) is reported, not fatal.
Everything is built in a temporary directory; nothing is installed.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SPIKE = Path(__file__).resolve().parent / "spike"
sys.path.insert(0, str(SPIKE))
sys.path.insert(0, str(ROOT))

from kernel_py import OBS, STATE_DTYPE  # noqa: E402

from reborn_env.core.rng import SplitMix64  # noqa: E402

Step = Callable[[np.ndarray, np.ndarray, np.ndarray], None]
CFLAGS = ["-O3", "-std=c11", "-shared", "-fPIC"]
CHECK_GAMES = 1024
CHECK_STEPS = 6


@dataclass
class Variant:
    """One technology: how to build it, the statement that imports it, what it needs installed."""

    name: str
    needs: tuple[str, ...]  # import names that must be installed
    packages: tuple[str, ...]  # distributions whose installed size is its footprint
    runtime: str  # what a user's machine needs at run time
    load: str  # Python statements that bind ``step``
    build: Callable[[Path], None] | None = None
    module: str = ""  # the extension module it builds
    numba: bool = False
    problem: str = ""
    build_s: float | None = None
    built_bytes: int | None = None
    step: Step | None = None
    results: dict[str, float | str] = field(default_factory=dict)


def compile_c(
    sources: list[Path], out: Path, includes: list[str], extra: tuple[str, ...] = ()
) -> None:
    """Compile C sources into the extension module file ``out`` with the system C compiler."""
    cc = os.environ.get("CC", sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        raise RuntimeError(f"no C compiler ({cc})")
    flags = [f"-I{d}" for d in includes]
    cmd = [cc, *CFLAGS, *extra, *flags, *map(str, sources), "-o", str(out)]
    subprocess.run(cmd, check=True, capture_output=True, text=True)


def ext(name: str, build: Path) -> Path:
    return build / f"{name}{sysconfig.get_config_var('EXT_SUFFIX')}"


def build_capi(build: Path) -> None:
    includes = [sysconfig.get_paths()["include"], str(SPIKE)]
    compile_c([SPIKE / "capi.c"], ext("spike_capi", build), includes)


def build_capi_native(build: Path) -> None:
    includes = [sysconfig.get_paths()["include"], str(SPIKE)]
    extra = ("-march=native", "-DSPIKE_MODULE=spike_capi_native")
    compile_c([SPIKE / "capi.c"], ext("spike_capi_native", build), includes, extra)


def build_cffi(build: Path) -> None:
    import kernel_cffi

    kernel_cffi.build(str(build / "cffi"))
    (built,) = (build / "cffi").glob("spike_cffi*.so")
    shutil.copy(built, build / built.name)


def build_cython(build: Path) -> None:
    c_file = build / "kernel_cy.c"
    cmd = [sys.executable, "-m", "cython", "-3", str(SPIKE / "kernel_cy.pyx"), "-o", str(c_file)]
    subprocess.run(cmd, check=True, capture_output=True, text=True)
    compile_c([c_file], ext("kernel_cy", build), [sysconfig.get_paths()["include"]])


VARIANTS = [
    Variant(
        "C, CPython API",
        (),
        (),
        "nothing",
        "import spike_capi; step = spike_capi.step",
        build_capi,
        "spike_capi",
    ),
    Variant(
        "C, -march=native",
        (),
        (),
        "this CPU",
        "import spike_capi_native; step = spike_capi_native.step",
        build_capi_native,
        "spike_capi_native",
    ),
    Variant(
        "cffi (API mode)",
        ("cffi",),
        ("cffi", "pycparser"),
        "cffi's _cffi_backend",
        "import kernel_cffi; step = kernel_cffi.load()",
        build_cffi,
        "spike_cffi",
    ),
    Variant(
        "Cython",
        ("Cython",),
        ("Cython",),
        "nothing (Cython builds)",
        "import kernel_cy; step = kernel_cy.step",
        build_cython,
        "kernel_cy",
    ),
    Variant(
        "numba @njit",
        ("numba",),
        ("numba", "llvmlite"),
        "numba + llvmlite",
        "import kernel_numba; step = kernel_numba.step",
        numba=True,
    ),
    Variant("numpy (batched)", (), (), "numpy", "import kernel_py; step = kernel_py.step_numpy"),
    Variant("plain Python", (), (), "nothing", "import kernel_py; step = kernel_py.step_python"),
]


def new_games(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """n fresh games (generator i = output i of SplitMix64(seed)) and their output buffers."""
    state = np.zeros(n, STATE_DTYPE)
    gen = SplitMix64(seed)
    state["rng"] = [gen.next64() for _ in range(n)]
    state["bag"] = (1 << 48) - 1
    state["units"] = (np.arange(n)[:, None] * 7 + np.arange(16) * 3) % 47
    return state, np.empty((n, OBS), np.float32), np.empty(n, np.int32)


def package_bytes(names: tuple[str, ...]) -> int | None:
    """The installed size of these distributions, or None if one is not installed."""
    total = 0
    for name in names:
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            return None
        for f in dist.files or ():
            path = Path(dist.locate_file(f))
            if path.is_file():
                total += path.stat().st_size
    return total


def fresh_process(variant: Variant, build: Path, cache: Path) -> tuple[float, float]:
    """(import s, first call s) of the variant in a new interpreter, numpy already imported."""
    code = f"""
import json, sys, time
sys.path[:0] = [{str(build)!r}, {str(SPIKE)!r}]
import numpy as np
from kernel_py import STATE_DTYPE, OBS
state = np.zeros(1, STATE_DTYPE); state["bag"] = (1 << 48) - 1
obs = np.empty((1, OBS), np.float32); tiles = np.empty(1, np.int32)
t0 = time.perf_counter()
{variant.load}
t1 = time.perf_counter()
step(state, obs, tiles)
t2 = time.perf_counter()
print(json.dumps([t1 - t0, t2 - t1]))
"""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True, env=env
    )
    imported, first = json.loads(out.stdout.splitlines()[-1])
    return imported, first


def seconds_per_call(variants: list[Variant], n: int, repeats: int) -> dict[str, float]:
    """The best CPU time of one call over n games, per variant.

    The variants take turns, one batch of calls (at least 50 ms) each per round, and the best round
    is kept: on a shared machine this is the time the kernel needs, not the time others take. The
    clock is the calling thread's CPU time (every kernel runs on the calling thread).
    """
    runs = {}
    for v in variants:
        state, obs, tiles = new_games(n, seed=n)
        v.step(state, obs, tiles)
        loops = 1
        while True:
            t0 = time.thread_time()
            for _ in range(loops):
                v.step(state, obs, tiles)
            if time.thread_time() - t0 >= 0.05:
                break
            loops *= 2
        runs[v.name] = (v.step, state, obs, tiles, loops)
    best = {name: float("inf") for name in runs}
    for _ in range(repeats):
        for name, (step, state, obs, tiles, loops) in runs.items():
            t0 = time.thread_time()
            for _ in range(loops):
                step(state, obs, tiles)
            best[name] = min(best[name], (time.thread_time() - t0) / loops)
    return best


def trace(step: Step) -> list[tuple[bytes, np.ndarray, np.ndarray]]:
    """States, observations and tiles of CHECK_STEPS steps of CHECK_GAMES games."""
    state, obs, tiles = new_games(CHECK_GAMES, seed=11)
    out = []
    for _ in range(CHECK_STEPS):
        step(state, obs, tiles)
        out.append((state.tobytes(), obs.copy(), tiles.copy()))
    return out


def check_reference(reference: list[tuple[bytes, np.ndarray, np.ndarray]]) -> None:
    """The plain-Python kernel draws from the project's SplitMix64 (two draws a step)."""
    state, _, _ = new_games(CHECK_GAMES, seed=11)
    gen = SplitMix64(int(state["rng"][0]))
    for _ in range(2 * CHECK_STEPS):
        gen.next64()
    last = np.frombuffer(reference[-1][0], STATE_DTYPE)
    assert int(last["rng"][0]) == gen.state, "plain Python's generator is not core/rng.py's"


def prepare(variant: Variant, build: Path) -> None:
    """Build and import the variant, or set its problem."""
    missing = [m for m in variant.needs if importlib.util.find_spec(m) is None]
    if missing:
        variant.problem = f"not installed (pip install {' '.join(missing)})"
        return
    try:
        if variant.build is not None:
            t0 = time.perf_counter()
            variant.build(build)
            variant.build_s = time.perf_counter() - t0
            built = list(build.glob(f"{variant.module}.*.so")) + list(
                build.glob(f"{variant.module}.so")
            )
            variant.built_bytes = built[0].stat().st_size if built else None
        scope: dict[str, object] = {}
        exec(variant.load, scope)
        variant.step = scope["step"]  # type: ignore[assignment]
    except Exception as exc:  # a variant that cannot be built is reported, the others still run
        detail = getattr(exc, "stderr", "") or str(exc)
        variant.problem = f"build failed: {detail.strip().splitlines()[-1] if detail else exc}"


def fmt(value: float | None, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=9, help="timing rounds (best is kept)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="spike_core_tech_") as tmp:
        build = Path(tmp)
        cache = build / "numba_cache"
        os.environ["NUMBA_CACHE_DIR"] = str(cache)  # before numba is imported, here or below
        sys.path.insert(0, str(build))

        for v in VARIANTS:
            prepare(v, build)
            if v.problem:
                continue
            try:
                v.results["import"], v.results["first"] = fresh_process(v, build, cache)
                if v.numba:
                    v.results["cache_files"] = len(list(cache.rglob("*.nbc")))
                    v.results["cached_import"], v.results["cached_first"] = fresh_process(
                        v, build, cache
                    )
            except subprocess.CalledProcessError as exc:
                v.problem = f"fresh import failed: {exc.stderr.strip().splitlines()[-1]}"
                v.step = None

        ready = [v for v in VARIANTS if v.step is not None]
        python = next(v for v in ready if v.name == "plain Python")
        reference = trace(python.step)
        check_reference(reference)
        for v in ready:
            for k, (got, want) in enumerate(zip(trace(v.step), reference, strict=True)):
                assert got[0] == want[0], f"{v.name}: state differs at step {k + 1}"
                assert np.array_equal(got[1], want[1]), f"{v.name}: observation differs"
                assert np.array_equal(got[2], want[2]), f"{v.name}: tile differs at step {k + 1}"
        print(
            f"identical: {'; '.join(v.name for v in ready)} "
            f"({CHECK_GAMES} games x {CHECK_STEPS} steps: states, observations, tiles)\n"
        )

        for key, n in (("n1", 1), ("n1024", 1024)):
            for name, seconds in seconds_per_call(ready, n, args.repeats).items():
                next(v for v in ready if v.name == name).results[key] = seconds

    c_rate = next((1024 / v.results["n1024"] for v in ready if v.name == VARIANTS[0].name), None)
    header = (
        f"{'variant':<16} {'build s':>7} {'import ms':>9} {'1st call ms':>11} "
        f"{'N=1 us/call':>11} {'N=1024 steps/s':>14} {'vs C':>5} {'built KB':>8} "
        f"{'pkgs MB':>7}  run-time needs"
    )
    print(header)
    print("-" * len(header))
    for v in VARIANTS:
        size = package_bytes(v.packages)
        pkgs = "0" if not v.packages else fmt(None if size is None else size / 1e6, ".1f")
        if v.problem:
            print(f"{v.name:<16} {v.problem}   (pkgs {pkgs} MB)")
            continue
        rate = 1024 / float(v.results["n1024"])
        ratio = fmt(rate / c_rate if c_rate else None, ".2f")
        built = fmt(None if v.built_bytes is None else v.built_bytes / 1e3, ".0f")
        print(
            f"{v.name:<16} {fmt(v.build_s, '.2f'):>7} "
            f"{float(v.results['import']) * 1e3:>9.1f} {float(v.results['first']) * 1e3:>11.2f} "
            f"{float(v.results['n1']) * 1e6:>11.2f} {rate:>14,.0f} {ratio:>5} {built:>8} "
            f"{pkgs:>7}  {v.runtime}"
        )
    for v in ready:
        if v.numba:
            cold, warm = float(v.results["first"]), float(v.results["cached_first"])
            files = int(v.results["cache_files"])
            works = files > 0 and warm < cold
            print(
                f"\nnumba: the first call JIT-compiles for {cold:.2f} s in a fresh process "
                f"(empty cache). cache=True wrote {files} compiled function(s) and the next "
                f"process's first call took {warm:.2f} s (the import of numba and the module "
                f"{float(v.results['cached_import']):.2f} s): caching "
                + (
                    "works (the compile is skipped; what is left is numba's own start-up)."
                    if works
                    else "does NOT help here."
                )
            )
    print(
        "\nbuild: compile of the variant into a temp dir (C: gcc -O3; cffi: ffi.compile; Cython: "
        "cython + gcc -O3). import / 1st call: a fresh interpreter, numpy already imported. "
        "N=1: one call for one game (the per-call overhead); N=1024: game steps per second in "
        "calls of 1024 games, one thread; both in CPU time of the calling thread, best of "
        f"{args.repeats} interleaved rounds. pkgs: installed size of the packages the variant adds "
        "(numba+llvmlite, Cython, cffi+pycparser)."
    )


if __name__ == "__main__":
    main()
