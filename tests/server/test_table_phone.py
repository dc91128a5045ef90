"""The table on a phone (issue 40): computer players with names of their own, hands whose
every card can be read and tapped, a Ganjifa Dukal whose cards all show, a three-seat board
with no empty half, and a seat a computer plays said once.

The browser tests run the real server and chromium (tests/server/web.py); with
HUKUM_SCREENSHOTS=1 the README's screenshot of Ganjifa on a phone is saved in
docs/screenshots (Mindi's, phone.png, is test_motion's).
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from playwright.sync_api import Browser, Page, ViewportSize, expect

from hukum.server.app import create_app
from hukum.server.tables.seats import BOT_NAMES, bot_name
from tests.server.web import (
    HAND,
    SCREENSHOTS,
    api,
    keep_token,
    my_turn_or_over,
    play_card,
    play_ganjifa_now,
    play_needed,
    play_now,
    play_now_table,
    route_views,
)

PHONE: ViewportSize = {"width": 390, "height": 844}

#: The smallest width of a card's part a finger taps (the part no other card covers).
TAP = 44


def test_a_computer_player_is_named_by_its_room_and_seat() -> None:
    """The same room and seat give the same name (every server, every replay); the seats
    of a room get names of their own, never a name a player at the table already has."""
    assert bot_name("abc234", 1, []) == bot_name("abc234", 1, ["Asha"])
    assert bot_name("abc234", 1, []) in BOT_NAMES
    taken: list[str] = []
    for seat in range(8):
        taken.append(bot_name("abc234", seat, taken))
    assert len({name.casefold() for name in taken}) == 8
    # A person's name (in any case) is never given to a computer player at their table.
    first = bot_name("abc234", 1, [])
    assert bot_name("abc234", 1, [first.upper()]) != first
    # Short enough for a seat's label on a phone.
    assert all(len(name) <= 6 for name in BOT_NAMES)
    # Rooms differ: over many rooms every name is given to seat 1.
    assert {bot_name(f"room{i}", 1, []) for i in range(400)} == set(BOT_NAMES)


def test_the_names_are_the_tables_and_survive_a_restart(tmp_path: Path) -> None:
    """The table's JSON names each computer player; the names are distinct, not the
    person's, and the same when a restarted server reads the table back from its log."""
    url = f"sqlite:///{tmp_path / 'names.db'}"
    body = {"name": "Asha", "bots": "random", "start_now": True}
    with TestClient(create_app(url, bot_delay=0)) as first:
        made = first.post("/api/tables", json=body).json()
        seats = first.get(f"/api/tables/{made['code']}").json()["seats"]
    names = [s["name"] for s in seats]
    assert names[0] == "Asha" and [s["kind"] for s in seats[1:]] == ["bot"] * 3
    assert len(set(names)) == 4 and set(names[1:]) <= set(BOT_NAMES)
    with TestClient(create_app(url, bot_delay=0)) as second:
        again = second.get(f"/api/tables/{made['code']}").json()["seats"]
    assert [s["name"] for s in again] == names


#: Each card of the hand: its face's box, the part of it a tap reaches (up to the next
#: card's box in its row), and whether its index (the corner's rank and suit) is on top.
HAND_BOXES = """() => [...document.querySelectorAll("#hand .card")].map((c, i, all) => {
  const face = c.querySelector("svg").getBoundingClientRect();
  const box = c.getBoundingClientRect();
  const next = all[i + 1]?.getBoundingClientRect();
  const inRow = next && Math.abs(next.top - box.top) < 2;
  const right = inRow ? Math.min(face.right, next.left) : face.right;
  const y = face.top + face.width * 0.3;
  const corner = document.elementFromPoint(face.left + face.width * 0.14, y);
  const middle = document.elementFromPoint((face.left + right) / 2, y);
  return {card: c.dataset.card, left: face.left, top: face.top, right: face.right,
          bottom: face.bottom, tap: right - face.left,
          index: c.contains(corner) && c.contains(middle)};
})"""


def _check_hand(page: Page, cards: int, rows: int) -> list[dict[str, Any]]:
    """The hand's ``cards`` cards lie in ``rows`` rows on the screen, each at least
    :data:`TAP` px wide where it can be tapped, its index on top; the boxes."""
    expect(page.locator(HAND)).to_have_count(cards)
    boxes: list[dict[str, Any]] = page.evaluate(HAND_BOXES)
    assert len(boxes) == cards
    for b in boxes:
        assert b["left"] >= 0 and b["right"] <= PHONE["width"], b
        assert b["tap"] >= TAP, b
        assert b["index"], b
    assert len({round(b["top"]) for b in boxes}) == rows, boxes
    return boxes


def test_a_phone_hand_is_readable_and_tappable(browser: Browser, server: str) -> None:
    """On a phone, Mindi's 13 cards lie in two rows, each card's rank and suit showing and
    at least 44 px to tap; 8 cards (six players) and 6 (eight players) in one row. The
    computer players have names of their own, their level a tag beside them."""
    ctx = browser.new_context(viewport=PHONE, locale="en-US")
    try:
        page = ctx.new_page()
        seen = route_views(page)
        play_now(page, server, "Dev")
        code = page.url.rsplit("/", 1)[1]
        seats = api(server, "GET", f"/api/tables/{code}")["seats"]
        names = [page.locator(f'.board .seat[data-seat="{s}"] .seat-name') for s in (1, 2, 3)]
        for seat, name in zip((1, 2, 3), names, strict=True):
            expect(name).to_have_text(seats[seat]["name"])
            tag = page.locator(f'.board .seat[data-seat="{seat}"] .seat-head .tag.bot')
            expect(tag).to_have_text("Beginner")
            # The whole name shows (not "Good compu…").
            assert name.evaluate("e => e.scrollWidth <= e.clientWidth")
        assert len({n.inner_text() for n in names}) == 3
        page.select_option("#lang", "hi")
        expect(names[0]).to_have_text(seats[1]["name"])  # the same name in every language
        expect(page.locator('.board .seat[data-seat="1"] .tag.bot')).to_have_text("नौसिखिया")
        page.select_option("#lang", "en")
        assert my_turn_or_over(page)
        # The longest names there are, at every seat and in both languages: shown whole.
        longest = sorted(BOT_NAMES, key=len)[-3:]
        last = seen[-1]
        table = next(m["table"] for m in reversed(seen[1:]) if m.get("table"))
        named = [{**s, "name": longest[i - 1]} if i else s for i, s in enumerate(table["seats"])]
        state = {"type": "state", "event": last.get("event", 0), "view": last["view"]}
        state["table"] = {**table, "seats": named}
        seen[0]["routes"][-1].send(json.dumps(state))
        expect(names[2]).to_have_text(longest[2])
        for lang in ("en", "hi"):
            page.select_option("#lang", lang)
            for name in names:
                assert name.evaluate("e => e.scrollWidth <= e.clientWidth"), name.inner_text()
        page.select_option("#lang", "en")
        # A room made before computer players had names ("random bot" in its log): they are
        # called by the level, told apart by seat, as they were.
        older = [{**s, "name": "random bot"} if i else s for i, s in enumerate(table["seats"])]
        state["table"] = {**table, "seats": older}
        seen[0]["routes"][-1].send(json.dumps(state))
        for seat, name in zip((1, 2, 3), names, strict=True):
            expect(name).to_have_text(f"Beginner computer ({seat + 1})")
        _check_hand(page, 13, 2)
        play_card(page)
        assert my_turn_or_over(page)
        _check_hand(page, 12, 2)
        for players, deck, cards in ((6, 48, 8), (8, 48, 6)):
            made = play_now_table(server, options={"players": players, "deck": deck})
            keep_token(page, server, made["code"], made["token"])
            page.goto(server + made["invite"])
            assert my_turn_or_over(page)
            _check_hand(page, cards, 1)
    finally:
        ctx.close()


def test_a_ganjifa_hand_on_a_phone_is_rows_of_whole_cards(browser: Browser, server: str) -> None:
    """Ganjifa's 40 round cards: rows of whole cards, each at least 44 px wide; as many
    rows as the screen's width needs, and the hand and *Play* on the screen at once."""
    ctx = browser.new_context(viewport=PHONE, locale="en-US")
    try:
        page = ctx.new_page()
        play_ganjifa_now(page, server, "Ravi")
        assert my_turn_or_over(page)
        boxes = _check_hand(page, 40, 5)  # 8 cards of 44 px and their gaps in 370 px
        assert all(b["tap"] >= b["right"] - b["left"] for b in boxes)  # whole cards
        assert boxes[-1]["bottom"] <= PHONE["height"]
        play_box = page.locator("#play-card").bounding_box()
        assert play_box is not None and play_box["y"] >= 0
    finally:
        ctx.close()


#: The boxes of the board, of each seat's label and its two lines, and of the cards on the
#: board.
GANJIFA_BOARD = """() => {
  const box = e => {
    const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  return {
    board: box(document.querySelector("#board")),
    seats: [...document.querySelectorAll("#board .seat")].map(s => ({
      seat: Number(s.dataset.seat), box: box(s),
      head: box(s.querySelector(".seat-head")), info: box(s.querySelector(".seat-info")),
    })),
    played: [...document.querySelectorAll("#trick .g-fan svg")].map(box),
  };
}"""


def test_the_ganjifa_board_on_a_phone(browser: Browser, server: str) -> None:
    """Three seats on a phone: a board no taller than it is wide by a third (not a square
    whose lower half is empty), each label two lines (the name and level; the cards and
    tags) in both languages, the two at the top alike."""
    ctx = browser.new_context(viewport=PHONE, locale="en-US")
    try:
        page = ctx.new_page()
        play_ganjifa_now(page, server, "Ravi")
        for lang in ("en", "hi"):
            page.select_option("#lang", lang)
            shown = page.evaluate(GANJIFA_BOARD)
            left, top, right, bottom = shown["board"]
            assert bottom - top <= 0.8 * (right - left), shown
            others = [s for s in shown["seats"] if s["seat"] != 0]
            for s in others:
                head, info = s["head"], s["info"]
                # The name and level on one line, the facts and tags on the next: no more.
                assert head[3] <= info[1] + 1, (lang, s)
                assert info[3] - info[1] < 1.9 * (head[3] - head[1]), (lang, s)
            heights = [s["box"][3] - s["box"][1] for s in others]
            assert max(heights) - min(heights) < 2, (lang, shown)
        page.select_option("#lang", "en")
        for _ in range(3):  # a few tricks in: cards on the board
            assert my_turn_or_over(page)
            play_needed(page)
        assert my_turn_or_over(page)
        page.wait_for_function("() => document.getAnimations().length === 0")
        # The cards on the board lie clear of the seats' labels.
        shown = page.evaluate(GANJIFA_BOARD)
        assert shown["played"], shown
        for card in shown["played"]:
            for s in shown["seats"]:
                b = s["box"]
                apart = card[2] <= b[0] or b[2] <= card[0] or card[3] <= b[1] or b[3] <= card[1]
                assert apart, (card, s)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "ganjifa-phone.png"), animations="disabled")
    finally:
        ctx.close()


#: Each card of each move on the board: its face's box and its rank's.
PLAYED = """() => [...document.querySelectorAll("#trick .played")].map(p => ({
  seat: Number(p.dataset.seat), move: p.dataset.move,
  cards: [...p.querySelectorAll(".g-fan svg")].map(svg => {
    const face = svg.getBoundingClientRect();
    const rank = svg.querySelector("text").getBoundingClientRect();
    return {left: face.left, right: face.right, rank: [rank.left, rank.right]};
  }),
}))"""


def test_a_dukal_on_the_table_shows_its_cards(browser: Browser, server: str) -> None:
    """A Dukal of 3 led by another player: its three cards on the board, each one's emblem
    and rank uncovered by the next (not a stack showing the top card)."""
    ctx = browser.new_context(viewport=PHONE, locale="en-US")
    try:
        page = ctx.new_page()
        seen = route_views(page)
        play_ganjifa_now(page, server, "Ravi")
        assert my_turn_or_over(page)  # the bots wait for me: nothing comes after this
        routes = seen[0]["routes"]
        last = seen[-1]
        table = next(m["table"] for m in reversed(seen[1:]) if m.get("table"))
        dukal = ["Ma1", "Ma2", "Ma3"]
        trick = [{"seat": 1, "move": "dukal " + " ".join(dukal), "cards": dukal}]
        view = {**last["view"], "phase": "answer", "trick": trick, "dukal": 3, "need": 3}
        message = {"type": "state", "event": last.get("event", 0), "table": table, "view": view}
        routes[-1].send(json.dumps(message))
        expect(page.locator('#trick .played[data-seat="1"] .g-fan')).to_have_count(3)
        expect(page.locator(".trick-caption")).to_contain_text("Dukal of 3")
        page.wait_for_function("() => document.getAnimations().length === 0")  # moved in
        played = page.evaluate(PLAYED)
        cards = played[0]["cards"]
        width = cards[0]["right"] - cards[0]["left"]
        assert width >= 30, played
        for a, b in itertools.pairwise(cards):
            assert b["left"] >= a["rank"][1], played  # the rank shows
            assert b["left"] - a["left"] >= 0.6 * width, played  # and the emblem
        # The Dukal lies on the board.
        board = page.locator("#board").bounding_box()
        assert board is not None
        assert cards[0]["left"] >= board["x"] and cards[-1]["right"] <= board["x"] + board["width"]
    finally:
        ctx.close()


#: Records, as the page draws, whether the status ever said "Your turn" (or showed the
#: game's buttons, or a chosen card) while a computer played this seat, how often the page
#: says so at once, and whether it told why a card was not chosen.
AWAY_WATCH = """() => {
  window.__away = {both: 0, said: 0, told: false};
  const check = () => {
    if (!document.querySelector("#take-back")) return;
    const turn = "#your-turn, #play-card, #hint, #hand .card.selected";
    if (document.querySelector(turn)) window.__away.both++;
    const text = document.querySelector("#game").innerText;
    const said = text.split("a computer is playing your seat").length - 1;
    window.__away.said = Math.max(window.__away.said, said);
    const told = document.querySelector("#message")?.innerText ?? "";
    if (told.includes("seat back to play")) window.__away.told = told;
  };
  const all = {subtree: true, childList: true, characterData: true};
  new MutationObserver(check).observe(document.body, all);
}"""


def test_away_is_one_state_said_once(browser: Browser, server: str) -> None:
    """A seated person who was slow: a computer plays their seat, and the page says so
    once, with *Take my seat back*: never "Your turn", *Play card* or a hint at the same
    time, and no card of the hand may be chosen, until the seat is taken back."""
    made = api(
        server,
        "POST",
        "/api/tables",
        # A match of 20 deals: the computers do not finish it while the test looks on.
        {
            "name": "Kiran",
            "bots": "random",
            "start_now": True,
            "turn_timeout": 3,
            "options": {"deals": 20, "target": None},
        },
    )
    ctx = browser.new_context(viewport=PHONE, locale="en-US")
    try:
        page = ctx.new_page()
        keep_token(page, server, made["code"], made["token"])
        page.goto(server + made["invite"])
        page.evaluate(AWAY_WATCH)
        expect(page.locator("#take-back")).to_be_visible(timeout=20_000)
        # The bots and the computer in this seat play some tricks round.
        page.wait_for_function("() => document.querySelectorAll('#hand .card').length <= 10")
        # A card clicked is not chosen; the page says why (until the next move clears it).
        # (clicked from the page: the hand is redrawn as the computer plays)
        page.evaluate("() => document.querySelector('#hand .card').click()")
        page.wait_for_function("() => window.__away.told")
        watched = page.evaluate("() => window.__away")
        assert watched == {
            "both": 0,
            "said": 1,
            "told": "Take your seat back to play a card.",
        }, watched
        # The seat's tag says it shortly (the status says it in full).
        expect(page.locator('.seat[data-seat="0"] .tag.absent')).to_have_text("away")
        page.click("#take-back")
        expect(page.locator("#take-back")).to_be_hidden()
        expect(page.locator("#away")).to_have_count(0)
        assert my_turn_or_over(page)
        expect(page.locator("#your-turn")).to_be_visible()
    finally:
        ctx.close()
