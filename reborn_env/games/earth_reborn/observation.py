"""What one player may see, as a flat float32 vector (section 22, ER-HID-1..12).

Built only from the observer's own screen and the public table: the opponent's tile identities, the
bag's contents and the generator never enter it (ER-HID-2, -6). The discard's contents appear only
at the observer's own ``CHOOSE_DISCARD`` decision (ER-HID-7); a duel bid only once both are chosen
(ER-HID-10). Values are scaled into [0, 1]. :func:`build_layout` names every block (``layout_for``
caches it per scenario); read an observation by name with ``layout_for(scn).view(obs)``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...core.observation_views import Field, Layout, group
from ...core.per_scenario import PerScenario
from .actions import MAX_CP, SECTION_SLOTS
from .rules.dice import FACES
from .rules.state import CHOOSE_DISCARD, DECISIONS, DOOR_STATES, PHASES, GameState
from .scenario.model import DIRECTION_NAMES, ORDER_TYPES, Scenario

# Scales: the observed value is the quantity divided by its scale (and clipped to 1).
MP_SCALE = 20.0  # mission points
MVP_SCALE = 20.0  # movement points left in a Move order
SECTION_MAX_CP = 4  # a section's maximum is 1-4 CP (ER-TILE-1): section max and CP placed
CARDS_SCALE = 2.0  # magnetic cards a character carries
DICE = 6.0  # dice of one face in the last roll
# Layout inside each character block: its one-float fields, in order.
CHAR_SCALARS = (
    "mine",
    "alive",
    "wounded",
    "wounds",
    "engaged",
    "cp_spent",
    "cp_left",
    "cards",
    "has_weapon",
    "weapon_ready",
    "activated",
)
_N_DOOR_STATES = len(DOOR_STATES)
# Cached character blocks per character (161 floats each): a few MB per scenario at most.
_BLOCK_CACHE_SIZE = 4096


def _pair(name: str, doc: str, scale: float | None = None) -> Field:
    """A block of two floats: mine, then the opponent's."""
    return group(name, [Field("mine", scale=scale), Field("opponent", scale=scale)], doc=doc)


@dataclass(frozen=True)
class LayoutDims:
    """What an observation's shape depends on: the board's size and how many turns, doors,
    terminals, caches, characters and tiles there are (their ids label the blocks). One
    scenario's are :meth:`of` it; a map-independent layout pads them (``universal.py``)."""

    factions: tuple[str, ...]
    width: int
    height: int
    turns: int
    doors: int
    terminals: int
    caches: int
    chars: tuple[str, ...]
    tiles: tuple[str, ...]

    @classmethod
    def of(cls, scn: Scenario) -> LayoutDims:
        board = scn.board
        return cls(
            factions=tuple(scn.factions),
            width=board.width,
            height=board.height,
            turns=scn.turns,
            doors=len(board.doors),
            terminals=len(scn.terminals),
            caches=len(scn.caches),
            chars=tuple(c.id for c in scn.characters),
            tiles=tuple(t.id for t in scn.tiles),
        )


def _character_fields(dims: LayoutDims) -> list[Field]:
    """One character's record (ER-HID-5, -11: all of it is on the table)."""
    scale = {"cards": CARDS_SCALE}
    fields = [Field(name, scale=scale.get(name)) for name in CHAR_SCALARS]
    section = [
        Field("type", (len(ORDER_TYPES),), "the section's order type", ORDER_TYPES),
        Field("max", doc="the most CP it takes (ER-TILE-1)", scale=SECTION_MAX_CP),
        Field("cp", doc="CP placed on it", scale=SECTION_MAX_CP),
        Field("present", doc="a tile is assigned to this slot"),
    ]
    return fields + [
        Field("x", (dims.width,), "column of its square"),
        Field("y", (dims.height,), "row of its square"),
        Field("facing", (4,), "the direction it faces", DIRECTION_NAMES),
        Field("tried", (dims.terminals,), "terminals it tried this turn (ER-INT-2)"),
        group("sections", section, SECTION_SLOTS, "sections 4 * slot + index (ER-ENV-6)"),
    ]


def build_layout(scn: Scenario) -> Layout:
    """The named blocks of ``scn``'s observation, in order (ER-HID-1..11)."""
    return layout_of(LayoutDims.of(scn))


def layout_of(dims: LayoutDims) -> Layout:
    """The observation's named blocks for these dimensions, in order (ER-HID-1..11)."""
    chars, tiles = dims.chars, dims.tiles
    n_tiles = len(tiles)
    return Layout(
        [
            Field("faction", (2,), "faction", dims.factions),
            Field("turn", (dims.turns,), "turn"),
            Field("phase", (len(PHASES),), "phase", PHASES),
            Field("decision", (len(DECISIONS),), "decision", DECISIONS),
            group(
                "flags",
                [Field(n) for n in ("i_decide", "i_hold_initiative", "i_am_active", "passes")],
                doc="flags: i_decide, i_hold_initiative, i_am_active, passes",
            ),
            _pair("cp", "cp: mine, opponent's", MAX_CP),  # ER-HID-4
            _pair("mp", "mp: mine, opponent's", MP_SCALE),
            group(
                "tile_counts",
                [
                    Field(n, scale=n_tiles)
                    for n in ("my_hand", "opponent_hand", "bag", "discard")  # ER-HID-3, -6, -7
                ],
                doc="tile counts: my hand, opponent's hand, bag, discard",
            ),
            _pair("redrew", "redrew: mine, opponent's"),  # ER-HID-9
            _pair("bids", "duel bids: mine, opponent's once revealed", MAX_CP),  # ER-HID-10
            Field("hand", (n_tiles,), "my hand (tile multi-hot)", tiles),  # ER-HID-1
            Field("discard", (n_tiles,), "discard, only at my CHOOSE_DISCARD", tiles),  # ER-HID-7
            Field(
                "doors",
                (dims.doors, len(DOOR_STATES)),
                "doors: closed/open/destroyed per door",
                DOOR_STATES,
            ),
            Field("hacked", (dims.terminals,), "terminals hacked"),
            Field("caches", (dims.caches,), "caches full"),
            group(
                "round",
                [
                    Field("reactivation"),
                    Field("acted"),
                    Field("decided"),
                    Field("mvp", scale=MVP_SCALE),
                    Field("transferred"),
                    Field("order_cp", scale=SECTION_MAX_CP),
                ],
                doc="round: reactivation, acted, decided, mvp, transferred, order cp",
            ),
            Field("section", (SECTION_SLOTS,), "selected section"),
            Field("target_direction", (4,), "target direction", DIRECTION_NAMES),
            Field("target_character", (len(chars),), "target character", chars),
            Field("last_roll", (len(FACES),), "last roll: faces Y1..Y6, B1..B6", FACES, DICE),
            group(
                "characters",
                _character_fields(dims),
                len(chars),
                "one record per character, in scenario order",
                chars,
            ),
        ]
    )


layout_for = PerScenario(build_layout)
"""layout_for(scenario): the one layout of a scenario object, shared by its observer and bots."""


def observation_layout(scn: Scenario) -> list[tuple[str, int]]:
    """(block description, width) in order, one entry per character; their sum is the size.

    The listing older callers slice by; read blocks by name with ``layout_for(scn).view(obs)``.
    """
    layout = layout_for(scn)
    listing = [(f.doc, f.width) for f in layout if f.name != "characters"]
    chars = layout["characters"]
    return listing + [(f"character {label}", chars.item.size) for label in chars.labels]


def observation_size(scn: Scenario) -> int:
    """The length of ``scn``'s observation vector."""
    return layout_for(scn).size


class Observer:
    """Builds one scenario's observations, each block where :func:`build_layout` puts it."""

    def __init__(self, scn: Scenario) -> None:
        self.scn = scn
        self.layout = layout_for(scn)
        self.size = self.layout.size
        self.at = {f.name: f.offset for f in self.layout}
        chars = self.layout["characters"]
        self.char_width = chars.item.size
        self.char_at = {f.name: f.offset for f in chars.item}
        sections = chars["sections"]
        self.section_width = sections.item.size
        self.section_at = {f.name: f.offset for f in sections.item}
        self.decision_index = {d: i for i, d in enumerate(DECISIONS)}
        self.phase_index = {p: i for i, p in enumerate(PHASES)}
        self.tile_blocks = [self._tile_block(t) for t in range(len(scn.tiles))]
        self.blocks: list[dict[tuple, np.ndarray]] = [{} for _ in scn.characters]

    def _tile_block(self, t: int) -> tuple[list[int], list[float]]:
        """The printed part of a tile's four section features (type, max, present), sparse."""
        at = self.section_at
        offsets: list[int] = []
        values: list[float] = []
        for k, section in enumerate(self.scn.tiles[t].sections):
            j = k * self.section_width
            offsets += (j + at["type"] + ORDER_TYPES.index(section.type), j + at["max"])
            offsets.append(j + at["present"])
            values += (1.0, section.max / SECTION_MAX_CP, 1.0)
        return offsets, values

    def observe(self, state: GameState, me: int) -> np.ndarray:
        """ER-HID-1..11: the observation of player ``me``.

        Most entries are zero, so the builder collects (index, value) pairs in two lists and writes
        them into a fresh array at once; that is several times faster than item assignment.
        """
        at = self.at
        opp = 1 - me
        n_tiles = len(self.scn.tiles)
        both_bid = state.bids[0] >= 0 and state.bids[1] >= 0
        ix: list[int] = [
            at["faction"] + me,
            at["turn"] + state.turn - 1,
            at["phase"] + self.phase_index[state.phase],
            at["decision"] + self.decision_index[state.decision],
        ]
        vx: list[float] = [1.0] * len(ix)
        scalars = (  # the blocks flags, cp, mp, tile_counts, redrew and bids, in a row
            state.winner is None and state.decider == me,
            state.initiative == me,
            state.active == me,
            state.passes,
            state.cp[me] / MAX_CP,  # ER-HID-4
            state.cp[opp] / MAX_CP,
            min(state.mp[me] / MP_SCALE, 1.0),
            min(state.mp[opp] / MP_SCALE, 1.0),
            len(state.hands[me]) / n_tiles,
            len(state.hands[opp]) / n_tiles,  # ER-HID-3: the count only
            len(state.bag) / n_tiles,  # ER-HID-6
            len(state.discard) / n_tiles,  # ER-HID-7
            state.redrew[me],  # ER-HID-9
            state.redrew[opp],
            max(state.bids[me], 0) / MAX_CP,
            max(state.bids[opp], 0) / MAX_CP if both_bid else 0.0,  # ER-HID-10
        )
        ix += range(at["flags"], at["flags"] + len(scalars))
        vx += scalars
        ones = [at["hand"] + t for t in state.hands[me]]  # ER-HID-1
        if state.decision == CHOOSE_DISCARD and state.decider == me:  # ER-HID-7
            ones += [at["discard"] + t for t in state.discard]
        i = at["doors"]
        ones += [i + _N_DOOR_STATES * d + door_state for d, door_state in enumerate(state.doors)]
        ones += [at["hacked"] + t for t, hacked in enumerate(state.hacked) if hacked]
        ones += [at["caches"] + k for k, full in enumerate(state.cache_full) if full]
        ix += range(at["round"], at["round"] + 6)
        vx += (
            state.reactivation,
            state.acted,
            state.round_decisions > 0,
            min(state.mvp / MVP_SCALE, 1.0),
            state.transferred,
            state.order_cp / SECTION_MAX_CP,
        )
        if state.section >= 0:
            ones.append(at["section"] + state.section)
        if state.target >= 0:
            shooting = state.decision in ("cp", "aim") and self._shooting(state)
            ones.append(at["target_character" if shooting else "target_direction"] + state.target)
        if state.last_roll:  # ER-HID-11: every die rolled is public
            i = at["last_roll"]
            faces = [0] * 12
            for face in state.last_roll:
                faces[(0 if face[0] == "Y" else 6) + int(face[1]) - 1] += 1
            for f, count in enumerate(faces):
                if count:
                    ix.append(i + f)
                    vx.append(count / DICE)
        v = np.zeros(self.size, dtype=np.float32)
        v[ix] = vx
        v[ones] = 1.0
        width = self.char_width
        i = at["characters"]
        for c in range(len(self.scn.characters)):
            v[i : i + width] = self._character_block(state, c, me)
            i += width
        return v

    def _character_block(self, state: GameState, c: int, me: int) -> np.ndarray:
        """One character's block, cached by everything it is built from.

        Between two decisions most characters do not change, so looking a block up by a small
        key is cheaper than building it again.
        """
        ch = state.chars[c]
        key = (
            state.faction_of[c] == me,
            state.char == c,
            ch.square,
            ch.facing,
            ch.wounded,
            ch.wounds,
            ch.engaged,
            ch.dead,
            ch.cp_spent,
            ch.cards,
            ch.weapon_ready,
            tuple(ch.tried),
            tuple([x for a in ch.tiles for x in (a.tile, *a.cp)]),
        )
        cache = self.blocks[c]
        block = cache.get(key)
        if block is None:
            if len(cache) >= _BLOCK_CACHE_SIZE:
                cache.clear()
            block = cache[key] = self._character(state, c, me)
        return block

    def _shooting(self, state: GameState) -> bool:
        assigned = state.chars[state.char].tiles[state.section >> 2]
        return self.scn.tiles[assigned.tile].sections[state.section & 3].type == "F"

    def _character(self, state: GameState, c: int, me: int) -> np.ndarray:
        """Character ``c``'s block as ``me`` sees it (ER-HID-5/-11: all of it is on the table)."""
        scn = self.scn
        board = scn.board
        spec = scn.characters[c]
        ch = state.chars[c]
        stats = state.stats(c)
        maxcp = spec.healthy.maxcp
        armed = spec.weapon is not None
        ix = list(range(len(CHAR_SCALARS)))  # the record opens with its one-float fields
        vx = [
            state.faction_of[c] == me,
            not ch.dead,
            ch.wounded,
            ch.wounds / stats.lp,
            ch.engaged,
            ch.cp_spent / maxcp,
            max(stats.maxcp - ch.cp_spent, 0) / maxcp,
            min(ch.cards / CARDS_SCALE, 1.0),
            armed,
            armed and ch.weapon_ready,
            state.char == c,
        ]
        at = self.char_at
        x, y = board.xy(ch.square)
        ones = [at["x"] + x, at["y"] + y, at["facing"] + ch.facing]
        ones += [at["tried"] + t for t in ch.tried]
        width = 4 * self.section_width
        cp = self.section_at["cp"]
        for slot, assigned in enumerate(ch.tiles):
            j = at["sections"] + slot * width
            offsets, values = self.tile_blocks[assigned.tile]
            ix += [j + o for o in offsets]
            vx += values
            ix += (
                j + cp,
                j + self.section_width + cp,
                j + 2 * self.section_width + cp,
                j + 3 * self.section_width + cp,
            )
            vx += [cp_placed / SECTION_MAX_CP for cp_placed in assigned.cp]
        block = np.zeros(self.char_width, dtype=np.float32)
        block[ix] = vx
        block[ones] = 1.0
        return block


observer_for = PerScenario(Observer)
"""observer_for(scenario): one observer (and its block cache) per scenario object, shared by
every environment."""
