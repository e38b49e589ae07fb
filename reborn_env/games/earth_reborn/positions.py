"""Positions: the full game state to and from plain JSON data, exactly and validated (ER-GEN-3).

The schema is documented in ``docs/position_format.md``. ``state_to_dict`` and ``state_from_dict``
are inverse: a saved position restores the same game, generator, injected dice and last roll
included. Loading accepts exactly the states the engine can reach: every field of the right type
and in its range, no key the format does not define, and every invariant of :mod:`invariants`
holding (so the game plays on from it soundly). Anything else raises :class:`PositionError`
naming the field and what is allowed; no other exception escapes, whatever the data.
"""

from __future__ import annotations

import re
from typing import Any

from ...core.data_files import ScenarioError, is_path
from ...core.errors import PositionError
from ...core.positions import choice, entry, exact_keys, fail, flag, int_range, items, obj, show
from ...core.rng import SplitMix64
from .actions import MAX_CP
from .invariants import door_key, first_problem, limits_for
from .rules.dice import FACES
from .rules.orders import section_of
from .rules.state import DECISIONS, DOOR_STATES, PHASES, AssignedTile, GameState
from .rules.state_schema import CAPACITIES
from .scenario.generator import is_generated
from .scenario.loader import load_scenario
from .scenario.model import CLOSE_COMBAT, DIRECTION_NAMES, SHOOT, Scenario

FORMAT = "earth_reborn.position"
VERSION = 2
# Version 1 had no ``last_roll``; it is still read, as a position whose last decision rolled no die.
READ_VERSIONS = (1, 2)

# The keys of each object, in the order state_to_dict writes them (docs/position_format.md).
TOP_KEYS = (
    "format",
    "version",
    "scenario",
    "turn",
    "phase",
    "initiative",
    "active",
    "passes",
    "decision",
    "players",
    "bag",
    "discard",
    "box",
    "doors",
    "characters",
    "terminals",
    "caches",
    "round",
    "winner",
    "rng",
    "dice_queue",
    "last_roll",
    "steps",
)
DECISION_KEYS = ("kind", "player")
PLAYER_KEYS = ("cp", "mp", "hand", "redrew", "bid")
DOOR_KEYS = ("kind", "state", "opened_this_round")
CHARACTER_KEYS = (
    "square",
    "facing",
    "side",
    "wounds",
    "engaged",
    "dead",
    "cp_spent",
    "tiles",
    "cards",
    "weapon_ready",
    "tried_terminals",
)
ASSIGNED_KEYS = ("tile", "cp")
CACHE_KEYS = ("square", "full")
ROUND_KEYS = (
    "character",
    "reactivation",
    "acted",
    "decisions",
    "mvp",
    "transferred",
    "section",
    "target",
    "cp",
)
SIDES = ("healthy", "wounded")
# Injected dice a position may hold (ER-DICE-4): far more than a whole game rolls from one queue.
MAX_DICE_QUEUE = CAPACITIES["ER_MAX_DICE_QUEUE"]
_RNG = re.compile(r"[0-9a-f]{16}")
_SCENARIO_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")


# --- Saving -------------------------------------------------------------------------------------


def _square(scn: Scenario, sq: int) -> list[int]:
    return list(scn.board.xy(sq))


def _target_name(state: GameState) -> str | None:
    """The order's target as the position names it: a direction (Close Combat) or a character."""
    if state.target < 0:
        return None
    kind = section_of(state, state.char, state.section)[2].type
    return (
        state.scenario.characters[state.target].id
        if kind == SHOOT
        else DIRECTION_NAMES[state.target]
    )


def state_to_dict(state: GameState) -> dict[str, Any]:
    """The position as JSON-ready data (see docs/position_format.md)."""
    scn = state.scenario
    factions = scn.factions
    tile_ids = [t.id for t in scn.tiles]

    def tiles_of(pile: list[int]) -> list[str]:
        return [tile_ids[t] for t in pile]

    return {
        "format": FORMAT,
        "version": VERSION,
        "scenario": scn.name,
        "turn": state.turn,
        "phase": state.phase,
        "initiative": factions[state.initiative],
        "active": factions[state.active],
        "passes": state.passes,
        "decision": {"kind": state.decision, "player": factions[state.decider]},
        "players": {
            f: {
                "cp": state.cp[p],
                "mp": state.mp[p],
                "hand": tiles_of(state.hands[p]),
                "redrew": state.redrew[p],
                "bid": None if state.bids[p] < 0 else state.bids[p],
            }
            for p, f in enumerate(factions)
        },
        "bag": tiles_of(state.bag),
        "discard": tiles_of(state.discard),
        "box": tiles_of(state.box),
        "doors": {
            door_key(scn, d): {
                "kind": door.kind,
                "state": DOOR_STATES[state.doors[d]],
                "opened_this_round": state.door_opened[d],
            }
            for d, door in enumerate(scn.board.doors)
        },
        "characters": {
            spec.id: {
                "square": _square(scn, ch.square),
                "facing": DIRECTION_NAMES[ch.facing],
                "side": SIDES[ch.wounded],
                "wounds": ch.wounds,
                "engaged": ch.engaged,
                "dead": ch.dead,
                "cp_spent": ch.cp_spent,
                "tiles": [{"tile": tile_ids[a.tile], "cp": a.cp[:]} for a in ch.tiles],
                "cards": ch.cards,
                "weapon_ready": ch.weapon_ready,
                "tried_terminals": sorted(scn.terminals[t].id for t in ch.tried),
            }
            for spec, ch in zip(scn.characters, state.chars, strict=True)
        },
        "terminals": {t.id: state.hacked[i] for i, t in enumerate(scn.terminals)},
        "caches": [
            {"square": _square(scn, c.square), "full": state.cache_full[i]}
            for i, c in enumerate(scn.caches)
        ],
        "round": {
            "character": None if state.char < 0 else scn.characters[state.char].id,
            "reactivation": state.reactivation,
            "acted": state.acted,
            "decisions": state.round_decisions,
            "mvp": state.mvp,
            "transferred": state.transferred,
            "section": None if state.section < 0 else state.section,
            "target": _target_name(state),
            "cp": state.order_cp,
        },
        "winner": None
        if state.winner is None
        else ("draw" if state.winner < 0 else factions[state.winner]),
        "rng": f"{state.rng.state:016x}",
        "dice_queue": state.dice_queue[:],
        "last_roll": state.last_roll[:],
        "steps": state.steps,
    }


# --- Typed access: every error names the field ---------------------------------------------------


def _int(node: dict[str, Any], key: str, field: str, low: int, high: int) -> int:
    """The integer ``node[key]``, in ``low..high``."""
    return int_range(field, entry(node, key, field), low, high)


def _optional_int(node: dict[str, Any], key: str, field: str, low: int, high: int) -> int:
    """An integer in ``low..high``, or -1 for null."""
    return -1 if entry(node, key, field) is None else _int(node, key, field, low, high)


def _bool(node: dict[str, Any], key: str, field: str) -> bool:
    """The boolean ``node[key]``."""
    return flag(field, entry(node, key, field))


def _name(node: dict[str, Any], key: str, field: str, allowed: tuple[str, ...] | list[str]) -> int:
    """The index in ``allowed`` of the string ``node[key]``."""
    return choice(field, entry(node, key, field), allowed)


def _object(node: dict[str, Any], key: str, field: str, keys: tuple[str, ...] | list[str]) -> dict:
    """The JSON object ``node[key]``, with exactly ``keys``."""
    return obj(field, entry(node, key, field), keys)


def _array(node: dict[str, Any], key: str, field: str, most: int) -> list:
    """The list ``node[key]``, of at most ``most`` items."""
    return items(field, entry(node, key, field), most)


def _square_from(scn: Scenario, field: str, value: Any) -> int:
    """The square of ``[x, y]``, a floor square of the map."""
    board = scn.board
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise fail(field, f"a square is [x, y], got {show(value)}")
    x, y = value
    if not board.on_map(x, y) or board.void[board.square(x, y)]:
        raise fail(field, f"{show(value)} is not a floor square of the {scn.name} map")
    return board.square(x, y)


# --- Loading ------------------------------------------------------------------------------------


def state_from_dict(data: Any, scenario: Scenario | None = None) -> GameState:
    """Rebuild a state from ``data``; raises PositionError on anything malformed or unreachable.

    ``scenario`` is the scenario the caller plays (the position must name it); without it the
    position's scenario is loaded by name: a bundled one or a generated map (ER-MAPGEN-1).
    """
    if not isinstance(data, dict):
        raise PositionError(f"a position must be a JSON object, got {show(data)}")
    version = data.get("version")
    if (
        not isinstance(data.get("format"), str)
        or data["format"] != FORMAT
        or isinstance(version, bool)
        or not isinstance(version, int)
        or version not in READ_VERSIONS
    ):
        raise PositionError(
            f"not an Earth Reborn position: 'format' must be {FORMAT!r} and 'version' one of "
            f"{', '.join(map(str, READ_VERSIONS))}"
        )
    keys = TOP_KEYS if version == VERSION else tuple(k for k in TOP_KEYS if k != "last_roll")
    exact_keys("", data, keys)
    return _Loader(data, _scenario(data, scenario)).load(version)


def _scenario(data: dict[str, Any], scenario: Scenario | None) -> Scenario:
    name = entry(data, "scenario", "scenario")
    if not isinstance(name, str):
        raise fail("scenario", f"must be a scenario name, got {show(name)}")
    if scenario is not None:
        if scenario.name != name:
            raise fail(
                "scenario", f"position is for {show(name)}, this game plays {scenario.name!r}"
            )
        return scenario
    if not (_SCENARIO_NAME.fullmatch(name) or is_generated(name)) or is_path(name):
        raise fail(
            "scenario", f"must name a bundled scenario or generated:<seed>, got {show(name)}"
        )
    try:
        return load_scenario(name)
    except ScenarioError as err:
        raise fail("scenario", str(err)) from None


class _Loader:
    """Reads one position into a fresh state, part by part, recording where each tile lies."""

    def __init__(self, data: dict[str, Any], scn: Scenario) -> None:
        self.data = data
        self.scn = scn
        self.state = GameState(scn, 0)
        self.factions = list(scn.factions)
        self.tile_ids = [t.id for t in scn.tiles]
        self.char_ids = [c.id for c in scn.characters]
        self.terminal_ids = [t.id for t in scn.terminals]
        self.seen: dict[int, str] = {}

    def load(self, version: int) -> GameState:
        """Every field in its type and range, then every invariant (PositionError otherwise)."""
        data, scn, state = self.data, self.scn, self.state
        state.turn = _int(data, "turn", "turn", 1, scn.turns)
        state.phase = PHASES[_name(data, "phase", "phase", PHASES)]
        state.initiative = _name(data, "initiative", "initiative", self.factions)
        state.active = _name(data, "active", "active", self.factions)
        state.passes = _int(data, "passes", "passes", 0, 1)
        decision = _object(data, "decision", "decision", DECISION_KEYS)
        state.decision = DECISIONS[_name(decision, "kind", "decision.kind", DECISIONS)]
        state.decider = _name(decision, "player", "decision.player", self.factions)
        self.players()
        state.bag = self.tiles("bag", _array(data, "bag", "bag", len(self.tile_ids)))
        state.discard = self.tiles(
            "discard", _array(data, "discard", "discard", len(self.tile_ids))
        )
        state.box = self.tiles("box", _array(data, "box", "box", len(self.tile_ids)))
        self.doors()
        self.characters()
        missing = [self.tile_ids[t] for t in range(len(self.tile_ids)) if t not in self.seen]
        if missing:
            raise fail("bag/discard/box/hands/tiles", f"tiles {missing} are nowhere (ER-TILE-11)")
        self.terminals_and_caches()
        self.round()
        self.result()
        state.dice_queue = self.faces("dice_queue", MAX_DICE_QUEUE)
        if version >= 2:
            state.last_roll = self.faces("last_roll", limits_for(scn).yellow_roll)
        most = state.turn * limits_for(scn).turn_steps
        state.steps = _int(data, "steps", "steps", 0, most)  # ER-SCN-13, turn by turn
        problem = first_problem(state)
        if problem is not None:
            raise fail(*problem)
        return state

    def tiles(self, field: str, value: list) -> list[int]:
        """Tile ids, each found in no other place so far (ER-TILE-11); sorted, as piles are."""
        out = []
        for t in value:
            index = choice(field, t, self.tile_ids)
            if index in self.seen:
                raise fail(field, f"tile {t} is also in {self.seen[index]} (ER-TILE-11: one place)")
            self.seen[index] = field
            out.append(index)
        return sorted(out)

    def players(self) -> None:
        """CP, MP, hand, redraw flag and bid of each faction."""
        state, scn = self.state, self.scn
        players = _object(self.data, "players", "players", self.factions)
        for p, f in enumerate(self.factions):
            field = f"players.{f}"
            pd = _object(players, f, field, PLAYER_KEYS)
            state.cp[p] = _int(pd, "cp", f"{field}.cp", 0, MAX_CP)
            state.mp[p] = _int(pd, "mp", f"{field}.mp", scn.start_mp[f], _most_mp(scn, f))
            hand = _array(pd, "hand", f"{field}.hand", len(self.tile_ids))
            state.hands[p] = self.tiles(f"{field}.hand", hand)
            state.redrew[p] = _bool(pd, "redrew", f"{field}.redrew")
            state.bids[p] = _optional_int(pd, "bid", f"{field}.bid", 0, MAX_CP)

    def doors(self) -> None:
        """Each door of the map: its kind (as the map has it), state and "opened this round"."""
        scn, state = self.scn, self.state
        keys = [door_key(scn, d) for d in range(len(scn.board.doors))]
        doors = _object(self.data, "doors", "doors", keys)
        for d, key in enumerate(keys):
            field = f"doors.{key}"
            dd = _object(doors, key, field, DOOR_KEYS)
            kind = scn.board.doors[d].kind
            _name(dd, "kind", f"{field}.kind", (kind,))  # the map's door (ER-SCN-1)
            state.doors[d] = _name(dd, "state", f"{field}.state", DOOR_STATES)
            state.door_opened[d] = _bool(dd, "opened_this_round", f"{field}.opened_this_round")

    def characters(self) -> None:
        """Every character of the scenario, exactly."""
        chars = _object(self.data, "characters", "characters", self.char_ids)
        for c, cid in enumerate(self.char_ids):
            self.character(c, _object(chars, cid, f"characters.{cid}", CHARACTER_KEYS))

    def character(self, c: int, cd: dict[str, Any]) -> None:
        """One character's card, figure, tiles and turn memory."""
        scn = self.scn
        spec = scn.characters[c]
        field = f"characters.{spec.id}"
        ch = self.state.chars[c]
        ch.square = _square_from(scn, f"{field}.square", entry(cd, "square", f"{field}.square"))
        ch.facing = _name(cd, "facing", f"{field}.facing", DIRECTION_NAMES)
        ch.wounded = _name(cd, "side", f"{field}.side", SIDES) == 1
        lp = max(spec.healthy.lp, spec.wounded.lp)
        ch.wounds = _int(cd, "wounds", f"{field}.wounds", 0, lp)  # ER-WND-1/-2 in invariants
        ch.engaged = _bool(cd, "engaged", f"{field}.engaged")
        ch.dead = _bool(cd, "dead", f"{field}.dead")
        maxcp = max(spec.healthy.maxcp, spec.wounded.maxcp)
        ch.cp_spent = _int(cd, "cp_spent", f"{field}.cp_spent", 0, maxcp)  # ER-CP-3
        slots = min(scn.max_tiles_per_character, 4)  # ER-ORD-4; ER-ENV-6 addresses 4 slots
        assigned = _array(cd, "tiles", f"{field}.tiles", slots)
        ch.tiles = [self.assigned(f"{field}.tiles[{i}]", a) for i, a in enumerate(assigned)]
        ch.cards = _int(cd, "cards", f"{field}.cards", 0, limits_for(scn).cards)
        ch.weapon_ready = _bool(cd, "weapon_ready", f"{field}.weapon_ready")
        tried = _array(cd, "tried_terminals", f"{field}.tried_terminals", len(self.terminal_ids))
        ch.tried = {choice(f"{field}.tried_terminals", t, self.terminal_ids) for t in tried}
        if len(ch.tried) != len(tried):
            raise fail(f"{field}.tried_terminals", "names a terminal twice")

    def assigned(self, field: str, value: Any) -> AssignedTile:
        """One assigned tile and the CP on its four sections (ER-ORD-3, ER-ORD-7)."""
        if not isinstance(value, dict):
            raise fail(field, f"must be an object with tile, cp, got {show(value)}")
        exact_keys(field, value, ASSIGNED_KEYS)
        tile = self.tiles(f"{field}.tile", [entry(value, "tile", f"{field}.tile")])[0]
        cps = _array(value, "cp", f"{field}.cp", 4)
        if len(cps) != 4:
            raise fail(f"{field}.cp", "must be four integers, the CP on sections 0..3")
        sections = self.scn.tiles[tile].sections
        placed = [int_range(f"{field}.cp[{k}]", v, 0, sections[k].max) for k, v in enumerate(cps)]
        return AssignedTile(tile, placed)

    def terminals_and_caches(self) -> None:
        """Which terminals are hacked and which caches still hold their item."""
        scn, state = self.scn, self.state
        terminals = _object(self.data, "terminals", "terminals", self.terminal_ids)
        state.hacked = [_bool(terminals, t, f"terminals.{t}") for t in self.terminal_ids]
        caches = _array(self.data, "caches", "caches", len(scn.caches))
        if len(caches) != len(scn.caches):
            raise fail("caches", f"the scenario has {len(scn.caches)} cache(s)")
        for i, (cache, value) in enumerate(zip(scn.caches, caches, strict=True)):
            field = f"caches[{i}]"
            if not isinstance(value, dict):
                raise fail(field, f"must be an object with square, full, got {show(value)}")
            exact_keys(field, value, CACHE_KEYS)
            square = entry(value, "square", f"{field}.square")
            if _square_from(scn, f"{field}.square", square) != cache.square:
                raise fail(f"{field}.square", f"must be {_square(scn, cache.square)} (ER-SCN-1)")
            state.cache_full[i] = _bool(value, "full", f"{field}.full")

    def round(self) -> None:
        """The round in progress: activated character, its flags, a Move or an order being built."""
        scn, state = self.scn, self.state
        rd = _object(self.data, "round", "round", ROUND_KEYS)
        who = entry(rd, "character", "round.character")
        state.char = -1 if who is None else choice("round.character", who, self.char_ids)
        state.reactivation = _bool(rd, "reactivation", "round.reactivation")
        state.acted = _bool(rd, "acted", "round.acted")
        most_cp = max(c.healthy.maxcp for c in scn.characters)
        state.round_decisions = _int(rd, "decisions", "round.decisions", 0, most_cp + 2)
        most_mvp = max(max(c.healthy.mov, c.wounded.mov) * c.healthy.maxcp for c in scn.characters)
        state.mvp = _int(rd, "mvp", "round.mvp", 0, most_mvp)  # ER-MOV-1: MOV per CP
        state.transferred = _bool(rd, "transferred", "round.transferred")
        state.section = _optional_int(rd, "section", "round.section", 0, 15)  # ER-ENV-6
        state.order_cp = _int(rd, "cp", "round.cp", 0, 4)  # ER-ENV-5
        state.target = self.target(entry(rd, "target", "round.target"))

    def target(self, value: Any) -> int:
        """A direction for a Close Combat order, a character for a Shoot order (ER-ENV-5)."""
        state = self.state
        if value is None:
            return -1
        c = state.char
        if c < 0 or not 0 <= state.section < 4 * len(state.chars[c].tiles):
            raise fail("round.target", "only an order being built on a section has a target")
        kind = section_of(state, c, state.section)[2].type
        if kind == CLOSE_COMBAT:
            return choice("round.target", value, DIRECTION_NAMES)
        if kind == SHOOT:
            return choice("round.target", value, self.char_ids)
        raise fail("round.target", f"an order of type {kind} takes no target (ER-ENV-5)")

    def result(self) -> None:
        """The winner, if any, and the generator."""
        state = self.state
        winner = entry(self.data, "winner", "winner")
        if winner is None:
            state.winner = None
        else:
            state.winner = choice("winner", winner, [*self.factions, "draw"])
            state.winner = -1 if state.winner == 2 else state.winner
        rng = entry(self.data, "rng", "rng")
        if not isinstance(rng, str) or not _RNG.fullmatch(rng):
            raise fail("rng", f"must be 16 lowercase hexadecimal digits, got {show(rng)}")
        state.rng = SplitMix64(int(rng, 16))

    def faces(self, key: str, most: int) -> list[str]:
        """Die faces ``Y1``..``Y6``, ``B1``..``B6`` (ER-DICE-1)."""
        faces = _array(self.data, key, key, most)
        for i, face in enumerate(faces):
            choice(f"{key}[{i}]", face, FACES)
        return list(faces)


def _most_mp(scn: Scenario, faction: str) -> int:
    """ER-SCN-10/-11/-14: every terminal hacked or unhacked, every enemy killed, every hold
    square held."""
    mission = scn.mission
    enemies = sum(1 for c in scn.characters if c.faction != faction)
    mp = scn.start_mp[faction] + mission.kill_mp[faction] * enemies
    mp += mission.hold_mp.get(faction, 0) * len(mission.hold_squares)
    per_terminal = mission.unhacked_terminal_mp.get(faction, 0)
    if faction == mission.hacker_faction:
        per_terminal = max(per_terminal, mission.hack_mp)
    return mp + per_terminal * len(scn.terminals)
