"""The binding layer every compiled core shares (``reborn_env/core/csrc``): its C sources are
plain C (the thread pool of a vector step); setup.py compiles them into every game's core
(tests/earth_reborn/fast/test_backend.py)."""

from __future__ import annotations

from tests.plain_c import SHARED_INCLUDE, compile_without_python


def test_the_shared_sources_compile_without_python_headers() -> None:
    """rb_pool.c (the vector step's threads) needs no Python header; only rb_binding.h,
    the argument and buffer checks, does."""
    sources = sorted(SHARED_INCLUDE.glob("*.c"))
    assert "rb_pool.c" in {s.name for s in sources}
    for source in sources:
        result = compile_without_python(source, SHARED_INCLUDE)
        assert result.returncode == 0, f"{source.name} needs more than C:\n{result.stderr}"
