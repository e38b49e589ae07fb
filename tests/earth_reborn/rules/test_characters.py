"""Per-rule tests of the characters: their records (ER-CHAR-1..3) and wounds (ER-WND-4, -5)."""

from __future__ import annotations

from collections import Counter

from reborn_env.games.earth_reborn.rules.engine import new_game
from reborn_env.games.earth_reborn.rules.orders import SAW_DOOR_ABILITY
from reborn_env.games.earth_reborn.rules.state import GameState
from reborn_env.games.earth_reborn.rules.wounds import wound
from reborn_env.games.earth_reborn.scenario.loader import load_scenario
from reborn_env.games.earth_reborn.scenario.model import (
    ARC_COLOUR_NAMES,
)
from tests.earth_reborn.helpers import (
    char,
    cp,
    legal,
    load,
    move_tiles,
    place,
    play,
    position,
    random_game,
    tiles,
)
from tests.earth_reborn.helpers import inject_next as inject

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
