"""Figures on the map and what the rules ask about them: sides, cells, conditions, turn order.

Characters, monsters and summons are different records (:mod:`.state`); the rules treat them
alike wherever section 0.3 does (allies and enemies, HV-MAP-4 movement, HV-AI targeting), so this
module answers those questions once. :class:`Board` holds the per-map geometry tables (HV-MAP-5,
HV-MAP-7) so they are computed once per scenario, not per question.
"""

from __future__ import annotations

from ....core.per_scenario import PerScenario
from ..scenario.model import ELITE, FLOOR, WALL, Scenario
from .hexgrid import SIDES, RangeTable, SightTable, open_neighbours, ray
from .state import (
    CHARACTER_SLOT,
    MONSTER_SLOT,
    CharacterState,
    Figure,
    HavenState,
    MonsterState,
    SummonState,
)


class Board:
    """HV-MAP-1..7, HV-TW-2..4 for one map: floor cells, neighbours, range distances and line
    of sight; ``neighbours`` leaves out a neighbour behind a thin wall."""

    def __init__(self, scenario: Scenario) -> None:
        cells = scenario.map.cells
        self.grid = scenario.map.grid  # HV-MAP-1
        width, height = self.grid.width, self.grid.height
        self.walls = tuple(kind == WALL for kind in cells)
        self.floor = tuple(kind == FLOOR for kind in cells)
        # HV-TER-1: static terrain (traps are state: HavenState.traps); ``terrain`` says whether
        # movement needs costs at all, so a map without any keeps the plain step count.
        hexes = scenario.map
        self.hazardous = tuple(c in hexes.hazardous for c in range(len(cells)))
        self.difficult = tuple(c in hexes.difficult for c in range(len(cells)))
        self.terrain = bool(hexes.traps or hexes.hazardous or hexes.difficult)
        # HV-ICE-1: icy cells; a walk on a map with any slides (HV-ICE-2) along ``icy_rays``
        self.icy = tuple(c in hexes.icy for c in range(len(cells)))
        self.has_ice = bool(hexes.icy)
        self.thin_walls = frozenset(hexes.thin_walls)
        self.neighbours = tuple(
            open_neighbours(c, self.thin_walls, width, height) for c in range(len(cells))
        )
        rays = [
            [ray(c, side, self.floor, self.thin_walls, width, height) for side in range(len(SIDES))]
            for c in range(len(cells))
        ]
        # a step whose first hex is not icy never slides: only its first hex counts
        self.plain_steps = tuple(tuple(r[0] for r in rs if r and not self.icy[r[0]]) for rs in rays)
        self.icy_rays = tuple(tuple(r for r in rs if r and self.icy[r[0]]) for rs in rays)
        self.range = RangeTable(self.walls, width, self.thin_walls)
        self.sight = SightTable(self.walls, width, self.thin_walls)
        # HV-MAP-5: the range table's rows with a cell cut off by walls out of every range
        self._distances = tuple(
            tuple(1_000 if d is None else d for d in row) for row in self.range.rows
        )
        self._reaching: dict[tuple[int, int], tuple[int, ...]] = {}

    def distance(self, a: int, b: int) -> int:
        """HV-MAP-5: range distance; a cell cut off by walls is out of every range."""
        return self._distances[a][b]

    def in_range_and_sight(self, a: int, b: int, reach: int) -> bool:
        """HV-MAP-8: ``b`` is within ``reach`` of ``a`` and ``a`` sees it."""
        return self._distances[a][b] <= reach and self.sight.rows[a][b]

    def cells_reaching(self, target: int, reach: int) -> tuple[int, ...]:
        """Every cell within ``reach`` of ``target`` that sees it (HV-AI-3's candidates), cached:
        monster AI asks this for every enemy of every monster turn."""
        key = (target, reach)
        cells = self._reaching.get(key)
        if cells is None:
            cells = tuple(
                c for c in range(len(self.floor)) if self.in_range_and_sight(c, target, reach)
            )
            self._reaching[key] = cells
        return cells


board_for = PerScenario(Board)
"""board_for(scenario): the :class:`Board` of a scenario, built once per scenario object."""


def label(scenario: Scenario, fig: Figure) -> str:
    """The name events use: agent name, ``marauder#3`` or ``ember_wisp#1`` (HV-API-8)."""
    if isinstance(fig, CharacterState):
        return scenario.characters[fig.index].id
    if isinstance(fig, MonsterState):
        return f"{scenario.monster_types[fig.type].id}#{fig.standee}"
    return f"{fig.summon}#{fig.number}"


def on_map(state: HavenState, fig: Figure) -> bool:
    """Whether ``fig`` is still a figure on the map (not killed, exhausted or dismissed)."""
    if isinstance(fig, CharacterState):
        return not fig.exhausted and fig.cell is not None
    for other in state.monsters if isinstance(fig, MonsterState) else state.summons:
        if other is fig:
            return True
    return False


def is_monster(fig: Figure) -> bool:
    """Section 0.3: monsters are one side; characters and summons the other."""
    return isinstance(fig, MonsterState)


def enemies(a: Figure, b: Figure) -> bool:
    """Section 0.3: figures of opposite sides."""
    return is_monster(a) != is_monster(b)


def living_characters(state: HavenState) -> list[CharacterState]:
    """Characters still on the map."""
    return [c for c in state.characters if not c.exhausted and c.cell is not None]


def all_figures(state: HavenState) -> list[Figure]:
    """Every figure on the map: characters, summons, monsters."""
    return [*living_characters(state), *state.summons, *state.monsters]


def enemies_of(state: HavenState, fig: Figure) -> list[Figure]:
    """The figures on the map that are enemies of ``fig``."""
    if is_monster(fig):
        return [*living_characters(state), *state.summons]
    return list(state.monsters)


def allies_of(state: HavenState, fig: Figure) -> list[Figure]:
    """The figures on the map on ``fig``'s side, ``fig`` excluded."""
    side = state.monsters if is_monster(fig) else [*living_characters(state), *state.summons]
    return [f for f in side if f is not fig]


def occupant(state: HavenState, cell: int) -> Figure | None:
    """The figure standing in ``cell``, if any."""
    for fig in all_figures(state):
        if fig.cell == cell:
            return fig
    return None


def has(fig: Figure, condition: str) -> bool:
    """HV-COND-1: whether ``fig`` has ``condition``."""
    return condition in fig.conditions


def shield_of(scenario: Scenario, fig: Figure) -> int:
    """HV-ABL-4: total shield: round bonuses plus a monster's stat-line shield (HV-MTURN-10)."""
    if isinstance(fig, MonsterState):
        return scenario.monster_types[fig.type].stats(fig.rank).shield + fig.shield
    if isinstance(fig, CharacterState):
        return fig.shield
    return 0


def retaliate_of(scenario: Scenario, fig: Figure) -> int:
    """HV-ABL-5: total retaliate: round bonuses plus a monster's stat-line retaliate."""
    if isinstance(fig, MonsterState):
        return scenario.monster_types[fig.type].stats(fig.rank).retaliate + fig.retaliate
    if isinstance(fig, CharacterState):
        return fig.retaliate
    return 0


def turn_position(state: HavenState, fig: Figure) -> tuple[int, int, int]:
    """HV-AI-4: ``fig``'s place in this round's turn order, for tie-breaks.

    A summon sits directly before its summoner (also in the round it was summoned, when it has no
    slot of its own), several summons in summoning order; a monster sits in its type's slot, elites
    first, then by standee number (HV-MTURN-2/3); a figure with no slot this round comes after
    every figure that has one.
    """
    if isinstance(fig, MonsterState):
        kind, index, within = (
            MONSTER_SLOT,
            fig.type,
            (0 if fig.rank == ELITE else 1000) + fig.standee,
        )
    elif isinstance(fig, SummonState):
        kind, index, within = CHARACTER_SLOT, fig.owner, fig.number
    else:
        kind, index, within = CHARACTER_SLOT, fig.index, 0
    return _slot_position(state, kind, index), 0 if isinstance(fig, SummonState) else 1, within


def _slot_position(state: HavenState, kind: str, index: int) -> int:
    """Where this round's turn sequence holds the slot ``(kind, index)``; past its end if none."""
    for position, slot in enumerate(state.sequence):
        if slot.kind == kind and slot.index == index:
            return position
    return len(state.sequence)
