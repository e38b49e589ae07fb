"""Exact JSON positions of haven games, validated on load (design "Rules engine", HV-STATE-*).

A position is the game's last quiet point (start of a round, of a turn-sequence slot, or of
cleanup: there the whole state is plain data) plus the answers given since; loading restores the
state, checks every rule a state must obey (each class card in exactly one zone, HP within bounds,
one figure per floor cell, complete decks, ...) and replays the answers, each checked for
legality. A broken position raises PositionError naming the field and what is allowed.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import TYPE_CHECKING, Any

from ..common.data_files import ScenarioError
from ..common.errors import IllegalActionError, PositionError
from ..common.positions import PositionReader, choice, fail, int_range
from ..common.rng import SplitMix64
from .scenario import CONDITIONS, ELEMENTS, RANKS, Scenario, cell_id, cell_xy
from .scenario_file import load_scenario
from .state import (
    ELEMENT_STATE_NAMES,
    ITEM_STATES,
    OUTCOMES,
    PHASES,
    CharacterState,
    HavenState,
    ModifierDeck,
    MonsterDeck,
    MonsterState,
    Slot,
    SummonState,
)

if TYPE_CHECKING:
    from .engine import HavenGame

FORMAT = "reborn_env.haven.position"
VERSION = 1
SLOT_KINDS = ("character", "summon", "monsters")
CARD_ZONES = ("hand", "played", "discard", "lost", "round_bonus", "persistent")


# --- Saving -------------------------------------------------------------------------------------


def _xy(cell: int | None) -> list[int] | None:
    return None if cell is None else list(cell_xy(cell))


def _deck(deck: ModifierDeck) -> dict[str, Any]:
    return {"draw": deck.draw[:], "discard": deck.discard[:], "shuffle_due": deck.shuffle_due}


def _character(scenario: Scenario, ch: CharacterState) -> dict[str, Any]:
    cls = scenario.characters[ch.index]

    def ids(cards: list[int]) -> list[str]:
        return [cls.cards[k].id for k in cards]

    def one(card: int | None) -> str | None:
        return None if card is None else cls.cards[card].id

    return {
        "id": cls.id,
        "hp": ch.hp,
        "max_hp": ch.max_hp,
        "cell": _xy(ch.cell),
        "conditions": sorted(ch.conditions),
        **{zone: ids(getattr(ch, zone)) for zone in CARD_ZONES},
        "lead": one(ch.lead),
        "second": one(ch.second),
        "active_fate": {cls.cards[k].id: fate for k, fate in sorted(ch.active_fate.items())},
        "items": {item.id: ch.items[i] for i, item in enumerate(cls.items)},
        "amd": _deck(ch.amd),
        "gold": ch.gold,
        "exhausted": ch.exhausted,
        "long_rest": ch.long_rest,
        "shield": ch.shield,
        "retaliate": ch.retaliate,
        "acted": ch.acted,
        "sits_out": ch.sits_out,
        "initiative": ch.initiative,
        "revealed": ch.revealed,
    }


def state_to_dict(game: HavenGame) -> dict[str, Any]:
    """The state as JSON-ready data (valid at quiet points, where no turn is half done)."""
    scenario, state = game.scenario, game.state
    types = scenario.monster_types
    return {
        "round": state.round,
        "phase": state.phase,
        "outcome": state.outcome,
        "sequence": [
            {"kind": s.kind, "index": s.index, "initiative": s.initiative} for s in state.sequence
        ],
        "slot": state.slot,
        "next_summon_number": state.next_summon_number,
        "win_met": state.win_met,
        "rng": f"{state.rng.state:016x}",
        "elements": {ELEMENTS[e]: ELEMENT_STATE_NAMES[v] for e, v in enumerate(state.elements)},
        "coins": [_xy(c) for c in sorted(state.coins) for _ in range(state.coins[c])],
        "treasures": [{"number": n, "cell": _xy(c)} for c, n in sorted(state.treasures.items())],
        "characters": [_character(scenario, ch) for ch in state.characters],
        "monsters": [
            {
                "type": types[m.type].id,
                "rank": m.rank,
                "standee": m.standee,
                "hp": m.hp,
                "max_hp": m.max_hp,
                "cell": _xy(m.cell),
                "conditions": sorted(m.conditions),
                "shield": m.shield,
                "retaliate": m.retaliate,
                "acted": m.acted,
            }
            for m in state.monsters
        ],
        "summons": [
            {
                "owner": scenario.characters[s.owner].id,
                "summon": s.summon,
                "card": scenario.characters[s.owner].cards[s.card].id,
                "hp": s.hp,
                "cell": _xy(s.cell),
                "summoned_round": s.summoned_round,
                "number": s.number,
                "conditions": sorted(s.conditions),
                "acted": s.acted,
            }
            for s in state.summons
        ],
        "monster_decks": {
            types[i].id: {
                "draw": d.draw[:],
                "discard": d.discard[:],
                "current": d.current,
                "consumed": d.consumed,
            }
            for i, d in enumerate(state.monster_decks)
        },
        "monster_amd": _deck(state.monster_amd),
        "scripted_picks": {
            scenario.characters[i].id: [scenario.characters[i].cards[k].id for k in picks]
            for i, picks in sorted(state.scripted_picks.items())
        },
    }


def position_of(game: HavenGame) -> dict[str, Any]:
    """The game's position: scenario, config, last quiet point, answers since."""
    from .engine import config_dict

    return {
        "format": FORMAT,
        "version": VERSION,
        "scenario": game.scenario.name,
        "config": config_dict(game.config),
        "state": copy.deepcopy(game._quiet),
        "answers": game._answers[:],
    }


# --- Loading ------------------------------------------------------------------------------------


def game_from_position(data: Any, scenario: Scenario | None = None) -> HavenGame:
    """Rebuild a game: validate the state, then replay the answers (each must be legal)."""
    from .engine import HavenConfig, HavenGame

    PositionReader(data)  # a JSON object, checked before it is copied
    data = copy.deepcopy(data)  # the game must not share lists with the caller's data
    r = PositionReader(data)
    if data.get("format") != FORMAT or data.get("version") != VERSION:
        raise PositionError(
            f"not a haven position: 'format' must be {FORMAT!r} and 'version' {VERSION}"
        )
    name = r.get("scenario", str)
    if scenario is None:
        try:
            scenario = load_scenario(name)
        except ScenarioError as err:
            raise fail("scenario", str(err)) from None
    elif scenario.name != name:
        raise fail("scenario", f"position is for {name!r}, this game plays {scenario.name!r}")
    try:
        config = HavenConfig.from_dict(r.get("config", dict))
    except (TypeError, ValueError) as err:
        raise fail("config", str(err)) from None
    state = state_from_dict(scenario, r.get("state", dict))
    answers = r.get("answers", list)
    game = HavenGame(scenario, state, config)
    for i, answer in enumerate(answers):
        try:
            game.apply(answer)
        except IllegalActionError as err:
            raise fail(f"answers[{i}]", str(err)) from None
    return game


class _StateReader:
    """Reads one state dict against a scenario, field by field."""

    def __init__(self, scenario: Scenario, data: dict[str, Any]) -> None:
        self.scenario = scenario
        self.r = PositionReader(data)

    def get(self, path: str, kind: type | tuple[type, ...], where: Any = None) -> Any:
        return self.r.get(path, kind, where)

    def cell(self, field: str, value: Any, floor: bool = True) -> int:
        if (
            not isinstance(value, list)
            or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        ):
            raise fail(field, f"a cell is [col, row], got {value!r}")
        col, row = value
        if not (0 <= col < 9 and 0 <= row < 7):
            raise fail(field, f"cell ({col},{row}) is outside the 9 x 7 grid")
        cell = cell_id(col, row)
        if floor and self.scenario.map.cells[cell] != "floor":
            kind = self.scenario.map.cells[cell]
            raise fail(field, f"cell ({col},{row}) is {kind}, not floor")
        return cell

    def conditions(self, field: str, value: Any) -> list[str]:
        if not isinstance(value, list) or len(set(value)) != len(value):
            raise fail(field, f"must be a list of distinct conditions, got {value!r}")
        for c in value:
            choice(field, c, CONDITIONS)
        return sorted(value)

    def modifier_deck(self, field: str, value: Any, expected: Counter) -> ModifierDeck:
        draw = self.get(f"{field}.draw", list, value)
        discard = self.get(f"{field}.discard", list, value)
        if Counter(draw) + Counter(discard) != expected:
            raise fail(field, f"draw + discard must be the whole deck {dict(expected)}")
        return ModifierDeck(draw, discard, self.get(f"{field}.shuffle_due", bool, value))


def state_from_dict(scenario: Scenario, data: dict[str, Any]) -> HavenState:
    """A validated HavenState from :func:`state_to_dict` data."""
    sr = _StateReader(scenario, data)
    get = sr.get
    standard = Counter(c.name for c in scenario.character_modifier_deck)
    characters = [
        _read_character(sr, i, node, standard)
        for i, node in enumerate(_exact_list(get("characters", list), len(scenario.characters)))
    ]
    types = [t.id for t in scenario.monster_types]
    monsters = []
    for i, node in enumerate(get("monsters", list)):
        f = f"monsters[{i}]"
        t = choice(f"{f}.type", get(f"{f}.type", str, node), types)
        rank = RANKS[choice(f"{f}.rank", get(f"{f}.rank", str, node), RANKS)]
        hp_max = scenario.monster_types[t].stats(rank).hp
        if get(f"{f}.max_hp", int, node) != hp_max:
            raise fail(f"{f}.max_hp", f"a {rank} {types[t]} has {hp_max} HP")
        monsters.append(
            MonsterState(
                type=t,
                rank=rank,
                standee=int_range(f"{f}.standee", get(f"{f}.standee", int, node), 1, 99),
                hp=int_range(f"{f}.hp", get(f"{f}.hp", int, node), 1, hp_max),
                max_hp=hp_max,
                cell=sr.cell(f"{f}.cell", get(f"{f}.cell", list, node)),
                conditions=sr.conditions(f"{f}.conditions", get(f"{f}.conditions", list, node)),
                shield=int_range(f"{f}.shield", get(f"{f}.shield", int, node), 0, 99),
                retaliate=int_range(f"{f}.retaliate", get(f"{f}.retaliate", int, node), 0, 99),
                acted=get(f"{f}.acted", bool, node),
            )
        )
    standees = [(m.type, m.standee) for m in monsters]
    if len(set(standees)) != len(standees):
        raise fail("monsters", "standee numbers must be unique within a monster type")
    summons = [_read_summon(sr, i, node) for i, node in enumerate(get("summons", list))]
    decks = _read_monster_decks(sr, get("monster_decks", dict))
    monster_amd = sr.modifier_deck(
        "monster_amd",
        get("monster_amd", dict),
        Counter(c.name for c in scenario.monster_modifier_deck),
    )
    elements_node = get("elements", dict)
    elements = [
        choice(f"elements.{e}", get(f"elements.{e}", str, elements_node), ELEMENT_STATE_NAMES)
        for e in ELEMENTS
    ]
    coins: dict[int, int] = {}
    for i, xy in enumerate(get("coins", list)):
        cell = sr.cell(f"coins[{i}]", xy)
        coins[cell] = coins.get(cell, 0) + 1
    treasures: dict[int, int] = {}
    numbers = [t.number for t in scenario.map.treasures]
    for i, node in enumerate(get("treasures", list)):
        f = f"treasures[{i}]"
        number = get(f"{f}.number", int, node)
        if number not in numbers:
            raise fail(f"{f}.number", f"{number} is not a treasure of {scenario.name}: {numbers}")
        cell = sr.cell(f"{f}.cell", get(f"{f}.cell", list, node))
        if cell in treasures or number in treasures.values():
            raise fail(f, "at most one treasure tile per hex, each tile once")
        treasures[cell] = number
    state = HavenState(
        characters=characters,
        monsters=monsters,
        summons=summons,
        monster_decks=decks,
        monster_amd=monster_amd,
        elements=elements,
        coins=coins,
        treasures=treasures,
        rng=SplitMix64(_hex(get("rng", str))),
        round=int_range("round", get("round", int), 1, 999),
        phase=PHASES[choice("phase", get("phase", str), PHASES)],
        sequence=_read_sequence(sr, get("sequence", list)),
        outcome=OUTCOMES[choice("outcome", get("outcome", str), OUTCOMES)],
        next_summon_number=int_range(
            "next_summon_number", get("next_summon_number", int), 1, 10**6
        ),
        win_met=get("win_met", bool),
        scripted_picks=_read_picks(sr, get("scripted_picks", dict)),
    )
    state.slot = int_range("slot", get("slot", int), 0, len(state.sequence))
    check_consistency(scenario, state)
    return state


def _hex(text: str) -> int:
    try:
        return int(text, 16)
    except ValueError:
        raise fail("rng", f"must be a hexadecimal integer, got {text!r}") from None


def _exact_list(value: list, size: int) -> list:
    if len(value) != size:
        raise fail("characters", f"must list exactly {size} characters in agent order")
    return value


def _read_character(sr: _StateReader, index: int, node: Any, standard: Counter) -> CharacterState:
    scenario = sr.scenario
    cls = scenario.characters[index]
    f = f"characters[{index}]"
    get = sr.get
    if get(f"{f}.id", str, node) != cls.id:
        raise fail(f"{f}.id", f"character {index} is {cls.id!r}")
    card_ids = [c.id for c in cls.cards]

    def cards(zone: str) -> list[int]:
        value = get(f"{f}.{zone}", list, node)
        return [choice(f"{f}.{zone}", c, card_ids) for c in value]

    zones = {zone: cards(zone) for zone in CARD_ZONES}
    every = [k for zone in zones.values() for k in zone]
    if sorted(every) != list(range(len(card_ids))):
        raise fail(
            f, f"each of {cls.id}'s cards {card_ids} must be in exactly one zone {CARD_ZONES}"
        )

    def one(key: str) -> int | None:
        value = get(f"{f}.{key}", (str, type(None)), node)
        return None if value is None else choice(f"{f}.{key}", value, card_ids)

    exhausted = get(f"{f}.exhausted", bool, node)
    cell_value = get(f"{f}.cell", (list, type(None)), node)
    if exhausted != (cell_value is None):
        raise fail(f"{f}.cell", "an exhausted character has no cell (null); others need one")
    max_hp = get(f"{f}.max_hp", int, node)
    if max_hp != cls.max_hp:
        raise fail(f"{f}.max_hp", f"{cls.id} has {cls.max_hp} max HP")
    hp_low = 0 if exhausted else 1
    items_node = get(f"{f}.items", dict, node)
    if set(items_node) != {i.id for i in cls.items}:
        raise fail(f"{f}.items", f"must name exactly {[i.id for i in cls.items]}")
    items = [
        ITEM_STATES[choice(f"{f}.items.{i.id}", items_node[i.id], ITEM_STATES)] for i in cls.items
    ]
    fates = get(f"{f}.active_fate", dict, node)
    active_fate = {
        choice(f"{f}.active_fate", k, card_ids): v
        for k, v in fates.items()
        if choice(f"{f}.active_fate.{k}", v, ("discard", "lost")) >= 0
    }
    if set(active_fate) != set(zones["round_bonus"]) | set(zones["persistent"]):
        raise fail(f"{f}.active_fate", "must name the pile of every card in the active area")
    return CharacterState(
        index=index,
        hp=int_range(f"{f}.hp", get(f"{f}.hp", int, node), hp_low, max_hp),
        max_hp=max_hp,
        cell=None if cell_value is None else sr.cell(f"{f}.cell", cell_value),
        conditions=sr.conditions(f"{f}.conditions", get(f"{f}.conditions", list, node)),
        hand=sorted(zones["hand"]),
        lead=one("lead"),
        second=one("second"),
        played=zones["played"],
        discard=zones["discard"],
        lost=zones["lost"],
        round_bonus=zones["round_bonus"],
        persistent=zones["persistent"],
        active_fate=active_fate,
        items=items,
        amd=sr.modifier_deck(f"{f}.amd", get(f"{f}.amd", dict, node), standard),
        gold=int_range(f"{f}.gold", get(f"{f}.gold", int, node), 0, 10**6),
        exhausted=exhausted,
        long_rest=get(f"{f}.long_rest", bool, node),
        shield=int_range(f"{f}.shield", get(f"{f}.shield", int, node), 0, 99),
        retaliate=int_range(f"{f}.retaliate", get(f"{f}.retaliate", int, node), 0, 99),
        acted=get(f"{f}.acted", bool, node),
        sits_out=get(f"{f}.sits_out", bool, node),
        initiative=int_range(f"{f}.initiative", get(f"{f}.initiative", int, node), 0, 99),
        revealed=int_range(f"{f}.revealed", get(f"{f}.revealed", int, node), 0, 2),
    )


def _read_summon(sr: _StateReader, i: int, node: Any) -> SummonState:
    scenario = sr.scenario
    get = sr.get
    f = f"summons[{i}]"
    agents = [c.id for c in scenario.characters]
    owner = choice(f"{f}.owner", get(f"{f}.owner", str, node), agents)
    spec_ids = [s.id for s in scenario.summons]
    summon_id = spec_ids[choice(f"{f}.summon", get(f"{f}.summon", str, node), spec_ids)]
    spec = scenario.summon(summon_id)
    card_ids = [c.id for c in scenario.characters[owner].cards]
    return SummonState(
        owner=owner,
        summon=summon_id,
        card=choice(f"{f}.card", get(f"{f}.card", str, node), card_ids),
        hp=int_range(f"{f}.hp", get(f"{f}.hp", int, node), 1, spec.hp),
        max_hp=spec.hp,
        move=spec.move,
        attack=spec.attack,
        range=spec.range,
        cell=sr.cell(f"{f}.cell", get(f"{f}.cell", list, node)),
        summoned_round=int_range(
            f"{f}.summoned_round", get(f"{f}.summoned_round", int, node), 0, 999
        ),
        number=int_range(f"{f}.number", get(f"{f}.number", int, node), 1, 10**6),
        conditions=sr.conditions(f"{f}.conditions", get(f"{f}.conditions", list, node)),
        acted=get(f"{f}.acted", bool, node),
    )


def _read_monster_decks(sr: _StateReader, node: dict[str, Any]) -> list[MonsterDeck]:
    types = sr.scenario.monster_types
    if set(node) != {t.id for t in types}:
        raise fail("monster_decks", f"must name exactly {[t.id for t in types]}")
    decks = []
    for t in types:
        f = f"monster_decks.{t.id}"
        deck = node[t.id]
        draw = sr.get(f"{f}.draw", list, deck)
        discard = sr.get(f"{f}.discard", list, deck)
        current = sr.get(f"{f}.current", (str, type(None)), deck)
        cards = draw + discard + ([current] if current is not None else [])
        if sorted(cards) != sorted(c.id for c in t.deck):
            raise fail(
                f, f"draw + discard + current must hold each of {[c.id for c in t.deck]} once"
            )
        decks.append(MonsterDeck(draw, discard, current, sr.get(f"{f}.consumed", bool, deck)))
    return decks


def _read_sequence(sr: _StateReader, value: list) -> list[Slot]:
    slots = []
    for i, node in enumerate(value):
        f = f"sequence[{i}]"
        kind = SLOT_KINDS[choice(f"{f}.kind", sr.get(f"{f}.kind", str, node), SLOT_KINDS)]
        slots.append(
            Slot(
                kind,
                int_range(f"{f}.index", sr.get(f"{f}.index", int, node), 0, 10**6),
                int_range(f"{f}.initiative", sr.get(f"{f}.initiative", int, node), 0, 99),
            )
        )
    return slots


def _read_picks(sr: _StateReader, node: dict[str, Any]) -> dict[int, list[int]]:
    agents = [c.id for c in sr.scenario.characters]
    picks = {}
    for agent, cards in node.items():
        index = choice("scripted_picks", agent, agents)
        card_ids = [c.id for c in sr.scenario.characters[index].cards]
        if not isinstance(cards, list):
            raise fail(f"scripted_picks.{agent}", "must be a list of card ids")
        picks[index] = [choice(f"scripted_picks.{agent}", c, card_ids) for c in cards]
    return picks


def check_consistency(scenario: Scenario, state: HavenState) -> None:
    """Whole-state rules: one figure per cell, summons of living owners in their active area,
    played cards of the round, turn-sequence slots that exist."""
    cells: dict[int, str] = {}
    figures = [(f"characters[{c.index}]", c.cell) for c in state.characters if c.cell is not None]
    figures += [(f"monsters[{i}]", m.cell) for i, m in enumerate(state.monsters)]
    figures += [(f"summons[{i}]", s.cell) for i, s in enumerate(state.summons)]
    for name, cell in figures:
        if cell in cells:
            raise fail(name, f"cell {cell_xy(cell)} already holds {cells[cell]}")
        cells[cell] = name
    numbers = [s.number for s in state.summons]
    if len(set(numbers)) != len(numbers) or any(n >= state.next_summon_number for n in numbers):
        raise fail("summons", "summon numbers must be unique and below next_summon_number")
    for i, s in enumerate(state.summons):
        owner = state.characters[s.owner]
        if owner.exhausted or s.card not in owner.persistent:
            raise fail(f"summons[{i}]", "a summon needs a living owner with its card active")
    for ch in state.characters:
        picks = [k for k in (ch.lead, ch.second) if k is not None]
        if any(k not in picks for k in ch.played):
            raise fail(f"characters[{ch.index}].played", "only this round's picks can be played")
    for i, slot in enumerate(state.sequence):
        limit = {
            "character": len(state.characters),
            "monsters": len(scenario.monster_types),
            "summon": state.next_summon_number,
        }[slot.kind]
        if slot.index >= limit:
            raise fail(f"sequence[{i}].index", f"{slot.index} is not a {slot.kind} of this game")
