/* An activated character's round: assigning tiles and spending CP on orders (rules/orders.py,
 * sections 7, 15).
 *
 * Covers the decisions with nothing in progress (ER-ENV-3), building and resolving a non-Move
 * order (ER-ENV-5), reloading (ER-SHOOT-7), Jack Saw's saw (ER-ABIL-1), Interact (ER-INT-3) and
 * Search (ER-SRCH-2). The Move order lives in movement.c.
 */
#include <stddef.h>

#include "core.h"

/* --- CP bookkeeping (ER-CP-3, -4, -7, ER-ORD-13) ------------------------------------------- */

/* orders.can_spend: ER-ENV-10, the pool holds a CP and c is below its current MAXCP
 * (ER-CP-3/-4). */
int er_can_spend(const Game *g, const Scn *s, int c)
{
    return g->cp[s->chars[c].faction] >= 1 && g->chars[c].cp_spent < er_stats(g, s, c)->maxcp;
}

/* orders.spend: move n CP from the pool onto c's orders or card; they count toward MAXCP. */
void er_spend(Game *g, const Scn *s, int c, int n)
{
    g->cp[s->chars[c].faction] -= n;
    g->chars[c].cp_spent = (int16_t)(g->chars[c].cp_spent + n);
    g->acted = 1;
}

/* orders.section_of: (assigned tile, index, printed section) of section id 4 * slot + index
 * (ER-ENV-6). */
ErAssigned *er_section_of(Game *g, const Scn *s, int c, int section, int *index,
                          const ErSection **printed)
{
    ErAssigned *assigned = &g->chars[c].tiles[section >> 2];
    if (index)
        *index = section & 3;
    if (printed)
        *printed = &s->tiles[assigned->tile][section & 3];
    return assigned;
}

/* The printed section of section id `section` of c, for read-only callers. */
static const ErSection *printed_section(const Game *g, const Scn *s, int c, int section)
{
    return &s->tiles[g->chars[c].tiles[section >> 2].tile][section & 3];
}

/* --- Which orders are possible ------------------------------------------------------------- */

/* orders.terminal_here: ER-INT-3, an unhacked terminal under c that c may still try this turn,
 * else -1. */
int er_terminal_here(const Game *g, const Scn *s, int c)
{
    if (s->chars[c].faction != s->mission.hacker_faction)
        return -1;
    const ErChar *ch = &g->chars[c];
    for (int t = 0; t < s->n_terminals; t++)
        if (s->terminal_square[t] == ch->square && !g->hacked[t] && !(ch->tried >> t & 1u))
            return t;
    return -1;
}

/* orders.cache_here: ER-SRCH-2, a cache under c whose item is still there, else -1. */
int er_cache_here(const Game *g, const Scn *s, int c)
{
    int square = g->chars[c].square;
    for (int i = 0; i < s->n_caches; i++)
        if (s->cache_square[i] == square && g->cache_full[i])
            return i;
    return -1;
}

/* orders.order_possible: ER-ENV-10, a complete order of order_type exists for c right now. */
int er_order_possible(const Game *g, const Scn *s, int c, int order_type)
{
    if (order_type == ER_CLOSE_COMBAT)
        return er_close_combat_targets(g, s, c) != 0;
    if (order_type == ER_SHOOT)
        return er_shoot_targets(g, s, c) != 0;
    if (order_type == ER_INTERACT)
        return er_terminal_here(g, s, c) >= 0;
    return er_cache_here(g, s, c) >= 0;
}

/* orders.saw_directions: ER-ABIL-1, closed intact doors on edges of Jack Saw's square that lie in
 * a dark-blue arc (bit d). */
uint32_t er_saw_directions(const Game *g, const Scn *s, int c)
{
    if (!(s->chars[c].abilities & ER_ABIL_SAW_DOOR))
        return 0;
    int square = g->chars[c].square;
    uint32_t found = 0;
    for (int d = 0; d < 4; d++)
        if (er_closed_door(g, s, square, d) >= 0 && er_arc_colour(g, s, c, d) == ER_DARK_BLUE)
            found |= 1u << d;
    return found;
}

/* orders.spending_actions: MOVE_CP, and (with nothing in progress) SELECT_ORDER, RELOAD and
 * SAW_DOOR (ER-ENV-10). */
void er_spending_actions(Game *g, const Scn *s, int c, ErActs *out, int moving)
{
    if (!er_can_spend(g, s, c))
        return;
    int move_base = s->base[ER_K_MOVE_CP], select_base = s->base[ER_K_SELECT_ORDER];
    int possible[ER_N_ORDER_TYPES] = {-1, -1, -1, -1, -1};   /* -1: not asked yet */
    const ErChar *ch = &g->chars[c];
    for (int slot = 0; slot < ch->n_tiles; slot++) {
        const ErAssigned *assigned = &ch->tiles[slot];
        for (int index = 0; index < 4; index++) {
            const ErSection *section = &s->tiles[assigned->tile][index];
            int placed = assigned->cp[index];
            if (section->type == ER_MOVE) {
                if (placed < section->max)
                    er_push(out, move_base + 4 * slot + index);
            } else if (!moving && placed == 0) {
                if (possible[section->type] < 0)
                    possible[section->type] = er_order_possible(g, s, c, section->type);
                if (possible[section->type])
                    er_push(out, select_base + 4 * slot + index);
            }
        }
    }
    if (moving)
        return;
    if (s->chars[c].has_weapon && !ch->weapon_ready)
        er_push(out, s->base[ER_K_RELOAD]);
    int saw = s->base[ER_K_SAW_DOOR];
    for (uint32_t m = er_saw_directions(g, s, c); m; m &= m - 1)
        er_push(out, saw + __builtin_ctz(m));
}

/* orders.activation_actions: ER-ENV-3 without END_ROUND; ASSIGN only as the round's first
 * decision (ER-ORD-1/-2/-4). */
void er_activation_actions(Game *g, const Scn *s, int c, int first, ErActs *out)
{
    uint64_t hand = g->hands[s->chars[c].faction];
    if (first && hand && g->chars[c].n_tiles < s->max_tiles_per_character) {
        int base = s->base[ER_K_ASSIGN];
        for (uint64_t m = hand; m; m &= m - 1)
            er_push(out, base + __builtin_ctzll(m));
    }
    er_spending_actions(g, s, c, out, 0);
}

/* orders.legal_activation: ER-ENV-3 and ER-ACT-8, END_ROUND after a first activation, or once a
 * reactivation acted. */
void er_legal_activation(Game *g, const Scn *s, ErActs *out)
{
    er_activation_actions(g, s, g->char_, g->round_decisions == 0, out);
    if (!g->reactivation || g->acted)
        er_push(out, s->base[ER_K_END_ROUND]);
}

/* --- Decisions with nothing in progress ---------------------------------------------------- */

/* orders.assign: ER-ORD-1/-5, place a tile from behind the screen beside the activated
 * character's card. */
void er_assign(Game *g, const Scn *s, int tile)
{
    er_assign_from_hand(g, s, g->decider, tile);
    ErChar *ch = &g->chars[g->char_];
    ErAssigned *assigned = &ch->tiles[ch->n_tiles++];
    assigned->tile = (int8_t)tile;
    for (int k = 0; k < 4; k++)
        assigned->cp[k] = 0;
    g->acted = 1;
}

/* orders.move_cp: ER-MOV-1/-2, ER-ORD-10, 1 CP on a Move section gives MOV movement points
 * (merging). */
void er_move_cp(Game *g, const Scn *s, int section)
{
    int c = g->char_, index;
    ErAssigned *assigned = er_section_of(g, s, c, section, &index, NULL);
    er_spend(g, s, c, 1);
    assigned->cp[index]++;
    g->mvp += er_stats(g, s, c)->mov;
    if (g->decision != ER_MOVING) {
        g->transferred = 0;
        er_ask(g, ER_MOVING, g->decider);
    }
}

/* orders.select_order: ER-ENV-5, start a non-Move order on an empty section; a target step for
 * Close Combat and Shoot. */
void er_select_order(Game *g, const Scn *s, int section)
{
    g->section = (int8_t)section;
    int type = printed_section(g, s, g->char_, section)->type;
    er_ask(g, type == ER_CLOSE_COMBAT || type == ER_SHOOT ? ER_TARGET : ER_CP, g->decider);
}

/* orders.reload: ER-SHOOT-7, 1 CP on the card makes the weapon ready again. */
void er_reload(Game *g, const Scn *s)
{
    er_spend(g, s, g->char_, 1);
    g->chars[g->char_].weapon_ready = 1;
}

/* orders.saw_door: ER-ABIL-1, 1 CP on Jack Saw's card destroys the door, no roll. */
void er_saw_door(Game *g, const Scn *s, int d)
{
    er_spend(g, s, g->char_, 1);
    g->doors[er_closed_door(g, s, g->chars[g->char_].square, d)] = ER_DESTROYED;
}

/* --- Building a non-Move order (ER-ENV-5) -------------------------------------------------- */

/* orders.legal_target: CHOOSE_TARGET, a direction for Close Combat, an enemy in LoS for
 * Shoot. */
void er_legal_target(Game *g, const Scn *s, ErActs *out)
{
    int c = g->char_;
    int base;
    uint32_t targets;
    if (printed_section(g, s, c, g->section)->type == ER_CLOSE_COMBAT) {
        base = s->base[ER_K_CHOOSE_TARGET_DIR];
        targets = er_close_combat_targets(g, s, c);
    } else {
        base = s->base[ER_K_CHOOSE_TARGET_CHAR];
        targets = er_shoot_targets(g, s, c);
    }
    for (uint32_t m = targets; m; m &= m - 1)
        er_push(out, base + __builtin_ctz(m));
}

/* orders.cp_choices: ER-ENV-5, the most CP the order may take: section max, pool, MAXCP left,
 * and 4. */
int er_cp_choices(Game *g, const Scn *s)
{
    int c = g->char_;
    int most = printed_section(g, s, c, g->section)->max;
    int pool = g->cp[s->chars[c].faction];
    int room = er_stats(g, s, c)->maxcp - g->chars[c].cp_spent;
    if (pool < most)
        most = pool;
    if (room < most)
        most = room;
    return most < 4 ? most : 4;
}

/* orders.legal_cp: CHOOSE_CP(n), 1 <= n <= cp_choices. */
void er_legal_cp(Game *g, const Scn *s, ErActs *out)
{
    int base = s->base[ER_K_CHOOSE_CP], most = er_cp_choices(g, s);
    for (int n = 1; n <= most; n++)
        er_push(out, base + n - 1);
}

/* orders.legal_aim: CHOOSE_AIM(k), 0 <= k <= n - 1 (ER-SHOOT-4). */
void er_legal_aim(Game *g, const Scn *s, ErActs *out)
{
    int base = s->base[ER_K_CHOOSE_AIM];
    for (int k = 0; k < g->order_cp; k++)
        er_push(out, base + k);
}

/* orders.choose_target: record the direction or the enemy; then the CP step. */
void er_choose_target(Game *g, const Scn *s, int target)
{
    (void)s;
    g->target = (int8_t)target;
    er_ask(g, ER_CP, g->decider);
}

/* orders.choose_cp: record the CP; a Shoot with 2+ CP asks for improved targeting, anything else
 * resolves. */
void er_choose_cp(Game *g, const Scn *s, int n)
{
    g->order_cp = (int8_t)n;
    if (n >= 2 && printed_section(g, s, g->char_, g->section)->type == ER_SHOOT)
        er_ask(g, ER_AIM, g->decider);
    else
        er_execute_order(g, s, 0);
}

/* orders.execute_order: ER-ORD-6/-8, pay the CP onto the section (used up), carry the order out,
 * then go on. */
void er_execute_order(Game *g, const Scn *s, int aim)
{
    int c = g->char_, n = g->order_cp, index;
    const ErSection *section;
    ErAssigned *assigned = er_section_of(g, s, c, g->section, &index, &section);
    er_spend(g, s, c, n);
    assigned->cp[index] = (int8_t)n;
    if (section->type == ER_CLOSE_COMBAT)
        er_resolve_close_combat(g, s, c, g->target, n);
    else if (section->type == ER_SHOOT)
        er_resolve_shot(g, s, c, g->target, n, aim);
    else if (section->type == ER_INTERACT)
        er_interact_terminal(g, s, c, n);
    else if (section->type == ER_SEARCH)
        er_search_cache(g, s, c, n);
    g->section = -1;
    g->target = -1;
    g->order_cp = 0;
    if (g->decision == ER_GAME_OVER)
        return;
    if (g->chars[c].dead)
        er_end_round(g, s);   /* ER-WND-6 */
    else
        er_ask(g, ER_ACTIVATION, g->decider);
}

/* orders.interact_terminal: ER-INT-2/-3, TEC + (n - 1) yellow dice; 3 test points hack the
 * terminal for its MP. */
void er_interact_terminal(Game *g, const Scn *s, int c, int n)
{
    int t = er_terminal_here(g, s, c);
    if (t >= 0)   /* always: the order was only selectable on a terminal (ER-ENV-10) */
        g->chars[c].tried |= 1u << t;
    int dice = er_stats(g, s, c)->tec + n - 1;
    uint8_t faces[ER_MAX_ROLL];
    er_roll(g, ER_YELLOW, dice, faces);
    if (er_yellow_test_points(faces, dice > 0 ? dice : 0) >= s->mission.interact_threshold &&
        t >= 0) {
        g->hacked[t] = 1;
        g->mp[s->chars[c].faction] += s->mission.hack_mp;
    }
}

/* orders.search_cache: ER-SRCH-2, SRCH + (n - 1) black dice; 3 search points take the cache's
 * item for good. */
void er_search_cache(Game *g, const Scn *s, int c, int n)
{
    int i = er_cache_here(g, s, c);
    int dice = er_stats(g, s, c)->srch + n - 1;
    uint8_t faces[ER_MAX_ROLL];
    er_roll(g, ER_BLACK, dice, faces);
    if (er_search_points(faces, dice > 0 ? dice : 0) >= s->mission.search_threshold && i >= 0) {
        g->cache_full[i] = 0;
        g->chars[c].cards++;   /* the version-1 item is a magnetic card (ER-SCN-6) */
    }
}
