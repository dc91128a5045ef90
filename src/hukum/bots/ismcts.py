"""Information-set Monte-Carlo tree search (single observer), for the expert's early tricks.

One tree over the moves the deciding seat can tell apart (its own and the others' played
cards, as it sees them). Each iteration deals the unseen cards out once, agreeing with the
view (:func:`hukum.bots.search.sample_world`), walks down the tree choosing by UCB1 among
the moves legal in that world (a child's chances counted by how often it was legal, as in
Cowling, Powley and Whitehouse, *Information Set Monte Carlo Tree Search*, 2012), adds one
node, plays the rest out with the rule-based player and scores the result for each mover's
team. The root move most visited is played. Its budget is the search player's: ``steps``
moves simulated, in the tree and in the play-outs together.

>>> from hukum.mindi import Deal, Rules
>>> deal = Deal.new(Rules(), dealer=0, seed=2)
>>> bot = IsmctsBot(seed=1, steps=2000)
>>> bot.choose(deal.view(deal.turn)) in deal.legal_moves()
True
"""

from __future__ import annotations

import math
import random
from functools import partial

from hukum.bots.base import Bot, check_turn
from hukum.bots.rules import RulesBot
from hukum.bots.search import (
    playout_value,
    policy_move,
    push_noting_voids,
    replay,
    sample_world,
    shown_voids,
)
from hukum.mindi import Move, MoveKind, View
from hukum.play import play_out

__all__ = ["IsmctsBot"]


class _Node:
    """The moves made so far from the root; its statistics are for the team that moved."""

    __slots__ = ("chances", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[Move, _Node] = {}
        self.visits = 0
        self.chances = 0
        self.total = 0.0


class IsmctsBot(Bot[View, Move]):
    """Single-observer information-set MCTS with rule-based play-outs (see module doc)."""

    name = "ismcts"

    def __init__(
        self, seed: int = 0, steps: int = 13000, explore: float = 1.0, min_iterations: int = 8
    ) -> None:
        """A tree search of ``steps`` simulated moves a decision (at least ``min_iterations``
        dealt-out worlds), exploring by UCB1 with constant ``explore``."""
        if steps < 1:
            raise ValueError(f"steps={steps!r}: at least one simulated move")
        if explore < 0:
            raise ValueError(f"explore={explore!r} must not be negative")
        self.rng = random.Random(seed)
        self.steps = steps
        self.explore = explore
        self.min_iterations = min_iterations
        self.policy = RulesBot()
        self.last_iterations = 0

    def choose(self, view: View) -> Move:
        """The root move most visited by the tree search."""
        moves = check_turn(view)
        if len(moves) == 1 or moves[0].kind in (MoveKind.HIDE, MoveKind.ANNOUNCE):
            return moves[0] if len(moves) == 1 else self.policy.choose(view)
        rng, policy, explore = self.rng, self.policy, self.explore
        root = _Node()
        root_voids = shown_voids(view)
        used = iterations = 0
        while used < self.steps or iterations < self.min_iterations:
            deal = replay(view, sample_world(view, rng))[0]
            voids = list(root_voids)
            node = root
            path: list[tuple[_Node, int]] = []
            pushed = 0
            while not deal.is_over():
                legal = deal.legal_moves()
                turn = deal.turn
                assert turn is not None
                children = node.children
                untried = [m for m in legal if m not in children]
                for m in legal:
                    child = children.get(m)
                    if child is not None:
                        child.chances += 1
                if untried:
                    move = untried[rng.randrange(len(untried))]
                    child = children[move] = _Node()
                    child.chances = 1
                    push_noting_voids(deal, move, voids)
                    pushed += 1
                    path.append((child, turn & 1))
                    break
                best = -math.inf
                move = legal[0]
                for m in legal:
                    child = children[m]
                    score = child.total / child.visits + explore * math.sqrt(
                        math.log(child.chances) / child.visits
                    )
                    if score > best:
                        best, move = score, m
                push_noting_voids(deal, move, voids)
                pushed += 1
                node = children[move]
                path.append((node, turn & 1))
            choose = partial(policy_move, deal, voids, policy)
            pushed += play_out(deal, choose, partial(push_noting_voids, deal, voids=voids))
            value = playout_value(deal, 0)
            for child, team in path:
                child.visits += 1
                child.total += value if team == 0 else -value
            for _ in range(pushed):
                deal.pop()
            used += pushed
            iterations += 1
        self.last_iterations = iterations
        return max(moves, key=lambda m: root.children[m].visits if m in root.children else -1)
