"""Add Target on area attacks (HV-AOE-11..13), step by step with positions.

The scenario is that of ``test_area_attacks`` (Raider Camp with four area cards) with Add Target 1
on three of them: the Bulwark's melee pair (B01 top), the Conjurer's ranged triangle (C01 top)
and the Marauder's melee line (MA2). Each test also plays the position without Add Target where
that shows what the rule changes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from reborn_env.core.data_files import ScenarioError
from reborn_env.games.haven.rules.engine import HavenConfig, new_game
from reborn_env.games.haven.rules.prompts import AREA_TARGET, ATTACK_TARGET
from tests.haven.helpers import (
    BOX,
    HEX,
    LEAD,
    NO,
    PRINTED,
    TOP,
    cell,
    events_of,
    expect,
    hp,
    load_text,
    mon,
    play,
    pos,
)
from tests.haven.rules.test_area_attacks import (
    EDITS,
    LINE,
    MELEE_PAIR,
    TRIANGLE,
    scenario_text,
)

MA2 = 'abilities = [{ kind = "move", value = 0 }, { kind = "attack", value = 0'
ADD_TARGET_EDITS = (
    (
        f"value = 3, area = {MELEE_PAIR} }}]",
        f"value = 3, area = {MELEE_PAIR}, add_targets = 1 }}]",
    ),
    (
        f"range = 3, area = {TRIANGLE} }}",
        f"range = 3, area = {TRIANGLE}, add_targets = 1 }}",
    ),
    (f"{MA2}, area = {LINE} }}]", f"{MA2}, area = {LINE}, add_targets = 1 }}]"),
    # HV-AOE-10/13: C01's top now poses 4 target prompts and 3 retaliations: 40 + 2 x 11
    ("max_prompts_per_agent_round = 54", "max_prompts_per_agent_round = 62"),
    ("max_agent_steps = 3024", "max_agent_steps = 3472"),
)


def scenario(folder: Path, add_target: bool = True):
    """The area scenario, with Add Target on the three cards or without it."""
    text = scenario_text(EDITS)
    for old, new in ADD_TARGET_EDITS if add_target else ():
        assert old in text, old
        text = text.replace(old, new, 1)
    return load_text(folder, "add_target" if add_target else "area", text)


def game(folder: Path, fixture: dict, add_target: bool = True):
    """A game of :func:`scenario` from ``fixture``; no damage negation (HV-DMG-3), so a monster's
    attacks resolve without a prompt."""
    config = HavenConfig(allow_damage_negation=False)
    return new_game(scenario(folder, add_target), seed=0, config=config, fixture=fixture)


# --- HV-AOE-11: data ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            '{ kind = "attack", value = 3, range = 2 }',
            '{ kind = "attack", value = 3, range = 2, add_targets = 1 }',
            "Add Target is for an attack with an area",
        ),
        (f"area = {LINE}, add_targets = 1", f"area = {LINE}, add_targets = 3", "outside 1..2"),
        (f"area = {LINE}, add_targets = 1", f"area = {LINE}, add_targets = 0", "outside 1..2"),
        (
            "max_prompts_per_agent_round = 62\nmax_agent_steps = 3472",
            "max_prompts_per_agent_round = 61\nmax_agent_steps = 3416",
            "at least 62",
        ),
    ],
)
def test_aoe_11_bad_add_target_is_refused_on_load(tmp_path, old, new, message):
    """HV-AOE-11: Add Target only on an area attack, 1 or 2 of them; HV-AOE-10/13: the declared
    prompt bound must count the added targets' prompts and retaliations."""
    text = scenario_text(EDITS)
    for before, after in ADD_TARGET_EDITS:
        text = text.replace(before, after, 1)
    assert old in text, old
    with pytest.raises(ScenarioError, match=message):
        load_text(tmp_path, "bad", text.replace(old, new, 1))


def test_aoe_11_the_cards_carry_their_added_targets(tmp_path):
    scn = scenario(tmp_path)
    bulwark = {c.id: c for c in scn.characters[0].cards}
    assert bulwark["B01"].top.abilities[0].add_targets == 1
    assert (
        scenario(tmp_path, add_target=False).characters[0].cards[0].top.abilities[0].add_targets
        == 0
    )


# --- HV-AOE-11/12: a character's added targets ---------------------------------------------------


def _bulwark_fixture() -> dict:
    """The Bulwark at (2,4) with B01 leading; marauder#1 east (3,4), marauder#2 north-east
    (2,3), slinger#1 west (1,4), slinger#2 two hexes east (4,4); the Conjurer far away."""
    return {
        "sequence": ["bulwark"],
        "characters": {
            "bulwark": {"cell": [2, 4], "played": ["B01", "B02"], "amd": ["+0", "+0", "+0"]},
            "conjurer": {"cell": [0, 0]},
        },
        "monsters": [
            mon("marauder", 1, 3, 4),
            mon("marauder", 2, 2, 3),
            mon("slinger", 1, 1, 4),
            mon("slinger", 2, 4, 4),
        ],
    }


def test_aoe_12_a_melee_area_adds_a_target_next_to_the_attacker_after_its_area(tmp_path):
    """HV-AOE-11/12: the pair north-east + east attacks the two marauders; then one
    ATTACK_TARGET prompt offers the enemies within range 1 (a melee area's) not yet attacked: the
    slinger west at (1,4), not the one 2 hexes away at (4,4). It is attacked too, with its own
    draw, after the area's two. Without Add Target the turn goes on after the area."""
    g = game(tmp_path, _bulwark_fixture())
    play(
        g, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)), (AREA_TARGET, HEX(2, 3)), (AREA_TARGET, HEX(3, 4))
    )
    expect(g, ATTACK_TARGET, "bulwark", legal={HEX(1, 4), NO})
    assert g.prompt.targets == (cell(2, 3), cell(3, 4)) and g.prompt.value == 3
    play(g, (ATTACK_TARGET, HEX(1, 4)))
    assert [e.data["target"] for e in events_of(g, "ATTACK")] == [
        "marauder#2",
        "marauder#1",
        "slinger#1",
    ]
    assert events_of(g, "AREA")[0].data["targets"] == [cell(2, 3), cell(3, 4)]
    assert hp(g, "slinger#1") == 1 and hp(g, "slinger#2") == 4
    plain = game(tmp_path, _bulwark_fixture(), add_target=False)
    play(
        plain,
        ("WINDOW_0", BOX(LEAD, TOP, PRINTED)),
        (AREA_TARGET, HEX(2, 3)),
        (AREA_TARGET, HEX(3, 4)),
    )
    assert plain.prompt.kind != ATTACK_TARGET
    assert hp(plain, "slinger#1") == 4


def test_aoe_12_no_adds_no_target_and_an_area_that_attacks_no_one_adds_none(tmp_path):
    """HV-AOE-11/12, HV-AOE-5: NO at the added target's prompt attacks only the area's enemies;
    NO at the first AREA_TARGET (no attack) asks for no added target either."""
    g = game(tmp_path, _bulwark_fixture())
    play(
        g, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)), (AREA_TARGET, HEX(2, 3)), (AREA_TARGET, HEX(3, 4))
    )
    play(g, (ATTACK_TARGET, NO))
    assert len(events_of(g, "ATTACK")) == 2 and hp(g, "slinger#1") == 4
    g = game(tmp_path, _bulwark_fixture())
    play(g, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)), (AREA_TARGET, NO))
    assert g.prompt.kind != ATTACK_TARGET and events_of(g, "ATTACK") == []


def test_aoe_11_a_ranged_area_adds_a_target_within_its_range_with_disadvantage_if_adjacent(
    tmp_path,
):
    """HV-AOE-11, HV-ATK-2: the Conjurer at (1,4) with C01's triangle (Range 3) names marauder#2
    at (3,4) alone (NO: a placement attacks just it). Its added target may be marauder#1 at (2,4)
    (adjacent) or slinger#2 at (3,6) (3 away, in range); slinger#1 at (5,4), 4 away, is out of
    range. The adjacent marauder#1 is attacked with disadvantage: two cards, the worse counts."""
    fixture = {
        "sequence": ["conjurer"],
        "characters": {
            "bulwark": {"cell": [0, 0]},
            "conjurer": {"cell": [1, 4], "played": ["C01", "C02"], "amd": ["+1", "+0", "-1"]},
        },
        "monsters": [
            mon("marauder", 1, 2, 4),
            mon("marauder", 2, 3, 4),
            mon("slinger", 1, 5, 4),
            mon("slinger", 2, 3, 6),
        ],
    }
    g = game(tmp_path, fixture)
    play(g, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)), (AREA_TARGET, HEX(3, 4)))
    expect(g, AREA_TARGET, "conjurer", legal={HEX(2, 4), NO})
    play(g, (AREA_TARGET, NO))
    expect(g, ATTACK_TARGET, "conjurer", legal={HEX(2, 4), HEX(3, 6), NO})
    play(g, (ATTACK_TARGET, HEX(2, 4)))
    attacks = [(e.data["target"], e.data["cards"]) for e in events_of(g, "ATTACK")]
    assert attacks == [("marauder#2", ["+1"]), ("marauder#1", ["+0", "-1"])]


# --- HV-AOE-13: a monster's added targets --------------------------------------------------------


def test_aoe_13_a_monster_adds_the_enemy_its_line_misses(tmp_path):
    """HV-AOE-9/13: the Marauder at (4,4) with MA2's line, the Bulwark east at (5,4), the
    Conjurer west at (3,4): no line covers both (they are 2 apart, a line's hexes are neighbours),
    so without Add Target it attacks only its focus; with it, the other is its added target,
    within range 1: both are attacked, the focus first, and the AREA event lists the focus only.
    It does not move (it attacks both from where it stands, HV-AOE-8's fewest steps)."""
    fixture = {
        "sequence": ["marauder"],
        "characters": {"bulwark": {"cell": [5, 4]}, "conjurer": {"cell": [3, 4]}},
        "monsters": [mon("marauder", 1, 4, 4)],
        "monster_cards": {"marauder": "MA2"},
        "monster_amd": ["+0", "+0"],
    }
    g = game(tmp_path, fixture)
    assert pos(g, "marauder#1") == cell(4, 4) and events_of(g, "MOVE") == []
    (area,) = events_of(g, "AREA")
    focus = area.data["targets"]
    assert len(focus) == 1
    targets = [e.data["target"] for e in events_of(g, "ATTACK")]
    assert sorted(targets) == ["bulwark", "conjurer"]
    assert {"bulwark": cell(5, 4), "conjurer": cell(3, 4)}[targets[0]] == focus[0]
    assert len(events_of(game(tmp_path, fixture, add_target=False), "ATTACK")) == 1


def test_aoe_13_a_monster_moves_where_its_added_target_can_be_reached(tmp_path):
    """HV-AI-4, HV-AOE-8/13: the Marauder at (7,4) (MA2: Move 2 and the line), the Conjurer at
    (5,5), the Bulwark at (4,4). Both can be attacked from (6,4), 1 step, but the Conjurer is
    nearer (range 2 against 3): it is the focus. No hex lets the line cover both (they are 2
    apart), so without Add Target it takes the fewest steps, to (6,4), and attacks the Conjurer
    alone. With it, from (5,4) (2 steps) the line south-east covers the Conjurer and the Bulwark
    west of it is an added target within range 1: one more enemy attacked, so it walks there and
    attacks both, the focus first."""
    fixture = {
        "sequence": ["marauder"],
        "characters": {"bulwark": {"cell": [4, 4]}, "conjurer": {"cell": [5, 5]}},
        "monsters": [mon("marauder", 1, 7, 4)],
        "monster_cards": {"marauder": "MA2"},
        "monster_amd": ["+0", "+0"],
    }
    plain, g = game(tmp_path, fixture, add_target=False), game(tmp_path, fixture)
    assert pos(plain, "marauder#1") == cell(6, 4)
    assert [e.data["target"] for e in events_of(plain, "ATTACK")] == ["conjurer"]
    assert pos(g, "marauder#1") == cell(5, 4)
    assert [e.data["target"] for e in events_of(g, "ATTACK")] == ["conjurer", "bulwark"]
    assert events_of(g, "AREA")[0].data["targets"] == [cell(5, 5)]
