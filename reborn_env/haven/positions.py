"""Exact JSON positions of haven games, validated on load (design "Rules engine", HV-STATE-*).

A position is the game's last quiet point (start of a round, of a turn-sequence slot, or of
cleanup: there the whole state is plain data) plus the answers given since. Loading accepts the
states the rules can stop at and continue from: every value JSON of the right type and range
(:func:`check_json` first), no unknown or missing key, each class card in exactly one zone, HP
within bounds, one figure per floor hex, complete decks, every cross-field rule of a quiet point
(phase, turn sequence, picks, acted flags, decks, outcome; :func:`check_consistency`) and the
round bounds of HV-END-4 and 15.10 (:func:`check_config_fit`). Then the answers are replayed,
each legal at its moment and all before the next quiet point. Anything else raises
PositionError naming the field and what is allowed; no other exception escapes.
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from ..common.data_files import ScenarioError
from ..common.errors import IllegalActionError, PositionError
from ..common.per_scenario import PerScenario
from ..common.positions import choice, exact_keys, fail, int_range, show
from ..common.rng import SplitMix64
from . import actions
from .scenario import (
    CONDITIONS,
    ELEMENTS,
    FLOOR,
    HEIGHT,
    PERSISTENT,
    RANKS,
    RETALIATE,
    ROUND,
    SHIELD,
    SUMMON,
    WIDTH,
    Box,
    Scenario,
    cell_id,
    cell_xy,
)
from .scenario_file import load_scenario
from .state import (
    CHARACTER_SLOT,
    CLEANUP,
    ELEMENT_STATE_NAMES,
    ITEM_STATES,
    LOSS,
    MONSTER_SLOT,
    OUTCOMES,
    OVER,
    PHASES,
    RUNNING,
    SELECT,
    STRONG,
    SUMMON_SLOT,
    TRUNCATED,
    TURNS,
    WIN,
    CharacterState,
    HavenState,
    ModifierDeck,
    MonsterDeck,
    MonsterState,
    Slot,
    SummonState,
)

if TYPE_CHECKING:
    from .engine import HavenConfig, HavenGame

FORMAT = "reborn_env.haven.position"
VERSION = 1
SLOT_KINDS = (CHARACTER_SLOT, SUMMON_SLOT, MONSTER_SLOT)
CARD_ZONES = ("hand", "played", "discard", "lost", "round_bonus", "persistent")
ACTIVE_FATES = ("discard", "lost")  # HV-BOX-9: where an active card goes when its effect ends

# The keys of every object of a position, in the order :func:`position_of` writes them.
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
MODIFIER_DECK_KEYS = ("draw", "discard", "shuffle_due")
MONSTER_DECK_KEYS = ("draw", "discard", "current", "consumed")
TREASURE_KEYS = ("number", "cell")

# What any JSON value of a position may be: no valid position comes near these, and beyond them
# an error message could not even show the value (Python refuses to print huge integers).
MAX_DEPTH = 8  # containers inside containers (position > state > characters > [i] > amd > draw)
MAX_VALUES = 20_000  # values in the whole position
MAX_TEXT = 100  # characters in a string (ids, names, the 16 hex digits of the generator)
MAX_INT = 2**63  # magnitude of an integer
INITIATIVES = (0, 99)  # HV-INIT-1: printed initiatives and 99 for a long rest
RNG_TEXT = re.compile(r"[0-9a-f]{16}")  # HV-API-9: the SplitMix64 state as position_of writes it


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
    return dump_state(game.scenario, game.state)


def dump_state(scenario: Scenario, state: HavenState) -> dict[str, Any]:
    """``state`` of ``scenario`` as JSON-ready data, the ``state`` field of a position."""
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
        "state": copy.deepcopy(game.quiet_point),
        "answers": list(game.answers_since_quiet),
    }


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
"""limits_of(scenario): the :class:`Limits` of a scenario, derived once per scenario object."""


# --- Loading ------------------------------------------------------------------------------------


def game_from_position(data: Any, scenario: Scenario | None = None) -> HavenGame:
    """Rebuild a game: validate the state, then replay the answers (each must be legal)."""
    from .engine import HavenGame

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
    answers = _read_answers(data["answers"], limits_of(scenario).max_answers)
    game = HavenGame(scenario, state, config)
    _replay(game, answers)
    return game


def check_json(data: Any) -> None:
    """Every value of ``data`` is JSON (objects with string keys, lists, strings, numbers, true,
    false, null) within the sizes a position can have. Checked before anything reads or copies
    the data, so no later step meets a value it cannot handle, copy or even print."""
    if not isinstance(data, dict):
        raise PositionError(f"a position must be a JSON object, got {type(data).__name__}")
    stack: list[tuple[str, Any, int]] = [("", data, 1)]
    seen = 0
    while stack:
        path, value, depth = stack.pop()
        seen += 1
        if seen > MAX_VALUES:
            raise PositionError(f"a position holds far fewer than {MAX_VALUES} values")
        if isinstance(value, (dict, list)) and depth > MAX_DEPTH:
            raise fail(path, f"nested deeper than any position field ({MAX_DEPTH} levels)")
        if isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, str) or len(key) > MAX_TEXT:
                    raise fail(path or "position", f"keys are short strings, got {show(key)}")
                stack.append((_join(path, key), item, depth + 1))
        elif isinstance(value, list):
            stack.extend((f"{path}[{i}]", item, depth + 1) for i, item in enumerate(value))
        elif isinstance(value, bool) or value is None or isinstance(value, float):
            continue
        elif isinstance(value, int):
            if abs(value) >= MAX_INT:
                raise fail(path, f"an integer of {value.bit_length()} bits is out of every range")
        elif isinstance(value, str):
            if len(value) > MAX_TEXT:
                raise fail(path, f"a string of {len(value)} characters is longer than any value")
        else:
            raise fail(path, f"{type(value).__name__} is not a JSON value")


def _join(path: str, key: str) -> str:
    """A field name as errors spell it; the state's own fields bare (``characters[0].hp``)."""
    return key if path in ("", "state") else f"{path}.{key}"


def node(field: str, value: Any, keys: tuple[str, ...]) -> dict[str, Any]:
    """``value`` as an object with exactly ``keys``: none missing, none unknown."""
    if not isinstance(value, dict):
        raise fail(field or "position", f"must be an object, got {show(value)}")
    exact_keys(field, value, keys)
    for key in keys:
        if key not in value:
            raise PositionError(f"position field '{_join(field, key)}' is missing")
    return value


def items(field: str, value: Any, most: int) -> list[Any]:
    """``value`` as a list of at most ``most`` entries."""
    if not isinstance(value, list):
        raise fail(field, f"must be a list, got {show(value)}")
    if len(value) > most:
        raise fail(field, f"holds {len(value)} entries; at most {most} are possible")
    return value


def flag(field: str, value: Any) -> bool:
    """``value`` as true or false."""
    if not isinstance(value, bool):
        raise fail(field, f"must be true or false, got {show(value)}")
    return value


def id_list(field: str, value: Any, allowed: list[str], most: int | None = None) -> list[int]:
    """A list of strings from ``allowed`` as indices: distinct, or up to ``most`` with repeats."""
    found = [
        choice(f"{field}[{i}]", v, allowed)
        for i, v in enumerate(items(field, value, most or len(allowed)))
    ]
    if most is None and len(set(found)) != len(found):
        raise fail(field, "lists an entry twice")
    return found


def read_cell(scenario: Scenario, field: str, value: Any) -> int:
    """A ``[col, row]`` floor cell of the grid (HV-MAP-1, HV-MAP-3) as its cell id."""
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise fail(field, f"a cell is [col, row], got {show(value)}")
    col, row = value
    if not (0 <= col < WIDTH and 0 <= row < HEIGHT):
        raise fail(field, f"cell ({col},{row}) is outside the {WIDTH} x {HEIGHT} grid")
    cell = cell_id(col, row)
    if cell not in limits_of(scenario).floor:
        kind = scenario.map.cells[cell]
        raise fail(field, f"cell ({col},{row}) is {kind}, not floor (HV-MAP-3)")
    return cell


def read_conditions(field: str, value: Any) -> list[str]:
    """HV-COND-1, HV-COND-12: distinct conditions of section 9, in name order."""
    return sorted(CONDITIONS[k] for k in id_list(field, value, list(CONDITIONS)))


def read_modifier_deck(field: str, value: Any, expected: Counter) -> ModifierDeck:
    """HV-AMD-1/4: draw pile (top first) and discard hold the whole standard deck."""
    deck = node(field, value, MODIFIER_DECK_KEYS)
    names = sorted(expected)
    size = sum(expected.values())
    draw = [names[k] for k in id_list(f"{field}.draw", deck["draw"], names, size)]
    discard = [names[k] for k in id_list(f"{field}.discard", deck["discard"], names, size)]
    if Counter(draw) + Counter(discard) != expected:
        raise fail(field, f"draw + discard must be the whole deck {dict(expected)}")
    return ModifierDeck(draw, discard, flag(f"{field}.shuffle_due", deck["shuffle_due"]))


def read_config(value: Any) -> HavenConfig:
    """The 16.8 options: every field of :class:`HavenConfig` of its type, no other key."""
    from .engine import HavenConfig

    if not isinstance(value, dict):
        raise fail("config", f"must be an object, got {show(value)}")
    for key in HavenConfig.__dataclass_fields__:
        if key not in value:
            raise PositionError(f"position field 'config.{key}' is missing")
        if key == "max_rounds":  # HV-END-4
            int_range(f"config.{key}", value[key], 1, MAX_INT - 1)
        else:
            flag(f"config.{key}", value[key])
    try:
        return HavenConfig.from_dict(value)
    except ValueError as err:  # an unknown key
        raise fail("config", str(err)) from None


def _read_answers(value: Any, most: int) -> list[int]:
    """Action integers (16.3), at most one slot's prompts (15.10)."""
    answers = items("answers", value, most)
    return [int_range(f"answers[{i}]", a, 0, actions.N_ACTIONS - 1) for i, a in enumerate(answers)]


def _replay(game: HavenGame, answers: list[int]) -> None:
    """Answer the prompts again, each legal at its moment, all before the next quiet point."""
    for i, answer in enumerate(answers):
        try:
            game.apply(answer)
        except IllegalActionError as err:
            raise fail(f"answers[{i}]", str(err)) from None
        if len(game.answers_since_quiet) != i + 1:
            raise fail(
                f"answers[{i}]",
                "reaches the next quiet point; a position holds only the answers since its last",
            )


def state_from_dict(scenario: Scenario, data: Any) -> HavenState:
    """A validated HavenState from :func:`dump_state` data (then :func:`check_consistency`)."""
    data = node("state", data, STATE_KEYS)
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


# --- Whole-state rules ----------------------------------------------------------------------------


def check_consistency(scenario: Scenario, state: HavenState) -> None:
    """Every cross-field rule of a quiet point (positions and fixtures, HV-API-10, alike).

    One figure per hex; the phase, turn sequence and slot; each character's picks, played
    cards, active area and acted flag against its slot; summons of living owners with their card
    active; monsters' round bonuses and acted flags; monster and modifier decks against the
    phase; the outcome against the figures on the map.
    """
    limits = limits_of(scenario)
    _check_cells(state)
    _check_sequence(limits, state)
    for ch in state.characters:
        _check_character(limits, state, ch)
    _check_summons(state)
    _check_monsters(state)
    _check_ability_decks(scenario, limits, state)
    _check_modifier_decks(state)
    _check_outcome(state)


def _check_cells(state: HavenState) -> None:
    """HV-MAP-4: one figure per hex."""
    cells: dict[int, str] = {}
    figures = [(f"characters[{c.index}]", c.cell) for c in state.characters if c.cell is not None]
    figures += [(f"monsters[{i}]", m.cell) for i, m in enumerate(state.monsters)]
    figures += [(f"summons[{i}]", s.cell) for i, s in enumerate(state.summons)]
    for name, cell in figures:
        if cell in cells:
            raise fail(name, f"cell {cell_xy(cell)} already holds {cells[cell]}")
        cells[cell] = name


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
