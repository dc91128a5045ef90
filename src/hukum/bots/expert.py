"""The expert player: the exact solver over sampled worlds in the last tricks, search before.

With at most ``solve_tricks`` tricks left it deals out the unseen cards many ways that agree
with its view (:func:`hukum.bots.worlds.sample_world`), weighs each world by how likely the
other seats' past plays were under the rule-based player (a factor ``infer`` for each play
that player would not have made), solves each world exactly with all hands known
(:mod:`hukum.bots.solver`) and plays the move with the best weighted mean result in match
points (a small bonus for tens breaks ties); where moves are still equal, as they often are
against perfect play, the one after which its team ends with the most tricks in the solved
worlds when both teams play for the best result and then for tricks (tricks decide a 2–2
tie of tens, and duplicate deals otherwise level), and of those the one the rule-based player
would make. Earlier in the deal, where an exact solve would not fit the time a move may
take, it plays as the search player, and so it does when the solves of a move run out of
their budget of positions searched (``max_nodes``) before two worlds are solved. The
face-down card and the announced suit are the rule-based player's choice, as for search.
The options tried and not kept are in docs/strength.md, with the commit that had them.

>>> from hukum.mindi import Deal, Rules
>>> deal = Deal.new(Rules(), dealer=0, seed=2)
>>> while len(deal.tricks) < 9:
...     deal.push(deal.legal_moves()[0])
>>> bot = ExpertBot(seed=1, samples=4)
>>> bot.choose(deal.view(deal.turn)) in deal.legal_moves()
True
>>> bot.last_samples
4
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from hukum.bots.base import Bot, check_turn
from hukum.bots.rules import RulesBot
from hukum.bots.search import MIN_WORLDS, STEPS, WORLDS, SearchBot
from hukum.bots.solver import Solution, Solver, SolverBudgetError
from hukum.bots.worlds import replay, rules_likelihood, sample_world
from hukum.mindi import Deal, Move, MoveKind, Rules, View

__all__ = ["ExpertBot", "Weighing"]

_TRUMP_CHOICES = (MoveKind.HIDE, MoveKind.ANNOUNCE)

#: A solved world: the deal, its weight and its solution.
_Solved = tuple[Deal, float, Solution]


@dataclass(frozen=True)
class Weighing:
    """The expert's judgement of one position from its view: each legal move's weighted
    total over the sampled worlds solved (``forecast.score(team) + 0.05 * tens``), the
    worlds' total weight and the worlds themselves."""

    totals: dict[Move, float]
    """Each legal move and its weighted total over :attr:`solved`."""
    weight: float
    """The total weight of the worlds solved."""
    solved: tuple[_Solved, ...]
    """The worlds solved: the deal, its weight and its solution."""

    def means(self) -> dict[Move, float]:
        """Each legal move and its weighted mean result (match points, 0.05 a ten more)."""
        weight = self.weight or 1.0
        return {m: t / weight for m, t in self.totals.items()}


class ExpertBot(Bot[View, Move]):
    """Solver-backed play over weighted sampled worlds (see module doc)."""

    name = "expert"

    def __init__(
        self,
        seed: int = 0,
        samples: int = 20,
        solve_tricks: int = 10,
        infer: float = 0.5,
        time_budget: float | None = None,
        max_nodes: int | None = 5_000_000,
        steps: int | None = STEPS,
        worlds: int | None = WORLDS,
        min_worlds: int = MIN_WORLDS,
    ) -> None:
        """An expert: ``samples`` worlds a move once at most ``solve_tricks`` tricks are left
        (fewer if ``time_budget`` seconds run out, never fewer than 2); ``infer`` weighs down a
        world for each past play the rule-based player would not have made. The solves of one
        move may search at most ``max_nodes`` positions in all (up to about 0.9 s on one
        core): the worlds solved by then decide, or the search player if fewer than two were;
        the trick counts of the moves they find equal get another ``max_nodes``. ``steps``,
        ``worlds`` and ``min_worlds`` are the budgets of the search player of the tricks
        before (:class:`~hukum.bots.search.SearchBot`)."""
        if not 0.0 < infer <= 1.0:
            raise ValueError(f"infer={infer!r} must be above 0 and at most 1")
        if max_nodes is not None and max_nodes < 1:
            raise ValueError(f"max_nodes={max_nodes!r}: at least one node, or None")
        if samples < 1:
            raise ValueError(f"samples={samples!r}: at least one world a move")
        if not 0 <= solve_tricks <= 13:
            raise ValueError(f"solve_tricks={solve_tricks!r} must be from 0 to 13")
        self.rng = random.Random(seed)
        self.samples = samples
        self.solve_tricks = solve_tricks
        self.time_budget = time_budget
        self.max_nodes = max_nodes
        self.search = SearchBot(seed=seed, worlds=worlds, min_worlds=min_worlds, steps=steps)
        self.judge = RulesBot()
        self.likelihood = rules_likelihood(self.judge, infer) if infer < 1.0 else None
        self._solvers: dict[Rules, Solver] = {}
        self.last_samples = 0

    def choose(self, view: View) -> Move:
        """The legal move with the best weighted mean exact result over sampled worlds."""
        moves = check_turn(view)
        rules = view.rules
        left = rules.hand_size - len(view.tricks)
        if len(moves) == 1:
            self.last_samples = 0
            return moves[0]
        if moves[0].kind in _TRUMP_CHOICES or left > self.solve_tricks or rules.players != 4:
            self.last_samples = 0
            return self.search.choose(view)
        return self._solve(view, moves)

    def _worlds(self, view: View) -> Iterator[tuple[Deal, float]]:
        """The ``samples`` worlds to solve, each with its weight, its likelihood. Sampled as
        they are asked for, so a move whose budget runs out samples no more."""
        for _ in range(self.samples):
            yield replay(view, sample_world(view, self.rng), self.likelihood)

    def solver(self, rules: Rules) -> Solver:
        """The exact solver this player uses for ``rules`` (made once, its table kept)."""
        solver = self._solvers.get(rules)
        if solver is None:
            solver = self._solvers[rules] = Solver(rules, table_bits=16)
        return solver

    def weigh(self, view: View, moves: Sequence[Move]) -> Weighing | None:
        """The weighted totals of ``moves`` (the legal moves of ``view``) over the worlds
        sampled and solved within the budgets (see :meth:`choose`); None if fewer than two
        worlds (or than ``samples``, if one) were solved."""
        solver = self.solver(view.rules)
        team = view.seat % 2
        totals = dict.fromkeys(moves, 0.0)
        start = time.perf_counter()
        budget = self.max_nodes
        solved: list[_Solved] = []
        weights = 0.0
        for deal, weight in self._worlds(view):
            try:
                solution = solver.solve(deal, max_nodes=budget)
            except SolverBudgetError:
                break
            if budget is not None:
                budget -= solution.nodes
            for move, forecast in solution.moves.items():
                tens = forecast.tens[team] - forecast.tens[1 - team]
                totals[move] += weight * (forecast.score(team) + 0.05 * tens)
            solved.append((deal, weight, solution))
            weights += weight
            if budget is not None and budget < 1:
                break
            if (
                self.time_budget is not None
                and len(solved) >= 2
                and time.perf_counter() - start >= self.time_budget
            ):
                break
        if len(solved) < min(2, self.samples):
            return None
        return Weighing(totals, weights, tuple(solved))

    def _solve(self, view: View, moves: Sequence[Move]) -> Move:
        """The move of the best weighted mean solved result (see :meth:`choose`)."""
        weighing = self.weigh(view, moves)
        if weighing is None:
            self.last_samples = 0
            return self.search.choose(view)
        solver = self.solver(view.rules)
        team = view.seat % 2
        totals, solved = weighing.totals, weighing.solved
        self.last_samples = len(solved)
        top = max(totals.values())
        best = [m for m in moves if totals[m] >= top - 1e-9]
        if len(best) > 1:
            taken = self._tricks_taken(solver, team, best, solved)
            if taken:
                high = max(taken.values())
                best = [m for m in best if taken[m] >= high - 1e-9]
        if len(best) > 1:
            # Moves the solver finds equal against perfect play, and for tricks: the one the
            # rule-based player makes, the natural play, if it is one of them (it gives
            # fallible opponents their usual chances to go wrong).
            natural = self.judge.choose(view)
            if natural in best:
                return natural
        return best[0]

    def _tricks_taken(
        self, solver: Solver, team: int, moves: Sequence[Move], worlds: Sequence[_Solved]
    ) -> dict[Move, float]:
        """Each of ``moves`` and the weighted total of the tricks ``team`` ends with after it
        in ``worlds`` when both teams play for the best result and then for the most tricks
        (:meth:`Solver.tricks`), over the worlds solved so within ``max_nodes`` positions
        (none: an empty dict)."""
        budget = self.max_nodes

        def tricks(deal: Deal, solution: Solution) -> list[float] | None:
            nonlocal budget
            counts = []
            for move in moves:
                if budget is not None and budget < 1:
                    return None
                try:
                    both = solver.tricks(deal, move, budget, solution.moves[move].value)
                except SolverBudgetError:
                    return None
                if budget is not None:
                    budget -= solver.nodes
                counts.append(float(both[team]))
            return counts

        totals = [0.0] * len(moves)
        for done, (deal, weight, solution) in enumerate(worlds):
            counts = tricks(deal, solution)
            if counts is None:
                return dict(zip(moves, totals, strict=True)) if done else {}
            for i, count in enumerate(counts):
                totals[i] += weight * count
        return dict(zip(moves, totals, strict=True))
