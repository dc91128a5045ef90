"""Punjabi (ਪੰਜਾਬੀ, in Gurmukhi) as the page's third language (issue 41, preferences): the
Desi Mindi rules the game comes from are written in it. Chosen in the lobby's language menu,
the page is in Gurmukhi, drawn with the Gurmukhi font the app ships (Noto Sans Gurmukhi, OFL,
in static/fonts; the test machine has no Gurmukhi font of its own, so without it every letter
would be an empty box); a card is played at a *Play now* table, and the choice survives a
reload. On a phone the lobby in Punjabi stays inside the screen (docs/screenshots)."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.server.web import (
    HAND,
    SCREENSHOTS,
    TABLE_URL,
    fonts_drawing,
    my_turn_or_over,
    play_card,
)

GURMUKHI_FONT = "Noto Sans Gurmukhi"

#: Both shipped faces (regular and bold) loaded, because the page's text needs them.
FACES_LOADED = """family => ["400", "700"].every(w => [...document.fonts].some(f =>
    f.family.replace(/["']/g, "") === family && f.weight === w && f.status === "loaded"))"""


#: What of the page is wider than the screen or sticks out of its panel, among the elements
#: shown (not those inside a closed ``<details>``, such as the lobby's single rules).
SPILLS = """() => {
  const out = [];
  for (const panel of document.querySelectorAll(".panel")) {
    const p = panel.getBoundingClientRect();
    for (const e of panel.querySelectorAll("*")) {
      const r = e.getBoundingClientRect();
      if (!e.checkVisibility() || (r.width === 0 && r.height === 0)) continue;
      if (r.left < p.left - 0.5 || r.right > p.right + 0.5 || r.bottom > p.bottom + 0.5)
        out.push(`#${panel.id} ${e.tagName.toLowerCase()}: ${(e.textContent || "").slice(0, 40)}`);
    }
  }
  const width = document.documentElement.scrollWidth;
  if (width > innerWidth) out.push(`the page is ${width} px wide in a ${innerWidth} px window`);
  return out;
}"""


def gurmukhi(ch: str) -> bool:
    """Whether a character is a Gurmukhi letter or sign, or the danda that ends a sentence."""
    return "\u0a00" <= ch <= "\u0a7f" or ch in "\u0964\u0965"


def choose_punjabi(page: Page, server: str) -> None:
    """Open the lobby and choose ਪੰਜਾਬੀ in the language menu."""
    page.goto(server + "/")
    expect(page.locator("#lang option[value=pa]")).to_have_text("ਪੰਜਾਬੀ")
    page.select_option("#lang", "pa")
    expect(page.locator("#play-now")).to_have_text("ਹੁਣੇ ਖੇਡੋ")


def expect_lobby_in_punjabi(page: Page) -> None:
    """The lobby in Punjabi: the page says it is (``<html lang="pa">``), the menu shows
    ਪੰਜਾਬੀ, and no word of its visible text is in the Latin alphabet."""
    expect(page.locator("html")).to_have_attribute("lang", "pa")
    expect(page.locator("#lang")).to_have_value("pa")
    expect(page.locator("#brand-title")).to_have_text("ਹੁਕਮ")
    expect(page.locator("#level option")).to_have_text(["ਸਿਖਾਂਦਰੂ", "ਚੰਗਾ", "ਤਕੜਾ", "ਮਾਹਿਰ"])
    text = page.locator("#app").inner_text()
    assert not re.findall(r"[A-Za-z]{2,}", text), text
    assert sum(map(gurmukhi, text)) > 200, text


def test_punjabi_lobby_font_table_and_reload(context: BrowserContext, server: str) -> None:
    """Choose ਪੰਜਾਬੀ in the lobby: the lobby is in Gurmukhi, drawn with the shipped font
    (plain and bold, the danda too, nothing by another font but spaces and punctuation);
    *Play now* seats the player at a table in Punjabi where a card is played; a reload keeps
    the table and the lobby in Punjabi."""
    page = context.new_page()
    choose_punjabi(page, server)
    expect_lobby_in_punjabi(page)
    page.wait_for_function(FACES_LOADED, arg=GURMUKHI_FONT, timeout=5_000)
    assert page.evaluate("f => document.fonts.check(`16px \"${f}\"`, 'ਪੰਜਾਬੀ')", GURMUKHI_FONT)
    page.evaluate("() => document.fonts.ready.then(() => true)")  # any other face asked for
    # A bold button, a plain line, and a sentence ending in a danda (।), which the
    # Devanagari face (first in the list for Hindi) has too: in Punjabi it is not used.
    for selector in ("#play-now", ".tagline", "#play-panel p"):
        fonts = fonts_drawing(page, selector)
        drawn = [f for f in fonts if f["familyName"] == GURMUKHI_FONT]
        assert drawn and all(f["isCustomFont"] for f in drawn), (selector, fonts)
        assert drawn[0]["glyphCount"] >= 5, (selector, fonts)
        assert not [f for f in fonts if "Devanagari" in f["familyName"]], (selector, fonts)
        text = page.locator(selector).inner_text()
        rest = sum(1 for ch in text if not gurmukhi(ch))
        others = sum(f["glyphCount"] for f in fonts if f["familyName"] != GURMUKHI_FONT)
        assert others <= rest, (selector, text, fonts)
    assert page.locator("#play-panel p").inner_text().endswith("।")

    # A table of Play now, in Punjabi, where a card is played.
    page.fill("#name", "ਸਿਮਰਨ")
    page.select_option("#level", "random")
    page.click("#play-now")
    expect(page).to_have_url(TABLE_URL(server))
    expect(page.locator(HAND)).to_have_count(13)
    expect(page.locator(".seat.me .seat-name")).to_have_text("ਸਿਮਰਨ")
    expect(page.locator("html")).to_have_attribute("lang", "pa")
    assert my_turn_or_over(page)
    expect(page.locator("#play-card")).to_have_text("ਪੱਤਾ ਸੁੱਟੋ")
    play_card(page)
    expect(page.locator("#score")).to_contain_text("ਸਕੋਰ")

    # A reload keeps the choice: the table, then the lobby, are still in Punjabi.
    page.reload()
    expect(page.locator(HAND).first).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "pa")
    expect(page.locator("#lang")).to_have_value("pa")
    expect(page.locator("#score")).to_contain_text("ਸਕੋਰ")
    page.goto(server + "/")
    expect(page.locator("#play-now")).to_have_text("ਹੁਣੇ ਖੇਡੋ")
    expect_lobby_in_punjabi(page)


def test_punjabi_lobby_on_a_phone(browser: Browser, server: str) -> None:
    """On a phone (390x844) the lobby in Punjabi fits: nothing spills out of its panel and
    the page is no wider than the screen; its picture is the README's."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
    try:
        page = ctx.new_page()
        choose_punjabi(page, server)
        expect_lobby_in_punjabi(page)
        page.wait_for_function(FACES_LOADED, arg=GURMUKHI_FONT, timeout=5_000)
        assert page.evaluate(SPILLS) == []
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "lobby-pa-phone.png"))
    finally:
        ctx.close()


def test_a_punjabi_browser_opens_in_punjabi(browser: Browser, server: str) -> None:
    """A first visit from a browser set to Punjabi (pa-IN) opens in Punjabi, with nothing
    chosen; the menu still offers English."""
    ctx = browser.new_context(locale="pa-IN")
    try:
        page = ctx.new_page()
        page.goto(server + "/")
        expect(page.locator("#play-now")).to_have_text("ਹੁਣੇ ਖੇਡੋ")
        expect_lobby_in_punjabi(page)
        page.select_option("#lang", "en")
        expect(page.locator("#play-now")).to_have_text("Play now")
        expect(page.locator("html")).to_have_attribute("lang", "en")
    finally:
        ctx.close()
