"""Focused tests by rule id: each test checks one rule (or a few close ones) of the spec by real
behaviour, and its docstring starts with the rule ids it checks.

Positions are built with :mod:`tests.earth_reborn.helpers` (section-20 defaults); dice are
injected in roll order (ER-DICE-4). Scenario variants (the initiative duel, recoloured tiles, fewer
turns, starting MP) are TOML copies of the default scenario written to ``tmp_path`` and loaded with
``load_scenario``. Random games are seeded and replayable.
"""

from __future__ import annotations

import copy
import random
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from reborn_env.games.earth_reborn.actions import MAX_CP
from reborn_env.games.earth_reborn.observation import observation_layout
from reborn_env.games.earth_reborn.positions import state_to_dict
from reborn_env.games.earth_reborn.rules import dice
from reborn_env.games.earth_reborn.rules.engine import apply_action, legal_actions, new_game
from reborn_env.games.earth_reborn.rules.orders import SAW_DOOR_ABILITY
from reborn_env.games.earth_reborn.rules.state import DOOR_STATES, GameState
from reborn_env.games.earth_reborn.rules.turn import command_point_income
from reborn_env.games.earth_reborn.rules.wounds import wound
from reborn_env.games.earth_reborn.scenario import loader as scenario_file
from reborn_env.games.earth_reborn.scenario.loader import load_scenario
from reborn_env.games.earth_reborn.scenario.model import (
    ARC_COLOUR_NAMES,
    DIRECTION_NAMES,
    DOOR_KINDS,
    ORDER_TYPES,
    WALL,
    Scenario,
)
from tests.earth_reborn.helpers import (
    char,
    cp,
    decider,
    door,
    door_state,
    engine_view,
    facing,
    hand,
    legal,
    load,
    move_tiles,
    mp,
    obs_blocks,
    pile,
    place,
    play,
    position,
    section_cp,
    tiles,
    xy,
)
from tests.earth_reborn.helpers import inject_next as inject

SCENARIO_TOML = Path(scenario_file.__file__).parent / "data" / "vault_raid.toml"
WOODEN_WEST = "1,2|2,2"  # wooden door between the west corridor and the hall
VAULT = "4,1|4,2"  # magnetic sliding door
STORE = "4,4|4,5"  # magnetic wooden door
END_MOVES = {f"END_MOVE({f})" for f in "NESW"}


# --- Helpers -------------------------------------------------------------------------------------


def starting(names: set[str], prefix: str) -> set[str]:
    return {n for n in names if n.startswith(prefix)}


def scenario_copy(tmp_path: Path, edit: Callable[[str], str]) -> Scenario:
    """The default scenario file, edited by ``edit``, saved under ``tmp_path`` and loaded."""
    text = SCENARIO_TOML.read_text()
    changed = edit(text)
    assert changed != text, "the edit must change the scenario file"
    path = tmp_path / "vault_raid.toml"
    path.write_text(changed)
    return load_scenario(str(path))


def duel_scenario(tmp_path: Path) -> Scenario:
    """Vault Raid with the optional initiative duel switched on (ER-INI-8)."""
    scn = scenario_copy(tmp_path, lambda t: t.replace("duel = false", "duel = true"))
    assert scn.initiative_duel
    return scn


def blocks(state: GameState, agent: str) -> dict[str, np.ndarray]:
    """``agent``'s observation cut into the named blocks of ``observation_layout``."""
    return obs_blocks(state, engine_view(state, agent)[0])


def view_bytes(state: GameState, agent: str) -> bytes:
    obs, mask = engine_view(state, agent)
    return obs.tobytes() + mask.tobytes()


def view_but_own_hand(state: GameState, agent: str) -> bytes:
    """``agent``'s observation and mask with the block of its own hand left out."""
    obs, mask = engine_view(state, agent)
    parts = obs_blocks(state, obs)
    del parts["my hand (tile multi-hot)"]
    return b"".join(v.tobytes() for v in parts.values()) + mask.tobytes()


def scaled(values: np.ndarray, scale: float) -> list[int]:
    return [int(round(float(v) * scale)) for v in values]


_IDLE = ("PASS", "END_ROUND", "END_MOVE", "DISCARD_TILE", "KEEP_HAND")


def random_game(
    seed: int,
    scenario: Scenario | str = "vault_raid",
    hook: Callable[[GameState], None] | None = None,
) -> GameState:
    """A seeded random game that prefers doing something over passing (fights happen).

    ``hook(state)`` runs after setup and after every action.
    """
    state = new_game(scenario, seed)
    rng = random.Random(seed)
    if hook:
        hook(state)
    while state.winner is None:
        now = legal_actions(state)
        busy = [a for a in now if state.codec.kind_of[a] not in _IDLE]
        pool = busy if busy and rng.random() < 0.85 else now
        apply_action(state, rng.choice(pool))
        if hook:
            hook(state)
    return state


def final_position(turn: int = 1) -> dict[str, Any]:
    """The Final phase of ``turn`` at the initiative holder's discard decision, every tile in the
    bag (so the next Initiative phase can draw)."""
    pos = position(turn=turn)
    holder = pos["initiative"]
    move_tiles(pos, tiles(1, 24), "bag")
    pos.update(phase="final", decision={"kind": "discard", "player": holder})
    return pos


def keep_both(state: GameState) -> None:
    """Both players keep their hands: the Final phase ends and the next turn begins."""
    play(state, "KEEP_HAND", "KEEP_HAND")


# --- Activity phase: rounds (ER-ACT-1, -2, -3, -15, -17) -----------------------------------------


def test_rounds_are_one_action_each_and_strictly_alternate():
    """ER-ACT-1, -3, -15: a round is one action of one player; the active player makes every
    decision of his round and pays its CP; rounds alternate, passes included."""
    pos = position(active="norad")
    move_tiles(pos, ["T01"], "hand:norad")
    move_tiles(pos, ["T02"], "hand:salemite")
    move_tiles(pos, tiles(3, 24), "bag")
    pos["players"]["norad"]["cp"] = 5
    pos["players"]["salemite"]["cp"] = 5
    state = load(pos)
    actives = []

    def round_start() -> None:
        assert state.decision == "round"
        assert decider(state) == state.scenario.factions[state.active]
        actives.append(decider(state))

    round_start()
    play(state, "DRAW_BAG")  # one action: the round is over at once (cost 1 CP)
    assert cp(state, "norad") == 4
    round_start()
    play(state, "PASS")  # a pass is a round too
    assert cp(state, "salemite") == 5
    round_start()
    # An activation round: every sub-decision is NORAD's until END_ROUND.
    for action in ("ACTIVATE(bolter)", "ASSIGN(T01)", "MOVE_CP(0)", "STEP(S)", "END_MOVE(E)"):
        play(state, action)
        assert decider(state) == "norad" and state.scenario.factions[state.active] == "norad"
        assert state.decision != "round"
    assert cp(state, "norad") == 3  # the active player paid the Move CP
    play(state, "END_ROUND")
    round_start()
    play(state, "ACTIVATE(zombie)", "END_ROUND")
    round_start()
    play(state, "PASS")
    round_start()
    play(state, "PASS")
    assert state.phase == "final"
    assert actives == ["norad", "salemite", "norad", "salemite", "norad", "salemite"]
    assert cp(state, "salemite") == 0 and cp(state, "norad") == 0  # Final phase: CP to the bank


def test_the_initiative_holder_plays_the_first_round():
    """ER-ACT-2: NORAD plays turn 1's first round, Salemite turn 2's (ER-SCN-9)."""
    state = new_game(seed=3)
    play(state, "MULLIGAN_KEEP", "MULLIGAN_KEEP")
    assert state.turn == 1 and state.phase == "activity" and state.decision == "round"
    assert decider(state) == "norad" and state.passes == 0
    play(state, "PASS", "PASS")
    keep_both(state)
    assert state.turn == 2 and state.phase == "activity" and state.decision == "round"
    assert state.scenario.factions[state.initiative] == "salemite"
    assert decider(state) == "salemite" and state.passes == 0
    play(state, "PASS", "PASS")
    keep_both(state)
    assert state.turn == 3 and decider(state) == "norad"


def test_an_attacker_cannot_attack_again_before_the_others_were_activated():
    """ER-ACT-17 (with ER-ACT-6): bolter attacks; NORAD's next round cannot reactivate him until
    vasquez was activated; then he may attack again with a new tile."""
    pos = position(active="norad")
    place(pos, "bolter", (3, 3), "E")
    place(pos, "zombie", (4, 3), "W")
    move_tiles(pos, ["T01", "T16"], "hand:norad")
    pos["players"]["norad"]["cp"] = 9
    state = load(pos)
    play(state, "ACTIVATE(bolter)", "ASSIGN(T01)", "SELECT_ORDER(1)", "CHOOSE_TARGET(E)")
    inject(state, "Y5 Y5 Y5 Y5 Y5 Y5")  # 3 attacker dice, 3 defender dice, all blank
    play(state, "CHOOSE_CP(1)", "END_ROUND", "PASS")
    assert legal(state) == {"ACTIVATE(vasquez)", "PASS"}  # no REACTIVATE(bolter)
    play(state, "ACTIVATE(vasquez)", "END_ROUND", "PASS")
    assert legal(state) == {"REACTIVATE(bolter)", "REACTIVATE(vasquez)", "PASS"}
    play(state, "REACTIVATE(bolter)", "ASSIGN(T16)")
    assert "SELECT_ORDER(5)" in legal(state)  # T16's C2k in slot 1
    play(state, "SELECT_ORDER(5)")
    assert legal(state) == {"CHOOSE_TARGET(E)"}


# --- Characters (ER-CHAR-1..3) -------------------------------------------------------------------

# ER-SCN-4: mov, cc (d/l/g), sht, arm, lp, maxcp, bonus, tec, srch per side.
STATS = {
    "bolter": ((4, (3, 2, 1), 2, 2, 3, 6, 2, 2, 1), (3, (2, 1, 1), 1, 1, 2, 4, 1, 1, 1)),
    "vasquez": ((5, (2, 2, 1), 3, 1, 3, 6, 1, 3, 2), (4, (1, 1, 0), 2, 0, 2, 4, 0, 2, 1)),
    "jack_saw": ((3, (4, 2, 1), 0, 2, 4, 5, 0, 0, 0), (3, (3, 1, 0), 0, 1, 3, 4, 0, 0, 0)),
    "deeler": ((4, (2, 1, 1), 2, 1, 3, 5, 1, 1, 2), (3, (1, 1, 0), 1, 0, 2, 4, 1, 1, 1)),
    "zombie": ((3, (3, 2, 1), 0, 1, 3, 4, 0, 0, 0), (2, (2, 1, 0), 0, 0, 2, 3, 0, 0, 0)),
}


def stat_tuple(line) -> tuple:
    return (
        line.mov,
        tuple(line.cc),
        line.sht,
        line.arm,
        line.lp,
        line.maxcp,
        line.bonus,
        line.tec,
        line.srch,
    )


def test_cards_have_two_sides_and_start_healthy():
    """ER-CHAR-1: two stat lines per card; every card starts Healthy; a flip changes the line in
    use."""
    state = new_game(seed=0)
    for c, spec in enumerate(state.scenario.characters):
        assert stat_tuple(spec.healthy) != stat_tuple(spec.wounded)
        assert not state.chars[c].wounded and state.chars[c].wounds == 0
        assert state.stats(c) is spec.healthy
    c = state.scenario.char_index["vasquez"]
    wound(state, c, 3)  # LP 3: flips to the Wounded side with 0 wounds
    assert state.chars[c].wounded and state.chars[c].wounds == 0
    assert stat_tuple(state.stats(c)) == STATS["vasquez"][1]


def test_stat_lines_arcs_weapons_and_abilities():
    """ER-CHAR-2: MOV, CC (d/l/g), SHT, ARM, LP, MAXCP, BONUS, TEC, SRCH per side, plus each
    character's arc map, firing weapon and abilities."""
    scn = load_scenario()
    assert [c.id for c in scn.characters] == ["bolter", "vasquez", "jack_saw", "deeler", "zombie"]
    for spec in scn.characters:
        assert (stat_tuple(spec.healthy), stat_tuple(spec.wounded)) == STATS[spec.id]
        assert spec.healthy.auto_hits == spec.wounded.auto_hits == 0
        arcs = [ARC_COLOUR_NAMES[a] for a in spec.arcs]  # front, right, back, left
        right = "dark_blue" if spec.id == "jack_saw" else "light_blue"
        assert arcs == ["dark_blue", right, "grey", "light_blue"]
        assert (SAW_DOOR_ABILITY in spec.abilities) is (spec.id == "jack_saw")
    weapons = {c.id: c.weapon and c.weapon.name for c in scn.characters}
    assert weapons == {
        "bolter": "assault_rifle",
        "vasquez": "pistol",
        "jack_saw": None,
        "deeler": "pistol",
        "zombie": None,
    }
    # The stat line is what the rules read: MOV is the MVP per Move CP.
    pos = position(active="salemite")
    move_tiles(pos, ["T01"], "hand:salemite")
    pos["players"]["salemite"]["cp"] = 5
    state = load(pos)
    play(state, "ACTIVATE(deeler)", "ASSIGN(T01)", "MOVE_CP(0)")
    assert state.mvp == 4


def test_a_card_is_engaged_on_first_activation_until_the_final_phase():
    """ER-CHAR-3: engaged at once on activation, still engaged in later rounds, disengaged in
    the Final phase."""
    pos = position(active="norad")
    move_tiles(pos, tiles(1, 24), "bag")
    pos["players"]["norad"]["cp"] = 3
    state = load(pos)
    assert not char(state, "bolter").engaged
    play(state, "ACTIVATE(bolter)")
    assert char(state, "bolter").engaged
    play(state, "END_ROUND", "PASS", "DRAW_BAG", "PASS")
    assert char(state, "bolter").engaged and not char(state, "vasquez").engaged
    play(state, "ACTIVATE(vasquez)", "END_ROUND", "PASS")
    assert char(state, "bolter").engaged and char(state, "vasquez").engaged
    play(state, "PASS")
    assert state.phase == "final"
    assert not any(ch.engaged for ch in state.chars)


# --- Command points (ER-CP-1, -2, -6, ER-GEN-2, ER-INI-6) ----------------------------------------


def test_spent_cp_go_onto_a_section_onto_the_card_or_to_the_bank():
    """ER-CP-1: MOVE_CP puts a CP on the section, RELOAD on the card (no section), DRAW_BAG back
    to the bank; the pool pays each one."""
    pos = position(active="norad")
    place(pos, "vasquez", weapon_ready=False)
    move_tiles(pos, ["T01"], "hand:norad")
    move_tiles(pos, ["T20"], "bag")
    pos["players"]["norad"]["cp"] = 5
    state = load(pos)
    play(state, "ACTIVATE(vasquez)", "ASSIGN(T01)", "MOVE_CP(0)")
    assert cp(state, "norad") == 4
    assert section_cp(state, "vasquez", 0) == [1, 0, 0, 0]
    assert char(state, "vasquez").cp_spent == 1
    play(state, "END_MOVE(E)", "RELOAD")
    assert cp(state, "norad") == 3
    assert section_cp(state, "vasquez", 0) == [1, 0, 0, 0]  # not on a section ...
    assert char(state, "vasquez").cp_spent == 2  # ... but on the card
    assert char(state, "vasquez").weapon_ready
    play(state, "END_ROUND", "PASS", "DRAW_BAG")
    assert cp(state, "norad") == 2
    assert [ch.cp_spent for ch in state.chars] == [0, 2, 0, 0, 0]
    assert hand(state, "norad") == ["T20"]


def test_drawing_costs_one_cp_and_picking_from_the_discard_two():
    """ER-CP-2: DRAW_BAG -1 CP, PICK_DISCARD -2 CP, back to the bank (no character pays)."""
    pos = position(active="norad")
    move_tiles(pos, ["T13", "T15"], "bag")
    move_tiles(pos, ["T12", "T14"], "discard")
    pos["players"]["norad"]["cp"] = 3
    state = load(pos)
    play(state, "DRAW_BAG")
    assert cp(state, "norad") == 2
    play(state, "PASS")
    assert "PICK_DISCARD" in legal(state)
    play(state, "PICK_DISCARD")
    assert cp(state, "norad") == 0
    play(state, "CHOOSE_DISCARD(T14)")
    assert len(hand(state, "norad")) == 2 and "T14" in hand(state, "norad")
    assert all(ch.cp_spent == 0 for ch in state.chars)
    broke = copy.deepcopy(pos)
    broke["players"]["norad"]["cp"] = 1
    assert "DRAW_BAG" in legal(load(broke)) and "PICK_DISCARD" not in legal(load(broke))
    broke["players"]["norad"]["cp"] = 0
    assert "DRAW_BAG" not in legal(load(broke))


@pytest.mark.parametrize(
    ("changes", "income"),
    [
        ({}, (9, 8)),
        ({"bolter": {"side": "wounded"}}, (8, 8)),
        ({"vasquez": {"side": "wounded"}}, (8, 8)),
        ({"bolter": {"side": "wounded"}, "vasquez": {"dead": True}}, (7, 8)),
        ({"vasquez": {"dead": True}}, (8, 8)),
        ({"deeler": {"side": "wounded"}}, (9, 8)),
        ({"deeler": {"dead": True}}, (9, 7)),
        ({"jack_saw": {"dead": True}, "zombie": {"side": "wounded"}}, (9, 8)),
    ],
)
def test_income_adds_the_bonus_cp_of_the_shown_side_of_living_cards(changes, income):
    """ER-CP-6, ER-INI-6 (ER-INI-5): turn-2 income = base + Bonus CP of each living card's shown
    side (bolter 2/1, vasquez 1/0, deeler 1/1, jack_saw and zombie 0); dead cards give none."""
    pos = final_position(turn=1)
    for cid, fields in changes.items():
        place(pos, cid, **fields)
    state = load(pos)
    keep_both(state)
    assert state.turn == 2 and state.phase == "activity"
    assert (cp(state, "norad"), cp(state, "salemite")) == income


def test_the_bank_is_unlimited_income_is_paid_whatever_was_spent():
    """ER-GEN-2 (ER-INI-5, ER-CP-5): at every turn's first round each pool is exactly that turn's
    income, however many CP went to the bank before; income never runs short."""
    checked = 0
    spent_to_zero = 0
    for seed in range(4):
        previous: dict[str, Any] = {"phase": None, "turn": 0}

        def hook(state: GameState, previous: dict[str, Any] = previous) -> None:
            nonlocal checked, spent_to_zero
            if state.phase == "activity" and previous["phase"] != "activity":
                for p in (0, 1):
                    assert state.cp[p] == command_point_income(state, p)
                checked += 1
            if state.phase == "activity" and 0 in state.cp:
                spent_to_zero += 1
            previous["phase"] = state.phase

        random_game(seed, hook=hook)
    assert checked >= 8
    assert spent_to_zero > 0  # pools really were emptied into the bank along the way


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


# --- Doors and magnetic cards (ER-DOOR-1, -11, -13, -14) -----------------------------------------


def test_door_kinds_and_states_of_the_scenario():
    """ER-DOOR-1: five small doors of the four kinds, all closed at the start; states are
    closed, open and destroyed."""
    state = new_game(seed=0)
    doors = state_to_dict(state)["doors"]
    assert {edge: d["kind"] for edge, d in doors.items()} == {
        "4,1|4,2": "magnetic_sliding",
        "1,2|2,2": "wooden",
        "6,2|7,2": "wooden",
        "6,3|7,3": "sliding",
        "4,4|4,5": "magnetic_wooden",
    }
    assert {d["state"] for d in doors.values()} == {"closed"}
    assert DOOR_STATES == ("closed", "open", "destroyed")
    assert set(DOOR_KINDS) == {d["kind"] for d in doors.values()}
    board = state.scenario.board
    for d in board.doors:
        (ax, ay), (bx, by) = board.xy(d.a), board.xy(d.b)
        assert abs(ax - bx) + abs(ay - by) == 1  # a small door: one edge between two squares
        assert d.magnetic is d.kind.startswith("magnetic")
        assert d.sliding is d.kind.endswith("sliding")
    pos = position()
    door(pos, WOODEN_WEST, "open")
    door(pos, VAULT, "destroyed")
    loaded = load(pos)
    assert door_state(loaded, WOODEN_WEST) == "open"
    assert door_state(loaded, VAULT) == "destroyed"
    assert door_state(loaded, STORE) == "closed"


def marker_position(vasquez_at: tuple[int, int], cards_on_marker: int) -> dict[str, Any]:
    """vasquez (not engaged, hand {T05}) and the zombie's dead marker on (4,3) with cards."""
    pos = position(active="norad")
    place(pos, "vasquez", vasquez_at, "E")
    place(pos, "zombie", (4, 3), dead=True, cards=cards_on_marker)
    place(pos, "bolter", cards=2 - cards_on_marker)
    pos["caches"][0]["full"] = False
    move_tiles(pos, ["T05"], "hand:norad")
    pos["players"]["norad"]["cp"] = 5
    return pos


def test_pickup_card_from_a_dead_marker_one_card_each():
    """ER-DOOR-11: passing a dead marker with 2 cards, PICKUP_CARD (0 MVP) takes one card each
    time; not offered off the marker or once it is empty."""
    state = load(marker_position((3, 3), 2))
    play(state, "ACTIVATE(vasquez)", "ASSIGN(T05)", "MOVE_CP(0)")
    assert "PICKUP_CARD" not in legal(state)
    play(state, "STEP(E)")
    assert xy(state, "vasquez") == (4, 3) and state.mvp == 4
    assert "PICKUP_CARD" in legal(state)
    play(state, "PICKUP_CARD")
    assert (char(state, "vasquez").cards, char(state, "zombie").cards) == (1, 1)
    assert state.mvp == 4
    assert "PICKUP_CARD" in legal(state)
    play(state, "PICKUP_CARD")
    assert (char(state, "vasquez").cards, char(state, "zombie").cards) == (2, 0)
    assert "PICKUP_CARD" not in legal(state)
    play(state, "STEP(E)")
    assert "PICKUP_CARD" not in legal(state)
    play(state, "END_MOVE(E)")
    assert char(state, "vasquez").cards == 2


def test_pickup_card_on_the_square_where_the_move_order_began():
    """ER-DOOR-11: vasquez already stands on the marker: PICKUP_CARD is legal as soon as a Move
    order starts there (not before: no Move order in progress)."""
    state = load(marker_position((4, 3), 1))
    play(state, "ACTIVATE(vasquez)")
    assert "PICKUP_CARD" not in legal(state)
    play(state, "ASSIGN(T05)")
    assert "PICKUP_CARD" not in legal(state)
    play(state, "MOVE_CP(0)")
    assert "PICKUP_CARD" in legal(state)
    play(state, "PICKUP_CARD")
    assert (char(state, "vasquez").cards, char(state, "zombie").cards) == (1, 0)
    assert state.mvp == 5
    assert "PICKUP_CARD" not in legal(state)


def test_pickup_card_at_zero_mvp_by_the_other_faction():
    """ER-DOOR-11 (ER-DOOR-13): the Wounded zombie (MOV 2) ends its last MVP on bolter's dead
    marker: PICKUP_CARD is still legal at 0 MVP, and a Salemite takes NORAD's card."""
    pos = position(active="salemite")
    place(pos, "bolter", (4, 3), dead=True)
    place(pos, "zombie", (2, 3), "E", side="wounded")
    move_tiles(pos, ["T03"], "hand:salemite")  # M1r
    pos["players"]["salemite"]["cp"] = 4
    state = load(pos)
    play(state, "ACTIVATE(zombie)", "ASSIGN(T03)", "MOVE_CP(0)")
    assert state.mvp == 2
    play(state, "STEP(E)", "STEP(E)")
    assert state.mvp == 0 and xy(state, "zombie") == (4, 3)
    assert legal(state) == {"PICKUP_CARD"} | END_MOVES
    play(state, "PICKUP_CARD")
    assert (char(state, "zombie").cards, char(state, "bolter").cards) == (1, 0)
    assert legal(state) == END_MOVES


@pytest.mark.parametrize("cards", [0, 1, 2])
def test_a_salemite_carries_and_uses_a_magnetic_card(cards):
    """ER-DOOR-13: any faction may carry cards (several, weightless): the zombie with a card opens
    the vault's magnetic sliding door; without one it cannot."""
    pos = position(active="salemite")
    place(pos, "zombie", (4, 2), "S")
    place(pos, "bolter", cards=max(0, 1 - cards))
    place(pos, "zombie", cards=cards)
    pos["caches"][0]["full"] = cards < 2
    move_tiles(pos, ["T09"], "hand:salemite")
    pos["players"]["salemite"]["cp"] = 4
    state = load(pos)
    play(state, "ACTIVATE(zombie)", "ASSIGN(T09)", "MOVE_CP(0)")
    assert state.mvp == 3  # MOV 3 whatever it carries
    assert ("OPEN(N)" in legal(state)) is (cards > 0)
    if cards:
        play(state, "OPEN(N)", "STEP(N)", "END_MOVE(N)", "END_ROUND")
        assert xy(state, "zombie") == (4, 1)
        assert door_state(state, VAULT) == "closed"  # sliding: closed at the round's end
        assert char(state, "zombie").cards == cards


def test_no_shooting_at_doors_shoot_targets_are_characters_only():
    """ER-DOOR-14: a closed door is a Close Combat target, never a Shoot target; walls are no
    target at all."""
    # bolter faces the closed wooden door, no enemy in sight: Close Combat yes, Shoot no.
    pos = position(active="norad")
    place(pos, "bolter", (1, 2), "E")
    move_tiles(pos, ["T01"], "hand:norad")
    pos["players"]["norad"]["cp"] = 5
    state = load(pos)
    play(state, "ACTIVATE(bolter)", "ASSIGN(T01)")
    assert legal(state) == {"MOVE_CP(0)", "SELECT_ORDER(1)", "END_ROUND"}
    play(state, "SELECT_ORDER(1)")
    assert legal(state) == {"CHOOSE_TARGET(E)"}

    # Under the vault door with the zombie in sight: the Shoot order offers only the zombie.
    pos = position(active="norad")
    place(pos, "bolter", (4, 2), "N")
    place(pos, "zombie", (6, 2), "W")
    move_tiles(pos, ["T01"], "hand:norad")
    pos["players"]["norad"]["cp"] = 5
    state = load(pos)
    play(state, "ACTIVATE(bolter)", "ASSIGN(T01)")
    assert {"SELECT_ORDER(1)", "SELECT_ORDER(2)"} <= legal(state)
    cc = state.clone()
    play(cc, "SELECT_ORDER(1)")
    assert legal(cc) == {"CHOOSE_TARGET(N)"}
    play(state, "SELECT_ORDER(2)")
    assert legal(state) == {"CHOOSE_TARGET(zombie)"}

    # Facing a wall with no enemy adjacent: no Close Combat order at all.
    pos = position(active="norad")
    place(pos, "bolter", (1, 4), "E")
    place(pos, "vasquez", (0, 6), "E")
    move_tiles(pos, ["T01"], "hand:norad")
    pos["players"]["norad"]["cp"] = 5
    state = load(pos)
    play(state, "ACTIVATE(bolter)", "ASSIGN(T01)")
    assert legal(state) == {"MOVE_CP(0)", "END_ROUND"}


# --- Decision protocol (ER-ENV-2, -3, -4, -6, -7) ------------------------------------------------


def test_round_level_decisions_and_which_end_the_round():
    """ER-ENV-2: ACTIVATE, DRAW_BAG, PICK_DISCARD then CHOOSE_DISCARD, PASS (REACTIVATE once all
    are engaged); DRAW_BAG, CHOOSE_DISCARD and PASS end the round at once, ACTIVATE does not."""
    pos = position(active="norad")
    move_tiles(pos, ["T13", "T14"], "bag")
    move_tiles(pos, ["T12"], "discard")
    pos["players"]["norad"]["cp"] = 3
    state = load(pos)
    assert legal(state) == {
        "ACTIVATE(bolter)",
        "ACTIVATE(vasquez)",
        "DRAW_BAG",
        "PICK_DISCARD",
        "PASS",
    }
    for action in ("DRAW_BAG", "PASS"):
        s = state.clone()
        play(s, action)
        assert s.decision == "round" and decider(s) == "salemite"
    s = state.clone()
    play(s, "PICK_DISCARD")
    assert s.decision == "choose_discard" and decider(s) == "norad"
    assert legal(s) == {"CHOOSE_DISCARD(T12)"}
    play(s, "CHOOSE_DISCARD(T12)")
    assert s.decision == "round" and decider(s) == "salemite"
    s = state.clone()
    play(s, "ACTIVATE(bolter)")
    assert s.decision == "activation" and decider(s) == "norad"

    move_tiles(pos, ["T01"], "char:bolter")
    place(pos, "bolter", engaged=True)
    place(pos, "vasquez", engaged=True)
    assert legal(load(pos)) == {"REACTIVATE(bolter)", "DRAW_BAG", "PICK_DISCARD", "PASS"}


def test_decisions_with_nothing_in_progress():
    """ER-ENV-3: after ACTIVATE: ASSIGN (first decision only), MOVE_CP, SELECT_ORDER, RELOAD,
    SAW_DOOR, END_ROUND, exactly as the position allows."""
    pos = position(active="norad")
    place(pos, "vasquez", (3, 3), "E", weapon_ready=False)
    place(pos, "zombie", (4, 3), "W")
    move_tiles(pos, ["T01", "T02"], "hand:norad")
    pos["players"]["norad"]["cp"] = 6
    state = load(pos)
    play(state, "ACTIVATE(vasquez)")
    assert legal(state) == {"ASSIGN(T01)", "ASSIGN(T02)", "RELOAD", "END_ROUND"}
    play(state, "ASSIGN(T01)")
    assert legal(state) == {"MOVE_CP(0)", "SELECT_ORDER(1)", "RELOAD", "END_ROUND"}
    play(state, "RELOAD")
    assert legal(state) == {"MOVE_CP(0)", "SELECT_ORDER(1)", "SELECT_ORDER(2)", "END_ROUND"}

    pos = position(active="salemite")
    place(pos, "jack_saw", (4, 2), "N")
    move_tiles(pos, ["T03"], "hand:salemite")
    pos["players"]["salemite"]["cp"] = 3
    state = load(pos)
    play(state, "ACTIVATE(jack_saw)")
    assert legal(state) == {"ASSIGN(T03)", "SAW_DOOR(N)", "END_ROUND"}
    play(state, "SAW_DOOR(N)")
    assert legal(state) == {"END_ROUND"}


def test_decisions_during_a_move_order():
    """ER-ENV-4 (ER-MOV-3): STEP, OPEN, CLOSE, MOVE_CP, END_MOVE in a Move order; STEP, OPEN and
    CLOSE need at least 1 MVP."""
    pos = position(active="norad")
    place(pos, "bolter", (1, 2), "E")
    move_tiles(pos, ["T17"], "hand:norad")  # M1k M1k C2r F2g
    pos["players"]["norad"]["cp"] = 5
    state = load(pos)
    play(state, "ACTIVATE(bolter)", "ASSIGN(T17)", "MOVE_CP(0)")
    assert state.mvp == 4
    assert legal(state) == {"STEP(N)", "STEP(S)", "STEP(W)", "OPEN(E)", "MOVE_CP(1)"} | END_MOVES
    play(state, "OPEN(E)")
    assert state.mvp == 3 and door_state(state, WOODEN_WEST) == "open"
    assert (
        legal(state)
        == {
            "STEP(N)",
            "STEP(E)",
            "STEP(S)",
            "STEP(W)",
            "CLOSE(E)",
            "MOVE_CP(1)",
        }
        | END_MOVES
    )
    play(state, "STEP(E)", "STEP(W)", "CLOSE(E)")
    assert state.mvp == 0 and xy(state, "bolter") == (1, 2)
    assert door_state(state, WOODEN_WEST) == "closed"
    assert legal(state) == {"MOVE_CP(1)"} | END_MOVES  # no OPEN(E) without MVP
    play(state, "MOVE_CP(1)")
    assert state.mvp == 4
    assert legal(state) == {"STEP(N)", "STEP(S)", "STEP(W)", "OPEN(E)"} | END_MOVES


def test_section_ids_follow_assignment_order_and_earlier_tiles_stay_usable():
    """ER-ENV-6, ER-ORD-3: a tile assigned in a later round is slot 1 (section ids 4..7); the tile
    of slot 0 stays assigned and its sections take CP in the later round; all leave in the Final
    phase."""
    pos = position(active="norad")
    move_tiles(pos, ["T01", "T05"], "hand:norad")
    pos["players"]["norad"]["cp"] = 6
    state = load(pos)
    play(state, "ACTIVATE(bolter)", "ASSIGN(T01)", "END_ROUND", "PASS")
    play(state, "ACTIVATE(vasquez)", "END_ROUND", "PASS")
    play(state, "REACTIVATE(bolter)", "ASSIGN(T05)")  # M3k M1r C2k F1g
    assert [state.scenario.tiles[a.tile].id for a in char(state, "bolter").tiles] == ["T01", "T05"]
    assert legal(state) == {"MOVE_CP(0)", "MOVE_CP(4)", "MOVE_CP(5)", "END_ROUND"}
    play(state, "MOVE_CP(5)")
    assert section_cp(state, "bolter", 0) == [0, 0, 0, 0]
    assert section_cp(state, "bolter", 1) == [0, 1, 0, 0]
    assert "MOVE_CP(5)" not in legal(state)  # M1r is full
    play(state, "MOVE_CP(0)", "END_MOVE(E)", "MOVE_CP(4)", "END_MOVE(E)", "END_ROUND")
    assert section_cp(state, "bolter", 0) == [1, 0, 0, 0]
    assert section_cp(state, "bolter", 1) == [1, 1, 0, 0]
    play(state, "PASS", "PASS")
    assert state.phase == "final" and char(state, "bolter").tiles == []
    assert pile(state, "discard") == ["T01", "T05"]


def test_final_phase_initiative_and_duel_decisions(tmp_path):
    """ER-ENV-7: MULLIGAN_KEEP / MULLIGAN_REDRAW in turn 1; DISCARD_TILE then KEEP_HAND (only at 5
    or fewer); DUEL_BID(b) for b in 0..CP."""
    state = new_game(seed=1)
    assert state.decision == "mulligan" and decider(state) == "norad"
    assert legal(state) == {"MULLIGAN_KEEP", "MULLIGAN_REDRAW"}

    for held, keep in ((tiles(1, 3), True), (tiles(1, 6), False), ([], True)):
        pos = final_position()
        move_tiles(pos, held, "hand:norad")
        expected = {f"DISCARD_TILE({t})" for t in held} | ({"KEEP_HAND"} if keep else set())
        assert legal(load(pos)) == expected

    state = new_game(duel_scenario(tmp_path), seed=1)
    play(state, "MULLIGAN_KEEP", "MULLIGAN_KEEP")
    assert state.decision == "duel_ask" and decider(state) == "salemite"
    assert legal(state) == {f"DUEL_BID({b})" for b in range(0, 9)}


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


# --- Hidden information (ER-HID-4, -5, -8, -9, -10, ER-TILE-4, -5, -8, -9) -----------------------


def test_both_cp_pools_are_in_the_observation():
    """ER-HID-4: each player sees his own pool and the opponent's."""
    pos = position(active="norad")
    move_tiles(pos, ["T01"], "bag")
    pos["players"]["norad"]["cp"] = 7
    pos["players"]["salemite"]["cp"] = 3
    state = load(pos)
    assert scaled(blocks(state, "norad")["cp: mine, opponent's"], MAX_CP) == [7, 3]
    assert scaled(blocks(state, "salemite")["cp: mine, opponent's"], MAX_CP) == [3, 7]
    play(state, "DRAW_BAG")
    assert scaled(blocks(state, "salemite")["cp: mine, opponent's"], MAX_CP) == [3, 6]


def character_block(state: GameState, agent: str, cid: str) -> np.ndarray:
    return blocks(state, agent)[f"character {cid}"]


def test_assigned_tiles_and_their_cp_are_public():
    """ER-HID-5, ER-TILE-5: bolter's assigned T01 with 2 CP on M3k and 1 on C1k and his 3 CP
    spent: Salemite sees exactly what NORAD sees (only the "mine" flag differs)."""
    pos = position(active="norad")
    move_tiles(pos, ["T01"], "char:bolter")
    pos["characters"]["bolter"]["tiles"][0]["cp"] = [2, 1, 0, 0]
    place(pos, "bolter", engaged=True, cp_spent=3)
    state = load(pos)
    mine = character_block(state, "norad", "bolter")
    theirs = character_block(state, "salemite", "bolter")
    assert mine[0] == 1.0 and theirs[0] == 0.0
    assert mine[1:].tobytes() == theirs[1:].tobytes()
    scn = state.scenario
    start = 11 + scn.board.width + scn.board.height + 4 + len(scn.terminals)
    per_section = len(ORDER_TYPES) + 3
    slot0 = theirs[start : start + 4 * per_section].reshape(4, per_section)
    printed = [("M", 3), ("C", 1), ("F", 2), ("I", 1)]
    for k, (kind, maximum) in enumerate(printed):
        assert slot0[k, ORDER_TYPES.index(kind)] == 1.0 and slot0[k, :5].sum() == 1.0
        assert slot0[k, 5] == maximum / 4 and slot0[k, 7] == 1.0
    assert [float(v) for v in slot0[:, 6]] == [0.5, 0.25, 0.0, 0.0]
    assert theirs[5] == 3 / 6  # cp spent this turn
    assert not theirs[start + 4 * per_section :].any()  # no second tile
    pos["characters"]["bolter"]["tiles"][0]["cp"] = [3, 1, 0, 0]
    place(pos, "bolter", cp_spent=4)
    assert character_block(load(pos), "salemite", "bolter").tobytes() != theirs.tobytes()


def test_own_tiles_are_seen_only_by_their_holder():
    """ER-TILE-4: NORAD sees its own tiles; holding T01, T02 or T03, T04 looks the same to
    Salemite."""
    pos = position(active="norad")
    move_tiles(pos, ["T01", "T02"], "hand:norad")
    alt = copy.deepcopy(pos)
    move_tiles(alt, ["T01", "T02"], "box")
    move_tiles(alt, ["T03", "T04"], "hand:norad")
    a, b = load(pos), load(alt)
    held = blocks(a, "norad")["my hand (tile multi-hot)"]
    assert {a.scenario.tiles[t].id for t in np.flatnonzero(held)} == {"T01", "T02"}
    assert view_bytes(a, "salemite") == view_bytes(b, "salemite")
    assert view_bytes(a, "norad") != view_bytes(b, "norad")


def test_discards_go_face_down():
    """ER-TILE-8: in the Final phase assigned tiles and thrown tiles go to the discard pile, face
    down: the count shows, the identities do not (to either player)."""
    pos = position(active="norad")
    pos["passes"] = 1
    move_tiles(pos, ["T01"], "char:bolter")
    place(pos, "bolter", engaged=True)
    move_tiles(pos, tiles(2, 7), "hand:norad")
    state = load(pos)
    play(state, "PASS")
    assert pile(state, "discard") == ["T01"]
    play(state, "DISCARD_TILE(T02)")
    assert pile(state, "discard") == ["T01", "T02"]
    for agent in ("norad", "salemite"):
        b = blocks(state, agent)
        assert not b["discard, only at my CHOOSE_DISCARD"].any()
        counts = b["tile counts: my hand, opponent's hand, bag, discard"]
        assert scaled(counts, 24)[3] == 2


def test_the_discard_is_seen_only_by_the_player_taking_a_tile():
    """ER-TILE-9 (ER-HID-7): both see the discard count; only NORAD, at its own CHOOSE_DISCARD,
    sees which tiles lie there."""
    pos = position(active="norad")
    move_tiles(pos, ["T12", "T21"], "discard")
    pos["players"]["norad"]["cp"] = 2
    state = load(pos)
    for agent in ("norad", "salemite"):
        b = blocks(state, agent)
        assert scaled(b["tile counts: my hand, opponent's hand, bag, discard"], 24)[3] == 2
        assert not b["discard, only at my CHOOSE_DISCARD"].any()
    play(state, "PICK_DISCARD")
    seen = blocks(state, "norad")["discard, only at my CHOOSE_DISCARD"]
    assert {state.scenario.tiles[t].id for t in np.flatnonzero(seen)} == {"T12", "T21"}
    assert not blocks(state, "salemite")["discard, only at my CHOOSE_DISCARD"].any()
    play(state, "CHOOSE_DISCARD(T21)")
    assert not blocks(state, "norad")["discard, only at my CHOOSE_DISCARD"].any()


def test_no_memory_aid_in_the_v0_observation():
    """ER-HID-8: the optional memory aid is not in our observation: right after NORAD discarded
    T01 and T02 in the Final phase its discard block is all zeros, and a discard of other tiles
    (same count) gives NORAD a byte-identical view."""
    names = [name for name, _ in observation_layout(load_scenario())]
    assert not [n for n in names if "memory" in n]
    assert "discard, only at my CHOOSE_DISCARD" in names

    pos = final_position()
    move_tiles(pos, ["T07"], "discard")
    move_tiles(pos, tiles(1, 6), "hand:norad")
    state = load(pos)
    play(state, "DISCARD_TILE(T01)", "DISCARD_TILE(T02)")
    assert pile(state, "discard") == ["T01", "T02", "T07"]
    assert not blocks(state, "norad")["discard, only at my CHOOSE_DISCARD"].any()

    alt = final_position()
    move_tiles(alt, ["T07", "T10", "T11"], "discard")  # T01 and T02 stay in the bag
    move_tiles(alt, tiles(3, 6), "hand:norad")
    other = load(alt)
    assert len(pile(other, "bag")) == len(pile(state, "bag"))
    assert view_bytes(state, "norad") == view_bytes(other, "norad")
    play(state, "KEEP_HAND")
    assert not blocks(state, "norad")["discard, only at my CHOOSE_DISCARD"].any()


def mulligan_position(norad_hand: list[str], rng: int) -> dict[str, Any]:
    """Turn 1 Initiative, NORAD's redraw decision; Salemite draws after it (ER-INI-1)."""
    pos = position()
    move_tiles(pos, tiles(1, 24), "bag")
    move_tiles(pos, norad_hand, "hand:norad")
    pos.update(phase="initiative", decision={"kind": "mulligan", "player": "norad"})
    pos["rng"] = f"{rng:016x}"
    return pos


def test_a_redraw_is_public_but_not_which_tiles_went_back():
    """ER-HID-9: after NORAD's redraw Salemite sees that it redrew; two redraws with different
    outcomes (new tiles drawn, first tiles returned) give Salemite byte-identical views, but for
    the tiles Salemite itself then drew (seeded, ER-INI-1)."""
    views = []
    hands = []
    for first, rng in ((tiles(1, 5), 1), (tiles(1, 5), 0xABCDEF12345), (tiles(6, 10), 7)):
        state = load(mulligan_position(first, rng))
        play(state, "MULLIGAN_REDRAW")
        assert state.decision == "mulligan" and decider(state) == "salemite"
        assert len(hand(state, "norad")) == 5 and not set(first) & set(hand(state, "norad"))
        hands.append(tuple(hand(state, "norad")))
        b = blocks(state, "salemite")
        assert list(b["redrew: mine, opponent's"]) == [0.0, 1.0]
        views.append(view_but_own_hand(state, "salemite"))
    assert len(set(hands)) == 3  # three different outcomes ...
    assert len(set(views)) == 1  # ... that Salemite cannot tell apart
    kept = load(mulligan_position(tiles(1, 5), 1))
    play(kept, "MULLIGAN_KEEP")
    assert list(blocks(kept, "salemite")["redrew: mine, opponent's"]) == [0.0, 0.0]
    assert view_but_own_hand(kept, "salemite") != views[0]


# --- Initiative duel (ER-INI-8, ER-HID-10) -------------------------------------------------------


def duel_game(tmp_path: Path) -> GameState:
    """Turn 1 of the duel scenario at Salemite's DUEL_ASK (NORAD 9 CP holds the marker, Salemite
    8 CP)."""
    state = new_game(duel_scenario(tmp_path), seed=11)
    play(state, "MULLIGAN_KEEP", "MULLIGAN_KEEP")
    assert state.phase == "initiative" and state.decision == "duel_ask"
    assert decider(state) == "salemite"
    assert state.scenario.factions[state.initiative] == "norad"
    assert (cp(state, "norad"), cp(state, "salemite")) == (9, 8)
    return state


def test_duel_asker_bidding_zero_means_no_duel(tmp_path):
    """ER-INI-8: DUEL_BID(0) from the asker is no duel: NORAD keeps the marker, nobody pays, the
    holder is never asked."""
    state = duel_game(tmp_path)
    play(state, "DUEL_BID(0)")
    assert state.phase == "activity" and state.decision == "round"
    assert decider(state) == "norad" and state.scenario.factions[state.initiative] == "norad"
    assert (cp(state, "norad"), cp(state, "salemite")) == (9, 8)


@pytest.mark.parametrize(
    ("ask", "answer", "holder", "cps"),
    [
        (3, 2, "salemite", (7, 5)),  # higher bid takes the marker
        (3, 0, "salemite", (9, 5)),
        (3, 3, "norad", (6, 5)),  # equal bids leave it
        (3, 4, "norad", (5, 5)),
        (8, 9, "norad", (0, 0)),  # whole pools
    ],
)
def test_duel_bids_decide_the_marker_and_are_all_paid(tmp_path, ask, answer, holder, cps):
    """ER-INI-8, ER-HID-10: the asker bids 1..CP, the holder answers 0..CP without seeing it; the
    higher bid takes the marker and plays first, equal leaves it; both bids are paid; once both
    are chosen both bids are public."""
    state = duel_game(tmp_path)
    play(state, f"DUEL_BID({ask})")
    assert state.decision == "duel_answer" and decider(state) == "norad"
    assert legal(state) == {f"DUEL_BID({b})" for b in range(0, 10)}
    assert (cp(state, "norad"), cp(state, "salemite")) == (9, 8)  # nothing paid yet
    assert scaled(blocks(state, "norad")["duel bids: mine, opponent's once revealed"], 40) == [0, 0]
    assert scaled(blocks(state, "salemite")["duel bids: mine, opponent's once revealed"], 40) == [
        ask,
        0,
    ]
    play(state, f"DUEL_BID({answer})")
    assert state.phase == "activity" and state.decision == "round"
    assert state.scenario.factions[state.initiative] == holder
    assert decider(state) == holder
    assert (cp(state, "norad"), cp(state, "salemite")) == cps
    assert scaled(blocks(state, "norad")["duel bids: mine, opponent's once revealed"], 40) == [
        answer,
        ask,
    ]
    assert scaled(blocks(state, "salemite")["duel bids: mine, opponent's once revealed"], 40) == [
        ask,
        answer,
    ]


def test_duel_bids_are_secret_until_both_are_chosen(tmp_path):
    """ER-HID-10: at the holder's answer, asker bids of 1 and 5 give NORAD byte-identical views."""
    first, second = duel_game(tmp_path), duel_game(tmp_path)
    play(first, "DUEL_BID(1)")
    play(second, "DUEL_BID(5)")
    assert view_bytes(first, "norad") == view_bytes(second, "norad")
    assert view_bytes(first, "salemite") != view_bytes(second, "salemite")  # its own bid shows


def test_the_duel_marker_is_for_this_turn_only(tmp_path):
    """ER-INI-8: after Salemite won turn 1's duel, turn 3's Initiative again gives the marker to
    the scenario's holder (NORAD) and Salemite is the asker."""
    state = duel_game(tmp_path)
    play(state, "DUEL_BID(1)", "DUEL_BID(0)")
    assert decider(state) == "salemite"
    play(state, "PASS", "PASS")
    keep_both(state)
    assert state.turn == 2 and state.decision == "duel_ask" and decider(state) == "norad"
    play(state, "DUEL_BID(0)", "PASS", "PASS")
    keep_both(state)
    assert state.turn == 3 and state.decision == "duel_ask" and decider(state) == "salemite"
    assert state.scenario.factions[state.initiative] == "norad"


# --- Initiative draws (ER-INI-2) -----------------------------------------------------------------


def test_a_bag_running_empty_while_drawing_takes_the_discard_back():
    """ER-INI-2 (ER-TILE-6, -7): NORAD needs 3 tiles, the bag holds 1 and the discard 4: it draws
    the bag's tile, the discard goes into the bag, it draws 2 more."""
    pos = position()
    pos.update(phase="final", decision={"kind": "discard", "player": "norad"})
    move_tiles(pos, ["T01", "T02"], "hand:norad")
    move_tiles(pos, tiles(3, 7), "hand:salemite")
    move_tiles(pos, ["T08"], "bag")
    move_tiles(pos, tiles(9, 12), "discard")
    state = load(pos)
    keep_both(state)
    assert state.turn == 2
    drawn = set(hand(state, "norad")) - {"T01", "T02"}
    assert len(drawn) == 3 and "T08" in drawn and drawn - {"T08"} <= set(tiles(9, 12))
    assert len(pile(state, "bag")) == 2 and set(pile(state, "bag")) <= set(tiles(9, 12))
    assert pile(state, "discard") == []
    assert hand(state, "salemite") == tiles(3, 7)


# --- Interact, Search (ER-INT-1, ER-SRCH-1) ------------------------------------------------------


def step_onto_then_select_order_3(
    state: GameState, cid: str, tile: str, way: str, square: tuple[int, int]
) -> None:
    """``cid`` activates with ``tile``, whose section 3 is not usable yet; one Move step ``way``
    onto ``square`` makes it usable; selected, it offers 1 or 2 CP."""
    play(state, f"ACTIVATE({cid})", f"ASSIGN({tile})")
    assert "SELECT_ORDER(3)" not in legal(state)
    play(state, "MOVE_CP(0)", f"STEP({way})", f"END_MOVE({way})")
    assert xy(state, cid) == square
    assert "SELECT_ORDER(3)" in legal(state)
    play(state, "SELECT_ORDER(3)")
    assert legal(state) == {"CHOOSE_CP(1)", "CHOOSE_CP(2)"}


def test_interact_only_on_a_terminal_extra_cp_add_dice():
    """ER-INT-1 (v1 form ER-INT-3): vasquez's Interact section is usable only on O1; 2 CP on it
    roll TEC 3 + 1 = 4 dice."""
    pos = position(active="norad")
    place(pos, "vasquez", (4, 1), "N")
    move_tiles(pos, ["T07"], "hand:norad")  # M1k C2g F2k I2r
    pos["players"]["norad"]["cp"] = 5
    state = load(pos)
    step_onto_then_select_order_3(state, "vasquez", "T07", "N", (4, 0))
    inject(state, "Y4 Y5 Y6 Y5")
    play(state, "CHOOSE_CP(2)")
    assert state.last_roll == ["Y4", "Y5", "Y6", "Y5"]
    assert state_to_dict(state)["terminals"]["O1"] is False  # 1 < 3
    assert cp(state, "norad") == 2 and section_cp(state, "vasquez", 0) == [1, 0, 0, 2]


@pytest.mark.parametrize(("faces", "found"), [("B1 B1 B3", False), ("B1 B3 B3", True)])
def test_search_only_on_the_cache_extra_cp_add_dice(faces, found):
    """ER-SRCH-1 (v1 form ER-SRCH-2): deeler's Search section is usable only on the cache; 2 CP
    roll SRCH 2 + 1 = 3 black dice; 3 search points take the card."""
    pos = position(active="salemite")
    place(pos, "deeler", (7, 5), "S")
    move_tiles(pos, ["T04"], "hand:salemite")  # M2g C1r F3k S2k
    pos["players"]["salemite"]["cp"] = 6
    state = load(pos)
    step_onto_then_select_order_3(state, "deeler", "T04", "S", (7, 6))
    inject(state, faces)
    play(state, "CHOOSE_CP(2)")
    assert state.last_roll == faces.split()
    assert char(state, "deeler").cards == int(found)
    assert state.cache_full == [not found]


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


# --- Movement (ER-MOV-2, -3, -4, -7, -8, -9, -10) ------------------------------------------------


def test_move_cp_of_two_tiles_merge_into_one_move_order():
    """ER-MOV-2 (ER-ORD-10): MOVE_CP on T01's M3k, three steps, then MOVE_CP on T03's M1r in the
    same order: 1 + 4 = 5 MVP; END_MOVE loses the rest; the next MOVE_CP starts afresh."""
    pos = position(active="norad")
    place(pos, "bolter", (2, 3), "E", engaged=True)
    place(pos, "vasquez", engaged=True)
    move_tiles(pos, ["T01", "T03"], "char:bolter")
    pos["players"]["norad"]["cp"] = 6
    state = load(pos)
    play(state, "REACTIVATE(bolter)", "MOVE_CP(0)", "STEP(E)", "STEP(E)", "STEP(E)")
    assert state.mvp == 1 and xy(state, "bolter") == (5, 3)
    play(state, "MOVE_CP(4)")
    assert state.decision == "move" and state.mvp == 5
    play(state, "STEP(N)", "STEP(W)", "STEP(W)", "STEP(S)")
    assert state.mvp == 1 and xy(state, "bolter") == (3, 3)
    assert section_cp(state, "bolter", 0) == [1, 0, 0, 0]
    assert section_cp(state, "bolter", 1) == [1, 0, 0, 0]
    play(state, "END_MOVE(E)")
    assert state.mvp == 0 and state.decision == "activation"
    play(state, "MOVE_CP(0)")
    assert state.mvp == 4
    assert char(state, "bolter").cp_spent == 3 and cp(state, "norad") == 3


def moving(where: tuple[int, int], face: str = "N", **edits: Any) -> GameState:
    """NORAD active, bolter on ``where`` in a Move order of 4 MVP (T01's M3k)."""
    pos = position(active="norad")
    place(pos, "bolter", where, face)
    for cid, fields in edits.items():
        place(pos, cid, **fields)
    move_tiles(pos, ["T01"], "hand:norad")
    pos["players"]["norad"]["cp"] = 5
    state = load(pos)
    play(state, "ACTIVATE(bolter)", "ASSIGN(T01)", "MOVE_CP(0)")
    assert state.mvp == 4
    return state


def test_steps_are_orthogonal_and_blocked_by_walls_and_closed_doors():
    """ER-MOV-3: a step goes to the square across one side for 1 MVP, never diagonally (only
    N, E, S, W exist); a wall or closed door on that side blocks it."""
    assert DIRECTION_NAMES == ("N", "E", "S", "W")
    state = moving((1, 3))
    assert starting(legal(state), "STEP") == {"STEP(N)", "STEP(E)", "STEP(S)", "STEP(W)"}
    for d, square in (("N", (1, 2)), ("E", (2, 3)), ("S", (1, 4)), ("W", (0, 3))):
        s = state.clone()
        play(s, f"STEP({d})")
        assert xy(s, "bolter") == square and s.mvp == 3
    s = state.clone()
    play(s, "STEP(N)")
    assert "STEP(E)" not in legal(s)  # the closed wooden door (1,2)|(2,2)
    play(s, "OPEN(E)")
    assert "STEP(E)" in legal(s)
    s = state.clone()
    play(s, "STEP(S)")
    assert "STEP(E)" not in legal(s)  # the wall (1,4)|(2,4)


def test_through_friends_never_into_enemies_or_void():
    """ER-MOV-4: bolter may step into vasquez's square, never into the zombie's, never into a void
    square; a dead enemy does not stop him (ER-MOV-9)."""
    state = moving((1, 2), "S", vasquez={"square": [1, 3]}, zombie={"square": [1, 1]})
    assert starting(legal(state), "STEP") == {"STEP(S)", "STEP(W)"}
    state = moving((1, 2), "S", zombie={"square": [1, 1], "dead": True})
    assert "STEP(N)" in legal(state)
    state = moving((3, 0), "W")
    board = state.scenario.board
    assert board.void[board.square(2, 0)]
    assert starting(legal(state), "STEP") == {"STEP(E)", "STEP(S)"}


def test_facing_changes_freely_step_and_end_move_set_it():
    """ER-MOV-7, ER-MOV-8: a Move order with CP and no step turns the figure; STEP(d) faces d;
    END_MOVE(f) sets the final facing; turning costs no MVP; the facing is kept after the
    round."""
    state = moving((0, 2), "E")
    play(state, "END_MOVE(W)")
    assert facing(state, "bolter") == "W" and xy(state, "bolter") == (0, 2)
    assert char(state, "bolter").cp_spent == 1 and cp(state, "norad") == 4
    play(state, "MOVE_CP(0)", "STEP(S)")
    assert facing(state, "bolter") == "S" and state.mvp == 3
    play(state, "STEP(E)")
    assert facing(state, "bolter") == "E" and state.mvp == 2 and xy(state, "bolter") == (1, 3)
    play(state, "END_MOVE(N)")
    assert facing(state, "bolter") == "N" and state.mvp == 0
    play(state, "END_ROUND", "PASS")
    assert facing(state, "bolter") == "N"


def test_dead_markers_never_block_and_may_be_ended_on():
    """ER-MOV-9: bolter steps onto the zombie's dead marker and ends his move there."""
    state = moving((0, 2), "E", zombie={"square": [1, 2], "dead": True})
    assert "STEP(E)" in legal(state)
    play(state, "STEP(E)")
    assert xy(state, "bolter") == (1, 2) == xy(state, "zombie")
    assert legal(state) >= END_MOVES
    play(state, "END_MOVE(S)", "END_ROUND")
    assert xy(state, "bolter") == (1, 2) and decider(state) == "salemite"


def test_no_exit_off_the_map():
    """ER-MOV-10: every edge of the map's border is a wall; from the corner (0,0) only E and S."""
    board = load_scenario().board
    for x in range(board.width):
        for y in range(board.height):
            sq = board.square(x, y)
            if board.void[sq]:
                continue
            for d, (dx, dy) in enumerate(((0, -1), (1, 0), (0, 1), (-1, 0))):
                if not board.on_map(x + dx, y + dy):
                    assert board.edge[sq][d] == WALL
    state = moving((0, 0), "N")
    assert starting(legal(state), "STEP") == {"STEP(E)", "STEP(S)"}
    state = moving((8, 6), "S", zombie={"square": [8, 4]})
    assert starting(legal(state), "STEP") == {"STEP(N)", "STEP(W)"}


# --- Orders (ER-ORD-2, -4, -5, -6, -9, -11, -12) -------------------------------------------------


def reactivation_position(assigned: list[str], held: list[str]) -> dict[str, Any]:
    """NORAD active; bolter (0,2) and vasquez engaged; ``assigned`` tiles on bolter."""
    pos = position(active="norad")
    place(pos, "bolter", engaged=True)
    place(pos, "vasquez", engaged=True)
    move_tiles(pos, assigned, "char:bolter")
    move_tiles(pos, held, "hand:norad")
    pos["players"]["norad"]["cp"] = 5
    return pos


def test_assign_only_as_the_first_decision():
    """ER-ORD-2: ASSIGN is offered right after REACTIVATE, not after a Move order."""
    state = load(reactivation_position(["T01"], ["T02"]))
    play(state, "REACTIVATE(bolter)")
    assert legal(state) == {"ASSIGN(T02)", "MOVE_CP(0)"}
    play(state, "MOVE_CP(0)", "END_MOVE(E)")
    assert legal(state) == {"MOVE_CP(0)", "END_ROUND"}


def test_at_most_four_tiles_per_character():
    """ER-ORD-4: with 3 tiles bolter may take a 4th; with 4 no ASSIGN is offered."""
    state = load(reactivation_position(tiles(1, 3), ["T05"]))
    play(state, "REACTIVATE(bolter)")
    assert legal(state) == {"ASSIGN(T05)", "MOVE_CP(0)", "MOVE_CP(4)", "MOVE_CP(8)"}
    play(state, "ASSIGN(T05)")
    assert len(char(state, "bolter").tiles) == 4
    state = load(reactivation_position(tiles(1, 4), ["T05"]))
    play(state, "REACTIVATE(bolter)")
    assert legal(state) == {"MOVE_CP(0)", "MOVE_CP(4)", "MOVE_CP(8)", "MOVE_CP(12)"}


def test_a_tile_may_be_assigned_without_cp():
    """ER-ORD-5: T01 assigned with no CP; its sections take CP in a later round."""
    pos = position(active="norad")
    move_tiles(pos, ["T01"], "hand:norad")
    pos["players"]["norad"]["cp"] = 5
    state = load(pos)
    play(state, "ACTIVATE(bolter)", "ASSIGN(T01)", "END_ROUND")
    assert section_cp(state, "bolter", 0) == [0, 0, 0, 0]
    assert cp(state, "norad") == 5 and char(state, "bolter").cp_spent == 0
    play(state, "PASS", "ACTIVATE(vasquez)", "END_ROUND", "PASS", "REACTIVATE(bolter)")
    play(state, "MOVE_CP(0)")
    assert section_cp(state, "bolter", 0) == [1, 0, 0, 0] and cp(state, "norad") == 4


def adjacent_fight(assigned: list[str] | None = None, held: list[str] | None = None) -> GameState:
    """bolter (3,3) facing E next to the zombie (4,3) facing W; NORAD CP 9."""
    pos = position(active="norad")
    place(pos, "bolter", (3, 3), "E")
    place(pos, "zombie", (4, 3), "W")
    if assigned:
        place(pos, "bolter", engaged=True)
        place(pos, "vasquez", engaged=True)
        move_tiles(pos, assigned, "char:bolter")
    move_tiles(pos, held or [], "hand:norad")
    pos["players"]["norad"]["cp"] = 9
    return load(pos)


def test_an_order_places_cp_on_a_section_of_that_type():
    """ER-ORD-6: SELECT_ORDER on T01's C1k builds a Close Combat (a direction target), on its F2r a
    Shoot (a character target); the CP land on the selected section and it is carried out."""
    state = adjacent_fight(held=["T01"])
    play(state, "ACTIVATE(bolter)", "ASSIGN(T01)")
    shoot = state.clone()
    play(shoot, "SELECT_ORDER(2)")
    assert legal(shoot) == {"CHOOSE_TARGET(zombie)"}
    play(state, "SELECT_ORDER(1)")
    assert legal(state) == {"CHOOSE_TARGET(E)"}
    play(state, "CHOOSE_TARGET(E)")
    assert legal(state) == {"CHOOSE_CP(1)"}
    inject(state, "Y5 Y5 Y5 Y5 Y5 Y5")
    play(state, "CHOOSE_CP(1)")
    assert len(state.last_roll) == 6  # both sides rolled: the combat happened
    assert section_cp(state, "bolter", 0) == [0, 1, 0, 0]
    assert cp(state, "norad") == 8 and char(state, "bolter").cp_spent == 1
    assert "SELECT_ORDER(1)" not in legal(state)


def test_several_cp_on_one_section_are_one_order_two_sections_two_orders():
    """ER-ORD-9: 2 CP on T16's C2k are one combat (4 + 3 dice, one roll); T05's C2k is a second,
    separate order."""
    state = adjacent_fight(assigned=["T16", "T05"])
    play(state, "REACTIVATE(bolter)", "SELECT_ORDER(1)", "CHOOSE_TARGET(E)")
    inject(state, " ".join(["Y5"] * 7))
    play(state, "CHOOSE_CP(2)")
    assert len(state.last_roll) == 7 and state.dice_queue == []
    assert section_cp(state, "bolter", 0) == [0, 2, 0, 0]
    now = legal(state)
    assert "SELECT_ORDER(1)" not in now and "SELECT_ORDER(6)" in now
    play(state, "SELECT_ORDER(6)", "CHOOSE_TARGET(E)")
    inject(state, " ".join(["Y5"] * 6))
    play(state, "CHOOSE_CP(1)")
    assert len(state.last_roll) == 6
    assert section_cp(state, "bolter", 1) == [0, 0, 1, 0]
    assert char(state, "bolter").cp_spent == 3


def test_many_orders_in_one_round():
    """ER-ORD-11: one round of bolter: a move, a close combat, a shot and another move (from the
    same Move section), then END_ROUND."""
    state = adjacent_fight(held=["T01"])
    play(state, "ACTIVATE(bolter)", "ASSIGN(T01)", "MOVE_CP(0)", "STEP(N)", "STEP(S)")
    play(state, "END_MOVE(E)", "SELECT_ORDER(1)", "CHOOSE_TARGET(E)")
    inject(state, " ".join(["Y5"] * 6))
    play(state, "CHOOSE_CP(1)", "SELECT_ORDER(2)", "CHOOSE_TARGET(zombie)")
    inject(state, "Y4 Y4 Y4 Y5 Y5 Y5 Y5")  # distance 9 >= 1; 4 blank damage dice
    play(state, "CHOOSE_CP(1)")
    assert len(state.last_roll) == 7
    play(state, "MOVE_CP(0)", "STEP(W)", "END_MOVE(E)")
    assert "END_ROUND" in legal(state)
    play(state, "END_ROUND")
    assert section_cp(state, "bolter", 0) == [2, 1, 1, 0]
    assert char(state, "bolter").cp_spent == 4 and cp(state, "norad") == 5
    assert xy(state, "bolter") == (2, 3) and decider(state) == "salemite"


def test_a_move_order_must_end_before_anything_else():
    """ER-ORD-12: while vasquez moves, no SELECT_ORDER, RELOAD, ASSIGN or END_ROUND; after
    END_MOVE they are back."""
    pos = position(active="norad")
    place(pos, "vasquez", (3, 3), "E", weapon_ready=False)
    place(pos, "zombie", (4, 3), "W")
    move_tiles(pos, ["T01", "T02"], "hand:norad")
    pos["players"]["norad"]["cp"] = 6
    state = load(pos)
    play(state, "ACTIVATE(vasquez)", "ASSIGN(T01)")
    idle = {"MOVE_CP(0)", "SELECT_ORDER(1)", "RELOAD", "END_ROUND"}
    assert legal(state) == idle
    play(state, "MOVE_CP(0)")
    assert legal(state) == {"STEP(N)", "STEP(S)", "STEP(W)", "MOVE_CP(0)"} | END_MOVES
    play(state, "STEP(N)", "STEP(S)")
    assert legal(state) == {"STEP(N)", "STEP(S)", "STEP(W)", "MOVE_CP(0)"} | END_MOVES
    play(state, "END_MOVE(E)")
    assert legal(state) == idle


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


# --- Tiles (ER-TILE-1, -2, -3) -------------------------------------------------------------------


def test_tiles_have_four_sections_with_type_max_and_colour():
    """ER-TILE-1: every tile has four sections, each an order type, a maximum 1-4 and a colour;
    the maximum is enforced (T03's M1r takes one CP)."""
    scn = load_scenario()
    for tile in scn.tiles:
        assert len(tile.sections) == 4
        for s in tile.sections:
            assert s.type in ORDER_TYPES and 1 <= s.max <= 4
            assert s.colour in ("black", "red", "gold")
    t01 = scn.tiles[scn.tile_index["T01"]]
    assert [(s.type, s.max, s.colour) for s in t01.sections] == [
        ("M", 3, "black"),
        ("C", 1, "black"),
        ("F", 2, "red"),
        ("I", 1, "black"),
    ]
    pos = position(active="norad")
    move_tiles(pos, ["T03"], "hand:norad")
    pos["players"]["norad"]["cp"] = 5
    state = load(pos)
    play(state, "ACTIVATE(bolter)", "ASSIGN(T03)", "MOVE_CP(0)")
    assert not starting(legal(state), "MOVE_CP")


def _recolour(text: str) -> str:
    """Every tile section's colour rotated k -> r -> g -> k in the [tiles] table."""
    rotate = {"k": "r", "r": "g", "g": "k"}

    def line(m: re.Match) -> str:
        return re.sub(r'"([MCFIS][1-4])([krg])"', lambda s: f'"{s[1]}{rotate[s[2]]}"', m[0])

    return re.sub(r"^T\d\d = \[.*\]$", line, text, flags=re.M)


def test_colours_have_no_effect(tmp_path):
    """ER-TILE-2: with every section's colour changed, seeded random games play identically
    (same legal sets, same states, same result)."""
    plain = load_scenario()
    coloured = scenario_copy(tmp_path, _recolour)
    pairs = zip(plain.tiles, coloured.tiles, strict=True)
    assert all([s.colour for s in a.sections] != [s.colour for s in b.sections] for a, b in pairs)
    for seed in range(3):
        a, b = new_game(plain, seed), new_game(coloured, seed)
        rng = random.Random(seed)
        while a.winner is None:
            assert legal_actions(a) == legal_actions(b)
            action = rng.choice(legal_actions(a))
            apply_action(a, action)
            apply_action(b, action)
            assert state_to_dict(a) == state_to_dict(b)
            for agent in plain.factions:
                assert view_bytes(a, agent) == view_bytes(b, agent)
        assert b.winner == a.winner


def test_the_default_tile_set():
    """ER-TILE-3: 24 tiles T01..T24 with the section totals of ER-SCN-12; every tile has a Move
    section; all 24 are in play."""
    scn = load_scenario()
    assert [t.id for t in scn.tiles] == tiles(1, 24)
    totals = Counter((s.type, s.max) for t in scn.tiles for s in t.sections)
    assert totals == Counter(
        {
            ("M", 1): 9,
            ("M", 2): 12,
            ("M", 3): 6,
            ("C", 1): 10,
            ("C", 2): 9,
            ("C", 3): 3,
            ("F", 1): 10,
            ("F", 2): 8,
            ("F", 3): 3,
            ("F", 4): 1,
            ("I", 1): 11,
            ("I", 2): 4,
            ("S", 1): 7,
            ("S", 2): 3,
        }
    )
    assert all(any(s.type == "M" for s in t.sections) for t in scn.tiles)
    state = new_game(seed=0)
    assert sorted(pile(state, "bag") + hand(state, "norad")) == tiles(1, 24)


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


# --- Wounds (ER-WND-4, -5) -----------------------------------------------------------------------


def test_after_a_flip_the_wounded_mov_applies_to_the_next_move_cp():
    """ER-WND-4: bolter (2 wounds) is flipped by the zombie's critical; his next MOVE_CP gives
    Wounded MOV 3, not 4."""
    pos = position(active="norad")
    place(pos, "bolter", (3, 3), "E", wounds=2)
    place(pos, "zombie", (4, 3), "W")
    move_tiles(pos, ["T05"], "hand:norad")  # M3k M1r C2k F1g
    pos["players"]["norad"]["cp"] = 9
    state = load(pos)
    play(state, "ACTIVATE(bolter)", "ASSIGN(T05)", "SELECT_ORDER(2)", "CHOOSE_TARGET(E)")
    inject(state, "Y4 Y4 Y4 Y1 Y4 Y4")  # bolter 3 blank dice; the zombie 1 critical
    play(state, "CHOOSE_CP(1)")
    assert char(state, "bolter").wounded and char(state, "bolter").wounds == 0
    play(state, "MOVE_CP(0)")
    assert state.mvp == 3
    play(state, "MOVE_CP(1)")
    assert state.mvp == 6


def test_mvp_gained_before_a_flip_are_kept():
    """ER-WND-4: a Wounded bolter in a Move order with 4 MVP gained while Healthy keeps them and
    adds Wounded MOV 3 for the next MOVE_CP (7, not 6 or 8)."""
    pos = position(active="norad")
    place(pos, "bolter", side="wounded", engaged=True, cp_spent=1)
    move_tiles(pos, ["T05"], "char:bolter")
    pos["characters"]["bolter"]["tiles"][0]["cp"] = [1, 0, 0, 0]
    pos["players"]["norad"]["cp"] = 5
    pos["decision"] = {"kind": "move", "player": "norad"}
    pos["round"].update(character="bolter", mvp=4, decisions=1, acted=True)
    state = load(pos)
    assert state.mvp == 4
    play(state, "MOVE_CP(1)")
    assert state.mvp == 7


def test_no_healing():
    """ER-WND-5: over seeded random games no character's (dead, side, wounds) ever goes back;
    wounds, flips and deaths did happen."""
    seen = Counter()
    for seed in range(20):
        last: dict[int, tuple[bool, bool, int]] = {}

        def hook(state: GameState, last: dict[int, tuple[bool, bool, int]] = last) -> None:
            for c, ch in enumerate(state.chars):
                now = (ch.dead, ch.wounded, ch.wounds)
                if c in last:
                    assert now >= last[c], f"{state.scenario.characters[c].id} healed"
                    if now[0] > last[c][0]:
                        seen["death"] += 1
                    elif now[1] > last[c][1]:
                        seen["flip"] += 1
                    elif now > last[c]:
                        seen["wound"] += 1
                last[c] = now

        random_game(seed, hook=hook)
    assert seen["wound"] > 0 and seen["flip"] > 0 and seen["death"] > 0


def test_er_cc_9_several_close_combat_sections_fight_several_combats_in_one_round():
    """ER-CC-9: with two Close Combat sections (and CP within MAXCP) a character fights twice in
    one round; each section is one order and is used up after it (ER-ORD-8, ER-ORD-9)."""
    pos = position(active="salemite")
    place(pos, "jack_saw", (4, 3), "N", engaged=True)
    place(pos, "vasquez", (4, 2), "E")
    place(pos, "deeler", engaged=True)
    place(pos, "zombie", engaged=True)
    move_tiles(pos, ["T17"], "char:jack_saw")
    move_tiles(pos, ["T03"], "hand:salemite")
    pos["players"]["salemite"]["cp"] = 6
    state = load(pos)
    play(state, "REACTIVATE(jack_saw)", "ASSIGN(T03)")
    assert {"SELECT_ORDER(2)", "SELECT_ORDER(5)"} <= legal(state)  # T17 C2r, T03 C3k
    inject(state, "Y5 Y5 Y5 Y5 Y5 Y5")  # 4 attacker dice (dark-blue front), 2 defender: blanks
    play(state, "SELECT_ORDER(2)", "CHOOSE_TARGET(N)", "CHOOSE_CP(1)")
    assert "SELECT_ORDER(2)" not in legal(state)
    assert "SELECT_ORDER(5)" in legal(state)
    inject(state, "Y5 Y5 Y5 Y5 Y5 Y5")
    play(state, "SELECT_ORDER(5)", "CHOOSE_TARGET(N)", "CHOOSE_CP(1)")
    assert state.dice_queue == []
    assert char(state, "jack_saw").cp_spent == 2
    assert cp(state, "salemite") == 4
    assert not any(name.startswith("SELECT_ORDER") for name in legal(state))
