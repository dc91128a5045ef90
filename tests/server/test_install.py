"""Installable (issue 40 item 14): the web app manifest and its icons; the service worker
at the root scope (/sw.js), versioned by a hash of the static files and keeping them, never
the API; in real chromium the page registers it, opens from it offline with a banner saying
the connection is gone, and the table reconnects by itself once the network is back.
"""

from __future__ import annotations

import json
import re
import shutil
import struct
from pathlib import Path

from fastapi.testclient import TestClient
from playwright.sync_api import Browser, BrowserContext, Page, expect

from hukum.server.app import STATIC, create_app
from tests.server.web import HAND, LEGAL, play_card, play_now

OFFLINE_EN = "You are offline. The game will reconnect by itself when the connection is back."
OFFLINE_HI = "आप ऑफ़लाइन हैं। कनेक्शन लौटते ही खेल अपने-आप फिर से जुड़ जाएगा।"


def colour(name: str) -> str:
    """A colour of style.css's :root."""
    found = re.search(rf"--{name}:\s*(#[0-9a-f]{{6}});", (STATIC / "style.css").read_text())
    assert found, name
    return found[1]


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height, from its header."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def worker(client: TestClient) -> tuple[str, list[str], str]:
    """/sw.js: its version, the files it keeps and its source."""
    r = client.get("/sw.js")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/javascript")
    assert r.headers["cache-control"] == "no-cache"
    version = re.search(r'const VERSION = "([0-9a-f]{16})";', r.text)
    files = re.search(r"const FILES = (\[.*\]);", r.text)
    assert version and files, r.text[:800]
    assert "__HUKUM" not in r.text
    kept: list[str] = json.loads(files[1])
    return version[1], kept, r.text


def test_the_manifest_is_valid_and_its_icons_are_served(client: TestClient) -> None:
    r = client.get("/manifest.webmanifest")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/manifest+json")
    manifest = json.loads(r.text)
    assert manifest["name"].startswith("Hukum") and manifest["short_name"] == "Hukum"
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert manifest["theme_color"] == colour("accent")  # the header's colour
    assert manifest["background_color"] == colour("paper")
    sizes = set()
    for icon in manifest["icons"]:
        got = client.get(icon["src"])
        assert got.status_code == 200, icon["src"]
        assert got.headers["content-type"] == icon["type"], icon["src"]
        if icon["type"] == "image/png":
            width, height = png_size(got.content)
            assert icon["sizes"] == f"{width}x{height}", icon["src"]
            sizes.add((icon["sizes"], icon["purpose"]))
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    page = client.get("/").text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert f'<meta name="theme-color" content="{colour("accent")}">' in page
    touch = re.search(r'<link rel="apple-touch-icon" href="([^"]+)">', page)
    assert touch and png_size(client.get(touch[1]).content) == (180, 180)


def test_the_service_worker_keeps_the_static_files_and_never_the_api(
    client: TestClient,
) -> None:
    _, kept, source = worker(client)
    assert kept[0] == "/"
    for path in kept:
        assert client.get(path).status_code == 200, path
    on_disk = {
        "/static/" + p.relative_to(STATIC).as_posix()
        for p in STATIC.rglob("*")
        if p.suffix in (".js", ".css", ".svg", ".png", ".woff2") and p.name != "sw.js"
    }
    assert set(kept[1:]) == on_disk
    assert not any(p.startswith(("/api", "/ws")) for p in kept)
    assert "NETWORK_ONLY = /^\\/(api|ws|" in source


def test_a_change_to_a_static_file_is_a_new_version(tmp_path: Path) -> None:
    static = tmp_path / "static"
    shutil.copytree(STATIC, static)
    app = create_app(f"sqlite:///{tmp_path / 'test.db'}", bot_delay=0, static_dir=static)
    with TestClient(app) as c:
        before, kept, _ = worker(c)
        assert worker(c)[0] == before  # the same files, the same version
        with (static / "style.css").open("a") as css:
            css.write("/* a release */\n")
        after, kept_after, _ = worker(c)
        assert after != before and kept_after == kept


def controlled(page: Page) -> None:
    """Wait until the service worker has kept the files and controls the page."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=20_000)


def test_the_page_opens_offline_and_says_so(browser: Browser, server: str) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
    ctx.set_default_timeout(15_000)
    try:
        page = ctx.new_page()
        page.goto(server + "/")
        expect(page.locator("#play-now")).to_be_visible()
        controlled(page)
        expect(page.locator("#offline")).to_be_hidden()
        ctx.set_offline(True)
        expect(page.locator("#offline")).to_have_text(OFFLINE_EN)
        page.reload()  # from the service worker: the page, its modules, its font
        expect(page.locator("#play-now")).to_be_visible()
        expect(page.locator("#offline")).to_have_text(OFFLINE_EN)
        page.select_option("#lang", "hi")
        expect(page.locator("#offline")).to_have_text(OFFLINE_HI)
        # The API is never answered from the cache.
        failed = page.evaluate("fetch('/api/rules').then(() => false, () => true)")
        assert failed
        ctx.set_offline(False)
        expect(page.locator("#offline")).to_be_hidden()
    finally:
        ctx.close()


def test_the_table_reconnects_by_itself_when_the_network_is_back(
    context: BrowserContext, server: str
) -> None:
    page = context.new_page()
    play_now(page, server, "Asha")
    controlled(page)
    page.locator(LEGAL).first.wait_for()
    cards = page.locator(HAND).count()
    context.set_offline(True)
    expect(page.locator("#offline")).to_be_visible()
    page.reload()  # offline: the page from the service worker, the table unreachable
    expect(page.locator("#offline")).to_have_text(OFFLINE_EN)
    expect(page.locator("header .brand")).to_be_visible()
    expect(page.locator(HAND)).to_have_count(0)
    context.set_offline(False)
    # Back: the banner goes, the socket is open again, the hand is back, and play goes on.
    expect(page.locator("#offline")).to_be_hidden()
    expect(page.locator(HAND)).to_have_count(cards)
    expect(page.locator("#message")).to_have_count(0)  # no "network" error left behind
    page.locator(LEGAL).first.wait_for()
    play_card(page)
