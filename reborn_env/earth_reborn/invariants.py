"""Invariants that hold after every decision of every game; the fuzz tests check them each step.

ER-TILE-11 says the engine checks tile conservation itself: :func:`check_invariants` is that check,
plus the bounds a legal game can never break (CP never negative, ER-CP-7; figures apart at round
level, ER-MOV-5; a live decision while the game runs; the ER-SCN-13 length bound).
"""

from __future__ import annotations

from .engine import legal_actions
from .state import ROUND, GameState
from .tiles import tile_locations

# ER-SCN-13: six turns stay well under this many agent steps.
STEP_BOUND = 3000


def check_invariants(state: GameState) -> None:
    """Raise AssertionError naming the first invariant ``state`` breaks."""
    where = tile_locations(state)
    lost = [state.scenario.tiles[t].id for t, w in enumerate(where) if not w]
    if lost:
        raise AssertionError(f"ER-TILE-11: tiles {lost} are nowhere")
    if min(state.cp) < 0:
        raise AssertionError(f"ER-CP-7: a CP pool is negative: {state.cp}")
    if state.winner is None and not legal_actions(state):
        raise AssertionError(f"no legal action at decision {state.decision!r} of a running game")
    if state.steps > STEP_BOUND:
        raise AssertionError(f"ER-SCN-13: {state.steps} steps exceed the bound {STEP_BOUND}")
    if state.decision == ROUND:
        squares = [ch.square for ch in state.chars if not ch.dead]
        if len(squares) != len(set(squares)):
            raise AssertionError("ER-MOV-5: two living figures share a square at a round's end")
    spec_max = [c.healthy.maxcp for c in state.scenario.characters]
    for c, ch in enumerate(state.chars):
        if ch.cp_spent > spec_max[c]:
            raise AssertionError(f"ER-CP-3: character {c} spent {ch.cp_spent} > MAXCP")
        for assigned in ch.tiles:
            sections = state.scenario.tiles[assigned.tile].sections
            if any(cp > s.max for cp, s in zip(assigned.cp, sections, strict=True)):
                raise AssertionError("ER-ORD-7: a section holds more CP than its maximum")
