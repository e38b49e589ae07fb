/* The binding of haven's single-target monster AI (HV-AI-3..5, HV-AI-10, HV-COND-7, HV-JMP-2),
 * whose choices are the plain C of ai_choice.h: the compiled twin of focus_ranking and
 * destination in rules/monster_ai.py, which stay the readable reference;
 * tests/haven/fast/test_monster_ai.py holds the two identical.
 *
 * AIBoard(n, distance, sight, modulus): one map's range distances (n * n, row a column b, 1000
 * for a cell cut off) and line of sight (n * n truth values), built once per scenario;
 * modulus: what a negative hex weighs (terrain.NEGATIVE), or 0 on a map without terrain.
 * ai_ranking(...) and ai_destination(...) are described by their docstrings. The module
 * definition (module.c) lists HAVEN_AI_METHODS and calls haven_ai_add from its init.
 */
#ifndef HAVEN_MONSTER_AI_H
#define HAVEN_MONSTER_AI_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

extern PyTypeObject HavenAIBoard_Type;

PyObject *haven_ai_ranking(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
PyObject *haven_ai_destination(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

extern const char haven_ai_ranking_doc[];
extern const char haven_ai_destination_doc[];

#define HAVEN_AI_METHODS                                                                       \
    {"ai_ranking", (PyCFunction)(void (*)(void))haven_ai_ranking, METH_FASTCALL,             \
     haven_ai_ranking_doc},                                                                    \
    {"ai_destination", (PyCFunction)(void (*)(void))haven_ai_destination, METH_FASTCALL,     \
     haven_ai_destination_doc}

/* Adds the type AIBoard to the module; 0, or -1 with an exception set. */
int haven_ai_add(PyObject *module);

#endif
