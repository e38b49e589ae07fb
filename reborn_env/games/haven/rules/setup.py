"""A new game's state from a scenario and a seed (HV-SETUP-1, HV-SETUP-2)."""

from __future__ import annotations

from ....core.rng import SplitMix64
from ..scenario.model import Scenario
from .state import INERT, READY, CharacterState, HavenState, ModifierDeck, MonsterDeck, MonsterState


def new_state(scenario: Scenario, seed: int) -> HavenState:
    """HV-SETUP-1: the scenario's map, tokens and monsters, both characters with full hands, ready
    items, full HP, no conditions, inert elements; HV-SETUP-2: every deck shuffled by the one
    generator seeded with ``seed`` (character decks in agent order, then the monster modifier
    deck, then the monster ability decks in type order)."""
    rng = SplitMix64(seed)
    characters = []
    for index, cls in enumerate(scenario.characters):
        characters.append(
            CharacterState(
                index=index,
                hp=cls.max_hp,
                max_hp=cls.max_hp,
                cell=scenario.map.starts[index],
                hand=list(range(len(cls.cards))),
                items=[READY] * len(cls.items),
                amd=ModifierDeck(shuffled_modifier_deck(scenario, rng, monsters=False)),
            )
        )
    monster_amd = ModifierDeck(shuffled_modifier_deck(scenario, rng, monsters=True))
    decks = []
    for mtype in scenario.monster_types:
        draw = [card.id for card in mtype.deck]
        rng.shuffle(draw)
        decks.append(MonsterDeck(draw))
    monsters = []
    for placed in scenario.map.monsters:
        type_index = scenario.monster_type_index[placed.type]
        stats = scenario.monster_types[type_index].stats(placed.rank)
        monsters.append(
            MonsterState(type_index, placed.rank, placed.standee, stats.hp, stats.hp, placed.cell)
        )
    coins: dict[int, int] = {}
    for cell in scenario.map.coins:
        coins[cell] = coins.get(cell, 0) + 1
    return HavenState(
        characters=characters,
        monsters=monsters,
        summons=[],
        monster_decks=decks,
        monster_amd=monster_amd,
        elements=[INERT] * 6,
        coins=coins,
        treasures={t.cell: t.number for t in scenario.map.treasures},
        rng=rng,
        traps=sorted(scenario.map.traps),  # HV-TER-2
    )


def shuffled_modifier_deck(scenario: Scenario, rng: SplitMix64, monsters: bool) -> list[str]:
    """HV-AMD-1/2, HV-SETUP-2: a fresh standard deck's card names in shuffled order, top first."""
    cards = scenario.monster_modifier_deck if monsters else scenario.character_modifier_deck
    names = [card.name for card in cards]
    rng.shuffle(names)
    return names
