/* The binding of haven's path costs (HV-AI-2, HV-AI-10, HV-JMP-2, HV-FLY-2), whose searches are
 * the plain C of path_search.h: the whole-board work of rules/path_graph.py's PathGraph, which
 * stays the readable reference; the tests hold the two identical (tests/haven/fast/test_paths.py).
 *
 * PathBoard(neighbours, floor, walls, modulus=0): one map's static data, built once per scenario
 * and kept by the Python side. path_graph(...) returns a mover's passable, endable, cost, dist
 * and points lists; path_costs(...) the least costs from (or, reverse, towards) some sources, as
 * PathGraph.steps_from and PathGraph.remaining; slide_costs(...) the same over a walk's steps on a
 * map with ice (HV-ICE-2/3, rules/ice.py's StepGraph.costs). The module definition (module.c) lists
 * HAVEN_PATHS_METHODS in its method table and calls haven_paths_add from its init.
 */
#ifndef HAVEN_PATHS_H
#define HAVEN_PATHS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

extern PyTypeObject HavenPathBoard_Type;

PyObject *haven_path_graph(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
PyObject *haven_path_costs(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
PyObject *haven_slide_costs(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

extern const char haven_path_graph_doc[];
extern const char haven_path_costs_doc[];
extern const char haven_slide_costs_doc[];

/* The entries of the module's method table (module.c) for these functions. */
#define HAVEN_PATHS_METHODS                                                                    \
    {"path_graph", (PyCFunction)(void (*)(void))haven_path_graph, METH_FASTCALL,             \
     haven_path_graph_doc},                                                                    \
    {"path_costs", (PyCFunction)(void (*)(void))haven_path_costs, METH_FASTCALL,             \
     haven_path_costs_doc},                                                                    \
    {"slide_costs", (PyCFunction)(void (*)(void))haven_slide_costs, METH_FASTCALL,           \
     haven_slide_costs_doc}

/* Adds the type PathBoard to the module; 0, or -1 with an exception set. */
int haven_paths_add(PyObject *module);

#endif
