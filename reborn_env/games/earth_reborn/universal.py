"""One observation and one action space for every scenario: the universal layout (ER-UNI-1..5).

A scenario's own observation (``observation.py``) is sized by its map and teams, so a policy
trained on one map cannot read another's. The universal layout pads every block to the largest
scenario the compiled core holds (:data:`BOUNDS`: a 16 x 16 board, 16 characters, 64 tiles, 32
doors, 16 terminals and caches, 12 turns) and adds what a scenario's own observation leaves to
the map's being fixed: the map itself (void squares, walls, where each door, terminal and cache
is) and each character's card and each tile's sections. A scenario's observation and mask land
in it by index (:class:`UniversalView`); its padding stays 0 and its padded actions are never
legal. Character slot ``k`` is the scenario's ``k``-th character, tile slot ``t`` its ``t``-th
tile, as in the scenario's own codec.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...core.codec import Codec
from ...core.observation_views import Field, Layout, embedding, group
from ...core.per_scenario import PerScenario
from .actions import _codec_for
from .observation import LayoutDims, layout_for, layout_of
from .rules.state_schema import CAPACITIES
from .scenario.generator import PREFIX
from .scenario.model import DIRECTION_NAMES, DOOR_KINDS, ORDER_TYPES, WALL, Scenario, StatLine

MAX_TURNS = 12
MAX_TILES = 64  # the compiled core keeps a pile as a 64-bit mask (core.h ER_MAX_TILES)
STAT_SCALE = 8.0  # a card's numbers (Mov, dice, Arm, LP, CP, ...) are at most 8
STATS = ("mov", "cc_dark_blue", "cc_light_blue", "cc_grey", "sht", "arm", "lp", "maxcp",
         "bonus", "tec", "srch", "auto_hits")  # fmt: skip
WEAPON = ("armed", "targeting_bonus", "damage_red", "damage_orange", "out_of_ammo_icon")
BOUNDS = LayoutDims(
    factions=("norad", "salemite"),
    width=16,
    height=16,
    turns=MAX_TURNS,
    doors=CAPACITIES["ER_MAX_DOORS"],
    terminals=CAPACITIES["ER_MAX_TERMINALS"],
    caches=CAPACITIES["ER_MAX_CACHES"],
    chars=tuple(f"c{k}" for k in range(CAPACITIES["ER_MAX_CHARS"])),
    tiles=tuple(f"t{k}" for k in range(MAX_TILES)),
)
"""ER-UNI-1: the largest scenario the universal layout holds."""


def _site(name: str, count: int, doc: str, extra: list[Field] | None = None) -> Field:
    where = [
        Field("present"),
        Field("x", (BOUNDS.width,), "column"),
        Field("y", (BOUNDS.height,), "row"),
    ]
    return group(name, where + (extra or []), count, doc)


def _map_fields() -> list[Field]:
    """ER-UNI-2: the scenario's fixed facts, written once per game slot."""
    stat = [Field(s, scale=STAT_SCALE) for s in STATS]
    section = [
        Field("type", (len(ORDER_TYPES),), "order type", ORDER_TYPES),
        Field("max", doc="the most CP it takes", scale=4),
    ]
    b = BOUNDS
    return [
        group(
            "cells",
            [
                Field("on_board"),
                Field("wall", (4,), "a wall on this edge", DIRECTION_NAMES),
                Field("hold", doc="a hold square (ER-SCN-14)"),
            ],
            b.width * b.height,
            "square y * 16 + x: on the board, walls on its N, E, S, W edges, a hold square",
        ),
        _site(
            "door_sites",
            b.doors,
            "doors in id order",
            [
                Field("side", (4,), "the edge of its x, y square it is on", DIRECTION_NAMES),
                Field("kind", (len(DOOR_KINDS),), "door kind (ER-DOOR-1)", DOOR_KINDS),
            ],
        ),  # fmt: skip
        _site("terminal_sites", b.terminals, "terminals in scenario order"),
        _site("cache_sites", b.caches, "caches in scenario order"),
        group(
            "cards",
            [
                Field("present"),
                Field("faction", (2,), "its faction", b.factions),
                group("healthy", stat, doc="the Healthy side (ER-CHAR-2)"),
                group("wounded", stat, doc="the Wounded side"),
                group("weapon", [Field(w, scale=STAT_SCALE) for w in WEAPON]),
            ],
            len(b.chars),
            "each character's card, slots as in 'characters'",
        ),
        group(
            "tile_cards",
            [Field("present"), group("sections", section, 4)],
            len(b.tiles),
            "each tile's printed sections, slots as in 'hand'",
        ),
    ]


UNIVERSAL_LAYOUT = Layout([*layout_of(BOUNDS).fields, group("map", _map_fields())])
"""ER-UNI-1/-2: the one observation layout of every scenario."""
UNIVERSAL_CODEC: Codec = _codec_for(BOUNDS.chars, BOUNDS.tiles)
"""ER-UNI-3: the one action space of every scenario (character and tile slots by index)."""


def scenario_names(scenario: str | Sequence[str]) -> list[str]:
    """ER-UNI-6: the scenarios a ``scenario`` option names: one name, a list of names, and in
    either ``generated:<first>..<last>`` for the generated maps of those seeds (both included).
    """
    names = [scenario] if isinstance(scenario, str) else list(scenario)
    out: list[str] = []
    for name in names:
        if not isinstance(name, str):
            raise ValueError(f"scenario {name!r}: a scenario is named by a string")
        first, dots, last = name.removeprefix(PREFIX).partition("..")
        if name.startswith(PREFIX) and dots:
            if not (first.isdigit() and last.isdigit() and int(first) <= int(last)):
                raise ValueError(
                    f"scenario {name!r}: a range of generated maps is "
                    "generated:<first>..<last>, two seeds, first <= last"
                )
            out += [f"{PREFIX}{seed}" for seed in range(int(first), int(last) + 1)]
        else:
            out.append(name)
    if not out:
        raise ValueError("scenario: an empty list; name at least one scenario")
    return out


def fits(scn: Scenario) -> str | None:
    """Why ``scn`` does not fit the universal layout, or None when it does."""
    dims = LayoutDims.of(scn)
    limits = (
        ("width", dims.width, BOUNDS.width),
        ("height", dims.height, BOUNDS.height),
        ("turns", dims.turns, BOUNDS.turns),
        ("doors", dims.doors, BOUNDS.doors),
        ("terminals", dims.terminals, BOUNDS.terminals),
        ("caches", dims.caches, BOUNDS.caches),
        ("characters", len(dims.chars), len(BOUNDS.chars)),
        ("tiles", len(dims.tiles), len(BOUNDS.tiles)),
    )
    for what, n, most in limits:
        if n > most:
            return f"{n} {what}, and the universal layout holds at most {most}"
    if dims.factions != BOUNDS.factions:
        return f"factions {dims.factions}, and the universal layout's are {BOUNDS.factions}"
    return None


class UniversalView:
    """ER-UNI-4: where one scenario's observation and actions land in the universal ones.

    ``obs_index`` (int64, one per float of the scenario's observation) and ``static`` (the
    universal vector with only the map block written) build a universal observation;
    ``action_index`` maps a scenario action to its universal integer and ``scenario_action``
    back (-1 for a padded action, which no scenario has).
    """

    def __init__(self, scn: Scenario) -> None:
        why = fits(scn)
        if why is not None:
            raise ValueError(f"scenario {scn.name!r} has {why}")
        self.scenario = scn
        own = layout_for(scn)
        index = embedding(own, UNIVERSAL_LAYOUT)
        turn, uturn = own["turn"], UNIVERSAL_LAYOUT["turn"]
        # ER-UNI-5: turns align on the last, so an entry says how many turns are left.
        index[turn.offset : turn.stop] += MAX_TURNS - scn.turns
        assert uturn.offset <= index[turn.offset] < uturn.stop
        self.obs_index = index
        self.static = _static(scn)
        own_codec = _codec_for(tuple(c.id for c in scn.characters), tuple(t.id for t in scn.tiles))
        self.action_index = np.array(
            [UNIVERSAL_CODEC.encode(*own_codec.decode(a)) for a in range(own_codec.size)],
            dtype=np.int64,
        )
        self.scenario_action = np.full(UNIVERSAL_CODEC.size, -1, dtype=np.int64)
        self.scenario_action[self.action_index] = np.arange(own_codec.size)
        self.obs_spans = _spans(self.obs_index)
        self.action_spans = _spans(self.action_index)

    def scatter(self, own: np.ndarray, out: np.ndarray, spans: list[tuple[int, int, int]]) -> None:
        """``out[..., index] = own`` for ``index`` given as its contiguous ``spans`` (``obs_spans``
        or ``action_spans``): a few slice copies, rows of a batch at once."""
        for start, stop, at in spans:
            out[..., at : at + stop - start] = own[..., start:stop]

    def gather(self, universal: np.ndarray, spans: list[tuple[int, int, int]]) -> np.ndarray:
        """The scenario's own entries of ``universal`` (rows of a batch at once), the inverse of
        :meth:`scatter`: a new array of the scenario's width."""
        return np.concatenate(
            [universal[..., at : at + stop - start] for start, stop, at in spans], axis=-1
        )

    def observation(self, own: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """The universal observation of the scenario's observation ``own``."""
        if out is None:
            out = self.static.copy()
        out[self.obs_index] = own
        return out

    def to_scenario(self, action: int) -> int:
        """The scenario's action of universal ``action``; -1 for a padded one (never legal)."""
        if not 0 <= action < UNIVERSAL_CODEC.size:
            return -1
        return int(self.scenario_action[action])


def slot_of(i: Any, count: int) -> tuple[Any, Any]:
    """ER-UNI-6: batch slot ``i`` of ``count`` scenarios is the ``i // count``-th slot of the
    ``i % count``-th scenario: (scenario, its slot), for one slot or an array of them."""
    return i % count, i // count


def batch_slot(scenario: int, slot: int, count: int) -> int:
    """The batch slot of ``scenario``'s ``slot`` among ``count`` scenarios: :func:`slot_of`'s
    inverse."""
    return scenario + slot * count


def _spans(index: np.ndarray) -> list[tuple[int, int, int]]:
    """(start, stop, target) of each run of ``index`` that counts up by one."""
    cuts = np.flatnonzero(np.diff(index) != 1) + 1
    starts, stops = np.r_[0, cuts], np.r_[cuts, len(index)]
    return [(int(a), int(b), int(index[a])) for a, b in zip(starts, stops, strict=True)]


universal_view = PerScenario(UniversalView)
"""universal_view(scenario): one UniversalView per scenario object."""


def _static(scn: Scenario) -> np.ndarray:
    """ER-UNI-2: a universal vector with the map block of ``scn`` written, the rest 0."""
    out = np.zeros(UNIVERSAL_LAYOUT.size, dtype=np.float32)
    m = UNIVERSAL_LAYOUT["map"]
    base = m.offset
    board = scn.board

    def put(block: Field, record: int, name: str, value: float, at: int = 0) -> None:
        f = block.item[name]
        out[base + block.offset + record * block.item.size + f.offset + at] = value

    cells = m["cells"]
    for sq in range(board.width * board.height):
        x, y = board.xy(sq)
        cell = y * BOUNDS.width + x
        put(cells, cell, "on_board", float(not board.void[sq]))
        for d in range(4):
            put(cells, cell, "wall", float(board.edge[sq][d] == WALL), d)
        put(cells, cell, "hold", float(sq in scn.mission.hold_squares))
    doors = m["door_sites"]
    for door in board.doors:
        x, y = board.xy(door.a)
        side = next(d for d in range(4) if board.edge[door.a][d] == door.id)
        put(doors, door.id, "present", 1.0)
        put(doors, door.id, "x", 1.0, x)
        put(doors, door.id, "y", 1.0, y)
        put(doors, door.id, "side", 1.0, side)
        put(doors, door.id, "kind", 1.0, DOOR_KINDS.index(door.kind))
    for block, sites in ((m["terminal_sites"], scn.terminals), (m["cache_sites"], scn.caches)):
        for k, site in enumerate(sites):
            x, y = board.xy(site.square)
            put(block, k, "present", 1.0)
            put(block, k, "x", 1.0, x)
            put(block, k, "y", 1.0, y)
    _cards(scn, out, base + m["cards"].offset, m["cards"].item)
    _tile_cards(scn, out, base + m["tile_cards"].offset, m["tile_cards"].item)
    return out


def _stats(line: StatLine) -> list[float]:
    values = (line.mov, *line.cc, line.sht, line.arm, line.lp, line.maxcp, line.bonus, line.tec,
              line.srch, line.auto_hits)  # fmt: skip
    return [min(v / STAT_SCALE, 1.0) for v in values]


def _cards(scn: Scenario, out: np.ndarray, at: int, card: Layout) -> None:
    """Each character's card: faction, both stat lines and its weapon (ER-CHAR-2)."""
    for k, spec in enumerate(scn.characters):
        start = at + k * card.size
        out[start + card["present"].offset] = 1.0
        out[start + card["faction"].offset + scn.factions.index(spec.faction)] = 1.0
        for side in ("healthy", "wounded"):
            f = card[side]
            out[start + f.offset : start + f.stop] = _stats(getattr(spec, side))
        weapon = spec.weapon
        if weapon is not None:
            f = card["weapon"]
            values = (STAT_SCALE, weapon.targeting_bonus, weapon.damage_red,
                      weapon.damage_orange, STAT_SCALE * weapon.out_of_ammo_icon)  # fmt: skip
            out[start + f.offset : start + f.stop] = [min(v / STAT_SCALE, 1.0) for v in values]


def _tile_cards(scn: Scenario, out: np.ndarray, at: int, tile: Layout) -> None:
    """Each tile's four printed sections: order type and most CP (ER-TILE-1)."""
    sections = tile["sections"]
    for t, printed in enumerate(scn.tiles):
        start = at + t * tile.size
        out[start + tile["present"].offset] = 1.0
        for k, section in enumerate(printed.sections):
            j = start + sections.offset + k * sections.item.size
            out[j + sections.item["type"].offset + ORDER_TYPES.index(section.type)] = 1.0
            out[j + sections.item["max"].offset] = section.max / 4
