/* What the haven core's functions that write into NumPy arrays share about buffers. */
#ifndef HAVEN_BUFFERS_H
#define HAVEN_BUFFERS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* The struct-module type code of a buffer's items without its byte-order prefix (a NumPy
 * array's format may start with '<', '=', '@' or '|'); "B" where the exporter gives none. */
static inline const char *item_format(const Py_buffer *view)
{
    const char *fmt = view->format ? view->format : "B";
    if (fmt[0] == '<' || fmt[0] == '=' || fmt[0] == '@' || fmt[0] == '|')
        fmt++;
    return fmt;
}

#endif
