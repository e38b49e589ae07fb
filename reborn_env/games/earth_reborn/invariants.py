"""Invariants that hold after every decision of every game: what the engine can reach, as checks.

The fuzz tests run :func:`check_invariants` after every step, and loading a position runs the same
checks (:mod:`positions`), so a loaded position is one the engine could have reached and plays on
with every invariant still holding. Each check names the position field at fault
(docs/position_format.md) and the rule that makes it so. ER-TILE-11 says the engine checks tile
conservation itself: :func:`check_invariants` is that check, and the rest of this list.

The checks assume what loading already guarantees: every value has its type and lies in its own
range (a square on the floor, a section id on an assigned tile, an index of a character or
terminal), so they may call the rules' own functions on the state.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ...core.per_scenario import PerScenario
from .rules.combat import close_combat_targets, shoot_targets
from .rules.engine import legal_actions
from .rules.movement import has_way_out
from .rules.orders import can_spend, cp_choices, order_possible, section_of
from .rules.state import (
    ACTIVATION,
    ACTIVITY,
    AIM,
    CHOOSE_DISCARD,
    CP,
    DISCARD,
    DUEL_ANSWER,
    DUEL_ASK,
    FINAL,
    GAME_OVER,
    INITIATIVE,
    MOVING,
    MULLIGAN,
    OPENED,
    OVER,
    ROUND,
    TARGET,
    GameState,
)
from .rules.tiles import tile_locations
from .rules.turn import command_point_income, hold_points
from .scenario.model import CLOSE_COMBAT, MOVE, SHOOT, Scenario

# ER-SCN-13: a game from the setup stays under this many agent steps (``scenario.turns`` times
# :func:`turn_step_bound`; 2736 for Vault Raid). Benchmarks compare game lengths with it.
STEP_BOUND = 3000

# Which phase each decision belongs to (section 18, ER-TURN-1).
DECISION_PHASE = {
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
# Decisions inside an activated character's round (ER-ENV-3..5), and those building an order.
IN_ROUND = (ACTIVATION, MOVING, TARGET, CP, AIM)
BUILDING = (TARGET, CP, AIM)
# ER-ENV-5: an order takes at most 4 CP, so it adds at most 3 dice to its base roll.
_ORDER_EXTRA_DICE = 3

Problem = tuple[str, str]  # (position field, what is wrong with it)


@dataclass(frozen=True)
class Limits:
    """Bounds derived once per scenario from its rules data (ER-SCN-*)."""

    max_income: tuple[int, int]  # ER-INI-5/-6: base CP plus the larger Bonus CP of every card
    cards: int  # magnetic cards in play: carried at setup plus those in caches (ER-SCN-6)
    yellow_roll: int  # most yellow dice one decision rolls (ER-CC-3, ER-SHOOT-4/-9, ER-INT-3)
    black_roll: int  # most black dice one decision rolls (ER-SRCH-2)
    turn_steps: int  # turn_step_bound
    game_steps: int  # game_step_bound


def door_key(scn: Scenario, d: int) -> str:
    """The position's name of door ``d``: ``"x1,y1|x2,y2"``, north or west square first."""
    door = scn.board.doors[d]
    (ax, ay), (bx, by) = scn.board.xy(door.a), scn.board.xy(door.b)
    return f"{ax},{ay}|{bx},{by}"


def _steps_of_a_turn(scn: Scenario, pools: list[tuple[int, int]], in_progress: int) -> int:
    """ER-SCN-13's count: the most decisions a turn can still take.

    ``pools`` holds, per player, (tiles at hand, CP) at most, or for a loaded position one
    number of "units" as (0, tiles + CP). A player with ``u`` characters to activate, ``h`` tiles
    and ``c`` CP plays at most ``u + h + 2c`` non-pass rounds (each uses up a first activation, a
    tile or a CP, and a tile drawn or picked cost a CP; ER-ACT-8); a round is its ROUND and at
    most one END_ROUND decision; ASSIGN and CHOOSE_DISCARD take a tile each; a CP spent on a
    character buys one RELOAD or SAW_DOOR, or one order of at most four decisions, or a MOVE_CP and
    MOV steps with a card transfer after each, one more transfer and an END_MOVE (ER-DOOR-10).
    Passes: at most one between two non-pass rounds, and the final two (ER-ACT-12/-13).
    """
    mov = max(max(c.healthy.mov, c.wounded.mov) for c in scn.characters)
    per_cp = max(2 * mov + 3, 4)
    total = 2 + 2 + 2  # the last two passes, two redraw choices (ER-INI-4), two duel bids
    for player, (tiles, cp) in enumerate(pools):
        chars = sum(1 for c in scn.characters if c.faction == scn.factions[player])
        rounds = chars + tiles + 2 * cp
        total += 2 * rounds + (tiles + cp) + cp + per_cp * cp + rounds  # + the other's passes
    cards = sum(c.cards for c in scn.characters) + len(scn.caches)
    total += cards * (1 + len(scn.characters))  # PICKUP_CARD: cards reach markers by deaths
    return total + len(scn.tiles) + 2 + in_progress  # DISCARD_TILE, KEEP_HAND (ER-FIN-5)


def turn_step_bound(scn: Scenario) -> int:
    """ER-SCN-13: the most decisions one turn takes from its start (hand <= 5, CP <= income)."""
    pools = [(scn.hand_limit, scn.max_income(f)) for f in scn.factions]
    return _steps_of_a_turn(scn, pools, 0)


def game_step_bound(scn: Scenario) -> int:
    """ER-SCN-13: the most steps a game shows, whatever valid position it was loaded from.

    A position's step count is at most ``turn * turn_step_bound`` (checked on loading); the rest
    of its turn is bounded by its tiles and CP (the budget of :func:`check_players`) and a Move
    order in progress (MVP at most MOV x MAXCP), the later turns each by :func:`turn_step_bound`.
    """
    pools = [(0, scn.hand_limit + scn.max_income(f)) for f in scn.factions]
    mvp = max(max(c.healthy.mov, c.wounded.mov) * c.healthy.maxcp for c in scn.characters)
    in_progress = 2 * mvp + 2 + 3 + 2  # the move's steps and transfers, an order, an END_ROUND
    return scn.turns * turn_step_bound(scn) + _steps_of_a_turn(scn, pools, in_progress)


def _limits(scn: Scenario) -> Limits:
    """The scenario's bounds; the rolls are ER-CC-3 (both sides' dice), ER-SHOOT-4/-9, ER-INT-3."""
    stats = [side for c in scn.characters for side in (c.healthy, c.wounded)]
    most_cc = max(max(s.cc) for s in stats)
    shots = [
        max(s.sht for s in (c.healthy, c.wounded)) + w.targeting_bonus + w.damage_red
        for c in scn.characters
        if (w := c.weapon) is not None
    ]
    yellow = max([2 * most_cc, max(s.tec for s in stats), *shots]) + _ORDER_EXTRA_DICE
    return Limits(
        max_income=(scn.max_income(scn.factions[0]), scn.max_income(scn.factions[1])),
        cards=sum(c.cards for c in scn.characters)
        + sum(1 for c in scn.caches if c.item == "magnetic_card"),
        yellow_roll=yellow,
        black_roll=max(s.srch for s in stats) + _ORDER_EXTRA_DICE,
        turn_steps=turn_step_bound(scn),
        game_steps=game_step_bound(scn),
    )


limits_for = PerScenario(_limits)
"""limits_for(scenario): the scenario's :class:`Limits`, computed once."""


# --- The checks -----------------------------------------------------------------------------------


def check_invariants(state: GameState) -> None:
    """Raise AssertionError naming the first invariant ``state`` breaks."""
    problem = first_problem(state)
    if problem is not None:
        raise AssertionError(f"{problem[0]}: {problem[1]}")


def first_problem(state: GameState) -> Problem | None:
    """The first (field, problem) of :func:`problems`, or None for a state the engine can reach."""
    return next(problems(state), None)


def problems(state: GameState) -> Iterator[Problem]:
    """The broken invariants, in an order where each check may rely on those before it holding."""
    yield from check_tiles(state)
    yield from check_phase(state)
    yield from check_players(state)
    yield from check_characters(state)
    yield from check_terminals(state)
    yield from check_scored(state)
    yield from check_doors(state)
    yield from check_round(state)
    if state.turn == 1 and state.phase == INITIATIVE:
        yield from check_setup(state)
    yield from check_result(state)
    yield from check_dice(state)
    if state.steps > limits_for(state.scenario).game_steps:
        bound = limits_for(state.scenario).game_steps
        yield "steps", f"{state.steps} steps exceed the bound {bound} (ER-SCN-13)"
    if state.winner is None and not legal_actions(state):
        yield "decision", f"'{state.decision}' has no legal action in this position"


def check_tiles(state: GameState) -> Iterator[Problem]:
    """ER-TILE-11: every tile is in exactly one place."""
    try:
        where = tile_locations(state)
    except AssertionError as err:
        yield "bag/discard/box/hands/tiles", f"{err} (ER-TILE-11: one place each)"
        return
    lost = [state.scenario.tiles[t].id for t, w in enumerate(where) if not w]
    if lost:
        yield "bag/discard/box/hands/tiles", f"tiles {lost} are nowhere (ER-TILE-11)"


def _holder(state: GameState) -> int:
    """ER-INI-7 / ER-SCN-9: the initiative holder the scenario names for this turn."""
    scn = state.scenario
    return scn.factions.index(scn.initiative_for_turn(state.turn))


def _initiative_now(state: GameState) -> int:
    """Who holds the initiative marker at this decision (ER-INI-1, -7, -8)."""
    scn = state.scenario
    if state.decision == MULLIGAN:
        return scn.factions.index(scn.marker_at_setup)  # turn 1, before ER-INI-7
    holder = _holder(state)
    if state.phase == INITIATIVE or not scn.initiative_duel:
        return holder
    asker = 1 - holder
    return asker if state.bids[asker] > max(state.bids[holder], 0) else holder


def check_phase(state: GameState) -> Iterator[Problem]:
    """The decision belongs to the phase and the right player; the marker is where it must be."""
    scn = state.scenario
    decision = state.decision
    if DECISION_PHASE[decision] != state.phase:
        yield "decision.kind", f"'{decision}' cannot be pending in the {state.phase} phase"
        return
    if (decision == GAME_OVER) != (state.winner is not None):
        yield "winner", "a finished game (decision game_over) has a winner, and only it"
        return
    if decision == MULLIGAN and state.turn != 1:
        yield "decision.kind", "the redraw choice comes only in turn 1 (ER-INI-4)"
    elif decision in (DUEL_ASK, DUEL_ANSWER) and not scn.initiative_duel:
        yield "decision.kind", f"{scn.name} plays no initiative duel (ER-INI-8)"
    elif state.initiative != _initiative_now(state):
        expected = scn.factions[_initiative_now(state)]
        yield "initiative", f"must be {expected} here (ER-INI-7, ER-INI-8, ER-SCN-9)"
    elif state.phase == ACTIVITY and state.decider != state.active:
        yield "decision.player", "in the activity phase the active player decides (ER-ACT-3)"
    elif decision == DUEL_ASK and state.decider == state.initiative:
        yield "decision.player", "the player without the initiative asks for a duel (ER-INI-8)"
    elif decision == DUEL_ANSWER and state.decider != state.initiative:
        yield "decision.player", "the initiative holder answers a duel (ER-INI-8)"
    elif state.passes and decision != ROUND:
        yield "passes", "a pass is pending only at a round-level decision (ER-ACT-12/-13)"


def check_setup(state: GameState) -> Iterator[Problem]:
    """ER-TURN-4: in turn 1's initiative phase nothing has happened on the table yet."""
    scn = state.scenario
    fresh = GameState(scn, 0)
    for c, (ch, new) in enumerate(zip(state.chars, fresh.chars, strict=True)):
        now = (ch.square, ch.facing, ch.wounded, ch.wounds, ch.dead, ch.cards, ch.weapon_ready)
        then = (new.square, new.facing, new.wounded, new.wounds, new.dead, new.cards, True)
        if now != then:
            yield f"characters.{scn.characters[c].id}", "must be as set up in turn 1 (ER-SCN-7)"
            return
    same = (
        state.doors == fresh.doors
        and state.hacked == fresh.hacked
        and state.cache_full == fresh.cache_full
    )
    if not same:
        yield "doors/terminals/caches", "must be as set up in turn 1 (ER-TURN-4)"
    elif state.mp != fresh.mp:
        yield "players.*.mp", "no mission point is scored before turn 1's activity (ER-SCN-10)"
    elif state.discard:
        yield "discard", "nothing is discarded before turn 1's final phase (ER-TILE-8)"
    elif state.transferred or state.active != fresh.active:
        yield "round", "no round has been played before turn 1's activity (ER-ACT-2)"
    elif state.decision == MULLIGAN:
        yield from check_redraw(state)


def check_redraw(state: GameState) -> Iterator[Problem]:
    """ER-INI-1..4: the first drawer drew and chooses; then the other draws and chooses."""
    factions = state.scenario.factions
    first = state.initiative
    drawn = [first] if state.decider == first else [first, state.decider]
    for p in drawn:
        if len(state.hands[p]) != state.scenario.hand_limit and state.bag:
            yield f"players.{factions[p]}.hand", "a player draws up to 5 tiles (ER-INI-1..3)"
    if state.decider == first and (state.hands[1 - first] or state.redrew[1 - first]):
        yield f"players.{factions[1 - first]}", "draws only after the first redraw choice"
    elif state.redrew[state.decider]:
        yield f"players.{factions[state.decider]}.redrew", "the redraw choice is still to make"


def check_players(state: GameState) -> Iterator[Problem]:
    """CP pools, hands, mission points and bids against what the turn can have given."""
    scn = state.scenario
    limits = limits_for(scn)
    for p, faction in enumerate(scn.factions):
        field = f"players.{faction}"
        mine = [ch for c, ch in enumerate(state.chars) if state.faction_of[c] == p]
        if state.decision in (MULLIGAN, DISCARD) and state.cp[p]:
            yield f"{field}.cp", "pools are empty before turn 1's income and in the final phase"
        elif state.decision in (DUEL_ASK, DUEL_ANSWER) and state.cp[p] != command_point_income(
            state, p
        ):
            yield f"{field}.cp", "holds exactly this turn's income during the duel (ER-INI-5/-6)"
        elif state.phase == INITIATIVE and len(state.hands[p]) > scn.hand_limit:
            yield f"{field}.hand", f"at most {scn.hand_limit} tiles after the draw (ER-INI-1)"
        elif (
            state.decision == DISCARD
            and state.decider != state.initiative
            and (p == state.initiative and len(state.hands[p]) > scn.hand_limit)
        ):
            yield f"{field}.hand", f"kept at most {scn.hand_limit} tiles already (ER-FIN-5)"
        units = len(state.hands[p]) + state.cp[p]
        units += sum(len(ch.tiles) + ch.cp_spent for ch in mine)
        budget = scn.hand_limit + limits.max_income[p]
        if units > budget:
            yield (
                f"{field}.hand/cp",
                f"tiles at hand or assigned plus CP in the pool or spent come to {units}, over "
                f"{budget} (5 tiles and the income at the turn's start; a draw costs 1 CP, "
                "ER-INI-1, ER-INI-5, ER-ACT-9/-10, ER-CP-3)",
            )
        earned = _earned_mp(state, p)
        if not scn.start_mp[faction] <= state.mp[p] <= earned:
            yield (
                f"{field}.mp",
                f"{state.mp[p]} is outside {scn.start_mp[faction]}..{earned}, the points "
                "this position's hacks, kills and result give (ER-SCN-10, ER-SCN-11)",
            )
    yield from check_bids(state)


def _earned_mp(state: GameState, p: int) -> int:
    """ER-SCN-10/-11: the MP ``p`` holds: setup, hacks, kills and the end-of-game points (every
    hack and every kill scores at once, and nothing takes points away)."""
    scn = state.scenario
    faction = scn.factions[p]
    mission = scn.mission
    mp = scn.start_mp[faction]
    if faction == mission.hacker_faction:
        mp += mission.hack_mp * sum(state.hacked)
    dead = sum(1 for c, ch in enumerate(state.chars) if ch.dead and state.faction_of[c] != p)
    mp += mission.kill_mp[faction] * dead
    if state.winner is not None and state.living(0) and state.living(1):  # ended by ER-FIN-1
        mp += mission.unhacked_terminal_mp.get(faction, 0) * state.hacked.count(False)
        mp += hold_points(state, p)  # ER-SCN-14: nothing moves after the end
    return mp


def check_terminals(state: GameState) -> Iterator[Problem]:
    """ER-INT-2/-3: a hack leaves its try on the hacker, dead or alive, until the final phase
    clears tries (ER-FIN-1), so in turn 1, when every hack is this turn's, each hacked terminal
    is among some character's tried terminals."""
    if state.turn != 1 or state.phase not in (ACTIVITY, OVER):
        return
    tried = {t for ch in state.chars for t in ch.tried}
    for t, terminal in enumerate(state.scenario.terminals):
        if state.hacked[t] and t not in tried:
            yield (
                f"terminals.{terminal.id}",
                "hacked in turn 1, yet no character's tried_terminals names it: a hack leaves "
                "its try on the hacker until the final phase (ER-INT-2, ER-INT-3)",
            )
            return


def check_scored(state: GameState) -> Iterator[Problem]:
    """ER-INT-3, ER-SCN-10/-11: every hack and kill (and the end of the game) has scored its MP
    at once, and nothing takes points away (:func:`check_players` bounds them from above)."""
    for p, faction in enumerate(state.scenario.factions):
        earned = _earned_mp(state, p)
        if state.mp[p] < earned:
            yield (
                f"players.{faction}.mp",
                f"{state.mp[p]} is below {earned}, the points this position's hacks, kills and "
                "result have given: each scores at once and nothing takes points away "
                "(ER-INT-3, ER-SCN-10, ER-SCN-11)",
            )
            return


def check_bids(state: GameState) -> Iterator[Problem]:
    """ER-INI-8: bids exist only in a duel scenario, once asked, and the answer only to a bid."""
    scn = state.scenario
    holder = _holder(state)
    asker = 1 - holder
    asked = not (state.decision in (MULLIGAN, DUEL_ASK) or not scn.initiative_duel)
    if not asked:
        expected = [False, False]
    elif state.decision == DUEL_ANSWER:
        expected = [True, False] if asker == 0 else [False, True]
    else:
        answered = state.bids[asker] > 0
        expected = [True, True] if answered else [p == asker for p in (0, 1)]
    for p in (0, 1):
        if (state.bids[p] >= 0) != expected[p]:
            have = "has" if expected[p] else "has no"
            yield f"players.{scn.factions[p]}.bid", f"{have} a bid at this point (ER-INI-8)"
            return
        if state.bids[p] > limits_for(scn).max_income[p]:
            yield f"players.{scn.factions[p]}.bid", "a bid is paid from the turn's income"
            return
    if state.decision == DUEL_ANSWER and not 1 <= state.bids[asker] <= state.cp[asker]:
        yield f"players.{scn.factions[asker]}.bid", "a duel is asked with 1..pool CP (ER-INI-8)"


def check_characters(state: GameState) -> Iterator[Problem]:
    """Sides, wounds, engagement, CP and tiles of every character; figures apart; cards kept."""
    scn = state.scenario
    for c in range(len(state.chars)):
        problem = _character_problem(state, c)
        if problem is not None:
            yield problem
            return
    yield from check_squares(state)
    cards = sum(ch.cards for ch in state.chars)
    cards += sum(
        1 for i, c in enumerate(scn.caches) if state.cache_full[i] and c.item == "magnetic_card"
    )
    if cards != limits_for(scn).cards:
        yield (
            "characters.*.cards",
            f"{cards} magnetic cards in play, the scenario has {limits_for(scn).cards} (ER-SCN-6)",
        )


def _character_problem(state: GameState, c: int) -> Problem | None:
    """The first thing wrong with character ``c`` on its own, or None."""
    scn = state.scenario
    spec = scn.characters[c]
    ch = state.chars[c]
    field = f"characters.{spec.id}"
    side = spec.wounded if ch.wounded else spec.healthy
    if ch.dead and not (ch.wounded and ch.wounds == spec.wounded.lp and not ch.engaged):
        return field, (
            f"a dead character shows its Wounded side with {spec.wounded.lp} wounds and is not "
            "engaged (ER-WND-1..3)"
        )
    if not ch.dead and ch.wounds >= side.lp:
        return f"{field}.wounds", f"{ch.wounds} wounds on a side with LP {side.lp} (ER-WND-1/-2)"
    if not ch.weapon_ready and not (spec.weapon and spec.weapon.out_of_ammo_icon):
        return f"{field}.weapon_ready", "only a weapon with the out-of-ammo icon runs out"
    if ch.cp_spent > max(spec.healthy.maxcp, spec.wounded.maxcp):
        return f"{field}.cp_spent", f"{ch.cp_spent} is over MAXCP (ER-CP-3)"
    if sum(sum(a.cp) for a in ch.tiles) > ch.cp_spent:
        return f"{field}.cp_spent", "its sections hold more CP than were spent on it (ER-ORD-13)"
    busy = bool(ch.tiles or ch.cp_spent or ch.tried)
    if (ch.engaged or busy) and state.phase not in (ACTIVITY, OVER):
        return field, "engagement, tiles, CP and tries are cleared in the final phase (ER-FIN-1)"
    if busy and not (ch.engaged or ch.dead):
        return field, "tiles, CP and tries go only to an activated, engaged character (ER-ACT-4)"
    if ch.tried and spec.faction != scn.mission.hacker_faction:
        return f"{field}.tried_terminals", "only the hacking faction interacts (ER-INT-3)"
    return None


def check_squares(state: GameState) -> Iterator[Problem]:
    """ER-MOV-5: living figures stand apart; only a moving figure may share a friend's square."""
    scn = state.scenario
    occupied: dict[int, list[int]] = {}
    for c, ch in enumerate(state.chars):
        if ch.dead:
            continue
        here = occupied.setdefault(ch.square, [])
        here.append(c)
        if len(here) == 1:
            continue
        other = here[0]
        passing = state.decision == MOVING and state.char in (c, other)
        if len(here) > 2 or not passing or state.faction_of[c] != state.faction_of[other]:
            x, y = scn.board.xy(ch.square)
            yield (
                f"characters.{scn.characters[c].id}.square",
                f"{scn.characters[other].id} already stands on ({x},{y}) (ER-MOV-5)",
            )
            return


def check_doors(state: GameState) -> Iterator[Problem]:
    """ER-ACT-14 / ER-DOOR-6: sliding doors close and "opened this round" clears as rounds end."""
    scn = state.scenario
    in_round = state.decision in IN_ROUND or state.decision == GAME_OVER
    for d, door in enumerate(scn.board.doors):
        opened = state.door_opened[d]
        if opened and not in_round:
            yield f"doors.{door_key(scn, d)}.opened_this_round", "no round is in progress"
            return
        if door.sliding and (state.doors[d] == OPENED) != opened:
            yield (
                f"doors.{door_key(scn, d)}",
                "a sliding door is open exactly when it was opened this round (ER-DOOR-6)",
            )
            return


def check_round(state: GameState) -> Iterator[Problem]:
    """The round in progress: activated character, its flags, a Move order, an order being built."""
    scn = state.scenario
    decision = state.decision
    c = state.char
    if (decision in IN_ROUND) != (c >= 0):
        needs = "needs an activated character" if c < 0 else "has no activated character"
        yield "round.character", f"decision '{decision}' {needs}"
        return
    if c >= 0:
        yield from check_activated(state)
        return
    if decision != GAME_OVER and (state.reactivation or state.acted or state.round_decisions):
        yield "round", "reactivation, acted and decisions are cleared when a round begins"
    elif state.mvp or state.section >= 0 or state.target >= 0 or state.order_cp:
        yield "round", "mvp, section, target and cp belong to an activated character's round"
    elif state.round_decisions > 1 + max(c.healthy.maxcp for c in scn.characters):
        yield "round.decisions", "more decisions than a round can take (ER-ORD-2, ER-CP-3)"


def check_activated(state: GameState) -> Iterator[Problem]:
    """ER-ACT-4..8, ER-ORD-2, ER-MOV-2/-6, ER-DOOR-10: the activated character's round."""
    scn = state.scenario
    c = state.char
    ch = state.chars[c]
    cid = scn.characters[c].id
    decision = state.decision
    most = ch.cp_spent + (2 if decision in BUILDING else 1)  # ASSIGN, then >= 1 CP per decision
    if ch.dead or state.faction_of[c] != state.decider or not ch.engaged:
        yield "round.character", f"{cid} must be a living, engaged character of the decider"
    elif state.reactivation and any(
        not state.chars[o].engaged for o in state.living(state.decider)
    ):
        yield "round.reactivation", "every own living character was activated first (ER-ACT-6)"
    elif state.round_decisions > most:
        yield "round.decisions", f"{cid} has made at most {most} decisions this round (ER-ORD-2)"
    elif decision != ACTIVATION and not state.round_decisions:
        yield "round.decisions", f"'{decision}' follows a decision of this round"
    elif state.acted != (state.round_decisions > (1 if decision in BUILDING else 0)):
        # ER-ACT-8: ASSIGN, MOVE_CP, RELOAD, SAW_DOOR and a finished order act; END_ROUND ends.
        yield "round.acted", "says whether a decision of this round (but the order built) acted"
    elif decision != MOVING and state.mvp:
        yield "round.mvp", "movement points exist only in a Move order (ER-MOV-2)"
    elif decision == MOVING:
        yield from check_moving(state)
    elif decision in BUILDING:
        yield from check_order(state)
    elif state.section >= 0 or state.target >= 0 or state.order_cp:
        yield "round", "section, target and cp belong to an order being built (ER-ENV-5)"


def check_moving(state: GameState) -> Iterator[Problem]:
    """A Move order in progress: MVP bought with CP, a way out, a transfer only beside a friend."""
    scn = state.scenario
    c = state.char
    spec = scn.characters[c]
    on_move = sum(
        a.cp[k]
        for a in state.chars[c].tiles
        for k, s in enumerate(scn.tiles[a.tile].sections)
        if s.type == MOVE
    )
    most = max(spec.healthy.mov, spec.wounded.mov) * on_move
    if not on_move or state.mvp > most:
        yield "round.mvp", f"at most MOV per CP on Move sections ({most}) (ER-MOV-1/-2)"
    elif not has_way_out(state, c, state.chars[c].square, state.mvp):
        yield "round.mvp", f"{spec.id} shares a square with no way out left (ER-MOV-6)"
    elif state.transferred and state.figure_at(state.chars[c].square, exclude=c) < 0:
        yield "round.transferred", "a card changes hands only with a friend here (ER-DOOR-10)"
    elif state.section >= 0 or state.target >= 0 or state.order_cp:
        yield "round", "no other order is built during a Move order (ER-ORD-12)"


def check_order(state: GameState) -> Iterator[Problem]:
    """ER-ENV-5: the section, target and CP of a non-Move order being built are all still valid."""
    c = state.char
    ch = state.chars[c]
    decision = state.decision
    if not 0 <= state.section < 4 * len(ch.tiles):
        yield "round.section", f"'{decision}' needs a section of an assigned tile (ER-ENV-6)"
        return
    assigned, index, section = section_of(state, c, state.section)
    kind = section.type
    targeted = kind in (CLOSE_COMBAT, SHOOT)
    if kind == MOVE or assigned.cp[index]:
        yield "round.section", "an order is built on an empty non-Move section (ER-ORD-8)"
    elif (decision == TARGET and not targeted) or (decision == AIM and kind != SHOOT):
        yield "round.section", f"'{decision}' does not come with a {kind} section (ER-ENV-5)"
    elif not can_spend(state, c) or not order_possible(state, c, kind):
        yield "round.section", "the order can no longer be paid or carried out (ER-ENV-10)"
    elif (state.target >= 0) != (targeted and decision != TARGET):
        yield "round.target", "a target is chosen after the section, for Close Combat and Shoot"
    elif state.target >= 0 and state.target not in _targets(state, c, kind):
        yield "round.target", "is not a target this order can take now (ER-CC-1, ER-SHOOT-1/-2)"
    elif decision == AIM and not 2 <= state.order_cp <= cp_choices(state):
        yield "round.cp", "a Shoot asks for improved targeting with 2+ CP it can pay (ER-SHOOT-4)"
    elif decision != AIM and state.order_cp:
        yield "round.cp", "CP are chosen at the cp decision (ER-ENV-5)"


def _targets(state: GameState, c: int, kind: str) -> list[int]:
    """Directions (Close Combat) or characters (Shoot) the order may take (ER-CC-1, ER-SHOOT-1)."""
    return close_combat_targets(state, c) if kind == CLOSE_COMBAT else shoot_targets(state, c)


def check_result(state: GameState) -> Iterator[Problem]:
    """ER-WIN-2, ER-FIN-1, ER-SCN-11: the game ends exactly when the rules end it, as they say."""
    scn = state.scenario
    alive = [bool(state.living(0)), bool(state.living(1))]
    all_hacked = bool(state.hacked) and all(state.hacked) and scn.mission.end_when_all_hacked
    if state.winner is None:
        if not all(alive):
            yield "characters", "a faction with no living character has lost (ER-WIN-2)"
        elif all_hacked and state.phase != ACTIVITY:
            yield "terminals", "with every terminal hacked the game ends in that final phase"
        elif state.phase == FINAL and state.turn == scn.turns:
            yield "turn", "the game ends in the last turn's final phase (ER-FIN-1, ER-SCN-11)"
        return
    if all(alive):  # the victory check of the final phase (ER-FIN-1)
        if state.turn != scn.turns and not all_hacked:
            yield "winner", "the game ends before the last turn only by elimination or all hacked"
            return
        a, b = state.mp
        expected = 0 if a > b else 1 if b > a else -1
        why = "mission points decide (ER-SCN-11)"
    else:
        expected = -1 if not any(alive) else (0 if alive[0] else 1)
        why = "the faction with living characters wins (ER-WIN-2)"
    if state.winner != expected:
        name = "draw" if expected < 0 else scn.factions[expected]
        yield "winner", f"must be {name}: {why}"


def check_dice(state: GameState) -> Iterator[Problem]:
    """ER-HID-11: the last roll is one decision's dice: one colour, an order's count at most."""
    roll = state.last_roll
    if not roll:
        return
    limits = limits_for(state.scenario)
    colours = {face[0] for face in roll}
    most = limits.black_roll if colours == {"B"} else limits.yellow_roll
    if state.decision not in (ACTIVATION, ROUND, GAME_OVER):
        yield "last_roll", f"no die is rolled by the decision that leads to '{state.decision}'"
    elif len(colours) > 1 or len(roll) > most:
        yield "last_roll", f"one order rolls dice of one colour, at most {most} (ER-DICE-1)"
    elif state.decision == GAME_OVER and state.living(0) and state.living(1):
        yield "last_roll", "the final phase's victory check rolls no die (ER-FIN-1)"
