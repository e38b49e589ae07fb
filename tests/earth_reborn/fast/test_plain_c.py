"""The compiled core's rules, observation and mask are plain C: every source but the binding's
compiles without Python's headers, so the game can be built and tested as a C library, and
Python enters only where the binding reads Python objects."""

from __future__ import annotations

from pathlib import Path

from reborn_env.games.earth_reborn import fast
from tests.plain_c import compile_without_python

# The binding: the extension module, its reader of the observation Layout object, and the
# scripted bot's Python type.
BINDING = {"module.c", "layout_reader.c", "heuristic_module.c"}


def test_every_source_but_the_bindings_compiles_without_python_headers() -> None:
    """ER-GEN-3's engine in C (the rules, the observation of ER-HID-1..12 and the legal moves)
    needs no ``Python.h``; a source that starts to include it fails here, naming it."""
    assert fast.build_expected(), "no C compiler here: the core could not be built either"
    sources = sorted(fast.SOURCES.glob("*.c"))
    assert {s.name for s in sources} >= BINDING
    plain = [s for s in sources if s.name not in BINDING]
    assert len(plain) >= 10
    for source in plain:
        result = compile_without_python(source, fast.SOURCES)
        assert result.returncode == 0, f"{source.name} needs more than C:\n{result.stderr}"


def test_the_check_finds_a_source_that_includes_python(tmp_path: Path) -> None:
    """The check can fail: a file including ``Python.h`` does not compile without its folder."""
    planted = tmp_path / "planted.c"
    planted.write_text('#include <Python.h>\n#include "core.h"\nint x;\n')
    assert compile_without_python(planted, fast.SOURCES).returncode != 0
