"""The compiled Earth Reborn core and its pure-Python twin, the reference engine.

``_core`` is the C extension that setup.py builds from ``src/*.c`` when a compiler is there
(optional: the package still installs without it). ``AVAILABLE`` says whether it imported;
``IMPORT_ERROR`` keeps why not. Without the core everything runs on the reference engine
(:mod:`.reference`), with one warning the first time a backend is chosen by default
(:func:`resolve_backend`); asking for ``backend="fast"`` explicitly is then an error. The
environment variable ``REBORN_ENV_BACKEND`` (``fast`` or ``python``) sets the default backend,
for instance to run the suite on the reference engine while the core is being changed.
"""

from __future__ import annotations

import warnings
from pathlib import Path

from ....core.compiled import BACKEND_VARIABLE, BACKENDS, backend_from_environment, import_core
from ....core.compiled import build_expected as sources_buildable

DEFAULT_VARIABLE = BACKEND_VARIABLE  # the variable that sets the default backend


core, IMPORT_ERROR = import_core(__name__)

AVAILABLE = core is not None
SOURCES = Path(__file__).with_name("src")


def build_expected() -> bool:
    """Whether the core should have been built here (:func:`reborn_env.core.compiled.build_expected`
    of ``src/``): the tests hold :data:`AVAILABLE` to this."""
    return sources_buildable(SOURCES)


_warned = False


class CoreUnavailableError(RuntimeError):
    """``backend="fast"`` was asked for and the compiled core is not built."""


def resolve_backend(backend: str | None) -> str:
    """``"fast"`` or ``"python"``: ``None`` is the default, ``$REBORN_ENV_BACKEND`` if set, else
    the core when it is built, else the reference engine with one warning (once per process)."""
    global _warned
    if backend is None:
        backend = backend_from_environment()
    if backend is None:
        if AVAILABLE:
            return "fast"
        if not _warned:
            _warned = True
            warnings.warn(
                "the compiled Earth Reborn core is not built "
                f"({IMPORT_ERROR}); using the pure-Python reference engine, which is slower. "
                "Reinstall with a C compiler (pip install -e .) to build it.",
                RuntimeWarning,
                stacklevel=3,
            )
        return "python"
    if backend not in BACKENDS:
        raise ValueError(
            f"backend must be one of {', '.join(map(repr, BACKENDS))}, got {backend!r}"
        )
    if backend == "fast" and not AVAILABLE:
        raise CoreUnavailableError(
            "backend='fast' needs the compiled Earth Reborn core, which is not built "
            f"({IMPORT_ERROR}); install with a C compiler (pip install -e .) or use "
            "backend='python'"
        )
    return backend
