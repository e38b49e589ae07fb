"""Attack resolution against one target (section 8, HV-ATK-1..4) for any attacker.

Characters, summons and monsters attack the same way; only the deck they draw from (HV-AMD-2)
and the sources of advantage differ, and those are passed in as an :class:`AttackSpec`.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import NamedTuple

from ..scenario.model import DOUBLE, NULL, ModifierCard
from .context import RuleContext
from .damage import add_condition, suffer_damage
from .decks import draw_modifier
from .figures import board_for, enemies_of, has, label, on_map, retaliate_of, shield_of
from .prompts import Prompt
from .state import CharacterState, Figure, ModifierDeck, SummonState


class AttackSpec(NamedTuple):
    """One Attack ability as it is resolved: value after the attacker-side bonuses that do not
    depend on the target (HV-ATK-1 steps 1-2), reach, pierce, added conditions, advantage.
    Immutable; a named tuple because every attack makes one."""

    value: int
    reach: int  # 1 for melee (HV-ABL-2)
    ranged: bool
    pierce: int = 0
    conditions: tuple[str, ...] = ()
    advantage: bool = False  # Seer's Lens (HV-ITEM-4); strengthen is read from the attacker


def deck_of(ctx: RuleContext, attacker: Figure) -> tuple[ModifierDeck, str]:
    """HV-AMD-2: a character's own deck, the owner's deck for a summon, the monsters' deck."""
    state = ctx.state
    if isinstance(attacker, CharacterState):
        return attacker.amd, ctx.scenario.characters[attacker.index].id
    if isinstance(attacker, SummonState):
        return state.characters[attacker.owner].amd, ctx.scenario.characters[attacker.owner].id
    return state.monster_amd, "monsters"


def apply_modifier(value: int, card: ModifierCard) -> int:
    """HV-ATK-1 step 3: ``+n``/``-n`` add, ``x2`` doubles, ``null`` gives 0; never below 0."""
    if card.kind == NULL:
        return 0
    if card.kind == DOUBLE:
        return max(0, 2 * value)
    return max(0, value + card.value)


def draw_value(ctx: RuleContext, attacker: Figure, spec: AttackSpec, adjacent: bool, value: int):
    """HV-ATK-2/3: one card, or two with advantage (better) or disadvantage (worse); having both
    is a single normal draw. Returns the value after the modifier and the cards drawn.
    ``adjacent``: the target is in range 1 of the attacker (a ranged attack's disadvantage)."""
    advantage = spec.advantage or has(attacker, "strengthen")
    disadvantage = has(attacker, "muddle") or (spec.ranged and adjacent)
    deck, deck_name = deck_of(ctx, attacker)
    first = draw_modifier(ctx, deck, deck_name)
    if advantage == disadvantage:
        return apply_modifier(value, first), [first.name]
    deck.discard.pop()  # [DEF] the first card is held aside until the second is drawn, so a
    second = draw_modifier(ctx, deck, deck_name)  # reshuffle between them cannot draw it again
    deck.discard.insert(len(deck.discard) - 1, first.name)
    a, b = apply_modifier(value, first), apply_modifier(value, second)
    if advantage:
        return (a if a >= b else b), [first.name, second.name]
    return (a if a <= b else b), [first.name, second.name]


def resolve_attack(
    ctx: RuleContext, attacker: Figure, target: Figure, spec: AttackSpec
) -> Generator[Prompt, int, None]:
    """HV-ATK-1: value, poison bonus, modifier, shield less pierce, damage, added effects, then
    the target's retaliate against an attacker in range 1 (HV-ABL-5)."""
    scenario = ctx.scenario
    # in range 1: disadvantage for a ranged attack (HV-ATK-2) and the target's retaliate
    adjacent = board_for(scenario).distance(attacker.cell, target.cell) <= 1
    value = spec.value + (1 if has(target, "poison") else 0)
    value, cards = draw_value(ctx, attacker, spec, adjacent, value)
    value = max(0, value - max(0, shield_of(scenario, target) - spec.pierce))
    ctx.log(
        "ATTACK",
        attacker=label(scenario, attacker),
        target=label(scenario, target),
        value=spec.value,
        damage=value,
        cards=cards,
    )
    yield from suffer_damage(ctx, target, value)
    if not on_map(ctx.state, target):
        return
    for condition in spec.conditions:  # HV-ABL-12
        add_condition(ctx, target, condition)
    retaliate = retaliate_of(scenario, target)
    if retaliate and adjacent and on_map(ctx.state, attacker):
        yield from suffer_damage(ctx, attacker, retaliate)


def valid_targets(ctx: RuleContext, attacker: Figure, reach: int) -> list[Figure]:
    """HV-ABL-2, HV-COND-8: enemies on the map, not invisible, within reach and in sight."""
    board = board_for(ctx.scenario)
    found = []
    for fig in enemies_of(ctx.state, attacker):
        if has(fig, "invisible"):
            continue
        if board.in_range_and_sight(attacker.cell, fig.cell, reach):
            found.append(fig)
    return found
