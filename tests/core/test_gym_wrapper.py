"""SingleAgentEnv (reborn_env.wrappers): one seat of a registered game as a Gymnasium env (here the
default game, earth_reborn_v0; tests/conformance/test_pettingzoo.py runs check_env on every game
through gymnasium.make).

It must pass Gymnasium's own checker as built by default (check_env steps with
``action_space.sample()``, which ignores the mask: the default ``illegal_action="penalize"`` ends
the episode with -1, PettingZoo's convention), end random masked episodes with a +1 / -1 / 0
return, replay exactly from a seed, refuse illegal actions without changing anything when built
with ``illegal_action="raise"``, pass rendering through, and let sb3-contrib's MaskablePPO train on
it without ever choosing an illegal action (the env, built to raise, would). MaskablePPO is
optional: CI installs it with ``.[sb3]``.
"""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import reborn_env.envs  # registers every game with Gymnasium
from reborn_env.bots import RandomBot
from reborn_env.core import registry
from reborn_env.core.errors import IllegalActionError
from reborn_env.wrappers import SingleAgentEnv


def _random_episode(env: SingleAgentEnv, seed: int, rng_seed: int = 0):
    """Masked random actions to the end; (return, steps, trajectory of (obs, reward))."""
    rng = np.random.default_rng(rng_seed)
    obs, info = env.reset(seed=seed)
    assert np.array_equal(info["action_mask"], env.action_masks())
    trajectory, total, steps = [(obs, 0.0)], 0.0, 0
    while True:
        mask = env.action_masks()
        assert mask.dtype == bool and mask.any()
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert obs in env.observation_space
        total += reward
        steps += 1
        trajectory.append((obs, reward))
        if terminated or truncated:
            assert not env.action_masks().any()
            return total, steps, trajectory


def test_spaces_are_the_agents_vector_and_discrete_actions():
    env = SingleAgentEnv()
    assert (env.game, env.agent) == ("earth_reborn_v0", "norad")  # the defaults: first game, seat
    aec_space = env.aec.observation_space("norad")
    assert env.observation_space == aec_space["observation"]
    assert env.action_space == env.aec.action_space("norad")
    assert isinstance(env.action_space, gymnasium.spaces.Discrete)


def test_check_env_passes_without_warnings():
    env = SingleAgentEnv()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env, skip_render_check=True)
    assert [str(w.message) for w in caught] == []


def test_sb3_check_env_passes_without_warnings():
    sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sb3_checker.check_env(SingleAgentEnv())
    assert [str(w.message) for w in caught] == []


@pytest.mark.parametrize("agent", ["norad", "salemite"])
def test_random_masked_episode_ends_with_a_game_result(agent):
    env = SingleAgentEnv(agent=agent)
    total, steps, _ = _random_episode(env, seed=3)
    assert total in (-1.0, 0.0, 1.0)
    assert steps > 10
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_step_span_plays_the_opponent_until_the_agent_decides():
    env = SingleAgentEnv(agent="salemite")
    env.reset(seed=0)
    assert env.aec.agent_selection == "salemite"
    moves = 0
    for _ in range(40):
        action = int(np.flatnonzero(env.action_masks())[0])
        _, _, terminated, truncated, info = env.step(action)
        moves += info["opponent_moves"]
        if terminated or truncated:
            break
        assert env.aec.agent_selection == "salemite"
    assert moves > 0


def test_same_seed_same_games():
    first = _random_episode(SingleAgentEnv(), seed=11)
    second = _random_episode(SingleAgentEnv(), seed=11)
    assert first[:2] == second[:2]
    for (obs_a, r_a), (obs_b, r_b) in zip(first[2], second[2], strict=True):
        assert np.array_equal(obs_a, obs_b) and r_a == r_b
    env = SingleAgentEnv()
    env.reset(seed=5)
    after_5 = [env.reset()[0] for _ in range(3)]
    env.reset(seed=5)
    assert all(np.array_equal(a, env.reset()[0]) for a in after_5)
    other = _random_episode(SingleAgentEnv(), seed=12)
    assert other[1] != first[1] or not np.array_equal(other[2][-1][0], first[2][-1][0])


def test_illegal_action_raises_and_changes_nothing():
    env = SingleAgentEnv(illegal_action="raise")
    obs, _ = env.reset(seed=0)
    before = env.aec.unwrapped.get_state()
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    with pytest.raises(IllegalActionError, match="not legal for norad"):
        env.step(illegal)
    for bad in (-1, env.action_space.n, 1.5, None):
        with pytest.raises(IllegalActionError):
            env.step(bad)
    assert env.aec.unwrapped.get_state() == before
    legal = int(np.flatnonzero(env.action_masks())[0])
    env.step(legal)  # the episode goes on


def test_penalize_ends_the_episode_with_minus_one():
    env = SingleAgentEnv(illegal_action="penalize")
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert "not legal" in info["illegal_action"]
    assert obs in env.observation_space and not env.action_masks().any()


@pytest.mark.parametrize("name", registry.names())
def test_the_registered_env_ends_the_episode_on_an_unmasked_action(name):
    """What ``gymnasium.make`` gives, left at its defaults, survives an action the mask forbids
    (as ``action_space.sample()`` picks): the episode ends with -1 (PettingZoo's convention)."""
    env = gymnasium.make(reborn_env.envs.gymnasium_id(name))
    assert env.unwrapped.illegal_action == "penalize"
    _, info = env.reset(seed=0)
    masked_out = np.flatnonzero(~info["action_mask"])  # a game may allow every action at first
    illegal = int(masked_out[0]) if len(masked_out) else int(env.action_space.n)
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert "not legal" in info["illegal_action"]


def test_fixed_bot_opponent_and_bad_arguments():
    """The opponent is a Bot or a load_bot spec for the game; a spec's bot is the game's own."""
    env = SingleAgentEnv("earth_reborn_v0", agent="salemite", opponent="heuristic")
    assert type(env.opponent).__name__ == "EarthRebornHeuristicBot"
    total, _, _ = _random_episode(env, seed=1)
    assert total in (-1.0, 0.0, 1.0)
    bot = RandomBot(seed=4)
    assert SingleAgentEnv(opponent=bot).opponent is bot
    with pytest.raises(ValueError, match="seat"):
        SingleAgentEnv(agent="nobody")
    with pytest.raises(ValueError, match="illegal_action"):
        SingleAgentEnv(illegal_action="ignore")
    with pytest.raises(ValueError, match="no game named 'chess_v6'; the games are earth_reborn_v0"):
        SingleAgentEnv("chess_v6")
    with pytest.raises(ValueError, match="bot spec 'minimax'"):
        SingleAgentEnv(opponent="minimax")
    with pytest.raises(TypeError, match="opponent must be a Bot"):
        SingleAgentEnv(opponent=3)


def test_render_passes_through():
    env = SingleAgentEnv(render_mode="rgb_array", opponent=RandomBot(seed=0))
    env.reset(seed=0)
    frame = env.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    env = SingleAgentEnv(render_mode="ansi")
    env.reset(seed=0)
    assert isinstance(env.render(), str)
    assert env.metadata["render_modes"] == env.aec.metadata["render_modes"]


class _CountLegal(gymnasium.Wrapper):
    """Counts steps and asserts every chosen action is in the mask before the env sees it."""

    def __init__(self, env: SingleAgentEnv) -> None:
        super().__init__(env)
        self.steps = 0
        self.episodes = 0

    def action_masks(self) -> np.ndarray:
        return self.env.action_masks()

    def step(self, action):
        assert self.env.action_masks()[int(action)], f"illegal action {action}"
        self.steps += 1
        result = self.env.step(action)
        self.episodes += result[2] or result[3]
        return result


def test_maskable_ppo_trains_without_illegal_actions():
    sb3_contrib = pytest.importorskip("sb3_contrib")
    import torch

    torch.set_num_threads(1)
    env = _CountLegal(SingleAgentEnv(opponent=RandomBot(seed=0), illegal_action="raise"))
    model = sb3_contrib.MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=256,
        batch_size=64,
        n_epochs=2,
        policy_kwargs={"net_arch": [32, 32]},
        device="cpu",
        seed=0,
        verbose=0,
    )
    model.learn(total_timesteps=4096)
    assert model.num_timesteps == 4096
    assert env.steps == 4096
    assert env.episodes > 0
