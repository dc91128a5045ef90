"""The lobby API: create a room, look at it, take a seat, fill with bots, start, record."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends
from pydantic import BaseModel, ConfigDict, Field

from hukum import records
from hukum.mindi import PRESETS, Rules, RulesError
from hukum.server.deps import get_registry
from hukum.server.protocol import ProtocolError
from hukum.server.tables import Registry, TableConfig

router = APIRouter(prefix="/api/tables")

Reg = Annotated[Registry, Depends(get_registry)]
Name = Annotated[str, Field(max_length=40)]


class CreateTable(BaseModel):
    """``POST /api/tables``."""

    model_config = ConfigDict(extra="forbid")
    preset: str = "classic"
    options: dict[str, Any] = Field(default_factory=dict)
    bots: Literal["random", "rules", "search"] = "rules"
    name: Name = ""
    turn_timeout: Annotated[float, Field(gt=0, le=86400)] | None = 60.0
    start_now: bool = False


class TakeSeat(BaseModel):
    """``POST /api/tables/<code>/seats/<seat>``."""

    model_config = ConfigDict(extra="forbid")
    name: Name = ""


class WithToken(BaseModel):
    """A request made by a seated person."""

    model_config = ConfigDict(extra="forbid")
    token: str = Field(max_length=64)


def make_rules(preset: str, options: dict[str, Any]) -> Rules:
    """The rules of a new room, or the ``bad_rules`` error."""
    if preset not in PRESETS:
        raise ProtocolError(
            "bad_rules", f"no preset {preset!r}; choose one of " + ", ".join(PRESETS)
        )
    try:
        return Rules.from_dict({**PRESETS[preset].to_dict(), **options})
    except (RulesError, TypeError, ValueError) as e:
        raise ProtocolError("bad_rules", str(e)) from None


@router.post("")
async def create_table(body: CreateTable, registry: Reg) -> dict[str, Any]:
    """Create a room and seat its creator at 0; with ``start_now`` fill with bots and start."""
    rules = make_rules(body.preset, body.options)
    config = TableConfig(rules, body.preset, body.bots, body.turn_timeout)
    table, token = await registry.create(config, body.name)
    if body.start_now:
        await table.start(token, fill=True)
    return {"code": table.code, "seat": 0, "token": token, "invite": f"/t/{table.code}"}


@router.get("/{code}")
async def get_table(code: str, registry: Reg) -> dict[str, Any]:
    """The public table."""
    return (await registry.require(code)).public()


@router.post("/{code}/seats/{seat}")
async def take_seat(code: str, seat: int, body: TakeSeat, registry: Reg) -> dict[str, Any]:
    """Take an empty seat; its token."""
    token = await (await registry.require(code)).take_seat(seat, body.name)
    return {"seat": seat, "token": token}


@router.post("/{code}/bots")
async def fill_bots(code: str, body: WithToken, registry: Reg) -> dict[str, Any]:
    """Seat a bot at every empty seat."""
    table = await registry.require(code)
    event = await table.fill_with_bots(body.token)
    return {"event": event, "table": table.public()}


@router.post("/{code}/start")
async def start(code: str, body: WithToken, registry: Reg) -> dict[str, Any]:
    """Start the match (every seat must be filled)."""
    table = await registry.require(code)
    event = await table.start(body.token)
    return {"event": event, "table": table.public()}


@router.get("/{code}/record")
async def record(code: str, registry: Reg) -> dict[str, Any]:
    """The record of the finished deals (never a deal in progress)."""
    table = await registry.require(code)
    if table.match is None:
        raise ProtocolError("not_started", "the match has not started", 409)
    async with table.lock:
        data = records.to_dict(table.match)
    data["deals"] = [d for d in data["deals"] if d["outcome"] is not None]
    return data
