"""The heuristic bot whose defenders cut their way to an enemy hiding behind a magnetic door.

What: :class:`EarthRebornSawHunterBot` plays exactly as :class:`EarthRebornHeuristicBot` except
for the defenders' (Salemite) plans. Why: the heuristic NORAD's Bolter hacks O1 and then stays in
the vault behind the magnetic sliding door, which no Salemite can open (ER-DOOR-3); the heuristic
Salemites then wait outside it, one of them on the only square in front of the door, and 40% of
heuristic games end in a 3-3 draw. Only Jack Saw can destroy that door (ER-ABIL-1, ER-DOOR-14).
This bot sends him to do it and keeps his friends beside the door, not on the square he needs,
which gives a learner a teacher that knows the winning line: cut the door, then kill the last
figure (ER-WIN-2).

It reads only its seat's observation and the action mask, like the heuristic bot (ER-HID-1).
"""

from __future__ import annotations

from .bots import (
    LOCKED_COST,
    SAW_COST,
    EarthRebornHeuristicBot,
    Figure,
    Plan,
    Plans,
    RouteMap,
    View,
)
from .scenario.model import OPEN_EDGE


class EarthRebornSawHunterBot(EarthRebornHeuristicBot):
    """Heuristic play, with a Salemite saw hunt for an enemy locked behind a magnetic door."""

    def _guard_plans(self, view: View, mine: list[Figure], routes: RouteMap) -> Plans:
        """The heuristic's guards and hunters; Jack Saw hunts prey only a saw reaches (ER-ABIL-1)
        and is no guard then, and friends locked out wait beside the door, not in front of it."""
        hunter, goals = self._saw_hunt(view, mine, routes)
        if hunter is None:
            return super()._guard_plans(view, mine, routes)
        others = [f for f in mine if f.index != hunter.index]
        plans = super()._guard_plans(view, others, routes)
        plans[hunter.index] = Plan(goals)
        for f in others:
            beside = self._beside_locked_door(view, f, plans[f.index], routes)
            if beside:
                plans[f.index] = Plan(beside)
        return plans

    def _saw_hunt(
        self, view: View, mine: list[Figure], routes: RouteMap
    ) -> tuple[Figure | None, frozenset[int]]:
        """(Jack Saw, attack squares) when his cheapest way to the prey crosses a door he must
        saw (SAW_COST); (None, empty) otherwise. The prey is as the heuristic's: enemies inside
        a terminal's room, else all enemies."""
        enemies = view.living(False)
        inside = [e for e in enemies if any(e.square in room for room in self.rooms)]
        prey = inside or enemies
        for fig in mine:
            if not self._can_saw(fig) or not prey:
                continue
            goals = frozenset(self._attack_squares(view, fig, prey))
            route = routes[fig.index]
            goal = route.nearest(goals)
            if goal < 0:
                continue
            path = self._path(route, goal)
            if any(self._edge_cost(view, fig, sq, d) == SAW_COST for sq, d in path):
                return fig, goals
        return None, frozenset()

    def _beside_locked_door(
        self, view: View, fig: Figure, plan: Plan, routes: RouteMap
    ) -> frozenset[int]:
        """The squares next to the last square before a door ``fig`` cannot open on its way,
        joined to it by open edges: where it waits without blocking the saw. Empty when its way
        has no such door."""
        route = routes[fig.index]
        goal = route.nearest(plan.goals)
        if goal < 0:
            return frozenset()
        for sq, d in self._path(route, goal):
            if self._edge_cost(view, fig, sq, d) == LOCKED_COST:
                return frozenset(
                    self.board.neighbor[sq][k]
                    for k in range(4)
                    if self.board.edge[sq][k] == OPEN_EDGE
                )
        return frozenset()
