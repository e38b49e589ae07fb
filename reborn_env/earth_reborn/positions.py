"""Positions: the full game state to and from plain JSON data, exactly and validated (ER-GEN-3).

The schema is documented in ``docs/position_format.md``. ``state_to_dict`` and ``state_from_dict``
are inverse: a saved position restores the same game, generator included. Loading checks the
invariants (every tile in one place, ER-TILE-11; figures on the map; counts consistent; the pending
decision coherent and with at least one legal action) and raises :class:`PositionError` naming the
field and what is allowed.
"""

from __future__ import annotations

from typing import Any

from ..common.errors import PositionError
from ..common.positions import PositionReader as _Reader
from ..common.positions import choice as _choice
from ..common.positions import fail as _fail
from ..common.positions import int_range as _int_range
from ..common.rng import SplitMix64
from .actions import MAX_CP
from .dice import inject
from .engine import legal_actions
from .scenario import DIRECTION_NAMES, SHOOT, Scenario
from .scenario_file import load_scenario
from .state import (
    ACTIVATION,
    ACTIVITY,
    AIM,
    CHOOSE_DISCARD,
    CP,
    DECISIONS,
    DISCARD,
    DOOR_STATES,
    DUEL_ANSWER,
    DUEL_ASK,
    FINAL,
    GAME_OVER,
    INITIATIVE,
    MOVING,
    MULLIGAN,
    OVER,
    PHASES,
    ROUND,
    TARGET,
    AssignedTile,
    GameState,
)

FORMAT = "earth_reborn.position"
VERSION = 1

# Which phase each decision belongs to, and whether it needs an activated character.
_DECISION_PHASE = {
    MULLIGAN: INITIATIVE,
    DUEL_ASK: INITIATIVE,
    DUEL_ANSWER: INITIATIVE,
    ROUND: ACTIVITY,
    CHOOSE_DISCARD: ACTIVITY,
    ACTIVATION: ACTIVITY,
    MOVING: ACTIVITY,
    TARGET: ACTIVITY,
    CP: ACTIVITY,
    AIM: ACTIVITY,
    DISCARD: FINAL,
    GAME_OVER: OVER,
}
_NEEDS_CHARACTER = (ACTIVATION, MOVING, TARGET, CP, AIM)


# --- Saving -------------------------------------------------------------------------------------


def _square(scn: Scenario, sq: int) -> list[int]:
    return list(scn.board.xy(sq))


def _door_key(scn: Scenario, d: int) -> str:
    door = scn.board.doors[d]
    (ax, ay), (bx, by) = scn.board.xy(door.a), scn.board.xy(door.b)
    return f"{ax},{ay}|{bx},{by}"


def state_to_dict(state: GameState) -> dict[str, Any]:
    """The position as JSON-ready data (see docs/position_format.md)."""
    scn = state.scenario
    factions = scn.factions
    tile_ids = [t.id for t in scn.tiles]

    def tiles_of(pile: list[int]) -> list[str]:
        return [tile_ids[t] for t in pile]

    target: Any = None
    if state.target >= 0:
        kind = (
            scn.tiles[state.chars[state.char].tiles[state.section >> 2].tile]
            .sections[state.section & 3]
            .type
        )
        target = scn.characters[state.target].id if kind == SHOOT else DIRECTION_NAMES[state.target]
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
            _door_key(scn, d): {
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
                "side": "wounded" if ch.wounded else "healthy",
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
            "target": target,
            "cp": state.order_cp,
        },
        "winner": None
        if state.winner is None
        else ("draw" if state.winner < 0 else factions[state.winner]),
        "rng": f"{state.rng.state:016x}",
        "dice_queue": state.dice_queue[:],
        "steps": state.steps,
    }


# --- Loading ------------------------------------------------------------------------------------


def _square_from(scn: Scenario, field: str, value: Any) -> int:
    board = scn.board
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise _fail(field, f"a square is [x, y], got {value!r}")
    x, y = value
    if not board.on_map(x, y) or board.void[board.square(x, y)]:
        raise _fail(field, f"square ({x},{y}) is not a floor square of the {scn.name} map")
    return board.square(x, y)


def state_from_dict(data: Any, scenario: Scenario | None = None) -> GameState:
    """Rebuild a state from ``data``; raises PositionError on anything malformed or inconsistent."""
    r = _Reader(data)
    if data.get("format") != FORMAT or data.get("version") != VERSION:
        raise PositionError(
            f"not an Earth Reborn position: 'format' must be {FORMAT!r} and 'version' {VERSION}"
        )
    name = r.get("scenario", str)
    if scenario is None:
        scenario = load_scenario(name)
    elif scenario.name != name:
        raise _fail(
            "scenario", f"position is for {name!r}, this environment plays {scenario.name!r}"
        )
    scn = scenario
    state = GameState(scn, 0)
    factions = list(scn.factions)
    tile_ids = [t.id for t in scn.tiles]
    char_ids = [c.id for c in scn.characters]

    state.turn = _int_range("turn", r.get("turn", int), 1, scn.turns)
    state.phase = PHASES[_choice("phase", r.get("phase", str), PHASES)]
    state.initiative = _choice("initiative", r.get("initiative", str), factions)
    state.active = _choice("active", r.get("active", str), factions)
    state.passes = _int_range("passes", r.get("passes", int), 0, 1)
    decision = r.get("decision", dict)
    state.decision = DECISIONS[
        _choice("decision.kind", r.get("decision.kind", str, decision), DECISIONS)
    ]
    state.decider = _choice("decision.player", r.get("decision.player", str, decision), factions)

    players = r.get("players", dict)
    seen: dict[int, str] = {}

    def tiles_from(field: str, value: Any) -> list[int]:
        if not isinstance(value, list):
            raise _fail(field, f"must be a list of tile ids, got {value!r}")
        out = []
        for t in value:
            index = _choice(field, t, tile_ids)
            if index in seen:
                raise _fail(
                    field, f"tile {t} is also in {seen[index]} (ER-TILE-11: one place each)"
                )
            seen[index] = field
            out.append(index)
        return sorted(out)

    for p, f in enumerate(factions):
        pd = r.get(f"players.{f}", dict, players)
        state.cp[p] = _int_range(f"players.{f}.cp", r.get(f"players.{f}.cp", int, pd), 0, MAX_CP)
        state.mp[p] = _int_range(f"players.{f}.mp", r.get(f"players.{f}.mp", int, pd), 0, 999)
        state.hands[p] = tiles_from(f"players.{f}.hand", r.get(f"players.{f}.hand", list, pd))
        state.redrew[p] = r.get(f"players.{f}.redrew", bool, pd)
        bid = pd.get("bid")
        if bid is not None and (not isinstance(bid, int) or isinstance(bid, bool)):
            raise _fail(f"players.{f}.bid", f"must be null or an integer, got {bid!r}")
        state.bids[p] = -1 if bid is None else _int_range(f"players.{f}.bid", bid, 0, MAX_CP)
    state.bag = tiles_from("bag", r.get("bag", list))
    state.discard = tiles_from("discard", r.get("discard", list))
    state.box = tiles_from("box", r.get("box", list))

    doors = r.get("doors", dict)
    for d in range(len(scn.board.doors)):
        key = _door_key(scn, d)
        dd = r.get(f"doors.{key}", dict, doors)
        state.doors[d] = _choice(
            f"doors.{key}.state", r.get(f"doors.{key}.state", str, dd), DOOR_STATES
        )
        state.door_opened[d] = r.get(f"doors.{key}.opened_this_round", bool, dd)
    extra = set(doors) - {_door_key(scn, d) for d in range(len(scn.board.doors))}
    if extra:
        raise _fail("doors", f"no door on edge(s) {sorted(extra)} in {scn.name}")

    chars = r.get("characters", dict)
    if set(chars) != set(char_ids):
        raise _fail("characters", f"must list exactly {', '.join(char_ids)}")
    terminal_ids = [t.id for t in scn.terminals]
    for c, cid in enumerate(char_ids):
        cd = chars[cid]
        field = f"characters.{cid}"
        ch = state.chars[c]
        ch.square = _square_from(scn, f"{field}.square", r.get(f"{field}.square", list, cd))
        ch.facing = _choice(f"{field}.facing", r.get(f"{field}.facing", str, cd), DIRECTION_NAMES)
        ch.wounded = (
            _choice(f"{field}.side", r.get(f"{field}.side", str, cd), ("healthy", "wounded")) == 1
        )
        lp = state.stats(c).lp
        ch.wounds = _int_range(f"{field}.wounds", r.get(f"{field}.wounds", int, cd), 0, lp - 1)
        ch.engaged = r.get(f"{field}.engaged", bool, cd)
        ch.dead = r.get(f"{field}.dead", bool, cd)
        maxcp = scn.characters[c].healthy.maxcp
        ch.cp_spent = _int_range(f"{field}.cp_spent", r.get(f"{field}.cp_spent", int, cd), 0, maxcp)
        ch.tiles = []
        assigned = r.get(f"{field}.tiles", list, cd)
        if len(assigned) > scn.max_tiles_per_character:
            raise _fail(f"{field}.tiles", f"at most {scn.max_tiles_per_character} tiles (ER-ORD-4)")
        for i, a in enumerate(assigned):
            af = f"{field}.tiles[{i}]"
            tile = tiles_from(f"{af}.tile", [r.get(f"{af}.tile", str, a)])[0]
            cps = r.get(f"{af}.cp", list, a)
            sections = scn.tiles[tile].sections
            if len(cps) != 4 or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in cps
            ):
                raise _fail(f"{af}.cp", "must be four integers, the CP on sections 0..3")
            for k, v in enumerate(cps):
                _int_range(f"{af}.cp[{k}]", v, 0, sections[k].max)  # ER-ORD-7
            ch.tiles.append(AssignedTile(tile, list(cps)))
        ch.cards = _int_range(f"{field}.cards", r.get(f"{field}.cards", int, cd), 0, 99)
        ch.weapon_ready = r.get(f"{field}.weapon_ready", bool, cd)
        tried = r.get(f"{field}.tried_terminals", list, cd)
        ch.tried = {_choice(f"{field}.tried_terminals", t, terminal_ids) for t in tried}

    missing = [tile_ids[t] for t in range(len(tile_ids)) if t not in seen]
    if missing:
        raise _fail("bag/discard/box/hands/tiles", f"tiles {missing} are nowhere (ER-TILE-11)")

    terminals = r.get("terminals", dict)
    if set(terminals) != set(terminal_ids):
        raise _fail("terminals", f"must list exactly {', '.join(terminal_ids)}")
    state.hacked = [r.get(f"terminals.{t}", bool, terminals) for t in terminal_ids]
    caches = r.get("caches", list)
    if len(caches) != len(scn.caches):
        raise _fail("caches", f"the scenario has {len(scn.caches)} cache(s)")
    state.cache_full = [r.get(f"caches[{i}].full", bool, c) for i, c in enumerate(caches)]

    _load_round(r, state, char_ids)
    winner = data.get("winner")
    if winner is None:
        state.winner = None
    else:
        state.winner = -1 if winner == "draw" else _choice("winner", winner, factions)
    rng = r.get("rng", str)
    try:
        state.rng = SplitMix64(int(rng, 16))
    except ValueError:
        raise _fail("rng", f"must be a hexadecimal string, got {rng!r}") from None
    queue = r.get("dice_queue", list)
    try:
        inject(state, queue)
    except ValueError as err:
        raise _fail("dice_queue", str(err)) from None
    state.steps = _int_range("steps", r.get("steps", int), 0, 10**9)
    _check_consistency(state)
    return state


def _load_round(r: _Reader, state: GameState, char_ids: list[str]) -> None:
    rd = r.get("round", dict)
    who = rd.get("character") if isinstance(rd, dict) else None
    state.char = -1 if who is None else _choice("round.character", who, char_ids)
    state.reactivation = r.get("round.reactivation", bool, rd)
    state.acted = r.get("round.acted", bool, rd)
    state.round_decisions = _int_range(
        "round.decisions", r.get("round.decisions", int, rd), 0, 10**6
    )
    state.mvp = _int_range("round.mvp", r.get("round.mvp", int, rd), 0, 999)
    state.transferred = r.get("round.transferred", bool, rd)
    section = rd.get("section")
    if section is not None and (not isinstance(section, int) or isinstance(section, bool)):
        raise _fail("round.section", f"must be null or a section id 0..15, got {section!r}")
    state.section = -1 if section is None else _int_range("round.section", section, 0, 15)
    state.order_cp = _int_range("round.cp", r.get("round.cp", int, rd), 0, 4)
    target = rd.get("target")
    if target is None:
        state.target = -1
    elif target in DIRECTION_NAMES:
        state.target = DIRECTION_NAMES.index(target)
    else:
        state.target = _choice("round.target", target, char_ids)


def _check_consistency(state: GameState) -> None:
    """Cross-field invariants: phase matches decision, figures apart, cards kept, live decision."""
    scn = state.scenario
    if _DECISION_PHASE[state.decision] != state.phase:
        raise _fail(
            "decision.kind", f"'{state.decision}' cannot be pending in the {state.phase} phase"
        )
    if (state.decision == GAME_OVER) != (state.winner is not None):
        raise _fail("winner", "a finished game (decision game_over) needs a winner, and only it")
    if state.phase == ACTIVITY and state.decider != state.active:
        raise _fail("decision.player", "in the activity phase the active player decides (ER-ACT-3)")
    needs = state.decision in _NEEDS_CHARACTER
    if needs != (state.char >= 0):
        raise _fail(
            "round.character",
            f"decision '{state.decision}' "
            + ("needs an activated character" if needs else "has no activated character"),
        )
    if state.char >= 0:
        c = state.char
        cid = scn.characters[c].id
        if (
            state.chars[c].dead
            or state.faction_of[c] != state.decider
            or not state.chars[c].engaged
        ):
            raise _fail(
                "round.character", f"{cid} must be a living, engaged character of the decider"
            )
        if state.decision in (TARGET, CP, AIM) and not (
            0 <= state.section < 4 * len(state.chars[c].tiles)
        ):
            raise _fail("round.section", f"{cid} has no section {state.section}")
    occupied: dict[int, str] = {}
    for c, ch in enumerate(state.chars):
        if ch.dead:
            continue
        cid = scn.characters[c].id
        other = occupied.get(ch.square)
        if other is not None and not (
            state.decision == MOVING and state.char in (c, scn.char_index[other])
        ):
            x, y = scn.board.xy(ch.square)
            raise _fail(
                f"characters.{cid}.square", f"{other} already stands on ({x},{y}) (ER-MOV-5)"
            )
        occupied[ch.square] = cid
    cards = sum(ch.cards for ch in state.chars)
    cards += sum(
        1 for i, c in enumerate(scn.caches) if state.cache_full[i] and c.item == "magnetic_card"
    )
    expected = sum(c.cards for c in scn.characters) + sum(
        1 for c in scn.caches if c.item == "magnetic_card"
    )
    if cards != expected:
        raise _fail(
            "characters.*.cards", f"{cards} magnetic cards in play, the scenario has {expected}"
        )
    if state.decision != GAME_OVER and not legal_actions(state):
        raise _fail("decision", f"'{state.decision}' has no legal action in this position")
