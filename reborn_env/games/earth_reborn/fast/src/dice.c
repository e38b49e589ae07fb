/* Yellow combat dice and black search dice (rules/dice.py, ER-DICE-1..5), rolled from the game's
 * one generator; injected faces first, per colour (ER-DICE-4). Face codes: colour * 6 + value - 1. */
#include <string.h>

#include "core.h"

/* ER-DICE-2: yellow faces -> critical, normal hit, distance points, test points (index = value). */
const int8_t ER_Y_CRIT[7] = {0, 1, 0, 0, 0, 0, 0};
const int8_t ER_Y_HIT[7] = {0, 0, 1, 1, 0, 0, 0};
const int8_t ER_Y_DISTANCE[7] = {0, 1, 2, 1, 3, 0, 2};
const int8_t ER_Y_TEST[7] = {0, 3, 2, 2, 1, 0, 0};
/* ER-DICE-3: black faces -> search points (= test points in version 1). */
const int8_t ER_B_SEARCH[7] = {0, 0, 0, 2, 3, 3, 3};

/* dice.inject: queue face codes to roll next, in order per colour (ER-DICE-4); -1 on overflow. */
int er_inject(Game *g, const uint8_t *faces, int n)
{
    if (n < 0 || g->n_dice_queue + n > ER_MAX_DICE_QUEUE)
        return -1;
    for (int i = 0; i < n; i++)
        if (faces[i] >= 12)
            return -1;
    memcpy(g->dice_queue + g->n_dice_queue, faces, (size_t)n);
    g->n_dice_queue += n;
    return 0;
}

/* dice._next_injected: take the first queued face of colour (ER-DICE-4); 0 when none is queued. */
int er_next_injected(Game *g, int colour)
{
    for (int i = 0; i < g->n_dice_queue; i++) {
        int face = g->dice_queue[i];
        if (face / 6 == colour) {
            memmove(g->dice_queue + i, g->dice_queue + i + 1, (size_t)(g->n_dice_queue - i - 1));
            g->n_dice_queue--;
            return face % 6 + 1;
        }
    }
    return 0;
}

/* dice.roll: n dice of colour, injected faces of that colour first, then the generator; every
 * face rolled is appended to last_roll (ER-HID-11). */
void er_roll(Game *g, int colour, int n, uint8_t *faces)
{
    for (int i = 0; i < n; i++) {
        int v = g->n_dice_queue ? er_next_injected(g, colour) : 0;
        if (!v)
            v = 1 + er_rng_below(&g->rng, 6);
        faces[i] = (uint8_t)v;
        if (g->n_last_roll < ER_MAX_ROLL)   /* bounded by the scenario check at construction */
            g->last_roll[g->n_last_roll++] = (uint8_t)(colour * 6 + v - 1);
    }
}

/* dice.combat_result: (critical hits, normal hits) of yellow faces (ER-DICE-2). */
void er_combat_result(const uint8_t *faces, int n, int *crits, int *hits)
{
    int c = 0, h = 0;
    for (int i = 0; i < n; i++) {
        c += ER_Y_CRIT[faces[i]];
        h += ER_Y_HIT[faces[i]];
    }
    *crits = c;
    *hits = h;
}

/* dice.yellow_test_points: test points of yellow faces (ER-DICE-2, ER-DICE-5). */
int er_yellow_test_points(const uint8_t *faces, int n)
{
    int t = 0;
    for (int i = 0; i < n; i++)
        t += ER_Y_TEST[faces[i]];
    return t;
}

/* dice.search_points: search points of black faces (ER-DICE-3). */
int er_search_points(const uint8_t *faces, int n)
{
    int t = 0;
    for (int i = 0; i < n; i++)
        t += ER_B_SEARCH[faces[i]];
    return t;
}
