"""The page's rematch and watchers, through the real server and a real browser: a match
played to its end alone with computer players, *Rematch* clicked, the page lands on the new
table (the same token holds the same seat there) and a card is played there; a room that
allows watchers is watched read-only from its invite, with no card of any hand shown.

The server, the browser and a person's steps are in tests/server/web.py.
"""

from __future__ import annotations

import re

from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.server.web import (
    HAND,
    TABLE_URL,
    api,
    my_turn_or_over,
    play_card,
    play_now_table,
    play_to_the_end,
)


def open_seat(page: Page, base: str, code: str, token: str) -> None:
    """The table's page as the seat ``token`` holds (the token kept as the lobby keeps it)."""
    page.goto(base + "/")
    page.evaluate(
        "([code, token]) => { localStorage.setItem('hukum.token.' + code, token);"
        " localStorage.setItem('hukum.seat.' + code, '0'); }",
        [code, token],
    )
    page.goto(f"{base}/t/{code}")


def test_rematch_leads_to_the_new_table_and_play_goes_on(
    context: BrowserContext, server: str
) -> None:
    made = play_now_table(server, options={"deals": 1, "target": None})
    code = made["code"]
    page = context.new_page()
    open_seat(page, server, code, made["token"])
    expect(page.locator(HAND)).to_have_count(13)
    play_to_the_end(page)
    expect(page.locator("#match-over")).to_be_visible()
    page.click("#rematch")
    # Alone with bots, one click is everybody's: the page goes to the new table at once.
    expect(page).to_have_url(TABLE_URL(server))
    expect(page).not_to_have_url(re.compile(rf"/t/{code}$"))
    new = page.url.rsplit("/", 1)[-1]
    expect(page.locator(HAND)).to_have_count(13)
    assert page.evaluate(f"localStorage.getItem('hukum.token.{new}')") == made["token"]
    table = api(server, "GET", f"/api/tables/{new}")
    assert table["status"] == "playing" and [s["kind"] for s in table["seats"]] == [
        "human",
        "bot",
        "bot",
        "bot",
    ]
    assert table["seats"][0]["name"] == "Asha"
    assert my_turn_or_over(page)
    play_card(page)
    expect(page.locator(HAND)).to_have_count(12)
    # The old table shows where its players went.
    assert api(server, "GET", f"/api/tables/{code}")["rematch"] == new
    page.goto(f"{server}/t/{code}")
    expect(page.locator("#rematch-link")).to_have_text("Go to the rematch")
    page.click("#rematch-link")
    expect(page).to_have_url(re.compile(rf"/t/{new}$"))
    expect(page.locator(HAND)).to_have_count(12)


def test_a_room_that_allows_it_is_watched_read_only(
    browser: Browser, context: BrowserContext, server: str
) -> None:
    made = play_now_table(server, spectators=True, options={"deals": 1, "target": None})
    code = made["code"]
    player = context.new_page()
    open_seat(player, server, code, made["token"])  # someone plays: the table goes on
    expect(player.locator(HAND)).to_have_count(13)
    watcher = browser.new_context(viewport={"width": 1100, "height": 860}, locale="en-US")
    watcher.set_default_timeout(15_000)  # another browser: no token of the player's
    page = watcher.new_page()
    page.goto(f"{server}/t/{code}")  # the invite, without a seat
    page.click("#watch")
    expect(page).to_have_url(re.compile(rf"/t/{code}\?watch=1$"))
    expect(page.locator("#board .seat")).to_have_count(4)
    expect(page.locator("#g-status")).to_contain_text("You are watching")
    expect(page.locator(HAND)).to_have_count(0)  # no hand: nobody's cards
    expect(page.locator("#play-card")).to_have_count(0)
    # Each seat shows its cards face down, and the play goes on as the player plays.
    assert my_turn_or_over(player)
    play_card(player)
    expect(page.locator("#trick .played").first).to_be_visible()
    # A room that does not allow watchers offers no way to watch, and refuses the address.
    closed = play_now_table(server, options={"deals": 1, "target": None})
    page.goto(f"{server}/t/{closed['code']}")
    expect(page.locator("#room-code")).to_have_text(closed["code"])
    expect(page.locator("#watch")).to_have_count(0)
    page.goto(f"{server}/t/{closed['code']}?watch=1")
    expect(page.locator("#message")).to_have_text("This room does not allow watchers")
    watcher.close()
