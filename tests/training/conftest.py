"""Set-up every training test shares: torch computes on one thread.

Why: the networks are tiny, and on a few cores (CI, a laptop, the machines these tests share)
one thread is faster than torch's default of one per core (the README's ``OMP_NUM_THREADS=1``).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest
import torch


@pytest.fixture(autouse=True, scope="session")
def one_torch_thread() -> None:
    torch.set_num_threads(1)


@pytest.fixture(scope="session")
def leaderboard() -> ModuleType:
    """benchmarks/leaderboard.py, a script, loaded as a module (the tests of each docs/benchmark.md
    section it renders use it)."""
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "leaderboard.py"
    spec = importlib.util.spec_from_file_location("leaderboard", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
