"""Issue 41, seats that follow the player, in a cluster (tests/server/test_cluster.py): a
seat taken, bots seated and the match started through the process that does not own the
table, by sessions alone (the player's id travels in the command's payload between the
processes, and nowhere else); that process's replica knows whose each seat is, and its
socket seats a session's hello without a token. Real processes, a real Redis and a real
PostgreSQL; skipped, as test_cluster's tests are, without them."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx2 as httpx
import websockets
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from hukum.server.db import EventRow
from hukum.server.identity.models import PlayerSession
from hukum.server.identity.sessions import COOKIE, session_hash
from tests.server.helpers import hello
from tests.server.test_cluster import Cluster, cluster, redis_url
from tests.server.test_restart import run

__all__ = ["cluster", "redis_url"]  # the fixtures, from test_cluster


def session_of(base: str) -> str:
    """A new guest's session token, made at the process ``base``."""
    r = httpx.post(base + "/api/me/guest")
    assert r.status_code == 200, r.text
    token: str = r.cookies[COOKIE]
    return token


def stored(database_url: str, code: str) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """The room's stored seat events, and each session's player id (by session hash)."""
    engine = create_engine(database_url)
    try:
        with Session(engine) as s:
            seats = s.scalars(
                select(EventRow.data).where(EventRow.room == code, EventRow.kind == "seat")
            ).all()
            players = {r.token_hash: r.player for r in s.scalars(select(PlayerSession)).all()}
            return [dict(d) for d in seats], players
    finally:
        engine.dispose()


def test_sessions_take_seats_and_start_through_another_process(cluster: Cluster) -> None:
    a, b = cluster.start(), cluster.start()
    asha, ravi = session_of(a.http), session_of(b.http)
    made = httpx.post(a.http + "/api/tables", json={"name": "Asha"}, cookies={COOKIE: asha})
    code = made.json()["code"]
    assert cluster.owner(code) == a.name()
    r = httpx.post(f"{b.http}/api/tables/{code}/seats/2", json={}, cookies={COOKIE: ravi})
    assert r.status_code == 200, r.text
    for path in ("bots", "start"):  # Asha's session at the other process: no token
        r = httpx.post(f"{b.http}/api/tables/{code}/{path}", json={}, cookies={COOKIE: asha})
        assert r.status_code == 200, r.text
    assert cluster.owner(code) == a.name()  # relayed, never moved
    seats, players = stored(cluster.database_url, code)
    ids = [players[session_hash(asha)], players[session_hash(ravi)]]
    assert [s.get("player") for s in seats] == [ids[0], ids[1], None, None]
    for node in (a, b):
        for session, you in ((asha, 0), (ravi, 2), (None, None)):
            cookies = {COOKIE: session} if session else {}
            table = httpx.get(f"{node.http}/api/tables/{code}", cookies=cookies)
            assert table.json()["you"] == you and table.json()["status"] == "playing"
            assert not any(i in table.text for i in ids)

    async def by_session(session: str) -> dict[str, Any]:
        headers = {"Cookie": f"{COOKIE}={session}"}
        async with websockets.connect(b.ws(code), additional_headers=headers) as ws:
            await ws.send(json.dumps(hello(None)))
            message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), timeout=30))
            return message

    for session, seat in ((asha, 0), (ravi, 2)):
        state = run(by_session(session))
        assert state["type"] == "state" and state["view"]["seat"] == seat, state
        assert not any(i in json.dumps(state) for i in ids)
