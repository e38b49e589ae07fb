/* The round-level choices of the activity phase (rules/activity.py, ER-ACT-1..17, ER-ENV-2). */
#include "core.h"

/* activity.reactivation_has_use: ER-ACT-8, a reactivation must be able to do something other
 * than END_ROUND. */
int er_reactivation_has_use(Game *g, const Scn *s, int c)
{
    ErActs options;
    options.n = 0;
    er_activation_actions(g, s, c, 1, &options);
    return options.n > 0;
}

/* activity.legal_round: ER-ENV-10 round level, ACTIVATE, REACTIVATE, DRAW_BAG, PICK_DISCARD,
 * PASS. */
void er_legal_round(Game *g, const Scn *s, ErActs *out)
{
    int player = g->decider;
    uint32_t living = er_living(g, s, player);
    int any_waiting = 0;
    for (int c = 0; c < s->n_chars; c++)
        if ((living >> c & 1) && !g->chars[c].engaged) {
            er_push(out, s->base[ER_K_ACTIVATE] + c);   /* ER-ACT-4 */
            any_waiting = 1;
        }
    if (!any_waiting)   /* ER-ACT-6/-7: every living character activated at least once */
        for (int c = 0; c < s->n_chars; c++)
            if ((living >> c & 1) && er_reactivation_has_use(g, s, c))
                er_push(out, s->base[ER_K_REACTIVATE] + c);
    if (g->cp[player] >= 1 && (g->bag || g->discard))   /* ER-ACT-9 */
        er_push(out, s->base[ER_K_DRAW_BAG]);
    if (g->cp[player] >= 2 && g->discard)   /* ER-ACT-10 */
        er_push(out, s->base[ER_K_PICK_DISCARD]);
    er_push(out, s->base[ER_K_PASS]);   /* ER-ACT-11 */
}

/* activity.legal_choose_discard: ER-ACT-10, any one tile of the discard pile. */
void er_legal_choose_discard(Game *g, const Scn *s, ErActs *out)
{
    for (uint64_t m = g->discard; m; m &= m - 1)
        er_push(out, s->base[ER_K_CHOOSE_DISCARD] + __builtin_ctzll(m));
}

/* activity.activate: ER-ACT-4/-6, engage the character (it stays engaged) and open its round. */
void er_activate(Game *g, const Scn *s, int c, int again)
{
    (void)s;
    g->passes = 0;   /* ER-ACT-13: a non-pass round breaks the run of passes */
    g->chars[c].engaged = 1;
    g->char_ = (int8_t)c;
    g->reactivation = (int8_t)again;
    g->acted = 0;
    g->round_decisions = 0;
    er_ask(g, ER_ACTIVATION, g->decider);
}

/* activity.draw_bag: ER-ACT-9 / ER-CP-2, 1 CP to the bank, draw one tile; the round ends. */
void er_draw_bag(Game *g, const Scn *s)
{
    g->passes = 0;
    g->cp[g->decider] -= 1;
    er_draw_from_bag(g, s, g->decider);
    er_end_round(g, s);
}

/* activity.pick_discard: ER-ACT-10 / ER-CP-2, 2 CP to the bank, then look through the discard. */
void er_pick_discard(Game *g, const Scn *s)
{
    (void)s;
    g->passes = 0;
    g->cp[g->decider] -= 2;
    er_ask(g, ER_CHOOSE_DISCARD, g->decider);
}

/* activity.choose_discard: ER-ACT-10, the chosen tile goes secretly behind the screen; the round
 * ends. */
void er_choose_discard(Game *g, const Scn *s, int tile)
{
    er_take_from_discard(g, s, g->decider, tile);
    er_end_round(g, s);
}
