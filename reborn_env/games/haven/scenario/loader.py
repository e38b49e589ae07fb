"""Load a haven scenario from its TOML data file (rules spec haven.md section 15).

A scenario is data, not code: the map, the two characters with their ability cards and items, the
summon, the monster types with their ability decks, the attack modifier decks and the scenario
rules of "Raider Camp" live in ``data/raider_camp.toml`` and are read here with the stdlib
``tomllib`` into the frozen records of :mod:`.model`. Every value is checked on load, so a typo in
the data fails at once with a :class:`ScenarioError` that names the file, the field, the problem
and what is allowed, instead of surfacing later as a wrong game. The map picture of 15.1 is
compared with the placement tables, and the file's ``cross_check`` table (facts stated in section
15) with the parsed data, so the picture, the tables and the spec cannot drift apart.
"""

from __future__ import annotations

import copyreg
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from reborn_env.core.data_files import DataNode as _Node
from reborn_env.core.data_files import ScenarioError, scenario_loader
from reborn_env.games.haven.scenario.model import (
    ABILITY_KINDS,
    ADD,
    ATTACK,
    ATTACK_CONDITIONS,
    CELL_KINDS,
    CONDITION,
    DIFFICULT,
    DOUBLE,
    ELEMENTS,
    FATES,
    FLOOR,
    HAZARDOUS,
    HEAL,
    HEAL_SELF,
    ICY,
    INFUSE,
    INFUSE_ELEMENT,
    ITEM_EFFECTS,
    ITEM_USES,
    LOOT,
    MAX_ADD_TARGETS,
    MAX_AREA_HEXES,
    MAX_HEIGHT,
    MAX_WIDTH,
    MONSTER_ABILITY_KINDS,
    MOVE,
    NEXT_MOVE_BONUS,
    NULL,
    OBSTACLE,
    PERSISTENT,
    RANKS,
    RETALIATE,
    SELF_CONDITIONS,
    SHIELD,
    SUFFER_DAMAGE,
    SUMMON,
    TRAP,
    WALL,
    WIN_CONDITIONS,
    Ability,
    AbilityCard,
    Bounds,
    Box,
    CharacterClass,
    Consume,
    Grid,
    HexMap,
    Item,
    ModifierCard,
    MonsterAbilityCard,
    MonsterPlacement,
    MonsterStats,
    MonsterType,
    Scenario,
    ScenarioRules,
    SummonSpec,
    Terrain,
    Treasure,
)

DEFAULT_SCENARIO = "raider_camp"
INITIATIVE_MIN, INITIATIVE_MAX = 1, 99  # HV-INIT-1: 99 is the top of the scale (long rest)

_TOP_KEYS = (
    "name",
    "title",
    "map",
    "rules",
    "treasures",
    "placements",
    "items",
    "summons",
    "characters",
    "monsters",
    "modifier_decks",
)
_CHARACTER_KEYS = ("name", "role", "map_letter", "max_hp", "start", "items", "cards")
_CARD_KEYS = ("id", "name", "initiative", "top", "bottom")
_MONSTER_KEYS = ("name", "letter", "normal", "elite", "deck")
_MONSTER_CARD_KEYS = ("id", "name", "initiative", "shuffle", "abilities")
_STAT_KEYS = ("hp", "move", "attack", "range")
_STAT_OPTIONAL = ("shield", "retaliate")
_CROSS_CHECK_KEYS = (
    "cells",
    "walls",
    "obstacles",
    "coins",
    "treasures",
    "starts",
    "hand_sizes",
    "monster_deck_size",
    "modifier_deck_size",
    "shuffle_cards_per_monster_deck",
)

# Section 7: the keys each ability kind takes (the first tuple is required).
_ABILITY_KEYS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # jump, flying, teleport: HV-JMP-1, HV-FLY-1, HV-TEL-1
    MOVE: (("value",), ("consume", "jump", "flying", "teleport")),
    ATTACK: (
        ("value",),
        ("range", "targets", "pierce", "conditions", "consume", "area", "add_targets"),
    ),
    HEAL: (("value",), ("range",)),
    SHIELD: (("value",), ()),
    RETALIATE: (("value",), ()),
    CONDITION: (("conditions",), ()),
    SUMMON: (("summon",), ()),
    LOOT: (("value",), ()),
    INFUSE: (("element",), ()),
    SUFFER_DAMAGE: (("value",), ()),
}
_SIGNED_ON_MONSTER_CARDS = (MOVE, ATTACK)  # HV-MTURN-10: "Move +-X", "Attack +-X", "Range +-X"

# 15.1 map tokens besides the letters of characters and monster types.
_TERRAIN_TOKENS = {".": FLOOR, "O": OBSTACLE, "#": WALL}
_COIN, _TREASURE = "$", "T"
_MONSTER_TOKEN = re.compile(r"([A-Za-z])([1-9][0-9]*)")
_MODIFIER_NAME = re.compile(r"[+-][0-9]+")


def load_scenario(name_or_path: str = DEFAULT_SCENARIO) -> Scenario:
    """Load and check a scenario (section 15).

    A bare name such as ``"raider_camp"`` loads ``data/<name>.toml`` from this package (cached: the
    result is frozen); a string with a path separator or a ``.toml`` suffix is a file path.
    """
    return _load(name_or_path)


# --- files ---------------------------------------------------------------------------------------


def _cells_text(grid: Grid, cells: Iterable[int]) -> str:
    return ", ".join(grid.text(c) for c in sorted(cells)) or "none"


def _cell(node: _Node, grid: Grid) -> int:
    """A cell given as ``[col, row]`` on the map's grid (HV-MAP-1)."""
    col, row = (item.integer() for item in node.items(2))
    if not grid.contains(col, row):
        raise node.error(f"({col},{row}) is off the grid; {grid.bounds_text()}")
    return grid.id(col, row)


def _floor_cell(node: _Node, grid: Grid, cells: Sequence[str], what: str) -> int:
    """A cell that must be floor (HV-MAP-3: walls and obstacles cannot hold figures or tokens)."""
    cell = _cell(node, grid)
    if cells[cell] != FLOOR:
        raise node.error(
            f"{grid.text(cell)} is a cell of kind {cells[cell]!r}; {what} must be on a floor cell"
        )
    return cell


def _unique_ids(node: _Node, ids: Iterable[str], what: str) -> None:
    repeated = sorted(i for i, n in Counter(ids).items() if n > 1)
    if repeated:
        raise node.error(f"{what} must be unique; repeated: {', '.join(repeated)}")


# --- the scenario --------------------------------------------------------------------------------


def _build_scenario(doc: dict[str, Any], source: str) -> Scenario:
    top = _Node(source, "", doc).table(
        _TOP_KEYS, optional=("cross_check", *_TERRAIN_TOP_KEYS, "thin_walls")
    )
    items = _items(top["items"])
    summons = tuple(_summon(i, n) for i, n in top["summons"].entries().items())
    monster_types = _monster_types(top["monsters"])
    characters = _characters(top["characters"], items, tuple(s.id for s in summons))
    card_ids = [c.id for ch in characters for c in ch.cards]
    card_ids += [c.id for t in monster_types for c in t.deck]
    _unique_ids(top["characters"], card_ids, "ability card ids")
    hex_map = _hex_map(top, characters, monster_types)
    decks = _modifier_decks(top["modifier_decks"])
    rules = _rules(top["rules"], characters)
    terrain = _terrain(top, hex_map)
    if "cross_check" in top:
        _cross_check(top["cross_check"], hex_map, characters, monster_types, decks)
    _check_prompt_bound(top["rules"], rules, characters, hex_map)
    return Scenario(
        name=top["name"].text(),
        title=top["title"].text(),
        source=source,
        map=hex_map,
        characters=characters,
        summons=summons,
        monster_types=monster_types,
        character_modifier_deck=decks[0],
        monster_modifier_deck=decks[1],
        rules=rules,
        terrain=terrain,
    )


_load = scenario_loader(__package__, _build_scenario)  # data/*.toml beside this module


def _pickled(scenario: Scenario) -> tuple[Any, ...]:
    """How a scenario pickles: a bundled one as its name, so that unpickling gives back the one
    loaded object, which every game of it shares with what is derived once per scenario object
    (limits, observers); one read from a file (or no longer cached), whole."""
    try:
        bundled = load_scenario(scenario.name)
    except ScenarioError:
        bundled = None
    if bundled is scenario:
        return load_scenario, (scenario.name,)
    return object.__reduce_ex__(scenario, 2)


copyreg.pickle(Scenario, _pickled)


# --- abilities, boxes and cards (section 7, 15.2, 15.6) ------------------------------------------


def _ability(node: _Node, summons: Iterable[str], monster: bool) -> Ability:
    kinds = MONSTER_ABILITY_KINDS if monster else ABILITY_KINDS
    node.entries()  # an ability must be a table before its kind can be read
    kind_name = node.child("kind").text(kinds)
    required, optional = _ABILITY_KEYS[kind_name]
    entries = node.table(("kind", *required), optional)
    signed = monster and kind_name in _SIGNED_ON_MONSTER_CARDS
    value_min = None if signed else 1
    conditions = ATTACK_CONDITIONS if kind_name == ATTACK else SELF_CONDITIONS
    return Ability(
        kind=kind_name,
        value=entries["value"].integer(value_min) if "value" in entries else 0,
        range=entries["range"].integer(None if monster else 0) if "range" in entries else 0,
        targets=entries["targets"].integer(1) if "targets" in entries else 1,
        pierce=entries["pierce"].integer(1) if "pierce" in entries else 0,
        conditions=entries["conditions"].texts(conditions, 1) if "conditions" in entries else (),
        element=entries["element"].text(ELEMENTS) if "element" in entries else None,
        summon=entries["summon"].text(summons) if "summon" in entries else None,
        consume=_consume(entries["consume"]) if "consume" in entries else None,
        area=_area(entries, monster) if "area" in entries else (),
        add_targets=_add_targets(entries),
        **_move_kind(entries),
    )


# --- area-of-effect patterns (HV-AOE-1..3) -------------------------------------------------------

_AREA_SPAN = 3  # [DEF] every hex of a pattern within 3 of its (0, 0)


def _area(entries: Mapping[str, _Node], monster: bool) -> tuple[tuple[int, int], ...]:
    """HV-AOE-1..3: ``area = [[dq, dr], ...]``, distinct axial offsets, at most
    ``MAX_AREA_HEXES``, each within ``_AREA_SPAN`` of ``[0, 0]``; with ``[0, 0]`` a ranged pattern
    (the ability has a range), without it a melee one (no range; a hex next to the attacker)."""
    node = entries["area"]
    hexes = []
    for item in node.items(minimum=1):
        dq, dr = (n.integer(-_AREA_SPAN, _AREA_SPAN) for n in item.items(length=2))
        if (abs(dq) + abs(dr) + abs(dq + dr)) // 2 > _AREA_SPAN:
            raise item.error(f"[{dq}, {dr}] is farther than {_AREA_SPAN} hexes from [0, 0]")
        if (dq, dr) in hexes:
            raise item.error(f"[{dq}, {dr}] is listed twice")
        hexes.append((dq, dr))
    if len(hexes) > MAX_AREA_HEXES:
        raise node.error(f"{len(hexes)} hexes; a pattern has at most {MAX_AREA_HEXES} (15.10)")
    if "targets" in entries:
        raise entries["targets"].error("an area attack attacks every enemy in its area, no targets")
    ranged = (0, 0) in hexes
    printed_range = entries["range"].integer(None) if "range" in entries else 0
    if ranged and not monster and printed_range < 1:
        raise node.error("a pattern listing its anchor [0, 0] is ranged: the attack needs a range")
    if not ranged and printed_range != 0:
        raise node.error(
            "a melee pattern (without [0, 0], the attacker's hex) takes no range; list [0, 0] "
            "as the anchor of a ranged pattern"
        )
    if not ranged and not any((dq, dr) in _NEXT_TO_ORIGIN for dq, dr in hexes):
        raise node.error("a melee pattern needs a hex next to the attacker's hex [0, 0]")
    return tuple(hexes)


_NEXT_TO_ORIGIN = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))  # HV-MAP-2


def _add_targets(entries: Mapping[str, _Node]) -> int:
    """HV-AOE-11: ``add_targets = N`` (1..MAX_ADD_TARGETS), only on an attack with an area (a
    single-target attack says ``targets``)."""
    if "add_targets" not in entries:
        return 0
    node = entries["add_targets"]
    if "area" not in entries:
        raise node.error(
            "Add Target is for an attack with an area; a single-target attack takes more "
            "targets with 'targets'"
        )
    return node.integer(1, MAX_ADD_TARGETS)


def _consume(node: _Node) -> Consume:
    """HV-ABL-10: ``{ element, bonus }`` and/or ``conditions`` added to the ability."""
    entries = node.table(("element",), optional=("bonus", "conditions"))
    if "bonus" not in entries and "conditions" not in entries:
        raise node.error("a consume needs a bonus, conditions, or both")
    return Consume(
        element=entries["element"].text(ELEMENTS),
        bonus=entries["bonus"].integer(1) if "bonus" in entries else 0,
        conditions=(
            entries["conditions"].texts(ATTACK_CONDITIONS, 1) if "conditions" in entries else ()
        ),
    )


def _box(node: _Node, summons: Iterable[str]) -> Box:
    entries = node.table(("fate", "abilities"))
    abilities = tuple(_ability(n, summons, False) for n in entries["abilities"].items(minimum=1))
    fate = entries["fate"].text(FATES)
    has_summon = any(a.kind == SUMMON for a in abilities)
    if has_summon != (fate == PERSISTENT):
        raise entries["fate"].error(
            f"{fate!r} with{'' if has_summon else 'out'} a summon; a box with a summon is "
            "'persistent' and only such a box is (HV-ABL-7)"
        )
    return Box(abilities, fate)


def _initiative(node: _Node) -> int:
    return node.integer(INITIATIVE_MIN, INITIATIVE_MAX)


def _card(node: _Node, summons: Iterable[str]) -> AbilityCard:
    entries = node.table(_CARD_KEYS)
    return AbilityCard(
        id=entries["id"].text(),
        name=entries["name"].text(),
        initiative=_initiative(entries["initiative"]),
        top=_box(entries["top"], summons),
        bottom=_box(entries["bottom"], summons),
    )


def _monster_card(node: _Node) -> MonsterAbilityCard:
    entries = node.table(_MONSTER_CARD_KEYS)
    abilities = entries["abilities"].items(minimum=1)
    return MonsterAbilityCard(
        id=entries["id"].text(),
        name=entries["name"].text(),
        initiative=_initiative(entries["initiative"]),
        abilities=tuple(_ability(n, (), True) for n in abilities),
        shuffle=entries["shuffle"].flag(),
    )


# --- items, summons, characters, monsters (15.2-15.5) --------------------------------------------


def _items(node: _Node) -> dict[str, Item]:
    return {item_id: _item(item_id, n) for item_id, n in node.entries().items()}


def _item(item_id: str, node: _Node) -> Item:
    entries = node.table(("name", "use", "effect"), optional=("value", "element"))
    effect = entries["effect"].text(ITEM_EFFECTS)
    needs = {INFUSE_ELEMENT: "element", NEXT_MOVE_BONUS: "value", HEAL_SELF: "value"}.get(effect)
    for key in ("value", "element"):
        if (key in entries) != (key == needs):
            what = f"takes {needs!r}" if needs else "takes neither 'value' nor 'element'"
            raise entries["effect"].error(f"effect {effect!r} {what} (HV-ITEM-4)")
    return Item(
        id=item_id,
        name=entries["name"].text(),
        use=entries["use"].text(ITEM_USES),
        effect=effect,
        value=entries["value"].integer(1) if "value" in entries else 0,
        element=entries["element"].text(ELEMENTS) if "element" in entries else None,
    )


def _summon(summon_id: str, node: _Node) -> SummonSpec:
    entries = node.table(("name", "hp", "move", "attack", "range"))
    return SummonSpec(
        id=summon_id,
        name=entries["name"].text(),
        hp=entries["hp"].integer(1),
        move=entries["move"].integer(0),
        attack=entries["attack"].integer(0),
        range=entries["range"].integer(0),
    )


def _characters(
    node: _Node, items: Mapping[str, Item], summons: Iterable[str]
) -> tuple[CharacterClass, ...]:
    characters = tuple(
        _character(class_id, n, items, tuple(summons)) for class_id, n in node.entries().items()
    )
    if not characters:
        raise node.error("must hold at least one character")
    owned = [i.id for c in characters for i in c.items]
    _unique_ids(node, owned, "owned items (one owner each)")
    unowned = sorted(set(items) - set(owned))
    if unowned:
        raise node.error(f"items owned by no character: {', '.join(unowned)}")
    _unique_ids(node, (c.map_letter for c in characters), "map letters")
    return characters


def _character(
    class_id: str, node: _Node, items: Mapping[str, Item], summons: Sequence[str]
) -> CharacterClass:
    entries = node.table(_CHARACTER_KEYS)
    letter = entries["map_letter"].text()
    if not re.fullmatch(r"[A-Z]", letter) or letter in (*_TERRAIN_TOKENS, _TREASURE):
        raise entries["map_letter"].error(
            f"{letter!r}: must be one upper-case letter other than O and T"
        )
    cards = entries["cards"].items(minimum=1)
    return CharacterClass(
        id=class_id,
        name=entries["name"].text(),
        role=entries["role"].text(),
        map_letter=letter,
        max_hp=entries["max_hp"].integer(1),
        cards=tuple(_card(n, summons) for n in cards),
        items=tuple(items[i] for i in entries["items"].texts(items)),
    )


def _monster_types(node: _Node) -> tuple[MonsterType, ...]:
    types = tuple(_monster_type(type_id, n) for type_id, n in node.entries().items())
    if not types:
        raise node.error("must hold at least one monster type")
    _unique_ids(node, (t.letter for t in types), "monster letters")
    return types


def _monster_type(type_id: str, node: _Node) -> MonsterType:
    entries = node.table(_MONSTER_KEYS, optional=("flying",))
    letter = entries["letter"].text()
    if not re.fullmatch(r"[a-z]", letter) or letter.upper() in (*_TERRAIN_TOKENS, _TREASURE):
        raise entries["letter"].error(f"{letter!r}: must be one lower-case letter other than o, t")
    return MonsterType(
        id=type_id,
        name=entries["name"].text(),
        letter=letter,
        normal=_stats(entries["normal"]),
        elite=_stats(entries["elite"]),
        deck=tuple(_monster_card(n) for n in entries["deck"].items(minimum=1)),
        flying=entries["flying"].flag() if "flying" in entries else False,  # HV-FLY-1
    )


def _stats(node: _Node) -> MonsterStats:
    entries = node.table(_STAT_KEYS, optional=_STAT_OPTIONAL)
    optional = {k: entries[k].integer(0) for k in _STAT_OPTIONAL if k in entries}
    return MonsterStats(
        hp=entries["hp"].integer(1),
        move=entries["move"].integer(0),
        attack=entries["attack"].integer(0),
        range=entries["range"].integer(0),
        **optional,
    )


# --- the map (15.1) ------------------------------------------------------------------------------


@dataclass
class _MapTokens:
    """What the 15.1 picture shows besides terrain: cell lists per token."""

    coins: list[int]
    treasures: list[int]
    starts: dict[str, list[int]]  # map letter -> cells
    monsters: dict[tuple[str, str, int], list[int]]  # (type, rank, standee) -> cells
    terrain: dict[str, list[int]]  # HV-TER-1: terrain kind -> cells


def _grid(node: _Node, rows: Sequence[Sequence[str]]) -> Grid:
    """HV-MAP-1: the grid the picture draws: as many rows as it has lines, as many columns as
    its first row has cells, every row as long, at most MAX_WIDTH x MAX_HEIGHT."""
    height, width = len(rows), len(rows[0]) if rows else 0
    for row, row_tokens in enumerate(rows):
        if len(row_tokens) != width:
            raise node.error(
                f"row {row} has {len(row_tokens)} cells but row 0 has {width}; every row of the "
                "grid has as many (HV-MAP-1)"
            )
    if not (1 <= width <= MAX_WIDTH and 1 <= height <= MAX_HEIGHT):
        raise node.error(
            f"draws a grid of {width} x {height} cells; a map has 1 to {MAX_WIDTH} columns "
            f"and 1 to {MAX_HEIGHT} rows (HV-MAP-1)"
        )
    return Grid(width, height)


def _parse_map(
    node: _Node, characters: Sequence[CharacterClass], types: Sequence[MonsterType]
) -> tuple[Grid, tuple[str, ...], _MapTokens]:
    rows = [line.split() for line in node.text().splitlines() if line.strip()]
    grid = _grid(node, rows)
    cells: list[str] = []
    tokens = _MapTokens([], [], {}, {}, {})
    letters = {c.map_letter for c in characters}
    by_letter = {t.letter: t.id for t in types}
    for row, row_tokens in enumerate(rows):
        for col, token in enumerate(row_tokens):
            cell = grid.id(col, row)
            cells.append(_read_token(node, row, col, cell, token, tokens, letters, by_letter))
    return grid, tuple(cells), tokens


def _read_token(
    node: _Node,
    row: int,
    col: int,
    cell: int,
    token: str,
    tokens: _MapTokens,
    letters: set[str],
    by_letter: Mapping[str, str],
) -> str:
    """Record one picture token at cell id ``cell`` and return the kind of its cell."""
    match = _MONSTER_TOKEN.fullmatch(token)
    if token in _TERRAIN_TOKENS:
        return _TERRAIN_TOKENS[token]
    if token in _TERRAIN_MARKS:  # HV-TER-1: a floor cell carrying terrain, nothing else on it
        tokens.terrain.setdefault(_TERRAIN_MARKS[token], []).append(cell)
        return FLOOR
    if token == _COIN:
        tokens.coins.append(cell)
    elif token == _TREASURE:
        tokens.treasures.append(cell)
    elif token in letters:
        tokens.starts.setdefault(token, []).append(cell)
    elif match and match[1].lower() in by_letter:
        rank = RANKS[1] if match[1].isupper() else RANKS[0]
        tokens.monsters.setdefault((by_letter[match[1].lower()], rank, int(match[2])), []).append(
            cell
        )
    else:
        raise node.error(
            f"row {row}, col {col}: token {token!r} is not allowed; allowed: . (floor), "
            f"O (obstacle), # (wall), ^ (trap), ~ (hazardous), = (difficult), * (icy), $ (coin), "
            f"T (treasure), a start letter "
            f"({', '.join(sorted(letters))}), or a monster letter ({', '.join(by_letter)}; upper "
            "case for elite) followed by its standee number"
        )
    return FLOOR


def _hex_map(
    top: Mapping[str, _Node], characters: Sequence[CharacterClass], types: Sequence[MonsterType]
) -> HexMap:
    grid, cells, tokens = _parse_map(top["map"], characters, types)
    starts = _starts(top["characters"], characters, grid, cells, tokens)
    treasures = _treasures(top["treasures"], grid, cells)
    _match_tokens(top["treasures"], grid, {t.cell for t in treasures}, set(tokens.treasures), "T")
    thin_walls = _thin_walls(top["thin_walls"], grid, cells) if "thin_walls" in top else ()
    placements = _placements(top["placements"], types, grid, cells)
    occupied = Counter([*starts, *(p.cell for p in placements)])
    crowded = [cell for cell, n in occupied.items() if n > 1]
    if crowded:
        raise top["placements"].error(f"two figures share a cell: {_cells_text(grid, crowded)}")
    _match_monsters(top["placements"], grid, placements, tokens)
    return HexMap(
        cells=cells,
        coins=tuple(tokens.coins),
        treasures=treasures,
        starts=starts,
        monsters=placements,
        traps=tuple(tokens.terrain.get(TRAP, ())),
        hazardous=tuple(tokens.terrain.get(HAZARDOUS, ())),
        difficult=tuple(tokens.terrain.get(DIFFICULT, ())),
        icy=tuple(tokens.terrain.get(ICY, ())),
        thin_walls=thin_walls,
        width=grid.width,
        height=grid.height,
    )


def _neighbouring(grid: Grid, a: int, b: int) -> bool:
    """HV-MAP-2: cells ``a`` and ``b`` are at hex distance 1 (axial ``q = col - (row - row mod
    2) / 2``)."""
    (ca, ra), (cb, rb) = grid.xy(a), grid.xy(b)
    dq, dr = (cb - (rb - rb % 2) // 2) - (ca - (ra - ra % 2) // 2), rb - ra
    return abs(dq) + abs(dr) + abs(dq + dr) == 2


def _thin_walls(node: _Node, grid: Grid, cells: Sequence[str]) -> tuple[tuple[int, int], ...]:
    """HV-TW-1: ``thin_walls = [[[c1, r1], [c2, r2]], ...]``, each the edge between two
    neighbouring cells that are not walls, each edge once; ascending (lower id, higher id)."""
    seen: set[tuple[int, int]] = set()
    for entry in node.items(minimum=1):
        a, b = (_cell(end, grid) for end in entry.items(2))
        if not _neighbouring(grid, a, b):
            raise entry.error(
                f"{grid.text(a)} and {grid.text(b)} are not neighbours; a thin wall lies on the "
                "edge between two neighbouring cells (HV-MAP-2)"
            )
        walled = [c for c in (a, b) if cells[c] == WALL]
        if walled:
            raise entry.error(
                f"{_cells_text(grid, walled)} is a wall cell, which blocks every edge already; "
                "a thin wall parts two cells that are not walls"
            )
        wall = (min(a, b), max(a, b))
        if wall in seen:
            raise entry.error(f"the edge {grid.text(a)}-{grid.text(b)} is listed twice")
        seen.add(wall)
    return tuple(sorted(seen))


def _starts(
    node: _Node,
    characters: Sequence[CharacterClass],
    grid: Grid,
    cells: Sequence[str],
    tokens: _MapTokens,
) -> tuple[int, ...]:
    starts = []
    for character in characters:
        start_node = node.child(character.id).child("start")
        cell = _floor_cell(start_node, grid, cells, "a start")
        drawn = tokens.starts.get(character.map_letter, [])
        if drawn != [cell]:
            raise start_node.error(
                f"is {grid.text(cell)} but the map shows {character.map_letter!r} at "
                f"{_cells_text(grid, drawn)}; the map must show the letter once, at the start"
            )
        starts.append(cell)
    return tuple(starts)


def _treasures(node: _Node, grid: Grid, cells: Sequence[str]) -> tuple[Treasure, ...]:
    treasures = []
    for item in node.items():
        entries = item.table(("number", "cell", "heal", "gold"))
        treasures.append(
            Treasure(
                number=entries["number"].integer(1),
                cell=_floor_cell(entries["cell"], grid, cells, "a treasure tile"),
                heal=entries["heal"].integer(0),
                gold=entries["gold"].integer(0),
            )
        )
    _unique_ids(node, (str(t.number) for t in treasures), "treasure numbers")
    _unique_ids(
        node,
        (grid.text(t.cell) for t in treasures),
        "treasure cells (at most one tile per cell, HV-STATE-6)",
    )
    return tuple(treasures)


def _placements(
    node: _Node, types: Sequence[MonsterType], grid: Grid, cells: Sequence[str]
) -> tuple[MonsterPlacement, ...]:
    placements = []
    for item in node.items():
        entries = item.table(("type", "rank", "standee", "cell"))
        placements.append(
            MonsterPlacement(
                type=entries["type"].text(t.id for t in types),
                rank=entries["rank"].text(RANKS),
                standee=entries["standee"].integer(1),
                cell=_floor_cell(entries["cell"], grid, cells, "a monster"),
            )
        )
    for kind in types:
        standees = [str(p.standee) for p in placements if p.type == kind.id]
        _unique_ids(node, standees, f"{kind.id} standee numbers (HV-STATE-2)")
    return tuple(placements)


def _match_tokens(node: _Node, grid: Grid, listed: set[int], drawn: set[int], token: str) -> None:
    if listed != drawn:
        raise node.error(
            f"cells {_cells_text(grid, listed)} differ from the map's {token!r} cells "
            f"{_cells_text(grid, drawn)}; they must agree"
        )


def _match_monsters(
    node: _Node, grid: Grid, placements: Sequence[MonsterPlacement], tokens: _MapTokens
) -> None:
    listed = {(p.type, p.rank, p.standee): [p.cell] for p in placements}
    if listed != tokens.monsters:
        shown = sorted(
            f"{t} {r} #{s} at {_cells_text(grid, c)}" for (t, r, s), c in tokens.monsters.items()
        )
        raise node.error(
            f"differs from the monsters the map shows ({'; '.join(shown) or 'none'}); "
            "they must agree"
        )


# --- attack modifier decks (15.7, HV-AMD-1..3) ---------------------------------------------------


def _modifier_decks(node: _Node) -> tuple[tuple[ModifierCard, ...], tuple[ModifierCard, ...]]:
    entries = node.table(("characters", "monsters", "compositions"))
    compositions = {name: _composition(n) for name, n in entries["compositions"].entries().items()}
    return (
        compositions[entries["characters"].text(compositions)],
        compositions[entries["monsters"].text(compositions)],
    )


def _composition(node: _Node) -> tuple[ModifierCard, ...]:
    cards: list[ModifierCard] = []
    for name, copies in node.entries().items():
        cards.extend([_modifier_card(name, copies)] * copies.integer(1))
    if not cards:
        raise node.error("an attack modifier deck needs at least one card")
    return tuple(cards)


def _modifier_card(name: str, node: _Node) -> ModifierCard:
    if name == "x2":
        return ModifierCard(name, DOUBLE, 2, shuffle=True)
    if name == "null":
        return ModifierCard(name, NULL, 0, shuffle=True)
    if _MODIFIER_NAME.fullmatch(name):
        return ModifierCard(name, ADD, int(name), shuffle=False)
    raise node.error(f"unknown modifier card {name!r}; allowed: +n, -n, x2, null (HV-AMD-1)")


# --- scenario rules (HV-END-2, HV-END-4, HV-LOOT-3, 15.10) ---------------------------------------


def _rules(node: _Node, characters: Sequence[CharacterClass]) -> ScenarioRules:
    entries = node.table(("win_condition", "round_cap", "coin_gold", "bounds"))
    bounds = _bounds(entries["bounds"], characters)
    round_cap = entries["round_cap"].integer(1)
    if round_cap < bounds.last_exhaustion_round:
        raise entries["round_cap"].error(
            f"{round_cap} is below bounds.last_exhaustion_round {bounds.last_exhaustion_round}; "
            "the cap must only be a safeguard (HV-END-4, 15.10)"
        )
    return ScenarioRules(
        win_condition=entries["win_condition"].text(WIN_CONDITIONS),
        round_cap=round_cap,
        coin_gold=entries["coin_gold"].integer(0),
        bounds=bounds,
    )


def _bounds(node: _Node, characters: Sequence[CharacterClass]) -> Bounds:
    entries = node.table(
        (
            "max_rounds_by_hand_size",
            "last_exhaustion_round",
            "max_prompts_per_agent_round",
            "max_agent_steps",
        )
    )
    by_size = {}
    for size, rounds in entries["max_rounds_by_hand_size"].entries().items():
        if not size.isdigit():
            raise rounds.error(f"key {size!r} must be a hand size (a whole number)")
        by_size[int(size)] = rounds.integer(1)
    missing = sorted({c.hand_size for c in characters} - set(by_size))
    if missing:
        raise entries["max_rounds_by_hand_size"].error(f"no bound for hand sizes {missing}")
    bounds = Bounds(
        max_rounds_by_hand_size=by_size,
        last_exhaustion_round=entries["last_exhaustion_round"].integer(1),
        max_prompts_per_agent_round=entries["max_prompts_per_agent_round"].integer(1),
        max_agent_steps=entries["max_agent_steps"].integer(1),
    )
    longest = max(by_size[c.hand_size] for c in characters)
    if bounds.last_exhaustion_round != longest + 1:
        raise entries["last_exhaustion_round"].error(
            f"must be {longest + 1}: one round after the longest bound (HV-EXH-1, 15.10)"
        )
    steps = longest * len(characters) * bounds.max_prompts_per_agent_round
    if bounds.max_agent_steps != steps:
        raise entries["max_agent_steps"].error(
            f"must be {steps} = rounds {longest} x agents {len(characters)} x prompts "
            f"{bounds.max_prompts_per_agent_round} (15.10)"
        )
    return bounds


_BASE_PROMPT_BOUND = 40  # 15.10: Raider Camp's count, 2 ability prompts and 1 retaliation a box


def _area_box_extra(box: Box) -> int:
    """HV-AOE-10: the prompts a box with an area attack may pose beyond 15.10's budget for a box:
    its ability prompts over 2 (an area's hexes and its added targets, HV-AOE-11, each one
    prompt), and 3 (a damage response, 2 discard picks) for each retaliation beyond the first."""
    prompts = 0
    for ability in box.abilities:
        if ability.kind in (MOVE, ATTACK, HEAL, SUMMON):
            attacked = len(ability.area) + ability.add_targets if ability.area else ability.targets
            prompts += attacked if ability.kind == ATTACK else 1
            prompts += ability.consume is not None
    retaliations = sum(len(a.area) - 1 + a.add_targets for a in box.abilities if a.area)
    return max(0, prompts - 2) + 3 * retaliations


def _walk_entries(box: Box) -> int:
    """HV-TER-8: the most negative hexes a box's own Moves can enter: one per point of a walk
    (its Consume bonus included), one for a jump or a teleport (its last hex, HV-TEL-3), none
    for a flight."""
    total = 0
    for a in box.abilities:
        if a.kind == MOVE and not a.flying:
            landing_only = a.jump or a.teleport
            total += 1 if landing_only else a.value + (a.consume.bonus if a.consume else 0)
    return total


def _round_walk_entries(cls: CharacterClass) -> int:
    """HV-TER-8: the most negative hexes a character's walks can enter in a round: the top box of
    one card and the bottom box of another (HV-BOX-1; a bottom may be the default Move 2,
    HV-BOX-5), plus every item's Move bonus (HV-ITEM-4)."""
    default_bottom = 2
    best = max(
        (
            _walk_entries(a.top) + max(_walk_entries(b.bottom), default_bottom)
            for i, a in enumerate(cls.cards)
            for j, b in enumerate(cls.cards)
            if i != j
        ),
        default=default_bottom,
    )
    return best + sum(item.value for item in cls.items if item.effect == NEXT_MOVE_BONUS)


def _check_prompt_bound(
    node: _Node, rules: ScenarioRules, characters: Sequence[CharacterClass], hex_map: HexMap
) -> None:
    """HV-AOE-10, HV-TER-8: with area attacks, traps or hazards a round may pose more prompts
    than 15.10's 40; the declared ``max_prompts_per_agent_round`` must cover two area boxes of the
    worst character and 3 prompts for every negative hex its walks can enter in a round."""
    boxes = [b for c in characters for k in c.cards for b in (k.top, k.bottom)]
    extras = [_area_box_extra(b) for b in boxes if any(a.area for a in b.abilities)]
    area = 2 * max(extras, default=0)
    negative = bool(hex_map.traps or hex_map.hazardous)
    walks = 3 * max(map(_round_walk_entries, characters)) if negative else 0
    need = _BASE_PROMPT_BOUND + area + walks
    declared = rules.bounds.max_prompts_per_agent_round
    if declared < need:
        field = node.child("bounds").child("max_prompts_per_agent_round")
        raise field.error(
            f"{declared} is too few for this content: at least {need} = {_BASE_PROMPT_BOUND} + "
            f"{area} for area attacks (2 x the largest extra, HV-AOE-10) + {walks} for walks "
            f"onto traps and hazards (3 x the most such hexes a round, HV-TER-8) (15.10)"
        )


# --- the cross-check against the facts stated in section 15 --------------------------------------


def _cross_check(
    node: _Node,
    hex_map: HexMap,
    characters: Sequence[CharacterClass],
    types: Sequence[MonsterType],
    decks: Sequence[Sequence[ModifierCard]],
) -> None:
    cells_of = {kind: {c for c, k in enumerate(hex_map.cells) if k == kind} for kind in CELL_KINDS}
    grid = hex_map.grid
    checks = {
        "cells": lambda n: _check_count(n, len(hex_map.cells), "cells in the map"),
        "walls": lambda n: _check_cells(n, grid, cells_of[WALL], "walls in the map"),
        "obstacles": lambda n: _check_cells(n, grid, cells_of[OBSTACLE], "obstacles in the map"),
        "coins": lambda n: _check_cells(n, grid, set(hex_map.coins), "coin cells in the map"),
        "treasures": lambda n: _check_cells(
            n, grid, {t.cell for t in hex_map.treasures}, "treasure cells"
        ),
        "starts": lambda n: _check_starts(n, hex_map, characters),
        "hand_sizes": lambda n: _check_hand_sizes(n, characters),
        "monster_deck_size": lambda n: _check_monster_decks(n, types, "deck", len),
        "shuffle_cards_per_monster_deck": lambda n: _check_monster_decks(
            n, types, "shuffle cards", lambda deck: sum(card.shuffle for card in deck)
        ),
        "modifier_deck_size": lambda n: _check_modifier_decks(n, decks),
    }
    for key, check_node in node.table((), optional=_CROSS_CHECK_KEYS).items():
        checks[key](check_node)


def _check_count(node: _Node, actual: int, what: str) -> None:
    if node.integer(0) != actual:
        raise node.error(f"says {node.value} but there are {actual} {what}")


def _check_cells(node: _Node, grid: Grid, actual: set[int], what: str) -> None:
    listed = {_cell(item, grid) for item in node.items()}
    if listed != actual:
        raise node.error(
            f"differs from the {what}: listed only here: {_cells_text(grid, listed - actual)}; "
            f"only there: {_cells_text(grid, actual - listed)}"
        )


def _check_starts(node: _Node, hex_map: HexMap, characters: Sequence[CharacterClass]) -> None:
    entries = node.table(tuple(c.id for c in characters))
    for character, start in zip(characters, hex_map.starts, strict=True):
        listed = _cell(entries[character.id], hex_map.grid)
        if listed != start:
            raise entries[character.id].error(
                f"says {hex_map.grid.text(listed)} but {character.id} starts at "
                f"{hex_map.grid.text(start)}"
            )


def _check_hand_sizes(node: _Node, characters: Sequence[CharacterClass]) -> None:
    entries = node.table(tuple(c.id for c in characters))
    for character in characters:
        _check_count(entries[character.id], character.hand_size, f"{character.id} cards")


def _check_monster_decks(
    node: _Node,
    types: Sequence[MonsterType],
    what: str,
    measure: Callable[[Sequence[MonsterAbilityCard]], int],
) -> None:
    expected = node.integer(0)
    for kind in types:
        if measure(kind.deck) != expected:
            raise ScenarioError(
                f"{node.source}: monsters.{kind.id}.deck: has {measure(kind.deck)} {what}; "
                f"{node.path} says every monster ability deck has {expected} (15.6, 15.7)"
            )


def _check_modifier_decks(node: _Node, decks: Sequence[Sequence[ModifierCard]]) -> None:
    expected = node.integer(1)
    for owner, deck in zip(("characters", "monsters"), decks, strict=True):
        if len(deck) != expected:
            raise ScenarioError(
                f"{node.source}: modifier_decks.{owner}: the deck has {len(deck)} cards; "
                f"{node.path} says {expected} (HV-AMD-1)"
            )


# --- terrain and movement kinds (section 21, HV-TER-*, HV-FLY-*, HV-JMP-*) ----------------------

# HV-TER-1, HV-ICE-1 map tokens
_TERRAIN_MARKS = {"^": TRAP, "~": HAZARDOUS, "=": DIFFICULT, "*": ICY}
_TERRAIN_TOP_KEYS = ("terrain",)
_TERRAIN_KEYS = ("trap_damage", "trap_conditions", "hazardous_damage")


def _terrain(top: Mapping[str, _Node], hex_map: HexMap) -> Terrain:
    """HV-TER-2/3: the ``[terrain]`` table, required exactly when the map shows traps or
    hazardous terrain (difficult terrain needs no values)."""
    needs = bool(hex_map.traps or hex_map.hazardous)
    if "terrain" not in top:
        if needs:
            raise top["map"].error(
                "shows traps (^) or hazardous terrain (~), so the scenario needs a [terrain] table "
                "with trap_damage, trap_conditions and hazardous_damage"
            )
        return Terrain()
    node = top["terrain"]
    if not needs:
        raise node.error(
            "a [terrain] table is only allowed when the map shows traps (^) or hazardous "
            "terrain (~)"
        )
    entries = node.table(_TERRAIN_KEYS)
    terrain = Terrain(
        trap_damage=entries["trap_damage"].integer(0),
        trap_conditions=entries["trap_conditions"].texts(ATTACK_CONDITIONS),
        hazardous_damage=entries["hazardous_damage"].integer(0),
    )
    if hex_map.traps and not (terrain.trap_damage or terrain.trap_conditions):
        raise entries["trap_damage"].error(
            "a trap must do something: trap_damage >= 1 or at least one trap condition"
        )
    if hex_map.hazardous and terrain.hazardous_damage < 1:
        raise entries["hazardous_damage"].error(
            "must be at least 1 when the map shows hazardous terrain (~)"
        )
    return terrain


_MOVE_KINDS = ("jump", "flying", "teleport")


def _move_kind(entries: Mapping[str, _Node]) -> dict[str, bool]:
    """HV-JMP-1, HV-FLY-1, HV-TEL-1: a Move's ``jump`` / ``flying`` / ``teleport`` flags; at
    most one of them is true."""
    kinds = {k: entries[k].flag() for k in _MOVE_KINDS if k in entries}
    chosen = [k for k in _MOVE_KINDS if kinds.get(k)]
    if len(chosen) > 1:
        raise entries[chosen[-1]].error(
            f"a Move is at most one of {', '.join(_MOVE_KINDS)}, not {' and '.join(chosen)}"
        )
    return kinds
