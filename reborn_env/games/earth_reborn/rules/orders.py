"""An activated character's round: assigning tiles and spending CP on orders (sections 7, 15).

Covers the decisions with nothing in progress (ER-ENV-3), building and resolving a non-Move order
(ER-ENV-5), reloading (ER-SHOOT-7), Jack Saw's saw (ER-ABIL-1), Interact (ER-INT-3) and Search
(ER-SRCH-2). The Move order lives in :mod:`movement`.
"""

from __future__ import annotations

from ..scenario.model import CLOSE_COMBAT, DARK_BLUE, INTERACT, MOVE, SEARCH, SHOOT
from . import tiles
from .combat import close_combat_targets, resolve_close_combat, resolve_shot, shoot_targets
from .dice import BLACK, YELLOW, roll, search_points, yellow_test_points
from .geometry import arc_colour, closed_door
from .state import (
    ACTIVATION,
    AIM,
    CP,
    DESTROYED,
    GAME_OVER,
    MOVING,
    TARGET,
    AssignedTile,
    GameState,
)
from .turn import ask, end_round

SAW_DOOR_ABILITY = "saw_door"


# --- CP bookkeeping (ER-CP-3, -4, -7, ER-ORD-13) ------------------------------------------------


def can_spend(state: GameState, c: int) -> bool:
    """ER-ENV-10: the pool holds a CP and ``c`` is below its current MAXCP (ER-CP-3/-4)."""
    return state.cp[state.faction_of[c]] >= 1 and state.chars[c].cp_spent < state.stats(c).maxcp


def spend(state: GameState, c: int, n: int) -> None:
    """Move ``n`` CP from the pool onto ``c``'s orders or card; they count toward MAXCP."""
    state.cp[state.faction_of[c]] -= n
    state.chars[c].cp_spent += n
    state.acted = True


def section_of(state: GameState, c: int, section: int):
    """(assigned tile, index, printed section) of section id ``4 * slot + index`` (ER-ENV-6)."""
    assigned = state.chars[c].tiles[section >> 2]
    index = section & 3
    return assigned, index, state.scenario.tiles[assigned.tile].sections[index]


# --- Which orders are possible ------------------------------------------------------------------


def terminal_here(state: GameState, c: int) -> int:
    """ER-INT-3: an unhacked terminal under ``c`` that ``c`` may still try this turn, else -1."""
    scn = state.scenario
    if scn.factions[state.faction_of[c]] != scn.mission.hacker_faction:
        return -1
    ch = state.chars[c]
    for t, terminal in enumerate(scn.terminals):
        if terminal.square == ch.square and not state.hacked[t] and t not in ch.tried:
            return t
    return -1


def cache_here(state: GameState, c: int) -> int:
    """ER-SRCH-2: a cache under ``c`` whose item is still there, else -1."""
    square = state.chars[c].square
    for i, cache in enumerate(state.scenario.caches):
        if cache.square == square and state.cache_full[i]:
            return i
    return -1


def order_possible(state: GameState, c: int, order_type: str) -> bool:
    """ER-ENV-10: a complete order of ``order_type`` exists for ``c`` right now."""
    if order_type == CLOSE_COMBAT:
        return bool(close_combat_targets(state, c))
    if order_type == SHOOT:
        return bool(shoot_targets(state, c))
    if order_type == INTERACT:
        return terminal_here(state, c) >= 0
    return cache_here(state, c) >= 0


def saw_directions(state: GameState, c: int) -> list[int]:
    """ER-ABIL-1: closed intact doors on edges of Jack Saw's square that lie in a dark-blue arc."""
    if SAW_DOOR_ABILITY not in state.scenario.characters[c].abilities:
        return []
    square = state.chars[c].square
    return [
        d
        for d in range(4)
        if closed_door(state, square, d) >= 0 and arc_colour(state, c, d) == DARK_BLUE
    ]


def spending_actions(state: GameState, c: int, out: list[int], moving: bool) -> None:
    """MOVE_CP, and (with nothing in progress) SELECT_ORDER, RELOAD and SAW_DOOR (ER-ENV-10)."""
    if not can_spend(state, c):
        return
    codec = state.codec
    move_base, select_base = codec.base["MOVE_CP"], codec.base["SELECT_ORDER"]
    possible: dict[str, bool] = {}
    table = state.scenario.tiles
    for slot, assigned in enumerate(state.chars[c].tiles):
        sections = table[assigned.tile].sections
        for index in range(4):
            section = sections[index]
            placed = assigned.cp[index]
            if section.type == MOVE:
                if placed < section.max:
                    out.append(move_base + 4 * slot + index)
            elif not moving and placed == 0:
                ok = possible.get(section.type)
                if ok is None:
                    ok = possible[section.type] = order_possible(state, c, section.type)
                if ok:
                    out.append(select_base + 4 * slot + index)
    if moving:
        return
    ch = state.chars[c]
    if state.scenario.characters[c].weapon is not None and not ch.weapon_ready:
        out.append(codec.base["RELOAD"])
    saw = codec.base["SAW_DOOR"]
    out.extend(saw + d for d in saw_directions(state, c))


def activation_actions(state: GameState, c: int, first: bool, out: list[int]) -> None:
    """ER-ENV-3 without END_ROUND: ASSIGN only as the round's first decision (ER-ORD-1/-2/-4)."""
    player = state.faction_of[c]
    hand = state.hands[player]
    if first and hand and len(state.chars[c].tiles) < state.scenario.max_tiles_per_character:
        base = state.codec.base["ASSIGN"]
        out.extend(base + t for t in hand)
    spending_actions(state, c, out, moving=False)


def legal_activation(state: GameState, out: list[int]) -> None:
    """ER-ENV-3 and ER-ACT-8: END_ROUND after a first activation, or once a reactivation acted."""
    activation_actions(state, state.char, state.round_decisions == 0, out)
    if not state.reactivation or state.acted:
        out.append(state.codec.base["END_ROUND"])


# --- Decisions with nothing in progress ---------------------------------------------------------


def assign(state: GameState, tile: int) -> None:
    """ER-ORD-1/-5: place a tile from behind the screen beside the activated character's card."""
    tiles.assign_from_hand(state, state.decider, tile)
    state.chars[state.char].tiles.append(AssignedTile(tile))
    state.acted = True


def move_cp(state: GameState, section: int) -> None:
    """ER-MOV-1/-2, ER-ORD-10: 1 CP on a Move section gives MOV movement points (merging)."""
    c = state.char
    assigned, index, _ = section_of(state, c, section)
    spend(state, c, 1)
    assigned.cp[index] += 1
    state.mvp += state.stats(c).mov
    if state.decision != MOVING:
        state.transferred = False
        ask(state, MOVING, state.decider)


def select_order(state: GameState, section: int) -> None:
    """ER-ENV-5: start a non-Move order on an empty section; a target step for CC and Shoot."""
    state.section = section
    order_type = section_of(state, state.char, section)[2].type
    ask(state, TARGET if order_type in (CLOSE_COMBAT, SHOOT) else CP, state.decider)


def reload(state: GameState) -> None:
    """ER-SHOOT-7: 1 CP on the card makes the weapon ready again."""
    spend(state, state.char, 1)
    state.chars[state.char].weapon_ready = True


def saw_door(state: GameState, d: int) -> None:
    """ER-ABIL-1: 1 CP on Jack Saw's card destroys the door, no roll."""
    spend(state, state.char, 1)
    state.doors[closed_door(state, state.chars[state.char].square, d)] = DESTROYED


# --- Building a non-Move order (ER-ENV-5) -------------------------------------------------------


def legal_target(state: GameState, out: list[int]) -> None:
    """CHOOSE_TARGET: a direction for Close Combat, an enemy in LoS for Shoot."""
    c = state.char
    if section_of(state, c, state.section)[2].type == CLOSE_COMBAT:
        base = state.codec.base["CHOOSE_TARGET_DIR"]
        out.extend(base + d for d in close_combat_targets(state, c))
    else:
        base = state.codec.base["CHOOSE_TARGET_CHAR"]
        out.extend(base + t for t in shoot_targets(state, c))


def cp_choices(state: GameState) -> int:
    """ER-ENV-5: the most CP the order may take: section max, pool, MAXCP left, and 4."""
    c = state.char
    section = section_of(state, c, state.section)[2]
    room = state.stats(c).maxcp - state.chars[c].cp_spent
    return min(section.max, state.cp[state.faction_of[c]], room, 4)


def legal_cp(state: GameState, out: list[int]) -> None:
    """CHOOSE_CP(n), 1 <= n <= cp_choices."""
    base = state.codec.base["CHOOSE_CP"]
    out.extend(base + n - 1 for n in range(1, cp_choices(state) + 1))


def legal_aim(state: GameState, out: list[int]) -> None:
    """CHOOSE_AIM(k), 0 <= k <= n - 1 (ER-SHOOT-4)."""
    base = state.codec.base["CHOOSE_AIM"]
    out.extend(base + k for k in range(state.order_cp))


def choose_target(state: GameState, target: int) -> None:
    """Record the direction or the enemy; then the CP step."""
    state.target = target
    ask(state, CP, state.decider)


def choose_cp(state: GameState, n: int) -> None:
    """Record the CP; a Shoot with 2+ CP asks for improved targeting, anything else resolves."""
    state.order_cp = n
    if n >= 2 and section_of(state, state.char, state.section)[2].type == SHOOT:
        ask(state, AIM, state.decider)
    else:
        execute_order(state, 0)


def execute_order(state: GameState, aim: int) -> None:
    """ER-ORD-6/-8: pay the CP onto the section (used up), carry the order out, then go on."""
    c, n = state.char, state.order_cp
    assigned, index, section = section_of(state, c, state.section)
    spend(state, c, n)
    assigned.cp[index] = n
    if section.type == CLOSE_COMBAT:
        resolve_close_combat(state, c, state.target, n)
    elif section.type == SHOOT:
        resolve_shot(state, c, state.target, n, aim)
    elif section.type == INTERACT:
        interact_terminal(state, c, n)
    elif section.type == SEARCH:
        search_cache(state, c, n)
    state.section, state.target, state.order_cp = -1, -1, 0
    if state.decision == GAME_OVER:
        return
    if state.chars[c].dead:
        end_round(state)  # ER-WND-6
    else:
        ask(state, ACTIVATION, state.decider)


def interact_terminal(state: GameState, c: int, n: int) -> None:
    """ER-INT-2/-3: TEC + (n - 1) yellow dice; 3 test points hack the terminal for its MP."""
    t = terminal_here(state, c)
    state.chars[c].tried.add(t)
    faces = roll(state, YELLOW, state.stats(c).tec + n - 1)
    mission = state.scenario.mission
    if yellow_test_points(faces) >= mission.interact_threshold:
        state.hacked[t] = True
        state.mp[state.faction_of[c]] += mission.hack_mp


def search_cache(state: GameState, c: int, n: int) -> None:
    """ER-SRCH-2: SRCH + (n - 1) black dice; 3 search points take the cache's item for good."""
    i = cache_here(state, c)
    faces = roll(state, BLACK, state.stats(c).srch + n - 1)
    if search_points(faces) >= state.scenario.mission.search_threshold:
        state.cache_full[i] = False
        state.chars[c].cards += 1  # the version-1 item is a magnetic card (ER-SCN-6)
