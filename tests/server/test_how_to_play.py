"""How to play and the house rules in words (issue 40 item 12): the page ``/how-to-play``
teaches Mindi (follow suit, cut hukum, the tens, the tie-break) and Ganjifa's Dukal with the
table's own cards, is reached from the lobby and from a table (and leads back to it), in
English and Hindi on a phone without sideways scrolling; the table's Rules panel says every
option's chosen value in a sentence of the player's language, with its rule id; and every
option of every game's rules schema has those sentences in en.js and hi.js.

The server, the browser and a person's steps are in tests/server/web.py.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from hukum.game import RuleOption
from hukum.games import GAMES
from tests.server.test_front_modules import table
from tests.server.web import HAND, api, keep_token, play_now_table

PHONE: ViewportSize = {"width": 390, "height": 844}
LANGS = ("en", "hi")
STRINGS = {lang: table(lang)[1] for lang in LANGS}


def text_of(value: Any) -> str:
    """A value as the page writes it in a key (JavaScript's ``String``)."""
    return value if isinstance(value, str) else json.dumps(value)


def sentence_keys(option: RuleOption) -> list[str]:
    """The keys of an option's sentences (static/widgets/rules.js): one a value of a
    choice, else one for a number (and one for none, where the option may have none)."""
    if option.choices is not None:
        return [f"say.{option.name}.{text_of(v)}" for v in option.choices]
    return [f"say.{option.name}", *([f"say.{option.name}.none"] if option.nullable else [])]


def missing_sentences(options: Iterable[RuleOption], strings: Mapping[str, str]) -> list[str]:
    """The sentence keys of ``options`` a language's table lacks."""
    return [key for o in options for key in sentence_keys(o) if key not in strings]


@pytest.mark.parametrize("lang", LANGS)
def test_every_option_of_every_game_has_its_sentences(lang: str) -> None:
    for name, spec in GAMES.items():
        assert missing_sentences(spec.rules_schema(), STRINGS[lang]) == [], (name, lang)


def test_an_option_without_words_is_caught() -> None:
    schema = GAMES["mindi"].rules_schema()
    trump = next(o for o in schema if o.name == "trump")
    new = dataclasses.replace(trump, name="new_rule")
    assert missing_sentences([new], STRINGS["en"]) == [
        f"say.new_rule.{v}" for v in ("cut", "band", "open", "announce")
    ]
    assert missing_sentences([*schema, new], STRINGS["hi"])[-1] == "say.new_rule.announce"


def expected_sentence(game: str, name: str, value: Any, lang: str) -> str:
    """An option's sentence as the Rules panel should say it: its words (the language's,
    else English's) with their numbers, and the schema's rule id unless they name one."""
    option = next(o for o in GAMES[game].rules_schema() if o.name == name)
    strings = {**STRINGS["en"], **STRINGS[lang]}
    said = "-".join(map(text_of, value)) if isinstance(value, list) else text_of(value)
    own = f"say.{name}.{said}"
    params: dict[str, Any] = {}
    if value is None:
        key = f"say.{name}.none"
    elif own in strings:
        key = own
    else:
        key = f"say.{name}"
        items = enumerate(value, 1) if isinstance(value, list) else [("", value)]
        params = {f"n{i}": v for i, v in items}
    text = strings.get(key, f"(no words: {key})")
    for k, v in params.items():
        text = text.replace("{" + k + "}", str(v))
    if option.rule and not re.search(r"\b[A-Z]-\d+\b", text):
        text += f" ({option.rule})"
    return text


def phone_page(browser: Browser, server: str, lang: str) -> Page:
    """A phone's page in ``lang`` (the language kept as the menu keeps it)."""
    ctx = browser.new_context(viewport=PHONE, locale="en-US")
    ctx.set_default_timeout(15_000)
    ctx.add_init_script(f"localStorage.setItem('hukum.lang', '{lang}')")
    return ctx.new_page()


def expect_the_lesson(page: Page, lang: str) -> None:
    """How to play is shown in ``lang``, illustrated with the table's cards, and nothing on it
    is wider than the phone."""
    expect(page.locator('.howto[data-page="how-to-play"] h1')).to_have_text(
        STRINGS[lang]["howto.title"]
    )
    for key in ("howto.follow.title", "howto.cut.title", "howto.tie.title", "howto.dukal.title"):
        expect(page.locator(".howto")).to_contain_text(STRINGS[lang][key])
    expect(page.locator("#fig-follow .howto-face svg.card-face")).to_have_count(4)
    expect(page.locator("#fig-cut .howto-play.win")).to_contain_text(
        STRINGS[lang]["howto.seat.right"]
    )
    expect(page.locator("#fig-band svg.card-face")).to_have_count(1)
    expect(page.locator("#fig-mindis svg.card-face")).to_have_count(4)
    expect(page.locator("#fig-dukal svg.card-face.round")).to_have_count(9)
    expect(page.locator("#nav-howto")).to_have_attribute("aria-current", "")
    wide = page.evaluate(
        """() => ({
          page: document.documentElement.scrollWidth,
          widest: Math.max(
            ...[...document.querySelectorAll("body *")].map(e => e.getBoundingClientRect().right)
          ),
        })"""
    )
    assert wide["page"] <= PHONE["width"] and wide["widest"] <= PHONE["width"] + 0.5, wide


@pytest.mark.parametrize("lang", LANGS)
def test_how_to_play_from_the_lobby_and_from_a_table(
    browser: Browser, server: str, lang: str
) -> None:
    page = phone_page(browser, server, lang)
    try:
        page.goto(server + "/")
        expect(page.locator("#play-panel")).to_be_visible()
        page.evaluate("window.samePage = true")
        page.click("#nav-howto")
        expect(page).to_have_url(server + "/how-to-play")
        expect_the_lesson(page, lang)
        page.click("#howto-back")  # back to the lobby, in the page
        expect(page.locator("#play-panel")).to_be_visible()
        assert page.evaluate("window.samePage === true")

        made = play_now_table(server)
        code = made["code"]
        keep_token(page, server, code, made["token"])
        page.goto(f"{server}/t/{code}")
        expect(page.locator(HAND)).to_have_count(13)
        page.click("#nav-howto")
        expect(page).to_have_url(f"{server}/how-to-play?back=%2Ft%2F{code}")
        expect_the_lesson(page, lang)
        expect(page.locator("#howto-back")).to_have_text(STRINGS[lang]["howto.back.table"])
        page.click("#howto-back")  # back to the table, the seat kept
        expect(page).to_have_url(f"{server}/t/{code}")
        expect(page.locator(HAND).first).to_be_visible()
        # The Rules panel leads there too.
        page.click("#show-rules")
        page.click("#rules-howto")
        expect(page).to_have_url(f"{server}/how-to-play?back=%2Ft%2F{code}")
        expect_the_lesson(page, lang)
        # A reload of the page is served the page.
        page.reload()
        expect_the_lesson(page, lang)
    finally:
        page.context.close()


ROOMS = {
    "mindi": {"preset": "classic"},
    "ganjifa": {"game": "ganjifa"},
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", sorted(ROOMS))
def test_the_rules_panel_says_every_house_rule_in_words(
    browser: Browser, server: str, game: str, lang: str
) -> None:
    made = play_now_table(server, **ROOMS[game])
    code = made["code"]
    rules = api(server, "GET", f"/api/tables/{code}")["rules"]
    assert set(rules) == {o.name for o in GAMES[game].rules_schema()}
    page = phone_page(browser, server, lang)
    try:
        keep_token(page, server, code, made["token"])
        page.goto(f"{server}/t/{code}")
        expect(page.locator(HAND).first).to_be_visible()
        page.click("#show-rules")
        panel = page.locator("#rules-panel")
        expect(panel.locator("tr[data-option]")).to_have_count(len(rules))
        for name, value in rules.items():
            row = panel.locator(f'tr[data-option="{name}"]')
            expect(row.locator(".say")).to_have_text(expected_sentence(game, name, value, lang))
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], width
    finally:
        page.context.close()


def test_the_way_back_is_a_page_of_this_site(browser: Browser, server: str) -> None:
    """How to play offers the way back to a table or a deal's board it was opened from, and
    to the lobby for any other address (never another site's)."""
    page = phone_page(browser, server, "en")
    back = page.locator("#howto-back")
    try:
        for given, href, words in (
            ("/t/abcd2345", "/t/abcd2345", "howto.back.table"),
            ("/t/abcd2345/deals/3", "/t/abcd2345/deals/3", "howto.back.board"),
            ("https://example.com/t/abcd2345", "/", "room.back"),
            ("//example.com", "/", "room.back"),
        ):
            page.goto(f"{server}/how-to-play?back={quote(given, safe='')}")
            expect(back).to_have_attribute("href", href)
            expect(back).to_have_text(STRINGS["en"][words])
    finally:
        page.context.close()
