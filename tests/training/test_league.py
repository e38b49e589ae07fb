"""The league (training/league): rounds of exploiters trained against the main policy, then the
main policy trained against them, on a real game at a tiny budget."""

from __future__ import annotations

import json

import pytest
import torch

from reborn_env.bots.loading import load_bot
from reborn_env.core import registry
from training.common.schema import ConfigError
from training.league.config import LeagueConfig
from training.league.train import train
from training.ppo.config import TrainConfig
from training.ppo.train import train as train_ppo

torch.set_num_threads(1)
GAME = next(n for n in registry.names() if not registry.get(n).facts.cooperative)
SMALL = dict(num_envs=4, num_steps=16, num_minibatches=2, update_epochs=1, hidden_sizes=[16])


def _start(tmp_path) -> str:
    """A main policy to start from: one PPO update."""
    cfg = TrainConfig.from_dict(
        {"env": GAME, "total_steps": 64, **SMALL, "eval_opponents": [],
         "checkpoint_dir": str(tmp_path / "start"), "run_name": "start"}
    )  # fmt: skip
    train_ppo(cfg, log_dir=str(tmp_path / "runs"))
    return str(tmp_path / "start" / "policy.pt")


def _league(tmp_path, **over) -> LeagueConfig:
    keys = dict(
        env=GAME, total_steps=128, **SMALL, eval_opponents=[], snapshot_every=0,
        latest_opponent_prob=0.0, opponent_sampling="pfsp", bot_opponents=["random"],
        rounds=2, exploiter_minutes=0.001, exploiter_games=2, exploiter_imitation_games=2,
        exploiter_skip=["search", "scripted"], exploiter_ppo={**SMALL, "total_steps": 64},
        checkpoint_dir=str(tmp_path / "league"), run_name="league",
    )  # fmt: skip
    return LeagueConfig.from_dict({**keys, **over})


def test_each_round_trains_exploiters_then_the_main_policy_against_them(tmp_path, monkeypatch):
    """Round 1's main policy meets round 0's exploiters and its own; the last round's main
    policy is the league's policy.pt, and it plays through load_bot."""
    monkeypatch.chdir(tmp_path)  # the rounds' TensorBoard folders: runs/<run_name>-round<r>
    cfg = _league(tmp_path, init_policy=_start(tmp_path))
    rounds = train(cfg, log=lambda line: None)
    assert [r["round"] for r in rounds] == [0, 1]
    assert rounds[1]["main_before"] == rounds[0]["main_after"]
    learned = [len(r["exploiters"]) for r in rounds]
    assert learned[0] >= 2 and learned[0] == learned[1]  # each seat's clones, every round
    stored = torch.load(tmp_path / "league" / "round-1" / "main" / "policy.pt", weights_only=True)
    assert set(rounds[0]["exploiters"]) <= set(stored["config"]["bot_opponents"])
    assert set(rounds[1]["exploiters"]) <= set(stored["config"]["bot_opponents"])
    final = (tmp_path / "league" / "policy.pt").read_bytes()
    assert final == (tmp_path / "league" / "round-1" / "main" / "policy.pt").read_bytes()
    report = json.loads((tmp_path / "league" / "league.json").read_text())
    assert [r["round"] for r in report["rounds"]] == [0, 1]
    assert 0.0 <= report["rounds"][0]["exploitability_before"] + 0.5 <= 1.0
    env = registry.get(GAME).make_env()
    env.reset(seed=0)
    bot = load_bot(str(tmp_path / "league" / "policy.pt"), GAME, seed=0)
    obs = env.observe(env.agent_selection)
    assert obs["action_mask"][bot.act(obs["observation"], obs["action_mask"])]


def test_a_league_needs_a_main_policy_to_start_from(tmp_path):
    with pytest.raises(ConfigError, match="key 'init_policy': a league starts from a main policy"):
        _league(tmp_path)


def test_exploiters_counted_in_updates_train_in_several_processes(tmp_path, monkeypatch):
    """``exploiter_updates``: every learned exploiter of a round makes exactly that many PPO
    updates (the protocol's ``--updates``); ``exploiter_workers`` measures the round's
    exploiters in that many processes, merged into the report one process would write."""
    monkeypatch.chdir(tmp_path)
    cfg = _league(
        tmp_path, init_policy=_start(tmp_path), rounds=1, exploiter_updates=3,
        exploiter_workers=2, exploiter_ppo=SMALL,
    )  # fmt: skip
    rounds = train(cfg, log=lambda line: None)
    report = json.loads((tmp_path / "league" / "round-0" / "exploit" / "exploit.json").read_text())
    assert report["complete"] and len(report["parts"]) == 2 * len(report["exploiters"])
    rows = [r for seat in report["seats"].values() for r in seat["exploiters"].values()]
    assert rows and all(r["updates"] == 3 for r in rows)
    assert len(rounds[0]["exploiters"]) == len(report["exploiters"]) * 2  # a run a seat


def _continuous(tmp_path, start: str, **over) -> LeagueConfig:
    """A continuous league of three main updates, one a phase, each seat's main exploiter
    warming up for two updates and snapshotted every second phase."""
    keys = dict(
        init_policy=start, schedule="continuous", total_steps=3 * 64,
        phase_updates=1, exploiter_phase_updates=1, exploiter_warmup_updates=2,
        exploiter_snapshot_every=2, exploiter_workers=2, exploiter_ppo=SMALL,
    )  # fmt: skip
    return _league(tmp_path, **{**keys, **over})


def test_main_exploiters_keep_learning_against_the_main_policy_as_it_learns(tmp_path, monkeypatch):
    """``schedule: continuous``: each phase the main policy meets the exploiters' latest
    weights and their frozen copies, and each exploiter meets the main policy's latest; the
    league's policy is the main policy's last."""
    monkeypatch.chdir(tmp_path)
    start = _start(tmp_path)
    phases = train(_continuous(tmp_path, start), log=lambda line: None)
    out = tmp_path / "league"
    assert [p["phase"] for p in phases] == [0, 1, 2, 3]
    assert [p["main"]["updates"] for p in phases[1:]] == [1, 2, 3]
    keys = sorted(phases[0]["exploiters"])
    assert len(keys) == 2  # one a seat: clone:target, as no seat is named
    for p in phases:
        assert [p["exploiters"][k]["updates"] for k in keys] == [2 + p["phase"]] * 2
    main = torch.load(out / "main" / "checkpoints" / "policy.pt", weights_only=True)
    met = main["config"]["bot_opponents"]
    for key in keys:
        assert str(out / "opponents" / f"{key}.pt") in met
        assert str(out / "opponents" / f"{key}-phase2.pt") in met  # frozen at phase 2
        exploiter = out / "exploiters" / key / "checkpoints" / "policy.pt"
        stored = torch.load(exploiter, weights_only=True)
        assert stored["config"]["bot_opponents"] == [str(out / "opponents" / "main.pt")]
        assert (out / "opponents" / f"{key}.pt").read_bytes() == exploiter.read_bytes()
        assert not torch.equal(  # it learned from the target's weights
            stored["model"]["policy.weight"],
            torch.load(start, weights_only=True)["model"]["policy.weight"],
        )
    final = (out / "policy.pt").read_bytes()
    assert final == (out / "opponents" / "main.pt").read_bytes()
    assert final == (out / "main" / "checkpoints" / "policy.pt").read_bytes()
    report = json.loads((out / "league.json").read_text())
    assert report["schedule"] == "continuous" and len(report["phases"]) == 4


def test_main_exploiters_start_again_from_their_warm_starts_every_few_phases(tmp_path, monkeypatch):
    """``exploiter_reset_every``: after phase 2 each exploiter, frozen first, starts a new run;
    the one warm-started from the main policy's weights takes the main policy's of phase 2."""
    monkeypatch.chdir(tmp_path)
    cfg = _continuous(
        tmp_path, _start(tmp_path), exploiter_snapshot_every=0, exploiter_reset_every=2
    )
    phases = train(cfg, log=lambda line: None)
    out = tmp_path / "league"
    assert [p.get("reset", False) for p in phases] == [False, False, True, False]
    for key in phases[0]["exploiters"]:
        assert [p["exploiters"][key]["updates"] for p in phases] == [2, 3, 4, 1]
        stored = torch.load(
            out / "exploiters" / key / "checkpoints" / "policy.pt", weights_only=True
        )
        assert stored["config"]["init_policy"] == str(out / "opponents" / "main-phase2.pt")
    met = torch.load(out / "main" / "checkpoints" / "policy.pt", weights_only=True)
    frozen = [f for f in met["config"]["bot_opponents"] if "-phase" in f]
    assert sorted(frozen) == sorted(
        str(out / "opponents" / f"{k}-phase2.pt") for k in phases[0]["exploiters"]
    )


def test_main_exploiters_must_be_seats_and_learned_exploiters_of_the_protocol(tmp_path):
    from training.league.continuous import main_exploiters

    start = _start(tmp_path)
    with pytest.raises(ConfigError, match="'nobody' is not a seat of"):
        main_exploiters(_continuous(tmp_path, start, main_exploiters={"nobody": ["clone:target"]}))
    seat = main_exploiters(_continuous(tmp_path, start))[0].target_seat
    with pytest.raises(ConfigError, match="'scripted:random' is not a learned exploiter"):
        main_exploiters(_continuous(tmp_path, start, main_exploiters={seat: ["scripted:random"]}))
