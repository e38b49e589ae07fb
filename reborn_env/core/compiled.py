"""How a game's optional compiled core is found: imported if it was built, whether it should have
been (setup.py builds one ``fast._core`` per game with C sources in ``fast/src/``), and the one
environment variable that chooses between a core and its Python reference for every game."""

from __future__ import annotations

import importlib
import importlib.util
import os
import shutil
import sysconfig
from pathlib import Path
from types import ModuleType

BACKENDS = ("fast", "python")
BACKEND_VARIABLE = "REBORN_ENV_BACKEND"


def import_core(package: str) -> tuple[ModuleType | None, str | None]:
    """The extension module ``<package>._core``, or None and why it could not be had."""
    name = f"{package}._core"
    if importlib.util.find_spec(name) is None:
        return None, "no _core extension was built next to this package"
    try:
        return importlib.import_module(name), None
    except ImportError as error:  # built for another interpreter, or a missing symbol
        return None, f"{type(error).__name__}: {error}"


def build_expected(sources: Path) -> bool:
    """Whether a core should have been built: C sources lie in ``sources`` and a C compiler is on
    the PATH. setup.py's build is optional (a failure is only a warning of pip's), so the tests
    hold a game's ``AVAILABLE`` to this."""
    compiler = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return any(sources.glob("*.c")) and shutil.which(compiler.split()[0]) is not None


def backend_from_environment() -> str | None:
    """``$REBORN_ENV_BACKEND``: ``"fast"`` (the compiled core), ``"python"`` (the reference), or
    None when unset or empty; any other value is a ValueError naming the allowed ones."""
    backend = os.environ.get(BACKEND_VARIABLE) or None
    if backend is not None and backend not in BACKENDS:
        raise ValueError(
            f"${BACKEND_VARIABLE} must be one of {', '.join(BACKENDS)}, got {backend!r}"
        )
    return backend
