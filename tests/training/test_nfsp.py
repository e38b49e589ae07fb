"""NFSP (training/nfsp/train.py): its memories, its masked action choices, its config and whole
runs.

The reservoir must keep a uniform sample of everything offered (else the average policy averages
the wrong thing), the replay buffer must forget its oldest rows first, no choice may ever be
illegal, a toy game must be learnt, and a run on the default game must leave a policy file that
``load_bot`` plays in both seats.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
import torch
from gymnasium import spaces
from pettingzoo import AECEnv

from reborn_env.bots.loading import load_bot
from reborn_env.core import registry
from reborn_env.policies.artifact import load_checkpoint
from training.common.envs import make_env
from training.common.schema import ConfigError
from training.nfsp.buffers import CircularBuffer, ReservoirBuffer
from training.nfsp.config import NFSPConfig, load_nfsp_config
from training.nfsp.learner import epsilon_greedy, random_legal
from training.nfsp.train import main, train

ENV = registry.default_name()

# --- the memories ---------------------------------------------------------------------------------


CHI2_19_DOF_P01 = 36.191
"""The chi-square distribution's 99th percentile at 19 degrees of freedom (20 parts): a uniform
sample's statistic exceeds it with probability 0.01 (scipy is not a dependency)."""


def test_reservoir_keeps_a_uniform_sample_of_everything_offered() -> None:
    """Algorithm R: after 20,000 rows offered in batches of varied sizes, the 1,000 kept are
    spread over the stream as a uniform sample would be (chi-square over 20 equal parts), and
    neither the first nor the last rows are favoured."""
    rng = np.random.default_rng(20261201)
    buffer = ReservoirBuffer(1000, {"x": ((), np.int64)})
    offered = 0
    while offered < 20_000:
        k = min(int(rng.integers(1, 300)), 20_000 - offered)
        buffer.add({"x": np.arange(offered, offered + k)}, rng)
        offered += k
    kept = buffer.data["x"]
    assert len(buffer) == 1000 and buffer.added == 20_000
    assert len(np.unique(kept)) == 1000  # each row kept at most once
    counts = np.bincount(kept // 1000, minlength=20)
    statistic = float(((counts - 50) ** 2 / 50).sum())
    assert statistic < CHI2_19_DOF_P01, counts
    assert counts[0] < 80 and counts[-1] < 80  # 50 expected in each part


def test_reservoir_keeps_everything_until_full() -> None:
    rng = np.random.default_rng(0)
    buffer = ReservoirBuffer(10, {"x": ((2,), np.float32)})
    buffer.add({"x": np.arange(14, dtype=np.float32).reshape(7, 2)}, rng)
    assert len(buffer) == 7
    assert buffer.data["x"][:7].tolist() == np.arange(14).reshape(7, 2).tolist()


def test_circular_buffer_overwrites_its_oldest_rows() -> None:
    buffer = CircularBuffer(5, {"x": ((), np.int64), "y": ((2,), np.float32)})
    buffer.add({"x": np.arange(3), "y": np.zeros((3, 2), np.float32)})
    assert len(buffer) == 3
    buffer.add({"x": np.arange(3, 7), "y": np.ones((4, 2), np.float32)})
    assert len(buffer) == 5 and sorted(buffer.data["x"].tolist()) == [2, 3, 4, 5, 6]
    buffer.add({"x": np.arange(100, 112), "y": np.ones((12, 2), np.float32)})  # > capacity
    assert sorted(buffer.data["x"].tolist()) == list(range(107, 112))
    sample = buffer.sample(64, np.random.default_rng(1))
    assert set(sample["x"].tolist()) <= set(range(107, 112)) and sample["y"].shape == (64, 2)


def test_buffers_refuse_rows_that_do_not_fit() -> None:
    buffer = CircularBuffer(4, {"x": ((), np.int64), "y": ((), np.int64)})
    with pytest.raises(ValueError, match="exactly the columns"):
        buffer.add({"x": np.arange(2)})
    with pytest.raises(ValueError, match="different lengths"):
        buffer.add({"x": np.arange(2), "y": np.arange(3)})
    with pytest.raises(ValueError, match="empty"):
        buffer.sample(1, np.random.default_rng(0))
    with pytest.raises(ValueError, match="capacity"):
        ReservoirBuffer(0, {"x": ((), np.int64)})


# --- masked choices -------------------------------------------------------------------------------


def test_masked_choices_are_never_illegal() -> None:
    """Exploration (epsilon 1), greedy play with the highest Q on an illegal action, and uniform
    legal draws: every action is legal, and exploration reaches every legal action."""
    rng = np.random.default_rng(3)
    mask = rng.random((500, 20)) < 0.2
    mask[np.arange(500), rng.integers(0, 20, 500)] = True
    q = torch.randn(500, 20)
    q[~torch.from_numpy(mask)] = 1e6  # illegal actions look best
    for epsilon in (0.0, 0.5, 1.0):
        actions = epsilon_greedy(q, mask, epsilon, rng)
        assert mask[np.arange(500), actions].all()
    legal_q = q.masked_fill(~torch.from_numpy(mask), -torch.inf)
    assert (epsilon_greedy(q, mask, 0.0, rng) == legal_q.argmax(-1).numpy()).all()
    one_row = np.tile(mask[:1], (2000, 1))
    drawn = random_legal(one_row, rng)
    assert set(drawn.tolist()) == set(np.flatnonzero(mask[0]).tolist())
    with pytest.raises(ValueError, match="no legal action"):
        random_legal(np.zeros((1, 4), bool), rng)


# --- a toy game NFSP must learn -------------------------------------------------------------------


class PointedEnv(AECEnv):
    """Two seats, one decision each: a seat's observation points at one of 4 actions (its first
    4 floats, one-hot); some others are illegal. Each seat scores 1 if it followed the pointer;
    at the end each gets its score minus the other's."""

    metadata = {"name": "pointed_v0"}

    def __init__(self) -> None:
        super().__init__()
        self.possible_agents = ["a", "b"]
        box = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (6,), np.float32),
                "action_mask": spaces.Box(0, 1, (4,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, box)
        self.action_spaces = {a: spaces.Discrete(4) for a in self.possible_agents}

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        self.rng = np.random.default_rng(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection, self.scores = "a", {}
        self._draw()

    def _draw(self) -> None:
        self.target = int(self.rng.integers(4))
        self.mask = (self.rng.random(4) < 0.5).astype(np.int8)
        self.mask[self.target] = 1

    def observe(self, agent):
        obs = np.zeros(6, np.float32)
        obs[self.target] = 1.0
        obs[4 + self.possible_agents.index(agent)] = 1.0
        mask = self.mask if agent == self.agent_selection else np.zeros(4, np.int8)
        return {"observation": obs, "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent]:
            self._was_dead_step(action)
            return
        if not self.mask[action]:
            raise ValueError(f"illegal action {action}")
        self._clear_rewards()
        self.scores[agent] = float(action == self.target)
        if agent == "a":
            self.agent_selection = "b"
            self._draw()
        else:
            a, b = self.scores["a"], self.scores["b"]
            self.rewards = {"a": a - b, "b": b - a}
            self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()


@pytest.fixture
def pointed():
    registry.register(registry.GameSpec("pointed_v0", "pointed", f"{__name__}:PointedEnv"))
    yield "pointed_v0"
    registry.unregister("pointed_v0")


def tiny(tmp_path: Path, **over) -> NFSPConfig:
    values = dict(
        env=ENV,
        total_steps=2048,
        num_envs=16,
        hidden_sizes=[16],
        replay_capacity=2000,
        reservoir_capacity=2000,
        min_buffer_size=64,
        batch_size=32,
        learn_every=16,
        eval_every=50,
        eval_games=4,
        checkpoint_dir=str(tmp_path / "run"),
        anticipatory=0.5,
        env_kwargs={"max_steps": 60},
    )
    values.update(over)
    return NFSPConfig.from_dict(values)


def test_nfsp_learns_a_toy_game(pointed, tmp_path: Path, capsys) -> None:
    """Both networks learn: after 6,000 decisions the best response (greedy on its Q-values) and
    the average policy (as ``load_bot`` plays its file, greedily) follow the pointer in over 90%
    of the decisions of both seats, where a uniform legal choice is right about half the time."""
    cfg = tiny(tmp_path, env=pointed, total_steps=6000, num_envs=32, anticipatory=0.5,
               sl_learning_rate=1e-2, rl_learning_rate=1e-2, learn_every=4,
               target_update_every=20, gamma=1.0, eval_opponents=[], env_kwargs={})  # fmt: skip
    run = train(cfg)
    env = make_env(pointed)
    rng = np.random.default_rng(0)
    obs, mask = [], []
    for seed in range(300):
        env.reset(seed=seed)
        if seed % 2:
            env.step(int(np.flatnonzero(env.observe("a")["action_mask"])[0]))
        view = env.observe(env.agent_selection)
        obs.append(view["observation"])
        mask.append(view["action_mask"].astype(bool))
    obs, mask = np.stack(obs), np.stack(mask)
    target = obs[:, :4].argmax(1)
    assert np.mean(1 / mask.sum(1)) < 0.6  # how often a uniform legal choice is right
    with torch.no_grad():
        q, _ = run.learner.q(torch.from_numpy(obs), torch.from_numpy(mask))
    assert (epsilon_greedy(q, mask, 0.0, rng) == target).mean() > 0.9
    played = load_bot(str(tmp_path / "run" / "policy.pt"), pointed, seed=1, greedy=True)
    chosen = np.array([played.act(o, m) for o, m in zip(obs, mask, strict=True)])
    assert (chosen == target).mean() > 0.9
    assert "done: 6016 decisions" in capsys.readouterr().out


def test_a_run_on_the_default_game_writes_a_policy_load_bot_plays(tmp_path: Path, capsys) -> None:
    """A few thousand decisions end to end, after a teacher's games and with its evaluations:
    the policy file is a verified checkpoint (``algorithm: nfsp``, a history PPO's plot reads)
    and ``load_bot`` plays it legally in both seats of whole games."""
    run = train(tiny(tmp_path, teacher_games=4))
    assert run.global_step >= 2048 and run.update > 0 and run.games > 0
    cloned = re.search(r"heuristic cloned in \d+ s: (\d+) decisions", capsys.readouterr().out)
    assert cloned and 0 < int(cloned[1]) < run.learner.reservoir.added
    path = tmp_path / "run" / "policy.pt"
    payload = load_checkpoint(path, expect_env=ENV)
    assert payload["algorithm"] == "nfsp" and payload["update"] == run.update
    steps = [r["step"] for r in payload["history"]]
    assert steps[0] == 0 and steps[-1] == run.global_step
    assert {r["opponent"] for r in payload["history"]} == {"random", "heuristic"}
    assert (tmp_path / "run" / "learning_curve.png").read_bytes()[:4] == b"\x89PNG"
    env = make_env(ENV, max_steps=60)
    bots = [load_bot(str(path), ENV, seed=s) for s in range(2)]
    for seed in range(2):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, done, cut, _ = env.last()
            if done or cut:
                env.step(None)
                continue
            action = bots[env.possible_agents.index(agent)].act(
                obs["observation"], obs["action_mask"]
            )
            assert obs["action_mask"][action]
            env.step(action)


def test_max_minutes_ends_the_run_on_the_clock_with_its_policy(tmp_path: Path, capsys) -> None:
    """A budget in time (as PPO's ``max_minutes``, so that the algorithms compare at equal
    minutes): the run stops once it is spent, long before ``total_steps``, and still writes its
    policy file."""
    run = train(tiny(tmp_path, total_steps=10**9, max_minutes=0.02, eval_opponents=[]))
    assert 0 < run.global_step < 10**9
    assert re.search(r"max_minutes: stopped at step \d+ \(0.02 min\)", capsys.readouterr().out)
    assert load_checkpoint(tmp_path / "run" / "policy.pt", expect_env=ENV)["algorithm"] == "nfsp"


# --- the config and the command line -------------------------------------------------------------


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "nfsp.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_shipped_config_loads() -> None:
    cfg = load_nfsp_config("configs/earth_reborn_nfsp.yaml")
    assert cfg.env == "earth_reborn_v0" and cfg.checkpoint_dir.startswith("checkpoints/")


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("total_steps: 10\nanticipatry: 0.1\n", "did you mean 'anticipatory'?"),
        ("total_steps: 10\nanticipatory: 0\n", "key 'anticipatory': must be in (0, 1]"),
        ("total_steps: 10\nanticipatory: .nan\n", "key 'anticipatory'"),
        ("total_steps: 10\ngamma: 1.5\n", "key 'gamma': must be in (0, 1]"),
        ("total_steps: 10\nrl_learning_rate: 1e-4\n", "write it with a dot"),
        ("total_steps: 10\nreplay_capacity: 0\n", "key 'replay_capacity': must be an integer > 0"),
        ("total_steps: 10\nreservoir_capacity: 100000000\n", "at most 2097152"),
        ("total_steps: 10\nmin_buffer_size: 60000\n", "can never be reached"),
        ("total_steps: 10\nepsilon_start: 0.01\nepsilon_end: 0.1\n", "at most epsilon_start"),
        ("total_steps: 10\nbatch_size: true\n", "key 'batch_size': expected an integer"),
        ("total_steps: 10\neval_opponents: [nobody]\n", "neither 'random' nor 'heuristic'"),
        ("total_steps: 10\nenv_kwargs: {max_steps: -1}\n", "key 'env_kwargs'"),
        ("total_steps: 10\nteacher_games: 5\nteacher: nobody\n", "'nobody' is not a bot"),
        ("total_steps: 10\nteacher_games: -1\n", "key 'teacher_games': must be an integer >= 0"),
        ("anticipatory: 0.1\n", "missing required key 'total_steps'"),
        ("- 1\n", "expected a mapping"),
    ],
)  # fmt: skip
def test_config_errors_name_the_file_and_the_key(tmp_path: Path, text: str, fragment: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_nfsp_config(path)
    assert str(path) in str(info.value) and fragment in str(info.value)


def test_a_cooperative_game_is_refused() -> None:
    cooperative = [name for name in registry.names() if registry.get(name).facts.cooperative]
    assert cooperative, "a bundled cooperative game is needed for this test"
    with pytest.raises(ConfigError, match="cooperative game"):
        NFSPConfig.from_dict({"env": cooperative[0], "total_steps": 10})


def test_cli_errors_are_one_line(tmp_path: Path, capsys) -> None:
    assert main(["--config", str(write(tmp_path, "total_steps: 0\n"))]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "total_steps" in err and err.count("\n") == 1
    assert main(["--config", str(tmp_path / "missing.yaml")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["--config", "configs/earth_reborn_nfsp.yaml", "--resume"]) == 2
    assert "not supported" in capsys.readouterr().err
    folder = tmp_path / "busy"
    folder.mkdir()
    (folder / "policy.pt").write_bytes(b"old")
    config = write(tmp_path, f"total_steps: 10\ncheckpoint_dir: {folder}\n")
    assert main(["--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert "--overwrite" in err and "cannot be resumed" in err
    assert (folder / "policy.pt").read_bytes() == b"old"
