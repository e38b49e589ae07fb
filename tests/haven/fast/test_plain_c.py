"""haven's compiled searches and monster AI are plain C: the sources outside the binding
compile without Python's headers, so they can be built and tested as a C library, and Python
enters only where the binding reads Python's lists and objects."""

from __future__ import annotations

from pathlib import Path

from reborn_env.games.haven import fast
from tests.plain_c import compile_without_python

# The binding: the module definition and the files that read Python objects (the observer, the
# path and monster-AI entry points, the action mask).
BINDING = {"module.c", "observer.c", "paths.c", "monster_ai.c", "mask.c"}


def test_the_searches_and_the_monster_ai_compile_without_python_headers() -> None:
    """HV-AI-2's and HV-AI-10's searches (breadth first, Dijkstra, the cells a mover may pass
    and end on) and HV-AI-4/HV-AI-5's focus and destination need no ``Python.h``; a plain
    source that starts to include it fails here."""
    assert fast.build_expected(), "no C compiler here: the core could not be built either"
    sources = sorted(fast.SOURCES.glob("*.c"))
    assert {s.name for s in sources} >= BINDING
    plain = [s for s in sources if s.name not in BINDING]
    assert {"path_search.c", "ai_choice.c"} <= {s.name for s in plain}
    for source in plain:
        result = compile_without_python(source, fast.SOURCES)
        assert result.returncode == 0, f"{source.name} needs more than C:\n{result.stderr}"


def test_the_check_finds_a_source_that_includes_python(tmp_path: Path) -> None:
    """The check can fail: a file including ``Python.h`` does not compile without its folder."""
    planted = tmp_path / "planted.c"
    planted.write_text('#include <Python.h>\n#include "path_search.h"\nint x;\n')
    assert compile_without_python(planted, fast.SOURCES).returncode != 0
