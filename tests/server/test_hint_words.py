"""A hint's reason in the page's words (issue 40, item 8): the server sends the reason as
clauses (``reason``, docs/protocol.md "hints") and the page writes them in its language,
naming cards as it draws them (Mindi's 10♦ in its colour, Ganjifa's "Krishna 3" with its
emblem), never in the engine's notation ("Kr3"). In a real browser, English and Hindi, for
Mindi and Ganjifa. The fixtures are in tests/server/web.py."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import Browser, Page, expect

from hukum.bots.explain import TEMPLATES as MINDI_TEMPLATES
from hukum.bots.ganjifa.explain import TEMPLATES as GANJIFA_TEMPLATES
from hukum.ganjifa.cards import Suit
from hukum.server.app import STATIC
from tests.server.conftest import create
from tests.server.helpers import seat_socket
from tests.server.test_hints import ONE_DEAL, Seen, answer, hint, until_turn
from tests.server.web import LEGAL, play_ganjifa_now, play_now

#: How long the page may wait for a suggestion (a bound on the wait, not a time asserted).
THINKING = 30_000
#: A card in the engines' notation.
CODES = {
    "mindi": re.compile(r"\b(10|[2-9JQKA])[CDHS]\b"),
    "ganjifa": re.compile(r"\b(Ma|Ku|Vr|Na|Vm|Pa|Ra|Kr|Bu|Ka)(10|[1-9]|M|R)\b"),
}
AVATARS = "Matsya|Kurma|Varaha|Narasimha|Vamana|Parashurama|Rama|Krishna|Buddha|Kalki"
#: English words of the reasons: none in a Hindi page's line.
ENGLISH = re.compile(r"\b(the|leads|plays|trick|card|cards|trump|your|beats|cuts)\b")
DEVANAGARI = re.compile(r"[\u0900-\u097f]")
OPEN: dict[str, Callable[[Page, str, str], None]] = {
    "mindi": play_now,
    "ganjifa": play_ganjifa_now,
}


@pytest.mark.parametrize("game", ["mindi", "ganjifa"])
@pytest.mark.parametrize("lang", ["en", "hi"])
def test_a_hint_names_cards_as_the_page_draws_them(
    browser: Browser, server: str, game: str, lang: str
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale=f"{lang}-IN")
    context.set_default_timeout(15_000)
    try:
        page = context.new_page()
        OPEN[game](page, server, "Asha")
        expect(page.locator(LEGAL).first).to_be_visible(timeout=THINKING)  # Asha's turn
        page.click("#hint")
        why = page.locator("#hint-why")
        expect(why).not_to_be_empty(timeout=THINKING)
        text = why.inner_text()
        line = page.locator("#hint-text").inner_text()
        assert not CODES[game].search(line), line  # no engine notation, the move's nor why's
        if game == "ganjifa":
            # Cards and suits with their emblems, named by their avatars.
            assert why.locator("svg.emblem").count() >= 1, why.inner_html()
            if lang == "en":
                assert re.search(AVATARS, text), text
        else:
            assert why.locator(".card-text").count() >= 1, why.inner_html()
        if lang == "hi":
            assert DEVANAGARI.search(text) and not ENGLISH.search(text), text
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "hi"])
def test_every_reason_has_the_page_s_words(lang: str) -> None:
    """Every clause key the games' reasons use is in the page's strings."""
    table = (STATIC / "i18n" / f"{lang}.js").read_text(encoding="utf-8")
    keys = set(re.findall(r'^\s*"(why\.[^"]+)":', table, re.M))
    used = {f"why.{key}" for key in [*MINDI_TEMPLATES, *GANJIFA_TEMPLATES, "strongest"]}
    assert used <= keys, sorted(used - keys)


def english(reason: list[dict[str, Any]], templates: dict[str, str]) -> str:
    """A reason written out with the English templates, its arguments as they are sent."""
    return "".join(templates[c["key"]].format(**c["args"], n_s="") for c in reason)


@pytest.mark.parametrize("game", ["mindi", "ganjifa"])
def test_a_hint_s_reason_is_its_why_as_data_naming_only_cards_seen(
    client: TestClient, game: str
) -> None:
    """Over a deal played by taking every suggestion: each hint's ``reason`` is clauses of
    known keys whose cards the seat has seen, and says what ``why`` says."""
    templates = MINDI_TEMPLATES if game == "mindi" else GANJIFA_TEMPLATES
    body: dict[str, Any] = {"game": game, "options": {"deals": 1}}
    if game == "mindi":
        body["options"] = ONE_DEAL
    made = create(client, start_now=True, bots="random", turn_timeout=None, **body)
    seen = Seen()
    keys: set[str] = set()
    with seat_socket(client, made["code"], made["token"]) as ws:
        latest: dict[str, Any] = {"event": -1}
        for _ in range(8):
            latest = until_turn(ws, seen, after=latest["event"])
            if latest["view"]["outcome"] is not None:
                break
            got = hint(ws, seen)
            reason = got["reason"]
            assert reason and all(set(c) == {"key", "args"} for c in reason), got
            keys.update(c["key"] for c in reason)
            cards: set[str] = set()
            for c in reason:
                assert c["key"] in templates, c
                for name, value in c["args"].items():
                    if name in ("card", "best"):
                        cards.add(value)
                    elif name == "cards":
                        cards.update(value)
                    else:
                        assert name in ("suit", "n"), c
            assert cards <= seen.cards(), (got, cards - seen.cards())
            # The same clauses as the English line: in Mindi the line names a card "the
            # 10♦" where the data says "10D", so only the keys' order is compared there.
            if game == "ganjifa":
                avatars = {s.code: str(s) for s in Suit}
                args = [
                    {
                        **c,
                        "args": {
                            k: avatars.get(v, v)
                            if k == "suit"
                            else " ".join(v)
                            if k == "cards"
                            else v
                            for k, v in c["args"].items()
                        },
                    }
                    for c in reason
                ]
                assert english(args, templates) == got["why"]
            else:
                fixed = [templates[c["key"]].split("{")[0] for c in reason]
                assert all(part in got["why"] for part in fixed), got
            ws.send_json({"type": "move", "move": got["move"], "event": got["event"], "ref": 1})
            assert answer(ws, seen)["type"] == "ack"
    assert keys
