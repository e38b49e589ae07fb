"""Close combat against figures and doors, and shooting (sections 12 and 13)."""

from __future__ import annotations

from .dice import Y_DISTANCE, Y_OUT_OF_AMMO, Y_PERFECT, YELLOW, combat_result, roll
from .geometry import arc_colour, closed_door, closed_doors, occupied_squares, step_target
from .sight import RED, fire_arc, has_line_of_sight, range_to
from .state import DESTROYED, GameState
from .wounds import check_elimination, wound


def enemy_at(state: GameState, c: int, square: int) -> int:
    """A living enemy of ``c`` on ``square``, else -1."""
    other = state.figure_at(square, exclude=c)
    return other if other >= 0 and state.faction_of[other] != state.faction_of[c] else -1


def close_combat_targets(state: GameState, c: int) -> list[int]:
    """ER-CC-1, ER-CC-10: directions holding an adjacent living enemy or a closed intact door."""
    square = state.chars[c].square
    found = []
    for d in range(4):
        if closed_door(state, square, d) >= 0:
            found.append(d)
            continue
        target = step_target(state, square, d)
        if target >= 0 and enemy_at(state, c, target) >= 0:
            found.append(d)
    return found


def shoot_targets(state: GameState, c: int) -> list[int]:
    """ER-SHOOT-1/-2: living enemy characters in line of sight of ``c``'s ready weapon."""
    ch = state.chars[c]
    if state.scenario.characters[c].weapon is None or not ch.weapon_ready:
        return []
    enemies = [
        i
        for i, e in enumerate(state.chars)
        if not e.dead and state.faction_of[i] != state.faction_of[c]
    ]
    if not enemies:
        return []
    board = state.scenario.board
    occupied = occupied_squares(state)
    closed = closed_doors(state)
    return [
        i
        for i in enemies
        if has_line_of_sight(board, ch.square, ch.facing, state.chars[i].square, occupied, closed)
    ]


def resolve_close_combat(state: GameState, attacker: int, d: int, n: int) -> None:
    """ER-CC-1..10: fight the enemy or door on side ``d`` with ``n`` CP on the section."""
    square = state.chars[attacker].square
    door = closed_door(state, square, d)
    if door >= 0:
        attack_door(state, attacker, d, door, n)
        return
    defender = enemy_at(state, attacker, step_target(state, square, d))
    attack_figure(state, attacker, defender, d, n)


def attack_door(state: GameState, attacker: int, d: int, door: int, n: int) -> None:
    """ER-CC-10: only the attacker rolls; hits count 1, criticals 3, vs the door."""
    dice = state.stats(attacker).cc[arc_colour(state, attacker, d)] + (n - 1)
    crits, hits = combat_result(roll(state, YELLOW, dice))
    if hits + 3 * crits >= state.scenario.board.doors[door].defense:
        state.doors[door] = DESTROYED


def attack_figure(state: GameState, attacker: int, defender: int, d: int, n: int) -> None:
    """ER-CC-2..8: both roll at once; criticals first (attacker's, defender's), then normals."""
    a_stats, d_stats = state.stats(attacker), state.stats(defender)
    a_dice = a_stats.cc[arc_colour(state, attacker, d)] + (n - 1)  # ER-CC-3 striking hard
    d_dice = d_stats.cc[arc_colour(state, defender, (d + 2) % 4)]
    a_crit, a_hits = combat_result(roll(state, YELLOW, a_dice))
    d_crit, d_hits = combat_result(roll(state, YELLOW, d_dice))
    attack_value = a_hits + a_stats.auto_hits
    wound(state, defender, a_crit)
    wound(state, attacker, d_crit)
    if not state.chars[defender].dead:
        now = state.stats(defender)  # ER-CC-6: a flip applies its Armour at once
        defensive_value = d_hits + now.auto_hits + now.arm
        if attack_value > defensive_value:
            wound(state, defender, attack_value - defensive_value)
    take_cards_from_the_fallen(state, attacker, defender)
    check_elimination(state)


def take_cards_from_the_fallen(state: GameState, attacker: int, defender: int) -> None:
    """ER-DOOR-12: a surviving combatant takes its victim's cards; both dead, none move."""
    a, b = state.chars[attacker], state.chars[defender]
    if b.dead and not a.dead:
        a.cards, b.cards = a.cards + b.cards, 0
    elif a.dead and not b.dead:
        b.cards, a.cards = b.cards + a.cards, 0


def resolve_shot(state: GameState, shooter: int, target: int, n: int, aim: int) -> None:
    """ER-SHOOT-4..9: targeting roll with ``aim`` extra dice, ammo, then damage (pour it on)."""
    spec = state.scenario.characters[shooter]
    weapon = spec.weapon
    ch, tg = state.chars[shooter], state.chars[target]
    board = state.scenario.board
    faces = roll(state, YELLOW, state.stats(shooter).sht + weapon.targeting_bonus + aim)
    distance = sum(Y_DISTANCE[f] for f in faces)
    hit = Y_PERFECT in faces or distance >= range_to(board, ch.square, tg.square)
    if weapon.out_of_ammo_icon and Y_OUT_OF_AMMO in faces:
        ch.weapon_ready = False  # ER-SHOOT-6: after this shot
    if not hit:
        return
    arc = fire_arc(board, ch.square, ch.facing, tg.square)
    dice = (weapon.damage_red if arc == RED else weapon.damage_orange) + (n - 1 - aim)
    crits, hits = combat_result(roll(state, YELLOW, dice))
    wound(state, target, crits)
    if not tg.dead:
        armour = state.stats(target).arm
        if hits > armour:
            wound(state, target, hits - armour)
    check_elimination(state)
