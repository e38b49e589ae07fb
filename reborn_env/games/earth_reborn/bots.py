"""A scripted Earth Reborn player that works only from its seat's observation and action mask.

What: :class:`EarthRebornHeuristicBot` plays either faction of a scenario (Vault Raid by default)
by fixed rules of thumb. Why: a readable, reproducible opponent that is clearly stronger than
random play, to measure learned agents against, and a proof that a seat can play with sense from
what the environment shows it. It reads the observation by block name through the scenario's
layout (``observation.layout_for``), scales included, and reads only public scenario data (map,
doors, character cards, tile sections); it never sees the game state, so the opponent's hand and
the bag stay hidden (ER-HID-1..12).

How it plays. NORAD sends each figure to its own unhacked terminal; the card carrier first opens a
magnetic wooden door (that kind stays open) when a friend's way to its terminal needs it, hands
the card to a friend on its square who needs it more, and a figure on a terminal hacks with as
many CP as the Interact section takes. Salemites guard the squares outside the terminals' doors
and hunt the nearest NORAD figure with the rest; where the mission scores held squares
(ER-SCN-14), a free figure of either side takes each of them first. Both sides fight adjacent
enemies and shoot the weakest, closest target in sight with all the CP they can spare, about half
the extra on aim.
Routes are cheapest paths on the map, a closed door the mover can open costing one extra MVP.
CP go to progress only: a tile is drawn only when a figure needs an order type that neither its
tiles nor the hand offer (never to fill the hand), rounds end and phases are passed rather than
spending CP on nothing, and the Final phase keeps the tiles that suit the faction's characters.
``seed`` drives the only randomness, the choice between equally good options.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from ...core.observation_views import ObservationView, Records
from .actions import codec_for
from .observation import SECTION_MAX_CP, layout_for
from .rules.orders import SAW_DOOR_ABILITY
from .rules.sight import has_line_of_sight, range_to
from .rules.state import (
    ACTIVATION,
    AIM,
    CHOOSE_DISCARD,
    CLOSED,
    CP,
    DISCARD,
    DUEL_ANSWER,
    DUEL_ASK,
    MOVING,
    MULLIGAN,
    ROUND,
    TARGET,
)
from .scenario.loader import load_scenario
from .scenario.model import (
    CLOSE_COMBAT,
    INTERACT,
    MOVE,
    OPEN_EDGE,
    SEARCH,
    SHOOT,
    CharacterSpec,
    Scenario,
)

UNREACHABLE = 10**6
DOOR_COST = 2  # a closed door the mover can open: OPEN (1 MVP), then STEP (1 MVP)
LOCKED_COST = 8  # a door the mover cannot open: a route to walk up to and wait, not to take
SAW_COST = 3  # Jack Saw cuts a door for 1 CP, then steps through
INTERACT_CP = 2  # CP a hacker keeps for the Interact order at the end of its walk

T = TypeVar("T")


# --- The observation, decoded -------------------------------------------------------------------


@dataclass(frozen=True)
class SectionView:
    """A section of a tile assigned to a figure, as the table shows it (ER-TILE-5)."""

    section: int  # 4 * slot + index (ER-ENV-6)
    type: str
    max: int
    cp: int

    @property
    def room(self) -> int:
        """CP it can still take: a Move section refills to its max, others only while empty."""
        if self.type == MOVE:
            return self.max - self.cp
        return self.max if self.cp == 0 else 0


@dataclass(frozen=True)
class Figure:
    """One character as the table shows it; ``mine`` is relative to the observer."""

    index: int
    mine: bool
    alive: bool
    wounded: bool  # the card's Wounded side is up (ER-WND-1)
    life: int  # wounds it can still take
    engaged: bool
    cp_left: int  # CP it may still receive this turn (MAXCP minus spent)
    has_card: bool
    weapon_ready: bool
    active: bool
    square: int
    facing: int
    tried: frozenset[int]  # terminals it tried this turn (ER-INT-2)
    sections: tuple[SectionView, ...]

    def room(self, order_type: str) -> int:
        return sum(s.room for s in self.sections if s.type == order_type)

    @property
    def slots(self) -> int:
        return len({s.section >> 2 for s in self.sections})


@dataclass(frozen=True)
class View:
    """What one seat sees, decoded: the part of the observation the bot plays from."""

    me: int  # my faction's index in scenario.factions
    decision: str
    cp: int
    hand: tuple[int, ...]
    discard: tuple[int, ...]  # only filled at my CHOOSE_DISCARD (ER-HID-7)
    doors: tuple[int, ...]  # CLOSED / OPENED / DESTROYED per door
    hacked: tuple[bool, ...]
    mvp: int
    section: int  # the section of the order being built, else -1
    target: int  # the shot's target character, else -1
    figures: tuple[Figure, ...]

    def living(self, mine: bool) -> list[Figure]:
        return [f for f in self.figures if f.alive and f.mine == mine]

    @property
    def active(self) -> Figure:
        return next(f for f in self.figures if f.active)


class ObservationReader:
    """Turns one scenario's observation into a :class:`View`, reading its blocks by name."""

    def __init__(self, scn: Scenario) -> None:
        self.scn = scn
        self.layout = layout_for(scn)

    def read(self, obs: np.ndarray) -> View:
        view = self.layout.view(obs)
        return View(
            me=view.index("faction"),
            decision=view.label("decision"),
            cp=view["cp"].amount("mine"),
            hand=view.indices("hand"),
            discard=view.indices("discard"),
            doors=tuple(int(door.argmax()) for door in view["doors"]),
            hacked=tuple(bool(v > 0.5) for v in view["hacked"]),
            mvp=view["round"].amount("mvp"),
            section=view.index("section"),
            target=view.index("target_character"),
            figures=tuple(self._figure(c, fig) for c, fig in enumerate(view["characters"])),
        )

    def _figure(self, c: int, fig: ObservationView) -> Figure:
        """Character ``c``'s record; its wounds and CP are fractions of its card's stats."""
        spec = self.scn.characters[c]
        wounded = fig.flag("wounded")
        lp = spec.wounded.lp if wounded else spec.healthy.lp
        life = lp - round(fig.value("wounds") * lp) + (0 if wounded else spec.wounded.lp)
        x, y = int(fig["x"].argmax()), int(fig["y"].argmax())
        return Figure(
            index=c,
            mine=fig.flag("mine"),
            alive=fig.flag("alive"),
            wounded=wounded,
            life=life,
            engaged=fig.flag("engaged"),
            cp_left=round(fig.value("cp_left") * spec.healthy.maxcp),
            has_card=fig.value("cards") > 0,
            weapon_ready=fig.flag("weapon_ready"),
            active=fig.flag("activated"),
            square=self.scn.board.square(x, y),
            facing=int(fig["facing"].argmax()),
            tried=frozenset(fig.indices("tried")),
            sections=_sections(fig["sections"]),
        )


def _sections(sections: Records) -> tuple[SectionView, ...]:
    """The sections of the tiles assigned to a figure (ER-TILE-5), slot by slot."""
    found = []
    for s in np.flatnonzero(sections.column("present") > 0.5):
        section = sections[s]
        kind = section.label("type")
        found.append(SectionView(int(s), kind, section.amount("max"), section.amount("cp")))
    return tuple(found)


# --- Routes on the map --------------------------------------------------------------------------


@dataclass(frozen=True)
class Routes:
    """Cheapest routes of one figure from its square: cost and the last step into each square."""

    source: int
    cost: list[int]
    came_by: list[int]  # direction of the step into the square on its cheapest route, else -1

    def nearest(self, squares: Iterable[int]) -> int:
        """The cheapest of ``squares`` to reach, or -1 if none can be reached."""
        best = min(squares, key=lambda sq: self.cost[sq], default=-1)
        return best if best >= 0 and self.cost[best] < UNREACHABLE else -1


@dataclass(frozen=True)
class Plan:
    """Where a figure wants to be and what for."""

    goals: frozenset[int] = frozenset()  # squares to stand on; empty: nowhere to go
    door: int = -1  # a door to open once there (the card carrier's errand), else -1
    terminal: int = -1  # the terminal to hack there, else -1

    @property
    def on_mission(self) -> bool:
        """Going to hack or to open a door for a friend: its CP are kept from fighting."""
        return self.terminal >= 0 or self.door >= 0


Plans = dict[int, Plan]  # figure index -> plan
RouteMap = dict[int, Routes]  # figure index -> routes


class EarthRebornHeuristicBot:
    """Scripted Earth Reborn player for either seat; see the module docstring for its play."""

    def __init__(self, scenario: str = "vault_raid", seed: int | None = None) -> None:
        self.scn = load_scenario(scenario)
        self.codec = codec_for(self.scn)
        self.reader = ObservationReader(self.scn)
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self.board = self.scn.board
        self.rooms = [self._room(t.square) for t in self.scn.terminals]
        self.posts = [self._posts(room) for room in self.rooms]
        self.hacker = self.scn.factions.index(self.scn.mission.hacker_faction)
        self.weights = [self._type_weights(player) for player in range(len(self.scn.factions))]
        self.kind_of = self.codec.kind_of
        self.arg_of = self.codec.arg_of
        self.handlers: dict[str, Callable[[View, set[int]], int]] = {
            MULLIGAN: self._mulligan,
            DUEL_ASK: self._duel,
            DUEL_ANSWER: self._duel,
            ROUND: self._round,
            CHOOSE_DISCARD: self._choose_discard,
            ACTIVATION: self._activation,
            MOVING: self._moving,
            TARGET: self._target,
            CP: self._cp,
            AIM: self._aim,
            DISCARD: self._discard,
        }

    def reset(self) -> None:
        """A new game: nothing is remembered between decisions, so only the tie-breaker restarts."""
        self.rng = np.random.default_rng(self.seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        view = self.reader.read(np.asarray(observation, dtype=np.float32))
        legal = {int(a) for a in np.flatnonzero(action_mask)}
        assert legal, "act() called with an empty action mask"
        action = self.handlers[view.decision](view, legal)
        assert action in legal, f"{self.codec.name(action)} is not legal at {view.decision}"
        return action

    def _best(self, items: Iterable[T], key: Callable[[T], Any]) -> T:
        """The item with the highest ``key``; ties are broken with the bot's own generator."""
        pool = list(items)
        keys = [key(item) for item in pool]
        top = max(keys)
        tied = [item for item, k in zip(pool, keys, strict=True) if k == top]
        return tied[int(self.rng.integers(len(tied)))]

    # --- Static geometry ------------------------------------------------------------------------

    def _room(self, square: int) -> frozenset[int]:
        """The squares joined to ``square`` by open edges only (no door): a terminal's room."""
        room, todo = {square}, [square]
        while todo:
            sq = todo.pop()
            for d in range(4):
                nb = self.board.neighbor[sq][d]
                if self.board.edge[sq][d] == OPEN_EDGE and nb not in room:
                    room.add(nb)
                    todo.append(nb)
        return frozenset(room)

    def _posts(self, room: frozenset[int]) -> frozenset[int]:
        """The squares just outside a room's doors, where a guard blocks the way in."""
        return frozenset(
            self.board.neighbor[sq][d]
            for sq in room
            for d in range(4)
            if self.board.edge[sq][d] >= 0
        )

    def _spec(self, fig: Figure) -> CharacterSpec:
        return self.scn.characters[fig.index]

    def _mov(self, fig: Figure) -> int:
        spec = self._spec(fig)
        return (spec.wounded if fig.wounded else spec.healthy).mov

    def _can_saw(self, fig: Figure) -> bool:
        return SAW_DOOR_ABILITY in self._spec(fig).abilities

    def _open(self, view: View, sq: int, d: int) -> bool:
        """Edge ``d`` of ``sq`` lets figures through now: no wall, no closed door (ER-MOV-3)."""
        e = self.board.edge[sq][d]
        return e == OPEN_EDGE or (e >= 0 and view.doors[e] != CLOSED)

    def _edge_cost(self, view: View, fig: Figure, sq: int, d: int) -> int:
        """MVP to cross edge ``d`` of ``sq``; LOCKED_COST for a door ``fig`` cannot open."""
        if self._open(view, sq, d):
            return 1
        e = self.board.edge[sq][d]
        if e < 0:
            return UNREACHABLE
        if not self.board.doors[e].magnetic or fig.has_card:
            return DOOR_COST
        return SAW_COST if self._can_saw(fig) else LOCKED_COST

    def _routes(self, view: View, fig: Figure) -> Routes:
        """Dijkstra from ``fig``'s square; squares of living enemies cannot be entered."""
        n = len(self.board.void)
        cost, came_by = [UNREACHABLE] * n, [-1] * n
        enemies = {f.square for f in view.figures if f.alive and f.mine != fig.mine}
        cost[fig.square] = 0
        heap = [(0, fig.square)]
        while heap:
            c, sq = heapq.heappop(heap)
            if c > cost[sq]:
                continue
            for d in range(4):
                nb = self.board.neighbor[sq][d]
                step = self._edge_cost(view, fig, sq, d)
                if step >= UNREACHABLE or nb in enemies or c + step >= cost[nb]:
                    continue
                cost[nb], came_by[nb] = c + step, d
                heapq.heappush(heap, (c + step, nb))
        return Routes(fig.square, cost, came_by)

    def _path(self, routes: Routes, goal: int) -> list[tuple[int, int]]:
        """(square, direction) steps from the route's source to ``goal``."""
        steps = []
        sq = goal
        while sq != routes.source and routes.came_by[sq] >= 0:
            d = routes.came_by[sq]
            back = self.board.neighbor[sq][(d + 2) % 4]
            steps.append((back, d))
            sq = back
        return steps[::-1]

    def _locked_on_path(self, view: View, fig: Figure, path: list[tuple[int, int]]) -> bool:
        """Whether the path crosses a closed magnetic door (the figure needs a card there)."""
        for sq, d in path:
            e = self.board.edge[sq][d]
            if e >= 0 and view.doors[e] == CLOSED and self.board.doors[e].magnetic:
                return True
        return False

    def _attack_squares(self, view: View, mover: Figure, enemies: list[Figure]) -> set[int]:
        """Free squares next to an enemy across an open edge: where a close combat can start."""
        taken = {f.square for f in view.figures if f.alive and f.index != mover.index}
        found = set()
        for enemy in enemies:
            for d in range(4):
                nb = self.board.neighbor[enemy.square][d]
                if self._open(view, enemy.square, d) and nb not in taken:
                    found.add(nb)
        return found

    def _adjacent_enemies(self, view: View, fig: Figure) -> list[tuple[int, Figure]]:
        """(direction, enemy) for living enemies next to ``fig`` across an open edge (ER-CC-1)."""
        found = []
        for d in range(4):
            if not self._open(view, fig.square, d):
                continue
            nb = self.board.neighbor[fig.square][d]
            found += [(d, f) for f in view.living(not fig.mine) if f.square == nb]
        return found

    def _sees(self, view: View, square: int, facing: int, target: int) -> bool:
        occupied = [False] * len(self.board.void)
        for f in view.figures:
            if f.alive:
                occupied[f.square] = True
        closed = [s == CLOSED for s in view.doors]
        return has_line_of_sight(self.board, square, facing, target, occupied, closed)

    def _in_sight(self, view: View, fig: Figure, facing: int) -> list[Figure]:
        return [
            e for e in view.living(not fig.mine) if self._sees(view, fig.square, facing, e.square)
        ]

    def _can_shoot(self, fig: Figure) -> bool:
        return self._spec(fig).weapon is not None

    # --- Plans ----------------------------------------------------------------------------------

    def _plans(self, view: View) -> tuple[Plans, RouteMap]:
        mine = view.living(True)
        routes = {f.index: self._routes(view, f) for f in mine}
        if view.me == self.hacker:
            return self._hacker_plans(view, mine, routes), routes
        return self._guard_plans(view, mine, routes), routes

    def _hacker_plans(self, view: View, mine: list[Figure], routes: RouteMap) -> Plans:
        """Each figure to its own unhacked terminal, then errands; the rest fetch a card or hunt."""
        plans: Plans = {
            c: Plan(frozenset({self.scn.terminals[t].square}), terminal=t)
            for c, t in self._assign_terminals(view, mine, routes).items()
        }
        errand = self._errand(view, mine, routes, plans)
        if errand is not None:
            carrier_index, door = errand
            d = self.board.doors[door]
            plans[carrier_index] = Plan(frozenset({d.a, d.b}), door=door)
        self._hold_plans(mine, routes, plans)
        lost_cards = frozenset(f.square for f in view.figures if not f.alive and f.has_card)
        enemies = view.living(False)
        for f in mine:
            if f.index in plans:
                continue
            if lost_cards and not f.has_card and routes[f.index].nearest(lost_cards) >= 0:
                plans[f.index] = Plan(lost_cards)  # ER-DOOR-11: pick the card up on the way
            else:
                plans[f.index] = Plan(frozenset(self._attack_squares(view, f, enemies)))
        return plans

    def _assign_terminals(self, view: View, mine: list[Figure], routes: RouteMap) -> dict[int, int]:
        """figure -> terminal: as many unhacked terminals covered as possible, at least cost."""
        carrier = any(f.has_card for f in mine)
        cost = {
            (f.index, t): routes[f.index].cost[terminal.square]
            for f in mine
            for t, terminal in enumerate(self.scn.terminals)
            if not view.hacked[t]
            and self._way_in(view, f, routes[f.index], terminal.square, carrier)
        }
        open_terminals = sorted({t for _, t in cost})
        seats: list[int | None] = [f.index for f in mine] + [None] * len(open_terminals)
        best: dict[int, int] = {}
        best_key: tuple[int, int] | None = None
        for takers in itertools.permutations(seats, len(open_terminals)):
            pairs = {c: t for c, t in zip(takers, open_terminals, strict=True) if (c, t) in cost}
            key = (-len(pairs), sum(cost[c, t] for c, t in pairs.items()))
            if best_key is None or key < best_key:
                best, best_key = pairs, key
        return best

    def _way_in(self, view: View, fig: Figure, routes: Routes, square: int, carrier: bool) -> bool:
        """Reachable, each locked door on the way being one a carrier can open for good."""
        if routes.cost[square] >= UNREACHABLE:
            return False
        for sq, d in self._path(routes, square):
            if self._edge_cost(view, fig, sq, d) == LOCKED_COST:
                door = self.board.doors[self.board.edge[sq][d]]
                if door.sliding or not carrier:
                    return False
        return True

    def _errand(
        self, view: View, mine: list[Figure], routes: RouteMap, plans: Plans
    ) -> tuple[int, int] | None:
        """(carrier, door): a card carrier opens a magnetic wooden door blocking a friend's way."""
        terminal_squares = {
            t.square for t, h in zip(self.scn.terminals, view.hacked, strict=True) if not h
        }
        carriers = [f for f in mine if f.has_card and f.square not in terminal_squares]
        for f in mine:
            plan = plans.get(f.index)
            if f.has_card or plan is None or plan.terminal < 0 or not carriers:
                continue
            for sq, d in self._path(routes[f.index], next(iter(plan.goals))):
                e = self.board.edge[sq][d]
                door = self.board.doors[e] if e >= 0 else None
                if door and view.doors[e] == CLOSED and door.magnetic and not door.sliding:
                    best = min(carriers, key=lambda c: routes[c.index].cost[door.a])
                    return best.index, e
        return None

    def _guard_plans(self, view: View, mine: list[Figure], routes: RouteMap) -> Plans:
        """A guard outside each unhacked terminal's doors; the others hunt the nearest enemy."""
        enemies = view.living(False)
        plans: Plans = {}
        for t, hacked in enumerate(view.hacked):
            intruders = [e for e in enemies if e.square in self.rooms[t]]
            if hacked or intruders:
                continue
            free = [f for f in mine if f.index not in plans]
            if not free:
                break
            guard = min(free, key=lambda f: self._guard_cost(f, routes[f.index], self.posts[t]))
            plans[guard.index] = Plan(self.posts[t])
        self._hold_plans(mine, routes, plans)
        inside = [e for e in enemies if any(e.square in room for room in self.rooms)]
        prey = inside or enemies
        for f in mine:
            if f.index not in plans:
                plans[f.index] = Plan(frozenset(self._attack_squares(view, f, prey)))
        return plans

    def _hold_plans(self, mine: list[Figure], routes: RouteMap, plans: Plans) -> None:
        """ER-SCN-14: each hold square, in scenario order, to the nearest figure still free that
        can reach it (the first in ``mine`` on a tie); a figure on one stays there."""
        for square in self.scn.mission.hold_squares:
            free = [
                f
                for f in mine
                if f.index not in plans and routes[f.index].cost[square] < UNREACHABLE
            ]
            if free:
                holder = min(free, key=lambda f: routes[f.index].cost[square])
                plans[holder.index] = Plan(frozenset({square}))

    def _guard_cost(self, fig: Figure, routes: Routes, post: frozenset[int]) -> int:
        """Route cost to a post; shooters count extra, so they roam and fire instead."""
        best = min(routes.cost[sq] for sq in post)
        return best + (4 if self._can_shoot(fig) else 0)

    def _next_step(
        self, view: View, fig: Figure, plan: Plan, routes: Routes
    ) -> tuple[int, bool] | None:
        """(direction, door to open first) of the route's first step, or None if stuck/there."""
        goal = routes.nearest(plan.goals)
        if goal < 0 or goal == fig.square:
            return None
        sq, d = self._path(routes, goal)[0]
        cost = self._edge_cost(view, fig, sq, d)
        if cost in (LOCKED_COST, SAW_COST):
            return None
        return d, cost == DOOR_COST

    def _moves_needed(self, view: View, fig: Figure, plan: Plan, routes: Routes) -> int:
        """CP of Move orders still needed to reach the plan's goal (0 if there or stuck)."""
        goal = routes.nearest(plan.goals)
        if goal < 0 or self._next_step(view, fig, plan, routes) is None:
            return 0
        return math.ceil(max(routes.cost[goal] - view.mvp, 0) / self._mov(fig))

    def _hack_pending(self, fig: Figure, plan: Plan) -> bool:
        return plan.terminal >= 0 and plan.terminal not in fig.tried

    def _cp_needed(self, view: View, fig: Figure, plan: Plan, routes: Routes) -> int:
        """CP ``fig`` still wants this turn for its walk and its hack."""
        need = self._moves_needed(view, fig, plan, routes)
        if self._hack_pending(fig, plan):
            need += INTERACT_CP
        return min(need, fig.cp_left)

    def _spare_cp(self, view: View, fig: Figure, plans: Plans, routes: RouteMap) -> int:
        """CP ``fig`` may spend off-mission: the hacker keeps what its missions still need."""
        room = min(view.cp, fig.cp_left)
        if view.me != self.hacker:
            return room
        needed = sum(
            self._cp_needed(view, f, plans[f.index], routes[f.index])
            for f in view.living(True)
            if plans[f.index].on_mission
        )
        return max(0, min(room, view.cp - needed))

    # --- Round-level decisions ------------------------------------------------------------------

    def _mulligan(self, view: View, legal: set[int]) -> int:
        """ER-INI-4: keep unless no tile in hand has a Move section."""
        keep = any(s.type == MOVE for t in view.hand for s in self.scn.tiles[t].sections)
        redraw = self.codec.base["MULLIGAN_REDRAW"]
        return redraw if not keep and redraw in legal else self.codec.base["MULLIGAN_KEEP"]

    def _duel(self, view: View, legal: set[int]) -> int:
        """ER-INI-8: never bid; CP are worth more on orders."""
        return self.codec.base["DUEL_BID"]

    def _round(self, view: View, legal: set[int]) -> int:
        """Activate the figure with the most useful thing to do; draw for a missing order; pass."""
        plans, routes = self._plans(view)
        base = self.codec.base
        ranked = sorted(
            ((self._value(view, f, plans, routes), f) for f in view.living(True)),
            key=lambda vf: (-vf[0], vf[1].index),
        )
        waiting = [f for _, f in ranked if not f.engaged]
        for value, fig in ranked:
            if value <= 0:
                break
            for kind in ("ACTIVATE", "REACTIVATE"):
                if base[kind] + fig.index in legal:
                    return base[kind] + fig.index
            if waiting:  # every figure must be activated once before a reactivation (ER-ACT-6)
                return base["ACTIVATE"] + waiting[0].index
        if base["DRAW_BAG"] in legal and self._should_draw(view, plans, routes):
            return base["DRAW_BAG"]
        return base["PASS"]

    def _value(self, view: View, fig: Figure, plans: Plans, routes: RouteMap) -> float:
        """How useful activating ``fig`` now is (0: nothing worth a CP)."""
        if view.cp < 1 or fig.cp_left < 1:
            return 0.0
        plan, route = plans[fig.index], routes[fig.index]
        spare = self._spare_cp(view, fig, plans, routes)
        value = 0.0
        if self._hack_here(fig, plan) and self._available(view, fig, INTERACT):
            value = 10.0
        if spare and self._adjacent_enemies(view, fig) and self._available(view, fig, CLOSE_COMBAT):
            value = max(value, 6.0)
        if spare and self._shooting_possible(view, fig) and self._in_sight(view, fig, fig.facing):
            value = max(value, 5.0)
        if self._next_step(view, fig, plan, route) and self._available(view, fig, MOVE):
            value = max(value, 4.5 if plan.door >= 0 else 4.0)
        if self._saw_direction(view, fig, plan, route) >= 0:
            value = max(value, 3.5)
        if spare >= 2 and self._shooting_possible(view, fig) and self._turn_to_see(view, fig):
            value = max(value, 2.5)
        return value

    def _hack_here(self, fig: Figure, plan: Plan) -> bool:
        """On the plan's terminal, not yet tried this turn (ER-INT-2/-3)."""
        return self._hack_pending(fig, plan) and fig.square in plan.goals

    def _available(self, view: View, fig: Figure, order_type: str) -> bool:
        """A section of ``order_type`` with room on ``fig``, or in hand while it can take a tile."""
        if fig.room(order_type) > 0:
            return True
        if fig.slots >= self.scn.max_tiles_per_character:
            return False
        return any(s.type == order_type for t in view.hand for s in self.scn.tiles[t].sections)

    def _shooting_possible(self, view: View, fig: Figure) -> bool:
        ready = fig.weapon_ready or min(view.cp, fig.cp_left) >= 2
        return self._can_shoot(fig) and ready and self._available(view, fig, SHOOT)

    def _should_draw(self, view: View, plans: Plans, routes: RouteMap) -> bool:
        """ER-ACT-9 for 1 CP, never to fill the hand: only for an order type a figure lacks."""
        if view.cp < 2:
            return False
        for fig in view.living(True):
            if fig.cp_left < 1 or fig.slots >= self.scn.max_tiles_per_character:
                continue
            wants = self._wanted_types(view, fig, plans[fig.index], routes[fig.index])
            if any(not self._available(view, fig, t) for t in wants):
                return True
        return False

    def _wanted_types(self, view: View, fig: Figure, plan: Plan, routes: Routes) -> set[str]:
        """Order types ``fig`` could use right now."""
        wants = set()
        if self._hack_here(fig, plan):
            wants.add(INTERACT)
        if self._next_step(view, fig, plan, routes):
            wants.add(MOVE)
        if self._adjacent_enemies(view, fig):
            wants.add(CLOSE_COMBAT)
        if self._can_shoot(fig) and self._in_sight(view, fig, fig.facing):
            wants.add(SHOOT)
        return wants

    # --- Tiles in hand --------------------------------------------------------------------------

    def _type_weights(self, player: int) -> dict[str, float]:
        """How much each order type serves a faction's characters (their roles)."""
        cast = [c for c in self.scn.characters if self.scn.factions.index(c.faction) == player]
        armed = sum(c.weapon is not None for c in cast) / len(cast)
        return {
            MOVE: 1.0,
            SHOOT: armed,
            CLOSE_COMBAT: 0.2 + (1.0 - armed),
            INTERACT: 1.5 if player == self.hacker else 0.0,
            SEARCH: 0.1 if self.scn.caches else 0.0,
        }

    def _keep_score(self, player: int, tile: int) -> float:
        """How well a tile's sections fit a faction's characters."""
        weights = self.weights[player]
        return sum(weights[s.type] * s.max for s in self.scn.tiles[tile].sections)

    def _choose_discard(self, view: View, legal: set[int]) -> int:
        """ER-ACT-10: the discarded tile that suits my characters best."""
        tile = self._best(view.discard, lambda t: self._keep_score(view.me, t))
        return self.codec.base["CHOOSE_DISCARD"] + tile

    def _discard(self, view: View, legal: set[int]) -> int:
        """ER-FIN-5: throw the least useful tiles until 5 are left, then keep the hand."""
        if len(view.hand) <= self.scn.hand_limit:
            return self.codec.base["KEEP_HAND"]
        tile = self._best(view.hand, lambda t: -self._keep_score(view.me, t))
        return self.codec.base["DISCARD_TILE"] + tile

    def _tile_to_assign(self, view: View, fig: Figure, plans: Plans, routes: RouteMap) -> int:
        """The hand tile that serves this round best, or -1 if none is needed (ER-ORD-1)."""
        needs = self._needs(view, fig, plans, routes)

        def score(tile: int) -> float:
            sections = self.scn.tiles[tile].sections
            return sum(min(s.max, needs.get(s.type, 0)) * _NEED_WEIGHT[s.type] for s in sections)

        if not view.hand:
            return -1
        tile = self._best(view.hand, score)
        return tile if score(tile) > 0 else -1

    def _needs(self, view: View, fig: Figure, plans: Plans, routes: RouteMap) -> dict[str, int]:
        """CP per order type that ``fig`` could use this round beyond its assigned sections."""
        plan, route = plans[fig.index], routes[fig.index]
        room = min(view.cp, fig.cp_left)
        moves = self._moves_needed(view, fig, plan, route)
        needs = {MOVE: min(moves, room) - fig.room(MOVE)}
        if self._hack_pending(fig, plan) and moves + 1 <= room:
            needs[INTERACT] = INTERACT_CP - fig.room(INTERACT)
        spare = self._spare_cp(view, fig, plans, routes)
        if self._can_shoot(fig) and self._visible_enemies(view, fig):
            needs[SHOOT] = min(spare, SECTION_MAX_CP) - fig.room(SHOOT)
        if self._adjacent_enemies(view, fig) or (not self._can_shoot(fig) and moves <= 2):
            needs[CLOSE_COMBAT] = min(spare, SECTION_MAX_CP) - fig.room(CLOSE_COMBAT)
        return {kind: n for kind, n in needs.items() if n > 0}

    def _visible_enemies(self, view: View, fig: Figure) -> list[Figure]:
        """Enemies in sight with some facing (a Move order can turn the figure)."""
        return [e for e in view.living(not fig.mine) if self._sees_any(view, fig.square, e.square)]

    def _sees_any(self, view: View, square: int, target: int) -> bool:
        return any(self._sees(view, square, f, target) for f in range(4))

    # --- An activated figure ------------------------------------------------------------------

    def _activation(self, view: View, legal: set[int]) -> int:
        """ER-ENV-3: assign a tile, then hack, fight, shoot, move, turn; end the round when done."""
        fig = view.active
        plans, routes = self._plans(view)
        tile = self._tile_to_assign(view, fig, plans, routes)
        if tile >= 0 and self.codec.base["ASSIGN"] + tile in legal:
            return self.codec.base["ASSIGN"] + tile
        for chooser in (
            self._order_interact,
            self._order_fight,
            self._order_shoot,
            self._order_reload,
            self._order_saw,
            self._order_move,
            self._order_turn,
            self._order_search,
        ):
            action = chooser(view, fig, plans, routes, legal)
            if action is not None:
                return action
        end = self.codec.base["END_ROUND"]
        return end if end in legal else self._fallback(legal)

    def _fallback(self, legal: set[int]) -> int:
        """The lowest legal action: codec order puts the cheap ones first (ASSIGN, then MOVE_CP).

        Used where the rules force a move the plan did not want, e.g. a reactivation that must do
        something before END_ROUND (ER-ACT-8).
        """
        return min(legal)

    def _selectable(self, fig: Figure, legal: set[int], order_type: str) -> list[SectionView]:
        """Sections of ``order_type`` the mask lets ``fig`` start an order on, biggest first."""
        base = self.codec.base["SELECT_ORDER"]
        found = [s for s in fig.sections if s.type == order_type and base + s.section in legal]
        return sorted(found, key=lambda s: (-s.max, s.section))

    def _select(self, section: SectionView) -> int:
        return self.codec.base["SELECT_ORDER"] + section.section

    def _order_interact(
        self, view: View, fig: Figure, plans: Plans, routes: RouteMap, legal: set[int]
    ) -> int | None:
        sections = self._selectable(fig, legal, INTERACT)
        return self._select(sections[0]) if sections else None

    def _order_fight(
        self, view: View, fig: Figure, plans: Plans, routes: RouteMap, legal: set[int]
    ) -> int | None:
        sections = self._selectable(fig, legal, CLOSE_COMBAT)
        spare = self._spare_cp(view, fig, plans, routes)
        if sections and spare and self._adjacent_enemies(view, fig):
            return self._select(sections[0])
        return None

    def _order_shoot(
        self, view: View, fig: Figure, plans: Plans, routes: RouteMap, legal: set[int]
    ) -> int | None:
        sections = self._selectable(fig, legal, SHOOT)
        spare = self._spare_cp(view, fig, plans, routes)
        if not sections or not spare:
            return None
        fitting = [s for s in sections if s.max <= spare] or sections[-1:]
        return self._select(fitting[0])

    def _order_reload(
        self, view: View, fig: Figure, plans: Plans, routes: RouteMap, legal: set[int]
    ) -> int | None:
        reload = self.codec.base["RELOAD"]
        spare = self._spare_cp(view, fig, plans, routes)
        return reload if reload in legal and fig.room(SHOOT) and spare >= 2 else None

    def _order_saw(
        self, view: View, fig: Figure, plans: Plans, routes: RouteMap, legal: set[int]
    ) -> int | None:
        d = self._saw_direction(view, fig, plans[fig.index], routes[fig.index])
        action = self.codec.base["SAW_DOOR"] + d
        return action if d >= 0 and action in legal else None

    def _saw_direction(self, view: View, fig: Figure, plan: Plan, routes: Routes) -> int:
        """The direction of a closed door on ``fig``'s route that only a saw gets through."""
        goal = routes.nearest(plan.goals)
        if not self._can_saw(fig) or goal < 0 or goal == fig.square:
            return -1
        sq, d = self._path(routes, goal)[0]
        return d if self._edge_cost(view, fig, sq, d) == SAW_COST else -1

    def _order_move(
        self, view: View, fig: Figure, plans: Plans, routes: RouteMap, legal: set[int]
    ) -> int | None:
        step = self._next_step(view, fig, plans[fig.index], routes[fig.index])
        if step is None or not self._move_cp_worth(view, fig, plans, routes):
            return None
        return self._move_cp(fig, legal)

    def _move_cp(self, fig: Figure, legal: set[int]) -> int | None:
        """MOVE_CP on the Move section with the most room (ER-MOV-2)."""
        base = self.codec.base["MOVE_CP"]
        sections = [s for s in fig.sections if s.type == MOVE and base + s.section in legal]
        if not sections:
            return None
        return base + max(sections, key=lambda s: (s.room, -s.section)).section

    def _move_cp_worth(self, view: View, fig: Figure, plans: Plans, routes: RouteMap) -> bool:
        """One more CP of movement: off-mission from spare CP; keep the hack's CP when in reach."""
        plan, route = plans[fig.index], routes[fig.index]
        moves = self._moves_needed(view, fig, plan, route)
        if moves == 0:
            return False
        if not plan.on_mission:
            return self._spare_cp(view, fig, plans, routes) >= 1
        room = min(view.cp, fig.cp_left)
        keep = 0
        if self._hack_pending(fig, plan) and moves + 1 <= room:
            keep = min(INTERACT_CP, room - moves, max(fig.room(INTERACT), 1))
        return room - 1 >= keep

    def _order_turn(
        self, view: View, fig: Figure, plans: Plans, routes: RouteMap, legal: set[int]
    ) -> int | None:
        """A Move order without steps to face an enemy the weapon could hit (ER-MOV-8)."""
        spare = self._spare_cp(view, fig, plans, routes)
        if fig.weapon_ready and fig.room(SHOOT) and spare >= 2 and self._turn_to_see(view, fig):
            return self._move_cp(fig, legal)
        return None

    def _turn_to_see(self, view: View, fig: Figure) -> bool:
        """No enemy in sight now, but one would be with another facing."""
        return not self._in_sight(view, fig, fig.facing) and bool(self._visible_enemies(view, fig))

    def _order_search(
        self, view: View, fig: Figure, plans: Plans, routes: RouteMap, legal: set[int]
    ) -> int | None:
        sections = self._selectable(fig, legal, SEARCH)
        spare = self._spare_cp(view, fig, plans, routes)
        return self._select(sections[0]) if sections and spare else None

    # --- A Move order -------------------------------------------------------------------------

    def _moving(self, view: View, legal: set[int]) -> int:
        """ER-ENV-4: cards first, then the route's next step, more MVP if worth it, else stop."""
        fig = view.active
        plans, routes = self._plans(view)
        plan, route = plans[fig.index], routes[fig.index]
        base = self.codec.base
        card = self._card_action(view, fig, plans, routes, legal)
        if card is not None:
            return card
        door = self._errand_open(view, fig, plan, legal)
        if door is not None:
            return door
        step = self._next_step(view, fig, plan, route)
        if step is not None and view.mvp >= 1:
            d, opening = step
            action = base["OPEN" if opening else "STEP"] + d
            if action in legal:
                return action
        if step is not None and view.mvp < 2 and self._move_cp_worth(view, fig, plans, routes):
            more = self._move_cp(fig, legal)
            if more is not None:
                return more
        facing = base["END_MOVE"] + self._facing(view, fig, plan, route)
        if facing in legal:
            return facing
        return self._leave_square(view, fig, route, legal)

    def _card_action(
        self, view: View, fig: Figure, plans: Plans, routes: RouteMap, legal: set[int]
    ) -> int | None:
        """ER-DOOR-10/-11: pick up cards; give or take one when only one of the pair needs it."""
        base = self.codec.base
        if base["PICKUP_CARD"] in legal:
            return base["PICKUP_CARD"]
        friends = [f for f in view.living(True) if f.square == fig.square and f.index != fig.index]
        if not friends:
            return None
        friend = friends[0]
        mine, theirs = (
            self._needs_card(view, fig, plans, routes),
            self._needs_card(view, friend, plans, routes),
        )
        if base["GIVE_CARD"] in legal and theirs and not mine:
            return base["GIVE_CARD"]
        if base["TAKE_CARD"] in legal and mine and not theirs:
            return base["TAKE_CARD"]
        return None

    def _needs_card(self, view: View, fig: Figure, plans: Plans, routes: RouteMap) -> bool:
        """Whether ``fig``'s way to its goal crosses a closed magnetic door."""
        plan = plans.get(fig.index)
        route = routes.get(fig.index) or self._routes(view, fig)
        goal = route.nearest(plan.goals) if plan else -1
        return goal >= 0 and self._locked_on_path(view, fig, self._path(route, goal))

    def _errand_open(self, view: View, fig: Figure, plan: Plan, legal: set[int]) -> int | None:
        """Open the errand's door from the square beside it."""
        if plan.door < 0 or fig.square not in plan.goals:
            return None
        for d in range(4):
            action = self.codec.base["OPEN"] + d
            if self.board.edge[fig.square][d] == plan.door and action in legal:
                return action
        return None

    def _leave_square(self, view: View, fig: Figure, routes: Routes, legal: set[int]) -> int:
        """END_MOVE is illegal on a friend's square (ER-MOV-5): step off toward cheap squares."""
        steps = [a for a in legal if self.kind_of[a] == "STEP"]
        if not steps:
            return self._fallback(legal)
        occupied = {f.square for f in view.figures if f.alive}

        def badness(action: int) -> tuple[bool, int]:
            target = self.board.neighbor[fig.square][self.arg_of[action]]
            return target in occupied, action

        return min(steps, key=badness)

    def _facing(self, view: View, fig: Figure, plan: Plan, routes: Routes) -> int:
        """Final facing: an adjacent enemy, the door to saw, most enemies in sight, the nearest."""
        adjacent = self._adjacent_enemies(view, fig)
        if adjacent:
            return self._best(adjacent, lambda de: -de[1].life)[0]
        saw = self._saw_direction(view, fig, plan, routes)
        if saw >= 0:
            return saw
        enemies = view.living(not fig.mine)
        if not enemies:
            return fig.facing
        nearest = min(enemies, key=lambda e: range_to(self.board, fig.square, e.square))
        toward = self._direction_to(fig.square, nearest.square)

        def score(f: int) -> tuple[int, int]:
            seen = len(self._in_sight(view, fig, f)) if self._can_shoot(fig) else 0
            return seen, f == toward

        return self._best(range(4), score)

    def _direction_to(self, a: int, b: int) -> int:
        ax, ay = self.board.xy(a)
        bx, by = self.board.xy(b)
        dx, dy = bx - ax, by - ay
        if abs(dx) >= abs(dy):
            return 1 if dx > 0 else 3
        return 2 if dy > 0 else 0

    # --- Building an order ----------------------------------------------------------------------

    def _target(self, view: View, legal: set[int]) -> int:
        """CHOOSE_TARGET: the weakest adjacent enemy, or the weakest, closest enemy in sight."""
        fig = view.active
        base = self.codec.base
        if any(self.kind_of[a] == "CHOOSE_TARGET_DIR" for a in legal):
            adjacent = [
                (d, e)
                for d, e in self._adjacent_enemies(view, fig)
                if base["CHOOSE_TARGET_DIR"] + d in legal
            ]
            if not adjacent:  # only doors: reached through the reactivation fallback
                return min(legal)
            return base["CHOOSE_TARGET_DIR"] + self._best(adjacent, lambda de: -de[1].life)[0]
        targets = [view.figures[self.arg_of[a]] for a in legal]
        best = self._best(targets, lambda e: (-e.life, -range_to(self.board, fig.square, e.square)))
        return base["CHOOSE_TARGET_CHAR"] + best.index

    def _cp(self, view: View, legal: set[int]) -> int:
        """CHOOSE_CP: all a hack or search may take; a fight or shot all that can be spared."""
        fig = view.active
        section = next(s for s in fig.sections if s.section == view.section)
        most = max(self.arg_of[a] for a in legal) + 1
        if section.type in (SHOOT, CLOSE_COMBAT):
            plans, routes = self._plans(view)
            most = max(1, min(most, self._spare_cp(view, fig, plans, routes)))
        return self.codec.base["CHOOSE_CP"] + most - 1

    def _aim(self, view: View, legal: set[int]) -> int:
        """CHOOSE_AIM: about half the extra CP on aim, rounded up when the target is far."""
        n = len(legal)  # CHOOSE_AIM(0..n-1)
        fig = view.active
        far = range_to(self.board, fig.square, view.figures[view.target].square) > 2
        aim = n // 2 if far else (n - 1) // 2
        return self.codec.base["CHOOSE_AIM"] + aim


_NEED_WEIGHT = {INTERACT: 3.0, MOVE: 2.0, CLOSE_COMBAT: 1.5, SHOOT: 1.5, SEARCH: 0.0}
