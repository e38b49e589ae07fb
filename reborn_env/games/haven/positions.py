"""Exact JSON positions of haven games, validated on load (design "Rules engine", HV-STATE-*).

A position is the game's last quiet point (start of a round, of a turn-sequence slot, or of
cleanup: there the whole state is plain data) plus the answers given since. Loading accepts the
states the rules can stop at and continue from: every value JSON of the right type and range
(:mod:`.position_fields` checks and reads them), no unknown or missing key, each class card in
exactly one zone, HP within bounds, one figure per floor hex, complete decks, every cross-field
rule of a quiet point and the round bounds of HV-END-4 and 15.10 (:mod:`.position_rules`). Then
the answers are replayed, each legal at its moment and all before the next quiet point. Anything
else raises PositionError naming the field and what is allowed; no other exception escapes.
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ...core.data_files import ScenarioError
from ...core.errors import PositionError
from ...core.positions import choice, exact_keys, fail, flag, int_range, items, show
from ...core.rng import SplitMix64
from .actions import action_space
from .position_fields import (
    check_json,
    id_list,
    node,
    read_answers,
    read_cell,
    read_conditions,
    read_config,
    read_modifier_deck,
)
from .position_rules import check_config_fit, check_consistency, limits_of
from .rules.config import HavenConfig, config_dict
from .rules.state import (
    CHARACTER_SLOT,
    CLEANUP,
    ELEMENT_STATE_NAMES,
    ITEM_STATES,
    MONSTER_SLOT,
    OUTCOMES,
    PHASES,
    SUMMON_SLOT,
    TURNS,
    CharacterState,
    HavenState,
    ModifierDeck,
    MonsterDeck,
    MonsterState,
    Slot,
    SummonState,
)
from .scenario.loader import load_scenario
from .scenario.model import ELEMENTS, RANKS, Grid, Scenario

FORMAT = "reborn_env.haven.position"
VERSION = 1
SLOT_KINDS = (CHARACTER_SLOT, SUMMON_SLOT, MONSTER_SLOT)
CARD_ZONES = ("hand", "played", "discard", "lost", "round_bonus", "persistent")
ACTIVE_FATES = ("discard", "lost")  # HV-BOX-9: where an active card goes when its effect ends
POSITION_KEYS = ("format", "version", "scenario", "config", "state", "answers")
STATE_KEYS = (
    "round",
    "phase",
    "outcome",
    "sequence",
    "slot",
    "next_summon_number",
    "win_met",
    "rng",
    "elements",
    "coins",
    "treasures",
    "characters",
    "monsters",
    "summons",
    "monster_decks",
    "monster_amd",
    "scripted_picks",
)
TRAP_KEYS = ("traps",)  # HV-TER-2: a state field only of scenarios whose map has traps


CHARACTER_KEYS = (
    "id",
    "hp",
    "max_hp",
    "cell",
    "conditions",
    *CARD_ZONES,
    "lead",
    "second",
    "active_fate",
    "items",
    "amd",
    "gold",
    "exhausted",
    "long_rest",
    "shield",
    "retaliate",
    "acted",
    "sits_out",
    "initiative",
    "revealed",
)


MONSTER_KEYS = (
    "type",
    "rank",
    "standee",
    "hp",
    "max_hp",
    "cell",
    "conditions",
    "shield",
    "retaliate",
    "acted",
)


SUMMON_KEYS = (
    "owner",
    "summon",
    "card",
    "hp",
    "cell",
    "summoned_round",
    "number",
    "conditions",
    "acted",
)


SLOT_KEYS = ("kind", "index", "initiative")
MONSTER_DECK_KEYS = ("draw", "discard", "current", "consumed")
TREASURE_KEYS = ("number", "cell")
INITIATIVES = (0, 99)  # HV-INIT-1: printed initiatives and 99 for a long rest
RNG_TEXT = re.compile(r"[0-9a-f]{16}")  # HV-API-9: the SplitMix64 state as position_of writes it


# --- Saving ---------------------------------------------------------------------------------------


def _xy(grid: Grid, cell: int | None) -> list[int] | None:
    return None if cell is None else list(grid.xy(cell))


def _deck(deck: ModifierDeck) -> dict[str, Any]:
    return {"draw": deck.draw[:], "discard": deck.discard[:], "shuffle_due": deck.shuffle_due}


def _character(scenario: Scenario, ch: CharacterState) -> dict[str, Any]:
    cls = scenario.characters[ch.index]
    grid = scenario.map.grid

    def ids(cards: list[int]) -> list[str]:
        return [cls.cards[k].id for k in cards]

    def one(card: int | None) -> str | None:
        return None if card is None else cls.cards[card].id

    return {
        "id": cls.id,
        "hp": ch.hp,
        "max_hp": ch.max_hp,
        "cell": _xy(grid, ch.cell),
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


def dump_state(scenario: Scenario, state: HavenState) -> dict[str, Any]:
    """``state`` of ``scenario`` as JSON-ready data, the ``state`` field of a position (valid at
    quiet points, where no turn is half done)."""
    data = _dump_state(scenario, state)
    grid = scenario.map.grid
    if scenario.map.traps:  # HV-TER-2: only a map with traps has this field
        data["traps"] = [_xy(grid, c) for c in state.traps]
    return data


def _dump_state(scenario: Scenario, state: HavenState) -> dict[str, Any]:
    """:func:`dump_state`'s fields common to every scenario."""
    types, grid = scenario.monster_types, scenario.map.grid
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
        "coins": [_xy(grid, c) for c in sorted(state.coins) for _ in range(state.coins[c])],
        "treasures": [
            {"number": n, "cell": _xy(grid, c)} for c, n in sorted(state.treasures.items())
        ],
        "characters": [_character(scenario, ch) for ch in state.characters],
        "monsters": [
            {
                "type": types[m.type].id,
                "rank": m.rank,
                "standee": m.standee,
                "hp": m.hp,
                "max_hp": m.max_hp,
                "cell": _xy(grid, m.cell),
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
                "cell": _xy(grid, s.cell),
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


def position_of(
    scenario: Scenario, config: HavenConfig, quiet: dict[str, Any], answers: Sequence[int]
) -> dict[str, Any]:
    """A game's position: scenario, config, last quiet point (:func:`dump_state` data, copied),
    answers since."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "scenario": scenario.name,
        "config": config_dict(config),
        "state": copy.deepcopy(quiet),
        "answers": list(answers),
    }


"""limits_of(scenario): the :class:`Limits` of a scenario, derived once per scenario object."""


# --- Loading --------------------------------------------------------------------------------------


def read_position(
    data: Any, scenario: Scenario | None = None
) -> tuple[Scenario, HavenState, HavenConfig, list[int]]:
    """The scenario, validated state, config and answers of position ``data``; the driver
    (:meth:`.rules.engine.HavenGame.from_position`) replays the answers, each must be legal."""
    check_json(data)
    data = copy.deepcopy(data)  # the game must not share lists with the caller's data
    if data.get("format") != FORMAT or data.get("version") != VERSION:
        raise PositionError(
            f"not a haven position: 'format' must be {FORMAT!r} and 'version' {VERSION}"
        )
    node("", data, POSITION_KEYS)
    name = data["scenario"]
    if not isinstance(name, str):
        raise fail("scenario", f"must be a scenario name, got {show(name)}")
    if scenario is None:
        try:
            scenario = load_scenario(name)
        except ScenarioError as err:
            raise fail("scenario", str(err)) from None
    elif scenario.name != name:
        raise fail("scenario", f"position is for {name!r}, this game plays {scenario.name!r}")
    config = read_config(data["config"])
    state = state_from_dict(scenario, data["state"])
    check_config_fit(scenario, state, config)
    space = action_space(scenario.map.grid)
    answers = read_answers(data["answers"], limits_of(scenario).max_answers, space.N_ACTIONS)
    return scenario, state, config, answers


def state_from_dict(scenario: Scenario, data: Any) -> HavenState:
    """A validated HavenState from :func:`dump_state` data (then :func:`check_consistency`)."""
    data = node("state", data, STATE_KEYS + (TRAP_KEYS if scenario.map.traps else ()))
    limits = limits_of(scenario)
    characters = items("characters", data["characters"], len(scenario.characters))
    if len(characters) != len(scenario.characters):
        raise fail("characters", f"must list exactly {len(scenario.characters)} characters")
    state = HavenState(
        characters=[_read_character(scenario, i, c) for i, c in enumerate(characters)],
        monsters=[
            _read_monster(scenario, i, m)
            for i, m in enumerate(items("monsters", data["monsters"], len(limits.floor)))
        ],
        summons=[
            _read_summon(scenario, i, s)
            for i, s in enumerate(items("summons", data["summons"], len(limits.floor)))
        ],
        monster_decks=_read_monster_decks(scenario, data["monster_decks"]),
        monster_amd=read_modifier_deck(
            "monster_amd",
            data["monster_amd"],
            Counter(c.name for c in scenario.monster_modifier_deck),
        ),
        elements=_read_elements(data["elements"]),
        coins=_read_coins(scenario, data["coins"]),
        treasures=_read_treasures(scenario, data["treasures"]),
        rng=SplitMix64(_read_rng(data["rng"])),
        round=int_range("round", data["round"], 1, limits.round_cap),  # HV-END-4, 15.10
        phase=PHASES[choice("phase", data["phase"], PHASES)],
        sequence=_read_sequence(scenario, data["sequence"]),
        outcome=OUTCOMES[choice("outcome", data["outcome"], OUTCOMES)],
        next_summon_number=int_range(
            "next_summon_number", data["next_summon_number"], 1, limits.max_summon_number
        ),
        win_met=flag("win_met", data["win_met"]),
        scripted_picks=_read_picks(scenario, data["scripted_picks"]),
        traps=read_traps(scenario, data["traps"]) if scenario.map.traps else [],
    )
    state.slot = int_range("slot", data["slot"], 0, len(state.sequence))
    if state.phase == TURNS and state.slot == len(state.sequence):
        state.phase = CLEANUP  # no slot left to run: the rules go straight to cleanup
    check_consistency(scenario, state)
    return state


def _read_rng(value: Any) -> int:
    """HV-API-9: the generator state, 16 lower-case hexadecimal digits."""
    if not isinstance(value, str) or not RNG_TEXT.fullmatch(value):
        raise fail("rng", f"must be 16 lower-case hexadecimal digits, got {show(value)}")
    return int(value, 16)


def _read_elements(value: Any) -> list[int]:
    """HV-STATE-5: each of the six elements inert, waning or strong."""
    elements = node("elements", value, ELEMENTS)
    return [choice(f"elements.{e}", elements[e], ELEMENT_STATE_NAMES) for e in ELEMENTS]


def _read_coins(scenario: Scenario, value: Any) -> dict[int, int]:
    """HV-STATE-6, HV-LOOT-1: a floor cell per coin token, never more than the map's coins and
    one per monster of the scenario."""
    coins: dict[int, int] = {}
    for i, xy in enumerate(items("coins", value, limits_of(scenario).max_coins)):
        cell = read_cell(scenario, f"coins[{i}]", xy)
        coins[cell] = coins.get(cell, 0) + 1
    return coins


def _read_treasures(scenario: Scenario, value: Any) -> dict[int, int]:
    """HV-STATE-6: the scenario's treasure tiles still on the map, at most one per hex."""
    numbers = [t.number for t in scenario.map.treasures]
    treasures: dict[int, int] = {}
    for i, item in enumerate(items("treasures", value, len(numbers))):
        f = f"treasures[{i}]"
        tile = node(f, item, TREASURE_KEYS)
        number = int_range(f"{f}.number", tile["number"], min(numbers), max(numbers))
        if number not in numbers:
            raise fail(f"{f}.number", f"{number} is not a treasure of {scenario.name}: {numbers}")
        cell = read_cell(scenario, f"{f}.cell", tile["cell"])
        if cell in treasures or number in treasures.values():
            raise fail(f, "at most one treasure tile per hex, each tile once")
        treasures[cell] = number
    return treasures


def _read_character(scenario: Scenario, index: int, value: Any) -> CharacterState:
    """HV-STATE-1: one character, each of its cards in exactly one zone."""
    limits = limits_of(scenario)
    cls = scenario.characters[index]
    f = f"characters[{index}]"
    ch = node(f, value, CHARACTER_KEYS)
    if ch["id"] != cls.id:
        raise fail(f"{f}.id", f"character {index} is {cls.id!r}, got {show(ch['id'])}")
    card_ids = [c.id for c in cls.cards]
    zones = {zone: id_list(f"{f}.{zone}", ch[zone], card_ids) for zone in CARD_ZONES}
    if sorted(k for zone in zones.values() for k in zone) != list(range(len(card_ids))):
        raise fail(
            f, f"each of {cls.id}'s cards {card_ids} must be in exactly one zone {CARD_ZONES}"
        )

    def pick(key: str) -> int | None:
        return None if ch[key] is None else choice(f"{f}.{key}", ch[key], card_ids)

    exhausted = flag(f"{f}.exhausted", ch["exhausted"])
    int_range(f"{f}.max_hp", ch["max_hp"], cls.max_hp, cls.max_hp)  # 15.2
    if exhausted != (ch["cell"] is None):
        raise fail(f"{f}.cell", "an exhausted character has no cell (null); others need one")
    items_node = node(f"{f}.items", ch["items"], tuple(i.id for i in cls.items))
    fates = ch["active_fate"]
    if not isinstance(fates, dict):
        raise fail(f"{f}.active_fate", f"must be an object card -> pile, got {show(fates)}")
    return CharacterState(
        index=index,
        hp=int_range(f"{f}.hp", ch["hp"], 0 if exhausted else 1, cls.max_hp),  # HV-EXH-2
        max_hp=cls.max_hp,
        cell=None if exhausted else read_cell(scenario, f"{f}.cell", ch["cell"]),
        conditions=read_conditions(f"{f}.conditions", ch["conditions"]),
        hand=sorted(zones["hand"]),  # the engine keeps the hand in card order
        lead=pick("lead"),
        second=pick("second"),
        played=zones["played"],
        discard=zones["discard"],
        lost=zones["lost"],
        round_bonus=zones["round_bonus"],
        persistent=zones["persistent"],
        active_fate={
            choice(f"{f}.active_fate", k, card_ids): ACTIVE_FATES[
                choice(f"{f}.active_fate.{k}", v, ACTIVE_FATES)
            ]
            for k, v in fates.items()
        },
        items=[
            ITEM_STATES[choice(f"{f}.items.{i.id}", items_node[i.id], ITEM_STATES)]
            for i in cls.items
        ],
        amd=read_modifier_deck(
            f"{f}.amd", ch["amd"], Counter(c.name for c in scenario.character_modifier_deck)
        ),
        gold=int_range(f"{f}.gold", ch["gold"], 0, limits.max_gold),  # HV-LOOT-3
        exhausted=exhausted,
        long_rest=flag(f"{f}.long_rest", ch["long_rest"]),
        shield=int_range(f"{f}.shield", ch["shield"], 0, limits.max_shield[index]),
        retaliate=int_range(f"{f}.retaliate", ch["retaliate"], 0, limits.max_retaliate[index]),
        acted=flag(f"{f}.acted", ch["acted"]),
        sits_out=flag(f"{f}.sits_out", ch["sits_out"]),
        initiative=int_range(f"{f}.initiative", ch["initiative"], *INITIATIVES),
        revealed=int_range(f"{f}.revealed", ch["revealed"], 0, 2),
    )


def _read_monster(scenario: Scenario, i: int, value: Any) -> MonsterState:
    """HV-STATE-2: one monster standee of a type and rank of the scenario."""
    limits = limits_of(scenario)
    f = f"monsters[{i}]"
    m = node(f, value, MONSTER_KEYS)
    types = [t.id for t in scenario.monster_types]
    t = choice(f"{f}.type", m["type"], types)
    rank = RANKS[choice(f"{f}.rank", m["rank"], RANKS)]
    hp_max = scenario.monster_types[t].stats(rank).hp
    int_range(f"{f}.max_hp", m["max_hp"], hp_max, hp_max)  # 15.5: the rank's HP
    return MonsterState(
        type=t,
        rank=rank,
        standee=int_range(f"{f}.standee", m["standee"], 1, len(limits.floor)),
        hp=int_range(f"{f}.hp", m["hp"], 1, hp_max),  # HV-DMG-1
        max_hp=hp_max,
        cell=read_cell(scenario, f"{f}.cell", m["cell"]),
        conditions=read_conditions(f"{f}.conditions", m["conditions"]),
        shield=int_range(f"{f}.shield", m["shield"], 0, limits.max_round_bonus),  # HV-MTURN-10
        retaliate=int_range(f"{f}.retaliate", m["retaliate"], 0, limits.max_round_bonus),
        acted=flag(f"{f}.acted", m["acted"]),
    )


def _read_summon(scenario: Scenario, i: int, value: Any) -> SummonState:
    """HV-STATE-3: one summon from its owner's summon card, with that card's stats (15.3)."""
    limits = limits_of(scenario)
    f = f"summons[{i}]"
    s = node(f, value, SUMMON_KEYS)
    owner = choice(f"{f}.owner", s["owner"], [c.id for c in scenario.characters])
    card_ids = [c.id for c in scenario.characters[owner].cards]
    card = choice(f"{f}.card", s["card"], card_ids)
    printed = limits.summon_cards[owner].get(card)
    if printed is None:
        raise fail(f"{f}.card", f"{card_ids[card]} summons nothing (HV-ABL-7)")
    if s["summon"] != printed:
        raise fail(f"{f}.summon", f"{card_ids[card]} summons {printed!r}, got {show(s['summon'])}")
    spec = scenario.summon(printed)
    return SummonState(
        owner=owner,
        summon=spec.id,
        card=card,
        hp=int_range(f"{f}.hp", s["hp"], 1, spec.hp),
        max_hp=spec.hp,
        move=spec.move,
        attack=spec.attack,
        range=spec.range,
        cell=read_cell(scenario, f"{f}.cell", s["cell"]),
        summoned_round=int_range(f"{f}.summoned_round", s["summoned_round"], 0, limits.round_cap),
        number=int_range(f"{f}.number", s["number"], 1, limits.max_summon_number),
        conditions=read_conditions(f"{f}.conditions", s["conditions"]),
        acted=flag(f"{f}.acted", s["acted"]),
    )


def _read_monster_decks(scenario: Scenario, value: Any) -> list[MonsterDeck]:
    """HV-STATE-4: per type, its ability cards each once across draw, discard and current."""
    types = scenario.monster_types
    decks_node = node("monster_decks", value, tuple(t.id for t in types))
    decks = []
    for t in types:
        f = f"monster_decks.{t.id}"
        deck = node(f, decks_node[t.id], MONSTER_DECK_KEYS)
        ids = [c.id for c in t.deck]
        draw = [ids[k] for k in id_list(f"{f}.draw", deck["draw"], ids)]
        discard = [ids[k] for k in id_list(f"{f}.discard", deck["discard"], ids)]
        current = deck["current"]
        current = None if current is None else ids[choice(f"{f}.current", current, ids)]
        if sorted(draw + discard + ([current] if current is not None else [])) != sorted(ids):
            raise fail(f, f"draw + discard + current must hold each of {ids} once")
        decks.append(MonsterDeck(draw, discard, current, flag(f"{f}.consumed", deck["consumed"])))
    return decks


def _read_sequence(scenario: Scenario, value: Any) -> list[Slot]:
    """Section 4.4: the round's turn order; a slot names an agent, a summon number or a type."""
    limits = limits_of(scenario)
    bounds = {
        CHARACTER_SLOT: (0, len(scenario.characters) - 1),
        MONSTER_SLOT: (0, len(scenario.monster_types) - 1),
        SUMMON_SLOT: (1, limits.max_summon_number),
    }
    most = len(scenario.characters) + len(scenario.monster_types) + limits.max_summon_number
    slots = []
    for i, item in enumerate(items("sequence", value, most)):
        f = f"sequence[{i}]"
        slot = node(f, item, SLOT_KEYS)
        kind = SLOT_KINDS[choice(f"{f}.kind", slot["kind"], SLOT_KINDS)]
        index = int_range(f"{f}.index", slot["index"], *bounds[kind])
        slots.append(
            Slot(kind, index, int_range(f"{f}.initiative", slot["initiative"], *INITIATIVES))
        )
    return slots


def _read_picks(scenario: Scenario, value: Any) -> dict[int, list[int]]:
    """HV-API-10: a fixture's scripted short-rest cards per character, in agent order."""
    agents = [c.id for c in scenario.characters]
    if not isinstance(value, dict):
        raise fail("scripted_picks", f"must be an object agent -> card ids, got {show(value)}")
    exact_keys("scripted_picks", value, agents)
    return {
        i: id_list(f"scripted_picks.{agent}", value[agent], [c.id for c in cls.cards])
        for i, (agent, cls) in enumerate(zip(agents, scenario.characters, strict=True))
        if agent in value
    }


def read_traps(scenario: Scenario, value: Any) -> list[int]:
    """HV-TER-2: the traps not yet sprung: distinct trap cells of the map, any order; ascending."""
    traps: list[int] = []
    for i, xy in enumerate(items("traps", value, len(scenario.map.traps))):
        cell = read_cell(scenario, f"traps[{i}]", xy)
        if cell not in scenario.map.traps:
            raise fail(f"traps[{i}]", f"{show(xy)} is not a trap of the map")
        if cell in traps:
            raise fail(f"traps[{i}]", f"{show(xy)} is listed twice")
        traps.append(cell)
    return sorted(traps)
