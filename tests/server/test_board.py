"""The analysis board (issue 19 item 12), through the real server and a real browser: a
finished deal replayed move by move with every hand face up at ``/t/<code>/deals/<n>``,
stepped with buttons, keys and the move list; for Mindi the result perfect play gave the
mover's team before and after each move, mistakes marked with the better cards; a link
that shares the position; Ganjifa and 6-player deals replayed, saying plainly that the
analysis is for 4-player Mindi; nothing for a deal in progress.

The server, the browser and a person's steps are in tests/server/web.py. Deals not played
in the browser are played over the WebSocket by the scripted player of tests/server/helpers.
"""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect
from websockets.sync.client import connect

from tests.server.helpers import Player, hello
from tests.server.test_ganjifa import choose as ganjifa_choose
from tests.server.web import SCREENSHOTS, TABLE_URL, api, play_now, play_now_table, play_to_the_end

BOARD = "#analysis-board"
SEATS = f"{BOARD} .bd-seat"
PLAYED = "#bd-trick .bd-played"


def get(base: str, path: str) -> Any:
    """A GET of the API that may take a while (the analysis solves a deal first)."""
    with urllib.request.urlopen(base + path, timeout=120) as r:
        return json.loads(r.read())


def finish_deals(
    base: str,
    made: dict[str, Any],
    deals: int = 1,
    choose: Callable[[dict[str, Any]], str] | None = None,
) -> Player:
    """Play the creator's seat over the WebSocket (the first legal move each turn, bots at
    the other seats) until ``deals`` more deals are over and, unless the match is over, the
    next has begun."""
    player = Player(choose)
    url = base.replace("http://", "ws://") + f"/ws/{made['code']}"
    begun = False
    with connect(url, open_timeout=10) as ws:
        ws.send(json.dumps(hello(made["token"])))
        while not player.match_over and not (player.deals_over >= deals and begun):
            message = json.loads(ws.recv(timeout=60))
            if message.get("kind") == "deal_over":
                begun = False
            elif message.get("kind") == "deal":
                begun = True
            for out in player.feed(message):
                ws.send(json.dumps(out))
    return player


class Finished:
    """A Mindi table whose deal ``n`` is over, with a mistake that has better cards and tricks
    the solver did not reach, and that deal's replay and analysis from the API."""

    def __init__(self, code: str, n: int, replay: dict[str, Any], analysis: dict[str, Any]):
        self.code = code
        self.n = n
        self.replay = replay
        self.analysis = analysis

    def url(self, base: str, move: int | None = None) -> str:
        path = f"{base}/t/{self.code}/deals/{self.n}"
        return path if move is None else f"{path}?move={move}"

    @property
    def mistake(self) -> dict[str, Any]:
        """The first mistake with better cards to show."""
        return next(m for m in self.analysis["moves"] if m["mistake"] and _cards(m["best"]))


def _cards(moves: list[str]) -> list[str]:
    return [m for m in moves if m != "reveal"]


@pytest.fixture(scope="module")
def finished(server: str) -> Finished:
    """Deals played with the first legal card against beginner bots (which give mindis away)
    until one has a mistake with better cards and tricks the solver did not reach."""
    made = play_now_table(server, options={"deals": 8, "target": None})
    for n in range(1, 9):
        finish_deals(server, made)
        analysis = get(server, f"/api/tables/{made['code']}/deals/{n}/analysis")
        mistakes = [m for m in analysis["moves"] if m["mistake"] and _cards(m["best"])]
        if analysis["skipped"] > 0 and mistakes:
            replay = get(server, f"/api/tables/{made['code']}/deals/{n}")
            assert api(server, "GET", f"/api/tables/{made['code']}")["deal_number"] == n + 1
            return Finished(made["code"], n, replay, analysis)
    raise AssertionError("eight deals without a mistake in the solver's reach")


def open_board(page: Page, url: str, analysed: bool = True) -> None:
    """Open the board; with ``analysed``, wait until the analysis has come."""
    page.goto(url)
    expect(page.locator(BOARD)).to_have_attribute("data-moves", re.compile(r"^\d+$"))
    if analysed:
        expect(page.locator("#bd-note-text")).not_to_contain_text("Analysing", timeout=60_000)


def hand_sizes(page: Page) -> dict[int, int]:
    """Cards face up in each seat's hand, by seat."""
    sizes: dict[int, int] = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#analysis-board .bd-seat')]
             .map(s => [s.dataset.seat, s.querySelectorAll('.bd-card').length]))"""
    )
    return {int(k): v for k, v in sizes.items()}


def at(page: Page, move: int) -> None:
    """The board shows the position after ``move`` moves, and its address says so."""
    expect(page.locator(BOARD)).to_have_attribute("data-move", str(move))
    expect(page).to_have_url(re.compile(rf"\?move={move}$"))


def standing(forecast: dict[str, Any], team: int) -> str:
    """A forecast from one team's side as the page words it in English (i18n.js)."""
    mine, theirs = forecast["tens"][team], forecast["tens"][1 - team]
    wins = forecast["winner"] == team
    text = f"{'wins' if wins else 'loses'} {mine}–{theirs}"
    text += {"win": "", "mendikot": " with a mendikot", "whitewash": " with a whitewash"}[
        forecast["kind"]
    ]
    if not wins:
        text = text.replace("with a", "to a")
    return text + (" on the tie-break" if mine == theirs else "")


def test_after_a_deal_the_table_leads_to_the_board_and_back(
    context: BrowserContext, server: str
) -> None:
    page = context.new_page()
    play_now(page, server, "Asha")
    play_to_the_end(page)
    # The solve takes seconds: the replay shows at once, saying the analysis is on its way.
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    asked = re.compile(r"/deals/1/analysis(\?wait=false)?$")
    page.route(asked, hold)
    page.click("#analyse")
    expect(page).to_have_url(re.compile(re.escape(server) + r"/t/[0-9a-z]+/deals/1$"))
    code = page.url.split("/")[-3]
    expect(page.locator(SEATS)).to_have_count(4)
    assert hand_sizes(page) == {0: 13, 1: 13, 2: 13, 3: 13}
    expect(page.locator(f"{BOARD} .bd-card svg.card-face")).to_have_count(52)  # faces, no backs
    # The viewer sits at the bottom, named; people are named, never numbered from 0.
    expect(page.locator(".bd-seat.area-s .bd-name b")).to_have_text("Asha")
    expect(page.locator(".bd-team[data-team='0'] b")).to_have_text("Your team")
    expect(page.locator("#bd-note-text")).to_contain_text("Analysing")
    expect(page.locator("#bd-pos")).to_have_text("The deal as dealt")
    page.keyboard.press("ArrowRight")  # the replay works while the solver works
    expect(page.locator(PLAYED)).to_have_count(1)
    expect(page.locator("#bd-verdict")).to_contain_text("analysing…")
    for _ in range(200):  # the page asked for the analysis; its answer waits here
        if held:
            break
        page.wait_for_timeout(25)
    assert held, "the page asked for the analysis"
    # Still running: the page says how far it has got, and asks again.
    progress = {"deal": 1, "status": "running", "tricks": 5, "of": 13}
    held[0].fulfill(status=202, json=progress)
    expect(page.locator("#bd-note-text")).to_contain_text("Analysing… 5 of 13 tricks done")
    for _ in range(200):
        if len(held) > 1:
            break
        page.wait_for_timeout(25)
    assert len(held) > 1, "the page asked again"
    page.unroute(asked)
    held[1].fallback()
    expect(page.locator("#bd-note-text")).not_to_contain_text("Analysing", timeout=60_000)
    expect(page.locator("#bd-list .bd-move")).to_have_count(52)
    expect(page.locator("#bd-result-text")).to_contain_text(re.compile(r"wins|win"))
    # Back to the table, where the finished deal waits for the next.
    page.click("#bd-back")
    expect(page).to_have_url(TABLE_URL(server))
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#analyse")).to_have_text("Analyse the deal")
    assert code in page.url


def test_keys_buttons_and_the_move_list_step_through_the_deal(
    context: BrowserContext, server: str, finished: Finished
) -> None:
    page = context.new_page()
    open_board(page, finished.url(server))
    moves = finished.replay["moves"]
    total = len(moves)
    assert total == 52
    expect(page.locator(BOARD)).to_have_attribute("data-move", "0")
    expect(page.locator(PLAYED)).to_have_count(0)
    assert hand_sizes(page) == {0: 13, 1: 13, 2: 13, 3: 13}
    history = page.evaluate("history.length")

    page.keyboard.press("ArrowRight")
    at(page, 1)
    expect(page.locator(PLAYED)).to_have_count(1)
    first = moves[0]
    expect(page.locator(f"{PLAYED}.just")).to_have_attribute("data-seat", str(first["seat"]))
    assert hand_sizes(page)[first["seat"]] == 12
    assert sum(hand_sizes(page).values()) == 51
    page.click("#bd-next")
    at(page, 2)
    expect(page.locator(PLAYED)).to_have_count(2)
    expect(page.locator("#bd-pos")).to_have_text("Move 2 of 52 · trick 1")
    page.keyboard.press("ArrowLeft")
    at(page, 1)
    page.click("#bd-prev")
    at(page, 0)
    expect(page.locator("#bd-prev")).to_be_disabled()
    expect(page.locator("#bd-first")).to_be_disabled()

    page.keyboard.press("End")
    at(page, total)
    assert hand_sizes(page) == {0: 0, 1: 0, 2: 0, 3: 0}
    expect(page.locator(PLAYED)).to_have_count(4)  # the last trick, with its winner
    winner = finished.replay["positions"][total]["last_trick"]["winner"]
    name = page.locator(f".bd-seat[data-seat='{winner}'] .bd-name b").inner_text()
    expect(page.locator("#bd-winner")).to_have_text(f"{name} won the trick")
    expect(page.locator("#bd-next")).to_be_disabled()
    page.keyboard.press("Home")
    at(page, 0)
    page.click("#bd-last")
    at(page, total)
    page.click("#bd-first")
    at(page, 0)

    # A move in the list: the position after it; a trick's last card shows the whole trick.
    page.click("#bd-m-20")
    at(page, 20)
    expect(page.locator("#bd-m-20")).to_have_attribute("aria-current", "step")
    expect(page.locator(PLAYED)).to_have_count(4)
    expect(page.locator("#bd-pos")).to_have_text("Move 20 of 52 · trick 5")
    assert sum(hand_sizes(page).values()) == 52 - 20
    tricks = finished.replay["positions"][20]["tricks_won"]
    facts = page.locator(".bd-team .bd-tricks").all_inner_texts()
    assert facts == [f"{n} trick{'' if n == 1 else 's'}" for n in tricks]
    page.click("#bd-m-21")
    at(page, 21)
    expect(page.locator(PLAYED)).to_have_count(1)

    # The keys are the board's only while nobody types: not in a field, not in a menu.
    page.evaluate("document.querySelector('header.top').append(document.createElement('input'))")
    page.click("header.top input")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Home")
    page.focus("#lang")
    page.keyboard.press("Home")
    page.locator("#bd-m-22").focus()
    page.keyboard.press("ArrowLeft")
    at(page, 20)
    expect(page.locator("#lang")).to_have_value("en")
    # Stepping replaces the address: Back leaves the board, not the last step.
    assert page.evaluate("history.length") == history


def test_the_badge_marks_the_mistakes_and_shows_the_better_cards(
    context: BrowserContext, server: str, finished: Finished
) -> None:
    page = context.new_page()
    analysis = finished.analysis
    mistake = finished.mistake
    n = mistake["number"]
    open_board(page, finished.url(server, n))
    at(page, n)
    team = mistake["seat"] % 2
    badge = page.locator("#bd-badge")
    expect(badge).to_have_attribute("data-mistake", "true")
    expect(badge).to_contain_text("Mistake")
    expect(badge.locator(".bd-before")).to_have_text(standing(mistake["before"], team))
    expect(badge.locator(".bd-after")).to_have_text(standing(mistake["after"], team))
    # Marked in the list and on the board; the better cards lit in the mover's hand.
    expect(page.locator(f"#bd-m-{n}")).to_have_class(re.compile(r"\bmistake\b"))
    expect(page.locator(f"#bd-m-{n} .bd-mark")).to_have_text("?")
    just = page.locator(f"{PLAYED}.just")
    expect(just).to_have_class(re.compile(r"\bmistake\b"))
    expect(just).to_have_attribute("data-seat", str(mistake["seat"]))
    best = page.locator(f".bd-seat[data-seat='{mistake['seat']}'] .bd-card.best")
    expect(best).to_have_count(len(_cards(mistake["best"])))
    assert sorted(best.evaluate_all("cs => cs.map(c => c.dataset.card)")) == sorted(
        _cards(mistake["best"])
    )
    expect(page.locator(".bd-card.best")).to_have_count(len(_cards(mistake["best"])))
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "board.png"))

    # A best play: its result kept, nothing lit.
    good = next(m for m in analysis["moves"] if not m["mistake"])
    page.click(f"#bd-m-{good['number']}")
    at(page, good["number"])
    expect(badge).to_have_attribute("data-mistake", "false")
    expect(badge).to_contain_text("best play")
    side = good["seat"] % 2
    expect(badge.locator(".bd-before")).to_have_text(standing(good["before"], side))
    expect(badge.locator(".bd-after")).to_have_text(standing(good["after"], side))
    expect(page.locator(".bd-card.best")).to_have_count(0)
    mistakes = [m for m in analysis["moves"] if m["mistake"]]
    expect(page.locator("#bd-list .bd-move.mistake")).to_have_count(len(mistakes))

    # The moves the solver did not reach, said plainly; the moves it did, counted.
    first = analysis["moves"][0]["trick"]
    assert analysis["skipped"] > 0 and first > 1
    note = page.locator("#bd-note-text")
    if first == 2:
        expect(note).to_contain_text("Trick 1 not analysed: beyond the solver's budget.")
    else:
        expect(note).to_contain_text(
            f"Tricks 1–{first - 1} not analysed: beyond the solver's budget."
        )
    k = analysis["tricks"]
    count = f"{len(mistakes)} moves" if len(mistakes) > 1 else "1 move"
    expect(note).to_contain_text(f"{count} of the last {k} tricks gave something away")
    page.click("#bd-m-1")
    expect(page.locator("#bd-badge")).to_have_text("not analysed")
    page.keyboard.press("Home")
    expect(page.locator("#bd-start")).to_contain_text(f"With perfect play from trick {first} on:")
    # In Hindi too.
    page.select_option("#lang", "hi")
    expect(page.locator("#bd-pos")).to_have_text("बँटे हुए पत्ते")
    page.keyboard.press("End")
    expect(page.locator("#bd-back")).to_contain_text("मेज़ पर वापस")


def test_a_shared_link_opens_the_same_position(
    browser: Browser, server: str, finished: Finished
) -> None:
    sharer = browser.new_context(viewport={"width": 1100, "height": 860}, locale="en-US")
    friend = browser.new_context(viewport={"width": 1100, "height": 860}, locale="en-US")
    try:
        sharer.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
        page = sharer.new_page()
        open_board(page, finished.url(server))
        page.click("#bd-m-17")
        at(page, 17)
        page.click("#bd-copy")
        expect(page.locator("#bd-copy")).to_have_text("Link copied")
        link = page.evaluate("navigator.clipboard.readText()")
        assert link == finished.url(server, 17)
        page.keyboard.press("ArrowRight")
        expect(page.locator("#bd-copy")).to_have_text("Copy link")

        other = friend.new_page()
        open_board(other, link, analysed=False)
        at(other, 17)
        expect(other.locator("#bd-pos")).to_have_text("Move 17 of 52 · trick 5")
        expect(other.locator(PLAYED)).to_have_count(1)
        assert sum(hand_sizes(other).values()) == 52 - 17
        expect(other.locator("#bd-m-17")).to_have_class(re.compile(r"\bcurrent\b"))
        # A position past the end is the end.
        open_board(other, finished.url(server, 999), analysed=False)
        expect(other.locator(BOARD)).to_have_attribute("data-move", "52")
    finally:
        sharer.close()
        friend.close()


#: Where the page is wider than the screen, and which of the board's parts stick out.
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const parts = '.bd-seat, .bd-mid, #bd-controls, #bd-verdict, #bd-list, .bd-head';
  const out = [...document.querySelectorAll(parts)]
    .filter(e => {
      const r = e.getBoundingClientRect();
      return r.left < -0.5 || r.right > width + 0.5;
    })
    .map(e => e.id || e.className);
  return {scroll: document.documentElement.scrollWidth, width, out};
}"""


@pytest.mark.parametrize("size", [(390, 844), (1280, 900), (1920, 1080)])
def test_the_board_fits_the_screen(
    browser: Browser, server: str, finished: Finished, size: tuple[int, int]
) -> None:
    width, height = size
    ctx = browser.new_context(viewport={"width": width, "height": height}, locale="en-US")
    try:
        page = ctx.new_page()
        open_board(page, finished.url(server, finished.mistake["number"]))
        for lang in ("en", "hi", "pa"):
            page.select_option("#lang", lang)
            found = page.evaluate(OVERFLOW)
            assert found["scroll"] <= found["width"] and not found["out"], (lang, found)
        # Every card can be read: each shows at least its index.
        page.keyboard.press("Home")
        shown = page.locator(".bd-card").evaluate_all(
            "cs => cs.map(c => c.getBoundingClientRect().width)"
        )
        assert len(shown) == 52 and min(shown) >= 14, shown
    finally:
        ctx.close()


def test_a_deal_that_is_not_there_or_not_over_says_so(
    context: BrowserContext, server: str, finished: Finished
) -> None:
    page = context.new_page()
    error = page.locator("#bd-error")
    page.goto(f"{server}/t/{finished.code}/deals/99")
    expect(error).to_have_text("This room has no deal 99.")
    # Not a deal number at all: said back as typed, with what a deal number is (issue 40).
    page.goto(f"{server}/t/{finished.code}/deals/abc")
    expect(error).to_have_text("There is no deal “abc”: deals are numbered 1, 2, 3 and so on.")
    page.goto(f"{server}/t/{finished.code}/deals/0")
    expect(error).to_have_text("There is no deal “0”: deals are numbered 1, 2, 3 and so on.")
    page.goto(f"{server}/t/{finished.code}/deals/%3Cb%3Efirst%20deal")
    expect(error).to_have_text(
        "There is no deal “<b>first deal”: deals are numbered 1, 2, 3 and so on."
    )
    page.select_option("#lang", "hi")
    expect(error).to_have_text("बाज़ी “<b>first deal” नहीं है: बाज़ियों के नंबर 1, 2, 3 वगैरह होते हैं।")
    page.select_option("#lang", "en")
    page.goto(f"{server}/t/zzzzzzzz/deals/1")
    expect(error).to_have_text("There is no room with this code.")
    # The deal being played: no board, no card of any hand.
    playing = finished.n + 1
    page.goto(f"{server}/t/{finished.code}/deals/{playing}")
    expect(error).to_have_text(
        f"Deal {playing} is not over yet: its board opens once its last card is played."
    )
    expect(page.locator(".card-face")).to_have_count(0)
    page.click("#bd-back")
    expect(page).to_have_url(TABLE_URL(server))


def test_six_players_are_replayed_and_the_analysis_says_it_is_for_four(
    context: BrowserContext, server: str
) -> None:
    made = play_now_table(server, options={"players": 6, "deck": 48, "deals": 1, "target": None})
    finish_deals(server, made)
    page = context.new_page()
    open_board(page, f"{server}/t/{made['code']}/deals/1")
    expect(page.locator(SEATS)).to_have_count(6)
    assert hand_sizes(page) == dict.fromkeys(range(6), 8)
    expect(page.locator("#bd-note-text")).to_have_text(
        "The analysis is for 4-player Mindi deals: this is the replay alone."
    )
    page.keyboard.press("End")
    at(page, 48)
    expect(page.locator(PLAYED)).to_have_count(6)
    found = page.evaluate(OVERFLOW)
    assert found["scroll"] <= found["width"] and not found["out"], found


def test_a_finished_ganjifa_match_leads_to_its_replay(context: BrowserContext, server: str) -> None:
    made = api(
        server,
        "POST",
        "/api/tables",
        {"game": "ganjifa", "name": "Ravi", "bots": "random", "start_now": True},
    )
    finish_deals(server, made, choose=ganjifa_choose)
    page = context.new_page()
    page.goto(server + "/")
    page.evaluate(
        "([code, token]) => { localStorage.setItem('hukum.token.' + code, token);"
        " localStorage.setItem('hukum.seat.' + code, '0'); }",
        [made["code"], made["token"]],
    )
    page.goto(f"{server}/t/{made['code']}")
    expect(page.locator("#match-over")).to_be_visible()
    expect(page.locator("#analyse")).to_have_text("Replay the deal")
    page.click("#deal-links button")
    expect(page).to_have_url(re.compile(rf"/t/{made['code']}/deals/1$"))
    expect(page.locator(SEATS)).to_have_count(3)
    assert hand_sizes(page) == {0: 40, 1: 40, 2: 40}
    expect(page.locator(f"{BOARD} .bd-card svg.round")).to_have_count(120)
    expect(page.locator(".bd-seat.area-s .bd-name b")).to_have_text("Ravi")
    expect(page.locator("#bd-note-text")).to_have_text(
        "The analysis is for Mindi deals: this is the replay alone."
    )
    expect(page.locator("#bd-trump")).to_contain_text("Rama")
    page.keyboard.press("ArrowRight")
    at(page, 1)
    expect(page.locator(PLAYED)).to_have_count(1)
    page.keyboard.press("End")
    total = int(page.locator(BOARD).get_attribute("data-moves") or "0")
    at(page, total)
    assert hand_sizes(page) == {0: 0, 1: 0, 2: 0}
    expect(page.locator("#bd-result-text")).to_contain_text("cards")
    found = page.evaluate(OVERFLOW)
    assert found["scroll"] <= found["width"] and not found["out"], found


#: Each part of the table where it is drawn: the seats by their place, the trick, and each
#: trick card with its player's seat and the name written on it.
TABLE_BOXES = """() => {
  const box = (e) => {
    const r = e.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom};
  };
  const seats = Object.fromEntries([...document.querySelectorAll('#analysis-board .bd-seat')]
    .map(s => [[...s.classList].find(c => c.startsWith('area-')).slice(5), box(s)]));
  const played = [...document.querySelectorAll('#bd-trick .bd-played')].map(f => {
    const by = f.querySelector('.bd-by');
    const style = by && getComputedStyle(by);
    const shown = by && style.display !== 'none' && style.visibility !== 'hidden';
    // The whole name shows: nothing of it clipped.
    const whole = shown && by.scrollHeight <= by.clientHeight + 1
      && by.scrollWidth <= by.clientWidth + 1;
    const label = shown ? by.innerText.trim() : '';
    return {seat: f.dataset.seat, label, whole, box: box(f), by: by ? box(by) : null};
  });
  const names = Object.fromEntries([...document.querySelectorAll('#analysis-board .bd-seat')]
    .map(s => [s.dataset.seat, s.querySelector('.bd-name b').innerText.trim()]));
  return {seats, mid: box(document.querySelector('#bd-trick')), played, names};
}"""


def test_on_a_phone_the_board_is_a_table_and_each_trick_card_is_named(
    browser: Browser, server: str, finished: Finished
) -> None:
    """Issue 40 item 5: on a phone the hands sit round the trick as at the table (not one
    under the other), and each card of the trick carries its player's name."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
    try:
        page = ctx.new_page()
        open_board(page, finished.url(server, 19))  # three cards of trick 5 on the table
        expect(page.locator(PLAYED)).to_have_count(3)
        found = page.evaluate(TABLE_BOXES)
        seats, mid = found["seats"], found["mid"]
        assert sorted(seats) == ["e", "n", "s", "w"]
        # North above the trick above south; west and east either side of the trick.
        assert seats["n"]["bottom"] <= mid["top"] + 1 and mid["bottom"] <= seats["s"]["top"] + 1
        assert seats["w"]["right"] <= mid["left"] + 1 and mid["right"] <= seats["e"]["left"] + 1
        for side in ("w", "e"):  # beside the trick, not above or below it
            assert seats[side]["top"] < mid["bottom"] and seats[side]["bottom"] > mid["top"]
        for play in found["played"]:
            assert play["label"] == found["names"][play["seat"]] and play["whole"], play
            inside = play["by"]
            assert inside["left"] >= -0.5 and inside["right"] <= 390.5, play
        overflow = page.evaluate(OVERFLOW)
        assert overflow["scroll"] <= overflow["width"] and not overflow["out"], overflow
        # The whole table in one screen: the hands and the trick above the fold.
        assert seats["s"]["bottom"] <= 844, seats
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "board-phone.png"))
    finally:
        ctx.close()


#: Every text the analysis note shows, from the page's start (a MutationObserver).
NOTES = """() => {
  window.notesSeen = [];
  const seen = () => {
    const note = document.querySelector('#bd-note-text');
    const text = note ? note.textContent : '';
    if (text && window.notesSeen.at(-1) !== text) window.notesSeen.push(text);
  };
  const all = {subtree: true, childList: true, characterData: true};
  new MutationObserver(seen).observe(document, all);
}"""


#: Whether the analysis has come (the note no longer says it is on its way).
ANALYSED = """() => {
  const note = document.querySelector('#bd-note-text');
  return note && !/Analysing|Waiting/.test(note.textContent);
}"""


def test_the_note_says_where_the_analysis_is(context: BrowserContext, server: str) -> None:
    """Issue 40 item 3: a fresh analysis with nothing else analysed never says the analyser
    is busy with other deals; behind others it says how many, then starting, then how far."""
    made = play_now_table(server, options={"deals": 1, "target": None})
    finish_deals(server, made)
    page = context.new_page()
    page.add_init_script(f"({NOTES})()")
    open_board(page, f"{server}/t/{made['code']}/deals/1")
    page.wait_for_function(ANALYSED, timeout=60_000)
    seen: list[str] = page.evaluate("window.notesSeen")
    assert seen and not any("before this one" in s or "busy" in s for s in seen), seen
    assert "Analysing" in seen[0], seen

    # Behind other deals, as the server says: how many, then starting, then how far.
    answers = [
        {"deal": 1, "status": "waiting", "ahead": 2, "tricks": 0, "of": 13},
        {"deal": 1, "status": "waiting", "ahead": 1, "tricks": 0, "of": 13},
        {"deal": 1, "status": "starting", "tricks": 0, "of": 13},
        {"deal": 1, "status": "running", "tricks": 4, "of": 13},
    ]

    def answer(route: Route) -> None:
        if answers:
            route.fulfill(status=202, json=answers.pop(0))
        else:
            route.fallback()

    other = context.new_page()
    other.route(re.compile(r"/deals/1/analysis\?wait=false$"), answer)
    other.add_init_script(f"({NOTES})()")
    open_board(other, f"{server}/t/{made['code']}/deals/1")
    other.wait_for_function(ANALYSED, timeout=60_000)
    assert other.evaluate("window.notesSeen")[:5] == [
        "Analysing… the solver takes a few seconds; the replay is ready meanwhile.",
        "Waiting for the analyser: 2 deals are before this one. The replay is ready meanwhile.",
        "Waiting for the analyser: one deal is before this one. The replay is ready meanwhile.",
        "Analysing… the solver is starting (the first analysis after the server starts takes"
        " longest, while its workers start and load the solver); the replay is ready meanwhile.",
        "Analysing… 4 of 13 tricks done, from the last trick back; the replay is ready meanwhile.",
    ]
