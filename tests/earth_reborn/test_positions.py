"""Earth Reborn positions: exact round trips, and every bad position a PositionError.

``state_from_dict`` accepts exactly the states the engine can reach (docs/position_format.md,
"Validation"); a loaded position plays on with every invariant of :mod:`invariants` holding.
"""

from __future__ import annotations

import copy
import json
import math
from typing import Any

import numpy as np
import pytest

from reborn_env.bots.loading import load_bot
from reborn_env.core.errors import PositionError
from reborn_env.core.position_fuzz import paths
from reborn_env.games.earth_reborn.invariants import (
    STEP_BOUND,
    check_invariants,
    game_step_bound,
    turn_step_bound,
)
from reborn_env.games.earth_reborn.match import EarthRebornRules
from reborn_env.games.earth_reborn.observation import observer_for
from reborn_env.games.earth_reborn.positions import VERSION, state_from_dict, state_to_dict
from reborn_env.games.earth_reborn.rules import engine
from reborn_env.games.earth_reborn.rules.state import GameState
from reborn_env.games.earth_reborn.scenario.loader import load_scenario
from tests.earth_reborn.helpers import (
    char,
    inject_next,
    load,
    move_tiles,
    obs_blocks,
    place,
    play,
    position,
    tiles,
)

SCN = load_scenario("vault_raid")


def refused(pos: dict[str, Any], field: str) -> str:
    """Load ``pos``; it must be refused with a PositionError naming ``field``."""
    with pytest.raises(PositionError) as err:
        state_from_dict(copy.deepcopy(pos), SCN)
    assert f"'{field}" in str(err.value), str(err.value)
    return str(err.value)


def same_game(a: GameState, b: GameState) -> None:
    """Equal positions, observations of both players and legal actions."""
    assert state_to_dict(a) == state_to_dict(b)
    observer = observer_for(a.scenario)
    for me in (0, 1):
        assert observer.observe(a, me).tobytes() == observer.observe(b, me).tobytes()
    assert engine.legal_actions(a) == engine.legal_actions(b)


def reloaded(state: GameState) -> GameState:
    return state_from_dict(json.loads(json.dumps(state_to_dict(state))), SCN)


def zombie_killed() -> GameState:
    """bolter's Close Combat kills the Wounded zombie (1 wound, LP 2) with one critical hit."""
    pos = position("norad")
    place(pos, "bolter", (4, 3), "N")
    place(pos, "zombie", (4, 2), "S", side="wounded", wounds=1)
    move_tiles(pos, ["T01"], "hand:norad")  # T01 M3k C1k F2r I1k
    pos["players"]["norad"]["cp"] = 5
    state = load(pos)
    play(state, "ACTIVATE(bolter)", "ASSIGN(T01)", "SELECT_ORDER(1)", "CHOOSE_TARGET(N)")
    inject_next(state, "Y1 Y5 Y5  Y5 Y5")  # bolter 3 dice (a critical), the zombie 2 blanks
    play(state, "CHOOSE_CP(1)")
    assert char(state, "zombie").dead
    return state


def activity(cp: int = 5) -> dict[str, Any]:
    """NORAD to play a round, bolter with T01 in hand, the zombie in front of him."""
    pos = position("norad")
    place(pos, "bolter", (4, 3), "N")
    place(pos, "zombie", (4, 2), "S")
    move_tiles(pos, ["T01"], "hand:norad")
    pos["players"]["norad"]["cp"] = cp
    return pos


def at(pos: dict[str, Any], *names: str) -> dict[str, Any]:
    """The position after playing ``names`` from ``pos``."""
    state = load(pos)
    play(state, *names)
    return state_to_dict(state)


# --- a dead character's position is refused (ER-WND-2, ER-WND-3) ----------------------------------


def test_a_position_with_a_dead_character_round_trips():
    """ER-WND-2/-3: a death leaves the Wounded side with LP wounds; that position reloads."""
    state = zombie_killed()
    saved = state_to_dict(state)
    assert saved["characters"]["zombie"] | {"tiles": []} == saved["characters"]["zombie"]
    assert saved["characters"]["zombie"]["side"] == "wounded"
    assert saved["characters"]["zombie"]["wounds"] == 2
    same_game(state, reloaded(state))


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"dead": True, "side": "healthy", "wounds": 2}, "characters.zombie"),
        ({"dead": True, "side": "wounded", "wounds": 1}, "characters.zombie"),
        ({"dead": True, "side": "wounded", "wounds": 2, "engaged": True}, "characters.zombie"),
        ({"side": "wounded", "wounds": 2}, "characters.zombie.wounds"),
        ({"side": "healthy", "wounds": 3}, "characters.zombie.wounds"),
    ],
)
def test_dead_and_wounded_are_exactly_what_wounds_leave(fields, field):
    """ER-WND-1..3: Healthy holds up to LP-1 wounds, Wounded up to LP-1; the dead hold LP on
    the Wounded side and are not engaged."""
    pos = position()
    pos["characters"]["zombie"].update(fields)
    refused(pos, field)


def test_heuristic_games_round_trip_at_every_decision():
    """ER-GEN-3: heuristic play, which kills and hacks often, saves and reloads exactly at every
    decision: same position, same observations, same legal actions; positions with a terminal
    hacked in turn 1 (ER-INT-3: the try left on the hacker) load as any other."""
    observer = observer_for(SCN)
    deaths = hacked_in_turn_1 = 0
    for seed in (3, 4, 6):
        bots = [load_bot("heuristic", "earth_reborn_v0", seed=seed + p) for p in (0, 1)]
        state = engine.new_game(SCN, seed)
        while state.winner is None:
            same_game(state, reloaded(state))
            deaths += sum(ch.dead for ch in state.chars)
            hacked_in_turn_1 += state.turn == 1 and any(state.hacked)
            mask = np.zeros(state.codec.size, dtype=np.int8)
            mask[engine.legal_actions(state)] = 1
            bot = bots[state.decider]
            engine.apply_action(state, bot.act(observer.observe(state, state.decider), mask))
        same_game(state, reloaded(state))
    assert deaths > 0  # the positions covered deaths
    assert hacked_in_turn_1 > 0  # and hacks of this turn


# --- the last roll is saved (ER-HID-11) -----------------------------------------------------------


def test_the_last_roll_is_saved_and_observed_alike():
    """ER-HID-11: every die rolled is public; a reloaded position shows the same last roll."""
    state = zombie_killed()
    saved = state_to_dict(state)
    assert saved["version"] == VERSION == 2
    assert saved["last_roll"] == ["Y1", "Y5", "Y5", "Y5", "Y5"]
    again = reloaded(state)
    assert again.last_roll == state.last_roll
    block = "last roll: faces Y1..Y6, B1..B6"
    observer = observer_for(SCN)
    for me in (0, 1):
        a = obs_blocks(state, observer.observe(state, me))[block]
        b = obs_blocks(again, observer.observe(again, me))[block]
        assert a.tolist() == b.tolist() and a.any()


def test_version_1_positions_are_read_with_no_last_roll():
    """Version 1 had no last_roll: it still loads, as if the last decision rolled no die."""
    saved = state_to_dict(zombie_killed())
    old = {k: v for k, v in saved.items() if k != "last_roll"} | {"version": 1}
    assert state_from_dict(copy.deepcopy(old), SCN).last_roll == []
    refused(old | {"last_roll": []}, "")  # a key version 1 did not have
    refused({k: v for k, v in saved.items() if k != "last_roll"}, "last_roll")
    with pytest.raises(PositionError, match="'version' one of 1, 2"):
        state_from_dict(saved | {"version": 3}, SCN)


@pytest.mark.parametrize(
    ("roll", "field"),
    [
        (["Y1", "B2"], "last_roll"),  # one order rolls one colour
        (["Y1"] * 12, "last_roll"),  # more dice than any order rolls (11 yellow here)
        (["Y7"], "last_roll"),
        ([1], "last_roll"),
    ],
)
def test_a_last_roll_must_be_one_decisions_dice(roll, field):
    """ER-HID-11, ER-DICE-1: the last roll is one decision's dice."""
    saved = state_to_dict(zombie_killed())
    refused(saved | {"last_roll": roll}, field)


def test_no_die_is_rolled_on_the_way_to_a_redraw_choice():
    """The decision before a turn-1 redraw choice rolls nothing."""
    saved = state_to_dict(engine.new_game(SCN, 1))
    refused(saved | {"last_roll": ["Y3"]}, "last_roll")


# --- targets, injected dice, hands, unknown keys --------------------------------------------------


def test_a_target_needs_an_order_being_built():
    """ER-ENV-5: a target belongs to an order on a section of the activated character."""
    refused(position() | {"round": position()["round"] | {"target": "N"}}, "round.target")
    building = at(activity(), "ACTIVATE(bolter)", "ASSIGN(T01)", "SELECT_ORDER(1)")
    assert building["decision"]["kind"] == "target"
    refused(building | {"round": building["round"] | {"target": "N"}}, "round.target")
    ready = at(activity(), "ACTIVATE(bolter)", "ASSIGN(T01)", "SELECT_ORDER(1)", "CHOOSE_TARGET(N)")
    assert ready["round"]["target"] == "N"
    state_from_dict(copy.deepcopy(ready), SCN)
    for wrong in ("S", "zombie", None, 0):  # no enemy south; a character is a Shoot target
        refused(ready | {"round": ready["round"] | {"target": wrong}}, "round.target")


def test_injected_dice_of_either_colour_play_on():
    """ER-DICE-4: a yellow roll takes the next injected yellow face, a black one the next black."""
    ready = at(activity(), "ACTIVATE(bolter)", "ASSIGN(T01)", "SELECT_ORDER(1)", "CHOOSE_TARGET(N)")
    ready["dice_queue"] = ["B4", "Y5", "B1", "Y5", "Y5", "Y5", "Y5", "Y5"]
    state = state_from_dict(ready, SCN)
    play(state, "CHOOSE_CP(1)")  # 3 yellow attacker dice, 3 yellow defender dice
    assert state.last_roll == ["Y5"] * 6
    assert state.dice_queue == ["B4", "B1"]
    check_invariants(state)


@pytest.mark.parametrize("queue", [[1], ["y1"], ["Y0"], "Y1", [["Y1"]], ["Y1"] * 1001])
def test_a_dice_queue_holds_face_names_only(queue):
    """ER-DICE-4: faces are named Y1..Y6 and B1..B6."""
    refused(position() | {"dice_queue": queue}, "dice_queue")


def test_a_hand_holds_only_what_draws_can_give():
    """ER-INI-1, ER-ACT-9/-10, ER-SCN-13: 5 tiles at a turn's start, one more per CP spent on a
    draw; a 20-tile hand is refused, in the activity phase as in the initiative phase."""
    pos = position()
    move_tiles(pos, tiles(1, 20), "hand:norad")
    refused(pos, "players.norad.hand/cp")
    pos = position()
    move_tiles(pos, tiles(1, 14), "hand:norad")  # 5 tiles and 9 drawn with NORAD's 9 CP
    state_from_dict(copy.deepcopy(pos), SCN)
    pos["players"]["norad"]["cp"] = 1
    refused(pos, "players.norad.hand/cp")
    start = state_to_dict(engine.new_game(SCN, 0))
    spare = start["bag"][0]
    start["bag"].remove(spare)
    start["players"]["norad"]["hand"].append(spare)
    refused(start, "players.norad.hand")


def _every_object(pos: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(field, object) of the root and every nested object of a position."""
    found = [("", pos)]
    stack: list[tuple[str, Any]] = [(k, v) for k, v in pos.items()]
    while stack:
        field, value = stack.pop()
        if isinstance(value, dict):
            found.append((field, value))
            stack += [(f"{field}.{k}", v) for k, v in value.items()]
        elif isinstance(value, list):
            stack += [(f"{field}[{i}]", v) for i, v in enumerate(value)]
    return found


def test_unknown_keys_are_refused_at_every_level():
    """Every object of a position has exactly the keys the format defines."""
    ready = at(activity(), "ACTIVATE(bolter)", "ASSIGN(T01)")
    objects = _every_object(ready)
    assert len(objects) > 20
    for field, node in objects:
        node["surplus"] = 1
        message = refused(ready, field)
        assert "unknown key(s) 'surplus'" in message
        del node["surplus"]
    state_from_dict(copy.deepcopy(ready), SCN)


# --- Every field: types and ranges raise PositionError only ---------------------------------------

FOREIGN = (None, True, 0, -1, 7, 2**64, 10**5000, 0.5, math.nan, "", "x", [], [0], [[[]]], {})


def test_any_json_value_in_any_field_gives_a_position_error_or_a_sound_game():
    """Whatever value a field holds, loading raises PositionError or gives a state that keeps
    every invariant; never TypeError, KeyError, IndexError or another exception."""
    base = at(activity(), "ACTIVATE(bolter)", "ASSIGN(T01)", "MOVE_CP(0)")
    nested: list = []
    for _ in range(5000):
        nested = [nested]
    accepted = 0
    for path in paths(base):
        for value in (*FOREIGN, nested):
            pos = copy.deepcopy(base)
            node = pos
            for key in path[:-1]:
                node = node[key]
            node[path[-1]] = value
            try:
                state = state_from_dict(pos, SCN)
            except PositionError as err:
                assert len(str(err)) < 600
                continue
            check_invariants(state)
            assert state_to_dict(reloaded(state)) == state_to_dict(state)
            accepted += 1
    assert accepted > 0  # e.g. a flag that may be either


def test_a_position_that_is_not_an_object_or_not_this_game():
    for data in (None, [], "x", 3, {"format": "haven.position", "version": 1}):
        with pytest.raises(PositionError):
            state_from_dict(data, SCN)
    saved = state_to_dict(engine.new_game(SCN, 0))
    with pytest.raises(PositionError, match="bundled scenario"):
        state_from_dict(saved | {"scenario": "../vault_raid.toml"})
    with pytest.raises(PositionError, match="no bundled scenario"):
        state_from_dict(saved | {"scenario": "moon_base"})
    assert state_from_dict(copy.deepcopy(saved)).scenario.name == "vault_raid"


@pytest.mark.parametrize("rng", ["0x0000000000000001", "ABCDEF0123456789", "1" * 17, "1" * 15, 7])
def test_the_generator_is_sixteen_lowercase_hex_digits(rng):
    """ER-DICE-4: the generator's 64-bit state, written as 16 hex digits."""
    refused(position() | {"rng": rng}, "rng")


# --- Cross-field rules ----------------------------------------------------------------------------


def test_steps_are_bounded_turn_by_turn():
    """ER-SCN-13: a turn takes at most turn_step_bound decisions; from any accepted position the
    game stays within game_step_bound, itself under ER-ENV-9's 5000."""
    per_turn = turn_step_bound(SCN)
    assert SCN.turns * per_turn <= STEP_BOUND < game_step_bound(SCN) <= 5000
    pos = position(turn=2)
    state_from_dict(pos | {"steps": 2 * per_turn}, SCN)
    refused(pos | {"steps": 2 * per_turn + 1}, "steps")


def test_mission_points_are_exactly_what_was_earned():
    """ER-SCN-10, ER-INT-3: MP come from hacks and kills (and the end-of-game points), each
    scored at once and never taken away, so a position's MP are exactly what they give."""
    pos = position(turn=2)
    pos["players"]["norad"]["mp"] = 1
    refused(pos, "players.norad.mp")  # no kill, no hack
    pos["players"]["norad"]["mp"] = 0
    place(pos, "zombie", dead=True)  # the helper scores the kill, as the rules do
    assert pos["players"]["norad"]["mp"] == 1
    state_from_dict(copy.deepcopy(pos), SCN)
    pos["players"]["norad"]["mp"] = 0
    refused(pos, "players.norad.mp")  # the kill's point is missing
    pos["players"]["norad"]["mp"] = 1
    pos["terminals"]["O1"] = True
    refused(pos, "players.norad.mp")  # the hack's 3 MP are missing
    pos["players"]["norad"]["mp"] = 4
    state_from_dict(copy.deepcopy(pos), SCN)
    pos["players"]["norad"]["mp"] = 5
    refused(pos, "players.norad.mp")
    pos["players"]["norad"]["mp"] = 4
    pos["players"]["salemite"]["mp"] = 2  # no NORAD character died
    refused(pos, "players.salemite.mp")


def test_a_terminal_hacked_in_turn_1_needs_a_try_on_some_character():
    """ER-INT-2, ER-INT-3: a hack leaves its try on the hacker, dead or alive, until the final
    phase; in turn 1 every hack is this turn's, so both terminals hacked with NORAD at 6 MP and
    no try anywhere is refused, and each try on an engaged or dead character makes it whole."""
    pos = position(turn=1)
    pos["terminals"].update(O1=True, O2=True)
    pos["players"]["norad"]["mp"] = 6
    message = refused(pos, "terminals.O1")
    assert "ER-INT-3" in message and "tried_terminals" in message
    for backend in ("fast", "python"):  # the compiled core loads only what Python validated
        with pytest.raises(PositionError, match="terminals.O1"):
            EarthRebornRules(backend=backend).from_position(copy.deepcopy(pos))
    place(pos, "vasquez", (4, 0), engaged=True, tried_terminals=["O1"])
    refused(pos, "terminals.O2")
    place(pos, "bolter", dead=True, tried_terminals=["O2"])
    assert pos["players"]["salemite"]["mp"] == 2  # the helper scored the kill (ER-SCN-10)
    state_from_dict(copy.deepcopy(pos), SCN)
    later = copy.deepcopy(pos) | {"turn": 2, "initiative": "salemite"}
    for cid in ("vasquez", "bolter"):
        later["characters"][cid].update(tried_terminals=[])
    later["characters"]["vasquez"]["engaged"] = False
    state_from_dict(later, SCN)  # hacked in an earlier turn: tries are gone by now


def test_the_winner_is_the_one_the_rules_name():
    """ER-WIN-2: only a finished game has a winner, and elimination names it."""
    pos = position()
    refused(pos | {"winner": "norad"}, "winner")
    over = pos | {"phase": "over", "decision": {"kind": "game_over", "player": "norad"}}
    for cid in ("jack_saw", "deeler", "zombie"):
        place(over, cid, dead=True)
    over["players"]["norad"]["mp"] = 3
    refused(over | {"winner": "salemite"}, "winner")
    state_from_dict(over | {"winner": "norad"}, SCN)
    refused(over | {"winner": None}, "winner")
    running = copy.deepcopy(over)
    refused(
        running | {"winner": None, "phase": "activity", "decision": pos["decision"]}, "characters"
    )


def test_round_fields_belong_to_their_decisions():
    """ER-ENV-3..5, ER-ACT-13, ER-INI-8: section, target, cp, mvp, passes and bids exist only in
    the decisions that have them."""
    pos = position()
    for key, value in (("section", 0), ("cp", 2), ("mvp", 3), ("decisions", 1), ("acted", True)):
        refused(pos | {"round": pos["round"] | {key: value}}, "round")
    moving = at(activity(), "ACTIVATE(bolter)", "ASSIGN(T01)", "MOVE_CP(0)")
    assert moving["decision"]["kind"] == "move" and moving["round"]["mvp"] == 4
    refused(moving | {"round": moving["round"] | {"mvp": 5}}, "round.mvp")  # MOV 4 per CP
    cp_step = at(
        activity(), "ACTIVATE(bolter)", "ASSIGN(T01)", "SELECT_ORDER(1)", "CHOOSE_TARGET(N)"
    )
    refused(cp_step | {"round": cp_step["round"] | {"section": 2}}, "round")  # F2r, not C1k
    refused(cp_step | {"round": cp_step["round"] | {"section": 0}}, "round")  # a Move section
    refused(cp_step | {"passes": 1}, "passes")
    refused(cp_step | {"round": cp_step["round"] | {"acted": False}}, "round.acted")  # ASSIGN
    with_bid = copy.deepcopy(pos)
    with_bid["players"]["norad"]["bid"] = 0
    refused(with_bid, "players.norad.bid")  # Vault Raid has no duel


def test_doors_open_and_close_as_rounds_go():
    """ER-ACT-14, ER-DOOR-6: a sliding door is open only in the round that opened it."""
    pos = position()
    sliding = "6,3|7,3"
    pos["doors"][sliding]["state"] = "open"
    refused(pos, f"doors.{sliding}")
    pos["doors"][sliding]["opened_this_round"] = True
    refused(pos, f"doors.{sliding}.opened_this_round")  # no round is in progress
    refused(
        position()
        | {
            "doors": position()["doors"]
            | {sliding: {"kind": "wooden", "state": "closed", "opened_this_round": False}}
        },
        f"doors.{sliding}.kind",
    )


def test_tiles_and_cp_go_only_to_activated_characters():
    """ER-ACT-4, ER-ORD-13, ER-FIN-1: assigned tiles and spent CP mean an engaged character;
    its sections never hold more CP than were spent on it; all is cleared by the final phase."""
    pos = position()
    move_tiles(pos, ["T01"], "char:bolter")
    refused(pos, "characters.bolter")
    place(pos, "bolter", engaged=True)
    state_from_dict(copy.deepcopy(pos), SCN)
    pos["characters"]["bolter"]["tiles"][0]["cp"] = [1, 0, 0, 0]
    refused(pos, "characters.bolter.cp_spent")
    place(pos, "bolter", cp_spent=1)
    state_from_dict(copy.deepcopy(pos), SCN)
    final = pos | {"phase": "final", "decision": {"kind": "discard", "player": "norad"}}
    refused(final, "characters.bolter")


def test_figures_share_a_square_only_while_one_of_them_moves():
    """ER-MOV-5/-6: two living figures on one square only during the mover's Move order, and
    only friends."""
    moving = at(activity(), "ACTIVATE(bolter)", "ASSIGN(T01)", "MOVE_CP(0)")
    friend = copy.deepcopy(moving)
    friend["characters"]["vasquez"]["square"] = [4, 3]
    state_from_dict(copy.deepcopy(friend), SCN)
    enemy = copy.deepcopy(moving)
    enemy["characters"]["deeler"]["square"] = [4, 3]
    refused(enemy, "characters.deeler.square")
    stranded = copy.deepcopy(friend)
    stranded["round"]["mvp"] = 0
    refused(stranded, "round.mvp")  # ER-MOV-6: no way out of the shared square


def test_the_invariants_the_fuzz_checks_include_the_loaders():
    """check_invariants (what the fuzz runs every step) refuses what loading refuses."""
    state = zombie_killed()
    check_invariants(state)
    char(state, "zombie").wounds = 1
    with pytest.raises(AssertionError, match="characters.zombie"):
        check_invariants(state)
    state = zombie_killed()
    state.cp[0] = 20
    with pytest.raises(AssertionError, match="players.norad.hand/cp"):
        check_invariants(state)
