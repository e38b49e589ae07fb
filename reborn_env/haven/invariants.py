"""Invariants that hold after every decision of every haven game; the fuzz tests check them.

Issue 5's list: cards conserved across hand/played/discard/lost/active, HP within bounds, a
non-empty set of legal actions while the game runs, and the end within the bounds of 15.10.
"""

from __future__ import annotations

from collections import Counter

from .engine import HavenGame
from .state import RUNNING


def check_invariants(game: HavenGame) -> None:
    """Raise AssertionError naming the first invariant ``game`` breaks."""
    state, scenario = game.state, game.scenario
    for ch in state.characters:
        cls = scenario.characters[ch.index]
        zones = ch.hand + ch.played + ch.discard + ch.lost + ch.round_bonus + ch.persistent
        if sorted(zones) != list(range(len(cls.cards))):
            raise AssertionError(f"{cls.id}: cards not conserved across zones: {sorted(zones)}")
        if ch.exhausted:
            if ch.cell is not None or len(ch.lost) != len(cls.cards):
                raise AssertionError(f"HV-EXH-3: exhausted {cls.id} still has a cell or cards")
        elif not 1 <= ch.hp <= ch.max_hp:
            raise AssertionError(f"HV-EXH-2: {cls.id} has HP {ch.hp} outside 1..{ch.max_hp}")
        if Counter(ch.amd.draw + ch.amd.discard) != game.standard_deck:
            raise AssertionError(f"HV-AMD-1: {cls.id}'s modifier deck lost or gained cards")
    for m in state.monsters:
        if not 1 <= m.hp <= m.max_hp:
            raise AssertionError(f"HV-DMG-1: a monster at HP {m.hp} is still on the map")
    for s in state.summons:
        if not 1 <= s.hp <= s.max_hp or s.card not in state.characters[s.owner].persistent:
            raise AssertionError("HV-ABL-7: a summon without HP or without its active card")
    cells = [f.cell for f in game.figures()]
    if len(cells) != len(set(cells)):
        raise AssertionError("HV-MAP-4: two figures share a hex")
    if state.outcome == RUNNING and not game.legal_actions():
        raise AssertionError("a running game has no legal action")
    if state.round > scenario.rules.bounds.last_exhaustion_round:
        raise AssertionError(f"15.10: round {state.round} exceeds the bound")
