"""The algorithm comparison (training/compare): every algorithm from the same warm start at the
same budget, each policy measured the same way, and the figures across seeds.

A comparison that gave one method another start, or measured one policy on other deals, would
rank the algorithms by the harness, not by what they learn; the end-to-end test checks both on a
real game at a tiny budget, and the arithmetic is checked against hand-computed values.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from types import ModuleType

import pytest
import torch
import yaml

from reborn_env.bots.loading import load_bot
from reborn_env.core import registry
from training.common.schema import ConfigError
from training.compare.config import CompareConfig, load_compare_config
from training.compare.report import doc_section, verdicts
from training.compare.run import main, plan
from training.compare.summary import across_seeds

GAME = next(n for n in registry.names() if not registry.get(n).facts.cooperative)
SHIPPED = Path(__file__).resolve().parents[2] / registry.get(GAME).policy
SMALL = {"num_envs": 4, "num_steps": 16, "num_minibatches": 2, "update_epochs": 1,
         "hidden_sizes": [16], "eval_opponents": []}  # fmt: skip


def _method_configs(folder: Path) -> dict[str, str]:
    """Tiny configs of the four algorithms (the comparison overrides seed, budget, folders)."""
    folder.mkdir(parents=True, exist_ok=True)
    ppo = {"env": GAME, "total_steps": 64, **SMALL, "bot_opponents": ["random"]}
    configs = {
        "ppo": ppo,
        "mmd": {**ppo, "latest_opponent_prob": 0.5, "snapshot_every": 1},
        "league": {  # its init_policy must exist; the comparison replaces it by the warm start
            **ppo,
            "init_policy": str(SHIPPED),
            "exploiter_ppo": {**SMALL, "total_steps": 64},
        },  # fmt: skip
        "nfsp": {
            "env": GAME,
            "total_steps": 256,
            "num_envs": 4,
            "hidden_sizes": [16],
            "min_buffer_size": 16,
            "batch_size": 8,
            "eval_opponents": [],
        },  # fmt: skip
    }
    paths = {}
    for name, keys in configs.items():
        paths[name] = str(folder / f"{name}.yaml")
        Path(paths[name]).write_text(yaml.safe_dump(keys))
    return paths


def _compare_config(tmp_path: Path, **over: object) -> Path:
    keys = {
        "env": GAME, "seeds": [0, 1], "methods": _method_configs(tmp_path / "methods"),
        "minutes": 0.002, "warm_start_games": 2, "heuristic_games": 2, "exploit_minutes": 0.001,
        "exploit_games": 2, "exploit_imitation_games": 2, "exploit_skip": ["search", "clone"],
        "tournament_games": 1, "workers": 2, "out": str(tmp_path / "out"),
        "report": str(tmp_path / "report" / "comparison.json"), **over,
    }  # fmt: skip
    path = tmp_path / "compare.yaml"
    path.write_text(yaml.safe_dump(keys))
    return path


def test_every_algorithm_runs_from_the_seeds_warm_start_and_is_measured_alike(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    leaderboard: ModuleType,
) -> None:
    """Two seeds of each algorithm: the PPO-family runs start from their seed's warm start (the
    league's magnet too), every policy meets the heuristic on the same number of games and the
    protocol's exploiters, all sit in one round robin, and the report holds each method's
    figures across both seeds; a rerun does nothing, and a changed config is refused."""
    monkeypatch.chdir(tmp_path)  # the runs' TensorBoard folders
    config = _compare_config(tmp_path)
    assert main(["--config", str(config)]) == 0
    report = json.loads((tmp_path / "report" / "comparison.json").read_text())
    assert report["complete"] and set(report["methods"]) == {"ppo", "mmd", "league", "nfsp"}
    assert all(m["seeds"] == 2 for m in report["methods"].values())
    jobs = report["jobs"]
    for method in ("ppo", "mmd", "league"):
        for seed in (0, 1):
            policy = jobs[f"train:{method}-{seed}"]["policy"]
            stored = torch.load(policy, weights_only=True)["config"]
            warm = jobs[f"warm-{seed}"]["policy"]
            if method == "league":  # its main policy's last round started from the warm start
                main_cfg = torch.load(
                    Path(policy).parent / "round-0" / "main" / "policy.pt", weights_only=True
                )["config"]
                assert main_cfg["init_policy"] == warm and main_cfg["magnet"] == warm
            else:
                assert stored["init_policy"] == warm and stored["seed"] == seed
    rated = jobs["round-robin"]["bots"]
    assert rated["heuristic"]["rating"] == 0.0
    assert len(rated) == 1 + 8  # the heuristic and every run's policy
    for key, record in jobs.items():
        if key.startswith("heuristic:"):
            assert {s: sum(r.values()) for s, r in record["seats"].items()} == {
                a: 2 for a in registry.get(GAME).make_env().possible_agents
            }
        if key.startswith("exploit:"):
            exploit = json.loads(Path(record["report"]).read_text())
            assert exploit["complete"] and exploit["budget"]["games"] == 2
            assert -0.5 <= record["exploitability"] <= 0.5
    nfsp = jobs["train:nfsp-0"]["policy"]
    env = registry.get(GAME).make_env()
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    assert obs["action_mask"][
        load_bot(nfsp, GAME, seed=0).act(obs["observation"], obs["action_mask"])
    ]
    assert (tmp_path / "report" / "comparison.png").read_bytes()[:4] == b"\x89PNG"
    section = doc_section(report, "docs/comparison/x.json")
    assert "| ppo | 2 |" in section and "nfsp, seed 1" in section
    shown = leaderboard.comparison_section(tmp_path / "report")  # how benchmark.md shows it
    assert shown.startswith("## Algorithms compared at one budget") and "| mmd | 2 |" in shown
    capsys.readouterr()
    assert main(["--config", str(config)]) == 0
    assert "0 jobs to run (27 already done)" in capsys.readouterr().out
    changed = _compare_config(tmp_path, heuristic_games=3)
    assert main(["--config", str(changed)]) == 2
    assert "heuristic_games" in capsys.readouterr().err


def test_a_failed_run_leaves_the_others_measured_and_exits_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A league whose exploiters cannot be configured fails when it trains: PPO's run is still
    trained and measured, the league's measures and the round robin are not run, the report
    is incomplete, and the command says which job failed and why."""
    monkeypatch.chdir(tmp_path)
    methods = _method_configs(tmp_path / "broken")
    league = yaml.safe_load(Path(methods["league"]).read_text())
    league["exploiter_ppo"] = {"no_such_key": 1}
    Path(methods["league"]).write_text(yaml.safe_dump(league))
    config = _compare_config(
        tmp_path, seeds=[0], methods={"ppo": methods["ppo"], "league": methods["league"]}
    )
    assert main(["--config", str(config)]) == 1
    out = capsys.readouterr().out
    assert "train:league-0 FAILED (ConfigError" in out and "no_such_key" in out
    assert "exploit:league-0: not run: train:league-0 failed" in out
    report = json.loads((tmp_path / "report" / "comparison.json").read_text())
    assert not report["complete"] and "round-robin" not in report["jobs"]
    assert {"train:ppo-0", "exploit:ppo-0", "heuristic:ppo-0"} <= set(report["jobs"])


def test_the_plan_runs_each_job_after_the_records_it_needs() -> None:
    """The warm starts before the runs that start from them, the runs before their measures,
    and the round robin last, after every run."""
    cfg = CompareConfig(
        env=GAME, seeds=[3, 4], methods={"ppo": "p.yaml", "nfsp": "n.yaml"}, minutes=1.0,
        report="r.json",
    )  # fmt: skip
    jobs = plan(cfg)
    order = [j.key for j in jobs]
    assert len(order) == len(set(order)) == 2 + 4 + 8 + 1
    for k, job in enumerate(jobs):
        assert all(order.index(n) < k for n in job.needs), job.key
    assert jobs[-1].key == "round-robin" and len(jobs[-1].needs) == 4
    assert next(j for j in jobs if j.key == "train:nfsp-3").needs == ()
    assert next(j for j in jobs if j.key == "train:ppo-4").needs == ("warm-4",)


def test_the_interval_across_seeds_is_students() -> None:
    """Three seeds: mean +- t(0.975, 2) * s / sqrt(3), t = 4.303; clipped to the measure's
    range; one seed gives no interval."""
    figure = across_seeds([0.1, 0.2, 0.3])
    half = 4.303 * 0.1 / math.sqrt(3)
    assert figure["mean"] == pytest.approx(0.2)
    assert figure["low"] == pytest.approx(0.2 - half) and figure["high"] == pytest.approx(
        0.2 + half
    )
    assert across_seeds([0.1, 0.2, 0.3], (0.0, 1.0))["low"] == 0.0
    assert across_seeds([0.4])["low"] is None


def test_a_method_is_said_better_only_when_the_intervals_part() -> None:
    def method(values: list[float]) -> dict[str, object]:
        return {"seeds": len(values), "exploitability": across_seeds(values)}

    said = verdicts({
        "ppo": method([0.30, 0.31, 0.32]),
        "mmd": method([0.10, 0.11, 0.12]),
        "league": method([0.20, 0.35, 0.30]),
        "nfsp": method([0.45, 0.46, 0.47]),
    })  # fmt: skip
    assert [line.split(":")[0] for line in said] == ["- mmd", "- league", "- nfsp"]
    assert "lower than ppo's" in said[0]
    assert "not told apart from ppo's" in said[1]
    assert "higher than ppo's" in said[2]


@pytest.mark.parametrize(
    ("over", "fragment"),
    [
        ({"methods": {"sarsa": "x.yaml"}}, "must map one or more of ppo, mmd, league, nfsp"),
        ({"seeds": [1, 1]}, "distinct seeds"),
        ({"warm_start_teacher": "nobody"}, "'nobody' is not a bot of"),
        ({"minutes": 0}, "key 'minutes'"),
        ({"exploit_skip": ["everything"]}, "exploiter families"),
        (
            {"env": next(n for n in registry.names() if registry.get(n).facts.cooperative)},
            "is cooperative",
        ),
    ],
)
def test_config_errors_name_the_key(tmp_path: Path, over: dict, fragment: str) -> None:
    with pytest.raises(ConfigError, match=fragment):
        load_compare_config(_compare_config(tmp_path, **over))


def test_a_method_config_of_another_game_is_refused(tmp_path: Path) -> None:
    other = next(n for n in registry.names() if n != GAME)
    path = tmp_path / "other.yaml"
    path.write_text(yaml.safe_dump({"env": other, "total_steps": 64}))
    with pytest.raises(ConfigError, match=f"methods.ppo': {path} trains {other}"):
        load_compare_config(_compare_config(tmp_path, methods={"ppo": str(path)}))
