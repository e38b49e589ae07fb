"""The compiled core's game state as flat bytes, and its C structs, from the state schema.

What: :func:`pack` writes a :class:`~..rules.state.GameState` as the bytes of the core's ``Game``
struct and :func:`unpack` reads them back; :func:`struct_header` and :func:`checks_header` are the
C text of ``src/state_struct.h`` (the structs, with compile-time checks that the C compiler lays
them out as computed here) and ``src/state_checks.h`` (the range check of a loaded state). Why:
every one of them follows :mod:`..rules.state_schema`, so the Python records, the bytes and the C
structs cannot drift apart, and ``module.c`` copies bytes instead of walking objects.

``python -m reborn_env.games.earth_reborn.fast.state_layout`` writes both headers (run it after
changing the schema, then rebuild the core); a test fails while they are stale.
"""

from __future__ import annotations

import struct
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ....core.files import atomic_write
from ..rules import state as state_module
from ..rules.dice import FACES
from ..rules.state import AssignedTile, CharacterState, GameState
from ..rules.state_schema import CAPACITIES, TABLES, Bound, Code, Field, Table
from ..scenario.model import Scenario

SOURCES = Path(__file__).with_name("src")
STRUCT_HEADER = SOURCES / "state_struct.h"
CHECKS_HEADER = SOURCES / "state_checks.h"
GENERATED = "Generated from rules/state_schema.py by fast/state_layout.py: do not edit."

# C type: (struct format, size); a type's alignment is its size on every ABI the core builds on.
PRIMITIVES = {
    "int8_t": ("b", 1),
    "uint8_t": ("B", 1),
    "int16_t": ("h", 2),
    "int32_t": ("i", 4),
    "uint32_t": ("I", 4),
    "uint64_t": ("Q", 8),
}
RECORD_CLASSES = {"AssignedTile": AssignedTile, "CharacterState": CharacterState}
FACE_CODES = {face: code for code, face in enumerate(FACES)}


def counts_of(scenario: Scenario) -> dict[str, int]:
    """The scenario counts a bound or a length may name."""
    return {
        "n_squares": scenario.board.width * scenario.board.height,
        "n_chars": len(scenario.characters),
        "n_tiles": len(scenario.tiles),
        "n_doors": len(scenario.board.doors),
        "n_terminals": len(scenario.terminals),
        "n_caches": len(scenario.caches),
    }


def capacity(field: Field) -> int:
    """How many items the C array of ``field`` holds (1: a scalar)."""
    if field.capacity is None:
        return 1
    return CAPACITIES[field.capacity] if isinstance(field.capacity, str) else field.capacity


# --- the layout -----------------------------------------------------------------------------


@dataclass
class Member:
    """One C member: its name, type, items, offset, and the struct format of its bytes."""

    name: str
    c_type: str
    items: int
    offset: int
    format: str
    field: Field | None  # None: the used length of the next field's array


@dataclass
class Layout:
    """A table as a C struct: its members with offsets, size, alignment and struct format."""

    table: Table
    members: list[Member]
    size: int
    align: int
    format: str
    values: int  # how many values its format packs


def _layouts() -> dict[str, Layout]:
    """Every table's layout, records first (C's natural alignment, as the compiler lays it)."""
    out: dict[str, Layout] = {}
    for table in TABLES.values():
        members: list[Member] = []
        offset, align, fmt, values = 0, 1, [], 0
        for field in table.fields:
            parts = []
            if field.counted_by:
                parts.append((field.counted_by, field.count_type, 1, None))
            parts.append((field.member, field.c_type, capacity(field), field))
            for name, c_type, items, of in parts:
                if c_type in PRIMITIVES:
                    code, size = PRIMITIVES[c_type]
                    item_align, item_format, item_values = size, code, 1
                else:
                    record = out[of.record]  # type: ignore[union-attr]
                    size, item_align = record.size, record.align
                    item_format, item_values = record.format, record.values
                pad = -offset % item_align
                fmt.append("x" * pad)
                offset += pad
                if of is not None and of.code is Code.FACES:
                    member_format = f"{items}s"  # face codes as one bytes value
                    values += 1
                else:
                    member_format = item_format * items
                    values += item_values * items
                members.append(Member(name, c_type, items, offset, member_format, of))
                fmt.append(member_format)
                offset += size * items
                align = max(align, item_align)
        pad = -offset % align
        fmt.append("x" * pad)
        size = offset + pad
        out[table.python] = Layout(table, members, size, align, "".join(fmt), values)
    return out


def _is_scalar(member: Member) -> bool:
    """Whether ``member`` is one value, not an array."""
    return member.field is None or (member.field.capacity is None and member.field.length is None)


LAYOUTS = _layouts()
GAME_LAYOUT = LAYOUTS["GameState"]
GAME_STRUCT = struct.Struct("=" + GAME_LAYOUT.format)
STATE_SIZE = GAME_LAYOUT.size
"""The bytes of one ``Game`` (``sizeof(Game)``, checked at compile time by state_struct.h)."""


# --- Python records to values and back --------------------------------------------------------


_BIT = {i: 1 << i for i in range(64)}
"""Each bit the core's masks (at most uint64_t) can hold, by index: a lookup, where ``1 << i``
would accept an index no mask has."""
_BYTE_BITS = tuple(
    tuple(tuple(8 * byte + i for i in range(8) if value >> i & 1) for value in range(256))
    for byte in range(8)
)
"""The set bits of each byte value, for each byte of a 64-bit mask: a mask is decoded a byte at a
time instead of a bit at a time."""


def _bits(indices: Any) -> int:
    """A sorted pile or a set of small indices as a bitmask (KeyError for an index no mask
    holds)."""
    mask = 0
    for i in indices:
        mask |= _BIT[i]
    return mask


def _set_bits(mask: int) -> list[int]:
    """The indices of a bitmask's set bits, in increasing order."""
    out: list[int] = []
    for byte_bits in _BYTE_BITS:
        if not mask:
            break
        out += byte_bits[mask & 255]
        mask >>= 8
    return out


def _length_text(field: Field) -> str:
    """A Python expression for how many items of ``field`` a game uses."""
    if isinstance(field.length, tuple):
        name, offset = field.length
        count = f'counts["{name}"]'
        return f"{count} + {offset}" if offset else count
    return str(field.length if isinstance(field.length, int) else capacity(field))


def _writer_source(layout: Layout) -> str:
    """Python source of ``write_<table>(r, counts)``: the tuple of ``r``'s values."""
    name = layout.table.python
    checks, items = [], []
    for member in layout.members:
        field = member.field
        if field is None:
            continue
        ref = f"r.{field.name}"
        if field.code is Code.FACES:
            items += [f"len({ref})", f"bytes(map(FACE_CODES.__getitem__, {ref}))"]
        elif field.code is Code.RECORDS:
            inner, per = field.record, LAYOUTS[field.record].values
            if field.counted_by:
                items.append(f"len({ref})")
            else:
                checks.append((ref, _length_text(field)))
            items.append(f"*[v for x in {ref} for v in write_{inner}(x, counts)]")
            items.append(f"*ZEROS[: {per} * ({member.items} - len({ref}))]")
        elif _is_scalar(member):
            items.append(_encode_text(field, ref))
        else:
            if isinstance(field.length, tuple):
                checks.append((ref, _length_text(field)))
            items.append(f"*{_encode_items_text(field, ref)}")
            if field.length != member.items:
                items.append(f"*ZEROS[: {member.items} - len({ref})]")
    lines = [f"def write_{name}(r, counts):"]
    for ref, length in checks:
        lines += [
            f"    if len({ref}) != {length}:",
            f"        raise ValueError(f'{ref.replace('r.', 'state.')} holds {{len({ref})}} items,"
            f" the game needs {{{length}}}')",
        ]
    lines.append("    return (" + ", ".join(items) + ",)")
    return "\n".join(lines)


def _encode_function(field: Field) -> str | None:
    """The function that codes one item of ``field`` for the core, where the coding is one, so
    that a list's items are coded by a C-level ``map`` (a generated comprehension costs a call)."""
    if field.code is Code.CHOICE:
        return f"INDEX[{field.choices!r}].__getitem__"
    return {Code.FLAG: "bool", Code.PILE: "_bits", Code.SET: "_bits"}.get(field.code)


def _encode_items_text(field: Field, ref: str) -> str:
    """Python expression: the integers the core stores for the items of the list ``ref``."""
    function = _encode_function(field)
    if function:
        return f"map({function}, {ref})"
    encoded = _encode_text(field, "x")
    return ref if encoded == "x" else f"[{encoded} for x in {ref}]"


def _encode_text(field: Field, ref: str) -> str:
    """Python expression: the integer the core stores for the item ``ref`` of ``field``."""
    code = field.code
    if code is Code.FLAG:
        return f"(1 if {ref} else 0)"
    if code is Code.CHOICE:
        return f"INDEX[{field.choices!r}][{ref}]"
    if code in (Code.PILE, Code.SET):
        return f"_bits({ref})"
    if code is Code.OPTIONAL:
        return f"({field.none} if {ref} is None else {ref})"
    if code is Code.GENERATOR:
        return f"{ref}.state"
    return ref


def _reader_source(layout: Layout) -> str:
    """Python source of ``read_<table>(r, v, at, counts)``: set ``r``'s fields from the values
    ``v[at:]``."""
    name = layout.table.python
    lines = [f"def read_{name}(r, v, at, counts):"]
    at, used = 0, ""
    for member in layout.members:
        field = member.field
        if field is None:
            used = f"v[at + {at}]"
            at += 1
            continue
        ref = f"r.{field.name}"
        if field.code is Code.FACES:
            lines.append(f"    {ref} = list(map(FACES.__getitem__, v[at + {at}][: {used}]))")
            at += 1
        elif field.code is Code.RECORDS:
            inner, per = field.record, LAYOUTS[field.record].values
            count = used if field.counted_by else _length_text(field)
            lines += [
                f"    {ref} = []",
                f"    for k in range({count}):",
                f"        x = {inner}.__new__({inner})",
                f"        read_{inner}(x, v, at + {at} + k * {per}, counts)",
                f"        {ref}.append(x)",
            ]
            at += per * member.items
        elif _is_scalar(member):
            if field.code is Code.GENERATOR:
                lines.append(f"    {ref}.state = v[at + {at}]")
            else:
                lines.append(f"    {ref} = {_decode_text(field, f'v[at + {at}]')}")
            at += 1
        else:
            items = f"v[at + {at} : at + {at} + {_length_text(field)}]"
            lines.append(f"    {ref} = {_decode_items_text(field, items)}")
            at += member.items
    return "\n".join(lines)


def _decode_function(field: Field) -> str | None:
    """The function that decodes one stored integer of ``field``, where the coding is one."""
    if field.code is Code.CHOICE:
        return f"{field.choices}.__getitem__"
    return {Code.FLAG: "bool", Code.PILE: "_set_bits"}.get(field.code)


def _decode_items_text(field: Field, items: str) -> str:
    """Python expression: the list of ``field``'s items that the stored integers ``items``
    code."""
    function = _decode_function(field)
    if function:
        return f"list(map({function}, {items}))"
    decoded = _decode_text(field, "x")
    return f"list({items})" if decoded == "x" else f"[{decoded} for x in {items}]"


def _decode_text(field: Field, ref: str) -> str:
    """Python expression: the item of ``field`` that the stored integer ``ref`` codes."""
    code = field.code
    if code is Code.FLAG:
        return f"({ref} != 0)"
    if code is Code.CHOICE:
        return f"{field.choices}[{ref}]"
    if code is Code.PILE:
        return f"_set_bits({ref})"
    if code is Code.SET:
        return f"set(_set_bits({ref}))"
    if code is Code.OPTIONAL:
        return f"(None if {ref} == {field.none} else {ref})"
    return ref


def _compile() -> dict[str, Any]:
    """The writers and readers of every table, compiled from their generated source."""
    namespace: dict[str, Any] = {
        "FACES": FACES,
        "FACE_CODES": FACE_CODES,
        "ZEROS": (0,)
        * max(layout.values for layout in LAYOUTS.values())
        * max(CAPACITIES.values()),
        "INDEX": {
            field.choices: {v: i for i, v in enumerate(getattr(state_module, field.choices))}
            for table in TABLES.values()
            for field in table.fields
            if field.code is Code.CHOICE
        },
        "_bits": _bits,
        "_set_bits": _set_bits,
        **{
            f.choices: getattr(state_module, f.choices)
            for t in TABLES.values()
            for f in t.fields
            if f.code is Code.CHOICE
        },
        **RECORD_CLASSES,
    }
    for layout in LAYOUTS.values():
        source = _writer_source(layout) + "\n\n\n" + _reader_source(layout)
        exec(compile(source, f"<state_layout {layout.table.python}>", "exec"), namespace)
    return namespace


_CODE = _compile()
_WRITE_GAME, _READ_GAME = _CODE["write_GameState"], _CODE["read_GameState"]


def pack(state: GameState) -> bytes:
    """The bytes of ``state`` as the core's ``Game``; ValueError if a value does not fit."""
    try:
        return GAME_STRUCT.pack(*_WRITE_GAME(state, _scenario_facts(state.scenario)[0]))
    except (struct.error, KeyError, ValueError, TypeError, AttributeError) as exc:
        raise ValueError(f"the state does not fit the compiled core's Game struct: {exc}") from None


def unpack(scenario: Scenario, data: bytes) -> GameState:
    """The GameState of ``scenario`` whose ``Game`` bytes are ``data`` (as :func:`pack` wrote):
    its derived attributes from the scenario, every field from the bytes (no setup is run)."""
    counts, codec, faction_of = _scenario_facts(scenario)
    state = GameState.__new__(GameState)
    state.scenario, state.codec, state.faction_of = scenario, codec, faction_of
    state.rng, state._legal = state_module.SplitMix64(0), None
    _READ_GAME(state, GAME_STRUCT.unpack(data), 0, counts)
    return state


_FACTS: dict[int, tuple[Scenario, dict[str, int], Any, tuple[int, ...]]] = {}


def _scenario_facts(scenario: Scenario) -> tuple[dict[str, int], Any, tuple[int, ...]]:
    """What a GameState of ``scenario`` derives from it (as ``GameState.__init__`` does), and
    its counts, kept per scenario object: a dump is on the path of every position read."""
    facts = _FACTS.get(id(scenario))
    if facts is None or facts[0] is not scenario:
        if len(_FACTS) >= 16:
            _FACTS.clear()
        setup = GameState(scenario, 0)
        facts = (scenario, counts_of(scenario), setup.codec, setup.faction_of)
        _FACTS[id(scenario)] = facts
    return facts[1], facts[2], facts[3]


# --- the generated C ------------------------------------------------------------------------


def _c_bound(bound: Bound) -> str:
    """A bound as a C expression (a scenario count is read from the Scn ``s``)."""
    if isinstance(bound, tuple):
        name, offset = bound
        return f"s->{name}" + (f" - {-offset}" if offset < 0 else f" + {offset}" * bool(offset))
    return str(bound)


def struct_header() -> str:
    """The text of ``src/state_struct.h``: the capacities and the state's C structs."""
    lines = [
        f"/* The game state's C structs (rules/state.py). {GENERATED} */",
        "#ifndef ER_STATE_STRUCT_H",
        "#define ER_STATE_STRUCT_H",
        "",
        "#include <stddef.h>",
        "#include <stdint.h>",
        "",
    ]
    for name, value in CAPACITIES.items():
        lines.append(f"#define {name} {value}")
    for layout in LAYOUTS.values():
        lines += ["", f"typedef struct {{ /* state.{layout.table.python} */"]
        for member in layout.members:
            array = "" if member.items == 1 and _is_scalar(member) else f"[{_c_items(member)}]"
            text = f"    {member.c_type} {member.name}{array};"
            rule = member.field.rule if member.field else ""
            lines.append(f"{text:<44}/* {rule} */" if rule else text)
        lines.append(f"}} {layout.table.c_name};")
        lines.append(
            f"_Static_assert(sizeof({layout.table.c_name}) == {layout.size}, "
            f'"{layout.table.c_name}: the size state_layout.py computes");'
        )
        for member in layout.members:
            lines.append(
                f"_Static_assert(offsetof({layout.table.c_name}, {member.name}) == "
                f'{member.offset}, "{layout.table.c_name}.{member.name}: its offset");'
            )
    lines += ["", "#endif", ""]
    return "\n".join(lines)


def _c_items(member: Member) -> str:
    """The C array size of ``member``: its capacity's name, or a number."""
    cap = member.field.capacity if member.field else None
    return cap if isinstance(cap, str) else str(member.items)


def checks_header() -> str:
    """The text of ``src/state_checks.h``: ``er_check_Game`` and its records' checks, every
    stored value in the range the schema gives it."""
    lines = [
        f"/* The range check of a loaded game state. {GENERATED} */",
        "#ifndef ER_STATE_CHECKS_H",
        "#define ER_STATE_CHECKS_H",
        "",
        "#include <stdio.h>",
        "",
        '#include "core.h"',
        "",
        "/* Out of lo..hi: say which field and what is allowed (into why), and stop. */",
        "#define ER_IN(v, lo, hi, what)                                                       \\",
        "    do {                                                                            \\",
        "        long long v_ = (long long)(v);                                              \\",
        "        if (v_ < (long long)(lo) || v_ > (long long)(hi)) {                         \\",
        '            snprintf(why, n, "%s is %lld, outside %lld..%lld", what, v_,             \\',
        "                     (long long)(lo), (long long)(hi));                             \\",
        "            return -1;                                                              \\",
        "        }                                                                           \\",
        "    } while (0)",
        "",
        "/* A bitmask naming items at or above count: the item is out of range. */",
        "#define ER_BITS_BELOW(m, count, what)                                                \\",
        "    do {                                                                            \\",
        "        if ((count) < 64 && ((uint64_t)(m) >> (count)) != 0) {                      \\",
        '            snprintf(why, n, "%s names an item at or above %d", what, (int)(count)); \\',
        "            return -1;                                                              \\",
        "        }                                                                           \\",
        "    } while (0)",
    ]
    for layout in LAYOUTS.values():
        label = LABELS[layout.table.python]
        lines += [
            "",
            f"/* {label}: 0, or -1 with why (n bytes) saying which value is out of range. */",
            f"static int er_check_{layout.table.c_name}(const {layout.table.c_name} *r, "
            "const Scn *s, char *why, size_t n)",
            "{",
        ]
        used = ""
        for member in layout.members:
            field = member.field
            if field is None:
                used = f"r->{member.name}"
                array = _next(layout, member)
                what = f'"len({label}.{array.field.name})"'  # type: ignore[union-attr]
                lines.append(f"    ER_IN({used}, 0, {_c_items(array)}, {what});")
                continue
            lines += _field_checks(field, member, used, f'"{label}.{field.name}"')
        lines += ["    (void)s;", "    return 0;", "}"]
    lines += ["", "#endif", ""]
    return "\n".join(lines)


def _labels() -> dict[str, str]:
    """How a message names each record: ``state``, ``state.chars[]``, ``state.chars[].tiles[]``."""
    labels = {"GameState": "state"}
    for table in reversed(TABLES.values()):
        for field in table.fields:
            if field.code is Code.RECORDS:
                labels[field.record] = f"{labels[table.python]}.{field.name}[]"
    return labels


LABELS = _labels()


def _next(layout: Layout, member: Member) -> Member:
    """The member after ``member`` (the array a used length counts)."""
    return layout.members[layout.members.index(member) + 1]


def _field_checks(field: Field, member: Member, used: str, what: str) -> list[str]:
    """The C lines that check ``field`` of record ``r``."""
    ref = f"r->{member.name}"
    if field.code is Code.GENERATOR:
        return []
    if field.code is Code.RECORDS:
        count = used or _c_bound(field.length)  # type: ignore[arg-type]
        inner = TABLES[field.record].c_name
        return [
            f"    for (int k = 0; k < {count}; k++)",
            f"        if (er_check_{inner}(&{ref}[k], s, why, n))",
            "            return -1;",
        ]
    if field.code is Code.CHOICE:
        low, high = 0, len(getattr(state_module, field.choices)) - 1
    else:
        low, high = field.low, field.high  # type: ignore[assignment]
    if field.code in (Code.PILE, Code.SET):
        assert isinstance(high, tuple), f"{field.name}: a bitmask's items end at a scenario count"
        count = _c_bound((high[0], high[1] + 1))
        check = "ER_BITS_BELOW({item}, " + count + ", " + what + ");"
    else:
        check = f"ER_IN({{item}}, {_c_bound(low)}, {_c_bound(high)}, {what});"
    if _is_scalar(member):
        return ["    " + check.format(item=ref)]
    count = used or (
        _c_bound(field.length) if field.length is not None else str(member.items)  # type: ignore[arg-type]
    )
    return [f"    for (int k = 0; k < {count}; k++)", "        " + check.format(item=f"{ref}[k]")]


def write_headers() -> list[Path]:
    """Write ``src/state_struct.h`` and ``src/state_checks.h``; the paths written."""
    for path, text in ((STRUCT_HEADER, struct_header()), (CHECKS_HEADER, checks_header())):
        with atomic_write(path) as f:
            f.write(text.encode())
    return [STRUCT_HEADER, CHECKS_HEADER]


def main(argv: list[str] | None = None) -> int:
    """Write the generated headers and say so."""
    del argv
    for path in write_headers():
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
