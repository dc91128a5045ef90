"""Issue 41, fair play in a real browser against a real ``hukum serve``: three people at a
table, one blocks another, whose phrase then reaches the third but not the blocker; a
moderator suspends a reported player, who sees why and until when.

The players are guests made in the server's database (their session cookies given to the
browsers), and their table is written there with each seat's player (``"player"`` in the
``seat`` event, as the "seats" part stores it), then loaded by the server as any table."""

from __future__ import annotations

import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from sqlalchemy import update

from hukum.mindi import Rules
from hukum.server.db import Store, make_engine
from hukum.server.fairness import commitment, new_seed
from hukum.server.identity.models import Player
from hukum.server.identity.sessions import COOKIE, Identities
from hukum.server.tables import TableConfig, new_code, new_token, token_hash
from tests.server.web import SCREENSHOTS, STARTUP_SECONDS, free_port, keep_token

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Store]]:
    """A real ``hukum serve`` on a fresh database, and that database's store."""
    tmp = tmp_path_factory.mktemp("fairplay")
    url = f"sqlite:///{tmp / 'db.sqlite'}"
    port = free_port()
    log = (tmp / "server.log").open("w")
    command = [sys.executable, "-m", "hukum", "serve", "--port", str(port), "--database-url", url]
    command += ["--bot-delay", "0.05", "--log-level", "warning"]
    proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=tmp)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + STARTUP_SECONDS
    store: Store | None = None
    try:
        while True:
            assert proc.poll() is None, (tmp / "server.log").read_text()
            try:
                with urllib.request.urlopen(base + "/api/rules", timeout=1):
                    break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                assert time.monotonic() < deadline, (tmp / "server.log").read_text()
                time.sleep(0.2)
        store = Store(make_engine(url))
        yield base, store
    finally:
        if store is not None:
            store.close()
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def person(store: Store, name: str, role: str = "player") -> tuple[str, str]:
    """A guest named ``name`` in the server's database: its id and session token."""
    me, token = Identities(store).new_guest()
    with store.session() as s:
        s.execute(update(Player).where(Player.id == me.id).values(name=name, role=role))
        s.commit()
    return me.id, token


def table(
    store: Store, people: list[tuple[str, str]], *, over: bool = False
) -> tuple[str, list[str]]:
    """A four-seat Mindi room whose match has begun: ``people`` (name, player id) at the
    first seats, a bot at the others; its code and the seat tokens."""
    code = new_code()
    assert store.create_room(code, TableConfig(Rules(), "classic", "random", None).to_dict())
    events: list[tuple[str, dict[str, Any]]] = []
    tokens = []
    for i in range(4):
        if i < len(people):
            token = new_token()
            tokens.append(token)
            name, player = people[i]
            seat = {"kind": "human", "name": name, "token": token_hash(token), "player": player}
            events.append(("seat", {"seat": i, **seat}))
        else:
            events.append(("seat", {"seat": i, "kind": "bot", "name": f"Bot {i}"}))
    seed = new_seed()
    events.append(("start", {"match_seed": 7}))
    events.append(("deal", {"seed": seed, "commitment": commitment(seed), "dealer": 3}))
    if over:
        events.append(("match_over", {"scores": [1, 0], "winner": 0}))
    for number, (kind, data) in enumerate(events, 1):
        store.append(code, number, kind, data)
    return code, tokens


def browse(browser: Browser, base: str, session: str, viewport: dict[str, int]) -> Page:
    """A browser of its own, with the player's session cookie."""
    ctx: BrowserContext = browser.new_context(viewport=viewport, locale="en-US")  # type: ignore[arg-type]
    ctx.set_default_timeout(15_000)
    ctx.add_cookies([{"name": COOKIE, "value": session, "url": base}])
    return ctx.new_page()


def at_table(page: Page, base: str, code: str, token: str) -> None:
    keep_token(page, base, code, token)
    page.goto(f"{base}/t/{code}")
    expect(page.locator("#talk")).to_be_visible()


def test_a_blocked_players_phrase_reaches_the_third_but_not_the_blocker(
    browser: Browser, served: tuple[str, Store]
) -> None:
    base, store = served
    asha, asha_s = person(store, "Asha")
    ravi, ravi_s = person(store, "Ravi")
    meena, meena_s = person(store, "Meena")
    code, tokens = table(store, [("Asha", asha), ("Ravi", ravi), ("Meena", meena)])
    pages = []
    try:
        a = browse(browser, base, asha_s, {"width": 1100, "height": 860})
        r = browse(browser, base, ravi_s, PHONE)
        m = browse(browser, base, meena_s, PHONE)
        pages = [a, r, m]
        for page, token in zip(pages, tokens, strict=True):
            at_table(page, base, code, token)
        # Asha blocks Ravi, from the players of the talk panel.
        a.locator("#talk-people summary").click()
        a.locator('#talk-who [data-action="block"][data-seat="1"]').click()
        expect(a.locator('#talk-who [data-action="unblock"][data-seat="1"]')).to_be_visible()
        # Ravi says "Good luck" (on a phone): Meena hears it.
        r.locator('#talk-say [data-phrase="gl"]').click()
        expect(m.locator('#talk-log li[data-seat="1"]')).to_have_text("Ravi Good luck")
        expect(r.locator('#talk-log li[data-seat="1"]')).to_contain_text("Good luck")
        # Meena's "Thanks" reaches Asha, after Ravi's line would have: Ravi's never does.
        m.locator('#talk-say [data-phrase="thanks"]').click()
        expect(a.locator('#talk-log li[data-seat="2"]')).to_have_text("Meena Thanks")
        expect(a.locator('#talk-log li[data-seat="1"]')).to_have_count(0)
        # A reload keeps what was said (the table's log), Ravi's line still left out for Asha.
        a.reload()
        expect(a.locator('#talk-log li[data-seat="2"]')).to_have_text("Meena Thanks")
        expect(a.locator('#talk-log li[data-seat="1"]')).to_have_count(0)
        m.reload()
        expect(m.locator("#talk-log li")).to_have_count(2)
        # The phone's panel fits the screen.
        r.locator("#talk").scroll_into_view_if_needed()
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        r.screenshot(path=str(SCREENSHOTS / "talk-phone.png"))
        box = r.locator("#talk").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    finally:
        for page in pages:
            page.context.close()


def test_a_moderator_suspends_a_reported_player_who_sees_why_and_until_when(
    browser: Browser, served: tuple[str, Store]
) -> None:
    base, store = served
    asha, asha_s = person(store, "Asha")
    ravi, ravi_s = person(store, "Ravi")
    _, mod_s = person(store, "Mod", role="moderator")
    code, _ = table(store, [("Asha", asha), ("Ravi", ravi)], over=True)
    pages = []
    try:
        a = browse(browser, base, asha_s, PHONE)
        mod = browse(browser, base, mod_s, {"width": 1100, "height": 860})
        r = browse(browser, base, ravi_s, PHONE)
        pages = [a, mod, r]
        sent = a.request.post(
            f"{base}/api/reports",
            data={"table": code, "seat": 1, "reason": "abuse", "note": "<b>rude</b>"},
        )
        assert sent.ok, sent.text()
        # A player who is no moderator is told the page is not theirs.
        a.goto(f"{base}/moderation")
        expect(a.locator("#mod-only")).to_be_visible()
        # The moderator sees the report and suspends Ravi for 3 days, saying why.
        mod.goto(f"{base}/")
        expect(mod.locator("#nav-moderation")).to_be_visible()
        mod.locator("#nav-moderation").click()
        report = mod.locator(".mod-report").first
        expect(report).to_contain_text("Ravi")
        expect(report.locator("blockquote")).to_have_text("<b>rude</b>")  # as text
        expect(report.locator(f'a[href="/t/{code}/deals/1"]')).to_be_visible()
        report.locator('input[name="reason"]').fill("Abusive messages at the table")
        report.locator('input[name="days"]').fill("3")
        report.locator('button[value="suspend"]').click()
        expect(report.locator('.mod-sanctions li[data-kind="suspend"]')).to_contain_text(
            "Abusive messages at the table"
        )
        # Ravi opens the page: why, and until when.
        r.goto(f"{base}/")
        banner = r.locator("#sanction .sanction-suspend")
        expect(banner).to_contain_text("Abusive messages at the table")
        until = r.evaluate(
            """async () => {
              const me = (await (await fetch('/api/me')).json()).player;
              return new Date(me.suspension.until).toLocaleString('en',
                {dateStyle: 'medium', timeStyle: 'short'});
            }"""
        )
        expect(banner).to_contain_text(f"You are suspended until {until}")
        r.screenshot(path=str(SCREENSHOTS / "suspended-phone.png"))
        mod.screenshot(path=str(SCREENSHOTS / "moderation.png"), full_page=True)
    finally:
        for page in pages:
            page.context.close()
