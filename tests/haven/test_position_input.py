"""haven positions and fixtures as input: every bad value a PositionError naming the
field, nothing accepted that the engine could not continue from, every saved position loads.

A position (docs/haven_position_format.md) is the last quiet point plus the answers since; the
loader checks types, ranges, unknown and missing keys, card conservation and every cross-field
rule of a quiet point (picks and played cards against the slot, HV-BOX-8; exhaustion, HV-EXH-3;
the round bound of 15.10; decks against the phase, HV-MCARD-1), then replays the answers.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from reborn_env import haven_v0
from reborn_env.bots.loading import load_bot
from reborn_env.core.errors import PositionError
from reborn_env.games.haven.invariants import check_invariants
from reborn_env.games.haven.position_rules import rounds_left
from reborn_env.games.haven.rules.engine import HavenGame, new_game

DOC = Path(__file__).resolve().parents[2] / "docs" / "haven_position_format.md"
FAR_MARAUDER = {"type": "marauder", "standee": 1, "cell": [8, 6]}

# Round 2, the Bulwark's slot next (B01, B02 still played), the Conjurer's Wisp on the map, a
# coin, the treasure, a strong element, scripted short-rest picks: most fields hold something.
RICH_FIXTURE = {
    "round": 2,
    "sequence": ["bulwark", "summon:1", "conjurer", "marauder"],
    "characters": {
        "bulwark": {"cell": [2, 2], "played": ["B01", "B02"], "discard": ["B05", "B06"]},
        "conjurer": {"cell": [1, 4], "played": ["C02", "C05"], "lost": ["C04"]},
    },
    "summons": [{"owner": "conjurer", "cell": [2, 4], "hp": 3, "summoned_round": 1}],
    "monsters": [{"type": "marauder", "standee": 1, "cell": [4, 2], "conditions": ["muddle"]}],
    "monster_cards": {"marauder": "MA2"},
    "coins": [[5, 0]],
    "treasures": [{"number": 1, "cell": [8, 0]}],
    "elements": {"fire": "strong"},
    "short_rest_picks": {"bulwark": ["B05"]},
}


def rich_position() -> dict[str, Any]:
    """RICH_FIXTURE's position after the Bulwark's first answer (so ``answers`` is not empty)."""
    game = new_game(seed=3, fixture=RICH_FIXTURE)
    game.apply(game.legal_actions()[0])
    return game.to_position()


def with_value(position: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """A copy of ``position`` with the field at dotted ``path`` (``a.b[0].c``) set to ``value``."""
    data = copy.deepcopy(position)
    keys = [int(k) if k.isdigit() else k for k in re.findall(r"[^.\[\]]+", path)]
    node = data
    for key in keys[:-1]:
        node = node[key]
    node[keys[-1]] = value
    return data


def dict_paths(node: Any, path: str = "") -> list[str]:
    """The dotted path of every JSON object in ``node`` (the root is '')."""
    if isinstance(node, list):
        return [p for i, child in enumerate(node) for p in dict_paths(child, f"{path}[{i}]")]
    if not isinstance(node, dict):
        return []
    found = [path]
    for key, child in node.items():
        found += dict_paths(child, f"{path}.{key}" if path else key)
    return found


def refused(data: Any, match: str) -> None:
    with pytest.raises(PositionError, match=match):
        HavenGame.from_position(data)


def nested(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


# --- the picks, lost cards, the round bound, exhaustion -------------------------------------------


def test_picks_neither_played_nor_in_hand_are_refused():
    """HV-SEL-1, HV-BOX-8: before its slot a character still holds both picks in ``played``;
    picks already in the discard would make its turn fail (``list.remove``) a few steps later."""
    data = new_game(seed=0, fixture=RICH_FIXTURE).to_position()
    bulwark = data["state"]["characters"][0]
    bulwark["played"] = []
    bulwark["discard"] += ["B01", "B02"]
    refused(data, r"characters\[0\]\.played.*both picks are still played")


@pytest.mark.parametrize(
    ("phase", "edit", "match"),
    [
        # HV-SEL-1: at a round's start nothing is played; selection would overwrite the two cards
        ("select", lambda s: _play_at_round_start(s), r"characters\[0\]\.lead"),
        # HV-BOX-8: after its slot the played cards have moved; the next selection would drop them
        ("cleanup", lambda s: s.update(slot=len(s["sequence"])), r"characters\[0\]\.played"),
        # HV-MCARD-1: no current ability card before the reveal, the next draw would replace it
        ("select", lambda s: _current_at_round_start(s), r"monster_decks\.marauder\.current"),
        # HV-BOX-9: a round bonus goes back to the discard, a persistent card to lost
        ("turns", lambda s: _active_fate(s, "lost"), r"characters\[1\]\.active_fate"),
        # HV-ABL-7: a persistent card stays active only while its summon is on the map
        ("turns", lambda s: s.update(summons=[]), r"characters\[1\]\.persistent"),
    ],
)
def test_positions_that_would_lose_or_strand_cards_are_refused(phase, edit, match):
    """Each class card in exactly one zone is not enough: the zone must fit the phase, or the
    rules later drop the card (select overwrites ``played``, a draw overwrites ``current``)."""
    fixture = {**RICH_FIXTURE, "phase": phase} if phase == "select" else RICH_FIXTURE
    if phase == "select":
        fixture = {k: v for k, v in fixture.items() if k not in ("sequence", "monster_cards")}
        fixture["characters"] = {"bulwark": {"cell": [2, 2]}, "conjurer": {"cell": [1, 4]}}
        fixture["elements"] = {}
    data = new_game(seed=0, fixture=fixture).to_position()
    edit(data["state"])
    refused(data, match)


def _play_at_round_start(state: dict[str, Any]) -> None:
    bulwark = state["characters"][0]
    bulwark["hand"].remove("B01")
    bulwark["hand"].remove("B02")
    bulwark.update(lead="B01", second="B02", played=["B01", "B02"])


def _current_at_round_start(state: dict[str, Any]) -> None:
    deck = state["monster_decks"]["marauder"]
    deck["current"] = deck["draw"].pop(0)


def _active_fate(state: dict[str, Any], fate: str) -> None:
    conjurer = state["characters"][1]
    conjurer["active_fate"] = {card: fate for card in conjurer["active_fate"]} | {"C03": "discard"}


def test_a_fixture_moves_the_played_cards_of_done_slots_to_the_discard():
    """HV-API-10, HV-BOX-8: slots before ``next`` count as done, so their played cards have
    moved (to the discard); kept in ``played``, the next selection would drop them."""
    game = new_game(seed=0, fixture={**RICH_FIXTURE, "next": 1})
    assert game.state.characters[0].played == []  # the fixture moved them (HV-BOX-8)
    assert {0, 1} <= set(game.state.characters[0].discard)


def test_a_round_past_the_15_10_bound_is_refused():
    """15.10: no content returns a lost card, so a game ends by round 29 from setup (30 with a
    fixture's character sitting a round out); HV-END-4 caps rounds at 30 and at max_rounds. A
    position past the cap, past max_rounds, or with more cards than leave time to be exhausted
    by the cap (when max_rounds would not end the game) is refused."""
    data = new_game(seed=0).to_position()
    refused(with_value(data, "state.round", 31), r"'round': 31 is outside 1\.\.30")
    data["config"]["max_rounds"] = 3
    refused(with_value(data, "state.round", 4), r"'round': HV-END-4")
    data["config"]["max_rounds"] = 100
    refused(with_value(data, "state.round", 3), r"characters\[0\]\.hand': 15\.10")
    assert HavenGame.from_position(data).state.round == 1  # 9 cards: exhausted by round 29
    assert rounds_left(9, 0) == 28 and rounds_left(8, 0) == 23  # 15.10's exhaustive search


def test_an_exhausted_character_holding_cards_is_refused():
    """HV-EXH-3: exhaustion moves every card of the character to lost and takes it off the map."""
    data = new_game(seed=0).to_position()
    bulwark = data["state"]["characters"][0]
    bulwark.update(exhausted=True, cell=None, hp=0)
    refused(data, r"characters\[0\]\.lost.*HV-EXH-3")
    bulwark["lost"], bulwark["hand"] = bulwark["hand"], []
    assert HavenGame.from_position(data).state.characters[0].exhausted


# --- its own positions are all accepted -----------------------------------------------------------


def test_a_fixture_game_saves_positions_it_accepts_at_every_decision():
    """A fixture whose earlier slots are done (``next``) used to keep their played cards: the
    next round's start was saved by get_state() and refused by set_state() ("only this round's
    picks can be played"), and played on, the selection dropped the cards."""
    fixture = {
        "sequence": ["bulwark", "conjurer", "marauder"],
        "next": 2,
        "characters": {
            "bulwark": {"cell": [3, 4], "played": ["B01", "B02"]},
            "conjurer": {"cell": [3, 5], "played": ["C01", "C02"]},
        },
        "monsters": [{"type": "marauder", "standee": 1, "cell": [5, 5]}],
        "monster_cards": {"marauder": "MA2"},
    }
    game = new_game(seed=0, fixture=fixture)
    for _ in range(60):
        if game.prompt is None:
            break
        position = json.loads(json.dumps(game.to_position()))
        game = HavenGame.from_position(position)
        assert game.to_position() == position
        check_invariants(game)
        game.apply(game.legal_actions()[-1])
    assert game.state.round >= 2


@pytest.mark.parametrize(
    ("players", "config"),
    [
        ("heuristic", {"reveal_second_card_at_turn": True}),
        ("random", {"auto_forced": False}),
        ("heuristic", {"allow_damage_negation": False, "max_rounds": 4}),
    ],
)
def test_every_decision_round_trips_with_the_same_observation_and_mask(players, config):
    """set_state(get_state()) at every decision: the same position saved again, the same
    observation and mask for both agents, the same agent to move (16.5, 16.8 options too)."""
    env, twin = haven_v0.env(**config), haven_v0.env(**config)
    env.reset(seed=11)
    bots = {a: load_bot(players, "haven_v0", seed=i) for i, a in enumerate(env.possible_agents)}
    for agent in env.agent_iter():
        observation, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        position = env.unwrapped.get_state()
        twin.unwrapped.set_state(json.loads(json.dumps(position)))
        assert twin.unwrapped.get_state() == position
        assert twin.agent_selection == agent
        for who in env.possible_agents:
            mine, theirs = env.observe(who), twin.observe(who)
            assert np.array_equal(mine["observation"], theirs["observation"])
            assert np.array_equal(mine["action_mask"], theirs["action_mask"])
        env.step(bots[agent].act(observation["observation"], observation["action_mask"]))


# --- any JSON value anywhere is a PositionError ---------------------------------------------------


@pytest.mark.parametrize(
    ("path", "value"),
    [
        ("state.characters[0].hand", 5),
        ("state.characters[0].conditions", [["wound"]]),
        ("state.monsters[0].conditions", [{"a": 1}]),
        ("state.characters[0].amd.draw", [[]]),
        ("state.monster_amd.discard", [{}]),
        ("state.monster_decks.marauder.draw", [["MA1"]]),
        ("state.scripted_picks", []),
        ("state.scripted_picks.bulwark", "B05"),
        ("state.characters[0].active_fate", []),
        ("state.characters[1].active_fate", {"C03": ["lost"]}),
        ("state.characters[0].items", {"swift_boots": [], "healing_draught": "ready"}),
        ("state.characters[0].hp", 10**5000),
        ("state.characters[0].hp", 2.5),
        ("state.characters[0].hp", float("nan")),
        ("state.characters[0].lead", ["B01"]),
        ("state.characters[0].cell", [2.0, 2]),
        ("state.summons[0].summoned_round", 1.0),
        ("state.summons[0].summon", None),
        ("state.treasures", [{"number": [1], "cell": [8, 0]}]),
        ("state.coins", [[1, 2, 3]]),
        ("state.sequence", [[1]]),
        ("state.sequence[0].index", -1),
        ("state.next_summon_number", True),
        ("state.elements", None),
        ("state.rng", "0x10"),
        ("state.rng", "f" * 18),
        ("state.characters[0].conditions", nested(10_000)),
        ("state", nested(50)),
        ("config", {"max_rounds": "3"}),
        ("config.max_rounds", 10**40),
        ("answers", None),
        ("answers", [None]),
        ("answers", [10**5000]),
        ("answers", [0.5]),
        ("answers", list(range(200))),
    ],
    ids=lambda v: v if isinstance(v, str) else type(v).__name__,
)
def test_a_bad_value_anywhere_is_a_position_error(path, value):
    """No TypeError, KeyError, AttributeError, ValueError, RecursionError: whatever JSON value a
    field holds, the loader names the field (and a Python caller's odd values too)."""
    data = with_value(rich_position(), path, value)
    with pytest.raises(PositionError) as err:
        HavenGame.from_position(data)
    assert len(str(err.value)) < 400


@pytest.mark.parametrize(
    "data",
    [[], "x", None, {1: "a"}, {"format": {"a": 1}}, nested(10**4)],
    ids=["list", "str", "null", "int-key", "format-object", "deep"],
)
def test_a_position_that_is_not_an_object_is_a_position_error(data):
    with pytest.raises(PositionError):
        HavenGame.from_position(data)


# --- unknown keys ---------------------------------------------------------------------------------


@pytest.mark.parametrize("path", dict_paths(rich_position()))
def test_an_unknown_key_is_refused_at_every_level(path):
    """A misspelt key is an error naming it, in every object of a position."""
    data = rich_position()
    node = data
    for key in re.findall(r"[^.\[\]]+", path):
        node = node[int(key) if key.isdigit() else key]
    node["colour"] = "red"
    refused(data, "colour")


def test_a_missing_key_is_refused_at_every_level():
    """Every key of every object is required (positions are written whole)."""
    position = rich_position()
    for path in dict_paths(position):
        node = position
        for key in re.findall(r"[^.\[\]]+", path):
            node = node[int(key) if key.isdigit() else key]
        for key in list(node):
            if path.endswith(("scripted_picks", "active_fate")):
                continue  # their keys are the agents, the active cards listed
            data = copy.deepcopy(position)
            target = data
            for step in re.findall(r"[^.\[\]]+", path):
                target = target[int(step) if step.isdigit() else step]
            del target[key]
            with pytest.raises(PositionError, match=re.escape(key)):
                HavenGame.from_position(data)


# --- Answers --------------------------------------------------------------------------------------


def test_answers_past_the_next_quiet_point_are_refused():
    """A position holds only the answers since its quiet point: the selection answers that run
    on to the reveal belong to the next one (HV-ROUND-2)."""
    game = new_game(seed=0)
    start = game.to_position()
    answers = []
    while game.state.phase == "select" or not answers:
        answers.append(game.legal_actions()[0])
        game.apply(answers[-1])
    refused({**start, "answers": answers}, rf"answers\[{len(answers) - 1}\].*quiet point")


def test_a_refused_position_leaves_the_environment_as_it_was():
    env = haven_v0.env()
    env.reset(seed=4)
    before = env.unwrapped.get_state()
    with pytest.raises(PositionError):
        env.unwrapped.set_state(with_value(before, "state.characters[0].hand", 5))
    assert env.unwrapped.get_state() == before


# --- Fixtures -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fixture",
    [
        {"round": "3"},
        {"round": 1000},  # 15.10
        {"monsters": [5]},
        {"monsters": [{"type": "marauder"}]},
        {"characters": {"bulwark": []}},
        {"characters": {"bulwark": {"hp": 0}}},  # HV-EXH-2: alive means 1..max
        {"characters": {"bulwark": {"hp": 99}}},
        {"characters": {"bulwark": {"amd": 5}}},
        {"characters": {"bulwark": {"initiative": "14"}}},
        {"sequence": ["summon:x"]},
        {"sequence": ["bulwark", "bulwark"], "characters": {"bulwark": {"played": ["B01", "B02"]}}},
        {"elements": []},
        {"treasures": [5]},
        {"next": "1"},
        {"summons": [{"owner": "conjurer", "cell": [2, 4], "summon": "dragon"}]},
        {"monster_cards": {"marauder": ["MA1"]}},
    ],
)
def test_a_bad_fixture_is_a_position_error(fixture):
    """HV-API-10: a fixture is checked like a position; a wrong type is an error naming it."""
    with pytest.raises(PositionError):
        new_game(seed=0, fixture=fixture)


def test_the_documented_fixture_example_is_accepted_and_round_trips():
    """docs/haven_position_format.md: its fixture example sets up a game whose positions load."""
    block = DOC.read_text().split("## Fixtures", 1)[1].split("```python", 1)[1].split("```")[0]
    namespace: dict = {}
    exec(compile(block, str(DOC), "exec"), namespace)
    game = new_game(seed=7, fixture=namespace["fixture"])
    assert game.state.characters[0].hp == 7 and game.prompt is not None
    position = game.to_position()
    assert HavenGame.from_position(position).to_position() == position


# --- Invariants -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("corrupt", "rule"),
    [
        (lambda s: _activate_without_summon(s.characters[1]), "HV-ABL-7"),
        (lambda s: s.monster_decks[0].draw.pop(), "HV-STATE-4"),
        (lambda s: s.monster_amd.draw.pop(), "HV-AMD-1"),
        (lambda s: setattr(s, "win_met", True), "HV-END-1/2"),
        (lambda s: s.characters[0].played.append(s.characters[0].hand.pop()), "HV-SEL-1"),
    ],
)
def test_the_invariants_name_what_the_engine_always_keeps(corrupt, rule):
    """invariants.py checks what a position is checked for (the fuzz runs it every step)."""
    game = new_game(seed=0)
    check_invariants(game)
    corrupt(game.state)
    with pytest.raises(AssertionError, match=rule):
        check_invariants(game)


def _activate_without_summon(ch: Any) -> None:
    card = ch.hand.pop(2)  # C03, the summon card
    ch.persistent.append(card)
    ch.active_fate[card] = "lost"
