"""Load a scenario from its TOML data file and parse its ASCII map (rules spec section 19).

A scenario is data, not code: the map, the character cards, the weapons, the 24 order tiles and the
mission rules of "Vault Raid" live in ``data/vault_raid.toml`` and are read here with the stdlib
``tomllib`` into the frozen records of :mod:`.model`. Every value is checked on load, so a typo in
the data fails at once with a :class:`ScenarioError` that names the file, the field and what is
allowed, instead of surfacing later as a wrong game. The map is parsed exactly as ER-SCN-1 says and
then compared with the redundant lists of ER-SCN-2 (the file's ``cross_check`` table), so the
picture and the lists cannot drift apart.
"""

from __future__ import annotations

import functools
import itertools
import random
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from reborn_env.core.data_files import DataNode as _Node
from reborn_env.core.data_files import ScenarioError, read_bundled, scenario_loader
from reborn_env.games.earth_reborn.actions import MAX_CP
from reborn_env.games.earth_reborn.scenario.generator import (
    MAX_DRAWS,
    PREFIX,
    draw_document,
    is_generated,
    problems,
)
from reborn_env.games.earth_reborn.scenario.model import (
    ARC_COLOUR_NAMES,
    DIRECTION_NAMES,
    DOOR_KINDS,
    DX,
    DY,
    MAGNETIC_SLIDING,
    MAGNETIC_WOODEN,
    OPEN_EDGE,
    SLIDING,
    WALL,
    WOODEN,
    Board,
    Cache,
    CharacterSpec,
    Door,
    E,
    MissionRules,
    S,
    Scenario,
    Section,
    StatLine,
    Terminal,
    Tile,
    Weapon,
)

DEFAULT_SCENARIO = "vault_raid"
ABILITIES = ("saw_door",)  # ER-ABIL-1: the only character ability of version 1
CACHE_ITEMS = ("magnetic_card",)  # ER-SRCH-2

MapMarks = dict[str, tuple[int, ...]]
"""Map letter -> the squares carrying it, in reading order (N/S starts, 1/2 terminals, C cache)."""

_WALL_CHARS = "|-"
_DOOR_CHARS = {"s": SLIDING, "w": WOODEN, "m": MAGNETIC_SLIDING, "k": MAGNETIC_WOODEN}
_MARK_CHARS = "NSC123456789"
_SECTION = re.compile(r"([MCFIS])([1-4])([krg])")
_COLOURS = {"k": "black", "r": "red", "g": "gold"}
_SECTION_RULE = (
    "expected <type><max><colour>: type one of M C F I S, max 1-4, colour k (black), r (red) "
    "or g (gold), e.g. 'M3k'"
)

_TOP_KEYS = (
    "name",
    "title",
    "factions",
    "turns",
    "hand_limit",
    "max_tiles_per_character",
    "map",
    "start_marks",
    "base_cp",
    "start_mp",
    "initiative",
    "door_defense",
    "terminals",
    "caches",
    "mission",
    "weapons",
    "characters",
    "tiles",
)
_CHARACTER_KEYS = (
    "name",
    "faction",
    "healthy",
    "wounded",
    "arcs",
    "abilities",
    "start",
    "facing",
    "cards",
)
_PACKAGE = __package__  # the data files lie in its data/ folder

_STAT_MINIMUM = {
    "mov": 1,
    "cc": 0,
    "sht": 0,
    "arm": 0,
    "lp": 1,
    "maxcp": 1,
    "bonus": 0,
    "tec": 0,
    "srch": 0,
    "auto_hits": 0,
}
_ARC_KEYS = ("front", "right", "back", "left")
_WEAPON_KEYS = ("targeting_bonus", "damage_red", "damage_orange", "out_of_ammo_icon")
_MISSION_KEYS = (
    "hack_mp",
    "hacker_faction",
    "kill_mp",
    "unhacked_terminal_mp",
    "interact_threshold",
    "search_threshold",
    "end_when_all_hacked",
)
_CROSS_CHECK_KEYS = (
    "floor_squares",
    "void",
    "doors",
    "open_edges",
    "walls",
    "terminals",
    "caches",
    "areas",
)


def load_scenario(name_or_path: str = DEFAULT_SCENARIO) -> Scenario:
    """Load and check a scenario (section 19).

    A bare name such as ``"vault_raid"`` loads ``data/<name>.toml`` from this package (cached: the
    result is frozen); ``"generated:<seed>"`` is the map the generator draws from that seed
    (ER-MAPGEN-1); a string with a path separator or a ``.toml`` suffix is a file path.
    """
    if is_generated(name_or_path):
        return generated_scenario(name_or_path)
    return _load(name_or_path)


@functools.lru_cache(maxsize=1024)  # a training set of generated maps is held at once
def generated_scenario(name: str) -> Scenario:
    """ER-MAPGEN-1..3: the map ``generated:<seed>`` names, the generator's first draw from that
    seed that passes :func:`build_scenario`'s checks and ``generator.problems`` (ValueError for
    another name)."""
    if not is_generated(name):
        raise ValueError(f"{name!r}: a generated scenario is generated:<seed>, 0 <= seed < 2**63")
    rng = random.Random(int(name.removeprefix(PREFIX)))
    for _ in range(MAX_DRAWS):
        document = draw_document(rng, name)
        try:
            scenario = build_scenario(document, f"<{name}>")
        except ScenarioError:
            continue
        if not problems(scenario):
            return scenario
    raise ValueError(f"{name}: no valid map in {MAX_DRAWS} draws")  # none in 10,000 seeds


def parse_map(
    text: str, door_defense: Mapping[str, int] | None = None, *, source: str = "<map>"
) -> tuple[Board, MapMarks]:
    """Parse an ASCII map exactly as ER-SCN-1 describes it; return the board and its map letters.

    ``door_defense`` maps each door kind to its defensive value (ER-SCN-3); by default the values
    of the default scenario file. ``source`` names the file in error messages.
    """
    defense = _default_door_defense() if door_defense is None else dict(door_defense)
    reader = _MapReader(text, source)
    reader.read_squares()
    reader.read_edges(defense)
    return reader.board(), {mark: tuple(squares) for mark, squares in reader.marks.items()}


# --- files ---------------------------------------------------------------------------------------


@functools.cache
def _default_door_defense() -> dict[str, int]:
    source, doc = read_bundled(_PACKAGE, DEFAULT_SCENARIO)
    return _door_defense(_Node(source, "door_defense", doc.get("door_defense")))


def _xy(x_y: tuple[int, int]) -> str:
    return f"({x_y[0]},{x_y[1]})"


def _squares_text(board: Board, squares: Iterable[int]) -> str:
    return ", ".join(_xy(board.xy(sq)) for sq in sorted(squares)) or "none"


def _square(node: _Node, board: Board) -> int:
    """A square given as ``[x, y]`` that lies on the map."""
    x, y = node.xy()
    if not board.on_map(x, y):
        raise node.error(f"{_xy((x, y))} is off the {board.width} x {board.height} map")
    return board.square(x, y)


def _edge(node: _Node, board: Board) -> tuple[int, int]:
    """An edge given as ``[[x, y], [x, y]]``: two squares side by side, north/west one first."""
    a, b = sorted(_square(item, board) for item in node.items(2))
    if b not in (board.neighbor[a][E], board.neighbor[a][S]):
        raise node.error("must be two squares side by side")
    return a, b


def _edge_code(board: Board, a: int, b: int) -> int:
    return board.edge[a][E if board.neighbor[a][E] == b else S]


def _edge_text(board: Board, a: int, b: int) -> str:
    return f"{_xy(board.xy(a))}|{_xy(board.xy(b))}"


# --- the map (ER-SCN-1) --------------------------------------------------------------------------


class _MapReader:
    """Reads the ASCII map: squares at odd row and column, edges between them, '+' corners."""

    def __init__(self, text: str, source: str) -> None:
        self.source = source
        self.rows = self._rows(text)
        self.width = (len(self.rows[0]) - 1) // 2
        self.height = (len(self.rows) - 1) // 2
        self.void = [False] * (self.width * self.height)
        self.edge = [[WALL] * 4 for _ in self.void]
        self.marks: dict[str, list[int]] = {}
        self.doors: list[Door] = []

    def fail(self, row: int, col: int, problem: str) -> ScenarioError:
        return ScenarioError(f"{self.source}: map: row {row}, column {col} (from 0): {problem}")

    def _rows(self, text: str) -> list[str]:
        rows = text.splitlines()
        while rows and not rows[0].strip():
            rows.pop(0)
        while rows and not rows[-1].strip():
            rows.pop()
        if len(rows) < 3 or len(rows) % 2 == 0:
            raise ScenarioError(
                f"{self.source}: map: has {len(rows)} rows; it must have 2H+1 rows, H >= 1"
            )
        for i, row in enumerate(rows):
            if len(row) != len(rows[0]):
                raise ScenarioError(
                    f"{self.source}: map: row {i} has {len(row)} characters but row 0 has "
                    f"{len(rows[0])}; all rows must have the same length (ragged map)"
                )
        if len(rows[0]) < 3 or len(rows[0]) % 2 == 0:
            raise ScenarioError(
                f"{self.source}: map: rows have {len(rows[0])} columns; they must have 2W+1, W >= 1"
            )
        return rows

    def read_squares(self) -> None:
        for row in range(0, len(self.rows), 2):
            for col in range(0, len(self.rows[0]), 2):
                if self.rows[row][col] != "+":
                    raise self.fail(row, col, f"corner is {self.rows[row][col]!r}; must be '+'")
        for y in range(self.height):
            for x in range(self.width):
                self._read_square(x, y)

    def _read_square(self, x: int, y: int) -> None:
        char, sq = self.rows[2 * y + 1][2 * x + 1], y * self.width + x
        if char == "X":
            self.void[sq] = True
        elif char in _MARK_CHARS:
            self.marks.setdefault(char, []).append(sq)
        elif char != ".":
            raise self.fail(
                2 * y + 1,
                2 * x + 1,
                f"square {_xy((x, y))} is {char!r}; a square is '.' (floor), 'X' (void) or a "
                f"map letter: {' '.join(_MARK_CHARS)}",
            )

    def read_edges(self, defense: Mapping[str, int]) -> None:
        """Read every edge character in reading order, so door ids follow the text."""
        for row, line in enumerate(self.rows):
            for col in range(1 - row % 2, len(line), 2):
                self._read_edge(row, col, defense)

    def _read_edge(self, row: int, col: int, defense: Mapping[str, int]) -> None:
        char = self.rows[row][col]
        if row % 2 == 1:  # between (x, y) and (x + 1, y): column 2x + 2, row 2y + 1
            a, b, direction = (col // 2 - 1, row // 2), (col // 2, row // 2), E
        else:  # between (x, y) and (x, y + 1): column 2x + 1, row 2y + 2
            a, b, direction = (col // 2, row // 2 - 1), (col // 2, row // 2), S
        if char in _WALL_CHARS:
            return
        blocked = self._blocked(a) or self._blocked(b)
        if char == " ":
            if not blocked:
                self._set(a, b, direction, OPEN_EDGE)
            return
        if char not in _DOOR_CHARS:
            raise self.fail(
                row,
                col,
                f"edge {_xy(a)}|{_xy(b)} is {char!r}; an edge is '|' or '-' (wall), "
                "' ' (open), 's' (sliding), 'w' (wooden), 'm' (magnetic sliding) or "
                "'k' (magnetic wooden)",
            )
        kind = _DOOR_CHARS[char]
        if blocked:
            raise self.fail(
                row,
                col,
                f"door {char!r} on edge {_xy(a)}|{_xy(b)} touches a void square or "
                "the map border; a door needs a floor square on both sides",
            )
        if kind not in defense:
            raise self.fail(row, col, f"no defensive value given for door kind {kind!r}")
        door_id = len(self.doors)
        self.doors.append(Door(door_id, kind, self._sq(a), self._sq(b), defense[kind]))
        self._set(a, b, direction, door_id)

    def _sq(self, x_y: tuple[int, int]) -> int:
        return x_y[1] * self.width + x_y[0]

    def _blocked(self, x_y: tuple[int, int]) -> bool:
        x, y = x_y
        return not (0 <= x < self.width and 0 <= y < self.height) or self.void[self._sq(x_y)]

    def _set(self, a: tuple[int, int], b: tuple[int, int], direction: int, code: int) -> None:
        self.edge[self._sq(a)][direction] = code
        self.edge[self._sq(b)][(direction + 2) % 4] = code

    def board(self) -> Board:
        def neighbor(sq: int, d: int) -> int:
            x, y = sq % self.width + DX[d], sq // self.width + DY[d]
            return y * self.width + x if 0 <= x < self.width and 0 <= y < self.height else -1

        squares = range(self.width * self.height)
        return Board(
            width=self.width,
            height=self.height,
            void=tuple(self.void),
            edge=tuple((e[0], e[1], e[2], e[3]) for e in self.edge),
            neighbor=tuple(
                (neighbor(sq, 0), neighbor(sq, 1), neighbor(sq, 2), neighbor(sq, 3))
                for sq in squares
            ),
            doors=tuple(self.doors),
        )


# --- building the scenario -----------------------------------------------------------------------


def build_scenario(doc: dict[str, Any], source: str) -> Scenario:
    """The scenario a file's document describes, every value checked (ScenarioError)."""
    top = _Node(source, "", doc).table(_TOP_KEYS, optional=("cross_check",))
    factions = _factions(top["factions"])
    map_node = top["map"]
    board, marks = parse_map(map_node.text(), _door_defense(top["door_defense"]), source=source)
    letters: dict[str, str] = {}  # map letter -> what it marks
    start_marks = _start_marks(top["start_marks"], factions, letters)
    terminals = _terminals(top["terminals"], marks, letters)
    caches = _caches(top["caches"], marks, letters)
    _check_letters_used(map_node, board, marks, letters)
    weapons = {key: _weapon(key, node) for key, node in top["weapons"].entries().items()}
    characters = _characters(top["characters"], factions, weapons, board, marks, start_marks)
    if "cross_check" in top:
        _cross_check(top["cross_check"], board, terminals, caches)
    initiative = top["initiative"].table(("odd", "even", "marker_at_setup", "duel"))
    scenario = Scenario(
        name=top["name"].text(),
        title=top["title"].text(),
        source=source,
        factions=factions,
        board=board,
        characters=characters,
        tiles=_tiles(top["tiles"]),
        base_cp=_per_faction(top["base_cp"], factions, complete=True),
        start_mp=_per_faction(top["start_mp"], factions, complete=True),
        turns=top["turns"].integer(1),
        initiative_odd=initiative["odd"].text(factions),
        initiative_even=initiative["even"].text(factions),
        marker_at_setup=initiative["marker_at_setup"].text(factions),
        initiative_duel=initiative["duel"].flag(),
        terminals=terminals,
        caches=caches,
        mission=_mission(top["mission"], factions, board),
        hand_limit=top["hand_limit"].integer(1),
        max_tiles_per_character=top["max_tiles_per_character"].integer(1),
    )
    _check_income(top["base_cp"], scenario)
    return scenario


_load = scenario_loader(_PACKAGE, build_scenario)


def _factions(node: _Node) -> tuple[str, str]:
    first, second = (item.text() for item in node.items(2))
    if first == second:
        raise node.error(f"the two factions must differ, got {first!r} twice")
    return first, second


def _per_faction(node: _Node, factions: Sequence[str], complete: bool) -> dict[str, int]:
    """A table faction -> integer >= 0; factions left out of an incomplete table get 0."""
    entries = node.table(factions) if complete else node.table((), optional=factions)
    return {f: entries[f].integer(0) if f in entries else 0 for f in factions}


def _check_income(node: _Node, scenario: Scenario) -> None:
    """ER-INI-5/-6: a turn's income fits a CP pool (0..MAX_CP, the range of positions and of
    DUEL_BID)."""
    for faction in scenario.factions:
        if scenario.max_income(faction) > MAX_CP:
            raise node.error(
                f"{faction}'s income can reach {scenario.max_income(faction)} CP (base "
                f"{scenario.base_cp[faction]} plus Bonus CP); a pool holds at most {MAX_CP}"
            )


def _door_defense(node: _Node) -> dict[str, int]:
    return {kind: n.integer(1) for kind, n in node.table(DOOR_KINDS).items()}


def _claim_letter(node: _Node, letters: dict[str, str], use: str) -> str:
    """Record that the map letter in ``node`` marks ``use``; a letter may mark one thing only."""
    letter = node.text(_MARK_CHARS)
    if letter in letters:
        raise node.error(f"letter {letter!r} already marks {letters[letter]}; use another letter")
    letters[letter] = use
    return letter


def _start_marks(node: _Node, factions: Sequence[str], letters: dict[str, str]) -> dict[str, str]:
    entries = node.table(factions)
    return {f: _claim_letter(entries[f], letters, f"the {f} start squares") for f in factions}


def _terminals(node: _Node, marks: MapMarks, letters: dict[str, str]) -> tuple[Terminal, ...]:
    terminals = []
    for terminal_id, letter_node in node.entries().items():
        letter = _claim_letter(letter_node, letters, f"terminal {terminal_id}")
        if len(marks.get(letter, ())) != 1:
            raise letter_node.error(
                f"the map must show letter {letter!r} on exactly one square, it shows it on "
                f"{len(marks.get(letter, ()))}"
            )
        terminals.append(Terminal(terminal_id, marks[letter][0]))
    return tuple(terminals)


def _caches(node: _Node, marks: MapMarks, letters: dict[str, str]) -> tuple[Cache, ...]:
    caches = []
    for letter, item_node in node.entries().items():
        _claim_letter(_Node(node.source, item_node.path, letter), letters, "a cache")
        if letter not in marks:
            raise item_node.error(f"the map has no square with letter {letter!r}")
        caches.extend(Cache(sq, item_node.text(CACHE_ITEMS)) for sq in marks[letter])
    return tuple(caches)


def _check_letters_used(
    map_node: _Node, board: Board, marks: MapMarks, letters: Mapping[str, str]
) -> None:
    for letter, squares in marks.items():
        if letter not in letters:
            raise map_node.error(
                f"letter {letter!r} at {_squares_text(board, squares)} marks nothing in this "
                "scenario; map letters are declared in start_marks, terminals and caches"
            )


def _weapon(name: str, node: _Node) -> Weapon:
    entries = node.table(_WEAPON_KEYS)
    return Weapon(
        name=name,
        targeting_bonus=entries["targeting_bonus"].integer(),
        damage_red=entries["damage_red"].integer(1),
        damage_orange=entries["damage_orange"].integer(0),
        out_of_ammo_icon=entries["out_of_ammo_icon"].flag(),
    )


def _characters(
    node: _Node,
    factions: Sequence[str],
    weapons: Mapping[str, Weapon],
    board: Board,
    marks: MapMarks,
    start_marks: Mapping[str, str],
) -> tuple[CharacterSpec, ...]:
    characters = tuple(
        _character(char_id, char_node, factions, weapons, board, marks, start_marks)
        for char_id, char_node in node.entries().items()
    )
    for first, second in itertools.combinations(characters, 2):
        if first.start == second.start:
            raise node.error(
                f"{first.id} and {second.id} both start at {_xy(board.xy(first.start))}"
            )
    for faction in factions:
        starts = {c.start for c in characters if c.faction == faction}
        if not starts:
            raise node.error(f"faction {faction!r} has no character")
        marked = set(marks.get(start_marks[faction], ()))
        if starts != marked:
            raise node.error(
                f"{faction} characters start at {_squares_text(board, starts)} but the map marks "
                f"{start_marks[faction]!r} at {_squares_text(board, marked)}; they must agree"
            )
    return characters


def _character(
    char_id: str,
    node: _Node,
    factions: Sequence[str],
    weapons: Mapping[str, Weapon],
    board: Board,
    marks: MapMarks,
    start_marks: Mapping[str, str],
) -> CharacterSpec:
    entries = node.table(_CHARACTER_KEYS, optional=("weapon",))
    faction = entries["faction"].text(factions)
    abilities = [a.text(ABILITIES) for a in entries["abilities"].items()]
    if len(set(abilities)) != len(abilities):
        raise entries["abilities"].error("an ability is listed twice")
    return CharacterSpec(
        id=char_id,
        name=entries["name"].text(),
        faction=faction,
        healthy=_stat_line(entries["healthy"]),
        wounded=_stat_line(entries["wounded"]),
        arcs=_arcs(entries["arcs"]),
        weapon=weapons[entries["weapon"].text(weapons)] if "weapon" in entries else None,
        abilities=frozenset(abilities),
        start=_start(entries["start"], board, marks, start_marks[faction]),
        facing=DIRECTION_NAMES.index(entries["facing"].text(DIRECTION_NAMES)),
        cards=entries["cards"].integer(0),
    )


def _stat_line(node: _Node) -> StatLine:
    entries = node.table(tuple(_STAT_MINIMUM))
    dark, light, grey = (item.integer(0) for item in entries["cc"].items(3))
    values = {k: entries[k].integer(low) for k, low in _STAT_MINIMUM.items() if k != "cc"}
    return StatLine(cc=(dark, light, grey), **values)


def _arcs(node: _Node) -> tuple[int, int, int, int]:
    entries = node.table(_ARC_KEYS)
    front, right, back, left = (
        ARC_COLOUR_NAMES.index(entries[key].text(ARC_COLOUR_NAMES)) for key in _ARC_KEYS
    )
    return front, right, back, left


def _start(node: _Node, board: Board, marks: MapMarks, start_mark: str) -> int:
    sq = _square(node, board)
    if board.void[sq]:
        raise node.error(f"{_xy(board.xy(sq))} is a void square; a start must be a floor square")
    if sq not in marks.get(start_mark, ()):
        raise node.error(
            f"the map does not mark {_xy(board.xy(sq))} with this faction's start letter "
            f"{start_mark!r}; the map and the starts must agree"
        )
    return sq


def _tiles(node: _Node) -> tuple[Tile, ...]:
    tiles = [_tile(tile_id, n) for tile_id, n in node.entries().items()]
    return tuple(sorted(tiles, key=lambda tile: tile.id))


def _tile(tile_id: str, node: _Node) -> Tile:
    sections = []
    for item in node.items(4):
        match = _SECTION.fullmatch(item.text())
        if match is None:
            raise item.error(f"{item.value!r} is not a tile section; {_SECTION_RULE}")
        kind, maximum, colour = match.groups()
        sections.append(Section(kind, int(maximum), _COLOURS[colour]))
    return Tile(tile_id, (sections[0], sections[1], sections[2], sections[3]))


def _mission(node: _Node, factions: Sequence[str], board: Board) -> MissionRules:
    entries = node.table(_MISSION_KEYS, optional=("hold", "hold_mp"))
    if ("hold" in entries) != ("hold_mp" in entries):
        raise node.error("'hold' and 'hold_mp' come together: the squares and what each scores")
    return MissionRules(
        hold_squares=_hold_squares(entries["hold"], board) if "hold" in entries else (),
        hold_mp=_per_faction(entries["hold_mp"], factions, complete=False)
        if "hold_mp" in entries
        else {},
        hack_mp=entries["hack_mp"].integer(0),
        hacker_faction=entries["hacker_faction"].text(factions),
        kill_mp=_per_faction(entries["kill_mp"], factions, complete=False),
        unhacked_terminal_mp=_per_faction(
            entries["unhacked_terminal_mp"], factions, complete=False
        ),
        interact_threshold=entries["interact_threshold"].integer(1),
        search_threshold=entries["search_threshold"].integer(1),
        end_when_all_hacked=entries["end_when_all_hacked"].flag(),
    )


def _hold_squares(node: _Node, board: Board) -> tuple[int, ...]:
    """ER-SCN-14: the hold squares, ``[[x, y], ...]``: at least one, distinct, on the floor."""
    squares = []
    for item in node.items(minimum=1):
        sq = _square(item, board)
        if board.void[sq]:
            raise item.error(f"{_xy(board.xy(sq))} is outside the rooms; a hold square is floor")
        if sq in squares:
            raise item.error(f"{_xy(board.xy(sq))} is named twice")
        squares.append(sq)
    return tuple(squares)


# --- the cross-check of the map against the lists of ER-SCN-2 ------------------------------------


def _cross_check(
    node: _Node, board: Board, terminals: Sequence[Terminal], caches: Sequence[Cache]
) -> None:
    entries = node.table((), optional=_CROSS_CHECK_KEYS)
    floor = {sq for sq, void in enumerate(board.void) if not void}
    checks = {
        "floor_squares": lambda n: _check_floor_count(n, len(floor)),
        "void": lambda n: _check_squares(n, board, set(range(len(board.void))) - floor, "void"),
        "doors": lambda n: _check_doors(n, board),
        "open_edges": lambda n: _check_edges(n, board, OPEN_EDGE, "open"),
        "walls": lambda n: _check_edges(n, board, WALL, "a wall"),
        "terminals": lambda n: _check_terminals(n, board, terminals),
        "caches": lambda n: _check_squares(n, board, {c.square for c in caches}, "cache"),
        "areas": lambda n: _check_areas(n, board, floor),
    }
    for key, check_node in entries.items():
        checks[key](check_node)


def _check_floor_count(node: _Node, floor_count: int) -> None:
    if node.integer(0) != floor_count:
        raise node.error(f"says {node.value} floor squares but the map has {floor_count}")


def _check_squares(node: _Node, board: Board, actual: set[int], what: str) -> None:
    listed = {_square(item, board) for item in node.items()}
    if listed != actual:
        raise node.error(
            f"differs from the map: listed but not {what} in the map: "
            f"{_squares_text(board, listed - actual)}; {what} in the map but not listed: "
            f"{_squares_text(board, actual - listed)}"
        )


def _check_doors(node: _Node, board: Board) -> None:
    listed: dict[int, str] = {}
    for item in node.items():
        entries = item.table(("id", "kind", "edge"))
        door_id = entries["id"].integer(0)
        if door_id in listed:
            raise entries["id"].error(f"door id {door_id} is listed twice")
        a, b = _edge(entries["edge"], board)
        listed[door_id] = f"{entries['kind'].text(DOOR_KINDS)} {_edge_text(board, a, b)}"
    actual = {d.id: f"{d.kind} {_edge_text(board, d.a, d.b)}" for d in board.doors}
    diffs = [
        f"door {i}: listed {listed.get(i, 'nothing')}, map has {actual.get(i, 'nothing')}"
        for i in sorted(set(listed) | set(actual))
        if listed.get(i) != actual.get(i)
    ]
    if diffs:
        raise node.error(
            "differs from the map (doors are numbered in reading order of the map): "
            + "; ".join(diffs)
        )


def _check_edges(node: _Node, board: Board, code: int, what: str) -> None:
    for item in node.items():
        a, b = _edge(item, board)
        if _edge_code(board, a, b) != code:
            raise item.error(f"edge {_edge_text(board, a, b)} is not {what} in the map")


def _check_terminals(node: _Node, board: Board, terminals: Sequence[Terminal]) -> None:
    entries = node.table(tuple(t.id for t in terminals))
    for terminal in terminals:
        listed = _square(entries[terminal.id], board)
        if listed != terminal.square:
            raise entries[terminal.id].error(
                f"says {_xy(board.xy(listed))} but the map puts terminal {terminal.id} at "
                f"{_xy(board.xy(terminal.square))}"
            )


def _check_areas(node: _Node, board: Board, floor: set[int]) -> None:
    covered: set[int] = set()
    for area_node in node.entries().values():
        entries = area_node.table(("x", "y"))
        x0, x1 = (i.integer(0) for i in entries["x"].items(2))
        y0, y1 = (i.integer(0) for i in entries["y"].items(2))
        if not (x0 <= x1 < board.width and y0 <= y1 < board.height):
            raise area_node.error(
                "must be x = [low, high], y = [low, high], low <= high, on the map"
            )
        area = {board.square(x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)}
        if not area <= floor:
            raise area_node.error(
                f"holds squares that are not floor: {_squares_text(board, area - floor)}"
            )
        if area & covered:
            raise area_node.error(
                f"overlaps another area at {_squares_text(board, area & covered)}"
            )
        covered |= area
    if covered != floor:
        raise node.error(f"the areas miss floor squares: {_squares_text(board, floor - covered)}")
