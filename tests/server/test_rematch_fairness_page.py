"""A rematch between two people, in two real browsers, keeps nothing of the old table: a
private room of one deal, two seated, bots fill the rest; the deal is played out, each
page checks its seed, both press *Rematch*; during the new table's first deal no seed and
no *Verify* is shown (a seed is shown only once its deal is over), and once it is over
every finished deal of both tables checks out in both pages.

Before the fix, the new table's deal 1 showed the old table's deal-1 seed at once, and its
*Verify* said the seed did not match.

The server, the browser and a person's steps are in tests/server/web.py.
"""

from __future__ import annotations

import re
import time

from playwright.sync_api import Browser, Page, expect

from tests.server.web import HAND, LEGAL, TABLE_URL, api, play_card

#: How long two people take to play a deal out, at most.
DEAL_SECONDS = 120


def open_seat(page: Page, base: str, code: str, token: str, seat: int) -> None:
    """The table's page as seat ``seat`` (its token kept as the lobby keeps it)."""
    page.goto(base + "/")
    page.evaluate(
        "([code, token, seat]) => { localStorage.setItem('hukum.token.' + code, token);"
        " localStorage.setItem('hukum.seat.' + code, String(seat)); }",
        [code, token, seat],
    )
    page.goto(f"{base}/t/{code}")


def play_out(pages: list[Page]) -> None:
    """Each page plays its first legal card whenever it is its turn, until every page shows
    the deal's result."""
    deadline = time.monotonic() + DEAL_SECONDS
    while not all(p.locator("#result").count() for p in pages):
        assert time.monotonic() < deadline, "the deal was not played out in time"
        played = False
        for p in pages:
            if p.locator(LEGAL).count() and not p.locator("#result").count():
                play_card(p)
                played = True
        if not played:
            pages[0].wait_for_timeout(50)


def expect_verified(page: Page) -> str:
    """The finished deal on show has its seed; *Verify* says it matches, and the server
    agrees. Its seed."""
    seed = page.locator("#seed")
    expect(seed).to_have_text(re.compile(r"^\d+$"))
    page.click("#verify")
    expect(page.locator("#verify-hash")).to_contain_text("matches")
    expect(page.locator("#fair")).to_contain_text("The server confirms it")
    expect(page.locator("#fair")).not_to_contain_text("NOT")
    expect(page.locator("#fair")).not_to_contain_text("does not match")
    return seed.inner_text()


def test_a_rematch_shows_no_seed_of_the_old_table(browser: Browser, server: str) -> None:
    made = api(
        server,
        "POST",
        "/api/tables",
        {"name": "Asha", "bots": "random", "options": {"deals": 1, "target": None}},
    )
    code = made["code"]
    ravi = api(server, "POST", f"/api/tables/{code}/seats/1", {"name": "Ravi"})
    api(server, "POST", f"/api/tables/{code}/bots", {"token": made["token"]})
    api(server, "POST", f"/api/tables/{code}/start", {"token": made["token"]})

    contexts = [
        browser.new_context(viewport={"width": 1100, "height": 860}, locale="en-US")
        for _ in range(2)
    ]
    try:
        pages = []
        for ctx, (token, seat) in zip(
            contexts, [(made["token"], 0), (ravi["token"], 1)], strict=True
        ):
            ctx.set_default_timeout(15_000)
            page = ctx.new_page()
            open_seat(page, server, code, token, seat)
            expect(page.locator(HAND)).to_have_count(13)
            pages.append(page)
        play_out(pages)
        old_seeds = {expect_verified(p) for p in pages}
        assert len(old_seeds) == 1

        for p in pages:
            expect(p.locator("#match-over")).to_be_visible()
            p.click("#rematch")
        # Once both have asked, both pages go to the new table, its first deal dealt.
        for p in pages:
            expect(p).to_have_url(TABLE_URL(server))
            expect(p).not_to_have_url(re.compile(rf"/t/{code}$"))
            expect(p.locator(HAND)).to_have_count(13)
        new = pages[0].url.rsplit("/", 1)[-1]
        assert pages[1].url.rsplit("/", 1)[-1] == new
        # The deal is in progress: its seed is not known, nothing of the old table shows.
        for p in pages:
            expect(p.locator("#score h3")).to_contain_text("Deal 1")
            expect(p.locator("#commitment")).to_be_visible()
            expect(p.locator("#fair")).to_contain_text("revealed when the deal is over")
            expect(p.locator("#seed")).to_have_count(0)
            expect(p.locator("#verify")).to_have_count(0)
            expect(p.locator("#fair code.seed")).to_have_count(0)
            expect(p.locator("#fair .message")).to_have_count(0)
            expect(p.locator("#match-over")).to_have_count(0)
            expect(p.locator("#rematch-status")).to_have_count(0)
            expect(p.locator("#message")).to_have_count(0)
            assert old_seeds.isdisjoint({p.locator("#fair").inner_text()})
            assert next(iter(old_seeds)) not in p.locator("#game").inner_text()

        play_out(pages)
        new_seeds = {expect_verified(p) for p in pages}
        assert len(new_seeds) == 1 and new_seeds.isdisjoint(old_seeds)
        assert api(server, "GET", f"/api/tables/{code}")["rematch"] == new

        # The old table, opened again, still checks out.
        pages[1].goto(f"{server}/t/{code}")
        expect(pages[1].locator("#match-over")).to_be_visible()
        assert expect_verified(pages[1]) in old_seeds
    finally:
        for ctx in contexts:
            ctx.close()
