"""Issue 43 in a real browser (tests/server/web.py), against a real `hukum serve` of its own
with short pools (a 3 s countdown, a wave every half second, an 8 s turn limit) and a
leaderboard that lists a player after one game: four people press "Play online", meet at
one table and finish the deal, and then the leaderboard and their profiles show the new
ratings; a player alone sees the countdown and starts with computer players; a suspended
player is told why in the queue; a party of two sits opposite; a partner who leaves loses
finish rate while the partner who stayed keeps their rating; every new page fits a phone in
Hindi and Punjabi.

With HUKUM_SCREENSHOTS=1 the pages' pictures are saved in docs/screenshots.
"""

from __future__ import annotations

import datetime as dt
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from hukum.online.pools import POOLS
from hukum.server.app import STATIC
from hukum.server.identity.sessions import COOKIE
from tests.server.test_front_modules import table
from tests.server.test_punjabi import SPILLS
from tests.server.test_seat_identity import player_id, sanction
from tests.server.web import HAND, LEGAL, SCREENSHOTS, TABLE_URL, serving

STRINGS = {lang: table(lang)[1] for lang in ("en", "hi", "pa")}
#: The short pools of these tests (the defaults are 20 s, 2 s and 30 s). The turn limit is
#: what the leaver's partner waits for once; at 4 s a loaded machine (2 cores, four browsers
#: and the server) now and then took a present player's seat too.
COUNTDOWN = 3
OPTIONS = (
    *("--pool-countdown", str(COUNTDOWN), "--pool-wave", "0.5", "--pool-turn-timeout", "8"),
    *("--leaderboard-min-games", "1"),
)
#: The four people of the match every rating check looks at.
FOUR = ("asha43", "bina43", "chandu43", "devi43")
PASSWORD = "a long enough password 43"


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of this module's server: its database is ``db.sqlite`` there."""
    return tmp_path_factory.mktemp("quick-match")


@pytest.fixture(scope="module")
def site(home: Path) -> Iterator[str]:
    """The base URL of this module's own server, with short pools."""
    with serving(home, *OPTIONS) as base:
        yield base


def test_the_pages_pools_are_the_servers() -> None:
    """static/games/pools.js lists the pools of hukum.online.pools, in its order."""
    source = (STATIC / "games" / "pools.js").read_text(encoding="utf-8")
    listed = re.findall(r'\{ name: "(\w+)", game: "(\w+)", partners: (true|false) \}', source)
    assert listed == [(p.name, p.game, "true" if p.partners else "false") for p in POOLS.values()]


# ---------------------------------------------------------------- people and their pages


def person(browser: Browser, lang: str = "en", phone: bool = False) -> tuple[BrowserContext, Page]:
    """A browser of its own (its own guest), in ``lang``, a phone's screen or a laptop's."""
    size: ViewportSize = {"width": 390, "height": 844} if phone else {"width": 1000, "height": 800}
    ctx = browser.new_context(viewport=size, locale="en-US")
    ctx.set_default_timeout(15_000)
    ctx.add_init_script(f"localStorage.setItem('hukum.lang', '{lang}')")
    return ctx, ctx.new_page()


def ask(page: Page, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    """The page's own request (its session, its Origin): the answer's JSON."""
    return page.evaluate(
        """async ([method, path, body]) => {
          const r = await fetch(path, {method, headers: {"content-type": "application/json"},
            body: body === null ? undefined : JSON.stringify(body)});
          return await r.json();
        }""",
        [method, path, body],
    )


def lobby(page: Page, base: str) -> None:
    """The lobby, once the player (a guest at first) is known."""
    page.goto(base + "/")
    expect(page.locator("#me-name")).not_to_have_text("")
    expect(page.locator("#online-panel")).to_be_visible()


def claim(page: Page, base: str, username: str) -> None:
    """The guest of this browser becomes the account ``username``, named so."""
    lobby(page, base)
    made = ask(page, "POST", "/api/account/claim", {"username": username, "password": PASSWORD})
    assert made.get("player", {}).get("username") == username, made
    named = ask(page, "PATCH", "/api/me", {"name": username})
    assert named.get("player", {}).get("name") == username, named
    page.reload()


def table_code(page: Page, base: str) -> str:
    """The page reaches a table (from the queue); its code."""
    expect(page).to_have_url(TABLE_URL(base), timeout=20_000)
    return page.url.rsplit("/", 1)[-1]


def seats(page: Page, code: str) -> tuple[int, list[dict[str, Any]]]:
    """The seat this page's player holds at table ``code``, and every seat."""
    info = ask(page, "GET", f"/api/tables/{code}")
    return info["you"], info["seats"]


def play_together(pages: list[Page]) -> None:
    """Each page plays its first legal card whenever its turn comes, until every page shows
    the deal's result (the computer players play the other seats); a seat the turn limit
    gave a computer player (a slow machine) is taken back, as its player would."""
    deadline = time.monotonic() + 120
    while True:
        over = 0
        for page in pages:
            if page.locator("#result").count():
                over += 1
            elif page.locator("#take-back").count():
                page.click("#take-back")
            elif page.locator(LEGAL).count():
                play_turn(page)
        if over == len(pages):
            return
        assert time.monotonic() < deadline, "the deal did not end"
        pages[0].wait_for_timeout(50)


def play_turn(page: Page) -> None:
    """Play the first legal card and wait for the hand to lose it, the deal to end, or the
    turn limit to give the seat to a computer player meanwhile (a loaded machine: the
    computer player may have played that turn; the loop above takes the seat back)."""
    hand = page.locator(HAND)
    n = hand.count()
    page.locator(LEGAL).first.click()
    page.click("#play-card")
    page.wait_for_function(
        """([selector, n]) => document.querySelectorAll(selector).length < n
            || document.querySelector('#result') || document.querySelector('#take-back')""",
        arg=[HAND, n],
        timeout=20_000,
    )


def profile_of(page: Page, username: str | None) -> dict[str, Any]:
    """A profile as the server gives it (None: the page's player's own)."""
    profile: dict[str, Any] = ask(
        page, "GET", "/api/me/profile" if username is None else f"/api/players/{username}"
    )
    return profile


def rated_match(page: Page, username: str | None, room: str) -> dict[str, Any]:
    """The profile once match ``room`` is in it (the rating is stored after the match ends)."""
    deadline = time.monotonic() + 15
    while True:
        profile = profile_of(page, username)
        if any(m["room"] == room for m in profile.get("matches", [])):
            return profile
        assert time.monotonic() < deadline, f"match {room} is not in the profile: {profile}"
        page.wait_for_timeout(200)


def shown_rating(page: Page, pool: str) -> tuple[int, str]:
    """A profile page's rating of ``pool`` and the text beside it (the games and wins)."""
    card = page.locator(f"#rating-{pool}")
    expect(card).to_be_visible()
    value = int(card.locator(".rating-value").inner_text())
    return value, card.locator(".profile-rating-line").inner_text()


def fits_a_phone(page: Page) -> None:
    """Nothing wider than the screen (no sideways scroll) nor outside its panel."""
    assert page.evaluate(SPILLS) == []


def screenshot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / name))


# ---------------------------------------------------------------- four people, one table


@dataclass
class Match:
    """The four people's match: their browsers and pages (by username), its table."""

    people: dict[str, tuple[BrowserContext, Page]]
    code: str


@pytest.fixture(scope="module")
def four(browser: Browser, site: str) -> Iterator[Match]:
    """Four accounts press "Play online" (Mindi) in the lobby at about the same time, meet at
    one table and play the deal to its end."""
    people = {name: person(browser) for name in FOUR}
    try:
        for name, (_, page) in people.items():
            claim(page, site, name)
            lobby(page, site)
        for _, page in people.values():
            page.click("#pool-mindi")
        codes = {table_code(page, site) for _, page in people.values()}
        assert len(codes) == 1, codes
        code = codes.pop()
        pages = [page for _, page in people.values()]
        for page in pages:
            expect(page.locator(HAND)).to_have_count(13)
        play_together(pages)
        yield Match(people, code)
    finally:
        for ctx, _ in people.values():
            ctx.close()


def test_four_people_meet_at_one_table_and_finish_the_deal(four: Match) -> None:
    _, page = four.people[FOUR[0]]
    you, table_seats = seats(page, four.code)
    assert [s["kind"] for s in table_seats] == ["human"] * 4
    assert sorted(s["name"] for s in table_seats) == sorted(FOUR)  # display names: usernames
    assert table_seats[you]["name"] == FOUR[0]
    expect(page.locator("#result")).to_be_visible()
    # The match over, the way back to the pool (not pressed here: it would queue again).
    expect(page.locator("#play-again")).to_have_attribute("data-pool", "mindi")


def test_the_leaderboard_and_the_profiles_show_the_new_ratings(four: Match, site: str) -> None:
    _, first = four.people[FOUR[0]]
    after = {name: rated_match(first, name, four.code) for name in FOUR}
    results = {
        name: next(m for m in p["matches"] if m["room"] == four.code) for name, p in after.items()
    }
    winners = [name for name in FOUR if results[name]["result"] == "win"]
    losers = [name for name in FOUR if results[name]["result"] == "loss"]
    assert len(winners) == 2 and len(losers) == 2, results
    ratings = {name: after[name]["ratings"]["mindi"] for name in FOUR}

    # The leaderboard: all four, each with the rating of their profile, the winners above,
    # provisional ("?") after one game; the player's own row highlighted, around them too.
    page = first
    page.goto(site + "/leaderboard/mindi")
    expect(page.locator("#tab-mindi")).to_have_attribute("aria-current", "page")
    rows = page.locator("#board-top tbody tr")
    expect(rows).to_have_count(4)
    order = rows.evaluate_all("rows => rows.map(r => r.dataset.username)")
    assert set(order[:2]) == set(winners) and set(order[2:]) == set(losers)
    for name in FOUR:
        row = page.locator(f'#board-top tr[data-username="{name}"]')
        expect(row.locator(".rating-value")).to_have_text(str(ratings[name]["rating"]))
        expect(row.locator(".deviation")).to_have_text(f"±{ratings[name]['deviation']}")
        expect(row.locator(".provisional")).to_have_count(1)
        expect(row.locator(".games")).to_have_text("1")
    expect(page.locator("#board-top tr.me")).to_have_attribute("data-username", FOUR[0])
    expect(page.locator("#board-around tr.me")).to_have_attribute("data-username", FOUR[0])
    screenshot(page, "leaderboard.png")

    # A winner's profile, from the board's link: the new rating, above the start, its chart
    # (uPlot's canvas) and the match with a gain and a way to its board.
    winner = winners[0]
    page.click(f'#board-top tr[data-username="{winner}"] a')
    expect(page).to_have_url(f"{site}/u/{winner}")
    expect(page.locator("#profile-name")).to_have_text(winner)
    value, line = shown_rating(page, "mindi")
    assert value == ratings[winner]["rating"] > ratings[losers[0]]["rating"]
    assert line.endswith("1 played, 1 won")
    expect(page.locator("#chart-mindi canvas").first).to_be_visible()
    expect(page.locator("#chart-mindi")).to_have_attribute("data-points", "1")
    match = page.locator(f'#profile-matches li[data-room="{four.code}"]')
    expect(match.locator(".match-result")).to_have_text("Won")
    expect(match.locator(".match-change")).to_have_text(f"+{results[winner]['change']}")
    assert results[winner]["change"] > 0
    expect(match.locator(".match-players li")).to_have_count(4)
    expect(page.locator("#profile-finish")).to_have_text(
        "Finished 100% of rated matches (1 finished, 0 left)"
    )
    screenshot(page, "profile.png")
    match.locator(".match-board").click()
    expect(page).to_have_url(f"{site}/t/{four.code}/deals/1")
    expect(page.locator("#analysis-board")).to_be_visible()

    # A loser's own profile (/profile): the loss and the lower rating.
    loser = losers[0]
    _, own = four.people[loser]
    own.goto(site + "/profile")
    expect(own.locator("#profile-name")).to_have_text(loser)
    value, _ = shown_rating(own, "mindi")
    assert value == ratings[loser]["rating"]
    match = own.locator(f'#profile-matches li[data-room="{four.code}"]')
    expect(match.locator(".match-result")).to_have_text("Lost")
    expect(match.locator(".match-change")).to_have_text(f"−{-results[loser]['change']}")


# ---------------------------------------------------------------- alone, with a countdown


def test_a_player_alone_starts_with_computer_players_after_the_countdown(
    browser: Browser, site: str
) -> None:
    ctx, page = person(browser)
    try:
        lobby(page, site)
        page.click("#pool-band")
        expect(page).to_have_url(site + "/play/band")
        # The countdown, seen going down, then the table with three computer players.
        seen: list[str] = []
        deadline = time.monotonic() + 15
        while not TABLE_URL(site).match(page.url):
            text = page.evaluate("document.getElementById('queue-countdown')?.textContent ?? ''")
            if text and (not seen or seen[-1] != text):
                seen.append(text)
            assert time.monotonic() < deadline, seen
            page.wait_for_timeout(100)
        counts = [
            int(m.group(1)) for t in seen if (m := re.match(r"Computer players join in (\d+) s", t))
        ]
        assert len(counts) >= 2 and counts == sorted(counts, reverse=True), seen
        assert counts[0] <= COUNTDOWN
        code = table_code(page, site)
        expect(page.locator(HAND)).to_have_count(13)
        you, table_seats = seats(page, code)
        assert [s["kind"] == "bot" for s in table_seats].count(True) == 3
        assert table_seats[you]["kind"] == "human"
    finally:
        ctx.close()


def test_a_suspended_player_is_told_why_in_the_queue(
    browser: Browser, site: str, home: Path
) -> None:
    ctx, page = person(browser, "hi")
    try:
        lobby(page, site)
        db = f"sqlite:///{home / 'db.sqlite'}"
        [session] = [c["value"] for c in ctx.cookies() if c["name"] == COOKIE]
        sanction(
            db, player_id(db, session), "suspend", dt.datetime.now(dt.UTC) + dt.timedelta(days=2)
        )
        page.click("#pool-mindi")
        refused = page.locator(".queue .message.error")
        expect(refused).to_have_attribute("data-code", "suspended")
        expect(refused).to_contain_text("rude to the table")  # the reason, and until when
        expect(refused).to_contain_text("निलंबित")
        expect(page.locator("#queue-cancel")).to_have_count(0)
        assert ask(page, "GET", "/api/pool")["status"] == "none"
    finally:
        ctx.close()


# ---------------------------------------------------------------- a party; a leaver


def party_of_two(site: str, leader: Page, friend: Page) -> tuple[str, str]:
    """``leader`` makes a party in the lobby and ``friend`` opens its link: both see both
    names; the leader picks Mindi band hukum; both reach one table. The party's code and
    the table's."""
    lobby(leader, site)
    leader.click("#party-new")
    expect(leader).to_have_url(re.compile(re.escape(site) + r"/party/[\w-]+$"))
    link = leader.locator("#party-link").input_value()
    assert link == leader.url
    party = link.rsplit("/", 1)[-1]
    expect(leader.locator("#party-pool-band")).to_be_disabled()  # alone: wait for the friend
    friend.goto(link)  # a first visit: a guest, who joins
    expect(friend.locator("#me-name")).not_to_have_text("")
    names = [ask(p, "GET", "/api/me")["player"]["name"] for p in (leader, friend)]
    for page in (leader, friend):
        expect(page.locator("#party-members .party-name")).to_have_text(names)
    expect(friend.locator("#party-waiting")).to_be_visible()
    expect(friend.locator("#party-pool-band")).to_have_count(0)  # the leader chooses
    leader.click("#party-pool-band")
    codes = {table_code(page, site) for page in (leader, friend)}
    assert len(codes) == 1, codes
    return party, codes.pop()


def test_a_party_sits_opposite_and_a_leaver_alone_pays(browser: Browser, site: str) -> None:
    (lctx, leader), (fctx, friend) = person(browser), person(browser)
    try:
        party, code = party_of_two(site, leader, friend)
        mine, table_seats = seats(leader, code)
        theirs, _ = seats(friend, code)
        assert (mine - theirs) % 4 == 2, (mine, theirs)  # partners, opposite
        assert [s["kind"] for s in table_seats].count("bot") == 2
        play_together([leader, friend])
        stayed = rated_match(leader, None, code)["ratings"]["band"]
        assert rated_match(friend, None, code)["finish_rate"] == 1

        # Again; the friend closes the page at the table: after the turn limit a computer
        # player takes the seat and finishes. The friend's finish rate drops; the partner
        # who stayed is not rated for it.
        ask(leader, "DELETE", f"/api/parties/{party}")
        friend.goto(site + "/")
        _, code = party_of_two(site, leader, friend)
        friend.close()
        expect(leader.locator(HAND)).to_have_count(13)
        play_together([leader])
        left = rated_match(leader, None, code)
        assert left["ratings"]["band"] == stayed
        watcher = fctx.new_page()  # the friend, back later
        watcher.goto(site + "/")
        gone = rated_match(watcher, None, code)
        assert (gone["finished"], gone["left"], gone["finish_rate"]) == (1, 1, 0.5)

        leader.goto(site + "/profile")
        value, _ = shown_rating(leader, "band")
        assert value == stayed["rating"]
        match = leader.locator(f'#profile-matches li[data-room="{code}"]')
        expect(match.locator(".match-change")).to_have_text("not rated")
        watcher.goto(site + "/profile")
        expect(watcher.locator("#profile-finish")).to_have_text(
            "Finished 50% of rated matches (1 finished, 1 left)"
        )
        match = watcher.locator(f'#profile-matches li[data-room="{code}"]')
        expect(match.locator(".tag.off")).to_have_text("left")
        expect(match.locator(".match-result")).to_have_text("Lost")
    finally:
        lctx.close()
        fctx.close()


# ---------------------------------------------------------------- a phone, in Hindi and Punjabi


@pytest.mark.parametrize("lang", ["hi", "pa"])
def test_every_new_page_fits_a_phone(browser: Browser, site: str, four: Match, lang: str) -> None:
    words = STRINGS[lang]
    ctx, page = person(browser, lang, phone=True)
    try:
        lobby(page, site)
        expect(page.locator("#online-panel h2")).to_have_text(words["online.title"])
        expect(page.locator("#pool-ganjifa small")).to_have_text(words["pool.ganjifa.text"])
        fits_a_phone(page)

        page.click("#pool-ganjifa")
        expect(page.locator("#queue-cancel")).to_be_visible()
        expect(page.locator(".queue h1")).to_have_text(
            words["queue.title"].replace("{pool}", words["pool.ganjifa"])
        )
        fits_a_phone(page)
        if lang == "hi":
            screenshot(page, "queue-phone.png")
        page.click("#queue-cancel")
        expect(page).to_have_url(site + "/")
        assert ask(page, "GET", "/api/pool")["status"] == "none"

        page.click("#party-new")
        expect(page.locator("#party-link")).to_be_visible()
        expect(page.locator(".party h1")).to_have_text(words["party.title"])
        fits_a_phone(page)
        page.click("#party-leave")
        expect(page).to_have_url(site + "/")

        page.goto(site + "/leaderboard/mindi")
        expect(page.locator("#board-top tbody tr")).to_have_count(4)
        expect(page.locator("#board-me")).to_have_text(words["leaderboard.you.none"])
        fits_a_phone(page)

        page.goto(f"{site}/u/{FOUR[0]}")
        expect(page.locator("#chart-mindi canvas").first).to_be_visible()
        expect(page.locator("#profile-matches .match")).to_have_count(1)
        fits_a_phone(page)
        if lang == "pa":
            screenshot(page, "profile-phone.png")

        page.goto(site + "/profile")  # a guest's own, with no rating yet
        expect(page.locator("#profile-guest")).to_have_text(words["profile.guest"])
        expect(page.locator("#profile-norating")).to_have_text(words["profile.noratings"])
        fits_a_phone(page)
    finally:
        ctx.close()
