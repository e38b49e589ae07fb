"""How far from Nash self-play gets on Kuhn poker, measured exactly: PPO's self-play against MMD's
regularised self-play, trained by the real trainers and judged by the exact best response.

``python -m tests.games.kuhn_poker.nash [--seeds 3] [--updates 400]`` trains each algorithm once
per seed (the current policy as the only opponent, 256 games x 8 decisions a rollout) and prints,
for every algorithm, the exploitability in chips of the policy every ``--every`` updates and at
the end, with the mean and the range over seeds. Exploitability here is the game's own (KP-END-1:
chips won, not games won): the mean over the two seats of the exact best response's expected
chips against the policy (training/exploit/exact.py with ``utility_score``), which is 0 at a Nash
equilibrium; the uniform policy's is 0.458.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import tempfile
from pathlib import Path

import numpy as np
import torch

from reborn_env.core import registry
from training.exploit.exact import best_response, utility_score
from training.mmd.config import MMDConfig
from training.mmd.train import train as train_mmd
from training.ppo.config import TrainConfig
from training.ppo.train import train as train_ppo

from . import rules

GAME = "kuhn_poker_v0"
COMMON = dict(
    env=GAME, num_envs=256, num_steps=8, num_minibatches=2, update_epochs=4, hidden_sizes=[32],
    learning_rate=3e-4, anneal_lr=False, gamma=1.0, gae_lambda=1.0, latest_opponent_prob=1.0,
    eval_opponents=[],
)  # fmt: skip
ALGORITHMS = {
    "ppo": (TrainConfig, train_ppo, {"ent_coef": 0.01}),
    "mmd": (MMDConfig, train_mmd, {"magnet_coef": 1.0, "magnet_coef_end": 0.05, "kl_coef": 0.5}),
}
"""Each algorithm: its config, its trainer, and its own keys (PPO's entropy bonus as CleanRL
sets it; MMD's magnet uniform, its weight falling from 1 to 0.05, and its step's KL weight)."""


def deals() -> list[tuple[float, dict]]:
    """KP-DEAL-1: the six deals of two of the three cards, each with probability 1/6."""
    start = registry.get(GAME).make_env().unwrapped.rules.new_match(0, {}).to_position()
    return [(1 / 6, {**start, "cards": list(p)}) for p in itertools.permutations(rules.CARDS, 2)]


def exploitability(model: torch.nn.Module) -> float:
    """The policy's exploitability in chips (0 at a Nash equilibrium)."""
    spec = registry.get(GAME)
    low, high = spec.facts.min_utility, spec.facts.max_utility
    game_rules = spec.make_env().unwrapped.rules

    def policy(observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            obs = torch.as_tensor(observation, dtype=torch.float32)[None]
            logits, _ = model(obs, torch.as_tensor(mask, dtype=torch.bool)[None])
        return torch.softmax(logits, -1)[0].numpy() * mask

    roots, score = deals(), utility_score(low, high)
    best = [best_response(game_rules, roots, seat, policy, score).value for seat in (0, 1)]
    return (high - low) * (sum(best) / 2 - 0.5)


def curve(algorithm: str, seed: int, updates: int, every: int, folder: Path) -> list[float]:
    """The exploitability of ``algorithm``'s policy every ``every`` updates of one seeded run."""
    config, train, own = ALGORITHMS[algorithm]
    keys = {**COMMON, **own, "seed": seed, "checkpoint_dir": str(folder), "run_name": algorithm}
    cfg = config.from_dict({**keys, "total_steps": 256 * 8 * updates, "checkpoint_every": every})
    found = []
    for done in range(every, updates + 1, every):
        trainer = train(cfg, log_dir=str(folder / "runs"), resume=done > every, stop_after=every)
        assert trainer.update == done
        found.append(exploitability(trainer.model))
    return found


def main(argv: list[str] | None = None) -> int:
    """Train and measure every algorithm on every seed; print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--updates", type=int, default=400)
    parser.add_argument("--every", type=int, default=100)
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        for algorithm, seed in itertools.product(ALGORITHMS, range(args.seeds)):
            folder = Path(tmp) / f"{algorithm}{seed}"
            rows[algorithm, seed] = curve(algorithm, seed, args.updates, args.every, folder)
            shown = " ".join(f"{x:.3f}" for x in rows[algorithm, seed])
            print(f"{algorithm} seed {seed}: {shown}", flush=True)
    marks = range(args.every, args.updates + 1, args.every)
    print(f"\nexploitability in chips after {', '.join(map(str, marks))} updates (uniform: 0.458)")
    print("| algorithm | " + " | ".join(f"update {m}" for m in marks) + " |")
    print("| --- |" + " --- |" * len(marks))
    for algorithm in ALGORITHMS:
        cells = []
        for i in range(len(marks)):
            values = [rows[algorithm, s][i] for s in range(args.seeds)]
            cells.append(f"{statistics.mean(values):.3f} [{min(values):.3f}, {max(values):.3f}]")
        print(f"| {algorithm} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
