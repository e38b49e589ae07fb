"""Bad input to step() and set_state() of both environments.

Rule ids: ER-ENV-8 and HV-API-5 (an illegal action is refused naming the decision and the legal
choices, and changes nothing: not the state, not the rewards still to be collected), ER-ENV-9
(truncation counts the game's own steps, so a restored position truncates where the original
would), ER-GEN-3 (a position restores the whole game).
"""

from __future__ import annotations

import numpy as np
import pytest

from reborn_env import earth_reborn_v0, haven_v0
from reborn_env.bots.loading import load_bot
from reborn_env.core.errors import IllegalActionError

# Each environment with the option that gives rewards during the game (so a pending reward exists).
SHAPED = {
    "earth_reborn_v0": lambda: earth_reborn_v0.env(mp_shaping=0.25),
    "haven_v0": lambda: haven_v0.env(reward_shaping=True),
}


def _play_until_pending_reward(env, name: str) -> str:
    """Scripted play until the agent to move has a reward not yet collected by last()."""
    bot = load_bot("heuristic", name, seed=0)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            pytest.fail("the game ended before any shaped reward was pending")
        if env._cumulative_rewards[agent] != 0.0:
            return agent
        env.step(bot.act(obs["observation"], obs["action_mask"]))
    raise AssertionError("unreachable")


@pytest.mark.parametrize("name", sorted(SHAPED))
def test_a_refused_action_keeps_the_pending_reward_and_the_state(name):
    """ER-ENV-8 / HV-API-5: in raise mode a refusal changes nothing, the reward still due
    included (it used to be wiped before the action was checked)."""
    env = SHAPED[name]()
    env.reset(seed=3)
    agent = _play_until_pending_reward(env, name)
    pending = env._cumulative_rewards[agent]
    before = env.unwrapped.get_state()
    illegal = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    for bad in (illegal, -1, 10**6, None, 1.5, "PASS", True, np.bool_(False)):
        with pytest.raises(IllegalActionError):
            env.step(bad)
        assert env._cumulative_rewards[agent] == pending
        assert env.unwrapped.get_state() == before
    assert env.last()[1] == pending


@pytest.mark.parametrize("name", sorted(SHAPED))
@pytest.mark.parametrize("flag", [True, False, np.bool_(True)])
def test_a_boolean_is_not_an_action(name, flag):
    """ER-ENV-8 / HV-API-5: ``True`` is not action 1 (Earth Reborn used to take it as 1)."""
    env = SHAPED[name]()
    env.reset(seed=0)
    before = env.unwrapped.get_state()
    with pytest.raises(IllegalActionError, match="must be an integer"):
        env.step(flag)
    assert env.unwrapped.get_state() == before


@pytest.mark.parametrize("name", sorted(SHAPED))
def test_a_type_error_names_the_decision_and_the_legal_choices(name):
    """ER-ENV-8 / HV-API-5: the message for a non-integer says which decision is pending and
    lists the legal actions by name, as the message for an illegal integer does."""
    env = SHAPED[name]()
    env.reset(seed=0)
    agent = env.agent_selection
    legal = [
        env.unwrapped.action_name(a) for a in np.flatnonzero(env.observe(agent)["action_mask"])
    ]
    with pytest.raises(IllegalActionError) as err:
        env.step("not an action")
    message = str(err.value)
    assert "legal" in message and all(name in message for name in legal)
    assert agent in message


@pytest.mark.parametrize("name", sorted(SHAPED))
def test_penalize_mode_gives_the_offender_exactly_minus_one(name):
    """PettingZoo's TerminateIllegalWrapper convention: the game ends and the offender's return
    for the step is -1, whatever was pending."""
    env = SHAPED[name]()
    env.unwrapped.illegal_action = "penalize"
    env.reset(seed=3)
    agent = _play_until_pending_reward(env, name)
    env.step(True)
    assert all(env.terminations.values())
    assert env._cumulative_rewards[agent] == -1.0
    assert "must be an integer" in env.infos[agent]["illegal_action"]


def _play_out(env, seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("name", sorted(SHAPED))
def test_step_after_every_agent_left_is_a_clear_error(name):
    """After the game and every agent's last step, step() says to reset (it used to raise a bare
    KeyError)."""
    env = SHAPED[name]()
    env.reset(seed=1)
    _play_out(env, seed=1)
    assert env.agents == []
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(None)
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)


@pytest.mark.parametrize("name", sorted(SHAPED))
def test_set_state_after_the_game_ended_brings_every_agent_back(name):
    """ER-GEN-3: a position restored after a finished game is a live game again, with both
    agents, fresh rewards and the same decision as when it was saved."""
    env = SHAPED[name]()
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(5):
        obs = env.observe(env.agent_selection)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    saved, selected = env.unwrapped.get_state(), env.agent_selection
    mask = env.observe(selected)["action_mask"].copy()
    _play_out(env, seed=2)
    env.unwrapped.set_state(saved)
    assert env.agents == env.possible_agents
    assert env.agent_selection == selected
    assert not any(env.terminations.values()) and not any(env.truncations.values())
    assert set(env._cumulative_rewards.values()) == {0.0}
    assert np.array_equal(env.observe(selected)["action_mask"], mask)


def test_a_restored_position_truncates_at_the_same_game_step():
    """ER-ENV-9: truncation counts the game's steps, not the env's since reset, so a game
    continued from its position is truncated exactly where the original is."""
    limit = 60
    original = earth_reborn_v0.env(max_steps=limit)
    original.reset(seed=4)
    rng = np.random.default_rng(4)
    actions = []
    for _ in range(40):
        obs = original.observe(original.agent_selection)
        actions.append(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        original.step(actions[-1])
    restored = earth_reborn_v0.env(max_steps=limit)
    restored.reset(options={"position": original.unwrapped.get_state()})
    for env in (original, restored):
        rng = np.random.default_rng(5)
        steps = 0
        while not any(env.truncations.values()) and not any(env.terminations.values()):
            obs = env.observe(env.agent_selection)
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        assert steps == limit - 40
        assert all(env.truncations.values())


@pytest.mark.parametrize("name", sorted(SHAPED))
@pytest.mark.parametrize("seed", [-1, 2**64, 2**80, 1.5, "3", True, [1]])
def test_a_seed_outside_the_generator_is_refused(name, seed):
    """ER-DICE-4 / HV-API-9: a seed is the 64-bit generator's state, 0..2**64-1; a negative
    one or one past 2**64 used to wrap silently onto another seed's game, a float or a string
    to raise TypeError (Earth Reborn) or be truncated (haven)."""
    env = SHAPED[name]()
    env.reset(seed=9)
    before = env.unwrapped.get_state()
    with pytest.raises(ValueError, match="seed must be"):
        env.reset(seed=seed)
    assert env.unwrapped.get_state() == before


@pytest.mark.parametrize("name", sorted(SHAPED))
def test_the_largest_seed_and_numpy_seeds_are_games(name):
    """ER-DICE-4 / HV-API-9: every seed of the range is a game, numpy integers included."""
    for seed in (0, 2**64 - 1, np.uint64(2**64 - 1), np.int64(7)):
        env = SHAPED[name]()
        env.reset(seed=seed)
        assert env.agent_selection in env.possible_agents


@pytest.mark.parametrize("name", sorted(SHAPED))
@pytest.mark.parametrize("options", ["position", ["position"], 3])
def test_reset_options_that_are_not_a_dict_are_refused(name, options):
    """reset(options=...) takes a dict (or None); anything else is a clear ValueError."""
    env = SHAPED[name]()
    with pytest.raises(ValueError, match="options must be a dict"):
        env.reset(seed=0, options=options)
