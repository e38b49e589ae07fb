/* The rules engine's front door: start a game, list the legal actions, apply one (rules/engine.py,
 * section 18). apply_action checks legality first and changes nothing for an illegal action
 * (ER-ENV-8); the error text is built on the Python side from the reference. */
#include "core.h"

/* engine.new_game: ER-TURN-4 setup, then turn 1 begins; the game waits at the first decision. */
void er_new_game(Game *g, const Scn *s, uint64_t seed)
{
    er_game_init(g, s, seed);
    er_begin_turn(g, s);
}

/* --- Legal actions per decision (ER-ENV-10) ------------------------------------------------- */

/* engine._legal_mulligan: keep, and redraw where ER-INI-4 allows it. */
void er_legal_mulligan(Game *g, const Scn *s, ErActs *out)
{
    er_push(out, s->base[ER_K_MULLIGAN_KEEP]);
    if (er_can_redraw(g, s, g->decider))
        er_push(out, s->base[ER_K_MULLIGAN_REDRAW]);
}

/* engine._legal_duel: bids 0..CP of the decider; 0 = no duel (ER-INI-8). */
void er_legal_duel(Game *g, const Scn *s, ErActs *out)
{
    for (int b = 0; b <= g->cp[g->decider]; b++)
        er_push(out, s->base[ER_K_DUEL_BID] + b);
}

/* engine._legal_discard: ER-FIN-5/-6, discard any tile at hand; keep once within the limit. */
void er_legal_discard(Game *g, const Scn *s, ErActs *out)
{
    uint64_t hand = g->hands[g->decider];
    for (uint64_t m = hand; m; m &= m - 1)
        er_push(out, s->base[ER_K_DISCARD_TILE] + __builtin_ctzll(m));
    if (er_popcount64(hand) <= s->hand_limit)
        er_push(out, s->base[ER_K_KEEP_HAND]);
}

/* engine.legal_actions: the exact legal set of the decision in progress, sorted (ER-ENV-10). */
void er_legal_actions(Game *g, const Scn *s, ErActs *out)
{
    out->n = 0;
    switch (g->decision) {
    case ER_MULLIGAN: er_legal_mulligan(g, s, out); break;
    case ER_DUEL_ASK:
    case ER_DUEL_ANSWER: er_legal_duel(g, s, out); break;
    case ER_ROUND: er_legal_round(g, s, out); break;
    case ER_CHOOSE_DISCARD: er_legal_choose_discard(g, s, out); break;
    case ER_ACTIVATION: er_legal_activation(g, s, out); break;
    case ER_MOVING: er_legal_move(g, s, out); break;
    case ER_TARGET: er_legal_target(g, s, out); break;
    case ER_CP: er_legal_cp(g, s, out); break;
    case ER_AIM: er_legal_aim(g, s, out); break;
    case ER_DISCARD: er_legal_discard(g, s, out); break;
    default: break;   /* ER_GAME_OVER: none */
    }
    for (int i = 1; i < out->n; i++) {   /* out.sort(): the lists are short */
        int a = out->v[i], j = i - 1;
        while (j >= 0 && out->v[j] > a) {
            out->v[j + 1] = out->v[j];
            j--;
        }
        out->v[j + 1] = a;
    }
}

/* codec.decode: (kind, argument index) of an action; -1 if it is outside the action space. */
int er_decode(const Scn *s, int action, int *arg)
{
    if (action < 0 || action >= s->n_actions)
        return -1;
    int kind = ER_N_KINDS - 1;
    while (kind > 0 && s->base[kind] > action)
        kind--;
    *arg = action - s->base[kind];
    return kind;
}

/* engine.apply_action (integer actions): apply one legal action, refuse anything else unchanged. */
int er_apply_action(Game *g, const Scn *s, int action)
{
    ErActs legal;
    er_legal_actions(g, s, &legal);
    int found = 0;
    for (int i = 0; i < legal.n && !found; i++)
        found = legal.v[i] == action;
    if (!found)
        return -1;
    er_apply_legal(g, s, action);
    return 0;
}

/* engine.apply_action after its legality check: the step is counted, the last roll cleared. */
void er_apply_legal(Game *g, const Scn *s, int action)
{
    int arg;
    int kind = er_decode(s, action, &arg);
    g->n_last_roll = 0;
    g->steps++;
    if (g->decision == ER_ACTIVATION)
        g->round_decisions++;
    switch (kind) {
    case ER_K_MULLIGAN_KEEP: er_mulligan(g, s, 0); break;
    case ER_K_MULLIGAN_REDRAW: er_mulligan(g, s, 1); break;
    case ER_K_DUEL_BID: er_duel_bid(g, s, arg); break;
    case ER_K_ACTIVATE: er_activate(g, s, arg, 0); break;
    case ER_K_REACTIVATE: er_activate(g, s, arg, 1); break;
    case ER_K_DRAW_BAG: er_draw_bag(g, s); break;
    case ER_K_PICK_DISCARD: er_pick_discard(g, s); break;
    case ER_K_PASS: er_pass_round(g, s); break;
    case ER_K_CHOOSE_DISCARD: er_choose_discard(g, s, arg); break;
    case ER_K_ASSIGN: er_assign(g, s, arg); break;
    case ER_K_MOVE_CP: er_move_cp(g, s, arg); break;
    case ER_K_SELECT_ORDER: er_select_order(g, s, arg); break;
    case ER_K_RELOAD: er_reload(g, s); break;
    case ER_K_SAW_DOOR: er_saw_door(g, s, arg); break;
    case ER_K_END_ROUND: er_end_round(g, s); break;
    case ER_K_STEP: er_step(g, s, arg); break;
    case ER_K_OPEN: er_open_door(g, s, arg); break;
    case ER_K_CLOSE: er_close_door(g, s, arg); break;
    case ER_K_GIVE_CARD: er_give_card(g, s); break;
    case ER_K_TAKE_CARD: er_take_card(g, s); break;
    case ER_K_PICKUP_CARD: er_pickup_card(g, s); break;
    case ER_K_END_MOVE: er_end_move(g, s, arg); break;
    case ER_K_CHOOSE_TARGET_DIR:
    case ER_K_CHOOSE_TARGET_CHAR: er_choose_target(g, s, arg); break;
    case ER_K_CHOOSE_CP: er_choose_cp(g, s, arg + 1); break;
    case ER_K_CHOOSE_AIM: er_execute_order(g, s, arg); break;
    case ER_K_DISCARD_TILE: er_discard_tile(g, s, arg); break;
    case ER_K_KEEP_HAND: er_keep_hand(g, s); break;
    default: break;
    }
}
