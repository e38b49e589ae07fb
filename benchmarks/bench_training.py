"""Training throughput by precision and threads, measured in one run: what the ``precision``,
``torch_threads`` and ``update_threads`` defaults rest on.

Run: ``python benchmarks/bench_training.py --config FILE [--updates 4] [--rounds 2] [--busy]``

Three tables.

* **The trainer**: short runs of ``training.ppo.train`` with the config's game, network, vector
  and batch (no imitation, no evaluation, one checkpoint at the end into a temporary folder), for
  each precision (float32, bfloat16) and torch threads (1, 2) with the update on one thread,
  then on one torch thread with the update's rows split over two Python threads
  (``update_threads: 2``, ``training/ppo/fused.py``), and with ``overlap`` (the update on a
  second Python thread while the next rollout is collected, ``training/ppo/overlap.py``).
  The rows run in turn, round after
  round, and each keeps its best round: learner decisions per second of the run's own clock, the
  seconds per update spent in simulation, inference and learning, and the ratio to float32 on one
  thread. ``--busy`` keeps a second process training (the same config, float32, one thread)
  throughout, as when two jobs share the machine. The runs use the config's ``device`` (``auto``:
  a GPU where torch sees one), so where a GPU is lent this table is a GPU run's; the header
  names the device.
* **The network alone**: one forward pass (sampling included) at the batch sizes a rollout meets,
  and one minibatch step of the PPO loss (forward, backward, gradient clipping, Adam) at the
  config's minibatch, by autograd and by the gradients written out (``fused_update``,
  ``training/ppo/fused.py``) on one thread and with the rows split over two
  (``update_threads``), in float32 and in bfloat16, in milliseconds, best of 5 repeats.
  Rollouts play in float32 because bfloat16 is no faster at their batch sizes
  (``training/ppo/rollout.py``).
* **The first layer, dense or sparse**: the first layer's forward and backward at the config's
  minibatch on observations of the game's own sparsity (random play's), as a dense product in
  float32 and in bfloat16, and as an embedding bag over the non-zero inputs only (index lists
  and values, as a core could hand them over, or found in the dense rows first).
  The dense bfloat16 product is what the trainer uses.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from short_runs import short_run  # noqa: E402

from reborn_env.policies.network import build_model  # noqa: E402
from training.common.device import resolve_device  # noqa: E402
from training.common.envs import make_env  # noqa: E402
from training.common.precision import autocast, cpu_has_bf16_units  # noqa: E402
from training.common.schema import settings_of  # noqa: E402
from training.ppo.config import TrainConfig, load_config  # noqa: E402
from training.ppo.inputs import Batch, Hyperparameters  # noqa: E402
from training.ppo.loss import minibatch_step  # noqa: E402
from training.warmstart.imitation import record_games  # noqa: E402

PRECISIONS = ("float32", "bfloat16")
THREADS = (1, 2)
ROWS = tuple(
    [(precision, threads, 1, False) for precision in PRECISIONS for threads in THREADS]
    + [(precision, 1, 2, False) for precision in PRECISIONS]
    + [(precision, 1, 1, True) for precision in PRECISIONS]
)
"""(precision, torch threads, update threads, overlap) of each row of the trainer's table."""
INFERENCE_BATCHES = (8, 64, 256)


@dataclass
class Measured:
    """One run's rate and where its time went, per update."""

    rate: float
    simulation: float
    inference: float
    learning: float


def run_trainer(
    base: TrainConfig,
    precision: str,
    threads: int,
    updates: int,
    update_threads: int = 1,
    overlap: bool = False,
) -> Measured:
    """A short run of the config's trainer in ``precision`` on ``threads`` torch threads, each
    minibatch's rows split over ``update_threads``, its updates beside the rollouts with
    ``overlap``."""
    settings = {
        **base.to_dict(),
        "precision": precision,
        "torch_threads": threads,
        "update_threads": update_threads,
        "overlap": overlap,
        "total_steps": updates * base.batch_size,
    }
    trainer = short_run(settings, "bench_training")
    timers = trainer.timers
    return Measured(
        trainer.global_step / trainer.wall_time,
        timers.simulation / updates,
        timers.inference / updates,
        timers.learning / updates,
    )


def companion(config: str) -> subprocess.Popen:
    """A second process training the same config in float32 on one thread until killed."""
    return subprocess.Popen(
        [sys.executable, __file__, "--config", config, "--as-companion"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def best_ms(step, repeats: int = 5, calls: int = 20) -> float:
    """The best of ``repeats`` timings of ``calls`` calls of ``step``, in ms per call."""
    step()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            step()
        times.append((time.perf_counter() - start) / calls * 1e3)
    return min(times)


def network_rows(cfg: TrainConfig) -> list[tuple[str, float, float]]:
    """(what, float32 ms, bfloat16 ms) of the config's network alone."""
    env = make_env(cfg.env, **cfg.env_kwargs)
    agent = env.possible_agents[0]
    obs_size = env.observation_space(agent)["observation"].shape[0]
    n_actions = env.action_space(agent).n
    torch.set_num_threads(1)
    torch.manual_seed(0)
    model = build_model(obs_size, n_actions, cfg.hidden_sizes)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4, eps=1e-5, fused=True)

    def inputs(rows: int) -> tuple[torch.Tensor, torch.Tensor]:
        obs = (torch.rand(rows, obs_size) < 0.135).float()
        mask = torch.rand(rows, n_actions) < 0.1
        mask[:, 0] = True
        return obs, mask

    rows = []
    for batch in INFERENCE_BATCHES:
        obs, mask = inputs(batch)
        timed = []
        for dtype in (torch.float32, torch.bfloat16):

            def infer(obs: torch.Tensor = obs, mask: torch.Tensor = mask, dtype=dtype) -> None:
                with torch.no_grad(), autocast(dtype):  # entered per call, as a rollout would
                    model.get_action_and_value(obs, mask)

            timed.append(best_ms(infer))
        rows.append((f"inference, {batch} rows", *timed))
    obs, mask = inputs(cfg.minibatch_size)
    with torch.no_grad():
        actions, logprobs, _, values = model.get_action_and_value(obs, mask)
    rows_n = cfg.minibatch_size
    mb = Batch(obs, mask, actions, logprobs, values, torch.randn(rows_n), torch.randn(rows_n))
    ways = (
        ("autograd", False, 1),
        ("by hand (fused_update)", True, 1),
        ("by hand, rows over 2 threads (update_threads)", True, 2),
    )
    for how, by_hand, split in ways:
        hp = replace(settings_of(Hyperparameters, cfg), update_threads=split)
        timed = []
        for dtype in (torch.float32, torch.bfloat16):
            batch = mb.on(model, dtype)  # the observations in bfloat16, as the update casts them

            def step(dtype=dtype, batch: Batch = batch, by_hand=by_hand, hp=hp) -> None:
                minibatch_step(model, optimizer, batch, hp, dtype, "cpu", by_hand)

            timed.append(best_ms(step, calls=5))
        rows.append((f"update minibatch, {how}, {rows_n} rows", *timed))
    return rows


def observed_rows(cfg: TrainConfig, rows: int) -> torch.Tensor:
    """``rows`` observations of random play in the config's game (float32), recorded as the
    warm start records a teacher's games."""
    games = 16
    while True:
        data = record_games(cfg.env, cfg.env_kwargs, games, 0, cfg.gamma, teacher_name="random")
        if len(data["actions"]) >= rows:
            return data["obs"][:rows]
        games *= 2


def first_layer_rows(cfg: TrainConfig) -> list[tuple[str, float, float]]:
    """(variant, forward + backward ms, share of non-zero inputs) of the first layer."""
    import torch.nn.functional as F

    torch.set_num_threads(1)
    obs = observed_rows(cfg, cfg.minibatch_size)
    width = cfg.hidden_sizes[0]
    weight = torch.randn(width, obs.shape[1], requires_grad=True)
    bias = torch.zeros(width, requires_grad=True)
    table = weight.detach().t().contiguous().requires_grad_()
    rows, cols = obs.nonzero(as_tuple=True)
    values = obs[rows, cols]
    offsets = torch.searchsorted(rows, torch.arange(obs.shape[0]))
    density = float((obs != 0).float().mean())

    def dense(dtype: torch.dtype) -> None:
        with autocast(dtype):
            out = F.linear(obs, weight, bias)
        out.float().sum().backward()

    def bag() -> None:
        out = F.embedding_bag(cols, table, offsets, mode="sum", per_sample_weights=values) + bias
        out.sum().backward()

    def found_and_bagged() -> None:
        rows, cols = obs.nonzero(as_tuple=True)
        offsets = torch.searchsorted(rows, torch.arange(obs.shape[0]))
        out = F.embedding_bag(cols, table, offsets, mode="sum", per_sample_weights=obs[rows, cols])
        (out + bias).sum().backward()

    return [
        ("dense, float32", best_ms(lambda: dense(torch.float32), calls=10), density),
        ("dense, bfloat16 autocast", best_ms(lambda: dense(torch.bfloat16), calls=10), density),
        ("embedding bag, the non-zero inputs given", best_ms(bag, calls=10), density),
        ("embedding bag, the non-zero inputs found in dense rows",
         best_ms(found_and_bagged, calls=10), density),
    ]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", required=True, help="a PPO config, e.g. a shipped recipe")
    parser.add_argument("--updates", type=int, default=4, help="PPO updates a run (default 4)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of every row (default 2)")
    parser.add_argument(
        "--busy", action="store_true", help="keep a second training process running throughout"
    )
    parser.add_argument("--as-companion", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    base = load_config(args.config)
    if args.as_companion:
        run_trainer(base, "float32", 1, 10**4)
        return
    units = "has" if cpu_has_bf16_units() else "has no"
    shape = f"{base.num_envs} games x {base.num_steps} decisions an update"
    device = resolve_device(base.device)
    gpu = (
        torch.cuda.get_device_name(device) if device.type == "cuda" else "none (not seen by torch)"
    )
    print(f"{args.config}: {base.env}, network {base.hidden_sizes}, {shape}; this CPU {units} "
          f"bf16 units; the trainer's device: {device} (config 'device: {base.device}'); GPU: "
          f"{gpu}", flush=True)  # fmt: skip
    busy = companion(args.config) if args.busy else None
    try:
        results: dict[tuple[str, int, int, bool], Measured] = {}
        for r in range(args.rounds):
            for key in ROWS:
                precision, threads, split, overlap = key
                m = run_trainer(base, precision, threads, args.updates, split, overlap)
                print(f"  round {r + 1}: {precision}, {threads} thread(s), update on {split}"
                      f"{', overlap' if overlap else ''}: {m.rate:,.0f} learner decisions/s",
                      flush=True)  # fmt: skip
                if key not in results or m.rate > results[key].rate:
                    results[key] = m
        network = network_rows(base)
        first = first_layer_rows(base)
    finally:
        if busy is not None:
            busy.kill()
            busy.wait()
    peer = results[("float32", 1, 1, False)].rate
    load = "a second training process on the machine" if args.busy else "nothing else started"
    print(f"\nThe trainer ({args.updates} updates a run, best of {args.rounds} rounds; {load})\n")
    print("With overlap, learning runs beside simulation and inference: the three times add up")
    print("to more than the wall time.\n")
    print("| precision | torch threads | update threads | overlap | learner dec./s | sim s/update "
          "| infer s/update | learn s/update | vs float32, 1 thread |")  # fmt: skip
    print("| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |")
    for (precision, threads, split, overlap), m in results.items():
        print(f"| {precision} | {threads} | {split} | {'yes' if overlap else 'no'} | "
              f"{m.rate:,.0f} | {m.simulation:.2f} | {m.inference:.2f} | {m.learning:.2f} | "
              f"{m.rate / peer:.2f}x |")  # fmt: skip
    print("\nThe network alone, on the CPU (one torch thread, best of 5)\n")
    print("| what | float32 ms | bfloat16 ms | speed-up |")
    print("| --- | ---: | ---: | ---: |")
    for what, fp32, bf16 in network:
        print(f"| {what} | {fp32:.2f} | {bf16:.2f} | {fp32 / bf16:.2f}x |")
    density = first[0][2]
    print(f"\nThe first layer, forward and backward, {base.minibatch_size} observations of random "
          f"play ({density:.1%} of inputs non-zero; one thread, best of 5)\n")  # fmt: skip
    print("| variant | ms | vs dense float32 |")
    print("| --- | ---: | ---: |")
    for what, ms, _ in first:
        print(f"| {what} | {ms:.2f} | {first[0][1] / ms:.2f}x |")


if __name__ == "__main__":
    main()
