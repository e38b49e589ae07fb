"""Where one mover can go and at what cost: its path graph (HV-AI-2, HV-AI-10, HV-JMP-2,
HV-FLY-2) and the path a character's walk takes to its chosen hex (HV-TER-7).

Monster AI, summons and character moves all ask it; the terrain rules it prices paths with are
in :mod:`.terrain`.

The Python here is the reference. When haven's compiled core is built (:mod:`..fast`) a graph's
whole-board searches run in C instead (``fast/src/paths.c``), with the same results to the last
list element (tests/haven/fast/test_paths.py); :data:`FAST` picks the default, and
``REBORN_ENV_BACKEND=python`` in the environment makes it the reference.
"""

from __future__ import annotations

from collections import deque
from heapq import heappop, heappush

from ....core.per_scenario import PerScenario
from .. import fast as compiled
from ..scenario.model import Scenario
from .context import RuleContext
from .figures import all_figures, board_for, enemies_of
from .state import Figure
from .terrain import (
    JUMP,
    NEGATIVE,
    WALK,
    entry_weights,
    landing_weights,
    negative_hexes,
    points,
)

FAST = compiled.use_core()
"""Whether a :class:`PathGraph` uses the compiled searches unless told (its ``fast``)."""

WEIGHTS_CACHE_SIZE = 256


class _CompiledBoard:
    """One scenario's map as the compiled searches take it (its ``PathBoard``), and the entry
    and landing weights already asked for, by unsprung traps (the only state they read) and
    ``price_negatives``: a dict emptied when it holds :data:`WEIGHTS_CACHE_SIZE` of them. The
    cached lists are shared by the graphs given them, which only read them."""

    def __init__(self, scenario: Scenario) -> None:
        board = board_for(scenario)
        self.board = board
        self.core = compiled.core.PathBoard(  # type: ignore[union-attr]
            board.neighbours, board.floor, board.walls, NEGATIVE if board.terrain else 0
        )
        self.weights: dict[tuple[tuple[int, ...], bool], tuple[list[int], list[int]]] = {}

    def weights_of(self, ctx: RuleContext, price_negatives: bool) -> tuple[list[int], list[int]]:
        """:func:`.terrain.entry_weights` and :func:`.terrain.landing_weights` of ``ctx``."""
        key = (tuple(ctx.state.traps), price_negatives)
        found = self.weights.get(key)
        if found is None:
            if len(self.weights) >= WEIGHTS_CACHE_SIZE:
                self.weights.clear()
            found = entry_weights(ctx, price_negatives), landing_weights(ctx, price_negatives)
            self.weights[key] = found
        return found


compiled_board = PerScenario(_CompiledBoard)
"""compiled_board(scenario): the :class:`_CompiledBoard` of a scenario, built once."""


class PathGraph:
    """HV-AI-2: passable cells (not wall, obstacle or enemy-held; for a jump or flight any cell
    but a wall, HV-JMP-2/HV-FLY-2), endable cells (floor holding no other figure) and ``dist``,
    the cost of the mover's best path to every cell, for one mover at one moment (HV-AI-8): it
    holds until a figure moves, leaves the map or springs a trap.

    On a map without terrain a walk's cost is its number of steps. Otherwise (HV-AI-10) it is the
    sum of :func:`.terrain.entry_weights` (negative hexes first when ``price_negatives``, then
    points), and a jump's is its steps plus what its last hex adds (HV-JMP-2)."""

    def __init__(
        self,
        ctx: RuleContext,
        mover: Figure,
        kind: str = WALK,
        price_negatives: bool = True,
        fast: bool | None = None,
    ) -> None:
        """``fast``: the compiled searches (True), the reference below (False), or :data:`FAST`
        (None)."""
        self.kind = kind
        self.start = mover.cell
        self.fast = FAST if fast is None else fast
        if self.fast:
            self._build_compiled(ctx, mover, price_negatives)
            return
        board = board_for(ctx.scenario)
        self.board = board
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

    def _build_compiled(self, ctx: RuleContext, mover: Figure, price_negatives: bool) -> None:
        """The same lists as the reference ``__init__``, from one call of the compiled core's
        ``path_graph`` (HV-AI-2, HV-AI-10, HV-JMP-2, HV-FLY-2)."""
        if not compiled.AVAILABLE:
            raise RuntimeError(
                f"PathGraph(fast=True) needs haven's compiled core: {compiled.IMPORT_ERROR}"
            )
        self._compiled = compiled_board(ctx.scenario)
        self.board = self._compiled.board
        state, kind = ctx.state, self.kind
        others = [f.cell for f in all_figures(state) if f is not mover]
        enemies = [f.cell for f in enemies_of(state, mover)] if kind == WALK else []
        landing = None
        self.weights = None
        if self.board.terrain and kind in (WALK, JUMP):
            weights, jump_landing = self._compiled.weights_of(ctx, price_negatives)
            if kind == WALK:
                self.weights = weights
            else:
                landing = jump_landing
        lists = compiled.core.path_graph(  # type: ignore[union-attr]
            self._compiled.core, self.start, enemies, others, kind == WALK, self.weights, landing
        )
        self.passable, self.endable, self.cost, self.dist, self.points = lists

    def steps_from(self, sources: list[int]) -> list[int | None]:
        """Least path cost from any of ``sources`` to every cell through passable cells."""
        if self.fast:
            return self._compiled_costs(sources, reverse=False)
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
        if self.fast:
            return self._compiled_costs([goal], reverse=True)
        if self.weights is None:
            return self.steps_from([goal])
        return self._weighted([goal], reverse=True)

    def _compiled_costs(self, sources: list[int], reverse: bool) -> list[int | None]:
        """:meth:`steps_from` (or, ``reverse``, :meth:`remaining`) by the compiled core."""
        return compiled.core.path_costs(  # type: ignore[union-attr]
            self._compiled.core, self.passable, sources, self.weights, reverse
        )

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


def character_path(ctx: RuleContext, graph: PathGraph, cell: int, budget: int) -> list[int]:
    """HV-TER-7: the hexes a character's walk enters to reach ``cell`` within ``budget`` points:
    the path with the fewest negative hexes, then the fewest points, each hex entered from its
    lowest-id neighbour that keeps the path best. A jump or flight: ``[cell]``."""
    if graph.kind != WALK or graph.weights is None:
        return graph.path(cell)
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
