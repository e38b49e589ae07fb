"""The ``device`` key: networks on any device, everything on the host device-free.

No GPU is needed to test the transfers. The run's network is put in float64 instead: a place
that differs from the host (float32 buffers and files) in a way every forgotten transfer trips
over, as a GPU would (a float32 input to a float64 layer raises, a float64 output written into a
float32 rollout buffer raises, a float64 weight in a file is seen).
"""

from __future__ import annotations

import pytest
import torch

from reborn_env.core import registry
from reborn_env.policies.network import build_model
from training.common.device import resolve_device
from training.common.schema import ConfigError
from training.ppo import train as ppo_train
from training.ppo.config import TrainConfig
from training.ppo.train import preflight, train
from training.selfplay.opponents import POOL


def test_auto_is_the_gpu_where_torch_sees_one(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert resolve_device("auto") == torch.device("cpu")
    assert resolve_device("cpu") == torch.device("cpu")
    with pytest.raises(ValueError, match="sees no CUDA device; use 'auto' or 'cpu'"):
        resolve_device("cuda")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    assert resolve_device("auto") == torch.device("cuda")
    assert resolve_device("cuda") == torch.device("cuda")


def test_a_run_asking_for_a_missing_gpu_is_refused_before_it_trains(monkeypatch, tmp_path):
    """A config naming ``cuda`` loads anywhere (a checkpoint's config is read on a CPU machine
    to evaluate it), but a run on a machine without one stops at its checks, naming the key."""
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    cfg = TrainConfig.from_dict(
        {"total_steps": 64, "device": "cuda", "checkpoint_dir": str(tmp_path / "c")}
    )
    with pytest.raises(ConfigError, match="key 'device': device 'cuda'"):
        preflight(cfg, str(tmp_path / "runs"))
    assert not (tmp_path / "c").exists()
    with pytest.raises(ConfigError, match="'device'.*'auto', 'cpu', 'cuda'"):
        TrainConfig.from_dict({"total_steps": 64, "device": "tpu"})


def _float32_on_cpu(state: dict) -> bool:
    return all(
        t.device.type == "cpu" and (t.dtype == torch.float32 or not t.is_floating_point())
        for t in state.values()
    )


def test_a_run_whose_network_lives_elsewhere_keeps_the_host_and_its_files_as_they_are(
    monkeypatch, tmp_path
):
    """Imitation with DAgger, PFSP over bots and pool snapshots, evaluation, checkpoints and a
    resume, with the network in float64: every input reaches it and every output comes back
    through the transfers, and the files hold float32 CPU weights. (In float32 arithmetic:
    autocast casts only float32 weights.)"""
    monkeypatch.setattr(
        ppo_train, "build_model", lambda *args, **kwargs: build_model(*args, **kwargs).double()
    )
    game = registry.default_name()
    bots = sorted(registry.get(game).bots)[:1]
    cfg = TrainConfig.from_dict(
        {
            "env": game, "total_steps": 512, "num_envs": 4, "num_steps": 64,
            "num_minibatches": 2, "update_epochs": 1, "hidden_sizes": [32], "precision": "float32",
            "imitation_games": 4, "imitation_chunk": 2, "dagger_rounds": 1,
            "opponent_sampling": "pfsp", "latest_opponent_prob": 0.3, "snapshot_every": 1,
            "bot_opponents": [*bots, "random"], "eval_every": 2, "eval_games": 1,
            "eval_opponents": ["random"], "checkpoint_every": 1,
            "checkpoint_dir": str(tmp_path / "ckpt"), "run_name": "elsewhere",
        }
    )  # fmt: skip
    train(cfg, log_dir=str(tmp_path / "runs"), stop_after=1)
    resumed = train(cfg, resume=True, log_dir=str(tmp_path / "runs"))
    assert resumed.update == 2 and resumed.global_step == 512
    assert next(resumed.model.parameters()).dtype == torch.float64
    pool = resumed.opponents
    assert pool.snapshots and all(_float32_on_cpu(s) for s in pool.snapshots)
    for number in pool.ids:  # a snapshot plays where the learner is
        net = pool.model(f"{POOL}{number}", resumed.model)
        assert next(net.parameters()).dtype == torch.float64
    policy = torch.load(tmp_path / "ckpt" / "policy.pt", weights_only=False)
    latest = torch.load(tmp_path / "ckpt" / "latest.pt", weights_only=False)
    assert _float32_on_cpu(policy["model"]) and _float32_on_cpu(latest["model"])
    moments = [t for s in latest["optimizer"]["state"].values() for t in s.values()]
    assert moments and all(t.device.type == "cpu" for t in moments)


def test_an_nfsp_run_whose_networks_live_elsewhere_writes_a_float32_policy(monkeypatch, tmp_path):
    """NFSP's two networks in float64: the teacher's clone, both learners' steps, acting and
    evaluation go through the transfers, and the policy file holds float32 CPU weights."""
    from training.nfsp import learner
    from training.nfsp.config import NFSPConfig
    from training.nfsp.train import train as nfsp_train

    monkeypatch.setattr(
        learner, "build_model", lambda *args, **kwargs: build_model(*args, **kwargs).double()
    )
    cfg = NFSPConfig.from_dict(
        {
            "env": registry.default_name(), "total_steps": 1024, "num_envs": 16,
            "hidden_sizes": [16], "replay_capacity": 2000, "reservoir_capacity": 2000,
            "min_buffer_size": 64, "batch_size": 32, "learn_every": 16, "eval_every": 50,
            "eval_games": 2, "teacher_games": 2, "anticipatory": 0.5,
            "checkpoint_dir": str(tmp_path / "run"),
        }
    )  # fmt: skip
    run = nfsp_train(cfg)
    assert run.update > 0 and next(run.learner.q.parameters()).dtype == torch.float64
    policy = torch.load(tmp_path / "run" / "policy.pt", weights_only=False)
    assert _float32_on_cpu(policy["model"]) and _float32_on_cpu(policy["best_response"])
