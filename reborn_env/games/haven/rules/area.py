"""Area-of-effect attacks: a pattern's orientations, where it may be placed, whom it attacks
(HV-AOE-1..5).

A pattern is a tuple of axial offsets ``(dq, dr)`` (HV-MAP-2). A melee pattern is read from the
attacker's hex (the grey hex, not listed); a ranged one from an anchor hex ``(0, 0)`` that is
listed. A *placement* is the set of grid cells one orientation of the pattern covers; hexes off
the map's grid cover nothing. Pure geometry and figure look-ups: nothing here changes the state.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from ..scenario.model import Grid
from .context import RuleContext
from .figures import Board, board_for, enemies_of, has
from .hexgrid import axial
from .state import Figure

Offset = tuple[int, int]
Placement = frozenset[int]


def rotate(offset: Offset, turns: int) -> Offset:
    """HV-AOE-1: ``offset`` turned by ``turns`` sixths of a circle about ``(0, 0)``; one turn
    maps axial ``(dq, dr)`` to ``(-dr, dq + dr)``."""
    dq, dr = offset
    for _ in range(turns % 6):
        dq, dr = -dr, dq + dr
    return dq, dr


def mirror(offset: Offset) -> Offset:
    """HV-AOE-1: the mirror image of ``offset`` across the axis through ``(0, 0)`` and ``(1, 0)``:
    ``(dq, dr)`` to ``(dq + dr, -dr)``."""
    dq, dr = offset
    return dq + dr, -dr


def orientations(area: Iterable[Offset]) -> tuple[tuple[Offset, ...], ...]:
    """HV-AOE-1: the pattern in its 6 rotations, then those of its mirror image; an orientation
    covering the same offsets as an earlier one is left out."""
    return _orientations(tuple(area))


@lru_cache(maxsize=1 << 10)
def _orientations(pattern: tuple[Offset, ...]) -> tuple[tuple[Offset, ...], ...]:
    """:func:`orientations` of a hashable pattern, computed once per pattern (geometry only)."""
    found: list[tuple[Offset, ...]] = []
    seen: set[frozenset[Offset]] = set()
    for image in (pattern, tuple(mirror(o) for o in pattern)):
        for turns in range(6):
            turned = tuple(rotate(o, turns) for o in image)
            if frozenset(turned) not in seen:
                seen.add(frozenset(turned))
                found.append(turned)
    return tuple(found)


def is_ranged(area: Iterable[Offset]) -> bool:
    """HV-AOE-2: a pattern listing ``(0, 0)`` is ranged; one without it (a grey hex) is melee."""
    return (0, 0) in tuple(area)


def shifted(grid: Grid, q: int, r: int) -> int | None:
    """The cell id at axial ``(q, r)`` (HV-MAP-2), or None off the grid."""
    col, row = q + (r - r % 2) // 2, r
    return grid.id(col, row) if grid.contains(col, row) else None


def _cover(grid: Grid, q: int, r: int, orientation: tuple[Offset, ...]) -> Placement:
    """The grid cells the orientation covers when its ``(0, 0)`` is at axial ``(q, r)``."""
    cells = (shifted(grid, q + dq, r + dr) for dq, dr in orientation)
    return frozenset(c for c in cells if c is not None)


def _in_range(board: Board, origin: int, cells: Placement, reach: int) -> bool:
    """HV-AOE-3: at least one hex of the placement within ``reach`` of ``origin`` (HV-MAP-5)."""
    return any(board.distance(origin, c) <= reach for c in cells)


def placements(
    board: Board, origin: int, area: Iterable[Offset], reach: int
) -> frozenset[Placement]:
    """HV-AOE-2/3: every placement of the pattern by an attacker standing on ``origin``: a melee
    pattern around ``origin`` in each orientation; a ranged one anywhere with a hex in reach
    (geometry only, so computed once per board and arguments)."""
    return _placements(board, origin, tuple(area), reach)


@lru_cache(maxsize=1 << 12)
def _placements(
    board: Board, origin: int, pattern: tuple[Offset, ...], reach: int
) -> frozenset[Placement]:
    """:func:`placements` for a hashable pattern, computed once per board and arguments."""
    grid = board.grid
    q, r = axial(origin, grid.width)
    if not is_ranged(pattern):
        return frozenset({_cover(grid, q, r, o) for o in orientations(pattern)} - {frozenset()})
    found: set[Placement] = set()
    near = [c for c in range(len(board.floor)) if board.distance(origin, c) <= reach]
    for orientation in orientations(pattern):
        for cell in near:
            cq, cr = axial(cell, grid.width)
            for dq, dr in orientation:  # the anchor that puts hex (dq, dr) on ``cell``
                found.add(_cover(grid, cq - dq, cr - dr, orientation))
    return frozenset(found)


def covering(
    board: Board, origin: int, area: Iterable[Offset], reach: int, cell: int
) -> frozenset[Placement]:
    """The placements of :func:`placements` from ``origin`` that cover ``cell``; geometry only,
    so cached per board (the monster AI asks it for every hex of every enemy, HV-AOE-7)."""
    return _covering(board, origin, tuple(area), reach, cell)


@lru_cache(maxsize=1 << 16)
def _covering(
    board: Board, origin: int, pattern: tuple[Offset, ...], reach: int, cell: int
) -> frozenset[Placement]:
    """:func:`covering` for a hashable pattern, computed once per board and arguments."""
    grid = board.grid
    q, r = axial(origin, grid.width)
    cq, cr = axial(cell, grid.width)
    found: set[Placement] = set()
    for orientation in orientations(pattern):
        for dq, dr in orientation:
            if is_ranged(pattern):
                cover = _cover(grid, cq - dq, cr - dr, orientation)
                if _in_range(board, origin, cover, reach):
                    found.add(cover)
            elif (q + dq, r + dr) == (cq, cr):
                found.add(_cover(grid, q, r, orientation))
    return frozenset(found)


def origins_covering(
    board: Board, area: Iterable[Offset], reach: int, cell: int
) -> tuple[int, ...]:
    """The hexes, ascending, from which some placement covers ``cell`` (:func:`covering` is not
    empty, HV-AOE-2/3): for a melee pattern, whose grey hex is the origin, the hexes ``cell``
    lies from by one offset of an orientation; for a ranged one, whose placements over ``cell``
    do not depend on the origin, the hexes within ``reach`` of a hex of one of them. Geometry
    only, so cached per board like :func:`covering`."""
    return _origins_covering(board, tuple(area), reach, cell)


@lru_cache(maxsize=1 << 12)
def _origins_covering(
    board: Board, pattern: tuple[Offset, ...], reach: int, cell: int
) -> tuple[int, ...]:
    """:func:`origins_covering` for a hashable pattern."""
    grid = board.grid
    cq, cr = axial(cell, grid.width)
    if not is_ranged(pattern):
        found = {shifted(grid, cq - dq, cr - dr) for o in orientations(pattern) for dq, dr in o}
        return tuple(sorted(origin for origin in found if origin is not None))
    covered = frozenset().union(
        *(_cover(grid, cq - dq, cr - dr, o) for o in orientations(pattern) for dq, dr in o)
    )
    return tuple(o for o in range(len(board.floor)) if _in_range(board, o, covered, reach))


def area_targets(
    ctx: RuleContext, attacker: Figure, cells: Placement, origin: int | None = None
) -> list[Figure]:
    """HV-AOE-4: the enemies a placement attacks: every enemy in its hexes that is not invisible
    (HV-COND-8) and that the attacker sees (HV-MAP-7) from ``origin`` (default: where it stands);
    allies in it are not attacked."""
    return [f for f in attackable(ctx, attacker, origin) if f.cell in cells]


def attackable(ctx: RuleContext, attacker: Figure, origin: int | None = None) -> list[Figure]:
    """HV-AOE-4: the enemies a placement could attack from ``origin`` (default: where the
    attacker stands), those in its hexes: not invisible (HV-COND-8), seen from there (HV-MAP-7)."""
    board = board_for(ctx.scenario)
    seen_from = attacker.cell if origin is None else origin
    return [
        f
        for f in enemies_of(ctx.state, attacker)
        if not has(f, "invisible") and board.sight(seen_from, f.cell)
    ]


def target_sets(
    ctx: RuleContext, attacker: Figure, area: Iterable[Offset], reach: int
) -> set[frozenset[int]]:
    """HV-AOE-5: the distinct non-empty sets of enemy cells the attacker can attack with one
    placement from where it stands (a placement attacking no one is not a choice)."""
    board = board_for(ctx.scenario)
    seen = attackable(ctx, attacker)
    found = set()
    for cells in placements(board, attacker.cell, area, reach):
        hit = frozenset(f.cell for f in seen if f.cell in cells)  # the placement's area_targets
        if hit:
            found.add(hit)
    return found
