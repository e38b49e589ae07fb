/* The Move order: steps, doors, magnetic-card hand-over and pick-up (rules/movement.py, sections
 * 8 and 9). */
#include "core.h"

/* movement.has_way_out: ER-MOV-6, alone on square, or 1+ MVP and a free enterable neighbour (no
 * door to open). */
int er_has_way_out(const Game *g, const Scn *s, int c, int square, int mvp)
{
    if (er_figure_at(g, s, square, c) < 0)
        return 1;
    if (mvp < 1)
        return 0;
    for (int d = 0; d < 4; d++) {
        int target = er_step_target(g, s, square, d);
        if (target >= 0 && er_figure_at(g, s, target, c) < 0)
            return 1;
    }
    return 0;
}

/* movement.can_step: ER-MOV-3/-4/-6, an adjacent, enterable square with no living enemy, and no
 * stranding. */
int er_can_step(const Game *g, const Scn *s, int c, int d)
{
    int target = er_step_target(g, s, g->chars[c].square, d);
    if (target < 0)
        return 0;
    int other = er_figure_at(g, s, target, c);
    if (other >= 0 && s->chars[other].faction != s->chars[c].faction)
        return 0;
    return er_has_way_out(g, s, c, target, g->mvp - 1);
}

/* movement.door_toggle_keeps_way_out: ER-MOV-6 for OPEN/CLOSE, judged with the door already in
 * its new state. */
int er_door_toggle_keeps_way_out(Game *g, const Scn *s, int c, int door, int new_state)
{
    int8_t old = g->doors[door];
    g->doors[door] = (int8_t)new_state;
    int ok = er_has_way_out(g, s, c, g->chars[c].square, g->mvp - 1);
    g->doors[door] = old;
    return ok;
}

/* movement.openable_door: ER-DOOR-2/-3, a closed intact door on edge d, magnetic ones only with a
 * card. */
int er_openable_door(const Game *g, const Scn *s, int c, int d)
{
    int door = er_closed_door(g, s, g->chars[c].square, d);
    if (door < 0)
        return -1;
    if (s->doors[door].magnetic && g->chars[c].cards < 1)
        return -1;
    return door;
}

/* movement.closable_door: ER-DOOR-4/-5, an open wooden door (plain or magnetic) on edge d; never a
 * sliding one. */
int er_closable_door(const Game *g, const Scn *s, int c, int d)
{
    int e = s->edge[g->chars[c].square][d];
    if (e < 0 || g->doors[e] != ER_OPENED)
        return -1;
    int kind = s->doors[e].kind;
    return kind == ER_WOODEN || kind == ER_MAGNETIC_WOODEN ? e : -1;
}

/* movement.friend_here: the friendly living figure sharing the mover's square (ER-DOOR-10), else
 * -1. */
int er_friend_here(const Game *g, const Scn *s, int c)
{
    return er_figure_at(g, s, g->chars[c].square, c);
}

/* movement.marker_with_card: ER-DOOR-11, a dead marker on the mover's square with a card on it,
 * else -1. */
int er_marker_with_card(const Game *g, const Scn *s, int c)
{
    int square = g->chars[c].square;
    for (int i = 0; i < s->n_chars; i++) {
        const ErChar *other = &g->chars[i];
        if (other->dead && other->square == square && other->cards > 0)
            return i;
    }
    return -1;
}

/* movement.legal_move: ER-ENV-4 / ER-ENV-10, the decisions of a Move order in progress. */
void er_legal_move(Game *g, const Scn *s, ErActs *out)
{
    int c = g->char_;
    if (g->mvp >= 1) {
        for (int d = 0; d < 4; d++)
            if (er_can_step(g, s, c, d))
                er_push(out, s->base[ER_K_STEP] + d);
        for (int d = 0; d < 4; d++) {
            int door = er_openable_door(g, s, c, d);
            if (door >= 0 && er_door_toggle_keeps_way_out(g, s, c, door, ER_OPENED))
                er_push(out, s->base[ER_K_OPEN] + d);
        }
        for (int d = 0; d < 4; d++) {
            int door = er_closable_door(g, s, c, d);
            if (door >= 0 && er_door_toggle_keeps_way_out(g, s, c, door, ER_CLOSED))
                er_push(out, s->base[ER_K_CLOSE] + d);
        }
    }
    er_spending_actions(g, s, c, out, 1);
    int friend = er_friend_here(g, s, c);
    if (friend >= 0 && !g->transferred) {
        if (g->chars[c].cards > 0)
            er_push(out, s->base[ER_K_GIVE_CARD]);
        if (g->chars[friend].cards > 0)
            er_push(out, s->base[ER_K_TAKE_CARD]);
    }
    if (er_marker_with_card(g, s, c) >= 0)
        er_push(out, s->base[ER_K_PICKUP_CARD]);
    if (friend < 0)
        for (int f = 0; f < 4; f++)
            er_push(out, s->base[ER_K_END_MOVE] + f);   /* ER-MOV-5 */
}

/* movement.step: ER-MOV-3/-8, 1 MVP to the adjacent square; the figure now faces d. */
void er_step(Game *g, const Scn *s, int d)
{
    ErChar *ch = &g->chars[g->char_];
    ch->square = (int16_t)er_step_target(g, s, ch->square, d);
    ch->facing = (int8_t)d;
    g->mvp--;
    g->transferred = 0;   /* a new entry into a square (ER-DOOR-10) */
}

/* movement.open_door: ER-DOOR-2, turn to face the door, spend 1 MVP, open it. */
void er_open_door(Game *g, const Scn *s, int d)
{
    ErChar *ch = &g->chars[g->char_];
    int door = er_closed_door(g, s, ch->square, d);
    ch->facing = (int8_t)d;
    g->mvp--;
    g->doors[door] = ER_OPENED;
    g->door_opened[door] = 1;
}

/* movement.close_door: ER-DOOR-4, turn to face the wooden door, spend 1 MVP, close it (no card
 * needed). */
void er_close_door(Game *g, const Scn *s, int d)
{
    ErChar *ch = &g->chars[g->char_];
    int door = s->edge[ch->square][d];
    ch->facing = (int8_t)d;
    g->mvp--;
    g->doors[door] = ER_CLOSED;
}

/* movement.give_card: ER-DOOR-10, the mover hands one magnetic card to the friend in its
 * square. */
void er_give_card(Game *g, const Scn *s)
{
    g->chars[g->char_].cards--;
    g->chars[er_friend_here(g, s, g->char_)].cards++;
    g->transferred = 1;
}

/* movement.take_card: ER-DOOR-10, the mover takes one magnetic card from the friend in its
 * square. */
void er_take_card(Game *g, const Scn *s)
{
    g->chars[er_friend_here(g, s, g->char_)].cards--;
    g->chars[g->char_].cards++;
    g->transferred = 1;
}

/* movement.pickup_card: ER-DOOR-11, take one magnetic card from a dead marker on the mover's
 * square. */
void er_pickup_card(Game *g, const Scn *s)
{
    g->chars[er_marker_with_card(g, s, g->char_)].cards--;
    g->chars[g->char_].cards++;
}

/* movement.end_move: ER-MOV-2/-8, unused MVP are lost; the figure keeps the chosen final
 * facing. */
void er_end_move(Game *g, const Scn *s, int facing)
{
    (void)s;
    g->chars[g->char_].facing = (int8_t)facing;
    g->mvp = 0;
    er_ask(g, ER_ACTIVATION, g->decider);
}
