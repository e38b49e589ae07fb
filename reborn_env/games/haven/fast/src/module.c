/* The CPython extension `_core` of haven (issue 16): a module definition and its method table,
 * nothing else; each function lives in its own source file and is declared in its header. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "observer.h"

static PyMethodDef core_methods[] = {
    {"observer", haven_observer_new, METH_O, HAVEN_OBSERVER_DOC},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "reborn_env.games.haven.fast._core",
    .m_doc = "haven's compiled pieces: the observation encoder (16.5).",
    .m_size = -1,
    .m_methods = core_methods,
};

PyMODINIT_FUNC PyInit__core(void)
{
    return PyModule_Create(&core_module);
}
