"""Build of the games' compiled cores; the metadata lives in pyproject.toml.

Each game whose package holds C sources in ``fast/src/`` gets one extension,
``reborn_env.games.<game>.fast._core``, compiled from every ``*.c`` of that folder found at build
time and the shared binding layer's (``reborn_env/core/csrc``: the argument and buffer checks,
the vector step's thread pool), with the headers of both as dependencies. Each is optional:
without C sources nothing is compiled, and a failed compile (no compiler, a broken source)
leaves the package installed on its pure-Python reference, which the game's ``fast`` module then
reports.
"""

from __future__ import annotations

from pathlib import Path

from setuptools import Extension, setup

HERE = Path(__file__).resolve().parent
GAMES = Path("reborn_env", "games")
BINDING = Path("reborn_env", "core", "csrc")
"""The binding layer every core shares: rb_binding.h (argument and buffer checks) and rb_pool
(the thread pool of a vector step)."""


def core_extensions(root: Path = HERE) -> list[Extension]:
    """One optional extension per game with C sources in ``fast/src/``, by game name; paths are
    relative to ``root``, the project folder."""
    extensions = []
    for src in sorted((root / GAMES).glob("*/fast/src")):
        sources = sorted(p.relative_to(root).as_posix() for p in src.glob("*.c"))
        if not sources:
            continue
        sources += sorted(p.relative_to(root).as_posix() for p in (root / BINDING).glob("*.c"))
        folder = src.relative_to(root)
        extensions.append(
            Extension(
                f"reborn_env.games.{folder.parts[2]}.fast._core",
                sources=sources,
                depends=sorted(
                    p.relative_to(root).as_posix()
                    for p in [*src.glob("*.h"), *(root / BINDING).glob("*.h")]
                ),
                include_dirs=[folder.as_posix(), BINDING.as_posix()],
                extra_compile_args=["-O3", "-std=c11", "-pthread"],
                extra_link_args=["-pthread"],
                optional=True,
            )
        )
    return extensions


if __name__ == "__main__":  # pip's build backend runs this file as __main__
    setup(ext_modules=core_extensions())
