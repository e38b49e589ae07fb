"""haven matches and environments deep-copy and pickle, and the copy plays on exactly as the
original would, on its own.

A copy goes through the game's position (HV-STATE-7: the last quiet point and the answers since,
replayed) and carries the event log (HV-API-8), the event feed's state and the shaping (HV-API-6);
so at every later step the copy gives the same observations (16.5), masks (16.4), rewards,
infos, positions and chance events (HV-API-9: the modifier decks' generator is in the position)
as the original, whichever backend and scenario, and playing one changes nothing of the other.
"""

from __future__ import annotations

import copy
import pickle
from typing import Any

import numpy as np
import pytest

from reborn_env import haven_v0
from reborn_env.games.haven.match import HavenMatch
from reborn_env.games.haven.scenario.loader import load_scenario
from tests.haven.helpers import BUNDLED, FAR_MARAUDER, default_text, load_text

SCENARIOS = BUNDLED
BACKENDS = ("fast", "python")
CHECKPOINTS = (0, 1, 2, 5, 13, 29)  # steps after reset where copies are taken
STUNNED_CONJURER = {  # HV-CTURN-2: a slot that runs with no prompt before the first one
    "phase": "turns",
    "sequence": ["conjurer"],
    "characters": {"conjurer": {"cell": [2, 4], "conditions": ["stun"], "played": ["C08", "C01"]}},
    "monsters": [FAR_MARAUDER],
}


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test once on the compiled observer and once on the pure-Python reference."""
    monkeypatch.setenv("REBORN_ENV_BACKEND", request.param)
    return request.param


def _env(scenario: str, seed: int, fixture: dict[str, Any] | None = None) -> Any:
    """A seeded haven env with the event feed and shaping on, so infos and rewards tell all."""
    env = haven_v0.env(scenario=scenario, event_feed=True, reward_shaping=True)
    env.reset(seed=seed, options={"fixture": copy.deepcopy(fixture)} if fixture else None)
    return env


def _copies(thing: Any) -> list[Any]:
    """``thing`` deep-copied, and pickled then loaded."""
    return [copy.deepcopy(thing), pickle.loads(pickle.dumps(thing))]


def _env_view(env: Any) -> dict[str, Any]:
    """Everything an env hands out: per agent its observation, mask, reward, sums, flags and
    infos, then who is to move, the position and the event log."""
    agents = env.possible_agents
    observed = {a: env.observe(a) for a in agents}
    return {
        "observations": {a: observed[a]["observation"].tobytes() for a in agents},
        "masks": {a: observed[a]["action_mask"].tobytes() for a in agents},
        "rewards": dict(env.rewards),
        "cumulative": dict(env._cumulative_rewards),
        "terminations": dict(env.terminations),
        "truncations": dict(env.truncations),
        "infos": copy.deepcopy(env.infos),
        "agents": list(env.agents),
        "selection": env.agent_selection,
        "position": env.unwrapped.get_state(),
        "events": list(env.unwrapped.game.events),
    }


def _match_view(match: HavenMatch) -> dict[str, Any]:
    """Everything a match tells: per seat its observation and infos, then the legal answers,
    who answers, status, rewards, position and event log."""
    seats = range(len(match.rules.agents))
    return {
        "observations": [match.observe(s).tobytes() for s in seats],
        "infos": [match.infos(s) for s in seats],
        "legal": tuple(match.legal_actions()),
        "to_move": match.to_move(),
        "status": match.status(),
        "shaped": list(match.shaped_rewards() or []),
        "final": list(match.final_rewards()),
        "position": match.to_position(),
        "events": list(match.state.events),
    }


def _choose(rng: np.random.Generator, env: Any) -> int:
    """A uniformly random legal action of the agent to move."""
    mask = env.observe(env.agent_selection)["action_mask"]
    return int(rng.choice(np.flatnonzero(mask)))


def _done(env: Any) -> bool:
    selection = env.agent_selection
    return env.terminations[selection] or env.truncations[selection]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_env_copies_play_on_exactly_as_the_original(scenario: str, backend: str) -> None:
    """Copies of a whole env taken at several steps of seeded random play, some mid-selection
    (answers pending since the last quiet point), give at every later step what the original
    gives, to the end of the game."""
    for seed in (0, 1):
        env, rng = _env(scenario, seed), np.random.default_rng(seed)
        copies: list[Any] = []
        step, pending_answers = 0, 0
        while not _done(env):
            if step in CHECKPOINTS:
                pending_answers += bool(env.unwrapped.get_state()["answers"])
                copies += _copies(env)
            view = _env_view(env)
            for twin in copies:
                assert _env_view(twin) == view, f"seed {seed}, step {step}"
            action = _choose(rng, env)
            for each in (env, *copies):
                each.step(action)
            step += 1
        assert len(copies) == 2 * len(CHECKPOINTS), "the game ended before the last copy"
        assert pending_answers, "no copy was taken with answers pending after a quiet point"
        for twin in copies:
            assert _env_view(twin) == _env_view(env)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_match_copies_play_on_exactly_as_the_original(scenario: str, backend: str) -> None:
    """The same for the match the env holds, copied alone: same answers, observations, feed,
    shaping, outcome and position at every step."""
    env, rng = _env(scenario, 2), np.random.default_rng(2)
    match: HavenMatch = env.unwrapped.match
    copies: list[HavenMatch] = []
    step = 0
    while match.to_move() is not None:
        if step in CHECKPOINTS:
            copies += _copies(match)
        view = _match_view(match)
        for twin in copies:
            assert _match_view(twin) == view, f"step {step}"
        action = int(rng.choice(match.legal_actions()))
        for each in (match, *copies):
            each.apply(action)
        step += 1
    for twin in copies:
        assert _match_view(twin) == _match_view(match)


def test_a_copy_is_independent_of_its_original(backend: str) -> None:
    """Playing a copy to its end with other answers changes nothing the original tells, and the
    original then plays on as a second copy taken with the first does."""
    env, rng = _env("raider_camp", 3), np.random.default_rng(3)
    for _ in range(11):
        env.step(_choose(rng, env))
    before = _env_view(env)
    copied, loaded = _copies(env)
    assert copied.unwrapped.game.state is not env.unwrapped.game.state
    assert copied.unwrapped.game.events is not env.unwrapped.game.events
    other = np.random.default_rng(99)
    while not _done(copied):
        copied.step(_choose(other, copied))
    assert _env_view(env) == before
    while not _done(env):
        action = _choose(rng, env)
        env.step(action)
        loaded.step(action)
        assert _env_view(loaded) == _env_view(env)


def test_copies_of_a_fixture_game_and_of_a_finished_game(backend: str) -> None:
    """A game made from a fixture whose first slot runs with no prompt (its log holds that
    turn's events) copies with its log; a finished game copies as finished."""
    env = _env("raider_camp", 0, STUNNED_CONJURER)
    assert env.unwrapped.game.prompt.kind == "SHORT_REST"
    assert any(e.type == "STUN_SKIP" for e in env.unwrapped.game.events)
    for twin in _copies(env):
        assert _env_view(twin) == _env_view(env)
    rng = np.random.default_rng(0)
    while not _done(env):
        env.step(_choose(rng, env))
    for twin in _copies(env):
        assert _env_view(twin) == _env_view(env)
        assert twin.unwrapped.match.status() == env.unwrapped.match.status() != "running"


def test_copies_share_the_scenario_and_a_file_scenario_pickles_whole(tmp_path: Any) -> None:
    """A bundled scenario (section 15) pickles as its name: unpickled games read the one loaded
    object, with what is derived once per scenario; one read from a file travels whole."""
    env = _env("mire_crossing", 0)
    scenario = env.unwrapped.rules.scenario
    for twin in _copies(env):
        assert twin.unwrapped.rules.scenario is scenario
        assert twin.unwrapped.game.scenario is scenario
    edited = load_text(tmp_path, "raider_camp", default_text())
    loaded = pickle.loads(pickle.dumps(edited))
    assert loaded == edited and loaded.source == edited.source
    assert loaded is not load_scenario("raider_camp")


def test_a_shallow_copy_of_a_game_shares_no_event_log() -> None:
    """copy.copy of a game is a whole copy: answering it logs nothing in the original's log
    (HV-API-8) nor changes its position."""
    game = _env("raider_camp", 4).unwrapped.game
    shallow = copy.copy(game)
    events, position = list(game.events), game.to_position()
    assert shallow.events == events and shallow.events is not game.events
    shallow.apply(shallow.legal_actions()[0])
    assert game.events == events and game.to_position() == position
