"""What the browser tests share: a real `hukum serve` on a fresh database (fixture
``server``), Debian's chromium driven by Playwright (fixtures ``browser`` and ``context``,
registered for every test of this directory by conftest.py), and the steps a person takes
at the table.

With HUKUM_SCREENSHOTS=1 (``make screenshots``) the tests also save the README screenshots
in docs/screenshots; otherwise they go to a temporary directory.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Page,
    WebSocketRoute,
    expect,
    sync_playwright,
)

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = (
    ROOT / "docs" / "screenshots"
    if os.environ.get("HUKUM_SCREENSHOTS") == "1"
    else Path(tempfile.gettempdir()) / "hukum-screenshots"
)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
HAND = "#hand .card"
LEGAL = "#hand .card.legal"


def TABLE_URL(base: str) -> re.Pattern[str]:
    """The address of a table page."""
    return re.compile(re.escape(base) + r"/t/[0-9a-z]+$")


def chromium_path() -> str:
    """Debian's chromium. Without it the browser tests are skipped, with what to install,
    unless ``HUKUM_REQUIRE_BROWSER=1`` (CI sets it): then they fail."""
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        reason = (
            "the browser tests need Debian's chromium: sudo apt-get install -y chromium "
            "(Playwright cannot download a browser here)"
        )
        if os.environ.get("HUKUM_REQUIRE_BROWSER") == "1":
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)
    return path


#: How long the server may take to answer its first request.
STARTUP_SECONDS = 120


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def serving(tmp: Path, *options: str) -> Iterator[str]:
    """A real `hukum serve` on a fresh database in ``tmp``, bots playing at once, with
    ``options`` added to its command line; its base URL while it runs."""
    port = free_port()
    log = (tmp / "server.log").open("w")
    command = [sys.executable, "-m", "hukum", "serve", "--port", str(port)]
    command += ["--database-url", f"sqlite:///{tmp / 'db.sqlite'}", "--bot-delay", "0.05"]
    command += ["--log-level", "warning", *options]
    # A small analysis budget: deals whose first tricks stay beyond it (the board says so).
    env = {**os.environ, "HUKUM_ANALYSIS_NODES": "2000000"}
    proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=tmp, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        # Time, not tries: on a loaded machine the server takes longer to start.
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            if proc.poll() is not None:
                pytest.fail(
                    "hukum serve exited: " + (tmp / "server.log").read_text(), pytrace=False
                )
            try:
                with urllib.request.urlopen(base + "/api/rules", timeout=1):
                    break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                if time.monotonic() > deadline:
                    pytest.fail(
                        f"hukum serve did not answer within {STARTUP_SECONDS} s; its log: "
                        + (tmp / "server.log").read_text(),
                        pytrace=False,
                    )
                _pause(proc)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a real `hukum serve` on a fresh database, bots playing at once."""
    with serving(tmp_path_factory.mktemp("server")) as base:
        yield base


def _pause(proc: subprocess.Popen[bytes]) -> None:
    """Wait a moment for the server to come up (returns early if it exits)."""
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=0.1)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    executable = chromium_path()
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    ctx = browser.new_context(viewport={"width": 1100, "height": 860}, locale="en-US")
    ctx.set_default_timeout(15_000)
    yield ctx
    ctx.close()


def api(base: str, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("content-type", "application/json")
    with urllib.request.urlopen(request, timeout=10) as r:
        return json.loads(r.read())


def keep_token(page: Page, base: str, code: str, token: str) -> None:
    """Keep a seat's token in the page's storage, as the lobby keeps it after a room is made
    or a seat taken, so that the table's page opens as that seat."""
    page.goto(base + "/")
    page.evaluate(
        "([code, token]) => localStorage.setItem('hukum.token.' + code, token)", [code, token]
    )


def play_now(page: Page, base: str, name: str) -> None:
    """From the lobby: *Play now* against beginner bots, until the hand is shown."""
    page.goto(base + "/")
    page.fill("#name", name)
    page.select_option("#level", "random")
    page.click("#play-now")
    expect(page).to_have_url(TABLE_URL(base))
    expect(page.locator(HAND).first).to_be_visible()


def play_ganjifa_now(page: Page, base: str, name: str) -> None:
    """From the lobby: Ganjifa at once against beginner bots, until the 40 cards are shown."""
    page.goto(base + "/")
    page.fill("#name", name)
    page.select_option("#g-level", "random")
    page.click("#play-ganjifa")
    expect(page.locator(HAND)).to_have_count(40)


def play_needed(page: Page) -> None:
    """Ganjifa: choose as many legal cards as the move needs (a card, or an answer's k)
    and play them, until the hand has that many fewer."""
    k = int(page.locator("#game").get_attribute("data-need") or "1")
    n = page.locator(HAND).count()
    legal = page.locator(LEGAL)
    for i in range(k):
        legal.nth(i).click()
    page.click("#play-card")
    expect_hand(page, n - k)


def play_now_table(base: str, **body: Any) -> dict[str, Any]:
    """A table made by the API as *Play now* makes it: Asha against beginner bots, started
    at once (``body`` adds to or changes the request); the answer."""
    made: dict[str, Any] = api(
        base, "POST", "/api/tables", {"name": "Asha", "bots": "random", "start_now": True, **body}
    )
    return made


def my_turn_or_over(page: Page) -> bool:
    """Wait until this seat must play (True) or the deal is over (False)."""
    page.locator(f"{LEGAL}, #result").first.wait_for()
    return page.locator("#result").count() == 0


def expect_hand(page: Page, count: int) -> None:
    """The hand reaches ``count`` cards; if not, fail with what the page shows (its message,
    phase and chosen cards), so that a refused or lost move says why."""
    try:
        expect(page.locator(HAND)).to_have_count(count)
    except AssertionError as error:
        message = page.locator("#message")
        game = page.locator(".game")
        shown = {
            "hand": page.locator(HAND).count(),
            "message": message.inner_text() if message.count() else None,
            "phase": game.get_attribute("data-phase") if game.count() else None,
            "selected": page.locator("#hand .card.selected").count(),
        }
        raise AssertionError(f"the hand should have {count} cards; the page: {shown}") from error


def play_card(page: Page) -> None:
    """Click the first legal card, then *Play card*; the hand loses it."""
    hand = page.locator(HAND)
    n = hand.count()
    page.locator(LEGAL).first.click()
    expect(page.locator("#hand .card.selected")).to_have_count(1)
    page.click("#play-card")
    expect_hand(page, n - 1)


def play_to_the_end(page: Page) -> None:
    """Play the first legal card each turn until the deal is over."""
    while my_turn_or_over(page):
        play_card(page)
    expect(page.locator("#result")).to_be_visible()


def fonts_drawing(page: Page, selector: str) -> list[dict[str, Any]]:
    """The fonts the browser drew the text of ``selector`` with (as its developer tools
    show them): family, whether a web font, and how many glyphs each drew."""
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("DOM.enable")
        cdp.send("CSS.enable")
        root = cdp.send("DOM.getDocument")["root"]["nodeId"]
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        fonts: list[dict[str, Any]] = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})[
            "fonts"
        ]
        return fonts
    finally:
        cdp.detach()


def route_views(page: Page) -> list[dict[str, Any]]:
    """Route the page's WebSocket through the test; the list fills with every ``state``
    message and every event with a view the server sends (the test may send the page its
    own, as if from the server, with test_browser's ``_tell_over``)."""
    seen: list[dict[str, Any]] = []
    routes: list[WebSocketRoute] = []

    def route(ws: WebSocketRoute) -> None:
        upstream = ws.connect_to_server()
        ws.on_message(upstream.send)

        def from_server(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("view") and data.get("table", True):
                seen.append(data)
            ws.send(message)

        upstream.on_message(from_server)
        routes.append(ws)

    page.route_web_socket(re.compile(r"/ws/"), route)
    page.on("close", lambda _: routes.clear())
    seen.append({"routes": routes})
    return seen
