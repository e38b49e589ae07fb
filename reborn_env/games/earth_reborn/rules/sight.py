"""Fire arcs, line of sight and range on the square grid (ER-LOS-3..8).

Shooting (ER-SHOOT-2, ER-SHOOT-8) needs three geometric facts about a shooter and a target square:
which fire arc the target is in, whether the segment between the two square centres is clear, and
the orthogonal range. They are computed here from the :class:`Board` alone plus two per-call
sequences (which squares hold a living figure, which doors are closed), so the rules engine can ask
them inside legal-move generation without building any state.

The segment walk is exact (ER-LOS-7): in units of half a square the shooter's centre is at odd
coordinates and grid lines at even ones, so the order of the i-th vertical and the j-th horizontal
crossing is decided by comparing ``(2i + 1) * |dy|`` with ``(2j + 1) * |dx|``; equal means the
segment passes exactly through a corner (ER-LOS-6). Only integers are used.
"""

from __future__ import annotations

from collections.abc import Sequence

from reborn_env.games.earth_reborn.scenario.model import DX, DY, OPEN_EDGE, WALL, Board, E, N, S, W

# Fire arcs (ER-LOS-1, ER-LOS-3).
RED, ORANGE, WHITE = 0, 1, 2


def fire_arc(board: Board, from_sq: int, facing: int, to_sq: int) -> int:
    """ER-LOS-3: the fire arc (RED, ORANGE or WHITE) of ``to_sq`` seen from ``from_sq``.

    ``fwd`` is the offset's component along ``facing``, ``lat`` along the facing's right. The
    boundary squares ``|lat| == fwd`` count as red; the own square is WHITE (never a target).
    """
    w = board.width
    dx = to_sq % w - from_sq % w
    dy = to_sq // w - from_sq // w
    fwd = dx * DX[facing] + dy * DY[facing]
    if fwd < 0 or (dx == 0 and dy == 0):
        return WHITE
    right = (facing + 1) % 4
    lat = dx * DX[right] + dy * DY[right]
    if fwd >= 1 and -fwd <= lat <= fwd:
        return RED
    return ORANGE


def range_to(board: Board, a: int, b: int) -> int:
    """ER-LOS-8: squares counted orthogonally from ``a`` to ``b``, ``|dx| + |dy|``."""
    w = board.width
    return abs(b % w - a % w) + abs(b // w - a // w)


def has_line_of_sight(
    board: Board,
    from_sq: int,
    facing: int,
    to_sq: int,
    occupied: Sequence[bool],
    door_closed: Sequence[bool],
) -> bool:
    """ER-LOS-4..7: whether a figure on ``from_sq`` facing ``facing`` sees ``to_sq``.

    ``occupied[sq]`` is True where a living figure stands (the shooter's and the target's squares
    are never looked at); ``door_closed[door_id]`` is True for a closed door (open or destroyed:
    False). The target must be in the arc of sight (red or orange); then the segment between the
    square centres must cross no wall or closed door and pass through no void or occupied square
    other than the target. A corner passage is blocked only if both ways around are (ER-LOS-6).
    """
    if fire_arc(board, from_sq, facing, to_sq) == WHITE:
        return False
    w = board.width
    dx = to_sq % w - from_sq % w
    dy = to_sq // w - from_sq // w
    # Direction index and square-index step of a crossing in x and in y.
    if dx >= 0:
        dir_x, step_x, nx = E, 1, dx
    else:
        dir_x, step_x, nx = W, -1, -dx
    if dy >= 0:
        dir_y, step_y, ny = S, w, dy
    else:
        dir_y, step_y, ny = N, -w, -dy
    edge = board.edge
    void = board.void
    ix = iy = 0
    sq = from_sq
    while ix < nx or iy < ny:
        # Sign of t(next vertical crossing) - t(next horizontal crossing), cross-multiplied.
        c = (2 * ix + 1) * ny - (2 * iy + 1) * nx
        if c < 0:
            e = edge[sq][dir_x]
            ix += 1
            sq += step_x
        elif c > 0:
            e = edge[sq][dir_y]
            iy += 1
            sq += step_y
        else:
            # Corner between sq and its diagonal neighbour (ER-LOS-6): go around via either side
            # square; both sides are on the map since sq and the diagonal neighbour are.
            if _way_blocked(
                board, sq, sq + step_x, dir_x, dir_y, occupied, door_closed
            ) and _way_blocked(board, sq, sq + step_y, dir_y, dir_x, occupied, door_closed):
                return False
            e = OPEN_EDGE
            ix += 1
            iy += 1
            sq += step_x + step_y
        if e == WALL or (e >= 0 and door_closed[e]):
            return False
        if sq != to_sq and (void[sq] or occupied[sq]):
            return False
    return True


def _way_blocked(
    board: Board,
    p: int,
    side: int,
    to_side: int,
    side_to_q: int,
    occupied: Sequence[bool],
    door_closed: Sequence[bool],
) -> bool:
    """ER-LOS-6: whether the way from ``p`` around a corner through square ``side`` is blocked.

    ``to_side`` is the direction from ``p`` to ``side``; ``side_to_q`` the direction from ``side``
    on to ``p``'s diagonal neighbour.
    """
    if board.void[side] or occupied[side]:
        return True
    e1 = board.edge[p][to_side]
    e2 = board.edge[side][side_to_q]
    return (
        e1 == WALL or (e1 >= 0 and door_closed[e1]) or e2 == WALL or (e2 >= 0 and door_closed[e2])
    )
