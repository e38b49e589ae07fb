"""What one haven agent may see, as a flat float32 vector in [0, 1] (16.5, HV-SEL-3).

The vector is egocentric: who I am, the public board (one row of features per cell), the public
round state, then *my* character block, then the *other* character's block, then the pending
prompt. The other character's hand contents and its unrevealed picks never enter it (HV-SEL-3):
its block is built from public facts only (hand size, played cards once revealed, piles, items,
modifier deck composition), and the prompt's context is withheld while it is the other agent's
secret selection. Counts and HP are scaled by fixed maxima and clipped, so every value lies in
[0, 1]. :func:`observation_layout` lists the blocks (name, start, size).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

import numpy as np

from ...core.per_scenario import PerScenario
from .actions import CARD_SLOTS, N_CELLS
from .rules.prompts import PROMPT_KINDS, SELECT_LEAD, SELECT_SECOND, Prompt
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
from .scenario.model import ABILITY_KINDS, CELL_KINDS, CONDITIONS, ELEMENTS, ELITE, Scenario

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


def _card_features(names: list[str], prefix: str) -> list[str]:
    return [f"{prefix}:{n}" for n in names]


def cell_features(scn: Scenario) -> tuple[str, ...]:
    """The names of the per-cell board features (16.5 public board), in order."""
    kinds = [c.id for c in scn.characters] + [s.id for s in scn.summons]
    kinds += [t.id for t in scn.monster_types]
    return (
        *[f"terrain:{k}" for k in CELL_KINDS],
        "coins",
        "treasure",
        *[f"figure:{k}" for k in kinds],
        "mine",
        "elite",
        "number",
        "hp",
        "max_hp",
        "shield",
        "retaliate",
        *[f"cond:{c}" for c in CONDITIONS],
        "acted",
    )


def modifier_names(scn: Scenario) -> tuple[str, ...]:
    """Distinct attack modifier card names of the scenario's decks, in first-seen order."""
    names: dict[str, None] = {}
    for card in scn.character_modifier_deck + scn.monster_modifier_deck:
        names.setdefault(card.name, None)
    return tuple(names)


def observation_layout(scn: Scenario) -> list[tuple[str, int, int]]:
    """(block name, start, size) in order; the last start + size is the observation size."""
    n_mod = len(modifier_names(scn))
    n_types = len(scn.monster_types)
    deck_size = max(len(t.deck) for t in scn.monster_types)
    slot_width = len(SLOT_ENTITIES) + n_types + 2
    char_width = len(CHAR_SCALARS) + len(CONDITIONS) + CARD_SLOTS * len(CHAR_CARD_BLOCKS)
    char_width += MAX_ITEMS * len(ITEM_STATES) + 2 * n_mod + 1
    sizes = [
        ("agent: which character I am", len(scn.characters)),
        ("board: cells x features", N_CELLS * len(cell_features(scn))),
        ("round: round, phase, outcome, win met", 1 + len(PHASES) + len(OUTCOMES) + 1),
        ("elements: state one-hot per element", len(ELEMENTS) * len(ELEMENT_STATE_NAMES)),
        ("pending infusions", len(ELEMENTS)),
        ("turn sequence: slots x (entity, initiative, done)", MAX_SLOTS * slot_width),
        ("monster decks: current, discard, draw size", n_types * (2 * deck_size + 1)),
        ("monster modifier deck: draw, discard, shuffle due", 2 * n_mod + 1),
        ("me: character block", char_width),
        ("other: character block (public only)", char_width),
        (
            "prompt: kind, whose, card, half, ability, value, element, targets, rest card",
            len(PROMPT_KINDS) + 2 + CARD_SLOTS + 2 + len(ABILITY_KINDS) + 1 + len(ELEMENTS)
            + N_CELLS + CARD_SLOTS,
        ),
    ]  # fmt: skip
    layout = []
    start = 0
    for name, size in sizes:
        layout.append((name, start, size))
        start += size
    return layout


def observation_size(scn: Scenario) -> int:
    """The length of the observation vector for ``scn``."""
    _, start, size = observation_layout(scn)[-1]
    return start + size


class Observer:
    """Builds the observations of one scenario (16.5); stateless apart from lookup tables."""

    def __init__(self, scn: Scenario) -> None:
        self.scn = scn
        self.layout = observation_layout(scn)
        self.size = observation_size(scn)
        self.start = {name.split(":")[0]: start for name, start, _ in self.layout}
        self.features = cell_features(scn)
        self.n_features = len(self.features)
        self.feature = {name: i for i, name in enumerate(self.features)}
        self.mod_names = modifier_names(scn)
        self.mod_index = {n: i for i, n in enumerate(self.mod_names)}
        self.deck_size = max(len(t.deck) for t in scn.monster_types)
        self.card_index = [{c.id: i for i, c in enumerate(t.deck)} for t in scn.monster_types]
        hps = [c.max_hp for c in scn.characters] + [s.hp for s in scn.summons]
        hps += [t.stats(rank).hp for t in scn.monster_types for rank in ("normal", ELITE)]
        self.hp_scale = float(max(max(hps), HP_SCALE_MIN))
        figures = self.feature["figure:" + scn.characters[0].id]  # first figure-kind feature
        self.summon_kind = {
            s.id: figures + len(scn.characters) + i for i, s in enumerate(scn.summons)
        }
        self.type_kind = figures + len(scn.characters) + len(scn.summons)
        self.slot_width = len(SLOT_ENTITIES) + len(scn.monster_types) + 2
        self.prompt_index = {k: i for i, k in enumerate(PROMPT_KINDS)}
        self.ability_index = {k: i for i, k in enumerate(ABILITY_KINDS)}
        self.phase_index = {p: i for i, p in enumerate(PHASES)}
        self.outcome_index = {o: i for i, o in enumerate(OUTCOMES)}
        self.cond_index = {c: i for i, c in enumerate(CONDITIONS)}
        self.terrain = np.zeros(N_CELLS * self.n_features, dtype=np.float32)
        for cell, kind in enumerate(scn.map.cells):
            self.terrain[cell * self.n_features + CELL_KINDS.index(kind)] = 1.0

    def observe(self, game: HavenGame, me: int) -> np.ndarray:
        """16.5: the observation of character ``me`` (0 bulwark, 1 conjurer) in ``game``.

        Only ``game.state``, ``game.prompt`` and ``game.config`` are read. Most entries are zero:
        (index, value) pairs are collected and written at once.
        """
        state: HavenState = game.state
        scn = self.scn
        v = np.zeros(self.size, dtype=np.float32)
        ix: list[int] = [me]
        vx: list[float] = [1.0]
        self._board(state, me, v)
        i = self.start["round"]
        ix += (
            i,
            i + 1 + self.phase_index[state.phase],
            i + 1 + len(PHASES) + self.outcome_index[state.outcome],
            i + 1 + len(PHASES) + len(OUTCOMES),
        )
        vx += (min(state.round / scn.rules.round_cap, 1.0), 1.0, 1.0, float(state.win_met))
        i = self.start["elements"]
        ix += [i + 3 * e + s for e, s in enumerate(state.elements)]
        vx += [1.0] * len(state.elements)
        i = self.start["pending infusions"]
        ix += [i + e for e in set(state.pending_infusions)]
        vx += [1.0] * len(set(state.pending_infusions))
        if state.phase != SELECT:  # HV-SEL-3: the sequence exists only after the reveal
            self._sequence(state, me, ix, vx)
        i = self.start["monster decks"]
        for t, deck in enumerate(state.monster_decks):
            j = i + t * (2 * self.deck_size + 1)
            if deck.current is not None:
                ix.append(j + self.card_index[t][deck.current])
                vx.append(1.0)
            for card in deck.discard:
                ix.append(j + self.deck_size + self.card_index[t][card])
                vx.append(1.0)
            ix.append(j + 2 * self.deck_size)
            vx.append(min(len(deck.draw) / self.deck_size, 1.0))
        self._modifier_deck(state.monster_amd, self.start["monster modifier deck"], ix, vx)
        hide_piles = bool(getattr(game.config, "hide_other_piles", False))
        for who, c in (("me", me), ("other", 1 - me)):
            ch = state.characters[c]
            lead = _pending_lead(ch, game.prompt) if c == me else None
            self._character(state, ch, c == me, hide_piles, lead, self.start[who], ix, vx)
        self._prompt(game.prompt, me, ix, vx)
        v[ix] = vx
        return v

    # --- blocks ---------------------------------------------------------------------------------

    def _board(self, state: HavenState, me: int, v: np.ndarray) -> None:
        """16.5 public board: terrain, tokens and the figure standing on each cell."""
        f = self.feature
        nf = self.n_features
        base = self.start["board"]
        v[base : base + N_CELLS * nf] = self.terrain
        board = v[base : base + N_CELLS * nf].reshape(N_CELLS, nf)
        for cell, count in state.coins.items():
            board[cell, f["coins"]] = min(count / COIN_SCALE, 1.0)
        for cell in state.treasures:
            board[cell, f["treasure"]] = 1.0
        hp = self.hp_scale
        for c, ch in enumerate(state.characters):
            if ch.cell is None or ch.exhausted:
                continue
            row = board[ch.cell]
            row[f[f"figure:{self.scn.characters[c].id}"]] = 1.0
            row[f["mine"]] = float(c == me)
            self._figure_row(row, ch.hp, ch.max_hp, ch.shield, ch.retaliate, ch.conditions, hp)
            row[f["acted"]] = float(ch.acted)
        for s in state.summons:
            row = board[s.cell]
            row[self.summon_kind[s.summon]] = 1.0
            row[f["mine"]] = float(s.owner == me)
            row[f["number"]] = min(s.number / NUMBER_SCALE, 1.0)
            self._figure_row(row, s.hp, s.max_hp, 0, 0, s.conditions, hp)
            row[f["acted"]] = float(s.acted)
        for m in state.monsters:
            row = board[m.cell]
            row[self.type_kind + m.type] = 1.0
            row[f["elite"]] = float(m.rank == ELITE)
            row[f["number"]] = min(m.standee / NUMBER_SCALE, 1.0)
            stats = self.scn.monster_types[m.type].stats(m.rank)
            shield, retaliate = stats.shield + m.shield, stats.retaliate + m.retaliate
            self._figure_row(row, m.hp, m.max_hp, shield, retaliate, m.conditions, hp)
            row[f["acted"]] = float(m.acted)

    def _figure_row(
        self,
        row: np.ndarray,
        hp: int,
        max_hp: int,
        shield: int,
        retaliate: int,
        conditions: list[str],
        scale: float,
    ) -> None:
        f = self.feature
        row[f["hp"]] = min(max(hp, 0) / scale, 1.0)
        row[f["max_hp"]] = min(max_hp / scale, 1.0)
        row[f["shield"]] = min(shield / BONUS_SCALE, 1.0)
        row[f["retaliate"]] = min(retaliate / BONUS_SCALE, 1.0)
        for cond in conditions:
            row[f["cond:" + cond]] = 1.0

    def _sequence(self, state: HavenState, me: int, ix: list[int], vx: list[float]) -> None:
        """16.5: the revealed turn sequence, slot by slot: whose slot, initiative, already run."""
        owners = {s.number: s.owner for s in state.summons}
        base = self.start["turn sequence"]
        n_ent = len(SLOT_ENTITIES) + len(self.scn.monster_types)
        for k, slot in enumerate(state.sequence[:MAX_SLOTS]):
            j = base + k * self.slot_width
            if slot.kind == "character":
                entity = 0 if slot.index == me else 1
            elif slot.kind == "summon":
                entity = 2 if owners.get(slot.index, 1 - me) == me else 3
            else:
                entity = len(SLOT_ENTITIES) + slot.index
            ix += (j + entity, j + n_ent, j + n_ent + 1)
            vx += (1.0, min(slot.initiative / INITIATIVE_SCALE, 1.0), float(k < state.slot))

    def _modifier_deck(self, deck: ModifierDeck, i: int, ix: list[int], vx: list[float]) -> None:
        """A modifier deck's draw pile and discard as counts per card name (order hidden)."""
        n = len(self.mod_names)
        total = float(max(len(self.scn.monster_modifier_deck), 1))
        for offset, pile in ((0, deck.draw), (n, deck.discard)):
            for card, count in Counter(pile).items():
                ix.append(i + offset + self.mod_index[card])
                vx.append(min(count / total, 1.0))
        ix.append(i + 2 * n)
        vx.append(float(deck.shuffle_due))

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
        ix += range(i, i + len(scalars))
        vx += [float(x) for x in scalars]
        i += len(CHAR_SCALARS)
        ix += [i + self.cond_index[c] for c in ch.conditions]
        vx += [1.0] * len(ch.conditions)
        i += len(CONDITIONS)
        show_piles = mine or not hide_piles
        blocks = (
            ch.hand if mine else (),
            () if lead is None else (lead,),
            () if second is None else (second,),
            ch.played if mine else [c for c in ch.played if c in public_picks],
            ch.discard if show_piles else (),
            ch.lost if show_piles else (),
            ch.active if show_piles else (),
        )
        for cards in blocks:
            ix += [i + c for c in cards if 0 <= c < CARD_SLOTS]
            vx += [1.0] * sum(1 for c in cards if 0 <= c < CARD_SLOTS)
            i += CARD_SLOTS
        for k, item_state in enumerate(ch.items[:MAX_ITEMS]):
            ix.append(i + 3 * k + ITEM_STATES.index(item_state))
            vx.append(1.0)
        i += MAX_ITEMS * len(ITEM_STATES)
        self._modifier_deck(ch.amd, i, ix, vx)

    def _prompt(self, prompt: Prompt | None, me: int, ix: list[int], vx: list[float]) -> None:
        """16.5 prompt: kind and context; the other's selection prompts show their kind only."""
        if prompt is None:
            return
        i = self.start["prompt"]
        mine = prompt.agent == me
        ix += (i + self.prompt_index[prompt.kind], i + len(PROMPT_KINDS) + (0 if mine else 1))
        vx += (1.0, 1.0)
        if not mine and prompt.kind in (SELECT_LEAD, SELECT_SECOND):
            return  # HV-SEL-3: nothing about the other's pending choice
        i += len(PROMPT_KINDS) + 2
        if 0 <= prompt.card < CARD_SLOTS:
            ix.append(i + prompt.card)
            vx.append(1.0)
        i += CARD_SLOTS
        if prompt.half in (0, 1):
            ix.append(i + prompt.half)
            vx.append(1.0)
        i += 2
        if prompt.ability in self.ability_index:
            ix.append(i + self.ability_index[prompt.ability])
            vx.append(1.0)
        i += len(ABILITY_KINDS)
        ix.append(i)
        vx.append(min(max(prompt.value, 0) / VALUE_SCALE, 1.0))
        i += 1
        if 0 <= prompt.element < len(ELEMENTS):
            ix.append(i + prompt.element)
            vx.append(1.0)
        i += len(ELEMENTS)
        ix += [i + t for t in prompt.targets if 0 <= t < N_CELLS]
        vx += [1.0] * sum(1 for t in prompt.targets if 0 <= t < N_CELLS)
        i += N_CELLS
        if mine and 0 <= prompt.rest_card < CARD_SLOTS:  # 16.5: only for its owner
            ix.append(i + prompt.rest_card)
            vx.append(1.0)


def _pending_lead(ch: CharacterState, prompt: Prompt | None) -> int | None:
    """My leading pick while my ``SELECT_SECOND`` is pending: the prompt names it (HV-SEL-4)."""
    if prompt is None or prompt.kind != SELECT_SECOND or prompt.agent != ch.index:
        return None
    return prompt.card


observer_for = PerScenario(Observer)
"""observer_for(scenario): one observer per scenario object, shared by every environment."""
