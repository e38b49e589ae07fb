"""Animations of saved game logs (reborn_env.frontends.animate): GIF and PNG-folder output.

A short logged game (30 random moves) must give one frame per position (or per K moves, plus the
last), of the render's size plus the caption strip, and the PNG frames must be exactly the
replayed positions' renders. Pillow is optional (the ``viz`` extra), so these skip without it.
"""

from __future__ import annotations

import numpy as np
import pytest

from reborn_env import earth_reborn_v0
from reborn_env.bots import RandomBot
from reborn_env.frontends.animate import CAPTION_H, HOLD_LAST_MS, frame_count, log_frames, main
from reborn_env.frontends.game_log import (
    GameLogError,
    load_log,
    new_log,
    record_move,
    replay,
    save_log,
)
from reborn_env.games.earth_reborn.render import render_rgb

Image = pytest.importorskip("PIL.Image")

MOVES = 30


@pytest.fixture(scope="module")
def log_path(tmp_path_factory):
    """A log of the first 30 moves of a random game (seed 7)."""
    env = earth_reborn_v0.env()
    env.reset(seed=7)
    bot = RandomBot(seed=7)
    log = new_log(env, "earth_reborn_v0")
    for _ in range(MOVES):
        agent = env.agent_selection
        obs = env.observe(agent)
        action = bot.act(obs["observation"], obs["action_mask"])
        record_move(log, env, agent, action)
        env.step(action)
    path = tmp_path_factory.mktemp("logs") / "game.json"
    save_log(log, path)
    return path


def _render_size() -> tuple[int, int]:
    env = earth_reborn_v0.env()
    env.reset(seed=0)
    height, width, _ = render_rgb(env.unwrapped.game).shape
    return width, height


def _gif_frames(path):
    with Image.open(path) as gif:
        frames = []
        for k in range(gif.n_frames):
            gif.seek(k)
            frames.append((np.asarray(gif.convert("RGB")), gif.info["duration"]))
        return gif.size, frames


def test_frame_count():
    assert frame_count(30) == 31
    assert frame_count(30, 4) == 9  # 0, 4, ..., 28, and 30
    assert frame_count(28, 4) == 8
    assert frame_count(0, 5) == 1


@pytest.mark.parametrize("every", [1, 4])
def test_gif_has_a_frame_per_position_of_the_right_size(log_path, tmp_path, every):
    out = tmp_path / "game.gif"
    assert main([str(log_path), "--out", str(out), "--every", str(every), "--fps", "5"]) == 0
    size, frames = _gif_frames(out)
    width, height = _render_size()
    assert size == (width, height + CAPTION_H)
    assert len(frames) == frame_count(MOVES, every)
    assert [ms for _, ms in frames] == [200] * (len(frames) - 1) + [HOLD_LAST_MS]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.gif"]  # no temp file left
    first = dict(log_frames(load_log(log_path), every=every))[0]
    assert np.abs(frames[0][0].astype(int) - first).mean() < 2  # palette quantisation only


def test_png_frames_are_the_replayed_renders(log_path, tmp_path):
    out = tmp_path / "frames"
    assert main([str(log_path), "--out", str(out), "--every", "7", "--no-caption"]) == 0
    names = sorted(p.name for p in out.iterdir())
    assert names == [f"frame_{i:05d}.png" for i in (0, 7, 14, 21, 28, 30)]
    env = earth_reborn_v0.env()
    for i, _ in replay(load_log(log_path), env):
        if f"frame_{i:05d}.png" in names:
            with Image.open(out / f"frame_{i:05d}.png") as png:
                assert np.array_equal(
                    np.asarray(png.convert("RGB")), render_rgb(env.unwrapped.game)
                )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["frames"]


def test_png_folder_is_replaced_whole_but_a_foreign_folder_is_refused(log_path, tmp_path, capsys):
    out = tmp_path / "frames"
    assert main([str(log_path), "--out", str(out)]) == 0
    assert len(list(out.iterdir())) == MOVES + 1
    assert main([str(log_path), "--out", str(out), "--every", "10"]) == 0
    assert sorted(p.name for p in out.iterdir()) == [f"frame_{i:05d}.png" for i in (0, 10, 20, 30)]
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("keep me")
    assert main([str(log_path), "--out", str(foreign)]) == 2
    assert "not replacing" in capsys.readouterr().err
    assert [p.name for p in foreign.iterdir()] == ["notes.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["frames", "mine"]


def test_captions_differ_per_frame_and_name_the_move(log_path):
    images = [image for _, image in log_frames(load_log(log_path))]
    captions = [image[-CAPTION_H:] for image in images]
    assert all(not np.array_equal(a, b) for a, b in zip(captions, captions[1:], strict=False))


def test_bad_log_is_reported(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    assert main([str(bad), "--out", str(tmp_path / "x.gif")]) == 2
    assert "cannot animate" in capsys.readouterr().err
    with pytest.raises(GameLogError):
        next(log_frames({"env": "connect_four_v3", "start": {}, "moves": []}))


def test_outcome_words():
    """The caption's result is the game's registration's (GameSpec.result_caption)."""
    from reborn_env.core import registry

    versus, team = registry.get("earth_reborn_v0"), registry.get("haven_v0")
    assert versus.result_caption({"norad": -1.0, "salemite": 1.0}) == "salemite WINS"
    assert versus.result_caption({"norad": 0.0, "salemite": 0.0}) == "DRAW"
    assert team.result_caption({"bulwark": 1.0, "conjurer": 1.0}) == "TEAM WINS"
    assert team.result_caption({"bulwark": -1.0, "conjurer": -1.0}) == "TEAM LOSES"
    assert team.result_caption({"bulwark": 0.0, "conjurer": 0.0}) == "OUT OF ROUNDS"


def test_a_haven_game_animates_to_its_positions(tmp_path):
    """haven logs animate too: one frame per position, each the env's public rgb render above
    the caption, the last one captioned with the team's result."""
    from reborn_env import haven_v0
    from reborn_env.games.haven.bots import HavenScriptedBot

    env = haven_v0.env(render_mode="rgb_array")
    env.reset(seed=0)
    bot = HavenScriptedBot(seed=0)
    log = new_log(env, "haven_v0")
    while not (all(env.terminations.values()) or all(env.truncations.values())):
        obs = env.observe(env.agent_selection)
        action = bot.act(obs["observation"], obs["action_mask"])
        record_move(log, env, env.agent_selection, action)
        env.step(action)
    log["result"] = {a: env.rewards[a] for a in env.possible_agents}
    path = tmp_path / "haven.json"
    save_log(log, path)
    frames = list(log_frames(load_log(path), every=25))
    moves = len(log["moves"])
    assert [i for i, _ in frames] == sorted({*range(0, moves, 25), moves})
    assert len(frames) == frame_count(moves, 25)
    last = frames[-1][1]
    assert np.array_equal(last[:-CAPTION_H], env.render())
    assert main([str(path), "--out", str(tmp_path / "haven.gif"), "--every", "25"]) == 0
    with Image.open(tmp_path / "haven.gif") as gif:
        assert gif.n_frames == len(frames)
