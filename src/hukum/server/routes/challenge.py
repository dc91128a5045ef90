"""The daily challenge (docs/protocol.md, "Daily challenge"): the day's deals and their
commitments, starting (or resuming) one's table of a deal, the field of a deal once one
has played it, the day's and the week's leaderboards, and after the close each decision
compared with the field and the solver.

The routes only check and answer: the rules and the scoring are
:mod:`hukum.online.challenge`'s, the rows :mod:`hukum.server.play.challenge`'s.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import re
from collections.abc import Sequence
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request

from hukum.online.challenge import (
    BOT,
    DEALS,
    SEAT,
    closes_at,
    day_score,
    days_of_week,
    deal_key,
    preset_of,
    rules_of,
    week_of,
    week_score,
)
from hukum.online.challenge import GAME as CHALLENGE_GAME
from hukum.server.db import Store
from hukum.server.deps import get_registry, get_store, get_throttle
from hukum.server.identity.sessions import CurrentPlayer, Me, RequiredPlayer
from hukum.server.play.challenge import (
    DayDeal,
    Entry,
    by_deal,
    closed,
    day_of,
    deal_percentages,
    entries_of_day,
    entry_of,
    make_day,
    start_entry,
    today,
)
from hukum.server.play.field import compare
from hukum.server.protocol import ProtocolError
from hukum.server.routes.lobby import may_sit
from hukum.server.tables import Registry
from hukum.server.tables.config import TableConfig
from hukum.server.tables.seats import Seat

__all__ = ["TOP", "router"]

router = APIRouter(prefix="/api/challenge")

#: The most players a leaderboard lists.
TOP = 100


#: A day as the addresses name it.
DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def _day(text: str) -> dt.date:
    """A day named ``YYYY-MM-DD`` (``unknown_challenge`` if it is none)."""
    if DAY.fullmatch(text):
        try:
            return dt.date.fromisoformat(text)
        except ValueError:  # 2026-02-30
            pass
    raise ProtocolError("unknown_challenge", f"no daily challenge {text!r} (days are YYYY-MM-DD)")


async def _deals(store: Store, day: dt.date) -> list[DayDeal]:
    """A day's deals: today's made on first use; a past day's if it had a challenge;
    ``unknown_challenge`` otherwise (a future day, or a day before any challenge)."""
    now = today()
    if day > now:
        raise ProtocolError("unknown_challenge", f"the challenge of {day} has not begun")
    if day == now:
        return await asyncio.to_thread(make_day, store, day)
    found = await asyncio.to_thread(day_of, store, day)
    if found is None:
        raise ProtocolError("unknown_challenge", f"there was no daily challenge on {day}")
    return found


def _number(n: int) -> int:
    if not 1 <= n <= DEALS:
        raise ProtocolError("unknown_deal", f"a day's deals are numbered 1 to {DEALS}, not {n}")
    return n


async def _challenge(store: Store, day: dt.date, me: Me | None) -> dict[str, Any]:
    deals = await _deals(store, day)
    is_closed = closed(day)
    entries = await asyncio.to_thread(entries_of_day, store, day)
    grouped = by_deal(entries)
    mine: list[float | None] = []
    played_any = False
    out = []
    for d in deals:
        field = grouped.get(d.number, [])
        shares = deal_percentages(field, is_closed)
        own = next((e for e in field if me is not None and e.player == me.id), None)
        percent = shares.get(own.id) if own is not None and own.finished else None
        if own is not None:
            played_any = True
            mine.append(shares.get(own.id, 0.0))
        out.append(
            {
                "number": d.number,
                "dealer": d.dealer,
                "commitment": d.commitment,
                "seed": str(d.seed) if is_closed else None,
                "played": own is not None,
                "finished": own is not None and own.finished,
                "room": own.room if own is not None else None,
                "percent": percent,
                "field": sum(1 for e in field if e.finished),
            }
        )
    return {
        "day": day.isoformat(),
        "game": CHALLENGE_GAME,
        "preset": deals[0].preset if deals else None,
        "closes_at": closes_at(day).isoformat(),
        "closed": is_closed,
        "week": week_of(day),
        "deals": out,
        "score": day_score(mine) if played_any else None,
    }


@router.get("")
async def challenge_today(request: Request, me: CurrentPlayer) -> dict[str, Any]:
    """Today's challenge: its deals (dealer, commitment; the caller's table and percentage
    of each), when it closes, the caller's score so far."""
    return await _challenge(get_store(request), today(), me)


@router.post("/{day}/deals/{number}/play")
async def play(
    day: str,
    number: int,
    request: Request,
    me: RequiredPlayer,
    registry: Annotated[Registry, Depends(get_registry)],
) -> dict[str, Any]:
    """Start the caller's table of a deal (their seat 0, the expert at the others), or give
    back their unfinished one: ``{"code"}``. Once per account: ``already_played`` once
    finished; accounts only (``account_needed``); not after the close
    (``challenge_closed``)."""
    when = _day(day)
    n = _number(number)
    if me.username is None:
        raise ProtocolError("account_needed", "claim an account to play the daily challenge")
    may_sit(me)
    await get_throttle(request).take(("challenge", me.id))
    store = get_store(request)
    if closed(when):
        await _deals(store, when)  # a day that never had a challenge is unknown
        raise ProtocolError("challenge_closed", f"the challenge of {when} has closed")
    await _deals(store, when)
    held = await asyncio.to_thread(entry_of, store, when, n, me.id)
    if held is not None:
        if held.finished:
            raise ProtocolError("already_played", f"you have played deal {n} of {when}")
        return {"code": held.room}
    config = TableConfig(
        rules_of(when),
        preset_of(when),
        BOT,
        None,  # no turn limit: no computer player ever plays for the person
        CHALLENGE_GAME,
        spectators=False,
        hints=False,
        bot_speed="normal",
        chat=False,
        pool=None,
        challenge=deal_key(when, n),
    )
    seats = [
        Seat("human", me.name, None, player=me.id) if i == SEAT else Seat("bot", "")
        for i in range(4)
    ]
    code = await registry.spawn(config, seats)
    entry, made = await asyncio.to_thread(start_entry, store, when, n, me.id, me.name, code)
    # A concurrent request of the same player made the entry first: theirs is the table
    # (this one's stays unplayed, counted nowhere).
    if not made and entry.finished:
        raise ProtocolError("already_played", f"you have played deal {n} of {when}")
    return {"code": entry.room}


@router.get("/{day}")
async def challenge_of_day(day: str, request: Request, me: CurrentPlayer) -> dict[str, Any]:
    """A day's challenge (``YYYY-MM-DD``), as ``GET /api/challenge``; a past day's shows its
    seeds; a future day, or one with no challenge: ``unknown_challenge``."""
    return await _challenge(get_store(request), _day(day), me)


def _named(entry: Entry) -> dict[str, Any]:
    return {"name": entry.name, "username": entry.username}


@router.get("/{day}/deals/{number}/results")
async def results(day: str, number: int, request: Request, me: CurrentPlayer) -> list[Any]:
    """The field of one deal, best first: each player's tens, tricks, whether they won and
    their percentage; only to a caller who finished the deal, or after the close
    (``play_first``)."""
    when, n = _day(day), _number(number)
    store = get_store(request)
    await _deals(store, when)
    is_closed = closed(when)
    entries = [e for e in await asyncio.to_thread(entries_of_day, store, when) if e.number == n]
    own = next((e for e in entries if me is not None and e.player == me.id), None)
    if not is_closed and (own is None or not own.finished):
        raise ProtocolError("play_first", "the field of a deal is shown once you have played it")
    shares = deal_percentages(entries, is_closed)
    rows = [e for e in entries if e.id in shares]
    rows.sort(key=lambda e: (-shares[e.id], e.id))
    return [
        {
            **_named(e),
            "tens": e.tens if e.finished else None,
            "tricks": e.tricks if e.finished else None,
            "won": e.won if e.finished else None,
            "finished": e.finished,
            "percent": round(shares[e.id], 2),
            "you": own is not None and e.id == own.id,
        }
        for e in rows
    ]


def _ranked(
    scores: dict[str, tuple[float, int, Entry]], me: Me | None
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """Rows ranked by score (equal scores share a rank), the first :data:`TOP`, and the
    caller's own row."""
    order = sorted(scores.items(), key=lambda kv: (-kv[1][0], kv[1][2].name, kv[0]))
    rows: list[dict[str, Any]] = []
    mine = None
    rank, last = 0, None
    for i, (player, (score, played, entry)) in enumerate(order, start=1):
        if last is None or score != last:
            rank, last = i, score
        row = {"rank": rank, **_named(entry), "score": round(score, 2), "played": played}
        if i <= TOP:
            rows.append(row)
        if me is not None and player == me.id:
            mine = row
    return rows, mine


def _day_scores(entries: Sequence[Entry], is_closed: bool) -> dict[str, tuple[float, int, Entry]]:
    """Each named player's day score, deals played, and one of their entries (their name),
    by player id (a deleted account's entries count in the field but are listed nowhere)."""
    shares: dict[int, float] = {}
    for field in by_deal(entries).values():
        shares.update(deal_percentages(field, is_closed))
    per: dict[str, list[Entry]] = {}
    for e in entries:
        if e.player is not None:
            per.setdefault(e.player, []).append(e)
    return {
        player: (day_score([shares.get(e.id, 0.0) for e in own]), len(own), own[0])
        for player, own in per.items()
    }


@router.get("/week/{week}/leaderboard")
async def week_leaderboard(week: str, request: Request, me: CurrentPlayer) -> dict[str, Any]:
    """A week's leaderboard (``2026-W49``): each player's week score, the mean of its 7 days
    (a day not played counts 0), the top :data:`TOP` and the caller's row."""
    try:
        days = days_of_week(week)
    except ValueError:
        raise ProtocolError(
            "unknown_challenge", f"no week {week!r} (weeks are named e.g. 2026-W49)"
        ) from None
    store = get_store(request)
    now = today()
    per_day: list[dict[str, tuple[float, int, Entry]]] = []
    for d in days:
        if d > now:
            continue
        entries = await asyncio.to_thread(entries_of_day, store, d)
        per_day.append(_day_scores(entries, closed(d)))
    totals: dict[str, tuple[float, int, Entry]] = {}
    for player in {p for scores in per_day for p in scores}:
        days_played = [scores[player] for scores in per_day if player in scores]
        totals[player] = (
            week_score([s[0] for s in days_played]),
            sum(s[1] for s in days_played),
            days_played[-1][2],
        )
    top, mine = _ranked(totals, me)
    return {"week": week, "final": days[-1] < now, "top": top, "me": mine}


@router.get("/{day}/leaderboard")
async def day_leaderboard(day: str, request: Request, me: CurrentPlayer) -> dict[str, Any]:
    """A day's leaderboard: each player's day score (the mean of the 8 deals' percentages,
    a deal not played counting 0) and deals played; ``final`` once the day has closed."""
    when = _day(day)
    store = get_store(request)
    await _deals(store, when)
    is_closed = closed(when)
    entries = await asyncio.to_thread(entries_of_day, store, when)
    top, mine = _ranked(_day_scores(entries, is_closed), me)
    return {"day": when.isoformat(), "final": is_closed, "top": top, "me": mine}


@router.get("/{day}/deals/{number}/field")
async def field(
    day: str,
    number: int,
    request: Request,
    me: CurrentPlayer,
    room: Annotated[str | None, Query(max_length=16)] = None,
) -> dict[str, Any]:
    """After the close: at each decision of seat 0 at the caller's table of the deal (or
    the table ``room`` of it), the share of the field who stood at the same position and
    played each legal card, and the solver's value of each card (``challenge_open``
    before)."""
    when, n = _day(day), _number(number)
    store = get_store(request)
    deals = await _deals(store, when)
    if not closed(when):
        raise ProtocolError(
            "challenge_open",
            "a daily challenge deal's field opens when its day closes",
            closes_at=closes_at(when).isoformat(),
        )
    deal = next(d for d in deals if d.number == n)
    return await compare(store, when, deal, room, me)
