"""The moderators' API (``/api/moderation/…``; anyone else is refused ``not_moderator``):
the reports with their table's record, what was said there and the reported player's
sanctions (a report the fair-play screening made, reason ``screening`` and no reporter, has
the player's tally and the hit decisions, each a link to its position on the board); warn,
suspend for some days or close the account of a reported player, each with the reason the
player sees; lift a sanction (with a reason); close a report. Every action
is kept in ``sanctions`` (who, when, why), never deleted. Moderators are made with
``hukum admin grant-moderator NAME``.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select
from sqlalchemy.orm import Session

from hukum.online.fairplay import MAX_REASON, MAX_SUSPENSION_DAYS, SCREENING
from hukum.server.db import now
from hukum.server.identity.models import Player, Report, Sanction
from hukum.server.identity.sessions import Me, identities, require_player
from hukum.server.play.screening import evidence_of, tally_of
from hukum.server.protocol import ProtocolError
from hukum.server.routes.fairplay import sanction_json, seat_players, utc
from hukum.server.tables.talk import said_lines

__all__ = ["require_moderator", "router"]

router = APIRouter(prefix="/api/moderation")

Why = Annotated[str, Field(min_length=1, max_length=MAX_REASON)]


def require_moderator(request: Request) -> Me:
    """The request's player, a moderator; refused ``no_session`` or ``not_moderator``."""
    me = require_player(request)
    if me.role != "moderator":
        raise ProtocolError("not_moderator", "only a moderator may do this")
    return me


Moderator = Annotated[Me, Depends(require_moderator)]


class NewSanction(BaseModel):
    """``POST /api/moderation/reports/<id>/sanctions``: what, why (the player reads it),
    and a suspension's days."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["warn", "suspend", "close"]
    reason: Why
    days: Annotated[int, Field(ge=1, le=MAX_SUSPENSION_DAYS)] | None = None


class Lift(BaseModel):
    """``POST /api/moderation/sanctions/<id>/lift``: why it is lifted."""

    model_config = ConfigDict(extra="forbid")
    reason: Why


def _report(s: Session, number: int) -> Report:
    row = s.get(Report, number)
    if row is None:
        raise ProtocolError("not_found", f"no report {number}")
    return row


def _name(s: Session, player: str | None) -> str:
    found = s.get(Player, player) if player is not None else None
    return found.name if found is not None else ""


def _report_json(s: Session, row: Report, request: Request) -> dict[str, Any]:
    events = identities(request).store.events(row.room)
    seats = [i for i, (_, _, p) in sorted(seat_players(events).items()) if p == row.reported]
    player = s.get(Player, row.reported)
    sanctions = s.scalars(
        select(Sanction).where(Sanction.player == row.reported).order_by(Sanction.created_at)
    ).all()
    store = identities(request).store
    screening = (
        {"tally": tally_of(store, row.reported), "decisions": evidence_of(store, row.reported)}
        if row.reason == SCREENING
        else None
    )
    return {
        "id": row.id,
        "table": row.room,
        "record": f"/t/{row.room}",
        "board": f"/t/{row.room}/deals/1",
        "reason": row.reason,
        "note": row.note,
        "since": utc(row.created_at).isoformat(),
        "closed": None if row.closed_at is None else utc(row.closed_at).isoformat(),
        "seat": seats[0] if seats else None,
        "reported": {
            "name": player.name if player is not None else "",
            "username": player.username if player is not None else None,
            "moderator": player is not None and player.role == "moderator",
        },
        "reporter": _name(s, row.reporter),
        "talk": said_lines(events),
        "sanctions": [{**sanction_json(x), "by": _name(s, x.moderator)} for x in sanctions],
        "screening": screening,
    }


@router.get("/reports")
def reports(request: Request, me: Moderator, closed: bool = False) -> dict[str, Any]:
    """The open reports, oldest first (``?closed=true``: the closed ones, newest first)."""
    with identities(request).store.session() as s:
        query = select(Report).where(
            Report.closed_at.is_not(None) if closed else Report.closed_at.is_(None)
        )
        order = Report.created_at.desc() if closed else Report.created_at
        rows = s.scalars(query.order_by(order, Report.id).limit(100)).all()
        return {"reports": [_report_json(s, r, request) for r in rows]}


@router.get("/reports/{number}")
def one_report(number: int, request: Request, me: Moderator) -> dict[str, Any]:
    """One report, open or closed."""
    with identities(request).store.session() as s:
        return {"report": _report_json(s, _report(s, number), request)}


@router.post("/reports/{number}/sanctions")
def sanction(number: int, body: NewSanction, request: Request, me: Moderator) -> dict[str, Any]:
    """Warn, suspend for ``days`` or close the account of the report's player, with the
    reason they see; logged with who and when."""
    if (body.kind == "suspend") != (body.days is not None):
        raise ProtocolError("bad_request", "a suspension, and only a suspension, has its days")
    with identities(request).store.session() as s:
        row = _report(s, number)
        if row.reported == me.id:
            raise ProtocolError("yourself", "another moderator deals with a report of you")
        moment = now()
        until = moment + dt.timedelta(days=body.days) if body.days is not None else None
        kept = Sanction(
            player=row.reported,
            moderator=me.id,
            kind=body.kind,
            reason=body.reason.strip(),
            until=until,
            created_at=moment,
        )
        s.add(kept)
        s.commit()
        return {"sanction": {**sanction_json(kept), "by": me.name}}


@router.post("/sanctions/{number}/lift")
def lift(number: int, body: Lift, request: Request, me: Moderator) -> dict[str, Any]:
    """Lift (reverse) a sanction, with the reason; logged with who and when."""
    with identities(request).store.session() as s:
        row = s.get(Sanction, number)
        if row is None:
            raise ProtocolError("not_found", f"no sanction {number}")
        if row.lifted_at is not None:
            raise ProtocolError("already_lifted", "this sanction has been lifted")
        row.lifted_at, row.lifted_by, row.lift_reason = now(), me.id, body.reason.strip()
        s.commit()
        return {"sanction": {**sanction_json(row), "by": _name(s, row.moderator)}}


@router.post("/reports/{number}/close")
def close(number: int, request: Request, me: Moderator) -> dict[str, Any]:
    """Close a report (dealt with); closing it again changes nothing."""
    with identities(request).store.session() as s:
        row = _report(s, number)
        if row.closed_at is None:
            row.closed_at = now()
            s.commit()
        return {"report": _report_json(s, row, request)}
