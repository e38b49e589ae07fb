"""The turn around the activity phase: initiative phase, end of round, final phase (ER-TURN).

Automatic steps (draws, income, initiative, disengaging, clearing tiles and CP, closing sliding
doors) run here; each function ends by asking the next decision (ER-ENV-1).
"""

from __future__ import annotations

from . import tiles
from .state import (
    ACTIVITY,
    CLOSED,
    DISCARD,
    DUEL_ANSWER,
    DUEL_ASK,
    FINAL,
    INITIATIVE,
    MULLIGAN,
    OPENED,
    ROUND,
    GameState,
)
from .wounds import end_game


def ask(state: GameState, decision: str, player: int) -> None:
    """Put ``decision`` to ``player``."""
    state.decision = decision
    state.decider = player


# --- Initiative phase (ER-INI-1..8) ------------------------------------------------------------


def begin_turn(state: GameState) -> None:
    """ER-TURN-1: a turn opens with the Initiative phase; the marker holder draws first."""
    state.phase = INITIATIVE
    state.bids = [-1, -1]
    initiative_draws(state, 0)


def drawing_order(state: GameState) -> tuple[int, int]:
    """ER-INI-1: the initiative-marker holder draws first, then the other player."""
    return state.initiative, 1 - state.initiative


def initiative_draws(state: GameState, first: int) -> None:
    """ER-INI-1..4: players draw up to 5 in order; in turn 1 each may redraw after his draw."""
    order = drawing_order(state)
    for i in range(first, 2):
        tiles.draw_up_to(state, order[i], state.scenario.hand_limit)
        if state.turn == 1:
            ask(state, MULLIGAN, order[i])
            return
    receive_command_points(state)
    determine_initiative(state)


def can_redraw(state: GameState, player: int) -> bool:
    """ER-INI-4 [DEF]: a redraw needs as many tiles in the bag as the player holds (no discard)."""
    return len(state.bag) >= len(state.hands[player])


def mulligan(state: GameState, redraw: bool) -> None:
    """ER-INI-4: keep, or draw as many new tiles as held, then return the first ones."""
    player = state.decider
    if redraw:
        first = state.hands[player]
        state.hands[player] = []
        for _ in range(len(first)):
            tiles.draw_from_bag(state, player)
        state.bag = sorted(state.bag + first)
        state.redrew[player] = True
    initiative_draws(state, drawing_order(state).index(player) + 1)


def command_point_income(state: GameState, player: int) -> int:
    """ER-INI-5/-6: base allowance plus the Bonus CP of each living card's shown side."""
    faction = state.scenario.factions[player]
    return state.scenario.base_cp[faction] + sum(state.stats(c).bonus for c in state.living(player))


def receive_command_points(state: GameState) -> None:
    """ER-INI-5: each player takes his income from the bank."""
    for player in (0, 1):
        state.cp[player] += command_point_income(state, player)


def determine_initiative(state: GameState) -> None:
    """ER-INI-7: the scenario names the holder; then the duel (ER-INI-8) or the activity."""
    holder = state.scenario.factions.index(state.scenario.initiative_for_turn(state.turn))
    state.initiative = holder
    if state.scenario.initiative_duel:
        ask(state, DUEL_ASK, 1 - holder)
    else:
        start_activity(state)


def duel_bid(state: GameState, bid: int) -> None:
    """ER-INI-8: the asker bids (0 = no duel), then the holder answers blind; all bids are paid."""
    if state.decision == DUEL_ASK:
        state.bids[state.decider] = bid
        if bid > 0:
            ask(state, DUEL_ANSWER, state.initiative)
            return
    else:
        state.bids[state.decider] = bid
        asker = 1 - state.initiative
        for player in (0, 1):
            state.cp[player] -= state.bids[player]
        if state.bids[asker] > state.bids[state.initiative]:
            state.initiative = asker
    start_activity(state)


# --- Activity phase frame (ER-ACT-1, -2, -12, -14, -15) ----------------------------------------


def start_activity(state: GameState) -> None:
    """ER-ACT-2: the initiative holder plays the first round; the pass count starts at 0."""
    state.phase = ACTIVITY
    state.passes = 0
    state.active = state.initiative
    begin_round(state)


def begin_round(state: GameState) -> None:
    """A new round: nothing activated yet; the active player chooses his action (ER-ENV-2)."""
    state.char = -1
    state.reactivation = False
    state.acted = False
    state.round_decisions = 0
    state.mvp = 0
    state.section = -1
    state.target = -1
    state.order_cp = 0
    ask(state, ROUND, state.active)


def close_sliding_doors(state: GameState) -> None:
    """ER-ACT-14 / ER-DOOR-6: every open sliding door closes at the end of the round.

    A sliding door never stays open past a round end, so "opened during this round" is every open
    one; a destroyed door stays destroyed (ER-DOOR-9).
    """
    for d, door in enumerate(state.scenario.board.doors):
        if door.sliding and state.doors[d] == OPENED:
            state.doors[d] = CLOSED
        state.door_opened[d] = False


def end_round(state: GameState) -> None:
    """ER-ACT-14/-15: close sliding doors; the opponent becomes active and plays the next round."""
    close_sliding_doors(state)
    state.active = 1 - state.active
    begin_round(state)


def pass_round(state: GameState) -> None:
    """ER-ACT-11/-12: a pass answered by the other player's pass ends the activity phase."""
    state.passes += 1
    if state.passes >= 2:
        close_sliding_doors(state)
        final_phase(state)
    else:
        end_round(state)


# --- Final phase (ER-FIN-1..7, ER-SCN-11) ------------------------------------------------------


def hold_points(state: GameState, player: int) -> int:
    """ER-SCN-14: ``player``'s MP for the hold squares its living characters stand on."""
    mission = state.scenario.mission
    per_square = mission.hold_mp.get(state.scenario.factions[player], 0)
    if not per_square:
        return 0
    held = {
        ch.square
        for c, ch in enumerate(state.chars)
        if not ch.dead and state.faction_of[c] == player
    }
    return per_square * sum(1 for sq in mission.hold_squares if sq in held)


def victory_check(state: GameState) -> bool:
    """ER-FIN-1 step 1 / ER-SCN-11: the game ends in the last turn or when every terminal is hacked.

    End-of-game MP (a faction's points per unhacked terminal, and per hold square it holds,
    ER-SCN-14) are added, then MP decide.
    """
    scn = state.scenario
    all_hacked = bool(state.hacked) and all(state.hacked)
    if state.turn < scn.turns and not (scn.mission.end_when_all_hacked and all_hacked):
        return False
    unhacked = state.hacked.count(False)
    for player, faction in enumerate(scn.factions):
        state.mp[player] += scn.mission.unhacked_terminal_mp.get(faction, 0) * unhacked
        state.mp[player] += hold_points(state, player)
    a, b = state.mp
    end_game(state, 0 if a > b else 1 if b > a else -1)
    return True


def final_phase(state: GameState) -> None:
    """ER-FIN-1: check victory; disengage; tiles to the discard; CP to the bank; discards."""
    state.phase = FINAL
    state.char = -1
    state.passes = 0  # the run of passes belongs to the activity phase (ER-ACT-13)
    if victory_check(state):
        return  # ER-FIN-7
    for ch in state.chars:
        ch.engaged = False
        for assigned in ch.tiles:
            state.discard.append(assigned.tile)  # ER-FIN-4: no ER-TILE-7 refill here
        ch.tiles = []
        ch.cp_spent = 0
        ch.tried = set()
    state.discard.sort()
    state.cp = [0, 0]
    ask(state, DISCARD, state.initiative)


def discard_tile(state: GameState, tile: int) -> None:
    """ER-FIN-5: throw a tile from behind the screen to the discard pile, face down."""
    tiles.discard_from_hand(state, state.decider, tile)


def keep_hand(state: GameState) -> None:
    """ER-FIN-5/-6: the player keeps at most 5; after both, the next turn begins (ER-TURN-2)."""
    if state.decider == state.initiative:
        ask(state, DISCARD, 1 - state.initiative)
        return
    state.turn += 1
    begin_turn(state)
