/* The compiled heuristic bot: EarthRebornHeuristicBot of bots.py, decision for decision (and the
 * saw hunter of saw_hunter.py, which differs only in the Salemites' plans), as plain C.
 *
 * heuristic.c is the bot; heuristic_module.c is its binding, the Python type `_core.Heuristic`
 * (module.c registers it and shares its scenario reader, module.h).
 */
#ifndef ER_HEURISTIC_H
#define ER_HEURISTIC_H

#include <stddef.h>
#include <stdint.h>

#include "core.h"

/* numpy's PCG64 bit generator state (the Python bot's tie breaks, np.random.default_rng). */
typedef struct {
    unsigned __int128 state, inc;
    int has_uint32;
    uint32_t uinteger;
} ErPcg64;

/* Where the bot reads what Scn.obs does not hold: offsets and scales of the observation layout. */
typedef struct {
    int cp_mine;
    double cp_scale;
    int mvp;
    double mvp_scale, sec_max_scale, sec_cp_scale;
} ErHeuristicReading;

typedef struct ErHeuristic ErHeuristic;

/* The bot for scenario s (saw_hunt: the saw hunter's plans); NULL with why (n bytes) if the
 * scenario is one the bot cannot play. */
ErHeuristic *er_heuristic_new(const Scn *s, int saw_hunt, const ErHeuristicReading *reading,
                              char *why, size_t n);
void er_heuristic_free(ErHeuristic *h);
const Scn *er_heuristic_scenario(const ErHeuristic *h);

/* EarthRebornHeuristicBot.act on one observation and mask, ties drawn from rng: the action, or
 * -1 with *why saying what was wrong with the input. One call at a time per bot. */
int er_heuristic_decide(ErHeuristic *h, ErPcg64 *rng, const float *obs, const uint8_t *mask,
                        const char **why);

/* Generator.integers(n) for 1 <= n <= 2**32 on rng. */
int64_t er_pcg_integers(ErPcg64 *r, int64_t n);

/* The iteration order of CPython 3.11's set(keys) (frozen: of frozenset() of it) into out (room
 * for n keys): how many, or -1 if a key is outside 0..32767 or there are too many. */
int er_set_order(const int *keys, int n, int frozen, int *out);

#endif /* ER_HEURISTIC_H */
