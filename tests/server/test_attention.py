"""Your turn, when you look away (issue 40 item 13, static/widgets/attention.js): the tab's
title and icon say it and are restored after; with the player's consent (the header's
switch; nothing asked on load) a notification after a few seconds of the turn with the page
hidden; a short synthesised tone if the sound is switched on (off by default; the switch is
the player's ``sound`` preference, kept on the server: tests/server/test_settings_page.py).

The browser is real chromium (tests/server/web.py); an init script records the
notifications shown (by the page or its service worker) and the tones made, and lets the
test hide the page as switching tabs would.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.server.web import LEGAL, play_card, play_now, play_to_the_end

#: Records what the page shows and lets the test hide it (window.__hidden).
WATCH = """
window.__notes = [];
window.__asked = 0;
window.__hidden = false;
Object.defineProperty(Document.prototype, "hidden", {
  configurable: true, get: () => window.__hidden,
});
Object.defineProperty(Document.prototype, "visibilityState", {
  configurable: true, get: () => (window.__hidden ? "hidden" : "visible"),
});
const ask = Notification.requestPermission.bind(Notification);
Notification.requestPermission = (...args) => { window.__asked += 1; return ask(...args); };
const PageNote = window.Notification;
window.Notification = class extends PageNote {
  constructor(title, options) {
    super(title, options);
    window.__notes.push({ title, body: options?.body, at: performance.now() });
  }
};
const show = ServiceWorkerRegistration.prototype.showNotification;
ServiceWorkerRegistration.prototype.showNotification = function (title, options) {
  window.__notes.push({ title, body: options?.body, at: performance.now() });
  return show.call(this, title, options);
};
// The turn's tone is one sine oscillator (a trick won is a chime of triangles).
window.__oscillators = [];
Object.defineProperty(window, "__tones", {
  get: () => window.__oscillators.filter((o) => o.type === "sine").length,
});
const oscillator = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () {
  const made = oscillator.call(this);
  window.__oscillators.push(made);
  return made;
};
"""

TURN_TITLE = "● Your turn — Hukum"


@pytest.fixture
def allowed(browser: Browser) -> Iterator[BrowserContext]:
    """A context whose browser allows notifications (as after the player said yes once)."""
    ctx = browser.new_context(
        viewport={"width": 1100, "height": 860}, locale="en-US", permissions=["notifications"]
    )
    ctx.set_default_timeout(15_000)
    ctx.add_init_script(WATCH)
    yield ctx
    ctx.close()


def hide(page: Page, hidden: bool) -> None:
    """The page hidden (another tab in front) or seen again."""
    page.evaluate(
        "h => { window.__hidden = h; document.dispatchEvent(new Event('visibilitychange')); }",
        hidden,
    )


def icon(page: Page) -> str | None:
    return page.locator('link[rel="icon"]').get_attribute("href")


def test_the_title_and_icon_say_your_turn_and_are_restored(
    context: BrowserContext, server: str
) -> None:
    page = context.new_page()
    play_now(page, server, "Asha")
    page.locator(LEGAL).first.wait_for()  # this seat's turn
    expect(page).to_have_title(TURN_TITLE)
    assert icon(page) == "/static/favicon-turn.svg"
    # In Hindi too.
    page.select_option("#lang", "hi")
    expect(page).to_have_title("● आपकी बारी — हुकुम")
    page.select_option("#lang", "en")
    expect(page).to_have_title(TURN_TITLE)
    # The deal over, nobody waits for this seat: the page's own title and icon again.
    play_to_the_end(page)
    expect(page).to_have_title("Hukum")
    assert icon(page) == "/static/favicon.svg"
    # Leaving the table restores them too (the lobby is no one's turn).
    page.click("header .brand")
    expect(page.locator("#play-now")).to_be_visible()
    expect(page).to_have_title("Hukum")


def test_a_notification_after_a_few_seconds_hidden_only_with_consent(
    allowed: BrowserContext, server: str
) -> None:
    page = allowed.new_page()
    play_now(page, server, "Asha")
    page.locator(LEGAL).first.wait_for()
    assert page.evaluate("window.__asked") == 0  # nothing asked on load
    bell = page.locator("#notify-toggle")
    expect(bell).to_have_attribute("aria-pressed", "false")
    expect(bell).to_have_attribute("aria-label", "Notify me when it is my turn (off)")
    # Without consent, a hidden page's turn is not notified.
    hide(page, True)
    page.wait_for_timeout(5_500)
    assert page.evaluate("window.__notes") == []
    hide(page, False)
    # With it: a few seconds after the page is hidden on this seat's turn, one notification.
    bell.click()
    expect(bell).to_have_attribute("aria-pressed", "true")
    expect(bell).to_have_attribute("aria-label", "Notify me when it is my turn (on)")
    hidden_at = page.evaluate("performance.now()")
    hide(page, True)
    # A function, not an expression: Playwright polls a hidden page's expression with eval,
    # which the page's Content-Security-Policy refuses.
    page.wait_for_function("() => window.__notes.length > 0", timeout=10_000)
    page.wait_for_timeout(500)
    notes = page.evaluate("window.__notes")
    assert len(notes) == 1
    assert notes[0]["title"] == "Your turn at Hukum"
    assert notes[0]["body"] == "The table is waiting for you."
    assert notes[0]["at"] - hidden_at >= 3_500  # after a few seconds, not at once
    # Seen again and played: no more notifications of that turn; the consent is kept.
    hide(page, False)
    play_card(page)
    page.reload()
    expect(page.locator("#notify-toggle")).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("window.__asked") == 0


def test_a_short_tone_on_my_turn_only_if_the_sound_is_on(
    allowed: BrowserContext, server: str
) -> None:
    page = allowed.new_page()
    play_now(page, server, "Asha")
    page.locator(LEGAL).first.wait_for()
    switch = page.locator("#sound-toggle")
    expect(switch).to_have_attribute("aria-pressed", "false")  # off by default
    assert page.evaluate("window.__tones") == 0
    switch.click()  # on: the tone once, so that the player knows it
    expect(switch).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("window.__tones") == 1
    play_card(page)
    page.locator(LEGAL).first.wait_for()  # the turn comes round again: its tone
    page.wait_for_function("() => window.__tones === 2")


def test_the_switches_fit_the_header_of_a_phone(browser: Browser, server: str) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="hi-IN")
    try:
        page = ctx.new_page()
        page.goto(server + "/")
        for selector in ("header .brand", "#notify-toggle", "#sound-toggle", "#lang"):
            box = page.locator(selector).bounding_box()
            assert box is not None, selector
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390, selector
            if selector.endswith("-toggle"):  # a finger's target
                assert box["width"] >= 40 and box["height"] >= 40, selector
        header = page.locator("header.top").bounding_box()
        assert header is not None and header["height"] < 70  # one row
        assert page.locator("#sound-toggle").get_attribute("aria-label") == (
            "मेरी बारी पर आवाज़ (बंद)"
        )
    finally:
        ctx.close()
