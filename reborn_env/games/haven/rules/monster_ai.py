"""Deterministic focus, movement and targeting of monsters and summons (HV-AI-1..8, HV-AI-10).

Pure functions of the state: nothing here changes the ctx. A *mover* is the monster or summon
whose turn runs; its enemies are the other side (HV-STURN-2 runs summons through the same code).

This is the reference. haven's compiled core has twins of the single-target focus ranking and
destination (``fast/kernels.py``), which a game's :class:`~.kernels.Kernels` may carry instead;
area plans always take the Python here (:mod:`.area_ai`).
"""

from __future__ import annotations

from collections.abc import Callable

from .area_ai import area_attack_hexes, area_hex_key
from .context import RuleContext
from .figures import board_for, enemies_of, has, on_map, turn_position
from .monster_plan import UNREACHED, Plan, Rank, hex_order
from .path_graph import PathGraph
from .state import Figure
from .terrain import negatives, points


def attack_hexes(graph: PathGraph, target: Figure, reach: int) -> list[int]:
    """HV-AI-3: endable cells within ``reach`` of the target that see it."""
    endable = graph.endable
    return [c for c in graph.board.cells_reaching(target.cell, reach) if endable[c]]


def plan_hexes(ctx: RuleContext, graph: PathGraph, plan: Plan, target: Figure) -> list[int]:
    """HV-AI-3 or, for an area attack on the card, HV-AOE-7: the attack hexes of ``target``."""
    if plan.area and plan.reach is not None:
        return area_attack_hexes(ctx, graph, plan, target)
    return attack_hexes(graph, target, plan.reach or 1)


def candidates(ctx: RuleContext, mover: Figure) -> list[Figure]:
    """HV-AI-1: enemies on the map that are not invisible."""
    return [f for f in enemies_of(ctx.state, mover) if not has(f, "invisible")]


def focus_ranking(
    ctx: RuleContext, mover: Figure, plan: Plan, graph: PathGraph
) -> list[tuple[Rank, Figure]]:
    """HV-AI-4: every candidate with its focus key measured from the mover's hex, best first.
    The first one with a reachable attack hex is the focus; the order also ranks the secondary
    targets of a multi-target attack (HV-AI-5/6)."""
    dist = graph.dist  # HV-AI-3: no attack or disarmed -> as melee (plan_hexes)
    ranked = []
    for target in candidates(ctx, mover):
        costs = [dist[h] for h in plan_hexes(ctx, graph, plan, target) if dist[h] is not None]
        key = (
            min(costs) if costs else UNREACHED,
            graph.board.distance(mover.cell, target.cell),
            turn_position(ctx.state, target),
        )
        ranked.append((key, target))
    ranked.sort(key=lambda kt: kt[0])
    return ranked


def focus(ranking: list[tuple[Rank, Figure]]) -> Figure | None:
    """HV-AI-4: the best-ranked candidate with a reachable attack hex, or None (no focus)."""
    for key, target in ranking:
        if key[0] < UNREACHED:
            return target
    return None


def destination(
    ctx: RuleContext,
    mover: Figure,
    plan: Plan,
    target: Figure,
    graph: PathGraph,
    ranking: list[tuple[Rank, Figure]],
) -> int:
    """HV-AI-5: where the mover ends its Move. Its best attack hex of the focus within this
    turn's move (Case A); otherwise, the best one with movement unlimited, and the mover goes
    where the rest of its way there is shortest (Case B, :func:`toward`). HV-AI-10: only the
    attack hexes whose path has the fewest negative hexes count, in both cases."""
    assert plan.move is not None
    dist, spent = graph.dist, graph.points
    reachable = [
        c for c, d in enumerate(spent) if d is not None and d <= plan.move and graph.endable[c]
    ]
    hexes = [h for h in plan_hexes(ctx, graph, plan, target) if dist[h] is not None]
    if not hexes:
        return mover.cell
    if graph.board.terrain:
        fewest = min(negatives(dist[h]) for h in hexes)  # type: ignore[arg-type]
        hexes = [h for h in hexes if negatives(dist[h]) == fewest]  # type: ignore[arg-type]
    if plan.area and plan.reach is not None:  # HV-AOE-8
        key = area_hex_key(ctx, mover, plan, target, graph, ranking)
    else:
        key = _hex_key(mover, plan, target, graph, ranking)
    in_reach = [h for h in hexes if spent[h] <= plan.move] if plan.reach is not None else []  # type: ignore[operator]
    if in_reach:
        return min(in_reach, key=key)
    return toward(graph, reachable, min(hexes, key=key))


def toward(graph: PathGraph, reachable: list[int], goal: int) -> int:
    """HV-AI-5 Case B: the cell of ``reachable`` from which the rest of the way to ``goal`` is
    shortest, on a shortest path from the mover or not; among those the one that spends the
    fewest movement points, then the lowest cell id. HV-JMP-3: a jump first avoids landing on a
    negative hex (its landing weight); HV-AI-10: then the way through it, from the mover to
    ``goal``, enters the fewest negative hexes."""
    dist, cost = graph.dist, graph.cost
    remaining = graph.remaining(goal)

    def key(c: int) -> tuple[int, int, int, int, int]:
        rest, travel = remaining[c], cost[c]
        assert rest is not None and travel is not None and dist[c] is not None
        landing = dist[c] - travel
        return (landing, negatives(travel) + negatives(rest), points(rest), points(travel), c)

    return min((c for c in reachable if remaining[c] is not None), key=key)


def _hex_key(
    mover: Figure,
    plan: Plan,
    target: Figure,
    graph: PathGraph,
    ranking: list[tuple[Rank, Figure]],
) -> Callable[[int], tuple]:
    """HV-AI-5's order of attack hexes (:func:`.monster_plan.hex_order`), the extra targets
    from a hex being the best-ranked others in range and sight (HV-AI-4 from the start hex).
    Without an attack on the card (or disarmed) only the steps and the cell id count."""
    board = graph.board
    if plan.reach is None:
        return lambda h: (graph.dist[h], h)
    reach = plan.reach
    hampered = plan.ranged and not has(mover, "muddle")  # HV-COND-7: muddled is hampered anyway
    others = [(key, f) for key, f in ranking if f is not target]

    def chosen(h: int) -> list[tuple[Rank, Figure]]:
        in_reach = [(k, f) for k, f in others if board.in_range_and_sight(h, f.cell, reach)]
        return in_reach[: plan.targets - 1]

    return hex_order(graph, hampered, target, chosen)


def extra_targets(
    ctx: RuleContext,
    mover: Figure,
    target: Figure,
    reach: int,
    count: int,
    ranking: list[tuple[Rank, Figure]],
) -> list[Figure]:
    """HV-AI-6: up to ``count`` further valid targets, best-ranked first by the focus rules
    measured from the hex where the mover's turn began (``ranking``, HV-AI-4)."""
    if count == 0:  # a single-target attack
        return []
    board = board_for(ctx.scenario)
    valid = {id(f) for f in candidates(ctx, mover)}
    others = [
        f
        for _, f in ranking
        if f is not target
        and id(f) in valid
        and on_map(ctx.state, f)
        and board.in_range_and_sight(mover.cell, f.cell, reach)
    ]
    return others[:count]
