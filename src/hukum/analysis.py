"""Deal analysis: for each move of a finished deal, the best result the mover's team could
still force before it and after it, with all hands known ("this play lost a mindi").

The analysis works back from the last move with the exact solver
(:mod:`hukum.bots.solver`), one solver's table kept across the deal; moves made earlier than
``tricks`` tricks from the end are listed as not analysed. It never solves a position whole:
knowing the value the move played led to (the value of the position after it), it asks of
each other move, one of each class of equivalent cards
(:func:`~hukum.bots.solver.move_classes`), whether it does better, one null-window search,
and climbs to the exact value only for the moves that do. With a budget of positions
searched (``max_nodes``) it goes back as far as the budget goes and says how many tricks it
covered: with :data:`ANALYSIS_NODES`, nearly every deal from its first trick.

:func:`analyse` works in this process; :class:`Analyser` shares each position's moves among
worker processes (both cores of a 2-core machine), to the same values, with counts of
positions searched that depend only on the deal and the number of workers, so every figure
is reproducible. Both report their progress after each trick (:class:`Progress`).

>>> from hukum.mindi import Deal, Rules
>>> deal = Deal.new(Rules(), dealer=0, seed=7)
>>> while not deal.is_over():
...     deal.push(deal.legal_moves()[0])
>>> report = analyse(deal, tricks=3)
>>> len(report.moves), report.skipped
(12, 40)
>>> report.moves[0].before.describe()
'Team 0 wins with mendikot: 4–0 tens'
>>> [m.describe() for m in report.mistakes]
[]
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.process
import os
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any

import numpy as np

from hukum.bots.solver import Forecast, Solver, SolverBudgetError, move_classes
from hukum.mindi import Deal, Move

__all__ = [
    "ANALYSIS_NODES",
    "TABLE_BITS",
    "Analyser",
    "AnalysisError",
    "DealAnalysis",
    "MoveAnalysis",
    "Progress",
    "analyse",
    "compile_solver",
    "standing",
    "verdict",
]

#: The node budget of the analysis ``hukum solve`` and the web app make (positions searched
#: by all the workers together): at most about 13–20 s of this machine's two cores, enough
#: for the whole deal of nearly every deal (``hukum bench --analysis``).
ANALYSIS_NODES = 150_000_000

#: The size of each analysing solver's transposition table (``2**TABLE_BITS`` entries).
TABLE_BITS = 20


def standing(forecast: Forecast, team: int) -> str:
    """A forecast from one team's side, e.g. ``wins 3–1`` or ``loses 2–2 on the tie-break``."""
    mine, theirs = forecast.tens[team], forecast.tens[1 - team]
    word = "wins" if forecast.winner == team else "loses"
    if forecast.kind != "win":
        word += " " + ("with" if forecast.winner == team else "to") + " " + forecast.kind
    text = f"{word} {mine}–{theirs}"
    return text + (" on the tie-break" if mine == theirs else "")


_WINS = {"win": "a plain win", "mendikot": "a mendikot", "whitewash": "a whitewash"}
_LOSSES = {"win": "a plain loss", "mendikot": "a loss to mendikot", "whitewash": "a whitewash loss"}


def verdict(before: Forecast, after: Forecast, team: int) -> str:
    """What a move cost ``team``: ``""`` if nothing, else e.g. ``lost a mindi`` or ``turned a
    win into a loss``."""
    if after.value == before.value:
        return ""
    lost = before.tens[team] - after.tens[team]
    parts = []
    if before.winner == team and after.winner != team:
        parts.append("turned a win into a loss")
    elif before.kind != after.kind and before.winner == after.winner:
        kinds = _WINS if before.winner == team else _LOSSES
        parts.append(f"turned {kinds[before.kind]} into {kinds[after.kind]}")
    if lost == 1:
        parts.append("lost a mindi")
    elif lost > 1:
        parts.append(f"lost {lost} mindis")
    if not parts:
        parts.append("lost the tie-break")
    return ", ".join(parts)


@dataclass(frozen=True)
class MoveAnalysis:
    """One analysed move."""

    number: int
    """The move's place in the deal, from 1."""
    trick: int
    """The trick it belongs to, from 1."""
    seat: int
    """Who made it."""
    move: Move
    """The move."""
    before: Forecast
    """The best result the mover's team could force before the move."""
    after: Forecast
    """The best result it could force after it (everybody playing perfectly from then on)."""
    best: tuple[Move, ...]
    """The moves that keep ``before`` if this one did not (empty if it did)."""

    @property
    def team(self) -> int:
        """The mover's team."""
        return self.seat % 2

    @property
    def mistake(self) -> bool:
        """Whether the move gave something away."""
        return self.after.value != self.before.value

    def describe(self) -> str:
        """One line, e.g. ``move 41, seat 2 played 10S: lost a mindi (wins 3–1 → …); best
        4S``."""
        head = f"move {self.number}, seat {self.seat} played {self.move}"
        if not self.mistake:
            return f"{head}: best play ({standing(self.before, self.team)})"
        change = f"{standing(self.before, self.team)} → {standing(self.after, self.team)}"
        better = ", ".join(str(m) for m in self.best)
        return f"{head}: {verdict(self.before, self.after, self.team)} ({change}); best {better}"


@dataclass(frozen=True)
class DealAnalysis:
    """The analysis of one deal."""

    tricks: int
    """How many tricks from the end the analysis starts."""
    skipped: int
    """Moves before that point, not analysed."""
    moves: tuple[MoveAnalysis, ...]
    """Every analysed move, in order."""

    @property
    def mistakes(self) -> list[MoveAnalysis]:
        """The analysed moves that gave something away."""
        return [m for m in self.moves if m.mistake]


@dataclass(frozen=True)
class Progress:
    """How far an analysis has gone, reported after each trick (and once at the start)."""

    tricks: int
    """Whole tricks analysed so far, from the last trick back."""
    of: int
    """The tricks asked for."""
    nodes: int
    """Positions searched so far, by every worker together."""


#: What one position's moves came to: the value (0 to 7) of each class of moves that may be
#: among the best (by the index of its first move among the legal moves; see _solve_class),
#: the positions searched, and whether the budget ran out first.
Found = tuple[dict[int, int], int, bool]

#: Works out one position's moves: the moves made before it, the classes to search (as the
#: index of each one's first move among the position's legal moves), the value after the
#: move played (None: not known) and the budget of positions (None: none).
Runner = Callable[[int, list[int], int | None, int | None], Found]


def _first_bound(after: int | None, up: bool) -> int | None:
    """The value a move must reach (``up``: team 0 to move) or stay at or under (team 1)
    to count as better than the move played, which led to ``after``."""
    if after is None:
        return None
    return after + 1 if up else after - 1


def _solve_class(
    solver: Solver, position: Deal, move: Move, bound: int | None, budget: int | None
) -> tuple[int | None, int, bool]:
    """The value after ``move`` in ``position``, by null-window searches, if it reaches
    ``bound`` for the mover (at least ``bound`` for team 0, at most for team 1), else None
    (``bound`` None: the value whatever it is); the positions searched; whether ``budget``
    ran out. Checking a move against the bound costs one search; only a move that reaches
    it costs a few more, climbing from the bound."""
    used = 0
    turn = position.turn
    assert turn is not None
    up = turn % 2 == 0

    def reaches(value: int) -> bool:
        """Whether the value after ``move`` is at least ``value``."""
        nonlocal used
        left = None if budget is None else budget - used
        if left is not None and left < 1:
            raise SolverBudgetError("no positions left to search")
        try:
            return solver.at_least(position, value, move, max_nodes=left)
        finally:
            used += solver.nodes

    try:
        if bound is None:
            left = None if budget is None else budget - used
            try:
                return solver.value(position, max_nodes=left, move=move).value, solver.nodes, False
            except SolverBudgetError:
                return None, solver.nodes, True
        value = bound
        if up:
            if value > 7 or not reaches(value):
                return None, used, False
            while value < 7 and reaches(value + 1):
                value += 1
        else:
            if value < 0 or reaches(value + 1):
                return None, used, False
            while value > 0 and not reaches(value):
                value -= 1
        return value, used, False
    except SolverBudgetError:
        return None, used, True


def _tighten(bound: int | None, value: int | None, up: bool) -> int | None:
    """The bound for the next move once a move reached ``value``: the best so far (a move
    below it cannot be among the best moves; one equal to it may)."""
    if bound is None or value is None:
        return bound
    return max(bound, value) if up else min(bound, value)


def _replay(deal: Deal) -> Deal:
    """A copy of ``deal`` (its moves made again) to step back through."""
    replay = Deal(deal.rules, deal.dealer, deal.dealt, shown_card=deal.shown_card, seed=deal.seed)
    for seat, move in deal.history:
        replay.push(move, seat=seat)
    return replay


def _step_to(position: Deal, deal: Deal, made: int) -> None:
    """Move ``position`` (a replay of ``deal``) to the position after ``made`` moves."""
    while len(position.history) > made:
        position.pop()
    for seat, move in deal.history[len(position.history) : made]:
        position.push(move, seat=seat)


def _check(deal: Deal, tricks: int, max_nodes: int | None) -> None:
    """Refuse a window or a budget that makes no sense."""
    if not 1 <= tricks <= deal.rules.hand_size:
        raise ValueError(f"tricks={tricks}: analyse from 1 to {deal.rules.hand_size} tricks left")
    if max_nodes is not None and max_nodes < 1:
        raise ValueError(f"max_nodes={max_nodes!r}: at least one node, or None")


def _run_analysis(
    deal: Deal,
    tricks: int,
    max_nodes: int | None,
    run: Runner,
    forecast: Callable[[int], Forecast],
    progress: Callable[[Progress], None] | None,
) -> DealAnalysis:
    """The analysis of :func:`analyse`, each position's moves worked out by ``run`` (in this
    process or in workers'), one move of each class of equivalent moves
    (:func:`~hukum.bots.solver.move_classes`)."""
    _check(deal, tricks, max_nodes)
    rules = deal.rules
    replay = _replay(deal)
    moves: list[MoveAnalysis] = []  # from the last move back
    done = 0  # of ``moves``, those of whole tricks
    analysed = 0
    spent = 0
    after: int | None = None  # the value before the move after this one
    if progress is not None:
        progress(Progress(0, tricks, 0))
    for number in range(len(deal.history), 0, -1):
        seat, move = deal.history[number - 1]
        replay.pop()
        played = len(replay.tricks)
        if rules.hand_size - played > tricks or replay.phase != "play":
            break
        left = None if max_nodes is None else max_nodes - spent
        if left is not None and left < 1:
            break
        legal = replay.legal_moves()
        classes = move_classes(replay)
        if after is not None:  # the class of the move played leads to ``after``
            classes = [c for c in classes if move not in c]
        firsts = [legal.index(c[0]) for c in classes]
        found, nodes, over = run(number - 1, firsts, after, left) if firsts else ({}, 0, False)
        spent += nodes
        if over or (left is not None and nodes > left):
            break
        values = {
            m: found[i] for i, c in zip(firsts, classes, strict=True) if i in found for m in c
        }
        if after is None:
            after = values[move]
        pick = max if replay.turn is not None and replay.turn % 2 == 0 else min
        before = pick([after, *values.values()])
        best = () if before == after else tuple(m for m in legal if values.get(m) == before)
        moves.append(
            MoveAnalysis(number, played + 1, seat, move, forecast(before), forecast(after), best)
        )
        after = before
        if not replay.trick:  # the first move of its trick: the trick is done
            done = len(moves)
            analysed = rules.hand_size - played
            if progress is not None:
                progress(Progress(analysed, tricks, spent))
    kept = tuple(reversed(moves[:done]))
    if max_nodes is None:  # every move asked for (a deal in progress ends mid-trick)
        kept = tuple(reversed(moves))
        analysed = tricks
    return DealAnalysis(analysed, len(deal.history) - len(kept), kept)


def analyse(
    deal: Deal,
    tricks: int = 9,
    solver: Solver | None = None,
    max_nodes: int | None = None,
    progress: Callable[[Progress], None] | None = None,
) -> DealAnalysis:
    """Analyse the moves of ``deal`` (finished or not) made with at most ``tricks`` tricks
    left, by solving each position exactly with all hands known, in this process with one
    ``solver`` (its table kept across the analysis). With ``max_nodes`` it works back from
    the last trick and stops before the first trick whose moves would take more positions
    searched than are left of that budget: the result's ``tricks`` says how many it analysed.
    ``progress`` is told after each trick. :class:`Analyser` does the same work with worker
    processes in parallel, to the same values."""
    solver = solver or Solver(deal.rules, table_bits=TABLE_BITS)
    position = _replay(deal)

    def run(made: int, firsts: list[int], after: int | None, budget: int | None) -> Found:
        _step_to(position, deal, made)
        legal = position.legal_moves()
        up = position.turn is not None and position.turn % 2 == 0
        bound = _first_bound(after, up)
        found: dict[int, int] = {}
        spent = 0
        for index in firsts:
            left = None if budget is None else budget - spent
            if left is not None and left < 1:
                return found, spent, True
            value, nodes, over = _solve_class(solver, position, legal[index], bound, left)
            spent += nodes
            if over:
                return found, spent, True
            if value is not None:
                found[index] = value
            bound = _tighten(bound, value, up)
        return found, spent, False

    return _run_analysis(deal, tricks, max_nodes, run, solver.forecast, progress)


class AnalysisError(RuntimeError):
    """An analysis worker process stopped or failed (the pool starts new ones next time)."""


def _worker(conn: Connection, counter: Any, nice: int) -> None:
    """An analysis worker process: a solver per analysis (its table kept across that
    analysis) counting into ``counter`` (shared with the pool), the moves it is sent; it ends
    when its pipe closes."""
    if nice and hasattr(os, "nice"):
        os.nice(nice)
    counts = np.frombuffer(counter, dtype=np.int64)
    deal: Deal | None = None
    position: Deal | None = None
    solver: Solver | None = None
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        try:
            if message[0] == "deal":
                deal = message[1]
                assert isinstance(deal, Deal)
                solver = Solver(deal.rules, table_bits=message[2], counter=counts)
                position = _replay(deal)
                reply: object = ("ok", None)
            else:
                _, made, index, bound, budget = message
                assert deal is not None and position is not None and solver is not None
                _step_to(position, deal, made)
                move = position.legal_moves()[index]
                reply = ("ok", _solve_class(solver, position, move, bound, budget))
        except Exception as error:  # sent back and raised there: the worker goes on
            reply = ("error", error)
        try:
            conn.send(reply)
        except (BrokenPipeError, OSError):
            return


class Analyser:
    """The deal analysis with worker processes: each position's moves are shared among
    ``workers`` processes (default: the machine's cores), each with one solver whose table
    it keeps across the analysis. The workers start on first use (a second or so: they load
    the compiled solver) and are reused until :meth:`close`; one analysis runs at a time
    (others wait). ``nice`` lowers the workers' priority (POSIX), so that a server's own
    process stays responsive.

    The values are those of :func:`analyse`. Which worker searches which move is decided as
    if every worker searched at the same speed (the next move goes to the worker whose
    count of positions searched is the lowest when it finishes; the pool watches each
    worker's count as it rises): so the positions searched, and how far a budget goes,
    depend only on the deal and the number of workers, never on timing.

    >>> from hukum.mindi import Deal, Rules
    >>> deal = Deal.new(Rules(), dealer=0, seed=7)
    >>> while not deal.is_over():
    ...     deal.push(deal.legal_moves()[0])
    >>> with Analyser(workers=2) as analyser:
    ...     analyser.analyse(deal, tricks=3) == analyse(deal, tricks=3)
    True
    """

    def __init__(self, workers: int | None = None, nice: int = 0) -> None:
        self.workers = (os.cpu_count() or 1) if workers is None else workers
        if self.workers < 1:
            raise ValueError(f"workers={workers!r}: at least one worker process")
        self.nice = nice
        self._pipes: list[Connection] = []
        self._counts: list[np.ndarray] = []
        self._processes: list[multiprocessing.process.BaseProcess] = []
        self.busy = threading.Lock()
        """Held while an analysis runs (or the workers start): one at a time."""
        self._closed = False

    def __enter__(self) -> Analyser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:
        """Start the worker processes now (else the first analysis starts them)."""
        with self.busy:
            self._start()

    def _start(self) -> None:
        if self._closed:
            raise AnalysisError("the analyser is closed")
        if self._processes and all(p.is_alive() for p in self._processes):
            return
        self._stop()
        context = multiprocessing.get_context("spawn")  # never fork a threaded server
        for _ in range(self.workers):
            mine, theirs = context.Pipe()
            counter = context.RawArray("q", 3)
            process = context.Process(
                target=_worker,
                args=(theirs, counter, self.nice),
                daemon=True,
                name="hukum-analysis",
            )
            process.start()
            theirs.close()  # the worker's end lives in the worker only: its death is an EOF
            self._pipes.append(mine)
            self._counts.append(np.frombuffer(counter, dtype=np.int64))
            self._processes.append(process)

    def analyse(
        self,
        deal: Deal,
        tricks: int | None = None,
        max_nodes: int | None = None,
        progress: Callable[[Progress], None] | None = None,
    ) -> DealAnalysis:
        """As :func:`analyse` (``tricks`` default: the whole deal), with the workers."""
        tricks = deal.rules.hand_size if tricks is None else tricks
        _check(deal, tricks, max_nodes)
        words = Solver(deal.rules, table_bits=0)  # checks the rules; words the values
        position = _replay(deal)
        with self.busy:
            self._start()
            try:
                for pipe in self._pipes:
                    pipe.send(("deal", deal, TABLE_BITS))
                for pipe in self._pipes:
                    self._answer(pipe)

                def run(
                    made: int, firsts: list[int], after: int | None, budget: int | None
                ) -> Found:
                    _step_to(position, deal, made)
                    up = position.turn is not None and position.turn % 2 == 0
                    return self._schedule(made, firsts, _first_bound(after, up), up, budget)

                return _run_analysis(deal, tricks, max_nodes, run, words.forecast, progress)
            except (EOFError, OSError) as error:
                self._stop()
                raise AnalysisError(f"an analysis worker stopped: {error or 'no answer'}") from None
            except BaseException:
                self._stop()  # answers may still be on their way: new workers next time
                raise

    @staticmethod
    def _answer(pipe: Connection) -> Any:
        """A worker's answer; its error raised here."""
        status, answer = pipe.recv()
        if status == "error":
            raise answer
        return answer

    def _schedule(
        self, made: int, firsts: list[int], bound: int | None, up: bool, budget: int | None
    ) -> Found:
        """Work out one position's classes with the workers, in the order the workers would
        take them if each searched positions at the same speed: a worker finishing a move
        after searching ``n`` positions in this position's work gets the next move once every
        other worker has finished or searched more than ``n``. Each worker takes the classes
        of its own share in order (neighbouring cards, whose searches share the most of a
        worker's table), then helps with the largest share left, from its far end."""
        shares = [
            deque(firsts[w * len(firsts) // self.workers : (w + 1) * len(firsts) // self.workers])
            for w in range(self.workers)
        ]
        started: dict[int, tuple[int, int, int]] = {}  # worker: move, clock at start, count
        finished: dict[int, tuple[int | None, int, bool]] = {}
        count = [int(c[0]) for c in self._counts]  # each worker's count at its move's start
        found: dict[int, int] = {}
        spent = 0
        over = False

        def give(w: int, clock: int) -> None:
            nonlocal over
            largest = max(shares, key=len)
            if not largest or over:
                return
            left = None if budget is None else budget - spent
            if left is not None and left < 1:
                over = True
                return
            index = shares[w].popleft() if shares[w] else largest.pop()
            self._pipes[w].send(("move", made, index, bound, left))
            started[w] = (index, clock, count[w])

        for w in range(self.workers):
            give(w, 0)
        while started:
            waiting = [self._pipes[w] for w in started if w not in finished]
            ready = wait(waiting, timeout=_POLL if finished else None) if waiting else []
            for w in list(started):
                if self._pipes[w] in ready:
                    finished[w] = self._answer(self._pipes[w])
            while finished:
                w = min(finished, key=lambda v: (started[v][1] + finished[v][1], v))
                index, clock, _ = started[w]
                value, nodes, ran_out = finished[w]
                end = clock + nodes
                if any(
                    started[v][1] + int(self._counts[v][0]) - started[v][2] <= end
                    for v in started
                    if v not in finished
                ):
                    break  # another worker may yet finish first (in positions searched)
                del started[w], finished[w]
                count[w] += nodes
                spent += nodes
                over = over or ran_out
                if value is not None:
                    found[index] = value
                bound = _tighten(bound, value, up)
                give(w, end)
        return found, spent, over

    def close(self) -> None:
        """Stop the workers (an analysis running fails with :class:`AnalysisError`)."""
        self._closed = True
        self._stop()

    def _stop(self) -> None:
        """Close the pipes (a worker waiting for work ends) and end every worker."""
        for pipe in self._pipes:
            pipe.close()
        for process in self._processes:
            process.join(timeout=1)
            if process.is_alive():
                process.terminate()  # busy in a search
                process.join(timeout=5)
            if process.is_alive():
                process.kill()
                process.join()
        self._pipes, self._counts, self._processes = [], [], []


#: How often (seconds) the pool looks at the workers' counts while one has finished a move
#: and another may yet finish first.
_POLL = 0.002


def compile_solver() -> None:
    """Compile the exact solver into numba's cache now (about 15 s once; later processes
    load it in well under a second): a deal analysed and a deal played by the expert.

    ``scripts/venv.sh`` runs it after installing, so that no server compiles it while it
    plays: numba holds the interpreter's lock while it compiles, and a server that analysed
    its first deal, or let the expert play, with a cold cache answered nothing for 10 s."""
    from hukum.bots import make_bot
    from hukum.mindi import Deal, Rules
    from hukum.play import play_deal

    deal = Deal.new(Rules(), dealer=0, seed=7)
    play_deal(deal, [make_bot("expert", seed=seat) for seat in range(4)])
    analyse(deal)
