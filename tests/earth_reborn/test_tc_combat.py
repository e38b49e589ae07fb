"""Section-20 test cases of fighting: TC-07 (magnetic wooden door, destroying doors), TC-08 (close
combat) and TC-09 (shooting, arcs, line of sight, ammunition), step for step as the spec writes
them. Every "Expected", "Legal now" and "exactly" of the spec is an assertion here; dice are
injected in roll order (ER-DICE-4: attacker before defender; targeting dice before damage dice).
"""

from __future__ import annotations

from typing import Any

import pytest

from reborn_env.games.earth_reborn.positions import state_to_dict
from reborn_env.games.earth_reborn.rules.sight import ORANGE, RED, fire_arc, range_to
from tests.earth_reborn.helpers import (
    char,
    cp,
    decider,
    door,
    door_state,
    facing,
    give_card,
    hand,
    legal,
    load,
    move_tiles,
    mp,
    place,
    play,
    position,
    section_cp,
    xy,
)
from tests.earth_reborn.helpers import inject_next as inject

MAGNETIC_WOODEN = "4,4|4,5"  # the store door
MAGNETIC_SLIDING = "4,1|4,2"  # the vault door
WEST_WOODEN = "1,2|2,2"  # corridor -> hall wooden door


def targets(state) -> set[str]:
    """The offered CHOOSE_TARGET values (the decision after SELECT_ORDER)."""
    names = legal(state)
    assert all(n.startswith("CHOOSE_TARGET(") for n in names), names
    return {n[len("CHOOSE_TARGET(") : -1] for n in names}


def rolled(state) -> list[str]:
    """Faces rolled by the last action (every die rolled is public, ER-HID-11)."""
    return list(state.last_roll)


# =================================================================================================
# TC-07: magnetic wooden door; destroying doors
# =================================================================================================


def tc07a_position() -> dict[str, Any]:
    pos = position("norad")
    place(pos, "bolter", (4, 4), "S")  # carries the magnetic card (setup)
    place(pos, "zombie", (3, 4), "E")
    place(pos, "vasquez", (0, 4))
    pos["players"]["norad"]["cp"] = 6
    pos["players"]["salemite"]["cp"] = 5
    move_tiles(pos, ["T03"], "hand:norad")
    move_tiles(pos, ["T09"], "hand:salemite")
    return pos


def test_tc07a_magnetic_wooden_door_opened_with_card_closed_without():
    """TC-07(a): ER-DOOR-3 (magnetic needs a card to open), ER-DOOR-4 (wooden closable, no card
    needed), ER-DOOR-7 (an open wooden door stays open past the round end), ER-DOOR-1 (door
    kinds and states), ER-MOV-3, -8 (STEP, OPEN/CLOSE turn the figure, END_MOVE sets the facing),
    ER-ENV-4 (Move-order decisions), ER-ACT-15 (the opponent plays the next round)."""
    state = load(tc07a_position())
    assert char(state, "bolter").cards == 1
    play(state, "ACTIVATE(bolter)", "ASSIGN(T03)", "MOVE_CP(0)")
    assert state.mvp == 4
    assert "OPEN(S)" in legal(state)
    play(state, "OPEN(S)")
    assert door_state(state, MAGNETIC_WOODEN) == "open"
    assert state.mvp == 3
    play(state, "STEP(S)")
    assert xy(state, "bolter") == (4, 5)
    assert state.mvp == 2
    play(state, "END_MOVE(N)", "END_ROUND")
    # ER-DOOR-7: the (magnetic) wooden door stays open after the round.
    assert door_state(state, MAGNETIC_WOODEN) == "open"
    assert decider(state) == "salemite"

    play(state, "ACTIVATE(zombie)", "ASSIGN(T09)", "MOVE_CP(0)")
    assert state.mvp == 3
    play(state, "STEP(E)")
    assert xy(state, "zombie") == (4, 4)
    assert state.mvp == 2
    assert char(state, "zombie").cards == 0
    assert "CLOSE(S)" in legal(state)  # ER-DOOR-4: no card needed to close
    play(state, "CLOSE(S)")
    assert door_state(state, MAGNETIC_WOODEN) == "closed"
    assert state.mvp == 1
    assert facing(state, "zombie") == "S"
    # A figure without a card bordering the closed magnetic door has no OPEN (ER-DOOR-3).
    assert not any(n.startswith("OPEN(") for n in legal(state))
    play(state, "END_MOVE(S)", "END_ROUND")
    assert door_state(state, MAGNETIC_WOODEN) == "closed"
    assert xy(state, "zombie") == (4, 4)
    assert facing(state, "zombie") == "S"

    # bolter (card) has OPEN(N) from (4,5). NORAD's only tile is used up, so hand it a fresh
    # Move tile (T05, from the box) to give bolter a Move order in a later round.
    later = state_to_dict(state)
    move_tiles(later, ["T05"], "hand:norad")
    state = load(later)
    play(state, "ACTIVATE(vasquez)", "END_ROUND", "PASS")
    play(state, "REACTIVATE(bolter)", "ASSIGN(T05)", "MOVE_CP(4)")  # T05 is slot 1
    assert xy(state, "bolter") == (4, 5)
    assert "OPEN(N)" in legal(state)
    play(state, "OPEN(N)")
    assert door_state(state, MAGNETIC_WOODEN) == "open"


def tc07b_position(jack_facing: str = "N") -> dict[str, Any]:
    pos = position("salemite")
    place(pos, "jack_saw", (4, 2), jack_facing)
    pos["players"]["salemite"]["cp"] = 2
    return pos


def test_tc07b_saw_door_front_destroys_magnetic_sliding_door_for_good():
    """TC-07(b): ER-ABIL-1 (Jack Saw's saw, 1 CP on his card, dark-blue arc), ER-DOOR-9 (a
    destroyed door is removed for good), ER-DOOR-6 (it never closes at round end), ER-DOOR-14
    (doors are destroyed by Jack Saw's ability), ER-ENV-3 (the decisions after ACTIVATE),
    ER-CP-1 (the CP goes onto his card)."""
    state = load(tc07b_position("N"))
    assert door_state(state, MAGNETIC_SLIDING) == "closed"
    play(state, "ACTIVATE(jack_saw)")
    assert legal(state) == {"SAW_DOOR(N)", "END_ROUND"}
    play(state, "SAW_DOOR(N)")
    assert cp(state, "salemite") == 1
    assert char(state, "jack_saw").cp_spent == 1
    assert door_state(state, MAGNETIC_SLIDING) == "destroyed"
    # No door decision refers to the destroyed door any more.
    assert "SAW_DOOR(N)" not in legal(state)
    play(state, "END_ROUND")
    assert door_state(state, MAGNETIC_SLIDING) == "destroyed"  # never closes at round end

    # Open for good: in a later round the edge is walked through, no OPEN/CLOSE/SAW/CC on it.
    later = state_to_dict(state)
    later.update(active="salemite", decision={"kind": "round", "player": "salemite"})
    place(later, "jack_saw", engaged=False, cp_spent=0)
    later["players"]["salemite"]["cp"] = 3
    move_tiles(later, ["T03"], "hand:salemite")  # M1r C3k F1k I1g
    state = load(later)
    play(state, "ACTIVATE(jack_saw)", "ASSIGN(T03)")
    now = legal(state)
    assert "SAW_DOOR(N)" not in now
    assert "SELECT_ORDER(1)" not in now  # no closed door, no enemy next to (4,2)
    play(state, "MOVE_CP(0)")
    now = legal(state)
    assert "STEP(N)" in now
    assert "OPEN(N)" not in now and "CLOSE(N)" not in now
    play(state, "STEP(N)")
    assert xy(state, "jack_saw") == (4, 1)
    play(state, "END_MOVE(S)", "END_ROUND")
    assert door_state(state, MAGNETIC_SLIDING) == "destroyed"


@pytest.mark.parametrize(
    ("jack_facing", "arc", "offered"),
    [
        ("N", "front, dark-blue", True),
        ("E", "left, light-blue", False),
        ("W", "right, dark-blue (saw arm)", True),
        ("S", "back, grey", False),
    ],
)
def test_tc07b_saw_door_facing_variants(jack_facing: str, arc: str, offered: bool):
    """TC-07(b) facing variants: ER-ABIL-1 (only a door in a dark-blue arc), ER-SCN-5 (Jack Saw's
    right arc is dark-blue), ER-LOS-2."""
    state = load(tc07b_position(jack_facing))
    play(state, "ACTIVATE(jack_saw)")
    assert ("SAW_DOOR(N)" in legal(state)) is offered, arc
    if offered:
        play(state, "SAW_DOOR(N)")
        assert door_state(state, MAGNETIC_SLIDING) == "destroyed"
        assert cp(state, "salemite") == 1
        assert char(state, "jack_saw").cp_spent == 1
    else:
        assert legal(state) == {"END_ROUND"}


def tc07c_position() -> dict[str, Any]:
    pos = position("salemite")
    pos["players"]["salemite"]["cp"] = 4
    move_tiles(pos, ["T07"], "hand:salemite")  # M1k C2g F2k I2r
    place(pos, "zombie", (4, 4), "S")
    place(pos, "bolter", (4, 5))
    return pos


@pytest.mark.parametrize(
    ("faces", "destroyed"),
    [
        ("Y1 Y1 Y2 Y4", True),  # 3 + 3 + 1 + 0 = 7 >= 6
        ("Y2 Y3 Y4 Y5", False),  # 1 + 1 + 0 + 0 = 2 < 6
    ],
)
def test_tc07c_close_combat_against_magnetic_wooden_door(faces: str, destroyed: bool):
    """TC-07(c): ER-CC-10 (attacking a door: only the attacker rolls, normal 1, critical 3, vs the
    door's defensive value), ER-SCN-3 (magnetic wooden 6), ER-CC-3 (striking hard), ER-DOOR-9,
    ER-DOOR-14 (doors are destroyed by a Close Combat order), ER-DICE-2 (yellow faces)."""
    state = load(tc07c_position())
    assert door_state(state, MAGNETIC_WOODEN) == "closed"
    play(state, "ACTIVATE(zombie)", "ASSIGN(T07)")
    play(state, "SELECT_ORDER(1)")  # C2g
    assert targets(state) == {"S"}  # the door; bolter behind it is not adjacent
    play(state, "CHOOSE_TARGET(S)")
    inject(state, faces)
    play(state, "CHOOSE_CP(2)")
    assert rolled(state) == faces.split()  # 3 dark-blue + 1 striking hard, zombie only
    assert state.dice_queue == []
    assert door_state(state, MAGNETIC_WOODEN) == ("destroyed" if destroyed else "closed")
    assert cp(state, "salemite") == 2
    assert char(state, "zombie").cp_spent == 2
    assert section_cp(state, "zombie") == [0, 2, 0, 0]
    assert char(state, "bolter").wounds == 0 and not char(state, "bolter").wounded


# =================================================================================================
# TC-08: close combat
# =================================================================================================


def tc08_position() -> dict[str, Any]:
    pos = position("salemite")
    place(pos, "jack_saw", (4, 3), "N", side="healthy", wounds=0)
    place(pos, "vasquez", (4, 2), "E", side="healthy", wounds=2)
    give_card(pos, "vasquez")
    place(pos, "bolter", (0, 2))
    pos["players"]["salemite"]["cp"] = 4
    move_tiles(pos, ["T03"], "hand:salemite")  # M1r C3k F1k I1g
    return pos


def fight(pos: dict[str, Any], faces: str):
    """TC-08 step 1, with ``faces`` injected for the combat (attacker's dice, then defender's)."""
    state = load(pos)
    play(state, "ACTIVATE(jack_saw)", "ASSIGN(T03)", "SELECT_ORDER(1)")
    assert targets(state) == {"N"}
    play(state, "CHOOSE_TARGET(N)")
    assert legal(state) == {"CHOOSE_CP(1)", "CHOOSE_CP(2)", "CHOOSE_CP(3)"}
    inject(state, faces)
    play(state, "CHOOSE_CP(2)")
    assert rolled(state) == faces.split()  # exactly that many dice were rolled
    assert state.dice_queue == []
    return state


@pytest.mark.parametrize(
    "faces",
    [
        pytest.param("Y1 Y2 Y3 Y2 Y4 Y2 Y5", id="main"),
        pytest.param("Y1 Y2 Y3 Y2 Y4 Y2 Y1", id="defender-crit"),
    ],
)
def test_tc08_close_combat_kills_vasquez_and_takes_card(faces: str):
    """TC-08 main case and the "defender rolls Y2 Y1" variant: ER-CC-1..8 (5 attacker dice:
    dark-blue 4 + 1 striking hard; 2 defender dice: light-blue), ER-CC-6 (the flip's Armour 0 is
    used), ER-WND-1..3, ER-WND-4 and ER-CHAR-1 (the Wounded side's stat line applies at once),
    ER-DOOR-12 (the killer takes the card), ER-DOOR-13 (any character may carry a card),
    ER-SCN-10 (Salemite +2 MP), ER-DICE-2."""
    state = fight(tc08_position(), faces)
    vasquez, jack = char(state, "vasquez"), char(state, "jack_saw")
    assert vasquez.dead
    assert xy(state, "vasquez") == (4, 2)  # the dead marker
    assert vasquez.cards == 0 and jack.cards == 1
    assert mp(state, "salemite") == 2
    assert mp(state, "norad") == 0
    assert cp(state, "salemite") == 2
    assert jack.cp_spent == 2
    assert section_cp(state, "jack_saw") == [0, 2, 0, 0]
    assert "SELECT_ORDER(1)" not in legal(state)  # C3k used up (ER-ORD-8)
    assert not jack.dead and not jack.wounded
    if faces.endswith("Y1"):
        assert jack.wounds == 1  # Healthy 1/4
    else:
        assert jack.wounds == 0
    assert state.winner is None
    assert decider(state) == "salemite"
    assert state.decision == "activation"


def test_tc08_variant_healthy_vasquez_survives():
    """TC-08 variant (vasquez Healthy, 0 wounds): ER-CC-5..7: 1 wound from the critical, defensive
    value 1 normal + ARM 1 = 2 vs attack 3: 1 more wound, still Healthy."""
    pos = tc08_position()
    place(pos, "vasquez", wounds=0)
    state = fight(pos, "Y1 Y2 Y3 Y2 Y4 Y2 Y5")
    vasquez = char(state, "vasquez")
    assert not vasquez.dead and not vasquez.wounded
    assert vasquez.wounds == 2
    assert vasquez.cards == 1 and char(state, "jack_saw").cards == 0
    assert char(state, "jack_saw").wounds == 0
    assert mp(state, "salemite") == 0 and mp(state, "norad") == 0
    assert cp(state, "salemite") == 2


def test_tc08_variant_attacker_dies_round_ends():
    """TC-08 variant (attacker dies): ER-CC-5 (defender's critical), ER-CC-8 (normal-hit wounds
    still land), ER-WND-6 (the round ends at once), ER-DOOR-12 (she keeps her card),
    ER-SCN-10 (NORAD +1 MP)."""
    pos = tc08_position()
    place(pos, "jack_saw", side="wounded", wounds=2)
    state = fight(pos, "Y2 Y2 Y3 Y4 Y1 Y2")
    jack, vasquez = char(state, "jack_saw"), char(state, "vasquez")
    assert jack.dead
    assert xy(state, "jack_saw") == (4, 3)
    assert not vasquez.dead and vasquez.wounded and vasquez.wounds == 0
    assert vasquez.cards == 1 and jack.cards == 0
    assert mp(state, "norad") == 1 and mp(state, "salemite") == 0
    # No END_ROUND decision: NORAD is active at a round-level decision.
    assert state.decision == "round"
    assert decider(state) == "norad"
    assert state.scenario.factions[state.active] == "norad"
    assert cp(state, "salemite") == 2
    assert state.winner is None


def test_tc08_variant_both_die_cards_stay_on_markers():
    """TC-08 variant (both die): ER-CC-8 (simultaneous blows), ER-DOOR-12 (both dead: each one's
    cards stay on its own marker), ER-SCN-10 (NORAD +1, Salemite +2), ER-WND-6, ER-WIN-2 (others
    alive: the game goes on)."""
    pos = tc08_position()
    place(pos, "jack_saw", side="wounded", wounds=2)
    place(pos, "vasquez", side="wounded", wounds=1)
    state = fight(pos, "Y2 Y2 Y3 Y4 Y1")  # 4 attacker dice, 1 defender die (light-blue 1)
    jack, vasquez = char(state, "jack_saw"), char(state, "vasquez")
    assert jack.dead and vasquez.dead
    assert xy(state, "vasquez") == (4, 2) and xy(state, "jack_saw") == (4, 3)
    assert vasquez.cards == 1 and jack.cards == 0
    assert mp(state, "norad") == 1 and mp(state, "salemite") == 2
    assert state.winner is None
    assert state.decision == "round"
    assert decider(state) == "norad"


# =================================================================================================
# TC-09: shooting, arcs, line of sight, ammunition
# =================================================================================================


def tc09_position() -> dict[str, Any]:
    pos = position("norad")
    pos["players"]["norad"]["cp"] = 9
    place(pos, "bolter", (0, 3), "E")
    move_tiles(pos, ["T04"], "hand:norad")  # M2g C1r F3k S2k
    place(pos, "zombie", (5, 3), "W", side="healthy", wounds=0)
    place(pos, "jack_saw", (8, 3), "W")
    place(pos, "deeler", (8, 1), "W")
    place(pos, "vasquez", (0, 5), "E")
    return pos


def aim_bolter(pos: dict[str, Any]):
    """The first three decisions of TC-09: ACTIVATE(bolter), ASSIGN(T04), SELECT_ORDER(2)."""
    state = load(pos)
    play(state, "ACTIVATE(bolter)", "ASSIGN(T04)")
    assert "SELECT_ORDER(2)" in legal(state)
    play(state, "SELECT_ORDER(2)")
    return state


def test_tc09a_rifle_shot_red_arc():
    """TC-09(a): ER-SHOOT-2 (targets in LoS), ER-SHOOT-4 (improved targeting), ER-SHOOT-5
    (distance >= range), ER-SHOOT-6 (the rifle never runs out), ER-SHOOT-8 (red damage dice + pour
    it on), ER-SHOOT-9 (criticals, then normals vs Armour), ER-LOS-8 (range 5)."""
    state = aim_bolter(tc09_position())
    assert targets(state) == {"zombie"}
    board = state.scenario.board
    b, z = char(state, "bolter"), char(state, "zombie")
    assert fire_arc(board, b.square, b.facing, z.square) == RED
    assert range_to(board, b.square, z.square) == 5
    play(state, "CHOOSE_TARGET(zombie)")
    assert legal(state) == {"CHOOSE_CP(1)", "CHOOSE_CP(2)", "CHOOSE_CP(3)"}
    play(state, "CHOOSE_CP(3)")
    assert legal(state) == {"CHOOSE_AIM(0)", "CHOOSE_AIM(1)", "CHOOSE_AIM(2)"}
    inject(state, "Y4 Y2 Y3 Y6  Y1 Y2 Y3 Y4 Y5")  # 4 targeting dice, then 5 damage dice
    play(state, "CHOOSE_AIM(1)")
    assert rolled(state) == ["Y4", "Y2", "Y3", "Y6", "Y1", "Y2", "Y3", "Y4", "Y5"]
    assert state.dice_queue == []
    zombie = char(state, "zombie")
    assert not zombie.dead and not zombie.wounded
    assert zombie.wounds == 2
    assert char(state, "bolter").weapon_ready  # the rifle ignores the out-of-ammo face
    assert char(state, "bolter").cp_spent == 3
    assert cp(state, "norad") == 6
    assert section_cp(state, "bolter") == [0, 0, 3, 0]
    assert state.decision == "activation"


@pytest.mark.parametrize(
    ("targeting", "hit"),
    [
        ("Y3 Y3 Y3 Y3", False),  # distance 4 < range 5, no perfect shot
        ("Y3 Y3 Y3 Y5", True),  # perfect shot: success whatever the range
    ],
)
def test_tc09b_targeting_fails_or_perfect_shot(targeting: str, hit: bool):
    """TC-09(b): ER-SHOOT-5 (distance must reach the range unless a perfect shot), ER-SHOOT-3
    (a failed shot keeps the CP spent, no damage roll)."""
    state = aim_bolter(tc09_position())
    play(state, "CHOOSE_TARGET(zombie)", "CHOOSE_CP(3)")
    damage = "Y1 Y5 Y5 Y5 Y5"  # 1 critical if rolled
    inject(state, f"{targeting} {damage}")
    play(state, "CHOOSE_AIM(1)")
    zombie = char(state, "zombie")
    if hit:
        assert rolled(state) == (targeting + " " + damage).split()
        assert state.dice_queue == []
        assert zombie.wounds == 1
    else:
        assert rolled(state) == targeting.split()  # no damage roll
        assert state.dice_queue == damage.split()
        assert zombie.wounds == 0 and not zombie.wounded
    assert char(state, "bolter").cp_spent == 3
    assert cp(state, "norad") == 6
    assert section_cp(state, "bolter") == [0, 0, 3, 0]


def test_tc09c_white_arc_not_offered():
    """TC-09(c): ER-LOS-3, -4 (a target in the white arc is never in LoS), ER-ENV-5 (no Shoot
    order is offered without a target)."""
    pos = tc09_position()
    place(pos, "bolter", (3, 3), "E")
    place(pos, "zombie", (1, 3))
    state = load(pos)
    board = state.scenario.board
    bolter_sq, zombie_sq = char(state, "bolter").square, char(state, "zombie").square
    assert fire_arc(board, bolter_sq, char(state, "bolter").facing, zombie_sq) not in (RED, ORANGE)
    play(state, "ACTIVATE(bolter)", "ASSIGN(T04)")
    # The zombie is the only enemy bolter could see; it is not offered, so no Shoot order exists.
    assert "SELECT_ORDER(2)" not in legal(state)


def test_tc09c_orange_arc_uses_orange_damage_dice():
    """TC-09(c), facing N: ER-LOS-3 (orange arc), ER-SHOOT-8 (the rifle's orange dice, 3, plus
    pour-it-on dice)."""
    pos = tc09_position()
    place(pos, "bolter", (3, 3), "N")
    place(pos, "zombie", (1, 3))
    state = aim_bolter(pos)
    board = state.scenario.board
    arc = fire_arc(board, char(state, "bolter").square, 0, char(state, "zombie").square)
    assert arc == ORANGE
    assert "zombie" in targets(state)
    play(state, "CHOOSE_TARGET(zombie)", "CHOOSE_CP(2)")
    # 3 targeting dice (SHT 2 + rifle 1 + aim 0), perfect shot; damage 3 orange + 1 pour it on.
    inject(state, "Y5 Y5 Y5  Y5 Y5 Y5 Y5")
    play(state, "CHOOSE_AIM(0)")
    assert rolled(state) == ["Y5"] * 7
    assert state.dice_queue == []


def test_tc09d_blocking_figure():
    """TC-09(d): ER-LOS-5 (a living figure in between blocks the line of sight)."""
    pos = tc09_position()
    place(pos, "deeler", (3, 3))
    offered = targets(aim_bolter(pos))
    assert "zombie" not in offered
    assert "deeler" in offered


def test_tc09e_closed_door_blocks_open_door_does_not():
    """TC-09(e): ER-LOS-5, ER-DOOR-8 (a closed door blocks LoS, an open one does not)."""
    pos = tc09_position()
    place(pos, "bolter", (0, 2), "E")
    state = load(pos)
    play(state, "ACTIVATE(bolter)", "ASSIGN(T04)")
    # The segment to the zombie crosses the closed wooden door (1,2)|(2,2): not offered. No other
    # enemy is in sight either, so no Shoot order exists at all.
    assert "SELECT_ORDER(2)" not in legal(state)

    door(pos, WEST_WOODEN, "open")
    assert "zombie" in targets(aim_bolter(pos))


def tc09f_position(deeler_square: tuple[int, int]) -> dict[str, Any]:
    pos = tc09_position()
    move_tiles(pos, ["T04"], "box")
    move_tiles(pos, ["T07"], "hand:norad")  # M1k C2g F2k I2r
    place(pos, "vasquez", (2, 2), "E")
    place(pos, "zombie", (4, 4))
    place(pos, "bolter", (3, 2))
    place(pos, "deeler", deeler_square)
    return pos


def aim_vasquez(pos: dict[str, Any]):
    state = load(pos)
    play(state, "ACTIVATE(vasquez)", "ASSIGN(T07)", "SELECT_ORDER(2)")
    return state


def test_tc09f_corner_blocked_both_ways():
    """TC-09(f): ER-LOS-6 (a corner is blocked only if both ways around are blocked): bolter on
    (3,2) and deeler on (2,3) block both; deeler is offered, in the orange arc."""
    state = aim_vasquez(tc09f_position((2, 3)))
    assert targets(state) == {"deeler"}
    board = state.scenario.board
    v = char(state, "vasquez")
    assert fire_arc(board, v.square, v.facing, char(state, "deeler").square) == ORANGE
    # Orange damage: the pistol's 2 dice (no pour-it-on with 1 CP).
    play(state, "CHOOSE_TARGET(deeler)")
    inject(state, "Y5 Y5 Y5  Y5 Y5")  # 3 targeting dice (SHT 3), perfect shot; 2 damage dice
    play(state, "CHOOSE_CP(1)")
    assert rolled(state) == ["Y5"] * 5
    assert state.dice_queue == []


@pytest.mark.parametrize(
    ("targeting", "hit"),
    [
        ("Y2 Y1 Y3", True),  # distance 2 + 1 + 1 = 4 = range
        ("Y1 Y1 Y3", False),  # distance 3 < range 4
    ],
)
def test_tc09f_corner_open_one_way(targeting: str, hit: bool):
    """TC-09(f): ER-LOS-6 (one way around the corner is free: not blocked); the zombie is in the
    red arc at range 4 (ER-LOS-3, ER-LOS-8, ER-SHOOT-5, ER-SHOOT-8: the pistol's 3 red dice)."""
    state = aim_vasquez(tc09f_position((8, 1)))
    assert targets(state) == {"zombie"}
    board = state.scenario.board
    v, z = char(state, "vasquez"), char(state, "zombie")
    assert fire_arc(board, v.square, v.facing, z.square) == RED
    assert range_to(board, v.square, z.square) == 4
    play(state, "CHOOSE_TARGET(zombie)")
    inject(state, f"{targeting} Y5 Y5 Y5")
    play(state, "CHOOSE_CP(1)")
    if hit:
        assert rolled(state) == targeting.split() + ["Y5"] * 3
        assert state.dice_queue == []
    else:
        assert rolled(state) == targeting.split()
        assert state.dice_queue == ["Y5"] * 3


def tc09g_position() -> dict[str, Any]:
    pos = tc09_position()
    move_tiles(pos, ["T04"], "box")
    pos.update(active="salemite", decision={"kind": "round", "player": "salemite"})
    pos["players"]["salemite"]["cp"] = 4
    place(pos, "deeler", (6, 3), "W")
    move_tiles(pos, ["T07"], "hand:salemite")  # M1k C2g F2k I2r
    place(pos, "vasquez", (2, 3), "E")
    place(pos, "zombie", (8, 5))
    return pos


def shoot_vasquez_out_of_ammo():
    """TC-09(g) up to the shot: the pistol runs out of ammo, the shot does nothing."""
    state = load(tc09g_position())
    play(state, "ACTIVATE(deeler)", "ASSIGN(T07)")
    assert "RELOAD" not in legal(state)  # not before the shot: the pistol is ready
    play(state, "SELECT_ORDER(2)")
    assert "vasquez" in targets(state)
    play(state, "CHOOSE_TARGET(vasquez)")
    inject(state, "Y6 Y4  Y4 Y4 Y5")
    play(state, "CHOOSE_CP(1)")  # no aim step with 1 CP
    # 2 targeting dice, then 3 red damage dice
    assert rolled(state) == ["Y6", "Y4", "Y4", "Y4", "Y5"]
    assert state.dice_queue == []
    assert state.decision == "activation"
    return state


def test_tc09g_out_of_ammo_and_reload():
    """TC-09(g): ER-SHOOT-5 (distance 5 >= range 4), ER-SHOOT-6 (the pistol's out-of-ammo face;
    the shot still resolves), ER-SHOOT-9 (no hits: nothing), ER-SHOOT-7 (RELOAD: 1 CP on the
    card, counts toward MAXCP, legal only while out of ammo)."""
    state = shoot_vasquez_out_of_ammo()
    vasquez, deeler = char(state, "vasquez"), char(state, "deeler")
    assert vasquez.wounds == 0 and not vasquez.wounded
    assert not deeler.weapon_ready
    assert "RELOAD" in legal(state)
    assert cp(state, "salemite") == 3
    play(state, "RELOAD")
    assert cp(state, "salemite") == 2
    assert deeler.cp_spent == 2
    assert deeler.weapon_ready
    assert "RELOAD" not in legal(state)


def test_tc09g_out_of_ammo_survives_final_phase():
    """TC-09(g): ER-SHOOT-7 (being out of ammo survives the Final phase), ER-FIN-2."""
    state = shoot_vasquez_out_of_ammo()
    play(state, "END_ROUND", "PASS", "PASS")  # Salemite ends, NORAD passes, Salemite passes
    assert state.phase == "final"
    assert not char(state, "deeler").weapon_ready
    assert hand(state, "norad") == []
    play(state, "KEEP_HAND", "KEEP_HAND")
    assert state.turn == 2
    assert state.phase == "activity"
    assert not char(state, "deeler").weapon_ready
