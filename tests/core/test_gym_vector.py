"""SingleAgentVectorEnv (reborn_env.wrappers): one seat of many games as a Gymnasium vector env,
as ``gymnasium.make_vec`` gives it for every registered game (games from the registry).

Each slot must be, step for step, the SingleAgentEnv of the same game seed and opponent (a
differential check over whole games, illegal actions included: PettingZoo's -1 by default); the
step that ends a slot's game must already show the next one (``AutoresetMode.SAME_STEP``, as
declared), seeds must replay, and a bad batch must be refused with nothing changed.
"""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

import reborn_env.envs  # registers every game's env and vector env with Gymnasium
from reborn_env.bots.batched import SlotBot, batched_bot
from reborn_env.core import registry
from reborn_env.core.errors import IllegalActionError
from reborn_env.core.rng import SplitMix64
from reborn_env.wrappers import SingleAgentEnv, SingleAgentVectorEnv

GAMES = registry.names()
GOLDEN = 0x9E3779B97F4A7C15  # SplitMix64's increment: state - GOLDEN gives its last output again
BOT_SEEDS = [11, 12, 13]


def _make_vec(name: str, num_envs: int = 3, **kwargs) -> SingleAgentVectorEnv:
    return gymnasium.make_vec(reborn_env.envs.gymnasium_id(name), num_envs=num_envs, **kwargs)


def _game_seed(envs: SingleAgentVectorEnv, i: int) -> int:
    """The seed of the game slot i plays now: its seed generator's last output."""
    return SplitMix64((envs.seed_state(i) - GOLDEN) % 2**64).next64()


def _cases() -> list[tuple[str, str, str]]:
    """(game, seat, opponent kind): each game's first and last seat, against random play and
    against its heuristic bot where it has one."""
    cases = []
    for name in GAMES:
        spec = registry.get(name)
        seats = registry.get(name).make_env().possible_agents
        kinds = ["random"] + (["heuristic"] if "heuristic" in spec.bots else [])
        cases += [(name, seat, kind) for seat in (seats[0], seats[-1]) for kind in kinds]
    return cases


class _Twin:
    """Slot i's reference: a SingleAgentEnv whose opponent is slot i of its own copy of the
    vector's batched bot, started from the game seed the vector's slot took."""

    def __init__(self, name: str, agent: str, kind: str, i: int) -> None:
        bot = SlotBot(batched_bot(name, kind, BOT_SEEDS), i)
        self.env = SingleAgentEnv(name, agent=agent, opponent=bot)
        self.aec = registry.get(name).make_env()

    def start(self, seed: int) -> tuple[np.ndarray, dict]:
        self.aec.reset(seed=seed)
        return self.env.reset(options={"position": self.aec.unwrapped.get_state()})


def _same_decision(obs, infos, i: int, twin_obs: np.ndarray, twin_info: dict) -> None:
    assert np.array_equal(obs[i], twin_obs)
    assert np.array_equal(infos["action_mask"][i], twin_info["action_mask"])
    assert infos["opponent_moves"][i] == twin_info["opponent_moves"]


@pytest.mark.parametrize(("name", "agent", "kind"), _cases(), ids=lambda c: str(c))
def test_each_slot_plays_what_single_agent_env_plays(name: str, agent: str, kind: str) -> None:
    """Masked random play, with an unmasked action now and then, until every slot has finished
    two games: rewards, flags, observations, masks, the opponent's moves and the illegal-action
    message equal a SingleAgentEnv's for the same game seed, bot seed and actions."""
    envs = _make_vec(name, agent=agent, opponent=batched_bot(name, kind, BOT_SEEDS))
    twins = [_Twin(name, agent, kind, i) for i in range(envs.num_envs)]
    obs, infos = envs.reset(seed=5)
    for i, twin in enumerate(twins):
        _same_decision(obs, infos, i, *twin.start(_game_seed(envs, i)))
    rng = np.random.default_rng(0)
    finished, penalized, forbidden_seen = np.zeros(envs.num_envs, dtype=int), 0, False
    for _ in range(5000):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in infos["action_mask"]])
        forbidden = np.flatnonzero(~infos["action_mask"][0])
        forbidden_seen |= len(forbidden) > 0
        if rng.random() < 0.01 and len(forbidden):
            actions[0] = rng.choice(forbidden)  # PettingZoo's convention: the episode ends, -1
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        for i, twin in enumerate(twins):
            twin_obs, reward, ended, cut, twin_info = twin.env.step(int(actions[i]))
            assert (rewards[i], terminated[i], truncated[i]) == (reward, ended, cut)
            assert bool(infos.get("_final_info", np.zeros(3, bool))[i]) == (ended or cut)
            if ended or cut:
                final = infos["final_info"]
                assert not final["action_mask"][i].any()
                if "illegal_action" in twin_info:
                    assert final["illegal_action"][i] == f"slot {i}: {twin_info['illegal_action']}"
                    penalized += 1
                else:
                    assert final["opponent_moves"][i] == twin_info["opponent_moves"]
                twin_obs, twin_info = twin.start(_game_seed(envs, i))  # the same step: SAME_STEP
                finished[i] += 1
            _same_decision(obs, infos, i, twin_obs, twin_info)
        if finished.min() >= 2 and (penalized or not forbidden_seen):
            break
    assert finished.min() >= 2, finished
    assert penalized > 0 or not forbidden_seen  # a game whose every action is always legal


@pytest.mark.parametrize("name", GAMES)
def test_make_vec_gives_a_vector_env_with_batched_spaces(name: str) -> None:
    envs = _make_vec(name, num_envs=4)
    assert isinstance(envs, gymnasium.vector.VectorEnv)
    assert isinstance(envs.unwrapped, SingleAgentVectorEnv) and envs.unwrapped.game == name
    assert envs.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    single = SingleAgentEnv(name)
    assert envs.single_observation_space == single.observation_space
    assert envs.single_action_space == single.action_space
    assert envs.observation_space == batch_space(single.observation_space, 4)
    assert envs.action_space == gymnasium.spaces.MultiDiscrete([single.action_space.n] * 4)
    obs, infos = envs.reset(seed=0)
    assert obs in envs.observation_space
    assert infos["action_mask"].shape == (4, single.action_space.n)
    assert infos["action_mask"].dtype == bool and infos["action_mask"].any(axis=1).all()
    assert infos["_action_mask"].all() and infos["_opponent_moves"].all()
    assert np.array_equal(infos["action_mask"], envs.unwrapped.action_masks())
    step = envs.step(np.array([np.flatnonzero(m)[0] for m in infos["action_mask"]]))
    assert step[0] in envs.observation_space
    assert [a.shape for a in step[1:4]] == [(4,)] * 3


@pytest.mark.parametrize("name", GAMES)
def test_seeds_replay_and_unseeded_resets_continue(name: str) -> None:
    def play(envs, seed, steps: int = 30, rng=None) -> list[tuple[np.ndarray, ...]]:
        """(obs, rewards, terminated) of each step: random legal actions from ``rng``, else
        each slot's first legal action (the same in any slot for the same game)."""
        obs, infos = envs.reset(seed=seed)
        seen = [(obs, np.zeros(envs.num_envs), np.zeros(envs.num_envs, bool))]
        for _ in range(steps):
            legal = [np.flatnonzero(m) for m in infos["action_mask"]]
            actions = np.array([rng.choice(a) if rng else a[0] for a in legal])
            obs, rewards, terminated, truncated, infos = envs.step(actions)
            seen.append((obs, rewards, terminated))
        return seen

    envs = _make_vec(name)
    first = play(envs, 7, rng=np.random.default_rng(2))
    again = play(_make_vec(name), 7, rng=np.random.default_rng(2))
    for a, b in zip(first, again, strict=True):
        assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    if "heuristic" in registry.get(name).bots:  # a bot made once: reset(i) restarts its games
        scripted = _make_vec(name, opponent="heuristic")
        first = play(scripted, 7, steps=60, rng=np.random.default_rng(3))
        again = play(scripted, 7, steps=60, rng=np.random.default_rng(3))
        for a, b in zip(first, again, strict=True):
            assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    seeds = [_game_seed(envs, i) for i in range(3)]
    envs.reset(seed=7)
    next_games = envs.reset()[0]
    assert [_game_seed(envs, i) for i in range(3)] != seeds
    envs.reset(seed=7)
    assert np.array_equal(envs.reset()[0], next_games)
    one = _make_vec(name, num_envs=1)
    by_int, by_list = play(one, 9), play(one, [9])
    per_env = play(_make_vec(name), [3, 9, 4])  # slot 1 plays what one env seeded 9 plays
    for a, b, c in zip(by_int, by_list, per_env, strict=True):
        assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
        assert all(np.array_equal(x[0], y[1]) for x, y in zip(a, c, strict=True))


def _snapshot(envs: SingleAgentVectorEnv) -> list:
    vector = envs.vector
    return [
        (vector.get_state(i), envs.seed_state(i), vector.obs[i].copy(), vector.mask[i].copy())
        for i in range(envs.num_envs)
    ]


@pytest.mark.parametrize("name", GAMES)
def test_a_bad_batch_is_refused_saying_what_is_allowed_with_nothing_changed(name: str) -> None:
    envs = _make_vec(name).unwrapped
    with pytest.raises(RuntimeError, match="reset"):
        envs.step(np.zeros(3, dtype=np.int64))
    _, infos = envs.reset(seed=3)
    before = _snapshot(envs)
    legal = np.array([np.flatnonzero(m)[0] for m in infos["action_mask"]])
    n = envs.single_action_space.n
    bad = {
        "shape": (legal[:2], r"3 integers \(shape \(3,\)\)"),
        "2-D": (legal[None, :], "shape"),
        "float": (legal.astype(float), "float64"),
        "bool": (np.ones(3, dtype=bool), "bool"),
        "too big": (np.where([False, True, False], n, legal), f"slot 1: action {n} is outside"),
        "WAIT": (np.where([True, False, False], -1, legal), "slot 0: action -1 is outside"),
    }
    for what, (actions, message) in bad.items():
        with pytest.raises(ValueError, match=message):
            envs.step(actions)
        assert _equal(_snapshot(envs), before), what
    for seed in (-1, 2**64, 1.5, [1, 2], "7"):
        with pytest.raises(ValueError, match="seed"):
            envs.reset(seed=seed)
    assert _equal(_snapshot(envs), before)
    with pytest.raises(ValueError, match="options"):
        envs.reset(options={"reset_mask": np.ones(3, dtype=bool)})
    envs.step(legal)  # the games go on


def _equal(a: list, b: list) -> bool:
    return all(
        x[0] == y[0] and x[1] == y[1] and np.array_equal(x[2], y[2]) and np.array_equal(x[3], y[3])
        for x, y in zip(a, b, strict=True)
    )


def _to_a_forbidden_action(envs: SingleAgentVectorEnv) -> tuple[int, np.ndarray] | None:
    """Play the slots' last legal actions from seed 4 up to a decision where some slot has a
    forbidden action: (that slot, the masks), or None if none came in 300 steps."""
    _, infos = envs.reset(seed=4)
    for _ in range(300):
        masks = infos["action_mask"]
        slot = next((i for i in range(len(masks)) if not masks[i].all()), None)
        if slot is not None:
            return slot, masks
        infos = envs.step(np.array([np.flatnonzero(m)[-1] for m in masks]))[-1]
    return None


# the games that ever forbid an action (a toy game may allow every action at every decision)
REFUSING = [n for n in GAMES if _to_a_forbidden_action(_make_vec(n).unwrapped) is not None]


def test_the_bundled_games_forbid_actions() -> None:
    bundled = [n for n in GAMES if registry.get(n).env.startswith("reborn_env.games.")]
    assert bundled and set(bundled) <= set(REFUSING)


@pytest.mark.parametrize("name", REFUSING)
def test_raise_mode_refuses_an_illegal_action_naming_the_slot(name: str) -> None:
    envs = _make_vec(name, illegal_action="raise").unwrapped
    slot, masks = _to_a_forbidden_action(envs)
    actions = np.array([np.flatnonzero(m)[0] for m in masks])
    actions[slot] = np.flatnonzero(~masks[slot])[0]
    before = _snapshot(envs)
    with pytest.raises(IllegalActionError, match=f"slot {slot}: .* is not legal for"):
        envs.step(actions)
    assert _equal(_snapshot(envs), before)


def test_bad_arguments_are_refused() -> None:
    name = GAMES[0]
    with pytest.raises(ValueError, match="illegal_action 'ignore'"):
        _make_vec(name, illegal_action="ignore")
    with pytest.raises(ValueError, match="seat"):
        _make_vec(name, agent="nobody")
    with pytest.raises(ValueError, match="BatchedBot of 3 slots"):
        _make_vec(name, opponent=batched_bot(name, "random", [1, 2]))
    with pytest.raises(TypeError, match="opponent must be"):
        _make_vec(name, opponent=3)
    with pytest.raises(ValueError, match="num_envs"):
        _make_vec(name, num_envs=0)
