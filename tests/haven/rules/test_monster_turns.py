"""Per-rule haven tests of monster turns (section 12, HV-MTURN-*, HV-MEND-*) and of their focus
and movement (HV-AI-*).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from reborn_env.games.haven.rules.engine import HavenConfig, HavenGame, new_game
from tests.haven.helpers import (
    BOTTOM,
    BOX,
    DEFAULT,
    HEX,
    LEAD,
    NO,
    OTHER,
    PRINTED,
    TOP,
    cell,
    coins,
    conditions,
    default_text,
    drive,
    events_of,
    expect,
    hp,
    index_of,
    load_text,
    marauder_turn_game,
    mon,
    monster,
    new,
    play,
    pos,
    turn_starts,
    wisp,
    with_map,
)

# =================================================================================================
# 12: monster turns (HV-MTURN-*, HV-MEND-*) and focus / movement (HV-AI-*)


def test_mturn_2_3_elites_first_then_by_standee():
    """HV-MTURN-1/2/3/4/9, HV-INIT-6: in the Marauder slot elites act first, then normals, each in
    ascending standee order: #3, #4 (elite), #1, #2 (normal); all four act on the one card MA4
    (each gains its Shield 1 / Retaliate 1) and none moves (MA4 has no Move)."""
    game = new(
        {
            "sequence": ["marauder", "bulwark"],  # the Bulwark's prompt comes before cleanup
            "characters": {
                "bulwark": {"cell": [0, 0], "played": ["B03", "B01"]},
                "conjurer": {"cell": [0, 6]},
            },
            "monsters": [
                mon("marauder", 1, 8, 6),
                mon("marauder", 4, 8, 5, rank="elite"),
                mon("marauder", 2, 7, 6),
                mon("marauder", 3, 8, 4, rank="elite"),
            ],
            "monster_cards": {"marauder": "MA4"},
        }
    )
    assert turn_starts(game) == ["marauder#3", "marauder#4", "marauder#1", "marauder#2", "bulwark"]
    assert [(m.shield, m.retaliate) for m in game.state.monsters] == [(1, 1)] * 4
    assert events_of(game, "MOVE") == [] and events_of(game, "ATTACK") == []


def test_mturn_5_6_mend_1_cond_11_monster_turn_frame():
    """HV-MTURN-5/6, HV-MEND-1, HV-COND-11: a wounded Marauder suffers 1 at turn start (5 -> 4);
    immobilized and muddled it stays and attacks with disadvantage (+1/-1: 2 - 1 = 1); at its turn
    end immobilize and muddle end, poison and wound stay."""
    game = marauder_turn_game("MA2", ["+1", "-1"], ["immobilize", "muddle", "poison", "wound"])
    play(game, ("DAMAGE_RESPONSE", NO, "bulwark"))
    assert hp(game, "marauder#1") == 4 and hp(game, "bulwark") == 9
    assert conditions(game, "marauder#1") == {"poison", "wound"}
    assert {e.data["condition"] for e in events_of(game, "COND_REMOVE")} == {"immobilize", "muddle"}


def test_mturn_6_wound_kills_at_turn_start():
    """HV-MTURN-6, HV-LOOT-1, HV-MTURN-4: a Marauder at HP 1 with wound dies at its turn start:
    it drops a coin and does nothing; the next Marauder still takes its turn."""
    game = marauder_turn_game("MA2", ["+0"], ["wound"], hp_=1, more=[mon("marauder", 2, 8, 6)])
    drive(game, lambda g: bool(events_of(g, "TURN_END", figure="marauder#2")))
    assert monster(game, "marauder#1") is None and coins(game) == {cell(3, 2): 1}
    assert events_of(game, "ATTACK", attacker="marauder#1") == [] and hp(game, "bulwark") == 10
    assert events_of(game, "TURN_END", figure="marauder#1") == []


@pytest.mark.parametrize(
    ("card", "dest", "damage"),
    [("MA1", (1, 4), 1), ("MA5", (3, 4), 0), ("MA2", (2, 4), 0)],
)
def test_mturn_8_10_card_values(card, dest, damage):
    """HV-MTURN-8/10, HV-AI-5: Move +/-X and Attack +/-X modify the base stats (Move 2, Attack 2):
    MA1 (Move 3) reaches (1,4) next to the Bulwark at (0,4) and attacks for 2 - 1 + 0 = 1 after
    moving; MA5 (Move 1) and MA2 (Move 2) only get closer along row 4 and do not attack."""
    game = new(
        {
            "sequence": ["marauder"],
            "characters": {"bulwark": {"cell": [0, 4]}, "conjurer": {"cell": [0, 0]}},
            "monsters": [mon("marauder", 1, 4, 4)],
            "monster_cards": {"marauder": card},
            "monster_amd": ["+0"],
        }
    )
    if damage:
        play(game, ("DAMAGE_RESPONSE", NO, "bulwark"))
        assert index_of(game, "MOVE") < index_of(game, "ATTACK")
    else:
        assert events_of(game, "ATTACK") == []
    assert pos(game, "marauder#1") == cell(*dest)
    assert hp(game, "bulwark") == 10 - damage


def test_mturn_10_card_shield_from_its_line_to_round_end():
    """HV-MTURN-10: MA4's Shield 1 counts from the Marauder's turn to the end of the round; the
    elite's stat Shield 1 always: the Bulwark (before it) deals 3 - 1 = 2 (8 -> 6), the Conjurer
    (after it) 3 - 2 = 1 (6 -> 5); the round bonuses are gone at cleanup."""
    game = new(
        {
            "sequence": ["bulwark", "marauder", "conjurer"],
            "characters": {
                "bulwark": {"cell": [2, 2], "played": ["B02", "B01"], "amd": ["+0"]},
                "conjurer": {"cell": [3, 4], "played": ["C05", "C01"], "amd": ["+0"]},
            },
            "monsters": [mon("marauder", 3, 3, 2, rank="elite")],
            "monster_cards": {"marauder": "MA4"},
            "monster_amd": ["+0"],
        }
    )
    play(
        game,
        ("WINDOW_0", BOX(OTHER, TOP, PRINTED)),
        ("ATTACK_TARGET", HEX(3, 2)),
        ("WINDOW_1", BOX(LEAD, BOTTOM, DEFAULT)),
        ("MOVE_DEST", NO),
        ("WINDOW_2", NO),
    )
    assert hp(game, "marauder#3") == 6 and hp(game, "bulwark") == 10  # no retaliate yet
    play(game, ("DAMAGE_RESPONSE", NO, "bulwark"))  # MA4: attack 3 + 0
    assert hp(game, "bulwark") == 7
    m = monster(game, "marauder#3")
    assert (m.shield, m.retaliate) == (1, 1)
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED), "conjurer"), ("ATTACK_TARGET", HEX(3, 2)))
    assert hp(game, "marauder#3") == 5 and hp(game, "conjurer") == 7  # range 2: no retaliate
    play(game, ("WINDOW_1", BOX(OTHER, BOTTOM, DEFAULT)), ("MOVE_DEST", NO), ("WINDOW_2", NO))
    expect(game, "SHORT_REST")
    assert (m.shield, m.retaliate) == (0, 0)


def test_mturn_11_ai_8_focus_fixed_before_moving():
    """HV-MTURN-11, HV-AI-4/5: the Marauder at (5,5) picks its focus before moving: the Conjurer
    at (3,5) (cost 2 like the Bulwark at (3,4), but proximity 2 < 3). It moves to (4,4) (attack
    hexes (4,4) and (4,6) both 2 steps, lower id) where both are adjacent and the Bulwark earlier
    in turn order, and still attacks the Conjurer: 2 + 0."""
    game = new(
        {
            "sequence": ["bulwark", "conjurer", "marauder"],
            "next": 2,
            "characters": {
                "bulwark": {"cell": [3, 4], "played": ["B01", "B02"]},
                "conjurer": {"cell": [3, 5], "played": ["C01", "C02"]},
            },
            "monsters": [mon("marauder", 1, 5, 5)],
            "monster_cards": {"marauder": "MA2"},
            "monster_amd": ["+0"],
        }
    )
    play(game, ("DAMAGE_RESPONSE", NO, "conjurer"))
    assert pos(game, "marauder#1") == cell(4, 4)
    assert hp(game, "conjurer") == 5 and hp(game, "bulwark") == 10


@pytest.mark.parametrize("card", ["MA2", "MA4"])
def test_ai_1_7_no_focus(card):
    """HV-AI-1/7: with both characters invisible the Marauder has no focus: it neither moves nor
    attacks (MA2), but still gains MA4's Shield 1 and Retaliate 1."""
    game = new(
        {
            "sequence": [
                "marauder",
                "bulwark",
            ],  # the Bulwark's prompt stops the game before cleanup
            "characters": {
                "bulwark": {"cell": [2, 2], "conditions": ["invisible"], "played": ["B03", "B01"]},
                "conjurer": {"cell": [4, 4], "conditions": ["invisible"]},
            },
            "monsters": [mon("marauder", 1, 3, 2)],
            "monster_cards": {"marauder": card},
        }
    )
    expect(game, "WINDOW_0", "bulwark")
    assert events_of(game, "MOVE") == [] and events_of(game, "ATTACK") == []
    m = monster(game, "marauder#1")
    assert m.cell == cell(3, 2)
    assert (m.shield, m.retaliate) == ((1, 1) if card == "MA4" else (0, 0))


def test_ai_2_8_9_allies_passable_positions_now_no_loot():
    """HV-AI-2/8/9: Marauder #1 passes through Marauder #2 to the attack hex (4,4) (2 steps) and
    does not pick up the coin there; #2, acting after it, sees (4,4) taken and goes through it to
    (4,3); both hit the Bulwark at (5,4) for 2."""
    game = new(
        {
            "sequence": ["marauder"],
            "characters": {"bulwark": {"cell": [5, 4]}, "conjurer": {"cell": [0, 0]}},
            "monsters": [mon("marauder", 1, 2, 4), mon("marauder", 2, 3, 4)],
            "monster_cards": {"marauder": "MA2"},
            "monster_amd": ["+0", "+0"],
            "coins": [[4, 4]],
        }
    )
    play(game, ("DAMAGE_RESPONSE", NO, "bulwark"), ("DAMAGE_RESPONSE", NO, "bulwark"))
    moves = [(e.data["figure"], e.data["from"], e.data["to"]) for e in events_of(game, "MOVE")]
    assert moves == [
        ("marauder#1", cell(2, 4), cell(4, 4)),
        ("marauder#2", cell(3, 4), cell(4, 3)),
    ]
    assert hp(game, "bulwark") == 6 and coins(game) == {cell(4, 4): 1}


@pytest.mark.parametrize("disarmed", [False, True])
def test_ai_3_disarmed_monster_moves_as_without_attack(disarmed):
    """HV-AI-3, HV-COND-5: a Slinger (SL3) 3 hexes from the Bulwark stays and shoots (2 + 0);
    disarmed, it moves as if its card had no attack (r = 1) to (3,4) next to it."""
    game = new(
        {
            "sequence": ["slinger"],
            "characters": {"bulwark": {"cell": [2, 4]}, "conjurer": {"cell": [0, 0]}},
            "monsters": [mon("slinger", 1, 5, 4, conditions=["disarm"] if disarmed else [])],
            "monster_cards": {"slinger": "SL3"},
            "monster_amd": ["+0"],
        }
    )
    if disarmed:
        assert pos(game, "slinger#1") == cell(3, 4) and events_of(game, "ATTACK") == []
    else:
        play(game, ("DAMAGE_RESPONSE", NO, "bulwark"))
        assert pos(game, "slinger#1") == cell(5, 4) and hp(game, "bulwark") == 8


@pytest.mark.parametrize(
    ("case", "monster_", "chars", "sequence", "victim", "dest"),
    [
        # cost first: the Bulwark (R 3, no LOS behind the wall, earlier) costs 1, the Conjurer 0
        (
            "cost",
            mon("slinger", 1, 7, 3),
            ((5, 3), (7, 6)),
            ["bulwark", "conjurer"],
            "conjurer",
            (7, 3),
        ),
        # equal cost 2: proximity 2 (Conjurer at (3,2)) beats 3 (Bulwark at (7,4), earlier)
        (
            "proximity",
            mon("marauder", 1, 4, 4),
            ((7, 4), (3, 2)),
            ["bulwark", "conjurer"],
            "conjurer",
            (4, 2),
        ),
        # equal cost 1 and proximity 2: the earlier in turn order wins
        (
            "order",
            mon("marauder", 1, 4, 4),
            ((2, 4), (6, 4)),
            ["conjurer", "bulwark"],
            "conjurer",
            (5, 4),
        ),
        (
            "order",
            mon("marauder", 1, 4, 4),
            ((2, 4), (6, 4)),
            ["bulwark", "conjurer"],
            "bulwark",
            (3, 4),
        ),
    ],
)
def test_ai_4_focus_key(case, monster_, chars, sequence, victim, dest):
    """HV-AI-4: focus = smallest (cost, proximity, turn order position); the monster then moves
    (Case A) and attacks its focus for 2 + 0."""
    kind = monster_["type"]
    played = {"bulwark": ["B01", "B02"], "conjurer": ["C01", "C02"]}
    game = new(
        {
            "sequence": [*sequence, kind],
            "next": 2,
            "characters": {
                "bulwark": {"cell": list(chars[0]), "played": played["bulwark"]},
                "conjurer": {"cell": list(chars[1]), "played": played["conjurer"]},
            },
            "monsters": [monster_],
            "monster_cards": {kind: "SL3" if kind == "slinger" else "MA2"},
            "monster_amd": ["+0"],
        }
    )
    play(game, ("DAMAGE_RESPONSE", NO, victim))
    assert pos(game, f"{kind}#1") == cell(*dest)
    assert [e.data["target"] for e in events_of(game, "ATTACK")] == [victim]


def test_ai_5_case_a_ranged_avoids_adjacency():
    """HV-AI-5 Case A: a Slinger (SL3) adjacent to its focus steps away to (4,4) (1 step, range 2,
    lower id than (3,5)) rather than shoot with disadvantage: one card drawn, 2 + 0."""
    game = new(
        {
            "sequence": ["slinger"],
            "characters": {"bulwark": {"cell": [2, 4]}, "conjurer": {"cell": [0, 0]}},
            "monsters": [mon("slinger", 1, 3, 4)],
            "monster_cards": {"slinger": "SL3"},
            "monster_amd": ["+0", "-2"],
        }
    )
    play(game, ("DAMAGE_RESPONSE", NO, "bulwark"))
    assert pos(game, "slinger#1") == cell(4, 4)
    assert hp(game, "bulwark") == 8 and game.state.monster_amd.discard == ["+0"]


@pytest.mark.parametrize("card", ["SL6", "SL3"])
def test_ai_5_6_extra_targets(card):
    """HV-AI-5 Case A (e), HV-AI-6: with SL6 (Target 2, Attack 2 - 1) the Slinger at (8,4) moves to
    (7,4), from where the Conjurer (R 3) can be shot too, and hits its focus the Bulwark (1 + 0)
    then the Conjurer (1 + 1); with SL3 (one target) it stays and hits the Bulwark for 2 + 0."""
    game = new(
        {
            "sequence": ["slinger"],
            "characters": {"bulwark": {"cell": [5, 4]}, "conjurer": {"cell": [5, 6]}},
            "monsters": [mon("slinger", 1, 8, 4)],
            "monster_cards": {"slinger": card},
            "monster_amd": ["+0", "+1"],
        }
    )
    play(game, ("DAMAGE_RESPONSE", NO, "bulwark"))
    if card == "SL6":
        play(game, ("DAMAGE_RESPONSE", NO, "conjurer"))
        assert pos(game, "slinger#1") == cell(7, 4)
        assert (hp(game, "bulwark"), hp(game, "conjurer")) == (9, 5)
    else:
        assert pos(game, "slinger#1") == cell(8, 4)
        assert (hp(game, "bulwark"), hp(game, "conjurer")) == (8, 7)
    assert [e.data["target"] for e in events_of(game, "ATTACK")] == (
        ["bulwark", "conjurer"] if card == "SL6" else ["bulwark"]
    )


@pytest.mark.parametrize(
    ("sequence", "extra", "victim_hp"),
    [(["bulwark", "conjurer"], "bulwark", 9), (["conjurer", "bulwark"], "ember_wisp#1", 3)],
)
def test_ai_6_extra_target_choice(sequence, extra, victim_hp):
    """HV-AI-6: an immobilized Slinger at (5,4) with SL6 focuses the Conjurer (R 2) and adds one
    extra target by (proximity, turn order): the Bulwark (2,4) and the Wisp (8,4) are both at R 3;
    the Wisp's position is just before the Conjurer, so the Bulwark wins only when it acts first.
    Each hit is 2 - 1 + 0 = 1."""
    played = {"bulwark": ["B01", "B02"], "conjurer": ["C01", "C02"]}
    if sequence[0] == "conjurer":
        played = {"bulwark": ["B01", "B02"], "conjurer": ["C04", "C01"]}
    game = new(
        {
            "sequence": [*sequence, "slinger"],
            "next": 2,
            "characters": {
                "bulwark": {"cell": [2, 4], "played": played["bulwark"]},
                "conjurer": {"cell": [7, 4], "played": played["conjurer"]},
            },
            "summons": [wisp(8, 4)],
            "monsters": [mon("slinger", 1, 5, 4, conditions=["immobilize"])],
            "monster_cards": {"slinger": "SL6"},
            "monster_amd": ["+0", "+0"],
        }
    )
    play(game, ("DAMAGE_RESPONSE", NO, "conjurer"))
    if extra == "bulwark":
        play(game, ("DAMAGE_RESPONSE", NO, "bulwark"))
    assert [e.data["target"] for e in events_of(game, "ATTACK")] == ["conjurer", extra]
    assert hp(game, extra) == victim_hp and hp(game, "conjurer") == 6


def test_ai_5_case_b():
    """HV-AI-5 Case B: a Marauder (MA2) at (8,6) that cannot reach the Bulwark at (1,6) moves to
    the reachable cell closest in steps to an attack hex: (6,6), 4 steps from (2,6)."""
    game = new(
        {
            "sequence": ["marauder"],
            "characters": {"bulwark": {"cell": [1, 6]}, "conjurer": {"cell": [0, 0]}},
            "monsters": [mon("marauder", 1, 8, 6)],
            "monster_cards": {"marauder": "MA2"},
        }
    )
    assert [(e.data["from"], e.data["to"]) for e in events_of(game, "MOVE")] == [
        (cell(8, 6), cell(6, 6))
    ]
    assert events_of(game, "ATTACK") == []


def test_mturn_10_range_modifier():
    """HV-MTURN-10: SL2 'Attack +1, Range +1' lets a Slinger (Range 3) hit the Bulwark 4 hexes
    away without moving: 2 + 1 + 0 = 3."""
    game = new(
        {
            "sequence": ["slinger"],
            "characters": {"bulwark": {"cell": [1, 4]}, "conjurer": {"cell": [0, 0]}},
            "monsters": [mon("slinger", 1, 5, 4)],
            "monster_cards": {"slinger": "SL2"},
            "monster_amd": ["+0"],
        }
    )
    play(game, ("DAMAGE_RESPONSE", NO, "bulwark"))
    assert hp(game, "bulwark") == 7 and pos(game, "slinger#1") == cell(5, 4)


def test_mturn_7_stunned_monster_does_nothing():
    """HV-MTURN-7, HV-COND-6, HV-MEND-1: a stunned Marauder with MA4 next to the Bulwark gains no
    Shield/Retaliate and does not attack; its stun (present at turn start) ends with the turn."""
    game = new(
        {
            "sequence": ["marauder", "bulwark"],
            "characters": {
                "bulwark": {"cell": [2, 2], "played": ["B03", "B01"]},
                "conjurer": {"cell": [0, 6]},
            },
            "monsters": [mon("marauder", 1, 3, 2, conditions=["stun"])],
            "monster_cards": {"marauder": "MA4"},
        }
    )
    expect(game, "WINDOW_0", "bulwark")
    m = monster(game, "marauder#1")
    assert (m.shield, m.retaliate, m.conditions) == (0, 0, [])
    assert events_of(game, "ATTACK") == [] and events_of(game, "STUN_SKIP", figure="marauder#1")


def marauder_behind_slingers(card: str, *columns: int) -> HavenGame:
    """A Marauder playing ``card`` at (8,6), focusing the Conjurer at (1,6) along row 6, with
    two Slingers (its allies) on row 6 at ``columns``; the Bulwark at (2,2), out of the way."""
    return new(
        {
            "sequence": ["marauder"],
            "characters": {"bulwark": {"cell": [2, 2]}, "conjurer": {"cell": [1, 6]}},
            "monsters": [mon("marauder", 1, 8, 6)]
            + [mon("slinger", i + 1, x, 6) for i, x in enumerate(columns)],
            "monster_cards": {"marauder": card},
        }
    )


def test_ai_5_case_b_leaves_the_shortest_path_to_come_closer():
    """HV-AI-5 Case B: a Marauder (MA1: Move 3, melee) at (8,6) focuses the Conjurer at (1,6),
    whose nearest attack hex (2,6) is 6 steps away along row 6, through two Slingers (allies:
    passable, not endable) at (6,6) and (5,6). It goes where the rest of its way to (2,6) is
    shortest, off that path: to (5,5), 3 steps away and 4 from (2,6), not to (7,6), the last
    cell it could stop on along the path, 5 from (2,6) (the published clarification of monster
    movement)."""
    game = marauder_behind_slingers("MA1", 5, 6)
    assert [(e.data["from"], e.data["to"]) for e in events_of(game, "MOVE")] == [
        (cell(8, 6), cell(5, 5))
    ]
    assert events_of(game, "ATTACK") == []


def test_ai_5_case_b_steps_aside_when_allies_block_its_path():
    """HV-AI-5 Case B: a Marauder (MA2: Move 2) at (8,6) whose way to its focus, the Conjurer at
    (1,6), runs along row 6 through two Slingers (allies: passable, not endable) at (7,6) and
    (6,6) cannot stop on that path this turn. It still comes closer by stepping aside, to
    (6,5), 5 steps from the attack hex (2,6) instead of 6, rather than staying where it is (the
    other cell within its Move as near to (2,6), (7,6), is a Slinger's)."""
    game = marauder_behind_slingers("MA2", 7, 6)
    assert [(e.data["from"], e.data["to"]) for e in events_of(game, "MOVE")] == [
        (cell(8, 6), cell(6, 5))
    ]
    assert events_of(game, "ATTACK") == []


def test_ai_5_muddled_ranged_monster_does_not_step_away():
    """HV-AI-5 Case A, HV-COND-7: a muddled Slinger (SL3) adjacent to its focus, the
    Bulwark at (4,0), attacks with disadvantage wherever it stands, so it does not move: it shoots
    from (5,0), drawing two modifier cards (+0, -2) and using the worse: 2 - 2 = 0."""
    game = new(
        {
            "sequence": ["slinger"],
            "characters": {"bulwark": {"cell": [4, 0]}, "conjurer": {"cell": [1, 0]}},
            "monsters": [mon("slinger", 1, 5, 0, conditions=["muddle"])],
            "monster_cards": {"slinger": "SL3"},
            "monster_amd": ["+0", "-2"],
        }
    )
    assert events_of(game, "MOVE") == []
    assert pos(game, "slinger#1") == cell(5, 0)
    assert [e.data["target"] for e in events_of(game, "ATTACK")] == ["bulwark"]
    assert hp(game, "bulwark") == 10 and sorted(game.state.monster_amd.discard) == ["+0", "-2"]


def test_ai_5_multi_target_heads_for_its_best_future_hex():
    """HV-AI-5 Case B with Target 2 (SL6, Move 2, Range 3): the Slinger at (3,6) cannot shoot this
    turn. With movement unlimited its best attack hex reaches its focus the Bulwark (4,0) and the
    Conjurer (8,2) too: (5,1), 5 steps, rather than the nearest, (2,3) or (4,3), 3 steps, that reach
    the Bulwark alone. It moves toward (5,1): to (4,4), not to (2,4)."""
    game = new(
        {
            "sequence": ["slinger"],
            "characters": {"bulwark": {"cell": [4, 0]}, "conjurer": {"cell": [8, 2]}},
            "monsters": [mon("slinger", 1, 3, 6)],
            "monster_cards": {"slinger": "SL6"},
        }
    )
    assert [(e.data["from"], e.data["to"]) for e in events_of(game, "MOVE")] == [
        (cell(3, 6), cell(4, 4))
    ]
    assert events_of(game, "ATTACK") == []


# The default map with a pocket of walls round (1,1): only (1,2) and (2,0)-(2,1), beside it, see
# into it from near; every other cell that sees (1,1) within 3 is 4 steps or more from (2,5).
POCKET_MAP = """
 .   #   .   .   .   .   .   .   T
   #   .   .   .   O   .   .   .   .
 #   B   #   .   .   .   #   m1  .
   #   .   #   O   .   .   #   .   s1
 .   C   .   .   .   .   .   M3  .
   $   .   .   .   O   .   m2  .   .
 .   .   .   .   .   .   .   S2  $
"""
POCKET_WALLS = [[6, 2], [6, 3], [1, 0], [0, 1], [0, 2], [2, 2], [0, 3], [2, 3]]


def pocket_scenario(folder: Path):
    """Raider Camp on :data:`POCKET_MAP` (HV-MAP-1), written to ``folder`` and loaded."""
    text = with_map(default_text(), POCKET_MAP)
    text = text.replace("walls = [[6, 2], [6, 3]]", f"walls = {POCKET_WALLS}")
    return load_text(folder, "pocket", text)


def test_ai_5_ranged_monster_plans_past_the_adjacent_hex(tmp_path):
    """HV-AI-5 Case B, ranged: the Slinger (SL3: Move 2, Range 3) at (2,5) cannot shoot its focus,
    the Bulwark in a pocket at (1,1), this turn. Its nearest attack hex, (1,2), 3 steps away, is
    adjacent (disadvantage); planning with unlimited movement it heads for the nearest one that is
    not, (4,2), 4 steps away by (3,4) (4,4) (4,3): it moves to (4,4), not to (1,3) beside (1,2)."""
    fixture = {
        "sequence": ["slinger"],
        "characters": {"bulwark": {"cell": [1, 1]}, "conjurer": {"cell": [7, 0]}},
        "monsters": [mon("slinger", 1, 2, 5)],
        "monster_cards": {"slinger": "SL3"},
    }
    game = new_game(
        scenario=pocket_scenario(tmp_path), seed=0, config=HavenConfig(), fixture=fixture
    )
    assert [(e.data["from"], e.data["to"]) for e in events_of(game, "MOVE")] == [
        (cell(2, 5), cell(4, 4))
    ]
    assert events_of(game, "ATTACK") == []
