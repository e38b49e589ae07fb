"""Training throughput: sb3-contrib's MaskablePPO on SingleAgentEnv vs our trainer
(training.ppo.train).

Run: ``python benchmarks/bench_sb3.py [--env NAME] [--updates 5]`` (needs ``pip install -e
.[sb3]``). Both train on one competitive registered game (``--env``, default the first bundled one
in name order) against a RandomBot for the same number of PPO updates, in this one
process, one after the other, with the same settings where both have them (MaskablePPO / ours):

* environments: 8 SingleAgentEnv in a DummyVecEnv / ``num_envs: 8``;
* decisions per update: ``n_steps=128`` per env, 1024 in all / ``num_steps: 128``, 1024;
* minibatches and epochs: ``batch_size=256``, ``n_epochs=4`` / ``num_minibatches: 4``,
  ``update_epochs: 4``; learning rate 2.5e-4 for both;
* network: ``net_arch=[64, 64]`` (SB3 gives actor and critic a [64, 64] MLP each) /
  ``hidden_sizes: [64, 64]`` (one shared torso, two heads); ``--hidden 256 256`` measures both at
  the shipped policies' width instead;
* opponent: a RandomBot, the learner always the first seat / ``bot_opponents: [random]`` with
  ``bot_opponent_prob: 1.0``, the learner's seat drawn per episode (our trainer has no fixed seat);
* torch threads: ``--threads`` for both (our trainer's ``torch_threads``);
* arithmetic: float32 for MaskablePPO; our trainer's default ``precision: auto`` (its update in
  bfloat16 on a CPU with AMX or AVX-512 bf16 units, ``training/common/precision.py``), and
  ``--precision float32`` to compare like with like.

Our trainer runs four times: with those 8 envs; with 256 games in its vector (the compiled core's
batched step, the width it trains at) collecting the same 1024 learner decisions per update (4 per
game), everything else equal; so again with each minibatch's rows split over two Python threads
(``update_threads: 2``, ``training/ppo/fused.py``: the second core, which MaskablePPO gets only as
a second torch thread, ``--threads 2``); and so with ``overlap`` (each update on a second Python
thread while the next rollout is collected, ``training/ppo/overlap.py``). No imitation warm start,
no evaluation, one checkpoint at the end (our trainer always writes one), into a temporary folder.
The rates are learner decisions per second of wall time, learning included: ``num_timesteps`` over
the time of ``learn()`` for MaskablePPO, and the rate our trainer prints itself (``global_step /
wall_time``). "All decisions" adds the opponent's moves. The table's last column is each row's rate
divided by MaskablePPO's.
"""

from __future__ import annotations

import argparse
import sys
import time

import gymnasium
from short_runs import short_run

from reborn_env.core import registry
from training.common.precision import PRECISIONS

NUM_ENVS = 8
NUM_STEPS = 128
HIDDEN = [64, 64]
MINIBATCHES = 4
EPOCHS = 4
LEARNING_RATE = 2.5e-4
WIDE_ENVS = 256  # our trainer's natural width: the same 1024 decisions per update, 4 per game


class _OpponentTally(gymnasium.Wrapper):
    """Adds up the opponent's moves that SingleAgentEnv reports in its infos."""

    def __init__(self, env: gymnasium.Env) -> None:
        super().__init__(env)
        self.opponent_moves = 0

    def reset(self, **kwargs):
        obs, info = self.env.reset(**kwargs)
        self.opponent_moves += info["opponent_moves"]
        return obs, info

    def step(self, action):
        result = self.env.step(action)
        self.opponent_moves += result[4].get("opponent_moves", 0)
        return result


def bench_maskable_ppo(
    game: str, updates: int, seed: int, hidden: list[int]
) -> tuple[int, int, float]:
    """(learner decisions, all decisions, seconds) of MaskablePPO's ``learn()``."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.monitor import Monitor
    from stable_baselines3.common.vec_env import DummyVecEnv

    from reborn_env.wrappers import SingleAgentEnv

    tallies = [_OpponentTally(SingleAgentEnv(game)) for _ in range(NUM_ENVS)]
    venv = DummyVecEnv([lambda t=t: Monitor(t) for t in tallies])
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        learning_rate=LEARNING_RATE,
        n_steps=NUM_STEPS,
        batch_size=NUM_ENVS * NUM_STEPS // MINIBATCHES,
        n_epochs=EPOCHS,
        policy_kwargs={"net_arch": hidden},
        device="cpu",
        seed=seed,
        verbose=0,
    )
    start = time.perf_counter()
    model.learn(total_timesteps=updates * NUM_ENVS * NUM_STEPS)
    elapsed = time.perf_counter() - start
    learner = model.num_timesteps
    return learner, learner + sum(t.opponent_moves for t in tallies), elapsed


def bench_our_ppo(
    game: str,
    updates: int,
    seed: int,
    threads: int,
    quiet: bool,
    hidden: list[int],
    precision: str,
    num_envs: int = NUM_ENVS,
    num_steps: int = NUM_STEPS,
    update_threads: int = 1,
    overlap: bool = False,
) -> tuple[int, int, float]:
    """(learner decisions, all decisions, seconds) of ``training.ppo.train.train`` (its own clock),
    with ``num_envs`` games in its vector, ``num_steps`` learner decisions each per update, each
    minibatch's rows over ``update_threads``, each update beside the next rollout with
    ``overlap``."""
    settings = {
        "env": game,
        "seed": seed,
        "total_steps": updates * num_envs * num_steps,
        "num_envs": num_envs,
        "num_steps": num_steps,
        "learning_rate": LEARNING_RATE,
        "num_minibatches": MINIBATCHES,
        "update_epochs": EPOCHS,
        "hidden_sizes": hidden,
        "precision": precision,
        "torch_threads": threads,
        "bot_opponents": ["random"],
        "bot_opponent_prob": 1.0,
        "update_threads": update_threads,
        "overlap": overlap,
    }
    trainer = short_run(settings, "bench_sb3", quiet)
    return trainer.global_step, trainer.env_steps, trainer.wall_time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    competitive = [n for n in registry.names() if not registry.get(n).facts.cooperative]
    parser.add_argument("--env", choices=competitive, default=registry.default_name())
    parser.add_argument("--updates", type=int, default=5, help="PPO updates each (default 5)")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quiet", action="store_true", help="hide our trainer's log lines")
    parser.add_argument(
        "--hidden", type=int, nargs="+", default=HIDDEN, help="hidden widths (default 64 64)"
    )
    parser.add_argument(
        "--precision", choices=PRECISIONS, default="auto", help="our trainer's (default auto)"
    )
    args = parser.parse_args()
    try:
        import sb3_contrib  # noqa: F401
    except ImportError:
        sys.exit("bench_sb3 needs sb3-contrib: pip install -e .[sb3]")
    import torch

    torch.set_num_threads(args.threads)
    ours = (
        args.env,
        args.updates,
        args.seed,
        args.threads,
        args.quiet,
        args.hidden,
        args.precision,
    )
    print(f"network {args.hidden}; our trainer's precision: {args.precision}", flush=True)
    rows = []
    for name, run in (
        (
            "sb3-contrib MaskablePPO",
            lambda: bench_maskable_ppo(args.env, args.updates, args.seed, args.hidden),
        ),
        (
            "training.ppo.train, 8 envs",
            lambda: bench_our_ppo(*ours),
        ),
        (
            f"training.ppo.train, {WIDE_ENVS} envs",
            lambda: bench_our_ppo(*ours, WIDE_ENVS, NUM_ENVS * NUM_STEPS // WIDE_ENVS),
        ),
        (
            f"training.ppo.train, {WIDE_ENVS} envs, update_threads 2",
            lambda: bench_our_ppo(*ours, WIDE_ENVS, NUM_ENVS * NUM_STEPS // WIDE_ENVS, 2),
        ),
        (
            f"training.ppo.train, {WIDE_ENVS} envs, overlap",
            lambda: bench_our_ppo(*ours, WIDE_ENVS, NUM_ENVS * NUM_STEPS // WIDE_ENVS, 1, True),
        ),  # fmt: skip
    ):
        print(f"  running {name} for {args.updates} updates ...", flush=True)
        learner, everyone, seconds = run()
        torch.set_num_threads(args.threads)  # our trainer sets it too; keep the same for both
        rows.append((name, learner, everyone, seconds))
        print(f"  measured {name}: {learner} learner decisions in {seconds:.1f} s", flush=True)
    peer = rows[0][1] / rows[0][3]
    width = max(len(row[0]) for row in rows)
    print()
    header = (
        "trainer",
        "learner dec.",
        "seconds",
        "learner dec./s",
        "all dec./s",
        "vs MaskablePPO",
    )
    print(
        f"| {header[0]:<{width}} | {header[1]:>12} | {header[2]:>7} | {header[3]:>14} "
        f"| {header[4]:>10} | {header[5]:>14} |"
    )
    print(f"| {'-' * width} | {'-' * 11}: | {'-' * 6}: | {'-' * 13}: | {'-' * 9}: | {'-' * 13}: |")
    for name, learner, everyone, seconds in rows:
        rate = learner / seconds
        print(
            f"| {name:<{width}} | {learner:>12} | {seconds:>7.1f} | {rate:>14,.0f} "
            f"| {everyone / seconds:>10,.0f} | {rate / peer:>13.2f}x |"
        )


if __name__ == "__main__":
    main()
