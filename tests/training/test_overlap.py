"""``overlap``: the PPO loop's update on a second thread while the next rollout is collected.

What the mode promises (``training/ppo/overlap.py``): each update learns from the games the
weights before the previous update played (one update of policy lag), except after a checkpoint,
where the next rollout is played by the weights just saved; a run is deterministic; and a run
resumed from any checkpoint ends with the straight run's weights, bit for bit.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import torch

from reborn_env.core import registry
from reborn_env.policies.network import MaskedActorCritic
from training.ppo.config import TrainConfig
from training.ppo.train import ppo_step, train

GAME = next(
    name
    for name in registry.names()
    if registry.get(name).batched_bots and not registry.get(name).facts.cooperative
)


def _config(folder: Path, **options: Any) -> TrainConfig:
    """Six overlapped updates of 4 games x 16 learner decisions against the game's batched
    bot, a tiny network, a checkpoint every third update."""
    return TrainConfig.from_dict(
        {
            "env": GAME,
            "env_kwargs": {"max_steps": 50},
            "seed": 5,
            "imitation_games": 0,
            "total_steps": 6 * 4 * 16,
            "num_envs": 4,
            "num_steps": 16,
            "num_minibatches": 2,
            "update_epochs": 1,
            "hidden_sizes": [16],
            "bot_opponents": [*registry.get(GAME).batched_bots, "random"],
            "latest_opponent_prob": 0.3,
            "eval_opponents": [],
            "checkpoint_every": 3,
            "checkpoint_dir": str(folder / "ckpt"),
            "run_name": "overlap",
            "overlap": True,
            **options,
        }
    )


def _weights(trainer: Any) -> dict[str, torch.Tensor]:
    return {k: v.clone() for k, v in trainer.model.state_dict().items()}


def test_each_update_learns_from_what_the_weights_before_the_last_update_played(
    tmp_path: Path,
) -> None:
    """The log-probabilities a batch holds are those of the weights an update earlier than its
    own (the rollout was played during that update), and of its own weights right after a
    checkpoint and at the start, when the rollout was collected before the update began."""
    cfg = _config(tmp_path)
    step, seen = ppo_step(cfg), []

    def recording(model, optimizer, batch, rng, update):
        seen.append(({k: v.clone() for k, v in model.state_dict().items()}, batch))
        return step(model, optimizer, batch, rng, update)

    trainer = train(cfg, log_dir=str(tmp_path / "runs"), update=recording)
    assert trainer.update == len(seen) == 6
    player = MaskedActorCritic(trainer.model.obs_size, trainer.model.n_actions, [16])

    def logprobs(weights: dict[str, torch.Tensor], batch: Any) -> torch.Tensor:
        player.load_state_dict(weights)
        with torch.no_grad():
            return player.get_action_and_value(batch.obs, batch.masks, batch.actions)[1]

    for update, (weights, batch) in enumerate(seen):
        played_by = update if update % cfg.checkpoint_every == 0 else update - 1
        expected = logprobs(seen[played_by][0], batch)
        torch.testing.assert_close(batch.logprobs, expected, rtol=0, atol=1e-5)
        if played_by != update:
            assert not torch.allclose(batch.logprobs, logprobs(weights, batch), atol=1e-5)


def test_an_overlapped_run_is_deterministic(tmp_path: Path) -> None:
    """Two runs of one seed: the same weights, and the same moves made, whatever the threads'
    timing (the update shuffles with a generator of its own)."""
    logs = str(tmp_path / "runs")
    first = train(_config(tmp_path / "a"), log_dir=logs)
    second = train(_config(tmp_path / "b"), log_dir=logs)
    for key, value in _weights(first).items():
        assert torch.equal(value, second.model.state_dict()[key]), key
    assert first.env_steps == second.env_steps


def test_an_overlapped_run_resumed_from_a_checkpoint_ends_as_the_straight_run(
    tmp_path: Path,
) -> None:
    """Stopped at its checkpoint after update 3 and resumed: the straight run's weights, bit for
    bit, and as many decisions played."""
    logs = str(tmp_path / "runs")
    straight = train(_config(tmp_path / "straight"), log_dir=logs)
    cfg = _config(tmp_path / "resumed")
    train(cfg, log_dir=logs, stop_after=3)
    resumed = train(cfg, resume=True, log_dir=logs)
    for key, value in _weights(straight).items():
        assert torch.equal(value, resumed.model.state_dict()[key]), key
    assert resumed.env_steps == straight.env_steps
    assert resumed.global_step == straight.global_step == 6 * 4 * 16
