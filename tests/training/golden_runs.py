"""Digests of short seeded training runs, to prove a refactor of the trainers changed nothing.

Run before and after a change that must keep behaviour (``python -m tests.training.golden_runs
--out before.json``, then ``--out after.json --compare before.json``): each run's weights,
optimiser state, opponent pool, history and TensorBoard scalars (wall-clock rates left out) are
hashed, for a straight run and the same run stopped after its second update and resumed, and for
the evaluation and tournament commands on the resulting policy. The runs cover what the shipped
configs use: imitation with DAgger, PFSP over bots and snapshots (Earth Reborn), the cooperative
team (haven), and NFSP. Not a test: digests of floating-point training are this machine's.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import torch

TIMING_TAGS = ("charts/SPS", "charts/env_SPS")
"""TensorBoard scalars that measure the wall clock, not the run."""
VOLATILE_KEYS = ("wall_time", "checksum", "timing", "seconds", "rates")
"""Checkpoint entries that hold the wall clock (the checksum covers it too)."""

PPO_RUNS = {
    "earth_reborn_ppo": (
        "env: earth_reborn_v0\nenv_kwargs: {mp_shaping: 0.1}\nseed: 3\n"
        "imitation_games: 8\nimitation_epochs: 1\nimitation_teacher: saw_hunter\n"
        "dagger_rounds: 1\nimitation_chunk: 4\n"
        "total_steps: 1024\nnum_envs: 8\nnum_steps: 32\nnum_minibatches: 2\nupdate_epochs: 2\n"
        "hidden_sizes: [32, 32]\nsnapshot_every: 2\npool_size: 2\nopponent_sampling: pfsp\n"
        "seat_sampling: pfsp\nlatest_opponent_prob: 0.2\nbot_opponents: [heuristic, random]\n"
        "eval_every: 2\neval_games: 4\neval_opponents: [random, heuristic]\n"
        "checkpoint_every: 1\ntorch_threads: 1\n"
    ),
    "haven_ppo": (
        "env: haven_v0\nenv_kwargs: {reward_shaping: true}\nseed: 5\n"
        "imitation_games: 4\nimitation_epochs: 1\n"
        "total_steps: 1024\nnum_envs: 4\nnum_steps: 64\nnum_minibatches: 2\nupdate_epochs: 2\n"
        "hidden_sizes: [32]\neval_every: 2\neval_games: 2\neval_opponents: [random]\n"
        "checkpoint_every: 1\ntorch_threads: 1\n"
    ),
}
WORK: list[str] = []
"""The scratch folder, hashed as ``<work>`` (the configs and tables name it)."""
NFSP_RUN = (
    "env: earth_reborn_v0\nseed: 4\nnum_envs: 8\ntotal_steps: 1500\nlearn_every: 64\n"
    "batch_size: 32\nreplay_capacity: 2000\nreservoir_capacity: 2000\nmin_buffer_size: 64\n"
    "hidden_sizes: [32]\neval_every: 10\neval_games: 2\neval_opponents: [random]\n"
    "torch_threads: 1\n"
)


def digest(value: Any) -> str:
    """A SHA-256 of a nested value: tensors and arrays by dtype, shape and bytes."""
    h = hashlib.sha256()
    _feed(h, value)
    return h.hexdigest()[:16]


def _feed(h: Any, value: Any) -> None:
    if isinstance(value, torch.Tensor):
        value = value.detach().cpu()
        h.update(f"T{value.dtype}{tuple(value.shape)}".encode())
        h.update(value.contiguous().reshape(-1).view(torch.uint8).numpy().tobytes())
    elif isinstance(value, np.ndarray):
        h.update(f"A{value.dtype}{value.shape}".encode() + np.ascontiguousarray(value).tobytes())
    elif isinstance(value, dict):
        for key in sorted(value, key=str):
            if key in VOLATILE_KEYS:
                continue
            h.update(b"K")
            _feed(h, str(key))
            _feed(h, value[key])
    elif isinstance(value, (list, tuple)):
        h.update(f"L{len(value)}".encode())
        for item in value:
            _feed(h, item)
    elif isinstance(value, str):
        h.update(f"S{value.replace(WORK[0], '<work>') if WORK else value}".encode())
    else:
        h.update(f"V{value!r}".encode())


def scalars(log_dir: Path) -> str:
    """A digest of every TensorBoard scalar but the wall-clock rates."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    rows = []
    for events in sorted(log_dir.rglob("events.out.tfevents.*")):
        acc = EventAccumulator(str(events))
        acc.Reload()
        for tag in sorted(acc.Tags()["scalars"]):
            if tag not in TIMING_TAGS:
                rows += [(tag, e.step, e.value) for e in acc.Scalars(tag)]
    return digest(rows)


def checkpoint_digests(folder: Path) -> dict[str, str]:
    """Each entry of ``latest.pt`` (and ``policy.pt``) hashed on its own, so a diff names it."""
    out = {}
    for name in ("latest.pt", "policy.pt"):
        path = folder / name
        if path.is_file():
            payload = torch.load(path, weights_only=False)
            for key in sorted(payload):
                if key not in VOLATILE_KEYS:
                    out[f"{name}:{key}"] = digest(payload[key])
    return out


def run(args: list[str], cwd: Path) -> str:
    """One training or bench command as a user runs it; its stdout."""
    done = subprocess.run(
        [sys.executable, *args], cwd=cwd, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def ppo_run(name: str, text: str, work: Path, repo: Path, stop_after: int | None) -> dict:
    """A PPO run (straight, or stopped after ``stop_after`` updates and resumed), digested."""
    tag = "resumed" if stop_after else "straight"
    folder = work / f"{name}_{tag}"
    config = work / f"{name}_{tag}.yaml"
    config.write_text(text + f"checkpoint_dir: {folder / 'ckpt'}\nrun_name: {name}_{tag}\n")
    logs = folder / "runs"
    call = (
        "from training.ppo.train import load_config, train; cfg = load_config({!r}); train(cfg, {})"
    )
    where = f"log_dir={str(logs)!r}"
    if stop_after:
        run(["-c", call.format(str(config), f"{where}, stop_after={stop_after}")], repo)
        run(["-c", call.format(str(config), f"{where}, resume=True")], repo)
    else:
        run(["-c", call.format(str(config), where)], repo)
    return {**checkpoint_digests(folder / "ckpt"), "tensorboard": scalars(logs)}


def bench_digests(policy: Path, work: Path, repo: Path) -> dict[str, str]:
    """The evaluation table and a small tournament of the policy: their outputs hashed."""
    evaluation = run(
        [
            "-m",
            "training.bench.evaluate",
            "--checkpoint",
            str(policy),
            "--opponent",
            "heuristic",
            "--games",
            "6",
            "--seed",
            "2",
        ],
        repo,
    )
    out = work / "tournament"
    run(
        [
            "-m",
            "training.bench.tournament",
            "--env",
            "earth_reborn_v0",
            "--bots",
            "random",
            "heuristic",
            str(policy),
            "--games",
            "4",
            "--seed",
            "1",
            "--out",
            str(out),
        ],
        repo,
    )
    games = json.loads((out / "results.json").read_text())
    table = [line for line in evaluation.splitlines() if "/s" not in line]  # not the progress bar
    return {"evaluate": digest(table), "tournament": digest(games)}


def nfsp_digests(work: Path, repo: Path) -> dict[str, str]:
    """A short NFSP run, digested."""
    folder = work / "nfsp"
    config = work / "nfsp.yaml"
    config.write_text(NFSP_RUN + f"checkpoint_dir: {folder}\nrun_name: nfsp\n")
    run(["-m", "training.nfsp", "--config", str(config)], repo)
    return checkpoint_digests(folder)


def collect(repo: Path) -> dict[str, dict[str, str]]:
    """Every digest, run by run."""
    out: dict[str, dict[str, str]] = {}
    work = Path(tempfile.mkdtemp(prefix="golden_runs_"))
    WORK[:] = [str(work)]
    for name, text in PPO_RUNS.items():
        for stop in (None, 2):
            key = f"{name}_{'resumed' if stop else 'straight'}"
            out[key] = ppo_run(name, text, work, repo, stop)
            print(f"{key}: {len(out[key])} digests", flush=True)
    policy = work / "earth_reborn_ppo_straight" / "ckpt" / "policy.pt"
    out["bench"] = bench_digests(policy, work, repo)
    out["nfsp"] = nfsp_digests(work, repo)
    shutil.rmtree(work)
    return out


def main(argv: list[str] | None = None) -> int:
    """Collect the digests, write them, and compare with an earlier file if asked."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--compare")
    args = parser.parse_args(argv)
    digests = collect(Path.cwd())
    Path(args.out).write_text(json.dumps(digests, indent=1, sort_keys=True))
    if not args.compare:
        return 0
    before = json.loads(Path(args.compare).read_text())
    diffs = [
        f"{run_}:{key}: {before.get(run_, {}).get(key)} -> {value}"
        for run_, entries in digests.items()
        for key, value in entries.items()
        if before.get(run_, {}).get(key) != value
    ]
    missing = [f"{r}:{k}" for r, e in before.items() for k in e if k not in digests.get(r, {})]
    for line in diffs + [f"missing {m}" for m in missing]:
        print(line)
    total = sum(len(e) for e in digests.values())
    print(f"{total} digests, {len(diffs)} differ, {len(missing)} missing")
    return 1 if diffs or missing else 0


if __name__ == "__main__":
    sys.exit(main())
