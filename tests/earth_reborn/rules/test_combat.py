"""Per-rule tests of dice (ER-DICE-1, -2, -3, -5), fire arcs (ER-LOS-1) and shooting
(ER-SHOOT-1); dice are injected in roll order (ER-DICE-4).
"""

from __future__ import annotations

import pytest

from reborn_env.games.earth_reborn.positions import state_to_dict
from reborn_env.games.earth_reborn.rules import dice
from reborn_env.games.earth_reborn.rules.engine import new_game
from reborn_env.games.earth_reborn.rules.state import GameState
from tests.earth_reborn.helpers import (
    VAULT,
    WOODEN_WEST,
    char,
    cp,
    door_state,
    legal,
    load,
    move_tiles,
    mp,
    place,
    play,
    position,
    section_cp,
    tiles,
)
from tests.earth_reborn.helpers import inject_next as inject

# --- Dice (ER-DICE-1, -2, -3, -5) ----------------------------------------------------------------


def test_two_dice_kinds_and_rolls_of_more_than_six_dice():
    """ER-DICE-1: yellow and black dice; a roll may use more than 6 dice (a 7-dice damage roll
    in a shot: 4 red damage dice + 3 pour-it-on dice)."""
    state = new_game(seed=5)
    faces = dice.roll(state, dice.YELLOW, 10)
    assert len(faces) == 10 and set(faces) <= set(range(1, 7))
    assert len(dice.roll(state, dice.BLACK, 8)) == 8
    inject(state, "B3")  # ER-DICE-4: a yellow die passes a queued black face by ...
    dice.roll(state, dice.YELLOW, 1)
    assert state.dice_queue == ["B3"]
    assert dice.roll(state, dice.BLACK, 1) == [3]  # ... and the next black die takes it

    pos = position(active="norad")
    place(pos, "bolter", (0, 3), "E")
    place(pos, "zombie", (5, 3), "W")
    move_tiles(pos, ["T06"], "hand:norad")
    pos["players"]["norad"]["cp"] = 9
    state = load(pos)
    play(state, "ACTIVATE(bolter)", "ASSIGN(T06)", "SELECT_ORDER(1)", "CHOOSE_TARGET(zombie)")
    play(state, "CHOOSE_CP(4)")
    inject(state, "Y5 Y4 Y4 " + "Y4 Y4 Y4 Y4 Y4 Y4 Y2")  # 3 targeting (perfect), 7 damage
    play(state, "CHOOSE_AIM(0)")
    assert state.last_roll == ["Y5", "Y4", "Y4"] + ["Y4"] * 6 + ["Y2"]
    assert state.dice_queue == []
    assert char(state, "zombie").wounds == 0  # 1 normal hit vs ARM 1


def door_attack(
    where: tuple[int, int], face: str, edge: str, faces: str, cid: str = "bolter"
) -> GameState:
    """bolter (CC 3 in front) attacks the closed door in front of him with T01's C1k."""
    pos = position(active="norad")
    place(pos, cid, where, face)
    move_tiles(pos, ["T01"], "hand:norad")
    pos["players"]["norad"]["cp"] = 5
    state = load(pos)
    assert door_state(state, edge) == "closed"
    play(state, f"ACTIVATE({cid})", "ASSIGN(T01)", "SELECT_ORDER(1)", f"CHOOSE_TARGET({face})")
    inject(state, faces)
    play(state, "CHOOSE_CP(1)")
    assert state.dice_queue == []
    return state


@pytest.mark.parametrize(
    ("face", "is_hit"),
    [("Y1", True), ("Y2", True), ("Y3", True), ("Y4", False), ("Y5", False), ("Y6", False)],
)
def test_yellow_faces_combat_results_against_a_wooden_door(face, is_hit):
    """ER-DICE-2 (ER-CC-10): Y1 critical, Y2/Y3 normal hits, Y4-Y6 blank. Three dice
    [Y1, face, Y4] against the wooden door (defence 4): 3 + the face's value reaches 4 only for a
    hit or a critical."""
    state = door_attack((1, 2), "E", WOODEN_WEST, f"Y1 {face} Y4")
    assert door_state(state, WOODEN_WEST) == ("destroyed" if is_hit else "closed")
    assert cp(state, "norad") == 4 and section_cp(state, "bolter", 0) == [0, 1, 0, 0]


@pytest.mark.parametrize(
    ("faces", "destroyed"),
    [
        ("Y1 Y1 Y2", True),  # 3 + 3 + 1 = 7
        ("Y1 Y1 Y4", False),  # 6: so a critical is worth no more than 3
        ("Y1 Y2 Y3", False),  # 5
        ("Y1 Y1 Y1", True),  # 9
        ("Y2 Y3 Y2", False),  # 3 normal hits
    ],
)
def test_a_door_attack_counts_criticals_as_three(faces, destroyed):
    """ER-DICE-2, ER-DICE-5 (ER-CC-10): the magnetic sliding door (defence 7) falls to 7 points,
    not to 6; a critical counts 3, a normal hit 1."""
    state = door_attack((4, 2), "N", VAULT, faces)
    assert door_state(state, VAULT) == ("destroyed" if destroyed else "closed")


DISTANCE = {"Y1": 1, "Y2": 2, "Y3": 1, "Y4": 3, "Y5": 0, "Y6": 2}


def shot(shooter: str, target_x: int, faces: str) -> GameState:
    """``shooter`` at (0,3) facing E fires T01's F2r with 1 CP at the zombie on (target_x, 3)."""
    pos = position(active="norad")
    place(pos, shooter, (0, 3), "E")
    other = "vasquez" if shooter == "bolter" else "bolter"
    place(pos, other, (0, 5), "E")
    place(pos, "zombie", (target_x, 3), "W")
    move_tiles(pos, ["T01"], "hand:norad")
    pos["players"]["norad"]["cp"] = 5
    state = load(pos)
    play(state, f"ACTIVATE({shooter})", "ASSIGN(T01)", "SELECT_ORDER(2)", "CHOOSE_TARGET(zombie)")
    inject(state, faces)
    play(state, "CHOOSE_CP(1)")
    return state


@pytest.mark.parametrize("face", ["Y1", "Y2", "Y3", "Y4", "Y6"])
def test_yellow_faces_distance_points(face):
    """ER-DICE-2 (ER-SHOOT-5): bolter rolls 3 targeting dice [face, Y1, Y1] = distance(face) + 2;
    the shot hits (4 red damage dice follow) at exactly that range and misses one square further."""
    reach = DISTANCE[face] + 2
    hit = shot("bolter", reach, f"{face} Y1 Y1")
    assert len(hit.last_roll) == 3 + 4
    miss = shot("bolter", reach + 1, f"{face} Y1 Y1")
    assert miss.last_roll == [face, "Y1", "Y1"]  # no damage roll
    assert cp(miss, "norad") == 4  # the CP stay spent


def test_yellow_face_perfect_shot_hits_at_any_range():
    """ER-DICE-2: Y5 has no distance points but is a perfect shot: [Y5, Y1, Y1] (distance 2)
    hits at range 6; [Y6, Y1, Y1] (distance 4) does not."""
    assert len(shot("bolter", 6, "Y5 Y1 Y1").last_roll) == 7
    assert len(shot("bolter", 6, "Y6 Y1 Y1").last_roll) == 3


@pytest.mark.parametrize("face", ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6"])
def test_yellow_face_out_of_ammo(face):
    """ER-DICE-2 (ER-SHOOT-6): only Y6 shows the out-of-ammo icon: vasquez's pistol is out of ammo
    after a shot with [face, Y4, Y4]; the shot still hits (3 damage dice, blank)."""
    state = shot("vasquez", 5, f"{face} Y4 Y4 Y4 Y4 Y4")
    assert len(state.last_roll) == 6
    assert char(state, "vasquez").weapon_ready is (face != "Y6")


@pytest.mark.parametrize(
    ("faces", "hacked"),
    [
        ("Y1 Y5 Y6", True),  # 3 + 0 + 0
        ("Y2 Y4 Y5", True),  # 2 + 1 + 0
        ("Y3 Y4 Y6", True),  # 2 + 1 + 0
        ("Y4 Y4 Y4", True),  # 1 + 1 + 1
        ("Y2 Y5 Y6", False),  # 2
        ("Y3 Y5 Y5", False),  # 2
        ("Y4 Y4 Y5", False),  # 2
        ("Y4 Y4 Y6", False),  # 2
    ],
)
def test_yellow_faces_test_points_on_a_terminal(faces, hacked):
    """ER-DICE-2, ER-DICE-5 (ER-INT-3): test points Y1 3, Y2 2, Y3 2, Y4 1, Y5 0, Y6 0;
    vasquez's 3 TEC dice hack O1 when the total reaches the threshold 3 (exactly 3 is enough)."""
    pos = position(active="norad")
    place(pos, "vasquez", (4, 0), "N")
    move_tiles(pos, ["T07"], "hand:norad")
    pos["players"]["norad"]["cp"] = 5
    state = load(pos)
    play(state, "ACTIVATE(vasquez)", "ASSIGN(T07)", "SELECT_ORDER(3)")
    inject(state, faces)
    play(state, "CHOOSE_CP(1)")
    assert state.last_roll == faces.split()
    assert state_to_dict(state)["terminals"]["O1"] is hacked
    assert mp(state, "norad") == (3 if hacked else 0)
    assert cp(state, "norad") == 4


@pytest.mark.parametrize(
    ("faces", "found"),
    [
        ("B1 B6", True),  # 0 + 3
        ("B2 B6", True),
        ("B4 B1", True),
        ("B5 B1", True),
        ("B3 B3", True),  # 2 + 2
        ("B1 B2", False),
        ("B3 B1", False),  # 2
        ("B3 B2", False),  # 2: the Spy Point face is worth nothing
    ],
)
def test_black_faces_search_points_on_the_cache(faces, found):
    """ER-DICE-3, ER-DICE-5 (ER-SRCH-2): search points B1 0, B2 0, B3 2, B4-B6 3; deeler's 2
    black dice find the cache's card at 3 or more. Flip and shuffle icons do nothing."""
    pos = position(active="salemite")
    place(pos, "deeler", (7, 6), "W")
    move_tiles(pos, ["T02"], "hand:salemite")
    move_tiles(pos, tiles(10, 24), "bag")
    pos["players"]["salemite"]["cp"] = 5
    state = load(pos)
    play(state, "ACTIVATE(deeler)", "ASSIGN(T02)", "SELECT_ORDER(3)")
    before = state_to_dict(state)
    inject(state, faces)
    play(state, "CHOOSE_CP(1)")
    assert state.last_roll == faces.split()
    assert char(state, "deeler").cards == (1 if found else 0)
    assert state.cache_full == [not found]
    after = state_to_dict(state)
    for key in ("bag", "discard", "box", "doors", "terminals"):
        assert after[key] == before[key]
    assert after["players"]["salemite"]["hand"] == before["players"]["salemite"]["hand"]
    assert [c["side"] for c in after["characters"].values()] == ["healthy"] * 5


# --- Arcs (ER-LOS-1) -----------------------------------------------------------------------------


@pytest.mark.parametrize(("face", "n_dice"), [("N", 3), ("E", 2), ("S", 1), ("W", 2)])
def test_close_combat_arcs_set_the_dice_against_a_door(face, n_dice):
    """ER-LOS-1 (ER-LOS-2, ER-CC-10): bolter under the vault door attacks it with the door in his
    front (dark-blue, 3 dice), left or right (light-blue, 2) or back (grey, 1)."""
    pos = position(active="norad")
    place(pos, "bolter", (4, 2), face)
    move_tiles(pos, ["T01"], "hand:norad")
    pos["players"]["norad"]["cp"] = 5
    state = load(pos)
    play(state, "ACTIVATE(bolter)", "ASSIGN(T01)", "SELECT_ORDER(1)", "CHOOSE_TARGET(N)")
    inject(state, " ".join(["Y5"] * n_dice))
    play(state, "CHOOSE_CP(1)")
    assert state.last_roll == ["Y5"] * n_dice and state.dice_queue == []


@pytest.mark.parametrize(("face", "damage"), [("E", 4), ("N", 3), ("S", 3), ("W", None)])
def test_fire_arcs_red_orange_white(face, damage):
    """ER-LOS-1 (ER-LOS-3, -4, ER-SHOOT-8): the zombie two squares east of bolter is in his red
    arc facing E (rifle 4 damage dice), orange facing N or S (3), white facing W (no target)."""
    pos = position(active="norad")
    place(pos, "bolter", (3, 3), face)
    place(pos, "zombie", (5, 3), "W")
    move_tiles(pos, ["T01"], "hand:norad")
    pos["players"]["norad"]["cp"] = 5
    state = load(pos)
    play(state, "ACTIVATE(bolter)", "ASSIGN(T01)")
    if damage is None:
        assert "SELECT_ORDER(2)" not in legal(state)
        return
    play(state, "SELECT_ORDER(2)", "CHOOSE_TARGET(zombie)")
    inject(state, "Y5 Y5 Y5")  # perfect shot; the damage dice roll from the generator
    play(state, "CHOOSE_CP(1)")
    assert len(state.last_roll) == 3 + damage


# --- Shooting (ER-SHOOT-1) -----------------------------------------------------------------------


def test_no_shoot_order_without_a_ready_weapon():
    """ER-SHOOT-1: the zombie (no weapon) and vasquez out of ammo are offered no Shoot section;
    vasquez with a ready pistol is."""
    pos = position(active="salemite")
    place(pos, "zombie", (5, 3), "W")
    place(pos, "bolter", (3, 3), "E")
    move_tiles(pos, ["T01"], "hand:salemite")
    pos["players"]["salemite"]["cp"] = 5
    state = load(pos)
    play(state, "ACTIVATE(zombie)", "ASSIGN(T01)")
    assert legal(state) == {"MOVE_CP(0)", "END_ROUND"}

    for ready in (False, True):
        pos = position(active="norad")
        place(pos, "vasquez", (3, 3), "E", weapon_ready=ready)
        place(pos, "zombie", (5, 3), "W")
        move_tiles(pos, ["T01"], "hand:norad")
        pos["players"]["norad"]["cp"] = 5
        state = load(pos)
        play(state, "ACTIVATE(vasquez)", "ASSIGN(T01)")
        expected = {"MOVE_CP(0)", "END_ROUND"} | ({"SELECT_ORDER(2)"} if ready else {"RELOAD"})
        assert legal(state) == expected
