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
    """HV-ICE-2: the steps a walk can take from ``cell``, one per open side.
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
    is searched over the steps reversed)."""

    def __init__(
        self,
        board: Board,
        passable: Sequence[bool],
        others: Collection[int],
        weights: Sequence[int],
    ) -> None:
        self.steps = [
            walk_steps(board, c, passable, others) if passable[c] else []
            for c in range(len(passable))
        ]
        self.out = [[(s[-1], step_weight(board, s, weights)) for s in ss] for ss in self.steps]
        self.unit = all(w == 1 for edges in self.out for _, w in edges)  # a search by steps then
        self._into: list[list[tuple[int, Step, int]]] | None = None

    @property
    def into(self) -> list[list[tuple[int, Step, int]]]:
        """The steps that end on each cell, as (origin, step, weight), built when first asked."""
        if self._into is None:
            self._into = [[] for _ in self.steps]
            for origin, steps in enumerate(self.steps):
                for step, (end, weight) in zip(steps, self.out[origin], strict=True):
                    self._into[end].append((origin, step, weight))
        return self._into

    def costs(self, sources: list[int], reverse: bool = False) -> list[int | None]:
        """Dijkstra from ``sources`` (``reverse``: the cost of the way from each cell to them)."""
        edges = [[(o, w) for o, _, w in into] for into in self.into] if reverse else self.out
        if self.unit:
            return _breadth_first(edges, sources)
        dist: list[int | None] = [None] * len(self.steps)
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
        costs from ``start``), each step taken from the lowest-id cell that keeps it best."""
        into = self.into
        hexes: list[int] = []
        while cell != start:
            origin, step = min(
                (o, step)
                for o, step, weight in into[cell]
                if cost[o] is not None and cost[o] + weight == cost[cell]  # type: ignore[operator]
            )
            hexes[:0] = step
            cell = origin
        return hexes


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
