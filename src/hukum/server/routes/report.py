"""The match report of a finished match (``GET /api/tables/<code>/report``): for each seat,
what its mistakes cost its side over every deal of the match, and its three costliest
moves (:mod:`hukum.match_report`), added up from the deals' analyses in the server's
analysis pool — the same analyses ``GET .../deals/<n>/analysis`` answers with, kept per
table and never solved twice."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from hukum.server.analyses import RETRY_AFTER, Analyses, Job, forecast
from hukum.server.deps import get_registry
from hukum.server.play.challenge import refuse_open
from hukum.server.protocol import ProtocolError
from hukum.server.routes.analysis import deal_job
from hukum.server.tables import Registry

if TYPE_CHECKING:
    from hukum.match_report import Costly, MatchReport
    from hukum.server.tables.audience import Audience

router = APIRouter(prefix="/api/tables")

#: The most deals of one report in the pool's line at once (one running, one next): the
#: rest of the line stays open to the other tables' boards while a long match is analysed.
SHARE = 2


@router.get("/{code}/report", response_model=None)
async def report(
    code: str,
    request: Request,
    registry: Annotated[Registry, Depends(get_registry)],
    wait: bool = True,
) -> dict[str, Any] | JSONResponse:
    """The report of a table's match once it is over: per seat (named by the seat's display
    name), the tens and match points its mistakes cost its side, its mistakes and its three
    costliest moves. It checks the table as the deal analysis's route does, then reads each
    deal through :meth:`~hukum.server.tables.audience.Audience.finished_deal` as it does.
    The deals are analysed in the pool as it admits them, at most :data:`SHARE` at once (a
    match has more deals than the pool queues, and other tables' boards wait too); with
    ``?wait=false`` the answer comes at once, with each deal's progress (202) until all are
    done."""
    table = await registry.require(code)
    refuse_open(table.config)
    facet = table.spec.analysis
    if facet is None:
        raise ProtocolError("no_analysis", f"{table.spec.title} offers no deal analysis")
    if table.status != "over" or table.match is None:
        raise ProtocolError("match_not_over", "a match's report is made once the match is over")
    count = len(table.match.deals)
    deals = [await table.finished_deal(n) for n in range(1, count + 1)]
    tricks = [facet.tricks(deal) for deal in deals]
    pool: Analyses = request.app.state.analyses
    while True:
        jobs = _admit(table, deals, tricks, pool)
        for job in jobs:  # a deal the pool refused to analyse refuses the report at once
            task = job.task if job is not None else None
            if task is not None and _refused(task):
                await task
        running = [j.task for j in jobs if j is not None and j.task and not j.task.done()]
        if all(j is not None and j.task and j.task.done() for j in jobs):
            break
        if not running:  # the pool is full of other tables' deals: as a deal's analysis
            raise ProtocolError(
                "busy",
                f"the server is analysing other deals; ask again in {RETRY_AFTER} s",
                retry_after=RETRY_AFTER,
            )
        if not wait:
            return JSONResponse(_progress(jobs, tricks), status_code=202)
        await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
    for job in jobs:
        assert job is not None and job.task is not None
        await job.task  # a failed analysis fails the report with its error
    from hukum.match_report import match_report

    analyses = [job.analysis for job in jobs if job is not None and job.analysis is not None]
    assert len(analyses) == count
    return _report(table, match_report(analyses, seats=len(table.seats)), jobs)


def _refused(task: asyncio.Task[dict[str, Any]]) -> bool:
    """Whether a deal's analysis ended with a refusal (e.g. ``no_analysis``)."""
    return task.done() and not task.cancelled() and isinstance(task.exception(), ProtocolError)


def _admit(
    table: Audience, deals: list[Any], tricks: list[int], pool: Analyses
) -> list[Job | None]:
    """Each deal's analysis, started in deal order where the pool admits it, at most
    :data:`SHARE` of them not done at once (None: not yet admitted)."""
    jobs: list[Job | None] = [table.analyses.get(n) for n in range(1, len(deals) + 1)]
    line = sum(1 for j in jobs if j is not None and j.task is not None and not j.task.done())
    for i, job in enumerate(jobs):
        if job is not None:
            continue
        if line >= SHARE:
            break
        try:
            jobs[i] = deal_job(table.analyses, i + 1, deals[i], tricks[i], pool)
        except ProtocolError as e:
            if e.code != "busy":
                raise
            break
        line += 1
    return jobs


def _progress(jobs: list[Job | None], tricks: list[int]) -> dict[str, Any]:
    """How far the report has got: the deals analysed, and each deal's analysis (``queued``:
    not yet admitted to the pool)."""
    each: list[dict[str, Any]] = []
    for n, (job, of) in enumerate(zip(jobs, tricks, strict=True), start=1):
        if job is None or job.task is None:
            each.append({"deal": n, "status": "queued", "tricks": 0, "of": of})
        elif job.task.done():
            each.append({"deal": n, "status": "done", "tricks": of, "of": of})
        else:
            each.append({"deal": n, **job.progress()})
    done = sum(1 for e in each if e["status"] == "done")
    return {"status": "running", "deals": len(jobs), "done": done, "analyses": each}


def _report(table: Audience, report: MatchReport, jobs: list[Job | None]) -> dict[str, Any]:
    """The report as the API sends it (names only, never a player's id)."""
    not_analysed: list[list[int]] = []
    for job in jobs:
        assert job is not None and job.task is not None
        not_analysed.append(job.task.result()["not_analysed"])
    return {
        "status": "done",
        "deals": report.deals,
        "complete": report.complete,
        "not_analysed": not_analysed,
        "seats": [
            {
                "seat": s.seat,
                "name": table.seats[s.seat].name,
                "kind": table.seats[s.seat].kind,
                "team": s.team,
                "tens": s.tens,
                "points": s.points,
                "mistakes": s.mistakes,
                "analysed": s.analysed,
                "costliest": [_costly(c) for c in s.costliest],
            }
            for s in report.seats
        ],
    }


def _costly(c: Costly) -> dict[str, Any]:
    """One costly move: its deal, its number (the board's position before it is ``number -
    1`` moves made), the card, what it cost, the better cards and the forecasts."""
    m = c.analysis
    return {
        "deal": c.deal,
        "number": c.number,
        "trick": c.trick,
        "move": str(c.move),
        "tens": c.tens,
        "points": c.points,
        "best": [str(b) for b in c.best],
        "before": forecast(m.before),
        "after": forecast(m.after),
        "text": m.describe(),
    }
