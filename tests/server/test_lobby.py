"""The lobby is drawn from the server's games (GET /api/rules, ``games``): a panel for every
game, in the server's order, and a private room's form built from the chosen game's rules
schema, on the lobby and on /rooms/new?game=<name>; a game or an option the front end has
never heard of gets its panel and its fields with no front-end code. On a phone, in Hindi.

The server, the browser and a person's steps are in tests/server/web.py.
"""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import BrowserContext, Route, expect

from hukum.games import GAMES
from tests.server.test_browser import OVERFLOWS
from tests.server.web import TABLE_URL, api

#: A game only this test's browser is told of: the server's schema shape, nothing else.
HIGH_CARD: dict[str, Any] = {
    "title": "High Card",
    "options": [
        {
            "name": "hand_size",
            "type": "choice",
            "values": [5, 7],
            "nullable": False,
            "default": 5,
            "description": "Cards dealt to each player.",
            "rule": "H-1",
            "label": "opt.hand_size",
        },
        {
            "name": "deals",
            "type": "count",
            "values": None,
            "nullable": False,
            "default": 1,
            "description": "Deals in a match.",
            "rule": None,
            "label": "opt.deals",
        },
    ],
    "presets": {"standard": {"hand_size": 5, "deals": 1}},
    "default_preset": "standard",
    "players": [2],
    "bots": ["random"],
}


def test_the_lobby_has_a_panel_for_every_game(context: BrowserContext, server: str) -> None:
    """One panel a game, in GAMES' order, each with its own computer players, play now and
    its private room; Mindi's and Ganjifa's keep the ids they always had."""
    page = context.new_page()
    page.goto(server + "/")
    panels = page.locator(".game-panel")
    expect(panels).to_have_count(len(GAMES))
    assert [p.get_attribute("data-game") for p in panels.all()] == list(GAMES)
    for name, spec in GAMES.items():
        panel = page.locator(f'.game-panel[data-game="{name}"]')
        expect(panel.locator("select[id$=level] option")).to_have_count(len(spec.bots))
        expect(panel.locator('[data-action="play"]')).to_be_visible()
        expect(panel.locator('[data-action="room"]')).to_be_visible()
    expect(page.locator("#play-panel")).to_have_attribute("data-game", "mindi")
    expect(page.locator("#ganjifa-panel")).to_have_attribute("data-game", "ganjifa")
    expect(page.locator("#room-game option")).to_have_count(len(GAMES))


def test_a_ganjifa_room_with_a_rule_chosen_in_the_form(
    context: BrowserContext, server: str
) -> None:
    """Ganjifa's private room: its panel's room button draws the form for Ganjifa (its
    options, its preset, its lengths), and a single rule chosen there is the table's."""
    page = context.new_page()
    page.goto(server + "/")
    page.fill("#name", "Ravi")
    page.click("#ganjifa-room")
    expect(page.locator("#room-game")).to_have_value("ganjifa")
    expect(page.locator("#preset")).to_have_value("cardavia")
    expect(page.locator("#opt-players")).to_have_count(0)  # Mindi's options are gone
    expect(page.locator("#length option")).to_have_text(["One deal", "4 deals", "8 deals"])
    expect(page.locator("#room-level option")).to_have_text(["Beginner", "Good", "Strong"])
    page.click("#custom summary")
    expect(page.locator("label:has(#opt-void_rule) > span")).to_have_text("When void")
    expect(page.locator("#opt-void_rule")).to_have_value('"choice"')
    page.select_option("#opt-void_rule", '"trump_first"')
    page.select_option("#opt-time", '"night"')
    page.select_option("#length", "d4")
    page.click("#create-room")
    expect(page).to_have_url(TABLE_URL(server))
    code = page.url.rsplit("/", 1)[-1]
    table = api(server, "GET", f"/api/tables/{code}")
    assert table["game"] == "ganjifa" and table["status"] == "waiting"
    assert table["rules"]["void_rule"] == "trump_first"
    assert table["rules"]["time"] == "night" and table["rules"]["deals"] == 4
    assert table["rules"]["dukal"] == "run"  # as the preset has it
    assert table["seats"][0]["name"] == "Ravi"


def test_rooms_new_starts_at_the_game_asked_and_keeps_it_in_hindi(
    context: BrowserContext, server: str
) -> None:
    page = context.new_page()
    page.goto(server + "/rooms/new?game=ganjifa")
    expect(page.locator("#room-game")).to_have_value("ganjifa")
    page.click("#custom summary")
    page.select_option("#opt-dukal", '"either"')
    page.select_option("#lang", "hi")
    expect(page.locator("#room-game")).to_have_value("ganjifa")
    expect(page.locator("#opt-dukal")).to_have_value('"either"')
    expect(page.locator("label:has(#opt-void_rule) > span")).to_have_text("रंग न होने पर")
    # Another game: its own fields.
    page.select_option("#room-game", "mindi")
    expect(page.locator("#opt-players")).to_be_visible()
    expect(page.locator("#opt-dukal")).to_have_count(0)
    expect(page.locator("#preset")).to_have_value("classic")
    # No such game: the first.
    page.goto(server + "/rooms/new?game=nothing")
    expect(page.locator("#room-game")).to_have_value(next(iter(GAMES)))


def test_a_new_game_and_a_new_option_need_no_front_end_code(
    context: BrowserContext, server: str
) -> None:
    """A game the page has no drawing of, with an option it has no words for: its panel
    and its room's fields come from its schema alone (its title, its computer players, its
    option labelled by its description), and the room asked for is that game's."""
    page = context.new_page()

    def more_games(route: Route) -> None:
        answer = route.fetch()
        data = answer.json()
        data["games"]["highcard"] = HIGH_CARD
        route.fulfill(response=answer, json=data)

    page.route("**/api/rules", more_games)
    page.goto(server + "/")
    panel = page.locator("#highcard-panel")
    expect(panel.locator("h2")).to_have_text("High Card")
    expect(page.locator("#highcard-level option")).to_have_text(["Beginner"])
    page.click("#highcard-room")
    expect(page.locator("#room-game")).to_have_value("highcard")
    expect(page.locator("#length option")).to_have_text(["One deal", "4 deals", "8 deals"])
    page.click("#custom summary")
    expect(page.locator("label:has(#opt-hand_size) > span")).to_have_text(
        "Cards dealt to each player."
    )
    page.select_option("#opt-hand_size", "7")
    with page.expect_request("**/api/tables") as asked:
        page.click("#create-room")
    body = json.loads(asked.value.post_data or "{}")
    assert body["game"] == "highcard" and body["preset"] == "standard"
    assert body["options"] == {"hand_size": 7, "deals": 1}
    assert body["bots"] == "random"
    with page.expect_request("**/api/tables") as asked:
        page.click("#play-highcard")
    body = json.loads(asked.value.post_data or "{}")
    assert body["game"] == "highcard" and body["start_now"] is True


def test_the_lobby_fits_a_phone_in_hindi(context: BrowserContext, server: str) -> None:
    page = context.new_page()
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(server + "/")
    page.select_option("#lang", "hi")
    expect(page.locator("#ganjifa-room")).to_have_text("तीन का कमरा")
    for name in GAMES:
        page.click(f'.game-panel[data-game="{name}"] [data-action="room"]')
        expect(page.locator("#room-game")).to_have_value(name)
        if page.locator("#custom").get_attribute("open") is None:
            page.click("#custom summary")
        assert page.evaluate(OVERFLOWS) == [], name


def test_a_name_typed_while_the_server_answers_who_this_is_is_the_one_sat_down_under(
    context: BrowserContext, server: str
) -> None:
    """The lobby asks the server who this is as it opens; a name typed before the answer
    comes is kept: the answer does not put the display name back in the field, and the table
    is made under the typed name (CI once saw "Guest BCW9" where "Asha" was typed)."""
    page = context.new_page()
    with page.expect_response("**/api/me/guest"):
        page.goto(server + "/")  # a first visit: a guest, "Guest XXXX"
    held: list[Route] = []
    page.route("**/api/me", lambda route: held.append(route))
    page.reload()
    while not held:
        page.wait_for_timeout(50)
    page.fill("#name", "Asha")
    with page.expect_response("**/api/me"):
        held[0].continue_()
    page.unroute("**/api/me")
    page.wait_for_timeout(100)  # the answer kept and the lobby drawn again
    expect(page.locator("#name")).to_have_value("Asha")
    page.click("#play-now")
    expect(page).to_have_url(TABLE_URL(server))
    expect(page.locator(".seat.me .seat-name")).to_have_text("Asha")
