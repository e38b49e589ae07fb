"""haven's compiled core (issue 16): C twins of hot pure-Python pieces, each with its reference.

``_core`` is the C extension that setup.py builds from ``src/*.c`` when a compiler is there
(optional: the package still installs without it). ``AVAILABLE`` says whether it imported;
``IMPORT_ERROR`` keeps why not; ``core`` is the module or None. Its observation encoder is wrapped
by :mod:`.observer` (the Python :class:`~reborn_env.games.haven.observation.Observer` is the
reference), its path costs by :mod:`..rules.path_graph` (its Python searches are). This module
imports no rules module, so the rules can import it.
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
BACKEND_VARIABLE = "REBORN_ENV_BACKEND"  # the variable Earth Reborn's backend reads too


def use_core() -> bool:
    """Whether haven runs its compiled pieces: when the core is built, unless
    ``$REBORN_ENV_BACKEND`` is ``python`` (``fast`` or unset: the default; anything else is an
    error, as for Earth Reborn), so a whole run can be made on the reference."""
    backend = os.environ.get(BACKEND_VARIABLE) or "fast"
    if backend not in ("fast", "python"):
        raise ValueError(f"${BACKEND_VARIABLE} must be one of fast, python, got {backend!r}")
    return backend == "fast" and AVAILABLE


def build_expected() -> bool:
    """Whether the core should have been built here: its C sources lie next to this package and
    a C compiler is on the PATH. setup.py's build of it is optional (a failure is only a
    warning of pip's), so the tests hold :data:`AVAILABLE` to this."""
    compiler = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return any(SOURCES.glob("*.c")) and shutil.which(compiler.split()[0]) is not None
