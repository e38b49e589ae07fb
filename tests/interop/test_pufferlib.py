"""PufferLib's emulation on every registered game: ``PettingZooPufferEnv`` over the turn-based
parallel conversion plays whole games, alone and in PufferLib's ``Serial`` vector, with the action
mask recovered from the flattened observation and honoured.

PufferLib flattens a dict observation into one row of bytes per agent (``uint8``: the mask is
``int8``, the observation ``float32``); viewing the row as the emulation's structured dtype
(``env.emulated["emulated_observation_dtype"]``) gives the two fields back, unchanged.
"""

from __future__ import annotations

import functools
import warnings

import numpy as np
import pufferlib.emulation
import pufferlib.pytorch
import pufferlib.vector
import pytest
import torch
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from reborn_env.core import registry

from .helpers import GAMES, SEED, Decision, assert_same_game, legal_choice, step_limit

VECTOR_ENVS = 2


def puffer_env(
    name: str, buf: object = None, seed: int = 0
) -> pufferlib.emulation.PettingZooPufferEnv:
    """The game as PufferLib emulates it (``buf`` and ``seed``: what its vectors pass)."""
    parallel = turn_based_aec_to_parallel(registry.get(name).make_env())
    return pufferlib.emulation.PettingZooPufferEnv(parallel, buf=buf, seed=seed)


def fields(rows: np.ndarray, emulated: dict) -> np.ndarray:
    """PufferLib's flattened observation rows (one per agent) as records with the env's own
    fields, ``"observation"`` and ``"action_mask"``."""
    return rows.view(emulated["emulated_observation_dtype"])[:, 0]


def legal_actions(seen: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Every agent's action, drawn from its own mask (0 for an agent not to move)."""
    return np.array([legal_choice(rng, mask) for mask in seen["action_mask"]], np.int32)


def decision_of(agents: list[str], seen: np.ndarray, actions: np.ndarray) -> Decision:
    """The decision of the one agent with legal actions (its rewards filled in later)."""
    masks = seen["action_mask"].astype(bool)
    to_move = np.flatnonzero(masks.any(axis=1))
    assert len(to_move) == 1, f"exactly one agent has legal actions: {to_move}"
    mover = int(to_move[0])
    observation = seen["observation"][mover].copy()
    return Decision(agents[mover], observation, masks[mover], int(actions[mover]))


def assert_torch_view_agrees(rows: np.ndarray, seen: np.ndarray, emulated: dict) -> None:
    """PufferLib's own unflattening for networks, ``pufferlib.pytorch.nativize_observation``,
    gives the fields :func:`fields` gives."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # its torch._check_is_size calls
        native = pufferlib.pytorch.nativize_observation(torch.from_numpy(rows), emulated)
    for key in ("observation", "action_mask"):
        np.testing.assert_array_equal(native[key].numpy(), seen[key])


@pytest.mark.parametrize("name", GAMES)
def test_the_emulation_plays_a_whole_game(name: str) -> None:
    env = puffer_env(name)
    space = env.single_observation_space
    assert space.dtype == np.uint8 and space.shape == (env.obs_dtype.itemsize,), "flattened"
    rng = np.random.default_rng(SEED)
    env.reset(seed=SEED)
    decisions = []
    while not env.done:
        seen = fields(env.observations, env.emulated)
        assert_torch_view_agrees(env.observations, seen, env.emulated)
        actions = legal_actions(seen, rng)
        decided = decision_of(env.possible_agents, seen, actions)
        _, rewards, _, _, _ = env.step(actions)
        decided.rewards = {a: float(r) for a, r in rewards.items()}
        decisions.append(decided)
        assert len(decisions) <= step_limit(name)
    assert_same_game(name, SEED, decisions)
    assert env.terminals.all() or env.truncations.all()


@pytest.mark.parametrize("name", GAMES)
def test_a_serial_vector_plays_whole_games(name: str) -> None:
    """The first game of each env of the vector (env ``i`` reset with ``SEED + i``) is the game
    its own env plays; the vector's reward and end flags are those of the game. An env whose game
    ended is reset by the vector at the next step (its actions then unused) and plays on."""
    vector = pufferlib.vector.make(
        functools.partial(puffer_env, name),
        backend=pufferlib.vector.Serial,
        num_envs=VECTOR_ENVS,
    )
    agents = vector.driver_env.possible_agents
    n = len(agents)
    rng = np.random.default_rng(SEED)
    vector.async_reset(SEED)
    observations = vector.recv()[0]
    games: list[list[Decision]] = [[] for _ in range(VECTOR_ENVS)]
    playing = set(range(VECTOR_ENVS))
    while playing:
        seen = fields(observations, vector.emulated)
        actions = legal_actions(seen, rng)
        decided = {
            i: decision_of(agents, seen[i * n : (i + 1) * n], actions[i * n : (i + 1) * n])
            for i in playing
        }
        vector.send(actions)
        observations, rewards, terminals, truncations, *_ = vector.recv()
        for i, made in decided.items():
            rows = slice(i * n, (i + 1) * n)
            made.rewards = dict(zip(agents, rewards[rows].tolist(), strict=True))
            games[i].append(made)
            if terminals[rows].all() or truncations[rows].all():
                playing.discard(i)
            assert len(games[i]) <= step_limit(name)
    for i, decisions in enumerate(games):
        assert_same_game(name, SEED + i, decisions)
