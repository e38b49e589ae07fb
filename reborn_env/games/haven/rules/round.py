"""The round: start, card selection, reveal and turn order, turns, cleanup with short rests
(section 4, HV-ROUND-*, HV-EXH-1, HV-SEL-*, HV-MCARD-*, HV-INIT-*, HV-CLEAN-1, section 6.2)."""

from __future__ import annotations

from collections.abc import Generator

from ..scenario.model import ELEMENTS, Scenario
from .character_turn import character_turn
from .context import RuleContext
from .damage import ScenarioEnded, exhaust, suffer_damage
from .decks import draw_monster_card, end_monster_cards, monster_card, reshuffle_modifier_decks
from .figures import label
from .monster_turn import monster_slot, summon_turn
from .prompts import SELECT_LEAD, SELECT_SECOND, SHORT_REST, SHORT_REST_REROLL, Prompt, ask
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
    HavenState,
    Slot,
)

Steps = Generator[Prompt, int, None]

LONG_REST_INITIATIVE = 99  # HV-INIT-1


def start_round(ctx: RuleContext) -> Steps:
    """HV-ROUND-2 steps 1-2: exhaustion check, secret selection, reveal, monster cards, order."""
    state = ctx.state
    ctx.log("ROUND_START", round=state.round)
    for ch in state.characters:  # HV-EXH-1
        if not ch.exhausted and not ch.sits_out and len(ch.hand) < 2 and len(ch.discard) < 2:
            exhaust(ctx, ch)
    for ch in state.characters:
        if not ch.exhausted and not ch.sits_out:
            yield from select_cards(ctx, ch)
    for ch in state.characters:
        ch.revealed = 1 if ctx.config.reveal_second_card_at_turn else 2
    for type_index, deck in enumerate(state.monster_decks):  # HV-MCARD-1
        if any(m.type == type_index for m in state.monsters):
            draw_monster_card(ctx, deck, ctx.scenario.monster_types[type_index].id)
    state.sequence = turn_sequence(ctx.scenario, state)
    state.slot = 0
    state.phase = TURNS
    ctx.log("REVEAL", sequence=[slot_label(ctx.scenario, s) for s in state.sequence])


def select_cards(ctx: RuleContext, ch: CharacterState) -> Steps:
    """HV-SEL-1..4: two hand cards, the first one leading, or a long rest (discard >= 2 only;
    the only choice when the hand holds fewer than 2 cards)."""
    legal = [ctx.actions.card_action(k) for k in ch.hand] if len(ch.hand) >= 2 else []
    if len(ch.discard) >= 2:
        legal.append(ctx.actions.LONG_REST)
    answer = yield from ask(SELECT_LEAD, ch.index, legal)
    who = label(ctx.scenario, ch)
    if answer == ctx.actions.LONG_REST:
        ch.long_rest = True
        ch.initiative = LONG_REST_INITIATIVE
        ctx.log("LONG_REST", secret_of=ch.index, figure=who, declared=True)
        return
    lead = answer - ctx.actions.CARD_BASE
    second_options = [ctx.actions.card_action(k) for k in ch.hand if k != lead]
    answer = yield from ask(SELECT_SECOND, ch.index, second_options, card=lead)
    second = answer - ctx.actions.CARD_BASE
    ch.lead, ch.second = lead, second
    ch.hand.remove(lead)
    ch.hand.remove(second)
    ch.played = [lead, second]
    ch.initiative = ctx.scenario.characters[ch.index].cards[lead].initiative
    cards = ctx.card_ids(ch, [lead, second])
    variant = ctx.config.reveal_second_card_at_turn  # 16.8: the second pick stays private
    ctx.log("CARD_TO", secret_of=ch.index, figure=who, card=cards[0], to="played")
    ctx.log("CARD_TO", secret_of=ch.index, private=variant, figure=who, card=cards[1], to="played")


def turn_sequence(scenario: Scenario, state: HavenState) -> list[Slot]:
    """HV-INIT-1..4: ascending initiative; a character before a monster type on a tie, two
    characters by their other card (99 for a long rest) then agent index, monster types by type
    order; each summon directly before its summoner, in summoning order."""
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
            init = monster_card(scenario, type_index, deck.current).initiative
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


def slot_label(scenario: Scenario, slot: Slot) -> str:
    """A turn-sequence slot as text: agent, monster type, or ``summon:N``."""
    if slot.kind == CHARACTER_SLOT:
        return scenario.characters[slot.index].id
    if slot.kind == SUMMON_SLOT:
        return f"summon:{slot.index}"
    return scenario.monster_types[slot.index].id


def run_slot(ctx: RuleContext, slot: Slot) -> Steps:
    """HV-ROUND-1, HV-INIT-5/7: the slot's figure(s) take their turn; removed ones are skipped."""
    state = ctx.state
    if slot.kind == CHARACTER_SLOT:
        ch = state.characters[slot.index]
        if not ch.exhausted and not ch.sits_out:
            yield from character_turn(ctx, ch)
    elif slot.kind == SUMMON_SLOT:
        summon = next((s for s in state.summons if s.number == slot.index), None)
        if summon is not None:
            yield from summon_turn(ctx, summon)
    else:
        yield from monster_slot(ctx, slot.index)


def cleanup(ctx: RuleContext) -> Steps:
    """HV-CLEAN-1 steps 1-6."""
    state = ctx.state
    reshuffle_modifier_decks(ctx)  # 1
    end_monster_cards(ctx)  # 2
    for e, level in enumerate(state.elements):  # 3, HV-ELEM-3
        if level != INERT:
            state.elements[e] = WANING if level == STRONG else INERT
            ctx.log(
                "ELEMENT",
                element=ELEMENTS[e],
                state=ELEMENT_STATE_NAMES[state.elements[e]],
            )
    for ch in state.characters:  # 4
        for card in list(ch.round_bonus):
            ch.round_bonus.remove(card)
            fate = ch.active_fate.pop(card)
            (ch.lost if fate == "lost" else ch.discard).append(card)
            ctx.log_card(ch, card, fate)
        ch.shield = ch.retaliate = 0
    for monster in state.monsters:
        monster.shield = monster.retaliate = 0
    if not state.win_met:  # 5, section 19.14
        for ch in state.characters:
            if not ch.exhausted and not ch.sits_out and len(ch.discard) >= 2:
                yield from short_rest(ctx, ch)
    ctx.log("ROUND_END", round=state.round)
    if state.win_met:  # 6, HV-END-1
        state.outcome = WIN
    elif state.round >= ctx.config.max_rounds:  # HV-END-4
        state.outcome = TRUNCATED
    if state.outcome != "running":
        ctx.log("OUTCOME", outcome=state.outcome)
        raise ScenarioEnded
    next_round(ctx)


def next_round(ctx: RuleContext) -> None:
    """HV-CLEAN-1 step 6: the round number increases; per-round marks are cleared."""
    state = ctx.state
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


def short_rest(ctx: RuleContext, ch: CharacterState) -> Steps:
    """HV-SREST-1..3: a random discard card is lost (once, for 1 damage that cannot be negated,
    another random one instead), the rest return to hand; no heal, no item refresh."""
    answer = yield from ask(SHORT_REST, ch.index, [ctx.actions.YES, ctx.actions.NO])
    if answer != ctx.actions.YES:
        return
    card = random_discard(ctx.state, ch, exclude=None)
    answer = yield from ask(
        SHORT_REST_REROLL, ch.index, [ctx.actions.YES, ctx.actions.NO], rest_card=card
    )
    if answer == ctx.actions.YES:
        yield from suffer_damage(ctx, ch, 1, negatable=False)
        if ch.exhausted:
            return
        card = random_discard(ctx.state, ch, exclude=card)
    ch.discard.remove(card)
    ch.lost.append(card)
    ctx.log_card(ch, card, "lost")
    ctx.log("SHORT_REST", figure=label(ctx.scenario, ch), lost=ctx.card_ids(ch, [card])[0])
    for back in ch.discard:
        ctx.log_card(ch, back, "hand")
    ch.hand.extend(ch.discard)
    ch.hand.sort()
    ch.discard.clear()


def random_discard(state: HavenState, ch: CharacterState, exclude: int | None) -> int:
    """HV-SREST-1/2: a uniformly random discard card (scripted picks first, HV-API-10)."""
    options = [k for k in ch.discard if k != exclude]
    script = state.scripted_picks.get(ch.index)
    while script:
        card = script.pop(0)
        if card in options:
            return card
    return options[state.rng.below(len(options))]
