"""The match report's page (``/t/<code>/report``), through the real server and a real
browser: a Mindi match played to its end over the WebSocket (the scripted player at seat 0,
beginner computer players at the others); the table's match-over panel leads to the report,
which says per player what the API says, and a costliest move's link opens the analysis
board at the position before that move (the address says it, and the board's own steps
change the address); the page shows the progress while the deals are analysed, says when
the match is not over, and fits a phone in Hindi and Punjabi."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from tests.server.test_board import finish_deals, get
from tests.server.web import play_now_table

REPORT = "#match-report"


class Over:
    """A Mindi match played to its end, with its report from the API."""

    def __init__(self, made: dict[str, Any], report: dict[str, Any]) -> None:
        self.made = made
        self.code: str = made["code"]
        self.report = report

    def costly(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """The first seat with a costly move, and its costliest move."""
        seat = next(s for s in self.report["seats"] if s["costliest"])
        return seat, seat["costliest"][0]


@pytest.fixture(scope="module")
def over(server: str) -> Over:
    """Three deals against beginner computer players (which give tens away), to the end."""
    made = play_now_table(server, options={"deals": 3, "target": None})
    player = finish_deals(server, made, deals=3)
    assert player.match_over
    report = get(server, f"/api/tables/{made['code']}/report")
    assert report["status"] == "done" and report["deals"] == 3
    assert any(s["costliest"] for s in report["seats"]), "three deals without a mistake"
    return Over(made, report)


def as_player(context: BrowserContext, over: Over) -> Page:
    """A page of the seated player of the match (its seat's token, as the lobby keeps it)."""
    code, token = over.code, over.made["token"]
    context.add_init_script(
        f"localStorage.setItem('hukum.token.{code}', {json.dumps(token)});"
        f"localStorage.setItem('hukum.seat.{code}', '0');"
    )
    return context.new_page()


def test_from_the_table_to_the_report_and_a_costly_position(
    context: BrowserContext, server: str, over: Over
) -> None:
    page = as_player(context, over)
    page.goto(f"{server}/t/{over.code}")
    expect(page.locator("#match-over")).to_be_visible()
    page.click("#report-link")
    expect(page).to_have_url(f"{server}/t/{over.code}/report")
    expect(page.locator(REPORT)).to_have_attribute("data-ready", "1", timeout=60_000)
    # Per player what the API says: names, the tens and points lost, the mistakes.
    for s in over.report["seats"]:
        card = page.locator(f"#rp-seat-{s['seat']}")
        expect(card.locator(".rp-name")).to_have_text(s["name"])
        expect(card.locator(".rp-tens")).to_have_text(f"Tens lost: {s['tens']}")
        expect(card.locator(".rp-points")).to_have_text(f"Points lost: {s['points']}")
        expect(card.locator(".rp-mistakes")).to_contain_text(f"Mistakes: {s['mistakes']}")
        expect(card.locator(".rp-move")).to_have_count(len(s["costliest"]))
    expect(page.locator("#rp-seat-0 .rp-team")).to_have_text("Your team")
    expect(page.locator("#rp-seat-1 .rp-team")).to_have_text("Opponents")

    seat, costly = over.costly()
    deal, number = costly["deal"], costly["number"]
    link = page.locator(f"#rp-seat-{seat['seat']} .rp-move").first.locator("a")
    expect(link).to_contain_text(f"Deal {deal}, move {number}")
    cost = page.locator(f"#rp-seat-{seat['seat']} .rp-move").first.locator(".rp-cost")
    said = [f"tens −{costly['tens']}"] if costly["tens"] else []
    said += [f"points −{costly['points']}"] if costly["points"] else []
    expect(cost).to_have_text(" · ".join(said))
    link.click()
    # The board at the position before the move: number - 1 moves made, the move next.
    expect(page).to_have_url(f"{server}/t/{over.code}/deals/{deal}?move={number - 1}")
    board = page.locator("#analysis-board")
    expect(board).to_have_attribute("data-move", str(number - 1))
    replay = get(server, f"/api/tables/{over.code}/deals/{deal}")
    played = replay["moves"][number - 1]
    assert (played["move"], played["seat"]) == (costly["move"], seat["seat"])
    expect(page.locator("#bd-pos")).to_contain_text(f"Move {number - 1} of 52")
    # One step on: the move itself, judged a mistake, and the address says where.
    expect(page.locator("#bd-note-text")).not_to_contain_text("Analysing", timeout=60_000)
    page.keyboard.press("ArrowRight")
    expect(board).to_have_attribute("data-move", str(number))
    expect(page).to_have_url(f"{server}/t/{over.code}/deals/{deal}?move={number}")
    expect(page.locator(f"#bd-m-{number}")).to_have_class(re.compile(r"\bmistake\b"))
    # The board leads back to the report; so does the browser's back.
    page.click("#bd-report")
    expect(page).to_have_url(f"{server}/t/{over.code}/report")
    expect(page.locator(REPORT)).to_have_attribute("data-ready", "1")


def test_the_page_says_how_far_the_analyses_have_got(
    context: BrowserContext, server: str, over: Over
) -> None:
    page = context.new_page()
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    asked = re.compile(r"/api/tables/[0-9a-z]+/report\?wait=false$")
    page.route(asked, hold)
    page.goto(f"{server}/t/{over.code}/report")
    expect(page.locator("#rp-progress")).to_have_text("Analysing the deals…")
    for _ in range(200):
        if held:
            break
        page.wait_for_timeout(25)
    assert held, "the page asked for the report"
    progress = {"status": "running", "deals": 3, "done": 1, "analyses": []}
    held[0].fulfill(status=202, json=progress)
    expect(page.locator("#rp-progress")).to_have_text("Analysing the deals… 1 of 3 done.")
    for _ in range(200):
        if len(held) > 1:
            break
        page.wait_for_timeout(25)
    assert len(held) > 1, "the page asked again"
    page.unroute(asked)
    held[1].fallback()
    expect(page.locator(REPORT)).to_have_attribute("data-ready", "1", timeout=60_000)


def test_a_match_not_over_has_no_report_yet(context: BrowserContext, server: str) -> None:
    made = play_now_table(server, options={"deals": 2, "target": None})
    page = context.new_page()
    page.goto(f"{server}/t/{made['code']}/report")
    expect(page.locator("#rp-error")).to_have_attribute("data-code", "match_not_over")
    expect(page.locator("#rp-error")).to_contain_text("The match is not over yet")


#: Whether anything of the report is outside the screen's width.
SPILLS = """() => {
  const width = document.documentElement.clientWidth;
  const out = [...document.querySelectorAll('#match-report *')]
    .filter(e => {
      const r = e.getBoundingClientRect();
      return r.left < -0.5 || r.right > width + 0.5;
    })
    .map(e => e.className || e.tagName);
  return {scroll: document.documentElement.scrollWidth, width, out};
}"""


def test_the_report_fits_a_phone_in_hindi_and_punjabi(
    browser: Browser, server: str, over: Over
) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
    try:
        page = ctx.new_page()
        page.goto(f"{server}/t/{over.code}/report")
        expect(page.locator(REPORT)).to_have_attribute("data-ready", "1", timeout=60_000)
        for lang, title in (("hi", "मैच रिपोर्ट"), ("pa", "ਮੈਚ ਰਿਪੋਰਟ"), ("en", "Match report")):
            page.select_option("#lang", lang)
            expect(page.locator(f"{REPORT} h2")).to_contain_text(title)
            found = page.evaluate(SPILLS)
            assert found["scroll"] <= found["width"] and not found["out"], (lang, found)
    finally:
        ctx.close()
