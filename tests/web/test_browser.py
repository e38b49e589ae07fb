"""End to end: a whole game of each env against the random bot, played by clicking in chromium."""

from __future__ import annotations

import json
import math
import time

import pytest

from reborn_env.core import registry
from reborn_env.web.session import Session, drawable_games

from .browser import (
    browser_page,
    moves_made,
    play_by_clicking,
    served,
    start_game,
    wait_until,
)

GAMES = drawable_games()
# one game's first scenario other than its default, if any game bundles two
OTHER_SCENARIO = next(
    (
        (name, scenario)
        for name in GAMES
        for scenario in registry.get(name).scenario_names()
        if scenario != registry.get(name).default_scenario
    ),
    None,
)


@pytest.fixture(scope="module")
def page():
    with served() as url, browser_page(url) as opened:
        yield opened


@pytest.mark.parametrize("name", GAMES)
def test_a_whole_game_by_clicking_with_a_screenshot(page, name: str, tmp_path) -> None:
    start = time.monotonic()
    start_game(page, name, seed=3)
    assert moves_made(page) >= 0 and page.locator("#legend li").count() > 3
    clicked = play_by_clicking(page)
    assert page.get_attribute("body", "data-over") == "yes"
    assert "game over" in page.text_content("#status")
    assert page.locator("#history li").count() >= len(clicked)
    shot = tmp_path / f"{name}.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    print(f"{name}: {len(clicked)} clicks in {time.monotonic() - start:.1f} s, {shot}")


def test_a_scenario_from_the_menu_is_played_to_the_end_with_its_terrain_in_the_legend(
    page, tmp_path
) -> None:
    """The scenario menu lists the game's bundled scenarios; a non-default one is played by
    clicking to the end, and the legend shows each key of its board view (its terrain too)."""
    assert OTHER_SCENARIO is not None, "no game bundles a second scenario to play here"
    name, scenario = OTHER_SCENARIO
    page.select_option("#env", name)
    menu = page.locator("#scenario option").all_text_contents()
    assert menu == registry.get(name).scenario_names()
    start_game(page, name, seed=3, scenario=scenario)
    wait_until(page, lambda: page.get_attribute("body", "data-scenario") == scenario, scenario)
    assert f"({scenario})" in page.text_content("#status")
    view = Session().handle({"kind": "new", "env": name, "scenario": scenario, "seed": 3})[0]
    shown = page.locator("#legend li").all_text_contents()
    assert shown == [row.get("symbol", "") + row["text"] for row in view["view"]["legend"]]
    clicked = play_by_clicking(page)
    assert page.get_attribute("body", "data-over") == "yes" and clicked
    assert page.get_attribute("body", "data-scenario") == scenario
    page.screenshot(path=str(tmp_path / f"{name}_{scenario}.png"), full_page=True)


def test_watch_pause_step_download_and_replay_the_log(page, tmp_path) -> None:
    """Watch two bots (it runs by itself; pause holds it; step moves one), download the log,
    upload it again and step through the replay."""
    page.select_option("#mode", "watch")
    page.select_option("#env", GAMES[0])
    page.select_option("#bot", "random")
    page.select_option("#bot2", "random")
    page.fill("#seed", "4")
    page.click("#new")
    wait_until(page, lambda: moves_made(page) >= 3, "the watched game to run")
    page.click("#pause")
    page.wait_for_timeout(300)  # a step in flight when paused still lands
    held = moves_made(page)
    page.wait_for_timeout(800)
    assert moves_made(page) == held, "the game moved while paused"
    page.click("#step")
    wait_until(page, lambda: moves_made(page) == held + 1, "one step")
    with page.expect_download() as download:
        page.click("#download")
    path = tmp_path / "game_log.json"
    download.value.save_as(path)
    log = json.loads(path.read_text())
    assert log["env"] == GAMES[0] and len(log["moves"]) == held + 1
    page.set_input_files("#upload", str(path))
    wait_until(page, lambda: "move 0 of" in page.text_content("#position-text"), "the replay")
    assert page.text_content("#position-text") == f"move 0 of {held + 1}"
    page.click("#forward")
    wait_until(page, lambda: moves_made(page) == 1, "a replay step")
    page.click("#back")
    wait_until(page, lambda: moves_made(page) == 0, "a replay step back")
    page.select_option("#mode", "play")


def _hex_scenario_with_edges() -> tuple[str, str] | None:
    """A game and scenario whose board view is a hex grid with edges (walls between hexes)."""
    for name in GAMES:
        for scenario in registry.get(name).scenario_names():
            view = Session().handle({"kind": "new", "env": name, "scenario": scenario, "seed": 3})
            board = view[0]["view"]
            if board["grid"]["shape"] == "hex" and board["edges"]:
                return name, scenario
    return None


def test_edges_of_a_hex_board_are_drawn_along_hex_sides(page) -> None:
    """The board view's edges on a hex grid (haven's thin walls, HV-TW-5) are drawn as one line
    each, as long as a side of the drawn hexagons, on the side the edge names: seen from its
    cell's centre, the line's midpoint lies east (0 degrees), south-east (60), south-west (120),
    west (180), north-west (-120) or north-east (-60), screen y pointing down."""
    found = _hex_scenario_with_edges()
    assert found is not None, "no game bundles a hex map with walls between hexes"
    name, scenario = found
    start_game(page, name, seed=3, scenario=scenario)
    view = Session().handle({"kind": "new", "env": name, "scenario": scenario, "seed": 3})[0]
    edges, width = view["view"]["edges"], view["view"]["grid"]["width"]
    lines = page.locator("#board line").all()
    assert len(lines) == len(edges)
    hexagons = [
        [tuple(float(v) for v in p.split(",")) for p in (h.get_attribute("points") or "").split()]
        for h in page.locator("#board polygon").all()[: len(view["view"]["cells"])]
    ]
    (ax, ay), (bx, by) = hexagons[0][:2]
    side = math.hypot(ax - bx, ay - by)
    bearing = {"E": 0, "SE": 60, "SW": 120, "W": 180, "NW": -120, "NE": -60}
    for edge, line in zip(edges, lines, strict=True):
        x1, y1, x2, y2 = (float(line.get_attribute(k)) for k in ("x1", "y1", "x2", "y2"))
        assert abs(math.hypot(x1 - x2, y1 - y2) - side) < 0.5
        corners = hexagons[edge["y"] * width + edge["x"]]
        cx, cy = sum(x for x, _ in corners) / 6, sum(y for _, y in corners) / 6
        angle = math.degrees(math.atan2((y1 + y2) / 2 - cy, (x1 + x2) / 2 - cx))
        assert abs((angle - bearing[edge["side"]] + 180) % 360 - 180) < 1, (edge, angle)
