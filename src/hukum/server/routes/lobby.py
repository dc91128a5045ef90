"""The lobby API: create a room, look at it, take a seat, fill with bots, start, record,
and the analysis of a finished deal."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Depends
from pydantic import BaseModel, ConfigDict, Field

from hukum.mindi import Deal
from hukum.server.deps import get_registry
from hukum.server.games import check_bots, game_named
from hukum.server.protocol import ProtocolError
from hukum.server.tables import Registry, TableConfig

if TYPE_CHECKING:  # the solver (numba) is loaded only when a deal is analysed
    from hukum.bots.solver import Forecast

router = APIRouter(prefix="/api/tables")

Reg = Annotated[Registry, Depends(get_registry)]
Name = Annotated[str, Field(max_length=40)]


class CreateTable(BaseModel):
    """``POST /api/tables``."""

    model_config = ConfigDict(extra="forbid")
    game: Annotated[str, Field(max_length=20)] = "mindi"
    preset: Annotated[str, Field(max_length=40)] | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    bots: Annotated[str, Field(max_length=20)] = "rules"
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


@router.post("")
async def create_table(body: CreateTable, registry: Reg) -> dict[str, Any]:
    """Create a room and seat its creator at 0; with ``start_now`` fill with bots and start."""
    game = game_named(body.game)
    preset = body.preset or game.default_preset
    rules = game.make_rules(preset, body.options)
    bots = check_bots(game, body.bots)
    config = TableConfig(rules, preset, bots, body.turn_timeout, game.name)
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
        data = table.game.record(table.match)
    data["deals"] = [d for d in data["deals"] if d["outcome"] is not None]
    return data


@router.get("/{code}/deals/{number}/analysis")
async def analysis(code: str, number: int, registry: Reg) -> dict[str, Any]:
    """The exact analysis of a finished Mindi deal, from the last trick back as far as
    ``ANALYSIS_NODES`` positions searched allow (all its cards are public once it is over):
    for each move, the best result the mover's team could force before and after it, and the
    better moves. A finished deal never changes, so each is solved once per table and kept;
    requests while it is being solved wait for that solve."""
    table = await registry.require(code)
    if table.game.name != "mindi":
        raise ProtocolError("no_analysis", "deal analysis is for Mindi deals", 409)
    deals = table.match.deals if table.match is not None else []
    if not 1 <= number <= len(deals):
        raise ProtocolError("unknown_deal", f"no deal {number} at this table", 404)
    deal = deals[number - 1]
    if not deal.is_over():
        raise ProtocolError("deal_not_over", "a deal is analysed once it is over", 409)
    task = table.analyses.get(number)
    if task is None:
        task = table.analyses[number] = asyncio.create_task(
            asyncio.to_thread(_analyse, number, deal)
        )
    return await asyncio.shield(task)


def _analyse(number: int, deal: Deal) -> dict[str, Any]:
    """The analysis of a finished deal as the API sends it."""
    from hukum.analysis import ANALYSIS_NODES, analyse
    from hukum.bots.solver import SolverError

    try:
        report = analyse(deal, tricks=deal.rules.hand_size, max_nodes=ANALYSIS_NODES)
    except SolverError as e:
        raise ProtocolError("no_analysis", str(e), 409) from None
    return {
        "deal": number,
        "tricks": report.tricks,
        "skipped": report.skipped,
        "moves": [
            {
                "number": m.number,
                "trick": m.trick,
                "seat": m.seat,
                "move": str(m.move),
                "mistake": m.mistake,
                "best": [str(b) for b in m.best],
                "before": _forecast(m.before),
                "after": _forecast(m.after),
                "text": m.describe(),
            }
            for m in report.moves
        ],
    }


def _forecast(forecast: Forecast) -> dict[str, Any]:
    """A forecast as the API sends it: tens of team 0 and team 1, the winner, the kind."""
    return {"tens": list(forecast.tens), "winner": forecast.winner, "kind": forecast.kind}
