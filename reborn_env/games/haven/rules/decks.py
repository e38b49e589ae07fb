"""Attack modifier decks and monster ability decks (HV-AMD-1..4, HV-MCARD-1/2, HV-CLEAN-1.1-2).

Decks keep card names (modifier decks) or card ids (ability decks), top of the draw pile first;
all shuffles use the one generator of the state (HV-API-9).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..scenario.model import DOUBLE, NULL, ModifierCard
from .state import HavenState, ModifierDeck, MonsterDeck

if TYPE_CHECKING:
    from .engine import HavenGame


def modifier_card(game: HavenGame, name: str) -> ModifierCard:
    """The printed modifier card called ``name`` (``+1``, ``x2``, ``null``)."""
    return game.modifier_cards[name]


def draw_modifier(game: HavenGame, deck: ModifierDeck, deck_name: str) -> ModifierCard:
    """HV-AMD-4: draw the top card (reshuffling the discard first if the pile is empty); the card
    goes to the discard (HV-ATK-2) and a shuffle card marks the deck for cleanup (HV-AMD-3)."""
    if not deck.draw:
        deck.draw = deck.discard
        deck.discard = []
        game.state.rng.shuffle(deck.draw)
    name = deck.draw.pop(0)
    deck.discard.append(name)
    card = modifier_card(game, name)
    if card.kind in (DOUBLE, NULL):
        deck.shuffle_due = True
    game.log("DRAW", deck=deck_name, card=name)
    return card


def draw_monster_card(game: HavenGame, deck: MonsterDeck, type_id: str) -> None:
    """HV-MCARD-1/2: reveal the top ability card of a monster type (reshuffle if empty)."""
    if not deck.draw:
        deck.draw = deck.discard
        deck.discard = []
        game.state.rng.shuffle(deck.draw)
    deck.current = deck.draw.pop(0)
    deck.consumed = False
    game.log("DRAW", deck=type_id, card=deck.current)


def reshuffle_modifier_decks(game: HavenGame) -> None:
    """HV-CLEAN-1 step 1: every modifier deck that showed ``x2`` or ``null`` this round takes its
    discard back and is shuffled."""
    state = game.state
    for deck in [c.amd for c in state.characters] + [state.monster_amd]:
        if deck.shuffle_due:
            deck.draw = deck.draw + deck.discard
            deck.discard = []
            state.rng.shuffle(deck.draw)
            deck.shuffle_due = False


def end_monster_cards(game: HavenGame) -> None:
    """HV-CLEAN-1 step 2: a current card with the shuffle mark shuffles the whole discard (itself
    included) back into the draw pile; any other current card stays on the discard."""
    state: HavenState = game.state
    for type_index, deck in enumerate(state.monster_decks):
        if deck.current is None:
            continue
        deck.discard.append(deck.current)
        if game.monster_card(type_index, deck.current).shuffle:
            deck.draw = deck.draw + deck.discard
            deck.discard = []
            state.rng.shuffle(deck.draw)
        deck.current = None
        deck.consumed = False
