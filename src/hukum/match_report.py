"""A match report: for each seat, what its mistakes cost its side over the match's deals,
read from the deal analyses of :mod:`hukum.analysis` ("your mistakes cost 3 tens; the
costliest was the 10♠ on move 41 of deal 2").

A module of its own beside the analysis, not a function in it: the report only adds up
analyses already made (no solver, no worker process), so the server builds it from the
analyses its pool keeps, and a test from analyses made in the test.

How it counts. Each analysed move has ``before`` and ``after``: the best result the mover's
team could force before the move and after it, everybody playing perfectly from then on
(all hands known). A move's cost to its side is ``before - after`` from that team's side:

* ``tens``: the drop in the side's forecast tens, ``before.tens[team] - after.tens[team]``
  (0 to 4; never negative, since a move cannot raise what the side could force);
* ``points``: the drop in the side's forecast match points,
  ``before.score(team) - after.score(team)`` (a win of 1 point turned into a loss of 1
  costs 2) — the drop in the result, which also counts a tie-break given away (2–2 either
  way: no ten lost, the deal lost);
* a mistake is a move whose forecast value changed (:attr:`MoveAnalysis.mistake`), whether
  or not it cost a ten.

A seat's ``tens`` and ``points`` are the sums over its own moves; the two seats of a team
each answer for their own moves (a partner's mistake is the partner's). A sum may be more
than the side lost in the end (the other side's mistakes can give tens back): it is what
the seat gave away, not the result. Moves the analysis
did not reach (its budget ran out, :attr:`DealAnalysis.skipped`) are counted nowhere and
said as such. The three costliest moves are the seat's mistakes by tens, then points, then
the earliest (deal, then move).

>>> from hukum.analysis import analyse
>>> from hukum.mindi import Deal, Rules
>>> deal = Deal.new(Rules(), dealer=0, seed=7)
>>> while not deal.is_over():
...     deal.push(deal.legal_moves()[0])
>>> report = match_report([analyse(deal, tricks=3)], seats=4)
>>> [(s.seat, s.tens, s.mistakes, s.analysed) for s in report.seats]
[(0, 0, 0, 3), (1, 0, 0, 3), (2, 0, 0, 3), (3, 0, 0, 3)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hukum.analysis import DealAnalysis, MoveAnalysis
    from hukum.mindi import Move

__all__ = ["COSTLIEST", "Costly", "MatchReport", "SeatReport", "match_report"]

#: How many of a seat's costliest moves the report names.
COSTLIEST = 3


@dataclass(frozen=True)
class Costly:
    """One mistake and what it cost the mover's side."""

    deal: int
    """The deal, from 1."""
    number: int
    """The move's place in the deal, from 1 (the position before it: ``number - 1`` moves
    made, as the analysis board's ``?move=`` says it)."""
    trick: int
    """Its trick, from 1."""
    move: Move
    """The card (or move) played."""
    tens: int
    """The tens it cost the side."""
    points: int
    """The match points it cost the side."""
    analysis: MoveAnalysis
    """The move's analysis (``before``, ``after``, ``best``: the better moves)."""

    @property
    def best(self) -> tuple[Move, ...]:
        """The moves that kept the side's result."""
        return self.analysis.best


@dataclass(frozen=True)
class SeatReport:
    """What one seat's mistakes cost its side over the match."""

    seat: int
    team: int
    tens: int
    """Tens its mistakes cost its side (the sum over its moves; see the module)."""
    points: int
    """Match points its mistakes cost its side."""
    mistakes: int
    """Its moves that gave something away."""
    analysed: int
    """Its moves the analyses reached."""
    costliest: tuple[Costly, ...]
    """Its costliest mistakes, at most :data:`COSTLIEST`, costliest first."""


@dataclass(frozen=True)
class MatchReport:
    """The report of a match: one :class:`SeatReport` per seat, and what was not analysed."""

    deals: int
    """The deals it covers."""
    seats: tuple[SeatReport, ...]
    skipped: tuple[int, ...]
    """Per deal, the moves before the analysis's reach (counted nowhere)."""

    @property
    def complete(self) -> bool:
        """Whether every move of every deal was analysed."""
        return not any(self.skipped)


def _cost(deal: int, m: MoveAnalysis) -> Costly:
    """What move ``m`` of deal ``deal`` cost its side."""
    team = m.team
    tens = m.before.tens[team] - m.after.tens[team]
    points = m.before.score(team) - m.after.score(team)
    return Costly(deal, m.number, m.trick, m.move, tens, points, m)


def match_report(analyses: list[DealAnalysis], seats: int) -> MatchReport:
    """The report of a match from its deals' analyses, in deal order (deal 1 first), for a
    table of ``seats`` seats (see the module for how each cost is counted)."""
    costs: list[list[Costly]] = [[] for _ in range(seats)]
    analysed = [0] * seats
    for n, analysis in enumerate(analyses, start=1):
        for m in analysis.moves:
            if not 0 <= m.seat < seats:
                raise ValueError(f"deal {n}, move {m.number}: seat {m.seat} of {seats}")
            analysed[m.seat] += 1
            if m.mistake:
                costs[m.seat].append(_cost(n, m))
    reports = []
    for seat in range(seats):
        mine = costs[seat]
        ranked = sorted(mine, key=lambda c: (-c.tens, -c.points, c.deal, c.number))
        reports.append(
            SeatReport(
                seat=seat,
                team=seat % 2,
                tens=sum(c.tens for c in mine),
                points=sum(c.points for c in mine),
                mistakes=len(mine),
                analysed=analysed[seat],
                costliest=tuple(ranked[:COSTLIEST]),
            )
        )
    return MatchReport(len(analyses), tuple(reports), tuple(a.skipped for a in analyses))
