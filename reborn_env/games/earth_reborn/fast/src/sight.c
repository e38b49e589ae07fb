/* Fire arcs, line of sight and range on the square grid (rules/sight.py, ER-LOS-3..8).
 *
 * The segment walk is exact (ER-LOS-7): in units of half a square the shooter's centre is at odd
 * coordinates and grid lines at even ones, so the order of the i-th vertical and the j-th
 * horizontal crossing is decided by comparing (2i + 1) * |dy| with (2j + 1) * |dx|; equal means
 * the segment passes exactly through a corner (ER-LOS-6). Only integers are used.
 */
#include <stdlib.h>

#include "core.h"

static const int DX[4] = {0, 1, 0, -1};
static const int DY[4] = {-1, 0, 1, 0};

/* sight.fire_arc: ER-LOS-3, the fire arc (RED, ORANGE or WHITE) of to_sq seen from from_sq.
 * fwd is the offset's component along facing, lat along the facing's right; the boundary squares
 * |lat| == fwd count as red; the own square is WHITE (never a target). */
int er_fire_arc(const Scn *s, int from_sq, int facing, int to_sq)
{
    int w = s->width;
    int dx = to_sq % w - from_sq % w;
    int dy = to_sq / w - from_sq / w;
    int fwd = dx * DX[facing] + dy * DY[facing];
    if (fwd < 0 || (dx == 0 && dy == 0))
        return ER_WHITE;
    int right = (facing + 1) % 4;
    int lat = dx * DX[right] + dy * DY[right];
    if (fwd >= 1 && -fwd <= lat && lat <= fwd)
        return ER_RED;
    return ER_ORANGE;
}

/* sight.range_to: ER-LOS-8, squares counted orthogonally from a to b, |dx| + |dy|. */
int er_range_to(const Scn *s, int a, int b)
{
    int w = s->width;
    return abs(b % w - a % w) + abs(b / w - a / w);
}

/* An edge that stops sight: a wall or a closed door. */
static int blocks(int e, const uint8_t *door_closed)
{
    return e == ER_WALL || (e >= 0 && door_closed[e]);
}

/* sight.has_line_of_sight: ER-LOS-4..7, whether a figure on from_sq facing facing sees to_sq.
 * occupied[sq] is 1 where a living figure stands (the shooter's and the target's squares are
 * never looked at); door_closed[door] is 1 for a closed door. The target must be in the arc of
 * sight (red or orange); then the segment between the square centres must cross no wall or closed
 * door and pass through no void or occupied square other than the target. A corner passage is
 * blocked only if both ways around are (ER-LOS-6). */
int er_has_line_of_sight(const Scn *s, int from_sq, int facing, int to_sq, const uint8_t *occupied,
                         const uint8_t *door_closed)
{
    if (er_fire_arc(s, from_sq, facing, to_sq) == ER_WHITE)
        return 0;
    int w = s->width;
    int dx = to_sq % w - from_sq % w;
    int dy = to_sq / w - from_sq / w;
    int dir_x, step_x, nx, dir_y, step_y, ny;
    if (dx >= 0) {
        dir_x = ER_E, step_x = 1, nx = dx;
    } else {
        dir_x = ER_W, step_x = -1, nx = -dx;
    }
    if (dy >= 0) {
        dir_y = ER_S, step_y = w, ny = dy;
    } else {
        dir_y = ER_N, step_y = -w, ny = -dy;
    }
    int ix = 0, iy = 0, sq = from_sq;
    while (ix < nx || iy < ny) {
        /* Sign of t(next vertical crossing) - t(next horizontal crossing), cross-multiplied. */
        int c = (2 * ix + 1) * ny - (2 * iy + 1) * nx;
        int e;
        if (c < 0) {
            e = s->edge[sq][dir_x];
            ix++;
            sq += step_x;
        } else if (c > 0) {
            e = s->edge[sq][dir_y];
            iy++;
            sq += step_y;
        } else {
            /* Corner between sq and its diagonal neighbour (ER-LOS-6): go around via either
             * side square; both sides are on the map since sq and the diagonal neighbour are. */
            if (er_way_blocked(s, sq, sq + step_x, dir_x, dir_y, occupied, door_closed) &&
                er_way_blocked(s, sq, sq + step_y, dir_y, dir_x, occupied, door_closed))
                return 0;
            e = ER_OPEN_EDGE;
            ix++;
            iy++;
            sq += step_x + step_y;
        }
        if (blocks(e, door_closed))
            return 0;
        if (sq != to_sq && (s->void_[sq] || occupied[sq]))
            return 0;
    }
    return 1;
}

/* sight._way_blocked: ER-LOS-6, whether the way from p around a corner through square side is
 * blocked; to_side is the direction from p to side, side_to_q the direction from side on to p's
 * diagonal neighbour. */
int er_way_blocked(const Scn *s, int p, int side, int to_side, int side_to_q,
                   const uint8_t *occupied, const uint8_t *door_closed)
{
    if (s->void_[side] || occupied[side])
        return 1;
    return blocks(s->edge[p][to_side], door_closed) || blocks(s->edge[side][side_to_q], door_closed);
}
