"""Deterministic focus, movement and targeting of monsters and summons (HV-AI-1..8).

Pure functions of the state: nothing here changes the ctx. A *mover* is the monster or summon
whose turn runs; its enemies are the other side (HV-STURN-2 runs summons through the same code).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from .area_ai import area_attack_hexes, area_hex_key
from .context import RuleContext
from .figures import all_figures, board_for, enemies_of, has, on_map, turn_position
from .state import Figure


@dataclass(frozen=True)
class Plan:
    """What the mover's card lets it do: move points (None: no Move on the card or immobilized),
    attack reach (None: no attack, or disarmed), number of targets and area pattern (HV-AOE-1;
    empty for a single-target attack)."""

    move: int | None
    reach: int | None
    ranged: bool
    targets: int = 1
    area: tuple[tuple[int, int], ...] = ()


class PathGraph:
    """HV-AI-2: passable cells (not wall, obstacle or enemy-held), endable cells (passable and
    holding no other figure) and ``dist``, the fewest steps from the mover to every cell, for one
    mover at one moment (HV-AI-8): it holds until a figure moves or leaves the map."""

    def __init__(self, ctx: RuleContext, mover: Figure) -> None:
        board = board_for(ctx.scenario)
        self.board = board
        enemy_cells = {f.cell for f in enemies_of(ctx.state, mover)}
        other_cells = {f.cell for f in all_figures(ctx.state) if f is not mover}
        self.passable = [board.floor[c] and c not in enemy_cells for c in range(len(board.floor))]
        self.endable = [p and c not in other_cells for c, p in enumerate(self.passable)]
        self.dist = self.steps_from([mover.cell])

    def steps_from(self, sources: list[int]) -> list[int | None]:
        """Fewest steps from any of ``sources`` to every cell through passable cells."""
        dist: list[int | None] = [None] * len(self.passable)
        queue = deque()
        for s in sources:
            if dist[s] is None:
                dist[s] = 0
                queue.append(s)
        while queue:
            cell = queue.popleft()
            for nxt in self.board.neighbours[cell]:
                if dist[nxt] is None and self.passable[nxt]:
                    dist[nxt] = dist[cell] + 1  # type: ignore[operator]
                    queue.append(nxt)
        return dist


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


Rank = tuple[int, int, tuple[int, int, int]]  # HV-AI-4's key: (cost, proximity, turn position)
UNREACHED = 1_000_000  # the cost of an enemy with no attack hex the mover can reach


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
    return next((target for key, target in ranking if key[0] < UNREACHED), None)


def destination(
    ctx: RuleContext,
    mover: Figure,
    plan: Plan,
    target: Figure,
    graph: PathGraph,
    ranking: list[tuple[Rank, Figure]],
) -> int:
    """HV-AI-5: where the mover ends its Move. Its best attack hex of the focus within this
    turn's move (Case A); otherwise, the best one with movement unlimited, and the mover stops
    on a shortest path to it as near to it as it can (Case B)."""
    assert plan.move is not None
    dist = graph.dist
    reachable = [
        c for c, d in enumerate(dist) if d is not None and d <= plan.move and graph.endable[c]
    ]
    hexes = [h for h in plan_hexes(ctx, graph, plan, target) if dist[h] is not None]
    if not hexes:
        return mover.cell
    if plan.area and plan.reach is not None:  # HV-AOE-8
        key = area_hex_key(ctx, mover, plan, target, graph, ranking)
    else:
        key = _hex_key(mover, plan, target, graph, ranking)
    in_reach = [h for h in hexes if dist[h] <= plan.move] if plan.reach is not None else []  # type: ignore[operator]
    if in_reach:
        return min(in_reach, key=key)
    goal = min(hexes, key=key)
    remaining = graph.steps_from([goal])
    on_way = [c for c in reachable if dist[c] + remaining[c] == dist[goal]]  # type: ignore[operator]
    return min(on_way, key=lambda c: (remaining[c], c))


def _hex_key(
    mover: Figure,
    plan: Plan,
    target: Figure,
    graph: PathGraph,
    ranking: list[tuple[Rank, Figure]],
) -> Callable[[int], tuple]:
    """HV-AI-5's order of attack hexes, best first: the focus without disadvantage, the most
    extra targets, the best-ranked of them (HV-AI-4 from the start hex), the fewest of them with
    disadvantage, the fewest steps, the lowest cell id. Without an attack on the card (or
    disarmed) only the last two count."""
    board = graph.board
    if plan.reach is None:
        return lambda h: (graph.dist[h], h)
    reach = plan.reach
    hampered = plan.ranged and not has(mover, "muddle")  # HV-COND-7: muddled is hampered anyway
    others = [(key, f) for key, f in ranking if f is not target]

    def key(h: int) -> tuple:
        chosen = [(k, f) for k, f in others if board.in_range_and_sight(h, f.cell, reach)][
            : plan.targets - 1
        ]
        return (
            int(hampered and board.distance(h, target.cell) <= 1),
            -len(chosen),
            tuple(k for k, _ in chosen),
            sum(1 for _, f in chosen if hampered and board.distance(h, f.cell) <= 1),
            graph.dist[h],
            h,
        )

    return key


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
