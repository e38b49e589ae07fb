/* Haven's single-target monster AI (HV-AI-3..5, HV-AI-10, HV-COND-7, HV-JMP-2): the compiled
 * twin of focus_ranking and destination in rules/monster_ai.py, which is the reference and says
 * what each value means; each step below names the line of the Python it follows.
 *
 * Every input is checked before it is used: a wrong length, or a cell out of range, is a
 * ValueError; a value of the wrong type a TypeError; nothing is read or written out of bounds.
 * The only Python code run is a figure's `cell` attribute and the `remaining` callable, and
 * every list is looked at again after them. Minima are taken over full keys whose last element
 * is a cell id or an index, so no tie is left to the order of a loop.
 */
#include "monster_ai.h"
#include "rb_binding.h"

#include <string.h>

#define AI_MAX_CELLS 4096
#define AI_UNREACHED 1000000LL /* monster_plan.UNREACHED */

/* --- AIBoard ------------------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    int n;                  /* cells */
    long long modulus;      /* terrain.NEGATIVE on a map with terrain, else 0 */
    long long *range;       /* n * n: Board.distance(a, b) at a * n + b */
    unsigned char *sight;   /* n * n: Board.sight(a, b) */
} AIBoard;

/* v as an integer within +-2**40 (rb_int: TypeError or ValueError naming `what`), so that no
 * sum of a few of them overflows. */
static int as_ll(PyObject *v, long long *out, const char *what)
{
    return rb_int(v, -(1LL << 40), 1LL << 40, out, what);
}

/* v as a cell 0..n-1. */
static int as_cell(PyObject *v, int n, int *out, const char *what)
{
    long long x;
    if (rb_int(v, 0, n - 1, &x, what) < 0)
        return -1;
    *out = (int)x;
    return 0;
}

/* A list or tuple of exactly n items, seen without copying (the caller holds the object). */
typedef struct {
    PyObject **items;
    Py_ssize_t len;
} View;

static int view_of(PyObject *v, Py_ssize_t n, View *out, const char *what)
{
    if (!PyList_Check(v) && !PyTuple_Check(v)) {
        PyErr_Format(PyExc_TypeError, "%s must be a list or tuple, got %R", what, v);
        return -1;
    }
    out->len = PySequence_Fast_GET_SIZE(v);
    out->items = PySequence_Fast_ITEMS(v);
    if (n >= 0 && out->len != n) {
        PyErr_Format(PyExc_ValueError, "%s must hold %zd values, got %zd", what, n, out->len);
        return -1;
    }
    return 0;
}

/* Item i of a list of int-or-None: 1 and *out, 0 for None, -1 on error. */
static int opt_at(const View *v, int i, long long *out, const char *what)
{
    PyObject *x = v->items[i];
    if (x == Py_None)
        return 0;
    return as_ll(x, out, what) < 0 ? -1 : 1;
}

/* Item i of a list of truth values (bools or ints): 0/1, -1 on error. */
static int flag_at(const View *v, int i, const char *what)
{
    PyObject *x = v->items[i];
    if (x == Py_True)
        return 1;
    if (x == Py_False)
        return 0;
    if (PyLong_Check(x))
        return PyObject_IsTrue(x);
    PyErr_Format(PyExc_TypeError, "%s must hold truth values, got %R", what, x);
    return -1;
}

static void aiboard_dealloc(AIBoard *self)
{
    PyMem_Free(self->range);
    PyMem_Free(self->sight);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *aiboard_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"n", "distance", "sight", "modulus", NULL};
    int n;
    long long modulus;
    PyObject *distance, *sight;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iOOL", kwlist, &n, &distance, &sight, &modulus))
        return NULL;
    if (n < 1 || n > AI_MAX_CELLS) {
        PyErr_Format(PyExc_ValueError, "n must be in 1..%d, got %d", AI_MAX_CELLS, n);
        return NULL;
    }
    if (modulus < 0) {
        PyErr_SetString(PyExc_ValueError, "modulus must not be negative");
        return NULL;
    }
    View dv, sv;
    Py_ssize_t nn = (Py_ssize_t)n * n;
    if (view_of(distance, nn, &dv, "distance") < 0 || view_of(sight, nn, &sv, "sight") < 0)
        return NULL;
    AIBoard *self = (AIBoard *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    self->n = n;
    self->modulus = modulus;
    self->range = PyMem_Malloc(sizeof(long long) * (size_t)nn);
    self->sight = PyMem_Malloc((size_t)nn);
    if (!self->range || !self->sight) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < nn; i++) {
        if (as_ll(dv.items[i], &self->range[i], "distance") < 0) {
            Py_DECREF(self);
            return NULL;
        }
        int s = flag_at(&sv, (int)i, "sight");
        if (s < 0) {
            Py_DECREF(self);
            return NULL;
        }
        self->sight[i] = (unsigned char)s;
    }
    return (PyObject *)self;
}

static PyObject *aiboard_n(AIBoard *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(self->n);
}

static PyGetSetDef aiboard_getset[] = {
    {"n", (getter)aiboard_n, NULL, "the number of cells", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject HavenAIBoard_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "reborn_env.games.haven.fast._core.AIBoard",
    .tp_basicsize = sizeof(AIBoard),
    .tp_dealloc = (destructor)aiboard_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "AIBoard(n, distance, sight, modulus): one map's range and sight tables for the "
              "monster AI (flat n * n lists), and the weight of a negative hex (0: no terrain).",
    .tp_new = aiboard_new,
    .tp_getset = aiboard_getset,
};

int haven_ai_add(PyObject *module)
{
    if (PyType_Ready(&HavenAIBoard_Type) < 0)
        return -1;
    Py_INCREF(&HavenAIBoard_Type);
    if (PyModule_AddObject(module, "AIBoard", (PyObject *)&HavenAIBoard_Type) < 0) {
        Py_DECREF(&HavenAIBoard_Type);
        return -1;
    }
    return 0;
}

static AIBoard *board_arg(PyObject *v)
{
    if (!PyObject_TypeCheck(v, &HavenAIBoard_Type)) {
        PyErr_Format(PyExc_TypeError, "board must be an AIBoard, got %R", v);
        return NULL;
    }
    return (AIBoard *)v;
}

/* HV-AI-3: cell c is one of target t's attack-hex candidates (Board.cells_reaching). */
static inline int reaching(const AIBoard *b, int c, int t, long long reach)
{
    size_t i = (size_t)c * (size_t)b->n + (size_t)t;
    return b->range[i] <= reach && b->sight[i];
}

static long long floordiv(long long a, long long m)
{
    long long q = a / m;
    return (a % m != 0 && ((a < 0) != (m < 0))) ? q - 1 : q;
}

/* --- ai_ranking --------------------------------------------------------------------------- */

const char haven_ai_ranking_doc[] =
    "ai_ranking(board, dist, endable, mover_cell, reach, cells, positions, figures) -> list\n\n"
    "HV-AI-4: monster_ai.focus_ranking for a single-target plan: [((cost, proximity, position),"
    " figure), ...] best first, for the candidates' cells, turn positions (tuples of three ints)"
    " and figures; reach is `plan.reach or 1` (HV-AI-3).";

typedef struct {
    long long k[5];
    Py_ssize_t index;
} RankRow;

static int rank_less(const RankRow *a, const RankRow *b)
{
    for (int i = 0; i < 5; i++)
        if (a->k[i] != b->k[i])
            return a->k[i] < b->k[i];
    return 0; /* equal keys keep their order, as list.sort */
}

/* A turn position: a tuple of three integers into out[0..3). */
static int read_position(PyObject *p, long long *out, const char *what)
{
    if (!PyTuple_Check(p) || PyTuple_GET_SIZE(p) != 3) {
        PyErr_Format(PyExc_TypeError, "%s must be a tuple of three integers, got %R", what, p);
        return -1;
    }
    for (int i = 0; i < 3; i++)
        if (as_ll(PyTuple_GET_ITEM(p, i), &out[i], what) < 0)
            return -1;
    return 0;
}

PyObject *haven_ai_ranking(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 8) {
        PyErr_Format(PyExc_TypeError, "ai_ranking takes 8 arguments, got %zd", nargs);
        return NULL;
    }
    AIBoard *b = board_arg(args[0]);
    if (!b)
        return NULL;
    int n = b->n, mover;
    long long reach;
    View dist, endable, cells, positions, figures;
    if (view_of(args[1], n, &dist, "dist") < 0 || view_of(args[2], n, &endable, "endable") < 0 ||
        as_cell(args[3], n, &mover, "mover_cell") < 0 || as_ll(args[4], &reach, "reach") < 0 ||
        view_of(args[5], -1, &cells, "cells") < 0)
        return NULL;
    Py_ssize_t k = cells.len;
    if (view_of(args[6], k, &positions, "positions") < 0 ||
        view_of(args[7], k, &figures, "figures") < 0)
        return NULL;
    RankRow *rows = PyMem_Malloc(sizeof(RankRow) * (size_t)(k ? k : 1));
    if (!rows)
        return PyErr_NoMemory();
    for (Py_ssize_t j = 0; j < k; j++) {
        int t;
        RankRow *r = &rows[j];
        r->index = j;
        if (as_cell(cells.items[j], n, &t, "cells") < 0 ||
            read_position(positions.items[j], &r->k[2], "positions") < 0)
            goto fail;
        /* costs = [dist[h] for h in plan_hexes(...) if dist[h] is not None] */
        int any = 0;
        long long best = 0;
        for (int c = 0; c < n; c++) {
            if (!reaching(b, c, t, reach))
                continue;
            int e = flag_at(&endable, c, "endable");
            if (e < 0)
                goto fail;
            if (!e)
                continue;
            long long d;
            int got = opt_at(&dist, c, &d, "dist");
            if (got < 0)
                goto fail;
            if (got && (!any || d < best)) {
                best = d;
                any = 1;
            }
        }
        r->k[0] = any ? best : AI_UNREACHED;
        r->k[1] = b->range[(size_t)mover * n + t];
    }
    for (Py_ssize_t j = 1; j < k; j++) { /* stable insertion sort: a handful of candidates */
        RankRow x = rows[j];
        Py_ssize_t i = j;
        while (i > 0 && rank_less(&x, &rows[i - 1])) {
            rows[i] = rows[i - 1];
            i--;
        }
        rows[i] = x;
    }
    PyObject *out = PyList_New(k);
    if (!out)
        goto fail;
    for (Py_ssize_t j = 0; j < k; j++) {
        Py_ssize_t at = rows[j].index;
        PyObject *key = Py_BuildValue("(LLO)", rows[j].k[0], rows[j].k[1], positions.items[at]);
        PyObject *pair = key ? PyTuple_Pack(2, key, figures.items[at]) : NULL;
        Py_XDECREF(key);
        if (!pair) {
            Py_DECREF(out);
            goto fail;
        }
        PyList_SET_ITEM(out, j, pair);
    }
    PyMem_Free(rows);
    return out;
fail:
    PyMem_Free(rows);
    return NULL;
}

/* --- ai_destination ----------------------------------------------------------------------- */

const char haven_ai_destination_doc[] =
    "ai_destination(board, mover_cell, move, reach, hampered, targets, target, target_cell,\n"
    "               dist, cost, points, endable, ranking, remaining) -> int\n\n"
    "HV-AI-5, HV-AI-10, HV-COND-7, HV-JMP-2: monster_ai.destination for a single-target plan. "
    "reach: plan.reach (None: no attack); hampered: a ranged plan of an unmuddled mover; "
    "targets: plan.targets; the lists are the graph's; ranking: focus_ranking's list; "
    "remaining: graph.remaining, called once in Case B.";

/* An enemy other than the focus, from the ranking: its key's five integers and its cell. */
typedef struct {
    long long k[5];
    int cell;
} Other;

typedef struct {
    int hamp, count, dis;
    long long d;
    int h;
} HexKey;

/* The inputs _hex_key's order reads. */
typedef struct {
    const AIBoard *b;
    int t;
    long long reach;
    int hampered;
    long long take; /* plan.targets - 1: a slice bound, negative ones as Python's */
    const Other *others;
    Py_ssize_t nothers;
} Order;

/* hex_order's key of hex h (its chosen others' indices into `chosen`). */
static void hex_key(const Order *o, int h, long long d, HexKey *key, Py_ssize_t *chosen)
{
    const AIBoard *b = o->b;
    size_t row = (size_t)h * b->n;
    Py_ssize_t found = 0;
    for (Py_ssize_t j = 0; j < o->nothers; j++) /* in_range_and_sight(h, f.cell, reach) */
        if (b->range[row + o->others[j].cell] <= o->reach && b->sight[row + o->others[j].cell])
            chosen[found++] = j;
    long long take = o->take >= 0 ? o->take : found + o->take; /* in_reach[: targets - 1] */
    if (take < 0)
        take = 0;
    key->count = (int)(take < found ? take : found);
    key->hamp = o->hampered && b->range[row + o->t] <= 1;
    key->dis = 0;
    for (int i = 0; i < key->count; i++)
        key->dis += o->hampered && b->range[row + o->others[chosen[i]].cell] <= 1;
    key->d = d;
    key->h = h;
}

/* (hamp, -count, chosen keys, dis, dist, h) of a < that of b. */
static int hex_less(const Order *o, const HexKey *a, const Py_ssize_t *ca, const HexKey *b,
                    const Py_ssize_t *cb)
{
    if (a->hamp != b->hamp)
        return a->hamp < b->hamp;
    if (a->count != b->count)
        return a->count > b->count;
    for (int i = 0; i < a->count; i++) {
        const long long *x = o->others[ca[i]].k, *y = o->others[cb[i]].k;
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

/* The best of hexes[0..count) by _hex_key; reach_none: by (dist, h) only. */
static int best_hex(const Order *o, int reach_none, const int *hexes, const long long *d,
                    int count, Py_ssize_t *cur, Py_ssize_t *best)
{
    int at = -1;
    HexKey bk = {0, 0, 0, 0, 0}, k;
    for (int i = 0; i < count; i++) {
        if (reach_none) {
            if (at < 0 || d[i] < bk.d || (d[i] == bk.d && hexes[i] < bk.h)) {
                bk.d = d[i];
                bk.h = hexes[i];
                at = i;
            }
            continue;
        }
        hex_key(o, hexes[i], d[i], &k, cur);
        if (at < 0 || hex_less(o, &k, cur, &bk, best)) {
            bk = k;
            memcpy(best, cur, sizeof(Py_ssize_t) * (size_t)(o->nothers ? o->nothers : 1));
            at = i;
        }
    }
    return hexes[at];
}

/* The ranking without the focus (`others`), with each figure's cell, into *out. */
static int read_others(PyObject *ranking, PyObject *target, int n, Other **out, Py_ssize_t *nout)
{
    PyObject *seq = PySequence_Fast(ranking, "ranking must be a sequence");
    if (!seq)
        return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq), m = 0;
    Other *others = PyMem_Malloc(sizeof(Other) * (size_t)(len ? len : 1));
    if (!others) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        if (PySequence_Fast_GET_SIZE(seq) != len) {
            PyErr_SetString(PyExc_RuntimeError, "ranking changed size while it was read");
            goto fail;
        }
        PyObject *pair = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
            PyErr_Format(PyExc_TypeError, "ranking must hold (key, figure) pairs, got %R", pair);
            goto fail;
        }
        PyObject *key = PyTuple_GET_ITEM(pair, 0), *fig = PyTuple_GET_ITEM(pair, 1);
        if (fig == target)
            continue;
        if (!PyTuple_Check(key) || PyTuple_GET_SIZE(key) != 3) {
            PyErr_Format(PyExc_TypeError, "a ranking key must be (cost, proximity, position), "
                                          "got %R", key);
            goto fail;
        }
        Other *o = &others[m];
        if (as_ll(PyTuple_GET_ITEM(key, 0), &o->k[0], "a ranking cost") < 0 ||
            as_ll(PyTuple_GET_ITEM(key, 1), &o->k[1], "a ranking proximity") < 0 ||
            read_position(PyTuple_GET_ITEM(key, 2), &o->k[2], "a ranking position") < 0)
            goto fail;
        Py_INCREF(pair); /* fig.cell may run Python code */
        PyObject *cell = PyObject_GetAttrString(fig, "cell");
        int bad = !cell || as_cell(cell, n, &o->cell, "a ranked figure's cell") < 0;
        Py_XDECREF(cell);
        Py_DECREF(pair);
        if (bad)
            goto fail;
        m++;
    }
    Py_DECREF(seq);
    *out = others;
    *nout = m;
    return 0;
fail:
    Py_DECREF(seq);
    PyMem_Free(others);
    return -1;
}

PyObject *haven_ai_destination(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 14) {
        PyErr_Format(PyExc_TypeError, "ai_destination takes 14 arguments, got %zd", nargs);
        return NULL;
    }
    AIBoard *b = board_arg(args[0]);
    if (!b)
        return NULL;
    int n = b->n, mover, t;
    long long move, reach = 0, targets;
    int reach_none = args[3] == Py_None;
    int hampered = PyObject_IsTrue(args[4]);
    if (hampered < 0 || as_cell(args[1], n, &mover, "mover_cell") < 0 ||
        as_ll(args[2], &move, "move") < 0 ||
        (!reach_none && as_ll(args[3], &reach, "reach") < 0) ||
        as_ll(args[5], &targets, "targets") < 0 || as_cell(args[7], n, &t, "target_cell") < 0)
        return NULL;
    PyObject *target = args[6], *remaining_fn = args[13];
    Other *others = NULL;
    Py_ssize_t nothers = 0;
    if (!reach_none && read_others(args[12], target, n, &others, &nothers) < 0)
        return NULL;
    PyObject *result = NULL, *remaining = NULL;
    int *hexes = PyMem_Malloc(sizeof(int) * (size_t)n);
    long long *hd = PyMem_Malloc(sizeof(long long) * (size_t)n);
    int *sub = PyMem_Malloc(sizeof(int) * (size_t)n);
    long long *sd = PyMem_Malloc(sizeof(long long) * (size_t)n);
    size_t chosen_size = sizeof(Py_ssize_t) * (size_t)(nothers ? nothers : 1);
    Py_ssize_t *cur = PyMem_Malloc(chosen_size), *best = PyMem_Malloc(chosen_size);
    if (!hexes || !hd || !sub || !sd || !cur || !best) {
        PyErr_NoMemory();
        goto done;
    }
    View dist, cost, points, endable;
    if (view_of(args[8], n, &dist, "dist") < 0 || view_of(args[9], n, &cost, "cost") < 0 ||
        view_of(args[10], n, &points, "points") < 0 ||
        view_of(args[11], n, &endable, "endable") < 0)
        goto done;
    /* hexes = [h for h in plan_hexes(...) if dist[h] is not None] */
    long long hreach = (reach_none || reach == 0) ? 1 : reach; /* plan.reach or 1 */
    int count = 0;
    for (int c = 0; c < n; c++) {
        if (!reaching(b, c, t, hreach))
            continue;
        int e = flag_at(&endable, c, "endable");
        if (e < 0)
            goto done;
        int got = e ? opt_at(&dist, c, &hd[count], "dist") : 0;
        if (got < 0)
            goto done;
        if (got)
            hexes[count++] = c;
    }
    if (!count) {
        result = PyLong_FromLong(mover);
        goto done;
    }
    if (b->modulus) { /* HV-AI-10: only the hexes of fewest negatives */
        long long fewest = floordiv(hd[0], b->modulus);
        for (int i = 1; i < count; i++) {
            long long neg = floordiv(hd[i], b->modulus);
            if (neg < fewest)
                fewest = neg;
        }
        int kept = 0;
        for (int i = 0; i < count; i++)
            if (floordiv(hd[i], b->modulus) == fewest) {
                hexes[kept] = hexes[i];
                hd[kept++] = hd[i];
            }
        count = kept;
    }
    Order order = {b, t, reach, hampered, targets - 1, others, nothers};
    if (!reach_none) { /* Case A: the attack hexes within this turn's move */
        int within = 0;
        for (int i = 0; i < count; i++) {
            long long spent;
            int got = opt_at(&points, hexes[i], &spent, "points");
            if (got < 0)
                goto done;
            if (!got) {
                PyErr_SetString(PyExc_TypeError, "points is None where dist is not");
                goto done;
            }
            if (spent <= move) {
                sub[within] = hexes[i];
                sd[within++] = hd[i];
            }
        }
        if (within) {
            result = PyLong_FromLong(best_hex(&order, 0, sub, sd, within, cur, best));
            goto done;
        }
    }
    /* Case B: goal = min(hexes, key); toward(graph, reachable, goal) */
    int goal = best_hex(&order, reach_none, hexes, hd, count, cur, best);
    PyObject *g = PyLong_FromLong(goal);
    remaining = g ? PyObject_CallOneArg(remaining_fn, g) : NULL;
    Py_XDECREF(g);
    View rem;
    if (!remaining || view_of(remaining, n, &rem, "remaining(goal)") < 0 ||
        view_of(args[8], n, &dist, "dist") < 0 || view_of(args[9], n, &cost, "cost") < 0 ||
        view_of(args[10], n, &points, "points") < 0 ||
        view_of(args[11], n, &endable, "endable") < 0)
        goto done;
    int at = -1;
    long long bk[4] = {0, 0, 0, 0};
    for (int c = 0; c < n; c++) { /* reachable, its rest known, then toward's min */
        long long spent, cc, rc, dc;
        int got = opt_at(&points, c, &spent, "points");
        if (got < 0)
            goto done;
        if (!got || spent > move)
            continue;
        int e = flag_at(&endable, c, "endable");
        if (e < 0)
            goto done;
        if (!e)
            continue;
        got = opt_at(&rem, c, &rc, "remaining");
        if (got < 0)
            goto done;
        if (!got)
            continue;
        if (opt_at(&cost, c, &cc, "cost") != 1 || opt_at(&dist, c, &dc, "dist") != 1) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "a reachable cell has a cost of None");
            goto done;
        }
        /* (landing weight, negatives of the whole way, points left, points spent, cell) */
        long long m = b->modulus;
        long long k[4] = {dc - cc, m ? floordiv(cc, m) + floordiv(rc, m) : 0,
                          m ? rc - floordiv(rc, m) * m : rc, m ? cc - floordiv(cc, m) * m : cc};
        int better = at < 0;
        for (int i = 0; !better && i < 4 && k[i] <= bk[i]; i++)
            better = k[i] < bk[i];
        if (better) {
            at = c;
            for (int i = 0; i < 4; i++)
                bk[i] = k[i];
        }
    }
    if (at < 0) {
        PyErr_SetString(PyExc_ValueError, "min() arg is an empty sequence");
        goto done;
    }
    result = PyLong_FromLong(at);
done:
    Py_XDECREF(remaining);
    PyMem_Free(others);
    PyMem_Free(hexes);
    PyMem_Free(hd);
    PyMem_Free(sub);
    PyMem_Free(sd);
    PyMem_Free(cur);
    PyMem_Free(best);
    return result;
}
