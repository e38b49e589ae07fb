/* mark_legal(mask, legal): the legal actions set to 1 in an int8 mask (see mask.h). */
#include "mask.h"

#include "rb_binding.h"

const char haven_mark_legal_doc[] =
    "mark_legal(mask, legal): set mask[a] = 1 for each action a of the sequence legal; mask is "
    "a writable, C-contiguous 1-D int8 array and every a an int in 0..len(mask)-1.";

PyObject *haven_mark_legal(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "mark_legal(mask, legal) takes 2 arguments (%zd given)",
                     nargs);
        return NULL;
    }
    Py_buffer view;
    if (rb_array(args[0], &view, "mask", RB_INT8, 1, -1, -1, 1) < 0)
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
