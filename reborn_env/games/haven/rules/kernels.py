"""The kernels every haven game calls unless it is given the compiled twins (``fast.kernels``).

:data:`REFERENCE` is the pure-Python path graph (HV-AI-2, HV-AI-10, HV-TER-7) and single-target
monster AI (HV-AI-4, HV-AI-5); the twins give the same results (tests/haven/fast).
"""

from __future__ import annotations

from . import monster_ai
from .context import Kernels
from .path_graph import PathGraph

REFERENCE = Kernels(PathGraph, monster_ai.focus_ranking, monster_ai.destination)
"""The pure-Python reference: every game's kernels unless it is given others."""
