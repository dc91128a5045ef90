"""The front end's pages (docs/architecture.md, "The front end"): every page address is
served the page, the same list as static/app.js routes, and anything else is not; in a real
browser, /rooms/new (a page added as the doc says: one module and one route line) makes a
room, links go between pages without reloading, and back and forward work; every game's
drawing is registered by its name with every part the table's page asks of it.

The server, the browser and a person's steps are in tests/server/web.py.
"""

from __future__ import annotations

import re

from fastapi.testclient import TestClient
from playwright.sync_api import BrowserContext, expect

from hukum.server.app import PAGES, STATIC
from tests.server.test_front_modules import codes
from tests.server.web import HAND, TABLE_URL, api, keep_token, play_now_table, play_to_the_end

#: An address of each page, as a person types it.
EXAMPLES = {
    "/": "/",
    "/rooms/new": "/rooms/new",
    "/t/{code}": "/t/abcd2345",
    "/t/{code}/deals/{number}": "/t/abcd2345/deals/3",
    "/t/{code}/report": "/t/abcd2345/report",
    "/how-to-play": "/how-to-play",
    "/settings": "/settings",
    "/account": "/account",
    "/moderation": "/moderation",
    "/play/{pool}": "/play/mindi",
    "/party/{party}": "/party/abcd2345",
    "/leaderboard/{pool}": "/leaderboard/band",
    "/u/{username}": "/u/meera",
    "/profile": "/profile",
    "/challenge": "/challenge",
    "/challenge/week/{week}": "/challenge/week/2026-W50",
    "/challenge/{day}": "/challenge/2026-12-07",
    "/challenge/{day}/leaderboard": "/challenge/2026-12-07/leaderboard",
}


def test_every_page_address_is_served_the_page(client: TestClient) -> None:
    assert set(EXAMPLES) == set(PAGES)
    index = (STATIC / "index.html").read_text(encoding="utf-8")
    for path in EXAMPLES.values():
        r = client.get(path)
        assert r.status_code == 200, path
        assert r.text == index, path
    # Anything else is no page: the API, the files and unknown addresses answer as before.
    for path in ("/api/nothing", "/api/tables/abcd2345/nothing", "/static/nothing.js", "/nothing"):
        r = client.get(path)
        assert r.status_code == 404, path
        assert "<main" not in r.text, path
    assert client.get("/api/rules").json()["presets"]


def test_the_pages_routed_are_the_pages_served() -> None:
    """static/app.js's route lines and the server's PAGES name the same addresses."""
    source = (STATIC / "app.js").read_text(encoding="utf-8")
    routed = re.findall(r'^route\("([^"]+)", \w+\);$', source, re.MULTILINE)
    served = {re.sub(r":(\w+)", lambda m: "{" + m.group(1) + "}", p) for p in routed if p != "*"}
    assert served == set(PAGES)


def test_every_page_opened_by_its_address_has_the_whole_header(
    context: BrowserContext, server: str
) -> None:
    """Opened by its address (a bookmark, a reload), every page is drawn in the shell: the
    language menu lists every language, the player's name is there (a page that drew only
    itself once left the language menu empty)."""
    page = context.new_page()
    for path in EXAMPLES.values():
        page.goto(server + path)
        expect(page.locator("#nav-me")).to_be_visible()
        expect(page.locator("#lang option")).to_have_count(len(codes()))
        expect(page.locator("#brand-title")).to_have_text("Hukum")


def test_a_room_is_made_on_its_own_page(context: BrowserContext, server: str) -> None:
    page = context.new_page()
    page.goto(server + "/rooms/new")
    expect(page.locator('.lobby[data-page="new-room"] #create-form')).to_be_visible()
    expect(page.locator("#play-panel")).to_have_count(0)  # the room's form alone
    page.evaluate("window.samePage = true")  # gone if the page is loaded again
    # A link goes to the lobby in the page; back returns to the form, forward to the lobby.
    page.click("#to-lobby")
    expect(page).to_have_url(server + "/")
    expect(page.locator("#play-panel")).to_be_visible()
    page.go_back()
    expect(page).to_have_url(server + "/rooms/new")
    expect(page.locator("#play-panel")).to_have_count(0)
    page.go_forward()
    expect(page.locator("#play-panel")).to_be_visible()
    page.go_back()
    assert page.evaluate("window.samePage === true")
    page.fill("#name", "Meera")
    page.select_option("#length", "d1")
    page.click("#create-room")
    expect(page).to_have_url(TABLE_URL(server))
    code = page.url.rsplit("/", 1)[-1]
    expect(page.locator("#room-code")).to_have_text(code)
    table = api(server, "GET", f"/api/tables/{code}")
    assert table["status"] == "waiting" and table["rules"]["deals"] == 1
    assert table["seats"][0]["name"] == "Meera"
    assert page.evaluate("window.samePage === true")


def test_back_and_forward_between_a_table_and_its_board(
    context: BrowserContext, server: str
) -> None:
    made = play_now_table(server, options={"deals": 1, "target": None})
    code = made["code"]
    page = context.new_page()
    keep_token(page, server, code, made["token"])
    page.goto(f"{server}/t/{code}")
    expect(page.locator(HAND)).to_have_count(13)
    page.evaluate("window.samePage = true")
    play_to_the_end(page)
    page.click("#analyse")  # the deal's board, in the page
    expect(page).to_have_url(re.compile(rf"/t/{code}/deals/1$"))
    expect(page.locator("#analysis-board")).to_be_visible()
    page.go_back()
    expect(page).to_have_url(re.compile(rf"/t/{code}$"))
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#analysis-board")).to_have_count(0)
    page.go_forward()
    expect(page.locator("#analysis-board")).to_be_visible()
    assert page.evaluate("window.samePage === true")


#: What the table's page asks of every game's drawing (static/games/index.js).
DRAWING_PARTS = {
    "name", "teams", "backs", "label", "trump", "board", "hand", "controls", "banner",
    "matchOver", "score", "lastTrick", "cardReason", "pick", "chosenMove", "played",
    "takeHint", "hintText", "choosable", "chosen", "choose", "sort", "cardText",
    "dealLinksKey",
}  # fmt: skip


def test_every_game_has_a_drawing_with_every_part(context: BrowserContext, server: str) -> None:
    from hukum.games import GAMES

    page = context.new_page()
    page.goto(server + "/")
    for name in GAMES:
        drawing = page.evaluate(
            """async (name) => {
              const { drawing } = await import(`/static/games/${name}.js`);
              const { drawingFor } = await import("/static/games/index.js");
              const same = drawingFor(name) === drawing;
              return { name: drawing.name, parts: Object.keys(drawing), same };
            }""",
            name,
        )
        assert drawing["name"] == name and drawing["same"], drawing
        missing = DRAWING_PARTS - set(drawing["parts"])
        assert not missing, f"static/games/{name}.js lacks {sorted(missing)}"
