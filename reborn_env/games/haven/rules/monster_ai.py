"""Deterministic focus, movement and targeting of monsters and summons (HV-AI-1..8, HV-AI-10).

Pure functions of the state: nothing here changes the ctx. A *mover* is the monster or summon
whose turn runs; its enemies are the other side (HV-STURN-2 runs summons through the same code).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from heapq import heappop, heappush

from .context import RuleContext
from .figures import all_figures, board_for, enemies_of, has, on_map, turn_position
from .state import Figure
from .terrain import JUMP, WALK, entry_weights, landing_weights, negatives, points


@dataclass(frozen=True)
class Plan:
    """What the mover's card lets it do: move points (None: no Move on the card or immobilized),
    attack reach (None: no attack, or disarmed) and number of targets."""

    move: int | None
    reach: int | None
    ranged: bool
    targets: int = 1


class PathGraph:
    """HV-AI-2: passable cells (not wall, obstacle or enemy-held; for a jump or flight any cell
    but a wall, HV-JMP-2/HV-FLY-2), endable cells (floor holding no other figure) and ``dist``,
    the cost of the mover's best path to every cell, for one mover at one moment (HV-AI-8): it
    holds until a figure moves, leaves the map or springs a trap.

    On a map without terrain a walk's cost is its number of steps. Otherwise (HV-AI-10) it is the
    sum of :func:`.terrain.entry_weights` (negative hexes first when ``price_negatives``, then
    points), and a jump's is its steps plus what its last hex adds (HV-JMP-2)."""

    def __init__(
        self, ctx: RuleContext, mover: Figure, kind: str = WALK, price_negatives: bool = True
    ) -> None:
        board = board_for(ctx.scenario)
        self.board = board
        self.kind = kind
        self.start = mover.cell
        other_cells = {f.cell for f in all_figures(ctx.state) if f is not mover}
        if kind == WALK:
            enemy_cells = {f.cell for f in enemies_of(ctx.state, mover)}
            self.passable = [
                board.floor[c] and c not in enemy_cells for c in range(len(board.floor))
            ]
        else:
            self.passable = [not wall for wall in board.walls]
        self.endable = [board.floor[c] and c not in other_cells for c in range(len(board.floor))]
        terrain = board.terrain
        self.weights = entry_weights(ctx, price_negatives) if terrain and kind == WALK else None
        self.cost = self.steps_from([mover.cell])
        self.dist = self.cost
        if terrain and kind == JUMP:
            landing = landing_weights(ctx, price_negatives)
            self.dist = [None if d is None else d + landing[c] for c, d in enumerate(self.cost)]
        # HV-AI-10: the movement points of each ``dist`` (itself on a map without terrain)
        self.points = (
            [None if d is None else points(d) for d in self.dist] if terrain else self.dist
        )

    def steps_from(self, sources: list[int]) -> list[int | None]:
        """Least path cost from any of ``sources`` to every cell through passable cells."""
        if self.weights is not None:
            return self._weighted(sources, reverse=False)
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

    def remaining(self, goal: int) -> list[int | None]:
        """The least cost of a path from every cell to ``goal`` (what the cells after it weigh)."""
        if self.weights is None:
            return self.steps_from([goal])
        return self._weighted([goal], reverse=True)

    def _weighted(self, sources: list[int], reverse: bool) -> list[int | None]:
        """Dijkstra over passable cells with entry weights; ``reverse``: costs towards sources."""
        weights = self.weights
        assert weights is not None
        dist: list[int | None] = [None] * len(self.passable)
        heap = [(0, s) for s in sources]
        for s in sources:
            dist[s] = 0
        while heap:
            d, cell = heappop(heap)
            if d != dist[cell]:
                continue
            for nxt in self.board.neighbours[cell]:
                if not self.passable[nxt]:
                    continue
                nd = d + (weights[cell] if reverse else weights[nxt])
                if dist[nxt] is None or nd < dist[nxt]:  # type: ignore[operator]
                    dist[nxt] = nd
                    heappush(heap, (nd, nxt))
        return dist

    def path(self, cell: int) -> list[int]:
        """HV-TER-6: the hexes a walk enters on its best path to ``cell``, in order; each hex is
        entered from its lowest-id neighbour on a best path. A jump, a flight, or a map without
        terrain: ``[cell]``."""
        if self.kind != WALK or not self.board.terrain:  # only the end hex matters then
            return [cell] if cell != self.start else []
        cost, weights = self.cost, self.weights
        hexes = []
        while cell != self.start:
            hexes.append(cell)
            entry = 1 if weights is None else weights[cell]
            cell = min(
                n
                for n in self.board.neighbours[cell]
                if cost[n] is not None and cost[n] + entry == cost[cell]  # type: ignore[operator]
            )
        return hexes[::-1]


def attack_hexes(graph: PathGraph, target: Figure, reach: int) -> list[int]:
    """HV-AI-3: endable cells within ``reach`` of the target that see it."""
    endable = graph.endable
    return [c for c in graph.board.cells_reaching(target.cell, reach) if endable[c]]


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
    reach = plan.reach or 1  # HV-AI-3: no attack or disarmed -> as melee
    dist = graph.dist
    ranked = []
    for target in candidates(ctx, mover):
        costs = [dist[h] for h in attack_hexes(graph, target, reach) if dist[h] is not None]
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
    on a best path to it as near to it as it can (Case B). HV-AI-10: only the attack hexes whose
    path has the fewest negative hexes count, in both cases."""
    assert plan.move is not None
    dist, cost, spent = graph.dist, graph.cost, graph.points
    reachable = [
        c for c, d in enumerate(spent) if d is not None and d <= plan.move and graph.endable[c]
    ]
    hexes = [h for h in attack_hexes(graph, target, plan.reach or 1) if dist[h] is not None]
    if not hexes:
        return mover.cell
    if graph.board.terrain:
        fewest = min(negatives(dist[h]) for h in hexes)  # type: ignore[arg-type]
        hexes = [h for h in hexes if negatives(dist[h]) == fewest]  # type: ignore[arg-type]
    key = _hex_key(mover, plan, target, graph, ranking)
    in_reach = [h for h in hexes if spent[h] <= plan.move] if plan.reach is not None else []  # type: ignore[operator]
    if in_reach:
        return min(in_reach, key=key)
    goal = min(hexes, key=key)
    remaining = graph.remaining(goal)
    on_way = [c for c in reachable if cost[c] + remaining[c] == cost[goal]]  # type: ignore[operator]
    # HV-JMP-2: a jump would rather not land on a negative hex (its landing weight); else as near.
    return min(on_way, key=lambda c: (dist[c] - cost[c], remaining[c], c))  # type: ignore[operator]


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
