"""Issue 41, seats that follow the player, in real browsers: a guest makes a room against
computer players on one device; a second device of the same player (another browser
context given the same session cookie, a phone) opens the table's address, holds no token,
and is in the same seat: it sees the same hand and plays the card the first would. A
suspended player's page says why and until when, in the page's language."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Page, expect

from hukum.server.identity.sessions import COOKIE
from tests.server.test_restart import free_port, start_server
from tests.server.test_seat_identity import player_id, sanction
from tests.server.web import HAND, LEGAL, TABLE_URL, api, my_turn_or_over, play_now


def cards(page: Page, selector: str) -> list[str]:
    """The codes of the cards ``selector`` finds, in order."""
    found: list[str] = page.locator(selector).evaluate_all("els => els.map(e => e.dataset.card)")
    return found


def test_a_second_device_of_the_player_is_in_the_same_seat(
    server: str, browser: Browser, context: BrowserContext
) -> None:
    assert context.request.post(server + "/api/me/guest").ok  # a first visit: a guest
    first = context.new_page()
    play_now(first, server, "Asha")
    expect(first).to_have_url(TABLE_URL(server))
    code = first.url.rsplit("/", 1)[1]
    assert my_turn_or_over(first)  # the first deal has just begun: Asha's turn comes
    hand, legal = cards(first, HAND), cards(first, LEGAL)
    [session] = [c for c in context.cookies() if c["name"] == COOKIE]
    assert session["httpOnly"]

    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
    phone.set_default_timeout(15_000)
    try:
        phone.add_cookies(
            [{"name": COOKIE, "value": session["value"], "url": server, "httpOnly": True}]
        )
        second = phone.new_page()
        second.goto(f"{server}/t/{code}")
        expect(second.locator(HAND)).to_have_count(len(hand))
        assert second.evaluate(f"localStorage.getItem('hukum.token.{code}')") is None
        expect(second.locator(LEGAL)).to_have_count(len(legal))
        assert cards(second, HAND) == hand and cards(second, LEGAL) == legal
        # The phone plays the card the first device would, for the same seat.
        second.locator(LEGAL).first.click()
        expect(second.locator("#hand .card.selected")).to_have_count(1)
        second.click("#play-card")
        expect(second.locator(HAND)).to_have_count(len(hand) - 1)
        expect(first.locator(HAND)).to_have_count(len(hand) - 1)
        assert legal[0] not in cards(first, HAND)
        expect(second.locator("#message.error")).to_have_count(0)
    finally:
        phone.close()


def test_a_suspended_player_is_told_why_and_until_when(tmp_path: Path, browser: Browser) -> None:
    db = f"sqlite:///{tmp_path / 'h.db'}"
    port = free_port()
    server = start_server(db, port, log=tmp_path / "server.log")
    base = f"http://127.0.0.1:{port}"
    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="hi-IN")
    phone.set_default_timeout(15_000)
    try:
        made = phone.request.post(base + "/api/me/guest")
        assert made.ok
        mine = phone.request.post(base + "/api/tables", data={"name": "Asha"}).json()["code"]
        other = api(base, "POST", "/api/tables", {"name": "Ravi"})["code"]
        [session] = [c["value"] for c in phone.cookies() if c["name"] == COOKIE]
        until = dt.datetime.now(dt.UTC) + dt.timedelta(days=2)
        sanction(db, player_id(db, session), "suspend", until)
        page = phone.new_page()
        page.goto(base + "/")
        page.evaluate("localStorage.setItem('hukum.lang', 'hi')")
        # The room they made: their seat (the session's) is refused, and the page says why.
        page.goto(f"{base}/t/{mine}")
        shown = page.locator("#message")
        expect(shown).to_have_attribute("data-code", "suspended")
        expect(shown).to_contain_text("निलंबित")
        expect(shown).to_contain_text("rude to the table")
        # Another room: taking a seat is refused the same way, and the seat stays empty.
        page.goto(f"{base}/t/{other}")
        page.click("#sit-1")
        expect(page.locator("#message")).to_contain_text("rude to the table")
        expect(page.locator("#message")).to_contain_text("निलंबित")
        expect(page.locator("#sit-1")).to_be_visible()
        # Play now in the lobby: refused with the same words, not the code's alone.
        page.goto(base + "/")
        page.click("#play-now")
        refused = page.locator("#app .message.error")
        expect(refused).to_contain_text("rude to the table")
        expect(refused).to_contain_text("निलंबित")
    finally:
        phone.close()
        server.terminate()
        server.wait(timeout=30)
