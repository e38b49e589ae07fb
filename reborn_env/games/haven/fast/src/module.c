/* The CPython extension `_core` of haven: only the module definition. Each part's
 * functions are declared in its header (observer.h: the observation encoder; paths.h: the path
 * costs; monster_ai.h: focus and destination; mask.h: the action mask) and listed in the method
 * table here, with their init calls. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "mask.h"
#include "monster_ai.h"
#include "observer.h"
#include "paths.h"

static PyMethodDef core_methods[] = {
    {"observer", haven_observer_new, METH_O, HAVEN_OBSERVER_DOC},
    HAVEN_PATHS_METHODS,
    HAVEN_AI_METHODS,
    HAVEN_MASK_METHODS,
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "reborn_env.games.haven.fast._core",
    .m_doc = "haven's compiled pieces: the observation encoder (16.5) and the path costs of "
             "the monster AI (HV-AI-2, HV-AI-10).",
    .m_size = -1,
    .m_methods = core_methods,
};

PyMODINIT_FUNC PyInit__core(void)
{
    PyObject *m = PyModule_Create(&core_module);
    if (!m)
        return NULL;
    if (haven_paths_add(m) < 0 || haven_ai_add(m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
