"""Random policies and the per-step check that fuzz haven (tests, benchmarks/fuzz.py).

Uniform random play burns its cards negating damage and skips most abilities, so it loses within
a few rounds; the "busy" player mostly takes damage, attacks, moves and summons when it can, so
fights, kills, summons, loot and wins happen too.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from pettingzoo import AECEnv

from ...core.fuzz import check_masks
from .invariants import check_invariants
from .rules.engine import HavenGame
from .rules.prompts import (
    AREA_TARGET,
    ATTACK_TARGET,
    DAMAGE_RESPONSE,
    HEAL_TARGET,
    MOVE_DEST,
    SUMMON_HEX,
)

_ACT = (ATTACK_TARGET, HEAL_TARGET, MOVE_DEST, SUMMON_HEX, AREA_TARGET)


def busy_choice(rng: np.random.Generator, game: HavenGame) -> int:
    """A legal action of ``game`` that suffers damage (90%) and acts rather than declines
    (90%)."""
    legal: Sequence[int] = game.legal_actions()
    kind, no = game.prompt.kind, game.actions.NO
    if kind == DAMAGE_RESPONSE and rng.random() < 0.9:
        return no
    if kind in _ACT and len(legal) > 1 and rng.random() < 0.9:
        legal = [a for a in legal if a != no]
    return int(legal[rng.integers(len(legal))])


def busy_policy(rng: np.random.Generator, mask: np.ndarray, env: AECEnv) -> int:
    """:func:`busy_choice` for the AEC fuzz harness (:mod:`reborn_env.core.fuzz`)."""
    return busy_choice(rng, env.unwrapped.game)


def check_step(env: AECEnv, agent: str) -> None:
    """Engine invariants, and the mask of 16.4: exactly the legal set, zeros for the others."""
    game = env.unwrapped.game
    check_invariants(game)
    check_masks(env, agent, game.legal_actions(), "16.4")
