"""haven's compiled core: C twins of hot pure-Python pieces, each with its reference.

``_core`` is the C extension that setup.py builds from ``src/*.c`` when a compiler is there
(optional: the package still installs without it). ``AVAILABLE`` says whether it imported;
``IMPORT_ERROR`` keeps why not; ``core`` is the module or None. Its observation encoder is wrapped
by :mod:`.observer`, its action mask by :mod:`.mask`, its path graphs and single-target monster AI
by :mod:`.kernels`; the Python of each stays the reference. The rules import none of this: the
environment picks one backend (:func:`resolve_backend`) and hands the rules their kernels.
"""

from __future__ import annotations

from pathlib import Path

from ....core.compiled import BACKEND_VARIABLE as BACKEND_VARIABLE  # re-exported for the tests
from ....core.compiled import BACKENDS, backend_from_environment, import_core
from ....core.compiled import build_expected as sources_buildable

core, IMPORT_ERROR = import_core(__name__)

AVAILABLE = core is not None
SOURCES = Path(__file__).with_name("src")


class CoreUnavailableError(RuntimeError):
    """A compiled piece (``backend="fast"``, a FastObserver) was asked for and the core is not
    built."""


def resolve_backend(backend: str | None) -> str:
    """``"fast"`` (the compiled pieces) or ``"python"`` (the reference), as Earth Reborn's:
    None is ``$REBORN_ENV_BACKEND`` if set, else the core where it is built; an unknown value
    is a ValueError naming the allowed ones, ``"fast"`` without the core CoreUnavailableError."""
    if backend is None:
        backend = backend_from_environment()
    if backend is None:
        return "fast" if AVAILABLE else "python"
    if backend not in BACKENDS:
        raise ValueError(
            f"backend must be one of {', '.join(map(repr, BACKENDS))}, got {backend!r}"
        )
    if backend == "fast" and not AVAILABLE:
        raise CoreUnavailableError(
            f"backend='fast' needs haven's compiled core, which is not built ({IMPORT_ERROR}); "
            "install with a C compiler (pip install -e .) or use backend='python'"
        )
    return backend


def build_expected() -> bool:
    """Whether the core should have been built here (:func:`reborn_env.core.compiled.build_expected`
    of ``src/``): the tests hold :data:`AVAILABLE` to this."""
    return sources_buildable(SOURCES)
