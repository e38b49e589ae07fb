"""Per-rule haven tests of the end of the scenario (section 3, HV-END-*) and of exhaustion
(4.1 and 11, HV-EXH-*).
"""

from __future__ import annotations

import pytest

from tests.haven.helpers import (
    BOTTOM,
    BOX,
    BULWARK_CARDS,
    CONJURER_CARDS,
    DEFAULT,
    FAR_MARAUDER,
    HEX,
    LEAD,
    NO,
    OTHER,
    PRINTED,
    TOP,
    cards_in_order,
    char,
    drive,
    events_of,
    expect,
    hp,
    index_of,
    mon,
    new,
    others,
    passive_answer,
    play,
    pos,
    reveal,
    slot_labels,
    wisp,
)

# =================================================================================================
# Section 3: end of the scenario (HV-END-*)


def _one_kill_fixture(extra_monsters=()):
    return {
        "characters": {
            "conjurer": {"cell": [2, 4], "played": ["C01", "C02"], "amd": ["+0"]},
            "bulwark": {"cell": [1, 2], "played": ["B08", "B01"]},
        },
        "monsters": [mon("marauder", 1, 3, 4, hp=1), *extra_monsters],
    }


def _conjurer_kills(game):
    # C01 top in default mode = Attack 2 (melee) on the adjacent marauder (HP 1): it dies.
    play(
        game,
        ("WINDOW_0", BOX(LEAD, TOP, DEFAULT), "conjurer"),
        ("ATTACK_TARGET", HEX(3, 4)),
        ("WINDOW_1", BOX(OTHER, BOTTOM, DEFAULT)),
        ("MOVE_DEST", NO),
        ("WINDOW_2", NO),
    )


def test_end_1_2_win_at_end_of_round():
    """HV-END-1/2: when the last monster dies the rest of the round is still played (the Bulwark
    still gets its turn) and the scenario ends with win after cleanup (no short rest offered)."""
    game = new(_one_kill_fixture())
    _conjurer_kills(game)
    assert game.state.monsters == [] and game.outcome == "running"
    expect(game, "WINDOW_0", "bulwark")
    play(
        game,
        ("WINDOW_0", BOX(LEAD, BOTTOM, DEFAULT)),
        ("MOVE_DEST", NO),
        ("WINDOW_1", BOX(OTHER, TOP, DEFAULT)),
        ("WINDOW_2", NO),
    )
    assert game.outcome == "win" and game.prompt is None
    assert events_of(game, "SHORT_REST") == []
    assert index_of(game, "ROUND_END", round=1) < index_of(game, "OUTCOME", outcome="win")


def test_end_2_monsters_left_no_win():
    """HV-END-2: the win condition is 'no monster on the map': with one monster left the round
    ends without an outcome and round 2 starts."""
    game = new(_one_kill_fixture([FAR_MARAUDER | {"standee": 2}]))
    _conjurer_kills(game)
    drive(game, lambda g: g.state.round == 2)
    assert game.outcome == "running" and not game.state.win_met
    expect(game, "SELECT_LEAD", "bulwark")


def _last_stand_fixture():
    return {
        "characters": {
            # Conjurer leads C04 (9): its wound exhausts it at HP 1.
            "conjurer": {
                "cell": [0, 6],
                "hp": 1,
                "conditions": ["wound"],
                "played": ["C04", "C01"],
            },
            # Bulwark leads B01 (14); B03 top: Attack 4, then suffer 1 damage.
            "bulwark": {"cell": [2, 2], "hp": 1, "played": ["B01", "B03"], "amd": ["+0"]},
        },
        "monsters": [mon("marauder", 1, 3, 2, hp=2)],
        "monster_cards": {"marauder": "MA4"},  # initiative 15: after the Bulwark
    }


@pytest.mark.parametrize("kill", [False, True])
def test_end_3_last_exhaustion(kill):
    """HV-END-3: the last character's exhaustion ends the scenario at once with loss (the
    Marauder's later slot never runs) - or with win when the last monster died earlier in the
    same round (Bulwark kills it with B03, then its self-damage exhausts it)."""
    game = new(_last_stand_fixture())
    play(game, ("DAMAGE_RESPONSE", NO, "conjurer"))
    assert char(game, "conjurer").exhausted and game.outcome == "running"
    play(
        game,
        ("WINDOW_0", BOX(OTHER, TOP, PRINTED), "bulwark"),
        ("ATTACK_TARGET", HEX(3, 2) if kill else NO),
        ("DAMAGE_RESPONSE", NO, "bulwark"),
    )
    assert game.outcome == ("win" if kill else "loss")
    assert game.prompt is None
    assert events_of(game, "TURN_START", figure="marauder#1") == []
    assert events_of(game, "ROUND_END") == []  # ended at once, not after cleanup
    assert [e.data["outcome"] for e in events_of(game, "OUTCOME")] == [game.outcome]


@pytest.mark.parametrize(("max_rounds", "truncated"), [(3, True), (4, False)])
def test_end_4_round_cap(max_rounds, truncated):
    """HV-END-4: if round ``max_rounds`` ends without an outcome the episode is truncated; an
    earlier round just ends."""
    fixture = {
        "round": 3,
        "characters": {"bulwark": {"cell": [1, 2], "played": ["B01", "B02"]}},
        "monsters": [FAR_MARAUDER],
    }
    game = new(fixture, max_rounds=max_rounds)
    drive(game, lambda g: g.prompt is None or g.state.round == 4)
    if truncated:
        assert game.outcome == "truncated" and game.prompt is None
        assert events_of(game, "OUTCOME", outcome="truncated")
    else:
        assert game.outcome == "running"
        expect(game, "SELECT_LEAD", "bulwark")


# =================================================================================================
# 4.1 / 11: exhaustion (HV-EXH-*)


@pytest.mark.parametrize(
    ("hand", "discard", "exhausted"),
    [
        (["B01"], ["B02"], True),
        ([], ["B01"], True),
        (["B01"], ["B02", "B03"], False),
        (["B01", "B02"], [], False),
        ([], ["B01", "B02"], False),
    ],
)
def test_exh_1_start_of_round_exhaustion(hand, discard, exhausted):
    """HV-EXH-1: at the start of a round, before selection, a character with fewer than 2 hand
    cards and fewer than 2 discard cards is exhausted; either pile with 2 cards saves it."""
    lost = others(BULWARK_CARDS, *hand, *discard)
    game = new(
        {
            "phase": "select",
            "characters": {
                "bulwark": {"cell": [1, 2], "hand": hand, "discard": discard, "lost": lost},
                "conjurer": {"cell": [1, 4]},
            },
            "monsters": [FAR_MARAUDER],
        }
    )
    assert char(game, "bulwark").exhausted is exhausted
    if exhausted:
        assert cards_in_order(game, "bulwark", "lost") == list(BULWARK_CARDS)
        assert pos(game, "bulwark") is None
        expect(game, "SELECT_LEAD", "conjurer")  # the bulwark is never asked
        assert index_of(game, "ROUND_START") < index_of(game, "EXHAUSTED", figure="bulwark")
        assert (
            events_of(game, "CARD_TO", to="played") == [] and events_of(game, "AUTO_ACTION") == []
        )
    else:
        assert events_of(game, "EXHAUSTED") == []


@pytest.mark.parametrize(("start_hp", "exhausted"), [(3, False), (2, True)])
def test_exh_2_hp_below_one(start_hp, exhausted):
    """HV-EXH-2: a character whose HP drops below 1 is exhausted; HP 1 is not. (Marauder MA2:
    Attack 2 + '+0' on the adjacent Bulwark.)"""
    game = new(
        {
            "sequence": ["marauder"],
            "characters": {
                "bulwark": {"cell": [2, 2], "hp": start_hp},
                "conjurer": {"cell": [0, 6]},
            },
            "monsters": [mon("marauder", 1, 3, 2)],
            "monster_cards": {"marauder": "MA2"},
            "monster_amd": ["+0"],
        }
    )
    play(game, ("DAMAGE_RESPONSE", NO, "bulwark"))
    assert char(game, "bulwark").exhausted is exhausted
    if exhausted:
        assert pos(game, "bulwark") is None and events_of(game, "EXHAUSTED", figure="bulwark")
    else:
        assert hp(game, "bulwark") == 1


def test_exh_3_4_exhaustion_effects():
    """HV-EXH-3/4, HV-CTURN-4: exhausted by its wound at turn start, the Conjurer loses every
    card (hand, played, discard, active), its Wisp is removed, it leaves the map, keeps its gold;
    it is never asked anything again (round 2 reveal and prompts are the Bulwark's only)."""
    game = new(
        {
            "characters": {
                "conjurer": {
                    "cell": [2, 4],
                    "hp": 1,
                    "conditions": ["wound"],
                    "played": ["C01", "C02"],
                    "discard": ["C05"],
                    "lost": ["C04"],
                    "gold": 5,
                },
                "bulwark": {"cell": [1, 2], "played": ["B08", "B01"]},
            },
            "summons": [wisp(3, 4)],
            "monsters": [mon("marauder", 1, 8, 0)],
        }
    )
    assert slot_labels(game) == ["summon:1", "conjurer", "bulwark"]
    play(game, ("DAMAGE_RESPONSE", NO, "conjurer"))
    ch = char(game, "conjurer")
    assert ch.exhausted and ch.cell is None and ch.gold == 5
    assert cards_in_order(game, "conjurer", "lost") == list(CONJURER_CARDS)
    assert ch.hand == ch.played == ch.discard == ch.active == []
    assert game.state.summons == [] and events_of(game, "DEATH", figure="ember_wisp#1")
    assert events_of(game, "TURN_END", figure="conjurer") == []
    start = len(game.events)
    for _ in range(200):
        if events_of(game, "ROUND_END", start, round=2):
            break
        assert game.prompt is not None and game.prompt.agent == 0
        game.apply(passive_answer(game))
    else:
        raise AssertionError("round 2 never ended")
    assert "conjurer" not in reveal(game, start)
    assert game.outcome == "running"
