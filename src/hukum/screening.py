"""Fair-play screening of a finished Mindi deal: the decisions where only the hidden hands
justify the card played.

For each decision of a screened seat with more than one class of legal card
(:func:`hukum.bots.solver.move_classes`) in the tricks the expert solves (its
``solve_tricks`` window, the last 10 tricks), it compares two judgements of the position:

- ``best``: the cards best for the exact solver with all hands known (the deal as it was);
- ``viewed``: the cards a strong player who sees only the seat's view would choose: the
  expert's weighted mean over worlds sampled from that view
  (:meth:`hukum.bots.expert.ExpertBot.weigh`), every card within ``tolerance`` of its top.

A decision *matters* when no card of ``viewed`` is in ``best`` (the view-based choice and
the solver's best differ in value; where every legal card is best for the solver nothing can
matter, and the costly view-based judgement is skipped); it is a *hit* when it matters and
the card played is in ``best``: a card only the hidden hands justify. An honest player hits
now and then by luck or by reading the play better than the expert's sampled worlds; a
player who sees the hidden hands hits far more often. Each decision that matters is judged
against chance: ``chance``, the share of the legal cards that are best (the chance of a hit
by picking a legal card at random), and :func:`step`, the decision's log-likelihood ratio of
a cheat against a player no better than chance, summed per seat (``SeatTotals.llr``);
:mod:`hukum.online.screening` turns the sums into a verdict.

The first tricks (13 down to 11 left) are not screened: neither judgement is exact there at
a cost a server can pay per decision (the expert plays them by playouts of the rule-based
player, the exact solve of a whole deal searches up to 150 million positions), so a
deviation there says little. A cheat who uses the hidden hands only in those tricks goes
unseen by this screening.

Deterministic given the deal and ``seed``: each decision's worlds come from a generator
seeded with ``(seed, move number)``, so a decision's judgement does not depend on which
others were screened.

>>> from hukum.mindi import Deal, Rules
>>> deal = Deal.new(Rules(), dealer=0, seed=7)
>>> while not deal.is_over():
...     deal.push(deal.legal_moves()[0])
>>> report = screen(deal, seats=(0,), seed=1, samples=4, tricks=3)
>>> report.totals[0].seat, report.totals[0].decisions == len(report.decisions)
(0, True)
>>> round(step(0.25, hit=True), 3), round(step(0.25, hit=False), 3)
(1.03, -0.916)
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from dataclasses import dataclass

from hukum.bots.expert import ExpertBot
from hukum.bots.solver import Solver, SolverBudgetError, move_classes
from hukum.mindi import Deal, Move

__all__ = [
    "CHEAT_SHARE",
    "SAMPLES",
    "SCREEN_NODES",
    "TOLERANCE",
    "Decision",
    "ScreenError",
    "Screening",
    "SeatTotals",
    "screen",
    "step",
]

#: Worlds sampled for each decision's view-based judgement (the expert's own number).
SAMPLES = 20

#: Cards within this much of the view-based top (match points; a ten more is 0.05) are all
#: choices a strong player without the hidden hands could make. 0.05 rather than 0.1: a
#: third more decisions that matter for the full-view cheat (12 against 9 in 30 deals) at
#: honest hit rates no higher (``scripts/screening.py --report --tolerance``,
#: docs/fairplay.md).
TOLERANCE = 0.05

#: The budget of positions searched of each decision's two judgements (each): the expert's.
SCREEN_NODES = 5_000_000

#: The cheat the test is tuned to: where a decision matters, a cheat plays a best card by
#: chance or, in this share of the other cases, on purpose (the alternative hypothesis of
#: :func:`step`). 0.6: the full-view and partner-peek cheats' mean step a player-deal was
#: +0.32 and +0.28 at it, every honest level's -0.18 to -0.06 (docs/fairplay.md).
CHEAT_SHARE = 0.6


def step(chance: float, hit: bool, share: float = CHEAT_SHARE) -> float:
    """The log-likelihood ratio of one decision that matters: a cheat against a player no
    better than chance.

    ``chance`` is ``q = |best| / |legal|``, the chance of a hit by picking a legal card at
    random. The null hypothesis: an honest player hits with probability ``p <= q``. The
    alternative: a cheat hits with probability ``q + (1 - q) * share`` (best by chance, or
    on purpose in ``share`` of the other cases). So

    - a hit adds ``log((q + (1 - q) * share) / q)`` (more, the rarer a best card is), and
    - a miss adds ``log((1 - q) * (1 - share) / (1 - q)) = log(1 - share)``.

    Under the null the ratio's expectation is ``p * (q + (1 - q) * share) / q + (1 - p) *
    (1 - share) = 1 - share + share * p / q <= 1``: the product of the ratios over a
    player's decisions is a nonnegative supermartingale (whatever ``q`` and ``share`` each
    decision has), and by Ville's inequality it ever reaches ``1 / alpha`` with probability
    at most ``alpha``. A decision matters only where the solver's best and the view-based
    choice differ, so some legal card is not best and some is: ``0 < q < 1``.
    """
    if not 0.0 < chance < 1.0:
        raise ValueError(f"chance={chance!r} must be between 0 and 1 (a decision that matters)")
    if not 0.0 < share < 1.0:
        raise ValueError(f"share={share!r} must be between 0 and 1")
    if hit:
        return math.log((chance + (1.0 - chance) * share) / chance)
    return math.log(1.0 - share)


class ScreenError(ValueError):
    """The deal cannot be screened (not Mindi with four players, not finished, bad seats)."""


@dataclass(frozen=True)
class Decision:
    """One screened decision."""

    number: int
    """The move's place in the deal, from 1."""
    seat: int
    """Who made it."""
    card: Move
    """The move made."""
    best: tuple[Move, ...]
    """The legal moves best for the exact solver, all hands known."""
    viewed: tuple[Move, ...]
    """The legal moves the view-based judgement chooses (within the tolerance of its top);
    empty where every legal move is best (nothing can matter: the judgement is skipped)."""
    matters: bool
    """Whether the two judgements differ: no card of ``viewed`` is in ``best``."""
    hit: bool
    """Whether it matters and the card played is best only with the hidden hands."""
    means: tuple[tuple[Move, float], ...] = ()
    """The view-based judgement's weighted mean for each legal move (match points, 0.05 a
    ten more), the evidence behind ``viewed``; empty where it was skipped."""
    chance: float = 1.0
    """The share of the legal moves that are best (``len(best) / len(means)``): the chance
    of a hit by picking a legal move at random; 1.0 where every legal move is best."""


@dataclass(frozen=True)
class SeatTotals:
    """One seat's counts over a screened deal."""

    seat: int
    decisions: int
    """Decisions screened (more than one class of legal card, both judgements made)."""
    matters: int
    """Of those, the decisions where the judgements differ."""
    hits: int
    """Of those, the decisions where the card played is the solver's, not the view's."""
    unjudged: int
    """Decisions in the window left out because a judgement ran out of its budget."""
    llr: float = 0.0
    """The deal's log-likelihood ratio of the seat: :func:`step` summed over its decisions
    that matter (0.0 where none did)."""


@dataclass(frozen=True)
class Screening:
    """The screening of one deal."""

    tricks: int
    """The tricks from the end screened."""
    decisions: tuple[Decision, ...]
    """Every screened decision, in order."""
    totals: tuple[SeatTotals, ...]
    """Each screened seat's counts, in the order of the seats asked for."""
    nodes: int
    """Positions searched by both judgements."""


def _decision_seed(seed: int, number: int) -> int:
    """The seed of one decision's worlds: from the screening's seed and the move number."""
    return random.Random(f"hukum-screening:{seed}:{number}").getrandbits(63)


def screen(
    deal: Deal,
    seats: Iterable[int],
    seed: int = 0,
    samples: int = SAMPLES,
    tolerance: float = TOLERANCE,
    tricks: int | None = None,
    max_nodes: int | None = SCREEN_NODES,
    judge: ExpertBot | None = None,
) -> Screening:
    """Screen the decisions of ``seats`` in the last ``tricks`` tricks (default: the expert's
    ``solve_tricks``) of the finished 4-player Mindi ``deal``: the solver's best cards, the
    view-based choice over ``samples`` worlds, and which decisions matter and are hits."""
    rules = deal.rules
    if rules.players != 4:
        raise ScreenError(f"screening needs 4 players, not {rules.players}")
    if not deal.is_over():
        raise ScreenError("screening needs a finished deal")
    wanted = tuple(dict.fromkeys(seats))
    if not wanted or any(not 0 <= s < 4 for s in wanted):
        raise ScreenError(f"seats must be some of 0-3, got {list(wanted)}")
    if judge is None:
        judge = ExpertBot(samples=samples, max_nodes=max_nodes)
    window = judge.solve_tricks if tricks is None else tricks
    if not 0 <= window <= rules.hand_size:
        raise ScreenError(f"tricks={window} must be from 0 to {rules.hand_size}")
    solver = Solver(rules, table_bits=18)
    history = deal.history
    position = Deal(rules, deal.dealer, deal.dealt, shown_card=deal.shown_card, seed=deal.seed)
    decisions: list[Decision] = []
    counts = {s: [0, 0, 0, 0] for s in wanted}  # decisions, matters, hits, unjudged
    llrs = dict.fromkeys(wanted, 0.0)
    nodes = 0
    for number, (seat, move) in enumerate(history, start=1):
        left = rules.hand_size - len(position.tricks)
        if (
            seat in counts
            and position.phase == "play"
            and left <= window
            and len(move_classes(position)) > 1
        ):
            judged = _judge(position, seat, judge, solver, seed, number, max_nodes)
            if judged is None:
                counts[seat][3] += 1
            else:
                best, means, spent = judged
                nodes += spent
                top = max((v for _, v in means), default=0.0)
                viewed = tuple(m for m, v in means if v >= top - tolerance - 1e-9)
                matters = bool(viewed) and not set(viewed) & set(best)
                hit = matters and move in best
                chance = len(best) / len(means) if means else 1.0
                decision = Decision(number, seat, move, best, viewed, matters, hit, means, chance)
                decisions.append(decision)
                counts[seat][0] += 1
                counts[seat][1] += decision.matters
                counts[seat][2] += decision.hit
                if matters:
                    llrs[seat] += step(chance, hit)
        position.push(move, seat=seat)
    totals = tuple(
        SeatTotals(s, counts[s][0], counts[s][1], counts[s][2], counts[s][3], llrs[s])
        for s in wanted
    )
    return Screening(window, tuple(decisions), totals, nodes)


def _judge(
    position: Deal,
    seat: int,
    judge: ExpertBot,
    solver: Solver,
    seed: int,
    number: int,
    max_nodes: int | None,
) -> tuple[tuple[Move, ...], tuple[tuple[Move, float], ...], int] | None:
    """The solver's best moves, the view-based judgement's mean for each legal move (none
    where every move is best) and the positions searched for the decision at ``position``
    (None if either judgement ran out of its budget)."""
    try:
        solution = solver.solve(position, max_nodes=max_nodes)
    except SolverBudgetError:
        return None
    legal = position.legal_moves()
    best = tuple(m for m in legal if solution.moves[m].value == solution.best.value)
    if len(best) == len(legal):  # any card is best: the view-based choice cannot differ
        return best, (), solution.nodes
    view = position.view(seat)
    judge.rng = random.Random(_decision_seed(seed, number))
    weighing = judge.weigh(view, legal)
    if weighing is None:
        return None
    means = weighing.means()
    spent = solution.nodes + sum(s.nodes for _, _, s in weighing.solved)
    return best, tuple((m, means[m]) for m in legal), spent
