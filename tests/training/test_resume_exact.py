"""``--resume`` on a real game: a run stopped after a checkpoint and resumed ends with the same
weights and optimiser state, bit for bit, as the run that never stopped.

The game is the bundled competitive game with a compiled batched bot (its opponents' generators
live in C), played against that bot and the random bot (each slot's own stream), with PFSP over
the bots and the snapshot pool, as the shipped configs train; its games are cut at 50 steps so
that many end and new opponents are drawn. What such a run must carry across a restart beyond
the toy env's: the bots' generators in the middle of a game, which snapshot networks were built
(building one draws its first weights from torch's generator), the restart positions and the
recent episodes' returns.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import torch

from reborn_env.core import registry
from reborn_env.policies.artifact import save_checkpoint
from training.ppo.config import TrainConfig
from training.ppo.resume import run_payload
from training.ppo.state import RECENT_RETURNS, Trainer
from training.ppo.train import build_trainer, train

GAME = next(
    name
    for name in registry.names()
    if registry.get(name).batched_bots and not registry.get(name).facts.cooperative
)
BOTS = [*registry.get(GAME).batched_bots, "random"]

RUNS = {
    "pfsp over the bots and the pool": {"opponent_sampling": "pfsp", "seat_sampling": "pfsp"},
    "uniform, snapshots met often": {
        "opponent_sampling": "uniform",
        "bot_opponent_prob": 0.5,
        "latest_opponent_prob": 0.3,
        "snapshot_every": 1,
    },
    "restarts from earlier positions": {"restart_prob": 0.3},
}


def _config(folder: Path, options: dict[str, Any]) -> TrainConfig:
    """A few seconds of seeded training: 4 updates of 4 games x 16 learner decisions, a tiny
    network, a checkpoint after every update, and a short imitation warm start (its clone is
    the pool's first snapshot)."""
    return TrainConfig.from_dict(
        {
            "env": GAME,
            "env_kwargs": {"max_steps": 50},
            "seed": 3,
            "imitation_games": 2,
            "imitation_epochs": 1,
            "total_steps": 4 * 4 * 16,
            "num_envs": 4,
            "num_steps": 16,
            "num_minibatches": 2,
            "update_epochs": 1,
            "hidden_sizes": [16],
            "snapshot_every": 2,
            "pool_size": 2,
            "latest_opponent_prob": 0.2,
            "bot_opponents": BOTS,
            "eval_opponents": [],
            "checkpoint_every": 1,
            "checkpoint_dir": str(folder / "ckpt"),
            "run_name": "resume",
            **options,
        }
    )


def _assert_same_state(straight: Trainer, resumed: Trainer) -> None:
    """Every tensor of the model's and the optimiser's state dicts equal, and the same games."""
    assert resumed.update == straight.update == 4
    model = straight.model.state_dict()
    for key, value in resumed.model.state_dict().items():
        assert torch.equal(value, model[key]), f"model {key}"
    optimizer, again = straight.optimizer.state_dict(), resumed.optimizer.state_dict()
    assert again["param_groups"] == optimizer["param_groups"]
    assert again["state"].keys() == optimizer["state"].keys()
    for param, state in optimizer["state"].items():
        for key, value in state.items():
            assert torch.equal(again["state"][param][key], value), f"optimizer {param} {key}"
    assert resumed.env_steps == straight.env_steps  # the opponents made the same moves
    recent = straight.finished_returns[-RECENT_RETURNS:]
    assert recent and resumed.finished_returns[-RECENT_RETURNS:] == recent  # charted


@pytest.mark.parametrize("options", RUNS.values(), ids=RUNS.keys())
@pytest.mark.parametrize("stop_after", [1, 3])
def test_a_resumed_run_ends_with_the_straight_runs_weights(
    tmp_path: Path, options: dict[str, Any], stop_after: int
) -> None:
    """Straight for 4 updates, and stopped after ``stop_after`` (mid-game for most slots) then
    resumed from its ``latest.pt``: the same weights and optimiser state."""
    logs = str(tmp_path / "runs")
    straight = train(_config(tmp_path / "straight", options), log_dir=logs)
    cfg = _config(tmp_path / "resumed", options)
    train(cfg, log_dir=logs, stop_after=stop_after)
    resumed = train(cfg, resume=True, log_dir=logs)
    _assert_same_state(straight, resumed)


def test_a_policy_file_opponent_first_met_after_the_start_resumes_exactly(tmp_path: Path) -> None:
    """A policy file as a bot opponent, rarely drawn, so that the resumed run makes it while it
    puts its slots back (making it draws the network's first weights from torch's generator,
    which the straight run drew before its checkpoint)."""
    opponent = tmp_path / "opponent.pt"
    save_checkpoint(opponent, run_payload(build_trainer(_config(tmp_path, {})), full=False))
    options = {
        "env_kwargs": {"max_steps": 20},
        "seed": 1,  # the opponent is not drawn for the first games, but is before update 3
        "bot_opponents": [str(opponent)],
        "opponent_sampling": "uniform",
        "bot_opponent_prob": 0.2,
        "imitation_games": 0,
    }
    logs = str(tmp_path / "runs")
    straight = train(_config(tmp_path / "straight", options), log_dir=logs)
    cfg = _config(tmp_path / "resumed", options)
    train(cfg, log_dir=logs, stop_after=3)
    resumed = train(cfg, resume=True, log_dir=logs)
    _assert_same_state(straight, resumed)


def test_the_run_trains_on_its_torch_threads_after_evaluating(tmp_path: Path) -> None:
    """Evaluating builds a policy bot, which plays on one thread; the run then goes back to its
    ``torch_threads``, as a resumed run (which has not evaluated yet) trains, so both compute the
    same sums in the same order."""
    cfg = _config(tmp_path, {"torch_threads": 2, "eval_opponents": ["random"], "eval_games": 1})
    try:
        train(cfg, log_dir=str(tmp_path / "runs"), stop_after=1)
        assert torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(1)
