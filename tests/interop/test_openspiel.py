"""Every registered game through the OpenSpiel bridge (``reborn_env.interop.openspiel``):
OpenSpiel's own random-simulation test, its Python ISMCTS, exact and independent clones, the
declared facts, the same play as the PettingZoo env, and Shimmy's PettingZoo wrapper over the
bridged game.

Games come from the registry (the test games of tests/games/ included); none is named here.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pyspiel  # the interop extra, which the test extra includes: a missing one fails here
import pytest
from open_spiel.python.algorithms import ismcts, mcts
from pettingzoo.test import api_test

from reborn_env.core import registry
from reborn_env.core.contract import TRUNCATED
from reborn_env.core.errors import IllegalActionError, PositionError
from reborn_env.core.facts import Chance, GameFacts, Information, Kind
from reborn_env.core.public_view import offers_views
from reborn_env.interop import openspiel as bridge

GAMES = registry.names()
WITH_VIEWS = [name for name in GAMES if offers_views(name)]
WITHOUT_VIEWS = [name for name in GAMES if not offers_views(name)]
TYPE = pyspiel.GameType
# each fact as OpenSpiel names it, written out here so that the bridge's own tables are checked
CHANCE_MODES = {
    Chance.DETERMINISTIC: TYPE.ChanceMode.DETERMINISTIC,
    Chance.SAMPLED_STOCHASTIC: TYPE.ChanceMode.SAMPLED_STOCHASTIC,
}
INFORMATION = {
    Information.PERFECT: TYPE.Information.PERFECT_INFORMATION,
    Information.IMPERFECT: TYPE.Information.IMPERFECT_INFORMATION,
}
UTILITIES = {Kind.ZERO_SUM: TYPE.Utility.ZERO_SUM, Kind.IDENTICAL: TYPE.Utility.IDENTICAL}


def load(name: str, **params: object) -> pyspiel.Game:
    """The bridged game ``name`` (seeded: every run deals the same games)."""
    return pyspiel.load_game(bridge.short_name(name), {"seed": 11, **params})


def rules_of(name: str, scenario: str = "") -> object:
    spec = registry.get(name)
    return (spec.make_env(scenario=scenario) if scenario else spec.make_env()).unwrapped.rules


def play_random(state: pyspiel.State, rng: np.random.Generator, steps: int) -> list[int]:
    """Up to ``steps`` uniformly random legal actions (fewer if the game ends); the actions."""
    played = []
    while not state.is_terminal() and len(played) < steps:
        action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        played.append(action)
    return played


def test_every_registered_game_is_bridged() -> None:
    assert bridge.registered() == {name: bridge.short_name(name) for name in GAMES}
    registered = set(pyspiel.registered_names())
    assert {bridge.short_name(name) for name in GAMES} <= registered


@pytest.mark.parametrize("name", GAMES)
def test_game_type_and_info_are_the_registrys_facts(name: str) -> None:
    spec = registry.get(name)
    game = load(name)
    kind, rules = game.get_type(), rules_of(name)
    players = len(rules.agents)
    assert kind.short_name == f"python_reborn_{name}"
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == CHANCE_MODES[spec.facts.chance]
    assert kind.information == INFORMATION[spec.facts.information]
    assert kind.utility == UTILITIES[spec.facts.kind]
    assert game.utility_sum() == (0.0 if spec.facts.kind is Kind.ZERO_SUM else None)
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert kind.min_num_players == kind.max_num_players == game.num_players() == players
    assert kind.provides_observation_tensor and kind.provides_observation_string
    assert not kind.provides_information_state_tensor
    assert not kind.provides_information_state_string
    scenario = {"scenario": spec.default_scenario} if spec.scenarios else {}
    assert kind.parameter_specification == {"seed": -1, **scenario}
    assert game.num_distinct_actions() == rules.n_actions
    assert game.max_chance_outcomes() == 0
    assert game.min_utility() == spec.facts.min_utility
    assert game.max_utility() == spec.facts.max_utility
    assert game.max_game_length() == spec.decision_bound(rules) > 0
    assert game.observation_tensor_shape() == [rules.obs_size]


def test_every_fact_the_bridge_declares_is_read_from_the_facts() -> None:
    """A game whose facts differ from every shipped game's in each field (a deterministic team
    game of perfect information, another utility range and length bound) is declared as its facts
    say, not as the shipped games are."""
    shipped = registry.get(GAMES[0])
    facts = GameFacts(
        kind=Kind.IDENTICAL,
        chance=Chance.DETERMINISTIC,
        information=Information.PERFECT,
        min_utility=-3.0,
        max_utility=5.0,
        max_game_length=7,
    )
    spec = replace(shipped, name="facts_probe_v0", facts=facts)
    registry.register(spec)
    try:
        kind, info = bridge.game_type(spec), bridge.game_info(spec, rules_of(shipped.name))
    finally:
        registry.unregister(spec.name)
    assert kind.chance_mode == TYPE.ChanceMode.DETERMINISTIC
    assert kind.information == TYPE.Information.PERFECT_INFORMATION
    assert kind.utility == TYPE.Utility.IDENTICAL
    assert (info.min_utility, info.max_utility, info.utility_sum) == (-3.0, 5.0, None)
    assert info.max_game_length == 7


@pytest.mark.parametrize("name", GAMES)
def test_each_scenario_has_its_own_length_bound_and_sizes(name: str) -> None:
    spec = registry.get(name)
    for scenario in spec.scenario_names():
        game = load(name, scenario=scenario)
        rules = rules_of(name, scenario)
        assert game.max_game_length() == spec.decision_bound(rules)
        assert game.observation_tensor_shape() == [rules.obs_size]
        assert game.get_parameters()["scenario"] == scenario


@pytest.mark.parametrize("name", GAMES)
def test_bad_parameters_are_refused_naming_what_is_allowed(name: str) -> None:
    short = bridge.short_name(name)
    with pytest.raises(Exception, match="[Uu]nknown parameter.*(known|Available)"):
        pyspiel.load_game(short, {"colour": "blue"})
    with pytest.raises(ValueError, match="unknown parameters.*known"):
        type(load(name))({"colour": "blue"})  # the game's class, built without OpenSpiel's check
    with pytest.raises(Exception, match="seed must be"):
        pyspiel.load_game(short, {"seed": -5})
    if registry.get(name).scenarios:
        with pytest.raises(Exception, match="is not one of"):
            pyspiel.load_game(short, {"scenario": "no_such_scenario"})


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_random_sim_test_passes(name: str) -> None:
    """OpenSpiel's own checks over whole random games: sorted legal actions, unique action
    strings, clones equal, observations finite and sized, returns within the utility range and
    summing as the utility says, every game within max_game_length."""
    pyspiel.random_sim_test(load(name), num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize("name", GAMES)
def test_play_through_the_bridge_is_the_envs_play(name: str) -> None:
    """The same seed, the same actions: the observation tensor of every seat, the legal actions
    and the returns are the PettingZoo env's."""
    game = load(name)
    state = game.new_initial_state()
    env = registry.get(name).make_env()
    env.reset(seed=int(np.random.default_rng(11).integers(bridge.SEED_RANGE)))
    agents = env.possible_agents
    rng = np.random.default_rng(1)
    while not state.is_terminal():
        seat = state.current_player()
        assert env.agent_selection == agents[seat]
        for p, agent in enumerate(agents):
            seen = env.observe(agent)
            np.testing.assert_array_equal(state.observation_tensor(p), seen["observation"])
        mask = env.observe(agents[seat])["action_mask"]
        assert state.legal_actions() == np.flatnonzero(mask).tolist()
        action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        env.step(action)
    assert all(env.terminations[a] or env.truncations[a] for a in agents)
    assert state.returns() == [env.rewards[a] for a in agents]


@pytest.mark.parametrize("name", GAMES)
def test_clone_is_exact_and_independent(name: str) -> None:
    """A clone is the same game (position, observations, picture); the same actions then give
    the same observations and returns, and playing one leaves the other as it was."""
    game = load(name)
    state = game.new_initial_state()
    play_random(state, np.random.default_rng(2), 20)
    clone = state.clone()
    assert clone.position() == state.position()
    assert str(clone) == str(state)
    before = state.position()
    play_random(clone, np.random.default_rng(3), 5)
    assert state.position() == before  # playing the clone did not move the original
    clone = state.clone()
    rng = np.random.default_rng(4)
    while not state.is_terminal():
        action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        clone.apply_action(action)
        for p in range(game.num_players()):
            assert clone.observation_tensor(p) == state.observation_tensor(p)
            assert clone.observation_string(p) == state.observation_string(p)
        assert clone.returns() == state.returns()
    assert clone.is_terminal() and clone.position() == state.position()


@pytest.mark.parametrize("name", GAMES)
def test_a_new_state_and_its_clone_deal_the_same_game_and_draw_no_seed(name: str) -> None:
    """States deal on first use: a clone of an unused state is that game, and cloning takes no
    seed from the game's stream (the next state is the one an unseeded run would deal)."""
    game, twin = load(name), load(name)
    state = game.new_initial_state()
    clone = state.clone()
    assert clone.position() == state.position()
    twin.new_initial_state().position()  # the twin's first game, dealt without a clone
    assert game.new_initial_state().position() == twin.new_initial_state().position()


@pytest.mark.parametrize("name", GAMES)
def test_a_seed_repeats_its_games_and_minus_one_draws_fresh_ones(name: str) -> None:
    """``seed`` >= 0: the n-th state of two loads is the same game; -1: random seeds."""
    first, second = load(name), load(name)
    assert [first.new_initial_state().position() for _ in range(3)] == [
        second.new_initial_state().position() for _ in range(3)
    ]
    unseeded = pyspiel.load_game(bridge.short_name(name))
    deals = {repr(unseeded.new_initial_state().position()) for _ in range(20)}
    assert len(deals) > 1


@pytest.mark.parametrize("name", GAMES)
def test_a_state_restored_from_its_position_plays_on_alike(name: str) -> None:
    game = load(name)
    state = game.new_initial_state()
    play_random(state, np.random.default_rng(9), 10)
    restored = game.state_at(state.position())
    assert restored.position() == state.position()
    assert restored.legal_actions() == state.legal_actions()
    assert restored.observation_tensor(0) == state.observation_tensor(0)
    with pytest.raises(PositionError):
        game.state_at({**state.position(), "format": "not a position"})


@pytest.mark.parametrize("name", GAMES)
def test_an_illegal_action_is_refused_and_changes_nothing(name: str) -> None:
    state = load(name).new_initial_state()
    before = state.position()
    size = state.num_distinct_actions()
    in_range = [a for a in range(size) if a not in state.legal_actions()][:1]
    for illegal in [*in_range, size, -2]:
        with pytest.raises(IllegalActionError, match="legal"):
            state.apply_action(illegal)
        assert state.position() == before
        assert state.history() == []


@pytest.mark.parametrize("name", GAMES)
def test_a_truncated_match_is_terminal_with_its_truncation_rewards(name: str) -> None:
    """OpenSpiel has no truncation: a match that reports TRUNCATED is terminal, nobody moves,
    and the returns are the match's final rewards."""
    game = load(name)
    match = game.new_initial_state().clone()._held.match

    class Truncated:  # the real match, reporting the step limit reached
        def __getattr__(self, attribute: str) -> object:
            return getattr(match, attribute)

        def status(self) -> str:
            return TRUNCATED

    state = bridge.RebornState(game, Truncated())
    assert state.is_terminal() and state.is_truncated()
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.legal_actions() == []
    assert state.returns() == [float(r) for r in match.final_rewards()]
    assert not load(name).new_initial_state().is_truncated()


@pytest.mark.parametrize("name", GAMES)
def test_a_perfect_recall_observer_is_refused(name: str) -> None:
    game = load(name)
    with pytest.raises(ValueError, match="not a perfect-recall information state"):
        game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    observer = game.make_py_observer()
    state = game.new_initial_state()
    observer.set_from(state, 0)
    np.testing.assert_array_equal(observer.tensor, state.observation_tensor(0))


@pytest.mark.parametrize("name", WITH_VIEWS)
def test_openspiel_ismcts_plays_whole_games(name: str) -> None:
    """OpenSpiel's Python ISMCTS for seat 0 (its root samples dealt by the game's determinizer,
    each checked by ISMCTS to give the same observation string; a random rollout from each new
    node, which clones the state), random play for the others."""
    game = load(name)
    rng = np.random.default_rng(5)
    for _ in range(2):
        bot = ismcts.ISMCTSBot(
            game,
            mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(6)),
            uct_c=1.4,
            max_simulations=3,
            use_observation_string=True,
            random_state=np.random.RandomState(6),
        )
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == 0:
                action = bot.step(state)
                assert action in state.legal_actions()
            else:
                action = int(rng.choice(state.legal_actions()))
            state.apply_action(action)
        assert game.min_utility() <= state.returns()[0] <= game.max_utility()


@pytest.mark.parametrize("name", WITH_VIEWS)
def test_resampling_keeps_the_players_view_and_deals_the_rest_anew(name: str) -> None:
    game = load(name)
    state = game.new_initial_state()
    play_random(state, np.random.default_rng(7), 4)
    if state.is_terminal():
        state = game.new_initial_state()
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(8, 0.0, 1.0)
    positions = set()
    for _ in range(8):
        sample = state.resample_from_infostate(seat, sampler)
        assert sample.current_player() == seat
        assert sample.legal_actions() == state.legal_actions()
        assert sample.observation_tensor(seat) == state.observation_tensor(seat)
        positions.add(repr(sample.position()))
    assert len(positions) > 1  # the hidden part is dealt anew


@pytest.mark.parametrize("name", WITHOUT_VIEWS)
def test_resampling_a_game_without_a_determinizer_is_refused(name: str) -> None:
    state = load(name).new_initial_state()
    with pytest.raises(ValueError, match="determinizer"):
        state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(1, 0.0, 1.0))


@pytest.mark.parametrize("name", GAMES)
def test_shimmy_wrapper_over_the_bridge_passes_pettingzoo_api_test(name: str) -> None:
    from shimmy import OpenSpielCompatibilityV0  # the interop extra

    api_test(OpenSpielCompatibilityV0(env=load(name)), num_cycles=60, verbose_progress=False)
