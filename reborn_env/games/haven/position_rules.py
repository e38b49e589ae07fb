"""The whole-state rules a haven position must keep, and the bounds its scenario sets.

Why: a position is accepted only if the rules can stop at it and continue from it. The bounds
(:class:`Limits`) come from the scenario data once; the cross-field rules of a quiet point (phase,
turn sequence, picks, acted flags, decks, outcome; :func:`check_consistency`) and the round
bounds of HV-END-4 and 15.10 (:func:`check_config_fit`) are checked after every field is read.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache
from typing import Any

from ...core.per_scenario import PerScenario
from ...core.positions import fail
from .rules.config import HavenConfig
from .rules.state import (
    CHARACTER_SLOT,
    CLEANUP,
    LOSS,
    MONSTER_SLOT,
    OVER,
    RUNNING,
    SELECT,
    STRONG,
    SUMMON_SLOT,
    TRUNCATED,
    TURNS,
    WIN,
    CharacterState,
    HavenState,
    Slot,
)
from .scenario.model import (
    FLOOR,
    PERSISTENT,
    RETALIATE,
    ROUND,
    SHIELD,
    SUMMON,
    Box,
    Scenario,
)

# --- What the scenario data allows ----------------------------------------------------------------


@dataclass(frozen=True)
class Limits:
    """Bounds every reachable state of one scenario obeys, derived once from its data."""

    round_cap: int  # HV-END-4, 15.10: no game runs past this round (from setup, past 29)
    max_answers: int  # 15.10: prompts of one turn-sequence slot, every agent together
    max_coins: int  # HV-LOOT-1: the map's coins plus one per monster killed
    max_gold: int  # HV-LOOT-3: every coin and every treasure tile of the scenario
    max_summon_number: int  # HV-ABL-7: one summon per floor hex, every summon card once more
    round_cards: tuple[frozenset[int], ...]  # per class: cards with a round-bonus box (HV-BOX-9)
    persistent_cards: tuple[frozenset[int], ...]  # per class: cards with a persistent box
    summon_cards: tuple[dict[int, str], ...]  # per class: summon card index -> summon id
    max_shield: tuple[int, ...]  # per class: shield of its two best cards (HV-ABL-4)
    max_retaliate: tuple[int, ...]  # per class: retaliate of its two best cards (HV-ABL-5)
    max_round_bonus: int  # the most shield or retaliate any figure gains in a round
    consume_cards: tuple[frozenset[str], ...]  # per monster type: cards that consume (HV-ELEM-5)
    card_initiative: tuple[dict[str, int], ...]  # per monster type: card id -> initiative
    floor: frozenset[int]  # HV-MAP-3: the cells a figure or token can be in


def _box_total(box: Box, kind: str) -> int:
    return sum(a.value for a in box.abilities if a.kind == kind)


def _two_best(values: list[int]) -> int:
    """HV-BOX-1: a round plays two cards, so a round bonus sums at most the two largest."""
    return sum(sorted(values)[-2:])


def _limits(scenario: Scenario) -> Limits:
    classes = scenario.characters
    mtypes = scenario.monster_types
    floor = frozenset(c for c, kind in enumerate(scenario.map.cells) if kind == FLOOR)
    summon_cards = tuple(
        {
            k: a.summon
            for k, card in enumerate(cls.cards)
            for box in (card.top, card.bottom)
            for a in box.abilities
            if a.kind == SUMMON and a.summon is not None
        }
        for cls in classes
    )
    bounds = scenario.rules.bounds
    coins = len(scenario.map.coins) + len(scenario.map.monsters)

    def per_card(cls: Any, kind: str) -> int:
        return _two_best(
            [max(_box_total(c.top, kind), _box_total(c.bottom, kind)) for c in cls.cards]
        )

    def fated(cls: Any, fate: str) -> frozenset[int]:
        return frozenset(k for k, c in enumerate(cls.cards) if fate in (c.top.fate, c.bottom.fate))

    def card_total(card: Any, kind: str) -> int:
        return sum(a.value for a in card.abilities if a.kind == kind)

    return Limits(
        round_cap=scenario.rules.round_cap,
        max_answers=bounds.max_prompts_per_agent_round * len(classes),
        max_coins=coins,
        max_gold=coins * scenario.rules.coin_gold + sum(t.gold for t in scenario.map.treasures),
        max_summon_number=1 + len(floor) + sum(len(s) for s in summon_cards),
        round_cards=tuple(fated(cls, ROUND) for cls in classes),
        persistent_cards=tuple(fated(cls, PERSISTENT) for cls in classes),
        summon_cards=summon_cards,
        max_shield=tuple(per_card(cls, SHIELD) for cls in classes),
        max_retaliate=tuple(per_card(cls, RETALIATE) for cls in classes),
        max_round_bonus=max(
            [per_card(cls, kind) for cls in classes for kind in (SHIELD, RETALIATE)]
            + [card_total(c, kind) for t in mtypes for c in t.deck for kind in (SHIELD, RETALIATE)],
            default=0,
        ),
        consume_cards=tuple(
            frozenset(c.id for c in t.deck if any(a.consume for a in c.abilities)) for t in mtypes
        ),
        card_initiative=tuple({c.id: c.initiative for c in t.deck} for t in mtypes),
        floor=floor,
    )


limits_of = PerScenario(_limits)


# --- Whole-state rules ----------------------------------------------------------------------------


def check_consistency(scenario: Scenario, state: HavenState) -> None:
    """Every cross-field rule of a quiet point (positions and fixtures, HV-API-10, alike).

    One figure per hex; the phase, turn sequence and slot; each character's picks, played
    cards, active area and acted flag against its slot; summons of living owners with their card
    active; monsters' round bonuses and acted flags; monster and modifier decks against the
    phase; the outcome against the figures on the map.
    """
    limits = limits_of(scenario)
    _check_cells(scenario, state)
    _check_traps(scenario, state)
    _check_sequence(limits, state)
    for ch in state.characters:
        _check_character(limits, state, ch)
    _check_summons(state)
    _check_monsters(state)
    _check_ability_decks(scenario, limits, state)
    _check_modifier_decks(state)
    _check_outcome(state)


def _check_cells(scenario: Scenario, state: HavenState) -> None:
    """HV-MAP-4: one figure per hex."""
    grid = scenario.map.grid
    cells: dict[int, str] = {}
    figures = [(f"characters[{c.index}]", c.cell) for c in state.characters if c.cell is not None]
    figures += [(f"monsters[{i}]", m.cell) for i, m in enumerate(state.monsters)]
    figures += [(f"summons[{i}]", s.cell) for i, s in enumerate(state.summons)]
    for name, cell in figures:
        if cell in cells:
            raise fail(name, f"cell {grid.xy(cell)} already holds {cells[cell]}")
        cells[cell] = name


def fliers(scenario: Scenario, state: HavenState) -> set[int]:
    """HV-FLY-2: ids of the figures that may stand on an unsprung trap, having flown there: each
    monster of a flying type, and each character with a flying Move on a card."""
    flying_types = {t for t, mtype in enumerate(scenario.monster_types) if mtype.flying}
    flying_classes = {
        c
        for c, cls in enumerate(scenario.characters)
        for card in cls.cards
        for box in (card.top, card.bottom)
        if any(a.flying for a in box.abilities)
    }
    return {id(m) for m in state.monsters if m.type in flying_types} | {
        id(ch) for ch in state.characters if ch.index in flying_classes
    }


def _check_traps(scenario: Scenario, state: HavenState) -> None:
    """HV-TER-2: no figure stands on a trap not yet sprung (entering it springs it) unless it may
    have flown there (HV-FLY-2)."""
    flown = fliers(scenario, state)
    xy = scenario.map.grid.xy
    for ch in state.characters:
        if ch.cell is not None and ch.cell in state.traps and id(ch) not in flown:
            raise fail(f"characters[{ch.index}]", f"stands on an unsprung trap {xy(ch.cell)}")
    for kind, figures in (("monsters", state.monsters), ("summons", state.summons)):
        for i, fig in enumerate(figures):
            if fig.cell in state.traps and id(fig) not in flown:
                raise fail(f"{kind}[{i}]", f"stands on an unsprung trap {xy(fig.cell)}")


def _slot_done(state: HavenState, position: int | None) -> bool:
    """Whether the slot at ``position`` of the sequence has run (HV-ROUND-2 step 3)."""
    return position is not None and (state.phase != TURNS or position < state.slot)


def _positions(state: HavenState, kind: str) -> dict[int, int]:
    """Agent, summon number or type -> the position of its slot, for one kind of slot."""
    return {s.index: i for i, s in enumerate(state.sequence) if s.kind == kind}


def _check_sequence(limits: Limits, state: HavenState) -> None:
    """Section 4.4, HV-INIT-1..7: the sequence exists from the reveal on, one slot per
    character, summon and type, each with its figure's initiative; cleanup comes after the last
    slot (a turns state with none left is read as cleanup, :func:`state_from_dict`)."""
    if state.phase == SELECT and (state.sequence or state.slot):
        raise fail("sequence", "the turn sequence is set at the reveal, after selection")
    if state.phase == CLEANUP and state.slot != len(state.sequence):
        raise fail("slot", f"cleanup comes after the last slot: {len(state.sequence)}")
    seen: set[tuple[str, int]] = set()
    for i, s in enumerate(state.sequence):
        f = f"sequence[{i}]"
        if (s.kind, s.index) in seen:
            raise fail(f, f"{s.kind} {s.index} has two slots in one round")
        seen.add((s.kind, s.index))
        if s.kind == SUMMON_SLOT and s.index >= state.next_summon_number:
            raise fail(f"{f}.index", f"summon {s.index} was never summoned")
        expected = _slot_initiative(limits, state, s)
        if expected is not None and s.initiative != expected:
            raise fail(f"{f}.initiative", f"must be {expected}, its figure's initiative")


def _slot_initiative(limits: Limits, state: HavenState, slot: Slot) -> int | None:
    """HV-INIT-1/4: a character's initiative (its summons' too), a type's current card's."""
    if slot.kind == CHARACTER_SLOT:
        return state.characters[slot.index].initiative
    if slot.kind == MONSTER_SLOT:
        current = state.monster_decks[slot.index].current
        return None if current is None else limits.card_initiative[slot.index][current]
    summon = next((s for s in state.summons if s.number == slot.index), None)
    return None if summon is None else state.characters[summon.owner].initiative


def _check_character(limits: Limits, state: HavenState, ch: CharacterState) -> None:
    """HV-STATE-1 at a quiet point: exhaustion, the active area, picks, the acted flag."""
    f = f"characters[{ch.index}]"
    if ch.exhausted:
        everything = ch.hand + ch.played + ch.discard + ch.round_bonus + ch.persistent
        if everything:
            raise fail(f"{f}.lost", "HV-EXH-3: an exhausted character has every card in lost")
        if ch.shield or ch.retaliate:
            raise fail(f"{f}.shield", "HV-EXH-3: an exhausted character has no round bonuses")
    expected_fates = {k: "discard" for k in ch.round_bonus} | {k: "lost" for k in ch.persistent}
    if ch.active_fate != expected_fates:  # HV-BOX-9, as move_card places active cards
        raise fail(
            f"{f}.active_fate",
            "names each active card's pile: discard for a round bonus, lost for a persistent one",
        )
    if not set(ch.round_bonus) <= limits.round_cards[ch.index]:
        raise fail(f"{f}.round_bonus", "HV-BOX-9: only a card with a round-bonus box goes there")
    if not set(ch.persistent) <= limits.persistent_cards[ch.index]:
        raise fail(f"{f}.persistent", "HV-BOX-9: only a card with a persistent box goes there")
    _check_picks(ch, f)
    if state.phase == SELECT:
        _check_round_start(ch, f)
    elif state.phase in (TURNS, CLEANUP):
        _check_turn(state, ch, f)


def _check_picks(ch: CharacterState, f: str) -> None:
    """HV-SEL-1, HV-INIT-1: two different picks or none, a long rest (initiative 99) instead of
    picks; played cards are both picks, leading card first, until the turn moves them
    (HV-BOX-8: a quiet point is never inside a turn)."""
    if (ch.lead is None) != (ch.second is None) or (ch.lead is not None and ch.lead == ch.second):
        raise fail(f"{f}.second", "HV-SEL-1: two different picks, or none")
    if ch.long_rest and ch.lead is not None:
        raise fail(f"{f}.long_rest", "HV-SEL-1: a long rest is declared instead of two picks")
    if ch.played and ch.played != [ch.lead, ch.second]:
        raise fail(f"{f}.played", "only this round's picks can be played, leading card first")
    if ch.long_rest and ch.initiative != 99:
        raise fail(f"{f}.initiative", "HV-INIT-1: a long rest has initiative 99")


def _check_round_start(ch: CharacterState, f: str) -> None:
    """HV-CLEAN-1 steps 4 and 6: a round starts with no picks, no round bonus, nothing revealed
    and no turn taken (a fixture's character may sit the round out, HV-API-10)."""
    if ch.lead is not None or ch.long_rest or ch.played:
        raise fail(f"{f}.lead", "selection has not started: no picks, no long rest yet")
    if ch.round_bonus or ch.shield or ch.retaliate:
        raise fail(f"{f}.round_bonus", "HV-CLEAN-1 step 4: round bonuses end with the round")
    if ch.initiative or ch.revealed:
        raise fail(f"{f}.initiative", "initiative and reveal come after selection (0 until then)")
    if ch.acted != ch.sits_out:
        raise fail(f"{f}.acted", "no turn is taken before selection (one sitting out counts)")


def _check_turn(state: HavenState, ch: CharacterState, f: str) -> None:
    """Turns and cleanup: a character's slot runs its picks or long rest once; after it the
    played cards are gone and it has acted; a character without a slot has no picks and no long
    rest (HV-INIT-7, HV-BOX-8, HV-SEL-3)."""
    if ch.revealed not in (1, 2) and not ch.sits_out:
        raise fail(f"{f}.revealed", "HV-SEL-3, 16.8: from the reveal on 1 or 2 picks are public")
    position = _positions(state, CHARACTER_SLOT).get(ch.index)
    if position is None:
        if ch.lead is not None or ch.long_rest:
            raise fail(f"{f}.lead", "a character with picks or a long rest has a slot")
        return
    if ch.sits_out:
        raise fail(f"{f}.sits_out", "a character sitting the round out has no slot")
    if ch.exhausted:
        return
    if _slot_done(state, position):
        if ch.played:
            raise fail(f"{f}.played", "HV-BOX-8: its turn is over, its played cards have moved")
        if not ch.acted:
            raise fail(f"{f}.acted", "its slot has run: it has acted")
        if ch.lead is not None and {ch.lead, ch.second} & set(ch.hand):
            raise fail(f"{f}.hand", "HV-BOX-8: a played card goes to a pile, not to the hand")
        return
    if ch.acted:
        raise fail(f"{f}.acted", "its slot is still to run: it has not acted")
    if ch.lead is None and not ch.long_rest:
        raise fail(f"{f}.lead", "a slot still to run needs two picks or a long rest")
    if ch.lead is not None and not ch.played:
        raise fail(f"{f}.played", "its slot is still to run: both picks are still played")


def _check_summons(state: HavenState) -> None:
    """HV-ABL-7, HV-STATE-3, HV-INIT-4/5: a summon has a living owner whose summon card is
    active, and an active summon card has its summon; numbers are unique and given out; a summon
    acts from the round after its summoning, and has acted exactly when its slot has run."""
    numbers = [s.number for s in state.summons]
    if len(set(numbers)) != len(numbers) or any(n >= state.next_summon_number for n in numbers):
        raise fail("summons", "summon numbers must be unique and below next_summon_number")
    slots = _positions(state, SUMMON_SLOT)
    for i, s in enumerate(state.summons):
        f = f"summons[{i}]"
        owner = state.characters[s.owner]
        if owner.exhausted or s.card not in owner.persistent:
            raise fail(f, "HV-ABL-7: a summon needs a living owner with its card active")
        if s.summoned_round > state.round:
            raise fail(f"{f}.summoned_round", f"must be at most the round ({state.round})")
        position = slots.get(s.number)
        if position is not None and s.summoned_round >= state.round:
            raise fail(f, "HV-INIT-5: a summon takes no turn in the round it was summoned")
        if state.phase != OVER and s.acted != _slot_done(state, position):
            raise fail(f"{f}.acted", "a summon has acted exactly when its slot has run")
    for ch in state.characters:
        if set(ch.persistent) != {s.card for s in state.summons if s.owner == ch.index}:
            raise fail(
                f"characters[{ch.index}].persistent",
                "HV-ABL-7: a persistent card stays active exactly while its summon is on the map",
            )


def _check_monsters(state: HavenState) -> None:
    """HV-STATE-2: unique standees per type; a monster has acted exactly when its type's slot
    has run."""
    standees = Counter((m.type, m.standee) for m in state.monsters)
    slots = _positions(state, MONSTER_SLOT)
    for i, m in enumerate(state.monsters):
        f = f"monsters[{i}]"
        if standees[(m.type, m.standee)] > 1:
            raise fail(f"{f}.standee", "standee numbers are unique within a monster type")
        if state.phase != OVER and m.acted != _slot_done(state, slots.get(m.type)):
            raise fail(f"{f}.acted", "a monster has acted exactly when its type's slot has run")


def _check_ability_decks(scenario: Scenario, limits: Limits, state: HavenState) -> None:
    """HV-MCARD-1, HV-CLEAN-1 step 2, HV-ELEM-5: current cards exist from the reveal to
    cleanup, and for every type with a slot; a shuffle-mark card never rests in a discard; the
    consumed mark needs a consuming card whose slot has run."""
    slots = _positions(state, MONSTER_SLOT)
    for t, deck in enumerate(state.monster_decks):
        f = f"monster_decks.{scenario.monster_types[t].id}"
        if state.phase == SELECT and deck.current is not None:
            raise fail(f"{f}.current", "HV-MCARD-1: ability cards are drawn after selection")
        if t in slots and state.phase in (TURNS, CLEANUP) and deck.current is None:
            raise fail(f"{f}.current", "HV-MCARD-1: a monster type with a slot has its card")
        if deck.consumed and (
            deck.current not in limits.consume_cards[t] or not _slot_done(state, slots.get(t))
        ):
            raise fail(f"{f}.consumed", "HV-ELEM-5: only a consuming card, once its slot has run")


def _check_modifier_decks(state: HavenState) -> None:
    """HV-CLEAN-1 steps 1 and 3: the decks that showed x2 or null are shuffled at the round's
    end and the elements wane, so a round starts with no shuffle due and no element strong."""
    if state.phase != SELECT:
        return
    decks = [(f"characters[{c.index}].amd", c.amd) for c in state.characters]
    for field, deck in [*decks, ("monster_amd", state.monster_amd)]:
        if deck.shuffle_due:
            raise fail(f"{field}.shuffle_due", "HV-CLEAN-1 step 1 shuffled it at the round's end")
    if STRONG in state.elements:
        raise fail("elements", "HV-ELEM-3: every element wanes at the end of a round")


def _check_outcome(state: HavenState) -> None:
    """HV-STATE-7, HV-END-1..4: the game is over exactly when it has an outcome; the win
    condition holds exactly when no monster is left; a loss has every character exhausted; a
    running game has a character left."""
    everyone_out = all(c.exhausted for c in state.characters)
    if (state.phase == OVER) != (state.outcome != RUNNING):
        raise fail("phase", "the phase is 'over' exactly when the outcome is not 'running'")
    if state.win_met != (not state.monsters):
        raise fail("win_met", "HV-END-1/2: the win condition holds exactly when no monster is left")
    if state.outcome == RUNNING and everyone_out:
        raise fail("outcome", "HV-END-3: the game ends when the last character is exhausted")
    if state.outcome == LOSS and (not everyone_out or state.win_met):
        raise fail("outcome", "HV-END-3: a loss has every character exhausted, no win condition")
    if state.outcome == WIN and not state.win_met:
        raise fail("outcome", "HV-END-1: a win needs the win condition")
    if state.outcome == TRUNCATED and (state.win_met or everyone_out):
        raise fail("outcome", "HV-END-4: truncation ends a round without a win or a loss")


def check_config_fit(scenario: Scenario, state: HavenState, config: HavenConfig) -> None:
    """The state against its rules options (16.8): the round within ``max_rounds`` and
    truncation at that round (HV-END-4); with ``max_rounds`` past the round cap, cards few enough
    to end the game by the cap however it is played on (15.10); picks public as
    ``reveal_second_card_at_turn`` says (HV-SEL-3)."""
    if state.round > config.max_rounds:
        raise fail("round", f"HV-END-4: the game ends with round max_rounds ({config.max_rounds})")
    if state.outcome == TRUNCATED and state.round != config.max_rounds:
        raise fail("outcome", f"HV-END-4: truncation comes at round {config.max_rounds}")
    cap = limits_of(scenario).round_cap
    if state.outcome == RUNNING and config.max_rounds > cap:  # no truncation to end it by then
        for ch in state.characters:
            if not ch.exhausted and exhaustion_round(state, ch) > cap:
                raise fail(
                    f"characters[{ch.index}].hand",
                    f"15.10: with these cards in round {state.round} it could still take part "
                    f"in round {cap}, and max_rounds ({config.max_rounds}) would not end the game",
                )
    if state.phase in (TURNS, CLEANUP):
        _check_revealed(state, config)


def _check_revealed(state: HavenState, config: HavenConfig) -> None:
    """HV-SEL-3, 16.8: both picks public from the reveal on, or, with the variant, the second
    one from the start of its owner's turn."""
    turns = _positions(state, CHARACTER_SLOT)
    for ch in state.characters:
        f = f"characters[{ch.index}].revealed"
        started = _slot_done(state, turns.get(ch.index)) and not ch.exhausted
        if not config.reveal_second_card_at_turn and ch.revealed != 2 and not ch.sits_out:
            raise fail(f, "HV-SEL-3: both picks are public from the reveal on")
        if config.reveal_second_card_at_turn and started and ch.revealed != 2:
            raise fail(f, "16.8: the second pick is public once its owner's turn has started")


def exhaustion_round(state: HavenState, ch: CharacterState) -> int:
    """15.10: the latest round at whose start ``ch`` is exhausted (HV-EXH-1), however it plays
    on: no content returns a lost card, so its hand and discard bound the rounds it has left."""
    hand, discard = len(ch.hand), len(ch.discard)
    if state.phase == SELECT:
        if ch.sits_out:  # HV-API-10: it joins next round
            return state.round + 1 + rounds_left(hand, discard)
        return state.round + rounds_left(hand, discard)
    position = _positions(state, CHARACTER_SLOT).get(ch.index)
    if position is not None and not _slot_done(state, position):
        if ch.long_rest:  # HV-LREST-2: one discard card lost, the others back to hand
            hand, discard = hand + max(discard - 1, 0), 0
        discard += len(ch.played)  # HV-BOX-8: at best to the discard
    discard += len(ch.round_bonus)  # HV-CLEAN-1 step 4
    after = rounds_left(hand, discard)
    if discard >= 2 and not ch.sits_out:  # HV-SREST-1 in this round's cleanup
        after = max(after, rounds_left(hand + discard - 1, 0))
    return state.round + 1 + after


@cache
def rounds_left(hand: int, discard: int) -> int:
    """15.10: the most rounds a character can still take part in from a round's start: each
    round plays two hand cards (then maybe a short rest) or long rests; each rest loses a card."""
    if hand < 2 and discard < 2:  # HV-EXH-1
        return 0
    best = 0
    if hand >= 2:  # HV-SEL-1, HV-BOX-8; then HV-SREST-1
        best = 1 + max(rounds_left(hand - 2, discard + 2), rounds_left(hand + discard - 1, 0))
    if discard >= 2:  # HV-SEL-2, HV-LREST-2
        best = max(best, 1 + rounds_left(hand + discard - 1, 0))
    return best
