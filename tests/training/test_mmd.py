"""MMD (training/mmd): its two KL terms, its update's pull toward the magnet and toward the last
policy, its config, and a whole run through PPO's loop, stopped and resumed."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from reborn_env.core import registry
from reborn_env.policies.network import build_model
from training.common.schema import ConfigError, settings_of
from training.mmd.config import MMDConfig
from training.mmd.loss import MMDLoss, mmd_update, reverse_kl, uniform_log_probs
from training.mmd.train import train
from training.ppo.inputs import Batch

torch.set_num_threads(1)
GAME = next(n for n in registry.names() if not registry.get(n).facts.cooperative)
OBS, ACTIONS, ROWS = 6, 5, 64


def _hp(**over) -> MMDLoss:
    keys = {"env": GAME, "total_steps": 64, "num_envs": 4, "num_steps": 16, "num_minibatches": 1}
    return settings_of(MMDLoss, MMDConfig.from_dict({**keys, **over}))


def _batch(seed: int = 0, advantage: float = 0.0) -> tuple[torch.nn.Module, Batch]:
    """A network and a batch of its own decisions (three legal actions of five per row)."""
    torch.manual_seed(seed)
    model = build_model(OBS, ACTIONS, [16])
    obs = torch.randn(ROWS, OBS)
    masks = torch.zeros(ROWS, ACTIONS, dtype=torch.bool)
    masks[:, :3] = True
    with torch.no_grad():
        actions, logprobs, _, values = model.get_action_and_value(obs, masks)
    full = torch.full((ROWS,), advantage)
    return model, Batch(obs, masks, actions, logprobs, values, full, values.clone())


def _log_probs(model: torch.nn.Module, batch: Batch) -> torch.Tensor:
    with torch.no_grad():
        logits, _ = model(batch.obs, batch.masks)
        return torch.log_softmax(logits, -1).masked_fill(~batch.masks, 0.0)


def _step(model, batch, hp, magnet=None) -> None:
    optimizer = torch.optim.Adam(model.parameters(), lr=hp.learning_rate)
    mmd_update(model, optimizer, batch, hp, np.random.default_rng(0), 0, magnet)


def test_the_kl_terms_are_exact_over_the_legal_actions():
    """KL(p || p) = 0; KL(p || uniform over the n legal) = log n - H(p); illegal actions count
    for nothing."""
    mask = torch.tensor([[True, True, False, True]])
    p = torch.tensor([[0.5, 0.25, 0.0, 0.25]])
    log_p = torch.log(p.clamp(min=1e-30)).masked_fill(~mask, 0.0)
    assert reverse_kl(log_p, log_p, mask).item() == pytest.approx(0.0)
    entropy = -(0.5 * math.log(0.5) + 2 * 0.25 * math.log(0.25))
    uniform = uniform_log_probs(mask)
    assert reverse_kl(log_p, uniform, mask).item() == pytest.approx(math.log(3) - entropy)
    assert uniform[0, 2].item() == 0.0


def test_with_no_advantage_the_update_moves_toward_the_magnet():
    """Zero advantages leave only the regularisers: the uniform magnet raises the entropy over
    the legal actions, a policy magnet brings the policy closer to it."""
    model, batch = _batch()
    before = _log_probs(model, batch)
    _step(model, batch, _hp(magnet_coef=1.0, magnet_coef_end=1.0, kl_coef=0.0))
    after = _log_probs(model, batch)
    uniform = uniform_log_probs(batch.masks)
    assert (
        reverse_kl(after, uniform, batch.masks).mean()
        < reverse_kl(before, uniform, batch.masks).mean()
    )
    model, batch = _batch(seed=1)
    magnet, _ = _batch(seed=2)
    pull = _log_probs(magnet, batch)
    gap = reverse_kl(_log_probs(model, batch), pull, batch.masks).mean()
    _step(model, batch, _hp(magnet_coef=1.0, magnet_coef_end=1.0, kl_coef=0.0), magnet)
    assert reverse_kl(_log_probs(model, batch), pull, batch.masks).mean() < gap


def test_the_kl_to_the_last_policy_keeps_the_step_short():
    """The same rollout and advantages: a large kl_coef moves the policy less than none does."""
    moved = {}
    for kl in (0.0, 50.0):
        model, batch = _batch(seed=3, advantage=1.0)
        batch.advantages = torch.randn(ROWS, generator=torch.Generator().manual_seed(4))
        before = _log_probs(model, batch)
        hp = _hp(kl_coef=kl, magnet_coef=0.0, magnet_coef_end=0.0, learning_rate=3e-2)
        hp = MMDLoss(**{**hp.__dict__, "clip_coef": 1e6, "norm_adv": False})
        _step(model, batch, hp)
        moved[kl] = reverse_kl(_log_probs(model, batch), before, batch.masks).mean().item()
    assert 0 < moved[50.0] < moved[0.0] / 2, moved


def test_alpha_falls_linearly_from_magnet_coef_to_magnet_coef_end():
    hp = _hp(total_steps=64 * 5, magnet_coef=0.5, magnet_coef_end=0.1)
    assert hp.num_updates == 5
    assert [round(hp.alpha(u), 6) for u in range(5)] == [0.5, 0.4, 0.3, 0.2, 0.1]


@pytest.mark.parametrize(
    ("over", "words"),
    [
        ({"ent_coef": 0.01}, "key 'ent_coef': must be 0 in an MMD run"),
        ({"magnet": "no_such_policy.pt"}, "key 'magnet': must be \"uniform\" or an existing"),
        ({"kl_coef": -1.0}, "key 'kl_coef'"),
        ({"magnet_coeff": 0.1}, "did you mean 'magnet_coef'"),
    ],
)
def test_the_config_refuses_what_mmd_cannot_run(over, words):
    with pytest.raises(ConfigError, match=words.replace("(", r"\(")):
        MMDConfig.from_dict({"env": GAME, "total_steps": 64, **over})


def _run_config(tmp_path, **over) -> MMDConfig:
    keys = dict(
        env=GAME, seed=2, total_steps=4 * 4 * 16, num_envs=4, num_steps=16, num_minibatches=2,
        update_epochs=1, hidden_sizes=[16], latest_opponent_prob=0.5, snapshot_every=1,
        pool_size=2, magnet_coef=0.2, kl_coef=0.5, eval_opponents=[], checkpoint_every=1,
        checkpoint_dir=str(tmp_path / "ckpt"), run_name="mmd",
    )  # fmt: skip
    return MMDConfig.from_dict({**keys, **over})


def test_a_run_stopped_and_resumed_ends_as_the_straight_run(tmp_path):
    """An MMD run is PPO's loop with another update: --resume continues it exactly, and its
    policy file stores MMD's keys with the rest of the config."""
    straight = train(_run_config(tmp_path / "a"), log_dir=str(tmp_path / "runs"))
    cfg = _run_config(tmp_path / "b")
    train(cfg, log_dir=str(tmp_path / "runs"), stop_after=2)
    resumed = train(cfg, resume=True, log_dir=str(tmp_path / "runs"))
    assert resumed.update == straight.update == 4
    for key, value in straight.model.state_dict().items():
        assert torch.equal(value, resumed.model.state_dict()[key]), key
    stored = torch.load(tmp_path / "b" / "ckpt" / "policy.pt", weights_only=True)["config"]
    assert (stored["magnet"], stored["magnet_coef"], stored["kl_coef"]) == ("uniform", 0.2, 0.5)


def test_the_magnet_is_a_policy_file_of_the_same_game(tmp_path):
    """A policy written by one run is the next run's magnet; its weights never change."""
    first = train(_run_config(tmp_path / "a", total_steps=64), log_dir=str(tmp_path / "runs"))
    magnet = str(tmp_path / "a" / "ckpt" / "policy.pt")
    cfg = _run_config(tmp_path / "b", magnet=magnet, total_steps=128)
    second = train(cfg, log_dir=str(tmp_path / "runs"))
    assert second.update == 2
    reloaded = torch.load(magnet, weights_only=True)["model"]
    for key, value in first.model.state_dict().items():
        assert torch.equal(value, reloaded[key]), key
