"""RLlib PPO (training.rllib.train): loopback-only Ray, legal tiny runs, exact conversion.

One local Ray session serves the whole module (start-up is the slow part). The runs are the
shipped configs (``configs/*_rllib.yaml``) cut to a few hundred decisions. An illegal action is
refused by the env itself (ER-ENV-8, HV-API-5), so a run that sampled one would fail; the tests
also sample the RLlib module directly and play whole games with the converted policy.
"""

from __future__ import annotations

import os
import pickle
from pathlib import Path

import numpy as np
import pytest
import torch
import yaml

from reborn_env.policies.artifact import CheckpointError, load_checkpoint
from training.common.envs import make_env
from training.ppo.config import ConfigError
from training.rllib import train as rllib_train
from training.rllib.config import RllibConfig, load_rllib_config
from training.rllib.convert import MODULE_STATE, RUN_FILE, convert, read_module_weights

CONFIGS = Path(__file__).resolve().parents[2] / "configs"
TINY = {
    "total_steps": 256,
    "train_batch_size": 256,
    "minibatch_size": 128,
    "num_epochs": 1,
    "hidden_sizes": [32, 32],
    "envs_per_runner": 2,
    "num_cpus": 2,
    "snapshot_every": 1,
}
LOOPBACK = {"127.0.0.1", "::1", "::ffff:127.0.0.1"}


def tiny_config(name: str, folder: Path, **changes: object) -> RllibConfig:
    data = yaml.safe_load((CONFIGS / name).read_text())
    data.update(TINY, checkpoint_dir=str(folder), **changes)
    return RllibConfig.from_dict(data, source=name)


@pytest.fixture(scope="module")
def ray_session():
    import ray  # after training.rllib.train, which keeps Ray on loopback before it is imported

    rllib_train.start_ray(None, TINY["num_cpus"])
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def competitive_run(ray_session, tmp_path_factory):
    """Two iterations of the self-play config, one remote sampler, sockets listed meanwhile."""
    folder = tmp_path_factory.mktemp("rllib_competitive")
    cfg = tiny_config("earth_reborn_rllib.yaml", folder, num_env_runners=1)
    listening: list[tuple[str, str, int]] = []

    def log(line: str) -> None:
        if not listening:
            listening.extend(ray_listen_sockets())

    result = rllib_train.train(cfg, iterations=2, log=log)
    return cfg, result, listening


def ray_listen_sockets() -> list[tuple[str, str, int]]:
    """(process, address, port) of every listening TCP socket of this process and the
    processes it started (Ray's GCS, raylet, agents and workers)."""
    import psutil  # Ray's own copy, on the path once ray is imported

    me = psutil.Process()
    found = []
    for proc in [me, *me.children(recursive=True)]:
        try:
            for conn in proc.net_connections(kind="tcp"):
                if conn.status == psutil.CONN_LISTEN:
                    found.append((proc.name(), conn.laddr.ip, conn.laddr.port))
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return found


def test_ray_listens_on_loopback_only(competitive_run):
    _, _, listening = competitive_run
    names = {name for name, _, _ in listening}
    assert listening and {"gcs_server", "raylet"} <= names, listening
    assert {ip for _, ip, _ in listening} <= LOOPBACK, listening


def test_tiny_self_play_run_trains_and_converts(competitive_run):
    cfg, result, _ = competitive_run
    assert result["decisions"] == 2 * cfg.train_batch_size
    payload = load_checkpoint(result["policy"], expect_env=cfg.env)
    assert payload["config"]["hidden_sizes"] == [32, 32]
    # snapshot_every 1: the frozen copy was refreshed after the last iteration
    learner, snapshot = (
        read_module_weights(result["rllib_checkpoint"], m)
        for m in (rllib_train.LEARNER, rllib_train.SNAPSHOT)
    )
    assert learner.keys() == snapshot.keys()
    assert all(torch.equal(learner[k], snapshot[k]) for k in learner)


def test_rllib_module_samples_only_legal_actions(competitive_run):
    """The module of the checkpoint, restored by RLlib itself, on positions of real games."""
    from ray.rllib.core.columns import Columns
    from ray.rllib.core.rl_module.rl_module import RLModule

    cfg, result, _ = competitive_run
    module = RLModule.from_checkpoint(
        result["rllib_checkpoint"] / MODULE_STATE / rllib_train.LEARNER
    )
    obs, mask = positions(cfg, 200)
    batch = {Columns.OBS: {"observation": torch.from_numpy(obs), "action_mask": mask}}
    with torch.no_grad():
        logits = module.forward_exploration(batch)[Columns.ACTION_DIST_INPUTS]
    dist = module.get_exploration_action_dist_cls().from_logits(logits)
    for _ in range(20):
        actions = dist.sample().numpy()
        assert mask.numpy()[np.arange(len(actions)), actions].all()


def test_converted_policy_gives_the_rllib_module_probabilities(competitive_run):
    from ray.rllib.core.columns import Columns
    from ray.rllib.core.rl_module.rl_module import RLModule

    from reborn_env.policies.bot import PolicyBot

    cfg, result, _ = competitive_run
    module = RLModule.from_checkpoint(
        result["rllib_checkpoint"] / MODULE_STATE / rllib_train.LEARNER
    )
    bot = PolicyBot(result["policy"])
    obs, mask = positions(cfg, 50)
    batch = {Columns.OBS: {"observation": torch.from_numpy(obs), "action_mask": mask}}
    with torch.no_grad():
        logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
    rllib_probs = torch.softmax(logits.double(), dim=-1).numpy()
    ours = np.stack([bot.probabilities(o, m) for o, m in zip(obs, mask.numpy(), strict=True)])
    np.testing.assert_allclose(ours, rllib_probs, atol=1e-6)


def test_converted_policy_plays_legal_games_in_load_bot_and_exports(competitive_run, tmp_path):
    from reborn_env.bots.arena import play_game
    from reborn_env.bots.loading import load_bot
    from training.export import export_policy

    cfg, result, _ = competitive_run
    env = make_env(cfg.env, max_steps=400)  # the env raises on an illegal action (ER-ENV-8)
    bots = {
        a: load_bot(str(result["policy"]), cfg.env, seed=i)
        for i, a in enumerate(env.possible_agents)
    }
    returns = play_game(env, bots, seed=3)
    assert set(returns) == set(env.possible_agents)
    onnx = tmp_path / "policy.onnx"
    export_policy(result["policy"], "onnx", onnx)
    play_game(env, {a: load_bot(str(onnx), cfg.env, seed=1) for a in env.possible_agents}, seed=4)


def test_snapshot_is_not_trained(ray_session, tmp_path):
    """The snapshot keeps the learner's weights of its last refresh, on the learner and on the
    remote sampler that plays it; the learner moves on."""
    cfg = tiny_config("earth_reborn_rllib.yaml", tmp_path, num_env_runners=1)
    algo = rllib_train.build_algorithm(cfg)
    try:
        algo.train()  # the learner leaves its first weights behind
        rllib_train.refresh_snapshot(algo)
        start = algo.get_weights([rllib_train.LEARNER])[rllib_train.LEARNER]
        algo.train()
        after = algo.get_weights([rllib_train.LEARNER, rllib_train.SNAPSHOT])
        (sampled,) = algo.env_runner_group.foreach_env_runner(
            lambda runner: {
                k: v.detach().numpy().copy()
                for k, v in runner.module[rllib_train.SNAPSHOT].state_dict().items()
            },
            local_env_runner=False,
        )
    finally:
        algo.stop()
    frozen, trained = after[rllib_train.SNAPSHOT], after[rllib_train.LEARNER]
    assert all(np.array_equal(frozen[k], start[k]) for k in start)
    assert all(np.array_equal(sampled[k], start[k]) for k in start)
    assert not all(np.array_equal(trained[k], start[k]) for k in start)


def test_cooperative_run_is_one_shared_team_policy(ray_session, tmp_path):
    cfg = tiny_config(
        "haven_rllib.yaml",
        tmp_path,
        num_env_runners=0,
        total_steps=128,
        train_batch_size=128,
        minibatch_size=64,
    )
    assert cfg.cooperative
    result = rllib_train.train(cfg, log=lambda line: None)
    assert result["decisions"] == 128
    modules = sorted(
        p.name for p in (result["rllib_checkpoint"] / MODULE_STATE).iterdir() if p.is_dir()
    )
    assert modules == [rllib_train.LEARNER]
    load_checkpoint(result["policy"], expect_env=cfg.env)


def test_mapping_draws_a_snapshot_seat_per_game():
    """A competitive game maps one seat to the snapshot in about snapshot_prob of games, never
    both; a cooperative one maps every agent to the learner."""

    class Episode:
        def __init__(self, i: int) -> None:
            self.id_ = f"episode-{i}"

    agents = ["a", "b"]
    fn = rllib_train.mapping_fn(agents, 0.5, cooperative=False)
    frozen = [sum(fn(a, Episode(i)) == rllib_train.SNAPSHOT for a in agents) for i in range(2000)]
    assert max(frozen) == 1 and 0.45 < np.mean(frozen) < 0.55
    seats = [
        next(a for a in agents if fn(a, Episode(i)) == "snapshot") for i in range(2000) if frozen[i]
    ]
    assert 0.4 < seats.count("a") / len(seats) < 0.6
    coop = rllib_train.mapping_fn(agents, 0.5, cooperative=True)
    assert {coop(a, Episode(i)) for a in agents for i in range(50)} == {rllib_train.LEARNER}


def positions(cfg: RllibConfig, n: int) -> tuple[np.ndarray, torch.Tensor]:
    """``n`` (observation, mask) pairs of the agent to move, from seeded random games."""
    env = make_env(cfg.env, **cfg.env_kwargs)
    rng = np.random.default_rng(0)
    obs, masks = [], []
    env.reset(seed=0)
    while len(obs) < n:
        if not env.agents or any(env.terminations.values()) or any(env.truncations.values()):
            env.reset(seed=len(obs))
        o = env.observe(env.agent_selection)
        obs.append(o["observation"])
        masks.append(o["action_mask"])
        env.step(int(rng.choice(np.flatnonzero(o["action_mask"]))))
    return np.stack(obs).astype(np.float32), torch.from_numpy(np.stack(masks))


# --- config and conversion errors (no Ray needed) ------------------------------------------------


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (
            {"train_batch_sise": 4},
            "unknown key 'train_batch_sise'; did you mean 'train_batch_size'",
        ),
        ({"minibatch_size": "big"}, "key 'minibatch_size': expected an integer"),
        ({"snapshot_prob": 1.5}, "key 'snapshot_prob': must be a number in [0, 1]"),
        ({"minibatch_size": 8192}, "is more than train_batch_size"),
        ({"env": "no_such_game_v0"}, "key 'env': must be one of"),
    ],
)
def test_config_mistakes_are_named(tmp_path, change, words):
    data = yaml.safe_load((CONFIGS / "earth_reborn_rllib.yaml").read_text())
    data.update(change)
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(ConfigError) as err:
        load_rllib_config(path)
    assert words in str(err.value)


def test_config_without_total_steps_is_refused():
    with pytest.raises(ConfigError, match="missing required key 'total_steps'"):
        RllibConfig.from_dict({})


def test_shipped_configs_load():
    for name in ("earth_reborn_rllib.yaml", "haven_rllib.yaml"):
        cfg = load_rllib_config(CONFIGS / name)
        assert cfg.iterations == 100


def fake_checkpoint(folder: Path, state: object, hidden: list[int]) -> Path:
    """An RLlib checkpoint folder as training.rllib.train leaves it, with the given weights."""
    env = yaml.safe_load((CONFIGS / "earth_reborn_rllib.yaml").read_text())["env"]
    (folder / MODULE_STATE / "learner").mkdir(parents=True)
    (folder / MODULE_STATE / "learner" / "module_state.pkl").write_bytes(pickle.dumps(state))
    (folder / RUN_FILE).write_text(
        f'{{"env": "{env}", "env_kwargs": {{}}, "hidden_sizes": {hidden}}}'
    )
    return folder


def good_state(hidden: list[int]) -> dict[str, np.ndarray]:
    from reborn_env.policies.network import build_model
    from training.common.envs import env_sizes

    env = yaml.safe_load((CONFIGS / "earth_reborn_rllib.yaml").read_text())["env"]
    net = build_model(*env_sizes(env), hidden)
    return {f"net.{k}": v.numpy() for k, v in net.state_dict().items()}


def test_converting_a_good_folder_round_trips_the_weights(tmp_path):
    state = good_state([16])
    folder = fake_checkpoint(tmp_path / "rl", state, [16])
    payload = convert(folder, tmp_path / "policy.pt")
    for key, value in state.items():
        assert np.array_equal(payload["model"][key[4:]].numpy(), value)


def test_mismatched_checkpoint_is_refused(tmp_path):
    folder = fake_checkpoint(tmp_path / "rl", good_state([16]), [24])
    with pytest.raises(CheckpointError, match="does not fit the network"):
        convert(folder, tmp_path / "policy.pt")
    assert not (tmp_path / "policy.pt").exists()


def test_corrupt_or_hostile_weights_are_refused(tmp_path):
    folder = fake_checkpoint(tmp_path / "rl", good_state([16]), [16])
    weights = folder / MODULE_STATE / "learner" / "module_state.pkl"
    weights.write_bytes(weights.read_bytes()[:100])
    with pytest.raises(CheckpointError, match="not readable RLlib module weights"):
        convert(folder, tmp_path / "policy.pt")

    class Hostile:
        def __reduce__(self):
            return (os.system, ("echo pwned",))

    weights.write_bytes(pickle.dumps({"net.x": Hostile()}))
    with pytest.raises(CheckpointError, match="is not a numpy array"):
        convert(folder, tmp_path / "policy.pt")


def test_missing_folder_or_module_is_named(tmp_path):
    with pytest.raises(CheckpointError, match="no reborn_env_run.json"):
        convert(tmp_path / "nowhere", tmp_path / "policy.pt")
    folder = fake_checkpoint(tmp_path / "rl", good_state([16]), [16])
    with pytest.raises(CheckpointError, match="no weights of module 'snapshot'.*learner"):
        convert(folder, tmp_path / "policy.pt", module="snapshot")


def test_the_learner_takes_a_gpu_only_where_the_device_resolves_to_one(monkeypatch):
    """``device``: RLlib's local learner asks for one GPU when the run's device is CUDA (auto
    on a machine with one), none on the CPU; a missing GPU is refused naming the key."""
    cfg = load_rllib_config(CONFIGS / "earth_reborn_rllib.yaml")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert rllib_train.algorithm_config(cfg).num_gpus_per_learner == 0
    with pytest.raises(ConfigError, match="key 'device'"):
        rllib_train.algorithm_config(RllibConfig.from_dict({**cfg.to_dict(), "device": "cuda"}))
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    assert rllib_train.algorithm_config(cfg).num_gpus_per_learner == 1
