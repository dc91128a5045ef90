"""The expert player: the exact solver over sampled worlds in the last tricks, search before.

With at most ``solve_tricks`` tricks left it deals out the unseen cards many ways that agree
with its view (:func:`hukum.bots.search.sample_world`), weighs each world by how likely the
other seats' past plays were under the rule-based player (a factor ``infer`` for each play
that player would not have made), solves each world exactly with all hands known
(:mod:`hukum.bots.solver`) and plays the move with the best weighted mean result in match
points (a small bonus for tens breaks ties); where moves are still equal, as they often are
against perfect play, the one the rule-based player would make. Earlier in the deal, where
an exact solve would not fit the time a move may take, it plays as the search player, and so
it does when the solves of a move run out of their budget of positions searched
(``max_nodes``) before two worlds are solved. The face-down card and the announced suit are
the rule-based player's choice, as for search; with ``trump_worlds`` above 0 they are
searched instead (:func:`hukum.bots.search.search_trump`: each suit played out by the
rule-based player in that many deals that agree with the chooser's hand), and with
``early="ismcts"`` the tricks before the solves are played by the information-set tree
search (:mod:`hukum.bots.ismcts`) instead of the search player. Neither is the default:
neither played better in the arena (docs/strength.md).

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

from hukum.bots.base import Bot, check_turn
from hukum.bots.ismcts import IsmctsBot
from hukum.bots.rules import RulesBot
from hukum.bots.search import SearchBot, replay, sample_world, search_trump
from hukum.bots.solver import Solver, SolverBudgetError
from hukum.mindi import Move, MoveKind, Rules, View

__all__ = ["ExpertBot"]

_TRUMP_CHOICES = (MoveKind.HIDE, MoveKind.ANNOUNCE)


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
        trump_worlds: int = 0,
        early: str = "search",
        natural_margin: float = 0.0,
        **search: object,
    ) -> None:
        """An expert: ``samples`` worlds a move once at most ``solve_tricks`` tricks are left
        (fewer if ``time_budget`` seconds run out, never fewer than 2); ``infer`` weighs down a
        world for each past play the rule-based player would not have made; the other options
        go to the search player used before that. The solves of one move may search at most
        ``max_nodes`` positions in all (up to about 0.9 s on one core): the worlds solved by
        then decide, or the search player if fewer than two were. The trump choice is
        played out in ``trump_worlds`` deals (0: the rule-based player's choice); ``early``
        names the player of the tricks before the solves, ``search`` or ``ismcts``. A move
        within ``natural_margin`` match points (a mean over the worlds) of the best is as
        good as the best: of those, the rule-based player's move is played if it is one."""
        if not 0.0 < infer <= 1.0:
            raise ValueError(f"infer={infer!r} must be above 0 and at most 1")
        if max_nodes is not None and max_nodes < 1:
            raise ValueError(f"max_nodes={max_nodes!r}: at least one node, or None")
        if trump_worlds < 0:
            raise ValueError(f"trump_worlds={trump_worlds!r}: 0 (the rules' choice) or more")
        if not natural_margin >= 0.0:  # NaN too
            raise ValueError(f"natural_margin={natural_margin!r}: 0 (exact ties) or more")
        self.natural_margin = natural_margin
        if samples < 1:
            raise ValueError(f"samples={samples!r}: at least one world a move")
        if not 0 <= solve_tricks <= 13:
            raise ValueError(f"solve_tricks={solve_tricks!r} must be from 0 to 13")
        self.rng = random.Random(seed)
        self.samples = samples
        self.solve_tricks = solve_tricks
        self.infer = infer
        self.time_budget = time_budget
        self.max_nodes = max_nodes
        self.trump_worlds = trump_worlds
        if early not in ("search", "ismcts"):
            raise ValueError(f"early={early!r}: the early tricks' player is search or ismcts")
        early_bot = SearchBot if early == "search" else IsmctsBot
        self.search: Bot[View, Move] = early_bot(seed=seed, **search)  # type: ignore[arg-type]
        self.judge = RulesBot()
        self._solvers: dict[Rules, Solver] = {}
        self.last_samples = 0

    def choose(self, view: View) -> Move:
        """The legal move with the best weighted mean exact result over sampled worlds."""
        moves = check_turn(view)
        rules = view.rules
        left = rules.hand_size - len(view.tricks)
        if len(moves) > 1 and self.trump_worlds and moves[0].kind in _TRUMP_CHOICES:
            self.last_samples = 0
            return search_trump(view, self.rng, self.trump_worlds, self.judge)
        if (
            len(moves) == 1
            or moves[0].kind in _TRUMP_CHOICES
            or left > self.solve_tricks
            or rules.players != 4
        ):
            self.last_samples = 0
            return moves[0] if len(moves) == 1 else self.search.choose(view)
        solver = self._solvers.get(rules)
        if solver is None:
            solver = self._solvers[rules] = Solver(rules, table_bits=16)
        team = view.seat % 2
        totals = dict.fromkeys(moves, 0.0)
        start = time.perf_counter()
        count = 0
        weights = 0.0
        budget = self.max_nodes
        while count < self.samples:
            world = sample_world(view, self.rng)
            deal, weight = replay(view, world, self.judge, self.infer)
            try:
                solution = solver.solve(deal, max_nodes=budget)
            except SolverBudgetError:
                break
            for move, forecast in solution.moves.items():
                tens = forecast.tens[team] - forecast.tens[1 - team]
                totals[move] += weight * (forecast.score(team) + 0.05 * tens)
            count += 1
            weights += weight
            if budget is not None:
                budget -= solution.nodes
                if budget < 1:
                    break
            if (
                self.time_budget is not None
                and count >= 2
                and time.perf_counter() - start >= self.time_budget
            ):
                break
        if count < min(2, self.samples):
            self.last_samples = 0
            return self.search.choose(view)
        self.last_samples = count
        top = max(totals.values())
        near = [m for m in moves if totals[m] >= top - self.natural_margin * weights - 1e-9]
        if len(near) > 1:
            # Moves the solver finds equal against perfect play (or within the margin): the
            # one the rule-based player makes, the natural play, if it is one of them (it
            # gives fallible opponents their usual chances to go wrong).
            natural = self.judge.choose(view)
            if natural in near:
                return natural
        return next(m for m in moves if totals[m] >= top - 1e-9)
