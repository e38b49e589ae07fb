"""Decisions per second of the Gymnasium vector env (SingleAgentVectorEnv) against the game vector
it drives, at the same N, in one run.

Run: ``python benchmarks/bench_gym_vector.py [--seconds 1] [--rounds 3] [--num-envs 256]
[--game NAME]``. Both rows of a pair play the same kind of games: the agent's seat (the game's
first) by uniformly random legal play (:class:`~reborn_env.bots.batched.RandomBatch`, from the
mask), every other seat by the same batched opponent (``random``, and ``heuristic`` where the
game registers a batched one, ``GameSpec.batched_bots``: Earth Reborn's compiled batch; a game
without one would build N of its ordinary bots a round). The ``vector_env`` row calls the game
vector (``GameSpec.make_vector_env``) directly, every slot moving at every call, the agent's
slots asked of the agent's policy and the others of the opponent, as a batched trainer drives
it; the
``make_vec`` row steps ``gymnasium.make_vec(id, num_envs=N, opponent=...)`` with the agent's
actions, the opponent's decisions played inside each step. Both reset a slot's opponent when its
game ends. Decisions are counted for both seats (the agent's actions plus ``opponent_moves``,
those of a finished episode included). Two rates: ``env`` divides them by the time spent in the
environment (the opponent's decisions and the game vector's steps; for ``make_vec``, everything
its ``step`` does), without the agent's own policy, which a trainer replaces and which costs
differently on one batch of N than on the vector row's batch of the seats to move; ``loop`` by
the whole loop's time, that policy included. The two rows of a pair are measured in turns,
``--rounds`` times each (the machine's other load falls on both), and each row quotes its best
round; each ``make_vec`` row's ratios are to its ``vector_env`` row of the same run. The games
are every registered game (or ``--game``).
"""

from __future__ import annotations

import argparse
import time

import gymnasium
import numpy as np

import reborn_env.envs
from reborn_env.bots.batched import RandomBatch, batched_bot
from reborn_env.core import registry
from reborn_env.core.aec_vector import WAIT


def vector_rate(name: str, kind: str, n: int, seconds: float) -> tuple[float, float]:
    """Decisions/s of the game vector driven directly: the first seat's slots by random play,
    the other slots by the batched ``kind`` bot, every slot at every call."""
    vector = registry.get(name).make_vector_env(n, 1)
    agent, opponent = RandomBatch(range(n)), batched_bot(name, kind, range(n, 2 * n))
    obs, mask, seat = vector.reset()
    actions = np.full(n, WAIT, dtype=np.int64)
    decisions, in_env, start = 0, 0.0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        mine = np.flatnonzero(seat == 0)
        if len(mine):
            actions[mine] = agent.act(mine, obs[mine], mask[mine])
        began = time.perf_counter()
        theirs = np.flatnonzero(seat != 0)
        if len(theirs):
            actions[theirs] = opponent.act(theirs, obs[theirs], mask[theirs])
        _, _, _, _, terminated, truncated = vector.step(actions)
        for i in np.flatnonzero(terminated | truncated).tolist():
            opponent.reset(i)
        in_env += time.perf_counter() - began
        decisions += n
    return decisions / in_env, decisions / (time.perf_counter() - start)


def make_vec_rate(name: str, kind: str, n: int, seconds: float) -> tuple[float, float]:
    """Decisions/s of ``gymnasium.make_vec``'s env: the agent's random legal actions, the
    opponent's decisions inside each step, both counted."""
    envs = gymnasium.make_vec(reborn_env.envs.gymnasium_id(name), num_envs=n, opponent=kind)
    agent, slots = RandomBatch(range(n)), np.arange(n)
    obs, infos = envs.reset(seed=1)
    decisions, in_env, start = 0, 0.0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions = agent.act(slots, obs, infos["action_mask"])
        began = time.perf_counter()
        obs, _, _, _, infos = envs.step(actions)
        in_env += time.perf_counter() - began
        decisions += n + int(infos["opponent_moves"].sum())
        if "final_info" in infos:
            decisions += int(infos["final_info"]["opponent_moves"].sum())
    return decisions / in_env, decisions / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time a round (default 1)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds a row (default 3)")
    parser.add_argument("--num-envs", type=int, default=256, help="N, games per vector")
    parser.add_argument("--game", choices=registry.names(), help="one game (default: all)")
    args = parser.parse_args()
    print(f"N = {args.num_envs}, best of {args.rounds} rounds of {args.seconds:g} s a row")
    print(f"{'row (decisions/s)':<48} {'env':>10} {'ratio':>6} {'loop':>10} {'ratio':>6}")
    for name in [args.game] if args.game else registry.names():
        spec = registry.get(name)
        kinds = ["random"] + (["heuristic"] if "heuristic" in spec.batched_bots else [])
        for kind in kinds:
            peer, ours = (0.0, 0.0), (0.0, 0.0)
            for _ in range(args.rounds):
                peer = _best(peer, vector_rate(name, kind, args.num_envs, args.seconds))
                ours = _best(ours, make_vec_rate(name, kind, args.num_envs, args.seconds))
            for row, rates in (("vector_env", peer), ("make_vec", ours)):
                env, loop = rates
                print(
                    f"{f'{name} {row}, {kind} opponent':<48} {env:>10,.0f} {env / peer[0]:>6.2f}"
                    f" {loop:>10,.0f} {loop / peer[1]:>6.2f}"
                )


def _best(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    return max(a[0], b[0]), max(a[1], b[1])


if __name__ == "__main__":
    main()
