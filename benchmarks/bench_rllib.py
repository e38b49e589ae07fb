"""Training throughput and memory: RLlib's PPO (training.rllib.train) vs our trainer
(training.ppo.train).

Run: ``python benchmarks/bench_rllib.py [--env NAME] [--updates 5]`` (needs the ``rllib`` extra).
Each trainer runs in its own child process, one after the other, on the same competitive game
(``--env``, default the first bundled one in name order) by self-play, for the same number of PPO
updates of the same size, with the same settings where both have them (RLlib / ours):

* decisions per update: ``train_batch_size`` 1024 / ``num_envs * num_steps`` = 8 x 128;
* minibatches and epochs: ``minibatch_size`` 256, ``num_epochs`` 4 / ``num_minibatches`` 4,
  ``update_epochs`` 4; learning rate 2.5e-4; network: our MLP (64, 64) in both;
* self-play: RLlib maps both seats to the learner (``snapshot_prob`` 0), so every decision is
  trained on; ours plays its learner against the current policy (``latest_opponent_prob`` 1), so
  half the decisions are the learner's. Both columns are given: decisions trained on ("learner")
  and decisions played ("all");
* processes: RLlib samples in the driver (``num_env_runners`` 0, 8 games) and, in a second row,
  in one remote env runner; ours in its one process (8 games, and 256 games in the compiled
  vector, its natural width, 4 decisions each per update). One torch thread everywhere.

Rates are decisions per second of the training loop (RLlib: ``Algorithm.train()`` calls, not
Ray's start-up; ours: its own ``wall_time``). Memory is the peak, over the child's life, of the
summed RSS of the child and every process under it (Ray's GCS, raylet, workers and agents),
sampled every 50 ms with psutil (shared pages count once per process, so this is an upper bound).
The ratio columns divide each row by our trainer's 8-game row.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from reborn_env.core import registry

UPDATES = 5
NUM_ENVS, NUM_STEPS = 8, 128
BATCH = NUM_ENVS * NUM_STEPS
MINIBATCHES, EPOCHS = 4, 4
LEARNING_RATE = 2.5e-4
HIDDEN = [64, 64]
WIDE_ENVS = 256
ROWS = {
    "ours8": "training.ppo.train, 8 envs",
    "ours256": f"training.ppo.train, {WIDE_ENVS} envs",
    "rllib0": "RLlib, driver samples",
    "rllib1": "RLlib, 1 env runner",
}


def run_ours(env: str, updates: int, num_envs: int, folder: Path) -> dict[str, float]:
    """Our trainer in this process: learner and all decisions, seconds."""
    import contextlib
    import io

    from training.ppo.config import TrainConfig
    from training.ppo.train import train

    cfg = TrainConfig.from_dict(
        {
            "env": env,
            "total_steps": updates * BATCH,
            "num_envs": num_envs,
            "num_steps": BATCH // num_envs,
            "learning_rate": LEARNING_RATE,
            "num_minibatches": MINIBATCHES,
            "update_epochs": EPOCHS,
            "hidden_sizes": HIDDEN,
            "torch_threads": 1,
            "latest_opponent_prob": 1.0,
            "imitation_games": 0,
            "eval_opponents": [],
            "checkpoint_dir": str(folder / "checkpoints"),
            "checkpoint_every": 10**6,
            "run_name": "bench_rllib",
        },
        source="bench_rllib",
    )
    with contextlib.redirect_stdout(io.StringIO()):
        trainer = train(cfg, log_dir=str(folder / "runs"))
    return {"learner": trainer.global_step, "all": trainer.env_steps, "seconds": trainer.wall_time}


def run_rllib(env: str, updates: int, runners: int, folder: Path) -> dict[str, float]:
    """RLlib's PPO in this process (a local Ray of 2 CPUs): decisions and seconds."""
    import ray

    from training.rllib import train as rllib_train
    from training.rllib.config import RllibConfig

    cfg = RllibConfig.from_dict(
        {
            "env": env,
            "total_steps": updates * BATCH,
            "train_batch_size": BATCH,
            "minibatch_size": BATCH // MINIBATCHES,
            "num_epochs": EPOCHS,
            "learning_rate": LEARNING_RATE,
            "hidden_sizes": HIDDEN,
            "num_env_runners": runners,
            "envs_per_runner": NUM_ENVS,
            "num_cpus": 2,
            "snapshot_prob": 0.0,
            "snapshot_every": 0,
            "checkpoint_dir": str(folder),
        },
        source="bench_rllib",
    )
    rllib_train.start_ray(None, cfg.num_cpus)
    try:
        result = rllib_train.train(cfg, log=lambda line: None)
    finally:
        ray.shutdown()
    return {
        "learner": result["decisions"],
        "all": result["decisions"],
        "seconds": result["seconds"],
    }


def child(row: str, env: str, updates: int) -> None:
    """One row, measured in this (child) process; prints its figures as one JSON line."""
    with tempfile.TemporaryDirectory(prefix="bench_rllib_") as tmp:
        if row.startswith("ours"):
            figures = run_ours(env, updates, int(row[4:]), Path(tmp))
        else:
            figures = run_rllib(env, updates, int(row[5:]), Path(tmp))
    print("RESULT " + json.dumps(figures), flush=True)


def measure(row: str, env: str, updates: int) -> dict[str, float]:
    """Run ``row`` in a child process, sampling the summed RSS of its process tree."""
    import ray  # noqa: F401, I001  (first: it puts its copy of psutil on the path)
    import psutil

    argv = [sys.executable, __file__, "--child", row, "--env", env, "--updates", str(updates)]
    environ = dict(os.environ, OMP_NUM_THREADS="1")
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=environ)
    root, peak = psutil.Process(proc.pid), 0
    while proc.poll() is None:
        total = 0
        try:
            tree = [root, *root.children(recursive=True)]
        except psutil.NoSuchProcess:
            tree = []
        for p in tree:
            try:
                total += p.memory_info().rss
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                continue
        peak = max(peak, total)
        time.sleep(0.05)
    out = proc.stdout.read().decode() if proc.stdout else ""
    lines = [line for line in out.splitlines() if line.startswith("RESULT ")]
    if proc.returncode or not lines:
        sys.exit(f"{ROWS[row]} failed (status {proc.returncode}); run it alone: {' '.join(argv)}")
    figures = json.loads(lines[-1][len("RESULT ") :])
    figures.update(peak_mb=peak / 2**20, wall=time.perf_counter() - start)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    competitive = [n for n in registry.names() if not registry.get(n).facts.cooperative]
    parser.add_argument("--env", choices=competitive, default=registry.default_name())
    parser.add_argument("--updates", type=int, default=UPDATES, help="PPO updates each")
    parser.add_argument("--child", choices=ROWS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.env, args.updates)
        return
    rows = {}
    for row, name in ROWS.items():
        print(f"  running {name} for {args.updates} updates of {BATCH} ...", flush=True)
        rows[row] = measure(row, args.env, args.updates)
    base = rows["ours8"]
    base_rate = base["learner"] / base["seconds"]
    print()
    print(
        "| trainer | learner dec. | seconds | learner dec./s | all dec./s | peak RSS MB "
        "| process wall s | rate vs ours | memory vs ours |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for row, f in rows.items():
        rate = f["learner"] / f["seconds"]
        print(
            f"| {ROWS[row]} | {f['learner']:.0f} | {f['seconds']:.1f} | {rate:,.0f} "
            f"| {f['all'] / f['seconds']:,.0f} | {f['peak_mb']:,.0f} | {f['wall']:.1f} "
            f"| {rate / base_rate:.2f}x | {f['peak_mb'] / base['peak_mb']:.2f}x |"
        )


if __name__ == "__main__":
    main()
