"""How a monster or summon aims an area-of-effect attack (HV-AOE-7..9): the hexes it may attack
its focus from, the order of those hexes, and the placement it picks.

It meets HV-AI-3..6: with an area attack on its card, a mover's attack hexes of an enemy are the
hexes from which some placement attacks that enemy, and it prefers the hex and the placement that
attack the focus and the most other enemies. Pure functions of the state, like :mod:`.monster_ai`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from .area import Placement, attackable, covering, is_ranged, origins_covering
from .context import RuleContext
from .figures import board_for, has
from .monster_plan import Plan, Rank, hex_order
from .path_graph import PathGraph
from .state import Figure


def _ranks(ranking: list[tuple[Rank, Figure]]) -> defaultdict[int, tuple]:
    """HV-AI-4's key of each ranked figure by ``id``; a figure not ranked at the turn's start
    ranks last."""
    last = (float("inf"),)
    rank: defaultdict[int, tuple] = defaultdict(lambda: last)
    rank.update((id(f), k) for k, f in ranking)
    return rank


def area_attack_hexes(ctx: RuleContext, graph: PathGraph, plan: Plan, target: Figure) -> list[int]:
    """HV-AOE-7: endable cells from which some placement of the card's area attacks ``target``
    (it sees the target from there, HV-AOE-4)."""
    board, endable, cell = graph.board, graph.endable, target.cell
    origins = origins_covering(board, plan.area, plan.reach or 1, cell)
    return [h for h in origins if endable[h] and board.sight(h, cell)]


def best_placement(
    ctx: RuleContext,
    mover: Figure,
    origin: int,
    plan: Plan,
    target: Figure,
    ranking: list[tuple[Rank, Figure]],
) -> tuple[Placement, list[Figure], list[Figure]] | None:
    """HV-AOE-9, HV-AOE-13: from ``origin``, the placement attacking ``target`` and the most other
    enemies, its added targets counted, then the best-ranked of them (HV-AI-4 from the start
    hex, ``ranking``), then the lowest cell ids; with the area's others, best-ranked first, and
    its added targets, best-ranked first. None when no placement attacks ``target``."""
    return _best_placement(ctx, mover, origin, plan, target, _ranks(ranking))


def _best_placement(
    ctx: RuleContext,
    mover: Figure,
    origin: int,
    plan: Plan,
    target: Figure,
    rank: defaultdict[int, tuple],
) -> tuple[Placement, list[Figure], list[Figure]] | None:
    """:func:`best_placement` with the ranks of :func:`_ranks` (the same for every origin)."""
    board = board_for(ctx.scenario)
    seen = sorted(attackable(ctx, mover, origin), key=lambda f: rank[id(f)])
    # HV-AOE-11: an added target is within the attack's range, a melee area's being 1
    add_reach = (plan.reach or 1) if is_ranged(plan.area) else 1
    addable = [f for f in seen if f is not target and board.distance(origin, f.cell) <= add_reach]
    best = None
    for cells in covering(board, origin, plan.area, plan.reach or 1, target.cell):
        hit = [f for f in seen if f.cell in cells]  # the placement's area_targets
        if not any(f is target for f in hit):
            continue
        others = [f for f in hit if f is not target]
        added = [f for f in addable if f.cell not in cells][: plan.targets - 1]
        ranks = tuple(sorted(rank[id(f)] for f in others + added))
        key = (-len(others) - len(added), ranks, tuple(sorted(cells)))
        if best is None or key < best[0]:
            best = (key, cells, others, added)
    return None if best is None else (best[1], best[2], best[3])


def area_hex_key(
    ctx: RuleContext,
    mover: Figure,
    plan: Plan,
    target: Figure,
    graph: PathGraph,
    ranking: list[tuple[Rank, Figure]],
) -> Callable[[int], tuple]:
    """HV-AOE-8: HV-AI-5's order (:func:`.monster_plan.hex_order`) for an area attack, the other
    enemies from a hex being those its best placement there attacks, its added targets included
    (HV-AOE-13)."""
    hampered = is_ranged(plan.area) and not has(mover, "muddle")
    rank = _ranks(ranking)

    def placed(h: int) -> list[tuple[tuple, Figure]]:
        found = _best_placement(ctx, mover, h, plan, target, rank)
        if found is None:
            return []
        return sorted(((rank[id(f)], f) for f in found[1] + found[2]), key=lambda kf: kf[0])

    return hex_order(graph, hampered, target, placed)
