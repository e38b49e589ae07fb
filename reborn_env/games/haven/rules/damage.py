"""Damage, healing, negation, exhaustion, death and looting (section 11, HV-LOOT-1..3).

``suffer_damage`` is a generator because a character's agent may answer a ``DAMAGE_RESPONSE``
(HV-DMG-3) in the middle of anyone's turn. Removing the figure whose turn is running raises
:class:`TurnAborted` (HV-CTURN-4, HV-ELEM-7); the last character's exhaustion raises
:class:`ScenarioEnded` (HV-END-3).
"""

from __future__ import annotations

from collections.abc import Generator

from .context import RuleContext
from .figures import board_for, label, on_map
from .prompts import DAMAGE_RESPONSE, PICK_DISCARD, Prompt, ask
from .state import LOSS, WIN, CharacterState, Figure, MonsterState, SummonState


class TurnAborted(Exception):
    """The figure whose turn is running left the map: its turn ends at once (HV-CTURN-4)."""


class ScenarioEnded(Exception):
    """The outcome is decided in the middle of a round (HV-END-3)."""


def suffer_damage(
    ctx: RuleContext, fig: Figure, amount: int, negatable: bool = True
) -> Generator[Prompt, int, None]:
    """HV-DMG-1..3: ``fig`` suffers ``amount`` damage; a character may negate it by losing cards."""
    if amount <= 0 or not on_map(ctx.state, fig):
        return
    can_negate = negatable and ctx.config.allow_damage_negation
    if (
        isinstance(fig, CharacterState)
        and can_negate
        and (yield from negate_damage(ctx, fig, amount))
    ):
        return
    lost = min(amount, fig.hp)
    fig.hp -= lost
    ctx.log("DAMAGE", figure=label(ctx.scenario, fig), amount=lost, hp=fig.hp)
    if fig.hp < 1:
        if isinstance(fig, CharacterState):
            exhaust(ctx, fig)
        else:
            remove_figure(ctx, fig)


def negate_damage(
    ctx: RuleContext, ch: CharacterState, amount: int
) -> Generator[Prompt, int, bool]:
    """HV-DMG-3: suffer (``NO``), lose one hand card, or lose two discard cards instead."""
    legal = [ctx.actions.NO] + [ctx.actions.card_action(k) for k in ch.hand]
    if len(ch.discard) >= 2:
        legal.append(ctx.actions.LOSE_TWO_DISCARDS)
    answer = yield from ask(DAMAGE_RESPONSE, ch.index, legal, value=amount)
    if answer == ctx.actions.NO:
        return False
    if answer == ctx.actions.LOSE_TWO_DISCARDS:
        picked: list[int] = []
        for _ in range(2):
            options = [ctx.actions.card_action(k) for k in ch.discard if k not in picked]
            first = picked[0] if picked else -1
            pick = yield from ask(PICK_DISCARD, ch.index, options, value=amount, card=first)
            picked.append(pick - ctx.actions.CARD_BASE)
    else:
        picked = [answer - ctx.actions.CARD_BASE]
    for card in picked:
        zone = ch.hand if card in ch.hand else ch.discard
        zone.remove(card)
        ch.lost.append(card)
        ctx.log_card(ch, card, "lost")
    ctx.log("NEGATE", figure=label(ctx.scenario, ch), amount=amount, cards=ctx.card_ids(ch, picked))
    return True


def heal(ctx: RuleContext, fig: Figure, amount: int) -> None:
    """HV-DMG-2, HV-COND-2/3: a heal removes poison (and then restores nothing) and wound."""
    poisoned = "poison" in fig.conditions
    for condition in ("poison", "wound"):
        if condition in fig.conditions:
            remove_condition(ctx, fig, condition)
    before = fig.hp
    if not poisoned:
        fig.hp = min(fig.max_hp, fig.hp + amount)
    ctx.log("HEAL", figure=label(ctx.scenario, fig), amount=fig.hp - before, hp=fig.hp)


def add_condition(ctx: RuleContext, fig: Figure, condition: str) -> None:
    """HV-COND-1: a figure has each condition at most once; re-applying refreshes it, which
    HV-CEND-2 honours for the figure whose turn is running."""
    if condition not in fig.conditions:
        fig.conditions.append(condition)
        fig.conditions.sort()
    if fig is ctx.turn_figure:
        ctx.fresh_conditions.add(condition)
    ctx.log("COND_ADD", figure=label(ctx.scenario, fig), condition=condition)


def remove_condition(ctx: RuleContext, fig: Figure, condition: str) -> None:
    """End a condition (HV-CEND-2, HV-COND-2/3)."""
    fig.conditions.remove(condition)
    ctx.log("COND_REMOVE", figure=label(ctx.scenario, fig), condition=condition)


def remove_figure(ctx: RuleContext, fig: MonsterState | SummonState) -> None:
    """HV-DMG-1, HV-ATK-4, HV-LOOT-1: a monster dies and drops a coin; a summon is dismissed and
    its card goes to lost (HV-ABL-7)."""
    state = ctx.state
    ctx.log("DEATH", figure=label(ctx.scenario, fig), cell=fig.cell)
    if isinstance(fig, MonsterState):
        state.monsters.remove(fig)
        state.coins[fig.cell] = state.coins.get(fig.cell, 0) + 1
        if not state.monsters:
            state.win_met = True  # HV-END-1/2
    else:
        dismiss_summon(ctx, fig)
    if fig is ctx.turn_figure:
        raise TurnAborted


def dismiss_summon(ctx: RuleContext, summon: SummonState) -> None:
    """HV-ABL-7: the summon leaves the map and its card leaves the active area for lost."""
    ctx.state.summons.remove(summon)
    owner = ctx.state.characters[summon.owner]
    if summon.card in owner.persistent and not any(
        s.card == summon.card and s.owner == summon.owner for s in ctx.state.summons
    ):
        owner.persistent.remove(summon.card)
        owner.lost.append(summon.card)
        owner.active_fate.pop(summon.card, None)
        ctx.log_card(owner, summon.card, "lost")


def exhaust(ctx: RuleContext, ch: CharacterState) -> None:
    """HV-EXH-2/3: every card of the character goes to lost, its summons go, it leaves the map;
    HV-END-3: the last exhaustion ends the scenario at once."""
    state = ctx.state
    for summon in [s for s in state.summons if s.owner == ch.index]:
        ctx.log("DEATH", figure=label(ctx.scenario, summon), cell=summon.cell)
        dismiss_summon(ctx, summon)
    for zone in (ch.hand, ch.played, ch.discard, ch.round_bonus, ch.persistent):
        ch.lost.extend(zone)
        zone.clear()
    ch.lost.sort()
    ch.active_fate.clear()
    ch.exhausted = True
    ch.cell = None
    ch.shield = ch.retaliate = 0
    ctx.log("EXHAUSTED", figure=label(ctx.scenario, ch))
    if all(c.exhausted for c in state.characters):
        state.outcome = WIN if state.win_met else LOSS
        ctx.log("OUTCOME", outcome=state.outcome)
        raise ScenarioEnded
    if ch is ctx.turn_figure:
        raise TurnAborted


def loot_cells(ctx: RuleContext, ch: CharacterState, cells: list[int]) -> None:
    """HV-LOOT-2/3: take every coin (2 gold each) and treasure tile in ``cells``; a treasure is
    resolved at once (Heal and gold)."""
    state = ctx.state
    scenario = ctx.scenario
    for cell in cells:
        coins = state.coins.pop(cell, 0)
        treasure = state.treasures.pop(cell, None)
        if not coins and treasure is None:
            continue
        tile = next((t for t in scenario.map.treasures if t.number == treasure), None)
        gold = coins * scenario.rules.coin_gold + (tile.gold if tile else 0)
        ch.gold += gold
        ctx.log(
            "LOOT",
            figure=label(scenario, ch),
            cell=cell,
            coins=coins,
            gold=gold,
            treasure=treasure,
        )
        if tile is not None:
            heal(ctx, ch, tile.heal)


def loot_in_reach(ctx: RuleContext, ch: CharacterState, reach: int) -> None:
    """HV-ABL-8: Loot X takes everything within range X and line of sight, own hex included."""
    board = board_for(ctx.scenario)
    cells = sorted(set(ctx.state.coins) | set(ctx.state.treasures))
    assert ch.cell is not None
    loot_cells(ctx, ch, [c for c in cells if board.in_range_and_sight(ch.cell, c, reach)])
