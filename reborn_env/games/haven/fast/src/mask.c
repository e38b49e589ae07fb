/* mark_legal(mask, legal): the legal actions set to 1 in an int8 mask (see mask.h). */
#include "mask.h"

#include <string.h>

#include "buffers.h"

const char haven_mark_legal_doc[] =
    "mark_legal(mask, legal): set mask[a] = 1 for each action a of the sequence legal; mask is "
    "a writable, C-contiguous 1-D int8 array and every a an int in 0..len(mask)-1.";

/* The mask's buffer, checked: writable, contiguous, one byte per action. */
static int mask_buffer(PyObject *obj, Py_buffer *view)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_RECORDS) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError,
                     "mark_legal: mask must be a writable int8 numpy array, not %.100s",
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    if (strcmp(item_format(view), "b") != 0 || view->itemsize != 1 || view->ndim != 1 ||
        !PyBuffer_IsContiguous(view, 'C')) {
        PyErr_Format(PyExc_TypeError,
                     "mark_legal: mask must be a C-contiguous 1-D int8 array; got format %s, "
                     "%d-D",
                     view->format ? view->format : "B", view->ndim);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

PyObject *haven_mark_legal(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "mark_legal(mask, legal) takes 2 arguments (%zd given)",
                     nargs);
        return NULL;
    }
    Py_buffer view;
    if (mask_buffer(args[0], &view))
        return NULL;
    PyObject *legal = PySequence_Fast(args[1], "mark_legal: legal must be a sequence of ints");
    if (!legal) {
        PyBuffer_Release(&view);
        return NULL;
    }
    /* Check every action first, so a bad one leaves the mask as it was. */
    Py_ssize_t n = PySequence_Fast_GET_SIZE(legal);
    PyObject **items = PySequence_Fast_ITEMS(legal);
    for (Py_ssize_t k = 0; k < n; k++) {
        Py_ssize_t a = PyLong_Check(items[k]) ? PyLong_AsSsize_t(items[k]) : -1;
        if (a == -1 && PyErr_Occurred())
            PyErr_Clear();
        if (!PyLong_Check(items[k]) || PyBool_Check(items[k]) || a < 0 || a >= view.len) {
            PyErr_Format(PyExc_ValueError,
                         "mark_legal: legal[%zd] = %R is not an action in 0..%zd", k, items[k],
                         view.len - 1);
            Py_DECREF(legal);
            PyBuffer_Release(&view);
            return NULL;
        }
    }
    char *mask = view.buf;
    for (Py_ssize_t k = 0; k < n; k++)
        mask[PyLong_AsSsize_t(items[k])] = 1;
    Py_DECREF(legal);
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}
