"""The analysis of a finished deal (``GET /api/tables/<code>/deals/<n>/analysis``): the
exact solver of :mod:`hukum.analysis`, which analyses Mindi deals, so a table has an
analysis when its game's matches are Mindi matches."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Depends

from hukum.mindi import Deal, Match
from hukum.server.deps import get_registry
from hukum.server.protocol import ProtocolError
from hukum.server.tables import Registry

if TYPE_CHECKING:  # the solver (numba) is loaded only when a deal is analysed
    from hukum.bots.solver import Forecast

router = APIRouter(prefix="/api/tables")

#: The matches :func:`hukum.analysis.analyse` can analyse the deals of.
ANALYSED = Match


@router.get("/{code}/deals/{number}/analysis")
async def analysis(
    code: str, number: int, registry: Annotated[Registry, Depends(get_registry)]
) -> dict[str, Any]:
    """The exact analysis of a finished Mindi deal, from the last trick back as far as
    ``ANALYSIS_NODES`` positions searched allow (all its cards are public once it is over):
    for each move, the best result the mover's team could force before and after it, and the
    better moves. A finished deal never changes, so each is solved once per table and kept;
    requests while it is being solved wait for that solve."""
    table = await registry.require(code)
    if not issubclass(table.spec.match_type, ANALYSED):
        raise ProtocolError("no_analysis", "deal analysis is for Mindi deals", 409)
    deal = await table.finished_deal(number)
    assert isinstance(deal, Deal)
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
