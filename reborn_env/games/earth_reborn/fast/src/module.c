/* The CPython extension `_core`: the type Games, n game slots of the compiled core behind the API
 * that fast/reference.py mirrors in pure Python.
 *
 * The constructor reads the Scenario, the codec and the observation layout objects (one source
 * of truth: the same data file); load/dump move a slot's Game to and from a reference GameState
 * as the bytes fast/state_layout.py packs from the state schema (rules/state_schema.py), range
 * checked by the generated state_checks.h; step runs every slot, split among the threads of a
 * persistent pool (pool.c) with the GIL released. Every input is checked at this boundary and a
 * bad one is a Python exception, never a crash.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "core.h"
#include "module.h"
#include "rb_pool.h"
#include "rb_binding.h"
#include "state_checks.h"

/* --- Python objects of the reference the module needs (looked up once) ---------------------- */

static PyObject *GameState_type;   /* state.GameState */
static PyObject *PACK, *UNPACK;     /* fast/state_layout.py: a GameState to Game bytes and back */
static PyObject *reference_module, *IllegalActionError;

static const char *const KIND_NAMES[ER_N_KINDS] = {
    "MULLIGAN_KEEP", "MULLIGAN_REDRAW", "DUEL_BID", "ACTIVATE", "REACTIVATE", "DRAW_BAG",
    "PICK_DISCARD", "PASS", "CHOOSE_DISCARD", "ASSIGN", "MOVE_CP", "SELECT_ORDER", "RELOAD",
    "SAW_DOOR", "END_ROUND", "STEP", "OPEN", "CLOSE", "GIVE_CARD", "TAKE_CARD", "PICKUP_CARD",
    "END_MOVE", "CHOOSE_TARGET_DIR", "CHOOSE_TARGET_CHAR", "CHOOSE_CP", "CHOOSE_AIM",
    "DISCARD_TILE", "KEEP_HAND"};
static const char *const DOOR_KIND_NAMES[] = {"sliding", "wooden", "magnetic_sliding",
                                              "magnetic_wooden", NULL};
static const char *const ORDER_TYPE_NAMES[] = {"M", "C", "F", "I", "S", NULL};
static const char *const SECTION_COLOUR_NAMES[] = {"black", "red", "gold", NULL};
static const char *const ABILITY_NAMES[] = {"saw_door", NULL};
static const char *const CACHE_ITEM_NAMES[] = {"magnetic_card", NULL};

/* The tuple attribute `name` of `module` must have n items (the C enum it mirrors). */
static int check_count(PyObject *module, const char *name, Py_ssize_t n)
{
    PyObject *v = PyObject_GetAttrString(module, name);
    int ok = v && PyTuple_Check(v) && PyTuple_GET_SIZE(v) == n;
    Py_XDECREF(v);
    if (!ok && !PyErr_Occurred())
        PyErr_Format(PyExc_RuntimeError, "the reference's %s differs from core.h", name);
    return ok ? 0 : -1;
}

static int import_reference(void)
{
    if (GameState_type)
        return 0;
    PyObject *state = PyImport_ImportModule("reborn_env.games.earth_reborn.rules.state");
    PyObject *dice = state ? PyImport_ImportModule("reborn_env.games.earth_reborn.rules.dice")
                           : NULL;
    PyObject *layout =
        dice ? PyImport_ImportModule("reborn_env.games.earth_reborn.fast.state_layout") : NULL;
    PyObject *size = layout ? PyObject_GetAttrString(layout, "STATE_SIZE") : NULL;
    int ok = size && check_count(state, "PHASES", ER_N_PHASES) == 0 &&
             check_count(state, "DECISIONS", ER_N_DECISIONS) == 0 &&
             check_count(dice, "FACES", 12) == 0;
    if (ok && PyLong_AsSsize_t(size) != (Py_ssize_t)sizeof(Game)) {
        PyErr_Format(PyExc_RuntimeError,
                     "state_layout.py lays a Game out in %R bytes, this core in %zu: rebuild it "
                     "(python setup.py build_ext --inplace)", size, sizeof(Game));
        ok = 0;
    }
    if (ok) {
        GameState_type = PyObject_GetAttrString(state, "GameState");
        PACK = PyObject_GetAttrString(layout, "pack");
        UNPACK = PyObject_GetAttrString(layout, "unpack");
        ok = GameState_type && PACK && UNPACK;
        if (!ok) {
            Py_CLEAR(GameState_type);
            Py_CLEAR(PACK);
            Py_CLEAR(UNPACK);
        }
    }
    Py_XDECREF(state);
    Py_XDECREF(dice);
    Py_XDECREF(layout);
    Py_XDECREF(size);
    return ok ? 0 : -1;
}

/* --- Small readers of Python values, each failing with a message naming the value ----------- */

/* A seed: an integer in 0..2**64-1 (TypeError / ValueError naming `what`). */
static int as_seed(PyObject *v, uint64_t *out, const char *what)
{
    PyObject *index = rb_is_integer(v) ? PyNumber_Index(v) : NULL;
    if (!index) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s must be an integer, got %R", what, v);
        return -1;
    }
    unsigned long long x = PyLong_AsUnsignedLongLong(index);
    Py_DECREF(index);
    if (x == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s must be in 0..18446744073709551615, got %R", what, v);
        return -1;
    }
    *out = x;
    return 0;
}

static int as_int(PyObject *v, long long lo, long long hi, int *out, const char *what)
{
    long long x;
    if (rb_int(v, lo, hi, &x, what) < 0)
        return -1;
    *out = (int)x;
    return 0;
}

/* obj.name as an int in lo..hi (`what` names obj in the message). */
static int attr_int(PyObject *obj, const char *name, long long lo, long long hi, int *out,
                    const char *what)
{
    char label[160];
    PyObject *v = PyObject_GetAttrString(obj, name);
    if (!v)
        return -1;
    snprintf(label, sizeof label, "%s.%s", what, name);
    int r = as_int(v, lo, hi, out, label);
    Py_DECREF(v);
    return r;
}

static int attr_bool(PyObject *obj, const char *name, int *out)
{
    PyObject *v = PyObject_GetAttrString(obj, name);
    if (!v)
        return -1;
    int t = PyObject_IsTrue(v);
    Py_DECREF(v);
    if (t < 0)
        return -1;
    *out = t;
    return 0;
}

/* The index of string v in names (NULL-terminated), or -1 with a ValueError. */
static int choice(PyObject *v, const char *const *names, const char *what)
{
    if (v && PyUnicode_Check(v))
        for (int i = 0; names[i]; i++)
            if (PyUnicode_CompareWithASCIIString(v, names[i]) == 0)
                return i;
    if (v)
        PyErr_Format(PyExc_ValueError, "%s: %R is not one the compiled core knows", what, v);
    return -1;
}

/* obj.name as a sequence (a new reference to a list or tuple) of exactly n items (n < 0: any). */
static PyObject *attr_seq(PyObject *obj, const char *name, Py_ssize_t n, const char *what)
{
    PyObject *v = PyObject_GetAttrString(obj, name);
    if (!v)
        return NULL;
    PyObject *seq = PySequence_Fast(v, "");
    Py_DECREF(v);
    if (!seq) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s.%s must be a list or tuple", what, name);
        return NULL;
    }
    if (n >= 0 && PySequence_Fast_GET_SIZE(seq) != n) {
        PyErr_Format(PyExc_ValueError, "%s.%s must hold %zd items, got %zd", what, name, n,
                     PySequence_Fast_GET_SIZE(seq));
        Py_DECREF(seq);
        return NULL;
    }
    return seq;
}

/* --- The scenario (scenario/model.py) into a Scn ------------------------------------------ */

typedef struct {
    PyObject *factions;   /* the scenario's two faction names */
} Names;

static int faction_of(const Names *nm, PyObject *v, const char *what)
{
    for (int p = 0; p < 2; p++) {
        int eq = v ? PyObject_RichCompareBool(v, PyTuple_GET_ITEM(nm->factions, p), Py_EQ) : -1;
        if (eq < 0)
            return -1;
        if (eq)
            return p;
    }
    PyErr_Format(PyExc_ValueError, "%s: %R is not a faction of the scenario", what, v);
    return -1;
}

static int attr_faction(const Names *nm, PyObject *obj, const char *name, const char *what)
{
    PyObject *v = PyObject_GetAttrString(obj, name);
    if (!v)
        return -1;
    int p = faction_of(nm, v, what);
    Py_DECREF(v);
    return p;
}

/* dict[faction] per player; missing -> dflt (or a KeyError-like ValueError when dflt < 0). */
static int per_faction(const Names *nm, PyObject *obj, const char *name, int dflt, int out[2],
                       const char *what)
{
    PyObject *d = PyObject_GetAttrString(obj, name);
    if (!d)
        return -1;
    int r = 0;
    for (int p = 0; p < 2 && r == 0; p++) {
        PyObject *v = PyObject_GetItem(d, PyTuple_GET_ITEM(nm->factions, p));
        if (!v) {
            if (dflt < 0 || !PyErr_ExceptionMatches(PyExc_KeyError)) {
                r = -1;
                break;
            }
            PyErr_Clear();
            out[p] = dflt;
            continue;
        }
        char label[160];
        snprintf(label, sizeof label, "%s.%s[%d]", what, name, p);
        r = as_int(v, -1000000, 1000000, &out[p], label);
        Py_DECREF(v);
    }
    Py_DECREF(d);
    return r;
}

static int too_many(const char *what, Py_ssize_t n, int most, const char *macro)
{
    if (n > most) {
        PyErr_Format(PyExc_ValueError,
                     "the scenario has %zd %s; the compiled core holds at most %d (%s in "
                     "core.h)",
                     n, what, most, macro);
        return -1;
    }
    return 0;
}

static int read_stats(PyObject *line, ErStats *st, const char *what)
{
    int lo = 0, hi = 1000;
    if (attr_int(line, "mov", lo, hi, &st->mov, what) || attr_int(line, "sht", lo, hi, &st->sht, what) ||
        attr_int(line, "arm", lo, hi, &st->arm, what) || attr_int(line, "lp", 1, hi, &st->lp, what) ||
        attr_int(line, "maxcp", lo, hi, &st->maxcp, what) ||
        attr_int(line, "bonus", lo, hi, &st->bonus, what) ||
        attr_int(line, "tec", lo, hi, &st->tec, what) ||
        attr_int(line, "srch", lo, hi, &st->srch, what) ||
        attr_int(line, "auto_hits", lo, hi, &st->auto_hits, what))
        return -1;
    PyObject *cc = attr_seq(line, "cc", 3, what);
    if (!cc)
        return -1;
    for (int k = 0; k < 3; k++)
        if (as_int(PySequence_Fast_GET_ITEM(cc, k), 0, 1000, &st->cc[k], "a stat line's cc") < 0) {
            Py_DECREF(cc);
            return -1;
        }
    Py_DECREF(cc);
    return 0;
}

static int read_board(PyObject *board, Scn *s)
{
    if (attr_int(board, "width", 1, ER_MAX_SQUARES, &s->width, "board") ||
        attr_int(board, "height", 1, ER_MAX_SQUARES, &s->height, "board"))
        return -1;
    if (too_many("squares", (Py_ssize_t)s->width * s->height, ER_MAX_SQUARES, "ER_MAX_SQUARES"))
        return -1;
    s->n_squares = s->width * s->height;
    PyObject *doors = attr_seq(board, "doors", -1, "board");
    if (!doors)
        return -1;
    Py_ssize_t nd = PySequence_Fast_GET_SIZE(doors);
    if (too_many("doors", nd, ER_MAX_DOORS, "ER_MAX_DOORS")) {
        Py_DECREF(doors);
        return -1;
    }
    s->n_doors = (int)nd;
    for (int d = 0; d < s->n_doors; d++) {
        PyObject *door = PySequence_Fast_GET_ITEM(doors, d);
        ErDoor *e = &s->doors[d];
        PyObject *kind = PyObject_GetAttrString(door, "kind");
        e->kind = choice(kind, DOOR_KIND_NAMES, "door kind");
        Py_XDECREF(kind);
        if (e->kind < 0 || attr_int(door, "a", 0, s->n_squares - 1, &e->a, "door") ||
            attr_int(door, "b", 0, s->n_squares - 1, &e->b, "door") ||
            attr_int(door, "defense", 0, 1000000, &e->defense, "door")) {
            Py_DECREF(doors);
            return -1;
        }
        e->magnetic = e->kind == ER_MAGNETIC_SLIDING || e->kind == ER_MAGNETIC_WOODEN;
        e->sliding = e->kind == ER_SLIDING || e->kind == ER_MAGNETIC_SLIDING;
    }
    Py_DECREF(doors);
    PyObject *vd = attr_seq(board, "void", s->n_squares, "board");
    PyObject *edge = vd ? attr_seq(board, "edge", s->n_squares, "board") : NULL;
    PyObject *nb = edge ? attr_seq(board, "neighbor", s->n_squares, "board") : NULL;
    int r = nb ? 0 : -1;
    for (int q = 0; q < s->n_squares && r == 0; q++) {
        int t = PyObject_IsTrue(PySequence_Fast_GET_ITEM(vd, q));
        if (t < 0) {
            r = -1;
            break;
        }
        s->void_[q] = (uint8_t)t;
        PyObject *es = PySequence_Fast(PySequence_Fast_GET_ITEM(edge, q), "board.edge[sq]");
        PyObject *ns = es ? PySequence_Fast(PySequence_Fast_GET_ITEM(nb, q), "board.neighbor")
                          : NULL;
        if (!ns || PySequence_Fast_GET_SIZE(es) != 4 || PySequence_Fast_GET_SIZE(ns) != 4) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "board.edge and board.neighbor need 4 per square");
            r = -1;
        }
        for (int d = 0; d < 4 && r == 0; d++) {
            int e, n;
            if (as_int(PySequence_Fast_GET_ITEM(es, d), -2, s->n_doors - 1, &e, "board.edge") ||
                as_int(PySequence_Fast_GET_ITEM(ns, d), -1, s->n_squares - 1, &n,
                       "board.neighbor")) {
                r = -1;
                break;
            }
            s->edge[q][d] = (int16_t)e;
            s->neighbor[q][d] = (int16_t)n;
            if (e != ER_WALL && n < 0) {
                PyErr_SetString(PyExc_ValueError, "board: an open edge or door leads off the map");
                r = -1;
            }
        }
        Py_XDECREF(es);
        Py_XDECREF(ns);
    }
    Py_XDECREF(vd);
    Py_XDECREF(edge);
    Py_XDECREF(nb);
    return r;
}

static int read_character(const Names *nm, PyObject *spec, Scn *s, ErCharSpec *c)
{
    const char *what = "character";
    c->faction = attr_faction(nm, spec, "faction", "character faction");
    if (c->faction < 0)
        return -1;
    PyObject *h = PyObject_GetAttrString(spec, "healthy");
    int r = h ? read_stats(h, &c->healthy, "healthy") : -1;
    Py_XDECREF(h);
    if (r < 0)
        return -1;
    PyObject *w = PyObject_GetAttrString(spec, "wounded");
    r = w ? read_stats(w, &c->wounded, "wounded") : -1;
    Py_XDECREF(w);
    if (r < 0)
        return -1;
    PyObject *arcs = attr_seq(spec, "arcs", 4, what);
    if (!arcs)
        return -1;
    for (int k = 0; k < 4; k++)
        if (as_int(PySequence_Fast_GET_ITEM(arcs, k), 0, 2, &c->arcs[k], "character arcs") < 0) {
            Py_DECREF(arcs);
            return -1;
        }
    Py_DECREF(arcs);
    PyObject *weapon = PyObject_GetAttrString(spec, "weapon");
    if (!weapon)
        return -1;
    c->has_weapon = weapon != Py_None;
    memset(&c->weapon, 0, sizeof c->weapon);
    if (c->has_weapon &&
        (attr_int(weapon, "targeting_bonus", 0, 1000, &c->weapon.targeting_bonus, "weapon") ||
         attr_int(weapon, "damage_red", 0, 1000, &c->weapon.damage_red, "weapon") ||
         attr_int(weapon, "damage_orange", 0, 1000, &c->weapon.damage_orange, "weapon") ||
         attr_bool(weapon, "out_of_ammo_icon", &c->weapon.out_of_ammo_icon))) {
        Py_DECREF(weapon);
        return -1;
    }
    Py_DECREF(weapon);
    PyObject *abilities = PyObject_GetAttrString(spec, "abilities");
    PyObject *it = abilities ? PyObject_GetIter(abilities) : NULL;
    Py_XDECREF(abilities);
    if (!it)
        return -1;
    c->abilities = 0;
    PyObject *item;
    while ((item = PyIter_Next(it))) {
        int a = choice(item, ABILITY_NAMES, "character ability");
        Py_DECREF(item);
        if (a < 0) {
            Py_DECREF(it);
            return -1;
        }
        c->abilities |= 1u << a;
    }
    Py_DECREF(it);
    if (PyErr_Occurred())
        return -1;
    return attr_int(spec, "start", 0, s->n_squares - 1, &c->start, what) ||
                   attr_int(spec, "facing", 0, 3, &c->facing, what) ||
                   attr_int(spec, "cards", 0, 1000, &c->cards, what)
               ? -1
               : 0;
}

static int read_tiles(PyObject *scenario, Scn *s)
{
    PyObject *tiles = attr_seq(scenario, "tiles", -1, "scenario");
    if (!tiles)
        return -1;
    Py_ssize_t nt = PySequence_Fast_GET_SIZE(tiles);
    if (too_many("tiles", nt, ER_MAX_TILES, "ER_MAX_TILES")) {
        Py_DECREF(tiles);
        return -1;
    }
    s->n_tiles = (int)nt;
    for (int t = 0; t < s->n_tiles; t++) {
        PyObject *sections = attr_seq(PySequence_Fast_GET_ITEM(tiles, t), "sections", 4, "tile");
        if (!sections) {
            Py_DECREF(tiles);
            return -1;
        }
        for (int k = 0; k < 4; k++) {
            PyObject *sec = PySequence_Fast_GET_ITEM(sections, k);
            ErSection *e = &s->tiles[t][k];
            PyObject *type = PyObject_GetAttrString(sec, "type");
            e->type = choice(type, ORDER_TYPE_NAMES, "section type");
            Py_XDECREF(type);
            PyObject *colour = e->type >= 0 ? PyObject_GetAttrString(sec, "colour") : NULL;
            e->colour = colour ? choice(colour, SECTION_COLOUR_NAMES, "section colour") : -1;
            Py_XDECREF(colour);
            if (e->colour < 0 || attr_int(sec, "max", 1, 4, &e->max, "section")) {
                Py_DECREF(sections);
                Py_DECREF(tiles);
                return -1;
            }
        }
        Py_DECREF(sections);
    }
    Py_DECREF(tiles);
    return 0;
}

static int read_floor(PyObject *scenario, Scn *s)
{
    PyObject *terms = attr_seq(scenario, "terminals", -1, "scenario");
    if (!terms)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(terms);
    int r = too_many("terminals", n, ER_MAX_TERMINALS, "ER_MAX_TERMINALS");
    s->n_terminals = (int)n;
    for (int t = 0; t < s->n_terminals && r == 0; t++)
        r = attr_int(PySequence_Fast_GET_ITEM(terms, t), "square", 0, s->n_squares - 1,
                     &s->terminal_square[t], "terminal");
    Py_DECREF(terms);
    if (r)
        return -1;
    PyObject *caches = attr_seq(scenario, "caches", -1, "scenario");
    if (!caches)
        return -1;
    n = PySequence_Fast_GET_SIZE(caches);
    r = too_many("caches", n, ER_MAX_CACHES, "ER_MAX_CACHES");
    s->n_caches = (int)n;
    for (int k = 0; k < s->n_caches && r == 0; k++) {
        PyObject *cache = PySequence_Fast_GET_ITEM(caches, k);
        r = attr_int(cache, "square", 0, s->n_squares - 1, &s->cache_square[k], "cache");
        if (r == 0) {
            PyObject *item = PyObject_GetAttrString(cache, "item");
            s->cache_item[k] = choice(item, CACHE_ITEM_NAMES, "cache item");
            Py_XDECREF(item);
            r = s->cache_item[k] < 0 ? -1 : 0;
        }
    }
    Py_DECREF(caches);
    return r;
}

static int read_mission(const Names *nm, PyObject *scenario, Scn *s)
{
    PyObject *m = PyObject_GetAttrString(scenario, "mission");
    if (!m)
        return -1;
    ErMission *e = &s->mission;
    int r = attr_int(m, "hack_mp", -1000000, 1000000, &e->hack_mp, "mission") ||
            (e->hacker_faction = attr_faction(nm, m, "hacker_faction", "mission.hacker_faction")) <
                0 ||
            per_faction(nm, m, "kill_mp", -1, e->kill_mp, "mission") ||
            per_faction(nm, m, "unhacked_terminal_mp", 0, e->unhacked_terminal_mp, "mission") ||
            attr_int(m, "interact_threshold", 0, 1000000, &e->interact_threshold, "mission") ||
            attr_int(m, "search_threshold", 0, 1000000, &e->search_threshold, "mission") ||
            attr_bool(m, "end_when_all_hacked", &e->end_when_all_hacked) ||
            per_faction(nm, m, "hold_mp", 0, e->hold_mp, "mission");
    PyObject *hold = r ? NULL : attr_seq(m, "hold_squares", -1, "mission");
    if (hold) {
        Py_ssize_t n = PySequence_Fast_GET_SIZE(hold);
        r = too_many("hold squares", n, ER_MAX_SQUARES, "ER_MAX_SQUARES");
        e->n_hold = (int)n;
        for (int h = 0; h < e->n_hold && r == 0; h++)
            r = as_int(PySequence_Fast_GET_ITEM(hold, h), 0, s->n_squares - 1,
                       &e->hold_square[h], "mission.hold_squares");
        Py_DECREF(hold);
    } else {
        r = -1;
    }
    Py_DECREF(m);
    return r ? -1 : 0;
}

static int read_codec(PyObject *codec, Scn *s)
{
    if (attr_int(codec, "size", 1, ER_MAX_ACTIONS, &s->n_actions, "codec"))
        return -1;
    PyObject *base = PyObject_GetAttrString(codec, "base");
    if (!base)
        return -1;
    int r = 0;
    for (int k = 0; k < ER_N_KINDS && r == 0; k++) {
        PyObject *v = PyMapping_GetItemString(base, KIND_NAMES[k]);
        r = as_int(v, 0, s->n_actions - 1, &s->base[k], "codec.base[kind]");
        Py_XDECREF(v);
    }
    Py_DECREF(base);
    if (r)
        return -1;
    /* Each kind's range must be its domain's width (actions.KINDS) for this scenario. */
    static const char dom[ER_N_KINDS] = "nnbccnnnttssndndddnnnddcpatn";
    for (int k = 0; k < ER_N_KINDS; k++) {
        int width = dom[k] == 'n' ? 1 : dom[k] == 'd' ? 4 : dom[k] == 'c' ? s->n_chars
                  : dom[k] == 't' ? s->n_tiles : dom[k] == 's' ? ER_SECTION_SLOTS
                  : dom[k] == 'b' ? ER_MAX_CP + 1 : 4;
        int next = k + 1 < ER_N_KINDS ? s->base[k + 1] : s->n_actions;
        if (next - s->base[k] != width) {
            PyErr_Format(PyExc_ValueError,
                         "codec: kind %s spans %d actions, the scenario needs %d (pass "
                         "actions.codec_for(scenario))",
                         KIND_NAMES[k], next - s->base[k], width);
            return -1;
        }
    }
    return 0;
}

/* The most dice one decision rolls (invariants.limits_for: yellow_roll, black_roll). */
static int check_rolls(const Scn *s)
{
    int most_cc = 0, tec = 0, srch = 0, shots = 0;
    for (int c = 0; c < s->n_chars; c++) {
        const ErCharSpec *ch = &s->chars[c];
        const ErStats *sides[2] = {&ch->healthy, &ch->wounded};
        for (int k = 0; k < 2; k++) {
            for (int a = 0; a < 3; a++)
                most_cc = sides[k]->cc[a] > most_cc ? sides[k]->cc[a] : most_cc;
            tec = sides[k]->tec > tec ? sides[k]->tec : tec;
            srch = sides[k]->srch > srch ? sides[k]->srch : srch;
        }
        if (ch->has_weapon) {
            int sht = ch->healthy.sht > ch->wounded.sht ? ch->healthy.sht : ch->wounded.sht;
            int shot = sht + ch->weapon.targeting_bonus +
                       (ch->weapon.damage_red > ch->weapon.damage_orange ? ch->weapon.damage_red
                                                                         : ch->weapon.damage_orange);
            shots = shot > shots ? shot : shots;
        }
    }
    int yellow = 2 * most_cc;
    yellow = tec > yellow ? tec : yellow;
    yellow = shots > yellow ? shots : yellow;
    if (too_many("dice in one roll", yellow + 3, ER_MAX_ROLL, "ER_MAX_ROLL") ||
        too_many("dice in one search", srch + 3, ER_MAX_ROLL, "ER_MAX_ROLL"))
        return -1;
    for (int p = 0; p < 2; p++) {
        int income = s->base_cp[p];
        for (int c = 0; c < s->n_chars; c++)
            if (s->chars[c].faction == p)
                income += s->chars[c].healthy.bonus > s->chars[c].wounded.bonus
                              ? s->chars[c].healthy.bonus
                              : s->chars[c].wounded.bonus;
        if (too_many("CP of income in a turn", income, ER_MAX_CP, "ER_MAX_CP"))
            return -1;
    }
    return 0;
}

/* Shared with heuristic.c (heuristic.h), which reads the same scenario for the compiled bot. */
int read_scenario(PyObject *scenario, PyObject *codec, PyObject *layout, Scn *s)
{
    memset(s, 0, sizeof *s);
    Names nm;
    PyObject *f = PyObject_GetAttrString(scenario, "factions");
    if (!f)
        return -1;
    nm.factions = PySequence_Tuple(f);
    Py_DECREF(f);
    if (!nm.factions)
        return -1;
    int r = -1;
    if (PyTuple_GET_SIZE(nm.factions) != 2) {
        PyErr_SetString(PyExc_ValueError, "scenario.factions must name two factions");
        goto done;
    }
    PyObject *board = PyObject_GetAttrString(scenario, "board");
    if (!board)
        goto done;
    r = read_board(board, s);
    Py_DECREF(board);
    if (r)
        goto done;
    r = -1;
    PyObject *chars = attr_seq(scenario, "characters", -1, "scenario");
    if (!chars)
        goto done;
    Py_ssize_t nc = PySequence_Fast_GET_SIZE(chars);
    if (too_many("characters", nc, ER_MAX_CHARS, "ER_MAX_CHARS")) {
        Py_DECREF(chars);
        goto done;
    }
    s->n_chars = (int)nc;
    for (int c = 0; c < s->n_chars; c++)
        if (read_character(&nm, PySequence_Fast_GET_ITEM(chars, c), s, &s->chars[c]) < 0) {
            Py_DECREF(chars);
            goto done;
        }
    Py_DECREF(chars);
    if (read_tiles(scenario, s) || read_floor(scenario, s) || read_mission(&nm, scenario, s) ||
        per_faction(&nm, scenario, "base_cp", -1, s->base_cp, "scenario") ||
        per_faction(&nm, scenario, "start_mp", -1, s->start_mp, "scenario") ||
        attr_int(scenario, "turns", 1, 1000000, &s->turns, "scenario") ||
        (s->initiative_odd = attr_faction(&nm, scenario, "initiative_odd", "initiative_odd")) < 0 ||
        (s->initiative_even = attr_faction(&nm, scenario, "initiative_even", "initiative_even")) <
            0 ||
        (s->marker_at_setup = attr_faction(&nm, scenario, "marker_at_setup", "marker_at_setup")) <
            0 ||
        attr_bool(scenario, "initiative_duel", &s->initiative_duel) ||
        attr_int(scenario, "hand_limit", 0, ER_MAX_TILES, &s->hand_limit, "scenario") ||
        attr_int(scenario, "max_tiles_per_character", 0, ER_MAX_TILES_PER_CHAR,
                 &s->max_tiles_per_character, "scenario") ||
        check_rolls(s) || read_codec(codec, s) || er_obs_init(&s->obs, layout, s))
        goto done;
    r = 0;
done:
    Py_DECREF(nm.factions);
    return r;
}

/* --- The Games object ----------------------------------------------------------------------- */

#define LEGAL_WORDS (ER_MAX_ACTIONS / 64)

typedef struct {
    PyObject_HEAD
    Scn *scn;
    int n;
    Game *games;
    uint8_t *has_game;
    uint64_t *gens;       /* slot generators (SplitMix64 states) */
    uint64_t *legal;      /* per slot, ER_MAX_ACTIONS / 64 words: the legal set last written */
    uint8_t *legal_ok;    /* per slot: legal[] is the current decision's set */
    int max_steps;
    double mp_shaping;
    PyObject *scenario;
    RbPool *pool;           /* step's helper threads, started on the first threaded step */
    int busy;             /* a step (or a dump) is using the slots and may let other threads run */
} GamesObject;

static void Games_dealloc(GamesObject *self)
{
    rb_pool_free(self->pool);
    PyMem_Free(self->scn);
    PyMem_Free(self->games);
    PyMem_Free(self->has_game);
    PyMem_Free(self->gens);
    PyMem_Free(self->legal);
    PyMem_Free(self->legal_ok);
    Py_XDECREF(self->scenario);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Games_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"scenario", "codec", "layout", "n", "max_steps", "mp_shaping", "seed",
                             NULL};
    PyObject *scenario, *codec, *layout, *n_obj, *steps_obj, *shaping_obj, *seed_obj;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOOOO:Games", kwlist, &scenario, &codec,
                                     &layout, &n_obj, &steps_obj, &shaping_obj, &seed_obj))
        return NULL;
    if (import_reference() < 0)
        return NULL;
    int n, max_steps;
    long long n_ll;
    if (rb_int(n_obj, 1, 1 << 24, &n_ll, "n") < 0 ||
        as_int(steps_obj, 1, INT32_MAX, &max_steps, "max_steps") < 0)
        return NULL;
    n = (int)n_ll;
    double shaping = PyFloat_AsDouble(shaping_obj);
    if (shaping == -1.0 && PyErr_Occurred())
        return NULL;
    uint64_t seed;
    if (as_seed(seed_obj, &seed, "seed") < 0)
        return NULL;
    GamesObject *self = (GamesObject *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    self->scn = PyMem_Calloc(1, sizeof(Scn));
    self->games = PyMem_Calloc((size_t)n, sizeof(Game));
    self->has_game = PyMem_Calloc((size_t)n, 1);
    self->gens = PyMem_Calloc((size_t)n, sizeof(uint64_t));
    self->legal = PyMem_Calloc((size_t)n * LEGAL_WORDS, sizeof(uint64_t));
    self->legal_ok = PyMem_Calloc((size_t)n, 1);
    if (!self->scn || !self->games || !self->has_game || !self->gens || !self->legal ||
        !self->legal_ok) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    if (read_scenario(scenario, codec, layout, self->scn) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    self->n = n;
    self->max_steps = max_steps;
    self->mp_shaping = shaping;
    self->scenario = Py_NewRef(scenario);
    uint64_t root = seed;
    for (int i = 0; i < n; i++)
        self->gens[i] = er_rng_next64(&root);
    return (PyObject *)self;
}

/* The slot index i (TypeError / IndexError as the reference); need_game: it must hold a game. */
static int slot(GamesObject *self, PyObject *v, int need_game)
{
    if (!rb_is_integer(v)) {
        PyErr_Format(PyExc_TypeError, "slot must be an integer, got %R", v);
        return -1;
    }
    Py_ssize_t i = PyNumber_AsSsize_t(v, NULL);
    if (i == -1 && PyErr_Occurred())
        return -1;
    if (i < 0 || i >= self->n) {
        PyErr_Format(PyExc_IndexError, "slot %R is out of range 0..%d", v, self->n - 1);
        return -1;
    }
    if (need_game && !self->has_game[i]) {
        PyErr_Format(PyExc_ValueError,
                     "slot %zd holds no game yet: call reset_all, new_game or load", i);
        return -1;
    }
    return (int)i;
}

/* A RuntimeError while another thread's step (its slots change without the GIL) or dump (it
 * reads a slot while making Python objects) is under way: checked just before a method touches
 * the slots, after any argument conversion that could run Python code. */
static int in_use(GamesObject *self)
{
    if (!self->busy)
        return 0;
    PyErr_SetString(PyExc_RuntimeError, "Games is in use by a step() or dump() in another thread: "
                                        "call one Games' methods from one thread at a time");
    return -1;
}

/* --- One slot ------------------------------------------------------------------------------ */

static PyObject *Games_new_game(GamesObject *self, PyObject *args)
{
    PyObject *i_obj, *seed_obj;
    if (!PyArg_ParseTuple(args, "OO:new_game", &i_obj, &seed_obj))
        return NULL;
    int i = slot(self, i_obj, 0);
    if (i < 0)
        return NULL;
    uint64_t seed;
    if (as_seed(seed_obj, &seed, "seed") < 0 || in_use(self) < 0)
        return NULL;
    er_new_game(&self->games[i], self->scn, seed);
    self->has_game[i] = 1;
    self->legal_ok[i] = 0;
    Py_RETURN_NONE;
}

/* seed_state(i) / set_seed_state(i, state): slot i's SplitMix64 state, the generator of the seeds
 * of its next games (a resumed training run puts it back, so the slot's games go on as before). */
static PyObject *Games_seed_state(GamesObject *self, PyObject *i_obj)
{
    int i = slot(self, i_obj, 0);
    if (i < 0)
        return NULL;
    return PyLong_FromUnsignedLongLong(self->gens[i]);
}

static PyObject *Games_set_seed_state(GamesObject *self, PyObject *args)
{
    PyObject *i_obj, *state_obj;
    if (!PyArg_ParseTuple(args, "OO:set_seed_state", &i_obj, &state_obj))
        return NULL;
    int i = slot(self, i_obj, 0);
    if (i < 0)
        return NULL;
    uint64_t state;
    if (as_seed(state_obj, &state, "seed state") < 0 || in_use(self) < 0)
        return NULL;
    self->gens[i] = state;
    Py_RETURN_NONE;
}

/* --- load and dump: a slot to and from a reference GameState, as Game bytes ---------------- */

/* What the C rules index by the decision in progress must be in range (no crash on odd states). */
static int check_consistent(Game *g, const Scn *s)
{
    int d = g->decision;
    const char *bad = NULL;
    int needs_char = d == ER_ACTIVATION || d == ER_MOVING || d == ER_TARGET || d == ER_CP ||
                     d == ER_AIM;
    if (needs_char && g->char_ < 0)
        bad = "the decision needs an activated character (state.char)";
    else if ((d == ER_TARGET || d == ER_CP || d == ER_AIM) &&
             (g->section < 0 || (g->section >> 2) >= g->chars[g->char_].n_tiles))
        bad = "the decision needs a section of an assigned tile (state.section)";
    else if (d == ER_TARGET) {
        int type = s->tiles[g->chars[g->char_].tiles[g->section >> 2].tile][g->section & 3].type;
        if (type != ER_CLOSE_COMBAT && type != ER_SHOOT)
            bad = "a target is chosen only for a Close Combat or Shoot section (state.section)";
    } else if (d == ER_CP || d == ER_AIM) {
        int type = s->tiles[g->chars[g->char_].tiles[g->section >> 2].tile][g->section & 3].type;
        if (type == ER_MOVE)
            bad = "state.section is a Move section";
        else if (type == ER_CLOSE_COMBAT &&
                 (g->target < 0 || g->target > 3 ||
                  !(er_close_combat_targets(g, s, g->char_) >> g->target & 1)))
            bad = "a close combat needs a direction holding an enemy or a closed door "
                  "(state.target)";
        else if (type == ER_SHOOT && (g->target < 0 || g->target >= s->n_chars ||
                                      !s->chars[g->char_].has_weapon))
            bad = "a shot needs an armed shooter and a target character (state.target)";
        else if (type == ER_INTERACT && er_terminal_here(g, s, g->char_) < 0)
            bad = "an Interact order needs a terminal to try under the character";
        else if (type == ER_SEARCH && er_cache_here(g, s, g->char_) < 0)
            bad = "a Search order needs a full cache under the character";
    }
    if (bad) {
        PyErr_Format(PyExc_ValueError, "state: %s", bad);
        return -1;
    }
    return 0;
}

/* The Game that `st` (a GameState) packs to (fast/state_layout.py), every stored value in its
 * range (state_checks.h, generated from the state schema) and consistent. */
static int load_state(GamesObject *self, PyObject *st, Game *g)
{
    PyObject *bytes = PyObject_CallOneArg(PACK, st);
    if (!bytes)
        return -1;
    if (!PyBytes_Check(bytes) || PyBytes_GET_SIZE(bytes) != (Py_ssize_t)sizeof(Game)) {
        PyErr_Format(PyExc_RuntimeError, "state_layout.pack gave %R, not the %zu bytes of a Game",
                     bytes, sizeof(Game));
        Py_DECREF(bytes);
        return -1;
    }
    memcpy(g, PyBytes_AS_STRING(bytes), sizeof(Game));
    Py_DECREF(bytes);
    char why[160];
    if (er_check_Game(g, self->scn, why, sizeof why)) {
        PyErr_SetString(PyExc_ValueError, why);
        return -1;
    }
    return check_consistent(g, self->scn);
}

static PyObject *Games_load(GamesObject *self, PyObject *args)
{
    PyObject *i_obj, *st;
    if (!PyArg_ParseTuple(args, "OO:load", &i_obj, &st))
        return NULL;
    int i = slot(self, i_obj, 0);
    if (i < 0)
        return NULL;
    int is_state = PyObject_IsInstance(st, GameState_type);
    if (is_state < 0)
        return NULL;
    PyObject *scn = is_state ? PyObject_GetAttrString(st, "scenario") : NULL;
    if (is_state && !scn)
        return NULL;
    Py_XDECREF(scn);
    if (!is_state || scn != self->scenario) {
        PyErr_Format(PyExc_ValueError, "slot %d: load() takes a GameState of this Games' scenario",
                     i);
        return NULL;
    }
    Game *tmp = PyMem_Malloc(sizeof(Game));
    if (!tmp)
        return PyErr_NoMemory();
    if (load_state(self, st, tmp) < 0 || in_use(self) < 0) {
        PyMem_Free(tmp);
        return NULL;
    }
    self->games[i] = *tmp;
    self->has_game[i] = 1;
    self->legal_ok[i] = 0;
    PyMem_Free(tmp);
    Py_RETURN_NONE;
}

static PyTypeObject GamesType;

/* copy_slot(i, other, j): slot i := slot j of other, a Games of the same scenario; the Game
 * struct is copied as it is, with no Python object made (a match's deep copy). */
static PyObject *Games_copy_slot(GamesObject *self, PyObject *args)
{
    PyObject *i_obj, *other_obj, *j_obj;
    if (!PyArg_ParseTuple(args, "OOO:copy_slot", &i_obj, &other_obj, &j_obj))
        return NULL;
    int i = slot(self, i_obj, 0);
    if (i < 0)
        return NULL;
    if (!PyObject_TypeCheck(other_obj, &GamesType) ||
        ((GamesObject *)other_obj)->scenario != self->scenario) {
        PyErr_Format(PyExc_ValueError, "slot %d: copy_slot() takes a Games of this Games' "
                                       "scenario, got %R", i, other_obj);
        return NULL;
    }
    GamesObject *other = (GamesObject *)other_obj;
    int j = slot(other, j_obj, 1);
    if (j < 0 || in_use(self) < 0 || in_use(other) < 0)
        return NULL;
    self->games[i] = other->games[j];
    self->has_game[i] = 1;
    self->legal_ok[i] = 0;
    Py_RETURN_NONE;
}

/* A new reference GameState of the game g (fast/state_layout.py's unpack of its bytes). */
static PyObject *dump_state(GamesObject *self, const Game *g)
{
    return PyObject_CallFunction(UNPACK, "Oy#", self->scenario, (const char *)g,
                                 (Py_ssize_t)sizeof(Game));
}

static PyObject *Games_dump(GamesObject *self, PyObject *arg)
{
    int i = slot(self, arg, 1);
    if (i < 0 || in_use(self) < 0)
        return NULL;
    self->busy = 1;
    PyObject *st = dump_state(self, &self->games[i]);
    self->busy = 0;
    return st;
}

static PyObject *Games_legal(GamesObject *self, PyObject *arg)
{
    int i = slot(self, arg, 1);
    if (i < 0 || in_use(self) < 0)
        return NULL;
    ErActs legal;
    er_legal_actions(&self->games[i], self->scn, &legal);
    PyObject *list = PyList_New(legal.n);
    for (int k = 0; list && k < legal.n; k++)
        PyList_SET_ITEM(list, k, PyLong_FromLong(legal.v[k]));
    return list;
}

static void write_mask(const ErActs *legal, int8_t *row, int n_actions)
{
    memset(row, 0, (size_t)n_actions);
    for (int k = 0; k < legal->n; k++)
        row[legal->v[k]] = 1;
}

static PyObject *Games_mask(GamesObject *self, PyObject *args)
{
    PyObject *i_obj, *out;
    if (!PyArg_ParseTuple(args, "OO:mask", &i_obj, &out))
        return NULL;
    int i = slot(self, i_obj, 1);
    Py_buffer view;
    if (i < 0 || rb_array(out, &view, "mask", RB_INT8, 1, self->scn->n_actions, -1, 1) < 0)
        return NULL;
    if (in_use(self) < 0) {
        PyBuffer_Release(&view);
        return NULL;
    }
    ErActs legal;
    er_legal_actions(&self->games[i], self->scn, &legal);
    write_mask(&legal, view.buf, self->scn->n_actions);
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

static PyObject *Games_apply(GamesObject *self, PyObject *args)
{
    PyObject *i_obj, *a_obj;
    if (!PyArg_ParseTuple(args, "OO:apply", &i_obj, &a_obj))
        return NULL;
    int i = slot(self, i_obj, 1);
    long long action;
    if (i < 0 || rb_int(a_obj, INT64_MIN, INT64_MAX, &action, "action") < 0 ||
        in_use(self) < 0)
        return NULL;
    if (action < 0 || action >= self->scn->n_actions)
        Py_RETURN_FALSE;
    if (er_apply_action(&self->games[i], self->scn, (int)action) < 0)
        Py_RETURN_FALSE;
    self->legal_ok[i] = 0;
    Py_RETURN_TRUE;
}

static PyObject *Games_observe(GamesObject *self, PyObject *args)
{
    PyObject *i_obj, *seat_obj, *out;
    if (!PyArg_ParseTuple(args, "OOO:observe", &i_obj, &seat_obj, &out))
        return NULL;
    int i = slot(self, i_obj, 1), seat;
    Py_buffer view;
    if (i < 0 || as_int(seat_obj, 0, 1, &seat, "seat") < 0 ||
        rb_array(out, &view, "obs", RB_FLOAT32, 1, self->scn->obs.size, -1, 1) < 0)
        return NULL;
    if (in_use(self) < 0) {
        PyBuffer_Release(&view);
        return NULL;
    }
    er_observe(&self->games[i], self->scn, seat, view.buf);
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

static PyObject *Games_status(GamesObject *self, PyObject *arg)
{
    int i = slot(self, arg, 1);
    if (i < 0 || in_use(self) < 0)
        return NULL;
    const Game *g = &self->games[i];
    PyObject *winner = g->winner == ER_NO_WINNER ? Py_NewRef(Py_None) : PyLong_FromLong(g->winner);
    return Py_BuildValue("(iiNiii)", g->decider, g->active, winner, g->steps, g->mp[0], g->mp[1]);
}

/* --- Every slot at once ------------------------------------------------------------------ */

#define MIN_SLOTS_PER_THREAD 32
#define MAX_THREADS 64

/* One step's inputs and outputs, shared by the threads (each writes only its slots' rows). */
typedef struct {
    GamesObject *self;
    const int64_t *actions;
    float *obs, *rewards;
    int8_t *mask, *agent;
    uint8_t *terminated, *truncated;
} StepJob;

/* Row i: the observation and mask of the seat to move (ER-ENV-1), and that seat. */
static void write_row(GamesObject *self, int i, float *obs, int8_t *mask, int8_t *agent)
{
    const Scn *s = self->scn;
    Game *g = &self->games[i];
    int seat = g->winner == ER_NO_WINNER ? g->decider : g->active;
    ErActs legal;
    er_observe(g, s, seat, obs + (size_t)i * s->obs.size);
    er_legal_actions(g, s, &legal);
    write_mask(&legal, mask + (size_t)i * s->n_actions, s->n_actions);
    agent[i] = (int8_t)seat;
    uint64_t *bits = self->legal + (size_t)i * LEGAL_WORDS;
    memset(bits, 0, LEGAL_WORDS * sizeof(uint64_t));
    for (int k = 0; k < legal.n; k++)
        bits[legal.v[k] >> 6] |= 1ULL << (legal.v[k] & 63);
    self->legal_ok[i] = 1;
}

/* The action that leaves a slot as it is for one step (VectorEnv.WAIT): a trainer's slot that
 * has all the decisions it needs waits while the others play on. */
#define ER_WAIT (-1)

/* Slot i plays action: rewards (MP shaping per match.py, then ER-WIN-3), flags (ER-ENV-9), a
 * finished game replaced by the slot's next one, its first decision written. */
static void step_slot(GamesObject *self, const StepJob *b, int i, int64_t action)
{
    const Scn *s = self->scn;
    Game *g = &self->games[i];
    int before[2] = {g->mp[0], g->mp[1]};
    er_apply_legal(g, s, (int)action);
    double gained[2] = {(double)(g->mp[0] - before[0]), (double)(g->mp[1] - before[1])};
    double reward[2] = {0.0, 0.0};
    if (self->mp_shaping != 0.0)
        for (int p = 0; p < 2; p++)
            reward[p] = 0.0 + self->mp_shaping * (gained[p] - gained[1 - p]);
    int ended = g->winner != ER_NO_WINNER;
    int cut = !ended && g->steps >= self->max_steps;
    if (ended || cut) {
        if (g->winner == 0 || g->winner == 1) {
            reward[g->winner] += 1.0;
            reward[1 - g->winner] += -1.0;
        } else {
            reward[0] += 0.0;
            reward[1] += 0.0;
        }
        er_new_game(g, s, er_rng_next64(&self->gens[i]));
    }
    write_row(self, i, b->obs, b->mask, b->agent);
    b->rewards[2 * i] = (float)reward[0];
    b->rewards[2 * i + 1] = (float)reward[1];
    b->terminated[i] = (uint8_t)ended;
    b->truncated[i] = (uint8_t)cut;
}

/* Slots lo..hi-1 stepped, each by its action or left as it is by ER_WAIT. */
static void step_slots(void *job, int lo, int hi)
{
    StepJob *b = job;
    for (int i = lo; i < hi; i++) {
        if (b->actions[i] == ER_WAIT) {   /* the slot waits: its game and its rows stay */
            b->rewards[2 * i] = b->rewards[2 * i + 1] = 0.0f;
            b->terminated[i] = b->truncated[i] = 0;
            continue;
        }
        step_slot(b->self, b, i, b->actions[i]);
    }
}

static int get_outputs(GamesObject *self, PyObject *obs, PyObject *mask, PyObject *agent,
                       Py_buffer views[3])
{
    if (rb_array(obs, &views[0], "obs", RB_FLOAT32, 2, self->n, self->scn->obs.size, 1) < 0)
        return -1;
    if (rb_array(mask, &views[1], "mask", RB_INT8, 2, self->n, self->scn->n_actions, 1) < 0) {
        PyBuffer_Release(&views[0]);
        return -1;
    }
    if (rb_array(agent, &views[2], "agent", RB_INT8, 1, self->n, -1, 1) < 0) {
        PyBuffer_Release(&views[0]);
        PyBuffer_Release(&views[1]);
        return -1;
    }
    return 0;
}

static void release(Py_buffer *views, int n)
{
    for (int k = 0; k < n; k++)
        PyBuffer_Release(&views[k]);
}

static PyObject *Games_reset_all(GamesObject *self, PyObject *args)
{
    PyObject *obs, *mask, *agent;
    if (!PyArg_ParseTuple(args, "OOO:reset_all", &obs, &mask, &agent))
        return NULL;
    Py_buffer views[3];
    if (get_outputs(self, obs, mask, agent, views) < 0)
        return NULL;
    if (in_use(self) < 0) {
        release(views, 3);
        return NULL;
    }
    for (int i = 0; i < self->n; i++) {
        er_new_game(&self->games[i], self->scn, er_rng_next64(&self->gens[i]));
        self->has_game[i] = 1;
        write_row(self, i, views[0].buf, views[1].buf, views[2].buf);
    }
    release(views, 3);
    Py_RETURN_NONE;
}

/* The reference's refusal of an illegal action in slot i, raised as IllegalActionError. */
static void raise_illegal(GamesObject *self, int i, int64_t action)
{
    if (!reference_module) {
        reference_module = PyImport_ImportModule("reborn_env.games.earth_reborn.fast.reference");
        PyObject *errors = reference_module ? PyImport_ImportModule("reborn_env.core.errors") : NULL;
        IllegalActionError = errors ? PyObject_GetAttrString(errors, "IllegalActionError") : NULL;
        Py_XDECREF(errors);
        if (!IllegalActionError) {
            Py_CLEAR(reference_module);
            return;
        }
    }
    PyObject *state = dump_state(self, &self->games[i]);
    PyObject *msg = state ? PyObject_CallMethod(reference_module, "illegal_action_message", "OiL",
                                                state, i, (long long)action)
                          : NULL;
    Py_XDECREF(state);
    if (msg) {
        PyErr_SetObject(IllegalActionError, msg);
        Py_DECREF(msg);
    }
}

static PyObject *Games_step(GamesObject *self, PyObject *args)
{
    PyObject *actions, *obs, *mask, *agent, *rewards, *terminated, *truncated;
    PyObject *threads_obj = NULL;
    if (!PyArg_ParseTuple(args, "OOOOOOO|O:step", &actions, &obs, &mask, &agent, &rewards,
                          &terminated, &truncated, &threads_obj))
        return NULL;
    Py_buffer views[7];
    if (rb_array(actions, &views[0], "actions", RB_INT64, 1, self->n, -1, 0) < 0)
        return NULL;
    if (get_outputs(self, obs, mask, agent, views + 1) < 0) {
        release(views, 1);
        return NULL;
    }
    if (rb_array(rewards, &views[4], "rewards", RB_FLOAT32, 2, self->n, 2, 1) < 0) {
        release(views, 4);
        return NULL;
    }
    if (rb_array(terminated, &views[5], "terminated", RB_BOOL, 1, self->n, -1, 1) < 0) {
        release(views, 5);
        return NULL;
    }
    if (rb_array(truncated, &views[6], "truncated", RB_BOOL, 1, self->n, -1, 1) < 0) {
        release(views, 6);
        return NULL;
    }
    int num_threads = 1;
    if (threads_obj && as_int(threads_obj, 1, INT32_MAX, &num_threads, "num_threads") < 0) {
        release(views, 7);
        return NULL;
    }
    if (in_use(self) < 0) {
        release(views, 7);
        return NULL;
    }
    self->busy = 1;   /* raise_illegal runs Python code; the stepping runs without the GIL */
    const int64_t *acts = views[0].buf;
    for (int i = 0; i < self->n; i++)
        if (!self->has_game[i]) {
            PyErr_Format(PyExc_ValueError,
                         "slot %d holds no game yet: call reset_all, new_game or load", i);
            self->busy = 0;
            release(views, 7);
            return NULL;
        }
    ErActs legal;
    for (int i = 0; i < self->n; i++) {   /* ER-ENV-8: every action checked before any is played */
        int ok = acts[i] == ER_WAIT;
        if (acts[i] >= 0 && acts[i] < self->scn->n_actions) {
            if (self->legal_ok[i]) {
                ok = (int)(self->legal[(size_t)i * LEGAL_WORDS + (acts[i] >> 6)] >> (acts[i] & 63) & 1);
            } else {
                er_legal_actions(&self->games[i], self->scn, &legal);
                for (int k = 0; k < legal.n && !ok; k++)
                    ok = legal.v[k] == acts[i];
            }
        }
        if (!ok) {
            raise_illegal(self, i, acts[i]);
            self->busy = 0;
            release(views, 7);
            return NULL;
        }
    }
    /* A thread takes at least MIN_SLOTS_PER_THREAD slots (waking one costs a few decisions),
     * and there are at most MAX_THREADS; the slots are independent, so the results are the
     * same for any split. The GIL is let go when the step is worth it (a thread's share), as
     * getting it back can wait for another Python thread's turn. */
    if (num_threads > self->n / MIN_SLOTS_PER_THREAD)
        num_threads = self->n / MIN_SLOTS_PER_THREAD;
    if (num_threads < 1)
        num_threads = 1;
    if (num_threads > MAX_THREADS)
        num_threads = MAX_THREADS;
    StepJob job = {.self = self,
                   .actions = acts,
                   .obs = views[1].buf,
                   .rewards = views[4].buf,
                   .mask = views[2].buf,
                   .agent = views[3].buf,
                   .terminated = views[5].buf,
                   .truncated = views[6].buf};
    if (self->n < MIN_SLOTS_PER_THREAD) {
        step_slots(&job, 0, self->n);
    } else {
        Py_BEGIN_ALLOW_THREADS
        rb_pool_run(&self->pool, num_threads, self->n, step_slots, &job);
        Py_END_ALLOW_THREADS
    }
    self->busy = 0;
    release(views, 7);
    Py_RETURN_NONE;
}

/* Uniform random legal play for the seats other than one (bots/batched.py's RandomBatch, bit for
 * bit): each decision takes the slot's stream's next SplitMix64 output x and plays the
 * ((x >> 11) * k >> 53)-th of its k legal actions in action order. The episode bookkeeping is
 * the Gym vector's (wrappers/vector.py): the seat's rewards add up until the slot's first game
 * ends, whose flags and move count are kept. */
typedef struct {
    StepJob step;
    int seat;
    uint64_t *streams;
    double *reward;
    uint8_t *ended, *ended_terminated, *ended_truncated;
    int64_t *moves, *moves_at_end;
    int failed;   /* the first slot found without a legal action, -1 if none */
} PlayJob;

/* Slot i's legal actions as bits (write_row's, rebuilt after a load). */
static const uint64_t *legal_bits(GamesObject *self, int i)
{
    uint64_t *bits = self->legal + (size_t)i * LEGAL_WORDS;
    if (!self->legal_ok[i]) {
        ErActs legal;
        er_legal_actions(&self->games[i], self->scn, &legal);
        memset(bits, 0, LEGAL_WORDS * sizeof(uint64_t));
        for (int k = 0; k < legal.n; k++)
            bits[legal.v[k] >> 6] |= 1ULL << (legal.v[k] & 63);
        self->legal_ok[i] = 1;
    }
    return bits;
}

/* Slot i's random legal action from its stream, or -1 (the stream untouched) if it has none. */
static int random_legal(GamesObject *self, int i, uint64_t *stream)
{
    const uint64_t *bits = legal_bits(self, i);
    uint64_t count = 0;
    for (int w = 0; w < LEGAL_WORDS; w++)
        count += (uint64_t)__builtin_popcountll(bits[w]);
    if (!count)
        return -1;
    uint64_t pick = (er_rng_next64(stream) >> 11) * count >> 53;
    for (int w = 0; w < LEGAL_WORDS; w++) {
        uint64_t word = bits[w];
        uint64_t here = (uint64_t)__builtin_popcountll(word);
        if (pick < here) {
            for (; pick; pick--)
                word &= word - 1;
            return w * 64 + __builtin_ctzll(word);
        }
        pick -= here;
    }
    return -1;
}

static void play_slots(void *job, int lo, int hi)
{
    PlayJob *p = job;
    StepJob *b = &p->step;
    for (int i = lo; i < hi; i++) {
        while (b->agent[i] != p->seat) {
            int action = random_legal(b->self, i, &p->streams[i]);
            if (action < 0) {
                int none = -1;
                __atomic_compare_exchange_n(&p->failed, &none, i, 0, __ATOMIC_RELAXED,
                                            __ATOMIC_RELAXED);
                break;
            }
            step_slot(b->self, b, i, action);
            p->moves[i]++;
            if (!p->ended[i]) {
                p->reward[i] += (double)b->rewards[2 * i + p->seat];
                if (b->terminated[i] || b->truncated[i]) {
                    p->moves_at_end[i] = p->moves[i];
                    p->ended_terminated[i] |= b->terminated[i];
                    p->ended_truncated[i] |= b->truncated[i];
                    p->ended[i] = 1;
                }
            }
        }
    }
}

static PyObject *Games_play_random(GamesObject *self, PyObject *args)
{
    int seat, num_threads = 1;
    PyObject *objs[13];
    if (!PyArg_ParseTuple(args, "iOOOOOOOOOOOOO|i:play_random", &seat, &objs[0], &objs[1],
                          &objs[2], &objs[3], &objs[4], &objs[5], &objs[6], &objs[7], &objs[8],
                          &objs[9], &objs[10], &objs[11], &objs[12], &num_threads))
        return NULL;
    static const char *const names[13] = {
        "streams", "obs", "mask", "agent", "rewards", "terminated", "truncated",
        "reward", "ended", "moves", "moves_at_end", "ended_terminated", "ended_truncated"};
    static const int kinds[13] = {RB_UINT64, RB_FLOAT32, RB_INT8,  RB_INT8,  RB_FLOAT32,
                                  RB_BOOL,   RB_BOOL,    RB_FLOAT64, RB_BOOL, RB_INT64,
                                  RB_INT64,  RB_BOOL,    RB_BOOL};
    const Py_ssize_t widths[13] = {-1, self->scn->obs.size, self->scn->n_actions, -1, 2, -1, -1,
                                   -1, -1, -1, -1, -1, -1};
    Py_buffer views[13];
    for (int k = 0; k < 13; k++)
        if (rb_array(objs[k], &views[k], names[k], kinds[k], widths[k] >= 0 ? 2 : 1, self->n,
                     widths[k], 1) < 0) {
            release(views, k);
            return NULL;
        }
    if (seat < 0 || seat > 1 || num_threads < 1) {
        PyErr_Format(PyExc_ValueError, "seat must be 0 or 1 and num_threads at least 1, got %d "
                     "and %d", seat, num_threads);
        release(views, 13);
        return NULL;
    }
    if (in_use(self) < 0) {
        release(views, 13);
        return NULL;
    }
    for (int i = 0; i < self->n; i++)
        if (!self->has_game[i]) {
            PyErr_Format(PyExc_ValueError,
                         "slot %d holds no game yet: call reset_all, new_game or load", i);
            release(views, 13);
            return NULL;
        }
    self->busy = 1;
    PlayJob job = {.step = {.self = self,
                            .actions = NULL,
                            .obs = views[1].buf,
                            .mask = views[2].buf,
                            .agent = views[3].buf,
                            .rewards = views[4].buf,
                            .terminated = views[5].buf,
                            .truncated = views[6].buf},
                   .seat = seat,
                   .streams = views[0].buf,
                   .reward = views[7].buf,
                   .ended = views[8].buf,
                   .moves = views[9].buf,
                   .moves_at_end = views[10].buf,
                   .ended_terminated = views[11].buf,
                   .ended_truncated = views[12].buf,
                   .failed = -1};
    if (num_threads > self->n / MIN_SLOTS_PER_THREAD)
        num_threads = self->n / MIN_SLOTS_PER_THREAD;
    if (num_threads < 1)
        num_threads = 1;
    if (num_threads > MAX_THREADS)
        num_threads = MAX_THREADS;
    if (self->n < MIN_SLOTS_PER_THREAD) {
        play_slots(&job, 0, self->n);
    } else {
        Py_BEGIN_ALLOW_THREADS
        rb_pool_run(&self->pool, num_threads, self->n, play_slots, &job);
        Py_END_ALLOW_THREADS
    }
    self->busy = 0;
    release(views, 13);
    if (job.failed >= 0) {
        PyErr_Format(PyExc_ValueError, "slot %d: the action mask has no legal action", job.failed);
        return NULL;
    }
    Py_RETURN_NONE;
}

/* --- The type and the module -------------------------------------------------------------- */

static PyObject *Games_get_n(GamesObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(self->n);
}

static PyObject *Games_get_n_actions(GamesObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(self->scn->n_actions);
}

static PyObject *Games_get_obs_size(GamesObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(self->scn->obs.size);
}

static PyGetSetDef Games_getset[] = {
    {"n", (getter)Games_get_n, NULL, "number of game slots", NULL},
    {"n_actions", (getter)Games_get_n_actions, NULL, "size of the action space", NULL},
    {"obs_size", (getter)Games_get_obs_size, NULL, "floats of one observation", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyMethodDef Games_methods[] = {
    {"new_game", (PyCFunction)Games_new_game, METH_VARARGS,
     "new_game(i, seed): slot i := engine.new_game(scenario, seed)"},
    {"seed_state", (PyCFunction)Games_seed_state, METH_O,
     "seed_state(i) -> slot i's seed generator state (SplitMix64)"},
    {"set_seed_state", (PyCFunction)Games_set_seed_state, METH_VARARGS,
     "set_seed_state(i, state): slot i's seed generator state := state"},
    {"load", (PyCFunction)Games_load, METH_VARARGS,
     "load(i, state): slot i := a copy of a reference GameState"},
    {"dump", (PyCFunction)Games_dump, METH_O, "dump(i) -> a new reference GameState of slot i"},
    {"copy_slot", (PyCFunction)Games_copy_slot, METH_VARARGS,
     "copy_slot(i, other, j): slot i := a copy of slot j of other, a Games of this scenario"},
    {"legal", (PyCFunction)Games_legal, METH_O, "legal(i) -> the sorted legal actions"},
    {"mask", (PyCFunction)Games_mask, METH_VARARGS, "mask(i, out): out[a] = 1 if a is legal"},
    {"apply", (PyCFunction)Games_apply, METH_VARARGS,
     "apply(i, action) -> bool: False (nothing changed) if the action is not legal"},
    {"observe", (PyCFunction)Games_observe, METH_VARARGS,
     "observe(i, seat, out): Observer.observe(slot i, seat) into out"},
    {"status", (PyCFunction)Games_status, METH_O,
     "status(i) -> (decider, active, winner, steps, mp0, mp1)"},
    {"reset_all", (PyCFunction)Games_reset_all, METH_VARARGS,
     "reset_all(obs, mask, agent): a new game in every slot, first decisions written"},
    {"step", (PyCFunction)Games_step, METH_VARARGS,
     "step(actions, obs, mask, agent, rewards, terminated, truncated, num_threads=1); -1: wait"},
    {"play_random", (PyCFunction)Games_play_random, METH_VARARGS,
     "play_random(seat, streams, obs, mask, agent, rewards, terminated, truncated, reward, ended, "
     "moves, moves_at_end, ended_terminated, ended_truncated, num_threads=1): random legal "
     "play for the other seats until seat is to move in every slot"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject GamesType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "reborn_env.games.earth_reborn.fast._core.Games",
    .tp_basicsize = sizeof(GamesObject),
    .tp_dealloc = (destructor)Games_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Games(scenario, codec, layout, n, max_steps, mp_shaping, seed): n Earth Reborn "
              "game slots of the compiled core",
    .tp_methods = Games_methods,
    .tp_getset = Games_getset,
    .tp_new = Games_new,
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "_core",
    "The compiled Earth Reborn core: Games, n game slots stepped in C.", -1, NULL,
    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__core(void)
{
    if (PyType_Ready(&GamesType) < 0 || PyType_Ready(&ErHeuristicType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (!m)
        return NULL;
    if (PyModule_AddObjectRef(m, "Games", (PyObject *)&GamesType) < 0 ||
        PyModule_AddObjectRef(m, "Heuristic", (PyObject *)&ErHeuristicType) < 0 ||
        PyModule_AddIntConstant(m, "GAME_BYTES", (long)sizeof(Game)) < 0 ||
        PyModule_AddIntConstant(m, "MAX_CHARS", ER_MAX_CHARS) < 0 ||
        PyModule_AddIntConstant(m, "MAX_TILES", ER_MAX_TILES) < 0 ||
        PyModule_AddIntConstant(m, "MAX_SQUARES", ER_MAX_SQUARES) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
