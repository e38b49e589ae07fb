"""Monster turns and summon turns (sections 12 and 13, HV-MTURN-*, HV-MEND-*, HV-STURN-*).

Both follow the seed's frame: start of turn (wound, stun), the card executed top to bottom by the
deterministic AI of :mod:`.monster_ai`, end of turn (condition expiry, infusions). A summon runs
"Move +0, Attack +0" with its own stats (HV-STURN-2).
"""

from __future__ import annotations

from collections.abc import Generator

from ..scenario.model import (
    ATTACK,
    ELEMENTS,
    ELITE,
    INFUSE,
    MOVE,
    RETALIATE,
    SHIELD,
    Ability,
    MonsterType,
)
from .area import is_ranged
from .area_ai import best_placement
from .attack import AttackSpec, resolve_attack
from .context import RuleContext
from .damage import TurnAborted, suffer_damage
from .decks import monster_card
from .elements import consume, infuse
from .figures import board_for, has, label, on_map
from .monster_ai import extra_targets, focus
from .monster_plan import Plan, Rank
from .path_graph import PathGraph
from .prompts import Prompt
from .state import Figure, MonsterState, SummonState
from .terrain import follow, move_kind
from .turns import abort_turn, begin_turn, end_turn

Turn = Generator[Prompt, int, None]

_SUMMON_CARD = (Ability(MOVE, 0), Ability(ATTACK, 0))  # HV-STURN-2
_WALK = Ability(MOVE, 0)  # the kind of a card without a Move: the type's own (HV-FLY-3)


def monster_slot(ctx: RuleContext, type_index: int) -> Turn:
    """HV-INIT-6, HV-MTURN-1..4: every monster of the type acts on the one current card, elites
    first, then normals, each by standee number; the order is fixed when the slot starts."""
    order = sorted(
        (m for m in ctx.state.monsters if m.type == type_index),
        key=lambda m: (m.rank != ELITE, m.standee),
    )
    for monster in order:
        if on_map(ctx.state, monster):
            yield from monster_turn(ctx, monster)


def monster_turn(ctx: RuleContext, monster: MonsterState) -> Turn:
    """HV-MTURN-5..11, HV-MEND-1/2: one monster's turn."""
    mtype = ctx.scenario.monster_types[monster.type]
    deck = ctx.state.monster_decks[monster.type]
    card = monster_card(ctx.scenario, monster.type, deck.current)
    yield from figure_turn(ctx, monster, card.abilities, mtype)


def summon_turn(ctx: RuleContext, summon: SummonState) -> Turn:
    """HV-STURN-1..4: the summon's automatic Move +0 / Attack +0; it never loots."""
    yield from figure_turn(ctx, summon, _SUMMON_CARD, None)


def figure_turn(
    ctx: RuleContext, fig: Figure, abilities: tuple[Ability, ...], mtype: MonsterType | None
) -> Turn:
    """The seed's turn frame for a monster or summon: wound, stun, card, end of turn."""
    start = begin_turn(ctx, fig)
    try:
        if has(fig, "wound"):
            ctx.log("WOUND", figure=label(ctx.scenario, fig), amount=1)
            yield from suffer_damage(ctx, fig, 1)
        if has(fig, "stun"):
            ctx.log("STUN_SKIP", figure=label(ctx.scenario, fig))
        else:
            yield from execute_card(ctx, fig, abilities, mtype)
        end_turn(ctx, fig, start)
    except TurnAborted:
        abort_turn(ctx)
    fig.acted = True


def _stats(ctx: RuleContext, fig: Figure, mtype: MonsterType | None) -> tuple[int, int, int]:
    """Base (move, attack, range) of a monster's rank or a summon's card (HV-MTURN-10)."""
    if isinstance(fig, SummonState):
        return fig.move, fig.attack, fig.range
    assert mtype is not None and isinstance(fig, MonsterState)
    stats = mtype.stats(fig.rank)
    return stats.move, stats.attack, stats.range


def _first(abilities: tuple[Ability, ...], kind: str) -> Ability | None:
    """The first of ``abilities`` of ``kind``, or None."""
    for ability in abilities:
        if ability.kind == kind:
            return ability
    return None


def _plan(
    fig: Figure, abilities: tuple[Ability, ...], base: tuple[int, int, int], after: int
) -> Plan:
    """The Plan of the card from ability ``after`` on: the Move of that line and the first
    Attack after it (HV-AI-3/5)."""
    move_points = None
    move = abilities[after]
    if move.kind == MOVE and (move.teleport or not has(fig, "immobilize")):  # HV-TEL-4
        move_points = max(0, base[0] + move.value)
    attack = _first(abilities[after:], ATTACK)
    if attack is None or has(fig, "disarm"):
        return Plan(move_points, None, False)
    reach = base[2] + attack.range
    if attack.area:  # HV-AOE-2: a grey hex makes the attack melee, even for a ranged monster
        targets = 1 + attack.add_targets  # HV-AOE-13
        return Plan(move_points, max(reach, 1), is_ranged(attack.area), targets, attack.area)
    return Plan(move_points, max(reach, 1), reach > 0, attack.targets)


def execute_card(
    ctx: RuleContext, fig: Figure, abilities: tuple[Ability, ...], mtype: MonsterType | None
) -> Turn:
    """HV-MTURN-8..11, HV-AI-7: focus first, then each line top to bottom; nothing else."""
    base = _stats(ctx, fig, mtype)
    # HV-FLY-3 / HV-JMP-3: focus is found with the kind of the card's first Move.
    first_move = _first(abilities, MOVE) or _WALK
    # None once a figure moved, may have left, or a trap sprang
    kernels = ctx.kernels
    graph: PathGraph | None = kernels.path_graph(ctx, fig, move_kind(first_move, mtype))
    first_plan = _plan(fig, abilities, base, 0)
    ranking = kernels.focus_ranking(ctx, fig, first_plan, graph)
    target = focus(ranking)
    for i, ability in enumerate(abilities):
        if ability.kind == MOVE:
            # nothing has happened yet at the first line, so its plan is the focus's
            plan = first_plan if i == 0 else _plan(fig, abilities, base, i)
            if target is not None and plan.move:
                kind = move_kind(ability, mtype)
                if graph is None or graph.kind != kind:
                    graph = kernels.path_graph(ctx, fig, kind)
                cell = kernels.destination(ctx, fig, plan, target, graph, ranking)
                if cell != fig.cell:
                    yield from follow(ctx, fig, kind, graph.path(cell))
                    graph = None
        elif ability.kind == ATTACK:
            yield from monster_attack(ctx, fig, ability, base, target, ranking)
            graph = None
        elif ability.kind in (SHIELD, RETALIATE):
            _round_bonus(fig, ability)
        elif ability.kind == INFUSE:  # HV-ELEM-6
            infuse(ctx, ability.element)


def _round_bonus(fig: Figure, ability: Ability) -> None:
    """HV-MTURN-10: a card's Shield/Retaliate lasts from now to the end of the round."""
    if ability.kind == SHIELD:
        fig.shield += ability.value
    else:
        fig.retaliate += ability.value


def monster_attack(
    ctx: RuleContext,
    fig: Figure,
    ability: Ability,
    base: tuple[int, int, int],
    target: Figure | None,
    ranking: list[tuple[Rank, Figure]],
) -> Turn:
    """HV-ELEM-5 (consume once per activation), HV-AI-6 (attack the focus, then extra targets)."""
    value = max(0, base[1] + ability.value)
    conditions = ability.conditions
    if ability.consume is not None and isinstance(fig, MonsterState):
        deck = ctx.state.monster_decks[fig.type]
        element = ELEMENTS.index(ability.consume.element)
        if not deck.consumed and ctx.state.elements[element] >= 1:
            consume(ctx, element, fig)
            deck.consumed = True
        if deck.consumed:
            value += ability.consume.bonus
            conditions = conditions + ability.consume.conditions
    if target is None or has(fig, "disarm") or not on_map(ctx.state, target):
        return
    if ability.area:
        yield from area_attack(ctx, fig, ability, value, conditions, base, target, ranking)
        return
    reach = base[2] + ability.range
    spec = AttackSpec(value, max(reach, 1), reach > 0, ability.pierce, conditions)
    board = board_for(ctx.scenario)
    if has(target, "invisible") or not board.in_range_and_sight(fig.cell, target.cell, spec.reach):
        return
    extra = extra_targets(ctx, fig, target, spec.reach, ability.targets - 1, ranking)
    for victim in [target, *extra]:
        if on_map(ctx.state, victim) and on_map(ctx.state, fig):
            yield from resolve_attack(ctx, fig, victim, spec)


def area_attack(
    ctx: RuleContext,
    fig: Figure,
    ability: Ability,
    value: int,
    conditions: tuple[str, ...],
    base: tuple[int, int, int],
    target: Figure,
    ranking: list[tuple[Rank, Figure]],
) -> Turn:
    """HV-AOE-9, HV-AOE-13: the placement from the mover's hex that attacks the focus and the most
    others (its added targets counted); the focus is attacked first, then the area's others
    best-ranked first, then the added targets, each with its own draw (HV-AOE-4). No placement
    attacks the focus: no attack."""
    if has(target, "invisible"):
        return
    reach = max(base[2] + ability.range, 1)
    plan = Plan(None, reach, is_ranged(ability.area), 1 + ability.add_targets, ability.area)
    found = best_placement(ctx, fig, fig.cell, plan, target, ranking)
    if found is None:
        return
    cells, others, added = found
    area_victims = [target, *others]
    ctx.log(
        "AREA",
        figure=label(ctx.scenario, fig),
        targets=[v.cell for v in area_victims],
        cells=sorted(cells),
    )
    spec = AttackSpec(value, reach, plan.ranged, ability.pierce, conditions)
    for victim in [*area_victims, *added]:
        if on_map(ctx.state, victim) and on_map(ctx.state, fig):
            yield from resolve_attack(ctx, fig, victim, spec)
