"""Icy terrain (section 26, HV-ICE-2..5): a walk that steps into an icy hex slides on.

A walk's step is no longer one hex on a map with ice: stepping into an icy hex carries the figure
on in the same direction, hex by hex, until it reaches a hex that is not icy or the next hex is
closed to it. :func:`walk_steps` lists the steps a walk can take from a cell, each with the hexes
it enters, and :func:`step_weight` prices one as the path graph prices a hex entered
(:func:`.terrain.entry_weights`). :class:`.path_graph.PathGraph` searches over these steps on such
a map; jumps, flights and teleports never slide (HV-ICE-2).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import NamedTuple

from .figures import Board
from .hexgrid import SIDES, edge, neighbour_on
from .terrain import points


class Step(NamedTuple):
    """One step of a walk: the hexes it enters in order (the first is the hex stepped into, the
    last, ``end``, where the figure stops)."""

    hexes: tuple[int, ...]

    @property
    def end(self) -> int:
        return self.hexes[-1]


def _open(board: Board, passable: Sequence[bool], a: int, b: int | None) -> bool:
    """A walk may go from ``a`` into its neighbour ``b``: on the grid, passable, no thin wall
    between (HV-MAP-4, HV-TW-2)."""
    return b is not None and passable[b] and edge(a, b) not in board.thin_walls


def walk_steps(
    board: Board, cell: int, passable: Sequence[bool], others: Collection[int]
) -> list[Step]:
    """HV-ICE-2: the steps a walk can take from ``cell``, one per open side in HV-MAP-2's order.
    Into an icy hex the figure slides on in the same direction while the hex it is on is icy and
    the next one is open to it and holds no other figure (``others``: the cells of every figure
    but the mover); it stops on the first hex that is not icy, or where the slide is blocked."""
    steps = []
    for side in range(len(SIDES)):
        hex_ = neighbour_on(cell, side)
        if not _open(board, passable, cell, hex_):
            continue
        assert hex_ is not None
        entered = [hex_]
        while board.icy[hex_]:
            after = neighbour_on(hex_, side)
            if not _open(board, passable, hex_, after) or after in others:
                break
            assert after is not None
            hex_ = after
            entered.append(hex_)
        steps.append(Step(tuple(entered)))
    return steps


def step_weight(board: Board, step: Step, weights: Sequence[int]) -> int:
    """HV-ICE-3: a step's weight in a path (HV-AI-10): 1 point into an icy hex (the slide is
    free, and so is a difficult hex it stops on), else the hex's own points; plus the negative
    part of the hex it stops on (``weights``: :func:`.terrain.entry_weights`)."""
    first, end = step.hexes[0], step.end
    step_points = 1 if board.icy[first] else points(weights[first])
    return step_points + weights[end] - points(weights[end])
