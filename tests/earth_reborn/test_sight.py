"""Tests of fire arcs, line of sight and range (ER-LOS-3..8, ER-SHOOT-8, TC-09).

Boards are built by a small local parser of the ER-SCN-1 ASCII format, so these tests do not depend
on the scenario loader.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reborn_env.games.earth_reborn.rules.sight import (
    ORANGE,
    RED,
    WHITE,
    fire_arc,
    has_line_of_sight,
    range_to,
)
from reborn_env.games.earth_reborn.scenario.model import (
    DX,
    DY,
    MAGNETIC_SLIDING,
    MAGNETIC_WOODEN,
    OPEN_EDGE,
    SLIDING,
    WALL,
    WOODEN,
    Board,
    Door,
    E,
    N,
    S,
    W,
)

# ER-SCN-1, copied from the spec.
VAULT_RAID = """\
+-+-+-+-+-+-+-+-+-+
|. .|X|. 1 .|X|. .|
+ + +-+ + + +-+ + +
|. .|X|. . .|X|. S|
+ + +-+-+m+-+-+ + +
|N .w. . . . .w. .|
+ + + + + + + + + +
|. . . . . . .s. S|
+ + + + + + + + + +
|N .|. . . . .|. .|
+ + +-+-+k+-+-+ + +
|. .|X|. . .|X|. S|
+ + +-+ + + +-+ + +
|. .|X|. 2 .|X|C .|
+-+-+-+-+-+-+-+-+-+
"""

# ER-SCN-3 defensive values by door kind.
DOOR_CHARS = {
    "s": (SLIDING, 5),
    "w": (WOODEN, 4),
    "m": (MAGNETIC_SLIDING, 7),
    "k": (MAGNETIC_WOODEN, 6),
}


def parse_map(text: str) -> Board:
    """ER-SCN-1: an ASCII map to a Board; door ids in reading order (row by row, then column)."""
    rows = text.splitlines()
    width, height = (len(rows[0]) - 1) // 2, (len(rows) - 1) // 2
    void = tuple(rows[2 * y + 1][2 * x + 1] == "X" for y in range(height) for x in range(width))
    doors: list[Door] = []
    door_at: dict[tuple[int, int], int] = {}  # (row, col) of the edge character -> door id
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch in DOOR_CHARS:
                if r % 2 == 1:  # between (x, y) and (x + 1, y)
                    a = (r // 2) * width + (c // 2 - 1)
                    b = a + 1
                else:  # between (x, y) and (x, y + 1)
                    a = (r // 2 - 1) * width + c // 2
                    b = a + width
                kind, defense = DOOR_CHARS[ch]
                door_at[(r, c)] = len(doors)
                doors.append(Door(id=len(doors), kind=kind, a=a, b=b, defense=defense))
    edges = []
    neighbors = []
    for y in range(height):
        for x in range(width):
            sq_edges = []
            sq_neighbors = []
            for d in (N, E, S, W):
                nx, ny = x + DX[d], y + DY[d]
                if not (0 <= nx < width and 0 <= ny < height):
                    sq_neighbors.append(-1)
                    sq_edges.append(WALL)
                    continue
                sq_neighbors.append(ny * width + nx)
                r, c = 2 * y + 1 + DY[d], 2 * x + 1 + DX[d]
                ch = rows[r][c]
                if void[y * width + x] or void[ny * width + nx] or ch in "|-":
                    sq_edges.append(WALL)
                elif ch in DOOR_CHARS:
                    sq_edges.append(door_at[(r, c)])
                else:
                    assert ch == " ", (r, c, ch)
                    sq_edges.append(OPEN_EDGE)
            edges.append(tuple(sq_edges))
            neighbors.append(tuple(sq_neighbors))
    return Board(
        width=width,
        height=height,
        void=void,
        edge=tuple(edges),
        neighbor=tuple(neighbors),
        doors=tuple(doors),
    )


def open_map(width: int, height: int) -> str:
    """An ER-SCN-1 map of ``width`` x ``height`` floor squares with no inner walls."""
    border = "+" + "-+" * width
    inner = "+" + " +" * width
    floor = "|" + ". " * (width - 1) + ".|"
    return "\n".join([border] + [floor, inner] * (height - 1) + [floor, border]) + "\n"


BOARD = parse_map(VAULT_RAID)
OPEN = parse_map(open_map(9, 7))


def sq(x: int, y: int, board: Board = BOARD) -> int:
    return board.square(x, y)


def door_between(a: tuple[int, int], b: tuple[int, int], board: Board = BOARD) -> int:
    """The id of the door on the edge between squares ``a`` and ``b``."""
    pair = {sq(*a, board), sq(*b, board)}
    return next(d.id for d in board.doors if {d.a, d.b} == pair)


def occupied_at(*squares: tuple[int, int], board: Board = BOARD) -> list[bool]:
    occ = [False] * (board.width * board.height)
    for x, y in squares:
        occ[sq(x, y, board)] = True
    return occ


def doors_closed(board: Board = BOARD, opened: tuple[int, ...] = ()) -> list[bool]:
    """ER-SCN-2: all doors start closed; ``opened`` lists door ids that are open."""
    return [d.id not in opened for d in board.doors]


def los(
    a: tuple[int, int],
    facing: int,
    b: tuple[int, int],
    figures: tuple[tuple[int, int], ...] = (),
    opened: tuple[int, ...] = (),
    board: Board = BOARD,
) -> bool:
    return has_line_of_sight(
        board,
        sq(*a, board),
        facing,
        sq(*b, board),
        occupied_at(*figures, board=board),
        doors_closed(board, opened),
    )


# --- the local parser itself (ER-SCN-1, ER-SCN-2) ---------------------------------------------


def test_parser_reads_vault_raid_as_er_scn_2_lists() -> None:
    """ER-SCN-2: 9 x 7, 55 floor squares, the five listed doors of the listed kinds."""
    assert (BOARD.width, BOARD.height) == (9, 7)
    assert BOARD.void.count(False) == 55
    kinds = {
        ((1, 2), (2, 2)): WOODEN,
        ((4, 1), (4, 2)): MAGNETIC_SLIDING,
        ((6, 2), (7, 2)): WOODEN,
        ((6, 3), (7, 3)): SLIDING,
        ((4, 4), (4, 5)): MAGNETIC_WOODEN,
    }
    assert len(BOARD.doors) == 5
    for (a, b), kind in kinds.items():
        assert BOARD.doors[door_between(a, b)].kind == kind
    assert BOARD.edge[sq(1, 3)][E] == OPEN_EDGE  # the open gap corridor-hall
    assert BOARD.edge[sq(1, 4)][E] == WALL


# --- ER-LOS-3: fire arcs ------------------------------------------------------------------------

# (fwd, lat, arc) relative to the facing; lat > 0 is to the facing's right.
ARC_CASES = [
    (1, 0, RED),
    (3, 0, RED),
    (1, 1, RED),  # |lat| == fwd: boundary counts as red
    (1, -1, RED),
    (2, 2, RED),
    (3, -3, RED),
    (2, -1, RED),
    (1, 2, ORANGE),  # fwd >= 1 but |lat| > fwd
    (1, -3, ORANGE),
    (2, 3, ORANGE),
    (0, 1, ORANGE),  # fwd == 0: beside the figure
    (0, -4, ORANGE),
    (-1, 0, WHITE),
    (-1, 1, WHITE),
    (-2, -3, WHITE),
    (-3, 0, WHITE),
    (0, 0, WHITE),  # own square: never a target
]


@pytest.mark.parametrize("facing", [N, E, S, W])
@pytest.mark.parametrize(("fwd", "lat", "arc"), ARC_CASES)
def test_er_los_3_fire_arc_every_facing(facing: int, fwd: int, lat: int, arc: int) -> None:
    """ER-LOS-3: red if fwd >= 1 and |lat| <= fwd, orange if else fwd >= 0, white behind / own."""
    right = (facing + 1) % 4
    dx = fwd * DX[facing] + lat * DX[right]
    dy = fwd * DY[facing] + lat * DY[right]
    shooter = (4, 4)
    board = parse_map(open_map(9, 9))
    target = sq(shooter[0] + dx, shooter[1] + dy, board)
    assert fire_arc(board, sq(*shooter, board), facing, target) == arc


def test_er_los_3_right_is_clockwise() -> None:
    """Section 0.4: facing E, the right is S (y grows south), so (1, 2) east of the figure is
    orange and (2, 1) is red."""
    assert fire_arc(OPEN, sq(0, 0, OPEN), E, sq(1, 2, OPEN)) == ORANGE
    assert fire_arc(OPEN, sq(0, 0, OPEN), E, sq(2, 1, OPEN)) == RED
    assert fire_arc(OPEN, sq(0, 0, OPEN), S, sq(1, 2, OPEN)) == RED


def test_er_los_3_arcs_ignore_walls() -> None:
    """ER-LOS-3 is geometry only: a target behind a wall still has an arc (LoS is separate)."""
    assert fire_arc(BOARD, sq(3, 2), N, sq(3, 0)) == RED
    assert not los((3, 2), N, (3, 0))


# --- TC-09 --------------------------------------------------------------------------------------

TC09_OTHERS = ((8, 3), (8, 1), (0, 5))  # jack_saw, deeler, vasquez in the base position


def test_tc_09a_base_case_red_range_5_visible() -> None:
    """TC-09 (a), ER-LOS-8, ER-SHOOT-8: bolter (0,3) E sees zombie (5,3) in red at range 5."""
    assert fire_arc(BOARD, sq(0, 3), E, sq(5, 3)) == RED
    assert range_to(BOARD, sq(0, 3), sq(5, 3)) == 5
    assert los((0, 3), E, (5, 3), figures=(*TC09_OTHERS, (0, 3), (5, 3)))


def test_tc_09c_white_and_orange_arcs() -> None:
    """TC-09 (c), ER-LOS-3/4: bolter (3,3) facing E: zombie at (1,3) is white (no LoS); facing N:
    orange (ER-SHOOT-8 then uses the orange damage dice) and in LoS."""
    figures = (*TC09_OTHERS, (3, 3), (1, 3))
    assert fire_arc(BOARD, sq(3, 3), E, sq(1, 3)) == WHITE
    assert not los((3, 3), E, (1, 3), figures=figures)
    assert fire_arc(BOARD, sq(3, 3), N, sq(1, 3)) == ORANGE
    assert los((3, 3), N, (1, 3), figures=figures)


def test_tc_09d_blocking_figure() -> None:
    """TC-09 (d), ER-LOS-5: deeler at (3,3) blocks bolter (0,3) -> zombie (5,3); deeler is seen."""
    figures = ((0, 3), (5, 3), (3, 3), (8, 3), (0, 5))
    assert not los((0, 3), E, (5, 3), figures=figures)
    assert los((0, 3), E, (3, 3), figures=figures)


def test_tc_09e_closed_wooden_door() -> None:
    """TC-09 (e), ER-LOS-5: from (0,2) facing E the segment to (5,3) crosses the wooden door
    (1,2)|(2,2): closed blocks, open (or destroyed, also False) does not."""
    figures = (*TC09_OTHERS, (0, 2), (5, 3))
    door = door_between((1, 2), (2, 2))
    assert fire_arc(BOARD, sq(0, 2), E, sq(5, 3)) == RED
    assert not los((0, 2), E, (5, 3), figures=figures)
    assert los((0, 2), E, (5, 3), figures=figures, opened=(door,))


def test_tc_09f_corner_rule() -> None:
    """TC-09 (f), ER-LOS-6: vasquez (2,2) E -> zombie (4,4) passes the corner of (2,2) and (3,3).
    Both side squares (3,2), (2,3) occupied: blocked; only (3,2): visible, red, range 4."""
    assert not los((2, 2), E, (4, 4), figures=((2, 2), (4, 4), (3, 2), (2, 3)))
    assert fire_arc(BOARD, sq(2, 2), E, sq(2, 3)) == ORANGE  # deeler is the offered target then
    assert los((2, 2), E, (2, 3), figures=((2, 2), (4, 4), (3, 2), (2, 3)))
    assert los((2, 2), E, (4, 4), figures=((2, 2), (4, 4), (3, 2), (8, 1)))
    assert fire_arc(BOARD, sq(2, 2), E, sq(4, 4)) == RED
    assert range_to(BOARD, sq(2, 2), sq(4, 4)) == 4


def test_tc_09g_range() -> None:
    """TC-09 (g), ER-LOS-8: deeler (6,3) W sees vasquez (2,3) at range 4 along the empty row."""
    assert range_to(BOARD, sq(6, 3), sq(2, 3)) == 4
    assert los((6, 3), W, (2, 3), figures=((6, 3), (2, 3)))


# --- ER-LOS-4..7: blocking ----------------------------------------------------------------------


def test_er_los_4_white_never_in_los() -> None:
    """ER-LOS-4: an open, empty line does not help a target behind the figure."""
    assert los((2, 3), E, (6, 3))
    assert not los((2, 3), W, (6, 3))
    assert not los((2, 3), E, (2, 3))  # own square


def test_er_los_5_vault_walls_block() -> None:
    """ER-LOS-5: the vault's walls block from the hall and from the corridor."""
    assert not los((3, 3), N, (3, 0))
    assert not los((5, 4), N, (5, 1))
    assert not los((1, 0), E, (3, 0))  # wall and void (2,0) between
    assert not los((0, 1), E, (4, 0))
    assert not los((4, 6), N, (4, 0))  # store to vault: two doors and the hall
    assert los((3, 0), E, (5, 1))  # inside the vault


def test_er_los_5_open_and_closed_doors() -> None:
    """ER-LOS-5: a closed door blocks like a wall; open or destroyed (False) does not."""
    mag = door_between((4, 1), (4, 2))
    assert not los((4, 3), N, (4, 0))
    assert los((4, 3), N, (4, 0), opened=(mag,))
    sliding = door_between((6, 3), (7, 3))
    assert not los((0, 3), E, (8, 3))
    assert los((0, 3), E, (8, 3), opened=(sliding,))
    # Other doors' states do not matter for this line.
    others = tuple(d.id for d in BOARD.doors if d.id != sliding)
    assert not los((0, 3), E, (8, 3), opened=others)
    # Store door (magnetic wooden) seen from across the hall.
    store = door_between((4, 4), (4, 5))
    assert not los((4, 2), S, (4, 6))
    assert los((4, 2), S, (4, 6), opened=(store,))


def test_er_los_5_figures_block_only_between() -> None:
    """ER-LOS-5: figures on the shooter's or target's own square never block; one between does."""
    assert los((2, 3), E, (6, 3), figures=((2, 3), (6, 3)))
    assert not los((2, 3), E, (6, 3), figures=((4, 3),))
    assert los((2, 3), E, (6, 3), figures=((4, 2), (4, 4)))


def test_er_los_5_void_blocks_without_walls() -> None:
    """ER-LOS-5: a void square blocks even if its edges were (impossibly) open, on a straight line
    and as a corner side square (ER-LOS-6)."""
    board = parse_map(open_map(5, 5))
    void = list(board.void)
    void[sq(2, 2, board)] = True
    holed = dataclasses.replace(board, void=tuple(void))
    assert los((0, 2), E, (4, 2), board=board)
    assert not los((0, 2), E, (4, 2), board=holed)
    # Through the corner of (1,1) and (2,2) into the void (2,2) itself.
    assert not los((1, 1), S, (3, 3), board=holed)
    # Corner of (1,2) and (2,3): side squares (2,2) void and (1,3); block (1,3) too.
    assert los((1, 2), S, (3, 4), figures=((1, 3),), board=board)
    assert not los((1, 2), S, (3, 4), figures=((1, 3),), board=holed)
    assert los((1, 2), S, (3, 4), board=holed)


def test_er_los_6_corner_ways_around() -> None:
    """ER-LOS-6: a corner is blocked only if both ways around are; a way is blocked by a figure on
    its side square or a wall/closed door on either of its two edges."""
    open_board = OPEN
    assert los((0, 0), E, (2, 2), board=open_board)
    assert los((0, 0), E, (2, 2), figures=((1, 0),), board=open_board)
    assert los((0, 0), E, (2, 2), figures=((0, 1),), board=open_board)
    assert not los((0, 0), E, (2, 2), figures=((1, 0), (0, 1)), board=open_board)
    # The square diagonally passed through blocks (it is not only touched).
    assert not los((0, 0), E, (2, 2), figures=((1, 1),), board=open_board)
    # (2,2) -> (0,4) passes the corner of (2,2) and (1,3): the way via (1,2) crosses the closed
    # wooden door, the way via (2,3) is open unless a figure stands there.
    assert los((2, 2), S, (0, 4))
    assert not los((2, 2), S, (0, 4), figures=((2, 3),))
    door = door_between((1, 2), (2, 2))
    assert los((2, 2), S, (0, 4), figures=((2, 3),), opened=(door,))
    assert not los((2, 2), S, (0, 4), figures=((2, 3), (1, 2)), opened=(door,))


def test_er_los_6_corner_on_a_shallow_line() -> None:
    """ER-LOS-6/7: offset (3,1) meets a corner midway, between (1,0) and (2,1); the squares only
    touched there, (2,0) and (1,1), block only together."""
    a, b = (0, 0), (3, 1)
    assert los(a, E, b, board=OPEN)
    assert los(a, E, b, figures=((2, 0),), board=OPEN)
    assert los(a, E, b, figures=((1, 1),), board=OPEN)
    assert not los(a, E, b, figures=((2, 0), (1, 1)), board=OPEN)
    assert not los(a, E, b, figures=((1, 0),), board=OPEN)
    assert not los(a, E, b, figures=((2, 1),), board=OPEN)


def test_er_los_7_exact_near_corner() -> None:
    """ER-LOS-7: a line passing very close to, but not through, a corner is not a corner passage.
    Offset (7,6) from (0,0): first crossings at t = 1/14 (x) and 1/12 (y), so (1,0) is entered,
    not passed by; a figure there blocks."""
    board = parse_map(open_map(9, 7))
    assert los((0, 0), E, (7, 6), board=board)
    assert not los((0, 0), E, (7, 6), figures=((1, 0),), board=board)
    assert los((0, 0), E, (7, 6), figures=((0, 1),), board=board)


def test_er_los_8_range() -> None:
    """ER-LOS-8: |dx| + |dy|, walls ignored, own square 0."""
    assert range_to(BOARD, sq(0, 0), sq(8, 6)) == 14
    assert range_to(BOARD, sq(3, 0), sq(3, 6)) == 6
    assert range_to(BOARD, sq(5, 5), sq(5, 5)) == 0
    assert range_to(BOARD, sq(6, 1), sq(2, 4)) == 7


# --- property tests against an independent reference walk -------------------------------------


def reference_clear(board: Board, a: int, b: int, occupied: list[bool], closed: list[bool]) -> bool:
    """ER-LOS-5..7 by brute force: all crossing times as Fractions, grouped, with the squares read
    off the segment's midpoints between consecutive crossings."""
    (x0, y0), (x1, y1) = board.xy(a), board.xy(b)
    dx, dy = x1 - x0, y1 - y0
    half = Fraction(1, 2)
    kinds: dict[Fraction, set[str]] = {}
    for gx in range(min(x0, x1) + 1, max(x0, x1) + 1):
        kinds.setdefault((gx - x0 - half) / dx, set()).add("x")
    for gy in range(min(y0, y1) + 1, max(y0, y1) + 1):
        kinds.setdefault((gy - y0 - half) / dy, set()).add("y")
    times = sorted(kinds)
    bounds = [Fraction(0), *times, Fraction(1)]

    def square_at(i: int) -> tuple[int, int]:
        m = (bounds[i] + bounds[i + 1]) / 2
        return int(x0 + half + m * dx), int(y0 + half + m * dy)  # coordinates are positive

    def edge_blocked(p: tuple[int, int], q: tuple[int, int]) -> bool:
        d = next(d for d in (N, E, S, W) if (p[0] + DX[d], p[1] + DY[d]) == q)
        e = board.edge[board.square(*p)][d]
        return e == WALL or (e >= 0 and closed[e])

    def blocks(s: tuple[int, int]) -> bool:
        i = board.square(*s)
        return board.void[i] or occupied[i]

    for i, t in enumerate(times):
        p, q = square_at(i), square_at(i + 1)
        if kinds[t] == {"x", "y"}:
            ways = [(q[0], p[1]), (p[0], q[1])]
            if all(blocks(s) or edge_blocked(p, s) or edge_blocked(s, q) for s in ways):
                return False
        elif edge_blocked(p, q):
            return False
        if board.square(*q) != b and blocks(q):
            return False
    return True


def facing_towards(board: Board, a: int, b: int) -> int:
    """A facing that puts ``b`` in ``a``'s red arc (along the larger offset component)."""
    (x0, y0), (x1, y1) = board.xy(a), board.xy(b)
    dx, dy = x1 - x0, y1 - y0
    if abs(dx) >= abs(dy):
        return E if dx > 0 else W
    return S if dy > 0 else N


@st.composite
def random_position(draw: st.DrawFn) -> tuple[Board, int, int, list[bool], list[bool]]:
    """A random ER-SCN-1 map (void squares, walls, doors) with random figures and door states."""
    width = draw(st.integers(1, 9))
    height = draw(st.integers(1, 7))
    rows = ["+" + "-+" * width]
    for y in range(height):
        row = "|"
        for x in range(width):
            row += draw(st.sampled_from(".....X"))
            if x < width - 1:
                row += draw(st.sampled_from("      |ws"))
        rows.append(row + "|")
        if y < height - 1:
            rows.append("+" + "".join(draw(st.sampled_from("    -mk")) + "+" for _ in range(width)))
    rows.append(rows[0])
    board = parse_map("\n".join(rows) + "\n")
    n = width * height
    a = draw(st.integers(0, n - 1))
    b = draw(st.integers(0, n - 1).filter(lambda s: s != a))
    occupied = draw(st.lists(st.integers(0, 3).map(lambda k: k == 0), min_size=n, max_size=n))
    closed = draw(st.lists(st.booleans(), min_size=len(board.doors), max_size=len(board.doors)))
    return board, a, b, occupied, closed


@settings(max_examples=400, deadline=None)
@given(random_position())
def test_er_los_5_symmetric_and_matches_reference(
    position: tuple[Board, int, int, list[bool], list[bool]],
) -> None:
    """ER-LOS-5..7: with each figure facing the other, LoS A->B equals B->A and equals a brute-force
    Fraction walk of the segment."""
    board, a, b, occupied, closed = position
    forward = has_line_of_sight(board, a, facing_towards(board, a, b), b, occupied, closed)
    backward = has_line_of_sight(board, b, facing_towards(board, b, a), a, occupied, closed)
    assert forward == backward
    assert forward == reference_clear(board, a, b, occupied, closed)


@settings(max_examples=200, deadline=None)
@given(random_position(), st.integers(0, 3))
def test_er_los_4_white_arc_never_seen(
    position: tuple[Board, int, int, list[bool], list[bool]], facing: int
) -> None:
    """ER-LOS-4: whatever the board, LoS implies the red or orange arc."""
    board, a, b, occupied, closed = position
    if has_line_of_sight(board, a, facing, b, occupied, closed):
        assert fire_arc(board, a, facing, b) in (RED, ORANGE)
