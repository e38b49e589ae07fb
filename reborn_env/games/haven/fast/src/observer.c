/* The compiled twin of haven's observation encoder: observation.Observer.observe (16.5) in C.
 *
 * The layout is defined once, in Python: the constructor takes a dict of the offsets, feature
 * indices, per-seat blank vectors and name -> index tables that the Python Observer computes
 * (fast/observer.py: core_spec), and keeps copies of them. observe_into(game, me, out) reads
 * game.state, game.prompt and game.config through the C API and writes the same entries as the
 * Python, in the same order (so that a later write wins exactly as in the Python's one fancy
 * assignment), each value computed in double as the Python does and then cast to float.
 *
 * A bad state is a Python exception, never a write out of bounds: a name the tables lack is a
 * KeyError naming it (as in the Python), every entry written is checked against the vector, and
 * a cell, element or slot entity out of its range is a ValueError (where the Python would write
 * into a neighbouring block). The entries are collected as (index, value) pairs and written over
 * a copy of the blank vector in `out` only once all are computed, so `out` is untouched whenever
 * an exception is raised.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stddef.h>
#include <string.h>

#include "rb_binding.h"
#include "observer.h"

#define MAX_MODIFIER_NAMES 256 /* distinct modifier card names (counted on the stack) */
#define STACK_ENTRIES 512      /* entries collected on the stack before they spill to the heap */
#define N_CHAR_SCALARS 16      /* observation.CHAR_SCALARS */

/* --- Attribute names, interned once --------------------------------------------------------- */

#define NAMES(X)                                                                               \
    X(state) X(elements) X(coins) X(round) X(sequence) X(slot) X(win_met)                      \
    X(pending_infusions) X(cell) X(exhausted) X(hp) X(max_hp) X(shield) X(retaliate)           \
    X(conditions) X(acted) X(summon) X(owner) X(number) X(type) X(standee) X(kind) X(index)    \
    X(initiative) X(current) X(discard) X(draw) X(shuffle_due) X(lead) X(second) X(played)     \
    X(hand) X(lost) X(round_bonus) X(persistent) X(gold) X(long_rest) X(sits_out)              \
    X(revealed) X(agent) X(card) X(half) X(ability) X(value) X(element) X(targets)             \
    X(rest_card)

#define DECLARE(n) PyObject *n;
static struct {
    NAMES(DECLARE)
} S;
#undef DECLARE

static int intern_names(void)
{
    if (S.state)
        return 0;
#define INTERN(n)                                                                              \
    if (!(S.n = PyUnicode_InternFromString(#n)))                                               \
        return -1;
    NAMES(INTERN)
#undef INTERN
    return 0;
}

/* --- Name tables ----------------------------------------------------------------------------- */

/* A name -> index table of the spec: its dict (copied) and, where every key is a str, the keys
 * again in an open-addressing array by hash. A str name is looked up in the array (by address
 * first: the state's names are mostly the very objects of the scenario's tables), which finds
 * what the dict would, without its generic lookup; any other name asks the dict. */
typedef struct {
    PyObject *key; /* borrowed from the dict; NULL: an empty slot */
    Py_hash_t hash;
    Py_ssize_t index;
} TableSlot;

typedef struct {
    PyObject *dict;
    TableSlot *slots; /* mask + 1 of them, four per key or more; NULL: the dict alone */
    size_t mask;
} Table;

static void table_clear(Table *t)
{
    Py_CLEAR(t->dict);
    PyMem_Free(t->slots);
    t->slots = NULL;
}

/* --- The observer --------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    Py_ssize_t size;    /* floats in an observation */
    Py_ssize_t n_seats; /* characters (blank vectors) */
    float *blank;       /* n_seats x size: my agent one-hot and the terrain */
    Py_ssize_t *character_kind; /* n_seats feature indices */
    Py_ssize_t char_scalars[N_CHAR_SCALARS];
    /* Offsets and sizes (spec keys of the same names, see INT_FIELDS). */
    Py_ssize_t n_cells, board, n_features, feature_floor, feature_trap, feature_coins,
        feature_treasure, feature_mine, feature_elite, feature_number, feature_hp,
        feature_max_hp, feature_shield, feature_retaliate, feature_acted, type_kind,
        card_slots, round, round_round, round_phase, round_outcome, round_win_met, elements,
        n_elements, n_element_states, pending_infusions, sequence, slot_width, max_slots,
        slot_entity, slot_initiative, slot_done, n_slot_entities, n_entities, monster_decks,
        deck_width, deck_current, deck_discard, deck_draw, deck_size, monster_modifiers,
        modifier_draw, modifier_discard, modifier_shuffle, n_modifier_names, me, other,
        char_conditions, char_hand, char_lead, char_second, char_played, char_discard,
        char_lost, char_active, char_items, char_modifiers, n_item_states, max_items, prompt,
        prompt_kind, prompt_whose, prompt_card, prompt_half, prompt_ability, prompt_value,
        prompt_element, prompt_targets, prompt_rest_card;
    /* Scales (DOUBLE_FIELDS). */
    double hp_scale, coin_scale, number_scale, bonus_scale, gold_scale, initiative_scale,
        value_scale, revealed_scale, round_cap, modifier_total;
    /* Name -> index tables (TABLE_FIELDS), the ability cards' per monster type, and names
     * compared with (str). */
    Table summon_kind, cell_condition, phase_index, outcome_index, modifier_index, cond_index,
        item_index, prompt_index, ability_index;
    Py_ssize_t n_types; /* monster types */
    Table *card_index;  /* n_types: ability card id -> index */
    PyObject *monster_bonus;  /* tuple of n_types dicts: rank -> (shield, retaliate) */
    PyObject *game_fields;      /* game_fields(game): its fields, see GAME_FIELDS */
    PyObject *character_fields; /* character_fields(ch): a seat's fields, see seat_figure */
    PyObject *elite, *select, *character_slot, *summon_slot, *select_lead, *select_second;
} Observer;

#define INT_FIELD(n) {#n, offsetof(Observer, n)},
static const struct {
    const char *key;
    size_t at;
} INT_FIELDS[] = {
    INT_FIELD(size) INT_FIELD(n_cells) INT_FIELD(board) INT_FIELD(n_features)
    INT_FIELD(feature_floor) INT_FIELD(feature_coins) INT_FIELD(feature_treasure)
    INT_FIELD(feature_mine) INT_FIELD(feature_elite) INT_FIELD(feature_number)
    INT_FIELD(feature_hp) INT_FIELD(feature_max_hp) INT_FIELD(feature_shield)
    INT_FIELD(feature_retaliate) INT_FIELD(feature_acted) INT_FIELD(type_kind)
    INT_FIELD(card_slots) INT_FIELD(round) INT_FIELD(round_round) INT_FIELD(round_phase)
    INT_FIELD(round_outcome) INT_FIELD(round_win_met) INT_FIELD(elements) INT_FIELD(n_elements)
    INT_FIELD(n_element_states) INT_FIELD(pending_infusions) INT_FIELD(sequence)
    INT_FIELD(slot_width) INT_FIELD(max_slots) INT_FIELD(slot_entity) INT_FIELD(slot_initiative)
    INT_FIELD(slot_done) INT_FIELD(n_slot_entities) INT_FIELD(n_entities)
    INT_FIELD(monster_decks) INT_FIELD(deck_width) INT_FIELD(deck_current)
    INT_FIELD(deck_discard) INT_FIELD(deck_draw) INT_FIELD(deck_size)
    INT_FIELD(monster_modifiers) INT_FIELD(modifier_draw) INT_FIELD(modifier_discard)
    INT_FIELD(modifier_shuffle) INT_FIELD(n_modifier_names) INT_FIELD(me) INT_FIELD(other)
    INT_FIELD(char_conditions) INT_FIELD(char_hand) INT_FIELD(char_lead) INT_FIELD(char_second)
    INT_FIELD(char_played) INT_FIELD(char_discard) INT_FIELD(char_lost) INT_FIELD(char_active)
    INT_FIELD(char_items) INT_FIELD(char_modifiers) INT_FIELD(n_item_states)
    INT_FIELD(max_items) INT_FIELD(prompt) INT_FIELD(prompt_kind) INT_FIELD(prompt_whose)
    INT_FIELD(prompt_card) INT_FIELD(prompt_half) INT_FIELD(prompt_ability)
    INT_FIELD(prompt_value) INT_FIELD(prompt_element) INT_FIELD(prompt_targets)
    INT_FIELD(prompt_rest_card)
};
#undef INT_FIELD

#define DOUBLE_FIELD(n) {#n, offsetof(Observer, n)},
static const struct {
    const char *key;
    size_t at;
} DOUBLE_FIELDS[] = {
    DOUBLE_FIELD(hp_scale) DOUBLE_FIELD(coin_scale) DOUBLE_FIELD(number_scale)
    DOUBLE_FIELD(bonus_scale) DOUBLE_FIELD(gold_scale) DOUBLE_FIELD(initiative_scale)
    DOUBLE_FIELD(value_scale) DOUBLE_FIELD(revealed_scale) DOUBLE_FIELD(round_cap)
    DOUBLE_FIELD(modifier_total)
};
#undef DOUBLE_FIELD

#define TABLE_FIELD(n) {#n, offsetof(Observer, n)},
static const struct {
    const char *key;
    size_t at;
} TABLE_FIELDS[] = {
    TABLE_FIELD(summon_kind) TABLE_FIELD(cell_condition) TABLE_FIELD(phase_index)
    TABLE_FIELD(outcome_index) TABLE_FIELD(modifier_index) TABLE_FIELD(cond_index)
    TABLE_FIELD(item_index) TABLE_FIELD(prompt_index) TABLE_FIELD(ability_index)
};
#undef TABLE_FIELD

#define STR_FIELD(n) {#n, offsetof(Observer, n)},
static const struct {
    const char *key;
    size_t at;
} STR_FIELDS[] = {
    STR_FIELD(elite) STR_FIELD(select) STR_FIELD(character_slot) STR_FIELD(summon_slot)
    STR_FIELD(select_lead) STR_FIELD(select_second)
};
#undef STR_FIELD

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define AT(o, type, at) ((type *)((char *)(o) + (at)))

static void observer_dealloc(Observer *o)
{
    PyMem_Free(o->blank);
    PyMem_Free(o->character_kind);
    for (size_t k = 0; k < COUNT(TABLE_FIELDS); k++)
        table_clear(AT(o, Table, TABLE_FIELDS[k].at));
    for (size_t k = 0; k < COUNT(STR_FIELDS); k++)
        Py_XDECREF(*AT(o, PyObject *, STR_FIELDS[k].at));
    Py_XDECREF(o->monster_bonus);
    Py_XDECREF(o->game_fields);
    Py_XDECREF(o->character_fields);
    for (Py_ssize_t t = 0; o->card_index && t < o->n_types; t++)
        table_clear(&o->card_index[t]);
    PyMem_Free(o->card_index);
    Py_TYPE(o)->tp_free((PyObject *)o);
}

/* --- Readers of Python values ---------------------------------------------------------------- */

/* An int (or any integer, e.g. numpy's, by __index__) as a long long; one too large saturates
 * (every caller checks a range). */
static int as_ll(PyObject *v, long long *out, PyObject *name)
{
    PyObject *index = NULL;
    if (!PyLong_Check(v)) {
        if (!PyIndex_Check(v) || !(index = PyNumber_Index(v))) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "haven observer: %U must be an int, not %.100s", name,
                         Py_TYPE(v)->tp_name);
            return -1;
        }
        v = index;
    }
    int overflow;
    *out = PyLong_AsLongLongAndOverflow(v, &overflow);
    Py_XDECREF(index);
    if (overflow)
        *out = overflow > 0 ? LLONG_MAX : LLONG_MIN;
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

static int attr_ll(PyObject *obj, PyObject *name, long long *out)
{
    PyObject *v = PyObject_GetAttr(obj, name);
    if (!v)
        return -1;
    int r = as_ll(v, out, name);
    Py_DECREF(v);
    return r;
}

/* float(v): what the Python's arithmetic makes of an int (or a float, or a bool). */
static int as_double(PyObject *v, double *out, PyObject *name)
{
    if (PyLong_Check(v)) { /* int(v) -> double as int / float does, without a float object */
        *out = PyLong_AsDouble(v);
        return *out == -1.0 && PyErr_Occurred() ? -1 : 0;
    }
    *out = PyFloat_AsDouble(v);
    if (*out == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "haven observer: %U must be a number, not %.100s", name,
                     Py_TYPE(v)->tp_name);
        return -1;
    }
    return 0;
}

static int attr_double(PyObject *obj, PyObject *name, double *out)
{
    PyObject *v = PyObject_GetAttr(obj, name);
    if (!v)
        return -1;
    int r = as_double(v, out, name);
    Py_DECREF(v);
    return r;
}

/* obj.name as a list or tuple (new reference), or NULL. */
static PyObject *attr_seq(PyObject *obj, PyObject *name)
{
    PyObject *v = PyObject_GetAttr(obj, name);
    if (!v)
        return NULL;
    PyObject *seq = PySequence_Fast(v, "haven observer: a list was expected");
    Py_DECREF(v);
    return seq;
}

/* len(obj.name), or -1. */
static Py_ssize_t attr_len(PyObject *obj, PyObject *name)
{
    PyObject *v = PyObject_GetAttr(obj, name);
    if (!v)
        return -1;
    Py_ssize_t n = PyObject_Size(v);
    Py_DECREF(v);
    return n;
}

/* table[key] where the key is not a str, or the table's keys are not all str: the dict's. */
static int dict_get(const Table *t, PyObject *key, Py_ssize_t *out)
{
    PyObject *v = PyDict_GetItemWithError(t->dict, key);
    if (!v)
        return PyErr_Occurred() ? -1 : 0;
    *out = PyLong_AsSsize_t(v);
    return *out == -1 && PyErr_Occurred() ? -1 : 1;
}

/* table[key]: 1 with its index in *out, 0 where the table lacks the key, -1 on an error. A str
 * the slots lack is not in the dict either: its keys are all str, and a str equals a str only
 * by its text. */
static inline int table_get(const Table *t, PyObject *key, Py_ssize_t *out)
{
    if (!t->slots || !PyUnicode_CheckExact(key))
        return dict_get(t, key, out);
    Py_hash_t hash = ((PyASCIIObject *)key)->hash; /* cached in the str, -1 until computed */
    if (hash == -1 && (hash = PyObject_Hash(key)) == -1)
        return -1;
    for (size_t k = (size_t)hash & t->mask; t->slots[k].key; k = (k + 1) & t->mask) {
        const TableSlot *slot = &t->slots[k];
        if (slot->key == key || (slot->hash == hash && PyUnicode_Compare(slot->key, key) == 0)) {
            *out = slot->index;
            return 1;
        }
    }
    return 0;
}

/* table[key] as an index: KeyError naming the key (and what it is) when the table lacks it. */
static int lookup(const Table *t, PyObject *key, const char *what, Py_ssize_t *out)
{
    int found = table_get(t, key, out);
    if (found == 0)
        PyErr_Format(PyExc_KeyError, "haven observer: unknown %s %R", what, key);
    return found == 1 ? 0 : -1;
}

static int equal(PyObject *a, PyObject *b)
{
    return a == b ? 1 : PyObject_RichCompareBool(a, b, Py_EQ);
}

static double clip1(double x) /* min(x, 1.0) */
{
    return 1.0 < x ? 1.0 : x;
}

static double floor0(double x) /* max(x, 0) */
{
    return 0.0 > x ? 0.0 : x;
}

/* --- Writing entries ------------------------------------------------------------------------- */

/* The entries of one observation in the order the Python writes them (a later one wins), kept
 * on the caller's stack until there are more than STACK_ENTRIES, then in a heap block that
 * doubles; each call has its own, so a call made from inside another spoils neither. */
typedef struct {
    Py_ssize_t at;
    float x;
} Entry;

typedef struct {
    Entry *e;        /* stack, or heap once spilled */
    Py_ssize_t n;    /* entries collected */
    Py_ssize_t cap;  /* room in e */
    Py_ssize_t size; /* floats in the observation */
    int heap;        /* e is PyMem's */
} Out;

/* put's slow way: an entry outside the vector is an IndexError; one more than there is room for
 * moves the entries to a heap block twice the size. */
static int put_spill(Out *out, Py_ssize_t i, double x)
{
    if (i < 0 || i >= out->size) {
        PyErr_Format(PyExc_IndexError,
                     "haven observer: entry %zd is outside the observation (%zd floats)", i,
                     out->size);
        return -1;
    }
    Entry *e = PyMem_Malloc(sizeof(Entry) * (size_t)out->cap * 2);
    if (!e) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(e, out->e, sizeof(Entry) * (size_t)out->n);
    if (out->heap)
        PyMem_Free(out->e);
    out->e = e;
    out->cap *= 2;
    out->heap = 1;
    out->e[out->n++] = (Entry){i, (float)x};
    return 0;
}

/* Entry i of the vector is x (in float, as numpy's assignment makes it). */
static inline int put(Out *out, Py_ssize_t i, double x)
{
    if ((size_t)i >= (size_t)out->size || out->n == out->cap)
        return put_spill(out, i, x);
    out->e[out->n++] = (Entry){i, (float)x};
    return 0;
}

static int check_range(long long v, Py_ssize_t n, const char *what)
{
    if (v < 0 || v >= n) {
        PyErr_Format(PyExc_ValueError, "haven observer: %s %lld is out of range 0..%zd", what, v,
                     n - 1);
        return -1;
    }
    return 0;
}

/* --- Blocks (each the Python method of the same name) ---------------------------------------- */

/* _figure_row: HP, bonuses and conditions (a list or tuple) of a figure in its cell's features
 * from `row`. */
static int figure_row(Observer *o, Out *out, Py_ssize_t row, double hp, double max_hp,
                      double shield, double retaliate, PyObject *conds)
{
    if (put(out, row + o->feature_hp, clip1(floor0(hp) / o->hp_scale)) ||
        put(out, row + o->feature_max_hp, clip1(max_hp / o->hp_scale)) ||
        put(out, row + o->feature_shield, clip1(shield / o->bonus_scale)) ||
        put(out, row + o->feature_retaliate, clip1(retaliate / o->bonus_scale)))
        return -1;
    for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(conds); k++) {
        Py_ssize_t f;
        if (lookup(&o->cell_condition, PySequence_Fast_GET_ITEM(conds, k), "condition", &f) ||
            put(out, row + f, 1.0))
            return -1;
    }
    return 0;
}

/* figure_row with the figure's own conditions (a summon's or a monster's). */
static int attr_figure_row(Observer *o, Out *out, Py_ssize_t row, PyObject *fig, double hp,
                           double max_hp, double shield, double retaliate)
{
    PyObject *conds = attr_seq(fig, S.conditions);
    if (!conds)
        return -1;
    int r = figure_row(o, out, row, hp, max_hp, shield, retaliate, conds);
    Py_DECREF(conds);
    return r;
}

/* A figure's cell as the start of its row of board features. */
static int figure_cell(Observer *o, PyObject *cell_obj, Py_ssize_t *row)
{
    long long cell;
    if (as_ll(cell_obj, &cell, S.cell) || check_range(cell, o->n_cells, "cell"))
        return -1;
    *row = o->board + (Py_ssize_t)cell * o->n_features;
    return 0;
}

static int attr_row(Observer *o, PyObject *fig, Py_ssize_t *row)
{
    PyObject *cell = PyObject_GetAttr(fig, S.cell);
    if (!cell)
        return -1;
    int r = figure_cell(o, cell, row);
    Py_DECREF(cell);
    return r;
}

/* Run the statements that follow `item` for each item of a list or tuple `seq` (the statements
 * are the variadic arguments, so that their commas need no parentheses). */
#define FOR_EACH(seq, item, ...)                                                               \
    for (Py_ssize_t k_ = 0; k_ < PySequence_Fast_GET_SIZE(seq); k_++) {                        \
        PyObject *item = PySequence_Fast_GET_ITEM(seq, k_);                                    \
        __VA_ARGS__                                                                            \
    }

/* A seat's character fields, in the order of fast/observer.py's CHARACTER_FIELDS (the card
 * zones HAND..PERSISTENT of character_zones follow C_HAND in their order). */
enum {
    C_CELL, C_EXHAUSTED, C_HP, C_MAX_HP, C_SHIELD, C_RETALIATE, C_ACTED, C_CONDITIONS, C_HAND,
    C_PLAYED, C_DISCARD, C_LOST, C_ROUND_BONUS, C_PERSISTENT, C_REVEALED, C_LONG_REST, C_GOLD,
    C_SITS_OUT, C_ITEMS, C_AMD_DRAW, C_AMD_DISCARD, C_AMD_SHUFFLE, N_CHARACTER_FIELDS
};

/* What the board and a character's own block both read of a character: its cell (None once
 * exhausted, HV-EXH-3), exhausted, HP, max HP, round bonuses, acted and conditions; for a seat
 * observed, also the tuple of all its CHARACTER_FIELDS. */
typedef struct {
    PyObject *fields;     /* a seat's: the tuple character_fields gave, new reference */
    PyObject *cell;       /* new reference */
    PyObject *conditions; /* a list or tuple, new reference; NULL where not read */
    int exhausted;        /* bool(ch.exhausted) */
    int on_map;           /* cell is not None and not exhausted */
    double exhausted_value, hp, max_hp, shield, retaliate, acted;
} CharFigure;

/* The CharFigure of a seat observed (me or the other), whose block reads it all: its fields
 * read by the spec's character_fields, a Python function (see board_monsters). */
static int seat_figure(Observer *o, PyObject *ch, CharFigure *f)
{
    PyObject *v = f->fields = PyObject_CallOneArg(o->character_fields, ch);
    if (!v)
        return -1;
    if (!PyTuple_Check(v) || PyTuple_GET_SIZE(v) != N_CHARACTER_FIELDS) {
        PyErr_Format(PyExc_TypeError,
                     "haven observer: character_fields must return a %d-tuple",
                     N_CHARACTER_FIELDS);
        return -1;
    }
    PyObject *ex = PyTuple_GET_ITEM(v, C_EXHAUSTED);
    f->cell = Py_NewRef(PyTuple_GET_ITEM(v, C_CELL));
    f->exhausted = PyObject_IsTrue(ex);
    if (f->exhausted < 0 || as_double(ex, &f->exhausted_value, S.exhausted))
        return -1;
    f->on_map = f->cell != Py_None && !f->exhausted;
    if (as_double(PyTuple_GET_ITEM(v, C_HP), &f->hp, S.hp) ||
        as_double(PyTuple_GET_ITEM(v, C_MAX_HP), &f->max_hp, S.max_hp) ||
        as_double(PyTuple_GET_ITEM(v, C_SHIELD), &f->shield, S.shield) ||
        as_double(PyTuple_GET_ITEM(v, C_RETALIATE), &f->retaliate, S.retaliate) ||
        as_double(PyTuple_GET_ITEM(v, C_ACTED), &f->acted, S.acted))
        return -1;
    f->conditions =
        PySequence_Fast(PyTuple_GET_ITEM(v, C_CONDITIONS), "haven observer: a list was expected");
    return f->conditions ? 0 : -1;
}

/* The CharFigure of a character beyond the seats observed: only what the board reads (nothing
 * past cell and exhausted off the map, as the Python). */
static int read_char_figure(PyObject *ch, CharFigure *f)
{
    if (!(f->cell = PyObject_GetAttr(ch, S.cell)))
        return -1;
    if (f->cell == Py_None)
        return 0;
    PyObject *ex = PyObject_GetAttr(ch, S.exhausted);
    if (!ex)
        return -1;
    f->exhausted = PyObject_IsTrue(ex);
    Py_DECREF(ex);
    if (f->exhausted < 0)
        return -1;
    f->on_map = !f->exhausted;
    if (!f->on_map)
        return 0;
    if (attr_double(ch, S.hp, &f->hp) || attr_double(ch, S.max_hp, &f->max_hp) ||
        attr_double(ch, S.shield, &f->shield) || attr_double(ch, S.retaliate, &f->retaliate) ||
        attr_double(ch, S.acted, &f->acted))
        return -1;
    f->conditions = attr_seq(ch, S.conditions);
    return f->conditions ? 0 : -1;
}

static void release_char_figure(CharFigure *f)
{
    Py_CLEAR(f->fields);
    Py_CLEAR(f->cell);
    Py_CLEAR(f->conditions);
}

/* Character c on the board (where it stands on the map). */
static int board_character(Observer *o, Out *out, Py_ssize_t c, long long me,
                           const CharFigure *f)
{
    Py_ssize_t row;
    if (!f->on_map)
        return 0;
    if (figure_cell(o, f->cell, &row))
        return -1;
    if (c >= o->n_seats) {
        PyErr_Format(PyExc_IndexError, "haven observer: state.characters has more than %zd",
                     o->n_seats);
        return -1;
    }
    return put(out, row + o->character_kind[c], 1.0) ||
                   put(out, row + o->feature_mine, c == me ? 1.0 : 0.0) ||
                   figure_row(o, out, row, f->hp, f->max_hp, f->shield, f->retaliate,
                              f->conditions) ||
                   put(out, row + o->feature_acted, f->acted)
               ? -1
               : 0;
}

/* The characters on the board: `seats` are the figures of me and the other, read already. */
static int board_characters(Observer *o, Out *out, PyObject *chars, long long me,
                            const CharFigure *seats)
{
    for (Py_ssize_t c = 0; c < PySequence_Fast_GET_SIZE(chars); c++) {
        if (c == me || c == 1 - me) {
            if (board_character(o, out, c, me, &seats[c == me ? 0 : 1]))
                return -1;
            continue;
        }
        CharFigure f = {0};
        int r = read_char_figure(PySequence_Fast_GET_ITEM(chars, c), &f) ||
                board_character(o, out, c, me, &f);
        release_char_figure(&f);
        if (r)
            return -1;
    }
    return 0;
}

static int board_summons(Observer *o, Out *out, PyObject *summons, long long me)
{
    FOR_EACH(summons, s, {
        Py_ssize_t row, kind;
        long long owner;
        double number, hp, max_hp, acted;
        PyObject *id = PyObject_GetAttr(s, S.summon);
        if (!id)
            return -1;
        int bad = lookup(&o->summon_kind, id, "summon", &kind);
        Py_DECREF(id);
        if (bad || attr_row(o, s, &row) || attr_ll(s, S.owner, &owner) ||
            attr_double(s, S.number, &number) || put(out, row + kind, 1.0) ||
            put(out, row + o->feature_mine, owner == me ? 1.0 : 0.0) ||
            put(out, row + o->feature_number, clip1(number / o->number_scale)) ||
            attr_double(s, S.hp, &hp) || attr_double(s, S.max_hp, &max_hp) ||
            attr_figure_row(o, out, row, s, hp, max_hp, 0.0, 0.0) ||
            attr_double(s, S.acted, &acted) || put(out, row + o->feature_acted, acted))
            return -1;
    })
    return 0;
}

/* self.monster_bonus[m.type, m.rank]: the type's printed shield and retaliate of that rank. */
static int monster_bonus(Observer *o, PyObject *type_obj, long long type, PyObject *rank,
                         double *shield, double *retaliate)
{
    PyObject *pair = NULL;
    if (type >= 0 && type < PyTuple_GET_SIZE(o->monster_bonus)) {
        pair = PyDict_GetItemWithError(PyTuple_GET_ITEM(o->monster_bonus, type), rank);
        if (!pair && PyErr_Occurred())
            return -1;
    }
    if (!pair) {
        PyErr_Format(PyExc_KeyError, "haven observer: unknown monster (type, rank) (%R, %R)",
                     type_obj, rank);
        return -1;
    }
    return as_double(PyTuple_GET_ITEM(pair, 0), shield, S.shield) ||
                   as_double(PyTuple_GET_ITEM(pair, 1), retaliate, S.retaliate)
               ? -1
               : 0;
}

/* A monster's fields, in the order of fast/observer.py's MONSTER_FIELDS. */
enum {
    M_TYPE, M_RANK, M_CELL, M_STANDEE, M_HP, M_MAX_HP, M_SHIELD, M_RETALIATE, M_CONDITIONS,
    M_ACTED, N_MONSTER_FIELDS
};

/* One monster on the board, from the tuple of its fields. */
static int board_monster(Observer *o, Out *out, PyObject *m)
{
    Py_ssize_t row;
    long long type;
    double standee, hp, max_hp, shield, retaliate, bonus_s = 0.0, bonus_r = 0.0, acted;
    PyObject *type_obj = PyTuple_GET_ITEM(m, M_TYPE), *rank = PyTuple_GET_ITEM(m, M_RANK);
    int elite = -1;
    if (as_ll(type_obj, &type, S.type) ||
        monster_bonus(o, type_obj, type, rank, &bonus_s, &bonus_r) ||
        (elite = equal(rank, o->elite)) < 0 || figure_cell(o, PyTuple_GET_ITEM(m, M_CELL), &row) ||
        as_double(PyTuple_GET_ITEM(m, M_STANDEE), &standee, S.standee) ||
        put(out, row + o->type_kind + (Py_ssize_t)type, 1.0) ||
        put(out, row + o->feature_elite, elite ? 1.0 : 0.0) ||
        put(out, row + o->feature_number, clip1(standee / o->number_scale)) ||
        as_double(PyTuple_GET_ITEM(m, M_HP), &hp, S.hp) ||
        as_double(PyTuple_GET_ITEM(m, M_MAX_HP), &max_hp, S.max_hp) ||
        as_double(PyTuple_GET_ITEM(m, M_SHIELD), &shield, S.shield) ||
        as_double(PyTuple_GET_ITEM(m, M_RETALIATE), &retaliate, S.retaliate))
        return -1;
    PyObject *conds = PySequence_Fast(PyTuple_GET_ITEM(m, M_CONDITIONS),
                                      "haven observer: a list was expected");
    if (!conds)
        return -1;
    int r = figure_row(o, out, row, hp, max_hp, bonus_s + shield, bonus_r + retaliate, conds);
    Py_DECREF(conds);
    return r || as_double(PyTuple_GET_ITEM(m, M_ACTED), &acted, S.acted) ||
                   put(out, row + o->feature_acted, acted)
               ? -1
               : 0;
}

/* `rows`, what a spec function `what` returned: a list of tuples of n fields each? */
static int check_rows(PyObject *rows, Py_ssize_t n, const char *what)
{
    int ok = PyList_Check(rows);
    for (Py_ssize_t k = 0; ok && k < PyList_GET_SIZE(rows); k++) {
        PyObject *row = PyList_GET_ITEM(rows, k);
        ok = PyTuple_Check(row) && PyTuple_GET_SIZE(row) == n;
    }
    if (!ok)
        PyErr_Format(PyExc_TypeError, "haven observer: %s must return a list of %zd-tuples",
                     what, n);
    return ok ? 0 : -1;
}

/* What the encoder reads of the game and its state whatever the state, in the order of
 * fast/observer.py's GAME_FIELDS: read there, by the spec's game_fields, a Python function,
 * because on these dataclass records the interpreter's specialised attribute loads cost a
 * fraction of the ~200 instructions of a PyObject_GetAttr (so are a seat's, seat_figure). */
enum {
    G_STATE, G_PROMPT, G_HIDE_PILES, G_TRAPS, G_COINS, G_TREASURES, G_CHARACTERS, G_SUMMONS,
    G_PHASE, G_OUTCOME, G_ROUND, G_WIN_MET, G_ELEMENTS, G_INFUSIONS, G_MONSTER_DECKS,
    G_AMD_DRAW, G_AMD_DISCARD, G_AMD_SHUFFLE, G_MONSTERS, N_GAME_FIELDS
};

/* The monsters on the board, from the list of their field tuples (G_MONSTERS). */
static int board_monsters(Observer *o, Out *out, PyObject *rows)
{
    int r = check_rows(rows, N_MONSTER_FIELDS, "monster_fields");
    for (Py_ssize_t k = 0; !r && k < PyList_GET_SIZE(rows); k++)
        r = board_monster(o, out, PyList_GET_ITEM(rows, k));
    return r;
}

/* _board: traps, coins, treasures, then characters, summons and monsters, in the Python's order
 * (a trap overwrites the floor entry of the blank vector's terrain, HV-TER-2). */
static int board(Observer *o, Out *out, PyObject *const *g, long long me, PyObject *summons,
                 PyObject *chars, const CharFigure *seats)
{
    PyObject *traps = PySequence_Fast(g[G_TRAPS], "haven observer: a list was expected");
    if (!traps)
        return -1;
    if (PySequence_Fast_GET_SIZE(traps) && o->feature_trap < 0) {
        Py_DECREF(traps);
        PyErr_SetString(PyExc_ValueError,
                        "haven observer: state.traps lists cells, but this map has no traps");
        return -1;
    }
    FOR_EACH(traps, cell, {
        Py_ssize_t row;
        if (figure_cell(o, cell, &row) || put(out, row + o->feature_floor, 0.0) ||
            put(out, row + o->feature_trap, 1.0)) {
            Py_DECREF(traps);
            return -1;
        }
    })
    Py_DECREF(traps);

    PyObject *coins = g[G_COINS];
    PyObject *items = PyDict_Check(coins) ? Py_NewRef(coins) : PyMapping_Items(coins);
    if (!items)
        return -1;
    Py_ssize_t pos = 0, at = 0;
    PyObject *cell, *count;
    for (;;) {
        if (PyDict_Check(items)) {
            if (!PyDict_Next(items, &pos, &cell, &count))
                break;
        } else {
            if (at >= PyList_GET_SIZE(items))
                break;
            PyObject *pair = PyList_GET_ITEM(items, at++);
            if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
                PyErr_SetString(PyExc_TypeError, "haven observer: bad state.coins items");
                Py_DECREF(items);
                return -1;
            }
            cell = PyTuple_GET_ITEM(pair, 0);
            count = PyTuple_GET_ITEM(pair, 1);
        }
        Py_ssize_t row;
        double n;
        if (figure_cell(o, cell, &row) || as_double(count, &n, S.coins) ||
            put(out, row + o->feature_coins, clip1(n / o->coin_scale))) {
            Py_DECREF(items);
            return -1;
        }
    }
    Py_DECREF(items);

    PyObject *it = PyObject_GetIter(g[G_TREASURES]);
    if (!it)
        return -1;
    while ((cell = PyIter_Next(it))) {
        Py_ssize_t row;
        int bad = figure_cell(o, cell, &row) || put(out, row + o->feature_treasure, 1.0);
        Py_DECREF(cell);
        if (bad)
            break;
    }
    Py_DECREF(it);
    if (PyErr_Occurred())
        return -1;

    if (board_characters(o, out, chars, me, seats) || board_summons(o, out, summons, me))
        return -1;
    return board_monsters(o, out, g[G_MONSTERS]);
}

/* Round, phase, outcome, win met; element states; the pending infusions. */
static int round_block(Observer *o, Out *out, PyObject *const *g)
{
    Py_ssize_t i = o->round, phase, outcome;
    double round, win_met;
    if (lookup(&o->phase_index, g[G_PHASE], "phase", &phase) ||
        lookup(&o->outcome_index, g[G_OUTCOME], "outcome", &outcome) ||
        as_double(g[G_ROUND], &round, S.round) || as_double(g[G_WIN_MET], &win_met, S.win_met) ||
        put(out, i + o->round_round, clip1(round / o->round_cap)) ||
        put(out, i + o->round_phase + phase, 1.0) ||
        put(out, i + o->round_outcome + outcome, 1.0) || put(out, i + o->round_win_met, win_met))
        return -1;

    PyObject *elements = PySequence_Fast(g[G_ELEMENTS], "haven observer: a list was expected");
    if (!elements)
        return -1;
    if (PySequence_Fast_GET_SIZE(elements) > o->n_elements) {
        Py_DECREF(elements);
        PyErr_Format(PyExc_ValueError, "haven observer: state.elements has more than %zd",
                     o->n_elements);
        return -1;
    }
    for (Py_ssize_t e = 0; e < PySequence_Fast_GET_SIZE(elements); e++) {
        long long s;
        if (as_ll(PySequence_Fast_GET_ITEM(elements, e), &s, S.elements) ||
            check_range(s, o->n_element_states, "element state") ||
            put(out, o->elements + o->n_element_states * e + (Py_ssize_t)s, 1.0)) {
            Py_DECREF(elements);
            return -1;
        }
    }
    Py_DECREF(elements);

    PyObject *infusions = PySequence_Fast(g[G_INFUSIONS], "haven observer: a list was expected");
    if (!infusions)
        return -1;
    FOR_EACH(infusions, item, {
        long long e;
        if (as_ll(item, &e, S.pending_infusions) ||
            check_range(e, o->n_elements, "pending infusion") ||
            put(out, o->pending_infusions + (Py_ssize_t)e, 1.0)) {
            Py_DECREF(infusions);
            return -1;
        }
    })
    Py_DECREF(infusions);
    return 0;
}

/* _sequence: the revealed turn sequence, slot by slot (outside SELECT only, HV-SEL-3). */
static int sequence(Observer *o, Out *out, PyObject *state, long long me, PyObject *summons)
{
    long long next;
    if (attr_ll(state, S.slot, &next))
        return -1;
    PyObject *slots = attr_seq(state, S.sequence);
    if (!slots)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(slots);
    for (Py_ssize_t k = 0; k < n && k < o->max_slots; k++) {
        PyObject *slot = PySequence_Fast_GET_ITEM(slots, k);
        Py_ssize_t j = o->sequence + k * o->slot_width;
        long long index, entity;
        double initiative;
        PyObject *kind = PyObject_GetAttr(slot, S.kind);
        if (!kind || attr_ll(slot, S.index, &index))
            goto fail_kind;
        int is_character = equal(kind, o->character_slot);
        int is_summon = is_character ? 0 : equal(kind, o->summon_slot);
        if (is_character < 0 || is_summon < 0)
            goto fail_kind;
        Py_DECREF(kind);
        if (is_character) {
            entity = index == me ? 0 : 1;
        } else if (is_summon) { /* owners.get(slot.index, 1 - me) == me: the last summon wins */
            long long owner = 1 - me;
            FOR_EACH(summons, s, {
                long long number, who;
                if (attr_ll(s, S.number, &number) || attr_ll(s, S.owner, &who))
                    goto fail;
                if (number == index)
                    owner = who;
            })
            entity = owner == me ? 2 : 3;
        } else {
            entity = index > LLONG_MAX - o->n_slot_entities ? LLONG_MAX
                                                              : o->n_slot_entities + index;
        }
        if (check_range(entity, o->n_entities, "turn-sequence entity") ||
            attr_double(slot, S.initiative, &initiative) ||
            put(out, j + o->slot_entity + (Py_ssize_t)entity, 1.0) ||
            put(out, j + o->slot_initiative, clip1(initiative / o->initiative_scale)) ||
            put(out, j + o->slot_done, k < next ? 1.0 : 0.0))
            goto fail;
        continue;
    fail_kind:
        Py_XDECREF(kind);
        goto fail;
    }
    Py_DECREF(slots);
    return 0;
fail:
    Py_DECREF(slots);
    return -1;
}

/* Monster ability decks: the current card, the discard, the draw pile's size per type. */
static int monster_decks(Observer *o, Out *out, PyObject *state_decks)
{
    PyObject *decks = PySequence_Fast(state_decks, "haven observer: a list was expected");
    if (!decks)
        return -1;
    for (Py_ssize_t t = 0; t < PySequence_Fast_GET_SIZE(decks); t++) {
        PyObject *deck = PySequence_Fast_GET_ITEM(decks, t);
        Py_ssize_t j = o->monster_decks + t * o->deck_width, card;
        if (t >= o->n_types) {
            PyErr_Format(PyExc_IndexError,
                         "haven observer: state.monster_decks has more than %zd decks",
                         o->n_types);
            goto fail;
        }
        const Table *cards = &o->card_index[t];
        PyObject *current = PyObject_GetAttr(deck, S.current);
        if (!current)
            goto fail;
        int bad = current != Py_None &&
                  (lookup(cards, current, "monster ability card", &card) ||
                   put(out, j + o->deck_current + card, 1.0));
        Py_DECREF(current);
        PyObject *discard = bad ? NULL : attr_seq(deck, S.discard);
        if (!discard)
            goto fail;
        FOR_EACH(discard, c, {
            if (lookup(cards, c, "monster ability card", &card) ||
                put(out, j + o->deck_discard + card, 1.0)) {
                Py_DECREF(discard);
                goto fail;
            }
        })
        Py_DECREF(discard);
        Py_ssize_t n = attr_len(deck, S.draw);
        if (n < 0 || put(out, j + o->deck_draw, clip1((double)n / (double)o->deck_size)))
            goto fail;
    }
    Py_DECREF(decks);
    return 0;
fail:
    Py_DECREF(decks);
    return -1;
}

/* _modifier_deck: draw pile and discard (a deck's `piles`, read already) as counts per card
 * name (order hidden), shuffle due. */
static int modifier_deck(Observer *o, Out *out, PyObject *const *piles, PyObject *shuffle_due,
                         Py_ssize_t i)
{
    const Py_ssize_t at[2] = {o->modifier_draw, o->modifier_discard};
    long counts[MAX_MODIFIER_NAMES];
    for (int p = 0; p < 2; p++) {
        PyObject *pile = PySequence_Fast(piles[p], "haven observer: a list was expected");
        if (!pile)
            return -1;
        memset(counts, 0, sizeof(long) * (size_t)o->n_modifier_names);
        FOR_EACH(pile, card, {
            Py_ssize_t name;
            if (lookup(&o->modifier_index, card, "attack modifier card", &name) ||
                check_range(name, o->n_modifier_names, "attack modifier index")) {
                Py_DECREF(pile);
                return -1;
            }
            counts[name]++;
        })
        Py_DECREF(pile);
        for (Py_ssize_t name = 0; name < o->n_modifier_names; name++)
            if (counts[name] &&
                put(out, i + at[p] + name, clip1((double)counts[name] / o->modifier_total)))
                return -1;
    }
    double due;
    if (as_double(shuffle_due, &due, S.shuffle_due) || put(out, i + o->modifier_shuffle, due))
        return -1;
    return 0;
}

/* A pick (lead or second): `has` is 0 for None. */
typedef struct {
    int has;
    long long card;
} Pick;

static int attr_pick(PyObject *ch, PyObject *name, Pick *pick)
{
    PyObject *v = PyObject_GetAttr(ch, name);
    if (!v)
        return -1;
    pick->has = v != Py_None;
    int r = pick->has ? as_ll(v, &pick->card, name) : 0;
    Py_DECREF(v);
    return r;
}

/* One card bitmask block: the cards of `seq` in 0..CARD_SLOTS-1; with `only`, those picked. */
static int cards_block(Observer *o, Out *out, PyObject *seq, Py_ssize_t j, PyObject *name,
                       const Pick *only)
{
    FOR_EACH(seq, item, {
        long long c;
        if (as_ll(item, &c, name))
            return -1;
        if (only && !((only[0].has && only[0].card == c) || (only[1].has && only[1].card == c)))
            continue;
        if (0 <= c && c < o->card_slots && put(out, j + (Py_ssize_t)c, 1.0))
            return -1;
    })
    return 0;
}

static int pick_block(Observer *o, Out *out, Pick pick, Py_ssize_t j)
{
    if (pick.has && 0 <= pick.card && pick.card < o->card_slots)
        return put(out, j + (Py_ssize_t)pick.card, 1.0);
    return 0;
}

/* _character: my private state (`mine`) or the other's public state (HV-SEL-3); `pending` is
 * my leading pick while my SELECT_SECOND is pending (HV-SEL-4); `fig` what the board read. */
enum { HAND, PLAYED, DISCARD, LOST, ROUND_BONUS, PERSISTENT, N_ZONES };

static int character_zones(Observer *o, Out *out, PyObject *ch, const CharFigure *fig,
                           int mine, int selecting, int hide_piles, Pick pending, Py_ssize_t i,
                           PyObject *const *zones)
{
    PyObject *const *field = &PyTuple_GET_ITEM(fig->fields, 0);
    long long revealed_attr;
    if (as_ll(field[C_REVEALED], &revealed_attr, S.revealed))
        return -1;
    long long public_level = selecting ? 0 : revealed_attr;
    long long revealed = mine ? 2 : public_level;
    Pick picks[2] = {{0, 0}, {0, 0}}; /* lead, second as shown */
    if (revealed >= 1 && attr_pick(ch, S.lead, &picks[0]))
        return -1;
    if (!picks[0].has && pending.has)
        picks[0] = pending;
    if (revealed >= 2 && attr_pick(ch, S.second, &picks[1]))
        return -1;

    PyObject *lr = field[C_LONG_REST];
    int lr_truth = PyObject_IsTrue(lr);
    double long_rest = 0.0; /* float(ch.long_rest and (mine or phase != SELECT)) */
    if (lr_truth < 0 || (lr_truth ? (long_rest = (mine || !selecting) ? 1.0 : 0.0, 0)
                                  : as_double(lr, &long_rest, S.long_rest)))
        return -1;
    int resting = lr_truth && (mine || !selecting);
    double initiative = 0.0;
    if ((revealed >= 1 || resting) && attr_double(ch, S.initiative, &initiative))
        return -1;

    Py_ssize_t hand = PySequence_Fast_GET_SIZE(zones[HAND]);
    Py_ssize_t played = PySequence_Fast_GET_SIZE(zones[PLAYED]);
    Py_ssize_t discard = PySequence_Fast_GET_SIZE(zones[DISCARD]);
    Py_ssize_t lost = PySequence_Fast_GET_SIZE(zones[LOST]);
    Py_ssize_t bonus = PySequence_Fast_GET_SIZE(zones[ROUND_BONUS]);
    Py_ssize_t persistent = PySequence_Fast_GET_SIZE(zones[PERSISTENT]);
    if (!mine && selecting) /* HV-SEL-3: the other's picks count back in */
        hand += played;
    double gold, sits_out;
    if (as_double(field[C_GOLD], &gold, S.gold) ||
        as_double(field[C_SITS_OUT], &sits_out, S.sits_out))
        return -1;
    const double slots = (double)o->card_slots;
    const double scalars[N_CHAR_SCALARS] = {
        fig->on_map ? 1.0 : 0.0,
        fig->exhausted_value,
        clip1(floor0(fig->hp) / o->hp_scale),
        clip1(fig->max_hp / o->hp_scale),
        clip1(gold / o->gold_scale),
        clip1((double)hand / slots),
        clip1((double)discard / slots),
        clip1((double)lost / slots),
        clip1((double)(bonus + persistent) / slots),
        long_rest,
        fig->acted,
        sits_out,
        clip1(initiative / o->initiative_scale),
        clip1((double)public_level / o->revealed_scale),
        clip1(fig->shield / o->bonus_scale),
        clip1(fig->retaliate / o->bonus_scale),
    };
    for (int k = 0; k < N_CHAR_SCALARS; k++)
        if (put(out, i + o->char_scalars[k], scalars[k]))
            return -1;

    FOR_EACH(fig->conditions, c, {
        Py_ssize_t f;
        if (lookup(&o->cond_index, c, "condition", &f) ||
            put(out, i + o->char_conditions + f, 1.0))
            return -1;
    })

    int show_piles = mine || !hide_piles;
    if ((mine && cards_block(o, out, zones[HAND], i + o->char_hand, S.hand, NULL)) ||
        pick_block(o, out, picks[0], i + o->char_lead) ||
        pick_block(o, out, picks[1], i + o->char_second) ||
        cards_block(o, out, zones[PLAYED], i + o->char_played, S.played, mine ? NULL : picks))
        return -1;
    if (show_piles &&
        (cards_block(o, out, zones[DISCARD], i + o->char_discard, S.discard, NULL) ||
         cards_block(o, out, zones[LOST], i + o->char_lost, S.lost, NULL) ||
         cards_block(o, out, zones[ROUND_BONUS], i + o->char_active, S.round_bonus, NULL) ||
         cards_block(o, out, zones[PERSISTENT], i + o->char_active, S.persistent, NULL)))
        return -1;

    PyObject *items = PySequence_Fast(field[C_ITEMS], "haven observer: a list was expected");
    if (!items)
        return -1;
    for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(items) && k < o->max_items; k++) {
        Py_ssize_t s;
        if (lookup(&o->item_index, PySequence_Fast_GET_ITEM(items, k), "item state", &s) ||
            put(out, i + o->char_items + o->n_item_states * k + s, 1.0)) {
            Py_DECREF(items);
            return -1;
        }
    }
    Py_DECREF(items);
    return modifier_deck(o, out, &field[C_AMD_DRAW], field[C_AMD_SHUFFLE], i + o->char_modifiers);
}

/* _character: the card zones read once (ch.active is round_bonus + persistent, as
 * state.CharacterState.active says), then the block. */
static int character(Observer *o, Out *out, PyObject *ch, const CharFigure *fig, int mine,
                     int selecting, int hide_piles, Pick pending, Py_ssize_t i)
{
    PyObject *zones[N_ZONES] = {NULL};
    int r = -1;
    for (int z = 0; z < N_ZONES; z++)
        if (!(zones[z] = PySequence_Fast(PyTuple_GET_ITEM(fig->fields, C_HAND + z),
                                         "haven observer: a list was expected")))
            goto done;
    r = character_zones(o, out, ch, fig, mine, selecting, hide_piles, pending, i, zones);
done:
    for (int z = 0; z < N_ZONES; z++)
        Py_XDECREF(zones[z]);
    return r;
}

/* _prompt: kind (prompt.kind, read already) and context; the other's selection prompts show
 * their kind only (HV-SEL-3). */
static int prompt_block(Observer *o, Out *out, PyObject *prompt, PyObject *kind, long long me)
{
    if (prompt == Py_None)
        return 0;
    Py_ssize_t i = o->prompt, kind_at;
    long long agent, card, half, element, rest;
    int selection = -1;
    if (lookup(&o->prompt_index, kind, "prompt kind", &kind_at) ||
        (selection = equal(kind, o->select_lead)) < 0 ||
        (!selection && (selection = equal(kind, o->select_second)) < 0) ||
        attr_ll(prompt, S.agent, &agent))
        return -1;
    int mine = agent == me;
    if (put(out, i + o->prompt_kind + kind_at, 1.0) ||
        put(out, i + o->prompt_whose + (mine ? 0 : 1), 1.0))
        return -1;
    if (!mine && selection)
        return 0;
    if (attr_ll(prompt, S.card, &card) ||
        (0 <= card && card < o->card_slots && put(out, i + o->prompt_card + card, 1.0)))
        return -1;
    if (attr_ll(prompt, S.half, &half) ||
        ((half == 0 || half == 1) && put(out, i + o->prompt_half + half, 1.0)))
        return -1;
    PyObject *ability = PyObject_GetAttr(prompt, S.ability);
    if (!ability)
        return -1;
    Py_ssize_t at;
    int known = table_get(&o->ability_index, ability, &at);
    Py_DECREF(ability);
    if (known < 0 || (known && put(out, i + o->prompt_ability + at, 1.0)))
        return -1;
    PyObject *v = PyObject_GetAttr(prompt, S.value);
    if (!v)
        return -1;
    double x;
    int bad = as_double(v, &x, S.value);
    Py_DECREF(v);
    if (bad || put(out, i + o->prompt_value, clip1(floor0(x) / o->value_scale)))
        return -1;
    if (attr_ll(prompt, S.element, &element) ||
        (0 <= element && element < o->n_elements &&
         put(out, i + o->prompt_element + element, 1.0)))
        return -1;
    PyObject *targets = attr_seq(prompt, S.targets);
    if (!targets)
        return -1;
    FOR_EACH(targets, t, {
        long long cell;
        if (as_ll(t, &cell, S.targets) ||
            (0 <= cell && cell < o->n_cells && put(out, i + o->prompt_targets + cell, 1.0))) {
            Py_DECREF(targets);
            return -1;
        }
    })
    Py_DECREF(targets);
    if (mine && (attr_ll(prompt, S.rest_card, &rest) ||
                 (0 <= rest && rest < o->card_slots &&
                  put(out, i + o->prompt_rest_card + rest, 1.0))))
        return -1;
    return 0;
}

/* _pending_lead: my leading pick while my SELECT_SECOND is pending (HV-SEL-4); `kind` is
 * prompt.kind. */
static int pending_lead(Observer *o, PyObject *ch, PyObject *prompt, PyObject *kind, Pick *pick)
{
    pick->has = 0;
    if (prompt == Py_None)
        return 0;
    int second = equal(kind, o->select_second);
    if (second <= 0)
        return second;
    long long agent, index;
    if (attr_ll(prompt, S.agent, &agent) || attr_ll(ch, S.index, &index))
        return -1;
    if (agent != index)
        return 0;
    pick->has = 1;
    return attr_ll(prompt, S.card, &pick->card);
}

/* Observer.observe: the entries of seat `me`'s vector into `out` (those that differ from the
 * blank, and some that do not). */
static int observe(Observer *o, Out *out, PyObject *game, long long me)
{
    int r = -1;
    CharFigure seats[2] = {{0}, {0}}; /* me, the other */
    PyObject *kind = NULL;            /* prompt.kind */
    PyObject *chars = NULL, *summons = NULL;
    PyObject *fields = PyObject_CallOneArg(o->game_fields, game);
    if (!fields)
        goto done;
    if (!PyTuple_Check(fields) || PyTuple_GET_SIZE(fields) != N_GAME_FIELDS) {
        PyErr_Format(PyExc_TypeError, "haven observer: game_fields must return a %d-tuple",
                     N_GAME_FIELDS);
        goto done;
    }
    PyObject *const *g = &PyTuple_GET_ITEM(fields, 0);
    PyObject *prompt = g[G_PROMPT];
    if (!(summons = PySequence_Fast(g[G_SUMMONS], "haven observer: a list was expected")) ||
        !(chars = PySequence_Fast(g[G_CHARACTERS], "haven observer: a list was expected")))
        goto done;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(chars);
    long long other = 1 - me;
    if (me >= n || other < 0 || other >= n) {
        PyErr_Format(PyExc_IndexError,
                     "haven observer: state.characters holds %zd characters, not seats %lld "
                     "and %lld",
                     n, me, other);
        goto done;
    }
    PyObject *mine_ch = PySequence_Fast_GET_ITEM(chars, me);
    PyObject *other_ch = PySequence_Fast_GET_ITEM(chars, other);
    int selecting = equal(g[G_PHASE], o->select);
    int hide_piles = PyObject_IsTrue(g[G_HIDE_PILES]);
    if (selecting < 0 || hide_piles < 0 || seat_figure(o, mine_ch, &seats[0]) ||
        seat_figure(o, other_ch, &seats[1]) || board(o, out, g, me, summons, chars, seats) ||
        round_block(o, out, g) || (!selecting && sequence(o, out, g[G_STATE], me, summons)) ||
        monster_decks(o, out, g[G_MONSTER_DECKS]) ||
        modifier_deck(o, out, &g[G_AMD_DRAW], g[G_AMD_SHUFFLE], o->monster_modifiers))
        goto done;
    if (prompt != Py_None && !(kind = PyObject_GetAttr(prompt, S.kind)))
        goto done;
    Pick lead, none = {0, 0};
    if (pending_lead(o, mine_ch, prompt, kind, &lead) ||
        character(o, out, mine_ch, &seats[0], 1, selecting, hide_piles, lead, o->me) ||
        character(o, out, other_ch, &seats[1], 0, selecting, hide_piles, none, o->other) ||
        prompt_block(o, out, prompt, kind, me))
        goto done;
    r = 0;
done:
    release_char_figure(&seats[0]);
    release_char_figure(&seats[1]);
    Py_XDECREF(kind);
    Py_XDECREF(summons);
    Py_XDECREF(chars);
    Py_XDECREF(fields);
    return r;
}

/* --- observe_into(game, me, out) ------------------------------------------------------------- */

static PyObject *observer_observe_into(Observer *o, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError, "observe_into(game, me, out) takes 3 arguments (%zd given)",
                     nargs);
        return NULL;
    }
    long long me;
    if (as_ll(args[1], &me, S.agent))
        return NULL;
    if (me < 0 || me >= o->n_seats) {
        PyErr_Format(PyExc_ValueError, "observe_into: me must be a seat 0..%zd, got %lld",
                     o->n_seats - 1, me);
        return NULL;
    }
    Py_buffer view;
    if (rb_array(args[2], &view, "out", RB_FLOAT32, 1, o->size, -1, 1) < 0)
        return NULL;
    Entry stack[STACK_ENTRIES];
    Out out = {stack, 0, STACK_ENTRIES, o->size, 0};
    int r = observe(o, &out, args[0], me);
    if (r == 0) { /* the blank, then each entry over it */
        float *v = view.buf;
        memcpy(v, o->blank + me * o->size, sizeof(float) * (size_t)o->size);
        for (Py_ssize_t k = 0; k < out.n; k++)
            v[out.e[k].at] = out.e[k].x;
    }
    if (out.heap)
        PyMem_Free(out.e);
    PyBuffer_Release(&view);
    if (r)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *observer_size(Observer *o, void *closure)
{
    (void)closure;
    return PyLong_FromSsize_t(o->size);
}

static PyMethodDef observer_methods[] = {
    {"observe_into", (PyCFunction)(void (*)(void))observer_observe_into, METH_FASTCALL,
     "observe_into(game, me, out): Observer.observe(game, me) written into out, a writable "
     "C-contiguous float32 array of the observation's size; out is untouched on error."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef observer_getset[] = {
    {"size", (getter)observer_size, NULL, "floats in an observation", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject Observer_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "reborn_env.games.haven.fast._core.Observer",
    .tp_basicsize = sizeof(Observer),
    .tp_dealloc = (destructor)observer_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "haven's compiled observation encoder of one scenario (16.5); made by "
              "_core.observer(spec).",
    .tp_methods = observer_methods,
    .tp_getset = observer_getset,
};

/* --- The constructor: observer(spec) --------------------------------------------------------- */

static PyObject *spec_item(PyObject *spec, const char *key)
{
    PyObject *v = PyDict_GetItemString(spec, key);
    if (!v)
        PyErr_Format(PyExc_KeyError, "haven observer spec: missing %s", key);
    return v; /* borrowed */
}

static int spec_int(PyObject *spec, const char *key, Py_ssize_t *out)
{
    PyObject *v = spec_item(spec, key);
    if (!v)
        return -1;
    if (!PyLong_Check(v)) {
        PyErr_Format(PyExc_TypeError, "haven observer spec: %s must be an int", key);
        return -1;
    }
    *out = PyLong_AsSsize_t(v);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

/* A dict of str -> int, copied; each value must be an index >= 0. */
static PyObject *index_dict(PyObject *v, const char *key)
{
    if (!v)
        return NULL;
    if (!PyDict_Check(v)) {
        PyErr_Format(PyExc_TypeError, "haven observer spec: %s must be a dict", key);
        return NULL;
    }
    Py_ssize_t pos = 0;
    PyObject *k, *x;
    while (PyDict_Next(v, &pos, &k, &x))
        if (!PyLong_Check(x) || PyLong_AsSsize_t(x) < 0) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "haven observer spec: %s[%R] must be an int >= 0",
                         key, k);
            return NULL;
        }
    return PyDict_Copy(v);
}

/* The table of the spec's dict `v` under `key`: a copy, and its keys by hash where all are str. */
static int table_init(Table *t, PyObject *v, const char *key)
{
    if (!(t->dict = index_dict(v, key)))
        return -1;
    Py_ssize_t pos = 0;
    PyObject *k, *x;
    while (PyDict_Next(t->dict, &pos, &k, &x))
        if (!PyUnicode_CheckExact(k))
            return 0;
    size_t n = 4;
    while (n < 4 * (size_t)PyDict_GET_SIZE(t->dict)) /* few collisions */
        n *= 2;
    if (!(t->slots = PyMem_Calloc(n, sizeof(TableSlot)))) {
        PyErr_NoMemory();
        return -1;
    }
    t->mask = n - 1;
    for (pos = 0; PyDict_Next(t->dict, &pos, &k, &x);) {
        Py_hash_t hash = PyObject_Hash(k);
        if (hash == -1)
            return -1;
        size_t at = (size_t)hash & t->mask;
        while (t->slots[at].key)
            at = (at + 1) & t->mask;
        t->slots[at] = (TableSlot){k, hash, PyLong_AsSsize_t(x)};
    }
    return 0;
}

static int read_spec(Observer *o, PyObject *spec)
{
    for (size_t k = 0; k < COUNT(INT_FIELDS); k++)
        if (spec_int(spec, INT_FIELDS[k].key, AT(o, Py_ssize_t, INT_FIELDS[k].at)))
            return -1;
    for (size_t k = 0; k < COUNT(DOUBLE_FIELDS); k++) {
        PyObject *v = spec_item(spec, DOUBLE_FIELDS[k].key);
        double x = v ? PyFloat_AsDouble(v) : -1.0;
        if (x == -1.0 && (!v || PyErr_Occurred()))
            return -1;
        if (!(x > 0.0)) {
            PyErr_Format(PyExc_ValueError, "haven observer spec: %s must be > 0",
                         DOUBLE_FIELDS[k].key);
            return -1;
        }
        *AT(o, double, DOUBLE_FIELDS[k].at) = x;
    }
    for (size_t k = 0; k < COUNT(TABLE_FIELDS); k++)
        if (table_init(AT(o, Table, TABLE_FIELDS[k].at), spec_item(spec, TABLE_FIELDS[k].key),
                       TABLE_FIELDS[k].key))
            return -1;
    for (size_t k = 0; k < COUNT(STR_FIELDS); k++) {
        PyObject *s = spec_item(spec, STR_FIELDS[k].key);
        if (!s)
            return -1;
        if (!PyUnicode_Check(s)) {
            PyErr_Format(PyExc_TypeError, "haven observer spec: %s must be a str",
                         STR_FIELDS[k].key);
            return -1;
        }
        *AT(o, PyObject *, STR_FIELDS[k].at) = Py_NewRef(s);
    }
    if (o->size <= 0 || o->n_cells <= 0 || o->card_slots <= 0 || o->deck_size <= 0 ||
        o->n_modifier_names < 0 || o->n_modifier_names > MAX_MODIFIER_NAMES) {
        PyErr_SetString(PyExc_ValueError, "haven observer spec: bad sizes");
        return -1;
    }

    /* game_fields and character_fields: Python functions */
    PyObject *game = spec_item(spec, "game_fields");
    PyObject *characters = game ? spec_item(spec, "character_fields") : NULL;
    if (!characters)
        return -1;
    if (!PyCallable_Check(game) || !PyCallable_Check(characters)) {
        PyErr_SetString(PyExc_TypeError,
                        "haven observer spec: game_fields and character_fields are callables");
        return -1;
    }
    o->game_fields = Py_NewRef(game);
    o->character_fields = Py_NewRef(characters);

    /* feature_trap: None on a map without traps */
    PyObject *trap = spec_item(spec, "feature_trap");
    if (!trap)
        return -1;
    o->feature_trap = -1;
    if (trap != Py_None && spec_int(spec, "feature_trap", &o->feature_trap))
        return -1;

    /* blank: one bytes object of size float32 per seat */
    PyObject *blank = spec_item(spec, "blank");
    if (!blank)
        return -1;
    if (!PyTuple_Check(blank) || PyTuple_GET_SIZE(blank) < 1) {
        PyErr_SetString(PyExc_TypeError, "haven observer spec: blank must be a tuple of bytes");
        return -1;
    }
    o->n_seats = PyTuple_GET_SIZE(blank);
    o->blank = PyMem_Malloc(sizeof(float) * (size_t)(o->n_seats * o->size));
    o->character_kind = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)o->n_seats);
    if (!o->blank || !o->character_kind) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t s = 0; s < o->n_seats; s++) {
        PyObject *b = PyTuple_GET_ITEM(blank, s);
        if (!PyBytes_Check(b) || PyBytes_GET_SIZE(b) != (Py_ssize_t)sizeof(float) * o->size) {
            PyErr_SetString(PyExc_ValueError,
                            "haven observer spec: each blank must be size float32 bytes");
            return -1;
        }
        memcpy(o->blank + s * o->size, PyBytes_AS_STRING(b), sizeof(float) * (size_t)o->size);
    }

    /* character_kind (per seat) and char_scalars (CHAR_SCALARS order): lists of ints */
    struct {
        const char *key;
        Py_ssize_t *into, n;
    } lists[] = {{"character_kind", o->character_kind, o->n_seats},
                 {"char_scalars", o->char_scalars, N_CHAR_SCALARS}};
    for (size_t l = 0; l < COUNT(lists); l++) {
        PyObject *v = spec_item(spec, lists[l].key);
        if (!v)
            return -1;
        if (!PyList_Check(v) || PyList_GET_SIZE(v) != lists[l].n) {
            PyErr_Format(PyExc_ValueError, "haven observer spec: %s must be a list of %zd ints",
                         lists[l].key, lists[l].n);
            return -1;
        }
        for (Py_ssize_t k = 0; k < lists[l].n; k++) {
            lists[l].into[k] = PyLong_AsSsize_t(PyList_GET_ITEM(v, k));
            if (lists[l].into[k] == -1 && PyErr_Occurred())
                return -1;
        }
    }

    /* card_index: per monster type, card id -> index; monster_bonus: per type, rank ->
     * (shield, retaliate) */
    PyObject *cards = spec_item(spec, "card_index");
    PyObject *bonus = cards ? spec_item(spec, "monster_bonus") : NULL;
    if (!bonus)
        return -1;
    if (!PyList_Check(cards) || !PyList_Check(bonus)) {
        PyErr_SetString(PyExc_TypeError,
                        "haven observer spec: card_index and monster_bonus must be lists");
        return -1;
    }
    Py_ssize_t n_types = PyList_GET_SIZE(cards);
    if (!(o->card_index = PyMem_Calloc((size_t)n_types, sizeof(Table)))) {
        PyErr_NoMemory();
        return -1;
    }
    o->n_types = n_types;
    if (!(o->monster_bonus = PyTuple_New(n_types)))
        return -1;
    if (PyList_GET_SIZE(bonus) != n_types) {
        PyErr_SetString(PyExc_ValueError,
                        "haven observer spec: monster_bonus needs one dict per monster type");
        return -1;
    }
    for (Py_ssize_t t = 0; t < n_types; t++) {
        if (table_init(&o->card_index[t], PyList_GET_ITEM(cards, t), "card_index"))
            return -1;
        PyObject *b = PyList_GET_ITEM(bonus, t);
        if (!PyDict_Check(b)) {
            PyErr_SetString(PyExc_TypeError, "haven observer spec: monster_bonus[t] is a dict");
            return -1;
        }
        Py_ssize_t pos = 0;
        PyObject *k, *pair;
        while (PyDict_Next(b, &pos, &k, &pair))
            if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
                PyErr_SetString(PyExc_TypeError,
                                "haven observer spec: monster_bonus values are pairs");
                return -1;
            }
        PyObject *d = PyDict_Copy(b);
        if (!d)
            return -1;
        PyTuple_SET_ITEM(o->monster_bonus, t, d);
    }
    return 0;
}

PyObject *haven_observer_new(PyObject *module, PyObject *spec)
{
    (void)module;
    if (intern_names())
        return NULL;
    if (!PyDict_Check(spec)) {
        PyErr_SetString(PyExc_TypeError, "observer(spec): spec must be a dict");
        return NULL;
    }
    if (!(Observer_Type.tp_flags & Py_TPFLAGS_READY) && PyType_Ready(&Observer_Type) < 0)
        return NULL;
    Observer *o = PyObject_New(Observer, &Observer_Type);
    if (!o)
        return NULL;
    /* everything after PyObject_HEAD starts zeroed, so a failed read frees only what it made */
    memset((char *)o + sizeof(PyObject), 0, sizeof(Observer) - sizeof(PyObject));
    if (read_spec(o, spec)) {
        Py_DECREF(o);
        return NULL;
    }
    return (PyObject *)o;
}
