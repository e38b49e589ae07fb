/* Close combat against figures and doors, and shooting (rules/combat.py, sections 12 and 13).
 * Dice are rolled in the reference's order: the attacker's, then the defender's; the targeting
 * roll, then (on a hit) the damage roll. */
#include "core.h"

/* combat.enemy_at: a living enemy of c on square, else -1. */
int er_enemy_at(const Game *g, const Scn *s, int c, int square)
{
    int other = er_figure_at(g, s, square, c);
    return other >= 0 && s->chars[other].faction != s->chars[c].faction ? other : -1;
}

/* combat.close_combat_targets: ER-CC-1, ER-CC-10, directions holding an adjacent living enemy or
 * a closed intact door (bit d). */
uint32_t er_close_combat_targets(const Game *g, const Scn *s, int c)
{
    int square = g->chars[c].square;
    uint32_t found = 0;
    for (int d = 0; d < 4; d++) {
        if (er_closed_door(g, s, square, d) >= 0) {
            found |= 1u << d;
            continue;
        }
        int target = er_step_target(g, s, square, d);
        if (target >= 0 && er_enemy_at(g, s, c, target) >= 0)
            found |= 1u << d;
    }
    return found;
}

/* combat.shoot_targets: ER-SHOOT-1/-2, living enemy characters in line of sight of c's ready
 * weapon (bit i). */
uint32_t er_shoot_targets(const Game *g, const Scn *s, int c)
{
    const ErChar *ch = &g->chars[c];
    if (!s->chars[c].has_weapon || !ch->weapon_ready)
        return 0;
    uint32_t enemies = 0;
    for (int i = 0; i < s->n_chars; i++)
        if (!g->chars[i].dead && s->chars[i].faction != s->chars[c].faction)
            enemies |= 1u << i;
    if (!enemies)
        return 0;
    uint8_t occupied[ER_MAX_SQUARES], closed[ER_MAX_DOORS];
    er_occupied_squares(g, s, occupied);
    er_closed_doors(g, s, closed);
    uint32_t found = 0;
    for (uint32_t m = enemies; m; m &= m - 1) {
        int i = __builtin_ctz(m);
        if (er_has_line_of_sight(s, ch->square, ch->facing, g->chars[i].square, occupied, closed))
            found |= 1u << i;
    }
    return found;
}

/* combat.resolve_close_combat: ER-CC-1..10, fight the enemy or door on side d with n CP on the
 * section. */
void er_resolve_close_combat(Game *g, const Scn *s, int attacker, int d, int n)
{
    int square = g->chars[attacker].square;
    int door = er_closed_door(g, s, square, d);
    if (door >= 0) {
        er_attack_door(g, s, attacker, d, door, n);
        return;
    }
    int defender = er_enemy_at(g, s, attacker, er_step_target(g, s, square, d));
    er_attack_figure(g, s, attacker, defender, d, n);
}

/* combat.attack_door: ER-CC-10, only the attacker rolls; hits count 1, criticals 3, vs the
 * door. */
void er_attack_door(Game *g, const Scn *s, int attacker, int d, int door, int n)
{
    int dice = er_stats(g, s, attacker)->cc[er_arc_colour(g, s, attacker, d)] + (n - 1);
    uint8_t faces[ER_MAX_ROLL];
    int crits, hits;
    er_roll(g, ER_YELLOW, dice, faces);
    er_combat_result(faces, dice > 0 ? dice : 0, &crits, &hits);
    if (hits + 3 * crits >= s->doors[door].defense)
        g->doors[door] = ER_DESTROYED;
}

/* combat.attack_figure: ER-CC-2..8, both roll at once; criticals first (attacker's, defender's),
 * then normals. */
void er_attack_figure(Game *g, const Scn *s, int attacker, int defender, int d, int n)
{
    const ErStats *a_stats = er_stats(g, s, attacker), *d_stats = er_stats(g, s, defender);
    int a_dice = a_stats->cc[er_arc_colour(g, s, attacker, d)] + (n - 1);   /* ER-CC-3 */
    int d_dice = d_stats->cc[er_arc_colour(g, s, defender, (d + 2) % 4)];
    uint8_t a_faces[ER_MAX_ROLL], d_faces[ER_MAX_ROLL];
    int a_crit, a_hits, d_crit, d_hits;
    er_roll(g, ER_YELLOW, a_dice, a_faces);
    er_combat_result(a_faces, a_dice > 0 ? a_dice : 0, &a_crit, &a_hits);
    er_roll(g, ER_YELLOW, d_dice, d_faces);
    er_combat_result(d_faces, d_dice > 0 ? d_dice : 0, &d_crit, &d_hits);
    int attack_value = a_hits + a_stats->auto_hits;
    er_wound(g, s, defender, a_crit);
    er_wound(g, s, attacker, d_crit);
    if (!g->chars[defender].dead) {
        const ErStats *now = er_stats(g, s, defender);   /* ER-CC-6: a flip's Armour at once */
        int defensive_value = d_hits + now->auto_hits + now->arm;
        if (attack_value > defensive_value)
            er_wound(g, s, defender, attack_value - defensive_value);
    }
    er_take_cards_from_the_fallen(g, s, attacker, defender);
    er_check_elimination(g, s);
}

/* combat.take_cards_from_the_fallen: ER-DOOR-12, a surviving combatant takes its victim's cards;
 * both dead, none move. */
void er_take_cards_from_the_fallen(Game *g, const Scn *s, int attacker, int defender)
{
    (void)s;
    ErChar *a = &g->chars[attacker], *b = &g->chars[defender];
    if (b->dead && !a->dead) {
        a->cards = (int16_t)(a->cards + b->cards);
        b->cards = 0;
    } else if (a->dead && !b->dead) {
        b->cards = (int16_t)(b->cards + a->cards);
        a->cards = 0;
    }
}

/* combat.resolve_shot: ER-SHOOT-4..9, targeting roll with aim extra dice, ammo, then damage
 * (pour it on). */
void er_resolve_shot(Game *g, const Scn *s, int shooter, int target, int n, int aim)
{
    const ErWeapon *weapon = &s->chars[shooter].weapon;
    ErChar *ch = &g->chars[shooter], *tg = &g->chars[target];
    int n_faces = er_stats(g, s, shooter)->sht + weapon->targeting_bonus + aim;
    uint8_t faces[ER_MAX_ROLL];
    er_roll(g, ER_YELLOW, n_faces, faces);
    int distance = 0, perfect = 0, out_of_ammo = 0;
    for (int i = 0; i < n_faces; i++) {
        distance += ER_Y_DISTANCE[faces[i]];
        perfect |= faces[i] == ER_Y_PERFECT;
        out_of_ammo |= faces[i] == ER_Y_OUT_OF_AMMO;
    }
    int hit = perfect || distance >= er_range_to(s, ch->square, tg->square);
    if (weapon->out_of_ammo_icon && out_of_ammo)
        ch->weapon_ready = 0;   /* ER-SHOOT-6: after this shot */
    if (!hit)
        return;
    int arc = er_fire_arc(s, ch->square, ch->facing, tg->square);
    int dice = (arc == ER_RED ? weapon->damage_red : weapon->damage_orange) + (n - 1 - aim);
    uint8_t damage[ER_MAX_ROLL];
    int crits, hits;
    er_roll(g, ER_YELLOW, dice, damage);
    er_combat_result(damage, dice > 0 ? dice : 0, &crits, &hits);
    er_wound(g, s, target, crits);
    if (!tg->dead) {
        int armour = er_stats(g, s, target)->arm;
        if (hits > armour)
            er_wound(g, s, target, hits - armour);
    }
    er_check_elimination(g, s);
}
