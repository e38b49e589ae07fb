/* Adjacency through edges and close-combat arcs on the square grid (rules/geometry.py, ER-MOV-3,
 * ER-LOS-2). */
#include <string.h>

#include "core.h"

/* geometry.step_target: ER-MOV-3, the square adjacent across edge d (no wall, no closed door),
 * else -1. */
int er_step_target(const Game *g, const Scn *s, int square, int d)
{
    int e = s->edge[square][d];
    if (e == ER_WALL || (e != ER_OPEN_EDGE && g->doors[e] == ER_CLOSED))
        return -1;
    return s->neighbor[square][d];
}

/* geometry.closed_door: the id of a closed, intact door on edge d of square, else -1
 * (ER-DOOR-2). */
int er_closed_door(const Game *g, const Scn *s, int square, int d)
{
    int e = s->edge[square][d];
    return e >= 0 && g->doors[e] == ER_CLOSED ? e : -1;
}

/* geometry.arc_colour: ER-LOS-2, colour of the close-combat arc on side d of c (relative to its
 * facing). */
int er_arc_colour(const Game *g, const Scn *s, int c, int d)
{
    return s->chars[c].arcs[((d - g->chars[c].facing) % 4 + 4) % 4];
}

/* geometry.occupied_squares: squares holding a living figure (they block LoS, ER-LOS-5). */
void er_occupied_squares(const Game *g, const Scn *s, uint8_t occ[ER_MAX_SQUARES])
{
    memset(occ, 0, (size_t)s->n_squares);
    for (int c = 0; c < s->n_chars; c++)
        if (!g->chars[c].dead)
            occ[g->chars[c].square] = 1;
}

/* geometry.closed_doors: per door, closed (blocks movement and LoS, ER-DOOR-8). */
void er_closed_doors(const Game *g, const Scn *s, uint8_t closed[ER_MAX_DOORS])
{
    for (int d = 0; d < s->n_doors; d++)
        closed[d] = g->doors[d] == ER_CLOSED;
}
