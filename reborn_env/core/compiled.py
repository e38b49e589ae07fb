"""How a game's optional compiled core is found: imported if it was built, and whether it should
have been (setup.py builds one ``fast._core`` per game with C sources in ``fast/src/``)."""

from __future__ import annotations

import importlib
import importlib.util
import os
import shutil
import sysconfig
from pathlib import Path
from types import ModuleType


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
