"""The scenario model: map, characters, weapons, tiles and mission rules of one scenario.

These frozen records are what the rules engine reads; they are built from a data file by
:mod:`.loader` (ER-SCN-1..13), never written by hand in rules code.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Directions and facings (section 0.4): index 0..3, clockwise. "Right of" f is (f + 1) % 4.
N, E, S, W = 0, 1, 2, 3
DIRECTION_NAMES = ("N", "E", "S", "W")
DX = (0, 1, 0, -1)
DY = (-1, 0, 1, 0)

# Edge codes in Board.edge (doors are ids >= 0).
WALL = -1
OPEN_EDGE = -2

# Close-combat arc colours (ER-LOS-1): index into StatLine.cc.
DARK_BLUE, LIGHT_BLUE, GREY = 0, 1, 2
ARC_COLOUR_NAMES = ("dark_blue", "light_blue", "grey")

# Order types of tile sections (ER-TILE-1, ER-SCN-12).
MOVE, CLOSE_COMBAT, SHOOT, INTERACT, SEARCH = "M", "C", "F", "I", "S"
ORDER_TYPES = (MOVE, CLOSE_COMBAT, SHOOT, INTERACT, SEARCH)

# Door kinds (ER-DOOR-1).
SLIDING, WOODEN, MAGNETIC_SLIDING, MAGNETIC_WOODEN = (
    "sliding",
    "wooden",
    "magnetic_sliding",
    "magnetic_wooden",
)
DOOR_KINDS = (SLIDING, WOODEN, MAGNETIC_SLIDING, MAGNETIC_WOODEN)


@dataclass(frozen=True)
class Door:
    """A small door on the edge between squares ``a`` (north or west) and ``b`` (ER-DOOR-1)."""

    id: int
    kind: str
    a: int
    b: int
    defense: int  # defensive value against close combat (ER-CC-10, ER-SCN-3)

    @property
    def magnetic(self) -> bool:
        return self.kind in (MAGNETIC_SLIDING, MAGNETIC_WOODEN)

    @property
    def sliding(self) -> bool:
        return self.kind in (SLIDING, MAGNETIC_SLIDING)


@dataclass(frozen=True)
class Board:
    """The map as squares ``sq = y * width + x`` and the four edges of each square (ER-SCN-1).

    ``edge[sq][d]`` is WALL, OPEN_EDGE or a door id; an edge to a void square or off the map is a
    wall. ``neighbor[sq][d]`` is the square across edge ``d`` or -1 off the map.
    """

    width: int
    height: int
    void: tuple[bool, ...]
    edge: tuple[tuple[int, int, int, int], ...]
    neighbor: tuple[tuple[int, int, int, int], ...]
    doors: tuple[Door, ...]

    def square(self, x: int, y: int) -> int:
        return y * self.width + x

    def xy(self, sq: int) -> tuple[int, int]:
        return sq % self.width, sq // self.width

    def on_map(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height


@dataclass(frozen=True)
class StatLine:
    """One side (Healthy or Wounded) of a character card (ER-CHAR-2)."""

    mov: int
    cc: tuple[int, int, int]  # dice for dark-blue, light-blue, grey arcs
    sht: int
    arm: int
    lp: int
    maxcp: int
    bonus: int
    tec: int
    srch: int
    auto_hits: int = 0


@dataclass(frozen=True)
class Weapon:
    """A firing weapon (ER-SCN-6)."""

    name: str
    targeting_bonus: int
    damage_red: int
    damage_orange: int
    out_of_ammo_icon: bool


@dataclass(frozen=True)
class CharacterSpec:
    """A character card, its arc map, weapon, abilities and start (ER-SCN-4..7)."""

    id: str
    name: str
    faction: str
    healthy: StatLine
    wounded: StatLine
    arcs: tuple[int, int, int, int]  # colour of front, right, back, left
    weapon: Weapon | None
    abilities: frozenset[str]
    start: int  # square
    facing: int
    cards: int  # magnetic cards carried at setup


@dataclass(frozen=True)
class Section:
    """One of the four sections of an order tile (ER-TILE-1)."""

    type: str
    max: int
    colour: str


@dataclass(frozen=True)
class Tile:
    """An order tile: id like ``T01`` and four sections in index order (ER-SCN-12)."""

    id: str
    sections: tuple[Section, Section, Section, Section]


@dataclass(frozen=True)
class Terminal:
    """A floor element hacked by an Interact order (ER-INT-3)."""

    id: str
    square: int


@dataclass(frozen=True)
class Cache:
    """A square holding one item found by a Search order (ER-SRCH-2)."""

    square: int
    item: str  # "magnetic_card" in version 1


@dataclass(frozen=True)
class MissionRules:
    """Mission points and victory (ER-SCN-10, ER-SCN-11)."""

    hack_mp: int  # MP for each terminal hacked, to the hacking faction
    hacker_faction: str  # the faction whose characters may interact with terminals
    kill_mp: dict[str, int]  # faction -> MP for each enemy character it kills
    unhacked_terminal_mp: dict[str, int]  # faction -> MP per unhacked terminal at game end
    interact_threshold: int
    search_threshold: int
    end_when_all_hacked: bool
    hold_squares: tuple[int, ...] = ()  # ER-SCN-14: squares held at the game's end score
    hold_mp: dict[str, int] = field(default_factory=dict)  # faction -> MP per square it holds


@dataclass(frozen=True)
class Scenario:
    """Everything the rules need to know about one scenario (section 19)."""

    name: str
    title: str
    source: str  # file the scenario was loaded from, for error messages
    factions: tuple[str, str]
    board: Board
    characters: tuple[CharacterSpec, ...]
    tiles: tuple[Tile, ...]
    base_cp: dict[str, int]
    start_mp: dict[str, int]
    turns: int
    initiative_odd: str  # faction holding the initiative in odd turns (ER-SCN-9)
    initiative_even: str
    marker_at_setup: str
    initiative_duel: bool
    terminals: tuple[Terminal, ...]
    caches: tuple[Cache, ...]
    mission: MissionRules
    hand_limit: int = 5
    max_tiles_per_character: int = 4
    char_index: dict[str, int] = field(default_factory=dict, compare=False)
    tile_index: dict[str, int] = field(default_factory=dict, compare=False)
    figure_letters: list[str] = field(default_factory=list, compare=False)
    """Each character's letter on a drawn board (the text and RGB renders, the web page)."""

    def __post_init__(self) -> None:
        self.char_index.update({c.id: i for i, c in enumerate(self.characters)})
        self.tile_index.update({t.id: i for i, t in enumerate(self.tiles)})
        self.figure_letters.extend(_figure_letters(self.characters))

    def initiative_for_turn(self, turn: int) -> str:
        """ER-INI-7 / ER-SCN-9: who holds the initiative in ``turn``."""
        return self.initiative_odd if turn % 2 == 1 else self.initiative_even

    def opponent(self, faction: str) -> str:
        return self.factions[1] if faction == self.factions[0] else self.factions[0]

    def max_income(self, faction: str) -> int:
        """ER-INI-5/-6: the most CP ``faction`` can receive in a turn, base CP plus the larger
        Bonus CP of each of its cards."""
        cards = [c for c in self.characters if c.faction == faction]
        return self.base_cp[faction] + sum(max(c.healthy.bonus, c.wounded.bonus) for c in cards)


def _figure_letters(characters: tuple[CharacterSpec, ...]) -> list[str]:
    """A distinct letter per character: the first letter of its id that no earlier character
    took, nor one a drawn board gives terminals (``O``), caches (``C``) or doors (``S W M K``), so
    two troopers or three zombies stay apart (the status lines say whose letter is whose)."""
    taken = set("OCSWMK")
    letters = []
    for spec in characters:
        free = [ch for ch in spec.id.upper() if ch.isalpha() and ch not in taken]
        letters.append(free[0] if free else "?")
        taken.add(letters[-1])
    return letters
