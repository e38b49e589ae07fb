"""The PPO trainer: masking, GAE, and a smoke run config -> checkpoint -> resume -> evaluate."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from reborn_env.core import registry
from reborn_env.policies.network import build_model
from tests.training.toy_envs import OneLegalToyEnv
from training.ppo.advantages import compute_gae
from training.ppo.config import TrainConfig
from training.ppo.train import train


class OneLegalEnv(OneLegalToyEnv):
    """Two agents take turns for 12 decisions; each time exactly one random action of 6 is legal.

    Any other action raises, so a trainer that ever samples an illegal action fails the test.
    """

    metadata = {"name": "one_legal_v0", "is_parallelizable": False, "render_modes": []}
    n_actions = 6

    def observe(self, agent):
        obs = np.zeros(6, np.float32)
        mask = np.zeros(6, np.int8)
        if agent == self.agent_selection:
            obs[self.legal], mask[self.legal] = 1.0, 1
        return {"observation": obs, "action_mask": mask}

    def after_step(self, agent):
        if self.t == 12:
            self.rewards = {"a": 1.0, "b": -1.0}
            self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = "b" if agent == "a" else "a"


def test_masked_policy_only_samples_the_legal_action():
    """Masked logits (-1e9) give the one legal action probability 1, whatever the weights."""
    torch.manual_seed(0)
    model = build_model(10, 7, [16])
    obs = torch.randn(500, 10)
    legal = torch.randint(0, 7, (500,))
    mask = torch.zeros(500, 7, dtype=torch.bool)
    mask[torch.arange(500), legal] = True
    action, logprob, entropy, _ = model.get_action_and_value(obs, mask)
    assert torch.equal(action, legal)
    assert torch.allclose(logprob, torch.zeros(500), atol=1e-6)
    assert torch.allclose(entropy, torch.zeros(500), atol=1e-6)


def test_entropy_is_over_legal_actions_only():
    """With two equally likely legal actions the entropy is log 2, not log of the action count."""
    model = build_model(4, 5, [8])
    torch.nn.init.zeros_(model.policy.weight)
    torch.nn.init.zeros_(model.policy.bias)
    mask = torch.tensor([[True, False, True, False, False]])
    _, _, entropy, _ = model.get_action_and_value(torch.zeros(1, 4), mask)
    assert entropy.item() == pytest.approx(np.log(2), abs=1e-6)


def test_gae_matches_a_hand_computed_case():
    """Two decisions then the episode ends after the second; a third decision starts a new one."""
    gamma, lam = 0.9, 0.8
    rewards = torch.tensor([[0.0], [1.0], [0.5]])
    values = torch.tensor([[0.2], [0.4], [0.3]])
    dones = torch.tensor([[0.0], [1.0], [0.0]])
    next_value = torch.tensor([0.6])
    adv, ret = compute_gae(rewards, values, dones, next_value, gamma, lam)
    d2 = 0.5 + 0.9 * 0.6 - 0.3  # bootstraps from the parked decision
    d1 = 1.0 - 0.4  # episode ended: nothing flows back from decision 2
    d0 = 0.0 + 0.9 * 0.4 - 0.2
    a2, a1 = d2, d1
    a0 = d0 + gamma * lam * a1
    assert adv[:, 0].tolist() == pytest.approx([a0, a1, a2])
    assert ret[:, 0].tolist() == pytest.approx([a0 + 0.2, a1 + 0.4, a2 + 0.3])


def _config(tmp_path, **over) -> TrainConfig:
    base = dict(
        env="one_legal_v0",
        total_steps=4 * 4 * 16,
        num_envs=4,
        num_steps=16,
        num_minibatches=2,
        update_epochs=2,
        hidden_sizes=[16],
        snapshot_every=1,
        pool_size=2,
        eval_opponents=[],
        checkpoint_dir=str(tmp_path / "ckpt"),
        checkpoint_every=1,
        run_name="test",
    )
    base.update(over)
    return TrainConfig.from_dict(base)


@pytest.fixture
def one_legal():
    """The toy env registered as a (competitive) game for the test, as a game package would."""
    registry.register(
        registry.GameSpec("one_legal_v0", "one legal action", f"{__name__}:OneLegalEnv")
    )
    yield
    registry.unregister("one_legal_v0")


def test_trainer_never_plays_an_illegal_action(one_legal, tmp_path):
    """Self-play rollouts on the one-legal env: an illegal sample would raise inside step()."""
    trainer = train(_config(tmp_path), log_dir=str(tmp_path / "runs"))
    assert trainer.update == 4 and trainer.global_step == 4 * 4 * 16
    assert trainer.env_steps >= 2 * trainer.global_step - 4 * 12  # both seats were played


def test_resume_continues_exactly_where_the_run_stopped(one_legal, tmp_path):
    """--resume: a run killed after its update-2 checkpoint and resumed ends with the same weights
    as an uninterrupted run (model, optimizer, pool, RNGs and every env's position restored)."""
    straight = train(_config(tmp_path / "a"), log_dir=str(tmp_path / "runs"))
    cfg = _config(tmp_path / "b")
    train(cfg, log_dir=str(tmp_path / "runs"), stop_after=2)
    resumed = train(cfg, resume=True, log_dir=str(tmp_path / "runs"))
    assert resumed.update == straight.update == 4
    assert resumed.global_step == straight.global_step
    for key, value in straight.model.state_dict().items():
        assert torch.equal(value, resumed.model.state_dict()[key]), key


def test_earth_reborn_smoke_run_config_checkpoint_resume_evaluate(tmp_path, capsys):
    """End to end on the real game: YAML config -> imitation + PPO -> checkpoint -> killed and
    resumed -> evaluation CLI against the random bot, with a learning-curve PNG written."""
    from training.bench.evaluate import main as evaluate_main
    from training.ppo.config import load_config

    config = tmp_path / "smoke.yaml"
    config.write_text(
        "env: earth_reborn_v0\n"
        "total_steps: 512\nnum_envs: 4\nnum_steps: 64\nnum_minibatches: 2\nupdate_epochs: 1\n"
        "hidden_sizes: [32]\nimitation_games: 4\nimitation_epochs: 1\n"
        "bot_opponents: [heuristic, random]\nbot_opponent_prob: 0.5\nsnapshot_every: 1\n"
        "eval_every: 2\neval_games: 1\neval_opponents: [random]\ncheckpoint_every: 1\n"
        f"checkpoint_dir: {tmp_path / 'ckpt'}\nrun_name: smoke\n"
    )
    cfg = load_config(config)
    train(cfg, log_dir=str(tmp_path / "runs"), stop_after=1)
    resumed = train(cfg, resume=True, log_dir=str(tmp_path / "runs"))
    assert resumed.update == 2 and resumed.global_step == 512
    assert [(r["update"], r["opponent"]) for r in resumed.history] == [(0, "random"), (2, "random")]
    assert (tmp_path / "ckpt" / "learning_curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    out = capsys.readouterr().out
    assert "imitation: 4/4 teacher games" in out and "resumed" in out
    assert "evaluation after imitation" in out and "evaluation after update 2" in out
    policy = tmp_path / "ckpt" / "policy.pt"
    status = evaluate_main(["--checkpoint", str(policy), "--opponent", "random", "--games", "1"])
    assert status == 0
    table = capsys.readouterr().out
    assert "norad" in table and "salemite" in table and "overall" in table


def test_imitation_records_legal_teacher_decisions_with_their_returns():
    """The warm start's demonstrations (training/warmstart/imitation.py, played in the game
    vector): every recorded action is legal in its mask; with gamma 1 and no shaping each
    decision's return is
    its seat's final reward, +1, 0 or -1 (ER-WIN-3), and games end differently."""
    from training.warmstart.imitation import record_games

    name = registry.default_name()
    data = record_games(name, {}, games=8, seed=3, gamma=1.0, num_envs=4)
    rows = len(data["actions"])
    assert rows > 100
    assert bool(data["masks"][torch.arange(rows), data["actions"]].all())
    assert set(data["returns"].unique().tolist()) <= {-1.0, 0.0, 1.0}
    assert len(data["returns"].unique()) >= 2 and 1.0 in data["returns"].tolist()


@pytest.mark.parametrize("name", [n for n in registry.names() if len(registry.get(n).bots) > 1])
def test_imitation_records_the_teacher_the_config_names(name):
    """``imitation_teacher``: the warm start records that bot's decisions. Every bot a game
    registers plays its games legally as the teacher, and two teachers that play differently
    leave different records from the same seeds."""
    from training.warmstart.imitation import record_games

    records = {
        teacher: record_games(
            name, {}, games=4, seed=3, gamma=1.0, num_envs=4, teacher_name=teacher
        )
        for teacher in registry.get(name).bots
    }
    for data in records.values():
        rows = len(data["actions"])
        assert rows > 50 and bool(data["masks"][torch.arange(rows), data["actions"]].all())
    played = {tuple(data["actions"].tolist()) for data in records.values()}
    assert len(played) == len(records)


def test_dagger_records_the_learners_games_with_the_teachers_labels():
    """DAgger (training/warmstart/imitation.py): with a learner, the recorded seats play the
    learner's moves (``played``), each labelled with the teacher's action in that state
    (``actions``); both are legal there. The labels are the teacher's: a learner that is the
    teacher itself plays its labels (all but a few ties, which its own generator breaks), the
    random bot mostly
    does not, and without a learner the teacher's moves are the labels."""
    from reborn_env.bots.batched import RandomBatch
    from training.bench.matches import player
    from training.warmstart.imitation import record_games

    name = registry.default_name()
    kwargs = {"games": 4, "seed": 3, "gamma": 1.0, "num_envs": 4}
    rows_of = lambda d: torch.arange(len(d["actions"]))  # noqa: E731
    data = record_games(name, {}, learner=RandomBatch(range(4)), **kwargs)
    rows = rows_of(data)
    assert bool(data["masks"][rows, data["actions"]].all())
    assert bool(data["masks"][rows, data["played"]].all())
    assert float((data["played"] == data["actions"]).float().mean()) < 0.6
    teacher = player("heuristic", name, 3)(4)
    same = record_games(name, {}, learner=teacher, **kwargs)
    assert float((same["played"] == same["actions"]).float().mean()) > 0.9
    alone = record_games(name, {}, **kwargs)
    assert torch.equal(alone["played"], alone["actions"])


def test_dagger_rounds_need_the_cloning_warm_start():
    from training.ppo.config import ConfigError, TrainConfig

    with pytest.raises(ConfigError, match="key 'dagger_rounds'.*imitation_games > 0"):
        TrainConfig(total_steps=10, dagger_rounds=2)
    assert TrainConfig(total_steps=10, dagger_rounds=2, imitation_games=4).dagger_rounds == 2


def test_the_records_torso_reads_every_record_with_the_same_weights():
    """The "records" torso (reborn_env/policies/network.py): one encoder shared by the records of
    a field, so two records with the same floats encode alike (up to their one-hot place), the
    floats outside every field pass through, and a checkpoint's network entry rebuilds it
    exactly."""
    from reborn_env.policies.network import (
        RecordEncoder,
        network_entry,
        network_options,
        record_sets,
    )
    from training.common.envs import observation_layout

    name = registry.default_name()
    sets = record_sets(observation_layout(name, {}))
    assert sets and all(count > 1 for _, count, _ in sets)
    encoder = RecordEncoder(20, [(4, 3, 4)], embed=5)
    assert encoder.out_size == 8 + 3 * 5
    obs = torch.randn(2, 20)
    obs[:, 8:12] = obs[:, 4:8]  # records 0 and 1 equal
    out = encoder(obs)
    assert torch.equal(out[:, :4], obs[:, :4]) and torch.equal(out[:, 4:8], obs[:, 16:20])
    first, second = out[:, 8:13], out[:, 13:18]
    assert not torch.equal(first, second)  # their places differ
    with torch.no_grad():
        encoder.encoders[0][0].weight[:, 4:].zero_()  # forget the place: now they encode alike
    out = encoder(obs)
    assert torch.allclose(out[:, 8:13], out[:, 13:18])
    model = build_model(20, 6, [16], [(4, 3, 4)], 5)
    rebuilt = build_model(20, 6, [16], **network_options(network_entry(model)))
    rebuilt.load_state_dict(model.state_dict())
    mask = torch.ones(2, 6, dtype=torch.bool)
    assert torch.equal(model(obs, mask)[0], rebuilt(obs, mask)[0])
    assert network_options(None) == {} and network_options({"torso": "mlp"}) == {}
    with pytest.raises(ValueError, match="network entry"):
        network_options({"torso": "records", "record_sets": [[1, 2]], "record_embed": 4})


def test_snapshot_every_zero_adds_no_snapshot_during_training(one_legal, tmp_path):
    """``snapshot_every: 0`` (the shipped Earth Reborn run's fixed field): four updates add
    nothing to the pool, where ``snapshot_every: 1`` adds one an update."""
    never = train(_config(tmp_path / "a", snapshot_every=0), log_dir=str(tmp_path / "runs"))
    every = train(_config(tmp_path / "b", snapshot_every=1), log_dir=str(tmp_path / "runs"))
    assert never.update == every.update == 4
    assert len(never.opponents.snapshots) == 0
    assert len(every.opponents.snapshots) == 2  # pool_size 2 keeps the last two of four
