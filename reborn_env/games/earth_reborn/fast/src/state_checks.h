/* The range check of a loaded game state. Generated from rules/state_schema.py by fast/state_layout.py: do not edit. */
#ifndef ER_STATE_CHECKS_H
#define ER_STATE_CHECKS_H

#include <stdio.h>

#include "core.h"

/* Out of lo..hi: say which field and what is allowed (into why), and stop. */
#define ER_IN(v, lo, hi, what)                                                       \
    do {                                                                            \
        long long v_ = (long long)(v);                                              \
        if (v_ < (long long)(lo) || v_ > (long long)(hi)) {                         \
            snprintf(why, n, "%s is %lld, outside %lld..%lld", what, v_,             \
                     (long long)(lo), (long long)(hi));                             \
            return -1;                                                              \
        }                                                                           \
    } while (0)

/* A bitmask naming items at or above count: the item is out of range. */
#define ER_BITS_BELOW(m, count, what)                                                \
    do {                                                                            \
        if ((count) < 64 && ((uint64_t)(m) >> (count)) != 0) {                      \
            snprintf(why, n, "%s names an item at or above %d", what, (int)(count)); \
            return -1;                                                              \
        }                                                                           \
    } while (0)

/* state.chars[].tiles[]: 0, or -1 with why (n bytes) saying which value is out of range. */
static int er_check_ErAssigned(const ErAssigned *r, const Scn *s, char *why, size_t n)
{
    ER_IN(r->tile, 0, s->n_tiles - 1, "state.chars[].tiles[].tile");
    for (int k = 0; k < 4; k++)
        ER_IN(r->cp[k], 0, 127, "state.chars[].tiles[].cp");
    (void)s;
    return 0;
}

/* state.chars[]: 0, or -1 with why (n bytes) saying which value is out of range. */
static int er_check_ErChar(const ErChar *r, const Scn *s, char *why, size_t n)
{
    ER_IN(r->square, 0, s->n_squares - 1, "state.chars[].square");
    ER_IN(r->facing, 0, 3, "state.chars[].facing");
    ER_IN(r->wounded, 0, 1, "state.chars[].wounded");
    ER_IN(r->wounds, 0, 127, "state.chars[].wounds");
    ER_IN(r->engaged, 0, 1, "state.chars[].engaged");
    ER_IN(r->dead, 0, 1, "state.chars[].dead");
    ER_IN(r->weapon_ready, 0, 1, "state.chars[].weapon_ready");
    ER_IN(r->cp_spent, 0, 30000, "state.chars[].cp_spent");
    ER_IN(r->cards, 0, 30000, "state.chars[].cards");
    ER_IN(r->n_tiles, 0, ER_MAX_TILES_PER_CHAR, "len(state.chars[].tiles)");
    for (int k = 0; k < r->n_tiles; k++)
        if (er_check_ErAssigned(&r->tiles[k], s, why, n))
            return -1;
    ER_BITS_BELOW(r->tried, s->n_terminals, "state.chars[].tried");
    (void)s;
    return 0;
}

/* state: 0, or -1 with why (n bytes) saying which value is out of range. */
static int er_check_Game(const Game *r, const Scn *s, char *why, size_t n)
{
    ER_IN(r->turn, 1, 2147483647, "state.turn");
    ER_IN(r->phase, 0, 3, "state.phase");
    ER_IN(r->initiative, 0, 1, "state.initiative");
    ER_IN(r->active, 0, 1, "state.active");
    ER_IN(r->passes, 0, 127, "state.passes");
    for (int k = 0; k < 2; k++)
        ER_IN(r->cp[k], 0, ER_MAX_CP, "state.cp");
    for (int k = 0; k < 2; k++)
        ER_IN(r->mp[k], -1000000000, 1000000000, "state.mp");
    for (int k = 0; k < 2; k++)
        ER_BITS_BELOW(r->hands[k], s->n_tiles, "state.hands");
    for (int k = 0; k < 2; k++)
        ER_IN(r->redrew[k], 0, 1, "state.redrew");
    ER_BITS_BELOW(r->bag, s->n_tiles, "state.bag");
    ER_BITS_BELOW(r->discard, s->n_tiles, "state.discard");
    ER_BITS_BELOW(r->box, s->n_tiles, "state.box");
    for (int k = 0; k < s->n_doors; k++)
        ER_IN(r->doors[k], 0, 2, "state.doors");
    for (int k = 0; k < s->n_doors; k++)
        ER_IN(r->door_opened[k], 0, 1, "state.door_opened");
    for (int k = 0; k < s->n_chars; k++)
        if (er_check_ErChar(&r->chars[k], s, why, n))
            return -1;
    for (int k = 0; k < s->n_terminals; k++)
        ER_IN(r->hacked[k], 0, 1, "state.hacked");
    for (int k = 0; k < s->n_caches; k++)
        ER_IN(r->cache_full[k], 0, 1, "state.cache_full");
    ER_IN(r->decision, 0, 11, "state.decision");
    ER_IN(r->decider, 0, 1, "state.decider");
    ER_IN(r->char_, -1, s->n_chars - 1, "state.char");
    ER_IN(r->reactivation, 0, 1, "state.reactivation");
    ER_IN(r->acted, 0, 1, "state.acted");
    ER_IN(r->round_decisions, 0, 2147483647, "state.round_decisions");
    ER_IN(r->mvp, 0, 2147483647, "state.mvp");
    ER_IN(r->transferred, 0, 1, "state.transferred");
    ER_IN(r->section, -1, ER_SECTION_SLOTS - 1, "state.section");
    ER_IN(r->target, -1, ER_MAX_CHARS - 1, "state.target");
    ER_IN(r->order_cp, 0, 4, "state.order_cp");
    for (int k = 0; k < 2; k++)
        ER_IN(r->bids[k], -1, ER_MAX_CP, "state.bids");
    ER_IN(r->winner, -2, 1, "state.winner");
    ER_IN(r->steps, 0, 2147483646, "state.steps");
    ER_IN(r->n_last_roll, 0, ER_MAX_ROLL, "len(state.last_roll)");
    for (int k = 0; k < r->n_last_roll; k++)
        ER_IN(r->last_roll[k], 0, 11, "state.last_roll");
    ER_IN(r->n_dice_queue, 0, ER_MAX_DICE_QUEUE, "len(state.dice_queue)");
    for (int k = 0; k < r->n_dice_queue; k++)
        ER_IN(r->dice_queue[k], 0, 11, "state.dice_queue");
    (void)s;
    return 0;
}

#endif
