"""The position contract on every registered game: a position restores the game exactly, and a
position that is not one is refused with PositionError, the game in progress unchanged.

- Along random games (uniform and the game's eventful play), before every decision, the position
  goes through JSON into a twin environment, which must be the same game (the same position saved
  again, the same agent to move, observations and masks) and stay so after the same action; at
  the end a restored position is the finished game, with the rewards the end paid. Positions
  saved along play and given to ``reset(options={"position": ...})`` are the game itself too.
- Mutated real positions (:mod:`reborn_env.core.position_fuzz`: retyped, nudged, deleted, moved,
  swapped fields ...) are refused with PositionError naming what is wrong, the game in progress
  unchanged and no reference kept to the caller's data; one the game accepts must be a game that
  plays to its end with the game's per-step check.
"""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

from reborn_env.bots.base import RandomBot
from reborn_env.core import registry
from reborn_env.core.errors import PositionError
from reborn_env.core.fuzz import uniform_policy
from reborn_env.core.position_fuzz import collect_positions, fuzz_positions
from reborn_env.core.round_trip import check_restores, check_same_step

from .harness import CASES, GAMES, Case, play_for, policies, required, snapshot

SEEDS = range(3)
MUTATIONS = 200


@pytest.mark.parametrize("case", CASES, ids=str)
@pytest.mark.parametrize("policy", ["uniform", "busy"])
def test_a_position_restores_the_game_at_every_decision(case: Case, policy: str) -> None:
    choose = policies(case.name)[policy]
    for seed in SEEDS:
        env, twin = case.make_env(), case.make_env()
        env.reset(seed=seed)
        twin.reset(seed=seed + 1)
        rng = np.random.default_rng(seed)
        returns = dict.fromkeys(env.possible_agents, 0.0)
        ended = False
        for agent in env.agent_iter():
            _, reward, terminated, truncated, _ = env.last()
            returns[agent] += reward
            if terminated or truncated:
                if not ended:
                    _check_the_end(env, twin)
                    ended = True
                env.step(None)
                continue
            check_restores(env, twin)
            action = choose(rng, env.observe(agent)["action_mask"], env)
            check_same_step(env, twin, action)
        match = env.unwrapped.match
        final = match.final_rewards()
        assert returns == {a: final[i] for i, a in enumerate(env.possible_agents)}, (
            "the returns are not the match's final rewards (no shaping by default)"
        )


@pytest.mark.parametrize("case", CASES, ids=str)
def test_reset_to_a_saved_position_is_the_game_it_was_saved_from(case: Case) -> None:
    """Positions saved along play and given to ``reset(options={"position": ...})`` (as
    front-ends and the bot protocol start games) load the game itself: the loaded game saves
    the very position it was given, every seat sees the same and is offered the same, and the
    two play on alike (:func:`check_same_step`) until the next saved position replaces it."""
    env, loaded = case.make_env(), case.make_env()
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    decisions = loads = 0
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        if decisions % 5 == 0:
            position = json.loads(json.dumps(env.unwrapped.get_state()))
            loaded.reset(seed=0, options={"position": copy.deepcopy(position)})
            assert loaded.unwrapped.get_state() == position
            assert loaded.agent_selection == env.agent_selection
            loads += 1
        for seat in env.agents:
            for key, value in env.observe(seat).items():
                assert loaded.observe(seat)[key].tobytes() == value.tobytes(), (seat, key)
        check_same_step(env, loaded, uniform_policy(rng, env.observe(agent)["action_mask"], env))
        decisions += 1
    assert loads > 0


def _check_the_end(env, twin) -> None:
    """A finished game's position restores a finished game: every agent done, the same
    observations, the same rewards of the end."""
    position = env.unwrapped.get_state()
    twin.unwrapped.set_state(json.loads(json.dumps(position)))
    assert twin.unwrapped.get_state() == position
    assert twin.unwrapped.match.status() == env.unwrapped.match.status()
    assert all(twin.terminations[a] or twin.truncations[a] for a in twin.agents)
    assert twin.rewards == env.rewards
    for agent in env.agents:
        assert env.observe(agent)["observation"].tobytes() == (
            twin.observe(agent)["observation"].tobytes()
        )


@pytest.mark.parametrize("case", CASES, ids=str)
def test_a_mutated_position_is_refused_or_is_a_game(case: Case) -> None:
    check = required(case.name, "step_check")
    positions = collect_positions(
        case.make_env,
        lambda game: {a: RandomBot(seed=game) for a in case.make_env().possible_agents},
        games=2,
        per_game=4,
    )
    report = fuzz_positions(
        case.make_env, positions, MUTATIONS, lambda env: check(env, env.agent_selection)
    )
    assert report.crashes == [], "\n".join(report.crashes[:5])
    assert report.refused > 0, "no mutation was refused: the test cannot fail"


NOT_POSITIONS = [None, 0, "position", [], {}, {"format": "chess"}, [{"format": "chess"}]]


@pytest.mark.parametrize("name", GAMES)
def test_what_is_not_a_position_is_refused_and_the_game_goes_on(name: str) -> None:
    """set_state and reset(options={"position": ...}) refuse it with PositionError naming what
    is wrong; the game in progress, rewards and observations included, stays as it was."""
    env = registry.get(name).make_env()
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    play_for(env, rng, 3)
    before = snapshot(env)
    for bad in NOT_POSITIONS:
        with pytest.raises(PositionError) as refused:
            env.unwrapped.set_state(copy.deepcopy(bad))
        assert "position" in str(refused.value)
        assert snapshot(env) == before
        if bad is not None:  # reset's position None is no position: a new game from the seed
            with pytest.raises(PositionError):
                env.reset(seed=1, options={"position": copy.deepcopy(bad)})
            assert snapshot(env) == before
