"""Fair play, for every player (docs/protocol.md, "Fair play"): block a player met at a
table, report one from a finished table, read what was said at a table, see one's own
warnings and suspension.

A player at a table is named by the table's code and the seat: the seat's ``seat`` event
keeps its player (``"player"``, set when the seat was taken with a session), which no page
is ever told. A block is named by an opaque handle of the blocker's own, never the blocked
player's id. What a blocked player says is not sent to the blocker: neither in what was said
at a table (:func:`talk`) nor on the game socket (:class:`Muting`).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Request, WebSocket
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select

from hukum.online.fairplay import MAX_NOTE, Reason
from hukum.server.db import Store, StoredEvent, now
from hukum.server.deps import get_throttle
from hukum.server.identity.models import Block, Player, Report, Sanction
from hukum.server.identity.sessions import (
    CurrentPlayer,
    Me,
    RequiredPlayer,
    identities,
    ws_player,
)
from hukum.server.protocol import ProtocolError
from hukum.server.tables import Room
from hukum.server.tables.seats import token_hash
from hukum.server.tables.talk import said_lines

__all__ = [
    "WARNING_SHOWN",
    "Muting",
    "block_handle",
    "muting",
    "router",
    "sanction_json",
    "seat_players",
    "utc",
]

router = APIRouter()

Code = Annotated[str, Field(min_length=1, max_length=16)]

#: How long a player is shown a warning.
WARNING_SHOWN = dt.timedelta(days=30)


class AtTable(BaseModel):
    """A player at a table: the table's code and the seat."""

    model_config = ConfigDict(extra="forbid")
    table: Code
    seat: Annotated[int, Field(ge=0, le=15)]


class NewReport(AtTable):
    """``POST /api/reports``."""

    reason: Reason
    note: Annotated[str, Field(max_length=MAX_NOTE)] = ""


def block_handle(player: str, blocked: str) -> str:
    """The handle a block is shown by: opaque, the blocker's own (nobody else's block of
    the same player has it), and never the blocked player's id."""
    return hashlib.sha256(f"hukum-block:{player}:{blocked}".encode()).hexdigest()[:24]


def _events(store: Store, code: str) -> list[StoredEvent]:
    if store.room(code) is None:
        raise ProtocolError("unknown_table", f"no table {code!r}")
    return store.events(code)


def seat_players(events: list[StoredEvent]) -> dict[int, tuple[str, str, str | None]]:
    """Each seat's kind, name and player (None: a bot, nobody, or taken without a
    session), as the table's ``seat`` events last left them."""
    seats: dict[int, tuple[str, str, str | None]] = {}
    for ev in events:
        seat = ev.data.get("seat")
        if ev.kind == "seat" and isinstance(seat, int):
            player = ev.data.get("player")
            seats[seat] = (
                str(ev.data.get("kind", "")),
                str(ev.data.get("name", "")),
                player if isinstance(player, str) else None,
            )
    return seats


def _player_at(events: list[StoredEvent], seat: int, me: Me) -> str:
    """The player at ``seat``; refused ``not_a_player`` (a bot, nobody, no session) or
    ``yourself``."""
    kind, _, player = seat_players(events).get(seat, ("empty", "", None))
    if kind != "human" or player is None:
        raise ProtocolError("not_a_player", f"seat {seat} holds no player who can be named")
    if player == me.id:
        raise ProtocolError("yourself", "that is your own seat")
    return player


# ------------------------------------------------------------ blocks


def _blocked(store: Store, me: Me) -> list[tuple[str, str, dt.datetime]]:
    """The players ``me`` blocked: their id, display name, since when."""
    with store.session() as s:
        rows = s.execute(
            select(Block.blocked, Player.name, Block.created_at)
            .join(Player, Player.id == Block.blocked)
            .where(Block.player == me.id)
            .order_by(Block.created_at)
        ).all()
    return [(b, n, c) for b, n, c in rows]


@router.get("/api/blocks")
def blocks(request: Request, me: RequiredPlayer, table: Code | None = None) -> dict[str, Any]:
    """The players I blocked (display name, handle); with ``?table=CODE`` also the seats of
    that table whose player I blocked (and the block's handle)."""
    store = identities(request).store
    mine = _blocked(store, me)
    answer: dict[str, Any] = {
        "blocks": [
            {"handle": block_handle(me.id, b), "name": n, "since": c.isoformat()}
            for b, n, c in mine
        ]
    }
    if table is not None:
        ids = {b for b, _, _ in mine}
        seats = seat_players(_events(store, table))
        answer["seats"] = [
            {"seat": i, "handle": block_handle(me.id, p)}
            for i, (_, _, p) in sorted(seats.items())
            if p is not None and p in ids
        ]
    return answer


@router.post("/api/blocks")
def block(body: AtTable, request: Request, me: RequiredPlayer) -> dict[str, Any]:
    """Block the player at a table's seat (blocking again changes nothing)."""
    store = identities(request).store
    blocked = _player_at(_events(store, body.table), body.seat, me)
    with store.session() as s:
        if s.get(Block, (me.id, blocked)) is None:
            s.add(Block(player=me.id, blocked=blocked))
            s.commit()
        name = s.get(Player, blocked)
        shown = name.name if name is not None else ""
    return {"block": {"handle": block_handle(me.id, blocked), "name": shown}}


@router.delete("/api/blocks/{handle}")
def unblock(handle: str, request: Request, me: RequiredPlayer) -> dict[str, Any]:
    """End a block, by its handle."""
    store = identities(request).store
    with store.session() as s:
        for row in s.scalars(select(Block).where(Block.player == me.id)).all():
            if secrets.compare_digest(block_handle(me.id, row.blocked), handle):
                s.delete(row)
                s.commit()
                return {"unblocked": handle}
    raise ProtocolError("not_found", "no such block")


def _blocks_of(store: Store, player: str) -> set[str]:
    with store.session() as s:
        return set(s.scalars(select(Block.blocked).where(Block.player == player)).all())


# ------------------------------------------------------------ what was said


class Talk(BaseModel):
    """``POST /api/tables/<code>/talk``: the token of the seat asking, if any."""

    model_config = ConfigDict(extra="forbid")
    token: Annotated[str, Field(max_length=64)] | None = None


@router.post("/api/tables/{code}/talk")
def talk(code: str, body: Talk, request: Request, me: CurrentPlayer) -> dict[str, Any]:
    """What was said at a table, in order (a blocked player's lines left out for the one
    who blocked them). In a room that allows no watchers, only for its seats (the token of
    one, or the session of a player who sat there) and moderators (``no_spectators``)."""
    store = identities(request).store
    events = _events(store, code)
    config = store.room(code) or {}
    if config.get("spectators") is not True:
        seats = [ev.data for ev in events if ev.kind == "seat"]
        held = body.token is not None and any(
            d.get("token") is not None
            and secrets.compare_digest(d["token"], token_hash(body.token))
            for d in seats
        )
        sat = me is not None and any(d.get("player") == me.id for d in seats)
        if not (held or sat or (me is not None and me.role == "moderator")):
            raise ProtocolError("no_spectators", "what is said here is for its players")
    muted = _blocks_of(store, me.id) if me is not None else set()
    return {"lines": said_lines(events, lambda seat, player: player in muted)}


class Muting:
    """What one game socket is not told: the lines of the players its player blocked (a
    ``said`` event's message goes on with ``"hidden": true`` and no words, so that the
    event numbers stay whole). Whose each seat is, the table knows (:attr:`Seat.player
    <hukum.server.tables.seats.Seat.player>`); whom the player blocked is read at each line,
    so that a block made meanwhile counts at once."""

    def __init__(self, store: Store, room: Room, player: str) -> None:
        self.store, self.room, self.player = store, room, player

    def _blocked(self, speaker: str) -> bool:
        with self.store.session() as s:
            return s.get(Block, (self.player, speaker)) is not None

    async def __call__(self, message: dict[str, Any]) -> dict[str, Any]:
        """The message as this socket is told it."""
        seat = message.get("seat")
        if message.get("kind") != "said" or not isinstance(seat, int):
            return message
        seats = self.room.seats
        speaker = seats[seat].player if 0 <= seat < len(seats) else None
        if speaker is None or not await asyncio.to_thread(self._blocked, speaker):
            return message
        quiet = {k: v for k, v in message.items() if k not in ("phrase", "text")}
        quiet["hidden"] = True
        return quiet


async def muting(websocket: WebSocket, room: Room) -> Muting | None:
    """The :class:`Muting` of a game socket whose handshake carries a session; None
    without one."""
    me = await asyncio.to_thread(ws_player, websocket)
    if me is None:
        return None
    return Muting(identities(websocket).store, room, me.id)


# ------------------------------------------------------------ reports


@router.post("/api/reports")
async def report(body: NewReport, request: Request, me: RequiredPlayer) -> dict[str, Any]:
    """Report the player at a seat of a finished table, with a reason from the list; the
    table's event log is the record a moderator reads. One report per reporter, table and
    player; a player's reports are rate-limited (``report`` of :mod:`hukum.server.throttle`)."""
    store = identities(request).store
    reported = await asyncio.to_thread(_reportable, store, body, me)
    await get_throttle(request).take(("report", me.id))
    return await asyncio.to_thread(_add_report, store, body, me, reported)


def _reportable(store: Store, body: NewReport, me: Me) -> str:
    """The player ``me`` may report at that seat, or the refusal."""
    events = _events(store, body.table)
    if not any(ev.kind == "match_over" for ev in events):
        raise ProtocolError("not_over", "a player is reported once the match is over")
    reported = _player_at(events, body.seat, me)
    if not any(p == me.id for _, _, p in seat_players(events).values()):
        raise ProtocolError("not_at_table", "only the players of a table may report from it")
    with store.session() as s:
        same = s.scalars(
            select(Report.id).where(
                Report.reporter == me.id, Report.room == body.table, Report.reported == reported
            )
        ).first()
    if same is not None:
        raise ProtocolError("already_reported", "you have reported this player at this table")
    return reported


def _add_report(store: Store, body: NewReport, me: Me, reported: str) -> dict[str, Any]:
    with store.session() as s:
        row = Report(
            reporter=me.id,
            reported=reported,
            room=body.table,
            reason=body.reason,
            note=" ".join(body.note.split()),
        )
        s.add(row)
        s.commit()
        return {"report": {"id": row.id, "table": body.table, "seat": body.seat}}


# ------------------------------------------------------------ my sanctions


def sanction_json(row: Sanction) -> dict[str, Any]:
    """A sanction as its player (and a moderator) sees it."""
    return {
        "id": row.id,
        "kind": row.kind,
        "reason": row.reason,
        "until": None if row.until is None else utc(row.until).isoformat(),
        "since": utc(row.created_at).isoformat(),
        "lifted": None if row.lifted_at is None else utc(row.lifted_at).isoformat(),
        "lift_reason": row.lift_reason,
    }


def utc(when: dt.datetime) -> dt.datetime:
    """A stored time with its zone (SQLite gives it back naive, in UTC)."""
    return when if when.tzinfo is not None else when.replace(tzinfo=dt.UTC)


@router.get("/api/me/sanctions")
def my_sanctions(request: Request, me: RequiredPlayer) -> dict[str, Any]:
    """My sanctions in force: a closing, a suspension not yet over, the warnings of the
    last :data:`WARNING_SHOWN`; each with the reason a moderator gave."""
    moment = now()
    with identities(request).store.session() as s:
        rows = s.scalars(
            select(Sanction)
            .where(Sanction.player == me.id, Sanction.lifted_at.is_(None))
            .order_by(Sanction.created_at.desc())
        ).all()
        shown = [
            sanction_json(r)
            for r in rows
            if r.kind == "close"
            or (r.kind == "suspend" and r.until is not None and utc(r.until) > moment)
            or (r.kind == "warn" and moment - utc(r.created_at) < WARNING_SHOWN)
        ]
    return {
        "sanctions": shown,
        "suspension": None if me.suspension is None else me.suspension.json(),
    }
