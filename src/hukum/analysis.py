"""Deal analysis: for each move of a finished deal, the best result the mover's team could
still force before it and after it, with all hands known ("this play lost a mindi").

The exact solver (:mod:`hukum.bots.solver`) is fast enough for the last tricks of a deal;
moves made earlier than ``tricks`` tricks from the end are listed as not analysed. With a
budget of positions searched (``max_nodes``) the analysis works back from the last trick as
far as the budget goes: with :data:`ANALYSIS_NODES` most deals are analysed from their
first, second or third trick on.

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

from dataclasses import dataclass

from hukum.bots.solver import Forecast, Solver, SolverBudgetError
from hukum.mindi import Deal, Move

__all__ = ["ANALYSIS_NODES", "DealAnalysis", "MoveAnalysis", "analyse", "standing", "verdict"]

#: The node budget of the analysis ``hukum solve`` and the web app make: about 1–1.4 s of
#: one core here, enough for 11 to 13 tricks of most deals (see :func:`analyse`).
ANALYSIS_NODES = 10_000_000


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


def _judge(
    solver: Solver, position: Deal, move: Move, after: Forecast | None, budget: int | None
) -> tuple[tuple[Forecast, Forecast, tuple[Move, ...]], int]:
    """The result before and after ``move`` in ``position``, and the moves that keep the
    result before if ``move`` did not; and the positions searched. ``after`` (the result
    the move leads to, None if not known yet) saves most of the work: if the mover could not
    have done better, which one null-window search shows, the move kept the result."""
    if after is not None:
        turn = position.turn
        assert turn is not None
        if turn % 2 == 0:
            could_do_better = solver.at_least(position, after.value + 1, max_nodes=budget)
        else:
            could_do_better = not solver.at_least(position, after.value, max_nodes=budget)
        nodes = solver.nodes
        if not could_do_better:
            return (after, after, ()), nodes
        if budget is not None:
            budget -= nodes
    else:
        nodes = 0
    if budget is not None and budget < 1:
        raise SolverBudgetError("no positions left to search")
    solution = solver.solve(position, max_nodes=budget)
    result = solution.moves[move]
    better = () if result == solution.best else tuple(solution.best_moves)
    return (solution.best, result, better), nodes + solution.nodes


def analyse(
    deal: Deal, tricks: int = 9, solver: Solver | None = None, max_nodes: int | None = None
) -> DealAnalysis:
    """Analyse the moves of ``deal`` (finished or not) made with at most ``tricks`` tricks
    left, by solving each position exactly with all hands known. With ``max_nodes`` it works
    back from the last trick and stops before the first trick whose moves would take more
    positions searched than are left of that budget: the result's ``tricks`` says how many
    it analysed."""
    rules = deal.rules
    if not 1 <= tricks <= rules.hand_size:
        raise ValueError(f"tricks={tricks}: analyse from 1 to {rules.hand_size} tricks left")
    if max_nodes is not None and max_nodes < 1:
        raise ValueError(f"max_nodes={max_nodes!r}: at least one node, or None")
    solver = solver or Solver(rules, table_bits=18)
    replay = Deal(rules, deal.dealer, deal.dealt, shown_card=deal.shown_card, seed=deal.seed)
    for seat, move in deal.history:
        replay.push(move, seat=seat)
    moves: list[MoveAnalysis] = []  # from the last move back
    done = 0  # of ``moves``, those of whole tricks
    analysed = 0
    budget = max_nodes
    after: Forecast | None = None  # the result before the move after this one
    for number in range(len(deal.history), 0, -1):
        seat, move = deal.history[number - 1]
        replay.pop()
        played = len(replay.tricks)
        if rules.hand_size - played > tricks or replay.phase != "play":
            break
        if budget is not None and budget < 1:
            break
        try:
            judged, nodes = _judge(solver, replay, move, after, budget)
        except SolverBudgetError:
            break
        if budget is not None:
            budget -= nodes
        moves.append(MoveAnalysis(number, played + 1, seat, move, *judged))
        after = judged[0]
        if not replay.trick:  # the first move of its trick: the trick is done
            done = len(moves)
            analysed = rules.hand_size - played
    kept = tuple(reversed(moves[:done]))
    if max_nodes is None:  # every move asked for (a deal in progress ends mid-trick)
        kept = tuple(reversed(moves))
        analysed = tricks
    return DealAnalysis(analysed, len(deal.history) - len(kept), kept)
