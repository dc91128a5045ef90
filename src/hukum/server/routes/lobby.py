"""The lobby API: create a room, look at it, take a seat, fill with bots, start, record."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field

from hukum.game import GameError
from hukum.games import game_named
from hukum.server.deps import client_address, get_registry, get_throttle
from hukum.server.identity.sessions import (
    CurrentPlayer,
    Me,
)
from hukum.server.play.challenge import refuse_open
from hukum.server.protocol import ProtocolError, refused
from hukum.server.tables import Registry, TableConfig, commands
from hukum.server.throttle import ROOMS_PER_HOUR

__all__ = ["ROOMS_PER_HOUR", "router"]

router = APIRouter(prefix="/api/tables")

Reg = Annotated[Registry, Depends(get_registry)]
#: The player whose session the request carries, or None (an API client, the load script).
Name = Annotated[str, Field(max_length=40)]


class CreateTable(BaseModel):
    """``POST /api/tables``."""

    model_config = ConfigDict(extra="forbid")
    game: Annotated[str, Field(max_length=20)] = "mindi"
    preset: Annotated[str, Field(max_length=40)] | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    bots: Annotated[str, Field(max_length=20)] = "rules"
    name: Name = ""
    turn_timeout: Annotated[float, Field(ge=1, le=86400)] | None = 60.0
    start_now: bool = False
    spectators: bool = False
    """Whether people without a seat may watch the table (``/ws/<code>``, a watcher's hello)."""
    hints: bool = False
    """Whether every player may ask for a suggested move (a ``hint`` message); a person alone
    with bots may ask in any room."""
    bot_speed: Literal["slow", "normal", "fast"] = "normal"
    """How quickly the computer players move (the creator's ``bot_speed`` preference)."""
    chat: bool = False
    """Whether the seats may say free lines, besides the quick phrases (docs/protocol.md,
    "Fair play")."""


class TakeSeat(BaseModel):
    """``POST /api/tables/<code>/seats/<seat>``."""

    model_config = ConfigDict(extra="forbid")
    name: Name = ""


class WithToken(BaseModel):
    """A request made by a seated person: with the seat's token, or without one by the
    player whose session holds the seat."""

    model_config = ConfigDict(extra="forbid")
    token: Annotated[str, Field(max_length=64)] | None = None


def may_sit(me: Me | None) -> str | None:
    """The id of the request's player (None without a session), refused ``suspended`` when a
    moderator has suspended or closed them (with the reason, and the end or null)."""
    if me is None:
        return None
    if me.suspension is not None:
        raise ProtocolError(
            "suspended",
            "a moderator has suspended this player from the tables",
            **me.suspension.json(),
        )
    return me.id


def seat_name(given: str, me: Me | None) -> str:
    """A seat's name: the one given, else the display name of the request's player."""
    return given or (me.name if me is not None else "")


@router.post("")
async def create_table(
    body: CreateTable, registry: Reg, request: Request, me: CurrentPlayer
) -> dict[str, Any]:
    """Create a room and seat its creator at 0 (a session's player kept with the seat); with
    ``start_now`` fill with bots and start."""
    player = may_sit(me)
    try:
        spec = game_named(body.game)
        preset = body.preset or spec.default_preset
        rules = spec.make_rules(preset, body.options)
    except GameError as e:
        raise refused(e) from None
    if body.bots not in spec.bots:
        raise ProtocolError(
            "bad_request",
            f"no {spec.name} bot {body.bots!r}; choose one of " + ", ".join(spec.bots),
        )
    config = TableConfig(
        rules,
        preset,
        body.bots,
        body.turn_timeout,
        spec.name,
        body.spectators,
        body.hints,
        body.bot_speed,
        chat=body.chat,
    )
    # One address may make only so many rooms an hour (``too_many_rooms``): nobody can
    # fill the server (``hukum serve --rooms-per-hour``; :mod:`hukum.server.throttle`).
    await get_throttle(request).take(("rooms", client_address(request)))
    table, token = await registry.create(config, seat_name(body.name, me), player)
    if body.start_now:
        await table.start(token, fill=True, player=player)
    return {"code": table.code, "seat": 0, "token": token, "invite": f"/t/{table.code}"}


@router.get("/{code}")
async def get_table(code: str, registry: Reg, me: CurrentPlayer) -> dict[str, Any]:
    """The public table, and ``you``: the seat the request's player holds (null: none, or
    no session)."""
    table = await registry.require(code)
    async with table.lock:
        return {**table.public(), "you": table.seat_of_player(me.id if me else None)}


@router.post("/{code}/seats/{seat}")
async def take_seat(
    code: str, seat: int, body: TakeSeat, registry: Reg, me: CurrentPlayer
) -> dict[str, Any]:
    """Take an empty seat (a session's player kept with it); its token."""
    player = may_sit(me)
    table = await registry.require(code)
    take = commands.TakeSeat(seat, seat_name(body.name, me), player)
    token = await table.run(commands.TAKE_SEAT, take, registry.here)
    return {"seat": seat, "token": token}


@router.post("/{code}/bots")
async def fill_bots(code: str, body: WithToken, registry: Reg, me: CurrentPlayer) -> dict[str, Any]:
    """Seat a bot at every empty seat (asked with the seat's token, or the seat's session)."""
    table = await registry.require(code)
    asked = commands.WithToken(body.token, may_sit(me))
    event = await table.run(commands.FILL_WITH_BOTS, asked, registry.here)
    return {"event": event, "table": table.public()}


@router.post("/{code}/start")
async def start(code: str, body: WithToken, registry: Reg, me: CurrentPlayer) -> dict[str, Any]:
    """Start the match (every seat must be filled; asked with the seat's token, or the
    seat's session)."""
    table = await registry.require(code)
    asked = commands.Start(body.token, player=may_sit(me))
    event = await table.run(commands.START, asked, registry.here)
    return {"event": event, "table": table.public()}


@router.get("/{code}/record")
async def record(code: str, registry: Reg) -> dict[str, Any]:
    """The record of the finished deals (never a deal in progress; a daily challenge
    deal's only once its day has closed: the record holds its seed)."""
    table = await registry.require(code)
    refuse_open(table.config)
    kept = table.spec.records
    if kept is None:
        raise ProtocolError("no_record", f"{table.spec.title} keeps no records")
    if table.match is None:
        raise ProtocolError("not_started", "the match has not started")
    async with table.lock:
        data = kept.record_to_dict(table.match)
        over = [deal.is_over() for deal in table.match.deals]
    data["deals"] = [d for d, done in zip(data["deals"], over, strict=True) if done]
    return data
