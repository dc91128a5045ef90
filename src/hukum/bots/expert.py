"""The expert player: the exact solver over sampled worlds in the last tricks, search before.

With at most ``solve_tricks`` tricks left it deals out the unseen cards many ways that agree
with its view (:func:`hukum.bots.search.sample_world`), weighs each world by how likely the
other seats' past plays were under the rule-based player (a factor ``infer`` for each play
that player would not have made; with ``inference="model"``, their probability under the
learnt model of :mod:`hukum.bots.policy`), solves each world exactly with all hands known
(:mod:`hukum.bots.solver`) and plays the move with the best weighted mean result in match
points (a small bonus for tens breaks ties); where moves are still equal, as they often are
against perfect play, the one after which its team ends with the most tricks in the solved
worlds when both teams play for the best result and then for tricks (tricks decide a 2–2
tie of tens, and duplicate deals otherwise level), and of those the one the rule-based player
would make. Earlier in the deal, where an exact solve would not fit the time a move may
take, it plays as the search player, and so it does when the solves of a move run out of
their budget of positions searched (``max_nodes``) before two worlds are solved. The
face-down card and the announced suit are the rule-based player's choice, as for search;
with ``trump_worlds`` above 0 they are searched instead
(:func:`hukum.bots.search.search_trump`: each suit played out by the rule-based player in
that many deals that agree with the chooser's hand), and with ``early="ismcts"`` the tricks
before the solves are played by the information-set tree search (:mod:`hukum.bots.ismcts`)
instead of the search player. Neither is the default: neither played better in the arena
(docs/strength.md).

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

import logging
import random
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from hukum.bots.base import Bot, check_turn
from hukum.bots.ismcts import IsmctsBot
from hukum.bots.policy import ModelError, PolicyModel
from hukum.bots.rules import RulesBot
from hukum.bots.search import (
    Likelihood,
    SearchBot,
    play_move_out,
    replay,
    rules_likelihood,
    sample_world,
    search_trump,
    shown_voids,
)
from hukum.bots.solver import Solution, Solver, SolverBudgetError
from hukum.mindi import Deal, Move, MoveKind, Rules, View

log = logging.getLogger(__name__)

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
        inference: str = "rules",
        model: str | None = None,
        power: float = 1.0,
        draws: int = 1,
        early_follow: str = "searched",
        equal: str = "tricks",
        trick: float = 0.01,
        blend: float = 0.0,
        early_trick: float = 0.0,
        **search: object,
    ) -> None:
        """An expert: ``samples`` worlds a move once at most ``solve_tricks`` tricks are left
        (fewer if ``time_budget`` seconds run out, never fewer than 2); ``infer`` weighs down a
        world for each past play the rule-based player would not have made; the other options
        go to the search player used before that. The solves of one move may search at most
        ``max_nodes`` positions in all (up to about 0.9 s on one core): the worlds solved by
        then decide, or the search player if fewer than two were. The trump choice is
        played out in ``trump_worlds`` deals (0: the rule-based player's choice); ``early``
        names the player of the tricks before the solves, ``search`` or ``ismcts``; with
        ``early_follow="rules"`` that player only leads, and the cards played to a trick
        already led in those tricks are the rule-based player's (``searched``: the early
        player's, the default). A move within ``natural_margin`` match points (a mean over
        the worlds) of the best is as good as the best. Of the moves so found equal, with
        ``equal="tricks"`` (the default) the one after which the mover's team ends with the
        most tricks in the solved worlds is played, both teams playing for the best result
        and then for tricks (:meth:`Solver.tricks`, within another ``max_nodes`` positions;
        the rule-based player's move among equals, and the rule-based player's move if no
        world is so solved in time); with ``equal="natural"`` the rule-based player's move
        if it is one. With ``equal="playouts"`` the moves so found equal are
        played out instead in the solved worlds by the rule-based player for every seat,
        scored as the search player scores them plus ``trick`` a trick more than the other
        team's, and the best of those is played (the natural one among equals). With
        ``blend`` above 0 every move is so played out, and ``blend`` times its play-out
        value is added to its solved result before the best is taken: a credit for the
        chances a move leaves to players who err, which the solves (perfect play for all
        four seats) do not give. ``early_trick`` is the search player's ``trick``: in the
        tricks before the solves, its play-outs count that much for each trick more than
        the other team's (0, the default).

        ``inference`` says how a world's likelihood is judged: ``rules`` (the factor
        ``infer`` for each play the rule-based player would not have made) or ``model``
        (the learnt :class:`~hukum.bots.policy.PolicyModel`'s probability of each play, to
        the power ``power``; the package's model, or the file ``model``). A model that
        cannot be read is reported (a warning naming the problem, and ``model_error``) and
        the rules judge the worlds instead. With ``draws`` above 1, ``draws`` times
        ``samples`` worlds are sampled and ``samples`` of them drawn by their likelihood
        (with repeats), each then counting the same."""
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
        self.time_budget = time_budget
        self.max_nodes = max_nodes
        self.trump_worlds = trump_worlds
        if early not in ("search", "ismcts"):
            raise ValueError(f"early={early!r}: the early tricks' player is search or ismcts")
        if early_follow not in ("searched", "rules"):
            raise ValueError(f"early_follow={early_follow!r}: searched or rules")
        self.early_follow = early_follow
        if equal not in ("natural", "playouts", "tricks"):
            raise ValueError(
                f"equal={equal!r}: equal moves go to the natural play, playouts or tricks"
            )
        if not trick >= 0.0:
            raise ValueError(f"trick={trick!r}: 0 or more")
        if not blend >= 0.0:
            raise ValueError(f"blend={blend!r}: 0 (the solves alone) or more")
        self.equal = equal
        self.blend = blend
        self.trick = trick
        if early_trick and early != "search":
            raise ValueError(f"early_trick={early_trick!r} is for the search player, not {early}")
        if early == "search":
            search["trick"] = early_trick
        early_bot = SearchBot if early == "search" else IsmctsBot
        self.search: Bot[View, Move] = early_bot(seed=seed, **search)  # type: ignore[arg-type]
        self.judge = RulesBot()
        if inference not in ("rules", "model"):
            raise ValueError(f"inference={inference!r}: the worlds are judged by rules or model")
        if not power > 0.0:
            raise ValueError(f"power={power!r}: above 0")
        if draws < 1:
            raise ValueError(f"draws={draws!r}: at least one world sampled a world solved")
        self.draws = draws
        self.model_error: str | None = None
        self.likelihood: Likelihood | None = (
            rules_likelihood(self.judge, infer) if infer < 1.0 else None
        )
        if inference == "model":
            try:
                policy = PolicyModel.default() if model is None else PolicyModel.load(Path(model))
            except ModelError as e:
                self.model_error = str(e)
                log.warning("%s; the expert judges its worlds by the rules instead", e)
            else:
                self.likelihood = policy.likelihood(power)
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
            if len(moves) == 1:
                return moves[0]
            if self.early_follow == "rules" and view.trick:
                return self.judge.choose(view)
            return self.search.choose(view)
        return self._solve(view, moves)

    def _worlds(self, view: View) -> Iterator[tuple[int, Deal, float]]:
        """The worlds to solve, each with a number (the same for a world drawn again) and
        its weight: ``samples`` of them, each sampled and weighed by its likelihood, or with
        ``draws`` above 1 drawn by it from more. Sampled as they are asked for, so a move
        whose budget runs out samples no more."""
        if self.draws == 1:
            for number in range(self.samples):
                yield (number, *replay(view, sample_world(view, self.rng), self.likelihood))
            return
        pool = [
            replay(view, sample_world(view, self.rng), self.likelihood)
            for _ in range(self.samples * self.draws)
        ]
        weights = [w for _, w in pool]
        if not sum(weights) > 0.0:
            weights = [1.0] * len(pool)
        for number in self.rng.choices(range(len(pool)), weights, k=self.samples):
            yield number, pool[number][0], 1.0

    def _solve(self, view: View, moves: Sequence[Move]) -> Move:
        """The move of the best weighted mean solved result (see :meth:`choose`)."""
        rules = view.rules
        solver = self._solvers.get(rules)
        if solver is None:
            solver = self._solvers[rules] = Solver(rules, table_bits=16)
        team = view.seat % 2
        totals = dict.fromkeys(moves, 0.0)
        start = time.perf_counter()
        count = 0
        weights = 0.0
        budget = self.max_nodes
        solved: dict[int, Solution] = {}  # a world drawn again is not solved again
        counted: list[tuple[int, Deal, float]] = []
        for number, deal, weight in self._worlds(view):
            solution = solved.get(number)
            if solution is None:
                try:
                    solution = solved[number] = solver.solve(deal, max_nodes=budget)
                except SolverBudgetError:
                    break
                if budget is not None:
                    budget -= solution.nodes
            for move, forecast in solution.moves.items():
                tens = forecast.tens[team] - forecast.tens[1 - team]
                totals[move] += weight * (forecast.score(team) + 0.05 * tens)
            count += 1
            weights += weight
            counted.append((number, deal, weight))
            if budget is not None and budget < 1:
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
        played: dict[Move, float] = {}
        if self.blend > 0.0:
            played = self._played_out(view, team, moves, counted)
            for move, value in played.items():
                totals[move] += self.blend * value
        top = max(totals.values())
        best = [m for m in moves if totals[m] >= top - 1e-9]
        near = [m for m in moves if totals[m] >= top - self.natural_margin * weights - 1e-9]
        if len(near) > 1 and self.equal == "playouts":
            if not played:
                played = self._played_out(view, team, near, counted)
            high = max(played[m] for m in near)
            best = near = [m for m in near if played[m] >= high - 1e-9]
        elif len(near) > 1 and self.equal == "tricks":
            taken = self._tricks_taken(solver, team, near, counted, solved)
            if taken:
                high = max(taken.values())
                best = near = [m for m in near if taken[m] >= high - 1e-9]
        if len(near) > 1:
            # Moves the solver finds equal against perfect play (or within the margin): the
            # one the rule-based player makes, the natural play, if it is one of them (it
            # gives fallible opponents their usual chances to go wrong).
            natural = self.judge.choose(view)
            if natural in near:
                return natural
        return best[0]

    def _tricks_taken(
        self,
        solver: Solver,
        team: int,
        moves: Sequence[Move],
        worlds: Sequence[tuple[int, Deal, float]],
        solved: dict[int, Solution],
    ) -> dict[Move, float]:
        """Each of ``moves`` and the weighted total of the tricks ``team`` ends with after it
        in ``worlds`` when both teams play for the best result and then for the most tricks
        (:meth:`Solver.tricks`), over the worlds solved so within ``max_nodes`` positions
        (none: an empty dict). A world drawn again counts again but is solved once."""
        budget = self.max_nodes

        def tricks(number: int, deal: Deal) -> list[float] | None:
            nonlocal budget
            forecasts = solved[number].moves
            counts = []
            for move in moves:
                if budget is not None and budget < 1:
                    return None
                try:
                    both = solver.tricks(deal, move, budget, forecasts[move].value)
                except SolverBudgetError:
                    return None
                if budget is not None:
                    budget -= solver.nodes
                counts.append(float(both[team]))
            return counts

        return _weighted_totals(moves, worlds, tricks)

    def _played_out(
        self,
        view: View,
        team: int,
        moves: Sequence[Move],
        worlds: Sequence[tuple[int, Deal, float]],
    ) -> dict[Move, float]:
        """Each of ``moves`` and its weighted total play-out value for ``team`` in ``worlds``
        (numbered as by :meth:`_worlds`: a world drawn again is played out once)."""
        voids = shown_voids(view)

        def played(number: int, deal: Deal) -> list[float]:
            return [
                play_move_out(deal, move, team, voids, self.judge, self.trick)[0] for move in moves
            ]

        return _weighted_totals(moves, worlds, played)


def _weighted_totals(
    moves: Sequence[Move],
    worlds: Sequence[tuple[int, Deal, float]],
    values: Callable[[int, Deal], list[float] | None],
) -> dict[Move, float]:
    """Each of ``moves`` and the weighted total of its value over ``worlds`` (numbered as by
    :meth:`ExpertBot._worlds`). ``values(number, world)`` gives the moves' values in a world,
    once a number: a world drawn again counts again. ``None`` stops there: the totals of the
    worlds before it, or an empty dict if there were none."""
    found: dict[int, list[float]] = {}
    totals = [0.0] * len(moves)
    for number, deal, weight in worlds:
        results = found.get(number)
        if results is None:
            results = values(number, deal)
            if results is None:
                return dict(zip(moves, totals, strict=True)) if found else {}
            found[number] = results
        for i, value in enumerate(results):
            totals[i] += weight * value
    return dict(zip(moves, totals, strict=True))
