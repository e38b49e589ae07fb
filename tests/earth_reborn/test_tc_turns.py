"""Section-20 test case TC-12: turn flow, income, redraw and the end of the game, step for step as
the spec writes it. Cases (b)-(f) start from a position just before the event and play it through
the PettingZoo environment, to check the result, the rewards (ER-WIN-3) and the mission points.
"""

from __future__ import annotations

from typing import Any

import pytest

from reborn_env.games.earth_reborn.env import raw_env
from reborn_env.games.earth_reborn.rules import tiles as tile_piles
from reborn_env.games.earth_reborn.rules.engine import new_game
from tests.earth_reborn.helpers import (
    char,
    cp,
    decider,
    hand,
    legal,
    load,
    move_tiles,
    mp,
    pile,
    place,
    play,
    position,
    tiles,
)
from tests.earth_reborn.helpers import inject as er_inject


def env_at(pos: dict[str, Any]) -> raw_env:
    env = raw_env()
    env.reset(seed=0)
    env.set_state(pos)
    assert env.game.winner is None
    assert env.terminations == {"norad": False, "salemite": False}
    return env


def step(env: raw_env, *names: str) -> None:
    """One AEC step per name, each by the agent the environment selects."""
    for name in names:
        assert env.game.winner is None, f"game already over before {name}"
        assert env.agent_selection == env.game.scenario.factions[env.game.decider]
        env.step(env.action_from_name(name))


def env_legal(env: raw_env) -> set[str]:
    return legal(env.game)


def assert_running(env: raw_env) -> None:
    assert env.game.winner is None
    assert env.terminations == {"norad": False, "salemite": False}
    assert env.rewards == {"norad": 0.0, "salemite": 0.0}


def assert_result(env: raw_env, winner: int, norad: float, salemite: float) -> None:
    """ER-WIN-3: the game is over with ``winner``; rewards given, both agents terminated."""
    assert env.game.winner == winner
    assert env.game.phase == "over"
    assert env.terminations == {"norad": True, "salemite": True}
    assert env.rewards == {"norad": norad, "salemite": salemite}
    assert env._cumulative_rewards == {"norad": norad, "salemite": salemite}
    assert env.observe("norad")["action_mask"].sum() == 0
    assert env.observe("salemite")["action_mask"].sum() == 0


# --- (a) turn 1: draws, redraw, income -----------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 12345])
def test_tc12a_turn1_draws_redraw_and_income(seed: int):
    """TC-12(a): ER-INI-1 (draw to 5, initiative holder first), ER-INI-4 (turn-1 redraw: 5 new,
    then the first 5 go back), ER-INI-5/ER-SCN-8 (CP 9 and 8), ER-INI-7/ER-SCN-9 (NORAD plays the
    first round), ER-ACT-2, ER-TILE-11 (24 tiles accounted for), ER-TURN-4 (0 CP and empty
    hands at setup), ER-ENV-7 (MULLIGAN_KEEP / MULLIGAN_REDRAW)."""
    state = new_game(seed=seed)
    assert state.turn == 1 and state.phase == "initiative"
    assert state.decision == "mulligan" and decider(state) == "norad"
    first = hand(state, "norad")
    assert len(first) == 5 and len(set(first)) == 5
    assert len(state.bag) == 19
    assert hand(state, "salemite") == []  # Salemite draws after NORAD's decision
    assert legal(state) == {"MULLIGAN_KEEP", "MULLIGAN_REDRAW"}
    assert state.cp == [0, 0]

    play(state, "MULLIGAN_REDRAW")
    second = hand(state, "norad")
    assert len(second) == 5
    assert set(second).isdisjoint(first)
    assert state.redrew == [True, False]
    # The first five went back to the bag (19 again), from which Salemite has since drawn 5 (14);
    # the returned tiles are in the bag or, drawn again, in Salemite's hand.
    assert set(first) <= set(pile(state, "bag")) | set(hand(state, "salemite"))
    assert len(state.bag) + len(hand(state, "salemite")) == 19
    assert state.decision == "mulligan" and decider(state) == "salemite"
    assert len(hand(state, "salemite")) == 5
    assert len(state.bag) == 14
    assert set(hand(state, "salemite")).isdisjoint(second)

    play(state, "MULLIGAN_KEEP")
    assert state.redrew == [True, False]
    assert cp(state, "norad") == 9 and cp(state, "salemite") == 8
    assert state.phase == "activity"
    assert state.decision == "round" and decider(state) == "norad"
    assert state.scenario.factions[state.initiative] == "norad"
    assert len(state.bag) == 14 and state.discard == [] and state.box == []
    assert hand(state, "norad") == second
    where = tile_piles.tile_locations(state)
    assert len(where) == 24 and all(where)
    assert sorted(pile(state, "bag") + hand(state, "norad") + hand(state, "salemite")) == tiles(
        1, 24
    )


# --- (b) turn 2 initiative ----------------------------------------------------------------------


@pytest.mark.parametrize(("bag", "norad_hand", "salemite_hand"), [(3, 5, 4), (4, 5, 5)])
def test_tc12b_turn2_draw_order_income_and_marker(bag: int, norad_hand: int, salemite_hand: int):
    """TC-12(b): ER-INI-1 (NORAD, still holding the marker, draws first, then Salemite, each up
    to 5), ER-INI-3 (drawing stops when bag and discard are empty), ER-INI-5, -6 (income 6 + the
    Wounded bolter's 1, dead vasquez 0), ER-CP-5 (pools emptied), ER-INI-7/ER-SCN-9 (the marker
    goes to Salemite, who plays the first round), ER-CP-6 (Bonus CP), ER-TURN-1, -2 (Initiative,
    Activity, Final, each completed in order), ER-ENV-7 (KEEP_HAND, initiative holder first).

    Each player holds 3 and needs 2; with 3 tiles in the bag the draw order shows in the hand
    sizes (the second drawer gets only 1), with 4 both reach 5."""
    pos = position("norad", turn=1)
    place(pos, "vasquez", dead=True)
    place(pos, "bolter", side="wounded", wounds=0)
    pos["players"]["salemite"]["mp"] = 2  # for vasquez
    pos["players"]["norad"]["cp"] = 3
    pos["players"]["salemite"]["cp"] = 2
    move_tiles(pos, tiles(1, 3), "hand:norad")
    move_tiles(pos, tiles(4, 6), "hand:salemite")
    move_tiles(pos, tiles(7, 6 + bag), "bag")
    env = env_at(pos)
    step(env, "PASS", "PASS")
    game = env.game
    assert game.phase == "final"
    assert game.cp == [0, 0]
    assert game.decision == "discard" and decider(game) == "norad"  # initiative holder first
    step(env, "KEEP_HAND")
    assert decider(game) == "salemite"
    step(env, "KEEP_HAND")
    assert_running(env)
    assert game.turn == 2
    assert len(hand(game, "norad")) == norad_hand
    assert len(hand(game, "salemite")) == salemite_hand
    assert game.bag == [] and game.discard == []
    assert cp(game, "norad") == 7  # 6 + 1 (bolter Wounded) + 0 (vasquez dead)
    assert cp(game, "salemite") == 8  # 7 + 0 + 1 + 0
    assert game.scenario.factions[game.initiative] == "salemite"
    assert game.phase == "activity"
    assert game.decision == "round" and decider(game) == "salemite"
    assert env.agent_selection == "salemite"
    assert mp(game, "norad") == 0 and mp(game, "salemite") == 2


# --- (c) end of turn 6 ---------------------------------------------------------------------------


def tc12c_position(turn: int) -> dict[str, Any]:
    """NORAD hacked O1 (3) and killed the zombie (1); Salemite killed nobody."""
    pos = position("salemite", turn=turn)
    pos["terminals"]["O1"] = True
    place(pos, "zombie", dead=True)
    pos["players"]["norad"]["mp"] = 4
    pos["players"]["norad"]["cp"] = 2
    pos["players"]["salemite"]["cp"] = 3
    return pos


def test_tc12c_game_ends_after_turn6_final_phase_victory_check():
    """TC-12(c): ER-SCN-11 (the game ends in turn 6's victory check, more MP wins), ER-SCN-10
    (Salemite +1 MP per unhacked terminal at the end), ER-FIN-1, -7, ER-WIN-1, ER-WIN-3 (+1 / -1),
    ER-TURN-3 (6 turns)."""
    env = env_at(tc12c_position(turn=6))
    step(env, "PASS")
    assert_running(env)
    step(env, "PASS")
    assert mp(env.game, "norad") == 4
    assert mp(env.game, "salemite") == 1  # O2 unhacked
    assert env.game.turn == 6
    assert_result(env, winner=0, norad=1.0, salemite=-1.0)


def test_tc12c_control_turn5_goes_on():
    """TC-12(c) control: ER-SCN-11 (before turn 6 with one terminal left, the game goes on)."""
    env = env_at(tc12c_position(turn=5))
    step(env, "PASS", "PASS")
    assert_running(env)
    assert env.game.phase == "final" and env.game.decision == "discard"
    assert mp(env.game, "norad") == 4 and mp(env.game, "salemite") == 0


# --- (d) both terminals hacked in turn 3 ---------------------------------------------------------


def tc12d_position() -> dict[str, Any]:
    pos = position("norad", turn=3)
    pos["terminals"]["O1"] = True
    pos["players"]["norad"]["mp"] = 3
    pos["players"]["norad"]["cp"] = 9
    pos["players"]["salemite"]["cp"] = 8
    place(pos, "vasquez", (4, 6))  # on O2
    move_tiles(pos, ["T07"], "hand:norad")  # M1k C2g F2k I2r
    return pos


def test_tc12d_both_terminals_hacked_ends_game_in_that_final_phase():
    """TC-12(d): ER-SCN-11 (both terminals hacked: the game ends in this turn's Final phase and MP
    are compared), ER-INT-3 (+3 MP), ER-FIN-1 step 1, ER-WIN-3."""
    env = env_at(tc12d_position())
    step(env, "ACTIVATE(vasquez)", "ASSIGN(T07)", "SELECT_ORDER(3)")
    assert env.game.dice_queue == []
    er_inject(env.game, "Y1 Y5 Y5")  # 3 test points
    step(env, "CHOOSE_CP(1)")
    assert env.game.hacked == [True, True]
    assert mp(env.game, "norad") == 6
    # Not over yet: the victory check belongs to the Final phase.
    assert_running(env)
    assert env.game.phase == "activity"
    step(env, "END_ROUND", "PASS")
    assert_running(env)
    step(env, "PASS")
    assert env.game.turn == 3
    assert mp(env.game, "norad") == 6 and mp(env.game, "salemite") == 0
    assert_result(env, winner=0, norad=1.0, salemite=-1.0)


def test_tc12d_control_one_terminal_hacked_turn3_goes_on():
    """TC-12(d) control: ER-SCN-11 (with only O1 hacked, turn 3's Final phase does not end it)."""
    env = env_at(tc12d_position())
    step(env, "PASS", "PASS")
    assert_running(env)
    assert env.game.phase == "final"


# --- (e) the last NORAD character dies -----------------------------------------------------------


def test_tc12e_last_norad_dies_salemite_wins_at_once_whatever_mp():
    """TC-12(e): ER-WIN-2 (no living character: the other faction wins at once, in the activity
    phase, overriding MP), ER-SCN-10 (+2 MP for the kill), ER-WIN-3 (-1 / +1)."""
    pos = position("salemite", turn=3)
    place(pos, "vasquez", (0, 4), dead=True)  # killed earlier: Salemite 2 MP
    place(pos, "deeler", dead=True)
    place(pos, "zombie", dead=True)
    pos["terminals"]["O1"] = True
    pos["players"]["norad"]["mp"] = 5  # O1 (3) + deeler and zombie (1 + 1)
    pos["players"]["salemite"]["mp"] = 2
    place(pos, "bolter", (4, 2), "E", side="wounded", wounds=1)
    place(pos, "jack_saw", (4, 3), "N")
    pos["players"]["salemite"]["cp"] = 4
    move_tiles(pos, ["T03"], "hand:salemite")  # M1r C3k F1k I1g
    env = env_at(pos)
    step(env, "ACTIVATE(jack_saw)", "ASSIGN(T03)", "SELECT_ORDER(1)", "CHOOSE_TARGET(N)")
    # jack_saw: 4 dark-blue dice; bolter (Wounded): jack_saw on his right, light-blue 1 die.
    er_inject(env.game, "Y1 Y5 Y5 Y5  Y5")
    step(env, "CHOOSE_CP(1)")
    game = env.game
    assert game.last_roll == ["Y1", "Y5", "Y5", "Y5", "Y5"]
    assert char(game, "bolter").dead
    assert game.turn == 3
    assert mp(game, "salemite") == 4 and mp(game, "norad") == 5  # NORAD ahead, still loses
    assert_result(env, winner=1, norad=-1.0, salemite=1.0)


# --- (f) both last figures die in the same close combat ------------------------------------------


def test_tc12f_double_elimination_is_a_draw():
    """TC-12(f): ER-WIN-2 (both factions lose their last living character in the same close
    combat: a draw at once), ER-CC-8 (simultaneous blows), ER-WIN-3 (rewards 0 and 0)."""
    pos = position("salemite", turn=3)
    place(pos, "bolter", dead=True)  # carries the card on its marker
    place(pos, "deeler", dead=True)
    place(pos, "zombie", dead=True)
    pos["players"]["norad"]["mp"] = 2  # deeler and zombie
    pos["players"]["salemite"]["mp"] = 2  # bolter
    place(pos, "jack_saw", (4, 3), "N", side="wounded", wounds=2)
    place(pos, "vasquez", (4, 2), "E", side="wounded", wounds=1)
    pos["players"]["salemite"]["cp"] = 4
    move_tiles(pos, ["T03"], "hand:salemite")
    env = env_at(pos)
    step(env, "ACTIVATE(jack_saw)", "ASSIGN(T03)", "SELECT_ORDER(1)", "CHOOSE_TARGET(N)")
    er_inject(env.game, "Y2 Y2 Y3 Y4  Y1")  # as TC-08's "both die" variant
    step(env, "CHOOSE_CP(2)")
    game = env.game
    assert game.last_roll == ["Y2", "Y2", "Y3", "Y4", "Y1"]
    assert char(game, "jack_saw").dead and char(game, "vasquez").dead
    assert mp(game, "norad") == 3 and mp(game, "salemite") == 4
    assert_result(env, winner=-1, norad=0.0, salemite=0.0)


# --- (g) short bag at the redraw -----------------------------------------------------------------


def redraw_position(bag_size: int) -> dict[str, Any]:
    """Turn 1 Initiative: NORAD has just drawn 5, the bag holds ``bag_size``, the rest is boxed."""
    pos = position("norad", turn=1)
    pos.update(phase="initiative", decision={"kind": "mulligan", "player": "norad"})
    move_tiles(pos, tiles(1, 5), "hand:norad")
    move_tiles(pos, tiles(6, 5 + bag_size), "bag")
    return pos


def test_tc12g_short_bag_only_keep():
    """TC-12(g): ER-INI-4 (MULLIGAN_REDRAW needs at least as many bag tiles as held; the discard
    is not used)."""
    state = load(redraw_position(3))
    assert len(state.bag) == 3
    assert legal(state) == {"MULLIGAN_KEEP"}

    full = load(redraw_position(5))  # control: with 5 in the bag the redraw is offered
    assert legal(full) == {"MULLIGAN_KEEP", "MULLIGAN_REDRAW"}
