"""End to end: a whole game of each env against the random bot, played by clicking in chromium."""

from __future__ import annotations

import time

import pytest

from reborn_env.web.session import drawable_games

from .browser import browser_page, moves_made, play_by_clicking, served, start_game

GAMES = drawable_games()


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
