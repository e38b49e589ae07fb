"""PPO on Ray RLlib's new API stack, for any registered game: self-play or one shared team policy.

    python -m training.rllib --config configs/earth_reborn_rllib.yaml \
        [--address ADDRESS] [--iterations K]

Why: to scale sampling past one machine. Our trainer (``training.ppo.train``) is the faster one on a
single core; this one spreads its env runners over a Ray cluster. Without ``--address`` it starts
a local Ray instance of ``num_cpus`` CPUs; with one (``127.0.0.1:6379``, or ``auto``) it joins a
cluster started by ``ray start --head``.

Loopback only: a local start passes ``_node_ip_address="127.0.0.1"`` and no dashboard, so every
process Ray starts (GCS, raylet, workers, agents) listens on 127.0.0.1 alone
(``tests/training/test_rllib.py`` lists their sockets). ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0`` is
set before Ray is imported. A cluster the user starts binds where they tell it.

Policies (the module of each is ``training.rllib.module.MaskedActorCriticModule``, our MLP):

- ``learner``: trained. In a cooperative game every agent maps to it (one shared team policy,
  trained on the shared reward).
- ``snapshot`` (competitive games only): a frozen copy of ``learner``, refreshed every
  ``snapshot_every`` iterations (and at the start). In a share ``snapshot_prob`` of games, drawn
  per game from a hash of the episode id, one seat (drawn the same way) is played by the
  snapshot and the other by the learner; in the other games both seats are the learner (pure
  self-play, both seats' decisions trained). Only ``learner`` is in ``policies_to_train``.

The run saves RLlib's checkpoint to ``checkpoint_dir/rllib`` and converts its learner policy into
one of ours, ``checkpoint_dir/policy.pt`` (``training.rllib.convert``), which ``load_bot``, the
tournament, ONNX export and the bot server read.
"""

from __future__ import annotations

import os

os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")  # before ray is imported

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import zlib  # noqa: E402
from collections.abc import Sequence  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

from training.common.device import run_device  # noqa: E402
from training.common.schema import ConfigError  # noqa: E402
from training.rllib.config import RllibConfig, load_rllib_config  # noqa: E402

LEARNER, SNAPSHOT = "learner", "snapshot"
LOOPBACK = "127.0.0.1"


def check_address(address: str, timeout: float = 5.0) -> None:
    """ValueError unless a Ray head listens at ``address`` (``HOST:PORT``, or ``auto``, which Ray
    resolves itself): Ray alone would retry a wrong address for minutes."""
    import socket

    if address == "auto":
        return
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"--address {address!r}: expected HOST:PORT (e.g. 127.0.0.1:6379) or auto")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as exc:
        raise ValueError(
            f"--address {address}: no Ray cluster answers there ({exc.strerror or exc}); start "
            "one with `ray start --head --node-ip-address 127.0.0.1 --port 6379`"
        ) from exc


def start_ray(address: str | None, num_cpus: int, num_gpus: int = 0) -> None:
    """Join the cluster at ``address``, or start a local instance of ``num_cpus`` CPUs and
    ``num_gpus`` GPUs listening on loopback only."""
    import ray

    if ray.is_initialized():
        return
    if address:
        ray.init(address=address, log_to_driver=False)
    else:
        # Ray reads RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER when it is imported; a library imported
        # before this module (Tianshou and TorchRL import ray) leaves the driver's copy on, and
        # the node then listens on every interface: the same setting, applied now
        from ray._private import ray_constants

        ray_constants.ENABLE_RAY_CLUSTER = False
        ray.init(
            num_cpus=num_cpus,
            num_gpus=num_gpus,
            include_dashboard=False,
            _node_ip_address=LOOPBACK,
            log_to_driver=False,
        )


def mapping_fn(agents: Sequence[str], snapshot_prob: float, cooperative: bool) -> Any:
    """RLlib's ``policy_mapping_fn``: each agent's module for one game (the docstring's rule)."""
    threshold = int(snapshot_prob * 1000)

    def agent_to_module(agent_id: str, episode: Any, **kwargs: Any) -> str:
        if cooperative:
            return LEARNER
        draw = zlib.crc32(str(episode.id_).encode())
        frozen_seat = agents[(draw // 1000) % len(agents)]
        return SNAPSHOT if draw % 1000 < threshold and agent_id == frozen_seat else LEARNER

    return agent_to_module


def build_algorithm(cfg: RllibConfig) -> Any:
    """The PPO algorithm of ``cfg`` (Ray must be started)."""
    return algorithm_config(cfg).build_algo()


def algorithm_config(cfg: RllibConfig) -> Any:
    """RLlib's ``PPOConfig`` for ``cfg``: the learner on the run's device (``device``: one GPU
    for the local learner where it resolves to one), sampling on the CPUs."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from training.common.envs import make_env
    from training.rllib.env import TurnBasedMultiAgentEnv
    from training.rllib.module import MaskedActorCriticModule

    game = make_env(cfg.env, **cfg.env_kwargs)
    agents = list(game.possible_agents)
    game.close()
    modules = [LEARNER] if cfg.cooperative else [LEARNER, SNAPSHOT]
    spec = RLModuleSpec(
        module_class=MaskedActorCriticModule, model_config={"hidden_sizes": cfg.hidden_sizes}
    )
    config = (
        PPOConfig()
        .environment(
            TurnBasedMultiAgentEnv,
            env_config={"env": cfg.env, "env_kwargs": cfg.env_kwargs},
            disable_env_checking=True,  # its check plays random actions, which the mask forbids
        )
        .env_runners(
            num_env_runners=cfg.num_env_runners,
            num_envs_per_env_runner=cfg.envs_per_runner,
            num_cpus_per_env_runner=1,
        )
        .learners(num_learners=0, num_gpus_per_learner=int(run_device(cfg).type == "cuda"))
        .multi_agent(
            policies=set(modules),
            policy_mapping_fn=mapping_fn(agents, cfg.snapshot_prob, cfg.cooperative),
            policies_to_train=[LEARNER],
        )
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=dict.fromkeys(modules, spec)))
        .training(
            train_batch_size_per_learner=cfg.train_batch_size,
            minibatch_size=cfg.minibatch_size,
            num_epochs=cfg.num_epochs,
            lr=cfg.learning_rate,
            gamma=cfg.gamma,
            lambda_=cfg.gae_lambda,
            clip_param=cfg.clip_coef,
            entropy_coeff=cfg.ent_coef,
            vf_loss_coeff=cfg.vf_coef,
            use_kl_loss=False,
            grad_clip=cfg.max_grad_norm,
            grad_clip_by="global_norm",
        )
        .debugging(seed=cfg.seed, log_level="ERROR")
        .python_environment(
            extra_python_environs_for_worker={"OMP_NUM_THREADS": str(cfg.torch_threads)}
        )
    )
    return config


def refresh_snapshot(algo: Any) -> None:
    """Copy the learner's weights into the frozen snapshot, on the learner and every sampler.

    Set on each sampler's module directly: ``EnvRunnerGroup.sync_weights`` skips samplers whose
    weights' sequence number is already current, which it is for a module no update touched."""
    learners = algo.learner_group
    weights = learners.get_weights([LEARNER])[LEARNER]
    learners.set_weights({SNAPSHOT: weights})
    algo.env_runner_group.foreach_env_runner(
        lambda runner: runner.module[SNAPSHOT].set_state(weights), local_env_runner=True
    )


def decisions_sampled(result: dict[str, Any]) -> int:
    """Env steps (one decision each: one agent acts per step) sampled so far."""
    from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_ENV_STEPS_SAMPLED_LIFETIME

    return int(result.get(ENV_RUNNER_RESULTS, {}).get(NUM_ENV_STEPS_SAMPLED_LIFETIME, 0))


def train(cfg: RllibConfig, iterations: int | None = None, log: Any = print) -> dict[str, Any]:
    """Run ``iterations`` (default ``cfg.iterations``) PPO iterations, save RLlib's checkpoint
    and convert it; what the run did: ``decisions``, ``seconds``, ``rllib_checkpoint``,
    ``policy``."""
    import torch

    from training.rllib.convert import convert, write_run_file

    torch.set_num_threads(cfg.torch_threads)
    algo = build_algorithm(cfg)
    try:
        if not cfg.cooperative:
            refresh_snapshot(algo)
        start, decisions = time.perf_counter(), 0
        for i in range(1, (iterations or cfg.iterations) + 1):
            decisions = decisions_sampled(algo.train())
            log(f"iteration {i}: {decisions} decisions, {time.perf_counter() - start:.1f} s")
            if not cfg.cooperative and cfg.snapshot_every and i % cfg.snapshot_every == 0:
                refresh_snapshot(algo)
        seconds = time.perf_counter() - start
        out = Path(cfg.checkpoint_dir)
        rllib_dir = algo.save_to_path((out / "rllib").resolve().as_posix())
        write_run_file(rllib_dir, cfg.to_dict())
    finally:
        algo.stop()
    policy = out / "policy.pt"
    convert(rllib_dir, policy)
    log(f"saved {rllib_dir} and its policy {policy}")
    return {
        "decisions": decisions,
        "seconds": seconds,
        "rllib_checkpoint": Path(rllib_dir),
        "policy": policy,
    }


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; exit status 2 on a config error."""
    from training.common.cli import fail

    parser = argparse.ArgumentParser(
        prog="python -m training.rllib", description="PPO self-play on Ray RLlib."
    )
    parser.add_argument("--config", required=True, help="YAML config (configs/*rllib*.yaml)")
    parser.add_argument("--address", help="a Ray cluster to join (default: start one locally)")
    parser.add_argument("--iterations", type=int, help="iterations to run (default: config's)")
    args = parser.parse_args(argv)
    if args.iterations is not None and args.iterations < 1:
        parser.error(f"--iterations must be >= 1, got {args.iterations}")
    try:
        cfg = load_rllib_config(args.config)
        run_device(cfg)
        if args.address:
            check_address(args.address)
    except (ConfigError, ValueError) as exc:
        return fail(exc)
    import ray

    start_ray(args.address, cfg.num_cpus, int(run_device(cfg).type == "cuda"))
    try:
        train(cfg, args.iterations)
    finally:
        ray.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
