/* The CPython extension `_core` of haven (issue 16): only the module definition. Each part's
 * functions are declared in its header (paths.h: the path costs) and listed in the method
 * table here, so the parts merge by adding their entries and their init calls. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "paths.h"

static PyMethodDef core_methods[] = {
    HAVEN_PATHS_METHODS,
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_core",
    .m_doc = "The compiled pieces of haven (issue 16): path costs (paths.c).",
    .m_size = -1,
    .m_methods = core_methods,
};

PyMODINIT_FUNC PyInit__core(void)
{
    PyObject *m = PyModule_Create(&core_module);
    if (!m)
        return NULL;
    if (haven_paths_add(m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
