/* The action mask in C (16.4, HV-API-1): mark_legal(mask, legal) sets mask[a] = 1 for each legal
 * action a, as fast/mask.py's mark_legal_reference does with NumPy indexing; the tests hold the
 * two identical (tests/haven/fast/test_mask.py). The module definition (module.c) lists
 * HAVEN_MASK_METHODS in its method table. */
#ifndef HAVEN_MASK_H
#define HAVEN_MASK_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

PyObject *haven_mark_legal(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

extern const char haven_mark_legal_doc[];

#define HAVEN_MASK_METHODS                                                                     \
    {"mark_legal", (PyCFunction)(void (*)(void))haven_mark_legal, METH_FASTCALL,             \
     haven_mark_legal_doc}

#endif
