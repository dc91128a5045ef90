"""Quick match (docs/protocol.md, "Quick match"): join a pool, ask how it goes (a long
poll), leave it; and parties, two friends who queue together and sit opposite.

The routes only check and answer: who waits is kept by :mod:`hukum.server.play.pool`
(in memory, or on the cluster's Redis), whose matchmaker makes the tables.
"""

from __future__ import annotations

import asyncio
import re
import time
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, ConfigDict

from hukum.online.pools import countdown_left
from hukum.server.db import now
from hukum.server.deps import get_store, get_throttle
from hukum.server.identity.sessions import CurrentPlayer, Identities, Me, RequiredPlayer
from hukum.server.play.pool import (
    Entry,
    Matchmaker,
    Party,
    finished,
    new_id,
    standing,
)
from hukum.server.protocol import ProtocolError
from hukum.server.routes.lobby import may_sit

__all__ = ["MAX_WAIT", "JoinPool", "router"]

router = APIRouter(prefix="/api")

#: The longest long poll, in seconds (``GET /api/pool?wait=``).
MAX_WAIT = 25.0
#: A party's code, as :func:`hukum.server.play.pool.new_id` makes them.
PARTY_CODE = re.compile(r"[A-Za-z0-9_-]{10}")


class JoinPool(BaseModel):
    """``POST /api/pool/<pool>``: nothing yet (the pool is in the address)."""

    model_config = ConfigDict(extra="forbid")


def matchmaker(request: Request) -> Matchmaker:
    """The app's matchmaker."""
    found: Matchmaker = request.app.state.matchmaker
    return found


async def _result_state(mm: Matchmaker, request: Request, player: str) -> dict[str, Any] | None:
    """The player's result as the routes tell it (a room not yet finished, or ``requeue``,
    told once), or None; a result whose table is over is forgotten."""
    result = await mm.waiting.result(player)
    if result is None:
        return None
    if result.code is None:
        await mm.waiting.forget(player, result)
        return {"status": "requeue"}
    if await asyncio.to_thread(finished, get_store(request), result.code):
        await mm.waiting.forget(player, result)
        return None
    return {"status": "matched", "pool": result.pool, "code": result.code}


def _waiting(mm: Matchmaker, entry: Entry, count: int, now: float) -> dict[str, Any]:
    pool = mm.pools[entry.pool]
    return {
        "status": "waiting",
        "pool": entry.pool,
        "since": round(max(0.0, now - entry.since), 1),
        "countdown": round(countdown_left(pool, entry.ticket(), now), 1),
        "waiting": count,
    }


async def _state(mm: Matchmaker, request: Request, player: str) -> dict[str, Any]:
    """Where the player is: waiting (keeping the ticket alive), matched, requeue or none."""
    # The ticket first, then the result: a wave removes the one and stores the other in one
    # step, so a ticket seated between the two reads is found by the second.
    held = await mm.waiting.entry(player)
    if held is None:
        return await _result_state(mm, request, player) or {"status": "none"}
    entry, _ = held
    now = mm.clock()
    await mm.waiting.touch(entry.id, now)
    return _waiting(mm, entry, await mm.waiting.count(entry.pool), now)


def _suspended(identities: Identities, players: list[str]) -> bool:
    """Whether any of the players may not sit (a sanction in force)."""
    moment = now()
    with identities.store.session() as s:
        return any(identities.suspension(s, p, moment) is not None for p in players)


@router.post("/pool/{name}")
async def join_pool(
    name: str, request: Request, me: RequiredPlayer, body: JoinPool | None = None
) -> dict[str, Any]:
    """Queue in a pool (a party's member queues the party); a player already waiting moves
    here; a player whose quick-match table is unfinished is told its code instead."""
    mm = matchmaker(request)
    pool = mm.pools.get(name)
    if pool is None:
        raise ProtocolError(
            "unknown_pool", f"no pool {name!r}; the pools are " + ", ".join(sorted(mm.pools))
        )
    may_sit(me)
    await get_throttle(request).take(("pool", me.id))
    told = await _result_state(mm, request, me.id)
    if told is not None and told["status"] == "matched":
        return told
    players, names = [me.id], [me.name]
    party = await mm.waiting.party_of(me.id)
    if party is not None and party.full:
        partners = [p for p in party.members if p != me.id]
        if await asyncio.to_thread(_suspended, request.app.state.identities, partners):
            raise ProtocolError("suspended", "your partner may not sit at the tables now")
        busy = False
        for partner in partners:  # a partner still at a quick-match table: queue alone
            told = await _result_state(mm, request, partner)
            busy = busy or (told is not None and told["status"] == "matched")
        if not busy:
            players, names = list(party.members), list(party.names)
    store = get_store(request)
    stand = await asyncio.to_thread(standing, store, players, pool.name)
    now = mm.clock()
    entry = Entry(
        new_id(),
        pool.name,
        tuple(players),
        tuple(names),
        stand.rating,
        now,
        stand.blocked,
        stand.leaver,
        now,
    )
    joined = await mm.waiting.join(entry)
    if joined.status == "matched":
        assert joined.result is not None
        return {"status": "matched", "pool": joined.result.pool, "code": joined.result.code}
    if joined.status == "taken":  # a wave is seating the player right now
        assert joined.entry is not None
        return _waiting(mm, joined.entry, await mm.waiting.count(joined.entry.pool), now)
    if joined.count >= pool.seats:
        mm.poke()
    return _waiting(mm, entry, joined.count, now)


@router.get("/pool")
async def pool_state(
    request: Request,
    me: CurrentPlayer,
    wait: Annotated[float, Query(ge=0, le=MAX_WAIT)] = 0.0,
) -> dict[str, Any]:
    """Where the player is: ``none``, ``waiting``, ``matched`` (the room's code) or
    ``requeue``. With ``wait`` a long poll: answered at once when matched, else after at
    most ``wait`` seconds. Each call keeps the ticket alive."""
    if me is None:
        return {"status": "none"}
    mm = matchmaker(request)
    deadline = time.monotonic() + wait
    while True:
        state = await _state(mm, request, me.id)
        left = deadline - time.monotonic()
        if state["status"] != "waiting" or left <= 0 or mm.stopping:
            return state
        await mm.wait(me.id, left)


@router.delete("/pool")
async def leave_pool(request: Request, me: RequiredPlayer) -> dict[str, Any]:
    """Leave the queue (a party's ticket, for both)."""
    mm = matchmaker(request)
    entry = await mm.waiting.leave(me.id)
    for player in entry.players if entry is not None else (me.id,):
        mm.listeners.wake(player)  # their long polls here answer now, not at their end
    return {"status": "none"}


# ---------------------------------------------------------------- parties


def _party_view(party: Party, me: Me | None) -> dict[str, Any]:
    return {
        "party": party.code,
        "link": f"/party/{party.code}",
        "members": list(party.names),
        "leader": me is not None and me.id == party.leader,
        "you": me is not None and me.id in party.members,
        "full": party.full,
    }


async def _party(mm: Matchmaker, code: str) -> Party:
    party = await mm.waiting.party(code) if PARTY_CODE.fullmatch(code) else None
    if party is None:
        raise ProtocolError("unknown_party", "no such party (it may have ended)")
    return party


@router.post("/parties")
async def new_party(request: Request, me: RequiredPlayer) -> dict[str, Any]:
    """Make a party led by the caller (leaving any other); share its link with a friend."""
    await get_throttle(request).take(("party", me.id))
    mm = matchmaker(request)
    party = Party(new_id(), me.id, (me.id,), (me.name,))
    await mm.waiting.new_party(party)
    return _party_view(party, me)


@router.get("/parties/{code}")
async def get_party(code: str, request: Request, me: CurrentPlayer) -> dict[str, Any]:
    """A party: its members' display names, and whether the caller leads it, is in it."""
    return _party_view(await _party(matchmaker(request), code), me)


@router.post("/parties/{code}/join")
async def join_party(code: str, request: Request, me: RequiredPlayer) -> dict[str, Any]:
    """Join a party that has room (leaving any other); ``party_full`` when it has two."""
    mm = matchmaker(request)
    # Counted before the code is looked up: a wrong guess counts too.
    await get_throttle(request).take(("party", me.id))
    await _party(mm, code)
    party = await mm.waiting.join_party(code, me.id, me.name)
    if party is None:
        raise ProtocolError("unknown_party", "no such party (it may have ended)")
    if me.id not in party.members:
        raise ProtocolError("party_full", "this party has its two players")
    return _party_view(party, me)


@router.delete("/parties/{code}")
async def leave_party(code: str, request: Request, me: RequiredPlayer) -> dict[str, Any]:
    """Leave a party (its leader leaving ends it); a party's ticket waiting in a pool
    leaves the pool too."""
    mm = matchmaker(request)
    party = await _party(mm, code)
    if me.id in party.members:
        held = await mm.waiting.entry(me.id)
        if held is not None and len(held[0].players) > 1:
            await mm.waiting.leave(me.id)
        await mm.waiting.leave_party(code, me.id)
    return {"party": code, "left": True}
