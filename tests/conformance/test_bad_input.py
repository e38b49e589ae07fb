"""Bad input to every registered game's environment gives a clear error and changes nothing.

- An illegal action (masked, out of range, not an integer, a boolean) raises IllegalActionError
  naming the seat to move and the legal actions by name; the position, the agent to move, the
  rewards still to collect, the infos and every observation stay as they were. In ``penalize``
  mode (PettingZoo's convention) the game ends and the offender gets -1.
- step() before reset() and after every agent has left say to call reset(); a terminated agent's
  step takes no action but None.
- reset() refuses options that are not a dict and seeds outside the generator's 0..2**64-1, the
  game in progress unchanged; the environment refuses an unknown render mode or illegal-action
  mode, naming what is allowed.
"""

from __future__ import annotations

import numpy as np
import pytest

from reborn_env.core import registry
from reborn_env.core.errors import IllegalActionError

from .harness import CASES, GAMES, Case, play, play_for, play_out, snapshot

WRONG_TYPES = [None, 1.5, "0", True, np.bool_(False), [0]]


def out_of_range(n: int) -> list[int]:
    """Integers outside the action space 0..n-1, Python's and numpy's."""
    return [-1, n, 10**6, np.int64(n), np.int64(-(2**40))]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_an_illegal_action_is_refused_naming_the_decision_and_changes_nothing(case: Case) -> None:
    """At each of a random game's first decisions: a masked action (where the mask leaves one
    out: a game whose every action is legal at a decision has none there), integers outside the
    action space and values that are no integer."""
    env = case.make_env()
    env.reset(seed=4)
    decisions = 0
    for agent in play(env, np.random.default_rng(4), limit=30):
        before = snapshot(env)
        mask = env.observe(agent)["action_mask"]
        legal = [env.unwrapped.action_name(a) for a in np.flatnonzero(mask)]
        masked = np.flatnonzero(mask == 0)[:1].tolist()
        for bad in masked + out_of_range(len(mask)) + WRONG_TYPES:
            with pytest.raises(IllegalActionError) as refused:
                env.step(bad)
            message = str(refused.value)
            assert agent in message and all(action in message for action in legal), message
            assert snapshot(env) == before, f"refusing {bad!r} changed the game"
        decisions += 1
    assert decisions > 0


@pytest.mark.parametrize("name", GAMES)
def test_penalize_mode_ends_the_game_with_minus_one_for_the_offender(name: str) -> None:
    env = registry.get(name).make_env(illegal_action="penalize")
    env.reset(seed=2)
    agent = env.agent_selection
    env.step(-1)
    assert all(env.terminations.values())
    assert env._cumulative_rewards[agent] == -1.0
    assert env.infos[agent]["illegal_action"]


@pytest.mark.parametrize("name", GAMES)
def test_step_before_reset_says_to_reset(name: str) -> None:
    env = registry.get(name).make_env()
    for call in (lambda: env.step(0), lambda: env.observe(env.possible_agents[0])):
        with pytest.raises(RuntimeError, match="reset"):
            call()


@pytest.mark.parametrize("name", GAMES)
def test_step_after_the_end_is_refused(name: str) -> None:
    """A terminated agent's step takes None only (PettingZoo's dead step), nothing changed;
    once every agent has left, step() says to call reset()."""
    env = registry.get(name).make_env()
    env.reset(seed=6)
    rng = np.random.default_rng(6)
    while not any(env.terminations.values()) and not any(env.truncations.values()):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    before = snapshot(env)
    with pytest.raises(ValueError, match="only valid action is None"):
        env.step(0)
    assert snapshot(env) == before
    play_out(env, rng)
    assert env.agents == []
    for action in (None, 0):
        with pytest.raises(RuntimeError, match="call reset"):
            env.step(action)


@pytest.mark.parametrize("name", GAMES)
def test_bad_reset_options_and_seeds_are_refused_and_the_game_goes_on(name: str) -> None:
    env = registry.get(name).make_env()
    env.reset(seed=9)
    play_for(env, np.random.default_rng(9), 2)
    before = snapshot(env)
    for options in ("position", ["position"], 3, ("position", None)):
        with pytest.raises(ValueError, match="options must be a dict"):
            env.reset(seed=0, options=options)
        assert snapshot(env) == before
    for seed in (-1, 2**64, 2**80, 1.5, "3", True, [1]):
        with pytest.raises(ValueError, match="seed must be"):
            env.reset(seed=seed)
        assert snapshot(env) == before


@pytest.mark.parametrize("name", GAMES)
def test_unknown_render_and_illegal_action_modes_are_refused(name: str) -> None:
    spec = registry.get(name)
    with pytest.raises(ValueError, match="render_mode 'vr' is not supported; use None or one of"):
        spec.make_env(render_mode="vr")
    with pytest.raises(ValueError, match="illegal_action 'ignore': use 'raise'"):
        spec.make_env(illegal_action="ignore")
