"""``training.rllib.train --address`` joins a running Ray cluster (two nodes on loopback here).

The cluster is Ray's own test cluster (``ray.cluster_utils.Cluster``: a head and a second node,
as ``ray start --head`` and ``ray start --address`` make them); the run is the shipped self-play
config cut to two tiny iterations, its two env runners spread over the nodes.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from reborn_env.policies.artifact import load_checkpoint
from training.rllib import train as rllib_train

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def cluster():
    from ray.cluster_utils import Cluster

    node = {"node_ip_address": "127.0.0.1", "include_dashboard": False}
    ray_cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, **node})
    ray_cluster.add_node(num_cpus=2, **node)
    yield ray_cluster
    ray_cluster.shutdown()


def test_run_joins_the_cluster_and_converts(cluster, tmp_path):
    data = yaml.safe_load((ROOT / "configs" / "earth_reborn_rllib.yaml").read_text())
    data.update(
        total_steps=256,
        train_batch_size=128,
        minibatch_size=64,
        num_epochs=1,
        hidden_sizes=[16],
        num_env_runners=2,
        envs_per_runner=1,
        checkpoint_dir=str(tmp_path / "run"),
    )
    config = tmp_path / "tiny.yaml"
    config.write_text(yaml.safe_dump(data))
    command = ["-m", "training.rllib.train", "--config", str(config), "--address", cluster.address]
    run = subprocess.run(
        [sys.executable, *command, "--iterations", "2"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "OMP_NUM_THREADS": "1"},
        timeout=120,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert "iteration 2: 256 decisions" in run.stdout
    payload = load_checkpoint(tmp_path / "run" / "policy.pt", expect_env=data["env"])
    assert payload["config"]["num_env_runners"] == 2


def test_an_address_where_no_cluster_listens_is_one_error_line(tmp_path, capsys):
    import socket

    with socket.socket() as free:  # a port nothing listens on once closed
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    config = ROOT / "configs" / "earth_reborn_rllib.yaml"
    status = rllib_train.main(["--config", str(config), "--address", f"127.0.0.1:{port}"])
    assert status == 2
    assert "no Ray cluster answers there" in capsys.readouterr().err
    assert rllib_train.main(["--config", str(config), "--address", "nonsense"]) == 2
    assert "expected HOST:PORT" in capsys.readouterr().err
