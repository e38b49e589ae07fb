/* The turn around the activity phase: initiative phase, end of round, final phase (rules/turn.py,
 * ER-TURN). Automatic steps run here; each function ends by asking the next decision (ER-ENV-1). */
#include "core.h"

/* turn.ask: put decision to player. */
void er_ask(Game *g, int decision, int player)
{
    g->decision = (int8_t)decision;
    g->decider = (int8_t)player;
}

/* --- Initiative phase (ER-INI-1..8) --------------------------------------------------------- */

/* turn.begin_turn: ER-TURN-1, a turn opens with the Initiative phase; the holder draws first. */
void er_begin_turn(Game *g, const Scn *s)
{
    g->phase = ER_INITIATIVE;
    g->bids[0] = g->bids[1] = -1;
    er_initiative_draws(g, s, 0);
}

/* turn.drawing_order: ER-INI-1, the initiative-marker holder draws first, then the other. */
void er_drawing_order(const Game *g, int order[2])
{
    order[0] = g->initiative;
    order[1] = 1 - g->initiative;
}

/* turn.initiative_draws: ER-INI-1..4, players draw up to the hand limit in order; in turn 1
 * each may redraw after his draw. */
void er_initiative_draws(Game *g, const Scn *s, int first)
{
    int order[2];
    er_drawing_order(g, order);
    for (int i = first; i < 2; i++) {
        er_draw_up_to(g, s, order[i], s->hand_limit);
        if (g->turn == 1) {
            er_ask(g, ER_MULLIGAN, order[i]);
            return;
        }
    }
    er_receive_command_points(g, s);
    er_determine_initiative(g, s);
}

/* turn.can_redraw: ER-INI-4 [DEF], a redraw needs as many tiles in the bag as the player holds. */
int er_can_redraw(const Game *g, const Scn *s, int player)
{
    (void)s;
    return er_popcount64(g->bag) >= er_popcount64(g->hands[player]);
}

/* turn.mulligan: ER-INI-4, keep, or draw as many new tiles as held, then return the first ones. */
void er_mulligan(Game *g, const Scn *s, int redraw)
{
    int player = g->decider;
    if (redraw) {
        uint64_t first = g->hands[player];
        g->hands[player] = 0;
        for (int i = er_popcount64(first); i > 0; i--)
            er_draw_from_bag(g, s, player);
        g->bag |= first;
        g->redrew[player] = 1;
    }
    int order[2];
    er_drawing_order(g, order);
    er_initiative_draws(g, s, (order[0] == player ? 0 : 1) + 1);
}

/* turn.command_point_income: ER-INI-5/-6, base allowance plus the Bonus CP of each living
 * card's shown side. */
int er_command_point_income(const Game *g, const Scn *s, int player)
{
    int income = s->base_cp[player];
    for (int c = 0; c < s->n_chars; c++)
        if (s->chars[c].faction == player && !g->chars[c].dead)
            income += er_stats(g, s, c)->bonus;
    return income;
}

/* turn.receive_command_points: ER-INI-5, each player takes his income from the bank. */
void er_receive_command_points(Game *g, const Scn *s)
{
    for (int p = 0; p < 2; p++)
        g->cp[p] += er_command_point_income(g, s, p);
}

/* turn.determine_initiative: ER-INI-7, the scenario names the holder (ER-SCN-9); then the duel
 * (ER-INI-8) or the activity. */
void er_determine_initiative(Game *g, const Scn *s)
{
    int holder = g->turn % 2 == 1 ? s->initiative_odd : s->initiative_even;
    g->initiative = (int8_t)holder;
    if (s->initiative_duel)
        er_ask(g, ER_DUEL_ASK, 1 - holder);
    else
        er_start_activity(g, s);
}

/* turn.duel_bid: ER-INI-8, the asker bids (0 = no duel), then the holder answers blind; all
 * bids are paid. */
void er_duel_bid(Game *g, const Scn *s, int bid)
{
    if (g->decision == ER_DUEL_ASK) {
        g->bids[g->decider] = bid;
        if (bid > 0) {
            er_ask(g, ER_DUEL_ANSWER, g->initiative);
            return;
        }
    } else {
        g->bids[g->decider] = bid;
        int asker = 1 - g->initiative;
        for (int p = 0; p < 2; p++)
            g->cp[p] -= g->bids[p];
        if (g->bids[asker] > g->bids[g->initiative])
            g->initiative = (int8_t)asker;
    }
    er_start_activity(g, s);
}

/* --- Activity phase frame (ER-ACT-1, -2, -12, -14, -15) ------------------------------------- */

/* turn.start_activity: ER-ACT-2, the initiative holder plays the first round; passes start at 0. */
void er_start_activity(Game *g, const Scn *s)
{
    g->phase = ER_ACTIVITY;
    g->passes = 0;
    g->active = g->initiative;
    er_begin_round(g, s);
}

/* turn.begin_round: a new round, nothing activated; the active player chooses (ER-ENV-2). */
void er_begin_round(Game *g, const Scn *s)
{
    (void)s;
    g->char_ = -1;
    g->reactivation = 0;
    g->acted = 0;
    g->round_decisions = 0;
    g->mvp = 0;
    g->section = -1;
    g->target = -1;
    g->order_cp = 0;
    er_ask(g, ER_ROUND, g->active);
}

/* turn.close_sliding_doors: ER-ACT-14 / ER-DOOR-6, every open sliding door closes at the end of
 * the round; a destroyed door stays destroyed (ER-DOOR-9). */
void er_close_sliding_doors(Game *g, const Scn *s)
{
    for (int d = 0; d < s->n_doors; d++) {
        if (s->doors[d].sliding && g->doors[d] == ER_OPENED)
            g->doors[d] = ER_CLOSED;
        g->door_opened[d] = 0;
    }
}

/* turn.end_round: ER-ACT-14/-15, close sliding doors; the opponent plays the next round. */
void er_end_round(Game *g, const Scn *s)
{
    er_close_sliding_doors(g, s);
    g->active = (int8_t)(1 - g->active);
    er_begin_round(g, s);
}

/* turn.pass_round: ER-ACT-11/-12, a pass answered by the other's pass ends the activity phase. */
void er_pass_round(Game *g, const Scn *s)
{
    g->passes++;
    if (g->passes >= 2) {
        er_close_sliding_doors(g, s);
        er_final_phase(g, s);
    } else {
        er_end_round(g, s);
    }
}

/* --- Final phase (ER-FIN-1..7, ER-SCN-11) --------------------------------------------------- */

/* turn.hold_points: ER-SCN-14, player p's MP for the hold squares its living characters stand on */
static int hold_points(const Game *g, const Scn *s, int p)
{
    int held = 0;
    for (int h = 0; h < s->mission.n_hold; h++)
        for (int c = 0; c < s->n_chars; c++)
            if (!g->chars[c].dead && s->chars[c].faction == p &&
                g->chars[c].square == s->mission.hold_square[h]) {
                held++;
                break;
            }
    return s->mission.hold_mp[p] * held;
}

/* turn.victory_check: ER-FIN-1 step 1 / ER-SCN-11, the game ends in the last turn or when every
 * terminal is hacked; end-of-game MP (per unhacked terminal, per hold square held, ER-SCN-14)
 * are added, then MP decide. */
int er_victory_check(Game *g, const Scn *s)
{
    int unhacked = 0;
    for (int t = 0; t < s->n_terminals; t++)
        unhacked += !g->hacked[t];
    int all_hacked = s->n_terminals > 0 && unhacked == 0;
    if (g->turn < s->turns && !(s->mission.end_when_all_hacked && all_hacked))
        return 0;
    for (int p = 0; p < 2; p++)
        g->mp[p] += s->mission.unhacked_terminal_mp[p] * unhacked + hold_points(g, s, p);
    int a = g->mp[0], b = g->mp[1];
    er_end_game(g, a > b ? 0 : (b > a ? 1 : ER_DRAW));
    return 1;
}

/* turn.final_phase: ER-FIN-1, check victory; disengage; tiles to the discard (ER-FIN-4, no
 * ER-TILE-7 refill); CP to the bank; then the discards (ER-FIN-5). */
void er_final_phase(Game *g, const Scn *s)
{
    g->phase = ER_FINAL;
    g->char_ = -1;
    g->passes = 0;   /* the run of passes belongs to the activity phase (ER-ACT-13) */
    if (er_victory_check(g, s))
        return;      /* ER-FIN-7 */
    for (int c = 0; c < s->n_chars; c++) {
        ErChar *ch = &g->chars[c];
        ch->engaged = 0;
        for (int k = 0; k < ch->n_tiles; k++) {
            g->discard |= 1ULL << ch->tiles[k].tile;
            ch->tiles[k] = (ErAssigned){0, {0, 0, 0, 0}};
        }
        ch->n_tiles = 0;
        ch->cp_spent = 0;
        ch->tried = 0;
    }
    g->cp[0] = g->cp[1] = 0;
    er_ask(g, ER_DISCARD, g->initiative);
}

/* turn.discard_tile: ER-FIN-5, a tile from behind the screen to the discard pile, face down. */
void er_discard_tile(Game *g, const Scn *s, int tile)
{
    er_discard_from_hand(g, s, g->decider, tile);
}

/* turn.keep_hand: ER-FIN-5/-6, the player keeps at most the hand limit; after both, the next
 * turn begins (ER-TURN-2). */
void er_keep_hand(Game *g, const Scn *s)
{
    if (g->decider == g->initiative) {
        er_ask(g, ER_DISCARD, 1 - g->initiative);
        return;
    }
    g->turn++;
    er_begin_turn(g, s);
}
