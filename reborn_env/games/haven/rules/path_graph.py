"""Where one mover can go and at what cost: its path graph (HV-AI-2, HV-AI-10, HV-JMP-2,
HV-FLY-2, HV-TEL-2) and the path a character's walk takes to its chosen hex (HV-TER-7).

Monster AI, summons and character moves all ask it; the terrain rules it prices paths with are
in :mod:`.terrain`.

This is the reference; haven's compiled core has a twin of :class:`PathGraph` with the same
lists (``fast/kernels.py``), which a game's :class:`~.kernels.Kernels` may carry instead.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection
from heapq import heappop, heappush

from .context import RuleContext
from .figures import Board, all_figures, board_for, enemies_of
from .hexgrid import hex_distance
from .ice import StepGraph, step_weight
from .state import Figure, HavenState
from .terrain import (
    JUMP,
    TELEPORT,
    TELEPORTS,
    WALK,
    entry_weights,
    landing_weights,
    negative_hexes,
    points,
    teleport_landing_weights,
)


def passable_cells(board: Board, state: HavenState, mover: Figure, kind: str) -> list[bool]:
    """HV-AI-2: the cells ``mover``'s move of ``kind`` may pass: floor not held by an enemy for a
    walk; any cell but a wall for a jump or flight (HV-JMP-2, HV-FLY-2); every cell for a
    teleport (HV-TEL-2)."""
    if kind == WALK:
        enemy_cells = {f.cell for f in enemies_of(state, mover)}
        return [board.floor[c] and c not in enemy_cells for c in range(len(board.floor))]
    if kind in TELEPORTS:
        return [True] * len(board.floor)
    return [not wall for wall in board.walls]


def endable_cells(board: Board, other_cells: Collection[int]) -> list[bool]:
    """HV-AI-2: the cells a move may end in: floor holding no other figure."""
    return [board.floor[c] and c not in other_cells for c in range(len(board.floor))]


class PathGraph:
    """HV-AI-2: passable cells (not wall, obstacle or enemy-held; for a jump or flight any cell
    but a wall, HV-JMP-2/HV-FLY-2; for a teleport every cell, HV-TEL-2), endable cells (floor
    holding no other figure) and ``dist``, the cost of the mover's best path to every cell, for
    one mover at one moment (HV-AI-8): it holds until a figure moves, leaves the map or springs a
    trap.

    On a map without terrain a walk's cost is its number of steps. Otherwise (HV-AI-10) it is the
    sum of :func:`.terrain.entry_weights` (negative hexes first when ``price_negatives``, then
    points), and a jump's is its steps plus what its last hex adds (HV-JMP-2). A teleport's cost
    is the straight hex distance, nothing between counting (HV-TEL-2), plus a negative last hex
    (HV-TEL-3). On a map with ice a walk goes by :func:`.ice.walk_steps`, each priced by
    :func:`.ice.step_weight` (HV-ICE-2/3): ``slides`` holds them (None elsewhere)."""

    slides: StepGraph | None = None  # HV-ICE-2: a walk's steps, on a map with ice

    def __init__(
        self,
        ctx: RuleContext,
        mover: Figure,
        kind: str = WALK,
        price_negatives: bool = True,
    ) -> None:
        self.kind = kind
        self.start = mover.cell
        board = board_for(ctx.scenario)
        self.board = board
        other_cells = {f.cell for f in all_figures(ctx.state) if f is not mover}
        self.passable = passable_cells(board, ctx.state, mover, kind)
        self.endable = endable_cells(board, other_cells)
        terrain = board.terrain
        self.weights = entry_weights(ctx, price_negatives) if terrain and kind == WALK else None
        if kind == WALK and board.has_ice:
            weights = self.weights or entry_weights(ctx, price_negatives)
            self.slides = StepGraph(board, self.passable, other_cells, weights)
        self.cost = self.steps_from([mover.cell])
        self.dist = self.cost
        if terrain and kind in (JUMP, TELEPORT):
            if kind == JUMP:
                landing = landing_weights(ctx, price_negatives)
            else:
                landing = teleport_landing_weights(ctx, price_negatives)
            self.dist = [None if d is None else d + landing[c] for c, d in enumerate(self.cost)]
        # HV-AI-10: the movement points of each ``dist`` (itself on a map without terrain)
        self.points = (
            [None if d is None else points(d) for d in self.dist] if terrain else self.dist
        )

    def steps_from(self, sources: list[int]) -> list[int | None]:
        """Least path cost from any of ``sources`` to every cell through passable cells (for a
        teleport the straight hex distance, HV-TEL-2)."""
        if self.kind in TELEPORTS:
            width = self.board.grid.width
            return [
                min(hex_distance(s, c, width) for s in sources) for c in range(len(self.passable))
            ]
        if self.slides is not None:
            return self.slides.costs(sources)
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
        """The least cost of a path from every cell to ``goal`` (what the cells after it weigh).
        On a map with ice a slide has no way back: it is searched over the steps reversed."""
        if self.slides is not None:
            return self.slides.costs([goal], reverse=True)
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
        entered from its lowest-id neighbour on a best path. A jump, a flight, a teleport, or a map
        without terrain: ``[cell]``. On a map with ice (HV-ICE-4) every hex each step enters,
        each step taken from the lowest-id cell that keeps the path best."""
        if self.slides is not None:
            return self.slides.path(self.start, self.cost, cell)
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


def character_path(ctx: RuleContext, graph: PathGraph, cell: int, budget: int) -> list[int]:
    """HV-TER-7: the hexes a character's walk enters to reach ``cell`` within ``budget`` points:
    the path with the fewest negative hexes, then the fewest points, each hex entered from its
    lowest-id neighbour that keeps the path best. A jump or flight: ``[cell]``."""
    if graph.kind != WALK or graph.weights is None:
        return graph.path(cell)
    if graph.slides is not None:
        return _character_slid_path(ctx, graph, cell, budget)
    size = len(graph.passable)
    cost = entry_weights(ctx, price_negatives=False)  # HV-TER-4: the points of each hex
    bad = [int(negative) for negative in negative_hexes(ctx)]
    best: list[list[int | None]] = [[None] * size for _ in range(budget + 1)]
    best[0][graph.start] = 0  # best[k][c]: fewest negatives over walks of exactly k points to c
    passable, neighbours = graph.passable, graph.board.neighbours
    # only a passable hex next to one some walk has reached can end a longer walk
    near = {n for n in neighbours[graph.start] if passable[n]}
    for k in range(1, budget + 1):
        reached = []
        for c in near:
            if k >= cost[c]:
                before = best[k - cost[c]]
                known = [before[n] for n in neighbours[c] if before[n] is not None]
                if known:
                    best[k][c] = min(known) + bad[c]
                    reached.append(c)
        near.update(n for c in reached for n in neighbours[c] if passable[n])
    spent = min(
        (k for k in range(budget + 1) if best[k][cell] is not None),
        key=lambda k: (best[k][cell], k),
    )
    hexes = []
    while cell != graph.start or spent:
        hexes.append(cell)
        spent -= cost[cell]
        want = best[spent + cost[cell]][cell] - bad[cell]  # type: ignore[operator]
        cell = min(n for n in graph.board.neighbours[cell] if best[spent][n] == want)
    return hexes[::-1]


def _character_slid_path(ctx: RuleContext, graph: PathGraph, cell: int, budget: int) -> list[int]:
    """HV-TER-7 with HV-ICE-4: :func:`character_path` on a map with ice, over the walk's steps;
    each step is taken from the lowest-id cell that keeps the path best."""
    assert graph.slides is not None
    size = len(graph.passable)
    weights = entry_weights(ctx, price_negatives=False)  # HV-TER-4: the points of each hex
    bad = [int(negative) for negative in negative_hexes(ctx)]
    steps = [
        (o, step, step_weight(graph.board, step, weights), bad[step[-1]])
        for o, options in enumerate(graph.slides.steps)
        for step in options
    ]
    best: list[list[int | None]] = [[None] * size for _ in range(budget + 1)]
    best[0][graph.start] = 0  # best[k][c]: fewest negatives over walks of exactly k points to c
    for k in range(1, budget + 1):
        for origin, step, step_points, negative in steps:
            before = best[k - step_points][origin] if k >= step_points else None
            if before is not None:
                now = best[k][step[-1]]
                if now is None or before + negative < now:
                    best[k][step[-1]] = before + negative
    spent = min(
        (k for k in range(budget + 1) if best[k][cell] is not None),
        key=lambda k: (best[k][cell], k),
    )
    hexes: list[int] = []
    while cell != graph.start or spent:
        want = best[spent][cell]
        origin, step, step_points = min(
            (o, step, p)
            for o, step, p, negative in steps
            if step[-1] == cell
            and p <= spent
            and best[spent - p][o] is not None
            and best[spent - p][o] + negative == want  # type: ignore[operator]
        )
        hexes[:0] = step
        spent -= step_points
        cell = origin
    return hexes
