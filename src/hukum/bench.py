"""How fast the engines play: random legal deals on one core (``hukum bench``), for every
game of :mod:`hukum.games`.

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
    "BenchResult",
    "SolveResult",
    "run",
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
