"""The server's deal analyses: one small pool of worker processes (:class:`hukum.analysis.
Analyser`) shared by every table, bounded in CPU and in count.

At most ``running`` analyses run at once (each on ``workers`` processes, at a lower priority
than the server's own), at most ``waiting`` more wait for a turn; beyond that a request is
refused with ``busy`` (503, with ``retry_after`` seconds). An analysis runs in a thread of
its own, waiting on its workers, never in the event loop, so the server goes on serving
every table meanwhile; it reports where it is as it goes (waiting behind other deals,
starting, or the tricks analysed so far). The pool starts on the first analysis and is
stopped, with every worker process, by :meth:`Analyses.close` when the app stops.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hukum.server.protocol import ProtocolError

if TYPE_CHECKING:  # the solver (numba) is loaded only when a deal is analysed
    from hukum.analysis import Analyser, DealAnalysis, Progress
    from hukum.bots.solver import Forecast
    from hukum.mindi import Deal

__all__ = ["NODES_ENV", "RETRY_AFTER", "Analyses", "Job", "forecast", "result"]

#: The seconds a refused client is told to wait before asking again (``retry_after``).
RETRY_AFTER = 10

#: The environment variable that sets the node budget of each analysis, e.g. on a slower
#: machine (default :data:`hukum.analysis.ANALYSIS_NODES`).
NODES_ENV = "HUKUM_ANALYSIS_NODES"


@dataclass
class Job:
    """One deal's analysis, waiting or running (its result is its task's)."""

    of: int
    """The tricks it analyses (the whole deal)."""
    running: bool = False
    """Whether it has its workers yet (else it waits for a turn)."""
    tricks: int = 0
    """Whole tricks analysed so far, from the last trick back."""
    task: asyncio.Task[dict[str, Any]] | None = field(default=None, repr=False)
    """The analysis as the API sends it, once done."""
    analysis: DealAnalysis | None = field(default=None, repr=False)
    """The analysis itself, once done (what a match report adds up)."""
    line: list[Job] = field(default_factory=list, repr=False)
    """The pool's analyses not yet done, running or waiting, in the order they came
    (shared with the pool; this one among them until it is done)."""
    slots: int = 1
    """The analyses the pool runs at once."""

    def progress(self) -> dict[str, Any]:
        """How far it has gone, as the API sends it: ``running`` with the tricks analysed so
        far; ``starting`` when its turn has come and its workers are not yet at work; or
        ``waiting`` behind ``ahead`` deals, running or waiting before it (the page says
        which, never that the analyser is busy when it is not)."""
        if self.running:
            return {"status": "running", "tricks": self.tricks, "of": self.of}
        ahead = self.line.index(self) if self in self.line else 0
        if ahead < self.slots:
            return {"status": "starting", "tricks": 0, "of": self.of}
        return {"status": "waiting", "ahead": ahead, "tricks": 0, "of": self.of}


class Analyses:
    """The analyses of one server process (see the module)."""

    def __init__(
        self,
        workers: int | None = None,
        running: int = 1,
        waiting: int = 4,
        max_nodes: int | None = None,
        nice: int = 5,
    ) -> None:
        """``running`` analyses at once on ``workers`` processes each (default: the
        machine's cores), ``waiting`` more queued; each searches at most ``max_nodes``
        positions (default: ``HUKUM_ANALYSIS_NODES`` if set, else
        :data:`hukum.analysis.ANALYSIS_NODES`); ``nice``: the workers' lower priority."""
        if running < 1 or waiting < 0:
            raise ValueError(f"running={running}, waiting={waiting}: at least 1 and 0")
        if max_nodes is None and os.environ.get(NODES_ENV):
            text = os.environ[NODES_ENV]
            if not text.isdigit() or int(text) < 1:
                raise ValueError(f"{NODES_ENV}={text!r}: a number of positions, 1 or more")
            max_nodes = int(text)
        self.workers = workers
        self.running = running
        self.waiting = waiting
        self.max_nodes = max_nodes
        self.nice = nice
        self.started = 0
        """Analyses asked for since the server started."""
        self._analysers: list[Analyser] = []
        self._free: asyncio.Queue[Analyser] = asyncio.Queue()
        self._line: list[Job] = []
        """The analyses admitted and not yet done, running or waiting, in the order they
        came (the order in which they get an analyser)."""

    def submit(self, deal: Deal, tricks: int) -> Job:
        """Start analysing a finished deal of ``tricks`` tricks (its game's
        :meth:`~hukum.game.AnalysisFacet.tricks`) or queue it, or refuse with ``busy``."""
        if len(self._line) >= self.running + self.waiting:
            raise ProtocolError(
                "busy",
                f"the server is analysing {self.running + self.waiting} deals already; "
                f"ask again in {RETRY_AFTER} s",
                retry_after=RETRY_AFTER,
            )
        self.started += 1
        job = Job(tricks, line=self._line, slots=self.running)
        self._line.append(job)
        job.task = asyncio.create_task(self._run(job, deal))
        return job

    async def _run(self, job: Job, deal: Deal) -> dict[str, Any]:
        """The analysis of ``deal`` once an analyser is free, in a thread of its own."""
        from hukum.analysis import ANALYSIS_NODES
        from hukum.bots.solver import SolverError

        try:
            self.analysers()
            analyser = await self._free.get()
            job.running = True

            def advance(progress: Progress) -> None:
                job.tricks = progress.tricks  # from the analysis's thread: one store

            max_nodes = self.max_nodes or ANALYSIS_NODES
            try:
                analysis = await asyncio.to_thread(
                    analyser.analyse, deal, job.of, max_nodes, advance
                )
            except SolverError as e:
                raise ProtocolError("no_analysis", str(e)) from None
            finally:
                self._free.put_nowait(analyser)
            job.analysis = analysis
            return result(analysis, deal)
        finally:
            self._line.remove(job)

    def analysers(self) -> list[Analyser]:
        """The pools, one per analysis that may run at once: made on first use (which
        loads the solver), their processes started by their first analysis."""
        if not self._analysers:
            from hukum.analysis import Analyser

            self._analysers = [Analyser(self.workers, nice=self.nice) for _ in range(self.running)]
            for analyser in self._analysers:
                self._free.put_nowait(analyser)
        return self._analysers

    def close(self) -> None:
        """Stop every worker process (an analysis still running fails)."""
        for analyser in self._analysers:
            analyser.close()


def result(report: DealAnalysis, deal: Deal) -> dict[str, Any]:
    """A finished analysis as the API sends it: the moves analysed and the tricks not
    analysed (from trick 1 on: the budget ran out before them)."""
    first = deal.rules.hand_size - report.tricks + 1
    return {
        "status": "done",
        "tricks": report.tricks,
        "of": deal.rules.hand_size,
        "not_analysed": list(range(1, first)),
        "skipped": report.skipped,
        "moves": [
            {
                "number": m.number,
                "trick": m.trick,
                "seat": m.seat,
                "move": str(m.move),
                "mistake": m.mistake,
                "best": [str(b) for b in m.best],
                "before": forecast(m.before),
                "after": forecast(m.after),
                "text": m.describe(),
            }
            for m in report.moves
        ],
    }


def forecast(f: Forecast) -> dict[str, Any]:
    """A forecast as the API sends it: tens of team 0 and team 1, the winner, the kind."""
    return {"tens": list(f.tens), "winner": f.winner, "kind": f.kind}
