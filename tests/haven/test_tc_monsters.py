"""Section-17 test cases of haven.md on monsters, summons and initiative: HV-TEST-10 (one card
per type, elites first), HV-TEST-11 (monster turn start and end), HV-TEST-12 (summons) and
HV-TEST-13 (initiative order and ties).

The cases are played step for step as the spec writes them: every listed action is played through
:func:`play` (which checks the prompt kind and that the action is legal) and every "Expected" of
the spec is an assertion. Setups are HV-API-10 fixtures: "it is X's slot" is a TURNS-phase fixture
whose sequence starts at X, "AMD [a, b, ...]" lists the top of a modifier draw pile, a character
the spec does not list takes no part in the round. Where a test spans rounds the game is driven on
with passive answers (default boxes, no moves, no targets, no rests) that cannot touch what the
test checks.
"""

from __future__ import annotations

from tests.haven.helpers import (
    BOTTOM,
    BOX,
    CARD,
    DEFAULT,
    HEX,
    ITEM0,
    ITEM1,
    LEAD,
    LONG_REST,
    NO,
    OTHER,
    PRINTED,
    TOP,
    cards_in,
    cell,
    char,
    drive,
    events_of,
    expect,
    hp,
    in_order,
    index_of,
    marauder,
    monster,
    new,
    norm_cell,
    play,
    pos,
    round_ended,
    sequence,
    slinger,
    summon,
)

# =================================================================================================
# HV-TEST-10


def test_10_monster_order_within_type():
    """HV-TEST-10: monsters of one type share one card; elites act first, then normals by
    standee number; focus and moves (HV-MTURN-1 .. HV-MTURN-4, HV-INIT-6, HV-AI-4, HV-AI-5).
    Seed rules checked here as well (section 18): HV-ROUND-1.
    """
    game = new(
        {
            "phase": "turns",
            "sequence": ["bulwark", "marauder", "conjurer"],
            "next": 1,
            "characters": {
                "bulwark": {
                    "cell": [1, 2],
                    "acted": True,
                    "initiative": 22,
                    "discard": ["B07", "B01"],
                },
                "conjurer": {"cell": [1, 4], "played": ["C06", "C01"]},
            },
            "monsters": [
                marauder(1, 5, 0),
                marauder(2, 5, 6),
                {"type": "marauder", "rank": "elite", "standee": 3, "cell": [8, 4]},
            ],
            "monster_cards": {"marauder": "MA2"},
        }
    )
    starts = [e.data["figure"] for e in events_of(game, "TURN_START")]
    assert starts == ["marauder#3", "marauder#1", "marauder#2", "conjurer"]
    assert pos(game, "marauder#3") == cell(6, 4)
    assert pos(game, "marauder#1") == cell(3, 0)
    assert pos(game, "marauder#2") == cell(3, 5)
    moves = [(e.data["figure"], e.data["from"], e.data["to"]) for e in events_of(game, "MOVE")]
    assert [(f, norm_cell(a), norm_cell(b)) for f, a, b in moves] == [
        ("marauder#3", cell(8, 4), cell(6, 4)),
        ("marauder#1", cell(5, 0), cell(3, 0)),
        ("marauder#2", cell(5, 6), cell(3, 5)),
    ]
    assert not events_of(game, "ATTACK")
    # All three executed the one card MA2.
    assert game.state.monster_decks[0].current == "MA2"
    expect(game, "WINDOW_0", "conjurer")


# =================================================================================================
# HV-TEST-11


def test_11_monster_turn_start_card_and_end():
    """HV-TEST-11: a monster does only what its card says; wound and stun at its turn start; stun
    expiry at its turn end; card shield and retaliate (HV-MTURN-5 .. HV-MTURN-9, HV-MEND-1,
    HV-ABL-4, HV-ABL-5, HV-COND-6, HV-BOX-5, HV-ATK-1).
    Seed rules checked here as well (section 18): HV-INIT-6, HV-COND-3, HV-COND-10.
    """
    game = new(
        {
            "phase": "turns",
            "sequence": ["marauder", "bulwark", "conjurer"],
            "characters": {
                "bulwark": {"cell": [2, 2], "hp": 10, "played": ["B06", "B01"], "amd": ["+0"]},
                "conjurer": {"cell": [0, 6], "played": ["C07", "C05"]},
            },
            "monsters": [
                marauder(1, 4, 2, hp=5, conditions=["wound"]),
                marauder(2, 4, 4, hp=5, conditions=["stun"]),
            ],
            "monster_cards": {"marauder": "MA4"},
        }
    )
    m1 = monster(game, "marauder#1")
    m2 = monster(game, "marauder#2")
    # #1: wound (HP 4/5), Shield 1 and Retaliate 1 for the round, no move, no attack.
    in_order(
        game,
        ("TURN_START", {"figure": "marauder#1"}),
        ("WOUND", {"figure": "marauder#1", "amount": 1}),
        ("TURN_END", {"figure": "marauder#1"}),
        ("TURN_START", {"figure": "marauder#2"}),
        ("STUN_SKIP", {"figure": "marauder#2"}),
        ("COND_REMOVE", {"figure": "marauder#2", "condition": "stun"}),
        ("TURN_END", {"figure": "marauder#2"}),
    )
    assert m1.hp == 4
    assert (m1.shield, m1.retaliate) == (1, 1)
    assert m1.cell == cell(4, 2)
    assert not events_of(game, "MOVE")
    assert not events_of(game, "ATTACK")
    assert m1.conditions == ["wound"]
    # #2: nothing (no shield, no retaliate); its stun is removed at the end of its turn.
    assert (m2.shield, m2.retaliate) == (0, 0)
    assert m2.cell == cell(4, 4)
    assert m2.conditions == []
    assert m2.hp == 5
    # Then the Bulwark.
    expect(game, "WINDOW_0", "bulwark")
    play(
        game,
        ("WINDOW_0", BOX(OTHER, BOTTOM, DEFAULT)),  # 80: B01 bottom, Move 2
        ("MOVE_DEST", HEX(3, 2)),  # 21
    )
    expect(game, "WINDOW_1", "bulwark", legal={73, 74, ITEM0, ITEM1})
    play(
        game,
        ("WINDOW_1", BOX(LEAD, TOP, DEFAULT)),  # 74: B06 top, Attack 2
        ("ATTACK_TARGET", HEX(4, 2)),  # 22
    )
    # Damage 2 - 1 (shield) = 1 -> HP 3/5; retaliate 1 against the Bulwark.
    assert hp(game, "marauder#1") == 3
    attack = events_of(game, "ATTACK", attacker="bulwark", target="marauder#1")
    assert len(attack) == 1 and attack[0].data["damage"] == 1
    expect(game, "DAMAGE_RESPONSE", "bulwark")
    assert game.prompt.value == 1
    play(game, ("DAMAGE_RESPONSE", NO))
    assert hp(game, "bulwark") == 9
    expect(game, "WINDOW_2", "bulwark")


# =================================================================================================
# HV-TEST-12


def test_12_summon():
    """HV-TEST-12: summon placement, no turn in the round summoned; the next round the summon
    acts right before its summoner, automatically, with the owner's modifier deck, and never
    loots (HV-STURN-1 .. HV-STURN-4, HV-INIT-4, HV-INIT-5, HV-ABL-7, HV-AMD-2, HV-COND-10).
    Seed rules checked here as well (section 18): HV-ROUND-1, HV-COND-3, HV-LOOT-2.
    """
    # Round N.
    game = new(
        {
            "phase": "turns",
            "sequence": ["conjurer"],
            "characters": {
                "conjurer": {"cell": [2, 4], "played": ["C03", "C05"]},
                "bulwark": {"cell": [1, 0], "acted": True},
            },
            "monsters": [marauder(1, 6, 4)],
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED), "conjurer"))  # 73
    expect(game, "SUMMON_HEX", "conjurer", legal={28, 29, 37, 39, 46, 47, NO})
    assert {HEX(1, 3), HEX(2, 3), HEX(1, 4), HEX(3, 4), HEX(1, 5), HEX(2, 5)} == {
        28,
        29,
        37,
        39,
        46,
        47,
    }
    play(game, ("SUMMON_HEX", HEX(3, 4)))  # 39
    wisp = summon(game, 1)
    assert wisp is not None and wisp.cell == cell(3, 4)
    assert (wisp.hp, wisp.max_hp) == (4, 4)
    assert wisp.owner == 1
    assert cards_in(game, "conjurer", "persistent") == {"C03"}
    assert events_of(game, "SUMMON", figure="ember_wisp#1")
    # Finish the round: the Wisp takes no turn in round N.
    drive(game, round_ended(game.state.round))
    assert not events_of(game, "TURN_START", figure="ember_wisp#1")

    # Round N+1.
    game = new(
        {
            "round": 2,
            "phase": "turns",
            "sequence": ["summon:1", "conjurer", "bulwark", "marauder"],
            "characters": {
                "conjurer": {"cell": [2, 4], "played": ["C02", "C01"], "amd": ["+1", "-1"]},
                "bulwark": {"cell": [1, 0], "played": ["B05", "B01"]},
            },
            "summons": [
                {
                    "owner": "conjurer",
                    "cell": [3, 4],
                    "hp": 4,
                    "conditions": ["wound", "muddle"],
                    "summoned_round": 1,
                }
            ],
            "coins": [[5, 4]],
            "monsters": [marauder(1, 6, 4, hp=5)],
            "monster_cards": {"marauder": "MA5"},
        }
    )
    assert sequence(game) == ["summon:1", "conjurer", "bulwark", "marauder"]
    monster_amd_before = (
        list(game.state.monster_amd.draw),
        list(game.state.monster_amd.discard),
    )
    wisp_start, _, _, wisp_end, conj_start = in_order(
        game,
        ("TURN_START", {"figure": "ember_wisp#1"}),
        ("WOUND", {"figure": "ember_wisp#1", "amount": 1}),
        ("MOVE", {"figure": "ember_wisp#1", "from": cell(3, 4), "to": cell(5, 4)}),
        ("TURN_END", {"figure": "ember_wisp#1"}),
        ("TURN_START", {"figure": "conjurer"}),
    )
    # The Wisp's turn comes immediately before the Conjurer's.
    assert [e.type for e in game.events[wisp_end:conj_start]].count("TURN_START") == 0
    assert wisp_start == index_of(game, "TURN_START")
    wisp = summon(game, 1)
    assert wisp.hp == 3
    assert wisp.cell == cell(5, 4)
    attack = events_of(game, "ATTACK", attacker="ember_wisp#1")
    assert len(attack) == 1
    assert attack[0].data["target"] == "marauder#1"
    assert attack[0].data["cards"] == ["+1", "-1"]  # disadvantage: the worse (-1) is used
    assert attack[0].data["damage"] == 1
    assert hp(game, "marauder#1") == 4
    assert sorted(char(game, "conjurer").amd.discard) == ["+1", "-1"]  # the Conjurer's deck
    assert (
        list(game.state.monster_amd.draw),
        list(game.state.monster_amd.discard),
    ) == monster_amd_before
    # End of the Wisp's turn: muddle removed, wound kept, no summon loot.
    assert events_of(game, "COND_REMOVE", figure="ember_wisp#1", condition="muddle")
    assert wisp.conditions == ["wound"]
    assert game.state.coins == {cell(5, 4): 1}
    assert not events_of(game, "LOOT")
    expect(game, "WINDOW_0", "conjurer")


# =================================================================================================
# HV-TEST-13


def _select(game, bulwark: tuple[str, str] | str, conjurer: tuple[str, str] | str) -> None:
    """Answer both characters' selection prompts ('long' = LONG_REST)."""
    for agent, choice in (("bulwark", bulwark), ("conjurer", conjurer)):
        if choice == "long":
            play(game, ("SELECT_LEAD", LONG_REST, agent))
        else:
            play(game, ("SELECT_LEAD", CARD(choice[0]), agent))
            play(game, ("SELECT_SECOND", CARD(choice[1]), agent))


FAR_MONSTERS = [marauder(1, 8, 6), slinger(1, 8, 0)]
WISP = {"owner": "conjurer", "cell": [2, 4], "hp": 4, "summoned_round": 0}


def test_13_initiative_order_and_ties():
    """HV-TEST-13: initiative order and ties: character before monster on a tie, type order on a
    monster tie, summon before summoner, long rest 99 (HV-ROUND-1, HV-INIT-1 .. HV-INIT-4,
    HV-AI-4).
    Seed rules checked here as well (section 18): HV-STURN-2.
    """
    # (a) Conjurer C01 (18), Bulwark B05 (38), MA1 (18), SL2 (31), Wisp in play.
    game = new(
        {
            "round": 2,
            "phase": "select",
            "characters": {"bulwark": {"cell": [1, 2]}, "conjurer": {"cell": [1, 4]}},
            "summons": [WISP],
            "monsters": FAR_MONSTERS,
            "monster_cards": {"marauder": "MA1", "slinger": "SL2"},
        }
    )
    _select(game, ("B05", "B01"), ("C01", "C02"))
    assert sequence(game) == ["summon:1", "conjurer", "marauder", "slinger", "bulwark"]
    expect(game, "WINDOW_0", "conjurer")

    # (b) Bulwark B05 (38), Conjurer C06 (52), MA3 (41), SL3 (41).
    game = new(
        {
            "phase": "select",
            "characters": {"bulwark": {"cell": [1, 2]}, "conjurer": {"cell": [1, 4]}},
            "monsters": FAR_MONSTERS,
            "monster_cards": {"marauder": "MA3", "slinger": "SL3"},
        }
    )
    _select(game, ("B05", "B01"), ("C06", "C01"))
    assert sequence(game) == ["bulwark", "marauder", "slinger", "conjurer"]
    expect(game, "WINDOW_0", "bulwark")

    # (c) Both characters long rest (99), Wisp in play.
    game = new(
        {
            "round": 2,
            "phase": "select",
            "characters": {
                "bulwark": {"discard": ["B01", "B02"]},
                "conjurer": {"discard": ["C01", "C02"]},
            },
            "summons": [WISP],
            "monsters": FAR_MONSTERS,
            "monster_cards": {"marauder": "MA1", "slinger": "SL2"},
        }
    )
    _select(game, "long", "long")
    assert sequence(game) == ["marauder", "slinger", "bulwark", "summon:1", "conjurer"]
    expect(game, "LONG_REST_LOSE", "bulwark")

    # (d) Focus tie between the Conjurer and its Wisp: the summon comes first.
    game = new(
        {
            "round": 2,
            "phase": "turns",
            "sequence": ["marauder", "summon:1", "conjurer"],
            "characters": {"conjurer": {"cell": [2, 4], "played": ["C06", "C01"]}},
            "summons": [{"owner": "conjurer", "cell": [3, 4], "hp": 4, "summoned_round": 1}],
            "monsters": [marauder(1, 2, 3)],
            "monster_cards": {"marauder": "MA2"},
            "monster_amd": ["+0"],
        }
    )
    attack = events_of(game, "ATTACK", attacker="marauder#1")
    assert len(attack) == 1
    assert attack[0].data["target"] == "ember_wisp#1"
    assert not events_of(game, "MOVE", figure="marauder#1")
    assert pos(game, "marauder#1") == cell(2, 3)
    assert hp(game, "ember_wisp#1") == 2
    assert hp(game, "conjurer") == 7
