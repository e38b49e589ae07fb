"""haven positions and fixtures: exact JSON round trips and clear refusals of bad input.

A position is the last quiet point plus the answers since (reborn_env.games.haven.positions);
loading
validates the state (each class card in one zone, HP bounds, one figure per floor hex, complete
decks) and replays each answer as a legal action. HV-API-5: an illegal action changes nothing.
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys

import pytest

from reborn_env.core.errors import IllegalActionError, PositionError
from reborn_env.games.haven.fixtures import state_from_fixture
from reborn_env.games.haven.positions import dump_state
from reborn_env.games.haven.rules.engine import HavenConfig, HavenGame, new_game
from reborn_env.games.haven.rules.setup import new_state
from reborn_env.games.haven.scenario.loader import load_scenario
from tests.haven.helpers import ACTIONS, BUNDLED, FAR_MARAUDER, mon


def _played(game: HavenGame, count: int) -> HavenGame:
    """``game`` after ``count`` answers, always the first legal one."""
    for _ in range(count):
        game.apply(game.legal_actions()[0])
    return game


def test_a_position_restores_the_same_decision_and_future():
    """Saving mid-round and loading gives the same prompt, state and continuation."""
    game = _played(new_game(seed=5), 9)
    position = json.loads(json.dumps(game.to_position()))
    restored = HavenGame.from_position(position)
    assert restored.prompt == game.prompt
    assert restored.state == game.state
    for _ in range(30):
        action = game.legal_actions()[-1]
        game.apply(action)
        restored.apply(action)
    assert restored.state == game.state


def test_clone_is_independent():
    """clone(): the copy plays on without touching the original."""
    game = _played(new_game(seed=2), 3)
    before = game.to_position()
    twin = game.clone()
    _played(twin, 5)
    assert game.to_position() == before


def test_returned_positions_do_not_alias_the_game():
    """Editing a returned position (or the data loaded from) cannot change a game."""
    game = _played(new_game(seed=1), 4)
    position = game.to_position()
    position["state"]["characters"][0]["hp"] = 1
    assert game.to_position()["state"]["characters"][0]["hp"] == 10
    restored = HavenGame.from_position(game.to_position())
    data = restored.to_position()
    data["state"]["monsters"].clear()
    assert restored.state.monsters


def test_illegal_action_is_refused_and_changes_nothing():
    """HV-API-5: the error names the prompt and the legal actions; state and prompt unchanged."""
    game = new_game(seed=0)
    before = game.to_position()
    prompt = game.prompt
    with pytest.raises(IllegalActionError, match="SELECT_LEAD.*legal: CARD"):
        game.apply(ACTIONS.NO)
    for bad in (-1, 87, 3.0, "YES", True):
        with pytest.raises(IllegalActionError):
            game.apply(bad)
    assert game.prompt == prompt
    assert game.to_position() == before


def _broken(mutate) -> dict:
    data = copy.deepcopy(new_game(seed=0).to_position())
    mutate(data)
    return data


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.update(format="x"), "not a haven position"),
        (lambda d: d.update(scenario="nowhere"), "nowhere"),
        (lambda d: d["config"].update(max_rounds=0), "max_rounds"),
        (lambda d: d["config"].update(colour="red"), "unknown config keys"),
        (lambda d: d["state"]["characters"][0].update(hp=11), r"characters\[0\].hp.*1..10"),
        (lambda d: d["state"]["characters"][0]["hand"].pop(), "exactly one zone"),
        (lambda d: d["state"]["characters"][1]["discard"].append("C01"), "exactly one zone"),
        (lambda d: d["state"]["characters"][0].update(cell=[6, 2]), "wall, not floor"),
        (lambda d: d["state"]["characters"][0].update(cell=[1, 4]), "already holds"),
        (lambda d: d["state"]["characters"][0].update(cell=[9, 0]), "outside the 9 x 7 grid"),
        (lambda d: d["state"]["monsters"][0].update(hp=0), r"monsters\[0\].hp"),
        (lambda d: d["state"]["monsters"][0].update(rank="boss"), "not one of normal, elite"),
        (lambda d: d["state"]["monster_amd"]["draw"].pop(), "whole deck"),
        (lambda d: d["state"]["monster_decks"]["slinger"]["draw"].pop(), "SL1"),
        (lambda d: d["state"]["characters"][0]["conditions"].append("bless"), "bless"),
        (lambda d: d["state"]["characters"][0]["items"].update(swift_boots="lost"), "ready"),
        (lambda d: d["state"].update(phase="lunch"), "select, turns, cleanup"),
        (lambda d: d["state"].pop("round"), "'round' is missing"),
        (lambda d: d["state"].update(rng="zz"), "hexadecimal"),
        (lambda d: d.update(answers=[85]), r"answers\[0\].*not legal"),
    ],
)
def test_broken_positions_are_refused_with_the_field_named(mutate, message):
    """Every broken field gets a PositionError naming it and what is allowed."""
    with pytest.raises(PositionError, match=message):
        HavenGame.from_position(_broken(mutate))


def test_a_position_for_another_scenario_object_is_refused():
    """The position names its scenario; a game of another scenario refuses it."""
    game = new_game(seed=0)
    data = game.to_position()
    data["scenario"] = "other_camp"
    with pytest.raises(PositionError, match="other_camp"):
        HavenGame.from_position(data, game.scenario)


@pytest.mark.parametrize(
    ("fixture", "message"),
    [
        ({"colour": 1}, "unknown keys"),
        ({"characters": {"wizard": {}}}, "wizard"),
        ({"characters": {"bulwark": {"played": ["B01", "Z9"]}}}, "Z9"),
        ({"characters": {"bulwark": {"played": ["B01"]}}}, "two played cards"),
        ({"characters": {"bulwark": {"hand": ["B01"]}}}, "exactly once"),
        ({"characters": {"bulwark": {"discard": ["B01"], "lost": ["B01"]}}}, "two zones"),
        ({"monsters": [{"type": "dragon", "standee": 1, "cell": [5, 5]}]}, "dragon"),
        ({"monsters": [{"type": "marauder", "standee": 1, "cell": [1, 2]}]}, "already holds"),
        ({"monster_cards": {"marauder": "SL1"}}, "not a marauder card"),
        ({"sequence": ["marauder"]}, "no current card"),
        ({"characters": {"bulwark": {"amd": ["+5"]}}}, "not .or no longer. in the deck"),
    ],
)
def test_broken_fixtures_are_refused(fixture, message):
    """HV-API-10: a fixture that breaks the rules of a position is rejected, naming the field."""
    with pytest.raises(PositionError, match=message):
        new_game(seed=0, fixture=fixture)


def test_config_is_checked():
    """16.8: config keys are typed; a wrong value says what is allowed."""
    with pytest.raises(ValueError, match="auto_forced must be True or False"):
        HavenConfig(auto_forced=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown config keys"):
        HavenConfig.from_dict({"rounds": 3})


def test_the_haven_rules_engine_imports_no_rl_library():
    """The house rule (docs/architecture.md): the rules engine (play, positions, fixtures,
    invariants) imports no gymnasium,
    pettingzoo, torch or numpy; only the environment wraps it."""
    code = (
        "import sys; from reborn_env.games.haven import positions, fixtures, invariants; "
        "from reborn_env.games.haven.rules import engine; "
        "engine.new_game(seed=0, fixture={'phase': 'select'}).apply; "
        "rl = ('gymnasium', 'pettingzoo', 'torch', 'numpy'); "
        "print(sorted(m for m in rl if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


class _EagerGame(HavenGame):
    """The reference for lazy quiet points: a game that writes its state down at every one."""

    def _mark_quiet(self) -> None:
        self._capture_at = len(self._history)
        super()._mark_quiet()


@pytest.mark.parametrize("scenario", BUNDLED)
def test_positions_replayed_from_the_anchor_equal_positions_written_at_each_quiet_point(scenario):
    """HV-STATE-7: a position is the last quiet point and the answers since. The game writes
    down only its anchor and replays to the last quiet point when asked; asked at every decision
    of random play, or once after many, it gives what a game writing every quiet point gives."""
    scn = load_scenario(scenario)
    for seed in range(3):
        rng = random.Random(seed)
        lazy, sparse = new_game(scn, seed=seed), new_game(scn, seed=seed)
        eager = _EagerGame(scn, new_state(scn, seed), HavenConfig())
        for step in range(400):
            if lazy.prompt is None:
                break
            assert lazy.to_position() == eager.to_position()
            if step % 97 == 96:
                assert sparse.to_position() == eager.to_position()
            action = rng.choice(lazy.legal_actions())
            for game in (lazy, sparse, eager):
                game.apply(action)
        assert lazy.to_position() == sparse.to_position() == eager.to_position()


def test_a_game_changed_other_than_by_its_rules_cannot_be_saved():
    """A position is replayed from the anchor (HV-STATE-7): a state altered from outside since
    then is found out and refused with a clear error, and the game is left as it was."""
    game = _played(new_game(seed=5), 12)
    game.to_position()
    game.state.characters[0].gold += 3
    round_now = game.state.round
    while game.state.round == round_now:  # to the next round's start, a quiet point
        _played(game, 1)
    before = copy.deepcopy(game.state)
    with pytest.raises(RuntimeError, match="changed other than by its rules"):
        game.to_position()
    assert game.state == before


STUNNED_CONJURER = {  # HV-CTURN-2: the stunned conjurer's turn poses no prompt
    "phase": "turns",
    "sequence": ["conjurer"],
    "characters": {"conjurer": {"cell": [2, 4], "conditions": ["stun"], "played": ["C08", "C01"]}},
    "monsters": [FAR_MARAUDER],
}
MONSTER_FIRST = {  # a marauder far from everyone acts first, with no prompt, then the bulwark
    "phase": "turns",
    "sequence": ["marauder", "bulwark"],
    "characters": {
        "bulwark": {"cell": [2, 2], "played": ["B01", "B02"]},
        "conjurer": {"cell": [0, 6]},
    },
    "monsters": [mon("marauder", 1, 8, 6)],
    "monster_cards": {"marauder": "MA2"},
}


def test_a_stunned_characters_skipped_turn_is_in_the_saved_position():
    """HV-STATE-7, HV-CTURN-2, HV-CEND-2: the position is the *last* quiet point. The stunned
    conjurer's slot runs by itself (its cards to the discard, the stun gone) up to cleanup, so a
    game made from the fixture, or loaded from the fixture's first quiet point, saves cleanup,
    not the slot it has already played."""
    game = new_game(seed=0, fixture=STUNNED_CONJURER)
    assert game.prompt is not None and game.prompt.kind == "SHORT_REST"
    first_quiet = dump_state(game.scenario, state_from_fixture(game.scenario, 0, STUNNED_CONJURER))
    loaded = HavenGame.from_position({**game.to_position(), "state": first_quiet})
    for g in (game, loaded):
        saved = g.to_position()
        conjurer = saved["state"]["characters"][1]
        assert saved["answers"] == []
        assert saved["state"]["phase"] == g.state.phase == "cleanup"
        assert saved["state"]["slot"] == g.state.slot == 1
        assert conjurer["conditions"] == sorted(g.state.characters[1].conditions) == []
        assert conjurer["played"] == [] and conjurer["discard"] == ["C08", "C01"]
        assert saved["state"]["characters"] == dump_state(g.scenario, g.state)["characters"]
        assert HavenGame.from_position(saved).to_position() == saved


def test_a_monster_turn_before_the_first_prompt_is_in_the_saved_position():
    """HV-STATE-7, HV-MTURN-1: a monster's slot that poses no prompt is played through; the
    position is the start of the bulwark's slot, with the marauder done, not the marauder's."""
    game = new_game(seed=0, fixture=MONSTER_FIRST)
    assert game.prompt is not None and game.prompt.kind == "WINDOW_0"
    saved = game.to_position()
    assert saved["answers"] == []
    assert saved["state"]["phase"] == "turns"
    assert saved["state"]["slot"] == game.state.slot == 1
    assert [m["acted"] for m in saved["state"]["monsters"]] == [True]
    assert saved["state"]["monsters"] == dump_state(game.scenario, game.state)["monsters"]
    assert saved["state"]["monster_decks"] == dump_state(game.scenario, game.state)["monster_decks"]


@pytest.mark.parametrize("fixture", [STUNNED_CONJURER, MONSTER_FIRST])
def test_fixture_games_save_what_a_game_writing_every_quiet_point_saves(fixture):
    """HV-STATE-7: from a fixture whose first slots pose no prompt, and on through random play,
    the positions equal those of the eager reference (every quiet point written down)."""
    scn = load_scenario()
    for seed in range(2):
        rng = random.Random(seed)
        lazy = new_game(scn, seed=seed, fixture=fixture)
        eager = _EagerGame(scn, state_from_fixture(scn, seed, fixture), HavenConfig())
        for _ in range(150):
            assert lazy.to_position() == eager.to_position()
            if lazy.prompt is None:
                break
            action = rng.choice(lazy.legal_actions())
            lazy.apply(action)
            eager.apply(action)
