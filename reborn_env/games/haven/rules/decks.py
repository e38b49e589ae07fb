"""Attack modifier decks and monster ability decks (HV-AMD-1..4, HV-MCARD-1/2, HV-CLEAN-1.1-2).

Decks keep card names (modifier decks) or card ids (ability decks), top of the draw pile first;
all shuffles use the one generator of the state (HV-API-9). The printed cards those names and
ids stand for are looked up in tables built once per scenario.
"""

from __future__ import annotations

from ....core.per_scenario import PerScenario
from ..scenario.model import DOUBLE, NULL, ModifierCard, MonsterAbilityCard, Scenario
from .context import RuleContext
from .state import ModifierDeck, MonsterDeck


def _modifier_table(scenario: Scenario) -> dict[str, ModifierCard]:
    cards = {c.name: c for c in scenario.character_modifier_deck}
    cards.update({c.name: c for c in scenario.monster_modifier_deck})
    return cards


def _monster_tables(scenario: Scenario) -> tuple[dict[str | None, MonsterAbilityCard], ...]:
    return tuple({card.id: card for card in t.deck} for t in scenario.monster_types)


_modifier_cards = PerScenario(_modifier_table)
_monster_cards = PerScenario(_monster_tables)


def modifier_card(scenario: Scenario, name: str) -> ModifierCard:
    """The printed modifier card called ``name`` (``+1``, ``x2``, ``null``)."""
    return _modifier_cards(scenario)[name]


def monster_card(scenario: Scenario, type_index: int, card_id: str | None) -> MonsterAbilityCard:
    """The monster ability card ``card_id`` of a type."""
    return _monster_cards(scenario)[type_index][card_id]


def draw_modifier(ctx: RuleContext, deck: ModifierDeck, deck_name: str) -> ModifierCard:
    """HV-AMD-4: draw the top card (reshuffling the discard first if the pile is empty); the card
    goes to the discard (HV-ATK-2) and a shuffle card marks the deck for cleanup (HV-AMD-3)."""
    if not deck.draw:
        deck.draw = deck.discard
        deck.discard = []
        ctx.state.rng.shuffle(deck.draw)
    name = deck.draw.pop(0)
    deck.discard.append(name)
    card = modifier_card(ctx.scenario, name)
    if card.kind in (DOUBLE, NULL):
        deck.shuffle_due = True
    ctx.log("DRAW", deck=deck_name, card=name)
    return card


def draw_monster_card(ctx: RuleContext, deck: MonsterDeck, type_id: str) -> None:
    """HV-MCARD-1/2: reveal the top ability card of a monster type (reshuffle if empty)."""
    if not deck.draw:
        deck.draw = deck.discard
        deck.discard = []
        ctx.state.rng.shuffle(deck.draw)
    deck.current = deck.draw.pop(0)
    deck.consumed = False
    ctx.log("DRAW", deck=type_id, card=deck.current)


def reshuffle_modifier_decks(ctx: RuleContext) -> None:
    """HV-CLEAN-1 step 1: every modifier deck that showed ``x2`` or ``null`` this round takes its
    discard back and is shuffled."""
    state = ctx.state
    for deck in [c.amd for c in state.characters] + [state.monster_amd]:
        if deck.shuffle_due:
            deck.draw = deck.draw + deck.discard
            deck.discard = []
            state.rng.shuffle(deck.draw)
            deck.shuffle_due = False


def end_monster_cards(ctx: RuleContext) -> None:
    """HV-CLEAN-1 step 2: a current card with the shuffle mark shuffles the whole discard (itself
    included) back into the draw pile; any other current card stays on the discard."""
    state = ctx.state
    for type_index, deck in enumerate(state.monster_decks):
        if deck.current is None:
            continue
        deck.discard.append(deck.current)
        if monster_card(ctx.scenario, type_index, deck.current).shuffle:
            deck.draw = deck.draw + deck.discard
            deck.discard = []
            state.rng.shuffle(deck.draw)
        deck.current = None
        deck.consumed = False
