/* The game state's C structs (rules/state.py). Generated from rules/state_schema.py by fast/state_layout.py: do not edit. */
#ifndef ER_STATE_STRUCT_H
#define ER_STATE_STRUCT_H

#include <stddef.h>
#include <stdint.h>

#define ER_MAX_CHARS 16
#define ER_MAX_DOORS 32
#define ER_MAX_TERMINALS 16
#define ER_MAX_CACHES 16
#define ER_MAX_TILES_PER_CHAR 4
#define ER_MAX_ROLL 64
#define ER_MAX_DICE_QUEUE 1000

typedef struct { /* state.AssignedTile */
    int8_t tile;                            /* ER-ORD-3 */
    int8_t cp[4];
} ErAssigned;
_Static_assert(sizeof(ErAssigned) == 5, "ErAssigned: the size state_layout.py computes");
_Static_assert(offsetof(ErAssigned, tile) == 0, "ErAssigned.tile: its offset");
_Static_assert(offsetof(ErAssigned, cp) == 1, "ErAssigned.cp: its offset");

typedef struct { /* state.CharacterState */
    int16_t square;
    int8_t facing;
    int8_t wounded;                         /* card side: 0 = Healthy (ER-CHAR-1) */
    int8_t wounds;
    int8_t engaged;                         /* ER-CHAR-3 */
    int8_t dead;                            /* ER-WND-3 */
    int8_t weapon_ready;                    /* ER-SHOOT-6/7 */
    int16_t cp_spent;                       /* ER-CP-3 */
    int16_t cards;
    int8_t n_tiles;
    ErAssigned tiles[ER_MAX_TILES_PER_CHAR];
    uint32_t tried;                         /* terminals tried this turn, bit t (ER-INT-2) */
} ErChar;
_Static_assert(sizeof(ErChar) == 40, "ErChar: the size state_layout.py computes");
_Static_assert(offsetof(ErChar, square) == 0, "ErChar.square: its offset");
_Static_assert(offsetof(ErChar, facing) == 2, "ErChar.facing: its offset");
_Static_assert(offsetof(ErChar, wounded) == 3, "ErChar.wounded: its offset");
_Static_assert(offsetof(ErChar, wounds) == 4, "ErChar.wounds: its offset");
_Static_assert(offsetof(ErChar, engaged) == 5, "ErChar.engaged: its offset");
_Static_assert(offsetof(ErChar, dead) == 6, "ErChar.dead: its offset");
_Static_assert(offsetof(ErChar, weapon_ready) == 7, "ErChar.weapon_ready: its offset");
_Static_assert(offsetof(ErChar, cp_spent) == 8, "ErChar.cp_spent: its offset");
_Static_assert(offsetof(ErChar, cards) == 10, "ErChar.cards: its offset");
_Static_assert(offsetof(ErChar, n_tiles) == 12, "ErChar.n_tiles: its offset");
_Static_assert(offsetof(ErChar, tiles) == 13, "ErChar.tiles: its offset");
_Static_assert(offsetof(ErChar, tried) == 36, "ErChar.tried: its offset");

typedef struct { /* state.GameState */
    int32_t turn;
    int8_t phase;                           /* ER-TURN-1 */
    int8_t initiative;
    int8_t active;
    int8_t passes;                          /* ER-ACT-13 */
    int32_t cp[2];
    int32_t mp[2];
    uint64_t hands[2];
    int8_t redrew[2];                       /* ER-HID-9 */
    uint64_t bag;
    uint64_t discard;
    uint64_t box;
    int8_t doors[ER_MAX_DOORS];             /* ER-DOOR-1 */
    int8_t door_opened[ER_MAX_DOORS];
    ErChar chars[ER_MAX_CHARS];
    int8_t hacked[ER_MAX_TERMINALS];
    int8_t cache_full[ER_MAX_CACHES];
    int8_t decision;                        /* ER_MULLIGAN .. ER_GAME_OVER */
    int8_t decider;
    int8_t char_;                           /* state.char: activated character or -1 */
    int8_t reactivation;
    int8_t acted;
    int32_t round_decisions;
    int32_t mvp;                            /* ER-MOV-2 */
    int8_t transferred;                     /* ER-DOOR-10 */
    int8_t section;                         /* -1 or 4 * slot + index */
    int8_t target;                          /* -1, a direction or a character */
    int8_t order_cp;
    int32_t bids[2];                        /* -1 = not chosen (ER-INI-8) */
    int8_t winner;                          /* ER_NO_WINNER, ER_DRAW, 0 or 1 */
    uint64_t rng;                           /* SplitMix64 state */
    int32_t steps;
    int32_t n_last_roll;
    uint8_t last_roll[ER_MAX_ROLL];         /* face codes, in roll order (ER-HID-11) */
    int32_t n_dice_queue;
    uint8_t dice_queue[ER_MAX_DICE_QUEUE];  /* injected face codes (ER-DICE-4) */
} Game;
_Static_assert(sizeof(Game) == 1928, "Game: the size state_layout.py computes");
_Static_assert(offsetof(Game, turn) == 0, "Game.turn: its offset");
_Static_assert(offsetof(Game, phase) == 4, "Game.phase: its offset");
_Static_assert(offsetof(Game, initiative) == 5, "Game.initiative: its offset");
_Static_assert(offsetof(Game, active) == 6, "Game.active: its offset");
_Static_assert(offsetof(Game, passes) == 7, "Game.passes: its offset");
_Static_assert(offsetof(Game, cp) == 8, "Game.cp: its offset");
_Static_assert(offsetof(Game, mp) == 16, "Game.mp: its offset");
_Static_assert(offsetof(Game, hands) == 24, "Game.hands: its offset");
_Static_assert(offsetof(Game, redrew) == 40, "Game.redrew: its offset");
_Static_assert(offsetof(Game, bag) == 48, "Game.bag: its offset");
_Static_assert(offsetof(Game, discard) == 56, "Game.discard: its offset");
_Static_assert(offsetof(Game, box) == 64, "Game.box: its offset");
_Static_assert(offsetof(Game, doors) == 72, "Game.doors: its offset");
_Static_assert(offsetof(Game, door_opened) == 104, "Game.door_opened: its offset");
_Static_assert(offsetof(Game, chars) == 136, "Game.chars: its offset");
_Static_assert(offsetof(Game, hacked) == 776, "Game.hacked: its offset");
_Static_assert(offsetof(Game, cache_full) == 792, "Game.cache_full: its offset");
_Static_assert(offsetof(Game, decision) == 808, "Game.decision: its offset");
_Static_assert(offsetof(Game, decider) == 809, "Game.decider: its offset");
_Static_assert(offsetof(Game, char_) == 810, "Game.char_: its offset");
_Static_assert(offsetof(Game, reactivation) == 811, "Game.reactivation: its offset");
_Static_assert(offsetof(Game, acted) == 812, "Game.acted: its offset");
_Static_assert(offsetof(Game, round_decisions) == 816, "Game.round_decisions: its offset");
_Static_assert(offsetof(Game, mvp) == 820, "Game.mvp: its offset");
_Static_assert(offsetof(Game, transferred) == 824, "Game.transferred: its offset");
_Static_assert(offsetof(Game, section) == 825, "Game.section: its offset");
_Static_assert(offsetof(Game, target) == 826, "Game.target: its offset");
_Static_assert(offsetof(Game, order_cp) == 827, "Game.order_cp: its offset");
_Static_assert(offsetof(Game, bids) == 828, "Game.bids: its offset");
_Static_assert(offsetof(Game, winner) == 836, "Game.winner: its offset");
_Static_assert(offsetof(Game, rng) == 840, "Game.rng: its offset");
_Static_assert(offsetof(Game, steps) == 848, "Game.steps: its offset");
_Static_assert(offsetof(Game, n_last_roll) == 852, "Game.n_last_roll: its offset");
_Static_assert(offsetof(Game, last_roll) == 856, "Game.last_roll: its offset");
_Static_assert(offsetof(Game, n_dice_queue) == 920, "Game.n_dice_queue: its offset");
_Static_assert(offsetof(Game, dice_queue) == 924, "Game.dice_queue: its offset");

#endif
