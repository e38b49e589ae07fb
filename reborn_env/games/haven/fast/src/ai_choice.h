/* Haven's single-target monster AI as plain C (HV-AI-3..5, HV-AI-10, HV-COND-7, HV-JMP-2): the
 * focus ranking and the destination of rules/monster_ai.py, which is the reference and says
 * what each value means, over arrays the binding (monster_ai.c) has read and checked. Minima are
 * taken over full keys whose last element is a cell id or an index, so no tie is left to the
 * order of a loop. */
#ifndef HAVEN_AI_CHOICE_H
#define HAVEN_AI_CHOICE_H

#define HA_MAX_CELLS 4096
#define HA_UNREACHED 1000000LL   /* monster_plan.UNREACHED */
#define HA_NONE (-(1LL << 62))   /* a cell whose value is Python's None */
#define HA_MAX_VALUE (1LL << 40) /* every value is within +-HA_MAX_VALUE: no sum overflows */

/* One map's range distances (n * n, row a column b, 1000 for a cell cut off) and line of sight
 * (n * n truth values); modulus: what a negative hex weighs (terrain.NEGATIVE), 0 without
 * terrain. */
typedef struct {
    int n;
    long long modulus;
    long long *range;
    unsigned char *sight;
} HaBoard;

/* A candidate of the focus ranking: (cost, proximity, position[3]) and its index among the
 * candidates. */
typedef struct {
    long long k[5];
    int index;
} HaRank;

/* HV-AI-4: focus_ranking of a single-target plan. rows[j] holds candidate j's turn position in
 * k[2..4] and j in index; cells[j] is its cell. Fills each cost (k[0], the fewest movement
 * points to an attack hex, HA_UNREACHED if none) and proximity (k[1]) and sorts the rows best
 * first, equal keys keeping their order. dist: the mover's graph, HA_NONE for an unreached cell;
 * reach: plan.reach or 1. */
void ha_focus_ranking(const HaBoard *b, const long long *dist, const unsigned char *endable,
                      int mover, long long reach, const int *cells, HaRank *rows, int k);

/* An enemy other than the focus, from the ranking: its key's five integers and its cell. */
typedef struct {
    long long k[5];
    int cell;
} HaOther;

/* What the destination reads of the plan and the ranking. */
typedef struct {
    int mover, target_cell;
    long long move;
    int reach_none;  /* the plan has no attack */
    long long reach; /* plan.reach, when there is one */
    int hampered;    /* a ranged plan of an unmuddled mover (HV-COND-7) */
    long long targets;
    const HaOther *others; /* the ranking without the focus */
    int nothers;
} HaPlan;

enum {
    HA_OK = 0,
    HA_NO_MEMORY = -1,
    HA_POINTS_NONE = -2, /* points is None where dist is not */
    HA_COST_NONE = -3,   /* a reachable cell has a cost of None */
    HA_EMPTY = -4,       /* no reachable cell: min() of an empty sequence */
};

/* HV-AI-5 (with HV-AI-10's fewest negative hexes): the attack hex of Case A into *cell, or, with
 * *toward = 1, Case B's goal, the hex the monster heads for; the mover's own cell when no hex
 * can be reached. HA_OK or an error code. */
int ha_destination(const HaBoard *b, const HaPlan *p, const long long *dist,
                   const long long *points, const unsigned char *endable, int *cell, int *toward);

/* HV-AI-5 Case B: the cell within the move from which the rest of the way (remaining, towards
 * the goal) is shortest, by (landing weight, negatives of the whole way, points left, points
 * spent, cell). HA_OK with *cell, or an error code. */
int ha_toward(const HaBoard *b, long long move, const long long *dist, const long long *cost,
              const long long *points, const unsigned char *endable, const long long *remaining,
              int *cell);

#endif
