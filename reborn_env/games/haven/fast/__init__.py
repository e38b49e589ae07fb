"""haven's compiled core: C twins of hot pure-Python pieces, each with its reference.

``_core`` is the C extension that setup.py builds from ``src/*.c`` when a compiler is there
(optional: the package still installs without it). ``AVAILABLE`` says whether it imported;
``IMPORT_ERROR`` keeps why not; ``core`` is the module or None. Its observation encoder is wrapped
by :mod:`.observer`, its path costs by :mod:`..rules.path_graph`, its single-target focus and
destination by :mod:`..rules.monster_ai`; the Python of each stays the reference. This module
imports no rules module, so the rules can import it.
"""

from __future__ import annotations

from pathlib import Path

from ....core.compiled import BACKEND_VARIABLE as BACKEND_VARIABLE  # re-exported for the tests
from ....core.compiled import backend_from_environment, import_core
from ....core.compiled import build_expected as sources_buildable

core, IMPORT_ERROR = import_core(__name__)

AVAILABLE = core is not None
SOURCES = Path(__file__).with_name("src")


def use_core() -> bool:
    """Whether haven runs its compiled pieces: when the core is built, unless
    ``$REBORN_ENV_BACKEND`` is ``python`` (``fast`` or unset: the default; anything else is an
    error, as for Earth Reborn), so a whole run can be made on the reference."""
    return backend_from_environment() != "python" and AVAILABLE


def build_expected() -> bool:
    """Whether the core should have been built here (:func:`reborn_env.core.compiled.build_expected`
    of ``src/``): the tests hold :data:`AVAILABLE` to this."""
    return sources_buildable(SOURCES)
