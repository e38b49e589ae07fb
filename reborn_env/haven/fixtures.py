"""Test fixtures: a game set up at a chosen point of a round (HV-API-10).

A fixture is a small dict that names only what a test needs; everything unnamed takes the
defaults HV-API-10 lists (default terrain; no monsters, summons or tokens unless listed; an
unlisted character at its start hex, unhurt, all cards in hand, sitting the round out; round 1;
inert elements; decks shuffled by the seed apart from the tops a fixture fixes). The result is
checked by the same validation as a loaded position (:func:`.positions.check_consistency`).
"""

from __future__ import annotations

from typing import Any

from ..common.errors import PositionError
from ..common.positions import choice, fail
from .positions import _StateReader, check_consistency
from .round import LONG_REST_INITIATIVE
from .scenario import ELEMENTS, Scenario
from .setup import new_state
from .state import (
    CHARACTER_SLOT,
    ELEMENT_STATE_NAMES,
    MONSTER_SLOT,
    PHASES,
    SELECT,
    SUMMON_SLOT,
    TURNS,
    HavenState,
    MonsterState,
    Slot,
    SummonState,
)

FIXTURE_KEYS = (
    "round",
    "phase",
    "sequence",
    "next",
    "characters",
    "monsters",
    "summons",
    "coins",
    "treasures",
    "elements",
    "monster_cards",
    "monster_amd",
    "short_rest_picks",
)
CHARACTER_KEYS = (
    "cell",
    "hp",
    "conditions",
    "played",
    "long_rest",
    "initiative",
    "hand",
    "discard",
    "lost",
    "round_bonus",
    "persistent",
    "items",
    "gold",
    "amd",
    "shield",
    "retaliate",
    "acted",
)


def state_from_fixture(scenario: Scenario, seed: int, fixture: dict[str, Any]) -> HavenState:
    """The state a fixture describes; PositionError names any field that is wrong."""
    if not isinstance(fixture, dict):
        raise PositionError(f"a fixture must be a dict, got {type(fixture).__name__}")
    _known("fixture", fixture, FIXTURE_KEYS)
    state = new_state(scenario, seed)
    sr = _StateReader(scenario, {})
    state.round = fixture.get("round", 1)
    state.phase = PHASES[choice("phase", fixture.get("phase", TURNS), PHASES)]
    state.monsters = [_monster(sr, i, m) for i, m in enumerate(fixture.get("monsters", []))]
    state.coins = {}
    for i, xy in enumerate(fixture.get("coins", [])):
        cell = sr.cell(f"coins[{i}]", xy)
        state.coins[cell] = state.coins.get(cell, 0) + 1
    state.treasures = {
        sr.cell(f"treasures[{i}].cell", t["cell"]): t["number"]
        for i, t in enumerate(fixture.get("treasures", []))
    }
    for name, level in fixture.get("elements", {}).items():
        element = choice("elements", name, ELEMENTS)
        state.elements[element] = choice(f"elements.{name}", level, ELEMENT_STATE_NAMES)
    listed = fixture.get("characters", {})
    _known("characters", listed, [c.id for c in scenario.characters])
    for ch in state.characters:
        cls = scenario.characters[ch.index]
        if cls.id in listed:
            _character(sr, state, ch.index, listed[cls.id])
        else:
            ch.sits_out = True
            ch.acted = True
    for i, node in enumerate(fixture.get("summons", [])):
        _summon(sr, state, i, node)
    _monster_cards(scenario, state, fixture.get("monster_cards", {}))
    _top(state.monster_amd.draw, fixture.get("monster_amd", []), "monster_amd")
    for agent, cards in fixture.get("short_rest_picks", {}).items():
        index = choice("short_rest_picks", agent, [c.id for c in scenario.characters])
        ids = [c.id for c in scenario.characters[index].cards]
        state.scripted_picks[index] = [choice(f"short_rest_picks.{agent}", c, ids) for c in cards]
    if state.phase == TURNS:
        state.sequence = _sequence(scenario, state, fixture.get("sequence"))
        state.slot = fixture.get("next", 0)
        for slot in state.sequence[: state.slot]:
            if slot.kind == CHARACTER_SLOT:
                state.characters[slot.index].acted = True
    state.win_met = not state.monsters
    check_consistency(scenario, state)
    return state


def _known(where: str, node: dict[str, Any], keys: Any) -> None:
    unknown = sorted(set(node) - set(keys))
    if unknown:
        raise fail(where, f"unknown keys {unknown}; known: {list(keys)}")


def _top(draw: list[str], top: list[str], field: str) -> None:
    """Put the named cards on top of a shuffled draw pile, in order."""
    for name in top:
        if name not in draw:
            raise fail(field, f"{name!r} is not (or no longer) in the deck")
        draw.remove(name)
    draw[:0] = top


def _monster(sr: _StateReader, i: int, node: dict[str, Any]) -> MonsterState:
    scenario = sr.scenario
    f = f"monsters[{i}]"
    _known(f, node, ("type", "rank", "standee", "cell", "hp", "conditions", "shield", "retaliate"))
    t = choice(f"{f}.type", node["type"], [t.id for t in scenario.monster_types])
    rank = node.get("rank", "normal")
    hp = scenario.monster_types[t].stats(rank).hp
    return MonsterState(
        type=t,
        rank=rank,
        standee=node["standee"],
        hp=node.get("hp", hp),
        max_hp=hp,
        cell=sr.cell(f"{f}.cell", node["cell"]),
        conditions=sr.conditions(f"{f}.conditions", node.get("conditions", [])),
        shield=node.get("shield", 0),
        retaliate=node.get("retaliate", 0),
    )


def _character(sr: _StateReader, state: HavenState, index: int, node: dict[str, Any]) -> None:
    scenario = sr.scenario
    cls = scenario.characters[index]
    f = f"characters.{cls.id}"
    _known(f, node, CHARACTER_KEYS)
    ch = state.characters[index]
    ids = [c.id for c in cls.cards]

    def cards(zone: str) -> list[int]:
        return [choice(f"{f}.{zone}", c, ids) for c in node.get(zone, [])]

    if "cell" in node:
        ch.cell = sr.cell(f"{f}.cell", node["cell"])
    ch.hp = node.get("hp", ch.hp)
    ch.conditions = sr.conditions(f"{f}.conditions", node.get("conditions", []))
    ch.played = cards("played")
    if ch.played:
        if len(ch.played) != 2:
            raise fail(f"{f}.played", "name the two played cards, leading card first")
        ch.lead, ch.second = ch.played
    ch.long_rest = node.get("long_rest", False)
    ch.discard = cards("discard")
    ch.lost = cards("lost")
    ch.round_bonus = cards("round_bonus")
    ch.persistent = cards("persistent")
    ch.active_fate = {k: "discard" for k in ch.round_bonus} | {k: "lost" for k in ch.persistent}
    placed = ch.played + ch.discard + ch.lost + ch.round_bonus + ch.persistent
    if "hand" in node:
        ch.hand = sorted(cards("hand"))
        if sorted(ch.hand + placed) != list(range(len(ids))):
            raise fail(f, f"the listed zones must hold each of {ids} exactly once")
    else:
        if len(set(placed)) != len(placed):
            raise fail(f, "a card is listed in two zones")
        ch.hand = [k for k in range(len(ids)) if k not in placed]
    for item_id, item_state in node.get("items", {}).items():
        slot = choice(f"{f}.items", item_id, [i.id for i in cls.items])
        ch.items[slot] = item_state
    ch.gold = node.get("gold", 0)
    _top(ch.amd.draw, node.get("amd", []), f"{f}.amd")
    ch.shield = node.get("shield", 0)
    ch.retaliate = node.get("retaliate", 0)
    ch.acted = node.get("acted", False)
    if ch.long_rest:
        ch.initiative = LONG_REST_INITIATIVE
    elif ch.lead is not None:
        ch.initiative = cls.cards[ch.lead].initiative
    ch.initiative = node.get("initiative", ch.initiative)
    ch.revealed = 0 if state.phase == SELECT else 2


def _summon(sr: _StateReader, state: HavenState, i: int, node: dict[str, Any]) -> None:
    scenario = sr.scenario
    f = f"summons[{i}]"
    _known(f, node, ("owner", "cell", "hp", "conditions", "summoned_round", "summon"))
    owner = choice(f"{f}.owner", node["owner"], [c.id for c in scenario.characters])
    ch = state.characters[owner]
    cls = scenario.characters[owner]
    summon_card, printed = next(
        (
            (k, a.summon)
            for k, c in enumerate(cls.cards)
            for b in (c.top, c.bottom)
            for a in b.abilities
            if a.summon is not None
        ),
        (None, None),
    )
    if summon_card is None:
        raise fail(f"{f}.owner", f"{cls.id} has no summon card")
    spec = scenario.summon(node.get("summon", printed))
    for zone in (ch.hand, ch.discard, ch.lost, ch.played):
        if summon_card in zone:
            zone.remove(summon_card)
    if summon_card not in ch.persistent:
        ch.persistent.append(summon_card)
    ch.active_fate[summon_card] = "lost"
    state.summons.append(
        SummonState(
            owner=owner,
            summon=spec.id,
            card=summon_card,
            hp=node.get("hp", spec.hp),
            max_hp=spec.hp,
            move=spec.move,
            attack=spec.attack,
            range=spec.range,
            cell=sr.cell(f"{f}.cell", node["cell"]),
            summoned_round=node.get("summoned_round", 0),
            number=state.next_summon_number,
            conditions=sr.conditions(f"{f}.conditions", node.get("conditions", [])),
        )
    )
    state.next_summon_number += 1


def _monster_cards(scenario: Scenario, state: HavenState, cards: dict[str, str]) -> None:
    """TURNS: the type's current card; other phases: the top of its ability draw pile."""
    types = [t.id for t in scenario.monster_types]
    for type_id, card in cards.items():
        deck = state.monster_decks[choice("monster_cards", type_id, types)]
        if card not in deck.draw:
            raise fail(f"monster_cards.{type_id}", f"{card!r} is not a {type_id} card")
        deck.draw.remove(card)
        if state.phase == TURNS:
            deck.current = card
        else:
            deck.draw.insert(0, card)


def _sequence(scenario: Scenario, state: HavenState, names: list[str] | None) -> list[Slot]:
    """The fixture's turn sequence, or the default: listed characters with played cards or a
    long rest, and monster types with a current card, in initiative order (HV-INIT-1..4)."""
    from .round import turn_sequence

    if names is None:
        return turn_sequence(_Sequencer(scenario, state))  # type: ignore[arg-type]
    agents = [c.id for c in scenario.characters]
    types = [t.id for t in scenario.monster_types]
    slots = []
    for i, name in enumerate(names):
        if name in agents:
            index = agents.index(name)
            slots.append(Slot(CHARACTER_SLOT, index, state.characters[index].initiative))
        elif name in types:
            t = types.index(name)
            current = state.monster_decks[t].current
            if current is None:
                raise fail(f"sequence[{i}]", f"{name} has no current card (monster_cards)")
            init = next(c.initiative for c in scenario.monster_types[t].deck if c.id == current)
            slots.append(Slot(MONSTER_SLOT, t, init))
        elif isinstance(name, str) and name.startswith("summon:"):
            number = int(name.split(":", 1)[1])
            summon = next((s for s in state.summons if s.number == number), None)
            if summon is None:
                raise fail(f"sequence[{i}]", f"there is no summon number {number}")
            owner = state.characters[summon.owner]
            slots.append(Slot(SUMMON_SLOT, number, owner.initiative))
        else:
            raise fail(f"sequence[{i}]", f"{name!r} is not one of {agents + types} or summon:N")
    return slots


class _Sequencer:
    """Just enough of a game for :func:`.round.turn_sequence` to order a fixture's slots."""

    def __init__(self, scenario: Scenario, state: HavenState) -> None:
        self.scenario = scenario
        self.state = state

    def monster_card(self, type_index: int, card_id: str):  # noqa: ANN201
        return next(c for c in self.scenario.monster_types[type_index].deck if c.id == card_id)
