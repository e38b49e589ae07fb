"""A real headless browser on the served page (Playwright driving Debian's chromium).

Why a module: the end-to-end test and the README's screenshot drive the page the same way.
``python -m tests.web.browser docs/web_screenshot.png`` remakes the README's picture: a game of
the default env in progress against the random bot; ``--scenario NAME`` plays that scenario of
it (``python -m tests.web.browser docs/web_compound.png --scenario compound``, the docs' picture
of the largest map).
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"  # apt-get install chromium (Playwright cannot fetch its own here)
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
CLICK_TIMEOUT_S = 10  # a click must change the page within this


@contextmanager
def served() -> Iterator[str]:
    """``python -m reborn_env.web`` on a free loopback port; yields the page's address."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "reborn_env.web", "--port", str(port)], stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    message = f"the server did not start: {server.stderr.read()!r}"
                    raise RuntimeError(message) from None
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.terminate()
        server.wait(timeout=10)


@contextmanager
def browser_page(url: str) -> Iterator[Any]:
    """A headless chromium page open at ``url``, 1400x1000."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"no {CHROMIUM}: install it with apt-get install -y chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(url)
            page.wait_for_selector("body[data-moves]")
            yield page
        finally:
            browser.close()


def start_game(page: Any, env: str, seed: int, scenario: str | None = None) -> None:
    """Start a game of ``env`` (its ``scenario``; None: the menu's default) against the random
    bot from the page's own controls."""
    page.select_option("#mode", "play")
    page.select_option("#env", env)
    if scenario is not None:
        page.select_option("#scenario", scenario)
    page.select_option("#bot", "random")
    page.fill("#seed", str(seed))
    chosen = page.input_value("#scenario")
    page.click("#new")
    # the page may still show the last test's game (a module's tests share one page): wait for
    # this one, a game in play on the chosen scenario, not yet over
    wait_until(
        page,
        lambda: (
            "play:" in page.text_content("#status")
            and page.get_attribute("body", "data-scenario") == chosen
            and page.get_attribute("body", "data-over") == "no"
        ),
        "the game to start",
    )


def wait_until(page: Any, done: Callable[[], bool], what: str) -> None:
    """Poll ``done`` from Python (the page's CSP forbids Playwright's string evaluation) until
    it holds; AssertionError naming ``what`` after CLICK_TIMEOUT_S."""
    deadline = time.monotonic() + CLICK_TIMEOUT_S
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {CLICK_TIMEOUT_S} s for {what}")
        page.wait_for_timeout(5)


def moves_made(page: Any) -> int:
    return int(page.get_attribute("body", "data-moves"))


def click_once(page: Any, on_board: bool) -> str:
    """Click a legal move (a square on the board when ``on_board`` and one is offered, else the
    first move button) and wait until the page shows more moves made; returns what it clicked.
    A click that changes nothing raises AssertionError."""
    before = moves_made(page)
    targets = page.locator("#board .target")
    if on_board and targets.count():
        name = targets.first.locator("title").text_content()
        targets.first.dispatch_event("click")
    else:
        button = page.locator("#moves button.move").first
        name = button.text_content()
        button.click()
    wait_until(
        page,
        lambda: moves_made(page) > before or page.get_attribute("body", "data-over") == "yes",
        f"the click on {name} to make a move",
    )
    return name


def play_by_clicking(page: Any, limit: int = 5000, on_board_every: int = 2) -> list[str]:
    """Click legal moves until the game is over; the names clicked."""
    clicked = []
    while page.get_attribute("body", "data-over") != "yes":
        if len(clicked) >= limit:
            raise AssertionError(f"the game did not end in {limit} clicks")
        clicked.append(click_once(page, len(clicked) % on_board_every == 0))
    return clicked


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.web.browser")
    parser.add_argument("target", nargs="?", default="docs/web_screenshot.png")
    parser.add_argument("--scenario", help="a scenario of the default env (default: its own)")
    args = parser.parse_args(argv)
    target = Path(args.target)
    with served() as url, browser_page(url) as page:
        start_game(page, page.input_value("#env"), seed=11, scenario=args.scenario)
        for i in range(30):
            click_once(page, on_board=i % 2 == 0)
        page.screenshot(path=str(target), full_page=True)
    print(f"saved {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
