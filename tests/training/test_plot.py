"""training.runs.plot: several runs' learning curves on one chart, from each kind of run (a JSON
history, a checkpoint folder, a TensorBoard log), and its refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reborn_env.policies import artifact as ckpt
from tests.training.checkpoint_payload import tiny_payload
from training.runs.plot import PlotError, load_history, main, plot_runs


def history(rates: list[float], opponents: tuple[str, ...], seats: tuple[str, ...] = ()) -> list:
    """Evaluation records as the trainer writes them: one per opponent per evaluation."""
    records = []
    for n, rate in enumerate(rates):
        for opponent in opponents:
            record = {"step": 1000 * n, "update": n, "opponent": opponent, "win_rate": rate}
            record.update(low=max(rate - 0.1, 0.0), high=min(rate + 0.1, 1.0))
            for k, seat in enumerate(seats):
                record[f"win_rate_{seat}"] = rate + 0.05 * (-1) ** k
            records.append(record)
    return records


def labelled(ax) -> list:
    """The curves of a panel (not the unlabelled reference line)."""
    return [line for line in ax.get_lines() if not line.get_label().startswith("_")]


def test_runs_share_panels_with_a_colour_each_and_seats_as_styles(tmp_path: Path) -> None:
    runs = {
        "ppo": history([0.2, 0.5, 0.7], ("random", "heuristic"), seats=("north", "south")),
        "nfsp": history([0.1, 0.3], ("random", "heuristic")),
    }
    fig = plot_runs(runs, tmp_path / "curves.png")
    assert (tmp_path / "curves.png").stat().st_size > 0
    panels = [ax for ax in fig.axes if ax.get_title()]
    assert [ax.get_title() for ax in panels] == ["vs random", "vs heuristic"]
    for ax in panels:
        lines = labelled(ax)
        assert [line.get_label() for line in lines] == [
            "ppo", "ppo, as north", "ppo, as south", "nfsp"
        ]  # fmt: skip
        assert len({line.get_color() for line in lines[:3]}) == 1
        assert lines[3].get_color() != lines[0].get_color()
        assert [line.get_linestyle() for line in lines[:3]] == ["-", "--", ":"]
        assert list(lines[0].get_xdata()) == [0, 1000, 2000]
        assert ax.get_xlabel() == "learner decisions"
    assert panels[0].get_ylabel() == "win rate"


def test_one_opponent_can_be_kept(tmp_path: Path) -> None:
    runs = {"a": history([0.4], ("random", "heuristic")), "b": history([0.6], ("heuristic",))}
    fig = plot_runs(runs, tmp_path / "one.png", opponent="heuristic")
    panels = [ax for ax in fig.axes if ax.get_title()]
    assert [ax.get_title() for ax in panels] == ["vs heuristic"]
    assert [line.get_label() for line in labelled(panels[0])] == ["a", "b"]
    with pytest.raises(PlotError, match="'nobody'.*vs random, vs heuristic"):
        plot_runs(runs, tmp_path / "none.png", opponent="nobody")
    assert not (tmp_path / "none.png").exists()


def test_a_team_run_has_a_panel_per_series_and_no_even_line(tmp_path: Path) -> None:
    records = [
        {"step": s, "series": name, "win_rate": r}
        for s, r in ((0, 0.1), (10, 0.3))
        for name in ("policy (greedy)", "heuristic")
    ]
    fig = plot_runs({"team": records}, tmp_path / "team.png")
    panels = [ax for ax in fig.axes if ax.get_title()]
    assert [ax.get_title() for ax in panels] == ["team policy (greedy)", "team heuristic"]
    assert all(len(ax.get_lines()) == 1 for ax in panels)  # the curve, no 0.5 reference


def test_a_checkpoint_folder_a_json_file_and_a_tensorboard_log_all_load(tmp_path: Path) -> None:
    records = history([0.25, 0.75], ("heuristic",), seats=("north", "south"))
    payload = tiny_payload()
    payload["history"] = records
    run = tmp_path / "run"
    ckpt.save_checkpoint(run / "latest.pt", payload)
    assert load_history(run) == records
    as_json = tmp_path / "nfsp.json"
    as_json.write_text(json.dumps({"history": records}))
    assert load_history(as_json) == records

    from torch.utils.tensorboard import SummaryWriter

    logs = tmp_path / "logs"
    with SummaryWriter(str(logs)) as writer:
        for record in records:
            writer.add_scalar("eval/win_rate_vs_heuristic", record["win_rate"], record["step"])
            writer.add_scalar("eval/win_rate_policy_greedy", 0.5, record["step"])
            writer.add_scalar("losses/entropy", 1.0, record["step"])
    loaded = load_history(logs)
    assert [(r["step"], r["opponent"], r["win_rate"]) for r in loaded if "opponent" in r] == [
        (0, "heuristic", 0.25), (1000, "heuristic", 0.75)
    ]  # fmt: skip
    assert [(r["step"], r["series"]) for r in loaded if "series" in r] == [
        (0, "policy_greedy"), (1000, "policy_greedy")
    ]  # fmt: skip


def test_the_command_line_writes_the_chart_or_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(history([0.3, 0.6], ("random",))))
    b.write_text(json.dumps([{"step": 0, "opponent": "random"}]))  # no win rate
    out = tmp_path / "curves.png"
    (tmp_path / "not_a_run").mkdir()
    assert main([str(a), str(tmp_path / "not_a_run"), "--out", str(out)]) == 0 and out.is_file()
    assert "skipped " in capsys.readouterr().out  # as runs/* may match a folder of other files
    assert main([str(a), str(b), "--out", str(tmp_path / "bad.png")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "record 0 needs a numeric 'step' and 'win_rate'" in err
    assert main([str(tmp_path / "missing"), "--out", str(tmp_path / "bad.png")]) == 2
    assert "no such file or folder" in capsys.readouterr().err
    assert not (tmp_path / "bad.png").exists()
