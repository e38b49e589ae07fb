/* What every compiled core's binding shares: integers and NumPy buffers read from Python
 * arguments, refused with the errors the Python references raise (ValueError or TypeError,
 * worded as `fast/reference.py`'s `_integer` and `_buffer`), so no game's binding parses its
 * arguments its own way. Header-only; setup.py puts this folder on every core's include path.
 */
#ifndef RB_BINDING_H
#define RB_BINDING_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdio.h>
#include <string.h>

/* --- Integers ------------------------------------------------------------------------------- */

/* Whether v is an integer argument: an int or anything with __index__ (NumPy's integers), never
 * a bool, Python's or NumPy's. */
static inline int rb_is_integer(PyObject *v)
{
    return !PyBool_Check(v) && PyIndex_Check(v) &&
           strcmp(Py_TYPE(v)->tp_name, "numpy.bool_") != 0 &&
           strcmp(Py_TYPE(v)->tp_name, "numpy.bool") != 0;
}

/* The fast path of rb_int: 1 and *out when v is a plain int in lo..hi, else 0 (no error set),
 * so that a caller may build its message's label only when it needs one. */
static inline int rb_int_fast(PyObject *v, long long lo, long long hi, long long *out)
{
    if (!PyLong_CheckExact(v))
        return 0;
    int overflow = 0; /* an exact int: the conversion cannot fail, only overflow */
    long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (overflow || x < lo || x > hi)
        return 0;
    *out = x;
    return 1;
}

/* v as an integer in lo..hi into *out: TypeError "<what> must be an integer, got <v>" or
 * ValueError "<what> must be in lo..hi, got <v>"; -1 with the error set. */
static inline int rb_int(PyObject *v, long long lo, long long hi, long long *out, const char *what)
{
    if (!v)
        return -1;
    if (rb_int_fast(v, lo, hi, out))
        return 0;
    PyObject *index = rb_is_integer(v) ? PyNumber_Index(v) : NULL;
    if (!index) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s must be an integer, got %R", what, v);
        return -1;
    }
    int overflow = 0;
    long long x = PyLong_AsLongLongAndOverflow(index, &overflow);
    Py_DECREF(index);
    if (x == -1 && PyErr_Occurred())
        return -1;
    if (overflow || x < lo || x > hi) {
        PyErr_Format(PyExc_ValueError, "%s must be in %lld..%lld, got %R", what, lo, hi, v);
        return -1;
    }
    *out = x;
    return 0;
}

/* --- NumPy buffers -------------------------------------------------------------------------- */

/* Item types a buffer may be asked for, as bits so that one argument may accept several. */
enum {
    RB_INT8 = 1 << 0,
    RB_UINT8 = 1 << 1,
    RB_BOOL = 1 << 2,
    RB_INT64 = 1 << 3,
    RB_UINT64 = 1 << 4,
    RB_FLOAT32 = 1 << 5,
    RB_FLOAT64 = 1 << 6,
};

typedef struct {
    int kind;
    char code;          /* struct-module type code */
    Py_ssize_t size;    /* bytes an item */
    const char *name;   /* NumPy's name */
} RbItem;

static const RbItem RB_ITEMS[] = {
    {RB_INT8, 'b', 1, "int8"},       {RB_UINT8, 'B', 1, "uint8"},
    {RB_BOOL, '?', 1, "bool"},       {RB_INT64, 'q', 8, "int64"},
    {RB_INT64, 'l', 8, "int64"},     {RB_UINT64, 'Q', 8, "uint64"},
    {RB_UINT64, 'L', 8, "uint64"},   {RB_FLOAT32, 'f', 4, "float32"},
    {RB_FLOAT64, 'd', 8, "float64"}, {0, 'h', 2, "int16"},
    {0, 'H', 2, "uint16"},           {0, 'i', 4, "int32"},
    {0, 'I', 4, "uint32"},           {0, 'l', 4, "int32"},
    {0, 'L', 4, "uint32"},           {0, 'e', 2, "float16"},
};

/* The item type of a buffer in native byte order (its format may start with '@', '=', '<' on
 * this little-endian machine, or '|'), or NULL: big-endian or a compound format. */
static inline const RbItem *rb_item_of(const Py_buffer *view)
{
    const char *fmt = view->format ? view->format : "B";
    if (fmt[0] == '@' || fmt[0] == '=' || fmt[0] == '<' || fmt[0] == '|')
        fmt++;
    if (!fmt[0] || fmt[1])
        return NULL;
    for (size_t k = 0; k < sizeof RB_ITEMS / sizeof RB_ITEMS[0]; k++)
        if (RB_ITEMS[k].code == fmt[0] && RB_ITEMS[k].size == view->itemsize)
            return &RB_ITEMS[k];
    return NULL;
}

/* "int8", "int8 or bool", ...: the names of the kinds in `kinds`. */
static inline void rb_kinds_text(char *out, size_t size, int kinds)
{
    size_t used = 0;
    out[0] = 0;
    int last = 0;
    for (size_t k = 0; k < sizeof RB_ITEMS / sizeof RB_ITEMS[0] && used < size; k++) {
        int kind = RB_ITEMS[k].kind;
        if (!(kinds & kind) || (kind & last))
            continue; /* one name a kind; the table lists int64 and uint64 twice, in a row */
        used += (size_t)snprintf(out + used, size - used, used ? " or %s" : "%s",
                                 RB_ITEMS[k].name);
        last |= kind;
    }
}

/* "(a,)" / "(a, b)" as Python writes a shape; a length below 0 (any) is written "*". */
static inline void rb_shape_text(char *out, size_t size, int ndim, const Py_ssize_t *shape)
{
    size_t used = (size_t)snprintf(out, size, "(");
    for (int k = 0; k < ndim && used < size; k++) {
        const char *sep = k ? ", " : "";
        used += shape[k] < 0 ? (size_t)snprintf(out + used, size - used, "%s*", sep)
                             : (size_t)snprintf(out + used, size - used, "%s%zd", sep, shape[k]);
    }
    if (used < size)
        snprintf(out + used, size - used, ndim == 1 ? ",)" : ")");
}

/* obj's buffer into *view: items of one of `kinds`, `ndim` (1 or 2) dimensions of lengths d0
 * and d1 (below 0: any), C-contiguous and, with `writable`, writable. Otherwise a ValueError
 * as the references word it ("<name> must be a <dtype> array of shape <shape>, got <dtype>
 * <shape>", "<name> must be writable and C-contiguous"), nothing held, -1. Every dimension's
 * length checked, a caller may index the buffer up to them. */
static inline int rb_array(PyObject *obj, Py_buffer *view, const char *name, int kinds, int ndim,
                           Py_ssize_t d0, Py_ssize_t d1, int writable)
{
    Py_ssize_t want_shape[2] = {d0, d1};
    if (PyObject_GetBuffer(obj, view, PyBUF_FORMAT | PyBUF_STRIDES) < 0) {
        PyErr_Clear();
        char want_kinds[64], want[64];
        rb_kinds_text(want_kinds, sizeof want_kinds, kinds);
        rb_shape_text(want, sizeof want, ndim, want_shape);
        PyErr_Format(PyExc_ValueError, "%s must be a %s array of shape %s, got %.100s", name,
                     want_kinds, want, Py_TYPE(obj)->tp_name);
        return -1;
    }
    const RbItem *item = rb_item_of(view);
    int ok = item && (item->kind & kinds) && view->ndim == ndim && view->shape;
    for (int k = 0; ok && k < ndim; k++)
        ok = want_shape[k] < 0 || view->shape[k] == want_shape[k];
    if (!ok) { /* the messages are written only here, off the hot path */
        char want_kinds[64], want[64], got[128] = "()";
        rb_kinds_text(want_kinds, sizeof want_kinds, kinds);
        rb_shape_text(want, sizeof want, ndim, want_shape);
        if (view->shape && view->ndim > 0)
            rb_shape_text(got, sizeof got, view->ndim, view->shape);
        PyErr_Format(PyExc_ValueError, "%s must be a %s array of shape %s, got %s %s", name,
                     want_kinds, want, item ? item->name : (view->format ? view->format : "B"),
                     got);
        PyBuffer_Release(view);
        return -1;
    }
    if ((writable && view->readonly) || !PyBuffer_IsContiguous(view, 'C')) {
        PyErr_Format(PyExc_ValueError, writable ? "%s must be writable and C-contiguous"
                                                : "%s must be C-contiguous",
                     name);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

#endif
