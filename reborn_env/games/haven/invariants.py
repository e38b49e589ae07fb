"""Invariants that hold after every decision of every haven game; the fuzz tests check them.

The list: cards conserved across hand/played/discard/lost/active, HP within bounds, a
non-empty set of legal actions while the game runs, and the end within the bounds of 15.10.
A loaded position is checked for these too, and for complete decks, the active area and
its summons, figures on floor hexes, played cards among the round's picks, the win condition
and the outcome (:mod:`.positions` refuses any state that breaks one of these).
"""

from __future__ import annotations

from collections import Counter

from .position_rules import fliers
from .rules.engine import HavenGame
from .rules.figures import all_figures, board_for
from .rules.state import OVER, RUNNING


def check_invariants(game: HavenGame) -> None:
    """Raise AssertionError naming the first invariant ``game`` breaks."""
    _check_characters(game)
    _check_monsters(game)
    _check_summons(game)
    _check_board(game)
    _check_progress(game)


def _check_characters(game: HavenGame) -> None:
    state, scenario = game.state, game.scenario
    standard_deck = Counter(c.name for c in scenario.character_modifier_deck)
    for ch in state.characters:
        cls = scenario.characters[ch.index]
        zones = ch.hand + ch.played + ch.discard + ch.lost + ch.round_bonus + ch.persistent
        if sorted(zones) != list(range(len(cls.cards))):
            raise AssertionError(f"{cls.id}: cards not conserved across zones: {sorted(zones)}")
        if ch.exhausted:
            if ch.cell is not None or len(ch.lost) != len(cls.cards):
                raise AssertionError(f"HV-EXH-3: exhausted {cls.id} still has a cell or cards")
            if ch.shield or ch.retaliate:
                raise AssertionError(f"HV-EXH-3: exhausted {cls.id} keeps a round bonus")
        elif not 1 <= ch.hp <= ch.max_hp:
            raise AssertionError(f"HV-EXH-2: {cls.id} has HP {ch.hp} outside 1..{ch.max_hp}")
        if Counter(ch.amd.draw + ch.amd.discard) != standard_deck:
            raise AssertionError(f"HV-AMD-1: {cls.id}'s modifier deck lost or gained cards")
        if any(card not in (ch.lead, ch.second) for card in ch.played):
            raise AssertionError(f"HV-SEL-1: {cls.id} plays a card it did not pick this round")
        fates = {k: "discard" for k in ch.round_bonus} | {k: "lost" for k in ch.persistent}
        if ch.active_fate != fates:
            raise AssertionError(f"HV-BOX-9: {cls.id}'s active cards and their piles disagree")


def _check_monsters(game: HavenGame) -> None:
    state, scenario = game.state, game.scenario
    for m in state.monsters:
        if not 1 <= m.hp <= m.max_hp:
            raise AssertionError(f"HV-DMG-1: a monster at HP {m.hp} is still on the map")
    standees = [(m.type, m.standee) for m in state.monsters]
    if len(set(standees)) != len(standees):
        raise AssertionError("HV-STATE-2: two monsters of a type share a standee number")
    for t, deck in enumerate(state.monster_decks):
        cards = deck.draw + deck.discard + ([deck.current] if deck.current is not None else [])
        if sorted(cards) != sorted(c.id for c in scenario.monster_types[t].deck):
            raise AssertionError("HV-STATE-4: a monster ability deck lost or gained cards")
    monster_deck = Counter(c.name for c in scenario.monster_modifier_deck)
    if Counter(state.monster_amd.draw + state.monster_amd.discard) != monster_deck:
        raise AssertionError("HV-AMD-1: the monsters' modifier deck lost or gained cards")


def _check_summons(game: HavenGame) -> None:
    state = game.state
    for s in state.summons:
        if not 1 <= s.hp <= s.max_hp or s.card not in state.characters[s.owner].persistent:
            raise AssertionError("HV-ABL-7: a summon without HP or without its active card")
    for ch in state.characters:
        if set(ch.persistent) != {s.card for s in state.summons if s.owner == ch.index}:
            raise AssertionError("HV-ABL-7: a persistent card is active without its summon")


def _check_board(game: HavenGame) -> None:
    cells = [f.cell for f in all_figures(game.state)]
    if len(cells) != len(set(cells)):
        raise AssertionError("HV-MAP-4: two figures share a hex")
    floor = board_for(game.scenario).floor
    if any(not floor[c] for c in cells + list(game.state.coins)):
        raise AssertionError("HV-MAP-3: a figure or coin off the floor")
    traps = game.state.traps
    if traps != sorted(set(traps)) or not set(traps) <= set(game.scenario.map.traps):
        raise AssertionError("HV-TER-2: unsprung traps are not distinct trap cells of the map")
    flown = fliers(game.scenario, game.state)
    if any(f.cell in traps and id(f) not in flown for f in all_figures(game.state)):
        raise AssertionError("HV-TER-2: a figure that cannot fly stands on an unsprung trap")


def _check_progress(game: HavenGame) -> None:
    state, scenario = game.state, game.scenario
    if state.win_met != (not state.monsters):
        raise AssertionError("HV-END-1/2: the win condition is not 'no monster left'")
    if state.outcome == RUNNING and not game.legal_actions():
        raise AssertionError("a running game has no legal action")
    if state.outcome != RUNNING and (game.legal_actions() or state.phase != OVER):
        raise AssertionError("HV-STATE-7: a decided game still poses a prompt")
    if state.round > min(scenario.rules.round_cap, game.config.max_rounds):
        raise AssertionError(f"15.10, HV-END-4: round {state.round} exceeds the bound")
