"""Build of the compiled Earth Reborn core (issue 11); the metadata lives in pyproject.toml.

The extension `reborn_env.games.earth_reborn.fast._core` is compiled from every
`reborn_env/games/earth_reborn/fast/src/*.c` found at build time, with the headers of that folder
as dependencies. It is optional: without C sources nothing is compiled, and a failed compile (no
compiler, a broken source) leaves the package installed on the pure-Python reference engine,
which `reborn_env.games.earth_reborn.fast.AVAILABLE` then reports as False.
"""

from __future__ import annotations

from pathlib import Path

from setuptools import Extension, setup

HERE = Path(__file__).resolve().parent
SRC = Path("reborn_env", "games", "earth_reborn", "fast", "src")


def core_extensions(root: Path = HERE) -> list[Extension]:
    """The C core as one optional extension, or none while src/ holds no C file; paths are
    relative to ``root``, the project folder."""
    sources = sorted(p.relative_to(root).as_posix() for p in (root / SRC).glob("*.c"))
    if not sources:
        return []
    return [
        Extension(
            "reborn_env.games.earth_reborn.fast._core",
            sources=sources,
            depends=sorted(p.relative_to(root).as_posix() for p in (root / SRC).glob("*.h")),
            include_dirs=[SRC.as_posix()],
            extra_compile_args=["-O3", "-std=c11", "-pthread"],
            extra_link_args=["-pthread"],
            optional=True,
        )
    ]


if __name__ == "__main__":  # pip's build backend runs this file as __main__
    setup(ext_modules=core_extensions())
