"""Wounds, flipping to the Wounded side, death, elimination (ER-WND-1..6, ER-WIN-2, ER-SCN-10)."""

from __future__ import annotations

from .state import GAME_OVER, OVER, GameState


def wound(state: GameState, c: int, n: int) -> None:
    """ER-WND-1/-2: place ``n`` wounds on ``c`` one at a time, flipping or killing as they land."""
    ch = state.chars[c]
    spec = state.scenario.characters[c]
    for _ in range(n):
        if ch.dead:
            return
        ch.wounds += 1
        if not ch.wounded and ch.wounds >= spec.healthy.lp:
            ch.wounded, ch.wounds = (
                True,
                0,
            )  # ER-WND-1: flip, Wounded line applies at once (ER-WND-4)
        elif ch.wounded and ch.wounds >= spec.wounded.lp:
            kill(state, c)


def kill(state: GameState, c: int) -> None:
    """ER-WND-3: the figure leaves the map and a dead marker (holding its cards) takes its square.

    ER-SCN-10: the opposing faction scores its mission points for the kill.
    """
    ch = state.chars[c]
    ch.dead = True
    ch.engaged = False
    enemy = 1 - state.faction_of[c]
    state.mp[enemy] += state.scenario.mission.kill_mp[state.scenario.factions[enemy]]


def end_game(state: GameState, winner: int) -> None:
    """Record the result (0/1 = winning player, -1 = draw) and stop asking for decisions."""
    state.winner = winner
    state.phase = OVER
    state.decision = GAME_OVER
    state.char = -1


def check_elimination(state: GameState) -> bool:
    """ER-WIN-2: a faction with no living character loses at once; both at once is a draw."""
    alive = [bool(state.living(0)), bool(state.living(1))]
    if all(alive):
        return False
    end_game(state, -1 if not any(alive) else (0 if alive[0] else 1))
    return True
