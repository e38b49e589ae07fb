"""Section-20 test cases of the activity phase: TC-SEED-1 (A, B, C), TC-01, TC-02, TC-03, TC-04.

Each test follows its case step for step: every "Expected" and "exactly" is an equality, every
"Legal now" / "includes" a subset check. Observation checks run twice: on the engine's own
:class:`Observer` and through the PettingZoo environment (``raw_env.set_state`` + ``observe``).
"No tile id of the opponent" is checked the ER-HID-12 way: a second position in which the opponent
holds different tiles (same counts, swapped with the bag or the box) must give the observer a
byte-identical observation and action mask.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest

from reborn_env.games.earth_reborn.actions import MAX_CP
from reborn_env.games.earth_reborn.env import raw_env
from reborn_env.games.earth_reborn.positions import state_to_dict
from reborn_env.games.earth_reborn.rules.engine import new_game
from reborn_env.games.earth_reborn.rules.state import GameState
from tests.earth_reborn.helpers import (
    char,
    cp,
    decider,
    engine_view,
    hand,
    legal,
    load,
    move_tiles,
    obs_blocks,
    pile,
    place,
    play,
    position,
    tiles,
)

N_TILES = 24  # ER-SCN-12: counts in the observation are scaled by the number of tiles

# --- Observation helpers -------------------------------------------------------------------------


def env_view(pos: dict[str, Any], agent: str) -> tuple[np.ndarray, np.ndarray]:
    """(observation, action mask) of ``agent`` through the environment, from a position."""
    env = raw_env()
    env.reset(seed=0)
    env.set_state(copy.deepcopy(pos))
    out = env.observe(agent)
    return out["observation"], out["action_mask"]


def views(state: GameState, agent: str) -> list[tuple[np.ndarray, np.ndarray]]:
    """The agent's view from the engine and from the environment; both must agree."""
    eng = engine_view(state, agent)
    env = env_view(state_to_dict(state), agent)
    assert eng[0].tobytes() == env[0].tobytes()
    assert eng[1].tobytes() == env[1].tobytes()
    return [eng, env]


def tile_counts(state: GameState, vec: np.ndarray) -> tuple[int, int, int, int]:
    """(my hand, opponent's hand, bag, discard) read back from the observation."""
    b = obs_blocks(state, vec)["tile counts: my hand, opponent's hand, bag, discard"]
    return tuple(int(round(float(x) * N_TILES)) for x in b)  # type: ignore[return-value]


def cp_counts(state: GameState, vec: np.ndarray) -> tuple[int, int]:
    b = obs_blocks(state, vec)["cp: mine, opponent's"]
    return int(round(float(b[0]) * MAX_CP)), int(round(float(b[1]) * MAX_CP))


def tile_ids_in(state: GameState, row: np.ndarray) -> set[str]:
    return {state.scenario.tiles[t].id for t in np.flatnonzero(row)}


def assert_same_view(a: GameState, b: GameState, agent: str) -> None:
    """ER-HID-12: ``agent`` gets byte-identical observations and masks from ``a`` and ``b``."""
    for (obs_a, mask_a), (obs_b, mask_b) in zip(views(a, agent), views(b, agent), strict=True):
        assert obs_a.tobytes() == obs_b.tobytes()
        assert mask_a.tobytes() == mask_b.tobytes()


def swap_tiles(pos: dict[str, Any], faction: str, pool: str) -> dict[str, Any]:
    """A copy of ``pos`` where ``faction`` holds tiles from ``pool`` ('bag' or 'box') instead.

    The same number of tiles is exchanged both ways, so every count stays the same.
    """
    alt = copy.deepcopy(pos)
    held = list(alt["players"][faction]["hand"])
    other = [t for t in alt[pool] if t not in held][: len(held)]
    assert len(other) == len(held), "the pool must hold enough tiles to swap"
    move_tiles(alt, held, pool)
    move_tiles(alt, other, f"hand:{faction}")
    assert set(alt["players"][faction]["hand"]).isdisjoint(held)
    return alt


# --- TC-SEED-1: the discard race -----------------------------------------------------------------


def seed_position(bag: list[str]) -> dict[str, Any]:
    """TC-SEED-1's position: turn 1, activity, Salemite active, pass count 0."""
    pos = position(active="salemite")
    move_tiles(pos, bag, "bag")
    move_tiles(pos, ["T12", "T21"], "discard")
    move_tiles(pos, tiles(1, 5), "hand:norad")
    move_tiles(pos, ["T06", "T08", "T09", "T10", "T11"], "hand:salemite")
    pos["players"]["norad"]["cp"] = 4
    pos["players"]["salemite"]["cp"] = 3
    return pos


def test_tc_seed_1_a_salemite_takes_last_bag_tile_and_norad_loses_the_race():
    """TC-SEED-1 (A) [SEED]: ER-ACT-9, ER-ACT-10, ER-TILE-6, ER-TILE-7, ER-HID-7, ER-HID-2/-12."""
    pos = seed_position(["T07"])
    state = load(pos)
    assert state.passes == 0 and decider(state) == "salemite"

    # 1. Salemite may draw or pick; it draws the last tile of the bag.
    assert {"DRAW_BAG", "PICK_DISCARD"} <= legal(state)
    play(state, "DRAW_BAG")

    # 2. CP 3 -> 2; hand + T07; the empty bag took the discard at once (ER-TILE-7); NORAD's round.
    assert cp(state, "salemite") == 2
    assert hand(state, "salemite") == ["T06", "T07", "T08", "T09", "T10", "T11"]
    assert sorted(pile(state, "bag")) == ["T12", "T21"]
    assert pile(state, "discard") == []
    assert state.phase == "activity" and state.decision == "round"
    assert decider(state) == "norad"
    assert state.scenario.factions[state.active] == "norad"

    # 3. NORAD cannot pick T21 any more although it has 4 CP.
    assert cp(state, "norad") == 4
    assert legal(state) == {"ACTIVATE(bolter)", "ACTIVATE(vasquez)", "DRAW_BAG", "PASS"}

    # The same facts through the position (engine level).
    saved = state_to_dict(state)
    assert len(saved["bag"]) == 2
    assert saved["discard"] == []
    assert len(saved["players"]["salemite"]["hand"]) == 6
    assert saved["players"]["salemite"]["cp"] == 2

    # NORAD's observation, from the engine and through the environment.
    for obs, mask in views(state, "norad"):
        mine, opp, bag, discard = tile_counts(state, obs)
        assert (mine, opp, bag, discard) == (5, 6, 2, 0)
        assert cp_counts(state, obs) == (4, 2)
        b = obs_blocks(state, obs)
        assert tile_ids_in(state, b["my hand (tile multi-hot)"]) == set(tiles(1, 5))
        assert not b["discard, only at my CHOOSE_DISCARD"].any()
        assert {state.codec.name(a) for a in np.flatnonzero(mask)} == legal(state)

    # No Salemite tile id: Salemite holding six other tiles (and the bag two others) changes
    # nothing NORAD sees (ER-HID-2, ER-HID-6, ER-HID-12).
    alt = swap_tiles(saved, "salemite", "box")
    alt_bag = [t for t in alt["box"] if t not in saved["players"]["salemite"]["hand"]][:2]
    move_tiles(alt, list(saved["bag"]), "box")
    move_tiles(alt, alt_bag, "bag")
    assert set(alt["bag"]).isdisjoint(saved["bag"])
    assert_same_view(state, load(alt), "norad")

    # The comparison is sensitive: NORAD's own tiles do show (ER-HID-1).
    own = swap_tiles(saved, "norad", "box")
    assert engine_view(state, "norad")[0].tobytes() != engine_view(load(own), "norad")[0].tobytes()


def test_tc_seed_1_b_no_race_norad_picks_t21_secretly():
    """TC-SEED-1 (B): ER-ACT-9, ER-ACT-10 (PICK_DISCARD, CHOOSE_DISCARD), ER-HID-7, ER-HID-12."""
    state = load(seed_position(["T07", "T13"]))
    play(state, "DRAW_BAG")
    drawn = set(hand(state, "salemite")) - {"T06", "T08", "T09", "T10", "T11"}
    assert len(drawn) == 1 and drawn <= {"T07", "T13"}
    assert len(pile(state, "bag")) == 1
    assert sorted(pile(state, "discard")) == ["T12", "T21"]
    assert decider(state) == "norad"

    assert "PICK_DISCARD" in legal(state)
    play(state, "PICK_DISCARD")
    assert cp(state, "norad") == 2
    assert state.decision == "choose_discard" and decider(state) == "norad"
    assert legal(state) == {"CHOOSE_DISCARD(T12)", "CHOOSE_DISCARD(T21)"}
    # ER-HID-7: only now, and only the chooser, sees the discard's contents.
    for obs, _ in views(state, "norad"):
        seen = obs_blocks(state, obs)["discard, only at my CHOOSE_DISCARD"]
        assert tile_ids_in(state, seen) == {"T12", "T21"}
    for obs, _ in views(state, "salemite"):
        assert not obs_blocks(state, obs)["discard, only at my CHOOSE_DISCARD"].any()

    other = state.clone()  # the branch where NORAD takes T12 instead
    play(state, "CHOOSE_DISCARD(T21)")
    play(other, "CHOOSE_DISCARD(T12)")
    assert len(hand(state, "norad")) == 6 and "T21" in hand(state, "norad")
    assert pile(state, "discard") == ["T12"]
    assert state.decision == "round" and decider(state) == "salemite"  # round over

    for obs, _ in views(state, "salemite"):
        mine, opp, bag, discard = tile_counts(state, obs)
        assert (opp, discard) == (6, 1)
        assert cp_counts(state, obs)[1] == 2
        assert not obs_blocks(state, obs)["discard, only at my CHOOSE_DISCARD"].any()
    for obs, _ in views(state, "norad"):
        assert obs_blocks(state, obs)["discard, only at my CHOOSE_DISCARD"].sum() == 0
    # Nothing tells Salemite which tile was taken: both choices look the same to it.
    assert_same_view(state, other, "salemite")


def test_tc_seed_1_c_empty_bag_takes_the_discard_first():
    """TC-SEED-1 (C): ER-TILE-6 (empty bag refilled before the draw), ER-ACT-9, seeded draw."""
    pos = seed_position([])
    state = load(pos)
    assert pile(state, "bag") == []
    assert "DRAW_BAG" in legal(state)
    play(state, "DRAW_BAG")
    gained = set(hand(state, "salemite")) - {"T06", "T08", "T09", "T10", "T11"}
    assert len(gained) == 1 and gained <= {"T12", "T21"}
    assert len(hand(state, "salemite")) == 6
    assert pile(state, "bag") == sorted({"T12", "T21"} - gained)
    assert len(pile(state, "bag")) == 1
    assert pile(state, "discard") == []
    assert cp(state, "salemite") == 2

    # Seeded: the same position (generator included) always draws the same tile ...
    again = load(pos)
    play(again, "DRAW_BAG")
    assert hand(again, "salemite") == hand(state, "salemite")
    # ... and the draw is random over both tiles (ER-GEN-3: uniform draws).
    seen = set()
    for seed in range(1, 41):
        other = copy.deepcopy(pos)
        other["rng"] = f"{seed * 0x9E3779B97F4A7C15 % 2**64:016x}"
        s = load(other)
        play(s, "DRAW_BAG")
        seen |= set(hand(s, "salemite")) & {"T12", "T21"}
    assert seen == {"T12", "T21"}


# --- TC-01: activation, waiting for orders, reactivation -----------------------------------------


def tc01_position() -> dict[str, Any]:
    pos = position(active="norad")
    move_tiles(pos, ["T01"], "char:bolter")
    place(pos, "bolter", engaged=True)
    move_tiles(pos, tiles(2, 5), "hand:norad")
    place(pos, "jack_saw", engaged=True)
    place(pos, "deeler", engaged=True)
    place(pos, "zombie", dead=True)
    move_tiles(pos, ["T06", "T08", "T09", "T10", "T11"], "hand:salemite")
    move_tiles(pos, tiles(12, 24), "bag")
    pos["players"]["norad"]["cp"] = 5
    pos["players"]["salemite"]["cp"] = 3
    return pos


def test_tc_01_activation_waiting_for_orders_and_reactivation():
    """TC-01: ER-ACT-4, ER-ACT-5, ER-ACT-6, ER-ACT-7, ER-ACT-8, ER-ACT-16."""
    state = load(tc01_position())
    assert char(state, "zombie").dead
    assert state.scenario.board.xy(char(state, "zombie").square) == (8, 5)

    # 1. vasquez is not yet activated, so bolter cannot be reactivated (ER-ACT-6).
    assert legal(state) == {"ACTIVATE(vasquez)", "DRAW_BAG", "PASS"}

    # 2. An empty first activation: engaged and waiting for orders (ER-ACT-5).
    play(state, "ACTIVATE(vasquez)")
    assert "END_ROUND" in legal(state)
    play(state, "END_ROUND")
    vasquez = char(state, "vasquez")
    assert vasquez.engaged
    assert vasquez.tiles == []
    assert vasquez.cp_spent == 0
    assert cp(state, "norad") == 5

    # 3. The dead zombie does not block Salemite's reactivations (ER-ACT-7).
    assert decider(state) == "salemite"
    assert legal(state) == {"REACTIVATE(jack_saw)", "REACTIVATE(deeler)", "DRAW_BAG", "PASS"}
    play(state, "PASS")

    # 4. Every NORAD character is engaged now: both may be reactivated.
    assert decider(state) == "norad"
    assert legal(state) == {"REACTIVATE(bolter)", "REACTIVATE(vasquez)", "DRAW_BAG", "PASS"}
    step4 = state_to_dict(state)

    # 5. A reactivation must do something before it may end (ER-ACT-8); one tile per round.
    play(state, "REACTIVATE(vasquez)")
    now = legal(state)
    assert "END_ROUND" not in now
    assert "ASSIGN(T02)" in now
    play(state, "ASSIGN(T02)")
    now = legal(state)
    assert not {a for a in now if a.startswith("ASSIGN")}
    assert "END_ROUND" in now
    assert [state.scenario.tiles[a.tile].id for a in char(state, "vasquez").tiles] == ["T02"]

    # 6. Step 4's position with no CP and no tiles: nothing can be done but pass.
    broke = copy.deepcopy(step4)
    broke["players"]["norad"]["cp"] = 0
    move_tiles(broke, list(broke["players"]["norad"]["hand"]), "box")
    assert legal(load(broke)) == {"PASS"}


# --- TC-02: passing -------------------------------------------------------------------------------


def first_round() -> GameState:
    """Turn 1's first activity round of a new game: both keep their draw; NORAD to play."""
    state = new_game(seed=0)
    play(state, "MULLIGAN_KEEP", "MULLIGAN_KEEP")
    assert state.phase == "activity" and state.decision == "round"
    assert decider(state) == "norad" and state.passes == 0
    assert cp(state, "norad") > 0 and cp(state, "salemite") > 0
    assert hand(state, "norad") and hand(state, "salemite")
    return state


def test_tc_02_a_pass_answered_by_pass_ends_the_phase():
    """TC-02 (a): ER-ACT-11, ER-ACT-12."""
    state = first_round()
    steps = state.steps
    hands = (hand(state, "norad"), hand(state, "salemite"))
    bag = pile(state, "bag")
    play(state, "PASS")
    assert state.phase == "activity" and decider(state) == "salemite" and state.passes == 1
    play(state, "PASS")
    assert state.phase == "final"
    assert state.decision == "discard"
    # No other round was played: two decisions, nothing drawn, nobody activated.
    assert state.steps == steps + 2
    assert (hand(state, "norad"), hand(state, "salemite")) == hands
    assert pile(state, "bag") == bag
    assert pile(state, "discard") == []
    assert all(ch.cp_spent == 0 and not ch.tiles for ch in state.chars)


def test_tc_02_b_a_draw_breaks_the_run_of_passes():
    """TC-02 (b): ER-ACT-11, ER-ACT-12, ER-ACT-13 (any non-pass round resets the count)."""
    state = first_round()
    play(state, "PASS")
    assert state.passes == 1
    play(state, "DRAW_BAG")
    assert state.passes == 0
    assert state.phase == "activity" and decider(state) == "norad"
    assert "ACTIVATE(bolter)" in legal(state)
    play(state, "PASS")
    assert state.phase == "activity" and decider(state) == "salemite"
    play(state, "PASS")
    assert state.phase == "final" and state.decision == "discard"


def test_tc_02_c_an_empty_first_activation_is_not_a_pass():
    """TC-02 (c): ER-ACT-12, ER-ACT-13, ER-ACT-5."""
    state = first_round()
    play(state, "PASS")
    play(state, "ACTIVATE(zombie)", "END_ROUND")
    assert state.passes == 0
    assert char(state, "zombie").engaged
    play(state, "PASS")
    assert state.phase == "activity" and decider(state) == "salemite" and state.passes == 1
    play(state, "PASS")
    assert state.phase == "final" and state.decision == "discard"


# --- TC-03: draw and pick costs ------------------------------------------------------------------


def tc03_position(norad_cp: int, bag: list[str], discard: list[str]) -> dict[str, Any]:
    pos = position(active="norad")
    pos["players"]["norad"]["cp"] = norad_cp
    move_tiles(pos, bag, "bag")
    move_tiles(pos, discard, "discard")
    return pos


@pytest.mark.parametrize(
    ("norad_cp", "bag", "discard", "draw", "pick"),
    [
        (0, ["T13"], ["T12"], False, False),
        (1, ["T13"], ["T12"], True, False),
        (2, ["T13"], ["T12"], True, True),
        (5, ["T13"], [], True, False),
        (5, [], [], False, False),
    ],
)
def test_tc_03_draw_and_pick_costs(norad_cp, bag, discard, draw, pick):
    """TC-03 (table rows): ER-ACT-9, ER-ACT-10, ER-CP-7."""
    state = load(tc03_position(norad_cp, bag, discard))
    assert not any(ch.engaged for ch in state.chars)
    now = legal(state)
    assert ("DRAW_BAG" in now) is draw
    assert ("PICK_DISCARD" in now) is pick
    assert "PASS" in now


def test_tc_03_after_draw_the_discard_refills_the_bag():
    """TC-03 (after the draw, third row): ER-ACT-9 (1 CP), ER-TILE-7 refill."""
    state = load(tc03_position(2, ["T13"], ["T12"]))
    play(state, "DRAW_BAG")
    assert cp(state, "norad") == 1
    assert hand(state, "norad") == ["T13"]
    assert pile(state, "bag") == ["T12"]
    assert pile(state, "discard") == []


# --- TC-04: no tile limit during the phase, 5 at the end -----------------------------------------


def tc04_position() -> dict[str, Any]:
    pos = position(active="norad", turn=2)
    assert pos["initiative"] == "salemite"
    move_tiles(pos, ["T01"], "char:bolter")
    place(pos, "bolter", engaged=True)
    move_tiles(pos, tiles(2, 6), "hand:norad")
    move_tiles(pos, tiles(7, 11), "hand:salemite")
    move_tiles(pos, tiles(12, 24), "bag")
    pos["players"]["norad"]["cp"] = 3
    pos["players"]["salemite"]["cp"] = 0
    return pos


def test_tc_04_no_tile_limit_during_the_phase_five_at_the_end():
    """TC-04: ER-TILE-10, ER-FIN-1, ER-FIN-5, ER-FIN-6, ER-INI-1 (and ER-HID-3, ER-HID-12)."""
    state = load(tc04_position())
    assert len(pile(state, "bag")) >= 4

    # 1. Three draws in the activity phase: 8 tiles behind the screen is fine (ER-TILE-10).
    for action in ("DRAW_BAG", "PASS", "DRAW_BAG", "PASS", "DRAW_BAG", "PASS"):
        assert action in legal(state)
        play(state, action)
        assert state.phase == "activity"
    assert len(hand(state, "norad")) == 8
    assert cp(state, "norad") == 0
    assert set(tiles(2, 6)) <= set(hand(state, "norad"))
    bag_before_final = len(pile(state, "bag"))
    assert bag_before_final == 13 - 3
    assert decider(state) == "norad"
    assert "PASS" in legal(state)
    play(state, "PASS")

    # 2. Final phase: assigned T01 to the discard, pools to 0, cards disengaged (ER-FIN-1).
    assert state.phase == "final"
    assert pile(state, "discard") == ["T01"]
    assert char(state, "bolter").tiles == []
    assert state.cp == [0, 0]
    assert not any(ch.engaged for ch in state.chars)

    # 3. Salemite (initiative) decides first; NORAD must come down to 5 (ER-FIN-5).
    assert state.decision == "discard" and decider(state) == "salemite"
    assert "KEEP_HAND" in legal(state)
    play(state, "KEEP_HAND")
    assert state.decision == "discard" and decider(state) == "norad"
    norad_hand = hand(state, "norad")
    for size in (8, 7, 6):
        assert len(hand(state, "norad")) == size
        now = legal(state)
        assert "KEEP_HAND" not in now
        assert now == {f"DISCARD_TILE({t})" for t in hand(state, "norad")}
        play(state, f"DISCARD_TILE({hand(state, 'norad')[0]})")
    assert len(hand(state, "norad")) == 5
    assert "KEEP_HAND" in legal(state)
    play(state, f"DISCARD_TILE({hand(state, 'norad')[0]})")  # the fourth, by choice
    assert len(hand(state, "norad")) == 4
    assert "KEEP_HAND" in legal(state)
    kept = hand(state, "norad")
    thrown = sorted(set(norad_hand) - set(kept))
    assert len(thrown) == 4
    assert len(pile(state, "discard")) == 1 + 4
    assert sorted(pile(state, "discard")) == sorted(["T01", *thrown])

    # Salemite sees NORAD's kept count (ER-FIN-6, ER-HID-3) and no NORAD tile id (ER-HID-2).
    saved = state_to_dict(state)
    assert len(saved["players"]["norad"]["hand"]) == 4
    for obs, _ in views(state, "salemite"):
        mine, opp, bag, discard = tile_counts(state, obs)
        assert (mine, opp, bag, discard) == (5, 4, bag_before_final, 5)
        assert not obs_blocks(state, obs)["discard, only at my CHOOSE_DISCARD"].any()
    assert_same_view(state, load(swap_tiles(saved, "norad", "bag")), "salemite")

    play(state, "KEEP_HAND")

    # 4. Turn 3 Initiative (automatic): NORAD draws exactly 1 tile, Salemite none (ER-INI-1).
    assert state.turn == 3
    assert state.phase == "activity" and state.decision == "round"
    assert decider(state) == "norad"  # NORAD holds the initiative in odd turns (ER-SCN-9)
    assert len(hand(state, "norad")) == 5
    assert set(kept) <= set(hand(state, "norad"))
    assert len(hand(state, "salemite")) == 5
    assert len(pile(state, "bag")) == bag_before_final - 1
    assert len(pile(state, "discard")) == 5
