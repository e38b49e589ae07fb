/* What the binding's files share: the scenario reader of module.c and the Python type of
 * heuristic_module.c. */
#ifndef ER_MODULE_H
#define ER_MODULE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "core.h"

/* module.c: the Games constructor's reader of (scenario, codec, layout); 0, or -1 with an error. */
int read_scenario(PyObject *scenario, PyObject *codec, PyObject *layout, Scn *s);

/* heuristic_module.c: _core.Heuristic(scenario, codec, layout, n, saw_hunt=False), n tie-break
 * generators; saw_hunt plays EarthRebornSawHunterBot (saw_hunter.py) instead. */
extern PyTypeObject ErHeuristicType;

#endif /* ER_MODULE_H */
