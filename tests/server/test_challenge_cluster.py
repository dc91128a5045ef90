"""The daily challenge on a cluster (issue 42; tests/server/test_cluster.py): both
processes show the one challenge of the day; a deal started at one process is played to its
end through the other's socket, by the account's session alone, against the expert at the
table's owner; it is scored once, and both processes give the same result and refuse to
start it again. Real processes, a real Redis and a real PostgreSQL; skipped, as
test_cluster's tests are, without them."""

from __future__ import annotations

import datetime as dt
import time

import httpx2 as httpx

from hukum.server.identity.sessions import COOKIE
from tests.server.helpers import Player
from tests.server.test_cluster import Cluster, cluster, play, redis_url
from tests.server.test_ratings import PASSWORD
from tests.server.test_restart import run

__all__ = ["cluster", "redis_url"]  # the fixtures, from test_cluster


def account_at(base: str, username: str) -> httpx.Client:
    """A browser at the process ``base`` whose guest claimed the account ``username``."""
    browser = httpx.Client(base_url=base, timeout=30)
    assert browser.post("/api/me/guest").status_code == 200
    claim = {"username": username, "password": PASSWORD}
    r = browser.post("/api/account/claim", json=claim)
    assert r.status_code == 200, r.text
    return browser


def test_a_challenge_deal_is_played_through_another_process(cluster: Cluster) -> None:
    a, b = cluster.start(), cluster.start()
    asha = account_at(a.http, "Asha")
    session = asha.cookies[COOKIE]
    at_b = httpx.Client(base_url=b.http, cookies={COOKIE: session}, timeout=30)
    today, there = asha.get("/api/challenge").json(), at_b.get("/api/challenge").json()
    assert today["day"] == there["day"] == dt.datetime.now(dt.UTC).date().isoformat()
    commitments = [d["commitment"] for d in today["deals"]]
    assert [d["commitment"] for d in there["deals"]] == commitments  # one challenge
    day = today["day"]
    r = asha.post(f"/api/challenge/{day}/deals/3/play")
    assert r.status_code == 200, r.text
    code = r.json()["code"]
    assert cluster.owner(code) == a.name()
    assert at_b.post(f"/api/challenge/{day}/deals/3/play").json()["code"] == code  # resumed

    me = Player()
    seen = run(play(lambda: b.ws(code), None, me, session=session, seconds=600))
    assert me.match_over and me.moves == 13 and not me.errors, me.errors
    assert seen.player.log[0]["view"]["commitment"] == commitments[2]
    over = [m for m in me.log if m.get("kind") == "deal_over"]
    assert len(over) == 1 and over[0]["seed"] is None  # revealed when the day closes
    assert cluster.owner(code) == a.name()  # relayed, never moved

    give_up = time.monotonic() + 60  # the result is stored by the owner's writer, just after
    while not asha.get("/api/challenge").json()["deals"][2]["finished"]:
        assert time.monotonic() < give_up, "the finished deal was never scored"
        time.sleep(0.2)
    for browser in (asha, at_b):
        mine = browser.get("/api/challenge").json()["deals"][2]
        assert mine["finished"] and mine["room"] == code and mine["field"] == 1
        results = browser.get(f"/api/challenge/{day}/deals/3/results").json()
        assert [(x["username"], x["you"]) for x in results] == [("Asha", True)]
        again = browser.post(f"/api/challenge/{day}/deals/3/play")
        assert again.status_code == 409 and again.json()["error"]["code"] == "already_played"
