"""The moderators' page shows a screening report (a real ``hukum serve``, a real browser):
the player flagged by the screening's own write (:func:`hukum.server.play.screening.write`
on a finished table's seat past the threshold), the tally and each decision a link to its
position on the board; a player who is not a moderator is told the page is not theirs.
Needs chromium (``HUKUM_REQUIRE_BROWSER=1``)."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, expect

from hukum.online.screening import step
from hukum.server.db import Store
from hukum.server.play import screening
from tests.server.test_fair_play_page import PHONE, browse, person, served, table

__all__ = ["served"]  # the server fixture, shared with the fair-play pages


def test_a_flagged_player_is_in_the_moderators_queue_with_the_evidence(
    browser: Browser, served: tuple[str, Store]
) -> None:
    base, store = served
    cheat, cheat_s = person(store, "Sly")
    _, mod_s = person(store, "Warden", role="moderator")
    code, _ = table(store, [("Sly", cheat)], over=True)
    hits = tuple(
        {"number": n, "card": card, "best": [card], "viewed": ["2C"], "chance": 0.25}
        for n, card in ((20, "QH"), (33, "10S"), (41, "AD"))
    )
    # Twenty-five hits in twenty-five decisions that matter, each where a quarter of the
    # legal cards were best: past the flag's threshold at once.
    seat = screening.SeatScreening(1, 0, cheat, 25, 25, 25, 0, 25 * step(0.25, True), hits)
    assert screening.write(store, code, 1, [seat])
    page = browse(browser, base, mod_s, PHONE)
    try:
        page.goto(f"{base}/moderation")
        report = page.locator(".mod-report").filter(has_text="Sly")
        expect(report).to_contain_text("Fair-play screening")
        expect(report).to_contain_text("Flagged by the fair-play screening")
        expect(report.locator(".mod-tally")).to_contain_text("25 of 25 decisions that matter")
        links = report.locator(".mod-evidence li a")
        expect(links).to_have_count(3)
        expect(links.nth(1)).to_have_attribute("href", f"/t/{code}/deals/1?move=32")
        links.nth(1).click()
        expect(page).to_have_url(re.compile(rf"/t/{code}/deals/1\?move=32$"))
    finally:
        page.context.close()
    other = browse(browser, base, cheat_s, PHONE)
    try:
        other.goto(f"{base}/moderation")
        expect(other.locator("#mod-only")).to_be_visible()
        expect(other.locator("body")).not_to_contain_text("QH")
    finally:
        other.context.close()
