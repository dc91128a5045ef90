"""A determinized Monte-Carlo search player: deal out the unseen cards, play each move out.

For every *world* (a way the unseen cards could lie that agrees with everything the seat
knows: hand sizes, shown voids, cards known to be in a hand, the band chooser's face-down
card; :mod:`hukum.bots.worlds`) it rebuilds the deal from the hands as dealt, replays the
history, and plays each legal move to the end with the rule-based bot for all four seats.
The move with the best mean result over the worlds is played. Non-card decisions (the
face-down card, the announced suit) are left to the rule-based bot.

>>> from hukum.mindi import Deal, Rules
>>> deal = Deal.new(Rules(), dealer=0, seed=2)
>>> bot = SearchBot(seed=1, worlds=4, time_budget=None)
>>> bot.choose(deal.view(1)) in deal.legal_moves()
True
"""

from __future__ import annotations

import random
import time

from hukum.bots.base import Bot, check_turn
from hukum.bots.rules import RulesBot
from hukum.bots.worlds import build_deal, play_move_out, sample_world, shown_voids
from hukum.mindi import Move, MoveKind, View

__all__ = ["MIN_WORLDS", "STEPS", "WORLDS", "SearchBot"]

#: The default budgets (docs/strength.md): moves simulated a decision, at most this many
#: worlds, and at least this many whatever the budget.
STEPS = 13_000
WORLDS = 200
MIN_WORLDS = 4


class SearchBot(Bot[View, Move]):
    """Flat Monte-Carlo over sampled worlds with rule-based play-outs (see module doc)."""

    name = "search"

    def __init__(
        self,
        seed: int = 0,
        time_budget: float | None = None,
        worlds: int | None = WORLDS,
        min_worlds: int = MIN_WORLDS,
        steps: int | None = STEPS,
    ) -> None:
        """A search bot. It stops sampling worlds at the first of its budgets: ``steps``
        moves simulated in play-outs (summed over worlds and candidate moves), ``worlds``
        worlds, or ``time_budget`` seconds (wall-clock, so weaker on a busy machine), but
        never before ``min_worlds`` worlds. Every world counts the same."""
        if time_budget is None and worlds is None and steps is None:
            raise ValueError("give the search bot a budget: steps, worlds or time_budget")
        self.rng = random.Random(seed)
        self.time_budget = time_budget
        self.worlds = worlds
        self.steps = steps
        self.min_worlds = min_worlds
        self.policy = RulesBot()
        self.last_worlds = 0
        self.last_steps = 0

    def choose(self, view: View) -> Move:
        """The legal move with the best mean play-out result over sampled worlds."""
        moves = check_turn(view)
        if len(moves) == 1 or moves[0].kind in (MoveKind.HIDE, MoveKind.ANNOUNCE):
            return moves[0] if len(moves) == 1 else self.policy.choose(view)
        start = time.perf_counter()
        team = view.seat & 1
        totals = [0.0] * len(moves)
        count = 0
        policy = self.policy
        root_voids = shown_voids(view)
        steps = 0
        while True:
            deal = build_deal(view, sample_world(view, self.rng))
            for i, move in enumerate(moves):
                value, pushed = play_move_out(deal, move, team, root_voids, policy)
                totals[i] += value
                steps += pushed
            count += 1
            if self.worlds is not None and count >= self.worlds:
                break
            if self.steps is not None and count >= self.min_worlds and steps >= self.steps:
                break
            if (
                self.time_budget is not None
                and count >= self.min_worlds
                and time.perf_counter() - start >= self.time_budget
            ):
                break
        self.last_worlds = count
        self.last_steps = steps
        return moves[max(range(len(moves)), key=lambda i: totals[i])]
