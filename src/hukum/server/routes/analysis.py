"""The analysis of a finished deal (``GET /api/tables/<code>/deals/<n>/analysis``): the
exact solver of :mod:`hukum.analysis`, for a table whose game offers it (its spec's
analysis facet; Mindi's today). The work runs in the server's analysis pool
(:mod:`hukum.server.analyses`), outside the event loop, bounded in CPU and count."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from hukum.server.analyses import Analyses, Job
from hukum.server.deps import get_registry
from hukum.server.play.challenge import refuse_open
from hukum.server.protocol import ProtocolError
from hukum.server.tables import Registry

router = APIRouter(prefix="/api/tables")


@router.get("/{code}/deals/{number}/analysis", response_model=None)
async def analysis(
    code: str,
    number: int,
    request: Request,
    registry: Annotated[Registry, Depends(get_registry)],
    wait: bool = True,
) -> dict[str, Any] | JSONResponse:
    """The exact analysis of a finished deal, from the last trick back as far as
    ``ANALYSIS_NODES`` positions searched allow (all its cards are public once it is over):
    for each move, the best result the mover's team could force before and after it, and the
    better moves; the tricks not analysed. A finished deal never changes, so each is solved
    once per table and kept; requests while it is being solved wait for that solve, or with
    ``?wait=false`` are answered at once with its progress (202)."""
    table = await registry.require(code)
    refuse_open(table.config)
    facet = table.spec.analysis
    if facet is None:
        raise ProtocolError("no_analysis", f"{table.spec.title} offers no deal analysis")
    deal: Any = await table.finished_deal(number)  # a deal of the game the facet reads
    analyses: Analyses = request.app.state.analyses
    job = table.analyses.get(number)
    if job is None:
        job = table.analyses[number] = analyses.submit(deal, facet.tricks(deal))  # or busy
        assert job.task is not None
        job.task.add_done_callback(lambda done: _finished(table.analyses, number, done))
    assert job.task is not None
    if not wait and not job.task.done():
        return JSONResponse({"deal": number, **job.progress()}, status_code=202)
    return {"deal": number, **await asyncio.shield(job.task)}


def _finished(analyses: dict[int, Job], number: int, task: asyncio.Task[dict[str, Any]]) -> None:
    """An analysis is done; one that failed for a reason that may pass (its workers stopped)
    is forgotten, so that the next request starts it again."""
    passes = task.cancelled() or not isinstance(task.exception(), ProtocolError | None)
    job = analyses.get(number)
    if passes and job is not None and job.task is task:
        del analyses[number]
