/* Haven's single-target monster AI (ai_choice.h): plain C over checked arrays; each step names
 * the line of rules/monster_ai.py it follows. */
#include "ai_choice.h"

#include <stdlib.h>
#include <string.h>

/* HV-AI-3: cell c is one of target t's attack-hex candidates (Board.cells_reaching). */
static inline int reaching(const HaBoard *b, int c, int t, long long reach)
{
    size_t i = (size_t)c * (size_t)b->n + (size_t)t;
    return b->range[i] <= reach && b->sight[i];
}

/* Python's a // m. */
static long long floordiv(long long a, long long m)
{
    long long q = a / m;
    return (a % m != 0 && ((a < 0) != (m < 0))) ? q - 1 : q;
}

/* --- The focus ranking (HV-AI-4) ---------------------------------------------------------- */

static int rank_less(const HaRank *a, const HaRank *b)
{
    for (int i = 0; i < 5; i++)
        if (a->k[i] != b->k[i])
            return a->k[i] < b->k[i];
    return 0; /* equal keys keep their order, as list.sort */
}

void ha_focus_ranking(const HaBoard *b, const long long *dist, const unsigned char *endable,
                      int mover, long long reach, const int *cells, HaRank *rows, int k)
{
    for (int j = 0; j < k; j++) {
        int t = cells[j];
        /* costs = [dist[h] for h in plan_hexes(...) if dist[h] is not None] */
        int any = 0;
        long long best = 0;
        for (int c = 0; c < b->n; c++) {
            if (!reaching(b, c, t, reach) || !endable[c] || dist[c] == HA_NONE)
                continue;
            if (!any || dist[c] < best) {
                best = dist[c];
                any = 1;
            }
        }
        rows[j].k[0] = any ? best : HA_UNREACHED;
        rows[j].k[1] = b->range[(size_t)mover * (size_t)b->n + (size_t)t];
    }
    for (int j = 1; j < k; j++) { /* stable insertion sort: a handful of candidates */
        HaRank x = rows[j];
        int i = j;
        while (i > 0 && rank_less(&x, &rows[i - 1])) {
            rows[i] = rows[i - 1];
            i--;
        }
        rows[i] = x;
    }
}

/* --- The destination (HV-AI-5) ------------------------------------------------------------ */

typedef struct {
    int hamp, count, dis;
    long long d;
    int h;
} HexKey;

/* hex_order's key of hex h (its chosen others' indices into `chosen`). */
static void hex_key(const HaBoard *b, const HaPlan *p, int h, long long d, HexKey *key,
                    int *chosen)
{
    size_t row = (size_t)h * (size_t)b->n;
    int found = 0;
    for (int j = 0; j < p->nothers; j++) /* in_range_and_sight(h, f.cell, reach) */
        if (b->range[row + p->others[j].cell] <= p->reach && b->sight[row + p->others[j].cell])
            chosen[found++] = j;
    long long cap = p->targets - 1; /* in_reach[: targets - 1], negative bounds as Python's */
    long long take = cap >= 0 ? cap : found + cap;
    if (take < 0)
        take = 0;
    key->count = (int)(take < found ? take : found);
    key->hamp = p->hampered && b->range[row + p->target_cell] <= 1;
    key->dis = 0;
    for (int i = 0; i < key->count; i++)
        key->dis += p->hampered && b->range[row + p->others[chosen[i]].cell] <= 1;
    key->d = d;
    key->h = h;
}

/* (hamp, -count, chosen keys, dis, dist, h) of a < that of b. */
static int hex_less(const HaPlan *p, const HexKey *a, const int *ca, const HexKey *b,
                    const int *cb)
{
    if (a->hamp != b->hamp)
        return a->hamp < b->hamp;
    if (a->count != b->count)
        return a->count > b->count;
    for (int i = 0; i < a->count; i++) {
        const long long *x = p->others[ca[i]].k, *y = p->others[cb[i]].k;
        for (int e = 0; e < 5; e++)
            if (x[e] != y[e])
                return x[e] < y[e];
    }
    if (a->dis != b->dis)
        return a->dis < b->dis;
    if (a->d != b->d)
        return a->d < b->d;
    return a->h < b->h;
}

/* The best of hexes[0..count) by _hex_key; with no attack, by (dist, h) only. */
static int best_hex(const HaBoard *b, const HaPlan *p, const int *hexes, const long long *d,
                    int count, int *cur, int *best)
{
    int at = -1;
    HexKey bk = {0, 0, 0, 0, 0}, k;
    for (int i = 0; i < count; i++) {
        if (p->reach_none) {
            if (at < 0 || d[i] < bk.d || (d[i] == bk.d && hexes[i] < bk.h)) {
                bk.d = d[i];
                bk.h = hexes[i];
                at = i;
            }
            continue;
        }
        hex_key(b, p, hexes[i], d[i], &k, cur);
        if (at < 0 || hex_less(p, &k, cur, &bk, best)) {
            bk = k;
            memcpy(best, cur, sizeof(int) * (size_t)(p->nothers ? p->nothers : 1));
            at = i;
        }
    }
    return hexes[at];
}

/* HV-AI-10: keeps only the hexes of fewest negatives; the new count. */
static int fewest_negatives(long long modulus, int *hexes, long long *hd, int count)
{
    long long fewest = floordiv(hd[0], modulus);
    for (int i = 1; i < count; i++) {
        long long neg = floordiv(hd[i], modulus);
        if (neg < fewest)
            fewest = neg;
    }
    int kept = 0;
    for (int i = 0; i < count; i++)
        if (floordiv(hd[i], modulus) == fewest) {
            hexes[kept] = hexes[i];
            hd[kept++] = hd[i];
        }
    return kept;
}

int ha_destination(const HaBoard *b, const HaPlan *p, const long long *dist,
                   const long long *points, const unsigned char *endable, int *cell, int *toward)
{
    int n = b->n, others = p->nothers ? p->nothers : 1;
    int *hexes = malloc(sizeof(int) * (size_t)n), *sub = malloc(sizeof(int) * (size_t)n);
    long long *hd = malloc(sizeof(long long) * (size_t)n);
    long long *sd = malloc(sizeof(long long) * (size_t)n);
    int *cur = malloc(sizeof(int) * (size_t)others), *best = malloc(sizeof(int) * (size_t)others);
    int status = HA_OK;
    *toward = 0;
    if (!hexes || !sub || !hd || !sd || !cur || !best) {
        status = HA_NO_MEMORY;
        goto done;
    }
    /* hexes = [h for h in plan_hexes(...) if dist[h] is not None] */
    long long hreach = (p->reach_none || p->reach == 0) ? 1 : p->reach; /* plan.reach or 1 */
    int count = 0;
    for (int c = 0; c < n; c++)
        if (reaching(b, c, p->target_cell, hreach) && endable[c] && dist[c] != HA_NONE) {
            hd[count] = dist[c];
            hexes[count++] = c;
        }
    if (!count) {
        *cell = p->mover;
        goto done;
    }
    if (b->modulus)
        count = fewest_negatives(b->modulus, hexes, hd, count);
    if (!p->reach_none) { /* Case A: the attack hexes within this turn's move */
        int within = 0;
        for (int i = 0; i < count; i++) {
            long long spent = points[hexes[i]];
            if (spent == HA_NONE) {
                status = HA_POINTS_NONE;
                goto done;
            }
            if (spent <= p->move) {
                sub[within] = hexes[i];
                sd[within++] = hd[i];
            }
        }
        if (within) {
            *cell = best_hex(b, p, sub, sd, within, cur, best);
            goto done;
        }
    }
    /* Case B: goal = min(hexes, key), then toward(graph, reachable, goal) */
    *cell = best_hex(b, p, hexes, hd, count, cur, best);
    *toward = 1;
done:
    free(hexes);
    free(sub);
    free(hd);
    free(sd);
    free(cur);
    free(best);
    return status;
}

int ha_toward(const HaBoard *b, long long move, const long long *dist, const long long *cost,
              const long long *points, const unsigned char *endable, const long long *remaining,
              int *cell)
{
    long long m = b->modulus, bk[4] = {0, 0, 0, 0};
    int at = -1;
    for (int c = 0; c < b->n; c++) { /* reachable, its rest known, then toward's min */
        if (points[c] == HA_NONE || points[c] > move || !endable[c] || remaining[c] == HA_NONE)
            continue;
        long long cc = cost[c], rc = remaining[c], dc = dist[c];
        if (cc == HA_NONE || dc == HA_NONE)
            return HA_COST_NONE;
        /* (landing weight, negatives of the whole way, points left, points spent, cell) */
        long long k[4] = {dc - cc, m ? floordiv(cc, m) + floordiv(rc, m) : 0,
                          m ? rc - floordiv(rc, m) * m : rc, m ? cc - floordiv(cc, m) * m : cc};
        int better = at < 0;
        for (int i = 0; !better && i < 4 && k[i] <= bk[i]; i++)
            better = k[i] < bk[i];
        if (better) {
            at = c;
            memcpy(bk, k, sizeof bk);
        }
    }
    if (at < 0)
        return HA_EMPTY;
    *cell = at;
    return HA_OK;
}
