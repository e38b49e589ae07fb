"""What one haven agent may see, as a flat float32 vector in [0, 1] (16.5, HV-SEL-3).

The vector is egocentric: who I am, the public board (one row of features per cell), the public
round state, then *my* character block, then the *other* character's block, then the pending
prompt. The other character's hand contents and its unrevealed picks never enter it (HV-SEL-3):
its block is built from public facts only (hand size, played cards once revealed, piles, items,
modifier deck composition), and the prompt's context is withheld while it is the other agent's
secret selection. Counts and HP are scaled by fixed maxima and clipped, so every value lies in
[0, 1]. :func:`build_layout` names every block (``layout_for`` caches it per scenario); read an
observation by name with ``layout_for(scn).view(obs)``.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

import numpy as np

from ...core.observation_views import Field, Layout, group
from ...core.per_scenario import PerScenario
from .actions import CARD_SLOTS
from .rules.hexgrid import SIDES, neighbour_side
from .rules.prompts import AREA_PROMPT_KINDS, PROMPT_KINDS, SELECT_LEAD, SELECT_SECOND, Prompt
from .rules.state import (
    ELEMENT_STATE_NAMES,
    ITEM_STATES,
    OUTCOMES,
    PHASES,
    SELECT,
    CharacterState,
    HavenState,
    ModifierDeck,
)
from .scenario.model import (
    ABILITY_KINDS,
    CELL_KINDS,
    CONDITIONS,
    ELEMENTS,
    ELITE,
    FLOOR,
    TRAP,
    Scenario,
)

if TYPE_CHECKING:
    from .rules.engine import HavenGame

# Scales (the value is divided by the scale and clipped to 1).
HP_SCALE_MIN = 10.0
COIN_SCALE = 4.0
NUMBER_SCALE = 10.0  # standee / summon numbers
BONUS_SCALE = 5.0  # shield and retaliate totals
GOLD_SCALE = 30.0
INITIATIVE_SCALE = 99.0  # HV-INIT-1: 99 is the top of the scale
VALUE_SCALE = 10.0  # prompt value: move points, attack or heal value, pending damage
MAX_SLOTS = 8  # turn-sequence slots shown (2 characters + 2 monster types + summons)
MAX_ITEMS = 2  # ITEM(0), ITEM(1) (16.3)
PILE_CACHE_SIZE = 4096  # modifier pile compositions an observer remembers (Observer.pile_counts)

# Per-character scalar features (public for both characters, HV-STATE-1).
CHAR_SCALARS = (
    "on_map",
    "exhausted",
    "hp",
    "max_hp",
    "gold",
    "hand_size",
    "discard_count",
    "lost_count",
    "active_count",
    "long_rest",
    "acted",
    "sits_out",
    "initiative",
    "revealed",
    "shield",
    "retaliate",
)
# Card bitmask blocks of a character, in order (each CARD_SLOTS wide).
CHAR_CARD_BLOCKS = ("hand", "lead", "second", "played", "discard", "lost", "active")
SLOT_ENTITIES = ("me", "other", "my_summon", "other_summon")  # then one per monster type
_N_ELEMENT_STATES = len(ELEMENT_STATE_NAMES)


def _hp_scale(scn: Scenario) -> float:
    """The HP scale: the most HP any figure of the scenario can have, at least HP_SCALE_MIN."""
    hps = [c.max_hp for c in scn.characters] + [s.hp for s in scn.summons]
    hps += [t.stats(rank).hp for t in scn.monster_types for rank in ("normal", ELITE)]
    return float(max(max(hps), HP_SCALE_MIN))


def _modifier_names(scn: Scenario) -> tuple[str, ...]:
    """Distinct attack modifier card names of the scenario's decks, in first-seen order."""
    names: dict[str, None] = {}
    for card in scn.character_modifier_deck + scn.monster_modifier_deck:
        names.setdefault(card.name, None)
    return tuple(names)


def _modifier_deck(scn: Scenario, name: str, doc: str) -> Field:
    """A modifier deck's composition: draw pile and discard as counts per card name."""
    names = _modifier_names(scn)
    total = float(max(len(scn.monster_modifier_deck), 1))
    return group(
        name,
        [
            Field("draw", (len(names),), "cards of each name in the draw pile", names, total),
            Field("discard", (len(names),), "cards of each name in the discard", names, total),
            Field("shuffle_due", doc="a shuffle card was drawn"),
        ],
        doc=doc,
    )


def _cell_fields(scn: Scenario, hp: float) -> list[Field]:
    """One board cell's features (16.5 public board)."""
    kinds = [c.id for c in scn.characters] + [s.id for s in scn.summons]
    kinds += [t.id for t in scn.monster_types]
    terrain = CELL_KINDS + scn.map.terrain_kinds  # HV-TER-8: only the kinds this map uses
    # HV-TW-5: a thin wall on each side (HV-MAP-2's neighbour order), only where the map has any
    sides = (
        [Field("thin_walls", (6,), "a thin wall on side k", SIDES)] if scn.map.thin_walls else []
    )
    return [
        Field("terrain", (len(terrain),), "terrain", terrain),
        *sides,
        Field("coins", doc="coins lying there", scale=COIN_SCALE),
        Field("treasure", doc="a treasure lies there"),
        Field("figure", (len(kinds),), "the kind of figure standing there", tuple(kinds)),
        Field("mine", doc="my character or my summon"),
        Field("elite", doc="an elite monster"),
        Field("number", doc="standee or summon number", scale=NUMBER_SCALE),
        Field("hp", scale=hp),
        Field("max_hp", scale=hp),
        Field("shield", doc="shield total", scale=BONUS_SCALE),
        Field("retaliate", doc="retaliate total", scale=BONUS_SCALE),
        Field("conditions", (len(CONDITIONS),), "conditions", CONDITIONS),
        Field("acted", doc="the figure took its turn this round"),
    ]


def _character_fields(scn: Scenario, hp: float) -> list[Field]:
    """A character's record: scalars, conditions, card bitmasks, items, modifier deck."""
    scales = {
        "hp": hp,
        "max_hp": hp,
        "gold": GOLD_SCALE,
        "hand_size": CARD_SLOTS,
        "discard_count": CARD_SLOTS,
        "lost_count": CARD_SLOTS,
        "active_count": CARD_SLOTS,
        "initiative": INITIATIVE_SCALE,
        "revealed": 2.0,
        "shield": BONUS_SCALE,
        "retaliate": BONUS_SCALE,
    }
    fields = [Field(name, scale=scales.get(name)) for name in CHAR_SCALARS]
    fields.append(Field("conditions", (len(CONDITIONS),), "conditions", CONDITIONS))
    fields += [Field(name, (CARD_SLOTS,), f"cards: {name}") for name in CHAR_CARD_BLOCKS]
    fields.append(Field("items", (MAX_ITEMS, len(ITEM_STATES)), "ITEM(0), ITEM(1)", ITEM_STATES))
    return [*fields, _modifier_deck(scn, "modifiers", "the character's attack modifier deck")]


def build_layout(scn: Scenario) -> Layout:
    """The named blocks of ``scn``'s observation, in the egocentric order of 16.5."""
    hp = _hp_scale(scn)
    types = tuple(t.id for t in scn.monster_types)
    deck_size = max(len(t.deck) for t in scn.monster_types)
    kinds = PROMPT_KINDS + (AREA_PROMPT_KINDS if scn.has_area else ())  # HV-AOE-6
    return Layout(
        [
            Field(
                "agent",
                (len(scn.characters),),
                "which character I am",
                tuple(c.id for c in scn.characters),
            ),
            group("board", _cell_fields(scn, hp), scn.map.grid.cells, "cells x features"),
            group(
                "round",
                [
                    Field("round", doc="round number", scale=scn.rules.round_cap),
                    Field("phase", (len(PHASES),), "phase", PHASES),
                    Field("outcome", (len(OUTCOMES),), "outcome", OUTCOMES),
                    Field("win_met", doc="the win condition is met"),
                ],
                doc="round, phase, outcome, win met",
            ),
            Field(
                "elements",
                (len(ELEMENTS), len(ELEMENT_STATE_NAMES)),
                "state one-hot per element",
                ELEMENT_STATE_NAMES,
            ),
            Field("pending_infusions", (len(ELEMENTS),), "elements infused this turn", ELEMENTS),
            group(
                "turn_sequence",
                [
                    Field(
                        "entity",
                        (len(SLOT_ENTITIES) + len(types),),
                        "whose slot",
                        SLOT_ENTITIES + types,
                    ),
                    Field("initiative", scale=INITIATIVE_SCALE),
                    Field("done", doc="the slot's turn is over"),
                ],
                MAX_SLOTS,
                "slots x (entity, initiative, done)",
            ),
            group(
                "monster_decks",
                [
                    Field("current", (deck_size,), "the ability card drawn this round"),
                    Field("discard", (deck_size,), "ability cards discarded"),
                    Field("draw", doc="draw pile size", scale=deck_size),
                ],
                len(types),
                "current, discard, draw size per monster type",
                types,
            ),
            _modifier_deck(scn, "monster_modifiers", "draw, discard, shuffle due"),
            group("me", _character_fields(scn, hp), doc="my character block"),
            group("other", _character_fields(scn, hp), doc="the other's block (public only)"),
            group(
                "prompt",
                [
                    Field("kind", (len(kinds),), "prompt kind", kinds),
                    Field("whose", (2,), "mine or the other's", ("mine", "other")),
                    Field("card", (CARD_SLOTS,), "the card whose box is executed"),
                    Field("half", (2,), "the box", ("top", "bottom")),
                    Field("ability", (len(ABILITY_KINDS),), "the ability", ABILITY_KINDS),
                    Field(
                        "value",
                        doc="move points, attack or heal value, pending damage",
                        scale=VALUE_SCALE,
                    ),
                    Field("element", (len(ELEMENTS),), "the element offered", ELEMENTS),
                    Field("targets", (scn.map.grid.cells,), "targets already chosen"),
                    Field("rest_card", (CARD_SLOTS,), "the short-rest card, for its owner"),
                ],
                doc="kind, whose, card, half, ability, value, element, targets, rest card",
            ),
        ]
    )


layout_for = PerScenario(build_layout)
"""layout_for(scenario): the one layout of a scenario object, shared by its observer and bots."""


def observation_size(scn: Scenario) -> int:
    """The length of the observation vector for ``scn``."""
    return layout_for(scn).size


class Observer:
    """Builds the observations of one scenario (16.5), each block where :func:`build_layout` puts
    it; stateless apart from lookup tables and a cache of modifier pile counts."""

    def __deepcopy__(self, memo: dict[int, object]) -> Observer:
        """Itself: it keeps nothing of a game, and every environment of its scenario shares it."""
        return self

    def __init__(self, scn: Scenario) -> None:
        self.scn = scn
        self.layout = layout_for(scn)
        self.size = self.layout.size
        self.start = {f.name: f.offset for f in self.layout}
        self.round_at = _offsets(self.layout["round"])
        self.sequence_at = _offsets(self.layout["turn_sequence"])
        self.slot_width = self.layout["turn_sequence"].item.size
        self.deck_at = _offsets(self.layout["monster_decks"])
        self.deck_width = self.layout["monster_decks"].item.size
        self.modifiers_at = _offsets(self.layout["monster_modifiers"])
        self.char_at = _offsets(self.layout["me"])
        self.prompt_at = _offsets(self.layout["prompt"])
        cell = self.layout["board"].item
        self.features = cell.entry_names()
        self.n_features = cell.size
        self.feature = {name: i for i, name in enumerate(self.features)}
        self.mod_names = self.layout["monster_modifiers"]["draw"].labels
        self.mod_index = {n: i for i, n in enumerate(self.mod_names)}
        self.deck_size = max(len(t.deck) for t in scn.monster_types)
        self.card_index = [{c.id: i for i, c in enumerate(t.deck)} for t in scn.monster_types]
        self.hp_scale = cell["hp"].scale
        figures = self.feature["figure:" + scn.characters[0].id]  # first figure-kind feature
        self.summon_kind = {
            s.id: figures + len(scn.characters) + i for i, s in enumerate(scn.summons)
        }
        self.type_kind = figures + len(scn.characters) + len(scn.summons)
        self.prompt_index = {k: i for i, k in enumerate(self.layout["prompt"]["kind"].labels)}
        self.ability_index = {k: i for i, k in enumerate(ABILITY_KINDS)}
        self.phase_index = {p: i for i, p in enumerate(PHASES)}
        self.outcome_index = {o: i for i, o in enumerate(OUTCOMES)}
        self.cond_index = {c: i for i, c in enumerate(CONDITIONS)}
        self.n_cells = scn.map.grid.cells
        self.terrain = np.zeros(self.n_cells * self.n_features, dtype=np.float32)
        for c, kind in enumerate(scn.map.cells):
            self.terrain[c * self.n_features + self.feature["terrain:" + kind]] = 1.0
        for kind, cells in scn.map.fixed_terrain:
            for c in cells:  # HV-TER-1, HV-ICE-1: terrain instead of plain floor
                self.terrain[c * self.n_features + self.feature["terrain:" + FLOOR]] = 0.0
                self.terrain[c * self.n_features + self.feature["terrain:" + kind]] = 1.0
        for a, b in scn.map.thin_walls:  # HV-TW-5: both cells show the wall on their side
            for cell, other in ((a, b), (b, a)):
                side = SIDES[neighbour_side(cell, other, scn.map.width)]
                self.terrain[cell * self.n_features + self.feature["thin_walls:" + side]] = 1.0
        # What never changes, written once: per seat, the vector with my agent one-hot and the
        # terrain; each observation starts as a copy of it.
        self.blank = []
        for me in range(len(scn.characters)):
            blank = np.zeros(self.size, dtype=np.float32)
            blank[self.start["agent"] + me] = 1.0
            blank[self.start["board"] : self.start["board"] + self.terrain.size] = self.terrain
            self.blank.append(blank)
        self.character_kind = [self.feature["figure:" + c.id] for c in scn.characters]
        self.cell_condition = {c: self.feature["conditions:" + c] for c in CONDITIONS}
        self.item_index = {s: i for i, s in enumerate(ITEM_STATES)}
        self.monster_bonus = {
            (t, rank): (mt.stats(rank).shield, mt.stats(rank).retaliate)
            for t, mt in enumerate(scn.monster_types)
            for rank in ("normal", ELITE)
        }
        # A modifier pile's counts per card name, by (offset, draw, discard): decks are few and
        # change rarely, so counting each composition once pays (cleared when it grows large).
        self.pile_counts: dict[tuple, tuple[list[int], list[float]]] = {}

    def observe(self, game: HavenGame, me: int) -> np.ndarray:
        """16.5: the observation of character ``me`` (0 bulwark, 1 conjurer) in ``game``.

        Only ``game.state``, ``game.prompt`` and ``game.config`` are read. Most entries are zero:
        (index, value) pairs are collected and written at once.
        """
        state: HavenState = game.state
        scn = self.scn
        v = self.blank[me].copy()  # my agent one-hot and the terrain
        ix: list[int] = []
        vx: list[float] = []
        self._board(state, me, ix, vx)
        i, at = self.start["round"], self.round_at
        ix += (
            i + at["round"],
            i + at["phase"] + self.phase_index[state.phase],
            i + at["outcome"] + self.outcome_index[state.outcome],
            i + at["win_met"],
        )
        vx += (min(state.round / scn.rules.round_cap, 1.0), 1.0, 1.0, float(state.win_met))
        i = self.start["elements"]
        ix += [i + _N_ELEMENT_STATES * e + s for e, s in enumerate(state.elements)]
        vx += [1.0] * len(state.elements)
        i = self.start["pending_infusions"]
        ix += [i + e for e in set(state.pending_infusions)]
        vx += [1.0] * len(set(state.pending_infusions))
        if state.phase != SELECT:  # HV-SEL-3: the sequence exists only after the reveal
            self._sequence(state, me, ix, vx)
        i, at = self.start["monster_decks"], self.deck_at
        for t, deck in enumerate(state.monster_decks):
            j = i + t * self.deck_width
            if deck.current is not None:
                ix.append(j + at["current"] + self.card_index[t][deck.current])
                vx.append(1.0)
            for card in deck.discard:
                ix.append(j + at["discard"] + self.card_index[t][card])
                vx.append(1.0)
            ix.append(j + at["draw"])
            vx.append(min(len(deck.draw) / self.deck_size, 1.0))
        self._modifier_deck(state.monster_amd, self.start["monster_modifiers"], ix, vx)
        hide_piles = bool(getattr(game.config, "hide_other_piles", False))
        for who, c in (("me", me), ("other", 1 - me)):
            ch = state.characters[c]
            lead = _pending_lead(ch, game.prompt) if c == me else None
            self._character(state, ch, c == me, hide_piles, lead, self.start[who], ix, vx)
        self._prompt(game.prompt, me, ix, vx)
        n = len(ix)
        v[np.fromiter(ix, np.intp, n)] = np.fromiter(vx, np.float32, n)
        return v

    def observe_into(self, game: HavenGame, me: int, out: np.ndarray) -> None:
        """:meth:`observe` written into ``out`` (``size`` floats), as the compiled twin's
        ``observe_into`` does (``reborn_env.games.haven.fast.observer``)."""
        out[:] = self.observe(game, me)

    # --- blocks ---------------------------------------------------------------------------------

    def _board(self, state: HavenState, me: int, ix: list[int], vx: list[float]) -> None:
        """16.5 public board: tokens and the figure standing on each cell (the terrain is in the
        blank vector already)."""
        f = self.feature
        nf = self.n_features
        base = self.start["board"]
        coins, treasure = f["coins"], f["treasure"]
        floor, trap = f["terrain:" + FLOOR], f.get("terrain:" + TRAP)
        for cell in state.traps:  # HV-TER-2: an unsprung trap; a sprung one shows as floor
            ix += (base + cell * nf + floor, base + cell * nf + trap)
            vx += (0.0, 1.0)
        for cell, count in state.coins.items():
            ix.append(base + cell * nf + coins)
            vx.append(min(count / COIN_SCALE, 1.0))
        for cell in state.treasures:
            ix.append(base + cell * nf + treasure)
            vx.append(1.0)
        mine, number, acted = f["mine"], f["number"], f["acted"]
        for c, ch in enumerate(state.characters):
            if ch.cell is None or ch.exhausted:
                continue
            row = base + ch.cell * nf
            ix += (row + self.character_kind[c], row + mine)
            vx += (1.0, float(c == me))
            self._figure_row(row, ch.hp, ch.max_hp, ch.shield, ch.retaliate, ch.conditions, ix, vx)
            ix.append(row + acted)
            vx.append(float(ch.acted))
        for s in state.summons:
            row = base + s.cell * nf
            ix += (row + self.summon_kind[s.summon], row + mine, row + number)
            vx += (1.0, float(s.owner == me), min(s.number / NUMBER_SCALE, 1.0))
            self._figure_row(row, s.hp, s.max_hp, 0, 0, s.conditions, ix, vx)
            ix.append(row + acted)
            vx.append(float(s.acted))
        elite = f["elite"]
        for m in state.monsters:
            row = base + m.cell * nf
            ix += (row + self.type_kind + m.type, row + elite, row + number)
            vx += (1.0, float(m.rank == ELITE), min(m.standee / NUMBER_SCALE, 1.0))
            shield, retaliate = self.monster_bonus[m.type, m.rank]
            shield, retaliate = shield + m.shield, retaliate + m.retaliate
            self._figure_row(row, m.hp, m.max_hp, shield, retaliate, m.conditions, ix, vx)
            ix.append(row + acted)
            vx.append(float(m.acted))

    def _figure_row(
        self,
        row: int,
        hp: int,
        max_hp: int,
        shield: int,
        retaliate: int,
        conditions: list[str],
        ix: list[int],
        vx: list[float],
    ) -> None:
        """A figure's HP, bonuses and conditions in its cell's features, which start at ``row``."""
        f = self.feature
        scale = self.hp_scale
        ix += (row + f["hp"], row + f["max_hp"], row + f["shield"], row + f["retaliate"])
        vx += (
            min(max(hp, 0) / scale, 1.0),
            min(max_hp / scale, 1.0),
            min(shield / BONUS_SCALE, 1.0),
            min(retaliate / BONUS_SCALE, 1.0),
        )
        for cond in conditions:
            ix.append(row + self.cell_condition[cond])
            vx.append(1.0)

    def _sequence(self, state: HavenState, me: int, ix: list[int], vx: list[float]) -> None:
        """16.5: the revealed turn sequence, slot by slot: whose slot, initiative, already run."""
        owners = {s.number: s.owner for s in state.summons}
        base, at = self.start["turn_sequence"], self.sequence_at
        for k, slot in enumerate(state.sequence[:MAX_SLOTS]):
            j = base + k * self.slot_width
            if slot.kind == "character":
                entity = 0 if slot.index == me else 1
            elif slot.kind == "summon":
                entity = 2 if owners.get(slot.index, 1 - me) == me else 3
            else:
                entity = len(SLOT_ENTITIES) + slot.index
            ix += (j + at["entity"] + entity, j + at["initiative"], j + at["done"])
            vx += (1.0, min(slot.initiative / INITIATIVE_SCALE, 1.0), float(k < state.slot))

    def _modifier_deck(self, deck: ModifierDeck, i: int, ix: list[int], vx: list[float]) -> None:
        """A modifier deck's draw pile and discard as counts per card name (order hidden)."""
        key = (i, tuple(deck.draw), tuple(deck.discard))
        counted = self.pile_counts.get(key)
        if counted is None:
            if len(self.pile_counts) >= PILE_CACHE_SIZE:
                self.pile_counts.clear()
            counted = self.pile_counts[key] = self._pile_counts(deck, i)
        ix += counted[0]
        vx += counted[1]
        ix.append(i + self.modifiers_at["shuffle_due"])
        vx.append(float(deck.shuffle_due))

    def _pile_counts(self, deck: ModifierDeck, i: int) -> tuple[list[int], list[float]]:
        """The (index, value) pairs of a modifier deck's piles: counts per card name, scaled."""
        total = float(max(len(self.scn.monster_modifier_deck), 1))
        at = self.modifiers_at
        index: list[int] = []
        value: list[float] = []
        for pile_at, pile in ((at["draw"], deck.draw), (at["discard"], deck.discard)):
            for card, count in Counter(pile).items():
                index.append(i + pile_at + self.mod_index[card])
                value.append(min(count / total, 1.0))
        return index, value

    def _character(
        self,
        state: HavenState,
        ch: CharacterState,
        mine: bool,
        hide_piles: bool,
        pending_lead: int | None,
        i: int,
        ix: list[int],
        vx: list[float],
    ) -> None:
        """16.5 own private state (``mine``) or the other character's public state (HV-SEL-3).

        ``pending_lead`` is my leading pick while my ``SELECT_SECOND`` is pending (not yet stored
        in the state). During selection the other's hand size counts its picks back in, so that
        it does not tell whether the other picked cards or declared a long rest (HV-SEL-3).
        """
        # HV-SEL-3: during selection nothing of this round's picks is public; afterwards
        # ``revealed`` says how many (16.8 reveal_second_card_at_turn).
        public_level = 0 if state.phase == SELECT else ch.revealed
        revealed = 2 if mine else public_level
        lead = ch.lead if revealed >= 1 else None
        if lead is None and pending_lead is not None:
            lead = pending_lead
        second = ch.second if revealed >= 2 else None
        public_picks = {c for c in (lead, second) if c is not None}
        long_rest = ch.long_rest and (mine or state.phase != SELECT)
        initiative = ch.initiative if (revealed >= 1 or long_rest) else 0
        on_map = ch.cell is not None and not ch.exhausted
        hand_size = len(ch.hand)
        if not mine and state.phase == SELECT:
            hand_size += len(ch.played)
        scalars = (
            on_map,
            ch.exhausted,
            min(max(ch.hp, 0) / self.hp_scale, 1.0),
            min(ch.max_hp / self.hp_scale, 1.0),
            min(ch.gold / GOLD_SCALE, 1.0),
            min(hand_size / CARD_SLOTS, 1.0),  # the other's hand: its size only (16.5)
            min(len(ch.discard) / CARD_SLOTS, 1.0),
            min(len(ch.lost) / CARD_SLOTS, 1.0),
            min(len(ch.active) / CARD_SLOTS, 1.0),
            long_rest,
            ch.acted,
            ch.sits_out,
            min(initiative / INITIATIVE_SCALE, 1.0),
            min(public_level / 2.0, 1.0),
            min(ch.shield / BONUS_SCALE, 1.0),
            min(ch.retaliate / BONUS_SCALE, 1.0),
        )
        at = self.char_at
        ix += range(i, i + len(scalars))  # the record opens with its one-float fields
        vx += [float(x) for x in scalars]
        ix += [i + at["conditions"] + self.cond_index[c] for c in ch.conditions]
        vx += [1.0] * len(ch.conditions)
        show_piles = mine or not hide_piles
        blocks = (
            ("hand", ch.hand if mine else ()),
            ("lead", () if lead is None else (lead,)),
            ("second", () if second is None else (second,)),
            ("played", ch.played if mine else [c for c in ch.played if c in public_picks]),
            ("discard", ch.discard if show_piles else ()),
            ("lost", ch.lost if show_piles else ()),
            ("active", ch.active if show_piles else ()),
        )
        for name, cards in blocks:
            j = i + at[name]
            shown = [j + c for c in cards if 0 <= c < CARD_SLOTS]
            ix += shown
            vx += [1.0] * len(shown)
        j = i + at["items"]
        for k, item_state in enumerate(ch.items[:MAX_ITEMS]):
            ix.append(j + len(ITEM_STATES) * k + self.item_index[item_state])
            vx.append(1.0)
        self._modifier_deck(ch.amd, i + at["modifiers"], ix, vx)

    def _prompt(self, prompt: Prompt | None, me: int, ix: list[int], vx: list[float]) -> None:
        """16.5 prompt: kind and context; the other's selection prompts show their kind only."""
        if prompt is None:
            return
        i, at = self.start["prompt"], self.prompt_at
        mine = prompt.agent == me
        ix += (
            i + at["kind"] + self.prompt_index[prompt.kind],
            i + at["whose"] + (0 if mine else 1),
        )
        vx += (1.0, 1.0)
        if not mine and prompt.kind in (SELECT_LEAD, SELECT_SECOND):
            return  # HV-SEL-3: nothing about the other's pending choice
        if 0 <= prompt.card < CARD_SLOTS:
            ix.append(i + at["card"] + prompt.card)
            vx.append(1.0)
        if prompt.half in (0, 1):
            ix.append(i + at["half"] + prompt.half)
            vx.append(1.0)
        if prompt.ability in self.ability_index:
            ix.append(i + at["ability"] + self.ability_index[prompt.ability])
            vx.append(1.0)
        ix.append(i + at["value"])
        vx.append(min(max(prompt.value, 0) / VALUE_SCALE, 1.0))
        if 0 <= prompt.element < len(ELEMENTS):
            ix.append(i + at["element"] + prompt.element)
            vx.append(1.0)
        ix += [i + at["targets"] + t for t in prompt.targets if 0 <= t < self.n_cells]
        vx += [1.0] * sum(1 for t in prompt.targets if 0 <= t < self.n_cells)
        if mine and 0 <= prompt.rest_card < CARD_SLOTS:  # 16.5: only for its owner
            ix.append(i + at["rest_card"] + prompt.rest_card)
            vx.append(1.0)


def _offsets(f: Field) -> dict[str, int]:
    """Where each field of a group's record starts, from the start of the record."""
    return {sub.name: sub.offset for sub in f.item}


def _pending_lead(ch: CharacterState, prompt: Prompt | None) -> int | None:
    """My leading pick while my ``SELECT_SECOND`` is pending: the prompt names it (HV-SEL-4)."""
    if prompt is None or prompt.kind != SELECT_SECOND or prompt.agent != ch.index:
        return None
    return prompt.card


observer_for = PerScenario(Observer)
"""observer_for(scenario): one observer per scenario object, shared by every environment."""
