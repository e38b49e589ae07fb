/* What one player may see, as a flat float32 vector (observation.py, section 22, ER-HID-1..12).
 *
 * er_observe writes exactly the float32 bytes of Observer.observe(state, me), each block at the
 * offset of the observation Layout (ErObsLayout, read from the Layout object once by
 * layout_reader.c, which checks every width against the scenario, so no write can leave the
 * vector). Each value is computed in double as Python computes it, then rounded to float32 as
 * numpy does when the observer stores it. Built only from the observer's own screen and the
 * public table (ER-HID-2, -6); the discard's contents only at its own CHOOSE_DISCARD (ER-HID-7);
 * a duel bid once both are chosen (ER-HID-10).
 */
#include <string.h>

#include "core.h"

/* observation.py's scales: the observed value is the quantity divided by its scale. */
#define MP_SCALE 20.0
#define MVP_SCALE 20.0
#define SECTION_MAX_CP 4.0
#define CARDS_SCALE 2.0
#define DICE 6.0
#define N_DOOR_STATES 3
#define N_FACES 12

/* --- Building an observation ----------------------------------------------------------------- */

/* min(x, 1.0) as Python's min(x, 1.0) gives it. */
static double at_most_one(double x)
{
    return 1.0 < x ? 1.0 : x;
}

/* observation.Observer._shooting: the order being built is a Shoot. */
static int shooting(const Game *g, const Scn *s)
{
    if (g->char_ < 0 || g->section < 0)
        return 0;
    const ErAssigned *assigned = &g->chars[g->char_].tiles[g->section >> 2];
    return s->tiles[assigned->tile][g->section & 3].type == ER_SHOOT;
}

/* observation.Observer._character: character c's block as me sees it (ER-HID-5/-11: all of it is
 * on the table), into block[0 .. char_width). */
static void character(const Game *g, const Scn *s, int c, int me, float *block)
{
    const ErObsLayout *at = &s->obs;
    const ErCharSpec *spec = &s->chars[c];
    const ErChar *ch = &g->chars[c];
    const ErStats *stats = er_stats(g, s, c);
    double maxcp = spec->healthy.maxcp;
    int armed = spec->has_weapon;
    int cp_left = stats->maxcp - ch->cp_spent;
    block[at->c_mine] = (float)(spec->faction == me);
    block[at->c_alive] = (float)!ch->dead;
    block[at->c_wounded] = (float)ch->wounded;
    block[at->c_wounds] = (float)(ch->wounds / (double)stats->lp);
    block[at->c_engaged] = (float)ch->engaged;
    block[at->c_cp_spent] = (float)(ch->cp_spent / maxcp);
    block[at->c_cp_left] = (float)((cp_left > 0 ? cp_left : 0) / maxcp);
    block[at->c_cards] = (float)at_most_one(ch->cards / CARDS_SCALE);
    block[at->c_has_weapon] = (float)armed;
    block[at->c_weapon_ready] = (float)(armed && ch->weapon_ready);
    block[at->c_activated] = (float)(g->char_ == c);
    block[at->c_x + ch->square % s->width] = 1.0f;
    block[at->c_y + ch->square / s->width] = 1.0f;
    block[at->c_facing + ch->facing] = 1.0f;
    for (int t = 0; t < s->n_terminals; t++)
        if (ch->tried >> t & 1u)
            block[at->c_tried + t] = 1.0f;
    int sw = at->section_width;
    for (int slot = 0; slot < ch->n_tiles; slot++) {
        const ErAssigned *assigned = &ch->tiles[slot];
        float *j = block + at->c_sections + slot * 4 * sw;
        for (int k = 0; k < 4; k++) {
            const ErSection *section = &s->tiles[assigned->tile][k];
            j[k * sw + at->s_type + section->type] = 1.0f;
            j[k * sw + at->s_max] = (float)(section->max / SECTION_MAX_CP);
            j[k * sw + at->s_present] = 1.0f;
            j[k * sw + at->s_cp] = (float)(assigned->cp[k] / SECTION_MAX_CP);
        }
    }
}

/* observation.Observer.observe: ER-HID-1..11, the observation of player me, every one of the
 * s->obs.size floats written. */
void er_observe(const Game *g, const Scn *s, int me, float *out)
{
    const ErObsLayout *at = &s->obs;
    int opp = 1 - me;
    double n_tiles = s->n_tiles;
    int both_bid = g->bids[0] >= 0 && g->bids[1] >= 0;
    memset(out, 0, sizeof(float) * (size_t)at->size);
    out[at->faction + me] = 1.0f;
    if (g->turn >= 1 && g->turn <= s->turns)
        out[at->turn + g->turn - 1] = 1.0f;
    out[at->phase + g->phase] = 1.0f;
    out[at->decision + g->decision] = 1.0f;
    /* the blocks flags, cp, mp, tile_counts, redrew and bids */
    out[at->flags + 0] = (float)(g->winner == ER_NO_WINNER && g->decider == me);
    out[at->flags + 1] = (float)(g->initiative == me);
    out[at->flags + 2] = (float)(g->active == me);
    out[at->flags + 3] = (float)g->passes;
    out[at->cp + 0] = (float)(g->cp[me] / (double)ER_MAX_CP);   /* ER-HID-4 */
    out[at->cp + 1] = (float)(g->cp[opp] / (double)ER_MAX_CP);
    out[at->mp + 0] = (float)at_most_one(g->mp[me] / MP_SCALE);
    out[at->mp + 1] = (float)at_most_one(g->mp[opp] / MP_SCALE);
    out[at->tile_counts + 0] = (float)(er_popcount64(g->hands[me]) / n_tiles);
    out[at->tile_counts + 1] = (float)(er_popcount64(g->hands[opp]) / n_tiles);   /* ER-HID-3 */
    out[at->tile_counts + 2] = (float)(er_popcount64(g->bag) / n_tiles);          /* ER-HID-6 */
    out[at->tile_counts + 3] = (float)(er_popcount64(g->discard) / n_tiles);      /* ER-HID-7 */
    out[at->redrew + 0] = (float)g->redrew[me];                                   /* ER-HID-9 */
    out[at->redrew + 1] = (float)g->redrew[opp];
    out[at->bids + 0] = (float)((g->bids[me] > 0 ? g->bids[me] : 0) / (double)ER_MAX_CP);
    if (both_bid)   /* ER-HID-10 */
        out[at->bids + 1] = (float)((g->bids[opp] > 0 ? g->bids[opp] : 0) / (double)ER_MAX_CP);
    for (uint64_t m = g->hands[me]; m; m &= m - 1)   /* ER-HID-1 */
        out[at->hand + __builtin_ctzll(m)] = 1.0f;
    if (g->decision == ER_CHOOSE_DISCARD && g->decider == me)   /* ER-HID-7 */
        for (uint64_t m = g->discard; m; m &= m - 1)
            out[at->discard + __builtin_ctzll(m)] = 1.0f;
    for (int d = 0; d < s->n_doors; d++)
        out[at->doors + N_DOOR_STATES * d + g->doors[d]] = 1.0f;
    for (int t = 0; t < s->n_terminals; t++)
        if (g->hacked[t])
            out[at->hacked + t] = 1.0f;
    for (int k = 0; k < s->n_caches; k++)
        if (g->cache_full[k])
            out[at->caches + k] = 1.0f;
    out[at->round + 0] = (float)g->reactivation;
    out[at->round + 1] = (float)g->acted;
    out[at->round + 2] = (float)(g->round_decisions > 0);
    out[at->round + 3] = (float)at_most_one(g->mvp / MVP_SCALE);
    out[at->round + 4] = (float)g->transferred;
    out[at->round + 5] = (float)(g->order_cp / SECTION_MAX_CP);
    if (g->section >= 0)
        out[at->section + g->section] = 1.0f;
    if (g->target >= 0) {
        int shoot = (g->decision == ER_CP || g->decision == ER_AIM) && shooting(g, s);
        out[(shoot ? at->target_character : at->target_direction) + g->target] = 1.0f;
    }
    if (g->n_last_roll) {   /* ER-HID-11: every die rolled is public */
        int faces[N_FACES] = {0};
        for (int i = 0; i < g->n_last_roll; i++)
            faces[g->last_roll[i]]++;
        for (int f = 0; f < N_FACES; f++)
            if (faces[f])
                out[at->last_roll + f] = (float)(faces[f] / DICE);
    }
    for (int c = 0; c < s->n_chars; c++)
        character(g, s, c, me, out + at->characters + c * at->char_width);
}
