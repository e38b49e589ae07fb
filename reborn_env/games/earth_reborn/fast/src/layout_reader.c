/* The binding's reader of the observation Layout object (observation.build_layout) into the
 * core's ErObsLayout: every offset the compiled observer writes at, each block's width checked
 * against the scenario, so no write can leave the vector. The one place the observation touches
 * Python; observation.c itself is plain C.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "core.h"

#define N_DOOR_STATES 3
#define N_FACES 12

/* obj.<attr> as an int in [0, 2**24]; -1 with a Python error set. */
static int int_attr(PyObject *obj, const char *attr, const char *name, int *out)
{
    PyObject *v = PyObject_GetAttrString(obj, attr);
    if (v == NULL)
        return -1;
    long x = PyLong_AsLong(v);
    Py_DECREF(v);
    if (x == -1 && PyErr_Occurred())
        return -1;
    if (x < 0 || x > (1L << 24)) {
        PyErr_Format(PyExc_ValueError, "observation layout: %s.%s = %ld is out of range", name,
                     attr, x);
        return -1;
    }
    *out = (int)x;
    return 0;
}

/* The offset of field `name` of `layout` into *offset, checking that it is `width` floats wide and
 * ends within `size`; with `item` set, the field's record layout (a new reference) goes there. */
static int read_field(PyObject *layout, const char *name, int width, int size, int *offset,
                      PyObject **item)
{
    PyObject *key = PyUnicode_FromString(name);
    if (key == NULL)
        return -1;
    PyObject *f = PyObject_GetItem(layout, key);
    Py_DECREF(key);
    if (f == NULL)
        return -1;
    int got, rc = -1;
    if (int_attr(f, "offset", name, offset) < 0 || int_attr(f, "width", name, &got) < 0)
        goto done;
    if (width >= 0 && got != width) {
        PyErr_Format(PyExc_ValueError,
                     "observation layout: block %s is %d floats wide; the scenario needs %d", name,
                     got, width);
        goto done;
    }
    if (*offset + got > size) {
        PyErr_Format(PyExc_ValueError, "observation layout: block %s ends past the record (%d)",
                     name, size);
        goto done;
    }
    if (item != NULL) {
        *item = PyObject_GetAttrString(f, "item");
        if (*item == NULL)
            goto done;
        if (*item == Py_None) {
            Py_CLEAR(*item);
            PyErr_Format(PyExc_ValueError, "observation layout: %s is not a group", name);
            goto done;
        }
    }
    rc = 0;
done:
    Py_DECREF(f);
    return rc;
}

/* observation.build_layout, read back: every offset observation.Observer takes from the layout
 * (at, char_at, section_at, char_width, section_width), each block's width checked against the
 * scenario `s` (its counts must already be read). 0, or -1 with a Python error set. */
int er_obs_init(ErObsLayout *out, PyObject *layout, const Scn *s)
{
    PyObject *chars = NULL, *sections = NULL;
    int rc = -1, size, width;
    if (int_attr(layout, "size", "layout", &out->size) < 0)
        return -1;
    size = out->size;
    struct {
        const char *name;
        int width;
        int *at;
    } top[] = {
        {"faction", 2, &out->faction},
        {"turn", s->turns, &out->turn},
        {"phase", ER_N_PHASES, &out->phase},
        {"decision", ER_N_DECISIONS, &out->decision},
        {"flags", 4, &out->flags},
        {"cp", 2, &out->cp},
        {"mp", 2, &out->mp},
        {"tile_counts", 4, &out->tile_counts},
        {"redrew", 2, &out->redrew},
        {"bids", 2, &out->bids},
        {"hand", s->n_tiles, &out->hand},
        {"discard", s->n_tiles, &out->discard},
        {"doors", N_DOOR_STATES * s->n_doors, &out->doors},
        {"hacked", s->n_terminals, &out->hacked},
        {"caches", s->n_caches, &out->caches},
        {"round", 6, &out->round},
        {"section", ER_SECTION_SLOTS, &out->section},
        {"target_direction", 4, &out->target_direction},
        {"target_character", s->n_chars, &out->target_character},
        {"last_roll", N_FACES, &out->last_roll},
    };
    for (size_t k = 0; k < sizeof top / sizeof top[0]; k++)
        if (read_field(layout, top[k].name, top[k].width, size, top[k].at, NULL) < 0)
            return -1;
    if (read_field(layout, "characters", -1, size, &out->characters, &chars) < 0)
        return -1;
    if (int_attr(chars, "size", "characters", &out->char_width) < 0)
        goto done;
    width = out->char_width;
    if (out->characters + s->n_chars * width > size) {
        PyErr_Format(PyExc_ValueError, "observation layout: the character records end past %d",
                     size);
        goto done;
    }
    struct {
        const char *name;
        int width;
        int *at;
    } record[] = {
        {"mine", 1, &out->c_mine},
        {"alive", 1, &out->c_alive},
        {"wounded", 1, &out->c_wounded},
        {"wounds", 1, &out->c_wounds},
        {"engaged", 1, &out->c_engaged},
        {"cp_spent", 1, &out->c_cp_spent},
        {"cp_left", 1, &out->c_cp_left},
        {"cards", 1, &out->c_cards},
        {"has_weapon", 1, &out->c_has_weapon},
        {"weapon_ready", 1, &out->c_weapon_ready},
        {"activated", 1, &out->c_activated},
        {"x", s->width, &out->c_x},
        {"y", s->height, &out->c_y},
        {"facing", 4, &out->c_facing},
        {"tried", s->n_terminals, &out->c_tried},
    };
    for (size_t k = 0; k < sizeof record / sizeof record[0]; k++)
        if (read_field(chars, record[k].name, record[k].width, width, record[k].at, NULL) < 0)
            goto done;
    if (read_field(chars, "sections", -1, width, &out->c_sections, &sections) < 0)
        goto done;
    if (int_attr(sections, "size", "sections", &out->section_width) < 0)
        goto done;
    if (out->c_sections + ER_SECTION_SLOTS * out->section_width > width) {
        PyErr_Format(PyExc_ValueError, "observation layout: the section records end past %d",
                     width);
        goto done;
    }
    if (read_field(sections, "type", ER_N_ORDER_TYPES, out->section_width, &out->s_type, NULL) <
            0 ||
        read_field(sections, "max", 1, out->section_width, &out->s_max, NULL) < 0 ||
        read_field(sections, "cp", 1, out->section_width, &out->s_cp, NULL) < 0 ||
        read_field(sections, "present", 1, out->section_width, &out->s_present, NULL) < 0)
        goto done;
    rc = 0;
done:
    Py_XDECREF(sections);
    Py_XDECREF(chars);
    return rc;
}

