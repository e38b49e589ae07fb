"""Tests of the haven hex grid: neighbours, range distance and line of sight (HV-MAP-1..8).

Line of sight is checked against an independent exact reference: each wall hexagon is written as
the six half-planes ``|dx| <= 1``, ``|dx + dy| <= 2``, ``|dx - dy| <= 2`` around its centre and each
corner segment is clipped against them with :class:`fractions.Fraction` (Cyrus-Beck), so no code is
shared with the integer cross-product test of the module.
"""

from __future__ import annotations

from collections import deque
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from reborn_env.games.haven.rules.hexgrid import (
    HEIGHT,
    WIDTH,
    RangeTable,
    SightTable,
    adjacent,
    axial,
    cell_id,
    centre,
    col_row,
    corners,
    edge,
    hex_distance,
    line_of_sight,
    neighbours,
    open_neighbours,
    range_distance,
    segment_meets_hexagon,
    wall_segment,
)

N_CELLS = WIDTH * HEIGHT


def _walls(*cells: tuple[int, int]) -> list[bool]:
    """A wall map with walls on the given ``(col, row)`` cells."""
    walls = [False] * N_CELLS
    for col, row in cells:
        walls[cell_id(col, row)] = True
    return walls


def _c(col: int, row: int) -> int:
    return cell_id(col, row)


RAIDER_CAMP = _walls((6, 2), (6, 3))  # 15.1

# --- exact reference (Fractions, half-plane clipping) -------------------------------------------

# Hexagon around centre (X, Y) as a . (x - X, y - Y) <= 2 * c for these (a, c): HV-MAP-7.2 corners.
_HALF_PLANES = (((1, 0), 1), ((-1, 0), 1), ((1, 1), 2), ((-1, -1), 2), ((1, -1), 2), ((-1, 1), 2))


def _clip(p, q, cell: int) -> tuple[Fraction, Fraction] | None:
    """The parameter interval ``[t0, t1]`` of segment ``p q`` inside a closed hexagon, or None."""
    cx, cy = centre(cell)
    lo, hi = Fraction(0), Fraction(1)
    for (ax, ay), c in _HALF_PLANES:
        start = ax * (p[0] - cx) + ay * (p[1] - cy)
        slope = ax * (q[0] - p[0]) + ay * (q[1] - p[1])
        if slope == 0:
            if start > c:
                return None
        elif slope > 0:
            hi = min(hi, Fraction(c - start, slope))
        else:
            lo = max(lo, Fraction(c - start, slope))
    return (lo, hi) if lo <= hi else None


def _meets(p, q, cell: int, touching_blocks: bool) -> bool:
    """Whether segment ``p q`` meets the closed hexagon (or, if not ``touching_blocks``, its
    interior: then the midpoint of the clipped chord must be strictly inside)."""
    interval = _clip(p, q, cell)
    if interval is None or touching_blocks:
        return interval is not None
    t = (interval[0] + interval[1]) / 2
    cx, cy = centre(cell)
    x = p[0] + t * (q[0] - p[0]) - cx
    y = p[1] + t * (q[1] - p[1]) - cy
    return all(ax * x + ay * y < c for (ax, ay), c in _HALF_PLANES)


def reference_los(a: int, b: int, walls: list[bool], touching_blocks: bool = True) -> bool:
    """HV-MAP-7 evaluated with exact fractions."""
    if a == b or adjacent(a, b, walls):
        return True
    wall_cells = [w for w in range(N_CELLS) if walls[w]]
    return any(
        not any(_meets(p, q, w, touching_blocks) for w in wall_cells)
        for p in corners(a)
        for q in corners(b)
    )


wall_maps = st.sets(st.integers(0, N_CELLS - 1), max_size=12).map(
    lambda cells: [c in cells for c in range(N_CELLS)]
)
cells = st.integers(0, N_CELLS - 1)

# --- HV-MAP-1 / HV-MAP-2 ------------------------------------------------------------------------


def test_hv_map_1_cell_ids_round_trip():
    """HV-MAP-1: id = 9 * row + col, 0..62."""
    assert cell_id(0, 0) == 0
    assert cell_id(8, 6) == 62
    assert cell_id(3, 4) == 39  # HEX(3,4) = 39 in HV-TEST-08
    assert all(cell_id(*col_row(c)) == c for c in range(N_CELLS))


def test_hv_map_2_neighbours_even_rows_in_listed_order():
    """HV-MAP-2: even rows list (c-1,r) (c+1,r) (c-1,r-1) (c,r-1) (c-1,r+1) (c,r+1)."""
    assert neighbours(_c(4, 2)) == (_c(3, 2), _c(5, 2), _c(3, 1), _c(4, 1), _c(3, 3), _c(4, 3))
    assert neighbours(_c(0, 0)) == (_c(1, 0), _c(0, 1))  # top-left corner
    assert neighbours(_c(8, 0)) == (_c(7, 0), _c(7, 1), _c(8, 1))  # top-right corner
    assert neighbours(_c(0, 6)) == (_c(1, 6), _c(0, 5))  # bottom-left corner
    assert neighbours(_c(8, 6)) == (_c(7, 6), _c(7, 5), _c(8, 5))  # bottom-right corner
    assert neighbours(_c(0, 2)) == (_c(1, 2), _c(0, 1), _c(0, 3))  # left edge


def test_hv_map_2_neighbours_odd_rows_in_listed_order():
    """HV-MAP-2: odd rows list (c-1,r) (c+1,r) (c,r-1) (c+1,r-1) (c,r+1) (c+1,r+1)."""
    assert neighbours(_c(4, 3)) == (_c(3, 3), _c(5, 3), _c(4, 2), _c(5, 2), _c(4, 4), _c(5, 4))
    assert neighbours(_c(0, 1)) == (_c(1, 1), _c(0, 0), _c(1, 0), _c(0, 2), _c(1, 2))  # left edge
    assert neighbours(_c(8, 1)) == (_c(7, 1), _c(8, 0), _c(8, 2))  # right edge
    assert neighbours(_c(8, 5)) == (_c(7, 5), _c(8, 4), _c(8, 6))


def test_hv_map_2_neighbours_symmetric_and_at_hex_distance_one():
    """HV-MAP-2: b is a neighbour of a iff a is one of b; neighbours are at hex distance 1."""
    for a in range(N_CELLS):
        assert len(set(neighbours(a))) == len(neighbours(a))
        for b in range(N_CELLS):
            assert (b in neighbours(a)) == (a in neighbours(b)) == (hex_distance(a, b) == 1)


def test_hv_map_2_axial_coordinates():
    """HV-MAP-2: q = c - (r - r mod 2) / 2, r = r."""
    assert axial(_c(0, 0)) == (0, 0)
    assert axial(_c(3, 1)) == (3, 1)
    assert axial(_c(3, 2)) == (2, 2)
    assert axial(_c(8, 6)) == (5, 6)


def test_hv_map_2_hex_distance_equals_bfs_on_empty_grid():
    """HV-MAP-2: the hex distance formula equals neighbour-step BFS distance without walls."""
    for a in range(N_CELLS):
        dist = {a: 0}
        queue = deque([a])
        while queue:
            cell = queue.popleft()
            for n in neighbours(cell):
                if n not in dist:
                    dist[n] = dist[cell] + 1
                    queue.append(n)
        assert [hex_distance(a, b) for b in range(N_CELLS)] == [dist[b] for b in range(N_CELLS)]


# --- HV-MAP-5 -----------------------------------------------------------------------------------


def test_hv_map_5_range_goes_around_raider_camp_wall():
    """HV-MAP-5, 15.1: R((5,2),(7,2)) = 3 around the wall while the hex distance is 2."""
    assert hex_distance(_c(5, 2), _c(7, 2)) == 2
    assert range_distance(_c(5, 2), _c(7, 2), RAIDER_CAMP) == 3


def test_hv_map_5_raider_camp_reference_ranges_from_tests():
    """HV-TEST-08: Slinger at (8,3) has proximity 8 to both (1,4) and (2,2); range 2 (3,4)-(5,4)."""
    assert range_distance(_c(8, 3), _c(1, 4), RAIDER_CAMP) == 8
    assert range_distance(_c(8, 3), _c(2, 2), RAIDER_CAMP) == 8
    assert range_distance(_c(3, 4), _c(5, 4), RAIDER_CAMP) == 2


def test_hv_map_5_wall_line_forces_detour():
    """HV-MAP-5: a wall column with one gap at the bottom; the chain must go through (4,6).

    (3,0) down col 3 to (3,5), then (4,6), (5,6) (as (4,5) is a wall) and 6 up to (5,0): 13.
    """
    walls = _walls(*((4, r) for r in range(6)))
    assert hex_distance(_c(3, 0), _c(5, 0)) == 2
    assert range_distance(_c(3, 0), _c(5, 0), walls) == 13


def test_hv_map_5_walled_off_is_none():
    """HV-MAP-5: no chain leaves a walled-in corner; a wall cell is never reached; R(a,a) = 0."""
    walls = _walls((1, 0), (0, 1))
    assert range_distance(_c(0, 0), _c(0, 0), walls) == 0
    assert all(range_distance(_c(0, 0), b, walls) is None for b in range(1, N_CELLS))
    assert range_distance(_c(2, 0), _c(1, 0), walls) is None
    full = _walls(*((4, r) for r in range(HEIGHT)))
    assert range_distance(_c(3, 0), _c(5, 0), full) is None


def test_hv_map_5_obstacles_do_not_matter():
    """HV-MAP-5: obstacles are not part of the walls map, so (3,3) etc. do not lengthen range."""
    assert range_distance(_c(2, 3), _c(4, 3), RAIDER_CAMP) == 2  # across obstacle (3,3)


def test_hv_map_5_adjacency_excludes_walls():
    """HV-MAP-5: adjacent iff neighbours and neither is a wall."""
    walls = _walls((1, 0))
    assert adjacent(_c(0, 0), _c(0, 1), walls)
    assert not adjacent(_c(0, 0), _c(1, 0), walls)
    assert not adjacent(_c(1, 0), _c(0, 0), walls)
    assert not adjacent(_c(0, 0), _c(0, 0), walls)
    assert not adjacent(_c(0, 0), _c(2, 0), walls)
    # HV-TEST-08 Part B, HV-TEST-13 (d): figures stated to be adjacent.
    assert adjacent(_c(3, 2), _c(2, 2), RAIDER_CAMP)
    assert adjacent(_c(2, 1), _c(2, 2), RAIDER_CAMP)
    assert adjacent(_c(2, 3), _c(2, 4), RAIDER_CAMP)
    assert adjacent(_c(2, 3), _c(3, 4), RAIDER_CAMP)


@settings(max_examples=15, deadline=None)
@given(wall_maps)
def test_hv_map_5_range_table_matches_range_distance(walls):
    """HV-MAP-5: RangeTable(walls)(a, b) == range_distance(a, b, walls) for all pairs."""
    table = RangeTable(walls)
    for a in range(0, N_CELLS, 11):
        assert [table(a, b) for b in range(N_CELLS)] == [
            range_distance(a, b, walls) for b in range(N_CELLS)
        ]


# --- HV-MAP-6 / HV-MAP-7 ------------------------------------------------------------------------


def test_hv_map_7_raider_camp_reference_values():
    """15.1: the map's reference LOS values."""
    assert not line_of_sight(_c(1, 2), _c(7, 2), RAIDER_CAMP)
    assert line_of_sight(_c(1, 2), _c(6, 5), RAIDER_CAMP)
    assert line_of_sight(_c(1, 4), _c(8, 3), RAIDER_CAMP)
    assert not line_of_sight(_c(1, 2), _c(8, 3), RAIDER_CAMP)
    assert not line_of_sight(_c(5, 3), _c(7, 3), RAIDER_CAMP)
    assert line_of_sight(_c(3, 4), _c(5, 4), RAIDER_CAMP)  # HV-TEST-08 Part A


def test_hv_map_7_corners_and_centre():
    """HV-MAP-7.1/-7.2: centre (2q + r, 3r) and the listed corner offsets."""
    assert centre(_c(3, 2)) == (6, 6)
    assert corners(_c(0, 0)) == ((1, 1), (0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1))
    # Neighbouring hexagons share an edge: (0,0) and (1,0) share corners (1, 1) and (1, -1).
    assert set(corners(_c(0, 0))) & set(corners(_c(1, 0))) == {(1, 1), (1, -1)}


def test_hv_map_7_same_cell_and_adjacent_cells_see_each_other():
    """HV-MAP-7.3: a = b and adjacent cells always have LOS, even with walls around them."""
    walls = _walls((3, 1), (3, 3))  # the two cells flanking the edge between (3,2) and (4,2)
    assert line_of_sight(_c(3, 2), _c(3, 2), walls)
    assert line_of_sight(_c(3, 2), _c(4, 2), walls)
    assert line_of_sight(_c(3, 1), _c(3, 1), walls)  # a = b, even on a wall


def test_hv_map_7_wall_neighbour_is_not_adjacent_for_los():
    """HV-MAP-5/-7.3: the adjacency shortcut needs both cells non-wall; a wall cell's own hexagon
    touches every segment from its corners, so a wall sees (and is seen by) nothing but itself."""
    walls = _walls((1, 0))
    assert not line_of_sight(_c(0, 0), _c(1, 0), walls)
    assert not line_of_sight(_c(1, 0), _c(5, 5), walls)


def test_hv_map_7_wall_between_blocks():
    """HV-MAP-6/-7: a wall straight between two cells blocks; an obstacle (not a wall) does not."""
    assert not line_of_sight(_c(5, 2), _c(7, 2), RAIDER_CAMP)
    assert line_of_sight(_c(2, 3), _c(4, 3), RAIDER_CAMP)  # obstacle (3,3) between


def test_hv_map_7_touching_a_wall_corner_blocks():
    """HV-MAP-7.3: touching counts. With a wall at (1,0), the segment (0,2)-(4,2) from (0,0) to
    (2,0) meets the wall hexagon only in its corner (2,2); every other corner segment crosses it.
    So LOS is false, while it would be true if touching did not block."""
    walls = _walls((1, 0))
    assert segment_meets_hexagon((0, 2), (4, 2), centre(_c(1, 0)))
    assert _clip((0, 2), (4, 2), _c(1, 0)) == (Fraction(1, 2), Fraction(1, 2))  # one point
    assert not line_of_sight(_c(0, 0), _c(2, 0), walls)
    assert reference_los(_c(0, 0), _c(2, 0), walls, touching_blocks=False)


def test_hv_map_7_grazing_past_a_wall_does_not_block():
    """HV-MAP-7.3: with walls at (4,2) and (4,4), (2,0) sees (5,5) through exactly one corner
    segment, (4,2)-(12,16). It passes corner (9,11) of wall (4,4) at cross product 2 (the
    smallest non-zero value here) without touching; shifted one unit towards it, it is blocked."""
    walls = _walls((4, 2), (4, 4))
    a, b = _c(2, 0), _c(5, 5)
    wall_hexes = (centre(_c(4, 2)), centre(_c(4, 4)))
    clear = [
        (p, q)
        for p in corners(a)
        for q in corners(b)
        if not any(segment_meets_hexagon(p, q, wall) for wall in wall_hexes)
    ]
    assert clear == [((4, 2), (12, 16))]
    assert (12 - 4) * (11 - 2) - (16 - 2) * (9 - 4) == 2
    assert line_of_sight(a, b, walls)
    assert segment_meets_hexagon((3, 2), (11, 16), wall_hexes[1])


def test_hv_map_7_outside_grid_does_not_block():
    """HV-MAP-7.4: with a wall at (0,1), (0,0) still sees (0,2): every clear corner segment runs
    left of the shifted odd row, i.e. outside the grid (x < 0 at the wall's height y = 3)."""
    walls = _walls((0, 1))
    a, b = _c(0, 0), _c(0, 2)
    clear = [
        (p, q)
        for p in corners(a)
        for q in corners(b)
        if not segment_meets_hexagon(p, q, centre(_c(0, 1)))
    ]
    assert clear
    for p, q in clear:
        x_at_3 = p[0] + Fraction(3 - p[1], q[1] - p[1]) * (q[0] - p[0])
        assert x_at_3 < 0
    assert line_of_sight(a, b, walls)
    assert SightTable(walls)(a, b)


def test_hv_map_6_no_walls_means_los_everywhere():
    """HV-MAP-6: only walls block, so without walls every pair sees each other."""
    table = SightTable([False] * N_CELLS)
    assert all(table(a, b) for a in range(N_CELLS) for b in range(N_CELLS))


def test_hv_map_7_sight_table_matches_line_of_sight():
    """HV-MAP-7: SightTable on the Raider Camp map agrees with line_of_sight and with the fraction
    reference for every pair."""
    table = SightTable(RAIDER_CAMP)
    for a in range(N_CELLS):
        for b in range(N_CELLS):
            assert (
                table(a, b) == line_of_sight(a, b, RAIDER_CAMP) == reference_los(a, b, RAIDER_CAMP)
            )


@settings(max_examples=200, deadline=None)
@given(wall_maps, cells, cells)
def test_hv_map_7_los_is_symmetric(walls, a, b):
    """HV-MAP-7: LOS(a, b) == LOS(b, a) on random wall maps."""
    assert line_of_sight(a, b, walls) == line_of_sight(b, a, walls)


@settings(max_examples=200, deadline=None)
@given(wall_maps, cells, cells)
def test_hv_map_7_matches_exact_fraction_reference(walls, a, b):
    """HV-MAP-7: the integer cross-product test agrees with half-plane clipping in fractions."""
    assert line_of_sight(a, b, walls) == reference_los(a, b, walls)


@settings(max_examples=300, deadline=None)
@given(
    st.tuples(st.integers(-5, 5), st.integers(-6, 6)),
    st.tuples(st.integers(-5, 5), st.integers(-6, 6)),
    cells,
)
def test_hv_map_7_segment_test_matches_reference(p, q, cell):
    """HV-MAP-7.3: segment_meets_hexagon equals the clipping reference for arbitrary segments
    (including degenerate ones and ones through corners) near a hexagon."""
    x, y = centre(cell)
    p = (p[0] + x, p[1] + y)
    q = (q[0] + x, q[1] + y)
    assert segment_meets_hexagon(p, q, (x, y)) == (_clip(p, q, cell) is not None)


# --- HV-TW-1..4: thin walls -----------------------------------------------------------------------

ALL_EDGES = sorted({edge(a, b) for a in range(N_CELLS) for b in neighbours(a)})


def _crosses_exactly(p, q, w1, w2) -> bool:
    """Whether closed segments ``p q`` and ``w1 w2`` share a point, solved with fractions: the
    parameters ``s, t`` of ``p + s (q - p) = w1 + t (w2 - w1)`` in ``[0, 1]``, or, when the two
    are parallel, an overlap of their projections on a common line."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    ex, ey = w2[0] - w1[0], w2[1] - w1[1]
    if dx == dy == 0:  # a point (two cells' shared corner): on the wall's line, between its ends
        on_line = ex * (p[1] - w1[1]) - ey * (p[0] - w1[0]) == 0
        return on_line and min(w1, w2) <= p <= max(w1, w2)
    det = dx * -ey - dy * -ex
    rx, ry = w1[0] - p[0], w1[1] - p[1]
    if det != 0:
        s = Fraction(rx * -ey - ry * -ex, det)
        t = Fraction(dx * ry - dy * rx, det)
        return 0 <= s <= 1 and 0 <= t <= 1
    if dx * ry - dy * rx != 0:  # parallel, not on one line
        return False
    length = dx * dx + dy * dy
    ends = sorted(Fraction((w[0] - p[0]) * dx + (w[1] - p[1]) * dy, length) for w in (w1, w2))
    return ends[0] <= 1 and ends[1] >= 0


def _shared_edge(a: int, b: int):
    """The side two neighbours share: the corners both cells list (HV-MAP-7.2)."""
    return [p for p in corners(a) if p in corners(b)]


def reference_los_thin(a: int, b: int, walls: list[bool], thin: set) -> bool:
    """HV-MAP-7 with HV-TW-3/4, exact: adjacency needs no thin wall between; each thin wall is a
    closed segment that blocks on touching."""
    if a == b or (adjacent(a, b, walls) and edge(a, b) not in thin):
        return True
    wall_cells = [w for w in range(N_CELLS) if walls[w]]
    segments = [_shared_edge(*t) for t in thin]
    return any(
        not any(_meets(p, q, w, True) for w in wall_cells)
        and not any(_crosses_exactly(p, q, *s) for s in segments)
        for p in corners(a)
        for q in corners(b)
    )


def reference_range_thin(a: int, walls: list[bool], thin: set) -> list[int | None]:
    """HV-MAP-5 with HV-TW-3: breadth-first over non-wall cells, never across a thin wall."""
    dist: list[int | None] = [None] * N_CELLS
    if walls[a]:
        return dist
    dist[a] = 0
    queue = deque([a])
    while queue:
        c = queue.popleft()
        for n in neighbours(c):
            if dist[n] is None and not walls[n] and edge(c, n) not in thin:
                dist[n] = dist[c] + 1  # type: ignore[operator]
                queue.append(n)
    return dist


thin_sets = st.sets(st.sampled_from(ALL_EDGES), max_size=14)


def test_tw_1_a_thin_wall_is_the_side_its_cells_share():
    """HV-TW-1: (2,0)|(3,0) is the vertical side x = 5 from y = -1 to 1 of the rescaled plane;
    the edge is named the same from either cell."""
    assert wall_segment(edge(_c(3, 0), _c(2, 0))) == ((5, -1), (5, 1))
    assert edge(_c(3, 0), _c(2, 0)) == edge(_c(2, 0), _c(3, 0)) == (_c(2, 0), _c(3, 0))
    assert all(len(_shared_edge(*e)) == 2 for e in ALL_EDGES)


def test_tw_2_open_neighbours_leave_out_the_walled_side_only():
    """HV-TW-2: a thin wall removes one neighbour from each of its two cells, nothing else."""
    thin = {edge(_c(4, 2), _c(4, 3))}
    assert open_neighbours(_c(4, 2), thin) == (_c(3, 2), _c(5, 2), _c(3, 1), _c(4, 1), _c(3, 3))
    assert _c(4, 2) not in open_neighbours(_c(4, 3), thin)
    assert open_neighbours(_c(0, 0), thin) == neighbours(_c(0, 0))


def test_tw_4_no_sight_from_the_corner_at_a_thin_walls_tip():
    """HV-TW-4 (BoardGameGeek image 3932321): the wall (2,0)|(3,0) ends at (5, 1), the top corner
    of (2,1). Every line from that corner touches the wall, so only (2,1)'s other corners can
    give it sight: its sight to every cell is the exact reference's, which drops that corner."""
    tip = (5, 1)
    assert tip in corners(_c(2, 1)) and tip in wall_segment(edge(_c(2, 0), _c(3, 0)))
    thin = {edge(_c(2, 0), _c(3, 0))}
    walls = [False] * N_CELLS
    for b in range(N_CELLS):
        if b != _c(2, 1):
            expected = reference_los_thin(_c(2, 1), b, walls, thin)
            assert line_of_sight(_c(2, 1), b, walls, thin_walls=thin) is expected
    assert _crosses_exactly(tip, (9, 9), *wall_segment(edge(_c(2, 0), _c(3, 0))))


@settings(max_examples=200, deadline=None)
@given(wall_maps, thin_sets, cells, cells)
def test_tw_4_line_of_sight_with_thin_walls_matches_the_exact_reference(walls, thin, a, b):
    """HV-TW-4: the integer test equals the fractions' reference on random walls and thin
    walls (a thin wall beside a wall hex is allowed here: the geometry does not care)."""
    assert line_of_sight(a, b, walls, thin_walls=thin) is reference_los_thin(a, b, walls, thin)


@settings(max_examples=25, deadline=None)
@given(wall_maps, thin_sets)
def test_tw_3_range_and_adjacency_with_thin_walls_match_the_reference(walls, thin):
    """HV-TW-3: range distances and adjacency go round thin walls, as the reference's BFS."""
    table = RangeTable(walls, thin_walls=thin)
    for a in range(N_CELLS):
        assert list(table.rows[a]) == reference_range_thin(a, walls, thin)
        for b in neighbours(a):
            assert adjacent(a, b, walls, thin_walls=thin) is (table.rows[a][b] == 1)


def test_tw_4_the_sight_table_holds_thin_walls():
    """HV-TW-4: :class:`SightTable` with thin walls is :func:`line_of_sight` for every pair."""
    walls = _walls((6, 2), (6, 3))
    line = [
        ((2, 1), (3, 1)),
        ((2, 1), (3, 2)),
        ((2, 2), (3, 2)),
        ((2, 3), (3, 2)),
        ((2, 3), (3, 3)),
    ]
    thin = {edge(_c(*a), _c(*b)) for a, b in line}
    table = SightTable(walls, thin_walls=thin)
    assert all(
        table(a, b) is line_of_sight(a, b, walls, thin_walls=thin)
        for a in range(N_CELLS)
        for b in range(N_CELLS)
    )
    assert table(_c(2, 2), _c(3, 2)) is False
