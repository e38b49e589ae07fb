"""The PPO losses (training/ppo/loss.py): the clipped surrogate objective and the value loss."""

from __future__ import annotations

import pytest
import torch

from training.common.schema import settings_of
from training.ppo.config import TrainConfig
from training.ppo.inputs import Hyperparameters
from training.ppo.loss import policy_loss, value_loss


def _config(**over) -> Hyperparameters:
    return settings_of(Hyperparameters, TrainConfig.from_dict({"total_steps": 64, **over}))


def test_the_policy_loss_clips_the_ratio_on_the_side_the_advantage_favours():
    """A positive advantage gains nothing from a ratio above 1 + clip_coef; a negative one is
    charged in full for a ratio far above it."""
    cfg = _config(norm_adv=False, clip_coef=0.2)
    ratio = torch.tensor([2.0])
    assert policy_loss(ratio, torch.tensor([1.0]), cfg).item() == pytest.approx(-1.2)
    assert policy_loss(ratio, torch.tensor([-1.0]), cfg).item() == pytest.approx(2.0)
    assert policy_loss(torch.tensor([1.1]), torch.tensor([1.0]), cfg).item() == pytest.approx(-1.1)


def test_the_value_loss_clips_around_the_rollouts_value_only_with_clip_vloss():
    """New value 2 for an old value 0 and a return of 1: clipped to 0.2 (error 0.8) the clipped
    loss keeps the larger error; unclipped it is the plain error of 1."""
    new, old, ret = torch.tensor([2.0]), torch.tensor([0.0]), torch.tensor([1.0])
    clipped = value_loss(new, old, ret, _config(clip_vloss=True, clip_coef=0.2))
    assert clipped.item() == pytest.approx(0.5 * 1.0)  # max(1.0, 0.8**2)
    new = torch.tensor([-0.5])  # unclipped error 1.5**2, clipped to -0.2: error 1.2**2
    assert value_loss(new, old, ret, _config(clip_vloss=True, clip_coef=0.2)).item() == (
        pytest.approx(0.5 * 1.5**2)
    )
    new = torch.tensor([0.5])  # unclipped error 0.25; clipped to 0.2: error 0.64
    assert value_loss(new, old, ret, _config(clip_vloss=True, clip_coef=0.2)).item() == (
        pytest.approx(0.5 * 0.64)
    )
    assert value_loss(new, old, ret, _config(clip_vloss=False)).item() == pytest.approx(0.5 * 0.25)


def test_the_update_receives_the_configs_values_and_what_they_imply():
    """The update reads a record of its hyperparameters, the run's sizes derived as the config
    derives them."""
    cfg = TrainConfig.from_dict(
        {
            "total_steps": 4096,
            "num_envs": 4,
            "num_steps": 64,
            "num_minibatches": 8,
            "clip_coef": 0.3,
        }
    )
    hp = settings_of(Hyperparameters, cfg)
    assert (hp.batch_size, hp.minibatch_size, hp.num_updates) == (256, 32, 16)
    assert (hp.clip_coef, hp.learning_rate, hp.anneal_lr) == (0.3, cfg.learning_rate, True)
