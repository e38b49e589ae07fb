/* The compiled Earth Reborn core: the one shared layout of the C port.
 *
 * The game state's structs (GameState, CharacterState, AssignedTile of rules/state.py), generated
 * from rules/state_schema.py into state_struct.h; a C mirror of scenario/model.py (Scenario and
 * its records), the action codec's bases (actions.KINDS), the observation layout's
 * offsets, and one prototype per function of the rules modules: the Python function `name` of
 * module `m` is `er_name` here (private helpers `_name` are `er_name` too), with the Python
 * module named in each block. The Python engine is the reference; every function ports its
 * namesake rule by rule.
 *
 * Conventions:
 *  - `Game` is one game's whole state (plain data: copying it with memcpy clones the game);
 *    `Scn` is the immutable scenario, codec and observation layout, shared by every game.
 *  - Players are 0/1 (index in scenario.factions), characters/tiles/doors/terminals/caches are
 *    indices into the scenario's tuples, squares are y * width + x; -1 means "none" as in Python.
 *  - Piles of tiles (bag, discard, box, hands) are bitmasks over tile indices: the set bits in
 *    increasing order are exactly the Python sorted list (pile.pop(i) takes the i-th set bit).
 *  - Python lists that functions return are bitmasks in increasing index order where the
 *    elements are small indices (directions, characters), else (array, count) pairs.
 *  - Legal-action lists are ErActs, appended in the same order as Python appends (the engine
 *    sorts them at the end, as engine.legal_actions does).
 *  - A die face is coded 0..11: colour * 6 + (value - 1), yellow (ER_YELLOW = 0) then black
 *    (ER_BLACK = 1), the order of dice.FACES.
 */
#ifndef ER_CORE_H
#define ER_CORE_H

#include <stdint.h>

/* --- Fixed maxima (Vault Raid: 9x7 board, 5 characters, 24 tiles, 5 doors, 2 terminals, 1 cache).
 * The Games constructor refuses a scenario beyond any of them with a ValueError naming it. */
#define ER_MAX_SQUARES 256        /* width * height */
#define ER_MAX_TILES 64           /* tiles (piles are uint64_t bitmasks) */
#define ER_SECTION_SLOTS 16       /* actions.SECTION_SLOTS = 4 tiles x 4 sections */
#define ER_MAX_CP 40              /* actions.MAX_CP: DUEL_BID covers 0..MAX_CP */
#define ER_MAX_ACTIONS 1024       /* codec.size */

/* The game state's structs (Game, ErChar, ErAssigned) and the maxima of its arrays (characters,
 * doors, terminals, caches, tiles a character holds, dice), generated from rules/state_schema.py. */
#include "state_struct.h"

/* --- Enums (their order is the order of the Python tuples the observation indexes) ---------- */

/* state.PHASES (ER-TURN-1) */
enum { ER_INITIATIVE = 0, ER_ACTIVITY, ER_FINAL, ER_OVER, ER_N_PHASES };

/* state.DECISIONS (section 18) */
enum {
    ER_MULLIGAN = 0,
    ER_DUEL_ASK,
    ER_DUEL_ANSWER,
    ER_ROUND,
    ER_CHOOSE_DISCARD,
    ER_ACTIVATION,
    ER_MOVING,
    ER_TARGET,
    ER_CP,
    ER_AIM,
    ER_DISCARD,
    ER_GAME_OVER,
    ER_N_DECISIONS
};

/* state.DOOR_STATES (ER-DOOR-1) */
enum { ER_CLOSED = 0, ER_OPENED = 1, ER_DESTROYED = 2 };

/* model.DOOR_KINDS (ER-DOOR-1) */
enum { ER_SLIDING = 0, ER_WOODEN, ER_MAGNETIC_SLIDING, ER_MAGNETIC_WOODEN };

/* model.ORDER_TYPES (ER-TILE-1): M C F I S */
enum { ER_MOVE = 0, ER_CLOSE_COMBAT, ER_SHOOT, ER_INTERACT, ER_SEARCH, ER_N_ORDER_TYPES };

/* Section colours of loader._COLOURS: k (black), r (red), g (gold) */
enum { ER_BLACK_SECTION = 0, ER_RED_SECTION, ER_GOLD_SECTION };

/* model: directions N E S W (clockwise), edge codes, close-combat arc colours (ER-LOS-1) */
enum { ER_N = 0, ER_E, ER_S, ER_W };
#define ER_WALL (-1)
#define ER_OPEN_EDGE (-2)
enum { ER_DARK_BLUE = 0, ER_LIGHT_BLUE, ER_GREY };

/* sight: fire arcs (ER-LOS-3) */
enum { ER_RED = 0, ER_ORANGE, ER_WHITE };

/* dice: colours (ER-DICE-1) */
enum { ER_YELLOW = 0, ER_BLACK = 1 };

/* Abilities (loader.ABILITIES), a bitmask per character */
#define ER_ABIL_SAW_DOOR 1u

/* Cache items (loader.CACHE_ITEMS) */
enum { ER_ITEM_MAGNETIC_CARD = 0 };

/* GameState.winner: None while running, -1 draw, 0/1 the winning player */
#define ER_NO_WINNER (-2)
#define ER_DRAW (-1)

/* actions.KINDS, in codec order (Scn.base[kind] = codec.base[name]) */
enum {
    ER_K_MULLIGAN_KEEP = 0,
    ER_K_MULLIGAN_REDRAW,
    ER_K_DUEL_BID,
    ER_K_ACTIVATE,
    ER_K_REACTIVATE,
    ER_K_DRAW_BAG,
    ER_K_PICK_DISCARD,
    ER_K_PASS,
    ER_K_CHOOSE_DISCARD,
    ER_K_ASSIGN,
    ER_K_MOVE_CP,
    ER_K_SELECT_ORDER,
    ER_K_RELOAD,
    ER_K_SAW_DOOR,
    ER_K_END_ROUND,
    ER_K_STEP,
    ER_K_OPEN,
    ER_K_CLOSE,
    ER_K_GIVE_CARD,
    ER_K_TAKE_CARD,
    ER_K_PICKUP_CARD,
    ER_K_END_MOVE,
    ER_K_CHOOSE_TARGET_DIR,
    ER_K_CHOOSE_TARGET_CHAR,
    ER_K_CHOOSE_CP,
    ER_K_CHOOSE_AIM,
    ER_K_DISCARD_TILE,
    ER_K_KEEP_HAND,
    ER_N_KINDS
};

/* --- The scenario (scenario/model.py), read once by the Games constructor ------------------- */

typedef struct {            /* model.StatLine, one side of a card (ER-CHAR-2) */
    int mov, cc[3], sht, arm, lp, maxcp, bonus, tec, srch, auto_hits;
} ErStats;

typedef struct {            /* model.Weapon (ER-SCN-6) */
    int targeting_bonus, damage_red, damage_orange, out_of_ammo_icon;
} ErWeapon;

typedef struct {            /* model.CharacterSpec (ER-SCN-4..7) */
    int faction;            /* index in scenario.factions (GameState.faction_of) */
    ErStats healthy, wounded;
    int arcs[4];            /* colour of front, right, back, left */
    int has_weapon;         /* weapon is not None */
    ErWeapon weapon;
    uint32_t abilities;     /* ER_ABIL_* bits */
    int start, facing, cards;
} ErCharSpec;

typedef struct {            /* model.Section (ER-TILE-1) */
    int type;               /* ER_MOVE .. ER_SEARCH */
    int max;
    int colour;             /* ER_*_SECTION */
} ErSection;

typedef struct {            /* model.Door (ER-DOOR-1) */
    int kind, a, b, defense, magnetic, sliding;
} ErDoor;

typedef struct {            /* model.MissionRules (ER-SCN-10, -11) */
    int hack_mp;
    int hacker_faction;     /* player index */
    int kill_mp[2];         /* per player (faction index); 0 where the dict has none */
    int unhacked_terminal_mp[2];
    int interact_threshold, search_threshold, end_when_all_hacked;
    int hold_mp[2];         /* ER-SCN-14: MP per hold square held at the end, per player */
    int n_hold;
    int hold_square[ER_MAX_SQUARES];
} ErMission;

typedef struct {            /* offsets of observation.Observer (at, char_at, section_at) */
    int size;
    /* top-level fields (Observer.at) */
    int faction, turn, phase, decision, flags, cp, mp, tile_counts, redrew, bids, hand, discard,
        doors, hacked, caches, round, section, target_direction, target_character, last_roll,
        characters;
    /* one character's block (Observer.char_width, char_at) */
    int char_width;
    int c_mine, c_alive, c_wounded, c_wounds, c_engaged, c_cp_spent, c_cp_left, c_cards,
        c_has_weapon, c_weapon_ready, c_activated, c_x, c_y, c_facing, c_tried, c_sections;
    /* one section's record (Observer.section_width, section_at) */
    int section_width;
    int s_type, s_max, s_cp, s_present;
} ErObsLayout;

typedef struct {            /* model.Scenario + codec + observation layout */
    /* Board (ER-SCN-1) */
    int width, height, n_squares;
    uint8_t void_[ER_MAX_SQUARES];
    int16_t edge[ER_MAX_SQUARES][4];       /* ER_WALL, ER_OPEN_EDGE or a door id */
    int16_t neighbor[ER_MAX_SQUARES][4];   /* -1 off the map */
    int n_doors;
    ErDoor doors[ER_MAX_DOORS];
    /* Characters, tiles, floor elements */
    int n_chars;
    ErCharSpec chars[ER_MAX_CHARS];
    int n_tiles;
    ErSection tiles[ER_MAX_TILES][4];
    int n_terminals;
    int terminal_square[ER_MAX_TERMINALS];
    int n_caches;
    int cache_square[ER_MAX_CACHES];
    int cache_item[ER_MAX_CACHES];
    ErMission mission;
    /* Turn structure (ER-SCN-8, -9) */
    int base_cp[2], start_mp[2];
    int turns;
    int initiative_odd, initiative_even, marker_at_setup;   /* player indices */
    int initiative_duel;
    int hand_limit, max_tiles_per_character;
    /* Codec (actions.codec_for) */
    int base[ER_N_KINDS];
    int n_actions;
    /* Observation (observation.observer_for) */
    ErObsLayout obs;
} Scn;

/* A list of actions being built (the `out: list[int]` of the legal_* functions). */
typedef struct {
    int n;
    int v[ER_MAX_ACTIONS];
} ErActs;

static inline void er_push(ErActs *out, int a) { out->v[out->n++] = a; }

/* Bit helpers for piles and masks. */
static inline int er_popcount64(uint64_t m) { return __builtin_popcountll(m); }
static inline int er_popcount32(uint32_t m) { return __builtin_popcount(m); }

/* --- core/rng.py: SplitMix64 ------------------------------------------------------------------ */
uint64_t er_rng_next64(uint64_t *state);
int er_rng_below(uint64_t *state, int n);
void er_rng_shuffle(uint64_t *state, int *items, int n);

/* --- rules/state.py ---------------------------------------------------------------------------- */
void er_game_init(Game *g, const Scn *s, uint64_t seed);           /* GameState.__init__ */
const ErStats *er_stats(const Game *g, const Scn *s, int c);       /* GameState.stats */
uint32_t er_living(const Game *g, const Scn *s, int player);       /* GameState.living, bit c */
int er_figure_at(const Game *g, const Scn *s, int square, int exclude);

/* --- rules/dice.py ----------------------------------------------------------------------------- */
extern const int8_t ER_Y_CRIT[7], ER_Y_HIT[7], ER_Y_DISTANCE[7], ER_Y_TEST[7], ER_B_SEARCH[7];
#define ER_Y_PERFECT 5
#define ER_Y_OUT_OF_AMMO 6
int er_inject(Game *g, const uint8_t *faces, int n);   /* -1 (nothing queued) if it overflows */
int er_next_injected(Game *g, int colour);             /* dice._next_injected: value or 0 */
/* dice.roll: rolls n dice of colour into faces[] (values 1..6) and appends them to last_roll. */
void er_roll(Game *g, int colour, int n, uint8_t *faces);
void er_combat_result(const uint8_t *faces, int n, int *crits, int *hits);
int er_yellow_test_points(const uint8_t *faces, int n);
int er_search_points(const uint8_t *faces, int n);

/* --- rules/tiles.py ---------------------------------------------------------------------------- */
void er_refill_bag_from_discard(Game *g, const Scn *s);
int er_draw_from_bag(Game *g, const Scn *s, int player);
void er_draw_up_to(Game *g, const Scn *s, int player, int limit);
void er_take_from_discard(Game *g, const Scn *s, int player, int tile);
void er_discard_from_hand(Game *g, const Scn *s, int player, int tile);
void er_assign_from_hand(Game *g, const Scn *s, int player, int tile);

/* --- rules/geometry.py ------------------------------------------------------------------------- */
int er_step_target(const Game *g, const Scn *s, int square, int d);
int er_closed_door(const Game *g, const Scn *s, int square, int d);
int er_arc_colour(const Game *g, const Scn *s, int c, int d);
void er_occupied_squares(const Game *g, const Scn *s, uint8_t occ[ER_MAX_SQUARES]);
void er_closed_doors(const Game *g, const Scn *s, uint8_t closed[ER_MAX_DOORS]);

/* --- rules/sight.py (the board is the Scn's) --------------------------------------------------- */
int er_fire_arc(const Scn *s, int from_sq, int facing, int to_sq);
int er_range_to(const Scn *s, int a, int b);
int er_has_line_of_sight(const Scn *s, int from_sq, int facing, int to_sq, const uint8_t *occupied,
                         const uint8_t *door_closed);
int er_way_blocked(const Scn *s, int p, int side, int to_side, int side_to_q,
                   const uint8_t *occupied, const uint8_t *door_closed);

/* --- rules/wounds.py --------------------------------------------------------------------------- */
void er_wound(Game *g, const Scn *s, int c, int n);
void er_kill(Game *g, const Scn *s, int c);
void er_end_game(Game *g, int winner);
int er_check_elimination(Game *g, const Scn *s);

/* --- rules/turn.py ----------------------------------------------------------------------------- */
void er_ask(Game *g, int decision, int player);
void er_begin_turn(Game *g, const Scn *s);
void er_drawing_order(const Game *g, int order[2]);
void er_initiative_draws(Game *g, const Scn *s, int first);
int er_can_redraw(const Game *g, const Scn *s, int player);
void er_mulligan(Game *g, const Scn *s, int redraw);
int er_command_point_income(const Game *g, const Scn *s, int player);
void er_receive_command_points(Game *g, const Scn *s);
void er_determine_initiative(Game *g, const Scn *s);
void er_duel_bid(Game *g, const Scn *s, int bid);
void er_start_activity(Game *g, const Scn *s);
void er_begin_round(Game *g, const Scn *s);
void er_close_sliding_doors(Game *g, const Scn *s);
void er_end_round(Game *g, const Scn *s);
void er_pass_round(Game *g, const Scn *s);
int er_victory_check(Game *g, const Scn *s);
void er_final_phase(Game *g, const Scn *s);
void er_discard_tile(Game *g, const Scn *s, int tile);
void er_keep_hand(Game *g, const Scn *s);

/* --- rules/combat.py --------------------------------------------------------------------------- */
int er_enemy_at(const Game *g, const Scn *s, int c, int square);
uint32_t er_close_combat_targets(const Game *g, const Scn *s, int c);   /* bit d */
uint32_t er_shoot_targets(const Game *g, const Scn *s, int c);          /* bit i */
void er_resolve_close_combat(Game *g, const Scn *s, int attacker, int d, int n);
void er_attack_door(Game *g, const Scn *s, int attacker, int d, int door, int n);
void er_attack_figure(Game *g, const Scn *s, int attacker, int defender, int d, int n);
void er_take_cards_from_the_fallen(Game *g, const Scn *s, int attacker, int defender);
void er_resolve_shot(Game *g, const Scn *s, int shooter, int target, int n, int aim);

/* --- rules/orders.py --------------------------------------------------------------------------- */
int er_can_spend(const Game *g, const Scn *s, int c);
void er_spend(Game *g, const Scn *s, int c, int n);
/* orders.section_of: the assigned tile of section id `section` (ER-ENV-6); *index and *printed
 * (either may be NULL) receive the index 0..3 and the printed section. */
ErAssigned *er_section_of(Game *g, const Scn *s, int c, int section, int *index,
                          const ErSection **printed);
int er_terminal_here(const Game *g, const Scn *s, int c);
int er_cache_here(const Game *g, const Scn *s, int c);
int er_order_possible(const Game *g, const Scn *s, int c, int order_type);
uint32_t er_saw_directions(const Game *g, const Scn *s, int c);         /* bit d */
void er_spending_actions(Game *g, const Scn *s, int c, ErActs *out, int moving);
void er_activation_actions(Game *g, const Scn *s, int c, int first, ErActs *out);
void er_legal_activation(Game *g, const Scn *s, ErActs *out);
void er_assign(Game *g, const Scn *s, int tile);
void er_move_cp(Game *g, const Scn *s, int section);
void er_select_order(Game *g, const Scn *s, int section);
void er_reload(Game *g, const Scn *s);
void er_saw_door(Game *g, const Scn *s, int d);
void er_legal_target(Game *g, const Scn *s, ErActs *out);
int er_cp_choices(Game *g, const Scn *s);
void er_legal_cp(Game *g, const Scn *s, ErActs *out);
void er_legal_aim(Game *g, const Scn *s, ErActs *out);
void er_choose_target(Game *g, const Scn *s, int target);
void er_choose_cp(Game *g, const Scn *s, int n);
void er_execute_order(Game *g, const Scn *s, int aim);
void er_interact_terminal(Game *g, const Scn *s, int c, int n);
void er_search_cache(Game *g, const Scn *s, int c, int n);

/* --- rules/movement.py ------------------------------------------------------------------------- */
int er_has_way_out(const Game *g, const Scn *s, int c, int square, int mvp);
int er_can_step(const Game *g, const Scn *s, int c, int d);
/* judged with the door in its new state: g->doors is changed and restored (so not const) */
int er_door_toggle_keeps_way_out(Game *g, const Scn *s, int c, int door, int new_state);
int er_openable_door(const Game *g, const Scn *s, int c, int d);
int er_closable_door(const Game *g, const Scn *s, int c, int d);
int er_friend_here(const Game *g, const Scn *s, int c);
int er_marker_with_card(const Game *g, const Scn *s, int c);
void er_legal_move(Game *g, const Scn *s, ErActs *out);
void er_step(Game *g, const Scn *s, int d);
void er_open_door(Game *g, const Scn *s, int d);
void er_close_door(Game *g, const Scn *s, int d);
void er_give_card(Game *g, const Scn *s);
void er_take_card(Game *g, const Scn *s);
void er_pickup_card(Game *g, const Scn *s);
void er_end_move(Game *g, const Scn *s, int facing);

/* --- rules/activity.py ------------------------------------------------------------------------- */
int er_reactivation_has_use(Game *g, const Scn *s, int c);
void er_legal_round(Game *g, const Scn *s, ErActs *out);
void er_legal_choose_discard(Game *g, const Scn *s, ErActs *out);
void er_activate(Game *g, const Scn *s, int c, int again);
void er_draw_bag(Game *g, const Scn *s);
void er_pick_discard(Game *g, const Scn *s);
void er_choose_discard(Game *g, const Scn *s, int tile);

/* --- rules/engine.py --------------------------------------------------------------------------- */
void er_new_game(Game *g, const Scn *s, uint64_t seed);
void er_legal_mulligan(Game *g, const Scn *s, ErActs *out);
void er_legal_duel(Game *g, const Scn *s, ErActs *out);
void er_legal_discard(Game *g, const Scn *s, ErActs *out);
/* engine.legal_actions: the sorted legal set into out (empty once the game is over) */
void er_legal_actions(Game *g, const Scn *s, ErActs *out);
/* engine.apply_action for an integer: 0 applied, -1 illegal (nothing changed) */
int er_apply_action(Game *g, const Scn *s, int action);
/* the same for an action the caller knows to be legal (the vector step checks every slot first) */
void er_apply_legal(Game *g, const Scn *s, int action);
/* the kind (ER_K_*) and argument of an action, as codec.decode; -1 kind if out of range */
int er_decode(const Scn *s, int action, int *arg);

/* --- observation.py ---------------------------------------------------------------------------- */
/* Observer.observe(state, me) into out[s->obs.size] (every float written) */
void er_observe(const Game *g, const Scn *s, int me, float *out);
/* s->obs from the observation Layout object (a PyObject *), every block's width checked against
 * the scenario; 0, or -1 with a Python exception set. Called by the Games constructor. */
struct _object;
int er_obs_init(ErObsLayout *out, struct _object *layout, const Scn *s);

#endif /* ER_CORE_H */
