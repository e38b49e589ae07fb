"""Decisions per second of masked random play through other RL libraries' wrappers, beside env().

Run: ``python benchmarks/bench_interop.py [--seconds 3] [--rounds 3]`` (the ``interop`` extra and
pufferlib-core, docs/interop.md). For each registered game, in this one process and one after
the other, whole games of uniformly random legal play: through the game's ``env()`` (the AEC
loop), TorchRL's ``PettingZooWrapper`` (``rollout`` with a policy that reads the mask), Tianshou's
``Collector`` (four ``PettingZooEnv`` in a ``DummyVectorEnv``, its masked random players),
PettingZoo's ``turn_based_aec_to_parallel``, PufferLib's ``PettingZooPufferEnv`` over it (the
mask read back from the flattened observation) and the OpenSpiel bridge's state API (the mover's
observation read at each decision). Building the wrappers, and Tianshou's compilation
of its Numba kernels, come before the clock starts; the rows of a game take turns (``--rounds``),
so that a change in a shared machine's load falls on all of them. Each rate is quoted as a ratio
to that game's ``env()`` measured in the same run.
"""

from __future__ import annotations

import argparse
import logging
import time
import warnings
from collections.abc import Callable

import numpy as np

from reborn_env.core import registry

Chunk = Callable[[int], int]  # plays the n-th chunk of play (a game, or a collect): decisions
STEP_LIMIT = 100_000  # more decisions than any game takes


def legal_choice(rng: np.random.Generator, mask: np.ndarray) -> int:
    """A uniformly drawn legal action of ``mask``, 0 for an agent with none (not to move)."""
    legal = np.flatnonzero(mask)
    return int(rng.choice(legal)) if len(legal) else 0


def env_game(name: str) -> Chunk:
    """The game's own AEC env: ``last()``, a legal action from the mask, ``step``."""
    env = registry.get(name).make_env()
    rng = np.random.default_rng(0)

    def game(seed: int) -> int:
        env.reset(seed=seed)
        steps = 0
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(legal_choice(rng, obs["action_mask"]))
            steps += 1
        return steps

    return game


def torchrl_game(name: str) -> Chunk:
    """TorchRL's wrapper of the AEC env, one rollout a game, the policy drawing from each
    group's ``action_mask``."""
    import torch
    from torchrl.envs.libs.pettingzoo import PettingZooWrapper

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="PettingZoo in TorchRL is tested")
        env = PettingZooWrapper(registry.get(name).make_env(), use_mask=True)
    groups = list(env.group_map)
    generator = torch.Generator().manual_seed(0)

    def policy(td):  # noqa: ANN001, ANN202 (a TensorDict)
        for group in groups:
            mask = td.get((group, "action_mask")).float()
            td.set((group, "action"), torch.multinomial(mask, 1, generator=generator)[..., 0])
        return td

    def game(seed: int) -> int:
        start = env.reset(seed=seed)
        return len(env.rollout(STEP_LIMIT, policy, auto_reset=False, tensordict=start))

    return game


def tianshou_collect(name: str, envs: int = 4) -> Chunk:
    """Tianshou's collector over ``envs`` wrapped envs, its masked random player for each
    agent, collecting 256 steps a chunk into a replay buffer (filled once before the clock
    starts)."""
    from tianshou.algorithm.multiagent.marl import MultiAgentOffPolicyAlgorithm
    from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm
    from tianshou.data import Collector, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv, PettingZooEnv

    def make() -> PettingZooEnv:
        return PettingZooEnv(registry.get(name).make_env())

    # its statistics warn at every collect that a multi-agent return has a column per agent
    logging.getLogger("tianshou.data.stats").setLevel(logging.ERROR)
    env = make()
    players = [MARLRandomDiscreteMaskedOffPolicyAlgorithm(env.action_space) for _ in env.agents]
    algorithm = MultiAgentOffPolicyAlgorithm(algorithms=players, env=env)
    buffer = VectorReplayBuffer(envs * 1024, envs)  # a ring: older steps are overwritten
    collector = Collector(algorithm, DummyVectorEnv([make] * envs), buffer)
    collector.reset(gym_reset_kwargs={"seed": 0})
    np.random.seed(0)  # the random players draw from NumPy's global generator
    collector.collect(n_step=envs * 1024)  # the buffer's arrays allocated, and filled once
    return lambda _: collector.collect(n_step=256).n_collected_steps


def parallel_game(name: str) -> Chunk:
    """PettingZoo's turn-based parallel conversion, every live agent sending a masked action."""
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel

    env = turn_based_aec_to_parallel(registry.get(name).make_env())
    rng = np.random.default_rng(0)

    def game(seed: int) -> int:
        observations, _ = env.reset(seed=seed)
        steps = 0
        while env.agents:
            actions = {a: legal_choice(rng, observations[a]["action_mask"]) for a in env.agents}
            observations, *_ = env.step(actions)
            steps += 1
        return steps

    return game


def pufferlib_game(name: str) -> Chunk:
    """PufferLib's emulation of the parallel conversion, the masks read from its flattened
    observation rows."""
    import pufferlib.emulation
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel

    parallel = turn_based_aec_to_parallel(registry.get(name).make_env())
    env = pufferlib.emulation.PettingZooPufferEnv(parallel)
    fields = env.emulated["emulated_observation_dtype"]
    rng = np.random.default_rng(0)

    def game(seed: int) -> int:
        env.reset(seed=seed)
        steps = 0
        while not env.done:
            masks = env.observations.view(fields)[:, 0]["action_mask"]
            env.step(np.array([legal_choice(rng, mask) for mask in masks], np.int32))
            steps += 1
        return steps

    return game


def openspiel_game(name: str) -> Chunk:
    """The OpenSpiel bridge's state API (``reborn_env.interop.openspiel``): the mover's
    observation as a NumPy array (``state.observation``), a legal action, ``apply_action``."""
    import pyspiel

    from reborn_env.interop import openspiel as bridge

    spiel_game = pyspiel.load_game(bridge.short_name(name), {"seed": 0})  # a stream of seeds
    rng = np.random.default_rng(0)

    def game(_: int) -> int:
        state = spiel_game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            state.observation(state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
            steps += 1
        return steps

    return game


ROWS: list[tuple[str, Callable[[str], Chunk]]] = [
    ("env()", env_game),
    ("TorchRL PettingZooWrapper rollout", torchrl_game),
    ("Tianshou Collector, 4 envs", tianshou_collect),
    ("PettingZoo turn_based_aec_to_parallel", parallel_game),
    ("PufferLib PettingZooPufferEnv", pufferlib_game),
    ("OpenSpiel bridge (pyspiel state API)", openspiel_game),
]


def run_for(chunk: Chunk, first: int, seconds: float) -> tuple[int, int, float]:
    """Chunks ``first``, ``first + 1``, ... until ``seconds`` have passed: (chunks played,
    decisions, elapsed)."""
    played, steps, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        steps += chunk(first + played)
        played += 1
    return played, steps, time.perf_counter() - start


def measure(name: str, seconds: float, rounds: int) -> list[tuple[str, int, float]]:
    """Each row's (label, decisions, elapsed) on game ``name``: the rows take turns, ``rounds``
    times ``seconds / rounds`` each, so a change in the machine's load falls on all of them."""
    chunks = [(label, make(name)) for label, make in ROWS]
    totals = {label: [0, 0, 0.0] for label, _ in chunks}  # chunks played, decisions, elapsed
    for _ in range(rounds):
        for label, chunk in chunks:
            total = totals[label]
            played, steps, elapsed = run_for(chunk, total[0], seconds / rounds)
            total[0] += played
            total[1] += steps
            total[2] += elapsed
    return [(label, steps, elapsed) for label, (_, steps, elapsed) in totals.items()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per row (default 3)")
    parser.add_argument("--rounds", type=int, default=3, help="turns each row takes (default 3)")
    args = parser.parse_args()
    results = []
    for name in registry.names():
        rows = measure(name, args.seconds, args.rounds)
        peer = rows[0][1] / rows[0][2]
        for label, steps, elapsed in rows:
            results.append((name, label, steps, steps / elapsed, steps / elapsed / peer))
            print(f"  measured {name} {label}: {steps} decisions in {elapsed:.1f} s", flush=True)
    print()
    print(f"| {'game':<16} | {'through':<38} | {'decisions':>9} | {'decisions/s':>11} | vs env() |")
    print(f"| {'-' * 16} | {'-' * 38} | {'-' * 8}: | {'-' * 10}: | -------: |")
    for name, label, steps, rate, ratio in results:
        print(f"| {name:<16} | {label:<38} | {steps:>9} | {rate:>11,.0f} | {ratio:>7.3f}x |")


if __name__ == "__main__":
    main()
