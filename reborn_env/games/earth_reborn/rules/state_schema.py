"""The game state's fields declared once: name, C type, range and position key (ER-GEN-3).

What: one table per record of :mod:`.state` (:data:`ASSIGNED_TILE`, :data:`CHARACTER`,
:data:`GAME`), each field with the C type the compiled core stores it in, the range the core
accepts, how the Python value is coded (:class:`Code`) and the key ``docs/position_format.md``
gives it. Why: a field used to live in eight places in two languages; now the compiled core's
structs, its range checks and the flat bytes it loads and dumps are generated from here
(``fast/state_layout.py``), and tests hold the Python records and the position keys to it. Adding
a state field is: a row here, its initial value in :mod:`.state`, its rules, and (if a position
shows it) its key in ``positions.py``.

The tables are in the C structs' order, which is the flat layout's. A bound is a number or the
name of a scenario count (``"n_squares"``, ``"n_chars"``...) with an offset, since a map decides
how many squares, characters and tiles there are; :data:`CAPACITIES` are the fixed array sizes
the compiled core reserves for the scenario-sized lists.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

# Array sizes the compiled core reserves: a scenario beyond one is refused when the core is made.
CAPACITIES: dict[str, int] = {
    "ER_MAX_CHARS": 16,  # characters (bitmasks of characters are uint32_t)
    "ER_MAX_DOORS": 32,
    "ER_MAX_TERMINALS": 16,  # tried-terminal sets are uint32_t bitmasks
    "ER_MAX_CACHES": 16,
    "ER_MAX_TILES_PER_CHAR": 4,  # actions.SECTION_SLOTS = 16 = 4 tiles x 4 sections
    "ER_MAX_ROLL": 64,  # last_roll: the faces of one decision (invariants.limits_for)
    "ER_MAX_DICE_QUEUE": 1000,  # injected faces a position may hold (ER-DICE-4)
}


class Code(Enum):
    """How a Python value becomes the integer the compiled core stores."""

    INT = "int"  # an int as it is
    FLAG = "flag"  # a bool: 0 or 1
    CHOICE = "choice"  # a name: its index in ``choices`` (a tuple of state.py)
    PILE = "pile"  # a sorted list of small indices: a bitmask (bit i = index i)
    SET = "set"  # a set of small indices: a bitmask
    OPTIONAL = "optional"  # None or an int: None is ``none``
    GENERATOR = "generator"  # a SplitMix64: its 64-bit state
    FACES = "faces"  # die faces "Y1".."B6": codes 0..11 (dice.FACES), count in ``counted_by``
    RECORDS = "records"  # a list of records of the table ``record``


Bound = int | str | tuple[str, int]
"""A number, a C constant expression (``"ER_MAX_CP"``), or ``(scenario count, offset)``:
``("n_squares", -1)`` is the last square."""


@dataclass(frozen=True)
class Field:
    """One field of a state record, as the compiled core stores it."""

    name: str  # the Python attribute
    c_type: str  # int8_t .. uint64_t, or a record table's C name
    code: Code
    low: Bound = 0
    high: Bound = 0
    length: Bound | None = None  # None: a scalar; else how many items a game uses
    capacity: str | int | None = None  # the array's size in C (a CAPACITIES name or a number)
    counted_by: str = ""  # the C member holding the used length of a variable-length array
    count_type: str = "int32_t"  # that member's C type (it comes just before the array)
    position: str = ""  # its key in docs/position_format.md
    rule: str = ""  # the rule it keeps (a C comment)
    c_name: str = ""  # the C member's name where it differs from ``name``
    choices: str = ""  # Code.CHOICE: the tuple of state.py (PHASES, DECISIONS)
    none: int = 0  # Code.OPTIONAL: the stored value of None
    record: str = ""  # Code.RECORDS: the table's name in TABLES

    @property
    def member(self) -> str:
        """The C member's name."""
        return self.c_name or self.name


@dataclass(frozen=True)
class Table:
    """A state record: its Python class (in :mod:`.state`), its C struct and its fields."""

    python: str
    c_name: str
    fields: tuple[Field, ...]


INT32_MAX = 2**31 - 1
FLAG = {"code": Code.FLAG, "c_type": "int8_t", "high": 1}

ASSIGNED_TILE = Table(
    "AssignedTile",
    "ErAssigned",
    (
        Field("tile", "int8_t", Code.INT, 0, ("n_tiles", -1), position="tile", rule="ER-ORD-3"),
        Field("cp", "int8_t", Code.INT, 0, 127, length=4, capacity=4, position="cp"),
    ),
)

CHARACTER = Table(
    "CharacterState",
    "ErChar",
    (
        Field("square", "int16_t", Code.INT, 0, ("n_squares", -1), position="square"),
        Field("facing", "int8_t", Code.INT, 0, 3, position="facing"),
        Field("wounded", **FLAG, position="side", rule="card side: 0 = Healthy (ER-CHAR-1)"),
        Field("wounds", "int8_t", Code.INT, 0, 127, position="wounds"),
        Field("engaged", **FLAG, position="engaged", rule="ER-CHAR-3"),
        Field("dead", **FLAG, position="dead", rule="ER-WND-3"),
        Field("weapon_ready", **FLAG, position="weapon_ready", rule="ER-SHOOT-6/7"),
        Field("cp_spent", "int16_t", Code.INT, 0, 30000, position="cp_spent", rule="ER-CP-3"),
        Field("cards", "int16_t", Code.INT, 0, 30000, position="cards"),
        Field(
            "tiles",
            "ErAssigned",
            Code.RECORDS,
            capacity="ER_MAX_TILES_PER_CHAR",
            counted_by="n_tiles",
            count_type="int8_t",
            position="tiles",
            record="AssignedTile",
        ),
        Field(
            "tried",
            "uint32_t",
            Code.SET,
            high=("n_terminals", -1),
            position="tried_terminals",
            rule="terminals tried this turn, bit t (ER-INT-2)",
        ),
    ),
)

GAME = Table(
    "GameState",
    "Game",
    (
        Field("turn", "int32_t", Code.INT, 1, INT32_MAX, position="turn"),
        Field("phase", "int8_t", Code.CHOICE, choices="PHASES", position="phase", rule="ER-TURN-1"),
        Field("initiative", "int8_t", Code.INT, 0, 1, position="initiative"),
        Field("active", "int8_t", Code.INT, 0, 1, position="active"),
        Field("passes", "int8_t", Code.INT, 0, 127, position="passes", rule="ER-ACT-13"),
        Field("cp", "int32_t", Code.INT, 0, "ER_MAX_CP", length=2, capacity=2, position="cp"),
        Field("mp", "int32_t", Code.INT, -(10**9), 10**9, length=2, capacity=2, position="mp"),
        Field("hands", "uint64_t", Code.PILE, 0, ("n_tiles", -1), 2, 2, position="hand"),
        Field("redrew", **FLAG, length=2, capacity=2, position="redrew", rule="ER-HID-9"),
        Field("bag", "uint64_t", Code.PILE, 0, ("n_tiles", -1), position="bag"),
        Field("discard", "uint64_t", Code.PILE, 0, ("n_tiles", -1), position="discard"),
        Field("box", "uint64_t", Code.PILE, 0, ("n_tiles", -1), position="box"),
        Field(
            "doors",
            "int8_t",
            Code.INT,
            0,
            2,
            ("n_doors", 0),
            "ER_MAX_DOORS",
            position="state",
            rule="ER-DOOR-1",
        ),
        Field(
            "door_opened",
            **FLAG,
            length=("n_doors", 0),
            capacity="ER_MAX_DOORS",
            position="opened_this_round",
        ),
        Field(
            "chars",
            "ErChar",
            Code.RECORDS,
            length=("n_chars", 0),
            capacity="ER_MAX_CHARS",
            position="characters",
            record="CharacterState",
        ),
        Field(
            "hacked",
            **FLAG,
            length=("n_terminals", 0),
            capacity="ER_MAX_TERMINALS",
            position="terminals",
        ),
        Field(
            "cache_full",
            **FLAG,
            length=("n_caches", 0),
            capacity="ER_MAX_CACHES",
            position="full",
        ),
        Field(
            "decision",
            "int8_t",
            Code.CHOICE,
            choices="DECISIONS",
            position="kind",
            rule="ER_MULLIGAN .. ER_GAME_OVER",
        ),
        Field("decider", "int8_t", Code.INT, 0, 1, position="player"),
        Field(
            "char",
            "int8_t",
            Code.INT,
            -1,
            ("n_chars", -1),
            c_name="char_",
            position="character",
            rule="state.char: activated character or -1",
        ),
        Field("reactivation", **FLAG, position="reactivation"),
        Field("acted", **FLAG, position="acted"),
        Field("round_decisions", "int32_t", Code.INT, 0, INT32_MAX, position="decisions"),
        Field("mvp", "int32_t", Code.INT, 0, INT32_MAX, position="mvp", rule="ER-MOV-2"),
        Field("transferred", **FLAG, position="transferred", rule="ER-DOOR-10"),
        Field(
            "section",
            "int8_t",
            Code.INT,
            -1,
            "ER_SECTION_SLOTS - 1",
            position="section",
            rule="-1 or 4 * slot + index",
        ),
        Field(
            "target",
            "int8_t",
            Code.INT,
            -1,
            "ER_MAX_CHARS - 1",
            position="target",
            rule="-1, a direction or a character",
        ),
        Field("order_cp", "int8_t", Code.INT, 0, 4, position="cp"),
        Field(
            "bids",
            "int32_t",
            Code.INT,
            -1,
            "ER_MAX_CP",
            2,
            2,
            position="bid",
            rule="-1 = not chosen (ER-INI-8)",
        ),
        Field(
            "winner",
            "int8_t",
            Code.OPTIONAL,
            -2,
            1,
            none=-2,
            position="winner",
            rule="ER_NO_WINNER, ER_DRAW, 0 or 1",
        ),
        Field("rng", "uint64_t", Code.GENERATOR, position="rng", rule="SplitMix64 state"),
        Field("steps", "int32_t", Code.INT, 0, INT32_MAX - 1, position="steps"),
        Field(
            "last_roll",
            "uint8_t",
            Code.FACES,
            0,
            11,
            capacity="ER_MAX_ROLL",
            counted_by="n_last_roll",
            position="last_roll",
            rule="face codes, in roll order (ER-HID-11)",
        ),
        Field(
            "dice_queue",
            "uint8_t",
            Code.FACES,
            0,
            11,
            capacity="ER_MAX_DICE_QUEUE",
            counted_by="n_dice_queue",
            position="dice_queue",
            rule="injected face codes (ER-DICE-4)",
        ),
    ),
)

TABLES: dict[str, Table] = {t.python: t for t in (ASSIGNED_TILE, CHARACTER, GAME)}
"""Every record of the state by its Python class name, records before the tables using them."""

DERIVED_ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "GameState": ("scenario", "codec", "faction_of", "_legal"),
}
"""Attributes of the Python records that are not state: the scenario, what it determines, and a
cache of the legal moves."""


def slots_of(record: str) -> tuple[str, ...]:
    """The ``__slots__`` of the Python record ``record``: its fields, then what is not state."""
    return tuple(f.name for f in TABLES[record].fields) + DERIVED_ATTRIBUTES.get(record, ())
