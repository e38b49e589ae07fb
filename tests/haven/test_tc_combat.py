"""Section-17 test cases of haven.md on elements and attacks: HV-TEST-08 (infusions become
strong at the end of the turn, wane, monster infusion) and HV-TEST-14 (attack arithmetic).

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
    HEX,
    LEAD,
    NO,
    OTHER,
    PRINTED,
    TOP,
    YES,
    cell,
    char,
    drive,
    element,
    events_of,
    expect,
    hp,
    in_order,
    index_of,
    marauder,
    new,
    play,
    pos,
    round_ended,
    slinger,
)

# =================================================================================================
# HV-TEST-08


def test_08a_infusion_strong_at_end_of_turn_then_wanes():
    """HV-TEST-08 Part A: an element infused by a character is pending (not usable) until the end
    of its turn, then strong, waning after the round, inert after the next (HV-CEND-3,
    HV-ELEM-2, HV-ELEM-3, HV-ELEM-4)."""
    game = new(
        {
            "phase": "turns",
            "sequence": ["conjurer"],
            "characters": {
                "conjurer": {"cell": [2, 4], "played": ["C01", "C02"], "amd": ["+0"]},
            },
            "monsters": [slinger(1, 5, 4, hp=4)],
        }
    )
    assert all(element(game, e) == "inert" for e in ("fire", "ice", "air", "earth", "light"))
    play(
        game,
        ("WINDOW_0", BOX(LEAD, BOTTOM, PRINTED), "conjurer"),  # 75: Move 2; infuse Fire
        ("MOVE_DEST", HEX(3, 4)),  # 39
    )
    assert pos(game, "conjurer") == cell(3, 4)
    assert events_of(game, "INFUSE_PENDING", element="fire")
    assert element(game, "fire") == "inert"  # pending only
    play(game, ("WINDOW_1", BOX(OTHER, TOP, PRINTED)))  # 77: C02 top, consume Fire
    # No CONSUME prompt: Fire is inert during the turn; C02 gets no bonus.
    expect(game, "ATTACK_TARGET", "conjurer")
    assert element(game, "fire") == "inert"
    play(game, ("ATTACK_TARGET", HEX(5, 4)))  # 41
    attack = events_of(game, "ATTACK", attacker="conjurer")
    assert len(attack) == 1
    assert attack[0].data["cards"] == ["+0"]  # range 2: no disadvantage, one card
    assert attack[0].data["damage"] == 2
    assert hp(game, "slinger#1") == 2
    assert not events_of(game, "CONSUME")
    assert element(game, "fire") == "inert"
    play(game, ("WINDOW_2", NO))
    # At the end of the Conjurer's turn Fire = strong.
    in_order(
        game,
        ("ELEMENT", {"element": "fire", "state": "strong"}),
        ("TURN_END", {"figure": "conjurer"}),
    )
    # At the end of the round (cleanup; the Conjurer may short rest on C01 + C02): waning.
    expect(game, "SHORT_REST", "conjurer")
    assert element(game, "fire") == "waning"
    # The following round: nobody uses Fire (passive play); at its end Fire is inert.
    drive(game, lambda g: g.state.round == 2 and g.prompt.kind == "SELECT_LEAD")
    assert element(game, "fire") == "waning"
    drive(game, round_ended(2))
    assert not events_of(game, "CONSUME", element="fire")
    assert element(game, "fire") == "inert"


def test_08b_monster_infusion_and_consumption():
    """HV-TEST-08 Part B: a monster's infusion becomes strong at the end of that monster's turn;
    the first monster of a type consumes for its whole activation (HV-MEND-2, HV-ELEM-2,
    HV-ELEM-5, HV-ELEM-6, HV-INIT-6, HV-AI-4, HV-AI-5).
    Seed rules checked here as well (section 18): HV-MTURN-1.
    """
    game = new(
        {
            "phase": "turns",
            "sequence": ["conjurer", "bulwark", "slinger", "marauder"],
            "next": 2,
            "characters": {
                "conjurer": {
                    "cell": [1, 4],
                    "hp": 7,
                    "acted": True,
                    "initiative": 9,
                    "discard": ["C04", "C02"],
                },
                "bulwark": {
                    "cell": [2, 2],
                    "hp": 10,
                    "acted": True,
                    "initiative": 14,
                    "discard": ["B01", "B02"],
                },
            },
            "monsters": [
                slinger(1, 8, 3),
                slinger(2, 8, 5),
                marauder(1, 3, 2),
                marauder(2, 2, 1),
            ],
            "monster_cards": {"slinger": "SL5", "marauder": "MA6"},
            "monster_amd": ["+0", "+0"],
            "elements": {"dark": "inert"},
        }
    )
    # Slinger #1: focus Conjurer, moves (8,3) -> (7,3), no attack; Dark strong at its turn's end,
    # before Slinger #2's turn starts.
    s1_start, s1_move, dark, s1_end, s2_start = in_order(
        game,
        ("TURN_START", {"figure": "slinger#1"}),
        ("MOVE", {"figure": "slinger#1", "from": cell(8, 3), "to": cell(7, 3)}),
        ("ELEMENT", {"element": "dark", "state": "strong"}),
        ("TURN_END", {"figure": "slinger#1"}),
        ("TURN_START", {"figure": "slinger#2"}),
    )
    assert pos(game, "slinger#1") == cell(7, 3)
    # Slinger #2: moves (8,5) -> (8,4), no attack.
    in_order(
        game,
        ("MOVE", {"figure": "slinger#2", "from": cell(8, 5), "to": cell(8, 4)}),
        ("TURN_END", {"figure": "slinger#2"}),
        ("TURN_START", {"figure": "marauder#1"}),
    )
    assert pos(game, "slinger#2") == cell(8, 4)
    assert not [e for e in game.events if e.type == "ATTACK" and "slinger" in e.data["attacker"]]
    # Marauder #1 consumes Dark and attacks the Bulwark for 2 + 0 + 2 = 4.
    consume = index_of(game, "CONSUME", element="dark")
    assert game.events[consume].data["figure"] == "marauder#1"
    assert element(game, "dark") == "inert"
    expect(game, "DAMAGE_RESPONSE", "bulwark")
    assert game.prompt.value == 4
    first = events_of(game, "ATTACK", attacker="marauder#1", target="bulwark")
    assert len(first) == 1 and first[0].data["damage"] == 4
    assert first[0].data["cards"] == ["+0"]
    assert pos(game, "marauder#1") == cell(3, 2)
    play(game, ("DAMAGE_RESPONSE", NO, "bulwark"))
    # Marauder #2 also attacks for 4 although Dark is inert now.
    expect(game, "DAMAGE_RESPONSE", "bulwark")
    assert game.prompt.value == 4
    second = events_of(game, "ATTACK", attacker="marauder#2", target="bulwark")
    assert len(second) == 1 and second[0].data["damage"] == 4
    assert second[0].data["cards"] == ["+0"]
    assert len(events_of(game, "CONSUME")) == 1
    assert pos(game, "marauder#2") == cell(2, 1)
    play(game, ("DAMAGE_RESPONSE", NO, "bulwark"))
    assert hp(game, "bulwark") == 2
    # Dark stays inert at the end of the round (cleanup: the Bulwark may short rest).
    expect(game, "SHORT_REST", "bulwark")
    assert element(game, "dark") == "inert"


# =================================================================================================
# HV-TEST-14


def test_14_attack_arithmetic():
    """HV-TEST-14: consume bonus, poison, ranged attack on an adjacent target (disadvantage),
    shield, x2 reshuffle at the end of the round (HV-ATK-1, HV-ATK-2, HV-ATK-3, HV-ELEM-4,
    HV-COND-2, HV-CLEAN-1, HV-AMD-3)."""
    game = new(
        {
            "phase": "turns",
            "sequence": ["conjurer"],
            "characters": {
                "conjurer": {"cell": [5, 4], "played": ["C02", "C01"], "amd": ["+1", "x2"]}
            },
            "monsters": [
                {
                    "type": "marauder",
                    "rank": "elite",
                    "standee": 3,
                    "cell": [6, 4],
                    "hp": 8,
                    "conditions": ["poison"],
                }
            ],
            "elements": {"fire": "strong"},
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED), "conjurer"))  # 73
    expect(game, "CONSUME", "conjurer", legal={YES, NO})
    play(game, ("CONSUME", YES))
    assert element(game, "fire") == "inert"  # at once
    expect(game, "ATTACK_TARGET", "conjurer", legal={HEX(6, 4), NO})
    play(game, ("ATTACK_TARGET", HEX(6, 4)))  # 42
    attack = events_of(game, "ATTACK", attacker="conjurer", target="marauder#3")
    assert len(attack) == 1
    assert attack[0].data["cards"] == ["+1", "x2"]
    assert attack[0].data["damage"] == 5  # (2 + 2 + 1) + 1 = 6 (worse than 10), minus shield 1
    assert hp(game, "marauder#3") == 3
    amd = char(game, "conjurer").amd
    assert sorted(amd.discard) == ["+1", "x2"]
    assert len(amd.draw) == 18
    # Finish the turn passively; at the end of the round the deck is reshuffled (x2 was drawn).
    drive(game, round_ended(1))
    amd = char(game, "conjurer").amd
    assert len(amd.draw) == 20
    assert amd.discard == []
