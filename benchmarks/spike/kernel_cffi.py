"""The spike kernel through cffi in API mode (benchmarks/spike_core_tech.py).

``build`` compiles kernel.h behind the declarations of kernel.cdef into the extension
``spike_cffi``; ``load`` wraps its ``spike_step`` in a Python function that checks the buffers
(cffi reads raw pointers, so the checks the CPython-API module makes in C are made in Python).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from kernel_py import OBS, STATE_DTYPE

HERE = Path(__file__).resolve().parent


def build(tmpdir: str) -> str:
    """Compile the module ``spike_cffi`` into tmpdir; return the path of the built file."""
    from cffi import FFI

    ffi = FFI()
    ffi.cdef((HERE / "kernel.cdef").read_text())
    ffi.set_source(
        "spike_cffi",
        '#include "kernel.h"',
        include_dirs=[str(HERE)],
        extra_compile_args=["-O3", "-std=c11"],
    )
    return ffi.compile(tmpdir=tmpdir)


def load():
    """Import the built ``spike_cffi`` and return ``step(state, obs, tiles)`` over it."""
    from spike_cffi import ffi, lib

    def step(state: np.ndarray, obs: np.ndarray, tiles: np.ndarray) -> None:
        n = state.shape[0]
        if (
            state.dtype != STATE_DTYPE
            or obs.dtype != np.float32
            or obs.shape != (n, OBS)
            or tiles.dtype != np.int32
            or tiles.shape != (n,)
        ):
            raise ValueError("obs must be float32 [n, 954] and tiles int32 [n] for n games")
        lib.spike_step(
            ffi.from_buffer("SpikeState[]", state, require_writable=True),
            ffi.from_buffer("float[]", obs, require_writable=True),
            ffi.from_buffer("int32_t[]", tiles, require_writable=True),
            n,
        )

    return step
