/* The spike kernel through the CPython API: step(state, obs, tiles) over numpy buffers, every
 * buffer checked at the boundary (item size, format, length, writable, C-contiguous) as the
 * Earth Reborn core checks its own (benchmarks/spike_core_tech.py). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "kernel.h"

/* The module's name: spike_capi, or another for a build with other compiler flags. */
#ifndef SPIKE_MODULE
#define SPIKE_MODULE spike_capi
#endif
#define SPIKE_STR2(x) #x
#define SPIKE_STR(x) SPIKE_STR2(x)
#define SPIKE_INIT2(x) PyInit_##x
#define SPIKE_INIT(x) SPIKE_INIT2(x)

/* Take a writable C-contiguous buffer of count items of itemsize bytes (count < 0: any number). */
static int take(PyObject *o, Py_buffer *b, const char *name, Py_ssize_t itemsize, char format,
                Py_ssize_t count)
{
    if (PyObject_GetBuffer(o, b, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return -1;
    int format_ok = format == 0 || (b->format[0] == format && b->format[1] == 0)
                    || (b->format[0] == '<' && b->format[1] == format && b->format[2] == 0);
    if (b->itemsize != itemsize || !format_ok || (count >= 0 && b->len != count * itemsize)) {
        PyErr_Format(PyExc_ValueError, "%s: wrong dtype or shape", name);
        PyBuffer_Release(b);
        return -1;
    }
    return 0;
}

static PyObject *step(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "step(state, obs, tiles) takes 3 arguments");
        return NULL;
    }
    Py_buffer sb, ob, tb;
    if (take(args[0], &sb, "state", sizeof(SpikeState), 0, -1) < 0)
        return NULL;
    Py_ssize_t n = sb.len / (Py_ssize_t)sizeof(SpikeState);
    if (take(args[1], &ob, "obs", sizeof(float), 'f', n * SPIKE_OBS) < 0) {
        PyBuffer_Release(&sb);
        return NULL;
    }
    if (take(args[2], &tb, "tiles", sizeof(int32_t), 'i', n) < 0) {
        PyBuffer_Release(&sb);
        PyBuffer_Release(&ob);
        return NULL;
    }
    spike_step((SpikeState *)sb.buf, (float *)ob.buf, (int32_t *)tb.buf, n);
    PyBuffer_Release(&sb);
    PyBuffer_Release(&ob);
    PyBuffer_Release(&tb);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"step", (PyCFunction)(void (*)(void))step, METH_FASTCALL, "Step every game once."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, SPIKE_STR(SPIKE_MODULE), NULL, -1,
                                     methods};

PyMODINIT_FUNC SPIKE_INIT(SPIKE_MODULE)(void)
{
    return PyModule_Create(&module);
}
