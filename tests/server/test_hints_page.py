"""The page's *Suggest a move* (docs/protocol.md, "hints"), in a real browser against the real
server: offered at a *Play now* table on the player's turn, it chooses the suggested card
in the hand (the player still plays it) and says why in one line; it is not offered in a
room of people made without hints, and is in one made with them (the lobby's *Allow move
suggestions*). Run with ``-p no:xdist``; the fixtures are in tests/server/web.py."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.server.web import HAND, LEGAL, TABLE_URL, api, expect_hand, keep_token, play_now

#: How long the page may wait for a suggestion (the expert thinks well under a second, but
#: the machine may be busy): a bound on the wait, not a time asserted.
THINKING = 30_000


def test_a_play_now_table_suggests_a_move(context: BrowserContext, server: str) -> None:
    page = context.new_page()
    play_now(page, server, "Asha")
    expect(page.locator(LEGAL).first).to_be_visible()  # Asha's turn
    button = page.locator("#hint")
    expect(button).to_have_text("Suggest a move")
    expect(page.locator("#hand .card.selected")).to_have_count(0)
    button.click()
    line = page.locator("#hint-text")
    expect(line).to_be_visible(timeout=THINKING)
    expect(page.locator("#hint-why")).to_have_text(re.compile(r"\w.{8,}"))
    # The suggested card is chosen, not played: it is legal, and the hand keeps it.
    chosen = page.locator("#hand .card.selected.legal")
    expect(chosen).to_have_count(1)
    move = line.get_attribute("data-move")
    assert move is not None and chosen.get_attribute("data-card") == move
    n = page.locator(HAND).count()
    page.click("#play-card")
    expect_hand(page, n - 1)
    expect(line).to_have_count(0)  # a suggestion is for its turn only


def room_of_two(server: str, *, hints: bool) -> dict[str, str]:
    """A started room of Asha (seat 0, the page's) and Ravi (seat 1, never connected: after
    the turn limit a bot plays for him), bots at the other seats."""
    made = api(
        server,
        "POST",
        "/api/tables",
        {"name": "Asha", "bots": "random", "turn_timeout": 15, "hints": hints},
    )
    code = made["code"]
    api(server, "POST", f"/api/tables/{code}/seats/1", {"name": "Ravi"})
    api(server, "POST", f"/api/tables/{code}/bots", {"token": made["token"]})
    api(server, "POST", f"/api/tables/{code}/start", {"token": made["token"]})
    return {"code": code, "token": made["token"], "invite": made["invite"]}


@pytest.mark.parametrize("hints", [False, True])
def test_a_room_of_people_offers_hints_only_if_made_with_them(
    context: BrowserContext, server: str, hints: bool
) -> None:
    made = room_of_two(server, hints=hints)
    page = context.new_page()
    keep_token(page, server, made["code"], made["token"])
    page.goto(server + made["invite"])
    expect(page.locator(LEGAL).first).to_be_visible(timeout=40_000)  # Asha's turn
    expect(page.locator("#your-turn")).to_be_visible()
    if hints:
        page.click("#hint")
        expect(page.locator("#hint-why")).not_to_be_empty(timeout=THINKING)
        expect(page.locator("#hand .card.selected.legal")).to_have_count(1)
    else:
        expect(page.locator("#hint")).to_have_count(0)


def test_the_lobby_makes_a_room_that_allows_hints(context: BrowserContext, server: str) -> None:
    page = context.new_page()
    page.goto(server + "/")
    page.fill("#name", "Meera")
    option = page.locator("label.check", has=page.locator("#hints"))
    expect(option).to_have_text("Allow move suggestions")
    page.check("#hints")
    page.click("#create-room")
    expect(page).to_have_url(TABLE_URL(server))
    code = page.url.rsplit("/", 1)[-1]
    assert api(server, "GET", f"/api/tables/{code}")["hints"] is True
