"""Test fixtures: a game set up at a chosen point of a round (HV-API-10).

A fixture is a small dict that names only what a test needs; everything unnamed takes the
defaults HV-API-10 lists (default terrain; no monsters, summons or tokens unless listed; an
unlisted character at its start hex, unhurt, all cards in hand, sitting the round out; round 1;
inert elements; decks shuffled by the seed apart from the tops a fixture fixes). Slots before
``next`` count as done: their characters, monsters and summons have acted, and a done
character's played cards are in its discard (HV-BOX-8). The state built is
then checked exactly as a loaded position's is (:func:`.positions.state_from_dict`), so a
fixture can only describe a state the engine can continue from, and its game saves and loads
like any other.
"""

from __future__ import annotations

import re
from typing import Any

from ...core.errors import PositionError
from ...core.positions import choice, fail, int_range, items, show
from .position_fields import check_json, id_list, read_cell, read_conditions
from .position_rules import limits_of
from .positions import TREASURE_KEYS, dump_state, read_traps, state_from_dict
from .rules.round import LONG_REST_INITIATIVE, turn_sequence
from .rules.setup import new_state
from .rules.state import (
    CHARACTER_SLOT,
    CLEANUP,
    ELEMENT_STATE_NAMES,
    MONSTER_SLOT,
    SELECT,
    SUMMON_SLOT,
    TURNS,
    CharacterState,
    HavenState,
    MonsterState,
    Slot,
    SummonState,
)
from .scenario.model import ELEMENTS, Scenario

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
    "traps",
)
FIXTURE_PHASES = (SELECT, TURNS, CLEANUP)
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
MONSTER_KEYS = ("type", "rank", "standee", "cell", "hp", "conditions", "shield", "retaliate")
SUMMON_KEYS = ("owner", "cell", "hp", "conditions", "summoned_round", "summon")
SUMMON_NAME = re.compile(r"summon:([1-9][0-9]{0,5})")


def state_from_fixture(scenario: Scenario, seed: int, fixture: Any) -> HavenState:
    """The state a fixture describes; PositionError names any field that is wrong."""
    if not isinstance(fixture, dict):
        raise PositionError(f"a fixture must be a dict, got {show(fixture)}")
    check_json(fixture)
    fixture = _object("fixture", fixture, FIXTURE_KEYS, ())
    state = new_state(scenario, seed)
    state.round = int_range("round", fixture.get("round", 1), 1, limits_of(scenario).round_cap)
    state.phase = FIXTURE_PHASES[choice("phase", fixture.get("phase", TURNS), FIXTURE_PHASES)]
    _place_tokens(scenario, state, fixture)
    _place_figures(scenario, state, fixture)
    _stack_decks(scenario, state, fixture)
    if state.phase != SELECT:  # HV-SEL-3: the reveal is behind
        for ch in state.characters:
            ch.revealed = 2
    if state.phase == TURNS:
        _start_turns(scenario, state, fixture)
    state.win_met = not state.monsters
    return state_from_dict(scenario, dump_state(scenario, state))


def _place_tokens(scenario: Scenario, state: HavenState, fixture: dict[str, Any]) -> None:
    """Coins, treasure tiles and element levels: only those listed (HV-API-10)."""
    state.coins = {}
    for i, xy in enumerate(items("coins", fixture.get("coins", []), limits_of(scenario).max_coins)):
        cell = read_cell(scenario, f"coins[{i}]", xy)
        state.coins[cell] = state.coins.get(cell, 0) + 1
    state.treasures = _treasures(scenario, fixture.get("treasures", []))
    if "traps" in fixture:  # HV-TER-2: the traps not yet sprung; unnamed, all of the map's
        state.traps = read_traps(scenario, fixture["traps"])
    for name, level in _mapping("elements", fixture.get("elements", {})).items():
        element = choice("elements", name, ELEMENTS)
        state.elements[element] = choice(f"elements.{name}", level, ELEMENT_STATE_NAMES)


def _place_figures(scenario: Scenario, state: HavenState, fixture: dict[str, Any]) -> None:
    """Listed monsters and summons; listed characters as described, the others sitting out."""
    most = len(limits_of(scenario).floor)
    monsters = items("monsters", fixture.get("monsters", []), most)
    state.monsters = [_monster(scenario, i, m) for i, m in enumerate(monsters)]
    agents = [c.id for c in scenario.characters]
    listed = _object("characters", fixture.get("characters", {}), agents, ())
    for ch in state.characters:
        if agents[ch.index] in listed:
            _character(scenario, state, ch.index, listed[agents[ch.index]])
        else:
            ch.sits_out = True
            ch.acted = True
    for i, summon in enumerate(items("summons", fixture.get("summons", []), most)):
        _summon(scenario, state, i, summon)


def _stack_decks(scenario: Scenario, state: HavenState, fixture: dict[str, Any]) -> None:
    """Monster ability cards, the monsters' modifier deck top and scripted short-rest picks."""
    _monster_cards(scenario, state, fixture.get("monster_cards", {}))
    _top(state.monster_amd.draw, fixture.get("monster_amd", []), "monster_amd")
    agents = [c.id for c in scenario.characters]
    for agent, cards in _mapping("short_rest_picks", fixture.get("short_rest_picks", {})).items():
        index = choice("short_rest_picks", agent, agents)
        ids = [c.id for c in scenario.characters[index].cards]
        state.scripted_picks[index] = id_list(f"short_rest_picks.{agent}", cards, ids)


def _object(where: str, value: Any, keys: Any, required: tuple[str, ...]) -> dict[str, Any]:
    """A fixture object: a dict of known keys, the ``required`` ones present."""
    if not isinstance(value, dict):
        raise fail(where, f"must be a dict, got {show(value)}")
    unknown = sorted(map(str, set(value) - set(keys)))
    if unknown:
        raise fail(where, f"unknown keys {unknown}; known: {list(keys)}")
    for key in required:
        if key not in value:
            raise fail(where, f"needs {key!r}")
    return value


def _mapping(where: str, value: Any) -> dict[str, Any]:
    """A fixture dict whose keys are checked by its reader."""
    if not isinstance(value, dict):
        raise fail(where, f"must be a dict, got {show(value)}")
    return value


def _top(draw: list[str], top: Any, field: str) -> None:
    """Put the named cards on top of a shuffled draw pile, in order."""
    top = items(field, top, len(draw))
    for name in top:
        if not isinstance(name, str) or name not in draw:
            raise fail(field, f"{show(name)} is not (or no longer) in the deck")
        draw.remove(name)
    draw[:0] = top


def _treasures(scenario: Scenario, value: Any) -> dict[int, int]:
    """Treasure tiles by cell (their numbers are checked with the state)."""
    tiles = items("treasures", value, len(scenario.map.treasures))
    treasures = {}
    for i, tile in enumerate(tiles):
        tile = _object(f"treasures[{i}]", tile, TREASURE_KEYS, TREASURE_KEYS)
        treasures[read_cell(scenario, f"treasures[{i}].cell", tile["cell"])] = tile["number"]
    return treasures


def _monster(scenario: Scenario, i: int, value: Any) -> MonsterState:
    f = f"monsters[{i}]"
    m = _object(f, value, MONSTER_KEYS, ("type", "standee", "cell"))
    t = choice(f"{f}.type", m["type"], [t.id for t in scenario.monster_types])
    rank = m.get("rank", "normal")
    hp = scenario.monster_types[t].stats(rank).hp
    return MonsterState(
        type=t,
        rank=rank,
        standee=m["standee"],
        hp=m.get("hp", hp),
        max_hp=hp,
        cell=read_cell(scenario, f"{f}.cell", m["cell"]),
        conditions=read_conditions(f"{f}.conditions", m.get("conditions", [])),
        shield=m.get("shield", 0),
        retaliate=m.get("retaliate", 0),
    )


def _character(scenario: Scenario, state: HavenState, index: int, value: Any) -> None:
    cls = scenario.characters[index]
    f = f"characters.{cls.id}"
    node_ = _object(f, value, CHARACTER_KEYS, ())
    ch = state.characters[index]
    ids = [c.id for c in cls.cards]

    def cards(zone: str) -> list[int]:
        return id_list(f"{f}.{zone}", node_.get(zone, []), ids)

    if "cell" in node_:
        ch.cell = read_cell(scenario, f"{f}.cell", node_["cell"])
    ch.hp = node_.get("hp", ch.hp)
    ch.conditions = read_conditions(f"{f}.conditions", node_.get("conditions", []))
    ch.played = cards("played")
    if ch.played:
        if len(ch.played) != 2:
            raise fail(f"{f}.played", "name the two played cards, leading card first")
        ch.lead, ch.second = ch.played
    ch.long_rest = node_.get("long_rest", False)
    ch.discard = cards("discard")
    ch.lost = cards("lost")
    ch.round_bonus = cards("round_bonus")
    ch.persistent = cards("persistent")
    ch.active_fate = {k: "discard" for k in ch.round_bonus} | {k: "lost" for k in ch.persistent}
    placed = ch.played + ch.discard + ch.lost + ch.round_bonus + ch.persistent
    if "hand" in node_:
        ch.hand = sorted(cards("hand"))
        if sorted(ch.hand + placed) != list(range(len(ids))):
            raise fail(f, f"the listed zones must hold each of {ids} exactly once")
    else:
        if len(set(placed)) != len(placed):
            raise fail(f, "a card is listed in two zones")
        ch.hand = [k for k in range(len(ids)) if k not in placed]
    for item_id, item_state in _mapping(f"{f}.items", node_.get("items", {})).items():
        ch.items[choice(f"{f}.items", item_id, [i.id for i in cls.items])] = item_state
    ch.gold = node_.get("gold", 0)
    _top(ch.amd.draw, node_.get("amd", []), f"{f}.amd")
    ch.shield = node_.get("shield", 0)
    ch.retaliate = node_.get("retaliate", 0)
    ch.acted = node_.get("acted", False)
    if ch.long_rest is True:
        ch.initiative = LONG_REST_INITIATIVE
    elif ch.lead is not None:
        ch.initiative = cls.cards[ch.lead].initiative
    ch.initiative = int_range(f"{f}.initiative", node_.get("initiative", ch.initiative), 0, 99)


def _summon(scenario: Scenario, state: HavenState, i: int, value: Any) -> None:
    f = f"summons[{i}]"
    s = _object(f, value, SUMMON_KEYS, ("owner", "cell"))
    owner = choice(f"{f}.owner", s["owner"], [c.id for c in scenario.characters])
    ch = state.characters[owner]
    summon_cards = limits_of(scenario).summon_cards[owner]
    if not summon_cards:
        raise fail(f"{f}.owner", f"{scenario.characters[owner].id} has no summon card")
    summon_card, printed = next(iter(summon_cards.items()))
    spec = scenario.summon(printed)
    for zone in (ch.hand, ch.discard, ch.lost, ch.played):
        if summon_card in zone:
            zone.remove(summon_card)
    if summon_card not in ch.persistent:
        ch.persistent.append(summon_card)
    ch.active_fate[summon_card] = "lost"
    state.summons.append(
        SummonState(
            owner=owner,
            summon=s.get("summon", spec.id),
            card=summon_card,
            hp=s.get("hp", spec.hp),
            max_hp=spec.hp,
            move=spec.move,
            attack=spec.attack,
            range=spec.range,
            cell=read_cell(scenario, f"{f}.cell", s["cell"]),
            summoned_round=int_range(
                f"{f}.summoned_round", s.get("summoned_round", 0), 0, state.round
            ),
            number=state.next_summon_number,
            conditions=read_conditions(f"{f}.conditions", s.get("conditions", [])),
        )
    )
    state.next_summon_number += 1


def _monster_cards(scenario: Scenario, state: HavenState, cards: Any) -> None:
    """TURNS: the type's current card; other phases: the top of its ability draw pile."""
    types = [t.id for t in scenario.monster_types]
    for type_id, card in _mapping("monster_cards", cards).items():
        deck = state.monster_decks[choice("monster_cards", type_id, types)]
        if not isinstance(card, str) or card not in deck.draw:
            raise fail(f"monster_cards.{type_id}", f"{show(card)} is not a {type_id} card")
        deck.draw.remove(card)
        if state.phase == TURNS:
            deck.current = card
        else:
            deck.draw.insert(0, card)


def _start_turns(scenario: Scenario, state: HavenState, fixture: dict[str, Any]) -> None:
    """The turn sequence and its next slot; the figures of earlier slots have acted; with no
    slot left the round is at its cleanup (as the engine runs it)."""
    state.sequence = _sequence(scenario, state, fixture.get("sequence"))
    state.slot = int_range("next", fixture.get("next", 0), 0, len(state.sequence))
    for slot in state.sequence[: state.slot]:
        if slot.kind == CHARACTER_SLOT:
            _turn_taken(state.characters[slot.index])
        for fig in [*state.monsters, *state.summons]:
            if _in_slot(fig, slot):
                fig.acted = True
    if state.slot == len(state.sequence):
        state.phase = CLEANUP


def _turn_taken(ch: CharacterState) -> None:
    """A character whose slot is done has acted, and HV-BOX-8 has moved its played cards (to
    the discard, as a turn in default mode does)."""
    ch.acted = True
    ch.discard.extend(ch.played)
    ch.played = []


def _in_slot(fig: MonsterState | SummonState, slot: Slot) -> bool:
    """Whether ``fig`` takes its turn in ``slot`` (HV-INIT-4/6)."""
    if isinstance(fig, MonsterState):
        return slot.kind == MONSTER_SLOT and slot.index == fig.type
    return slot.kind == SUMMON_SLOT and slot.index == fig.number


def _sequence(scenario: Scenario, state: HavenState, names: Any) -> list[Slot]:
    """The fixture's turn sequence, or the default: listed characters with played cards or a
    long rest, and monster types with a current card, in initiative order (HV-INIT-1..4)."""
    if names is None:
        return turn_sequence(scenario, state)
    agents = [c.id for c in scenario.characters]
    types = [t.id for t in scenario.monster_types]
    slots = []
    for i, name in enumerate(items("sequence", names, len(agents) + len(types) + 64)):
        summon_name = SUMMON_NAME.fullmatch(name) if isinstance(name, str) else None
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
        elif summon_name is not None:
            number = int(summon_name.group(1))
            summon = next((s for s in state.summons if s.number == number), None)
            if summon is None:
                raise fail(f"sequence[{i}]", f"there is no summon number {number}")
            owner = state.characters[summon.owner]
            slots.append(Slot(SUMMON_SLOT, number, owner.initiative))
        else:
            raise fail(f"sequence[{i}]", f"{show(name)} is not one of {agents + types} or summon:N")
    return slots
