"""The ``precision`` key: bfloat16 where the CPU has the units, float32 the reference; what a
network learns in bfloat16 is what it learns in float32, and its weights stay float32."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from reborn_env.core import registry
from reborn_env.policies.network import build_model, sample_actions
from training.common.precision import cpu_has_bf16_units, resolve_precision
from training.common.schema import ConfigError
from training.ppo.config import TrainConfig
from training.ppo.inputs import Batch, Hyperparameters
from training.ppo.loss import ppo_update
from training.warmstart.imitation import clone, record_games

SAPPHIRE_RAPIDS = "processor\t: 0\nflags\t\t: fpu sse2 avx512f avx512_bf16 amx_bf16 amx_tile\n"
SKYLAKE = "processor\t: 0\nflags\t\t: fpu sse2 avx2 avx512f avx512bw\n"


def test_bf16_units_are_read_from_the_cpu_flags():
    assert cpu_has_bf16_units(SAPPHIRE_RAPIDS)
    assert cpu_has_bf16_units("flags\t: fpu avx512_bf16\n")
    assert not cpu_has_bf16_units(SKYLAKE)
    assert not cpu_has_bf16_units("")


def test_auto_is_bfloat16_only_where_the_cpu_has_the_units():
    assert resolve_precision("auto", cpuinfo=SAPPHIRE_RAPIDS) == torch.bfloat16
    assert resolve_precision("auto", cpuinfo=SKYLAKE) == torch.float32
    assert resolve_precision("float32", cpuinfo=SAPPHIRE_RAPIDS) == torch.float32
    assert resolve_precision("bfloat16", cpuinfo=SKYLAKE) == torch.bfloat16
    with pytest.raises(ValueError, match="auto, float32, bfloat16"):
        resolve_precision("float16")


def test_a_config_refuses_an_unknown_precision():
    with pytest.raises(ConfigError, match="'precision'.*'auto', 'float32', 'bfloat16'"):
        TrainConfig.from_dict({"total_steps": 64, "precision": "half"})


def _batch(rows: int, obs_size: int, n_actions: int) -> Batch:
    generator = torch.Generator().manual_seed(0)
    obs = (torch.rand(rows, obs_size, generator=generator) < 0.15).float()
    masks = torch.rand(rows, n_actions, generator=generator) < 0.2
    masks[:, 0] = True
    actions = torch.multinomial(masks.float(), 1, generator=generator)[:, 0]
    return Batch(
        obs=obs,
        masks=masks,
        actions=actions,
        logprobs=-torch.log(masks.sum(-1).float()),
        values=torch.zeros(rows),
        advantages=torch.randn(rows, generator=generator),
        returns=torch.randn(rows, generator=generator),
    )


@pytest.mark.parametrize("fused_update", [True, False], ids=["by hand", "autograd"])
def test_an_update_in_bfloat16_takes_the_float32_step_within_rounding(fused_update: bool):
    """One PPO update from the same weights on the same batch, its gradients by hand or by
    autograd: the bfloat16 run's weights stay float32, differ from the float32 run's (its
    products did run in bfloat16) and land within bfloat16's rounding of them."""
    batch = _batch(512, 60, 20)
    weights = {}
    for precision in ("float32", "bfloat16"):
        hp = Hyperparameters(
            learning_rate=1e-3, anneal_lr=False, num_updates=1, update_epochs=2, batch_size=512,
            minibatch_size=128, clip_coef=0.2, clip_vloss=True, norm_adv=True, ent_coef=0.01,
            vf_coef=0.5, max_grad_norm=0.5, precision=precision, fused_update=fused_update,
        )  # fmt: skip
        torch.manual_seed(3)
        model = build_model(60, 20, [64, 64])
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, eps=1e-5)
        stats = ppo_update(model, optimizer, batch, hp, np.random.default_rng(0), 0)
        assert all(np.isfinite(v) for v in stats.values())
        weights[precision] = model.state_dict()
    reference, low = weights["float32"], weights["bfloat16"]
    assert any(not torch.equal(low[key], reference[key]) for key in reference)
    for key, value in low.items():
        assert value.dtype == torch.float32, key
        assert torch.allclose(value, reference[key], atol=2e-3, rtol=0), key


def test_a_clone_in_bfloat16_fits_the_teacher_as_well_as_in_float32():
    """The warm start's fit (forward in bfloat16, step in float32) reaches the float32 fit's
    accuracy on the teacher's decisions: a step taken under autocast did not."""
    game = registry.default_name()
    data = record_games(game, {}, 40, 7, 0.99, False)
    obs_size, n_actions = data["obs"][0:1].shape[1], data["masks"].shape[1]
    accuracy = {}
    for precision, dtype in (("float32", torch.float32), ("bfloat16", torch.bfloat16)):
        torch.manual_seed(1)
        model = build_model(obs_size, n_actions, [128, 128])
        stats = clone(model, data, 3, 8e-4, 0.5, np.random.default_rng(0), precision=precision)
        accuracy[dtype] = stats["accuracy"]
        assert all(p.dtype == torch.float32 for p in model.parameters())
    assert accuracy[torch.float32] > 0.6
    assert abs(accuracy[torch.bfloat16] - accuracy[torch.float32]) < 0.03, accuracy


def test_sampling_never_draws_a_zero_weight_action(monkeypatch):
    """The inverse-CDF draw at its edges: a row whose zero-weight actions sit first, last and
    between, and uniform numbers of exactly 0 and just below 1."""
    probs = torch.tensor([[0.0, 0.3, 0.0, 0.7, 0.0]]).repeat(4000, 1)
    drawn = sample_actions(probs, torch.Generator().manual_seed(0))
    assert set(drawn.tolist()) == {1, 3}
    assert abs((drawn == 3).float().mean().item() - 0.7) < 0.03
    edges = torch.tensor([[0.0, 1.0, 0.0]])
    for u in (0.0, 1.0 - 2**-24):

        def fixed(shape, u=u, **kwargs):
            return torch.full(shape, u, dtype=kwargs.get("dtype", torch.float32))

        monkeypatch.setattr(torch, "rand", fixed)
        assert sample_actions(edges).tolist() == [1]


def test_sampling_matches_the_probabilities():
    """200,000 draws over 6 actions: every frequency within 4 standard errors of its weight."""
    weights = torch.tensor([0.05, 0.0, 0.25, 0.1, 0.6, 0.0])
    drawn = sample_actions(weights.repeat(200_000, 1), torch.Generator().manual_seed(1))
    counts = torch.bincount(drawn, minlength=6).double() / 200_000
    stderr = (weights.double() * (1 - weights.double()) / 200_000).sqrt()
    assert torch.all((counts - weights.double()).abs() <= 4 * stderr + 1e-12), counts


def test_sampling_refuses_a_diverged_network():
    with pytest.raises(ValueError, match="NaN"):
        sample_actions(torch.tensor([[0.5, float("nan")]]))
    with pytest.raises(ValueError, match="zeros"):
        sample_actions(torch.zeros(1, 3))
