/* The compiled heuristic bot: EarthRebornHeuristicBot (bots.py) ported function by
 * function, so that every decision is the Python bot's for the same observation, mask and seed.
 *
 * It plays from its seat's observation and action mask only (ER-HID-1..12): the observation is
 * decoded by the layout's offsets and scales exactly as bots.ObservationReader reads it, and the
 * static data (board, doors, character cards, tiles) is the public scenario. The Python bot's
 * only randomness, ties broken by numpy's Generator (np.random.default_rng(seed) and
 * rng.integers(len(tied))), is replicated bit for bit: PCG64 (128-bit LCG, XSL-RR output, the
 * 32-bit buffer) and numpy's bounded Lemire method on 32-bit draws. Where the Python bot takes the
 * first minimum of a frozenset, the iteration order of CPython's set table (hash(int) == int,
 * linear probes then perturbation, resizes) is replicated too, as is the order of the `legal` set.
 * Float scores compared for ties are summed in the Python order, one term after the other as
 * CPython 3.11's sum() does. Both models are CPython 3.11's; the tests check them against the
 * running interpreter (Heuristic.set_order, and the bots side by side).
 *
 * Function names are the Python method names (without the leading underscore).
 */
#include "heuristic.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* bots.py's constants */
#define UNREACHABLE 1000000
#define DOOR_COST 2
#define LOCKED_COST 8
#define SAW_COST 3
#define INTERACT_CP 2
#define SECTION_MAX_CP 4 /* observation.SECTION_MAX_CP, the cap of a section's CP in _needs */

/* bots._NEED_WEIGHT, per order type M C F I S */
static const double NEED_WEIGHT[ER_N_ORDER_TYPES] = {2.0, 1.5, 1.5, 3.0, 0.0};

/* --- numpy's PCG64 and Generator.integers ------------------------------------------------------ */

typedef unsigned __int128 u128;
typedef ErPcg64 Pcg64;

#define PCG_MULT (((u128)2549297995355413924ULL << 64) | (u128)4865540595714422341ULL)

/* pcg64_next64: step the LCG, then the XSL-RR output of the new state. */
static uint64_t pcg_next64(Pcg64 *r)
{
    r->state = r->state * PCG_MULT + r->inc;
    uint64_t hi = (uint64_t)(r->state >> 64), lo = (uint64_t)r->state;
    unsigned rot = (unsigned)(hi >> 58);
    uint64_t x = hi ^ lo;
    return (x >> rot) | (x << ((64 - rot) & 63));
}

/* pcg64_next32: one 64-bit draw gives two 32-bit ones, the low half first. */
static uint32_t pcg_next32(Pcg64 *r)
{
    if (r->has_uint32) {
        r->has_uint32 = 0;
        return r->uinteger;
    }
    uint64_t next = pcg_next64(r);
    r->has_uint32 = 1;
    r->uinteger = (uint32_t)(next >> 32);
    return (uint32_t)next;
}

/* Generator.integers(n) for 1 <= n <= 2**32 (int64, size None): random_bounded_uint64_fill with
 * rng = n - 1: nothing drawn for n == 1, else buffered_bounded_lemire_uint32 (a fresh buffer). */
static int64_t pcg_integers(Pcg64 *r, int64_t n)
{
    uint64_t rng = (uint64_t)(n - 1);
    if (rng == 0)
        return 0;
    if (rng == 0xFFFFFFFFULL)
        return pcg_next32(r);
    uint32_t rng_excl = (uint32_t)rng + 1;
    uint64_t m = (uint64_t)pcg_next32(r) * rng_excl;
    uint32_t leftover = (uint32_t)m;
    if (leftover < rng_excl) {
        uint32_t threshold = (UINT32_MAX - (uint32_t)rng) % rng_excl;
        while (leftover < threshold) {
            m = (uint64_t)pcg_next32(r) * rng_excl;
            leftover = (uint32_t)m;
        }
    }
    return (int64_t)(m >> 32);
}

/* --- CPython's set table for small non-negative ints (setobject.c, 3.11) ----------------------- */

#define SET_CAP 4096
#define LINEAR_PROBES 9
#define PERTURB_SHIFT 5

typedef struct {
    size_t mask, fill, used;
    int16_t tab[SET_CAP]; /* -1: an unused slot (sets here never delete, so no dummies) */
} PySet;

static void set_init(PySet *s)
{
    s->mask = 7;
    s->fill = s->used = 0;
    memset(s->tab, 0xff, 8 * sizeof s->tab[0]);
}

static void insert_clean(int16_t *tab, size_t mask, int key)
{
    size_t perturb = (size_t)key, i = (size_t)key & mask;
    for (;;) {
        if (tab[i] < 0) {
            tab[i] = (int16_t)key;
            return;
        }
        if (i + LINEAR_PROBES <= mask)
            for (size_t j = 1; j <= LINEAR_PROBES; j++)
                if (tab[i + j] < 0) {
                    tab[i + j] = (int16_t)key;
                    return;
                }
        perturb >>= PERTURB_SHIFT;
        i = (i * 5 + 1 + perturb) & mask;
    }
}

/* set_table_resize: the smallest power of two above minused (at least 8), entries re-inserted in
 * the old table's order; 0, or -1 past SET_CAP. */
static int set_resize(PySet *s, size_t minused)
{
    size_t newsize = 8;
    while (newsize <= minused)
        newsize <<= 1;
    if (newsize > SET_CAP)
        return -1;
    int16_t old[SET_CAP];
    size_t oldsize = s->mask + 1;
    memcpy(old, s->tab, oldsize * sizeof old[0]);
    memset(s->tab, 0xff, newsize * sizeof s->tab[0]);
    s->mask = newsize - 1;
    for (size_t i = 0; i < oldsize; i++)
        if (old[i] >= 0)
            insert_clean(s->tab, s->mask, old[i]);
    return 0;
}

/* set.add(key) (set_add_entry); 0, or -1 past SET_CAP. */
static int set_add(PySet *s, int key)
{
    size_t mask = s->mask, i = (size_t)key & mask, perturb = (size_t)key;
    int16_t *e;
    for (;;) {
        e = &s->tab[i];
        int probes = (i + LINEAR_PROBES <= mask) ? LINEAR_PROBES : 0;
        do {
            if (*e < 0)
                goto unused;
            if (*e == key)
                return 0;
            e++;
        } while (probes--);
        perturb >>= PERTURB_SHIFT;
        i = (i * 5 + 1 + perturb) & mask;
    }
unused:
    *e = (int16_t)key;
    s->fill++;
    s->used++;
    if (s->fill * 5 < mask * 3)
        return 0;
    return set_resize(s, s->used > 50000 ? s->used * 2 : s->used * 4);
}

/* frozenset(other) for a set `other` (set_merge into a new, empty set); 0, or -1 past SET_CAP. */
static int set_copy(PySet *dst, const PySet *src)
{
    set_init(dst);
    if (src->used == 0)
        return 0;
    if ((dst->fill + src->used) * 5 >= dst->mask * 3 && set_resize(dst, src->used * 2) < 0)
        return -1;
    if (dst->mask == src->mask && src->fill == src->used) {
        memcpy(dst->tab, src->tab, (src->mask + 1) * sizeof src->tab[0]);
    } else {
        for (size_t i = 0; i <= src->mask; i++)
            if (src->tab[i] >= 0)
                insert_clean(dst->tab, dst->mask, src->tab[i]);
    }
    dst->fill = dst->used = src->used;
    return 0;
}

/* --- The bot's data: the scenario, and what the Python constructor derives from it ------------- */

typedef struct {
    int n;
    int16_t sq[ER_MAX_SQUARES]; /* a frozenset of squares in its iteration order */
} Goals;

typedef struct {
    Scn scn;
    int hacker;                                       /* scenario.mission.hacker_faction */
    int saw_hunt; /* EarthRebornSawHunterBot: its guards' plans (saw_hunter.py) */
    double weights[2][ER_N_ORDER_TYPES];              /* _type_weights(player) */
    uint8_t in_room[ER_MAX_TERMINALS][ER_MAX_SQUARES]; /* self.rooms (membership) */
    Goals posts[ER_MAX_TERMINALS];                    /* self.posts, iteration order */
    /* observation reading: offsets and scales not in Scn.obs */
    int cp_mine;
    double cp_scale;
    int mvp;
    double mvp_scale, sec_max_scale, sec_cp_scale;
} HBot;

/* --- The observation, decoded (bots.View / Figure / SectionView) ------------------------------- */

typedef struct {
    int section, type, max, cp; /* type: ER_MOVE..ER_SEARCH, -1 when the one-hot is empty */
} HSec;

typedef struct {
    int index, mine, alive, wounded, life, engaged, cp_left, has_card, weapon_ready, active;
    int square, facing;
    uint32_t tried;
    int n_sec;
    HSec sec[ER_SECTION_SLOTS];
} HFig;

typedef struct {
    int me, decision, cp, mvp, section, target;
    int n_hand, hand[ER_MAX_TILES];
    int n_discard, discard[ER_MAX_TILES];
    int doors[ER_MAX_DOORS];
    int hacked[ER_MAX_TERMINALS];
    HFig fig[ER_MAX_CHARS];
    uint8_t occupied[ER_MAX_SQUARES]; /* _sees: squares of living figures */
    uint8_t closed[ER_MAX_DOORS];
} HView;

typedef struct {
    Goals goals;
    int door, terminal;
    int set; /* the figure has a plan (a key of the Plans dict) */
} HPlan;

typedef struct {
    int source;
    int cost[ER_MAX_SQUARES];
    int8_t came_by[ER_MAX_SQUARES];
} HRoutes;

typedef struct {
    const HBot *b;
    const Scn *s;
    HView v;
    HPlan plans[ER_MAX_CHARS];
    HRoutes routes[ER_MAX_CHARS];
    uint32_t have_routes;
    Pcg64 *rng;
    const uint8_t *mask;
    int n_actions;
    PySet set_a, set_b;
    jmp_buf fail;
    char msg[256];
} Ctx;

static void fail(Ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->msg, sizeof c->msg, fmt, ap);
    va_end(ap);
    longjmp(c->fail, 1);
}

static int legal(const Ctx *c, int a) { return a >= 0 && a < c->n_actions && c->mask[a]; }

static int min_i(int a, int b) { return a < b ? a : b; }
static int max_i(int a, int b) { return a > b ? a : b; }

/* Python's round(value * scale) (half to even) as an int. */
static int amount(Ctx *c, float value, double scale)
{
    double x = (double)value * scale;
    if (!(x > -1e9 && x < 1e9))
        fail(c, "an observation value %g is out of range for the bot", (double)value);
    return (int)nearbyint(x);
}

/* numpy's argmax: the first largest entry. */
static int argmax(const float *v, int n)
{
    int k = 0;
    for (int i = 1; i < n; i++)
        if (v[i] > v[k])
            k = i;
    return k;
}

/* ObservationView.index: the set entry of a one-hot block, -1 when none is above one half. */
static int one_hot(const float *v, int n)
{
    if (n <= 0)
        return -1;
    int k = argmax(v, n);
    return v[k] > 0.5f ? k : -1;
}

/* ObservationReader.read / _figure / _sections */
static void read_view(Ctx *c, const float *obs)
{
    const Scn *s = c->s;
    const ErObsLayout *L = &s->obs;
    const HBot *b = c->b;
    HView *v = &c->v;
    for (int i = 0; i < L->size; i++)
        if (!isfinite(obs[i]))
            fail(c, "observation entry %d is %g; the bot reads finite values only", i,
                 (double)obs[i]);
    v->me = one_hot(obs + L->faction, 2);
    v->decision = one_hot(obs + L->decision, ER_N_DECISIONS);
    v->cp = amount(c, obs[L->cp + b->cp_mine], b->cp_scale);
    v->n_hand = v->n_discard = 0;
    for (int t = 0; t < s->n_tiles; t++) {
        if (obs[L->hand + t] > 0.5f)
            v->hand[v->n_hand++] = t;
        if (obs[L->discard + t] > 0.5f)
            v->discard[v->n_discard++] = t;
    }
    for (int d = 0; d < s->n_doors; d++) {
        v->doors[d] = argmax(obs + L->doors + 3 * d, 3);
        v->closed[d] = v->doors[d] == ER_CLOSED;
    }
    for (int t = 0; t < s->n_terminals; t++)
        v->hacked[t] = obs[L->hacked + t] > 0.5f;
    v->mvp = amount(c, obs[L->round + b->mvp], b->mvp_scale);
    v->section = one_hot(obs + L->section, ER_SECTION_SLOTS);
    v->target = one_hot(obs + L->target_character, s->n_chars);
    memset(v->occupied, 0, (size_t)s->n_squares);
    for (int ci = 0; ci < s->n_chars; ci++) {
        const float *r = obs + L->characters + ci * L->char_width;
        const ErCharSpec *spec = &s->chars[ci];
        HFig *f = &v->fig[ci];
        f->index = ci;
        f->mine = r[L->c_mine] > 0.5f;
        f->alive = r[L->c_alive] > 0.5f;
        f->wounded = r[L->c_wounded] > 0.5f;
        int lp = f->wounded ? spec->wounded.lp : spec->healthy.lp;
        f->life = lp - amount(c, r[L->c_wounds], lp) + (f->wounded ? 0 : spec->wounded.lp);
        f->engaged = r[L->c_engaged] > 0.5f;
        f->cp_left = amount(c, r[L->c_cp_left], spec->healthy.maxcp);
        f->has_card = r[L->c_cards] > 0.0f;
        f->weapon_ready = r[L->c_weapon_ready] > 0.5f;
        f->active = r[L->c_activated] > 0.5f;
        int x = argmax(r + L->c_x, s->width), y = argmax(r + L->c_y, s->height);
        f->square = y * s->width + x;
        f->facing = argmax(r + L->c_facing, 4);
        f->tried = 0;
        for (int t = 0; t < s->n_terminals; t++)
            if (r[L->c_tried + t] > 0.5f)
                f->tried |= 1u << t;
        f->n_sec = 0;
        for (int k = 0; k < ER_SECTION_SLOTS; k++) {
            const float *sec = r + L->c_sections + k * L->section_width;
            if (!(sec[L->s_present] > 0.5f))
                continue;
            HSec *h = &f->sec[f->n_sec++];
            h->section = k;
            h->type = one_hot(sec + L->s_type, ER_N_ORDER_TYPES);
            h->max = amount(c, sec[L->s_max], b->sec_max_scale);
            h->cp = amount(c, sec[L->s_cp], b->sec_cp_scale);
        }
        if (f->alive)
            v->occupied[f->square] = 1;
    }
}

/* View.active: the first figure flagged activated. */
static HFig *active(Ctx *c)
{
    for (int i = 0; i < c->s->n_chars; i++)
        if (c->v.fig[i].active)
            return &c->v.fig[i];
    fail(c, "no figure is activated in the observation at this decision");
    return NULL;
}

/* View.living(mine): indices into out, in character order; the count. */
static int living(const Ctx *c, int mine, int *out)
{
    int n = 0;
    for (int i = 0; i < c->s->n_chars; i++)
        if (c->v.fig[i].alive && c->v.fig[i].mine == mine)
            out[n++] = i;
    return n;
}

static int sec_room(const HSec *s)
{
    if (s->type == ER_MOVE)
        return s->max - s->cp;
    return s->cp == 0 ? s->max : 0;
}

/* Figure.room(order_type) */
static int room(const HFig *f, int type)
{
    int n = 0;
    for (int k = 0; k < f->n_sec; k++)
        if (f->sec[k].type == type)
            n += sec_room(&f->sec[k]);
    return n;
}

/* Figure.slots */
static int slots(const HFig *f)
{
    uint32_t seen = 0;
    for (int k = 0; k < f->n_sec; k++)
        seen |= 1u << (f->sec[k].section >> 2);
    return er_popcount32(seen);
}

/* --- _best: the highest key; ties broken with the bot's generator ------------------------------ */

static int best_ll(Ctx *c, const long long *keys, int n)
{
    if (n <= 0)
        fail(c, "max() arg is an empty sequence");
    long long top = keys[0];
    for (int i = 1; i < n; i++)
        if (keys[i] > top)
            top = keys[i];
    int tied[ER_MAX_ACTIONS], nt = 0;
    for (int i = 0; i < n; i++)
        if (keys[i] == top)
            tied[nt++] = i;
    return tied[pcg_integers(c->rng, nt)];
}

static int best_d(Ctx *c, const double *keys, int n)
{
    if (n <= 0)
        fail(c, "max() arg is an empty sequence");
    double top = keys[0];
    for (int i = 1; i < n; i++)
        if (keys[i] > top)
            top = keys[i];
    int tied[ER_MAX_ACTIONS], nt = 0;
    for (int i = 0; i < n; i++)
        if (keys[i] == top)
            tied[nt++] = i;
    return tied[pcg_integers(c->rng, nt)];
}

/* A tuple key (a, b) with b in (-2**20, 0] as one integer with the same order. */
static long long pair_key(long long a, long long b) { return a * (1LL << 21) + b; }

/* --- Static geometry --------------------------------------------------------------------------- */

static const ErCharSpec *spec(const Ctx *c, const HFig *f) { return &c->s->chars[f->index]; }

static int mov(const Ctx *c, const HFig *f)
{
    return f->wounded ? spec(c, f)->wounded.mov : spec(c, f)->healthy.mov;
}

static int can_saw(const Ctx *c, const HFig *f) { return (spec(c, f)->abilities & ER_ABIL_SAW_DOOR) != 0; }

static int can_shoot(const Ctx *c, const HFig *f) { return spec(c, f)->has_weapon; }

/* _open: no wall, no closed door (ER-MOV-3) */
static int open_(const Ctx *c, int sq, int d)
{
    int e = c->s->edge[sq][d];
    return e == ER_OPEN_EDGE || (e >= 0 && c->v.doors[e] != ER_CLOSED);
}

static int edge_cost(const Ctx *c, const HFig *f, int sq, int d)
{
    if (open_(c, sq, d))
        return 1;
    int e = c->s->edge[sq][d];
    if (e < 0)
        return UNREACHABLE;
    if (!c->s->doors[e].magnetic || f->has_card)
        return DOOR_COST;
    return can_saw(c, f) ? SAW_COST : LOCKED_COST;
}

/* _routes: Dijkstra from the figure's square, popping (cost, square) in tuple order as heapq. */
static HRoutes *routes(Ctx *c, const HFig *f)
{
    HRoutes *r = &c->routes[f->index];
    if (c->have_routes & (1u << f->index))
        return r;
    const Scn *s = c->s;
    int n = s->n_squares;
    uint8_t enemy[ER_MAX_SQUARES];
    memset(enemy, 0, (size_t)n);
    for (int i = 0; i < s->n_chars; i++)
        if (c->v.fig[i].alive && c->v.fig[i].mine != f->mine)
            enemy[c->v.fig[i].square] = 1;
    for (int q = 0; q < n; q++) {
        r->cost[q] = UNREACHABLE;
        r->came_by[q] = -1;
    }
    r->source = f->square;
    r->cost[f->square] = 0;
    uint32_t heap[4 * ER_MAX_SQUARES + 8];
    int hn = 0;
    heap[hn++] = (uint32_t)f->square; /* key: cost * 1024 + square */
    while (hn) {
        uint32_t top = heap[0];
        uint32_t last = heap[--hn];
        int i = 0;
        for (;;) { /* sift the last entry down from the root */
            int l = 2 * i + 1;
            if (l >= hn)
                break;
            if (l + 1 < hn && heap[l + 1] < heap[l])
                l++;
            if (heap[l] >= last)
                break;
            heap[i] = heap[l];
            i = l;
        }
        if (hn)
            heap[i] = last;
        int cst = (int)(top >> 10), sq = (int)(top & 1023);
        if (cst > r->cost[sq])
            continue;
        for (int d = 0; d < 4; d++) {
            int nb = s->neighbor[sq][d];
            int step = edge_cost(c, f, sq, d);
            if (step >= UNREACHABLE || enemy[nb] || cst + step >= r->cost[nb])
                continue;
            r->cost[nb] = cst + step;
            r->came_by[nb] = (int8_t)d;
            uint32_t key = (uint32_t)(cst + step) * 1024u + (uint32_t)nb;
            int j = hn++;
            while (j > 0 && heap[(j - 1) / 2] > key) {
                heap[j] = heap[(j - 1) / 2];
                j = (j - 1) / 2;
            }
            heap[j] = key;
        }
    }
    c->have_routes |= 1u << f->index;
    return r;
}

/* Routes.nearest: the first cheapest of the goals in their order, -1 if none is reachable. */
static int nearest(const HRoutes *r, const Goals *g)
{
    if (g->n == 0)
        return -1;
    int best = g->sq[0];
    for (int k = 1; k < g->n; k++)
        if (r->cost[g->sq[k]] < r->cost[best])
            best = g->sq[k];
    return r->cost[best] < UNREACHABLE ? best : -1;
}

static int in_goals(const Goals *g, int sq)
{
    for (int k = 0; k < g->n; k++)
        if (g->sq[k] == sq)
            return 1;
    return 0;
}

/* _path: (square, direction) steps from the source to goal into sq[], dir[]; the count. */
static int path(const Ctx *c, const HRoutes *r, int goal, int *sq_out, int *d_out)
{
    int n = 0, sq = goal;
    int rs[ER_MAX_SQUARES], rd[ER_MAX_SQUARES];
    while (sq != r->source && r->came_by[sq] >= 0 && n < ER_MAX_SQUARES) {
        int d = r->came_by[sq];
        int back = c->s->neighbor[sq][(d + 2) % 4];
        rs[n] = back;
        rd[n] = d;
        n++;
        sq = back;
    }
    for (int k = 0; k < n; k++) {
        sq_out[k] = rs[n - 1 - k];
        d_out[k] = rd[n - 1 - k];
    }
    return n;
}

/* self._path(routes, goal)[0] */
static void first_step(Ctx *c, const HRoutes *r, int goal, int *sq, int *d)
{
    int ps[ER_MAX_SQUARES], pd[ER_MAX_SQUARES];
    if (path(c, r, goal, ps, pd) == 0)
        fail(c, "list index out of range (an empty route to square %d)", goal);
    *sq = ps[0];
    *d = pd[0];
}

static int locked_on_path(const Ctx *c, const int *ps, const int *pd, int n)
{
    for (int k = 0; k < n; k++) {
        int e = c->s->edge[ps[k]][pd[k]];
        if (e >= 0 && c->v.doors[e] == ER_CLOSED && c->s->doors[e].magnetic)
            return 1;
    }
    return 0;
}

/* _attack_squares into c->set_a (a set built by add), then frozenset() of it into goals. */
static void attack_squares(Ctx *c, const HFig *mover, const int *enemies, int n, Goals *out)
{
    const Scn *s = c->s;
    uint8_t taken[ER_MAX_SQUARES];
    memset(taken, 0, (size_t)s->n_squares);
    for (int i = 0; i < s->n_chars; i++)
        if (c->v.fig[i].alive && i != mover->index)
            taken[c->v.fig[i].square] = 1;
    set_init(&c->set_a);
    for (int k = 0; k < n; k++) {
        int sq = c->v.fig[enemies[k]].square;
        for (int d = 0; d < 4; d++) {
            int nb = s->neighbor[sq][d];
            if (open_(c, sq, d) && !taken[nb] && set_add(&c->set_a, nb) < 0)
                fail(c, "too many squares for the set model");
        }
    }
    if (set_copy(&c->set_b, &c->set_a) < 0)
        fail(c, "too many squares for the set model");
    out->n = 0;
    for (size_t i = 0; i <= c->set_b.mask; i++)
        if (c->set_b.tab[i] >= 0)
            out->sq[out->n++] = c->set_b.tab[i];
}

/* _adjacent_enemies: (direction, enemy) pairs into d_out, e_out; the count. */
static int adjacent_enemies(const Ctx *c, const HFig *f, int *d_out, int *e_out)
{
    int n = 0;
    for (int d = 0; d < 4; d++) {
        if (!open_(c, f->square, d))
            continue;
        int nb = c->s->neighbor[f->square][d];
        for (int i = 0; i < c->s->n_chars; i++) {
            const HFig *e = &c->v.fig[i];
            if (e->alive && e->mine != f->mine && e->square == nb) {
                if (d_out) {
                    d_out[n] = d;
                    e_out[n] = i;
                }
                n++;
            }
        }
    }
    return n;
}

static int sees(const Ctx *c, int square, int facing, int target)
{
    return er_has_line_of_sight(c->s, square, facing, target, c->v.occupied, c->v.closed);
}

/* len(_in_sight(view, fig, facing)) */
static int in_sight(const Ctx *c, const HFig *f, int facing)
{
    int n = 0;
    for (int i = 0; i < c->s->n_chars; i++) {
        const HFig *e = &c->v.fig[i];
        if (e->alive && e->mine != f->mine && sees(c, f->square, facing, e->square))
            n++;
    }
    return n;
}

/* bool(_visible_enemies(view, fig)): an enemy in sight with some facing */
static int visible_enemies(const Ctx *c, const HFig *f)
{
    for (int i = 0; i < c->s->n_chars; i++) {
        const HFig *e = &c->v.fig[i];
        if (!e->alive || e->mine == f->mine)
            continue;
        for (int d = 0; d < 4; d++)
            if (sees(c, f->square, d, e->square))
                return 1;
    }
    return 0;
}

/* --- Plans ------------------------------------------------------------------------------------- */

static void plan_goals(HPlan *p, const int *sq, int n, int door, int terminal)
{
    p->goals.n = n;
    for (int k = 0; k < n; k++)
        p->goals.sq[k] = (int16_t)sq[k];
    p->door = door;
    p->terminal = terminal;
    p->set = 1;
}

static int on_mission(const HPlan *p) { return p->terminal >= 0 || p->door >= 0; }

static int way_in(Ctx *c, const HFig *f, const HRoutes *r, int square, int carrier)
{
    if (r->cost[square] >= UNREACHABLE)
        return 0;
    int ps[ER_MAX_SQUARES], pd[ER_MAX_SQUARES];
    int n = path(c, r, square, ps, pd);
    for (int k = 0; k < n; k++)
        if (edge_cost(c, f, ps[k], pd[k]) == LOCKED_COST) {
            const ErDoor *door = &c->s->doors[c->s->edge[ps[k]][pd[k]]];
            if (door->sliding || !carrier)
                return 0;
        }
    return 1;
}

typedef struct {
    int m, T;
    int seats[2 * ER_MAX_CHARS + ER_MAX_TERMINALS];
    int open_t[ER_MAX_TERMINALS];
    int ok[ER_MAX_CHARS][ER_MAX_TERMINALS];
    int cost[ER_MAX_CHARS][ER_MAX_TERMINALS];
    int pick[ER_MAX_TERMINALS];
    uint64_t used;
    int have_best, best_len, best_sum;
    int best_c[ER_MAX_TERMINALS], best_t[ER_MAX_TERMINALS], n_best;
} Assign;

/* itertools.permutations(seats, T) in order; each a dict {figure: terminal} scored as Python. */
static void permute(Assign *a, int depth)
{
    int n = a->m + a->T;
    if (depth == a->T) {
        int len = 0, sum = 0, pc[ER_MAX_TERMINALS], pt[ER_MAX_TERMINALS];
        for (int j = 0; j < a->T; j++) {
            int ch = a->seats[a->pick[j]], t = a->open_t[j];
            if (ch >= 0 && a->ok[ch][t]) {
                pc[len] = ch;
                pt[len] = t;
                sum += a->cost[ch][t];
                len++;
            }
        }
        if (!a->have_best || -len < -a->best_len || (len == a->best_len && sum < a->best_sum)) {
            a->have_best = 1;
            a->best_len = len;
            a->best_sum = sum;
            a->n_best = len;
            memcpy(a->best_c, pc, sizeof(int) * (size_t)len);
            memcpy(a->best_t, pt, sizeof(int) * (size_t)len);
        }
        return;
    }
    for (int i = 0; i < n; i++) {
        if (a->used & (1ull << i))
            continue;
        a->used |= 1ull << i;
        a->pick[depth] = i;
        permute(a, depth + 1);
        a->used &= ~(1ull << i);
    }
}

/* _assign_terminals: figure -> terminal pairs into plans */
static void assign_terminals(Ctx *c, const int *mine, int m)
{
    const Scn *s = c->s;
    Assign a;
    memset(&a, 0, sizeof a);
    int carrier = 0;
    for (int k = 0; k < m; k++)
        carrier |= c->v.fig[mine[k]].has_card;
    int any_t[ER_MAX_TERMINALS] = {0};
    for (int k = 0; k < m; k++) {
        const HFig *f = &c->v.fig[mine[k]];
        HRoutes *r = routes(c, f);
        for (int t = 0; t < s->n_terminals; t++)
            if (!c->v.hacked[t] && way_in(c, f, r, s->terminal_square[t], carrier)) {
                a.ok[f->index][t] = 1;
                a.cost[f->index][t] = r->cost[s->terminal_square[t]];
                any_t[t] = 1;
            }
    }
    for (int t = 0; t < s->n_terminals; t++)
        if (any_t[t])
            a.open_t[a.T++] = t;
    a.m = m;
    for (int k = 0; k < m; k++)
        a.seats[k] = mine[k];
    for (int j = 0; j < a.T; j++)
        a.seats[m + j] = -1;
    if (m + a.T > 64)
        fail(c, "too many figures and terminals to assign");
    permute(&a, 0);
    for (int j = 0; j < a.n_best; j++) {
        int sq = s->terminal_square[a.best_t[j]];
        plan_goals(&c->plans[a.best_c[j]], &sq, 1, -1, a.best_t[j]);
    }
}

/* _errand: (carrier, door) or 0 */
static int errand(Ctx *c, const int *mine, int m, int *carrier_out, int *door_out)
{
    const Scn *s = c->s;
    int carriers[ER_MAX_CHARS], nc = 0;
    for (int k = 0; k < m; k++) {
        const HFig *f = &c->v.fig[mine[k]];
        if (!f->has_card)
            continue;
        int on_terminal = 0;
        for (int t = 0; t < s->n_terminals; t++)
            if (!c->v.hacked[t] && s->terminal_square[t] == f->square)
                on_terminal = 1;
        if (!on_terminal)
            carriers[nc++] = f->index;
    }
    for (int k = 0; k < m; k++) {
        const HFig *f = &c->v.fig[mine[k]];
        const HPlan *p = &c->plans[f->index];
        if (f->has_card || !p->set || p->terminal < 0 || !nc)
            continue;
        int ps[ER_MAX_SQUARES], pd[ER_MAX_SQUARES];
        int n = path(c, routes(c, f), p->goals.sq[0], ps, pd);
        for (int j = 0; j < n; j++) {
            int e = s->edge[ps[j]][pd[j]];
            if (e < 0)
                continue;
            const ErDoor *door = &s->doors[e];
            if (c->v.doors[e] == ER_CLOSED && door->magnetic && !door->sliding) {
                int best = carriers[0];
                for (int i = 1; i < nc; i++)
                    if (routes(c, &c->v.fig[carriers[i]])->cost[door->a] <
                        routes(c, &c->v.fig[best])->cost[door->a])
                        best = carriers[i];
                *carrier_out = best;
                *door_out = e;
                return 1;
            }
        }
    }
    return 0;
}

/* _hold_plans: ER-SCN-14, each hold square in scenario order to the nearest figure still free
 * that can reach it (the first in mine on a tie) */
static void hold_plans(Ctx *c, const int *mine, int m)
{
    const ErMission *mission = &c->s->mission;
    for (int h = 0; h < mission->n_hold; h++) {
        int square = mission->hold_square[h], holder = -1, best = 0;
        for (int k = 0; k < m; k++) {
            const HFig *f = &c->v.fig[mine[k]];
            if (c->plans[f->index].set)
                continue;
            int cost = routes(c, f)->cost[square];
            if (cost < UNREACHABLE && (holder < 0 || cost < best)) {
                holder = f->index;
                best = cost;
            }
        }
        if (holder >= 0) {
            HPlan *p = &c->plans[holder];
            plan_goals(p, &square, 1, -1, -1);
        }
    }
}

static void hacker_plans(Ctx *c, const int *mine, int m)
{
    const Scn *s = c->s;
    assign_terminals(c, mine, m);
    int carrier, door;
    if (errand(c, mine, m, &carrier, &door)) {
        const ErDoor *d = &s->doors[door];
        set_init(&c->set_a); /* {d.a, d.b}, then frozenset() of it */
        set_add(&c->set_a, d->a);
        set_add(&c->set_a, d->b);
        set_copy(&c->set_b, &c->set_a);
        int sq[2], n = 0;
        for (size_t i = 0; i <= c->set_b.mask; i++)
            if (c->set_b.tab[i] >= 0)
                sq[n++] = c->set_b.tab[i];
        plan_goals(&c->plans[carrier], sq, n, door, -1);
    }
    hold_plans(c, mine, m);
    Goals lost; /* frozenset(f.square for f in figures if not f.alive and f.has_card) */
    set_init(&c->set_a);
    for (int i = 0; i < s->n_chars; i++)
        if (!c->v.fig[i].alive && c->v.fig[i].has_card)
            set_add(&c->set_a, c->v.fig[i].square);
    lost.n = 0;
    for (size_t i = 0; i <= c->set_a.mask; i++)
        if (c->set_a.tab[i] >= 0)
            lost.sq[lost.n++] = c->set_a.tab[i];
    int enemies[ER_MAX_CHARS];
    int ne = living(c, 0, enemies);
    for (int k = 0; k < m; k++) {
        const HFig *f = &c->v.fig[mine[k]];
        HPlan *p = &c->plans[f->index];
        if (p->set)
            continue;
        if (lost.n && !f->has_card && nearest(routes(c, f), &lost) >= 0) {
            p->goals = lost;
            p->door = p->terminal = -1;
            p->set = 1;
        } else {
            attack_squares(c, f, enemies, ne, &p->goals);
            p->door = p->terminal = -1;
            p->set = 1;
        }
    }
}

static int guard_cost(Ctx *c, const HFig *f, const Goals *post)
{
    if (post->n == 0)
        fail(c, "min() arg is an empty sequence (a terminal room without doors)");
    const HRoutes *r = routes(c, f);
    int best = r->cost[post->sq[0]];
    for (int k = 1; k < post->n; k++)
        best = min_i(best, r->cost[post->sq[k]]);
    return best + (can_shoot(c, f) ? 4 : 0);
}

/* The guards' prey: the living enemies inside a terminal's room, else all living enemies, into
 * prey; their count. */
static int prey_of(Ctx *c, int *prey)
{
    int enemies[ER_MAX_CHARS], n = 0;
    int ne = living(c, 0, enemies);
    for (int k = 0; k < ne; k++) {
        int in = 0;
        for (int t = 0; t < c->s->n_terminals; t++)
            in |= c->b->in_room[t][c->v.fig[enemies[k]].square];
        if (in)
            prey[n++] = enemies[k];
    }
    if (n)
        return n;
    memcpy(prey, enemies, (size_t)ne * sizeof enemies[0]);
    return ne;
}

static void guard_plans(Ctx *c, const int *mine, int m)
{
    const Scn *s = c->s;
    const HBot *b = c->b;
    int enemies[ER_MAX_CHARS];
    int ne = living(c, 0, enemies);
    for (int t = 0; t < s->n_terminals; t++) {
        int intruders = 0;
        for (int k = 0; k < ne; k++)
            intruders |= b->in_room[t][c->v.fig[enemies[k]].square];
        if (c->v.hacked[t] || intruders)
            continue;
        int guard = -1, best = 0;
        for (int k = 0; k < m; k++) {
            const HFig *f = &c->v.fig[mine[k]];
            if (c->plans[f->index].set)
                continue;
            int g = guard_cost(c, f, &b->posts[t]);
            if (guard < 0 || g < best) {
                guard = f->index;
                best = g;
            }
        }
        if (guard < 0)
            break;
        HPlan *p = &c->plans[guard];
        p->goals = b->posts[t];
        p->door = p->terminal = -1;
        p->set = 1;
    }
    hold_plans(c, mine, m);
    int prey[ER_MAX_CHARS];
    int np = prey_of(c, prey);
    for (int k = 0; k < m; k++) {
        const HFig *f = &c->v.fig[mine[k]];
        HPlan *p = &c->plans[f->index];
        if (p->set)
            continue;
        attack_squares(c, f, prey, np, &p->goals);
        p->door = p->terminal = -1;
        p->set = 1;
    }
}

static const HPlan *plan_of(Ctx *c, const HFig *f);

/* saw_hunter.py _saw_hunt: the index of the first of mine who can saw (ER-ABIL-1) and whose
 * cheapest way to the prey crosses a door he must saw, his attack squares in goals; -1 if none. */
static int saw_hunter(Ctx *c, const int *mine, int m, Goals *goals)
{
    int prey[ER_MAX_CHARS];
    int np = prey_of(c, prey);
    for (int k = 0; k < m; k++) {
        const HFig *f = &c->v.fig[mine[k]];
        if (!can_saw(c, f) || np == 0)
            continue;
        attack_squares(c, f, prey, np, goals);
        const HRoutes *r = routes(c, f);
        int goal = nearest(r, goals);
        if (goal < 0)
            continue;
        int ps[ER_MAX_SQUARES], pd[ER_MAX_SQUARES];
        int n = path(c, r, goal, ps, pd);
        for (int j = 0; j < n; j++)
            if (edge_cost(c, f, ps[j], pd[j]) == SAW_COST)
                return f->index;
    }
    return -1;
}

/* saw_hunter.py _beside_locked_door: the squares joined by open edges (ER-MOV-3) to the last
 * square before the first door f cannot open on its way to its plan (ER-DOOR-3), in frozenset
 * order; none (n = 0) when its way has no such door. */
static void beside_locked_door(Ctx *c, const HFig *f, const HPlan *p, Goals *out)
{
    const Scn *s = c->s;
    const HRoutes *r = routes(c, f);
    out->n = 0;
    int goal = nearest(r, &p->goals);
    if (goal < 0)
        return;
    int ps[ER_MAX_SQUARES], pd[ER_MAX_SQUARES];
    int n = path(c, r, goal, ps, pd);
    for (int j = 0; j < n; j++) {
        if (edge_cost(c, f, ps[j], pd[j]) != LOCKED_COST)
            continue;
        set_init(&c->set_a);
        for (int d = 0; d < 4; d++)
            if (s->edge[ps[j]][d] == ER_OPEN_EDGE && set_add(&c->set_a, s->neighbor[ps[j]][d]) < 0)
                fail(c, "too many squares for the set model");
        for (size_t i = 0; i <= c->set_a.mask; i++)
            if (c->set_a.tab[i] >= 0)
                out->sq[out->n++] = c->set_a.tab[i];
        return;
    }
}

/* saw_hunter.py _guard_plans: the heuristic's guards and hunters, except that Jack Saw hunts prey
 * only a saw reaches (ER-ABIL-1, no guard then) and friends locked out wait beside the door. */
static void saw_guard_plans(Ctx *c, const int *mine, int m)
{
    Goals hunt;
    int hunter = saw_hunter(c, mine, m, &hunt);
    if (hunter < 0) {
        guard_plans(c, mine, m);
        return;
    }
    int others[ER_MAX_CHARS], no = 0;
    for (int k = 0; k < m; k++)
        if (mine[k] != hunter)
            others[no++] = mine[k];
    guard_plans(c, others, no);
    HPlan *hp = &c->plans[hunter];
    hp->goals = hunt;
    hp->door = hp->terminal = -1;
    hp->set = 1;
    for (int k = 0; k < no; k++) {
        const HFig *f = &c->v.fig[others[k]];
        Goals beside;
        beside_locked_door(c, f, plan_of(c, f), &beside);
        if (beside.n) {
            HPlan *p = &c->plans[f->index];
            p->goals = beside;
            p->door = p->terminal = -1;
        }
    }
}

/* _plans: routes of every living figure of mine, then the faction's plans */
static void plans(Ctx *c)
{
    int mine[ER_MAX_CHARS];
    int m = living(c, 1, mine);
    for (int i = 0; i < c->s->n_chars; i++)
        c->plans[i].set = 0;
    for (int k = 0; k < m; k++)
        routes(c, &c->v.fig[mine[k]]);
    if (c->v.me == c->b->hacker)
        hacker_plans(c, mine, m);
    else if (c->b->saw_hunt)
        saw_guard_plans(c, mine, m);
    else
        guard_plans(c, mine, m);
}

static const HPlan *plan_of(Ctx *c, const HFig *f)
{
    const HPlan *p = &c->plans[f->index];
    if (!p->set)
        fail(c, "KeyError: figure %d has no plan", f->index);
    return p;
}

/* _next_step: -1 (None), else direction | 4 when a door is to be opened first */
static int next_step(Ctx *c, const HFig *f, const HPlan *p, const HRoutes *r)
{
    int goal = nearest(r, &p->goals);
    if (goal < 0 || goal == f->square)
        return -1;
    int sq, d;
    first_step(c, r, goal, &sq, &d);
    int cost = edge_cost(c, f, sq, d);
    if (cost == LOCKED_COST || cost == SAW_COST)
        return -1;
    return d | (cost == DOOR_COST ? 4 : 0);
}

static int moves_needed(Ctx *c, const HFig *f, const HPlan *p, const HRoutes *r)
{
    int goal = nearest(r, &p->goals);
    if (goal < 0 || next_step(c, f, p, r) < 0)
        return 0;
    int left = max_i(r->cost[goal] - c->v.mvp, 0), mv = mov(c, f);
    return (left + mv - 1) / mv; /* math.ceil(left / mov), mov > 0 (checked at construction) */
}

static int hack_pending(const HFig *f, const HPlan *p)
{
    return p->terminal >= 0 && !(f->tried & (1u << p->terminal));
}

static int cp_needed(Ctx *c, const HFig *f, const HPlan *p, const HRoutes *r)
{
    int need = moves_needed(c, f, p, r);
    if (hack_pending(f, p))
        need += INTERACT_CP;
    return min_i(need, f->cp_left);
}

static int spare_cp(Ctx *c, const HFig *f)
{
    int rm = min_i(c->v.cp, f->cp_left);
    if (c->v.me != c->b->hacker)
        return rm;
    int mine[ER_MAX_CHARS], m = living(c, 1, mine), needed = 0;
    for (int k = 0; k < m; k++) {
        const HFig *g = &c->v.fig[mine[k]];
        const HPlan *p = plan_of(c, g);
        if (on_mission(p))
            needed += cp_needed(c, g, p, routes(c, g));
    }
    return max_i(0, min_i(rm, c->v.cp - needed));
}

static int saw_direction(Ctx *c, const HFig *f, const HPlan *p, const HRoutes *r)
{
    int goal = nearest(r, &p->goals);
    if (!can_saw(c, f) || goal < 0 || goal == f->square)
        return -1;
    int sq, d;
    first_step(c, r, goal, &sq, &d);
    return edge_cost(c, f, sq, d) == SAW_COST ? d : -1;
}

/* --- Round-level decisions --------------------------------------------------------------------- */

static int hand_has_type(const Ctx *c, int type)
{
    for (int h = 0; h < c->v.n_hand; h++)
        for (int k = 0; k < 4; k++)
            if (c->s->tiles[c->v.hand[h]][k].type == type)
                return 1;
    return 0;
}

static int mulligan(Ctx *c)
{
    int keep = hand_has_type(c, ER_MOVE);
    int redraw = c->s->base[ER_K_MULLIGAN_REDRAW];
    return !keep && legal(c, redraw) ? redraw : c->s->base[ER_K_MULLIGAN_KEEP];
}

static int hack_here(const HFig *f, const HPlan *p)
{
    return hack_pending(f, p) && in_goals(&p->goals, f->square);
}

static int available(const Ctx *c, const HFig *f, int type)
{
    if (room(f, type) > 0)
        return 1;
    if (slots(f) >= c->s->max_tiles_per_character)
        return 0;
    return hand_has_type(c, type);
}

static int shooting_possible(const Ctx *c, const HFig *f)
{
    int ready = f->weapon_ready || min_i(c->v.cp, f->cp_left) >= 2;
    return can_shoot(c, f) && ready && available(c, f, ER_SHOOT);
}

static int turn_to_see(const Ctx *c, const HFig *f)
{
    return !in_sight(c, f, f->facing) && visible_enemies(c, f);
}

static double value(Ctx *c, const HFig *f)
{
    if (c->v.cp < 1 || f->cp_left < 1)
        return 0.0;
    const HPlan *p = plan_of(c, f);
    const HRoutes *r = routes(c, f);
    int spare = spare_cp(c, f);
    double v = 0.0;
    if (hack_here(f, p) && available(c, f, ER_INTERACT))
        v = 10.0;
    if (spare && adjacent_enemies(c, f, NULL, NULL) && available(c, f, ER_CLOSE_COMBAT))
        v = fmax(v, 6.0);
    if (spare && shooting_possible(c, f) && in_sight(c, f, f->facing))
        v = fmax(v, 5.0);
    if (next_step(c, f, p, r) >= 0 && available(c, f, ER_MOVE))
        v = fmax(v, p->door >= 0 ? 4.5 : 4.0);
    if (saw_direction(c, f, p, r) >= 0)
        v = fmax(v, 3.5);
    if (spare >= 2 && shooting_possible(c, f) && turn_to_see(c, f))
        v = fmax(v, 2.5);
    return v;
}

/* _wanted_types as a bit set of order types */
static unsigned wanted_types(Ctx *c, const HFig *f, const HPlan *p, const HRoutes *r)
{
    unsigned w = 0;
    if (hack_here(f, p))
        w |= 1u << ER_INTERACT;
    if (next_step(c, f, p, r) >= 0)
        w |= 1u << ER_MOVE;
    if (adjacent_enemies(c, f, NULL, NULL))
        w |= 1u << ER_CLOSE_COMBAT;
    if (can_shoot(c, f) && in_sight(c, f, f->facing))
        w |= 1u << ER_SHOOT;
    return w;
}

static int should_draw(Ctx *c)
{
    if (c->v.cp < 2)
        return 0;
    int mine[ER_MAX_CHARS], m = living(c, 1, mine);
    for (int k = 0; k < m; k++) {
        const HFig *f = &c->v.fig[mine[k]];
        if (f->cp_left < 1 || slots(f) >= c->s->max_tiles_per_character)
            continue;
        unsigned w = wanted_types(c, f, plan_of(c, f), routes(c, f));
        for (int t = 0; t < ER_N_ORDER_TYPES; t++)
            if ((w & (1u << t)) && !available(c, f, t))
                return 1;
    }
    return 0;
}

static int round_(Ctx *c)
{
    const int *base = c->s->base;
    plans(c);
    int mine[ER_MAX_CHARS], m = living(c, 1, mine);
    double val[ER_MAX_CHARS];
    int order[ER_MAX_CHARS];
    for (int k = 0; k < m; k++) {
        val[k] = value(c, &c->v.fig[mine[k]]);
        order[k] = k;
    }
    for (int k = 1; k < m; k++) { /* sorted by (-value, index): a stable insertion sort */
        int x = order[k], j = k;
        while (j > 0 && (-val[order[j - 1]] > -val[x] ||
                         (-val[order[j - 1]] == -val[x] && mine[order[j - 1]] > mine[x]))) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = x;
    }
    int waiting = -1;
    for (int k = 0; k < m && waiting < 0; k++)
        if (!c->v.fig[mine[order[k]]].engaged)
            waiting = mine[order[k]];
    for (int k = 0; k < m; k++) {
        if (val[order[k]] <= 0)
            break;
        int idx = mine[order[k]];
        if (legal(c, base[ER_K_ACTIVATE] + idx))
            return base[ER_K_ACTIVATE] + idx;
        if (legal(c, base[ER_K_REACTIVATE] + idx))
            return base[ER_K_REACTIVATE] + idx;
        if (waiting >= 0) /* every figure must be activated once before a reactivation (ER-ACT-6) */
            return base[ER_K_ACTIVATE] + waiting;
    }
    if (legal(c, base[ER_K_DRAW_BAG]) && should_draw(c))
        return base[ER_K_DRAW_BAG];
    return base[ER_K_PASS];
}

/* --- Tiles in hand ----------------------------------------------------------------------------- */

static double keep_score(const Ctx *c, int player, int tile)
{
    const double *w = c->b->weights[player < 0 ? 1 : player]; /* weights[-1]: the last */
    double sum = 0.0;
    for (int k = 0; k < 4; k++)
        sum += w[c->s->tiles[tile][k].type] * c->s->tiles[tile][k].max;
    return sum;
}

static int choose_discard(Ctx *c)
{
    double keys[ER_MAX_TILES];
    for (int i = 0; i < c->v.n_discard; i++)
        keys[i] = keep_score(c, c->v.me, c->v.discard[i]);
    int k = best_d(c, keys, c->v.n_discard);
    return c->s->base[ER_K_CHOOSE_DISCARD] + c->v.discard[k];
}

static int discard(Ctx *c)
{
    if (c->v.n_hand <= c->s->hand_limit)
        return c->s->base[ER_K_KEEP_HAND];
    double keys[ER_MAX_TILES];
    for (int i = 0; i < c->v.n_hand; i++)
        keys[i] = -keep_score(c, c->v.me, c->v.hand[i]);
    int k = best_d(c, keys, c->v.n_hand);
    return c->s->base[ER_K_DISCARD_TILE] + c->v.hand[k];
}

/* _needs: CP per order type beyond the assigned sections (0: not needed) */
static void needs(Ctx *c, const HFig *f, int out[ER_N_ORDER_TYPES])
{
    const HPlan *p = plan_of(c, f);
    const HRoutes *r = routes(c, f);
    int rm = min_i(c->v.cp, f->cp_left);
    int moves = moves_needed(c, f, p, r);
    for (int t = 0; t < ER_N_ORDER_TYPES; t++)
        out[t] = 0;
    out[ER_MOVE] = min_i(moves, rm) - room(f, ER_MOVE);
    if (hack_pending(f, p) && moves + 1 <= rm)
        out[ER_INTERACT] = INTERACT_CP - room(f, ER_INTERACT);
    int spare = spare_cp(c, f);
    if (can_shoot(c, f) && visible_enemies(c, f))
        out[ER_SHOOT] = min_i(spare, SECTION_MAX_CP) - room(f, ER_SHOOT);
    if (adjacent_enemies(c, f, NULL, NULL) || (!can_shoot(c, f) && moves <= 2))
        out[ER_CLOSE_COMBAT] = min_i(spare, SECTION_MAX_CP) - room(f, ER_CLOSE_COMBAT);
    for (int t = 0; t < ER_N_ORDER_TYPES; t++)
        if (out[t] < 0)
            out[t] = 0;
}

static double need_score(const Ctx *c, const int nd[ER_N_ORDER_TYPES], int tile)
{
    double sum = 0.0;
    for (int k = 0; k < 4; k++) {
        const ErSection *sec = &c->s->tiles[tile][k];
        sum += min_i(sec->max, nd[sec->type]) * NEED_WEIGHT[sec->type];
    }
    return sum;
}

static int tile_to_assign(Ctx *c, const HFig *f)
{
    int nd[ER_N_ORDER_TYPES];
    needs(c, f, nd);
    if (!c->v.n_hand)
        return -1;
    double keys[ER_MAX_TILES];
    for (int i = 0; i < c->v.n_hand; i++)
        keys[i] = need_score(c, nd, c->v.hand[i]);
    int k = best_d(c, keys, c->v.n_hand);
    return keys[k] > 0 ? c->v.hand[k] : -1;
}

/* --- An activated figure ----------------------------------------------------------------------- */

/* _selectable: sections of a type the mask lets the figure start, by (-max, section) */
static int selectable(const Ctx *c, const HFig *f, int type, const HSec **out)
{
    int base = c->s->base[ER_K_SELECT_ORDER], n = 0;
    for (int k = 0; k < f->n_sec; k++)
        if (f->sec[k].type == type && legal(c, base + f->sec[k].section))
            out[n++] = &f->sec[k];
    for (int k = 1; k < n; k++) {
        const HSec *x = out[k];
        int j = k;
        while (j > 0 && (out[j - 1]->max < x->max ||
                         (out[j - 1]->max == x->max && out[j - 1]->section > x->section))) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = x;
    }
    return n;
}

static int select_(const Ctx *c, const HSec *s) { return c->s->base[ER_K_SELECT_ORDER] + s->section; }

static int order_interact(Ctx *c, const HFig *f)
{
    const HSec *secs[ER_SECTION_SLOTS];
    int n = selectable(c, f, ER_INTERACT, secs);
    return n ? select_(c, secs[0]) : -1;
}

static int order_fight(Ctx *c, const HFig *f)
{
    const HSec *secs[ER_SECTION_SLOTS];
    int n = selectable(c, f, ER_CLOSE_COMBAT, secs);
    int spare = spare_cp(c, f);
    if (n && spare && adjacent_enemies(c, f, NULL, NULL))
        return select_(c, secs[0]);
    return -1;
}

static int order_shoot(Ctx *c, const HFig *f)
{
    const HSec *secs[ER_SECTION_SLOTS];
    int n = selectable(c, f, ER_SHOOT, secs);
    int spare = spare_cp(c, f);
    if (!n || !spare)
        return -1;
    for (int k = 0; k < n; k++)
        if (secs[k]->max <= spare)
            return select_(c, secs[k]);
    return select_(c, secs[n - 1]);
}

static int order_reload(Ctx *c, const HFig *f)
{
    int reload = c->s->base[ER_K_RELOAD];
    int spare = spare_cp(c, f);
    return legal(c, reload) && room(f, ER_SHOOT) && spare >= 2 ? reload : -1;
}

static int order_saw(Ctx *c, const HFig *f)
{
    int d = saw_direction(c, f, plan_of(c, f), routes(c, f));
    int action = c->s->base[ER_K_SAW_DOOR] + d;
    return d >= 0 && legal(c, action) ? action : -1;
}

/* _move_cp: MOVE_CP on the Move section with the most room (ER-MOV-2), or -1 */
static int move_cp(const Ctx *c, const HFig *f)
{
    int base = c->s->base[ER_K_MOVE_CP];
    const HSec *best = NULL;
    for (int k = 0; k < f->n_sec; k++) {
        const HSec *s = &f->sec[k];
        if (s->type != ER_MOVE || !legal(c, base + s->section))
            continue;
        if (!best || sec_room(s) > sec_room(best) ||
            (sec_room(s) == sec_room(best) && -s->section > -best->section))
            best = s;
    }
    return best ? base + best->section : -1;
}

static int move_cp_worth(Ctx *c, const HFig *f)
{
    const HPlan *p = plan_of(c, f);
    const HRoutes *r = routes(c, f);
    int moves = moves_needed(c, f, p, r);
    if (moves == 0)
        return 0;
    if (!on_mission(p))
        return spare_cp(c, f) >= 1;
    int rm = min_i(c->v.cp, f->cp_left);
    int keep = 0;
    if (hack_pending(f, p) && moves + 1 <= rm)
        keep = min_i(min_i(INTERACT_CP, rm - moves), max_i(room(f, ER_INTERACT), 1));
    return rm - 1 >= keep;
}

static int order_move(Ctx *c, const HFig *f)
{
    int step = next_step(c, f, plan_of(c, f), routes(c, f));
    if (step < 0 || !move_cp_worth(c, f))
        return -1;
    return move_cp(c, f);
}

static int order_turn(Ctx *c, const HFig *f)
{
    int spare = spare_cp(c, f);
    if (f->weapon_ready && room(f, ER_SHOOT) && spare >= 2 && turn_to_see(c, f))
        return move_cp(c, f);
    return -1;
}

static int order_search(Ctx *c, const HFig *f)
{
    const HSec *secs[ER_SECTION_SLOTS];
    int n = selectable(c, f, ER_SEARCH, secs);
    int spare = spare_cp(c, f);
    return n && spare ? select_(c, secs[0]) : -1;
}

static int fallback(const Ctx *c)
{
    for (int a = 0; a < c->n_actions; a++)
        if (c->mask[a])
            return a;
    return -1;
}

static int activation(Ctx *c)
{
    HFig *f = active(c);
    plans(c);
    int tile = tile_to_assign(c, f);
    int assign = c->s->base[ER_K_ASSIGN] + tile;
    if (tile >= 0 && legal(c, assign))
        return assign;
    int (*const choosers[])(Ctx *, const HFig *) = {
        order_interact, order_fight, order_shoot, order_reload,
        order_saw,      order_move,  order_turn,  order_search,
    };
    for (size_t k = 0; k < sizeof choosers / sizeof choosers[0]; k++) {
        int action = choosers[k](c, f);
        if (action >= 0)
            return action;
    }
    int end = c->s->base[ER_K_END_ROUND];
    return legal(c, end) ? end : fallback(c);
}

/* --- A Move order ------------------------------------------------------------------------------ */

static int needs_card(Ctx *c, const HFig *f)
{
    const HPlan *p = &c->plans[f->index];
    const HRoutes *r = routes(c, f);
    int goal = p->set ? nearest(r, &p->goals) : -1;
    if (goal < 0)
        return 0;
    int ps[ER_MAX_SQUARES], pd[ER_MAX_SQUARES];
    int n = path(c, r, goal, ps, pd);
    return locked_on_path(c, ps, pd, n);
}

static int card_action(Ctx *c, const HFig *f)
{
    const int *base = c->s->base;
    if (legal(c, base[ER_K_PICKUP_CARD]))
        return base[ER_K_PICKUP_CARD];
    int mine[ER_MAX_CHARS], m = living(c, 1, mine), friend_ = -1;
    for (int k = 0; k < m && friend_ < 0; k++)
        if (c->v.fig[mine[k]].square == f->square && mine[k] != f->index)
            friend_ = mine[k];
    if (friend_ < 0)
        return -1;
    int mine_needs = needs_card(c, f), theirs = needs_card(c, &c->v.fig[friend_]);
    if (legal(c, base[ER_K_GIVE_CARD]) && theirs && !mine_needs)
        return base[ER_K_GIVE_CARD];
    if (legal(c, base[ER_K_TAKE_CARD]) && mine_needs && !theirs)
        return base[ER_K_TAKE_CARD];
    return -1;
}

static int errand_open(const Ctx *c, const HFig *f, const HPlan *p)
{
    if (p->door < 0 || !in_goals(&p->goals, f->square))
        return -1;
    for (int d = 0; d < 4; d++) {
        int action = c->s->base[ER_K_OPEN] + d;
        if (c->s->edge[f->square][d] == p->door && legal(c, action))
            return action;
    }
    return -1;
}

static int leave_square(const Ctx *c, const HFig *f)
{
    const Scn *s = c->s;
    int best = -1, best_bad = 0;
    for (int a = s->base[ER_K_STEP]; a < s->base[ER_K_STEP + 1] && a < c->n_actions; a++) {
        if (!c->mask[a])
            continue;
        int target = s->neighbor[f->square][a - s->base[ER_K_STEP]];
        int bad = 0;
        for (int i = 0; i < s->n_chars; i++)
            if (c->v.fig[i].alive && c->v.fig[i].square == target)
                bad = 1;
        if (best < 0 || bad < best_bad) { /* min by (occupied, action): actions ascend */
            best = a;
            best_bad = bad;
        }
    }
    return best >= 0 ? best : fallback(c);
}

static int direction_to(const Scn *s, int a, int b)
{
    int dx = b % s->width - a % s->width, dy = b / s->width - a / s->width;
    if (abs(dx) >= abs(dy))
        return dx > 0 ? 1 : 3;
    return dy > 0 ? 2 : 0;
}

static int facing(Ctx *c, const HFig *f, const HPlan *p, const HRoutes *r)
{
    int ad[4 * ER_MAX_CHARS], ae[4 * ER_MAX_CHARS];
    int na = adjacent_enemies(c, f, ad, ae);
    if (na) {
        long long keys[4 * ER_MAX_CHARS];
        for (int k = 0; k < na; k++)
            keys[k] = -c->v.fig[ae[k]].life;
        return ad[best_ll(c, keys, na)];
    }
    int saw = saw_direction(c, f, p, r);
    if (saw >= 0)
        return saw;
    int enemies[ER_MAX_CHARS], ne = living(c, !f->mine, enemies);
    if (!ne)
        return f->facing;
    int near = enemies[0];
    for (int k = 1; k < ne; k++)
        if (er_range_to(c->s, f->square, c->v.fig[enemies[k]].square) <
            er_range_to(c->s, f->square, c->v.fig[near].square))
            near = enemies[k];
    int toward = direction_to(c->s, f->square, c->v.fig[near].square);
    long long keys[4];
    for (int d = 0; d < 4; d++) {
        int seen = can_shoot(c, f) ? in_sight(c, f, d) : 0;
        keys[d] = 2LL * seen + (d == toward);
    }
    return best_ll(c, keys, 4);
}

static int moving(Ctx *c)
{
    const int *base = c->s->base;
    HFig *f = active(c);
    plans(c);
    const HPlan *p = plan_of(c, f);
    const HRoutes *r = routes(c, f);
    int card = card_action(c, f);
    if (card >= 0)
        return card;
    int door = errand_open(c, f, p);
    if (door >= 0)
        return door;
    int step = next_step(c, f, p, r);
    if (step >= 0 && c->v.mvp >= 1) {
        int action = base[(step & 4) ? ER_K_OPEN : ER_K_STEP] + (step & 3);
        if (legal(c, action))
            return action;
    }
    if (step >= 0 && c->v.mvp < 2 && move_cp_worth(c, f)) {
        int more = move_cp(c, f);
        if (more >= 0)
            return more;
    }
    int face = base[ER_K_END_MOVE] + facing(c, f, p, r);
    if (legal(c, face))
        return face;
    return leave_square(c, f);
}

/* --- Building an order ------------------------------------------------------------------------- */

static int arg_of(const Ctx *c, int a, int *kind)
{
    int arg;
    *kind = er_decode(c->s, a, &arg);
    return arg;
}

static int target(Ctx *c)
{
    const Scn *s = c->s;
    HFig *f = active(c);
    int any_dir = 0;
    for (int a = 0; a < c->n_actions && !any_dir; a++)
        if (c->mask[a]) {
            int kind;
            arg_of(c, a, &kind);
            any_dir = kind == ER_K_CHOOSE_TARGET_DIR;
        }
    if (any_dir) {
        int ad[4 * ER_MAX_CHARS], ae[4 * ER_MAX_CHARS], n = 0;
        int na = adjacent_enemies(c, f, ad, ae);
        for (int k = 0; k < na; k++)
            if (legal(c, s->base[ER_K_CHOOSE_TARGET_DIR] + ad[k])) {
                ad[n] = ad[k];
                ae[n] = ae[k];
                n++;
            }
        if (!n) /* only doors: reached through the reactivation fallback */
            return fallback(c);
        long long keys[4 * ER_MAX_CHARS];
        for (int k = 0; k < n; k++)
            keys[k] = -c->v.fig[ae[k]].life;
        return s->base[ER_K_CHOOSE_TARGET_DIR] + ad[best_ll(c, keys, n)];
    }
    /* [view.figures[arg_of[a]] for a in legal]: the legal set in its iteration order */
    set_init(&c->set_a);
    for (int a = 0; a < c->n_actions; a++)
        if (c->mask[a] && set_add(&c->set_a, a) < 0)
            fail(c, "too many legal actions for the set model");
    int targets[ER_MAX_ACTIONS], n = 0;
    long long keys[ER_MAX_ACTIONS];
    for (size_t i = 0; i <= c->set_a.mask; i++) {
        int a = c->set_a.tab[i];
        if (a < 0)
            continue;
        int kind, arg = arg_of(c, a, &kind);
        if (arg < -s->n_chars || arg >= s->n_chars)
            fail(c, "tuple index out of range (action %d names no character)", a);
        const HFig *e = &c->v.fig[arg < 0 ? arg + s->n_chars : arg];
        targets[n] = e->index;
        keys[n] = pair_key(-e->life, -er_range_to(s, f->square, e->square));
        n++;
    }
    return s->base[ER_K_CHOOSE_TARGET_CHAR] + targets[best_ll(c, keys, n)];
}

static int cp_(Ctx *c)
{
    const Scn *s = c->s;
    HFig *f = active(c);
    const HSec *sec = NULL;
    for (int k = 0; k < f->n_sec && !sec; k++)
        if (f->sec[k].section == c->v.section)
            sec = &f->sec[k];
    if (!sec)
        fail(c, "StopIteration: the active figure has no section %d", c->v.section);
    int most = -1000000;
    for (int a = 0; a < c->n_actions; a++)
        if (c->mask[a]) {
            int kind, arg = arg_of(c, a, &kind);
            most = max_i(most, arg);
        }
    most += 1;
    if (sec->type == ER_SHOOT || sec->type == ER_CLOSE_COMBAT) {
        plans(c);
        most = max_i(1, min_i(most, spare_cp(c, f)));
    }
    return s->base[ER_K_CHOOSE_CP] + most - 1;
}

static int aim(Ctx *c)
{
    int n = 0;
    for (int a = 0; a < c->n_actions; a++)
        n += c->mask[a] != 0;
    HFig *f = active(c);
    int t = c->v.target < 0 ? c->s->n_chars - 1 : c->v.target; /* figures[-1]: the last */
    int far = er_range_to(c->s, f->square, c->v.fig[t].square) > 2;
    int a = far ? n / 2 : (n - 1) / 2;
    return c->s->base[ER_K_CHOOSE_AIM] + a;
}

/* EarthRebornHeuristicBot.act on one decision: the action, or -1 with c->msg set. */
static int decide(Ctx *c, const float *obs)
{
    if (setjmp(c->fail))
        return -1;
    c->have_routes = 0;
    if (fallback(c) < 0)
        fail(c, "act() called with an empty action mask");
    read_view(c, obs);
    int action;
    switch (c->v.decision) {
    case ER_MULLIGAN: action = mulligan(c); break;
    case ER_DUEL_ASK:
    case ER_DUEL_ANSWER: action = c->s->base[ER_K_DUEL_BID]; break; /* ER-INI-8: never bid */
    case ER_ROUND: action = round_(c); break;
    case ER_CHOOSE_DISCARD: action = choose_discard(c); break;
    case ER_ACTIVATION: action = activation(c); break;
    case ER_MOVING: action = moving(c); break;
    case ER_TARGET: action = target(c); break;
    case ER_CP: action = cp_(c); break;
    case ER_AIM: action = aim(c); break;
    case ER_DISCARD: action = discard(c); break;
    default: fail(c, "the observation shows no decision the bot takes (decision %d)", c->v.decision);
    }
    if (!legal(c, action))
        fail(c, "the bot chose action %d, which the mask does not allow", action);
    return action;
}

/* --- The bot's static data (EarthRebornHeuristicBot.__init__) ---------------------------------- */

/* _room(square) as a set, then its frozenset; _posts(room) as a frozenset, in iteration order. */
static int build_rooms(HBot *b)
{
    const Scn *s = &b->scn;
    static PySet room, froz, posts;
    for (int t = 0; t < s->n_terminals; t++) {
        int sq0 = s->terminal_square[t];
        set_init(&room);
        set_add(&room, sq0);
        int todo[4 * ER_MAX_SQUARES + 1], n = 0;
        todo[n++] = sq0;
        uint8_t in[ER_MAX_SQUARES] = {0};
        in[sq0] = 1;
        while (n) {
            int sq = todo[--n];
            for (int d = 0; d < 4; d++) {
                int nb = s->neighbor[sq][d];
                if (s->edge[sq][d] == ER_OPEN_EDGE && !in[nb]) {
                    in[nb] = 1;
                    if (set_add(&room, nb) < 0)
                        return -1;
                    todo[n++] = nb;
                }
            }
        }
        if (set_copy(&froz, &room) < 0)
            return -1;
        memcpy(b->in_room[t], in, sizeof in);
        set_init(&posts);
        for (size_t i = 0; i <= froz.mask; i++) {
            int sq = froz.tab[i];
            if (sq < 0)
                continue;
            for (int d = 0; d < 4; d++)
                if (s->edge[sq][d] >= 0 && set_add(&posts, s->neighbor[sq][d]) < 0)
                    return -1;
        }
        b->posts[t].n = 0;
        for (size_t i = 0; i <= posts.mask; i++)
            if (posts.tab[i] >= 0)
                b->posts[t].sq[b->posts[t].n++] = posts.tab[i];
    }
    return 0;
}

/* _type_weights(player) */
static int type_weights(HBot *b, char *why, size_t n)
{
    const Scn *s = &b->scn;
    for (int p = 0; p < 2; p++) {
        int cast = 0, armed_n = 0;
        for (int i = 0; i < s->n_chars; i++)
            if (s->chars[i].faction == p) {
                cast++;
                armed_n += s->chars[i].has_weapon;
            }
        if (!cast) {
            snprintf(why, n, "the heuristic bot needs characters in both factions; faction %d has none",
                     p);
            return -1;
        }
        double armed = (double)armed_n / cast;
        b->weights[p][ER_MOVE] = 1.0;
        b->weights[p][ER_SHOOT] = armed;
        b->weights[p][ER_CLOSE_COMBAT] = 0.2 + (1.0 - armed);
        b->weights[p][ER_INTERACT] = p == b->hacker ? 1.5 : 0.0;
        b->weights[p][ER_SEARCH] = s->n_caches ? 0.1 : 0.0;
    }
    return 0;
}

/* --- The plain C API (heuristic.h) ------------------------------------------------------------ */

struct ErHeuristic {
    HBot bot;
    Ctx ctx;
};

ErHeuristic *er_heuristic_new(const Scn *s, int saw_hunt, const ErHeuristicReading *reading,
                              char *why, size_t n)
{
    for (int i = 0; i < s->n_chars; i++)
        if (s->chars[i].healthy.mov <= 0 || s->chars[i].wounded.mov <= 0) {
            snprintf(why, n, "the heuristic bot divides by MOV: character %d has a MOV of 0", i);
            return NULL;
        }
    ErHeuristic *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(why, n, "out of memory");
        return NULL;
    }
    HBot *b = &h->bot;
    b->scn = *s;
    b->hacker = s->mission.hacker_faction;
    b->saw_hunt = saw_hunt;
    b->cp_mine = reading->cp_mine;
    b->cp_scale = reading->cp_scale;
    b->mvp = reading->mvp;
    b->mvp_scale = reading->mvp_scale;
    b->sec_max_scale = reading->sec_max_scale;
    b->sec_cp_scale = reading->sec_cp_scale;
    if (type_weights(b, why, n) < 0) {
        free(h);
        return NULL;
    }
    if (build_rooms(b) < 0) {
        snprintf(why, n, "a terminal's room is too large for the set model");
        free(h);
        return NULL;
    }
    h->ctx.b = b;
    h->ctx.s = &b->scn;
    h->ctx.n_actions = s->n_actions;
    return h;
}

void er_heuristic_free(ErHeuristic *h)
{
    free(h);
}

const Scn *er_heuristic_scenario(const ErHeuristic *h)
{
    return &h->bot.scn;
}

int er_heuristic_decide(ErHeuristic *h, ErPcg64 *rng, const float *obs, const uint8_t *mask,
                        const char **why)
{
    Ctx *c = &h->ctx;
    c->rng = rng;
    c->mask = mask;
    int a = decide(c, obs);
    *why = a < 0 ? c->msg : NULL;
    return a;
}

int64_t er_pcg_integers(ErPcg64 *r, int64_t n)
{
    return pcg_integers(r, n);
}

int er_set_order(const int *keys, int n, int frozen, int *out)
{
    PySet *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    int count = -1;
    if (!a || !b)
        goto done;
    set_init(a);
    for (int k = 0; k < n; k++)
        if (keys[k] < 0 || keys[k] > 32767 || set_add(a, keys[k]) < 0)
            goto done;
    if (frozen && set_copy(b, a) < 0)
        goto done;
    const PySet *s = frozen ? b : a;
    count = 0;
    for (size_t i = 0; i <= s->mask; i++)
        if (s->tab[i] >= 0)
            out[count++] = s->tab[i];
done:
    free(a);
    free(b);
    return count;
}
