/* The binding of haven's path costs (HV-AI-2, HV-AI-10, HV-JMP-2, HV-FLY-2): PathBoard and the
 * functions path_graph and path_costs read Python's lists into arrays, run the plain-C searches
 * of path_search.c and return lists, as rules/path_graph.py's PathGraph, the reference, builds
 * them. Every input is checked here, and a bad one is an exception (ValueError for a wrong
 * length or a cell, weight or modulus out of range, TypeError for a value that is no integer or
 * sequence, RuntimeError for a list that Python code run while it was read changed), before
 * anything is computed: nothing is read or written out of bounds.
 *
 * Costs are exact integers: a weight is 0..HP_MAX_WEIGHT, a landing weight at most that in size
 * and a board at most HP_MAX_CELLS cells, so no path sum overflows int64.
 */
#include "paths.h"
#include "path_search.h"
#include "rb_binding.h"

#include <stdint.h>
#include <string.h>

/* --- PathBoard ---------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    HpBoard b;
} PathBoard;

/* Names value i of `what` in an error message: "what[i]", or "what" when i < 0. */
static void label_of(char *label, size_t size, const char *what, Py_ssize_t i)
{
    if (i >= 0)
        snprintf(label, size, "%s[%zd]", what, i);
    else
        snprintf(label, size, "%s", what);
}

/* value i of `what` as an integer in lo..hi (rb_int, its label built only for an error). */
static int read_int(PyObject *v, long long lo, long long hi, long long *out, const char *what,
                    Py_ssize_t i)
{
    if (rb_int_fast(v, lo, hi, out))
        return 0;
    char label[96];
    label_of(label, sizeof label, what, i);
    return rb_int(v, lo, hi, out, label);
}

/* A list or tuple (or any iterable, copied) as a new reference, with a TypeError naming it. */
static PyObject *as_fast(PyObject *v, const char *what)
{
    if (PyList_CheckExact(v) || PyTuple_CheckExact(v))
        return Py_NewRef(v);
    char message[96];
    snprintf(message, sizeof message, "%s must be a sequence", what);
    return PySequence_Fast(v, message);
}

/* Item i of seq (from as_fast) as a new reference, while seq still holds len items: Python code
 * run as a value is read (an __index__, a __bool__) may change a list under the reader. */
static PyObject *item_ref(PyObject *seq, Py_ssize_t len, Py_ssize_t i, const char *what)
{
    if (PySequence_Fast_GET_SIZE(seq) != len) {
        PyErr_Format(PyExc_RuntimeError, "%s changed size while it was read", what);
        return NULL;
    }
    return Py_NewRef(PySequence_Fast_GET_ITEM(seq, i));
}

/* A sequence of exactly n truth values into out[0..n). */
static int read_flags(PyObject *v, int n, unsigned char *out, const char *what)
{
    PyObject *seq = as_fast(v, what);
    if (!seq)
        return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    if (len != n) {
        PyErr_Format(PyExc_ValueError, "%s must hold one value per cell (%d), got %zd", what, n,
                     len);
        Py_DECREF(seq);
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        PyObject *x = item_ref(seq, len, i, what);
        int t = !x ? -1 : x == Py_True ? 1 : x == Py_False ? 0 : PyObject_IsTrue(x);
        Py_XDECREF(x);
        if (t < 0) {
            Py_DECREF(seq);
            return -1;
        }
        out[i] = (unsigned char)t;
    }
    Py_DECREF(seq);
    return 0;
}

/* A sequence of exactly n integers in lo..hi into out[0..n). */
static int read_values(PyObject *v, int n, long long lo, long long hi, long long *out,
                       const char *what)
{
    PyObject *seq = as_fast(v, what);
    if (!seq)
        return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    if (len != n) {
        PyErr_Format(PyExc_ValueError, "%s must hold one value per cell (%d), got %zd", what, n,
                     len);
        Py_DECREF(seq);
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        PyObject *x = item_ref(seq, len, i, what);
        int r = x ? read_int(x, lo, hi, &out[i], what, i) : -1;
        Py_XDECREF(x);
        if (r < 0) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    return 0;
}

/* Marks mark[c] = 1 for every cell c of the sequence v (each a cell id of 0..n-1). */
static int mark_cells(PyObject *v, int n, unsigned char *mark, const char *what)
{
    PyObject *seq = as_fast(v, what);
    if (!seq)
        return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    for (Py_ssize_t i = 0; i < len; i++) {
        long long c;
        PyObject *x = item_ref(seq, len, i, what);
        int r = x ? read_int(x, 0, n - 1, &c, what, i) : -1;
        Py_XDECREF(x);
        if (r < 0) {
            Py_DECREF(seq);
            return -1;
        }
        mark[c] = 1;
    }
    Py_DECREF(seq);
    return 0;
}

static void PathBoard_dealloc(PathBoard *self)
{
    PyMem_Free(self->b.start);
    PyMem_Free(self->b.nbr);
    PyMem_Free(self->b.floor);
    PyMem_Free(self->b.walls);
    PyMem_Free(self->b.icy);
    PyMem_Free(self->b.cell_rays);
    PyMem_Free(self->b.ray_start);
    PyMem_Free(self->b.ray_cells);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Reads the neighbour table: a sequence of n sequences of cell ids. */
static int read_neighbours(PathBoard *self, PyObject *neighbours)
{
    PyObject *rows = as_fast(neighbours, "neighbours");
    if (!rows)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(rows);
    if (n < 1 || n > HP_MAX_CELLS) {
        PyErr_Format(PyExc_ValueError, "neighbours must list 1..%d cells, got %zd", HP_MAX_CELLS,
                     n);
        Py_DECREF(rows);
        return -1;
    }
    self->b.n = (int)n;
    self->b.start = PyMem_Malloc(sizeof(int) * (size_t)(n + 1));
    PyObject **row_seqs = PyMem_Calloc((size_t)n, sizeof(PyObject *));
    int ok = self->b.start && row_seqs;
    if (!ok)
        PyErr_NoMemory();
    long long edges = 0;
    for (Py_ssize_t c = 0; ok && c < n; c++) {
        char what[48];
        snprintf(what, sizeof what, "neighbours[%zd]", c);
        PyObject *row = item_ref(rows, n, c, "neighbours");
        row_seqs[c] = row ? as_fast(row, what) : NULL;
        Py_XDECREF(row);
        if (!row_seqs[c]) {
            ok = 0;
            break;
        }
        self->b.start[c] = (int)edges;
        edges += PySequence_Fast_GET_SIZE(row_seqs[c]);
        if (edges > INT32_MAX / 2) {
            PyErr_SetString(PyExc_ValueError, "neighbours lists too many neighbours");
            ok = 0;
        }
    }
    if (ok) {
        self->b.start[n] = (int)edges;
        self->b.edges = (int)edges;
        self->b.nbr = PyMem_Malloc(sizeof(int) * (size_t)(edges > 0 ? edges : 1));
        if (!self->b.nbr) {
            PyErr_NoMemory();
            ok = 0;
        }
    }
    for (Py_ssize_t c = 0; ok && c < n; c++) {
        char what[48];
        snprintf(what, sizeof what, "neighbours[%zd]", c);
        Py_ssize_t len = self->b.start[c + 1] - self->b.start[c]; /* as counted above */
        for (Py_ssize_t k = 0; k < len; k++) {
            long long x;
            PyObject *cell = item_ref(row_seqs[c], len, k, what);
            int r = cell ? read_int(cell, 0, n - 1, &x, what, k) : -1;
            Py_XDECREF(cell);
            if (r < 0) {
                ok = 0;
                break;
            }
            self->b.nbr[self->b.start[c] + k] = (int)x;
        }
    }
    if (row_seqs) {
        for (Py_ssize_t c = 0; c < n; c++)
            Py_XDECREF(row_seqs[c]);
        PyMem_Free(row_seqs);
    }
    Py_DECREF(rows);
    return ok ? 0 : -1;
}

/* Reads HV-ICE-2's rays: rays[c] a sequence of sequences of cell ids, each at least one long. */
static int read_rays(PathBoard *self, PyObject *rays)
{
    int n = self->b.n;
    PyObject *rows = as_fast(rays, "rays");
    if (!rows)
        return -1;
    int ok = 1;
    if (PySequence_Fast_GET_SIZE(rows) != n) {
        PyErr_Format(PyExc_ValueError, "rays must hold one sequence per cell (%d), got %zd", n,
                     PySequence_Fast_GET_SIZE(rows));
        ok = 0;
    }
    /* two passes: count, then read; rays and cells are few (at most 6 a cell on a hex map) */
    long long n_rays = 0, n_cells = 0, counted_rays = 0, counted_cells = 0;
    self->b.cell_rays = ok ? PyMem_Malloc(sizeof(int) * (size_t)(n + 1)) : NULL;
    if (ok && !self->b.cell_rays) {
        PyErr_NoMemory();
        ok = 0;
    }
    for (int pass = 0; ok && pass < 2; pass++) {
        if (pass == 1) {
            self->b.ray_start = PyMem_Malloc(sizeof(int) * (size_t)(n_rays + 1));
            self->b.ray_cells = PyMem_Malloc(sizeof(int) * (size_t)(n_cells > 0 ? n_cells : 1));
            if (!self->b.ray_start || !self->b.ray_cells) {
                PyErr_NoMemory();
                ok = 0;
                break;
            }
            counted_rays = n_rays;
            counted_cells = n_cells;
            n_rays = n_cells = 0;
        }
        for (int c = 0; ok && c < n; c++) {
            char what[48];
            snprintf(what, sizeof what, "rays[%d]", c);
            PyObject *row = item_ref(rows, n, c, "rays");
            PyObject *seq = row ? as_fast(row, what) : NULL;
            Py_XDECREF(row);
            if (!seq) {
                ok = 0;
                break;
            }
            if (pass == 1)
                self->b.cell_rays[c] = (int)n_rays;
            Py_ssize_t k_len = PySequence_Fast_GET_SIZE(seq);
            for (Py_ssize_t k = 0; ok && k < k_len; k++) {
                PyObject *one = item_ref(seq, k_len, k, what);
                PyObject *ray = one ? as_fast(one, what) : NULL;
                Py_XDECREF(one);
                if (!ray) {
                    ok = 0;
                    break;
                }
                char ray_what[80];
                snprintf(ray_what, sizeof ray_what, "%s[%zd]", what, k);
                Py_ssize_t len = PySequence_Fast_GET_SIZE(ray);
                if (len < 1 || len > n) {
                    PyErr_Format(PyExc_ValueError, "%s must list 1..%d cells, got %zd", ray_what,
                                 n, len);
                    ok = 0;
                }
                if (ok && pass == 1 &&
                    (n_rays >= counted_rays || n_cells + len > counted_cells)) {
                    PyErr_SetString(PyExc_RuntimeError, "rays changed while they were read");
                    ok = 0;
                }
                if (pass == 1 && ok)
                    self->b.ray_start[n_rays] = (int)n_cells;
                for (Py_ssize_t i = 0; ok && pass == 1 && i < len; i++) {
                    long long x;
                    PyObject *cell = item_ref(ray, len, i, ray_what);
                    int r = cell ? read_int(cell, 0, n - 1, &x, ray_what, i) : -1;
                    Py_XDECREF(cell);
                    if (r < 0)
                        ok = 0;
                    else
                        self->b.ray_cells[n_cells + i] = (int)x;
                }
                Py_DECREF(ray);
                n_rays++;
                n_cells += len;
                if (n_cells > INT32_MAX / 2) {
                    PyErr_SetString(PyExc_ValueError, "rays list too many cells");
                    ok = 0;
                }
            }
            Py_DECREF(seq);
        }
    }
    if (ok && (n_rays != counted_rays || n_cells != counted_cells)) {
        PyErr_SetString(PyExc_RuntimeError, "rays changed while they were read");
        ok = 0;
    }
    if (ok) {
        self->b.cell_rays[n] = (int)n_rays;
        self->b.ray_start[n_rays] = (int)n_cells;
    }
    Py_DECREF(rows);
    return ok ? 0 : -1;
}

static PyObject *PathBoard_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"neighbours", "floor", "walls", "modulus", "icy", "rays", NULL};
    PyObject *neighbours, *floor, *walls, *modulus = NULL, *icy = NULL, *rays = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOO|OOO:PathBoard", keywords, &neighbours,
                                     &floor, &walls, &modulus, &icy, &rays))
        return NULL;
    if ((icy == NULL || icy == Py_None) != (rays == NULL || rays == Py_None)) {
        PyErr_SetString(PyExc_TypeError, "PathBoard takes icy and rays together, or neither");
        return NULL;
    }
    PathBoard *self = (PathBoard *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    long long mod = 0;
    if (modulus && read_int(modulus, 0, HP_MAX_WEIGHT, &mod, "modulus", -1) < 0)
        goto fail;
    self->b.modulus = mod;
    if (read_neighbours(self, neighbours) < 0)
        goto fail;
    self->b.floor = PyMem_Malloc((size_t)self->b.n);
    self->b.walls = PyMem_Malloc((size_t)self->b.n);
    if (!self->b.floor || !self->b.walls) {
        PyErr_NoMemory();
        goto fail;
    }
    if (read_flags(floor, self->b.n, self->b.floor, "floor") < 0 ||
        read_flags(walls, self->b.n, self->b.walls, "walls") < 0)
        goto fail;
    if (icy && icy != Py_None) {
        self->b.icy = PyMem_Malloc((size_t)self->b.n);
        if (!self->b.icy) {
            PyErr_NoMemory();
            goto fail;
        }
        if (read_flags(icy, self->b.n, self->b.icy, "icy") < 0 || read_rays(self, rays) < 0)
            goto fail;
    }
    return (PyObject *)self;
fail:
    Py_DECREF(self);
    return NULL;
}

static PyObject *PathBoard_get_cells(PathBoard *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(self->b.n);
}

static PyObject *PathBoard_get_modulus(PathBoard *self, void *closure)
{
    (void)closure;
    return PyLong_FromLongLong(self->b.modulus);
}

static PyGetSetDef PathBoard_getset[] = {
    {"cells", (getter)PathBoard_get_cells, NULL, "The number of cells of the map.", NULL},
    {"modulus", (getter)PathBoard_get_modulus, NULL,
     "What points are taken modulo (terrain.NEGATIVE; 0: points are dist).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject HavenPathBoard_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "reborn_env.games.haven.fast._core.PathBoard",
    .tp_basicsize = sizeof(PathBoard),
    .tp_dealloc = (destructor)PathBoard_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "PathBoard(neighbours, floor, walls, modulus=0, icy=None, rays=None): one haven "
              "map's static data for path_graph, path_costs and slide_costs: neighbours[c] the "
              "cell ids next to c (HV-MAP-2), floor[c] and walls[c] its kind, modulus what points "
              "are taken modulo (terrain.NEGATIVE on a map with terrain, HV-AI-10; 0 without); on "
              "a map with ice, icy[c] its flag and rays[c] the lines of cells a walk's step from c "
              "may follow (HV-ICE-2).",
    .tp_getset = PathBoard_getset,
    .tp_new = PathBoard_new,
};

/* --- Results as Python lists -------------------------------------------------------------- */

static PyObject *flag_list(const unsigned char *flags, int n)
{
    PyObject *list = PyList_New(n);
    if (!list)
        return NULL;
    for (int c = 0; c < n; c++)
        PyList_SET_ITEM(list, c, Py_NewRef(flags[c] ? Py_True : Py_False));
    return list;
}

/* [None for an unreached cell, else dist[c] + add[c] (add may be NULL), mod modulus if > 0]. */
static PyObject *cost_list(const long long *dist, const long long *add, long long modulus,
                           int n)
{
    PyObject *list = PyList_New(n);
    if (!list)
        return NULL;
    for (int c = 0; c < n; c++) {
        PyObject *item;
        if (dist[c] == HP_UNREACHED) {
            item = Py_NewRef(Py_None);
        } else {
            item = PyLong_FromLongLong(hp_points(dist[c] + (add ? add[c] : 0), modulus));
            if (!item) {
                Py_DECREF(list);
                return NULL;
            }
        }
        PyList_SET_ITEM(list, c, item);
    }
    return list;
}

/* --- Scratch memory of one call ----------------------------------------------------------- */

typedef struct {
    void *block;
    long long *dist, *weights, *landing;
    int *sources, *queue;
    HpEntry *heap;
    unsigned char *passable, *endable, *enemy, *other;
} Scratch;

/* One block for everything a call needs on a board of n cells and `edges` neighbour entries. */
static int scratch_alloc(Scratch *s, int n, int edges, int n_sources)
{
    size_t n_ = (size_t)n, heap = n_ + (size_t)edges + 1;
    size_t sources = (size_t)(n_sources > 0 ? n_sources : 1);
    size_t bytes = sizeof(long long) * 3 * n_ + sizeof(HpEntry) * heap + sizeof(int) * (n_ + sources)
                   + 4 * n_;
    char *p = PyMem_Malloc(bytes);
    if (!p) {
        PyErr_NoMemory();
        return -1;
    }
    s->block = p;
    s->dist = (long long *)p;
    s->weights = s->dist + n_;
    s->landing = s->weights + n_;
    s->heap = (HpEntry *)(s->landing + n_);
    s->queue = (int *)(s->heap + heap);
    s->sources = s->queue + n_;
    s->passable = (unsigned char *)(s->sources + sources);
    s->endable = s->passable + n_;
    s->enemy = s->endable + n_;
    s->other = s->enemy + n_;
    return 0;
}

/* The n_sources cells of the sequence `sources` (from as_fast) into out[], each in 0..n-1. */
static int read_sources(PyObject *sources, Py_ssize_t n_sources, int n, int *out)
{
    for (Py_ssize_t i = 0; i < n_sources; i++) {
        long long c;
        PyObject *x = item_ref(sources, n_sources, i, "sources");
        int r = x ? read_int(x, 0, n - 1, &c, "sources", i) : -1;
        Py_XDECREF(x);
        if (r < 0)
            return -1;
        out[i] = (int)c;
    }
    return 0;
}

static const HpBoard *as_board(PyObject *v)
{
    if (!PyObject_TypeCheck(v, &HavenPathBoard_Type)) {
        PyErr_Format(PyExc_TypeError, "board must be a PathBoard, got %R", v);
        return NULL;
    }
    if (((PathBoard *)v)->b.n < 1) { /* cannot happen: PathBoard() checks it */
        PyErr_SetString(PyExc_ValueError, "board has no cells");
        return NULL;
    }
    return &((PathBoard *)v)->b;
}

/* --- path_graph --------------------------------------------------------------------------- */

const char haven_path_graph_doc[] =
    "path_graph(board, start, enemies, others, walk, weights, landing)\n"
    "--\n\n"
    "One mover's PathGraph lists (HV-AI-2, HV-AI-10, HV-JMP-2, HV-FLY-2) as the reference in\n"
    "rules/path_graph.py builds them: (passable, endable, cost, dist, points).\n\n"
    "start: the mover's cell; enemies: the cells of its enemies (they block a walk); others:\n"
    "the cells of every other figure (not endable); walk: a walk (passable: floor not held by\n"
    "an enemy) or not (a jump or flight: any cell but a wall); weights: None (cost = steps,\n"
    "breadth first) or each cell's entry weight (Dijkstra); landing: None or what each cell\n"
    "adds to a jump's cost when it lands there (dist = cost + landing); points: dist modulo\n"
    "board.modulus, or dist itself when it is 0. dist is cost and points is dist (the same\n"
    "list) when nothing is added. Unreached cells are None.";

PyObject *haven_path_graph(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 7) {
        PyErr_Format(PyExc_TypeError,
                     "path_graph takes 7 arguments (board, start, enemies, others, walk, "
                     "weights, landing), got %zd",
                     nargs);
        return NULL;
    }
    const HpBoard *b = as_board(args[0]);
    if (!b)
        return NULL;
    int n = b->n;
    long long start;
    if (read_int(args[1], 0, n - 1, &start, "start", -1) < 0)
        return NULL;
    int walk = PyObject_IsTrue(args[4]);
    if (walk < 0)
        return NULL;
    PyObject *weights = args[5], *landing = args[6];
    Scratch s;
    if (scratch_alloc(&s, n, b->edges, 1) < 0)
        return NULL;
    PyObject *passable = NULL, *endable = NULL, *cost = NULL, *dist = NULL, *points = NULL;
    PyObject *result = NULL;

    memset(s.enemy, 0, 2 * (size_t)n); /* enemy and other */
    if (mark_cells(args[2], n, s.enemy, "enemies") < 0 || /* checked for a jump too, unused */
        mark_cells(args[3], n, s.other, "others") < 0)
        goto done;
    hp_mover_cells(b, walk, s.enemy, s.other, s.passable, s.endable);
    if (weights != Py_None &&
        read_values(weights, n, 0, HP_MAX_WEIGHT, s.weights, "weights") < 0)
        goto done;
    if (landing != Py_None &&
        read_values(landing, n, -HP_MAX_WEIGHT, HP_MAX_WEIGHT, s.landing, "landing") < 0)
        goto done;

    for (int c = 0; c < n; c++)
        s.dist[c] = HP_UNREACHED;
    s.sources[0] = (int)start;
    if (weights == Py_None)
        hp_bfs(b, s.passable, s.sources, 1, s.dist, s.queue);
    else
        hp_dijkstra(b, s.passable, s.sources, 1, s.weights, 0, s.dist, s.heap);

    passable = flag_list(s.passable, n);
    endable = passable ? flag_list(s.endable, n) : NULL;
    cost = endable ? cost_list(s.dist, NULL, 0, n) : NULL;
    if (!cost)
        goto done;
    dist = landing == Py_None ? Py_NewRef(cost) : cost_list(s.dist, s.landing, 0, n);
    if (!dist)
        goto done;
    if (b->modulus == 0)
        points = Py_NewRef(dist);
    else
        points = cost_list(s.dist, landing == Py_None ? NULL : s.landing, b->modulus, n);
    if (!points)
        goto done;
    result = PyTuple_Pack(5, passable, endable, cost, dist, points);
done:
    Py_XDECREF(passable);
    Py_XDECREF(endable);
    Py_XDECREF(cost);
    Py_XDECREF(dist);
    Py_XDECREF(points);
    PyMem_Free(s.block);
    return result;
}

/* --- path_costs --------------------------------------------------------------------------- */

const char haven_path_costs_doc[] =
    "path_costs(board, passable, sources, weights, reverse)\n"
    "--\n\n"
    "The least cost of a path from any of sources to every cell through passable cells, as\n"
    "PathGraph.steps_from (weights None: steps, breadth first; else Dijkstra with entry\n"
    "weights); reverse (with weights): the least cost from every cell towards the sources, as\n"
    "PathGraph.remaining. A list with None for unreached cells.";

PyObject *haven_path_costs(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 5) {
        PyErr_Format(PyExc_TypeError,
                     "path_costs takes 5 arguments (board, passable, sources, weights, "
                     "reverse), got %zd",
                     nargs);
        return NULL;
    }
    const HpBoard *b = as_board(args[0]);
    if (!b)
        return NULL;
    int n = b->n;
    int reverse = PyObject_IsTrue(args[4]);
    if (reverse < 0)
        return NULL;
    PyObject *sources = as_fast(args[2], "sources");
    if (!sources)
        return NULL;
    Py_ssize_t n_sources = PySequence_Fast_GET_SIZE(sources);
    if (n_sources > INT32_MAX / 2) {
        PyErr_SetString(PyExc_ValueError, "sources lists too many cells");
        Py_DECREF(sources);
        return NULL;
    }
    PyObject *weights = args[3], *result = NULL;
    Scratch s;
    if (scratch_alloc(&s, n, b->edges, (int)n_sources) < 0) {
        Py_DECREF(sources);
        return NULL;
    }
    if (read_sources(sources, n_sources, n, s.sources) < 0)
        goto done;
    if (read_flags(args[1], n, s.passable, "passable") < 0)
        goto done;
    if (weights != Py_None &&
        read_values(weights, n, 0, HP_MAX_WEIGHT, s.weights, "weights") < 0)
        goto done;
    for (int c = 0; c < n; c++)
        s.dist[c] = HP_UNREACHED;
    if (weights == Py_None)
        hp_bfs(b, s.passable, s.sources, (int)n_sources, s.dist, s.queue);
    else
        hp_dijkstra(b, s.passable, s.sources, (int)n_sources, s.weights, reverse, s.dist, s.heap);
    result = cost_list(s.dist, NULL, 0, n);
done:
    Py_DECREF(sources);
    PyMem_Free(s.block);
    return result;
}

/* --- slide_costs -------------------------------------------------------------------------- */

const char haven_slide_costs_doc[] =
    "slide_costs(board, passable, others, sources, weights, reverse)\n"
    "--\n\n"
    "HV-ICE-2/3, as rules/ice.py's StepGraph.costs: the least cost over a walk's steps, each\n"
    "sliding on over icy hexes, from any of sources to every cell (reverse: from every cell\n"
    "towards them). passable: a flag a cell; others: the cells of every figure but the mover;\n"
    "weights: None (1 a step) or each cell's entry weight. The board must have icy and rays.\n"
    "A list with None for unreached cells.";

PyObject *haven_slide_costs(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 6) {
        PyErr_Format(PyExc_TypeError,
                     "slide_costs takes 6 arguments (board, passable, others, sources, weights, "
                     "reverse), got %zd",
                     nargs);
        return NULL;
    }
    const HpBoard *b = as_board(args[0]);
    if (!b)
        return NULL;
    if (!b->icy) {
        PyErr_SetString(PyExc_ValueError, "slide_costs needs a PathBoard built with icy and rays");
        return NULL;
    }
    int n = b->n, rays = b->cell_rays[n];
    int reverse = PyObject_IsTrue(args[5]);
    if (reverse < 0)
        return NULL;
    PyObject *sources = as_fast(args[3], "sources");
    if (!sources)
        return NULL;
    Py_ssize_t n_sources = PySequence_Fast_GET_SIZE(sources);
    if (n_sources > INT32_MAX / 2) {
        PyErr_SetString(PyExc_ValueError, "sources lists too many cells");
        Py_DECREF(sources);
        return NULL;
    }
    PyObject *weights = args[4], *result = NULL;
    Scratch s;
    size_t steps = (size_t)rays + (size_t)n + 1;
    long long *edges = PyMem_Malloc(sizeof(long long) * 3 * steps);
    int *order = PyMem_Malloc(sizeof(int) * steps);
    HpEntry *heap = PyMem_Malloc(sizeof(HpEntry) * steps);
    if (scratch_alloc(&s, n, b->edges, (int)n_sources) < 0) {
        PyMem_Free(edges);
        PyMem_Free(order);
        PyMem_Free(heap);
        Py_DECREF(sources);
        return NULL;
    }
    if (!edges || !order || !heap) {
        PyErr_NoMemory();
        goto done;
    }
    if (read_sources(sources, n_sources, n, s.sources) < 0)
        goto done;
    memset(s.other, 0, (size_t)n);
    if (read_flags(args[1], n, s.passable, "passable") < 0 ||
        mark_cells(args[2], n, s.other, "others") < 0)
        goto done;
    if (weights != Py_None &&
        read_values(weights, n, 0, HP_MAX_WEIGHT, s.weights, "weights") < 0)
        goto done;
    for (int c = 0; c < n; c++)
        s.dist[c] = HP_UNREACHED;
    hp_slide_costs(b, s.passable, s.other, weights == Py_None ? NULL : s.weights, s.sources,
                   (int)n_sources, reverse, s.dist, heap, edges, order);
    result = cost_list(s.dist, NULL, 0, n);
done:
    Py_DECREF(sources);
    PyMem_Free(s.block);
    PyMem_Free(edges);
    PyMem_Free(order);
    PyMem_Free(heap);
    return result;
}

int haven_paths_add(PyObject *module)
{
    if (PyType_Ready(&HavenPathBoard_Type) < 0)
        return -1;
    return PyModule_AddObjectRef(module, "PathBoard", (PyObject *)&HavenPathBoard_Type);
}
