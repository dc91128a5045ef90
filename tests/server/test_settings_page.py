"""Issue 41, preferences, in a real browser (tests/server/web.py): a first visit is a guest at
once, named in the header; the settings page (/settings) changes the language and the card
style at once, they survive a reload and follow the player to a second device (a second
browser context with the same session cookie); a display name with markup shows as text;
on a phone the header stays one row and the settings page does not scroll sideways."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Dialog, Page, expect

from tests.server.test_front_modules import table
from tests.server.web import HAND, LEGAL, play_card, route_views

STRINGS = {lang: table(lang)[1] for lang in ("en", "hi", "pa")}
GUEST = re.compile(r"^Guest [2-9A-HJ-NP-Z]{4}$")
#: Four-colour cards: ♦ blue, ♣ green (style.css); two-colour: ♦ red, ♣ black.
FOUR = {"D": "rgb(29, 95, 196)", "C": "rgb(27, 122, 50)"}
TWO = {"D": "rgb(200, 16, 46)", "C": "rgb(26, 26, 26)"}


def saved(page: Page) -> Any:
    """What the page's next PATCH /api/me answers (the change kept on the server)."""
    return page.expect_response(
        lambda r: r.url.endswith("/api/me") and r.request.method == "PATCH" and r.ok
    )


def expect_suit_fills(page: Page, colours: dict[str, str]) -> None:
    """The settings page's preview draws diamonds and clubs in these colours (waited for:
    the preview is drawn again as the page's preferences arrive)."""
    for suit in "DC":
        expect(page.locator(f"#settings-preview .ink-{suit}").first).to_have_css(
            "fill", colours[suit]
        )


def expect_punjabi_four_colours(page: Page) -> None:
    """The settings page in Punjabi with four-colour cards, as chosen."""
    expect(page.locator("html")).to_have_attribute("lang", "pa")
    expect(page.locator("html")).to_have_attribute("data-cards", "four")
    expect(page.locator(".settings h1")).to_have_text(STRINGS["pa"]["settings.title"])
    expect(page.locator("#set-lang")).to_have_value("pa")
    expect(page.locator("#set-cards")).to_have_value("four")
    expect(page.locator("#lang")).to_have_value("pa")  # the header's menu says the same
    expect_suit_fills(page, FOUR)


def test_a_guest_at_once_and_preferences_that_follow_the_player(
    browser: Browser, context: BrowserContext, server: str
) -> None:
    page = context.new_page()
    page.goto(server + "/")
    expect(page.locator("#me-name")).to_have_text(GUEST)
    expect(page.locator("#nav-me")).to_have_attribute("href", "/account")
    cookie = next(c for c in context.cookies() if c["name"] == "hukum_session")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax"
    assert page.evaluate("document.cookie") == ""  # no script reads the session
    page.click("#nav-settings")
    expect(page).to_have_url(server + "/settings")
    expect(page.locator(".settings h1")).to_have_text("Settings")
    expect_suit_fills(page, TWO)
    with saved(page):
        page.select_option("#set-lang", "pa")
    with saved(page):
        page.select_option("#set-cards", "four")
    expect_punjabi_four_colours(page)
    page.reload()
    expect_punjabi_four_colours(page)
    # The header's speaker is the same sound preference as the settings page's box.
    expect(page.locator("#set-sound")).not_to_be_checked()
    with saved(page):
        page.click("#sound-toggle")
    expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#set-sound")).to_be_checked()

    # A second device of the same player: a browser with nothing kept but the session.
    other = browser.new_context(viewport={"width": 1100, "height": 860}, locale="en-US")
    try:
        other.add_cookies(
            [{"name": cookie["name"], "value": cookie["value"], "url": server, "httpOnly": True}]
        )
        second = other.new_page()
        second.goto(server + "/settings")
        expect_punjabi_four_colours(second)
        expect(second.locator("#me-name")).to_have_text(page.locator("#me-name").inner_text())
        expect(second.locator("#sound-toggle")).to_have_attribute("aria-pressed", "true")
        # A change there reaches the first device at its next reload.
        with saved(second):
            second.select_option("#set-temperature", "warm")
        expect(second.locator("html")).to_have_attribute("data-temperature", "warm")
    finally:
        other.close()
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-temperature", "warm")
    expect(page.locator("#set-temperature")).to_have_value("warm")


def test_a_display_name_with_markup_shows_as_text(context: BrowserContext, server: str) -> None:
    page = context.new_page()
    dialogs: list[str] = []

    def dialog(d: Dialog) -> None:
        dialogs.append(d.message)
        d.dismiss()

    page.on("dialog", dialog)
    page.goto(server + "/settings")
    expect(page.locator("#me-name")).to_have_text(GUEST)
    name = "<img src=x onerror=alert(1)><b>Tara</b>"  # 39 characters: kept whole
    page.fill("#set-name", name)
    with saved(page):
        page.click("#save-name")
    expect(page.locator("#me-name")).to_have_text(name)
    expect(page.locator(".settings .message.ok")).to_have_text("Your name is saved.")
    assert page.locator("header img:not(.brand img), header b").count() == 0
    page.reload()
    expect(page.locator("#me-name")).to_have_text(name)
    expect(page.locator("#set-name")).to_have_value(name)
    # A name of spaces alone is refused, and the name kept.
    page.fill("#set-name", "   ")
    page.click("#save-name")
    expect(page.locator(".settings .message.error")).to_have_text(
        "A display name needs at least one letter."
    )
    expect(page.locator("#me-name")).to_have_text(name)
    assert dialogs == []


def test_offline_a_change_applies_at_once_and_is_saved_when_back(
    context: BrowserContext, server: str
) -> None:
    page = context.new_page()
    page.goto(server + "/settings")
    expect(page.locator("#me-name")).to_have_text(GUEST)
    context.set_offline(True)
    page.select_option("#set-cards", "four")
    expect(page.locator("html")).to_have_attribute("data-cards", "four")
    expect(page.locator("#settings-offline")).to_be_visible()
    with saved(page):
        context.set_offline(False)  # back online: the change kept here is sent
    expect(page.locator("#settings-offline")).to_have_count(0)
    kept = context.request.get(server + "/api/me").json()["player"]["prefs"]
    assert kept["cards"] == "four"


def expect_one_row(page: Page) -> None:
    """The phone's header: every item on one row, inside the screen, the settings' gear a
    finger's target, and the page no wider than the screen."""
    items = "header.top > :not([hidden]):not(.spacer)"
    boxes = page.locator(items).evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return {id: e.id || e.className, top: r.top, bottom: r.bottom, left: r.left,"
        " right: r.right}; })"
    )
    assert len(boxes) == 7, boxes  # brand, How to play, bell, speaker, language, me, gear
    middle = [(b["top"] + b["bottom"]) / 2 for b in boxes]
    assert max(middle) - min(middle) < 8, boxes  # one row
    assert all(b["left"] >= 0 and b["right"] <= 390 for b in boxes), boxes
    header = page.locator("header.top").bounding_box()
    assert header is not None and header["height"] < 70
    gear = page.locator("#nav-settings").bounding_box()
    assert gear is not None and gear["width"] >= 40 and gear["height"] >= 40
    assert page.evaluate("document.documentElement.scrollWidth") == 390


@pytest.mark.parametrize("lang", ["en", "hi", "pa"])
def test_the_header_is_one_row_and_settings_fit_a_phone(
    browser: Browser, server: str, lang: str
) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
    ctx.set_default_timeout(15_000)
    ctx.add_init_script(f"localStorage.setItem('hukum.lang', '{lang}')")
    try:
        page = ctx.new_page()
        page.goto(server + "/settings")
        expect(page.locator("#me-name")).to_have_text(GUEST)
        expect(page.locator(".settings h1")).to_have_text(STRINGS[lang]["settings.title"])
        expect_one_row(page)
        # A long name (40 characters, the most) is cut short in the header, never wider.
        long_name = "Wwwwwwwwww Mmmmmmmmmm Wwwwwwwwww Mmmmmmm"
        page.fill("#set-name", long_name)
        with saved(page):
            page.click("#save-name")
        expect(page.locator("#me-name")).to_have_text(long_name)
        expect_one_row(page)
        page.goto(server + "/")  # the lobby too
        expect(page.locator("#me-name")).to_have_text(long_name)
        expect_one_row(page)
    finally:
        ctx.close()


#: Counts the oscillators the page makes, by their wave (the turn's tone is a sine, the
#: chime of a trick won two triangles), and the cards motion.js moves (``animate``).
WATCH = """
window.__waves = [];
window.__moved = 0;
const make = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () {
  const osc = make.call(this);
  window.__waves.push(osc);
  return osc;
};
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  window.__moved += 1;
  return animate.apply(this, args);
};
"""
TRIANGLES = "window.__waves.filter(o => o.type === 'triangle').length"


def chimes(page: Page) -> int:
    n: int = page.evaluate(f"{TRIANGLES} / 2")
    return n


def choose(page: Page, field: str, value: str) -> None:
    """On /settings: choose ``value`` for preference ``field``, saved on the server."""
    with saved(page):
        page.select_option(f"#set-{field}", value)


def play_now(page: Page, server: str) -> dict[str, Any]:
    """*Play now* from the lobby against beginner bots; the request that made the table."""
    page.goto(server + "/")
    page.fill("#name", "Asha")
    page.select_option("#level", "random")
    with page.expect_request(
        lambda r: r.url.endswith("/api/tables") and r.method == "POST"
    ) as made:
        page.click("#play-now")
    expect(page.locator(HAND).first).to_be_visible()
    body: dict[str, Any] = json.loads(made.value.post_data or "{}")
    return body


def test_a_chime_when_my_side_wins_a_trick_only_with_the_sound_on(
    context: BrowserContext, server: str
) -> None:
    context.add_init_script(WATCH)
    page = context.new_page()
    views = route_views(page)
    page.goto(server + "/settings")
    expect(page.locator("#me-name")).to_have_text(GUEST)
    choose(page, "bot_speed", "fast")
    choose(page, "motion", "reduce")
    # The room is made at the player's speed; with reduced motion no card moves.
    assert play_now(page, server)["bot_speed"] == "fast"
    # Sound off (the default): tricks go by without a chime.
    for _ in range(4):
        page.locator(LEGAL).first.wait_for()
        play_card(page)
    assert chimes(page) == 0
    page.locator(LEGAL).first.wait_for()  # my turn: nothing moves until I play
    with saved(page):
        page.click("#sound-toggle")
    won_before = views[-1]["view"]["tricks_won"][0]
    # Sound on: one chime for each trick my team (seats 0 and 2) wins from now on.
    while True:
        page.locator(f"{LEGAL}, #result").first.wait_for()
        if page.locator("#result").count():
            break
        play_card(page)
    won = views[-1]["view"]["tricks_won"][0] - won_before
    page.wait_for_function(f"{TRIANGLES} === {2 * won}")
    assert chimes(page) == won
    assert page.evaluate("window.__moved") == 0


def test_the_motion_preference_overrides_the_system_and_can_follow_it(
    browser: Browser, server: str
) -> None:
    ctx = browser.new_context(
        viewport={"width": 1100, "height": 860}, locale="en-US", reduced_motion="reduce"
    )
    ctx.set_default_timeout(15_000)
    ctx.add_init_script(WATCH)
    try:
        page = ctx.new_page()
        page.goto(server + "/settings")
        expect(page.locator("#me-name")).to_have_text(GUEST)
        choose(page, "motion", "full")  # full, whatever the system says
        play_now(page, server)
        table = page.url
        for _ in range(2):
            page.locator(LEGAL).first.wait_for()
            play_card(page)
        page.wait_for_function("window.__moved > 0")
        page.goto(server + "/settings")
        choose(page, "motion", "system")  # as the system says: reduced
        page.goto(table)
        expect(page.locator(HAND).first).to_be_visible()
        for _ in range(2):
            page.locator(LEGAL).first.wait_for()
            play_card(page)
        assert page.evaluate("window.__moved") == 0
    finally:
        ctx.close()
