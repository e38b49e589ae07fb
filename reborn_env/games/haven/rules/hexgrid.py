"""Hex grid geometry of the haven map: cells, neighbours, range and line of sight (HV-MAP-1..8).

Movement, range checks, monster focus (HV-AI-2..6) and every ability with a Range (HV-MAP-8) need
the same few facts about two cells: are they neighbours, how far apart are they counting around
walls (range distance, HV-MAP-5), and do they see each other (HV-MAP-7). They are computed here
from one per-map ``walls`` sequence (``walls[cell]`` is True for a wall cell, indexed by cell id)
and the map's thin walls (HV-TW-1: edges between two neighbouring cells, each an :data:`Edge`), so
the rules engine can ask them without building any state.

Line of sight is exact (HV-MAP-7): in the rescaled plane a cell centre is ``(2q + r, 3r)`` and its
corners are at integer offsets, so whether a corner-to-corner segment meets a closed wall hexagon is
decided by signs of integer cross products only. :class:`RangeTable` and :class:`SightTable`
precompute all pairs once per map, for the callers that ask many times (monster AI).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Sequence

from ..scenario.model import HEIGHT, WIDTH  # HV-MAP-1: the standard grid, the defaults here

Point = tuple[int, int]
Edge = tuple[int, int]
"""HV-TW-1: a thin wall, the edge between two neighbouring cells, as ``(lower id, higher id)``."""

# HV-MAP-2: neighbour offsets (dcol, drow) in the spec's listed order, for even and odd rows.
_EVEN_ROW_OFFSETS = ((-1, 0), (1, 0), (-1, -1), (0, -1), (-1, 1), (0, 1))
_ODD_ROW_OFFSETS = ((-1, 0), (1, 0), (0, -1), (1, -1), (0, 1), (1, 1))

SIDES = ("w", "e", "nw", "ne", "sw", "se")
"""HV-MAP-2: the side of a cell each listed neighbour offset lies on, in the listed order (the
same for even and odd rows; north is row - 1)."""

# HV-MAP-7.2: corner offsets from a cell centre, in the listed order (counter-clockwise for y up).
_CORNER_OFFSETS = ((1, 1), (0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1))


def cell_id(col: int, row: int, width: int = WIDTH) -> int:
    """HV-MAP-1: the id ``width * row + col`` of cell ``(col, row)``."""
    return width * row + col


def col_row(cell: int, width: int = WIDTH) -> tuple[int, int]:
    """HV-MAP-1: the ``(col, row)`` of a cell id."""
    return cell % width, cell // width


def neighbours(cell: int, width: int = WIDTH, height: int = HEIGHT) -> tuple[int, ...]:
    """HV-MAP-2: ids of the cells next to ``cell`` inside the grid, in the spec's order (odd-r)."""
    col, row = col_row(cell, width)
    offsets = _ODD_ROW_OFFSETS if row % 2 else _EVEN_ROW_OFFSETS
    return tuple(
        cell_id(col + dc, row + dr, width)
        for dc, dr in offsets
        if 0 <= col + dc < width and 0 <= row + dr < height
    )


def neighbour_on(cell: int, side: int, width: int = WIDTH, height: int = HEIGHT) -> int | None:
    """HV-MAP-2: the id of the cell next to ``cell`` on side ``side`` (an index in :data:`SIDES`),
    or None off the grid."""
    col, row = col_row(cell, width)
    dc, dr = (_ODD_ROW_OFFSETS if row % 2 else _EVEN_ROW_OFFSETS)[side]
    if 0 <= col + dc < width and 0 <= row + dr < height:
        return cell_id(col + dc, row + dr, width)
    return None


def ray(
    cell: int,
    side: int,
    open_cells: Sequence[bool],
    thin_walls: Collection[Edge] = (),
    width: int = WIDTH,
    height: int = HEIGHT,
) -> tuple[int, ...]:
    """The cells beyond ``cell`` on side ``side`` in a straight line, nearest first, up to the
    first that is off the grid, not in ``open_cells`` or behind a thin wall (HV-ICE-2's slides
    follow one)."""
    cells = []
    here = cell
    while True:
        there = neighbour_on(here, side, width, height)
        if there is None or not open_cells[there] or edge(here, there) in thin_walls:
            return tuple(cells)
        cells.append(there)
        here = there


def neighbour_side(cell: int, other: int, width: int = WIDTH) -> int:
    """HV-MAP-2: the index in :data:`SIDES` of the side of ``cell`` that ``other`` lies on;
    ``other`` must be a neighbour."""
    col, row = col_row(cell, width)
    other_col, other_row = col_row(other, width)
    offsets = _ODD_ROW_OFFSETS if row % 2 else _EVEN_ROW_OFFSETS
    return offsets.index((other_col - col, other_row - row))


def edge(a: int, b: int) -> Edge:
    """HV-TW-1: the :data:`Edge` between cells ``a`` and ``b``, whichever is named first."""
    return (a, b) if a < b else (b, a)


def open_neighbours(
    cell: int, thin_walls: Collection[Edge] = (), width: int = WIDTH, height: int = HEIGHT
) -> tuple[int, ...]:
    """HV-TW-2: the neighbours of ``cell`` (HV-MAP-2, in its order) not behind a thin wall."""
    return tuple(n for n in neighbours(cell, width, height) if edge(cell, n) not in thin_walls)


def axial(cell: int, width: int = WIDTH) -> tuple[int, int]:
    """HV-MAP-2: axial ``(q, r)``: ``q = col - (row - row mod 2) / 2``, ``r = row``."""
    col, row = col_row(cell, width)
    return col - (row - row % 2) // 2, row


def hex_distance(a: int, b: int, width: int = WIDTH) -> int:
    """HV-MAP-2: hex distance ``(|dq| + |dr| + |dq + dr|) / 2``, ignoring walls."""
    qa, ra = axial(a, width)
    qb, rb = axial(b, width)
    dq, dr = qb - qa, rb - ra
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def adjacent(
    a: int, b: int, walls: Sequence[bool], width: int = WIDTH, thin_walls: Collection[Edge] = ()
) -> bool:
    """HV-MAP-5, HV-TW-3: ``a`` and ``b`` are neighbours, neither is a wall and no thin wall
    parts them (range distance 1)."""
    height = len(walls) // width
    return (
        not walls[a]
        and not walls[b]
        and b in neighbours(a, width, height)
        and edge(a, b) not in thin_walls
    )


def _range_bfs(
    source: int, walls: Sequence[bool], width: int, thin_walls: Collection[Edge]
) -> list[int | None]:
    """HV-MAP-5: range distances from ``source`` to every cell (None: unreachable or a wall).

    The chain runs over non-wall cells of the grid only and never crosses a thin wall (HV-TW-3),
    so a wall ``source`` reaches nothing.
    """
    height = len(walls) // width
    dist = [-1] * len(walls)
    if not walls[source]:
        dist[source] = 0
        queue = deque((source,))
        while queue:
            cell = queue.popleft()
            for n in open_neighbours(cell, thin_walls, width, height):
                if dist[n] < 0 and not walls[n]:
                    dist[n] = dist[cell] + 1
                    queue.append(n)
    return [d if d >= 0 else None for d in dist]


def range_distance(
    a: int, b: int, walls: Sequence[bool], width: int = WIDTH, thin_walls: Collection[Edge] = ()
) -> int | None:
    """HV-MAP-5: length of the shortest chain of neighbouring non-wall grid cells from a to b
    that crosses no thin wall (HV-TW-3).

    Obstacles and figures do not matter. None if there is no such chain (``b`` walled off, or
    either end is itself a wall).
    """
    return _range_bfs(a, walls, width, thin_walls)[b]


class RangeTable:
    """HV-MAP-5: all-pairs range distances of one map, from one BFS per cell; O(1) lookup."""

    def __init__(
        self, walls: Sequence[bool], width: int = WIDTH, thin_walls: Collection[Edge] = ()
    ) -> None:
        self.rows = tuple(tuple(_range_bfs(s, walls, width, thin_walls)) for s in range(len(walls)))
        """``rows[a][b]``: the range distance ``R(a, b)`` (None if unreachable)."""

    def __call__(self, a: int, b: int) -> int | None:
        """The range distance ``R(a, b)`` (None if unreachable)."""
        return self.rows[a][b]


def centre(cell: int, width: int = WIDTH) -> Point:
    """HV-MAP-7.1: the cell centre ``(X, Y) = (2q + r, 3r)`` in the rescaled integer plane."""
    q, r = axial(cell, width)
    return 2 * q + r, 3 * r


def corners(cell: int, width: int = WIDTH) -> tuple[Point, ...]:
    """HV-MAP-7.2: the six corners of a cell's hexagon, in the listed (counter-clockwise) order."""
    x, y = centre(cell, width)
    return tuple((x + dx, y + dy) for dx, dy in _CORNER_OFFSETS)


def _cross(o: Point, p: Point, q: Point) -> int:
    """Twice the signed area of triangle ``o, p, q`` (> 0: ``q`` left of ``o -> p``)."""
    return (p[0] - o[0]) * (q[1] - o[1]) - (p[1] - o[1]) * (q[0] - o[0])


def _on_segment(p: Point, q: Point, x: Point) -> bool:
    """Whether ``x``, known to be collinear with ``p`` and ``q``, lies on the closed segment."""
    return min(p[0], q[0]) <= x[0] <= max(p[0], q[0]) and min(p[1], q[1]) <= x[1] <= max(p[1], q[1])


def segments_meet(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    """Whether closed segments ``p1 p2`` and ``q1 q2`` share at least one point (exact)."""
    d1 = _cross(q1, q2, p1)
    d2 = _cross(q1, q2, p2)
    d3 = _cross(p1, p2, q1)
    d4 = _cross(p1, p2, q2)
    if ((d1 > 0 and d2 < 0) or (d1 < 0 and d2 > 0)) and (
        (d3 > 0 and d4 < 0) or (d3 < 0 and d4 > 0)
    ):
        return True
    return (
        (d1 == 0 and _on_segment(q1, q2, p1))
        or (d2 == 0 and _on_segment(q1, q2, p2))
        or (d3 == 0 and _on_segment(p1, p2, q1))
        or (d4 == 0 and _on_segment(p1, p2, q2))
    )


def segment_meets_hexagon(p: Point, q: Point, centre_xy: Point) -> bool:
    """HV-MAP-7.3: whether closed segment ``p q`` shares a point with the closed hexagon of the
    cell centred at ``centre_xy``; touching in a single point counts.

    Around its centre the hexagon (HV-MAP-7.2's corners) is ``|dx| <= 1``, ``|dx + dy| <= 2``,
    ``|dx - dy| <= 2``. Two closed convex shapes are apart iff some edge normal of one of them
    separates them strictly (the separating-axis theorem), so the segment misses the hexagon iff
    both its ends lie strictly beyond one of those six sides, or all six corners lie strictly on
    one side of its line. Integers only, as every other test of HV-MAP-7.
    """
    cx, cy = centre_xy
    px, py, qx, qy = p[0] - cx, p[1] - cy, q[0] - cx, q[1] - cy
    if (px > 1 and qx > 1) or (px < -1 and qx < -1):
        return False
    s, t = px + py, qx + qy
    if (s > 2 and t > 2) or (s < -2 and t < -2):
        return False
    s, t = px - py, qx - qy
    if (s > 2 and t > 2) or (s < -2 and t < -2):
        return False
    dx, dy = qx - px, qy - py
    sides = [dx * (oy - py) - dy * (ox - px) for ox, oy in _CORNER_OFFSETS]
    return not (all(v > 0 for v in sides) or all(v < 0 for v in sides))


def _boxes_overlap(box_a: tuple[int, int, int, int], box_b: tuple[int, int, int, int]) -> bool:
    """Whether two closed boxes ``(xmin, xmax, ymin, ymax)`` share a point."""
    return (
        box_a[0] <= box_b[1]
        and box_b[0] <= box_a[1]
        and box_a[2] <= box_b[3]
        and box_b[2] <= box_a[3]
    )


def _hex_box(cell: int, width: int) -> tuple[int, int, int, int]:
    """The bounding box ``(xmin, xmax, ymin, ymax)`` of a cell's hexagon (HV-MAP-7.2)."""
    x, y = centre(cell, width)
    return x - 1, x + 1, y - 2, y + 2


def _segment_box(p: Point, q: Point) -> tuple[int, int, int, int]:
    """The bounding box ``(xmin, xmax, ymin, ymax)`` of segment ``p q``."""
    return min(p[0], q[0]), max(p[0], q[0]), min(p[1], q[1]), max(p[1], q[1])


def wall_segment(wall: Edge, width: int = WIDTH) -> tuple[Point, Point]:
    """HV-TW-1: a thin wall as the closed segment between the two corners its cells share."""
    shared = sorted(set(corners(wall[0], width)) & set(corners(wall[1], width)))
    return shared[0], shared[1]


def line_of_sight(
    a: int, b: int, walls: Sequence[bool], width: int = WIDTH, thin_walls: Collection[Edge] = ()
) -> bool:
    """HV-MAP-6/-7, HV-TW-4: whether cells ``a`` and ``b`` see each other; only wall hexagons
    and thin walls block.

    True if ``a == b``, if they are adjacent (HV-MAP-5, HV-TW-3), or if some segment from a corner
    of ``a`` to a corner of ``b`` shares no point with any closed wall hexagon or thin wall
    segment. A wall ``a`` or ``b`` blocks all its own corners, so a wall cell sees only itself;
    a corner at a thin wall's end gives no sight either. Outside the grid never blocks
    (HV-MAP-7.4).
    """
    if a == b or adjacent(a, b, walls, width, thin_walls):
        return True
    return _corner_segment_clear(a, b, width, *_blocking(walls, width, thin_walls))


def _blocking(
    walls: Sequence[bool], width: int, thin_walls: Collection[Edge]
) -> tuple[list[Point], list[tuple[Point, Point]]]:
    """What can block sight on a map: its wall hexagons' centres and its thin walls' segments."""
    centres = [centre(w, width) for w, is_wall in enumerate(walls) if is_wall]
    return centres, [wall_segment(w, width) for w in thin_walls]


def _corner_segment_clear(
    a: int,
    b: int,
    width: int,
    wall_centres: Sequence[Point],
    thin_lines: Sequence[tuple[Point, Point]],
) -> bool:
    """HV-MAP-7.3, HV-TW-4: whether some corner-to-corner segment of ``a`` and ``b`` meets no
    wall hexagon and no thin wall. Every such segment lies in the bounding box of the two
    hexagons and within distance 2 of the line through their centres (a hexagon lies within 2 of
    its centre in the rescaled plane), so only walls whose box overlaps that box and whose centre
    lies within 4 of that line are tested."""
    box_a, box_b = _hex_box(a, width), _hex_box(b, width)
    span = (
        min(box_a[0], box_b[0]),
        max(box_a[1], box_b[1]),
        min(box_a[2], box_b[2]),
        max(box_a[3], box_b[3]),
    )
    (ax, ay), (bx, by) = centre(a, width), centre(b, width)
    dx, dy = bx - ax, by - ay
    reach = 16 * (dx * dx + dy * dy)  # (distance 4)^2, scaled as the cross product's square
    blockers = [
        (wx, wy)
        for wx, wy in wall_centres
        if _boxes_overlap((wx - 1, wx + 1, wy - 2, wy + 2), span)
        and (dx * (wy - ay) - dy * (wx - ax)) ** 2 <= reach
    ]
    lines = [line for line in thin_lines if _boxes_overlap(_segment_box(*line), span)]
    corners_b = corners(b, width)
    return any(
        not any(segment_meets_hexagon(p, q, wall) for wall in blockers)
        and not any(segments_meet(p, q, w1, w2) for w1, w2 in lines)
        for p in corners(a, width)
        for q in corners_b
    )


class SightTable:
    """HV-MAP-7: line of sight for all pairs of one map, computed eagerly once; O(1) lookup.

    LOS is symmetric, so each unordered pair is computed once, with the map's blockers found once.
    """

    def __init__(
        self, walls: Sequence[bool], width: int = WIDTH, thin_walls: Collection[Edge] = ()
    ) -> None:
        n = len(walls)
        blocking = _blocking(walls, width, thin_walls)
        rows = [[True] * n for _ in range(n)]
        for a in range(n):
            for b in range(a + 1, n):
                sees = adjacent(a, b, walls, width, thin_walls) or _corner_segment_clear(
                    a, b, width, *blocking
                )
                rows[a][b] = rows[b][a] = sees
        self.rows = tuple(tuple(row) for row in rows)
        """``rows[a][b]``: ``LOS(a, b)``."""

    def __call__(self, a: int, b: int) -> bool:
        """``LOS(a, b)``."""
        return self.rows[a][b]
