"""Deterministic focus, movement and targeting of monsters and summons (HV-AI-1..8).

Pure functions of the state: nothing here changes the ctx. A *mover* is the monster or summon
whose turn runs; its enemies are the other side (HV-STURN-2 runs summons through the same code).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from .context import RuleContext
from .figures import all_figures, board_for, enemies_of, has, turn_position
from .state import Figure


@dataclass(frozen=True)
class Plan:
    """What the mover's card lets it do: move points (None: no Move on the card or immobilized),
    attack reach (None: no attack, or disarmed) and number of targets."""

    move: int | None
    reach: int | None
    ranged: bool
    targets: int = 1


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


def candidates(ctx: RuleContext, mover: Figure) -> list[Figure]:
    """HV-AI-1: enemies on the map that are not invisible."""
    return [f for f in enemies_of(ctx.state, mover) if not has(f, "invisible")]


def focus(ctx: RuleContext, mover: Figure, plan: Plan, graph: PathGraph) -> Figure | None:
    """HV-AI-4: the candidate with the smallest ``(cost, proximity, turn order position)``."""
    reach = plan.reach or 1  # HV-AI-3: no attack or disarmed -> as melee
    dist = graph.dist
    best = None
    best_key = None
    for target in candidates(ctx, mover):
        costs = [dist[h] for h in attack_hexes(graph, target, reach) if dist[h] is not None]
        if not costs:
            continue
        key = (
            min(costs),
            graph.board.distance(mover.cell, target.cell),
            turn_position(ctx.state, target),
        )
        if best_key is None or key < best_key:
            best, best_key = target, key
    return best


def destination(
    ctx: RuleContext, mover: Figure, plan: Plan, target: Figure, graph: PathGraph
) -> int:
    """HV-AI-5: where the mover ends its Move: Case A (an attack hex of the focus within reach,
    avoiding disadvantage, most extra targets, fewest steps, lowest cell id) or Case B (as close
    as possible in movement to an attack hex of the focus)."""
    assert plan.move is not None
    board = graph.board
    dist = graph.dist
    reachable = [
        c for c, d in enumerate(dist) if d is not None and d <= plan.move and graph.endable[c]
    ]
    reach = plan.reach or 1
    targets_hexes = set(attack_hexes(graph, target, reach))
    if plan.reach is not None:
        in_reach = [c for c in reachable if c in targets_hexes]
        if in_reach:
            others = [f for f in candidates(ctx, mover) if f is not target]

            def key_a(c: int) -> tuple[int, int, int, int]:
                adjacent = plan.ranged and board.distance(c, target.cell) <= 1
                extra = sum(1 for f in others if board.in_range_and_sight(c, f.cell, reach))
                extra = min(extra, plan.targets - 1)
                return (int(adjacent), -extra, dist[c], c)  # type: ignore[return-value]

            return min(in_reach, key=key_a)
    remaining = graph.steps_from(sorted(targets_hexes))

    def key_b(c: int) -> tuple[int, int, int]:
        rem = remaining[c]
        return (1_000 if rem is None else rem, dist[c], c)  # type: ignore[return-value]

    return min(reachable, key=key_b)


def extra_targets(
    ctx: RuleContext, mover: Figure, target: Figure, reach: int, count: int
) -> list[Figure]:
    """HV-AI-6: up to ``count`` further valid targets by ``(proximity, turn order position)``."""
    board = board_for(ctx.scenario)
    others = [
        f
        for f in candidates(ctx, mover)
        if f is not target and board.in_range_and_sight(mover.cell, f.cell, reach)
    ]
    others.sort(key=lambda f: (board.distance(mover.cell, f.cell), turn_position(ctx.state, f)))
    return others[:count]
