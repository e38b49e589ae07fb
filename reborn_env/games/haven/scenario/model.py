"""The haven scenario model: map, characters, cards, items, summons, monsters and decks.

These frozen records are what the haven rules engine reads. They are built from a data file by
:mod:`.loader` (section 15 of haven.md), never written by hand in rules code,
so that the content of a scenario can be checked once, on load, and then trusted.

Conventions used throughout (section 2, HV-MAP-1): a cell is ``(col, row)`` on the scenario's
odd-r hex grid (9 x 7 unless its map is larger) and is stored as its cell id
``width * row + col``. A ``range`` of 0 means that no Range is printed: a melee attack (it reaches
range 1, HV-ABL-2) or a heal on the figure itself (HV-ABL-3).
"""

from __future__ import annotations

from dataclasses import dataclass, field

# HV-MAP-1: the standard grid, and the largest a map may have.
WIDTH, HEIGHT = 9, 7
MAX_WIDTH, MAX_HEIGHT = 24, 24

# HV-MAP-3: cell kinds.
FLOOR, OBSTACLE, WALL = "floor", "obstacle", "wall"
CELL_KINDS = (FLOOR, OBSTACLE, WALL)

# --- terrain and movement kinds (section 21, HV-TER-*, HV-FLY-*, HV-JMP-*) ---------------------
# HV-TER-1: the terrain a floor cell may carry. Such a cell is still FLOOR in ``HexMap.cells``
# (figures stand and move there); ``HexMap.traps``/``hazardous``/``difficult``/``icy`` say which
# it is (icy terrain: section 26, HV-ICE-1).
TRAP, HAZARDOUS, DIFFICULT, ICY = "trap", "hazardous", "difficult", "icy"
TERRAIN_KINDS = (TRAP, HAZARDOUS, DIFFICULT, ICY)


@dataclass(frozen=True)
class Terrain:
    """HV-TER-2/3: the scenario's ``[terrain]`` table: what springing a trap and entering a
    hazardous hex do. All zero where the map has neither."""

    trap_damage: int = 0
    trap_conditions: tuple[str, ...] = ()
    hazardous_damage: int = 0


# --- end of terrain and movement kinds ---------------------------------------------------------

# HV-STATE-5 / HV-ELEM-1: the six elements.
ELEMENTS = ("fire", "ice", "air", "earth", "light", "dark")

# HV-ABL-12: conditions an attack may apply to its targets; HV-ABL-6: conditions a figure gives
# itself. Section 9 lists no others for haven (HV-COND-12).
ATTACK_CONDITIONS = ("poison", "wound", "immobilize", "disarm", "stun", "muddle")
SELF_CONDITIONS = ("strengthen", "invisible")
CONDITIONS = ATTACK_CONDITIONS + SELF_CONDITIONS

# Section 7: the ability vocabulary. "condition" is HV-ABL-6 (a positive condition on self),
# "infuse" is HV-ABL-9 (an element standing alone in a box), "suffer_damage" is HV-ABL-11.
# Consuming an element (HV-ABL-10) is not an ability of its own but a Consume attached to one.
MOVE, ATTACK, HEAL, SHIELD, RETALIATE = "move", "attack", "heal", "shield", "retaliate"
CONDITION, SUMMON, LOOT, INFUSE, SUFFER_DAMAGE = (
    "condition",
    "summon",
    "loot",
    "infuse",
    "suffer_damage",
)
ABILITY_KINDS = (
    MOVE,
    ATTACK,
    HEAL,
    SHIELD,
    RETALIATE,
    CONDITION,
    SUMMON,
    LOOT,
    INFUSE,
    SUFFER_DAMAGE,
)
# HV-MTURN-10: what a monster ability card may hold in the default content.
MONSTER_ABILITY_KINDS = (MOVE, ATTACK, SHIELD, RETALIATE, INFUSE)

# HV-BOX-9 / 15.2 fate codes: D discard, L lost, R round bonus, P->L persistent then lost.
DISCARD, LOST, ROUND, PERSISTENT = "discard", "lost", "round", "persistent"
FATES = (DISCARD, LOST, ROUND, PERSISTENT)

# HV-STATE-2: monster ranks.
NORMAL, ELITE = "normal", "elite"
RANKS = (NORMAL, ELITE)

# HV-ITEM-3: item types; HV-ITEM-4 / 15.4: what an item does when used.
SPENT, CONSUMED = "spent", "consumed"
ITEM_USES = (SPENT, CONSUMED)
NEXT_MOVE_BONUS, NEXT_ATTACK_ADVANTAGE, HEAL_SELF, INFUSE_ELEMENT = (
    "next_move_bonus",
    "next_attack_advantage",
    "heal_self",
    "infuse",
)
ITEM_EFFECTS = (NEXT_MOVE_BONUS, NEXT_ATTACK_ADVANTAGE, HEAL_SELF, INFUSE_ELEMENT)

# HV-AMD-1: modifier card kinds ("+n"/"-n" add, "x2" doubles, "null" zeroes the attack).
ADD, DOUBLE, NULL = "add", "double", "null"

# HV-END-2: win conditions a scenario may name.
NO_MONSTERS = "no_monsters"
WIN_CONDITIONS = (NO_MONSTERS,)


# HV-AOE-1, 15.10: [DEF] the most hexes an area-of-effect pattern may list.
MAX_AREA_HEXES = 7
# HV-AOE-11, 15.10: [DEF] the most targets an area attack's Add Target may add.
MAX_ADD_TARGETS = 2


def cell_id(col: int, row: int, width: int) -> int:
    """HV-MAP-1: the id of cell ``(col, row)`` on a grid ``width`` columns wide."""
    return width * row + col


def cell_xy(cell: int, width: int) -> tuple[int, int]:
    """HV-MAP-1: ``(col, row)`` of a cell id on a grid ``width`` columns wide."""
    return cell % width, cell // width


@dataclass(frozen=True)
class Grid:
    """HV-MAP-1: a grid of ``width`` columns and ``height`` rows, and its cell ids."""

    width: int = WIDTH
    height: int = HEIGHT

    @property
    def cells(self) -> int:
        """How many cells the grid has: its ids are ``0 .. cells - 1``."""
        return self.width * self.height

    def id(self, col: int, row: int) -> int:
        """The id of cell ``(col, row)``."""
        return cell_id(col, row, self.width)

    def xy(self, cell: int) -> tuple[int, int]:
        """``(col, row)`` of a cell id."""
        return cell_xy(cell, self.width)

    def contains(self, col: int, row: int) -> bool:
        """Whether ``(col, row)`` lies on the grid."""
        return 0 <= col < self.width and 0 <= row < self.height

    def text(self, cell: int) -> str:
        """A cell as its readers write it, ``(col,row)``."""
        col, row = self.xy(cell)
        return f"({col},{row})"

    def bounds_text(self) -> str:
        """The grid's bounds, for error messages: ``0 <= col <= 8 and 0 <= row <= 6``."""
        return f"0 <= col <= {self.width - 1} and 0 <= row <= {self.height - 1}"


@dataclass(frozen=True)
class Consume:
    """HV-ABL-10: "consume E: bonus" attached to an ability; adds to its value or its conditions."""

    element: str
    bonus: int = 0
    conditions: tuple[str, ...] = ()


@dataclass(frozen=True)
class Ability:
    """One line of a box or monster card (section 7).

    ``value`` is X of Move/Attack/Heal/Shield/Retaliate/Loot/suffer X damage; on a monster card the
    Move and Attack values and ``range`` are signed modifiers of the monster's stats (HV-MTURN-10).
    ``conditions`` are applied to each target of an attack (HV-ABL-12) or, for ``condition``, to
    the figure itself (HV-ABL-6). ``element`` is the element of an ``infuse``; ``summon`` names
    the summon of a ``summon`` ability. ``area`` is an attack's area-of-effect pattern as axial
    offsets ``(dq, dr)`` (HV-AOE-1): without ``(0, 0)`` a melee pattern around the attacker's
    hex, with it a ranged pattern around its anchor; empty for a single-target attack.
    ``add_targets`` is an area attack's Add Target (HV-AOE-11): that many further enemies outside
    the area, within the attack's range.
    """

    kind: str
    value: int = 0
    range: int = 0
    targets: int = 1
    pierce: int = 0
    conditions: tuple[str, ...] = ()
    element: str | None = None
    summon: str | None = None
    consume: Consume | None = None
    area: tuple[tuple[int, int], ...] = ()
    add_targets: int = 0  # HV-AOE-11: only with an area
    jump: bool = False  # HV-JMP-1: a Move with Jump
    flying: bool = False  # HV-FLY-1: a Move with Flying
    teleport: bool = False  # HV-TEL-1: a Move that teleports


@dataclass(frozen=True)
class Box:
    """The top or bottom half of an ability card and where the card goes once it is performed."""

    abilities: tuple[Ability, ...]
    fate: str  # one of FATES (HV-BOX-9)


@dataclass(frozen=True)
class AbilityCard:
    """A character's ability card (15.2)."""

    id: str
    name: str
    initiative: int
    top: Box
    bottom: Box


@dataclass(frozen=True)
class Item:
    """An item card (15.4): ``value`` is the Move bonus or the heal; ``element`` the infusion."""

    id: str
    name: str
    use: str  # one of ITEM_USES (HV-ITEM-3)
    effect: str  # one of ITEM_EFFECTS (HV-ITEM-4)
    value: int = 0
    element: str | None = None


@dataclass(frozen=True)
class CharacterClass:
    """A character (15.2): one per agent, in agent-index order. ``items`` are ITEM(0), ITEM(1)."""

    id: str  # the agent name
    name: str
    role: str
    map_letter: str
    max_hp: int
    cards: tuple[AbilityCard, ...]  # in table order: card index k of the action space
    items: tuple[Item, ...]

    @property
    def hand_size(self) -> int:
        return len(self.cards)


@dataclass(frozen=True)
class SummonSpec:
    """A summon card's stats (15.3, HV-STATE-3)."""

    id: str
    name: str
    hp: int
    move: int
    attack: int
    range: int


@dataclass(frozen=True)
class MonsterStats:
    """One rank of a monster type (15.5); ``shield``/``retaliate`` are always active (stat line)."""

    hp: int
    move: int
    attack: int
    range: int
    shield: int = 0
    retaliate: int = 0


@dataclass(frozen=True)
class MonsterAbilityCard:
    """A monster ability card (15.6): abilities top to bottom and the shuffle mark."""

    id: str
    name: str
    initiative: int
    abilities: tuple[Ability, ...]
    shuffle: bool


@dataclass(frozen=True)
class MonsterType:
    """A monster type with both ranks and its ability deck (15.5, 15.6, HV-STATE-4)."""

    id: str
    name: str
    letter: str  # map letter: lower case for normal, upper case for elite standees
    normal: MonsterStats
    elite: MonsterStats
    deck: tuple[MonsterAbilityCard, ...]
    flying: bool = False  # HV-FLY-1: every Move of the type flies

    def stats(self, rank: str) -> MonsterStats:
        return self.elite if rank == ELITE else self.normal


@dataclass(frozen=True)
class MonsterPlacement:
    """A monster standee at setup (15.1, HV-STATE-2)."""

    type: str
    rank: str
    standee: int
    cell: int


@dataclass(frozen=True)
class Treasure:
    """A numbered treasure tile and what it gives when looted (HV-LOOT-3)."""

    number: int
    cell: int
    heal: int
    gold: int


@dataclass(frozen=True)
class HexMap:
    """The map at setup (15.1): its grid, cell kinds by cell id, tokens, starts and monsters.

    ``coins`` holds one entry per coin token (a cell may appear more than once, HV-STATE-6);
    ``starts`` holds the start cell of each character in agent-index order.
    """

    cells: tuple[str, ...]
    coins: tuple[int, ...]
    treasures: tuple[Treasure, ...]
    starts: tuple[int, ...]
    monsters: tuple[MonsterPlacement, ...]
    traps: tuple[int, ...] = ()  # HV-TER-1: trap cells at setup, ascending
    hazardous: tuple[int, ...] = ()  # HV-TER-1: hazardous terrain cells, ascending
    difficult: tuple[int, ...] = ()  # HV-TER-1: difficult terrain cells, ascending
    icy: tuple[int, ...] = ()  # HV-ICE-1: icy terrain cells, ascending
    # HV-TW-1: thin walls, each the edge (lower cell id, higher cell id) between two neighbours,
    # ascending
    thin_walls: tuple[tuple[int, int], ...] = ()
    width: int = WIDTH  # HV-MAP-1: columns
    height: int = HEIGHT  # HV-MAP-1: rows

    @property
    def grid(self) -> Grid:
        """HV-MAP-1: the map's grid."""
        return Grid(self.width, self.height)

    @property
    def terrain_kinds(self) -> tuple[str, ...]:
        """HV-TER-1: the terrain kinds this map uses, in TERRAIN_KINDS order."""
        cells = (self.traps, self.hazardous, self.difficult, self.icy)
        return tuple(kind for kind, where in zip(TERRAIN_KINDS, cells, strict=True) if where)

    @property
    def fixed_terrain(self) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """HV-TER-1, HV-ICE-1: the terrain that never leaves the map (all but traps), as (kind,
        cells) pairs in TERRAIN_KINDS order."""
        return ((HAZARDOUS, self.hazardous), (DIFFICULT, self.difficult), (ICY, self.icy))

    def kind(self, col: int, row: int) -> str:
        return self.cells[cell_id(col, row, self.width)]


@dataclass(frozen=True)
class ModifierCard:
    """An attack modifier card (HV-AMD-1): ``+n``/``-n``, ``x2`` or ``null``."""

    name: str
    kind: str  # ADD, DOUBLE or NULL
    value: int
    shuffle: bool  # HV-AMD-3


@dataclass(frozen=True)
class Bounds:
    """The boundedness numbers of 15.10."""

    max_rounds_by_hand_size: dict[int, int]
    last_exhaustion_round: int
    max_prompts_per_agent_round: int
    max_agent_steps: int


@dataclass(frozen=True)
class ScenarioRules:
    """Win condition (HV-END-2), round cap (HV-END-4), coin value (HV-LOOT-3) and 15.10 bounds."""

    win_condition: str
    round_cap: int
    coin_gold: int
    bounds: Bounds


@dataclass(frozen=True)
class Scenario:
    """Everything the haven rules need to know about one scenario (section 15)."""

    name: str
    title: str
    source: str  # the file it was loaded from, for error messages
    map: HexMap
    characters: tuple[CharacterClass, ...]  # agent-index order
    summons: tuple[SummonSpec, ...]
    monster_types: tuple[MonsterType, ...]  # type order of HV-INIT-3
    character_modifier_deck: tuple[ModifierCard, ...]  # each character has its own (HV-AMD-2)
    monster_modifier_deck: tuple[ModifierCard, ...]  # shared by all monsters (HV-AMD-2)
    rules: ScenarioRules
    terrain: Terrain = Terrain()  # HV-TER-2/3
    character_index: dict[str, int] = field(default_factory=dict, compare=False)
    monster_type_index: dict[str, int] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        self.character_index.update({c.id: i for i, c in enumerate(self.characters)})
        self.monster_type_index.update({t.id: i for i, t in enumerate(self.monster_types)})

    def __deepcopy__(self, memo: dict[int, object]) -> Scenario:
        """Itself: a frozen record every copy of a game reads and none changes, so copies keep
        sharing what is derived once per scenario object (limits, observers)."""
        return self

    def character(self, class_id: str) -> CharacterClass:
        return self.characters[self.character_index[class_id]]

    def monster_type(self, type_id: str) -> MonsterType:
        return self.monster_types[self.monster_type_index[type_id]]

    def summon(self, summon_id: str) -> SummonSpec:
        return {s.id: s for s in self.summons}[summon_id]

    @property
    def has_area(self) -> bool:
        """HV-AOE-6: whether any card of the scenario has an area-of-effect attack (only then does
        its observation name the AREA_TARGET prompt)."""
        boxes = [b for c in self.characters for k in c.cards for b in (k.top, k.bottom)]
        lines = [a for b in boxes for a in b.abilities]
        lines += [a for t in self.monster_types for k in t.deck for a in k.abilities]
        return any(a.area for a in lines)
