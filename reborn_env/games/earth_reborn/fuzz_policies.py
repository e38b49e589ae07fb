"""Random policies and the per-step check that fuzz Earth Reborn (tests, benchmarks/fuzz.py)."""

from __future__ import annotations

import numpy as np
from pettingzoo import AECEnv

from ...core.fuzz import check_masks
from .invariants import check_invariants
from .rules.engine import legal_actions

# Decisions that end or skip things: a "busy" random player avoids them most of the time, so
# fights, shots, doors and card hand-overs happen far more often than under uniform play.
_IDLE = ("PASS", "END_ROUND", "END_MOVE", "DISCARD_TILE", "KEEP_HAND")


def busy_policy(rng: np.random.Generator, mask: np.ndarray, env: AECEnv) -> int:
    """Legal play that prefers doing something (85%) over passing or ending."""
    legal = np.flatnonzero(mask)
    kind_of = env.unwrapped.codec.kind_of
    busy = [a for a in legal if kind_of[a] not in _IDLE]
    pool = busy if busy and rng.random() < 0.85 else legal
    return int(rng.choice(pool))


def check_step(env: AECEnv, agent: str) -> None:
    """Engine invariants, and the mask of section 22: exactly the legal set, zeros for the other.

    It reads the game through ``peek()``, which leaves a compiled core playing (``game`` would
    hand the rest of the match over to the reference engine, and the core would go unchecked)."""
    game = env.unwrapped.peek()
    check_invariants(game)
    check_masks(env, agent, legal_actions(game), "ER-ENV-10")
