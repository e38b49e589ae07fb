/* The binding of haven's single-target monster AI (HV-AI-3..5, HV-AI-10, HV-COND-7, HV-JMP-2):
 * AIBoard, ai_ranking and ai_destination read Python's lists into arrays and run the plain-C
 * choices of ai_choice.c, the compiled twin of focus_ranking and destination in
 * rules/monster_ai.py.
 *
 * Every input is read and checked before anything is chosen: a wrong length, or a cell out of
 * range, is a ValueError; a value of the wrong type a TypeError; nothing is read or written out
 * of bounds. The only Python code run is a figure's `cell` attribute and the `remaining`
 * callable, and each runs before the arrays it could change are read, or after them.
 */
#include "monster_ai.h"
#include "ai_choice.h"
#include "rb_binding.h"

#include <string.h>

#define AI_MAX_LIST (1 << 20) /* candidates or ranked figures: counted in an int */

/* --- AIBoard ------------------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    HaBoard b;
} AIBoard;

/* v as an integer within +-HA_MAX_VALUE (rb_int: TypeError or ValueError naming `what`), so
 * that no sum of a few of them overflows. */
static int as_ll(PyObject *v, long long *out, const char *what)
{
    if (rb_int_fast(v, -HA_MAX_VALUE, HA_MAX_VALUE, out))
        return 0;
    return rb_int(v, -HA_MAX_VALUE, HA_MAX_VALUE, out, what);
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

/* A list or tuple of exactly n ints-or-None into out (HA_NONE for None). */
static int read_optional(PyObject *v, int n, long long *out, const char *what)
{
    View view;
    if (view_of(v, n, &view, what) < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        PyObject *x = view.items[i];
        if (x == Py_None)
            out[i] = HA_NONE;
        else if (as_ll(x, &out[i], what) < 0)
            return -1;
    }
    return 0;
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

/* A list or tuple of exactly n truth values into out. */
static int read_flags(PyObject *v, int n, unsigned char *out, const char *what)
{
    View view;
    if (view_of(v, n, &view, what) < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        int f = flag_at(&view, i, what);
        if (f < 0)
            return -1;
        out[i] = (unsigned char)f;
    }
    return 0;
}

static void aiboard_dealloc(AIBoard *self)
{
    PyMem_Free(self->b.range);
    PyMem_Free(self->b.sight);
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
    if (n < 1 || n > HA_MAX_CELLS) {
        PyErr_Format(PyExc_ValueError, "n must be in 1..%d, got %d", HA_MAX_CELLS, n);
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
    self->b.n = n;
    self->b.modulus = modulus;
    self->b.range = PyMem_Malloc(sizeof(long long) * (size_t)nn);
    self->b.sight = PyMem_Malloc((size_t)nn);
    if (!self->b.range || !self->b.sight) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < nn; i++) {
        if (as_ll(dv.items[i], &self->b.range[i], "distance") < 0) {
            Py_DECREF(self);
            return NULL;
        }
        int s = flag_at(&sv, (int)i, "sight");
        if (s < 0) {
            Py_DECREF(self);
            return NULL;
        }
        self->b.sight[i] = (unsigned char)s;
    }
    return (PyObject *)self;
}

static PyObject *aiboard_n(AIBoard *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(self->b.n);
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

static const HaBoard *board_arg(PyObject *v)
{
    if (!PyObject_TypeCheck(v, &HavenAIBoard_Type)) {
        PyErr_Format(PyExc_TypeError, "board must be an AIBoard, got %R", v);
        return NULL;
    }
    return &((AIBoard *)v)->b;
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

/* --- ai_ranking --------------------------------------------------------------------------- */

const char haven_ai_ranking_doc[] =
    "ai_ranking(board, dist, endable, mover_cell, reach, cells, positions, figures) -> list\n\n"
    "HV-AI-4: monster_ai.focus_ranking for a single-target plan: [((cost, proximity, position),"
    " figure), ...] best first, for the candidates' cells, turn positions (tuples of three ints)"
    " and figures; reach is `plan.reach or 1` (HV-AI-3).";

PyObject *haven_ai_ranking(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 8) {
        PyErr_Format(PyExc_TypeError, "ai_ranking takes 8 arguments, got %zd", nargs);
        return NULL;
    }
    const HaBoard *b = board_arg(args[0]);
    if (!b)
        return NULL;
    int n = b->n, mover;
    long long reach;
    View cells, positions, figures;
    if (as_cell(args[3], n, &mover, "mover_cell") < 0 || as_ll(args[4], &reach, "reach") < 0 ||
        view_of(args[5], -1, &cells, "cells") < 0)
        return NULL;
    Py_ssize_t k = cells.len;
    if (view_of(args[6], k, &positions, "positions") < 0 ||
        view_of(args[7], k, &figures, "figures") < 0)
        return NULL;
    if (k > AI_MAX_LIST) {
        PyErr_Format(PyExc_ValueError, "cells must hold at most %d candidates, got %zd",
                     AI_MAX_LIST, k);
        return NULL;
    }
    PyObject *out = NULL;
    long long *dist = PyMem_Malloc(sizeof(long long) * (size_t)n);
    unsigned char *endable = PyMem_Malloc((size_t)n);
    int *targets = PyMem_Malloc(sizeof(int) * (size_t)(k ? k : 1));
    HaRank *rows = PyMem_Malloc(sizeof(HaRank) * (size_t)(k ? k : 1));
    if (!dist || !endable || !targets || !rows) {
        PyErr_NoMemory();
        goto done;
    }
    if (read_optional(args[1], n, dist, "dist") < 0 ||
        read_flags(args[2], n, endable, "endable") < 0)
        goto done;
    for (Py_ssize_t j = 0; j < k; j++) {
        rows[j].index = (int)j;
        if (as_cell(cells.items[j], n, &targets[j], "cells") < 0 ||
            read_position(positions.items[j], &rows[j].k[2], "positions") < 0)
            goto done;
    }
    ha_focus_ranking(b, dist, endable, mover, reach, targets, rows, (int)k);
    out = PyList_New(k);
    for (Py_ssize_t j = 0; out && j < k; j++) {
        int at = rows[j].index;
        PyObject *key = Py_BuildValue("(LLO)", rows[j].k[0], rows[j].k[1], positions.items[at]);
        PyObject *pair = key ? PyTuple_Pack(2, key, figures.items[at]) : NULL;
        Py_XDECREF(key);
        if (!pair)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, j, pair);
    }
done:
    PyMem_Free(dist);
    PyMem_Free(endable);
    PyMem_Free(targets);
    PyMem_Free(rows);
    return out;
}

/* --- ai_destination ----------------------------------------------------------------------- */

const char haven_ai_destination_doc[] =
    "ai_destination(board, mover_cell, move, reach, hampered, targets, target, target_cell,\n"
    "               dist, cost, points, endable, ranking, remaining) -> int\n\n"
    "HV-AI-5, HV-AI-10, HV-COND-7, HV-JMP-2: monster_ai.destination for a single-target plan. "
    "reach: plan.reach (None: no attack); hampered: a ranged plan of an unmuddled mover; "
    "targets: plan.targets; the lists are the graph's; ranking: focus_ranking's list; "
    "remaining: graph.remaining, called once in Case B.";

/* The ranking without the focus (`others`), with each figure's cell, into *out. */
static int read_others(PyObject *ranking, PyObject *target, int n, HaOther **out, int *nout)
{
    PyObject *seq = PySequence_Fast(ranking, "ranking must be a sequence");
    if (!seq)
        return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    int m = 0;
    if (len > AI_MAX_LIST) {
        PyErr_Format(PyExc_ValueError, "ranking must hold at most %d figures, got %zd",
                     AI_MAX_LIST, len);
        Py_DECREF(seq);
        return -1;
    }
    HaOther *others = PyMem_Malloc(sizeof(HaOther) * (size_t)(len ? len : 1));
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
        HaOther *o = &others[m];
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

/* An error code of ai_choice.c as the exception the Python reference raises there. */
static void raise_choice_error(int status)
{
    if (status == HA_NO_MEMORY)
        PyErr_NoMemory();
    else if (status == HA_POINTS_NONE)
        PyErr_SetString(PyExc_TypeError, "points is None where dist is not");
    else if (status == HA_COST_NONE)
        PyErr_SetString(PyExc_TypeError, "a reachable cell has a cost of None");
    else
        PyErr_SetString(PyExc_ValueError, "min() arg is an empty sequence");
}

PyObject *haven_ai_destination(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 14) {
        PyErr_Format(PyExc_TypeError, "ai_destination takes 14 arguments, got %zd", nargs);
        return NULL;
    }
    const HaBoard *b = board_arg(args[0]);
    if (!b)
        return NULL;
    int n = b->n;
    HaPlan plan = {0};
    plan.reach_none = args[3] == Py_None;
    plan.hampered = PyObject_IsTrue(args[4]);
    if (plan.hampered < 0 || as_cell(args[1], n, &plan.mover, "mover_cell") < 0 ||
        as_ll(args[2], &plan.move, "move") < 0 ||
        (!plan.reach_none && as_ll(args[3], &plan.reach, "reach") < 0) ||
        as_ll(args[5], &plan.targets, "targets") < 0 ||
        as_cell(args[7], n, &plan.target_cell, "target_cell") < 0)
        return NULL;
    HaOther *others = NULL;
    if (!plan.reach_none && read_others(args[12], args[6], n, &others, &plan.nothers) < 0)
        return NULL;
    plan.others = others;
    PyObject *result = NULL, *remaining = NULL;
    long long *values = PyMem_Malloc(sizeof(long long) * 4 * (size_t)n);
    unsigned char *endable = PyMem_Malloc((size_t)n);
    if (!values || !endable) {
        PyErr_NoMemory();
        goto done;
    }
    long long *dist = values, *cost = dist + n, *points = cost + n, *rest = points + n;
    if (read_optional(args[8], n, dist, "dist") < 0 ||
        read_optional(args[9], n, cost, "cost") < 0 ||
        read_optional(args[10], n, points, "points") < 0 ||
        read_flags(args[11], n, endable, "endable") < 0)
        goto done;
    int cell, toward;
    int status = ha_destination(b, &plan, dist, points, endable, &cell, &toward);
    if (status == HA_OK && toward) { /* Case B: the rest of the way towards the goal */
        PyObject *goal = PyLong_FromLong(cell);
        remaining = goal ? PyObject_CallOneArg(args[13], goal) : NULL;
        Py_XDECREF(goal);
        if (!remaining || read_optional(remaining, n, rest, "remaining(goal)") < 0)
            goto done;
        status = ha_toward(b, plan.move, dist, cost, points, endable, rest, &cell);
    }
    if (status != HA_OK)
        raise_choice_error(status);
    else
        result = PyLong_FromLong(cell);
done:
    Py_XDECREF(remaining);
    PyMem_Free(others);
    PyMem_Free(values);
    PyMem_Free(endable);
    return result;
}
