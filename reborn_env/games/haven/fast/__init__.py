"""The compiled pieces of haven (issue 16): the C extension ``_core``, whose Python twins in
:mod:`..rules` stay the reference.

setup.py builds ``_core`` from ``src/*.c`` when a compiler is there (optional: the package still
installs without it). ``AVAILABLE`` says whether it imported; ``IMPORT_ERROR`` keeps why not;
``core`` is the module or None. This module imports no rules module, so the rules can import it.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import shutil
import sysconfig
from pathlib import Path
from types import ModuleType


def _import_core() -> tuple[ModuleType | None, str | None]:
    """The extension module, or None and why it could not be had."""
    name = f"{__name__}._core"
    if importlib.util.find_spec(name) is None:
        return None, "no _core extension was built next to this package"
    try:
        return importlib.import_module(name), None
    except ImportError as error:  # built for another interpreter, or a missing symbol
        return None, f"{type(error).__name__}: {error}"


core, IMPORT_ERROR = _import_core()

AVAILABLE = core is not None
SOURCES = Path(__file__).with_name("src")


def build_expected() -> bool:
    """Whether the core should have been built here: its C sources lie next to this package and
    a C compiler is on the PATH. setup.py's build of it is optional (a failure is only a
    warning of pip's), so the tests hold :data:`AVAILABLE` to this."""
    compiler = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return any(SOURCES.glob("*.c")) and shutil.which(compiler.split()[0]) is not None
