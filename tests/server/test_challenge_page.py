"""Issue 42's pages in a real browser (tests/server/web.py) against a real `hukum serve`:
an account opens the daily challenge from the lobby, plays a deal to its end against the
real expert, and then sees its percentage, the field's results and itself on the day's and
the week's leaderboards; another account sees nothing of that deal's field before playing
it; a guest is told to claim an account; the board of a challenge deal is locked until the
day closes; a closed day (the played day moved into the past in a copy of the database,
served by a second server, as the API's tests make a closed day) shows its seeds with the
`hukum verify` command that checks them, and the board of the deal opens with "The field"
at the player's decisions; the pages fit a phone in Hindi and Punjabi.

With HUKUM_SCREENSHOTS=1 the pages' pictures are saved in docs/screenshots.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from hukum.games import game_named
from hukum.online.challenge import DEALS, preset_of, week_of
from hukum.server.fairness import verify
from tests.server.test_punjabi import SPILLS
from tests.server.test_quick_match_page import ask, claim, screenshot
from tests.server.web import HAND, LEGAL, TABLE_URL, serving

PHONE: ViewportSize = {"width": 390, "height": 844}
LAPTOP: ViewportSize = {"width": 1000, "height": 800}
#: How long a step may take: the expert answers each of the person's cards with three of
#: its own (up to about a second each), on a loaded machine more.
STEP_MS = 60_000


def today() -> dt.date:
    return dt.datetime.now(dt.UTC).date()


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of this module's server: its database is ``db.sqlite`` there."""
    return tmp_path_factory.mktemp("challenge")


@pytest.fixture(scope="module")
def site(home: Path) -> Iterator[str]:
    with serving(home) as base:
        yield base


def person(
    browser: Browser, lang: str = "en", size: ViewportSize = LAPTOP, state: Any = None
) -> tuple[BrowserContext, Page]:
    """A browser of its own in ``lang`` (``state``: another browser's cookies, the same
    player)."""
    ctx = browser.new_context(viewport=size, locale="en-US", storage_state=state)
    ctx.set_default_timeout(STEP_MS)
    ctx.add_init_script(f"localStorage.setItem('hukum.lang', '{lang}')")
    return ctx, ctx.new_page()


def fits_a_phone(page: Page) -> None:
    """Nothing wider than the screen (no sideways scroll) nor outside its panel."""
    assert page.evaluate(SPILLS) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def play_to_the_end(page: Page) -> None:
    """Play the first legal card each turn until the deal is over (the expert answers)."""
    while True:
        page.locator(f"{LEGAL}, #result").first.wait_for()
        if page.locator("#result").count():
            return
        n = page.locator(HAND).count()
        page.locator(LEGAL).first.click()
        page.click("#play-card")
        expect(page.locator(HAND)).to_have_count(n - 1)


@dataclass
class Played:
    """Asha's deal 1 of today, played in the browser: her cookies, the table, the day."""

    state: Any
    code: str
    day: dt.date


@pytest.fixture(scope="module")
def played(browser: Browser, site: str) -> Played:
    """Asha claims an account, opens the daily challenge from the lobby's "Play online"
    panel, presses Play on deal 1 and plays it to its end at /t/<code>."""
    ctx, page = person(browser)
    try:
        claim(page, site, "asha42")
        page.goto(site + "/")
        page.click("#to-challenge")
        expect(page).to_have_url(site + "/challenge")
        deal = page.locator("#deal-1")
        expect(deal).to_have_attribute("data-state", "play")
        expect(page.locator("#results-1")).to_have_count(0)  # nothing of the field yet
        page.click("#play-1")
        expect(page).to_have_url(TABLE_URL(site))
        code = page.url.rsplit("/", 1)[-1]
        expect(page.locator(HAND)).to_have_count(13)
        play_to_the_end(page)
        expect(page.locator("#result")).to_be_visible()
        return Played(ctx.storage_state(), code, today())
    finally:
        ctx.close()


def test_a_deal_played_shows_its_percentage_the_field_and_the_leaderboards(
    browser: Browser, site: str, played: Played
) -> None:
    ctx, page = person(browser, state=played.state)
    try:
        # The table's end leads back to the day (no rematch at a challenge table).
        page.goto(f"{site}/t/{played.code}")
        expect(page.locator("#rematch")).to_have_count(0)
        page.click("#to-challenge")
        expect(page).to_have_url(f"{site}/challenge/{played.day}")
        deal = page.locator("#deal-1")
        expect(deal).to_have_attribute("data-state", "played")
        # Alone on the deal so far: 50% (the brief's rule), and the day's mean over 8 deals.
        expect(deal.locator(".ch-played")).to_have_text("Played: 50%")
        expect(page.locator("#challenge-score")).to_have_text("Your score today: 6.3%")
        expect(page.locator("#challenge-countdown")).to_contain_text("Closes in")
        preset = preset_of(played.day)
        expect(page.locator("#challenge-rules")).to_contain_text(
            {"classic": "Classic (cut hukum)", "hidden": "Hidden trump (band hukum)"}[preset]
        )
        expect(page.locator(".ch-deal")).to_have_count(DEALS)
        for n in range(2, DEALS + 1):
            expect(page.locator(f"#deal-{n}")).to_have_attribute("data-state", "play")
        # Open the field's results with the keyboard.
        page.focus("#results-1")
        page.keyboard.press("Enter")
        field = page.locator("#field-1")
        expect(field.locator("tbody tr")).to_have_count(1)
        mine = field.locator("tbody tr.me")
        expect(mine.locator("td")).to_have_count(4)
        expect(mine.locator("td").nth(0)).to_have_text("asha42")
        expect(mine.locator("td").nth(3)).to_have_text("50%")
        expect(page.locator("#results-1")).to_have_attribute("aria-expanded", "true")
        # The seed stays secret, the board locked, until the day closes.
        expect(page.locator("#seed-1")).to_have_count(0)
        expect(page.locator("#board-1")).to_have_count(0)
        page.goto(f"{site}/t/{played.code}/deals/1")
        expect(page.locator("#bd-error")).to_have_attribute("data-code", "challenge_open")
        expect(page.locator("#bd-field-panel")).to_have_count(0)
        # The day's leaderboard, then the week's, by the tabs.
        page.goto(f"{site}/challenge/{played.day}")
        page.click("#tab-day")
        expect(page).to_have_url(f"{site}/challenge/{played.day}/leaderboard")
        row = page.locator("#board-top tr.me")
        expect(row).to_have_attribute("data-username", "asha42")
        expect(row.locator(".pct")).to_have_text("6.3%")
        expect(page.locator("#board-me")).to_have_text("You are number 1, with 6.3%.")
        expect(page.locator("#board-final")).to_contain_text("still open")
        page.click("#tab-week")
        expect(page).to_have_url(f"{site}/challenge/week/{week_of(played.day)}")
        expect(page.locator("#board-top tr.me")).to_have_attribute("data-username", "asha42")
        expect(page.locator("#board-final")).to_contain_text("The week is not over")
        screenshot(page, "challenge-week.png")
    finally:
        ctx.close()


def test_another_account_sees_no_field_before_playing_the_deal(
    browser: Browser, site: str, played: Played
) -> None:
    ctx, page = person(browser)
    try:
        claim(page, site, "bina42")
        page.goto(site + "/challenge")
        deal = page.locator("#deal-1")
        expect(deal).to_have_attribute("data-state", "play")
        expect(deal).to_contain_text("1 player finished it")
        expect(page.locator("#results-1")).to_have_count(0)
        refused = ask(page, "GET", f"/api/challenge/{played.day}/deals/1/results")
        assert refused["error"]["code"] == "play_first", refused
        # Asha is on the day's board (by name), Bina not yet.
        page.goto(f"{site}/challenge/{played.day}/leaderboard")
        expect(page.locator('#board-top tr[data-username="asha42"]')).to_have_count(1)
        expect(page.locator("#board-top tr.me")).to_have_count(0)
        expect(page.locator("#board-me")).to_have_text("You have not played this day.")
    finally:
        ctx.close()


def test_a_guest_is_told_to_claim_an_account(browser: Browser, site: str) -> None:
    ctx, page = person(browser)
    try:
        page.goto(site + "/")
        expect(page.locator("#me-name")).not_to_have_text("")
        page.goto(site + "/challenge")
        notice = page.locator("#challenge-guest")
        expect(notice).to_contain_text("only accounts play the challenge")
        expect(page.locator("#challenge-claim")).to_have_attribute("href", "/account")
        expect(page.locator(".ch-deal")).to_have_count(DEALS)
        expect(page.locator("[data-play]")).to_have_count(0)
        for n in range(1, DEALS + 1):
            expect(page.locator(f"#deal-{n}")).to_have_attribute("data-state", "locked")
        # A commitment is shown short; the whole of it on demand (a <details>).
        summary = page.locator("#deal-1 summary")
        expect(summary).to_contain_text("…")
        expect(page.locator("#commitment-1")).to_be_hidden()
        summary.click()
        expect(page.locator("#commitment-1")).to_have_text(re.compile(r"^[0-9a-f]{64}$"))
        page.click("#challenge-claim")
        expect(page).to_have_url(site + "/account")
        refused = ask(page, "POST", f"/api/challenge/{today()}/deals/1/play", {})
        assert refused["error"]["code"] == "account_needed", refused
    finally:
        ctx.close()


def test_the_pages_fit_a_phone_in_hindi_and_punjabi(
    browser: Browser, site: str, played: Played
) -> None:
    for lang in ("hi", "pa"):
        ctx, page = person(browser, lang, PHONE, played.state)
        try:
            page.goto(f"{site}/challenge")
            expect(page.locator("#deal-1")).to_have_attribute("data-state", "played")
            page.click("#results-1")
            expect(page.locator("#field-1 tbody tr")).to_have_count(1)
            page.locator("#deal-2 summary").click()
            text = page.locator("#app").inner_text()
            words = re.findall(r"[A-Za-z]{3,}", text)
            # Only the commitments (hex), "UTC" and the player's name are in Latin letters.
            hex_words = {w for w in words if re.fullmatch(r"[0-9a-f]+", w)}
            assert set(words) <= {"UTC", "asha"} | hex_words, words
            fits_a_phone(page)
            screenshot(page, f"challenge-{lang}.png")
            week = week_of(played.day)
            for path in (f"/challenge/{played.day}/leaderboard", f"/challenge/week/{week}"):
                page.goto(site + path)
                expect(page.locator("#board-top")).to_be_visible()
                fits_a_phone(page)
        finally:
            ctx.close()


# ---------------------------------------------------------------- after the close


def closed_copy(home: Path, there: Path, day: dt.date, past: dt.date) -> None:
    """A copy of the server's database in ``there`` in which the challenge of ``day`` (its
    deals, entries and tables) is the challenge of ``past``: closed, with the same seeds."""
    there.mkdir(parents=True, exist_ok=True)
    source = sqlite3.connect(home / "db.sqlite")
    copy = sqlite3.connect(there / "db.sqlite")
    source.backup(copy)
    source.close()
    old, new = day.isoformat(), past.isoformat()
    for table in ("challenges", "challenge_deals", "challenge_entries"):
        copy.execute(f"UPDATE {table} SET day = ? WHERE day = ?", (new, old))
    for code, config in copy.execute("SELECT code, config FROM rooms").fetchall():
        settings = json.loads(config)
        key = settings.get("challenge")
        if isinstance(key, str) and key.startswith(old + "/"):
            settings["challenge"] = new + key[len(old) :]
            copy.execute("UPDATE rooms SET config = ? WHERE code = ?", (json.dumps(settings), code))
    copy.commit()
    copy.close()


def test_after_the_close_the_seeds_and_the_board_with_the_field_open(
    browser: Browser, home: Path, played: Played, tmp_path: Path
) -> None:
    # A week back: the same weekday, so the same rules (classic or band hukum).
    past = played.day - dt.timedelta(days=7)
    closed_copy(home, tmp_path, played.day, past)
    with serving(tmp_path) as base:
        ctx, page = person(browser, state=played.state)
        try:
            page.goto(f"{base}/challenge/{past}")
            expect(page.locator(".challenge")).to_have_attribute("data-closed", "true")
            expect(page.locator("#challenge-countdown")).to_contain_text("Closed at")
            deal = page.locator("#deal-1")
            expect(deal).to_have_attribute("data-state", "played")
            expect(page.locator("#deal-2")).to_have_attribute("data-state", "locked")
            body = ask(page, "GET", f"/api/challenge/{past}")
            spec = game_named("mindi")
            for d in body["deals"]:
                n = d["number"]
                expect(page.locator(f"#seed-{n}")).to_have_text(d["seed"])
                command = page.locator(f"#verify-{n}").inner_text()
                assert command == (
                    f"hukum verify --seed {d['seed']} --commitment {d['commitment']} "
                    f"--dealer {d['dealer']} --preset {body['preset']}"
                )
                rules = spec.make_rules(body["preset"])
                check = verify(d["commitment"], int(d["seed"]), rules, d["dealer"], spec)
                assert check["commitment_ok"]
            page.click("#board-1")
            expect(page).to_have_url(f"{base}/t/{played.code}/deals/1")
            expect(page.locator("#analysis-board")).to_be_visible()
            panel = page.locator("#bd-field-panel")
            expect(panel.locator("#bd-field-title")).to_have_text("The field")
            # Asha's decisions, each a way to its position; at each, the field's table.
            go = panel.locator(".bd-field-go")
            expect(go.first).to_be_visible(timeout=180_000)
            decisions = go.count()
            assert decisions >= 13, decisions  # each of her 13 cards, forced ones too
            go.first.click()
            table = page.locator("#bd-field-table")
            expect(table).to_be_visible()
            move = int(page.locator("#analysis-board").get_attribute("data-move") or "0")
            card = ask(page, "GET", f"/api/tables/{played.code}/deals/1")["moves"][move - 1]
            assert card["seat"] == 0
            row = table.locator("tbody tr.bd-field-played")
            expect(row).to_have_attribute("data-card", card["move"])
            expect(row.locator(".bd-field-share")).to_contain_text("100%")
            expect(page.locator("#bd-field-count")).to_have_text("1 player reached this position.")
            screenshot(page, "challenge-field.png")
            # On a phone, in Punjabi, the closed day's commands wrap inside the screen.
            phone, small = person(browser, "pa", PHONE, played.state)
            try:
                small.goto(f"{base}/challenge/{past}")
                expect(small.locator("#verify-1")).to_be_visible()
                fits_a_phone(small)
            finally:
                phone.close()
        finally:
            ctx.close()
