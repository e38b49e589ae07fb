"""training.bench.tournament: the round robin's blocks, results file, resuming after a kill,
refusals, the tables and heatmap, and the team leaderboard of a cooperative game.

Games are taken from the registry, not named: the competitive game with the fewest decisions
(the test session's toy game when it is registered) and the first cooperative game.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from types import ModuleType

import pytest

from reborn_env.core import registry
from training.bench import tournament
from training.bench.tournament import Arguments, main

COMPETITIVE = min(
    (n for n in registry.names() if not registry.get(n).facts.cooperative),
    key=lambda n: registry.get(n).facts.max_game_length or 10**9,
)
COOPERATIVE = next(n for n in registry.names() if registry.get(n).facts.cooperative)
BOTS = ["random", *registry.get(COMPETITIVE).bots]


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main(list(argv), stream=out)
    return status, out.getvalue()


def results(folder: Path) -> dict:
    return json.loads((folder / "results.json").read_text())


def test_round_robin_plays_every_pair_in_both_seats(tmp_path: Path) -> None:
    status, text = run(
        "--env", COMPETITIVE, "--bots", *BOTS, "--games", "7", "--seed", "3",
        "--num-envs", "3", "--out", str(tmp_path), "--resamples", "20",
    )  # fmt: skip
    assert status == 0
    data = results(tmp_path)
    assert data["arguments"] == {
        "env": COMPETITIVE, "bots": BOTS, "games": 7, "seed": 3, "greedy": False, "num_envs": 3
    }  # fmt: skip
    seatings = [tuple(b["bots"]) for b in data["blocks"]]
    pairs = {frozenset(s) for s in seatings}
    assert len(pairs) == len(BOTS) * (len(BOTS) - 1) // 2
    assert set(seatings) == {(a, b) for a in BOTS for b in BOTS if a != b}
    assert all(len(b["outcomes"]) == 7 and set(b["outcomes"]) <= {-1, 0, 1} for b in data["blocks"])
    assert data["complete"] and set(data["ratings"]["bots"]) == set(BOTS)
    assert data["ratings"]["bots"]["random"]["rating"] == 0  # the anchor
    assert (tmp_path / "heatmap.png").stat().st_size > 0
    for agent in data["agents"]:
        assert f"row bot as {agent}" in text
    assert "Bradley-Terry ratings" in text


def test_the_same_arguments_play_the_same_games(tmp_path: Path) -> None:
    argv = ["--env", COMPETITIVE, "--bots", *BOTS, "--games", "5", "--resamples", "5"]
    assert run(*argv, "--out", str(tmp_path / "a"))[0] == 0
    assert run(*argv, "--out", str(tmp_path / "b"))[0] == 0
    assert results(tmp_path / "a")["blocks"] == results(tmp_path / "b")["blocks"]


def test_a_killed_tournament_resumes_where_it_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["--env", COMPETITIVE, "--bots", *BOTS, "--games", "6", "--out", str(tmp_path)]
    real = tournament.play_block
    calls = []

    def killed_at_second(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt  # as a kill between blocks
        return real(*args, **kwargs)

    monkeypatch.setattr(tournament, "play_block", killed_at_second)
    with pytest.raises(KeyboardInterrupt):
        run(*argv)
    saved = results(tmp_path)
    assert len(saved["blocks"]) == 1 and not saved["complete"] and "ratings" not in saved
    monkeypatch.setattr(tournament, "play_block", real)
    played = []
    monkeypatch.setattr(tournament, "play_block", lambda *a, **k: played.append(1) or real(*a, **k))
    status, text = run(*argv)
    assert status == 0
    blocks = 2 * len(BOTS) * (len(BOTS) - 1) // 2
    assert f"1 of {blocks} blocks already played, skipped; {blocks - 1} to play" in text
    assert len(played) == blocks - 1
    fresh = tmp_path / "fresh"
    assert run(*argv[:-1], str(fresh))[0] == 0
    assert results(tmp_path)["blocks"] == results(fresh)["blocks"]


def test_other_arguments_into_the_same_folder_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--env", COMPETITIVE, "--bots", *BOTS, "--out", str(tmp_path)]
    assert run(*argv, "--games", "3")[0] == 0
    before = (tmp_path / "results.json").read_bytes()
    capsys.readouterr()
    status, _ = run(*argv, "--games", "4", "--seed", "9")
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and err.startswith("error: ")
    assert "games 3 there, 4 now" in err and "seed 0 there, 9 now" in err
    assert (tmp_path / "results.json").read_bytes() == before


def test_a_damaged_results_file_is_refused_and_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--env", COMPETITIVE, "--bots", *BOTS, "--games", "3", "--out", str(tmp_path)]
    assert run(*argv)[0] == 0
    data = results(tmp_path)
    data["blocks"][0]["outcomes"] = [1, 2]
    (tmp_path / "results.json").write_text(json.dumps(data))
    before = (tmp_path / "results.json").read_bytes()
    capsys.readouterr()
    assert run(*argv)[0] == 2
    assert "block 0 is not one of this tournament's" in capsys.readouterr().err
    assert (tmp_path / "results.json").read_bytes() == before


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--bots", "random", "no_such_bot"], "no_such_bot"),
        (["--bots", "random"], "at least 2 bots"),
        (["--bots", "random", "random"], "named twice"),
        (["--bots", *BOTS, "--games", "0"], "--games must be at least 1"),
        (["--bots", "random", "missing_file.pt"], "missing_file.pt"),
    ],
)
def test_bad_input_is_one_line_and_writes_nothing(
    argv: list[str], says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    status, _ = run("--env", COMPETITIVE, *argv, "--out", str(out))
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and says in err
    assert not out.exists()


def test_an_unknown_env_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _ = run("--env", "no_such_game_v0", "--bots", "random", "--out", str(tmp_path / "o"))
    err = capsys.readouterr().err
    assert status == 2 and "unknown env 'no_such_game_v0'" in err and COMPETITIVE in err
    assert not (tmp_path / "o").exists()


def test_the_tables_count_each_seat_from_its_own_side(tmp_path: Path) -> None:
    arguments = Arguments(COMPETITIVE, ("x", "y"), 3, 0)
    played = tournament.Tournament(
        arguments, False, ["first", "second"],
        [{"bots": ["x", "y"], "outcomes": [1, 1, 0]}, {"bots": ["y", "x"], "outcomes": [-1, 0, 0]}],
    )  # fmt: skip
    first = dict((row[0], row[1:]) for row in tournament.seat_table(played, 0)[1])
    second = dict((row[0], row[1:]) for row in tournament.seat_table(played, 1)[1])
    assert first == {"x": ["-", "2/1/0"], "y": ["0/2/1", "-"]}
    assert second == {"x": ["-", "1/2/0"], "y": ["0/1/2", "-"]}
    assert tournament.bot_record(played, "x").wins == 3
    fig = tournament.plot_heatmap(played, tmp_path / "h.png")
    panels = [ax for ax in fig.axes if ax.get_title().startswith("row bot")]
    assert [len(ax.texts) for ax in panels] == [2, 2]  # the played cells, annotated
    assert (tmp_path / "h.png").is_file()


def test_a_cooperative_game_gets_a_team_leaderboard(tmp_path: Path) -> None:
    teams = ["random", *registry.get(COOPERATIVE).bots]
    status, text = run(
        "--env", COOPERATIVE, "--bots", *teams, "--games", "2", "--out", str(tmp_path)
    )  # fmt: skip
    assert status == 0
    data = results(tmp_path)
    assert data["mode"] == "cooperative"
    assert [b["bots"] for b in data["blocks"]] == [[t] for t in teams]
    board = data["leaderboard"]
    assert sorted(row["team"] for row in board) == sorted(teams)
    rates = [float(row["win rate"].rstrip("%")) for row in board]
    assert rates == sorted(rates, reverse=True)
    assert not (tmp_path / "heatmap.png").exists()
    assert "95% interval" in text


def test_a_single_team_is_enough_for_a_cooperative_game(tmp_path: Path) -> None:
    status, _ = run(
        "--env", COOPERATIVE, "--bots", "random", "--games", "1", "--out", str(tmp_path)
    )
    assert status == 0 and len(results(tmp_path)["blocks"]) == 1


def test_the_leaderboard_names_another_games_policy_apart_from_refusals(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, leaderboard: ModuleType
) -> None:
    """``--bots`` is one list for every game: a policy file written for another game is named
    as such and left out, and only a real refusal is reported as one."""
    other = Path(__file__).resolve().parents[2] / registry.get(COOPERATIVE).policy
    monkeypatch.chdir(tmp_path)
    text = leaderboard.section(COMPETITIVE, 2, 5, False, [str(other), "no_such_bot"])
    assert f"Not played here, policies of another game: `{other}`." in text
    refused = next(line for line in text.splitlines() if line.startswith("Left out"))
    assert "`no_such_bot`" in refused and str(other) not in refused
    assert f"| {other} |" not in text


def test_the_leaderboard_section_lists_a_command_that_plays_its_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, leaderboard: ModuleType
) -> None:
    monkeypatch.chdir(tmp_path)
    board = leaderboard
    text = board.section(COMPETITIVE, 3, 5, False, ["no_such_bot", "random"])
    assert board.shipped_bots(COMPETITIVE) == BOTS
    assert "Left out (refused for this game): `no_such_bot`" in text
    command = next(line for line in text.splitlines() if line.startswith("Command: "))
    argv = (
        command.removeprefix("Command: `python -m training.bench.tournament ").rstrip("`").split()
    )
    status, again = run(*argv)  # into the same folder: every block is already played
    blocks = len(BOTS) * (len(BOTS) - 1)
    assert status == 0 and f"{blocks} of {blocks} blocks already played, skipped; 0 to" in again
    ratings = text.split("| rank | bot |")[1]
    for bot in BOTS:
        assert f"| {bot} |" in ratings


def test_a_search_bot_is_handed_the_public_views(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch that sees the public view (``sees_public_view``) is asked with ``views``, as every
    driver of the game vector asks it (reborn_env.bots.batched.act_batch)."""
    from reborn_env.bots.batched import RandomBatch

    asked = []

    class Searching(RandomBatch):
        sees_public_view = True

        def act(self, slots, obs, mask, views=None):
            asked.append(callable(views))
            return super().act(slots, obs, mask)

    real = tournament.player

    def player(source, *args, **kwargs):
        if source == BOTS[1]:
            return lambda n: Searching(range(n))
        return real(source, *args, **kwargs)

    monkeypatch.setattr(tournament, "player", player)
    argv = ["--env", COMPETITIVE, "--bots", *BOTS[:2], "--games", "2", "--out", str(tmp_path)]
    assert run(*argv)[0] == 0
    assert asked and all(asked)


def test_every_block_meets_the_same_deals(tmp_path: Path) -> None:
    """Slot i plays deals i, i + n, ...: what the first seat sees at the start of each game is the
    same whoever plays and however long the games last."""
    from reborn_env.bots.batched import RandomBatch

    class FirstSight(RandomBatch):
        def __init__(self, seeds) -> None:
            super().__init__(seeds)
            self.fresh, self.seen = set(range(len(self))), {}

        def reset(self, i: int) -> None:
            super().reset(i)
            self.fresh.add(i)

        def act(self, slots, obs, mask):
            for r, i in enumerate(slots.tolist()):
                if i in self.fresh:
                    self.seen.setdefault(i, []).append(obs[r].tobytes())
                    self.fresh.discard(i)
            return super().act(slots, obs, mask)

    arguments = Arguments(COMPETITIVE, tuple(BOTS), 11, 4, num_envs=3)
    sights = []
    for k, opponent in enumerate(BOTS):
        first = FirstSight([100 * k + i for i in range(3)])
        rival = tournament.player(opponent, COMPETITIVE, 7 * k)
        outcomes = tournament.play_block(arguments, [lambda n, f=first: f, rival])
        assert len(outcomes) == 11
        sights.append(first.seen)
    assert [len(v) for v in sights[0].values()] == [4, 4, 3]
    assert all(s == sights[0] for s in sights)


def test_the_leaderboard_refuses_a_folder_of_other_arguments_in_one_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    leaderboard: ModuleType,
) -> None:
    """Before: a traceback ending in TournamentError when runs/leaderboard/<env> held another
    run's results."""
    from reborn_env.core import registry

    board = leaderboard
    monkeypatch.setattr(board, "ROOT", tmp_path)
    monkeypatch.chdir(tmp_path)
    board.section(registry.names()[0], 1, 5, False, [])  # its results, at 1 game
    capsys.readouterr()
    status = board.main(["--games", "2", "--seed", "5", "--out", str(tmp_path / "board.md")])
    err = capsys.readouterr().err
    assert status == 2 and err.startswith("error: ") and err.count("\n") == 1, err
    assert "other arguments" in err and "games 1 there, 2 now" in err
    assert not (tmp_path / "board.md").exists()


def test_the_generalisation_section_shows_the_kept_table_or_nothing(
    leaderboard: ModuleType, tmp_path: Path
) -> None:
    table = tmp_path / "generalisation.md"
    assert leaderboard.generalisation_section(table) == ""
    table.write_text("| policy | trained on |\n|---|---|\n| `a.pt` | x |\n")
    shown = leaderboard.generalisation_section(table)
    assert shown.startswith("## Generalisation: one policy on every map")
    assert shown.endswith("| `a.pt` | x |")
