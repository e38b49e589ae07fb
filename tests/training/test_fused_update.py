"""The PPO and MMD updates' gradients written out by hand (``training/ppo/fused.py``,
``training/mmd/loss.py``) against autograd's, the reference: the same gradients and losses,
within rounding, on minibatches that reach every branch of the loss (ratios clipped on both
sides and inside, advantages of both signs, values moved past the clip and not, one legal
action or many)."""

from __future__ import annotations

import copy
from dataclasses import fields as dataclass_fields
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import torch

from reborn_env.core import registry
from reborn_env.policies.network import MaskedActorCritic
from training.common.mlp_forward import supports
from training.mmd.loss import MMDLoss, mmd_by_autograd, mmd_by_hand, mmd_update, uniform_log_probs
from training.ppo import fused
from training.ppo.config import TrainConfig
from training.ppo.inputs import Batch, Hyperparameters
from training.ppo.loss import Losses, autograd_losses, ppo_update
from training.ppo.train import train

OBS, ACTIONS, ROWS = 40, 12, 96

HP = Hyperparameters(
    learning_rate=1e-3,
    anneal_lr=False,
    num_updates=10,
    update_epochs=2,
    batch_size=ROWS,
    minibatch_size=ROWS // 2,
    clip_coef=0.2,
    clip_vloss=True,
    norm_adv=True,
    ent_coef=0.01,
    vf_coef=0.5,
    max_grad_norm=0.5,
    precision="float32",
    fused_update=True,
)


def _model(hidden: list[int], seed: int = 0) -> MaskedActorCritic:
    torch.manual_seed(seed)
    model = MaskedActorCritic(OBS, ACTIONS, hidden)
    with torch.no_grad():  # logits far from uniform, so every probability term matters
        model.policy.weight.mul_(100.0)
    return model


def _batch(model: MaskedActorCritic, seed: int = 1) -> Batch:
    """Rows whose stored log-probabilities and values sit around the network's own, so that the
    ratios fall below, inside and above the clip range and the values on both sides of theirs."""
    g = torch.Generator().manual_seed(seed)
    obs = (torch.rand(ROWS, OBS, generator=g) < 0.3).float()
    masks = torch.rand(ROWS, ACTIONS, generator=g) < 0.4
    masks[:, 0] = True
    masks[:8, 1:] = False  # one legal action: ratio 1, entropy 0
    with torch.no_grad():
        actions, logprobs, _, values = model.get_action_and_value(obs, masks)
    shift = torch.linspace(-0.6, 0.6, ROWS)
    return Batch(
        obs=obs,
        masks=masks,
        actions=actions,
        logprobs=logprobs + shift[torch.randperm(ROWS, generator=g)],
        values=values + 0.5 * shift,
        advantages=torch.randn(ROWS, generator=g),
        returns=values + torch.randn(ROWS, generator=g),
    )


def _both(
    model: MaskedActorCritic, mb: Batch, hp: Hyperparameters, dtype: torch.dtype, threads: int = 1
):
    reference, by_hand = copy.deepcopy(model), copy.deepcopy(model)
    expected = autograd_losses(reference, mb, hp, dtype, "cpu")
    with torch.no_grad():
        got = Losses(*fused.fused_losses(by_hand, mb, hp, dtype, threads))
    return reference, by_hand, expected, got


@pytest.mark.parametrize("hidden", [[16], [24, 16], [8, 8, 8]])
@pytest.mark.parametrize("clip_vloss", [True, False])
@pytest.mark.parametrize("norm_adv", [True, False])
@pytest.mark.parametrize("threads", [1, 2], ids=["one share", "two threads"])
def test_the_gradients_by_hand_are_autograds(
    hidden: list[int], clip_vloss: bool, norm_adv: bool, threads: int
) -> None:
    model = _model(hidden)
    mb = _batch(model)
    hp = replace(HP, clip_vloss=clip_vloss, norm_adv=norm_adv)
    reference, by_hand, expected, got = _both(model, mb, hp, torch.float32, threads)
    ratio = expected.ratio
    assert (ratio < 0.8).any() and (ratio > 1.2).any() and ((ratio - 1).abs() < 0.2).any()
    for name, param in reference.named_parameters():
        other = dict(by_hand.named_parameters())[name].grad
        assert other is not None and other.shape == param.grad.shape, name
        scale = float(param.grad.abs().max())
        assert scale > 0, name
        torch.testing.assert_close(other, param.grad, rtol=1e-4, atol=1e-6 * scale, msg=name)
    for field in ("policy", "value", "entropy", "logratio", "ratio"):
        torch.testing.assert_close(getattr(got, field), getattr(expected, field).detach())


def test_in_bfloat16_they_agree_as_closely_as_the_arithmetic_allows() -> None:
    """Both run the products in bfloat16 (8 bits of mantissa), in their own order: the
    gradients agree to a few percent of their scale."""
    model = _model([24, 16])
    mb = _batch(model)
    mb = replace(mb, obs=mb.obs.to(torch.bfloat16))  # as Batch.on casts them
    reference, by_hand, _, _ = _both(model, mb, HP, torch.bfloat16)
    for name, param in reference.named_parameters():
        other = dict(by_hand.named_parameters())[name].grad
        scale = float(param.grad.abs().max())
        assert float((other - param.grad).abs().max()) <= 0.03 * scale, name


def _assert_both_ways_end_alike(model: MaskedActorCritic, update) -> None:
    """``update(net, optimizer, fused_update)`` on a copy of ``model`` by hand and another by
    autograd, from the same weights: the same weights within rounding, and the same
    statistics."""
    runs = []
    for by_hand in (True, False):
        net = copy.deepcopy(model)
        optimizer = torch.optim.Adam(net.parameters(), lr=HP.learning_rate, eps=1e-5)
        runs.append((net, update(net, optimizer, by_hand)))
    (fast, fast_stats), (slow, slow_stats) = runs
    for (name, a), b in zip(fast.state_dict().items(), slow.state_dict().values(), strict=True):
        torch.testing.assert_close(a, b, rtol=1e-4, atol=1e-6, msg=name)
    for key, value in slow_stats.items():
        assert fast_stats[key] == pytest.approx(value, rel=1e-4, abs=1e-6), key


@pytest.mark.parametrize("threads", [1, 2], ids=["one share", "two threads"])
def test_an_update_by_hand_ends_where_autograds_does(threads: int) -> None:
    """Two epochs of minibatch steps from the same weights, generator and batch."""
    model = _model([16, 16])
    batch = _batch(model)
    hp = replace(HP, update_threads=threads)
    _assert_both_ways_end_alike(
        model,
        lambda net, optimizer, by_hand: ppo_update(
            net, optimizer, batch, replace(hp, fused_update=by_hand), np.random.default_rng(0), 0
        ),
    )


@pytest.mark.parametrize("threads", [2, 3, ROWS + 5])
def test_rows_split_over_threads_sum_to_one_shares_gradients(threads: int) -> None:
    """In float64 the shares' summed gradients are one pass's to the last few bits (the split
    only reorders sums), more threads than rows included; the losses are the same numbers."""
    model = _model([24, 16])
    mb = _batch(model)
    model = model.double()
    mb = replace(mb, obs=mb.obs.double(), logprobs=mb.logprobs.double(),
                 values=mb.values.double(), advantages=mb.advantages.double(),
                 returns=mb.returns.double())  # fmt: skip
    nets = [copy.deepcopy(model) for _ in range(2)]
    with torch.no_grad():
        one, split = (fused.fused_losses(net, mb, HP, torch.float64, k)
                      for net, k in zip(nets, (1, threads), strict=True))  # fmt: skip
    for (name, a), b in zip(nets[0].named_parameters(), nets[1].parameters(), strict=True):
        torch.testing.assert_close(b.grad, a.grad, rtol=1e-12, atol=1e-14, msg=name)
    for a, b in zip(one, split, strict=True):
        torch.testing.assert_close(b, a, rtol=1e-12, atol=1e-14)


def test_the_threads_shares_record_no_graph() -> None:
    """Autograd's mode is per thread: a share run on a worker thread must not build a graph
    on the float32 weights it uses as they are."""
    model = _model([16, 16])
    mb = _batch(model)
    with torch.no_grad():
        fwd = fused.Pass(model, mb.obs, mb.masks, torch.float32, threads=2)
    assert len(fwd.rows) == 2
    for rows in fwd.rows:
        for tensor in (*rows.outputs, rows.last, rows.value, rows.probs):
            assert not tensor.requires_grad


@pytest.mark.parametrize("n, threads", [(96, 2), (97, 2), (10, 3), (2, 4), (1, 1), (7, 7)])
def test_row_shares_cover_every_row_once_in_near_equal_contiguous_parts(n: int, threads: int):
    shares = fused.row_shares(n, threads)
    assert len(shares) == min(n, threads)
    assert shares[0][0] == 0 and shares[-1][1] == n
    assert all(a < b for a, b in shares)
    assert all(shares[k][1] == shares[k + 1][0] for k in range(len(shares) - 1))
    sizes = [b - a for a, b in shares]
    assert max(sizes) - min(sizes) <= 1


def test_only_the_mlp_torso_is_done_by_hand() -> None:
    """The records torso (a shared encoder per field of records) is left to autograd."""
    assert supports(_model([16]))
    records = MaskedActorCritic(OBS, ACTIONS, [16], record_sets=[(0, 4, 5)], record_embed=8)
    assert not supports(records)


def _mmd_hp(**options) -> MMDLoss:
    fields = {f.name: getattr(HP, f.name) for f in dataclass_fields(HP)}
    return MMDLoss(**{**fields, "magnet_coef": 0.3, "magnet_coef_end": 0.1, "kl_coef": 0.5,
                      **options})  # fmt: skip


@pytest.mark.parametrize("magnet", ["uniform", "policy"])
def test_mmds_gradients_by_hand_are_autograds(magnet: str) -> None:
    """MMD's loss (the surrogate, a reverse KL to the magnet and one to the policy the update
    began with, the value loss): the same gradients and KLs by hand as by autograd."""
    model = _model([24, 16])
    mb = _batch(model)
    old = model.log_probs_and_value(mb.obs, mb.masks)[0].detach()
    pull = (
        uniform_log_probs(mb.masks)
        if magnet == "uniform"
        else _model([16], seed=7).log_probs_and_value(mb.obs, mb.masks)[0].detach()
    )
    with torch.no_grad():  # the update has moved the network since ``old``
        for param in model.parameters():
            param.add_(0.05 * torch.randn_like(param))
    reference, by_hand = copy.deepcopy(model), copy.deepcopy(model)
    hp = _mmd_hp()
    expected = mmd_by_autograd(reference, mb, hp, torch.float32, "cpu", 0.3, pull, old)
    with torch.no_grad():
        got = mmd_by_hand(by_hand, mb, hp, torch.float32, 0.3, pull, old)
    assert float(expected[2].detach()) > 0.01 and float(expected[3].detach()) > 0.01  # both pull
    for name, param in reference.named_parameters():
        other = dict(by_hand.named_parameters())[name].grad
        scale = float(param.grad.abs().max())
        torch.testing.assert_close(other, param.grad, rtol=1e-4, atol=1e-6 * scale, msg=name)
    for a, b in zip(got, expected, strict=True):
        torch.testing.assert_close(a, b.detach(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("threads", [1, 2], ids=["one share", "two threads"])
def test_an_mmd_update_by_hand_ends_where_autograds_does(threads: int) -> None:
    """An MMD update toward a policy magnet, from the same weights, generator and batch."""
    model = _model([16, 16])
    batch = _batch(model)
    magnet = _model([16], seed=7)
    _assert_both_ways_end_alike(
        model,
        lambda net, optimizer, by_hand: mmd_update(
            net,
            optimizer,
            batch,
            _mmd_hp(fused_update=by_hand, update_threads=threads),
            np.random.default_rng(0),
            3,
            magnet,
        ),  # fmt: skip
    )


def test_a_run_with_its_rows_over_two_threads_is_deterministic_and_resumes_exactly(
    tmp_path: Path,
) -> None:
    """The threads' timing never reaches the result: two runs of one seed end with the same
    weights, and one stopped after its second update and resumed ends as they do."""
    game = registry.default_name()

    def config(folder: str) -> TrainConfig:
        return TrainConfig.from_dict(
            {
                "env": game, "env_kwargs": {"max_steps": 50}, "seed": 5, "total_steps": 4 * 4 * 32,
                "num_envs": 4, "num_steps": 32, "num_minibatches": 2, "update_epochs": 2,
                "hidden_sizes": [16], "update_threads": 2, "eval_opponents": [],
                "bot_opponents": ["random"], "checkpoint_every": 2,
                "checkpoint_dir": str(tmp_path / folder), "run_name": "rows",
            }
        )  # fmt: skip

    logs = str(tmp_path / "runs")
    runs = [train(config(name), log_dir=logs) for name in ("a", "b")]
    train(config("c"), log_dir=logs, stop_after=2)
    runs.append(train(config("c"), resume=True, log_dir=logs))
    first = runs[0].model.state_dict()
    for other in runs[1:]:
        for key, value in other.model.state_dict().items():
            assert torch.equal(value, first[key]), key
