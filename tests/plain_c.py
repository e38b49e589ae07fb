"""Checking that a compiled core's source is plain C: it compiles with no Python include folder,
so a game's rules can be built and tested as a C library."""

from __future__ import annotations

import os
import shlex
import subprocess
import sysconfig
from pathlib import Path

from reborn_env.core import compiled

SHARED_INCLUDE = Path(compiled.__file__).with_name("csrc")


def compile_without_python(source: Path, sources: Path) -> subprocess.CompletedProcess[str]:
    """Check ``source`` with the C compiler, C11, seeing only ``sources`` and the shared headers."""
    compiler = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
    flags = ["-std=c11", "-fsyntax-only", "-Werror=implicit-function-declaration"]
    includes = [f"-I{folder}" for folder in (sources, SHARED_INCLUDE)]
    return subprocess.run(
        [*compiler, *flags, *includes, str(source)], capture_output=True, text=True, check=False
    )
