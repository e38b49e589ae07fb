"""Monster turns and summon turns (sections 12 and 13, HV-MTURN-*, HV-MEND-*, HV-STURN-*).

Both follow the seed's frame: start of turn (wound, stun), the card executed top to bottom by the
deterministic AI of :mod:`.monster_ai`, end of turn (condition expiry, infusions). A summon runs
"Move +0, Attack +0" with its own stats (HV-STURN-2).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING

from ..scenario.model import ATTACK, ELITE, INFUSE, MOVE, RETALIATE, SHIELD, Ability, MonsterType
from .attack import AttackSpec, resolve_attack
from .damage import TurnAborted, suffer_damage
from .figures import Figure, board_for, has, label
from .monster_ai import PathGraph, Plan, destination, extra_targets, focus
from .prompts import Prompt
from .state import MonsterState, SummonState

if TYPE_CHECKING:
    from .engine import HavenGame

Turn = Generator[Prompt, int, None]

_SUMMON_CARD = (Ability(MOVE, 0), Ability(ATTACK, 0))  # HV-STURN-2


def monster_slot(game: HavenGame, type_index: int) -> Turn:
    """HV-INIT-6, HV-MTURN-1..4: every monster of the type acts on the one current card, elites
    first, then normals, each by standee number; the order is fixed when the slot starts."""
    order = sorted(
        (m for m in game.state.monsters if m.type == type_index),
        key=lambda m: (m.rank != ELITE, m.standee),
    )
    for monster in order:
        if game.figure_on_map(monster):
            yield from monster_turn(game, monster)


def monster_turn(game: HavenGame, monster: MonsterState) -> Turn:
    """HV-MTURN-5..11, HV-MEND-1/2: one monster's turn."""
    mtype = game.scenario.monster_types[monster.type]
    deck = game.state.monster_decks[monster.type]
    card = game.monster_card(monster.type, deck.current)
    yield from figure_turn(game, monster, card.abilities, mtype)


def summon_turn(game: HavenGame, summon: SummonState) -> Turn:
    """HV-STURN-1..4: the summon's automatic Move +0 / Attack +0; it never loots."""
    yield from figure_turn(game, summon, _SUMMON_CARD, None)


def figure_turn(
    game: HavenGame, fig: Figure, abilities: tuple[Ability, ...], mtype: MonsterType | None
) -> Turn:
    """The seed's turn frame for a monster or summon: wound, stun, card, end of turn."""
    start = game.begin_turn(fig)
    try:
        if has(fig, "wound"):
            game.log("WOUND", figure=label(game.scenario, fig), amount=1)
            yield from suffer_damage(game, fig, 1)
        if has(fig, "stun"):
            game.log("STUN_SKIP", figure=label(game.scenario, fig))
        else:
            yield from execute_card(game, fig, abilities, mtype)
        game.end_turn_conditions_and_elements(fig, start)
    except TurnAborted:
        game.abort_turn(fig)
    fig.acted = True


def _stats(game: HavenGame, fig: Figure, mtype: MonsterType | None) -> tuple[int, int, int]:
    """Base (move, attack, range) of a monster's rank or a summon's card (HV-MTURN-10)."""
    if isinstance(fig, SummonState):
        return fig.move, fig.attack, fig.range
    assert mtype is not None and isinstance(fig, MonsterState)
    stats = mtype.stats(fig.rank)
    return stats.move, stats.attack, stats.range


def _plan(
    fig: Figure, abilities: tuple[Ability, ...], base: tuple[int, int, int], after: int
) -> Plan:
    """The Plan of the card from ability ``after`` on: the Move of that line and the first
    Attack after it (HV-AI-3/5)."""
    move_points = None
    if abilities[after].kind == MOVE and not has(fig, "immobilize"):
        move_points = max(0, base[0] + abilities[after].value)
    attack = next((a for a in abilities[after:] if a.kind == ATTACK), None)
    if attack is None or has(fig, "disarm"):
        return Plan(move_points, None, False)
    reach = base[2] + attack.range
    return Plan(move_points, max(reach, 1), reach > 0, attack.targets)


def execute_card(
    game: HavenGame, fig: Figure, abilities: tuple[Ability, ...], mtype: MonsterType | None
) -> Turn:
    """HV-MTURN-8..11, HV-AI-7: focus first, then each line top to bottom; nothing else."""
    base = _stats(game, fig, mtype)
    graph: PathGraph | None = PathGraph(game, fig)  # None once a figure moved or may have left
    target = focus(game, fig, _plan(fig, abilities, base, 0), graph)
    for i, ability in enumerate(abilities):
        if ability.kind == MOVE:
            plan = _plan(fig, abilities, base, i)
            if target is not None and plan.move:
                graph = graph or PathGraph(game, fig)
                cell = destination(game, fig, plan, target, graph)
                if cell != fig.cell:
                    game.log(
                        "MOVE", figure=label(game.scenario, fig), **{"from": fig.cell}, to=cell
                    )
                    fig.cell = cell
                    graph = None
        elif ability.kind == ATTACK:
            yield from monster_attack(game, fig, ability, base, target)
            graph = None
        elif ability.kind in (SHIELD, RETALIATE):
            _round_bonus(fig, ability)
        elif ability.kind == INFUSE:  # HV-ELEM-6
            game.infuse(ability.element)


def _round_bonus(fig: Figure, ability: Ability) -> None:
    """HV-MTURN-10: a card's Shield/Retaliate lasts from now to the end of the round."""
    if ability.kind == SHIELD:
        fig.shield += ability.value
    else:
        fig.retaliate += ability.value


def monster_attack(
    game: HavenGame,
    fig: Figure,
    ability: Ability,
    base: tuple[int, int, int],
    target: Figure | None,
) -> Turn:
    """HV-ELEM-5 (consume once per activation), HV-AI-6 (attack the focus, then extra targets)."""
    value = max(0, base[1] + ability.value)
    conditions = ability.conditions
    if ability.consume is not None and isinstance(fig, MonsterState):
        deck = game.state.monster_decks[fig.type]
        element = game.element_index(ability.consume.element)
        if not deck.consumed and game.state.elements[element] >= 1:
            game.consume(element, fig)
            deck.consumed = True
        if deck.consumed:
            value += ability.consume.bonus
            conditions = conditions + ability.consume.conditions
    if target is None or has(fig, "disarm") or not game.figure_on_map(target):
        return
    reach = base[2] + ability.range
    spec = AttackSpec(value, max(reach, 1), reach > 0, ability.pierce, conditions)
    board = board_for(game.scenario)
    if has(target, "invisible") or not board.in_range_and_sight(fig.cell, target.cell, spec.reach):
        return
    extra = extra_targets(game, fig, target, spec.reach, ability.targets - 1)
    for victim in [target, *extra]:
        if game.figure_on_map(victim) and game.figure_on_map(fig):
            yield from resolve_attack(game, fig, victim, spec)
