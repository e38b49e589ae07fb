"""Icy terrain (section 26, HV-ICE-2..5): a walk that steps into an icy hex slides on.

A walk's step is no longer one hex on a map with ice: stepping into an icy hex carries the figure
on in the same direction, hex by hex, until it reaches a hex that is not icy or the next hex is
closed to it. :func:`walk_steps` lists the steps a walk can take from a cell, each as the hexes
it enters in order (the last is where the figure stops), :func:`step_weight` prices one as the
path graph prices a hex entered (:func:`.terrain.entry_weights`), and :class:`StepGraph` searches
over them for :class:`.path_graph.PathGraph` on such a map; jumps, flights and teleports never
slide (HV-ICE-2).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Sequence
from heapq import heappop, heappush

from .figures import Board
from .terrain import points

Step = tuple[int, ...]
"""The hexes one step of a walk enters, in order: the hex stepped into first, where it stops
last."""


def walk_steps(
    board: Board, cell: int, passable: Sequence[bool], others: Collection[int]
) -> list[Step]:
    """HV-ICE-2: the steps a walk can take from ``cell``, at most one per side.
    Into an icy hex the figure slides on in the same direction while the hex it is on is icy and
    the next one is open to it and holds no other figure (``others``: the cells of every figure
    but the mover); it stops on the first hex that is not icy, or where the slide is blocked.
    (``board.plain_steps`` lists the hexes a step that cannot slide may enter, ``board.icy_rays``
    the lines of hexes the others may slide along, as far as the map itself allows: on the grid,
    floor, no thin wall between; ``passable`` adds the enemies.)"""
    steps: list[Step] = [(first,) for first in board.plain_steps[cell] if passable[first]]
    icy = board.icy
    for ray in board.icy_rays[cell]:
        if not passable[ray[0]]:
            continue
        end = 0
        while icy[ray[end]] and end + 1 < len(ray):
            after = ray[end + 1]
            if not passable[after] or after in others:
                break
            end += 1
        steps.append(ray[: end + 1])
    return steps


def step_weight(board: Board, step: Step, weights: Sequence[int]) -> int:
    """HV-ICE-3: a step's weight in a path (HV-AI-10): 1 point into an icy hex (the slide is
    free, and so is a difficult hex it stops on), else the hex's own points; plus the negative
    part of the hex it stops on (``weights``: :func:`.terrain.entry_weights`)."""
    end = step[-1]
    if not board.icy[step[0]]:
        return weights[end]
    return 1 + weights[end] - points(weights[end])


class StepGraph:
    """HV-ICE-2/3: every step a walk can take from each passable cell (``steps``), priced by
    :func:`step_weight`, and the searches over them (a slide goes one way, so the way to a cell
    is searched over the steps reversed). A cell's steps are found when first asked."""

    def __init__(
        self,
        board: Board,
        passable: Sequence[bool],
        others: Collection[int],
        weights: Sequence[int],
    ) -> None:
        self.board, self.passable, self.others, self.weights = board, passable, others, weights
        self._steps: list[list[Step] | None] = [None] * len(passable)
        self._out: list[list[tuple[int, int]]] | None = None
        self._into: list[list[tuple[int, int]]] | None = None
        self._unit: bool | None = None

    def steps_of(self, cell: int) -> list[Step]:
        """The steps from ``cell`` (none from a cell the walk cannot pass)."""
        found = self._steps[cell]
        if found is None:
            found = self._steps[cell] = (
                walk_steps(self.board, cell, self.passable, self.others)
                if self.passable[cell]
                else []
            )
        return found

    @property
    def steps(self) -> list[list[Step]]:
        """The steps from every cell."""
        return [self.steps_of(c) for c in range(len(self.passable))]

    def weight(self, step: Step) -> int:
        return step_weight(self.board, step, self.weights)

    @property
    def out(self) -> list[list[tuple[int, int]]]:
        """The steps from each cell, as (end, weight)."""
        if self._out is None:
            self._out = [[(s[-1], self.weight(s)) for s in ss] for ss in self.steps]
        return self._out

    @property
    def unit(self) -> bool:
        """Every step weighs 1 (no terrain but ice): a search by steps gives the costs."""
        if self._unit is None:
            self._unit = all(w == 1 for edges in self.out for _, w in edges)
        return self._unit

    @property
    def into(self) -> list[list[tuple[int, int]]]:
        """The steps that end on each cell, as (origin, weight)."""
        if self._into is None:
            self._into = [[] for _ in self.passable]
            for origin, edges in enumerate(self.out):
                for end, weight in edges:
                    self._into[end].append((origin, weight))
        return self._into

    def costs(self, sources: list[int], reverse: bool = False) -> list[int | None]:
        """Dijkstra from ``sources`` (``reverse``: the cost of the way from each cell to them)."""
        edges = self.into if reverse else self.out
        if self.unit:
            return _breadth_first(edges, sources)
        dist: list[int | None] = [None] * len(self.passable)
        heap = [(0, s) for s in sources]
        for s in sources:
            dist[s] = 0
        while heap:
            d, cell = heappop(heap)
            if d != dist[cell]:
                continue
            for nxt, weight in edges[cell]:
                nd = d + weight
                if dist[nxt] is None or nd < dist[nxt]:  # type: ignore[operator]
                    dist[nxt] = nd
                    heappush(heap, (nd, nxt))
        return dist

    def path(self, start: int, cost: Sequence[int | None], cell: int) -> list[int]:
        """HV-ICE-4: the hexes entered on a best path from ``start`` to ``cell`` (``cost``: the
        costs from ``start``), each step taken from the lowest-id cell that keeps it best (and,
        of its steps there, the lowest)."""
        hexes: list[int] = []
        while cell != start:
            origin, step = self._last_step(cost, cell)
            hexes[:0] = step
            cell = origin
        return hexes

    def _last_step(self, cost: Sequence[int | None], cell: int) -> tuple[int, Step]:
        """The lowest-id cell a best path to ``cell`` can step from, and its lowest such step."""
        here = cost[cell]
        assert here is not None
        for origin, there in enumerate(cost):
            if there is None or there >= here:
                continue
            fits = [
                s for s in self.steps_of(origin) if s[-1] == cell and there + self.weight(s) == here
            ]
            if fits:
                return origin, min(fits)
        raise AssertionError(f"no step reaches cell {cell} at cost {here}")


def _breadth_first(
    edges: Sequence[Sequence[tuple[int, int]]], sources: list[int]
) -> list[int | None]:
    """The step counts from ``sources`` over ``edges`` of weight 1 each (what Dijkstra gives
    them, sooner)."""
    dist: list[int | None] = [None] * len(edges)
    queue = deque()
    for s in sources:
        if dist[s] is None:
            dist[s] = 0
            queue.append(s)
    while queue:
        cell = queue.popleft()
        for nxt, _ in edges[cell]:
            if dist[nxt] is None:
                dist[nxt] = dist[cell] + 1  # type: ignore[operator]
                queue.append(nxt)
    return dist
