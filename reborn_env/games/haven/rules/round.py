"""The round: start, card selection, reveal and turn order, turns, cleanup with short rests
(section 4, HV-ROUND-*, HV-EXH-1, HV-SEL-*, HV-MCARD-*, HV-INIT-*, HV-CLEAN-1, section 6.2)."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING

from .. import actions
from .character_turn import character_turn
from .damage import ScenarioEnded, ask, exhaust, suffer_damage
from .decks import draw_monster_card, end_monster_cards, reshuffle_modifier_decks
from .figures import label
from .monster_turn import monster_slot, summon_turn
from .prompts import SELECT_LEAD, SELECT_SECOND, SHORT_REST, SHORT_REST_REROLL, Prompt
from .state import (
    CHARACTER_SLOT,
    ELEMENT_STATE_NAMES,
    INERT,
    MONSTER_SLOT,
    STRONG,
    SUMMON_SLOT,
    TRUNCATED,
    TURNS,
    WANING,
    WIN,
    CharacterState,
    Slot,
)

if TYPE_CHECKING:
    from .engine import HavenGame

Steps = Generator[Prompt, int, None]

LONG_REST_INITIATIVE = 99  # HV-INIT-1


def start_round(game: HavenGame) -> Steps:
    """HV-ROUND-2 steps 1-2: exhaustion check, secret selection, reveal, monster cards, order."""
    state = game.state
    game.log("ROUND_START", round=state.round)
    for ch in state.characters:  # HV-EXH-1
        if not ch.exhausted and not ch.sits_out and len(ch.hand) < 2 and len(ch.discard) < 2:
            exhaust(game, ch)
    for ch in state.characters:
        if not ch.exhausted and not ch.sits_out:
            yield from select_cards(game, ch)
    for ch in state.characters:
        ch.revealed = 1 if game.config.reveal_second_card_at_turn else 2
    for type_index, deck in enumerate(state.monster_decks):  # HV-MCARD-1
        if any(m.type == type_index for m in state.monsters):
            draw_monster_card(game, deck, game.scenario.monster_types[type_index].id)
    state.sequence = turn_sequence(game)
    state.slot = 0
    state.phase = TURNS
    game.log("REVEAL", sequence=[game.slot_label(s) for s in state.sequence])


def select_cards(game: HavenGame, ch: CharacterState) -> Steps:
    """HV-SEL-1..4: two hand cards, the first one leading, or a long rest (discard >= 2 only;
    the only choice when the hand holds fewer than 2 cards)."""
    legal = [actions.card_action(k) for k in ch.hand] if len(ch.hand) >= 2 else []
    if len(ch.discard) >= 2:
        legal.append(actions.LONG_REST)
    answer = yield from ask(game, SELECT_LEAD, ch.index, legal)
    who = label(game.scenario, ch)
    if answer == actions.LONG_REST:
        ch.long_rest = True
        ch.initiative = LONG_REST_INITIATIVE
        game.log("LONG_REST", secret_of=ch.index, figure=who, declared=True)
        return
    lead = answer - actions.CARD_BASE
    second_options = [actions.card_action(k) for k in ch.hand if k != lead]
    answer = yield from ask(game, SELECT_SECOND, ch.index, second_options, card=lead)
    second = answer - actions.CARD_BASE
    ch.lead, ch.second = lead, second
    ch.hand.remove(lead)
    ch.hand.remove(second)
    ch.played = [lead, second]
    ch.initiative = game.scenario.characters[ch.index].cards[lead].initiative
    cards = game.card_ids(ch, [lead, second])
    variant = game.config.reveal_second_card_at_turn  # 16.8: the second pick stays private
    game.log("CARD_TO", secret_of=ch.index, figure=who, card=cards[0], to="played")
    game.log("CARD_TO", secret_of=ch.index, private=variant, figure=who, card=cards[1], to="played")


def turn_sequence(game: HavenGame) -> list[Slot]:
    """HV-INIT-1..4: ascending initiative; a character before a monster type on a tie, two
    characters by their other card (99 for a long rest) then agent index, monster types by type
    order; each summon directly before its summoner, in summoning order."""
    state = game.state
    scenario = game.scenario
    keyed = []
    for ch in state.characters:
        if ch.exhausted or ch.sits_out or (ch.lead is None and not ch.long_rest):
            continue
        if ch.long_rest:
            other = LONG_REST_INITIATIVE
        else:
            other = scenario.characters[ch.index].cards[ch.second].initiative
        keyed.append(
            ((ch.initiative, 0, other, ch.index), Slot(CHARACTER_SLOT, ch.index, ch.initiative))
        )
    for type_index, deck in enumerate(state.monster_decks):
        if deck.current is not None:
            init = game.monster_card(type_index, deck.current).initiative
            keyed.append(((init, 1, 0, type_index), Slot(MONSTER_SLOT, type_index, init)))
    keyed.sort(key=lambda pair: pair[0])
    sequence: list[Slot] = []
    for _, slot in keyed:
        if slot.kind == CHARACTER_SLOT:
            for summon in sorted(state.summons, key=lambda s: s.number):
                if summon.owner == slot.index and summon.summoned_round < state.round:
                    sequence.append(Slot(SUMMON_SLOT, summon.number, slot.initiative))
        sequence.append(slot)
    return sequence


def run_slot(game: HavenGame, slot: Slot) -> Steps:
    """HV-ROUND-1, HV-INIT-5/7: the slot's figure(s) take their turn; removed ones are skipped."""
    state = game.state
    if slot.kind == CHARACTER_SLOT:
        ch = state.characters[slot.index]
        if not ch.exhausted and not ch.sits_out:
            yield from character_turn(game, ch)
    elif slot.kind == SUMMON_SLOT:
        summon = next((s for s in state.summons if s.number == slot.index), None)
        if summon is not None:
            yield from summon_turn(game, summon)
    else:
        yield from monster_slot(game, slot.index)


def cleanup(game: HavenGame) -> Steps:
    """HV-CLEAN-1 steps 1-6."""
    state = game.state
    reshuffle_modifier_decks(game)  # 1
    end_monster_cards(game)  # 2
    for e, level in enumerate(state.elements):  # 3, HV-ELEM-3
        if level != INERT:
            state.elements[e] = WANING if level == STRONG else INERT
            game.log(
                "ELEMENT",
                element=game.element_name(e),
                state=ELEMENT_STATE_NAMES[state.elements[e]],
            )
    for ch in state.characters:  # 4
        for card in list(ch.round_bonus):
            ch.round_bonus.remove(card)
            fate = ch.active_fate.pop(card)
            (ch.lost if fate == "lost" else ch.discard).append(card)
            game.log_card(ch, card, fate)
        ch.shield = ch.retaliate = 0
    for monster in state.monsters:
        monster.shield = monster.retaliate = 0
    if not state.win_met:  # 5, section 19.14
        for ch in state.characters:
            if not ch.exhausted and not ch.sits_out and len(ch.discard) >= 2:
                yield from short_rest(game, ch)
    game.log("ROUND_END", round=state.round)
    if state.win_met:  # 6, HV-END-1
        state.outcome = WIN
    elif state.round >= game.config.max_rounds:  # HV-END-4
        state.outcome = TRUNCATED
    if state.outcome != "running":
        game.log("OUTCOME", outcome=state.outcome)
        raise ScenarioEnded
    next_round(game)


def next_round(game: HavenGame) -> None:
    """HV-CLEAN-1 step 6: the round number increases; per-round marks are cleared."""
    state = game.state
    state.round += 1
    state.phase = "select"
    state.sequence = []
    state.slot = 0
    for ch in state.characters:
        ch.lead = ch.second = None
        ch.long_rest = ch.acted = ch.sits_out = False
        ch.revealed = 0
        ch.initiative = 0
    for fig in [*state.monsters, *state.summons]:
        fig.acted = False


def short_rest(game: HavenGame, ch: CharacterState) -> Steps:
    """HV-SREST-1..3: a random discard card is lost (once, for 1 damage that cannot be negated,
    another random one instead), the rest return to hand; no heal, no item refresh."""
    answer = yield from ask(game, SHORT_REST, ch.index, [actions.YES, actions.NO])
    if answer != actions.YES:
        return
    card = game.random_discard(ch, exclude=None)
    answer = yield from ask(
        game, SHORT_REST_REROLL, ch.index, [actions.YES, actions.NO], rest_card=card
    )
    if answer == actions.YES:
        yield from suffer_damage(game, ch, 1, negatable=False)
        if ch.exhausted:
            return
        card = game.random_discard(ch, exclude=card)
    ch.discard.remove(card)
    ch.lost.append(card)
    game.log_card(ch, card, "lost")
    game.log("SHORT_REST", figure=label(game.scenario, ch), lost=game.card_ids(ch, [card])[0])
    for back in ch.discard:
        game.log_card(ch, back, "hand")
    ch.hand.extend(ch.discard)
    ch.hand.sort()
    ch.discard.clear()
