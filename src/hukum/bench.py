"""How fast the engines play: random legal deals on one core (``hukum bench``).

Each deal is shuffled and dealt from its own seed, then played to the end by choosing a
uniformly random legal move until the deal is over; the time includes the shuffle. The
figures are for people and for ``make bench``; no test asserts a speed.

>>> from hukum.mindi import Rules
>>> result = run(Rules(), deals=3)
>>> result.deals, result.moves
(3, 156)
>>> from hukum import ganjifa
>>> run_ganjifa(ganjifa.Rules(), deals=2).deals          # a Dukal is one move of k cards
2
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from hukum import ganjifa
from hukum.mindi import PRESETS, Deal, Rules

__all__ = ["BenchResult", "run", "run_ganjifa", "run_presets"]


M = TypeVar("M")


class _Playable(Protocol[M]):
    def legal_moves(self) -> Sequence[M]: ...
    def push(self, move: M, seat: int | None = None) -> None: ...
    def is_over(self) -> bool: ...


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
    rules: Rules,
    deals: int | None = 10_000,
    seconds: float | None = None,
    seed: int = 0,
    name: str = "",
) -> BenchResult:
    """Play random legal deals until ``deals`` are done or ``seconds`` have passed."""
    players = rules.players
    return _run(
        lambda done, seed: Deal.new(rules, done % players, seed), deals, seconds, seed, name
    )


def run_ganjifa(
    rules: ganjifa.Rules,
    deals: int | None = 2_000,
    seconds: float | None = None,
    seed: int = 0,
    name: str = "ganjifa",
) -> BenchResult:
    """:func:`run` for Ganjifa: random legal deals of 120 cards, Dukals and answers included
    (an answer is drawn uniformly from every choice of k cards)."""
    return _run(
        lambda done, seed: ganjifa.Deal.new(rules, done % 3, seed), deals, seconds, seed, name
    )


def _run(
    new: Callable[[int, int], _Playable[M]],
    deals: int | None,
    seconds: float | None,
    seed: int,
    name: str,
) -> BenchResult:
    if deals is None and seconds is None:
        raise ValueError("give a number of deals, a number of seconds, or both")
    rng = random.Random(seed)
    draw = rng.random
    done = moves = 0
    start = time.perf_counter()
    deadline = None if seconds is None else start + seconds
    while (deals is None or done < deals) and (deadline is None or time.perf_counter() < deadline):
        deal = new(done, rng.getrandbits(32))
        legal_moves = deal.legal_moves
        push = deal.push
        is_over = deal.is_over
        while not is_over():
            legal = legal_moves()
            push(legal[int(draw() * len(legal))])
            moves += 1
        done += 1
    return BenchResult(name, done, moves, time.perf_counter() - start)


def run_presets(
    deals: int | None = 10_000, seconds: float | None = None, seed: int = 0
) -> list[BenchResult]:
    """:func:`run` for every preset, in turn."""
    return [
        run(rules, deals=deals, seconds=seconds, seed=seed, name=name)
        for name, rules in PRESETS.items()
    ]
