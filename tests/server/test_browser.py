"""End-to-end tests of the web app: the real server (`hukum serve`) and a real browser
(Debian's chromium driven by Playwright), as a person plays.

The server, the browser and a person's steps are in tests/server/web.py.
"""

from __future__ import annotations

import itertools
import json
import re
from typing import Any

from playwright.sync_api import (
    Browser,
    BrowserContext,
    Page,
    ViewportSize,
    WebSocketRoute,
    expect,
)

from tests.server.web import (
    HAND,
    LEGAL,
    SCREENSHOTS,
    TABLE_URL,
    api,
    expect_hand,
    fonts_drawing,
    keep_token,
    my_turn_or_over,
    play_card,
    play_ganjifa_now,
    play_now,
    play_to_the_end,
    route_views,
)


def test_lobby_then_a_full_deal_against_bots(context: BrowserContext, server: str) -> None:
    page = context.new_page()
    page.goto(server + "/")
    # One translation table, two languages.
    page.select_option("#lang", "hi")
    expect(page.locator("#play-now")).to_have_text("अभी खेलें")
    page.select_option("#lang", "en")
    expect(page.locator("#play-now")).to_have_text("Play now")
    expect(page.locator("#level option")).to_have_text(["Beginner", "Good", "Strong", "Expert"])
    page.fill("#name", "Asha")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "lobby.png"))

    page.select_option("#level", "random")
    page.click("#play-now")
    expect(page).to_have_url(TABLE_URL(server))
    expect(page.locator(HAND)).to_have_count(13)
    expect(page.locator(".seat.me .seat-name")).to_have_text("Asha")

    hand = page.locator(HAND)
    plays = 0
    tried_wrong = tried_keys = False
    while my_turn_or_over(page):
        dimmed = page.locator("#hand .card.dimmed")
        if not tried_wrong and dimmed.count():
            # A card that may not be played cannot be chosen: the page says why (M-8). It
            # is marked aria-disabled (so Playwright would wait for it to be enabled), but a
            # person can click it.
            n = hand.count()
            expect(dimmed.first).to_be_disabled()
            dimmed.first.click(force=True)
            expect(page.locator("#message")).to_contain_text(
                re.compile(r"^You must follow (clubs|diamonds|hearts|spades) [♣♦♥♠]\.$")
            )
            expect(page.locator("#hand .card.selected")).to_have_count(0)
            expect(page.locator("#play-card")).to_be_disabled()
            expect(hand).to_have_count(n)
            tried_wrong = True
        if not tried_keys:
            n = hand.count()
            page.keyboard.press("ArrowRight")
            expect(page.locator("#hand .card.selected.legal")).to_have_count(1)
            page.keyboard.press("Escape")
            expect(page.locator("#hand .card.selected")).to_have_count(0)
            page.keyboard.press("ArrowRight")
            page.keyboard.press("Enter")
            expect(hand).to_have_count(n - 1)
            tried_keys = True
        else:
            play_card(page)
        plays += 1
        if plays == 4 and my_turn_or_over(page):
            page.locator(LEGAL).first.click()
            page.screenshot(path=str(SCREENSHOTS / "table.png"), animations="disabled")
            page.locator("#hand .card.selected").click()  # unselect again
    assert plays == 13
    expect(hand).to_have_count(0)
    result = page.locator("#result")
    expect(result).to_contain_text("win")
    expect(result).to_contain_text(re.compile(r"\d–\d"))  # e.g. 3–1 tens
    # The scoreboard counts 13 tricks and all four tens.
    tricks = page.locator("#score td.tricks")
    total = sum(int(x) for x in tricks.all_inner_texts())
    assert total == 13
    tens = page.locator("#score td.tens .count").all_inner_texts()
    assert sum(int(x) for x in tens) == 4

    # The exact analysis, move by move, from the last trick back as far as its node budget
    # goes (a few seconds of CPU), on the analysis board (tests/server/test_board.py).
    page.click("#analyse")
    expect(page.locator("#analysis-board .bd-seat")).to_have_count(4)
    note = page.locator("#bd-note-text")
    # Waiting for the analyser, then its progress, then how many tricks it analysed.
    expect(note).to_contain_text(re.compile(r"last \d+ tricks"), timeout=60_000)
    found = re.search(r"last (\d+) tricks", note.inner_text())
    assert found, note.inner_text()
    # Trick by trick, each move under the name of its player (as on the table).
    expect(page.locator("#bd-list .bd-row")).to_have_count(13)
    expect(page.locator("#bd-list .bd-move[aria-label*='Asha']")).to_have_count(13)
    expect(page.locator("#bd-start")).to_contain_text(
        re.compile(r"^With perfect play from trick \d+ on: Your team (wins|loses) \d–\d")
    )
    mistakes = page.locator("#bd-list .bd-move.mistake")
    if mistakes.count():  # random bots often give a mindi away: say what, and what was better
        mistakes.first.click()
        expect(page.locator("#bd-badge")).to_contain_text(re.compile(r"(lost|turned) .*→"))
        expect(page.locator("#bd-verdict")).to_contain_text("better: ")
    page.click("#bd-back")
    expect(page.locator("#result")).to_be_visible()

    # Fair shuffle: the revealed seed matches the commitment, and the dealt hands are shown.
    expect(page.locator("#seed")).to_have_text(re.compile(r"^\d+$"))
    page.click("#verify")
    expect(page.locator("#verify-hash")).to_contain_text("matches")
    expect(page.locator("#verify-hands li")).to_have_count(4)

    # The last trick on request.
    page.click("#show-last")
    expect(page.locator("#last-trick li")).to_have_count(4)
    expect(page.locator("#last-trick li.winner")).to_have_count(1)

    # The house rules in force.
    page.click("#show-rules")
    expect(page.locator("#rules-panel")).to_contain_text("Direction of play")
    expect(page.locator("#rules-panel")).to_contain_text("(M-4)")  # described by GET /api/rules
    expect(page.locator('#rules-panel tr[data-option="trump"] .value')).to_contain_text("cut")

    page.click("#next-deal")
    expect(page.locator(".game")).to_have_attribute("data-phase", "play")
    expect(page.locator("#score h3")).to_contain_text("Deal 2")
    # The first deal can still be checked during the second.
    first = page.locator('.fair-deal[data-deal="1"]')
    expect(first.locator("h4")).to_have_text("Deal 1")
    first.locator("button").click()
    expect(first.locator(".message.ok")).to_contain_text("matches")
    expect(first.locator(".hands li")).to_have_count(4)


def test_a_late_ack_keeps_the_card_chosen_for_the_next_turn(
    context: BrowserContext, server: str
) -> None:
    """The server's ack of a move can reach the page after the events that give the turn
    back (the bots play at once). A card chosen for that turn in between stays chosen."""
    page = context.new_page()
    held: list[str] = []
    routes: list[WebSocketRoute] = []

    def route(ws: WebSocketRoute) -> None:
        upstream = ws.connect_to_server()
        ws.on_message(upstream.send)

        def from_server(message: str | bytes) -> None:
            if isinstance(message, str) and json.loads(message)["type"] == "ack":
                held.append(message)  # the acks wait until the test lets them through
            else:
                ws.send(message)

        upstream.on_message(from_server)
        routes.append(ws)

    page.route_web_socket(re.compile(r"/ws/"), route)
    play_now(page, server, "Ravi")
    assert my_turn_or_over(page)
    play_card(page)  # its move event came back; its ack is held
    assert my_turn_or_over(page)  # the bots played on: my turn again, the ack still held
    assert held
    page.locator(LEGAL).first.click()
    selected = page.locator("#hand .card.selected")
    expect(selected).to_have_count(1)
    for message in held:
        routes[-1].send(message)
    # A message after the acks: once it shows, the page has read them.
    routes[-1].send(json.dumps({"type": "error", "ref": 0, "error": {"message": "read"}}))
    expect(page.locator("#message")).to_contain_text("read")
    expect(selected).to_have_count(1)
    hand = page.locator(HAND)
    n = hand.count()
    page.click("#play-card")
    expect(hand).to_have_count(n - 1)


def test_two_people_in_a_private_room(browser: Browser, server: str) -> None:
    host_ctx = browser.new_context(viewport={"width": 1000, "height": 800}, locale="en-US")
    guest_ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
    try:
        host = host_ctx.new_page()
        host.goto(server + "/")
        host.fill("#name", "Asha")
        host.select_option("#preset", "classic")
        host.select_option("#room-level", "random")
        host.select_option("#length", "d1")
        host.click("#custom summary")
        host.select_option("#opt-must_trump", "true")
        host.click("#create-room")
        expect(host).to_have_url(TABLE_URL(server))
        invite = host.locator("#invite-link").input_value()
        assert invite == host.url
        expect(host.locator('.seat-row[data-seat="0"]')).to_contain_text("Asha")

        guest = guest_ctx.new_page()
        guest.goto(invite)
        guest.fill("#name", "Ravi")
        guest.click("#sit-2")
        expect(guest.locator('.seat-row[data-seat="2"]')).to_contain_text("you")
        expect(host.locator('.seat-row[data-seat="2"]')).to_contain_text("Ravi")

        host.click("#fill-bots")
        expect(host.locator(".seat-row .tag.bot")).to_have_count(2)
        host.click("#start")
        for page in (host, guest):
            expect(page.locator(HAND)).to_have_count(13)
        # Partners: each sees the other at the top of the table.
        expect(host.locator(".seat.me .seat-name")).to_have_text("Asha")
        expect(guest.locator(".seat.me .seat-name")).to_have_text("Ravi")
        guest.click("#show-rules")
        expect(guest.locator('#rules-panel tr[data-option="must_trump"] .value')).to_have_text(
            "yes"
        )

        pages = (host, guest)
        for _ in range(3000):
            if all(p.locator("#result").count() for p in pages):
                break
            moved = False
            for p in pages:
                if p.locator(LEGAL).count():
                    play_card(p)
                    moved = True
            if not moved:
                host.wait_for_timeout(20)
        for p in pages:
            expect(p.locator("#result")).to_be_visible()
            expect(p.locator(HAND)).to_have_count(0)
            # A one-deal match: over after it.
            expect(p.locator("#match-over")).to_be_visible()
    finally:
        host_ctx.close()
        guest_ctx.close()


def test_a_click_in_the_room_is_kept_when_a_seat_is_taken_meanwhile(
    context: BrowserContext, server: str
) -> None:
    """The room redraws only what changed: a press on *Fill with bots* while somebody sits
    down ends in a click on the same button (CI once lost it when the whole room was drawn
    anew between the press and the release)."""
    host = context.new_page()
    host.goto(server + "/")
    host.fill("#name", "Asha")
    host.select_option("#room-level", "random")
    host.select_option("#length", "d1")
    host.click("#create-room")
    expect(host).to_have_url(TABLE_URL(server))
    code = host.url.rsplit("/", 1)[1]
    box = host.locator("#fill-bots").bounding_box()
    assert box is not None
    host.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    host.mouse.down()
    api(server, "POST", f"/api/tables/{code}/seats/2", {"name": "Ravi"})
    expect(host.locator('.seat-row[data-seat="2"]')).to_contain_text("Ravi")
    host.mouse.up()
    expect(host.locator(".seat-row .tag.bot")).to_have_count(2)
    expect(host.locator('.seat-row[data-seat="2"]')).to_contain_text("Ravi")


def test_a_reload_keeps_the_seat(context: BrowserContext, server: str) -> None:
    page = context.new_page()
    play_now(page, server, "Meera")
    code = page.url.rsplit("/", 1)[1]
    token = page.evaluate(f"localStorage.getItem('hukum.token.{code}')")
    assert isinstance(token, str) and len(token) == 32
    for _ in range(2):
        assert my_turn_or_over(page)
        play_card(page)
    assert my_turn_or_over(page)
    cards = page.locator(HAND).evaluate_all("cs => cs.map(c => c.dataset.card)")
    page.reload()
    expect(page.locator(HAND)).to_have_count(len(cards))
    assert page.locator(HAND).evaluate_all("cs => cs.map(c => c.dataset.card)") == cards
    expect(page.locator(".seat.me .seat-name")).to_have_text("Meera")
    assert my_turn_or_over(page)
    play_card(page)


def test_the_narrow_screen_shows_the_whole_hand(browser: Browser, server: str) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
    try:
        page = ctx.new_page()
        play_now(page, server, "Dev")
        cards = page.locator(HAND)
        expect(cards).to_have_count(13)
        # Each card's drawing, and the part of it not under the next card (where a tap
        # chooses it): the cards overlap as a fan when the row is wider than the screen.
        # Found and measured in one call: a locator's evaluate_all finds the cards, then
        # measures them in a second call, by when a bot's card may have redrawn the hand
        # (a card no longer in the page measures 0).
        boxes = page.evaluate(
            "() => [...document.querySelectorAll('#hand .card')].map(c => {"
            " const r = c.querySelector('svg').getBoundingClientRect();"
            " return [r.left, r.right, r.width, c.getBoundingClientRect().width]; })"
        )
        assert len(boxes) == 13
        for left, right, width, shown in boxes:
            assert left >= 0 and right <= 390
            assert width >= 36  # big enough to read
            assert shown >= 20  # and to tap
        expect(page.locator("#board")).to_be_visible()
        assert my_turn_or_over(page)
        play_card(page)
    finally:
        ctx.close()


DEVANAGARI_FONT = "Noto Sans Devanagari"


def test_hindi_is_drawn_with_the_font_the_app_ships(context: BrowserContext, server: str) -> None:
    """Hindi needs no Devanagari font on the machine: the page brings its own (Noto Sans
    Devanagari, OFL, in static/fonts), loads it and draws every Devanagari glyph with it,
    plain and bold, rather than empty boxes or whatever the system has."""
    page = context.new_page()
    page.goto(server + "/")
    page.select_option("#lang", "hi")
    expect(page.locator("#play-now")).to_have_text("अभी खेलें")  # bold, a button
    expect(page.locator(".tagline")).to_contain_text("ब्राउज़र")  # plain text
    # The shipped faces, loaded because the page's text needs them (not asked for here).
    page.wait_for_function(
        """family => ["400", "700"].every(w => [...document.fonts].some(f =>
            f.family.replace(/["']/g, "") === family && f.weight === w
            && f.status === "loaded"))""",
        arg=DEVANAGARI_FONT,
        timeout=5_000,
    )
    for selector in ("#play-now", ".tagline"):
        fonts = fonts_drawing(page, selector)
        drawn = [f for f in fonts if f["familyName"] == DEVANAGARI_FONT]
        assert drawn and all(f["isCustomFont"] for f in drawn), (selector, fonts)
        assert drawn[0]["glyphCount"] >= 5, (selector, fonts)
        # Other fonts drew the rest (spaces, brackets, commas) and no Devanagari: not a
        # box drawn by a Latin font for a letter.
        text = page.locator(selector).inner_text()
        rest = sum(1 for ch in text if not "\u0900" <= ch <= "\u097f")
        others = sum(f["glyphCount"] for f in fonts if f["familyName"] != DEVANAGARI_FONT)
        assert others <= rest, (selector, text, fonts)


#: Every element inside a panel (.panel) outside its panel's box, and the page's width.
OVERFLOWS = """() => {
  const out = [];
  for (const panel of document.querySelectorAll(".panel")) {
    const p = panel.getBoundingClientRect();
    for (const e of panel.querySelectorAll("*")) {
      const r = e.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      const x = v => Math.round(v);
      if (r.left < p.left - 0.5 || r.right > p.right + 0.5
          || r.top < p.top - 0.5 || r.bottom > p.bottom + 0.5)
        out.push(`#${panel.id} ${e.tagName.toLowerCase()}.${e.className} `
          + `[${x(r.left)}, ${x(r.top)}, ${x(r.right)}, ${x(r.bottom)}] outside `
          + `[${x(p.left)}, ${x(p.top)}, ${x(p.right)}, ${x(p.bottom)}]: `
          + (e.textContent || "").slice(0, 40));
    }
  }
  const width = document.documentElement.scrollWidth;
  if (width > innerWidth) out.push(`the page is ${width} px wide in a ${innerWidth} px window`);
  return out;
}"""

WIDTHS = [(390, 844), (1280, 900), (1920, 1080)]


def test_nothing_spills_out_of_its_panel(context: BrowserContext, server: str) -> None:
    """With the tens captured and listed, the score table (and the other panels: the last
    trick, the rules, the fair shuffle) stays inside its panel, in the three languages, on
    a phone, a laptop and a wide screen."""
    page = context.new_page()
    play_now(page, server, "Asha")
    play_to_the_end(page)
    tens = page.locator("#score td.tens .count").all_inner_texts()
    assert sum(int(x) for x in tens) == 4
    problems = []
    for width, height in WIDTHS:
        page.set_viewport_size({"width": width, "height": height})
        for lang in ("en", "hi", "pa"):
            page.select_option("#lang", lang)
            for panel in (None, "#show-last", "#show-rules", "#show-rules"):  # the last: shut
                if panel:
                    page.click(panel)
                problems += [f"{width} px, {lang}: {p}" for p in page.evaluate(OVERFLOWS)]
    assert not problems, "\n".join(problems)


#: The caption of the last trick, the boxes of the cards' indices and suits, and the seats.
CAPTION_AND_MARKS = """() => {
  const box = e => {
    const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  const caption = document.querySelector(".trick-caption");
  const marks = [
    ...document.querySelectorAll("#trick .played svg text, #trick .played svg > g > g"),
  ];
  return {
    caption: caption && box(caption),
    text: caption && caption.textContent,
    board: box(document.querySelector("#board")),
    marks: marks.map(m => [
      m.closest(".played").dataset.card + (m.tagName === "text" ? " index" : " suit"),
      box(m),
    ]),
    seats: [...document.querySelectorAll(".seat")].map(s => [s.textContent.trim(), box(s)]),
  };
}"""


def _overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_the_trick_caption_covers_no_card(context: BrowserContext, server: str) -> None:
    """ "X won the trick" is written where it hides no card's index or suit (nor a seat's
    label), on a phone, a laptop and a wide screen, in the three languages."""
    page = context.new_page()
    play_now(page, server, "Asha")
    play_to_the_end(page)
    expect(page.locator("#trick .played")).to_have_count(4)
    problems = []
    for width, height in WIDTHS:
        page.set_viewport_size({"width": width, "height": height})
        for lang in ("en", "hi", "pa"):
            page.select_option("#lang", lang)
            shown = page.evaluate(CAPTION_AND_MARKS)
            assert shown["caption"], shown
            assert len(shown["marks"]) == 12, shown  # an index and two suits on each card
            caption = shown["caption"]
            where = f"{width} px, {lang}: {shown['text']!r} at {[round(x) for x in caption]}"
            board = shown["board"]
            if not (board[0] <= caption[0] and caption[2] <= board[2]):
                problems.append(f"{where} is not on the board {board}")
            if not (board[1] <= caption[1] and caption[3] <= board[3]):
                problems.append(f"{where} is not on the board {board}")
            for name, mark in shown["marks"] + shown["seats"]:
                if _overlap(caption, mark):
                    problems.append(f"{where} covers {name} at {[round(x) for x in mark]}")
    assert not problems, "\n".join(problems)


def test_the_card_back_shows_no_suit(context: BrowserContext, server: str) -> None:
    """The back of a card (the face-down trump) is a frame and parallel lines: no closed
    shape that could be read as a suit (it was a diamond: ♦)."""
    page = context.new_page()
    page.goto(server + "/")
    shapes = page.evaluate(
        """async () => {
          const { backSVG } = await import("/static/cards.js");
          const box = document.createElement("div");
          box.innerHTML = backSVG();
          const shapes = [...box.querySelectorAll("svg *")];
          return shapes.map(e => [e.tagName, e.getAttribute("d") || ""]);
        }"""
    )
    assert shapes
    for tag, d in shapes:
        assert tag in ("rect", "path", "line", "title"), (tag, d)
        assert "z" not in d.lower(), f"a closed outline on the card back: {d}"


PHONE: ViewportSize = {"width": 390, "height": 844}

#: The boxes of the hand's cards (their drawings), the Play card button, the board and the
#: trick, and how far the page is scrolled.
PHONE_BOXES = """() => {
  const box = e => {
    const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  return {
    scroll: [scrollX, scrollY],
    cards: [...document.querySelectorAll("#hand .card svg")].map(box),
    play: box(document.querySelector("#play-card")),
    board: box(document.querySelector("#board")),
    trick: [...document.querySelectorAll("#trick .played")].map(box),
  };
}"""


def test_a_phone_shows_the_hand_the_play_button_and_the_trick_at_once(
    browser: Browser, server: str
) -> None:
    """At 390×844 the trick, *Play card* and the whole hand are on the screen without
    scrolling: the hand is two rows of cards of one size (issue 40: one row of 13 left
    each card a sliver), each showing its index and at least 44 px wide to tap."""
    ctx = browser.new_context(viewport=PHONE, locale="en-US")
    try:
        page = ctx.new_page()
        play_now(page, server, "Dev")
        assert my_turn_or_over(page)
        for turn in range(2):
            shown = page.evaluate(PHONE_BOXES)
            assert shown["scroll"] == [0, 0]
            boxes = [*shown["cards"], shown["play"], shown["board"], *shown["trick"]]
            for left, top, right, bottom in boxes:
                assert left >= 0 and top >= 0, shown
                assert right <= PHONE["width"] and bottom <= PHONE["height"], shown
            cards = shown["cards"]
            assert len(cards) == 13 - turn
            sizes = {(round(c[2] - c[0]), round(c[3] - c[1])) for c in cards}
            assert len(sizes) == 1, f"cards of different sizes: {sizes}"
            rows = sorted({round(c[1]) for c in cards})
            assert len(rows) == 2, f"not two rows: {rows}"
            pairs = itertools.pairwise(cards)
            steps = [b[0] - a[0] for a, b in pairs if round(a[1]) == round(b[1])]
            assert min(steps) >= 44, f"a card hidden under the next one: {steps}"
            play_card(page)
            assert my_turn_or_over(page)
    finally:
        ctx.close()


#: For each seat label: its text, and for each run of text in it, how many lines it takes.
SEAT_LINES = """() => [...document.querySelectorAll(".seat")].map(seat => {
  const runs = [];
  const walk = document.createTreeWalker(seat, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    if (!n.textContent.trim()) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
    runs.push([n.textContent.trim(), tops.size]);
  }
  return runs;
})"""


def test_ganjifa_seat_labels_do_not_wrap_on_a_phone(browser: Browser, server: str) -> None:
    """The three seats' labels on a phone: the name, "39 cards · 0 taken" and each tag
    are each on one line (none broken across lines), in the three languages."""
    ctx = browser.new_context(viewport=PHONE, locale="en-US")
    try:
        page = ctx.new_page()
        play_ganjifa_now(page, server, "Ravi")
        expect(page.locator(".board .seat")).to_have_count(3)
        for lang in ("en", "hi", "pa"):
            page.select_option("#lang", lang)
            seats = page.evaluate(SEAT_LINES)
            broken = [run for runs in seats for run in runs if run[1] != 1]
            assert not broken, (lang, seats)
    finally:
        ctx.close()


def test_an_absent_player_takes_the_seat_back(context: BrowserContext, server: str) -> None:
    made = api(
        server,
        "POST",
        "/api/tables",
        {"name": "Kiran", "bots": "random", "start_now": True, "turn_timeout": 4},
    )
    page = context.new_page()
    keep_token(page, server, made["code"], made["token"])
    page.goto(server + made["invite"])
    # Nobody plays for seat 0: after the turn timeout a bot plays for it. The timeout is
    # long enough that, once taken back, the seat stays taken until the check below.
    expect(page.locator("#take-back")).to_be_visible(timeout=20_000)
    expect(page.locator('.seat[data-seat="0"] .tag.absent')).to_be_visible()
    page.click("#take-back")
    expect(page.locator("#take-back")).to_be_hidden()


def test_ganjifa_against_two_bots(context: BrowserContext, server: str) -> None:
    page = context.new_page()
    page.goto(server + "/")
    page.fill("#name", "Ravi")
    expect(page.locator("#ganjifa-panel h2")).to_have_text("Dashavatara Ganjifa")
    # Ganjifa's own computer players (GET /api/rules), with no solver-backed expert.
    expect(page.locator("#g-level option")).to_have_text(["Beginner", "Good", "Strong"])
    page.select_option("#g-time", "night")
    page.select_option("#g-level", "random")
    page.click("#play-ganjifa")
    expect(page).to_have_url(TABLE_URL(server))
    hand = page.locator(HAND)
    expect(hand).to_have_count(40)  # G-4
    expect(page.locator("#hand .card.round")).to_have_count(40)
    expect(page.locator("#trump")).to_contain_text("Krishna")  # night (G-5)
    expect(page.locator(".board .seat")).to_have_count(3)
    game = page.locator(".game")
    led_dukal = tried_wrong = False
    turns = 0
    while my_turn_or_over(page):
        n = hand.count()
        phase = game.get_attribute("data-phase")
        turns += 1
        if turns == 5:
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENSHOTS / "ganjifa.png"), animations="disabled")
        if phase == "answer":
            # Someone led a Dukal: give up exactly k cards (G-9).
            k = int(game.get_attribute("data-need") or "0")
            legal = page.locator(LEGAL)
            for i in range(k):
                legal.nth(i).click()
            expect(page.locator("#hand .card.selected")).to_have_count(k)
            page.click("#play-card")
            expect_hand(page, n - k)
            continue
        chips = page.locator("#dukals .dukal-chip")
        if phase == "lead" and not led_dukal and chips.count():
            # A card that makes no Dukal with the one chosen is chosen instead of it, alone:
            # the chosen cards are always (part of) a move the rules allow.
            run = (chips.first.get_attribute("data-cards") or "").split()
            page.locator(f'#hand .card[data-card="{run[0]}"]').click()
            other = page.locator(HAND).evaluate_all(
                "(cs, suit) => cs.map(c => c.dataset.card).find(c => c.slice(0, 2) !== suit)",
                run[0][:2],
            )
            if other:
                page.locator(f'#hand .card[data-card="{other}"]').click()
                expect(page.locator("#hand .card.selected")).to_have_count(1)
                expect(page.locator(f'#hand .card[data-card="{other}"]')).to_have_class(
                    re.compile(r"\bselected\b")
                )
                expect(page.locator("#play-card")).to_have_text("Play card")
                expect(page.locator("#play-card")).to_be_enabled()
            chips.first.click()
            k = page.locator("#hand .card.selected").count()
            assert k >= 3
            expect(page.locator("#play-card")).to_contain_text("Dukal")
            page.click("#play-card")
            expect_hand(page, n - k)
            led_dukal = True
            continue
        dimmed = page.locator("#hand .card.dimmed")
        if phase == "follow" and not tried_wrong and dimmed.count():
            # Not chosen; the page says what G-7 asks instead.
            dimmed.first.click(force=True)
            expect(page.locator("#message")).to_contain_text(
                re.compile(r"^You (must follow|hold no) ")
            )
            expect(page.locator("#hand .card.selected")).to_have_count(0)
            expect(page.locator("#play-card")).to_be_disabled()
            expect(hand).to_have_count(n)
            tried_wrong = True
        page.locator(LEGAL).first.click()
        expect(page.locator("#hand .card.selected")).to_have_count(1)
        page.click("#play-card")
        expect_hand(page, n - 1)
    expect(hand).to_have_count(0)
    # The winner's cards first, then the others' (as Outcome.describe), not in seat order.
    expect(page.locator("#result .why")).to_have_text(
        re.compile(r"^\d+ cards( each)?(; .+ has \d+)?$")
    )
    captured = page.locator("#score td.captured").all_inner_texts()
    assert sum(int(x) for x in captured) == 120  # G-10
    expect(page.locator("#match-over")).to_be_visible()
    page.click("#show-last")
    expect(page.locator("#last-trick li.winner")).to_have_count(1)
    page.click("#verify")
    expect(page.locator("#verify-hash")).to_contain_text("matches")
    expect(page.locator("#verify-hands li")).to_have_count(3)


class Socket:
    """The page's WebSocket through the test: every message passes (and is noted), the
    next move can be held back instead of reaching the server, and the test can send the
    page messages of its own as if from the server."""

    def __init__(self, page: Page) -> None:
        self.moves: list[dict[str, Any]] = []
        """Every move the page sent."""
        self.answers: list[dict[str, Any]] = []
        """Every ack and error the server sent."""
        self.hold = False
        self.held: list[dict[str, Any]] = []
        self.routes: list[WebSocketRoute] = []
        page.route_web_socket(re.compile(r"/ws/"), self._route)

    def _route(self, ws: WebSocketRoute) -> None:
        upstream = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "move":
                self.moves.append(data)
                if self.hold:
                    self.hold = False
                    self.held.append(data)
                    return
            upstream.send(message)

        def from_server(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") in ("ack", "error"):
                self.answers.append(data)
            ws.send(message)

        ws.on_message(from_page)
        upstream.on_message(from_server)
        self.routes.append(ws)

    def send(self, message: dict[str, Any]) -> None:
        """A message to the page as if from the server."""
        self.routes[-1].send(json.dumps(message))

    def settle(self, page: Page) -> None:
        """Wait until every move the page sent has its answer (a second move sent by mistake
        gets one too: its error)."""
        for _ in range(250):
            refs = {a.get("ref") for a in self.answers}
            if all(m.get("ref") in refs for m in self.moves if m not in self.held):
                return
            page.wait_for_timeout(20)
        raise AssertionError(f"unanswered moves: {self.moves}, answers: {self.answers}")


def test_one_click_one_move(context: BrowserContext, server: str) -> None:
    """A double click on *Play card*, or Enter pressed twice, sends one move: no second
    move refused with "not your turn" (the page sends nothing while a move awaits its
    answer). A move the server refuses gives the controls back, with the reason."""
    page = context.new_page()
    socket = Socket(page)
    play_now(page, server, "Asha")
    hand = page.locator(HAND)
    assert my_turn_or_over(page)
    n = hand.count()
    page.locator(LEGAL).first.click()
    page.dblclick("#play-card")
    expect_hand(page, n - 1)
    socket.settle(page)
    assert len(socket.moves) == 1, socket.moves
    expect(page.locator("#message")).to_have_count(0)

    assert my_turn_or_over(page)
    n = hand.count()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#hand .card.selected.legal")).to_have_count(1)
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    expect_hand(page, n - 1)
    socket.settle(page)
    assert len(socket.moves) == 2, socket.moves
    expect(page.locator("#message")).to_have_count(0)

    # The server refuses the next move (here the test answers for it): the card stays
    # chosen, the page says why in its own words and the move can be sent again.
    assert my_turn_or_over(page)
    n = hand.count()
    socket.hold = True
    page.locator(LEGAL).first.click()
    page.click("#play-card")
    expect(page.locator("#play-card")).to_be_disabled()  # awaiting the answer
    assert len(socket.held) == 1
    refusal = {
        "code": "illegal_move",
        "message": "seat 0 must follow ♠ (M-8)",
        "rule_ids": ["M-8"],
    }
    socket.send({"type": "error", "ref": socket.held[0]["ref"], "error": refusal})
    message = page.locator("#message")
    expect(message).to_have_text("That move is not allowed (M-8).")
    expect(message).to_have_attribute("data-code", "illegal_move")
    expect(page.locator("#hand .card.selected")).to_have_count(1)
    expect(page.locator("#play-card")).to_be_enabled()
    page.click("#play-card")
    expect_hand(page, n - 1)
    expect(message).to_have_count(0)


def test_a_card_cannot_be_chosen_when_it_is_not_your_turn(
    context: BrowserContext, server: str
) -> None:
    """Another person's turn: a click on a card (or the arrow keys, or Enter) chooses
    nothing and sends nothing; the page says whom we wait for, by name and in the page's
    language, as it does for the server's refusals (which carry the seat to move and the
    rule ids, never shown as 0-based seats)."""
    names = ["Asha", "Ravi", "Meera", "Dev"]
    made = api(
        server, "POST", "/api/tables", {"name": names[0], "bots": "random", "turn_timeout": None}
    )
    code = made["code"]
    for seat in (1, 2, 3):  # people who never come: the turn waits for them
        api(server, "POST", f"/api/tables/{code}/seats/{seat}", {"name": names[seat]})
    api(server, "POST", f"/api/tables/{code}/start", {"token": made["token"]})
    page = context.new_page()
    socket = Socket(page)
    keep_token(page, server, code, made["token"])
    page.goto(server + made["invite"])
    hand = page.locator(HAND)
    expect(hand).to_have_count(13)
    game = page.locator(".game")
    if game.get_attribute("data-turn") == "0":
        play_card(page)
    expect(game).not_to_have_attribute("data-turn", "0")
    turn = int(game.get_attribute("data-turn") or "")
    sent = len(socket.moves)

    message = page.locator("#message")
    expect(hand.first).to_be_disabled()  # aria-disabled: a click says why
    hand.first.click(force=True)
    expect(message).to_have_text(f"Wait for {names[turn]} to play.")
    expect(page.locator("#hand .card.selected")).to_have_count(0)
    expect(page.locator("#play-card")).to_be_disabled()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#hand .card.selected")).to_have_count(0)
    page.keyboard.press("Enter")
    page.wait_for_timeout(100)
    assert len(socket.moves) == sent

    # Hindi, wholly: the message follows the language, with the player's name.
    page.select_option("#lang", "hi")
    expect(message).to_have_text(f"{names[turn]} की चाल की प्रतीक्षा करें।")

    # The server's refusals in the page's words: named people, the rule id, no seat number.
    socket.send(
        {
            "type": "error",
            "ref": None,
            "error": {"code": "not_your_turn", "message": f"seat {turn} is to move", "turn": turn},
        }
    )
    expect(message).to_have_text(f"{names[turn]} की चाल की प्रतीक्षा करें।")
    expect(message).to_have_attribute("data-code", "not_your_turn")
    refusal = {"code": "illegal_move", "message": "seat 0 must follow ♦ (M-8)", "rule_ids": ["M-8"]}
    socket.send({"type": "error", "ref": None, "error": refusal})
    expect(message).to_have_text("यह चाल नियमों के विरुद्ध है (M-8)।")
    expect(message).to_have_attribute("data-rule-ids", "M-8")
    page.select_option("#lang", "en")
    expect(message).to_have_text("That move is not allowed (M-8).")


def _tell_over(page: Page, seen: list[dict[str, Any]], outcome: dict[str, Any]) -> None:
    """Send the page the deal it shows, ended with ``outcome``, as a ``state`` message."""
    routes = seen[0]["routes"]
    last = seen[-1]
    table = next(m["table"] for m in reversed(seen[1:]) if m.get("table"))
    view = {**last["view"], "phase": "over", "turn": None, "outcome": outcome}
    message = {"type": "state", "event": last.get("event", 0), "table": table, "view": view}
    routes[-1].send(json.dumps(message))


def test_one_name_per_bot_level_and_the_winners_figures_first(
    context: BrowserContext, server: str
) -> None:
    """The computer players are called by the names the server gave them, each its own,
    their level by the lobby's level names beside them (not "random bot (2)"), and a result
    reads as the command line's (Outcome.describe): the winner's figures first, tens
    named."""
    from hukum.mindi.outcome import Outcome

    page = context.new_page()
    seen = route_views(page)
    play_now(page, server, "Asha")  # against the Beginner level (random)
    seats = api(server, "GET", f"/api/tables/{page.url.rsplit('/', 1)[1]}")["seats"]
    assert len({s["name"] for s in seats}) == 4
    for seat in (1, 2, 3):
        label = page.locator(f'.board .seat[data-seat="{seat}"]')
        expect(label.locator(".seat-name")).to_have_text(seats[seat]["name"])
        expect(label.locator(".tag.bot")).to_have_text("Beginner")
    expect(page.locator(".board")).not_to_contain_text("bot")
    page.select_option("#lang", "hi")
    expect(page.locator('.board .seat[data-seat="1"] .seat-name')).to_have_text(seats[1]["name"])
    expect(page.locator('.board .seat[data-seat="1"] .tag.bot')).to_have_text("नौसिखिया")
    page.select_option("#lang", "en")
    assert my_turn_or_over(page)  # the bots wait for me: nothing comes after the test's state

    outcome = Outcome(1, "win", (2, 2), (6, 7), "tricks", 4, 1)
    data = {
        "winner": 1,
        "kind": "win",
        "tens": [2, 2],
        "tricks": [6, 7],
        "decided_by": "tricks",
        "highest_trick": 4,
        "points": 1,
        "text": outcome.describe(),
    }
    _tell_over(page, seen, data)
    result = page.locator("#result")
    expect(result.locator("strong")).to_have_text("Opponents win")
    expect(result.locator(".why")).to_have_text("2–2 tens, won on tricks 7–6")
    # The same words and order as `hukum replay` and `hukum solve` print.
    assert outcome.describe() == "Team 1 wins: " + result.locator(".why").inner_text()


def test_ganjifa_results_put_the_winner_first(context: BrowserContext, server: str) -> None:
    """Ganjifa's result names the winner with the winner's cards first, then each other
    player's, highest first: as Outcome.describe says it (not 39–33–48 in seat order)."""
    from hukum.ganjifa.outcome import Outcome

    page = context.new_page()
    seen = route_views(page)
    play_ganjifa_now(page, server, "Ravi")
    seats = api(server, "GET", f"/api/tables/{page.url.rsplit('/', 1)[1]}")["seats"]
    one, two = seats[1]["name"], seats[2]["name"]
    expect(page.locator('.board .seat[data-seat="2"] .seat-name')).to_have_text(two)
    assert my_turn_or_over(page)  # the bots wait for me: nothing comes after the test's state
    outcome = Outcome.of((39, 33, 48))
    assert outcome.describe() == "Seat 2 wins with 48 cards; seat 0 has 39, seat 1 has 33"
    _tell_over(page, seen, {"winners": [2], "scores": [39, 33, 48], "text": outcome.describe()})
    result = page.locator("#result")
    expect(result.locator("strong")).to_have_text(f"{two} wins")
    expect(result.locator(".why")).to_have_text(f"48 cards; Ravi has 39, {one} has 33")
    _tell_over(page, seen, {"winners": [0, 2], "scores": [45, 30, 45], "text": ""})
    expect(result.locator("strong")).to_have_text(f"Shared win: you, {two}")
    expect(result.locator(".why")).to_have_text(f"45 cards each; {one} has 30")


def test_the_lobby_keeps_the_options_and_says_what_is_wrong(
    context: BrowserContext, server: str
) -> None:
    """Six players switch the pack to 48 cards, saying so; a rules error reads for people
    (no Python values, no markup) and leaves every chosen option as it was."""
    page = context.new_page()
    page.goto(server + "/")
    page.click("#custom summary")
    for text in page.locator("#custom-options small").all_inner_texts():
        assert "*" not in text and "None" not in text, text
    expect(page.locator("#opt-deck")).to_have_value("52")
    page.select_option("#opt-players", "6")
    expect(page.locator("#opt-deck")).to_have_value("48")
    expect(page.locator("#deck-note")).to_have_text(
        "6 players play with 48 cards (the four 2s removed): the pack is now 48 cards."
    )
    page.select_option("#opt-trump", '"band"')
    page.select_option("#length", "d4")
    page.fill("#opt-points", "a, b")
    page.click("#create-room")
    message = page.locator(".lobby .message.error")
    expect(message).to_have_text(
        "Bad rules: points must be three whole numbers, 0 or more, for a win, a mendikot and "
        'a whitewash (e.g. 1, 2, 3), not "a, b"'
    )
    expect(page).to_have_url(server + "/")
    expect(page.locator("#custom")).to_have_attribute("open", "")
    expect(page.locator("#opt-players")).to_have_value("6")
    expect(page.locator("#opt-deck")).to_have_value("48")
    expect(page.locator("#opt-trump")).to_have_value('"band"')
    expect(page.locator("#opt-points")).to_have_value("a, b")
    expect(page.locator("#length")).to_have_value("d4")
