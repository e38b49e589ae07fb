"""Per-rule tests of the turn: components and setup (ER-GEN-1, ER-TURN-1..4), the Final phase
(ER-FIN-4, -7), victory and mission points (ER-WIN-1, -4).
"""

from __future__ import annotations

from collections import Counter

from reborn_env.games.earth_reborn.positions import state_to_dict
from reborn_env.games.earth_reborn.rules import dice
from reborn_env.games.earth_reborn.rules.engine import legal_actions, new_game
from reborn_env.games.earth_reborn.rules.state import GameState
from reborn_env.games.earth_reborn.rules.turn import command_point_income
from reborn_env.games.earth_reborn.scenario.loader import load_scenario
from reborn_env.games.earth_reborn.scenario.model import (
    Scenario,
)
from tests.earth_reborn.helpers import (
    char,
    cp,
    decider,
    duel_scenario,
    final_position,
    hand,
    keep_both,
    load,
    move_tiles,
    mp,
    pile,
    place,
    play,
    position,
    random_game,
    scenario_copy,
    section_cp,
    tiles,
    xy,
)
from tests.earth_reborn.helpers import inject_next as inject

# --- Final phase (ER-FIN-4, -7) ------------------------------------------------------------------


def test_assigned_tiles_go_to_the_discard_without_refilling_the_bag():
    """ER-FIN-4 (ER-TILE-8, ER-INI-2): with the bag empty, the Final phase puts the assigned tiles
    into the discard and the bag stays empty; the discards follow; the next turn's draw takes
    the whole discard back."""
    pos = position(active="norad")
    pos["passes"] = 1
    move_tiles(pos, ["T01"], "char:bolter")
    move_tiles(pos, ["T02"], "char:zombie")
    place(pos, "bolter", engaged=True, cp_spent=1)
    place(pos, "zombie", engaged=True)
    pos["characters"]["bolter"]["tiles"][0]["cp"] = [1, 0, 0, 0]
    move_tiles(pos, ["T03"], "hand:norad")
    state = load(pos)
    assert pile(state, "bag") == [] and pile(state, "discard") == []
    play(state, "PASS")
    assert state.phase == "final" and state.decision == "discard"
    assert pile(state, "discard") == ["T01", "T02"]
    assert pile(state, "bag") == []
    play(state, "DISCARD_TILE(T03)")
    assert pile(state, "discard") == ["T01", "T02", "T03"] and pile(state, "bag") == []
    keep_both(state)
    assert state.turn == 2
    assert hand(state, "norad") == ["T01", "T02", "T03"]
    assert hand(state, "salemite") == []
    assert pile(state, "bag") == [] and pile(state, "discard") == []


def test_when_the_victory_check_ends_the_game_nothing_else_happens():
    """ER-FIN-7 (ER-FIN-1): turn 6 ends the game at step 1; steps 2-6 are skipped: cards stay
    engaged, tiles stay assigned with their CP, pools and hands stay, no discard decision."""
    pos = position(active="norad", turn=6)
    pos["passes"] = 1
    move_tiles(pos, ["T01"], "char:bolter")
    pos["characters"]["bolter"]["tiles"][0]["cp"] = [1, 0, 0, 0]
    place(pos, "bolter", engaged=True, cp_spent=1)
    move_tiles(pos, ["T02"], "hand:norad")
    move_tiles(pos, ["T03"], "hand:salemite")
    pos["players"]["norad"]["cp"] = 4
    pos["players"]["salemite"]["cp"] = 3
    state = load(pos)
    play(state, "PASS")
    assert state.phase == "over" and state.decision == "game_over"
    assert legal_actions(state) == []
    assert state.scenario.factions[state.winner] == "salemite"  # 0 MP against 2 (two terminals)
    assert (mp(state, "norad"), mp(state, "salemite")) == (0, 2)
    assert char(state, "bolter").engaged
    assert char(state, "bolter").cp_spent == 1
    assert section_cp(state, "bolter", 0) == [1, 0, 0, 0]
    assert pile(state, "discard") == []
    assert (cp(state, "norad"), cp(state, "salemite")) == (4, 3)
    assert (hand(state, "norad"), hand(state, "salemite")) == (["T02"], ["T03"])


# --- Components and setup (ER-GEN-1, ER-TURN-1..4) -----------------------------------------------


def test_the_components_of_the_game():
    """ER-GEN-1: tiles in a bag, a pool and a hand per player, yellow and black dice, door
    markers, magnetic cards, two-sided cards with arcs, dead markers and an MP/turn track."""
    state = new_game(seed=2)
    scn = state.scenario
    assert len(scn.tiles) == 24
    assert len(state.bag) + len(state.hands[0]) + len(state.hands[1]) == 24
    assert len(state.hands) == len(state.cp) == len(state.mp) == 2
    assert len(scn.board.doors) == 5
    assert sum(ch.cards for ch in state.chars) + sum(state.cache_full) == 2
    assert [ch.cards for ch in state.chars] == [1, 0, 0, 0, 0]
    assert all(len(c.arcs) == 4 for c in scn.characters)
    assert state.turn == 1 and scn.turns == 6 and state.mp == [0, 0]
    inject(state, "Y1 B6")
    assert dice.roll(state, dice.YELLOW, 1) == [1] and dice.roll(state, dice.BLACK, 1) == [6]
    # A dead character stays on the map as a marker on its square.
    pos = position()
    place(pos, "zombie", (5, 5), dead=True)
    dead = load(pos)
    assert char(dead, "zombie").dead and xy(dead, "zombie") == (5, 5)


def phase_trace(scn: Scenario | str, seed: int) -> tuple[list[tuple[str, int]], GameState]:
    """The (phase, turn) sequence of a random game, consecutive repeats merged."""
    trace: list[tuple[str, int]] = []

    def hook(state: GameState) -> None:
        here = (state.phase, state.turn)
        if not trace or trace[-1] != here:
            trace.append(here)

    return trace, random_game(seed, scn, hook)


def test_turns_run_initiative_activity_final_in_order(tmp_path):
    """ER-TURN-1: every turn is Initiative, Activity, Final in this order (with the duel on,
    every Initiative phase has a decision, so it shows in every turn)."""
    scn = duel_scenario(tmp_path)
    for seed in range(3):
        trace, state = phase_trace(scn, seed)
        assert trace[-1][0] == "over"
        body = trace[:-1]
        cycle = ["initiative", "activity", "final"]
        for i, (phase, turn) in enumerate(body):
            assert phase == cycle[i % 3]
            assert turn == i // 3 + 1
        assert body[-1][0] in ("activity", "final")
        if body[-1][0] == "final":
            assert state.turn == 6 or all(state.hacked)


def test_each_phase_is_complete_before_the_next_begins(tmp_path):
    """ER-TURN-2: entering the Final phase's decisions, cards are disengaged, tiles discarded and
    pools emptied; entering the Initiative phase's decisions, both players have drawn and been
    paid; the next turn does not start before both players' discards are done."""
    scn = duel_scenario(tmp_path)
    seen = Counter()
    for seed in range(3):
        last = {"phase": "initiative"}

        def hook(state: GameState, last: dict[str, str] = last) -> None:
            phase = state.phase
            if phase != last["phase"] and phase == "final":
                assert not any(ch.engaged or ch.tiles for ch in state.chars)
                assert state.cp == [0, 0]
                seen["final"] += 1
            if phase != last["phase"] and phase == "initiative":
                assert [len(h) for h in state.hands] == [5, 5]
                for p in (0, 1):
                    assert state.cp[p] == command_point_income(state, p)
                seen["initiative"] += 1
            if phase != last["phase"] and phase == "activity":
                assert state.active == state.initiative and state.passes == 0
                seen["activity"] += 1
            last["phase"] = phase

        random_game(seed, scn, hook)
    assert seen["final"] >= 3 and seen["initiative"] >= 3 and seen["activity"] >= 6

    state = load(final_position(turn=1))
    bag_before = state_to_dict(state)["bag"]
    play(state, "KEEP_HAND")
    assert state.phase == "final" and state.turn == 1 and decider(state) == "salemite"
    assert pile(state, "bag") == bag_before  # no draw before Salemite's discards
    play(state, "KEEP_HAND")
    assert state.turn == 2 and len(pile(state, "bag")) == 14


def test_the_scenario_sets_the_number_of_turns(tmp_path):
    """ER-TURN-3: the default scenario lasts 6 turns (turn 5 goes on, turn 6 ends); a copy with
    `turns = 2` ends after turn 2's Final phase."""
    state = load(position(turn=5) | {"passes": 1})
    play(state, "PASS")
    keep_both(state)
    assert state.turn == 6 and state.winner is None and state.phase == "activity"
    play(state, "PASS", "PASS")
    assert state.phase == "over" and state.turn == 6

    scn = scenario_copy(tmp_path, lambda t: t.replace("turns = 6 ", "turns = 2 ", 1))
    assert scn.turns == 2
    state = new_game(scn, seed=4)
    play(state, "MULLIGAN_KEEP", "MULLIGAN_KEEP", "PASS", "PASS")
    keep_both(state)
    assert state.turn == 2 and state.winner is None
    play(state, "PASS", "PASS")
    assert state.phase == "over" and state.turn == 2
    assert state.winner == scn.factions.index("salemite")  # 2 unhacked terminals: 2 MP to 0


def test_setup(tmp_path):
    """ER-TURN-4: figures Healthy on their start squares, every tile in the bag, 0 CP and empty
    hands before the draw, the scenario's starting MP; turn 1's CP are the income from 0."""
    scn = load_scenario()
    state = GameState(scn, 9)  # the state before turn 1 begins
    for spec, ch in zip(scn.characters, state.chars, strict=True):
        assert (ch.square, ch.facing) == (spec.start, spec.facing)
        assert not ch.wounded and ch.wounds == 0 and not ch.engaged and not ch.dead
    starts = {c.id: xy(state, c.id) for c in scn.characters}
    assert starts == {
        "bolter": (0, 2),
        "vasquez": (0, 4),
        "jack_saw": (8, 3),
        "deeler": (8, 1),
        "zombie": (8, 5),
    }
    assert pile(state, "bag") == tiles(1, 24)
    assert state.hands == [[], []] and state.cp == [0, 0] and state.mp == [0, 0]

    state = new_game(scn, seed=9)
    assert (len(hand(state, "norad")), len(hand(state, "salemite"))) == (5, 0)
    assert state.cp == [0, 0]  # income comes after the draws
    play(state, "MULLIGAN_KEEP")
    assert len(hand(state, "salemite")) == 5 and state.cp == [0, 0]
    play(state, "MULLIGAN_KEEP")
    assert (cp(state, "norad"), cp(state, "salemite")) == (9, 8)

    scn2 = scenario_copy(
        tmp_path, lambda t: t.replace("start_mp = { norad = 0,", "start_mp = { norad = 2,")
    )
    assert new_game(scn2, seed=9).mp == [2, 0]


# --- Victory and MP (ER-WIN-1, -4) ---------------------------------------------------------------


def hack_o1(turn: int, o2_hacked: bool) -> GameState:
    """vasquez hacks O1 (inject Y1 Y5 Y5) in ``turn``'s activity; Salemite passed before."""
    pos = position(active="norad", turn=turn)
    place(pos, "vasquez", (4, 0), "N")
    move_tiles(pos, ["T07"], "hand:norad")
    pos["players"]["norad"]["cp"] = 5
    pos["terminals"]["O2"] = o2_hacked
    pos["players"]["norad"]["mp"] = 3 if o2_hacked else 0
    state = load(pos)
    play(state, "ACTIVATE(vasquez)", "ASSIGN(T07)", "SELECT_ORDER(3)")
    inject(state, "Y1 Y5 Y5")
    play(state, "CHOOSE_CP(1)")
    return state


def test_mission_points_are_checked_in_the_final_phase():
    """ER-WIN-1 (ER-SCN-10, -11): hacking O1 in turn 6 scores 3 MP at once but the game goes on;
    the Final phase's check ends it: NORAD 3, Salemite 1 (O2 unhacked): NORAD wins."""
    state = hack_o1(6, o2_hacked=False)
    assert mp(state, "norad") == 3 and state.winner is None
    assert state.decision == "activation"
    play(state, "END_ROUND", "PASS", "PASS")
    assert state.phase == "over"
    assert (mp(state, "norad"), mp(state, "salemite")) == (3, 1)
    assert state.winner == state.scenario.factions.index("norad")


def test_both_terminals_hacked_end_the_game_in_that_turns_final_phase():
    """ER-WIN-1 (ER-SCN-11): the second terminal hacked in turn 3 does not end the game at once;
    turn 3's Final phase does (6 MP to 0)."""
    state = hack_o1(3, o2_hacked=True)
    assert all(state.hacked) and state.winner is None and mp(state, "norad") == 6
    play(state, "END_ROUND", "PASS")
    assert state.phase == "activity" and state.winner is None
    play(state, "PASS")
    assert state.phase == "over" and state.turn == 3
    assert (mp(state, "norad"), mp(state, "salemite")) == (6, 0)
    assert state.winner == state.scenario.factions.index("norad")


def test_mission_points_are_never_spent():
    """ER-WIN-4: no action spends MP in version 1 (no decision kind names MP): over seeded random
    games a faction's MP never decrease, and MP were scored along the way."""
    assert not [kind for kind in new_game(seed=0).codec.base if "MP" in kind]
    scored = 0
    for seed in range(20):
        last = [0, 0]

        def hook(state: GameState, last: list[int] = last) -> None:
            nonlocal scored
            assert state.mp[0] >= last[0] and state.mp[1] >= last[1]
            scored += sum(state.mp) - sum(last)
            last[:] = state.mp

        random_game(seed, hook=hook)
    assert scored > 0
