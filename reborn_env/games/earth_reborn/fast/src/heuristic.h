/* The compiled heuristic bot: EarthRebornHeuristicBot of bots.py, decision for decision (and the
 * saw hunter of saw_hunter.py, which differs only in the Salemites' plans).
 *
 * heuristic.c defines the Python type `_core.Heuristic`; module.c registers it and shares its
 * scenario reader (read_scenario: the Scenario object, the codec and the observation layout into a
 * Scn, as the Games constructor reads them).
 */
#ifndef ER_HEURISTIC_H
#define ER_HEURISTIC_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "core.h"

/* module.c: the Games constructor's reader of (scenario, codec, layout); 0, or -1 with an error. */
int read_scenario(PyObject *scenario, PyObject *codec, PyObject *layout, Scn *s);

/* heuristic.c: _core.Heuristic(scenario, codec, layout, n, saw_hunt=False), n tie-break generators;
 * saw_hunt plays EarthRebornSawHunterBot (saw_hunter.py) instead. */
extern PyTypeObject ErHeuristicType;

#endif /* ER_HEURISTIC_H */
