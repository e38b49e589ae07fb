/* The compiled twin of haven's observation encoder (observation.Observer, 16.5): the functions
 * observer.c gives the module's method table (module.c). */
#ifndef HAVEN_OBSERVER_H
#define HAVEN_OBSERVER_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* observer(spec) -> Observer: an observer built from the tables fast/observer.py reads off the
 * Python Observer (core_spec); its method observe_into(game, me, out) writes the observation. */
PyObject *haven_observer_new(PyObject *module, PyObject *spec);

#define HAVEN_OBSERVER_DOC                                                                      \
    "observer(spec) -> Observer: the compiled observation encoder of one scenario, built from "  \
    "the tables of reborn_env.games.haven.fast.observer.core_spec; Observer.observe_into(game, " \
    "me, out) writes Observer.observe(game, me) of the Python reference into out."

#endif
