/* The binding of the compiled heuristic bot (heuristic.h): the Python type `_core.Heuristic`, n
 * slots each with its own numpy-PCG64 tie-break generator, deciding a batch of rows in one call
 * with the GIL released. Every input is checked here; the bot itself is plain C.
 */
#include "module.h"
#include "heuristic.h"
#include "rb_binding.h"

/* layout[group].item[name]: its offset within the group and its scale. */
static int sub_field(PyObject *layout, const char *group, const char *name, int *offset,
                     double *scale)
{
    PyObject *key = PyUnicode_FromString(group);
    if (!key)
        return -1;
    PyObject *f = PyObject_GetItem(layout, key);
    Py_DECREF(key);
    if (!f)
        return -1;
    PyObject *item = PyObject_GetAttrString(f, "item");
    Py_DECREF(f);
    if (!item)
        return -1;
    key = PyUnicode_FromString(name);
    PyObject *sub = key ? PyObject_GetItem(item, key) : NULL;
    Py_XDECREF(key);
    Py_DECREF(item);
    if (!sub)
        return -1;
    PyObject *off = PyObject_GetAttrString(sub, "offset");
    PyObject *sc = off ? PyObject_GetAttrString(sub, "scale") : NULL;
    Py_DECREF(sub);
    int rc = -1;
    if (sc) {
        long o = PyLong_AsLong(off);
        double x = sc == Py_None ? -1.0 : PyFloat_AsDouble(sc);
        if (!PyErr_Occurred()) {
            if (o < 0 || o > 64 || !(x > 0)) {
                PyErr_Format(PyExc_ValueError,
                             "observation layout: %s.%s needs a small offset and a scale", group,
                             name);
            } else {
                *offset = (int)o;
                *scale = x;
                rc = 0;
            }
        }
    }
    Py_XDECREF(off);
    Py_XDECREF(sc);
    return rc;
}

/* --- The Python type --------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    ErHeuristic *bot;
    const Scn *scn; /* the bot's scenario */
    int n;
    ErPcg64 *rngs;
    int busy;
} HeuristicObject;

static void Heuristic_dealloc(HeuristicObject *self)
{
    er_heuristic_free(self->bot);
    PyMem_Free(self->rngs);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Heuristic_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"scenario", "codec", "layout", "n", "saw_hunt", NULL};
    PyObject *scenario, *codec, *layout;
    Py_ssize_t n;
    int saw_hunt = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOn|p:Heuristic", kwlist, &scenario, &codec,
                                     &layout, &n, &saw_hunt))
        return NULL;
    if (n < 1 || n > (1 << 24)) {
        PyErr_Format(PyExc_ValueError, "n must be 1 to %d slots, got %zd", 1 << 24, n);
        return NULL;
    }
    HeuristicObject *self = (HeuristicObject *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    Scn *scn = PyMem_Calloc(1, sizeof(Scn));
    self->rngs = PyMem_Calloc((size_t)n, sizeof(ErPcg64));
    if (!scn || !self->rngs) {
        PyMem_Free(scn);
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    self->n = (int)n;
    ErHeuristicReading reading;
    int unused_at, rc = read_scenario(scenario, codec, layout, scn);
    if (rc == 0)
        rc = sub_field(layout, "cp", "mine", &reading.cp_mine, &reading.cp_scale);
    if (rc == 0)
        rc = sub_field(layout, "round", "mvp", &reading.mvp, &reading.mvp_scale);
    /* characters.sections' max and cp scales */
    PyObject *key = rc == 0 ? PyUnicode_FromString("characters") : NULL;
    PyObject *chars = key ? PyObject_GetItem(layout, key) : NULL;
    Py_XDECREF(key);
    PyObject *item = chars ? PyObject_GetAttrString(chars, "item") : NULL;
    Py_XDECREF(chars);
    rc = item ? sub_field(item, "sections", "max", &unused_at, &reading.sec_max_scale) : -1;
    if (rc == 0)
        rc = sub_field(item, "sections", "cp", &unused_at, &reading.sec_cp_scale);
    Py_XDECREF(item);
    if (rc == 0) {
        char why[160];
        self->bot = er_heuristic_new(scn, saw_hunt, &reading, why, sizeof why);
        if (!self->bot) {
            PyErr_SetString(PyExc_ValueError, why);
            rc = -1;
        }
    }
    PyMem_Free(scn);
    if (rc < 0) {
        Py_DECREF(self);
        return NULL;
    }
    self->scn = er_heuristic_scenario(self->bot);
    return (PyObject *)self;
}

static int slot_index(HeuristicObject *self, PyObject *v)
{
    Py_ssize_t i = PyNumber_AsSsize_t(v, PyExc_IndexError);
    if (i == -1 && PyErr_Occurred())
        return -1;
    if (i < 0 || i >= self->n) {
        PyErr_Format(PyExc_IndexError, "slot %zd is out of range: this batch has slots 0..%d", i,
                     self->n - 1);
        return -1;
    }
    return (int)i;
}

static int check_idle(HeuristicObject *self)
{
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError,
                        "Heuristic: another thread's act() is running on this batch");
        return -1;
    }
    return 0;
}

static int as_u64(PyObject *v, uint64_t *out, const char *what)
{
    unsigned long long x = PyLong_AsUnsignedLongLong(v);
    if (x == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Format(PyExc_ValueError, "%s must be an int in 0..2**64-1", what);
        return -1;
    }
    *out = x;
    return 0;
}

/* set_rng(i, state_hi, state_lo, inc_hi, inc_lo, has_uint32, uinteger): numpy's PCG64 state */
static PyObject *Heuristic_set_rng(HeuristicObject *self, PyObject *args)
{
    PyObject *io, *v[6];
    if (!PyArg_ParseTuple(args, "OOOOOOO:set_rng", &io, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]))
        return NULL;
    int i = slot_index(self, io);
    if (i < 0 || check_idle(self) < 0)
        return NULL;
    uint64_t x[6];
    static const char *const names[] = {"state_hi", "state_lo", "inc_hi", "inc_lo", "has_uint32",
                                        "uinteger"};
    for (int k = 0; k < 6; k++)
        if (as_u64(v[k], &x[k], names[k]) < 0)
            return NULL;
    if (x[4] > 1 || x[5] > UINT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "has_uint32 must be 0 or 1 and uinteger a uint32");
        return NULL;
    }
    ErPcg64 *r = &self->rngs[i];
    r->state = ((unsigned __int128)x[0] << 64) | x[1];
    r->inc = ((unsigned __int128)x[2] << 64) | x[3];
    r->has_uint32 = (int)x[4];
    r->uinteger = (uint32_t)x[5];
    Py_RETURN_NONE;
}

static PyObject *Heuristic_rng_state(HeuristicObject *self, PyObject *io)
{
    int i = slot_index(self, io);
    if (i < 0)
        return NULL;
    const ErPcg64 *r = &self->rngs[i];
    return Py_BuildValue("(KKKKiK)", (unsigned long long)(r->state >> 64),
                         (unsigned long long)(uint64_t)r->state,
                         (unsigned long long)(r->inc >> 64), (unsigned long long)(uint64_t)r->inc,
                         r->has_uint32, (unsigned long long)r->uinteger);
}

/* integers(i, n): Generator.integers(n) on slot i's generator (for the replication tests) */
static PyObject *Heuristic_integers(HeuristicObject *self, PyObject *args)
{
    PyObject *io;
    long long n;
    if (!PyArg_ParseTuple(args, "OL:integers", &io, &n))
        return NULL;
    int i = slot_index(self, io);
    if (i < 0 || check_idle(self) < 0)
        return NULL;
    if (n < 1 || n > (1LL << 32)) {
        PyErr_Format(PyExc_ValueError, "integers(n) takes 1 <= n <= 2**32, got %lld", n);
        return NULL;
    }
    return PyLong_FromLongLong(er_pcg_integers(&self->rngs[i], n));
}

typedef struct {
    HeuristicObject *self;
    const int64_t *slots;
    const float *obs;
    const uint8_t *mask;
    int64_t *out;
    Py_ssize_t k;
    Py_ssize_t failed; /* the row that failed, or -1 */
    const char *why;   /* what was wrong with it */
    ErPcg64 *saved;
} ActJob;

static void act_rows(ActJob *j)
{
    HeuristicObject *self = j->self;
    const Scn *s = self->scn;
    for (Py_ssize_t r = 0; r < j->k; r++) {
        int i = (int)j->slots[r];
        j->saved[r] = self->rngs[i];
        int a = er_heuristic_decide(self->bot, &self->rngs[i], j->obs + r * s->obs.size,
                                    j->mask + r * s->n_actions, &j->why);
        if (a < 0) {
            j->failed = r;
            for (Py_ssize_t q = r; q >= 0; q--) /* bad input changes nothing */
                self->rngs[j->slots[q]] = j->saved[q];
            return;
        }
        j->out[r] = a;
    }
}

/* act(slots, obs, mask, out): one decision per row, out[r] for slot slots[r] */
static PyObject *Heuristic_act(HeuristicObject *self, PyObject *args)
{
    PyObject *so, *oo, *mo, *outo;
    if (!PyArg_ParseTuple(args, "OOOO:act", &so, &oo, &mo, &outo))
        return NULL;
    if (check_idle(self) < 0)
        return NULL;
    const Scn *s = self->scn;
    Py_buffer bs, bo, bm, bout;
    if (rb_array(so, &bs, "slots", RB_INT64, 1, -1, -1, 0) < 0)
        return NULL;
    Py_ssize_t k = bs.shape[0];
    if (rb_array(oo, &bo, "obs", RB_FLOAT32, 2, k, s->obs.size, 0) < 0) {
        PyBuffer_Release(&bs);
        return NULL;
    }
    if (rb_array(mo, &bm, "mask", RB_INT8 | RB_BOOL | RB_UINT8, 2, k, s->n_actions, 0) < 0) {
        PyBuffer_Release(&bs);
        PyBuffer_Release(&bo);
        return NULL;
    }
    if (rb_array(outo, &bout, "out", RB_INT64, 1, k, -1, 1) < 0) {
        PyBuffer_Release(&bs);
        PyBuffer_Release(&bo);
        PyBuffer_Release(&bm);
        return NULL;
    }
    PyObject *result = NULL;
    const int64_t *slots = bs.buf;
    for (Py_ssize_t r = 0; r < k; r++)
        if (slots[r] < 0 || slots[r] >= self->n) {
            PyErr_Format(PyExc_IndexError,
                         "slots[%zd] = %lld is out of range: this batch has slots 0..%d", r,
                         (long long)slots[r], self->n - 1);
            goto done;
        }
    ActJob job = {self, slots, bo.buf, bm.buf, bout.buf, k, -1, NULL, NULL};
    job.saved = PyMem_Malloc(sizeof(ErPcg64) * (size_t)(k ? k : 1));
    if (!job.saved) {
        PyErr_NoMemory();
        goto done;
    }
    self->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    act_rows(&job);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    PyMem_Free(job.saved);
    if (job.failed >= 0) {
        PyErr_Format(PyExc_ValueError, "row %zd (slot %lld): %s", job.failed,
                     (long long)slots[job.failed], job.why);
        goto done;
    }
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&bs);
    PyBuffer_Release(&bo);
    PyBuffer_Release(&bm);
    PyBuffer_Release(&bout);
    return result;
}

/* set_order(keys, frozen): the iteration order of a set built by adding `keys` in turn (then,
 * with frozen, of frozenset() of it): the model the bot's ties follow, for the tests. */
static PyObject *Heuristic_set_order(PyObject *cls, PyObject *args)
{
    (void)cls;
    PyObject *keys_obj;
    int frozen;
    if (!PyArg_ParseTuple(args, "Op:set_order", &keys_obj, &frozen))
        return NULL;
    PyObject *seq = PySequence_Fast(keys_obj, "set_order: keys must be a sequence of ints");
    if (!seq)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int *keys = PyMem_Malloc(sizeof(int) * (size_t)(n ? n : 1));
    int *order = PyMem_Malloc(sizeof(int) * (size_t)(n ? n : 1));
    PyObject *result = NULL;
    if (!keys || !order) {
        PyErr_NoMemory();
        goto done;
    }
    int ok = n <= 32768;
    for (Py_ssize_t k = 0; ok && k < n; k++) {
        long key = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, k));
        if (key == -1 && PyErr_Occurred())
            goto done;
        ok = key >= 0 && key <= 32767;
        keys[k] = (int)key;
    }
    int count = ok ? er_set_order(keys, (int)n, frozen, order) : -1;
    if (count < 0) {
        PyErr_SetString(PyExc_ValueError, "set_order: keys are 0..32767, at most ~2400 of them");
        goto done;
    }
    result = PyList_New(count);
    for (int i = 0; result && i < count; i++) {
        PyObject *v = PyLong_FromLong(order[i]);
        if (!v)
            Py_CLEAR(result);
        else
            PyList_SET_ITEM(result, i, v);
    }
done:
    PyMem_Free(keys);
    PyMem_Free(order);
    Py_DECREF(seq);
    return result;
}

static PyObject *Heuristic_get_n(HeuristicObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(self->n);
}

static PyObject *Heuristic_get_obs_size(HeuristicObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(self->scn->obs.size);
}

static PyObject *Heuristic_get_n_actions(HeuristicObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(self->scn->n_actions);
}

static PyGetSetDef Heuristic_getset[] = {
    {"n", (getter)Heuristic_get_n, NULL, "number of slots (tie-break generators)", NULL},
    {"obs_size", (getter)Heuristic_get_obs_size, NULL, "floats per observation", NULL},
    {"n_actions", (getter)Heuristic_get_n_actions, NULL, "entries per action mask", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyMethodDef Heuristic_methods[] = {
    {"set_rng", (PyCFunction)Heuristic_set_rng, METH_VARARGS,
     "set_rng(i, state_hi, state_lo, inc_hi, inc_lo, has_uint32, uinteger): slot i's PCG64"},
    {"rng_state", (PyCFunction)Heuristic_rng_state, METH_O,
     "rng_state(i) -> (state_hi, state_lo, inc_hi, inc_lo, has_uint32, uinteger)"},
    {"integers", (PyCFunction)Heuristic_integers, METH_VARARGS,
     "integers(i, n): Generator.integers(n) drawn from slot i's generator"},
    {"act", (PyCFunction)Heuristic_act, METH_VARARGS,
     "act(slots, obs, mask, out): the bot's action for each row into out (int64 [k])"},
    {"set_order", (PyCFunction)Heuristic_set_order, METH_VARARGS | METH_STATIC,
     "set_order(keys, frozen): CPython's iteration order of set(keys) (frozenset of it)"},
    {NULL, NULL, 0, NULL}};

PyTypeObject ErHeuristicType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "reborn_env.games.earth_reborn.fast._core.Heuristic",
    .tp_basicsize = sizeof(HeuristicObject),
    .tp_dealloc = (destructor)Heuristic_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Heuristic(scenario, codec, layout, n): the heuristic bot's decisions for n slots, "
              "each with its own numpy-PCG64 tie-break generator",
    .tp_methods = Heuristic_methods,
    .tp_getset = Heuristic_getset,
    .tp_new = Heuristic_new,
};
