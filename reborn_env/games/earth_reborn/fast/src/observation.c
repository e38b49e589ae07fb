/* What one player may see, as a flat float32 vector (observation.py, section 22, ER-HID-1..12).
 *
 * er_observe writes exactly the float32 bytes of Observer.observe(state, me), each block at the
 * offset of the observation Layout, which er_obs_init reads from the Layout object by field name
 * once (checking every width against the scenario, so no write can leave the vector). Each value
 * is computed in double as Python computes it, then rounded to float32 as numpy does when the
 * observer stores it. Built only from the observer's own screen and the public table
 * (ER-HID-2, -6); the discard's contents only at its own CHOOSE_DISCARD (ER-HID-7); a duel bid
 * once both are chosen (ER-HID-10).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "core.h"

/* observation.py's scales: the observed value is the quantity divided by its scale. */
#define MP_SCALE 20.0
#define MVP_SCALE 20.0
#define SECTION_MAX_CP 4.0
#define CARDS_SCALE 2.0
#define DICE 6.0
#define N_DOOR_STATES 3
#define N_FACES 12

/* --- Reading the Layout ---------------------------------------------------------------------- */

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

/* --- Building an observation ----------------------------------------------------------------- */

/* min(x, 1.0) as Python's min(x, 1.0) gives it. */
static double at_most_one(double x)
{
    return 1.0 < x ? 1.0 : x;
}

/* observation.Observer._shooting: the order being built is a Shoot. */
static int shooting(const Game *g, const Scn *s)
{
    if (g->char_ < 0 || g->section < 0)
        return 0;
    const ErAssigned *assigned = &g->chars[g->char_].tiles[g->section >> 2];
    return s->tiles[assigned->tile][g->section & 3].type == ER_SHOOT;
}

/* observation.Observer._character: character c's block as me sees it (ER-HID-5/-11: all of it is
 * on the table), into block[0 .. char_width). */
static void character(const Game *g, const Scn *s, int c, int me, float *block)
{
    const ErObsLayout *at = &s->obs;
    const ErCharSpec *spec = &s->chars[c];
    const ErChar *ch = &g->chars[c];
    const ErStats *stats = er_stats(g, s, c);
    double maxcp = spec->healthy.maxcp;
    int armed = spec->has_weapon;
    int cp_left = stats->maxcp - ch->cp_spent;
    block[at->c_mine] = (float)(spec->faction == me);
    block[at->c_alive] = (float)!ch->dead;
    block[at->c_wounded] = (float)ch->wounded;
    block[at->c_wounds] = (float)(ch->wounds / (double)stats->lp);
    block[at->c_engaged] = (float)ch->engaged;
    block[at->c_cp_spent] = (float)(ch->cp_spent / maxcp);
    block[at->c_cp_left] = (float)((cp_left > 0 ? cp_left : 0) / maxcp);
    block[at->c_cards] = (float)at_most_one(ch->cards / CARDS_SCALE);
    block[at->c_has_weapon] = (float)armed;
    block[at->c_weapon_ready] = (float)(armed && ch->weapon_ready);
    block[at->c_activated] = (float)(g->char_ == c);
    block[at->c_x + ch->square % s->width] = 1.0f;
    block[at->c_y + ch->square / s->width] = 1.0f;
    block[at->c_facing + ch->facing] = 1.0f;
    for (int t = 0; t < s->n_terminals; t++)
        if (ch->tried >> t & 1u)
            block[at->c_tried + t] = 1.0f;
    int sw = at->section_width;
    for (int slot = 0; slot < ch->n_tiles; slot++) {
        const ErAssigned *assigned = &ch->tiles[slot];
        float *j = block + at->c_sections + slot * 4 * sw;
        for (int k = 0; k < 4; k++) {
            const ErSection *section = &s->tiles[assigned->tile][k];
            j[k * sw + at->s_type + section->type] = 1.0f;
            j[k * sw + at->s_max] = (float)(section->max / SECTION_MAX_CP);
            j[k * sw + at->s_present] = 1.0f;
            j[k * sw + at->s_cp] = (float)(assigned->cp[k] / SECTION_MAX_CP);
        }
    }
}

/* observation.Observer.observe: ER-HID-1..11, the observation of player me, every one of the
 * s->obs.size floats written. */
void er_observe(const Game *g, const Scn *s, int me, float *out)
{
    const ErObsLayout *at = &s->obs;
    int opp = 1 - me;
    double n_tiles = s->n_tiles;
    int both_bid = g->bids[0] >= 0 && g->bids[1] >= 0;
    memset(out, 0, sizeof(float) * (size_t)at->size);
    out[at->faction + me] = 1.0f;
    if (g->turn >= 1 && g->turn <= s->turns)
        out[at->turn + g->turn - 1] = 1.0f;
    out[at->phase + g->phase] = 1.0f;
    out[at->decision + g->decision] = 1.0f;
    /* the blocks flags, cp, mp, tile_counts, redrew and bids */
    out[at->flags + 0] = (float)(g->winner == ER_NO_WINNER && g->decider == me);
    out[at->flags + 1] = (float)(g->initiative == me);
    out[at->flags + 2] = (float)(g->active == me);
    out[at->flags + 3] = (float)g->passes;
    out[at->cp + 0] = (float)(g->cp[me] / (double)ER_MAX_CP);   /* ER-HID-4 */
    out[at->cp + 1] = (float)(g->cp[opp] / (double)ER_MAX_CP);
    out[at->mp + 0] = (float)at_most_one(g->mp[me] / MP_SCALE);
    out[at->mp + 1] = (float)at_most_one(g->mp[opp] / MP_SCALE);
    out[at->tile_counts + 0] = (float)(er_popcount64(g->hands[me]) / n_tiles);
    out[at->tile_counts + 1] = (float)(er_popcount64(g->hands[opp]) / n_tiles);   /* ER-HID-3 */
    out[at->tile_counts + 2] = (float)(er_popcount64(g->bag) / n_tiles);          /* ER-HID-6 */
    out[at->tile_counts + 3] = (float)(er_popcount64(g->discard) / n_tiles);      /* ER-HID-7 */
    out[at->redrew + 0] = (float)g->redrew[me];                                   /* ER-HID-9 */
    out[at->redrew + 1] = (float)g->redrew[opp];
    out[at->bids + 0] = (float)((g->bids[me] > 0 ? g->bids[me] : 0) / (double)ER_MAX_CP);
    if (both_bid)   /* ER-HID-10 */
        out[at->bids + 1] = (float)((g->bids[opp] > 0 ? g->bids[opp] : 0) / (double)ER_MAX_CP);
    for (uint64_t m = g->hands[me]; m; m &= m - 1)   /* ER-HID-1 */
        out[at->hand + __builtin_ctzll(m)] = 1.0f;
    if (g->decision == ER_CHOOSE_DISCARD && g->decider == me)   /* ER-HID-7 */
        for (uint64_t m = g->discard; m; m &= m - 1)
            out[at->discard + __builtin_ctzll(m)] = 1.0f;
    for (int d = 0; d < s->n_doors; d++)
        out[at->doors + N_DOOR_STATES * d + g->doors[d]] = 1.0f;
    for (int t = 0; t < s->n_terminals; t++)
        if (g->hacked[t])
            out[at->hacked + t] = 1.0f;
    for (int k = 0; k < s->n_caches; k++)
        if (g->cache_full[k])
            out[at->caches + k] = 1.0f;
    out[at->round + 0] = (float)g->reactivation;
    out[at->round + 1] = (float)g->acted;
    out[at->round + 2] = (float)(g->round_decisions > 0);
    out[at->round + 3] = (float)at_most_one(g->mvp / MVP_SCALE);
    out[at->round + 4] = (float)g->transferred;
    out[at->round + 5] = (float)(g->order_cp / SECTION_MAX_CP);
    if (g->section >= 0)
        out[at->section + g->section] = 1.0f;
    if (g->target >= 0) {
        int shoot = (g->decision == ER_CP || g->decision == ER_AIM) && shooting(g, s);
        out[(shoot ? at->target_character : at->target_direction) + g->target] = 1.0f;
    }
    if (g->n_last_roll) {   /* ER-HID-11: every die rolled is public */
        int faces[N_FACES] = {0};
        for (int i = 0; i < g->n_last_roll; i++)
            faces[g->last_roll[i]]++;
        for (int f = 0; f < N_FACES; f++)
            if (faces[f])
                out[at->last_roll + f] = (float)(faces[f] / DICE);
    }
    for (int c = 0; c < s->n_chars; c++)
        character(g, s, c, me, out + at->characters + c * at->char_width);
}
