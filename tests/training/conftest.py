"""Set-up every training test shares: torch computes on one thread.

Why: the networks are tiny, and on a few cores (CI, a laptop, the machines these tests share)
one thread is faster than torch's default of one per core (the README's ``OMP_NUM_THREADS=1``).
"""

from __future__ import annotations

import pytest
import torch


@pytest.fixture(autouse=True, scope="session")
def one_torch_thread() -> None:
    torch.set_num_threads(1)
