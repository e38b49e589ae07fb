/* The game state's setup and small read helpers (rules/state.py, ER-GEN-3). */
#include <string.h>

#include "core.h"

/* GameState.__init__: the setup of ER-TURN-4 before turn 1 begins (engine.new_game continues). */
void er_game_init(Game *g, const Scn *s, uint64_t seed)
{
    memset(g, 0, sizeof *g);
    g->turn = 1;
    g->phase = ER_INITIATIVE;
    g->initiative = (int8_t)s->marker_at_setup;
    g->active = g->initiative;
    g->passes = 0;
    for (int p = 0; p < 2; p++) {
        g->cp[p] = 0;
        g->mp[p] = s->start_mp[p];
        g->hands[p] = 0;
        g->redrew[p] = 0;
        g->bids[p] = -1;
    }
    g->bag = s->n_tiles >= 64 ? ~0ULL : ((1ULL << s->n_tiles) - 1);
    g->discard = g->box = 0;
    for (int d = 0; d < s->n_doors; d++) {
        g->doors[d] = ER_CLOSED;
        g->door_opened[d] = 0;
    }
    for (int c = 0; c < s->n_chars; c++) {
        ErChar *ch = &g->chars[c];
        const ErCharSpec *spec = &s->chars[c];
        ch->square = (int16_t)spec->start;
        ch->facing = (int8_t)spec->facing;
        ch->wounded = 0;
        ch->wounds = 0;
        ch->engaged = 0;
        ch->dead = 0;
        ch->cp_spent = 0;
        ch->n_tiles = 0;
        ch->cards = (int16_t)spec->cards;
        ch->weapon_ready = 1;
        ch->tried = 0;
    }
    for (int t = 0; t < s->n_terminals; t++)
        g->hacked[t] = 0;
    for (int k = 0; k < s->n_caches; k++)
        g->cache_full[k] = 1;
    g->decision = ER_MULLIGAN;
    g->decider = g->initiative;
    g->char_ = -1;
    g->reactivation = 0;
    g->acted = 0;
    g->round_decisions = 0;
    g->mvp = 0;
    g->transferred = 0;
    g->section = -1;
    g->target = -1;
    g->order_cp = 0;
    g->winner = ER_NO_WINNER;
    g->rng = seed;
    g->n_dice_queue = 0;
    g->n_last_roll = 0;
    g->steps = 0;
}

/* GameState.stats: the stat line of the side character c currently shows (ER-WND-4). */
const ErStats *er_stats(const Game *g, const Scn *s, int c)
{
    return g->chars[c].wounded ? &s->chars[c].wounded : &s->chars[c].healthy;
}

/* GameState.living: player's living characters (ER-ACT-7), bit c. */
uint32_t er_living(const Game *g, const Scn *s, int player)
{
    uint32_t m = 0;
    for (int c = 0; c < s->n_chars; c++)
        if (s->chars[c].faction == player && !g->chars[c].dead)
            m |= 1u << c;
    return m;
}

/* GameState.figure_at: a living character on square other than exclude, or -1. */
int er_figure_at(const Game *g, const Scn *s, int square, int exclude)
{
    for (int c = 0; c < s->n_chars; c++)
        if (c != exclude && g->chars[c].square == square && !g->chars[c].dead)
            return c;
    return -1;
}
