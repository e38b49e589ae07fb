"""A character's turn: the seed's rules for playing two cards, items and the long rest
(section 5, HV-CTURN-*, HV-BOX-*, HV-ITEM-*, HV-CEND-*, section 6.1 HV-LREST-*).

Every decision is a prompt (16.2) posed with :func:`.damage.ask`; everything else is automatic.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass

from .. import actions
from ..actions import ActionSpace
from ..scenario.model import (
    ATTACK,
    CONDITION,
    DISCARD,
    ELEMENTS,
    HEAL,
    HEAL_SELF,
    INFUSE,
    INFUSE_ELEMENT,
    LOOT,
    LOST,
    MOVE,
    NEXT_ATTACK_ADVANTAGE,
    NEXT_MOVE_BONUS,
    PERSISTENT,
    RETALIATE,
    ROUND,
    SHIELD,
    SUFFER_DAMAGE,
    SUMMON,
    Ability,
)
from .area import is_ranged, target_sets
from .attack import AttackSpec, resolve_attack, valid_targets
from .context import RuleContext
from .damage import TurnAborted, add_condition, heal, loot_cells, loot_in_reach, suffer_damage
from .elements import consume, infuse
from .figures import allies_of, board_for, has, label, occupant, on_map
from .path_graph import PathGraph, character_path
from .prompts import (
    AREA_TARGET,
    ATTACK_TARGET,
    CONSUME,
    HEAL_TARGET,
    LONG_REST_LOSE,
    MOVE_DEST,
    SUMMON_HEX,
    WINDOW_0,
    WINDOW_1,
    WINDOW_2,
    Prompt,
    ask,
)
from .state import CONSUMED, READY, SPENT, CharacterState, Figure, SummonState
from .terrain import follow, move_kind, on_terrain
from .turns import abort_turn, begin_turn, end_turn

Turn = Generator[Prompt, int, None]

DEFAULT_ATTACK = Ability(ATTACK, 2)  # HV-BOX-5: the top box as Attack 2 (melee)
DEFAULT_MOVE = Ability(MOVE, 2)  # HV-BOX-5: the bottom box as Move 2


@dataclass
class TurnEffects:
    """HV-ITEM-4: item effects waiting for the next Move / Attack ability of this turn."""

    move_bonus: int = 0
    advantage: bool = False


@dataclass(frozen=True)
class BoxContext:
    """The card box being executed, for the prompts' context (16.5)."""

    card: int
    half: int


def ask_box(
    ch: CharacterState,
    where: BoxContext,
    kind: str,
    legal: list[int],
    **context: object,
) -> Generator[Prompt, int, int]:
    """Pose a prompt of the box being executed; its card and half are the context (16.5)."""
    return ask(kind, ch.index, legal, card=where.card, half=where.half, **context)


def ask_hex(
    ctx: RuleContext,
    ch: CharacterState,
    where: BoxContext,
    kind: str,
    cells: list[int],
    **context: object,
) -> Generator[Prompt, int, int]:
    """A prompt of the box being executed: one of ``cells`` (HEX actions), or NO."""
    legal = [ctx.actions.hex_action(c) for c in cells] + [ctx.actions.NO]
    return ask_box(ch, where, kind, legal, **context)


def character_turn(ctx: RuleContext, ch: CharacterState) -> Turn:
    """HV-CTURN-1..4, HV-LREST-6: wound, then a long rest, a stunned skip, or the two cards;
    then the end of turn. A character removed mid-turn runs nothing more (HV-CTURN-4)."""
    start = begin_turn(ctx, ch)
    if ch.revealed < 2:  # 16.8 variant: the other played card becomes public now
        ch.revealed = 2
        if ch.second is not None:
            ctx.log("REVEAL", figure=label(ctx.scenario, ch), card=ctx.card_ids(ch, [ch.second])[0])
    try:
        if has(ch, "wound"):  # HV-CTURN-2
            ctx.log("WOUND", figure=label(ctx.scenario, ch), amount=1)
            yield from suffer_damage(ctx, ch, 1)
        if ch.long_rest:
            yield from long_rest(ctx, ch)
        elif has(ch, "stun"):  # HV-CTURN-3
            ctx.log("STUN_SKIP", figure=label(ctx.scenario, ch))
            for card in (ch.lead, ch.second):
                move_card(ctx, ch, card, DISCARD)
        else:
            yield from play_cards(ctx, ch)
        loot_cells(ctx, ch, [ch.cell])  # HV-CEND-1
        end_turn(ctx, ch, start)  # HV-CEND-2/3
    except TurnAborted:
        abort_turn(ctx)
    ch.acted = True


def play_cards(ctx: RuleContext, ch: CharacterState) -> Turn:
    """HV-BOX-1..3, HV-ITEM-1/2: item window, a first box of either card and half, item window,
    the other card's other half, item window."""
    effects = TurnEffects()
    cards = (ch.lead, ch.second)
    everything = [ctx.actions.box_action(s, h, m) for s in (0, 1) for h in (0, 1) for m in (0, 1)]
    first = yield from item_window(ctx, ch, WINDOW_0, everything, effects)
    _, (slot, half, mode) = ctx.actions.decode(first)
    yield from execute_box(ctx, ch, cards[slot], half, mode, effects)
    rest = [ctx.actions.box_action(1 - slot, 1 - half, m) for m in (0, 1)]
    second = yield from item_window(ctx, ch, WINDOW_1, rest, effects)
    _, (_, half2, mode2) = ctx.actions.decode(second)
    yield from execute_box(ctx, ch, cards[1 - slot], half2, mode2, effects)
    yield from item_window(ctx, ch, WINDOW_2, [ctx.actions.NO], effects)


def item_window(
    ctx: RuleContext, ch: CharacterState, kind: str, choices: list[int], effects: TurnEffects
) -> Generator[Prompt, int, int]:
    """HV-ITEM-1/2: any number of ready items, then one of ``choices`` (a box, or ending)."""
    while True:
        items = [ctx.actions.item_action(i) for i, s in enumerate(ch.items) if s == READY]
        answer = yield from ask(kind, ch.index, choices + items)
        if answer not in items:
            return answer
        use_item(ctx, ch, answer - ctx.actions.ITEM_BASE, effects)


def use_item(ctx: RuleContext, ch: CharacterState, index: int, effects: TurnEffects) -> None:
    """HV-ITEM-3/4: the item is spent or consumed and its effect applies at once."""
    item = ctx.scenario.characters[ch.index].items[index]
    ch.items[index] = SPENT if item.use == "spent" else CONSUMED
    ctx.log("ITEM_USE", figure=label(ctx.scenario, ch), item=item.id)
    if item.effect == NEXT_MOVE_BONUS:
        effects.move_bonus += item.value
    elif item.effect == NEXT_ATTACK_ADVANTAGE:
        effects.advantage = True
    elif item.effect == HEAL_SELF:
        heal(ctx, ch, item.value)
    elif item.effect == INFUSE_ELEMENT:
        infuse(ctx, item.element)


def execute_box(
    ctx: RuleContext, ch: CharacterState, card: int, half: int, mode: int, effects: TurnEffects
) -> Turn:
    """HV-BOX-4..9: the box's abilities top to bottom (or the default Attack 2 / Move 2), then
    the card moves to its pile before anything else happens (HV-BOX-8)."""
    printed = ctx.scenario.characters[ch.index].cards[card]
    box = printed.bottom if half else printed.top
    where = BoxContext(card, half)
    ctx.log(
        "BOX",
        figure=label(ctx.scenario, ch),
        card=printed.id,
        half=("top", "bottom")[half],
        mode=("printed", "default")[mode],
    )
    if mode == actions.DEFAULT:  # HV-BOX-5/6
        ability = DEFAULT_MOVE if half else DEFAULT_ATTACK
        yield from perform(ctx, ch, ability, effects, where)
        move_card(ctx, ch, card, DISCARD)
        return
    performed = False
    infusions = []
    for ability in box.abilities:
        if ability.kind == INFUSE:
            infusions.append(ability.element)
            continue
        performed = (yield from perform(ctx, ch, ability, effects, where)) or performed
    if performed:  # HV-ELEM-2: an infusion needs some part of the box performed
        for element in infusions:
            infuse(ctx, element)
    move_card(ctx, ch, card, box.fate if performed else DISCARD)  # HV-BOX-9


def move_card(ctx: RuleContext, ch: CharacterState, card: int, fate: str) -> None:
    """HV-BOX-8/9: a played card goes to discard, lost, or the active area (round bonus or
    persistent, with the pile it goes to afterwards)."""
    ch.played.remove(card)
    if fate == DISCARD:
        ch.discard.append(card)
    elif fate == LOST:
        ch.lost.append(card)
    elif fate == ROUND:
        ch.round_bonus.append(card)
        ch.active_fate[card] = DISCARD
    elif fate == PERSISTENT:
        ch.persistent.append(card)
        ch.active_fate[card] = LOST
    ctx.log_card(ch, card, "active" if fate in (ROUND, PERSISTENT) else fate)


def perform(
    ctx: RuleContext, ch: CharacterState, ability: Ability, effects: TurnEffects, where: BoxContext
) -> Generator[Prompt, int, bool]:
    """HV-BOX-7/10/11, section 7: one ability; returns whether it was carried out (HV-BOX-9)."""
    kind = ability.kind
    if kind == MOVE:
        return (yield from perform_move(ctx, ch, ability, effects, where))
    if kind == ATTACK:
        return (yield from perform_attack(ctx, ch, ability, effects, where))
    if kind == HEAL:
        return (yield from perform_heal(ctx, ch, ability, where))
    if kind == SUMMON:
        return (yield from perform_summon(ctx, ch, ability, where))
    if kind == SHIELD:  # HV-ABL-4
        ch.shield += ability.value
    elif kind == RETALIATE:  # HV-ABL-5
        ch.retaliate += ability.value
    elif kind == CONDITION:  # HV-ABL-6
        for condition in ability.conditions:
            add_condition(ctx, ch, condition)
    elif kind == LOOT:  # HV-ABL-8
        loot_in_reach(ctx, ch, ability.value)
    elif kind == SUFFER_DAMAGE:  # HV-ABL-11: mandatory
        yield from suffer_damage(ctx, ch, ability.value)
    return True


def _consumable(ctx: RuleContext, ability: Ability) -> int | None:
    """HV-ELEM-4: the element index a consume augment may use now (strong or waning), if any."""
    if ability.consume is None:
        return None
    element = ELEMENTS.index(ability.consume.element)
    return element if ctx.state.elements[element] >= 1 else None


def offer_consume(
    ctx: RuleContext, ch: CharacterState, ability: Ability, where: BoxContext
) -> Generator[Prompt, int, bool]:
    """HV-BOX-11 step 2, HV-ELEM-4: ask first; a YES consumes the element at once."""
    element = _consumable(ctx, ability)
    if element is None:
        return False
    answer = yield from ask_box(
        ch, where, CONSUME, [ctx.actions.YES, ctx.actions.NO], ability=ability.kind, element=element
    )
    if answer != ctx.actions.YES:
        return False
    consume(ctx, element, ch)
    return True


def move_destinations(graph: PathGraph, points: int) -> list[int]:
    """HV-ABL-1, HV-MAP-4, HV-TER-7: cells other than its own that the character can end a Move
    in, at the terrain's costs."""
    endable, start = graph.endable, graph.start
    return [
        c
        for c, d in enumerate(graph.points)
        if d is not None and d <= points and endable[c] and c != start
    ]


def perform_move(
    ctx: RuleContext, ch: CharacterState, ability: Ability, effects: TurnEffects, where: BoxContext
) -> Generator[Prompt, int, bool]:
    """HV-ABL-1 with HV-BOX-10/11 and Swift Boots (HV-ITEM-4); Immobilize stops any Move but a
    teleport (HV-TEL-4)."""
    if has(ch, "immobilize") and not ability.teleport:
        return False
    kind = move_kind(ability)  # HV-JMP-1, HV-FLY-1, HV-TEL-1
    # HV-TER-7: destinations by points
    graph = ctx.kernels.path_graph(ctx, ch, kind, price_negatives=False)
    consume_bonus = ability.consume.bonus if _consumable(ctx, ability) is not None else 0
    most = ability.value + effects.move_bonus + consume_bonus
    cells = move_destinations(graph, most)
    if not cells:
        return False
    points = ability.value + effects.move_bonus
    effects.move_bonus = 0
    if (yield from offer_consume(ctx, ch, ability, where)):
        points += ability.consume.bonus  # type: ignore[union-attr]
    if points != most:
        cells = move_destinations(graph, points)
    answer = yield from ask_hex(ctx, ch, where, MOVE_DEST, cells, ability=MOVE, value=points)
    if answer == ctx.actions.NO:
        return False
    yield from follow(ctx, ch, kind, character_path(ctx, graph, answer, points))
    return True


def attack_values(
    ctx: RuleContext, ch: CharacterState, ability: Ability, effects: TurnEffects, where: BoxContext
) -> Generator[Prompt, int, tuple[int, tuple[str, ...], bool]]:
    """An attack's value, conditions and advantage: Seer's Lens's advantage is used up by it
    (HV-ITEM-4), and an offered Consume adds its bonus and conditions (HV-ABL-10)."""
    advantage = effects.advantage
    effects.advantage = False
    value, conditions = ability.value, ability.conditions
    if (yield from offer_consume(ctx, ch, ability, where)):
        value += ability.consume.bonus  # type: ignore[union-attr]
        conditions = conditions + ability.consume.conditions  # type: ignore[union-attr]
    return value, conditions, advantage


def perform_attack(
    ctx: RuleContext, ch: CharacterState, ability: Ability, effects: TurnEffects, where: BoxContext
) -> Generator[Prompt, int, bool]:
    """HV-ABL-2 with HV-BOX-10/11, HV-ABL-12 and Seer's Lens (HV-ITEM-4): one target at a time,
    each resolved completely before the next is chosen."""
    if ability.area:  # HV-AOE-5
        return (yield from perform_area_attack(ctx, ch, ability, effects, where))
    reach = ability.range or 1
    if has(ch, "disarm") or not valid_targets(ctx, ch, reach):
        return False
    value, conditions, advantage = yield from attack_values(ctx, ch, ability, effects, where)
    spec = AttackSpec(value, reach, ability.range > 0, ability.pierce, conditions, advantage)
    attacked: list[Figure] = []
    yield from attack_targets(ctx, ch, spec, ability.targets, attacked, [], where)
    return bool(attacked)


def attack_targets(
    ctx: RuleContext,
    ch: CharacterState,
    spec: AttackSpec,
    count: int,
    attacked: list[Figure],
    cells: list[int],
    where: BoxContext,
) -> Generator[Prompt, int, None]:
    """HV-ABL-2, HV-AOE-12: up to ``count`` targets, one ATTACK_TARGET prompt each (``NO`` ends
    it): each a valid target within ``spec.reach`` that the ability has not attacked
    (``attacked``, at ``cells``, which grow with them), resolved before the next is chosen."""
    for _ in range(count):
        if not on_map(ctx.state, ch):
            return
        options = [
            t for t in valid_targets(ctx, ch, spec.reach) if not any(t is a for a in attacked)
        ]
        if not options:
            return
        answer = yield from ask_hex(
            ctx,
            ch,
            where,
            ATTACK_TARGET,
            [t.cell for t in options],
            ability=ATTACK,
            value=spec.value,
            targets=tuple(cells),
        )
        if answer == ctx.actions.NO:
            return
        target = occupant(ctx.state, answer)
        attacked.append(target)
        cells.append(answer)
        yield from resolve_attack(ctx, ch, target, spec)


# --- area-of-effect attacks (HV-AOE-4..6) ---------------------------------------------------------


def area_options(space: ActionSpace, sets: set[frozenset[int]], chosen: list[int]) -> list[int]:
    """HV-AOE-6: the AREA_TARGET prompt's legal actions after ``chosen``: HEX of each enemy cell
    that some placement attacks together with all of ``chosen``; NO first (no attack) or once one
    placement attacks exactly ``chosen``."""
    picked = frozenset(chosen)
    cells = {c for s in sets if picked < s for c in s - picked}
    legal = [space.hex_action(c) for c in sorted(cells)]
    if not chosen or picked in sets:
        legal.append(space.NO)
    return legal


def perform_area_attack(
    ctx: RuleContext, ch: CharacterState, ability: Ability, effects: TurnEffects, where: BoxContext
) -> Generator[Prompt, int, bool]:
    """HV-AOE-4..6 with HV-BOX-10/11 and Seer's Lens (HV-ITEM-4): the character places the area
    by naming the enemies it attacks, one AREA_TARGET prompt each, in the order they are attacked;
    then each is attacked with its own modifier draw."""
    reach = ability.range or 1
    if has(ch, "disarm") or not target_sets(ctx, ch, ability.area, reach):
        return False
    value, conditions, advantage = yield from attack_values(ctx, ch, ability, effects, where)
    sets = target_sets(ctx, ch, ability.area, reach)
    chosen: list[int] = []
    while legal := area_options(ctx.actions, sets, chosen):
        if legal == [ctx.actions.NO] and chosen:
            break  # one placement attacks exactly these and no more can join
        answer = yield from ask_box(
            ch, where, AREA_TARGET, legal, ability=ATTACK, value=value, targets=tuple(chosen)
        )
        if answer == ctx.actions.NO:
            break
        chosen.append(answer)
    if not chosen:
        return False
    spec = AttackSpec(value, reach, is_ranged(ability.area), ability.pierce, conditions, advantage)
    victims = [occupant(ctx.state, c) for c in chosen]
    ctx.log("AREA", figure=label(ctx.scenario, ch), targets=chosen)
    for victim in victims:
        if on_map(ctx.state, victim) and on_map(ctx.state, ch):
            yield from resolve_attack(ctx, ch, victim, spec)
    # HV-AOE-11: an area's added targets, within its range (a melee area's: 1, its spec's reach)
    yield from attack_targets(ctx, ch, spec, ability.add_targets, victims, list(chosen), where)
    return True


def perform_heal(
    ctx: RuleContext, ch: CharacterState, ability: Ability, where: BoxContext
) -> Generator[Prompt, int, bool]:
    """HV-ABL-3: Heal X on itself, or on itself or an ally in range and sight."""
    board = board_for(ctx.scenario)
    recipients = [ch]
    if ability.range:
        recipients += [
            f
            for f in allies_of(ctx.state, ch)
            if board.in_range_and_sight(ch.cell, f.cell, ability.range)
        ]
    answer = yield from ask_hex(
        ctx,
        ch,
        where,
        HEAL_TARGET,
        [f.cell for f in recipients],
        ability=HEAL,
        value=ability.value,
    )
    if answer == ctx.actions.NO:
        return False
    heal(ctx, occupant(ctx.state, answer), ability.value)
    return True


def perform_summon(
    ctx: RuleContext, ch: CharacterState, ability: Ability, where: BoxContext
) -> Generator[Prompt, int, bool]:
    """HV-ABL-7: the summon appears in an empty floor hex next to the summoner; HV-TER-9: not
    on a trap, hazardous or difficult terrain."""
    board = board_for(ctx.scenario)
    empty = [
        c
        for c in board.neighbours[ch.cell]
        if board.floor[c] and occupant(ctx.state, c) is None and not on_terrain(ctx, c)
    ]
    if not empty:
        return False
    answer = yield from ask_hex(ctx, ch, where, SUMMON_HEX, empty, ability=SUMMON)
    if answer == ctx.actions.NO:
        return False
    spec = ctx.scenario.summon(ability.summon)
    state = ctx.state
    summon = SummonState(
        owner=ch.index,
        summon=spec.id,
        card=where.card,
        hp=spec.hp,
        max_hp=spec.hp,
        move=spec.move,
        attack=spec.attack,
        range=spec.range,
        cell=answer,
        summoned_round=state.round,
        number=state.next_summon_number,
    )
    state.next_summon_number += 1
    state.summons.append(summon)
    ctx.log(
        "SUMMON",
        figure=label(ctx.scenario, summon),
        summoner=label(ctx.scenario, ch),
        cell=answer,
    )
    return True


def long_rest(ctx: RuleContext, ch: CharacterState) -> Turn:
    """HV-LREST-2..5, in order: lose a chosen discard card (none if the pile is empty), take the
    rest back, Heal 2 on itself, refresh spent items (not consumed ones)."""
    ctx.log("LONG_REST", figure=label(ctx.scenario, ch))
    if ch.discard:
        options = [ctx.actions.card_action(k) for k in ch.discard]
        answer = yield from ask(LONG_REST_LOSE, ch.index, options)
        card = answer - ctx.actions.CARD_BASE
        ch.discard.remove(card)
        ch.lost.append(card)
        ctx.log_card(ch, card, "lost")
    for card in ch.discard:
        ctx.log_card(ch, card, "hand")
    ch.hand.extend(ch.discard)
    ch.hand.sort()
    ch.discard.clear()
    heal(ctx, ch, 2)
    for i, item_state in enumerate(ch.items):
        if item_state == SPENT:
            ch.items[i] = READY
