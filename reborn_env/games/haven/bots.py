"""A scripted haven player that works only from its agent's observation and action mask.

What: :class:`HavenScriptedBot` plays either character of a haven scenario (Raider Camp by default)
by fixed rules of thumb; one instance may play both characters, since it keeps no memory between
decisions. Why: a readable, reproducible team to measure learned agents against, clearly stronger
than random play. Like :class:`~reborn_env.bots.EarthRebornHeuristicBot` it reads the observation
by block name through the scenario's layout (``observation.layout_for``), scales included, and
reads only public scenario data (map, cards, items); it never sees the game state, so it knows of
its partner only what the partner's observation block shows (HV-SEL-3).

How it plays.

- Selection: it scores every pair of hand cards as one card's top box plus the other's bottom box
  (printed or the default Attack 2 / Move 2, whichever is worth more): an attack counts fully when
  a monster is within reach of it this round, a move by how much closer it brings the fight, a
  heal by the HP missing, shield and retaliate by how many monsters could strike this round, the
  Ember Wisp once; a box that would lose its card costs extra. It leads with the pair's lower
  initiative when monsters are near (strike before they do), else with the higher one (let them
  come first). It long rests only when it must.
- Turn: it uses the top box first when it can already attack (or the top box is no attack), else
  it moves first; each box in the mode worth more. It drinks the healing draught when badly hurt,
  puts on the boots when the fight is out of reach, raises the lens before a strong attack, and
  uncorks the flask when a card in hand can consume its element.
- Move: it engages when the attack still to come this turn can reach a monster from a legal hex,
  moving to the best such hex (the melee Bulwark next to the weakest monster; the ranged Conjurer
  at range, out of melee; the Conjurer never walks up for a melee attack). Otherwise it holds,
  since monsters always close in (HV-AI-5): the Bulwark stays near its partner, the Conjurer where
  the fewest monsters can strike next round.
- Attack: a monster it can kill, else the one with the fewest HP; an area attack (HV-AOE-6) names
  such a monster first, then every further one it can, so its area hits as many as it may; heal
  whoever misses the most HP;
  summon next to the nearest monster; always consume an element offered.
- Damage: it suffers damage unless the damage would exhaust it; then it loses its least useful
  hand card (a fixed worth per card), or two discards if the hand is empty. It short rests when its
  hand is down to one card and never pays to re-draw.

The rules were tuned on seeded games against the measured win rate (random play: none).
``seed`` drives the only randomness: the fallback for a prompt no rule answers (counted in
``fallbacks``; the tests expect none).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from ...core.observation_views import ObservationView, Records
from . import actions as A
from .actions import ActionSpace, action_space
from .observation import layout_for
from .rules.figures import board_for
from .rules.hexgrid import hex_distance
from .rules.state import READY
from .scenario.loader import load_scenario
from .scenario.model import (
    ATTACK,
    CONDITION,
    ELEMENTS,
    HEAL,
    LOST,
    MOVE,
    PERSISTENT,
    RETALIATE,
    SHIELD,
    SUFFER_DAMAGE,
    SUMMON,
    AbilityCard,
    Box,
    CharacterClass,
    Scenario,
)

FAR = 99  # steps when no attack hex can be reached


# --- The observation, decoded -------------------------------------------------------------------


@dataclass(frozen=True)
class Figure:
    """A figure on the board as the observation shows it."""

    cell: int
    kind: str  # character id, summon id or monster type id
    side: str  # "character", "summon" or "monster"
    mine: bool
    elite: bool
    hp: int
    max_hp: int
    shield: int
    conditions: frozenset[str]


@dataclass(frozen=True)
class Character:
    """A character's block (``hand`` is empty for the other character: only its size is public)."""

    hp: int
    max_hp: int
    on_map: bool
    hand: tuple[int, ...]
    lead: int | None
    second: int | None
    played: tuple[int, ...]  # picks not yet moved to a pile by their box (HV-BOX-8)
    discard: tuple[int, ...]
    lost: tuple[int, ...]
    items: tuple[str, ...]
    conditions: frozenset[str]


@dataclass(frozen=True)
class View:
    """What one agent sees, decoded: the part of the observation the bot plays from."""

    me: int
    prompt: str | None
    card: int  # the card whose box is being executed, -1 if none
    half: int  # 0 top, 1 bottom, -1 none
    ability: str
    value: int  # move points, attack/heal value or pending damage
    figures: tuple[Figure, ...]
    mine: Character
    elements: tuple[int, ...]
    negative: frozenset[int] = frozenset()  # HV-TER-5: unsprung traps and hazardous hexes

    def monsters(self) -> list[Figure]:
        return [f for f in self.figures if f.side == "monster"]

    def at(self, cell: int) -> Figure | None:
        return next((f for f in self.figures if f.cell == cell), None)

    @property
    def my_figure(self) -> Figure | None:
        return next((f for f in self.figures if f.side == "character" and f.mine), None)


class ObservationReader:
    """Turns one scenario's observation into a :class:`View`, reading its blocks by name."""

    def __init__(self, scn: Scenario) -> None:
        self.scn = scn
        self.layout = layout_for(scn)
        sides = ["character"] * len(scn.characters) + ["summon"] * len(scn.summons)
        sides += ["monster"] * len(scn.monster_types)
        # (kind id, side) of each entry of a cell's figure one-hot
        self.kinds = tuple(zip(self.layout["board"]["figure"].labels, sides, strict=True))
        terrain = self.layout["board"]["terrain"].labels
        self.negative = [terrain.index(k) for k in ("trap", "hazardous") if k in terrain]

    def read(self, observation: np.ndarray) -> View:
        view = self.layout.view(np.asarray(observation, dtype=np.float32).reshape(-1))
        prompt = view["prompt"]
        return View(
            me=int(view["agent"].argmax()),
            prompt=prompt.label("kind"),
            card=prompt.index("card"),
            half=prompt.index("half"),
            ability=prompt.label("ability") or "",
            value=prompt.amount("value"),
            figures=self._figures(view["board"]),
            mine=_character(view["me"]),
            elements=tuple(int(states.argmax()) for states in view["elements"]),
            negative=self._negative(view["board"]),
        )

    def _negative(self, board: Records) -> frozenset[int]:
        """HV-TER-5: the cells the board shows as an unsprung trap or hazardous terrain."""
        if not self.negative:
            return frozenset()
        marked = board.column("terrain")[:, self.negative] > 0.5
        return frozenset(int(c) for c in np.flatnonzero(marked.any(axis=1)))

    def _figures(self, board: Records) -> tuple[Figure, ...]:
        """The figure standing on each cell, cell by cell (16.5 public board)."""
        standing = board.column("figure") > 0.5
        figures = []
        for cell in np.flatnonzero(standing.any(axis=1)):
            kind, side = self.kinds[int(standing[cell].argmax())]
            row = board[cell]
            figures.append(
                Figure(
                    cell=int(cell),
                    kind=kind,
                    side=side,
                    mine=row.flag("mine"),
                    elite=row.flag("elite"),
                    hp=row.amount("hp"),
                    max_hp=row.amount("max_hp"),
                    shield=row.amount("shield"),
                    conditions=frozenset(row.members("conditions")),
                )
            )
        return tuple(figures)


def _character(block: ObservationView) -> Character:
    """A character block; an item slot the character lacks reads as ``""``."""
    states = block.layout["items"].labels
    items = tuple(states[int(s.argmax())] if s.max() > 0.5 else "" for s in block["items"])
    lead, second = block.indices("lead"), block.indices("second")
    return Character(
        hp=block.amount("hp"),
        max_hp=block.amount("max_hp"),
        on_map=block.flag("on_map"),
        hand=block.indices("hand"),
        lead=lead[0] if lead else None,
        second=second[0] if second else None,
        played=block.indices("played"),
        discard=block.indices("discard"),
        lost=block.indices("lost"),
        items=items,
        conditions=frozenset(block.members("conditions")),
    )


# --- Geometry -----------------------------------------------------------------------------------


class Terrain:
    """One map's fixed geometry: blocked cells, range distances and line of sight (HV-MAP-*,
    HV-TW-2..4), read from the rules' tables of the scenario (:func:`.rules.figures.board_for`,
    built once per scenario from its public map)."""

    def __init__(self, scn: Scenario) -> None:
        board = board_for(scn)
        self.blocked = tuple(not floor for floor in board.floor)  # walls and obstacles
        self.range = board.range
        self.sight = board.sight
        self.next_to = tuple(
            tuple(n for n in board.neighbours[c] if not self.blocked[n])
            for c in range(len(board.floor))
        )
        self.width = board.grid.width  # HV-MAP-1: for hex distances

    def in_reach(self, a: int, b: int, reach: int) -> bool:
        """``b`` can be attacked from ``a`` with range ``reach`` (melee: 1): HV-ABL-2."""
        distance = self.range(a, b)
        return distance is not None and distance <= reach and self.sight(a, b)

    def steps_to(self, goals: Iterable[int], passable: Sequence[bool]) -> list[int]:
        """Fewest steps from every cell to the nearest of ``goals`` through passable cells."""
        dist = [FAR] * len(self.blocked)
        queue = deque()
        for goal in goals:
            if dist[goal] == FAR:
                dist[goal] = 0
                queue.append(goal)
        while queue:
            cell = queue.popleft()
            for n in self.next_to[cell]:
                if passable[n] and dist[n] == FAR:
                    dist[n] = dist[cell] + 1
                    queue.append(n)
        return dist


# --- The bot ------------------------------------------------------------------------------------

LOST_COST = 2.0  # a box that loses its card: one card fewer for the rest of the scenario
PERSISTENT_COST = 1.0  # the summon card is lost when its summon goes
NEAR = 3  # steps to an attack hex under which monsters are "near" (they move 2 themselves)
CONDITION_WORTH = {"stun": 2.0, "immobilize": 0.5, "muddle": 0.5, "wound": 1.0, "poison": 0.5}
NEGATE_FROM = 99  # damage from which a hand card is traded for it even when not lethal


@dataclass(frozen=True)
class Situation:
    """What a decision is scored against: how far the fight is and who is hurt."""

    dists: dict[int, int]  # attack range -> steps from my hex to a hex it reaches a monster from
    reach: int  # my class's longest attack range
    hurt: int  # HP I miss
    ally_hurt: int  # HP the most hurt ally (not me) misses
    monsters: int  # monsters on the map
    threat: int  # monsters that could attack me this round (roughly: move + range)
    have_summon: bool
    elements: tuple[int, ...]

    def dist(self, reach: int = 0) -> int:
        """Steps to attack with range ``reach`` (0: my longest; melee is 1)."""
        return self.dists[reach or self.reach]

    @property
    def near(self) -> bool:
        return self.dist() <= NEAR


class HavenScriptedBot:
    """Plays either haven character from (observation, action_mask) by the rules in the module
    docstring. ``scenario`` is a bundled scenario name or a ``.toml`` path."""

    def __init__(self, scenario: str = "raider_camp", seed: int | None = None) -> None:
        self.scn = load_scenario(scenario)
        self.reader = ObservationReader(self.scn)
        self.terrain = Terrain(self.scn)
        self.space = action_space(self.scn.map.grid)
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self.reach = [_attack_ranges(cls)[-1] for cls in self.scn.characters]
        self.ranges = [_attack_ranges(cls) for cls in self.scn.characters]
        self.keep = [[_keep_worth(card) for card in cls.cards] for cls in self.scn.characters]
        self.fallbacks = 0  # decisions no rule answered (played at random); tests expect none

    def reset(self) -> None:
        """Nothing to forget: every decision is made from the observation alone."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """The action to play; always one the mask allows."""
        legal = [int(a) for a in np.flatnonzero(np.asarray(action_mask).reshape(-1))]
        if not legal:
            raise ValueError("the action mask has no legal action: this bot is not to move")
        view = self.reader.read(observation)
        decide = getattr(self, f"_on_{(view.prompt or '').lower()}", None)
        action = decide(view, legal) if decide is not None else None
        if action is None or action not in legal:
            self.fallbacks += 1
            action = int(self.rng.choice(legal))
        return action

    # --- reading the situation ------------------------------------------------------------------

    def _cls(self, view: View) -> CharacterClass:
        return self.scn.characters[view.me]

    def _situation(self, view: View) -> Situation:
        me = view.my_figure
        dists = {
            reach: (self._distances(view, reach)[me.cell] if me else FAR)
            for reach in self.ranges[view.me]
        }
        allies = [f for f in view.figures if f.side != "monster" and f is not me]
        return Situation(
            dists=dists,
            reach=self.reach[view.me],
            hurt=view.mine.max_hp - view.mine.hp,
            ally_hurt=max((f.max_hp - f.hp for f in allies), default=0),
            monsters=len(view.monsters()),
            threat=self._threat(view, me.cell) if me else 0,
            have_summon=any(f.side == "summon" and f.mine for f in view.figures),
            elements=view.elements,
        )

    def _attack_hexes(self, view: View, reach: int) -> dict[int, float]:
        """Hexes from which I could attack a monster with range ``reach`` -> preference (lower is
        better): next to the weakest monster for melee, out of melee for ranged attacks."""
        me = view.my_figure
        monsters = view.monsters()
        occupied = {f.cell for f in view.figures if f is not me}
        hexes: dict[int, float] = {}
        for cell in range(self.space.n_cells):
            if self.terrain.blocked[cell] or cell in occupied:
                continue
            targets = [m for m in monsters if self.terrain.in_reach(cell, m.cell, reach)]
            if not targets:
                continue
            weakest = 0.1 * min(m.hp for m in targets)
            if reach > 1:  # ranged: stay out of melee (and of disadvantage, HV-ATK-2)
                adjacent = sum(self.terrain.in_reach(cell, m.cell, 1) for m in monsters)
                hexes[cell] = 3.0 * adjacent + weakest
            else:
                hexes[cell] = weakest
        return hexes

    def _distances(self, view: View, reach: int) -> list[int]:
        """Steps from every hex to the nearest attack hex for ``reach``, around obstacles and
        monsters (allies can be walked through, HV-MAP-4)."""
        monsters = {m.cell for m in view.monsters()}
        passable = [not b and c not in monsters for c, b in enumerate(self.terrain.blocked)]
        return self.terrain.steps_to(self._attack_hexes(view, reach), passable)

    # --- scoring boxes and cards ----------------------------------------------------------------

    def _box_worth(self, box: Box, s: Situation, moves: int) -> float:
        """The printed box's worth now; ``moves`` is the move available before its attacks."""
        total = 0.0
        moved = 0
        for ab in box.abilities:
            if ab.kind == ATTACK:
                value = ab.value + 0.5 * ab.pierce
                if ab.consume is not None and s.elements[ELEMENTS.index(ab.consume.element)] > 0:
                    value += ab.consume.bonus
                value += sum(CONDITION_WORTH.get(c, 0.0) for c in ab.conditions)
                value *= min(ab.targets, max(s.monsters, 1))
                reachable = s.dist(ab.range or 1) <= moves + moved
                total += value * (1.0 if reachable else 0.25)
            elif ab.kind == MOVE:
                moved += ab.value
                total += _move_worth(ab.value, s.dist())
            elif ab.kind == HEAL:
                total += min(ab.value, max(s.hurt, s.ally_hurt if ab.range else 0))
            elif ab.kind == SHIELD:  # every attack on me this round is reduced
                total += ab.value * (0.6 * s.threat + 0.1)
            elif ab.kind == RETALIATE:
                total += ab.value * 0.4 * s.threat
            elif ab.kind == SUMMON:
                total += 1.0 if s.have_summon else 4.0
            elif ab.kind == SUFFER_DAMAGE:
                total -= ab.value
            elif ab.kind == CONDITION:
                total += 1.0 if s.near else 0.2
            else:  # loot, infuse
                total += 0.2
        if box.fate == LOST:
            total -= LOST_COST
        elif box.fate == PERSISTENT:
            total -= PERSISTENT_COST
        return total

    def _half(
        self, cls: CharacterClass, card: int, half: int, s: Situation, moves: int = 0
    ) -> tuple[float, int]:
        """(worth, mode) of ``half`` (0 top, 1 bottom) of ``card``: printed (mode 0) or the
        default Attack 2 / Move 2 (mode 1), whichever is worth more now."""
        box = cls.cards[card].bottom if half else cls.cards[card].top
        printed = self._box_worth(box, s, moves)
        # HV-BOX-5: the default top is a melee Attack 2, the default bottom a Move 2.
        # A ranged character only strikes in melee at a monster already next to it.
        melee = s.dist(1) == 0 if s.reach > 1 else s.dist(1) <= moves
        strike = 2.0 * (1.0 if melee else 0.25)
        default = _move_worth(2, s.dist()) if half else strike
        return (printed, 0) if printed >= default else (default, 1)

    def _pair(
        self, cls: CharacterClass, top: int, bottom: int, s: Situation
    ) -> tuple[float, int, int]:
        """(worth, top mode, bottom mode) of using ``top``'s top box and ``bottom``'s bottom."""
        bottom_worth, bottom_mode = self._half(cls, bottom, 1, s)
        moves = _box_moves(cls.cards[bottom].bottom) if bottom_mode == 0 else 2
        top_worth, top_mode = self._half(cls, top, 0, s, moves)
        return top_worth + bottom_worth, top_mode, bottom_mode

    def _pair_worth(self, cls: CharacterClass, a: int, b: int, s: Situation) -> float:
        """The better way round of playing cards ``a`` and ``b``."""
        return max(self._pair(cls, a, b, s)[0], self._pair(cls, b, a, s)[0])

    def _least_useful(self, view: View, cards: Iterable[int]) -> int | None:
        """The card whose loss hurts least (:func:`_keep_worth`)."""
        keep = self.keep[view.me]
        cards = list(cards)
        return min(cards, key=lambda c: (keep[c], c)) if cards else None

    # --- prompts (16.2), one method each --------------------------------------------------------

    def _on_select_lead(self, view: View, legal: list[int]) -> int | None:
        hand = _cards(self.space, legal)
        if len(hand) < 2:
            return self.space.LONG_REST
        cls, s = self._cls(view), self._situation(view)
        pairs = [(x, y) for i, x in enumerate(hand) for y in hand[i + 1 :]]
        best = max(pairs, key=lambda pair: self._pair_worth(cls, *pair, s))
        initiative = {c: cls.cards[c].initiative for c in best}
        # Near: strike before the monsters do; far: let them come to us first.
        lead = min(best, key=initiative.get) if s.near else max(best, key=initiative.get)
        return self.space.card_action(lead)

    def _on_select_second(self, view: View, legal: list[int]) -> int | None:
        hand, lead = _cards(self.space, legal), view.mine.lead
        if lead is None or not hand:
            return None
        cls, s = self._cls(view), self._situation(view)
        return self.space.card_action(max(hand, key=lambda c: self._pair_worth(cls, lead, c, s)))

    def _on_window_0(self, view: View, legal: list[int]) -> int | None:
        mine = view.mine
        if mine.lead is None or mine.second is None:
            return None
        cls, s = self._cls(view), self._situation(view)
        options = []
        for top_slot in (A.LEAD, A.OTHER):
            top, bottom = (mine.lead, mine.second)[top_slot], (mine.second, mine.lead)[top_slot]
            worth, top_mode, bottom_mode = self._pair(cls, top, bottom, s)
            options.append((worth, top_slot, top_mode, bottom_mode))
        _, top_slot, top_mode, bottom_mode = max(options)
        top_box = cls.cards[(mine.lead, mine.second)[top_slot]].top
        reach = _box_reach(top_box) if top_mode == 0 else 1
        moves_first = top_mode == 0 and top_box.abilities[0].kind == MOVE
        if reach and s.dist(reach) > 0 and not moves_first:
            first = self.space.box_action(
                1 - top_slot, A.BOTTOM, bottom_mode
            )  # close in, then strike
            item = self._item(view, legal, s, moving=True)
        else:
            first = self.space.box_action(top_slot, A.TOP, top_mode)
            strong = top_mode == 0 and any(
                ab.kind == ATTACK and ab.value >= 3 for ab in top_box.abilities
            )
            item = self._item(view, legal, s, attacking=strong and reach and s.dist(reach) == 0)
        return item if item is not None else first

    def _on_window_1(self, view: View, legal: list[int]) -> int | None:
        boxes = [
            self.space.decode(a)[1]
            for a in legal
            if self.space.BOX_BASE <= a < self.space.LONG_REST
        ]
        if not boxes:
            return None
        slot, half, _ = boxes[0]
        card = view.mine.lead if slot == A.LEAD else view.mine.second
        if card is None:
            return None
        cls, s = self._cls(view), self._situation(view)
        _, mode = self._half(cls, card, half, s)
        item = self._item(view, legal, s, moving=half == A.BOTTOM)
        return item if item is not None else self.space.box_action(slot, half, mode)

    def _on_window_2(self, view: View, legal: list[int]) -> int | None:
        item = self._item(view, legal, self._situation(view))
        return item if item is not None else self.space.NO

    def _item(
        self,
        view: View,
        legal: list[int],
        s: Situation,
        moving: bool = False,
        attacking: bool = False,
    ) -> int | None:
        """An item worth using now, if any (HV-ITEM-*): heal when badly hurt, boots when the
        next box moves and the fight is out of reach, the lens before a strong attack, an element
        flask when a card in hand can consume it."""
        cls = self._cls(view)
        for k, item in enumerate(cls.items):
            action = self.space.item_action(k)
            if action not in legal or view.mine.items[k] != READY:
                continue
            if item.effect == "heal_self":
                use = s.hurt > 0 and (s.hurt >= item.value or 2 * view.mine.hp <= view.mine.max_hp)
            elif item.effect == "next_move_bonus":
                use = moving and s.dist() > 2
            elif item.effect == "next_attack_advantage":
                use = attacking
            elif item.effect == "infuse" and view.prompt == "WINDOW_2":
                consumers = [
                    c
                    for c in view.mine.hand
                    for box in (cls.cards[c].top, cls.cards[c].bottom)
                    for ab in box.abilities
                    if ab.consume is not None and ab.consume.element == item.element
                ]
                use = bool(consumers) and s.near
            else:
                use = False
            if use:
                return action
        return None

    def _pending_reach(self, view: View) -> int:
        """The range of the attack still to come this turn (0: none): the rest of the box being
        executed, else the top box of the played card not used yet."""
        cls = self._cls(view)
        if view.card >= 0 and view.half >= 0:
            card = cls.cards[view.card]
            box = card.bottom if view.half else card.top
            kinds = [ab.kind for ab in box.abilities]
            if MOVE in kinds and ATTACK in kinds[kinds.index(MOVE) :]:
                return _box_reach(box)
            if view.half == A.BOTTOM:
                others = [c for c in view.mine.played if c != view.card]
                if others:
                    return _box_reach(cls.cards[others[0]].top) or 1
        return 0

    def _on_move_dest(self, view: View, legal: list[int]) -> int | None:
        """Engage when the attack still to come this turn can reach a monster from a legal hex;
        otherwise hold: let the monsters come (they always close in, HV-AI-5)."""
        me = view.my_figure
        if me is None:
            return None
        options = {a: a for a in legal if self.space.is_hex(a)}
        if self.space.NO in legal:
            options[self.space.NO] = me.cell
        pending = self._pending_reach(view)
        if pending and (pending > 1 or self.reach[view.me] == 1):  # a caster does not close in
            dist = self._distances(view, pending)
            prefer = self._attack_hexes(view, pending)
            engage = [a for a, cell in options.items() if dist[cell] == 0]
            if engage:  # HV-TER-5: not onto a trap or hazard when another hex will do
                return min(
                    engage,
                    key=lambda a: (
                        options[a] in view.negative,
                        prefer[options[a]],
                        a != self.space.NO,
                    ),
                )
        return self._hold(view, options)

    def _hold(self, view: View, options: dict[int, int]) -> int:
        """The option (action -> hex) to wait on: the Bulwark next to its partner, the fewest
        monsters able to strike next round breaking ties; the Conjurer the other way round."""
        partner = next((f.cell for f in view.figures if f.side == "character" and not f.mine), None)
        ranged = self.reach[view.me] > 1

        def score(action: int) -> tuple[bool, int, int, int, bool]:
            cell = options[action]
            apart = (
                max(0, hex_distance(cell, partner, self.terrain.width) - 2)
                if partner is not None
                else 0
            )
            threat = self._threat(view, cell)
            bad = (
                cell in view.negative and action != self.space.NO
            )  # HV-TER-5: never wait on a trap
            if ranged:
                return (bad, threat, apart, -self._nearest(view, cell), action != self.space.NO)
            return (bad, apart, threat, self._nearest(view, cell), action != self.space.NO)

        return min(options, key=score)

    def _threat(self, view: View, cell: int) -> int:
        """How many monsters could attack ``cell`` next round (their move + range, roughly)."""
        count = 0
        for m in view.monsters():
            stats = self.scn.monster_type(m.kind).stats("elite" if m.elite else "normal")
            count += hex_distance(cell, m.cell, self.terrain.width) <= stats.move + max(
                stats.range, 1
            )
        return count

    def _nearest(self, view: View, cell: int) -> int:
        return min(
            (hex_distance(cell, m.cell, self.terrain.width) for m in view.monsters()), default=0
        )

    def _on_attack_target(self, view: View, legal: list[int]) -> int | None:
        targets = [f for f in (view.at(a) for a in legal if self.space.is_hex(a)) if f is not None]
        if not targets:
            return None

        def score(f: Figure) -> tuple[int, int, int]:
            kills = f.hp <= max(view.value - f.shield, 0)
            return (0 if kills else 1, f.hp, 0 if f.elite else 1)

        return min(targets, key=score).cell

    def _on_area_target(self, view: View, legal: list[int]) -> int | None:
        """HV-AOE-6: never stop while another enemy can join the area (NO only when nothing else
        is legal); among those, the one :meth:`_on_attack_target` would pick."""
        return self._on_attack_target(view, legal)

    def _on_heal_target(self, view: View, legal: list[int]) -> int | None:
        options = [f for f in (view.at(a) for a in legal if self.space.is_hex(a)) if f is not None]
        if not options:
            return None
        return max(
            options, key=lambda f: f.max_hp - f.hp + 2 * len(f.conditions & {"wound", "poison"})
        ).cell

    def _on_summon_hex(self, view: View, legal: list[int]) -> int | None:
        monsters = view.monsters()
        hexes = [a for a in legal if self.space.is_hex(a)]
        if not hexes or not monsters:
            return None
        return min(
            hexes, key=lambda c: min(hex_distance(c, m.cell, self.terrain.width) for m in monsters)
        )

    def _on_consume(self, view: View, legal: list[int]) -> int | None:
        return self.space.YES

    def _on_damage_response(self, view: View, legal: list[int]) -> int | None:
        cards = _cards(self.space, legal)
        lethal = view.value >= view.mine.hp
        if not lethal and (view.value < NEGATE_FROM or len(cards) < 4):
            return self.space.NO  # suffer damage it survives
        card = self._least_useful(view, cards)  # one card lost rather than two discards
        if card is not None:
            return self.space.card_action(card)
        return (
            self.space.LOSE_TWO_DISCARDS if self.space.LOSE_TWO_DISCARDS in legal else self.space.NO
        )

    def _on_pick_discard(self, view: View, legal: list[int]) -> int | None:
        card = self._least_useful(view, _cards(self.space, legal))
        return None if card is None else self.space.card_action(card)

    _on_long_rest_lose = _on_pick_discard

    def _on_short_rest(self, view: View, legal: list[int]) -> int | None:
        return self.space.YES if len(view.mine.hand) < 2 else self.space.NO

    def _on_short_rest_reroll(self, view: View, legal: list[int]) -> int | None:
        return self.space.NO


def _cards(space: ActionSpace, legal: Iterable[int]) -> list[int]:
    """The card indices of the legal ``CARD(k)`` actions."""
    return [a - space.CARD_BASE for a in legal if space.CARD_BASE <= a < space.BOX_BASE]


def _move_worth(value: int, dist: int) -> float:
    """A Move's worth: each step that brings the fight closer, a little for the rest."""
    useful = min(value, dist)
    return useful + (0.1 if dist else 0.05) * (value - useful)


def _box_moves(box: Box) -> int:
    return sum(ab.value for ab in box.abilities if ab.kind == MOVE)


def _box_reach(box: Box) -> int:
    """The range of the box's first attack (melee: 1), 0 if it has none."""
    return next(((ab.range or 1) for ab in box.abilities if ab.kind == ATTACK), 0)


def _attack_ranges(cls: CharacterClass) -> list[int]:
    """The attack ranges on the class's cards, with melee (1) for the default Attack 2, sorted."""
    ranges = {1}
    for card in cls.cards:
        for box in (card.top, card.bottom):
            ranges.update((ab.range or 1) for ab in box.abilities if ab.kind == ATTACK)
    return sorted(ranges)


# Worth of a printed ability outside any situation, per point of value (for choosing losses).
_KEEP = {ATTACK: 1.2, MOVE: 0.6, HEAL: 0.8, SHIELD: 0.7, RETALIATE: 0.5}


def _keep_worth(card: AbilityCard) -> float:
    """How much a card is worth keeping: each half's printed worth (a lost-mark half counts a
    little over half, being usable once) or its default Attack 2 / Move 2, whichever is more."""
    total = 0.0
    for box, default in ((card.top, 2 * _KEEP[ATTACK]), (card.bottom, 2 * _KEEP[MOVE])):
        worth = 0.0
        for ab in box.abilities:
            if ab.kind == ATTACK:
                conditions = sum(CONDITION_WORTH.get(c, 0.0) for c in ab.conditions)
                bonus = 0.5 * ab.consume.bonus if ab.consume else 0.0
                worth += _KEEP[ATTACK] * (ab.value + 0.5 * ab.pierce + bonus) * ab.targets
                worth += conditions
            elif ab.kind in _KEEP:
                worth += _KEEP[ab.kind] * ab.value
            elif ab.kind == SUMMON:
                worth += 4.0
            elif ab.kind == SUFFER_DAMAGE:
                worth -= ab.value
            elif ab.kind == CONDITION:
                worth += 0.8
        if box.fate in (LOST, PERSISTENT):
            worth *= 0.6
        total += max(worth, default)
    return total
