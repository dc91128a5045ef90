"""How fast the engines play: random legal deals on one core (``hukum bench``), for every
game of :mod:`hukum.games`; how long the exact solver takes a position (``--solver``) and
how long the deal analysis takes a finished deal (``--analysis``).

Each deal is shuffled and dealt from its own seed, then played to the end through the
referee loop (:func:`hukum.play.play_out`), each move drawn uniformly from the legal moves.
The time includes the shuffle. The figures are for people and for ``make bench``;
no test asserts a speed.

>>> from hukum.mindi import Rules
>>> result = run(Rules(), deals=3)
>>> result.deals, result.moves
(3, 156)
>>> from hukum import ganjifa
>>> run(ganjifa.Rules(), deals=2, game="ganjifa").deals   # a Dukal is one move of k cards
2
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from hukum.games import game_named
from hukum.mindi import Deal, Rules
from hukum.play import play_out

__all__ = [
    "AnalysisResult",
    "BenchResult",
    "SolveResult",
    "analysis_deals",
    "run",
    "run_analysis",
    "run_env",
    "run_presets",
    "run_solver",
    "solve_positions",
]


@dataclass(frozen=True)
class BenchResult:
    """The figures of one benchmark run."""

    name: str
    """What was measured, e.g. the preset's name."""
    deals: int
    """Deals played to the end."""
    moves: int
    """Moves made in all (cards played, and hide, announce and reveal moves)."""
    seconds: float
    """Time taken, in seconds."""

    @property
    def deals_per_second(self) -> float:
        """Deals played per second."""
        return self.deals / self.seconds if self.seconds > 0 else float("inf")

    @property
    def moves_per_second(self) -> float:
        """Moves made per second."""
        return self.moves / self.seconds if self.seconds > 0 else float("inf")


def run(
    rules: Any,
    deals: int | None = 10_000,
    seconds: float | None = None,
    seed: int = 0,
    name: str = "",
    game: str = "mindi",
) -> BenchResult:
    """Play random legal deals of ``game`` under ``rules`` until ``deals`` are done or
    ``seconds`` have passed (a Ganjifa answer to a Dukal is drawn from every choice of k
    cards)."""
    if deals is None and seconds is None:
        raise ValueError("give a number of deals, a number of seconds, or both")
    spec = game_named(game)
    players = spec.players(rules)
    rng = random.Random(seed)
    clock = time.perf_counter
    done = moves = 0
    start = clock()
    deadline = None if seconds is None else start + seconds
    while (deals is None or done < deals) and (deadline is None or clock() < deadline):
        deal = spec.new_deal(rules, done % players, rng.getrandbits(32))
        moves += play_out(deal, _random_move(deal.legal_moves, rng.random))
        done += 1
    return BenchResult(name, done, moves, clock() - start)


def _random_move(
    legal_moves: Callable[[], Sequence[Any]], draw: Callable[[], float]
) -> Callable[[int], Any]:
    """A chooser for :func:`~hukum.play.play_out`: a uniformly random legal move."""

    def choose(seat: int) -> Any:
        legal = legal_moves()
        return legal[int(draw() * len(legal))]

    return choose


def run_env(
    make_env: Callable[[], Any], deals: int = 500, seed: int = 0, name: str = ""
) -> BenchResult:
    """Play ``deals`` episodes of a PettingZoo AEC environment (any, with an
    ``action_mask`` in its observations: hukum's or PettingZoo's own card games) with
    uniformly random legal actions, in PettingZoo's usual loop (``last()``, an action from
    the mask, ``step()``); ``moves`` counts the actions taken."""
    import numpy as np

    env = make_env()
    rng = random.Random(seed)
    clock = time.perf_counter
    steps = 0
    start = clock()
    for number in range(deals):
        env.reset(seed=seed + number)
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            action = None
            if not (terminated or truncated):
                legal = np.flatnonzero(observation["action_mask"])
                action = int(legal[int(rng.random() * len(legal))])
                steps += 1
            env.step(action)
    return BenchResult(name or str(make_env), deals, steps, clock() - start)


def run_presets(
    deals: int | None = 10_000, seconds: float | None = None, seed: int = 0, game: str = "mindi"
) -> list[BenchResult]:
    """:func:`run` for every preset of ``game``, in turn."""
    return [
        run(rules, deals=deals, seconds=seconds, seed=seed, name=name, game=game)
        for name, rules in game_named(game).presets.items()
    ]


@dataclass(frozen=True)
class SolveResult:
    """The figures of one solver benchmark: seconds per position solved."""

    name: str
    """What was measured."""
    tricks: int
    """Tricks left in each position (13: the whole deal)."""
    times: tuple[float, ...]
    """Seconds for each position, in the order solved; ``math.inf`` for one not solved
    within ``max_nodes``."""
    searched: tuple[int, ...]
    """Positions searched for each position, in the order solved (the same on any machine,
    unlike the times)."""
    seconds: float
    """Seconds spent in all, on the positions not solved too."""
    max_nodes: int | None = None
    """The node budget of each position (None: none)."""

    @property
    def nodes(self) -> int:
        """Positions searched in all."""
        return sum(self.searched)

    @property
    def unsolved(self) -> int:
        """The positions not solved within the budget."""
        return sum(1 for t in self.times if t == math.inf)

    def percentile(self, p: float) -> float:
        """The ``p``-th percentile of the times (nearest rank)."""
        ordered = sorted(self.times)
        return ordered[max(0, min(len(ordered) - 1, round(p / 100 * len(ordered)) - 1))]

    @property
    def median(self) -> float:
        """The median time."""
        return statistics.median(self.times)

    @property
    def median_searched(self) -> float:
        """The median of the positions searched for each position."""
        return statistics.median(self.searched)


def solve_positions(rules: Rules, tricks: int, count: int, seed: int = 0) -> list[Deal]:
    """``count`` positions with ``tricks`` tricks left: seeded deals (trump method of
    ``rules``) played at random; under cut hukum only those where trump is still not set."""
    from hukum.bots.solver import SolverError

    if not 1 <= tricks <= rules.hand_size:
        raise SolverError(f"a position has 1 to {rules.hand_size} tricks left, not {tricks}")
    rng = random.Random(seed)
    positions: list[Deal] = []
    for attempt in range(1000 * count):
        if len(positions) == count:
            break
        deal = Deal.new(rules, attempt % rules.players, rng.getrandbits(32))
        while deal.phase in ("hide", "announce"):
            deal.push(rng.choice(deal.legal_moves()))
        while rules.hand_size - len(deal.tricks) > tricks or deal.trick:
            deal.push(rng.choice(deal.legal_moves()))
        if rules.trump != "cut" or not deal.trump_known:
            positions.append(deal)
    return positions


def run_solver(
    rules: Rules,
    tricks: int = 13,
    deals: int = 20,
    seed: int = 0,
    name: str = "",
    max_nodes: int | None = None,
) -> SolveResult:
    """Time :meth:`Solver.value` on :func:`solve_positions`, each from an empty table (one
    solver, cleared between positions, as DDS does between boards), giving up on a position
    after ``max_nodes`` positions searched (its time is then ``inf``)."""
    from hukum.bots.solver import Solver, SolverBudgetError

    solver = Solver(rules)
    solver.value(solve_positions(rules, 1, 1, seed)[0])  # compile (or load) the search first
    times = []
    searched = []
    spent = 0.0
    for deal in solve_positions(rules, tricks, deals, seed):
        solver.clear()
        start = time.perf_counter()
        try:
            solver.value(deal, max_nodes=max_nodes)
            took = time.perf_counter() - start
            times.append(took)
        except SolverBudgetError:
            took = time.perf_counter() - start
            times.append(math.inf)
        spent += took
        searched.append(solver.nodes)
    return SolveResult(name, tricks, tuple(times), tuple(searched), spent, max_nodes)


@dataclass(frozen=True)
class AnalysisResult:
    """The figures of one deal-analysis benchmark: each finished deal analysed whole (from
    its last trick back to its first, as far as the node budget goes)."""

    name: str
    """What was measured."""
    workers: int
    """The worker processes of the analysis (1: in this process)."""
    max_nodes: int
    """The node budget of each analysis (positions searched by all workers together)."""
    seeds: tuple[int, ...]
    """The seed of each deal."""
    times: tuple[float, ...]
    """Seconds for each deal (wall time)."""
    tricks: tuple[int, ...]
    """The tricks each analysis covered, from the last back (13: the whole deal)."""
    searched: tuple[int, ...]
    """Positions searched for each deal (the same on any machine, unlike the times)."""
    hand_size: int = 13
    """Tricks in a deal."""

    @property
    def whole(self) -> int:
        """The deals analysed from trick 1."""
        return sum(1 for t in self.tricks if t == self.hand_size)

    def within(self, seconds: float) -> int:
        """The deals analysed from trick 1 within ``seconds``."""
        return sum(
            1
            for t, s in zip(self.tricks, self.times, strict=True)
            if t == self.hand_size and s <= seconds
        )

    @property
    def unsolved(self) -> int:
        """The deals whose first tricks were beyond the budget."""
        return len(self.tricks) - self.whole

    def percentile(self, p: float) -> float:
        """The ``p``-th percentile of the times (nearest rank)."""
        ordered = sorted(self.times)
        return ordered[max(0, min(len(ordered) - 1, round(p / 100 * len(ordered)) - 1))]


def analysis_deals(
    rules: Rules, count: int, seed: int = 0, late: int | None = None
) -> list[tuple[int, Deal]]:
    """``count`` finished deals, each played by the ``rules`` bot at every seat from its own
    seed (``seed``, ``seed + 1``, …), with its seed. With ``late`` (cut hukum only), only the
    deals whose trump was still not set when ``late`` tricks were over (the seeds of the
    others are passed over)."""
    from hukum.bots.rules import RulesBot

    if late is not None and rules.trump != "cut":
        raise ValueError(f"late={late}: only cut hukum sets trump late, not {rules.trump} hukum")
    bot = RulesBot()
    deals: list[tuple[int, Deal]] = []
    number = seed
    while len(deals) < count:
        deal = Deal.new(rules, number % rules.players, number)
        unset = True
        while not deal.is_over():
            turn = deal.turn
            assert turn is not None
            deal.push(bot.choose(deal.view(turn)))
            if late is not None and len(deal.tricks) == late and not deal.trick:
                unset = unset and deal.trump is None
        if late is None or unset:
            deals.append((number, deal))
        number += 1
    return deals


def run_analysis(
    rules: Rules,
    deals: int = 200,
    seed: int = 0,
    workers: int = 2,
    max_nodes: int | None = None,
    late: int | None = None,
    name: str = "",
    on_deal: Callable[[int, float, int], None] | None = None,
) -> AnalysisResult:
    """Time the whole-deal analysis of :func:`analysis_deals` (``workers`` processes, 1: in
    this process) within ``max_nodes`` positions searched (default
    :data:`hukum.analysis.ANALYSIS_NODES`); the workers start (and load the solver) before
    the clock does. ``on_deal(seed, seconds, tricks)`` after each deal."""
    from hukum.analysis import ANALYSIS_NODES, Analyser, Progress, analyse

    budget = max_nodes or ANALYSIS_NODES
    played = analysis_deals(rules, deals, seed, late)
    times: list[float] = []
    tricks: list[int] = []
    searched: list[int] = []
    with Analyser(workers) as analyser:
        if workers > 1:
            analyser.start()
            analyser.analyse(played[0][1], tricks=1)  # the workers load the solver first
        else:
            analyse(played[0][1], tricks=1)
        for number, deal in played:
            last: list[Progress] = []
            start = time.perf_counter()
            if workers > 1:
                report = analyser.analyse(deal, max_nodes=budget, progress=last.append)
            else:
                report = analyse(
                    deal, tricks=rules.hand_size, max_nodes=budget, progress=last.append
                )
            took = time.perf_counter() - start
            times.append(took)
            tricks.append(report.tricks)
            searched.append(last[-1].nodes)
            if on_deal is not None:
                on_deal(number, took, report.tricks)
    return AnalysisResult(
        name,
        workers,
        budget,
        tuple(n for n, _ in played),
        tuple(times),
        tuple(tricks),
        tuple(searched),
        rules.hand_size,
    )
