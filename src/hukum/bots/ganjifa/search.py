"""A determinized Monte-Carlo Ganjifa player: deal out the unseen cards, play each move out.

A *world* is a way the unseen cards could lie that agrees with everything the seat has
seen: each other hand's size, the cards played and by whom, the suits each player has
shown to be empty under G-7 (the led suit, and every suit between it and the suit played
when that was not a trump), and before the opening lead who holds the trump Raja (G-6).
For each world the deal is rebuilt from the hands as dealt, the history replayed, and
every candidate move played to the end with the rule-based player for all three seats;
the move with the most cards captured for this seat, summed over the worlds, is played.
Cards that are equivalent (nothing between them left in another hand) are tried once; to
answer a Dukal, three ways of choosing the k cards are tried (:func:`answers`).

The budget is counted in simulated moves, not seconds, so that play does not depend on the
load of the machine.

>>> from hukum.ganjifa import Deal, Rules
>>> deal = Deal.new(Rules(), dealer=0, seed=7)
>>> for _ in range(3):
...     deal.push(deal.legal_moves()[0])
>>> bot = SearchBot(seed=1, steps=2000)
>>> bot.choose(deal.view(deal.turn)) in deal.legal_moves()
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from hukum.bots.ganjifa.base import GanjifaBot, check_turn
from hukum.bots.ganjifa.rules import keep_value, play, situation, situation_of_deal
from hukum.ganjifa import CARDS, SUIT_MASKS, Card, Deal, Move, MoveKind, Suit, View, bits
from hukum.play import play_out

__all__ = ["SearchBot", "World", "answers", "build_deal", "candidates", "sample_world"]

#: A sampled world: every seat's current hand (mask).
World = tuple[int, int, int]


class DeterminizeError(RuntimeError):
    """No way to deal the unseen cards agrees with the view (a bug in the view or here)."""


def _may_hold(voids: frozenset[int] | frozenset[object]) -> int:
    mask = 0
    for s in range(10):
        if s not in voids:
            mask |= SUIT_MASKS[s]
    return mask


def sample_world(view: View, rng: random.Random) -> World:
    """Deal the unseen cards at random to the other two seats, agreeing with the view."""
    me = view.seat
    a, b = (me + 1) % 3, (me + 2) % 3
    unseen = view.unseen.mask
    may = {s: _may_hold(frozenset(int(v) for v in view.voids[s])) for s in (a, b)}
    forced = {a: unseen & may[a] & ~may[b], b: unseen & may[b] & ~may[a]}
    if unseen & ~may[a] & ~may[b]:
        raise DeterminizeError("an unseen card of a suit both other players lack")
    raja = 1 << Card.of(view.trump, "R")
    if unseen & raja and not view.tricks and not view.trick:
        holder = view.turn  # before the opening lead, the trump Raja's holder is to lead
        assert holder in (a, b)
        forced[holder] |= raja
        forced[a + b - holder] &= ~raja
    free = [c for c in bits(unseen & ~forced[a] & ~forced[b])]
    need_a = view.hand_sizes[a] - forced[a].bit_count()
    if (
        not 0 <= need_a <= len(free)
        or view.hand_sizes[b] - forced[b].bit_count() != len(free) - need_a
    ):
        raise DeterminizeError("the unseen cards do not fit the hand sizes and shown voids")
    rng.shuffle(free)
    hand_a = forced[a] | sum(1 << c for c in free[:need_a])
    hand_b = forced[b] | sum(1 << c for c in free[need_a:])
    hands = [0, 0, 0]
    hands[me], hands[a], hands[b] = view.hand.mask, hand_a, hand_b
    return hands[0], hands[1], hands[2]


def build_deal(view: View, world: World) -> Deal:
    """The deal of ``world`` (from the hands as dealt) with the view's history replayed."""
    dealt = list(world)
    for seat, move in view.history:
        dealt[seat] |= move.mask
    deal = Deal(view.rules, view.dealer, [[CARDS[c] for c in bits(m)] for m in dealt])
    for seat, move in view.history:
        deal.push(move, seat=seat)
    return deal


def candidates(view: View, moves: Sequence[Move]) -> list[Move]:
    """The moves worth trying: Dukals, and one card of each group of equivalent cards (no
    card between them is still in another hand); to lead, only the lowest and the highest
    such card of each suit."""
    outside = view.unseen.mask
    groups: list[list[Move]] = []
    dukals: list[Move] = []
    last: int | None = None
    for move in sorted(moves, key=lambda m: m.mask):
        if move.kind is not MoveKind.PLAY:
            dukals.append(move)
            continue
        c = move.card
        if last is not None and last // 12 == c // 12:
            between = ((1 << c) - 1) & ~((1 << (last + 1)) - 1)
            if not outside & between:
                continue  # the same as the card kept just below it
            groups[-1].append(move)
        else:
            groups.append([move])
        last = c
    if view.phase == "lead":
        groups = [[g[0], g[-1]] if len(g) > 1 else g for g in groups]
    return [m for g in groups for m in g] + dukals


def answers(view: View) -> list[Move]:
    """The answers to a Dukal worth trying: the rule-based player's (keep trumps, runs and
    sure winners), the k weakest cards, and the cards of the shortest plain suits (to be
    able to trump them later)."""
    sit = situation(view)
    k = view.dukal
    hand = list(view.hand)
    length = {s: len(view.hand.suit(s)) for s in Suit}
    trump = view.trump
    orders = (
        sorted(hand, key=lambda c: (keep_value(sit, c), c)),
        sorted(hand, key=lambda c: (c.suit == trump, c.power, c)),
        sorted(hand, key=lambda c: (c.suit == trump, length[c.suit], c.power, c)),
    )
    out: list[Move] = []
    for order in orders:
        move = Move.give(order[:k])
        if move not in out:
            out.append(move)
    return out


def _playout(deal: Deal) -> int:
    """Play ``deal`` to the end with the rule-based player; the number of moves made."""
    return play_out(deal, lambda seat: play(situation_of_deal(deal)))


class SearchBot(GanjifaBot):
    """Flat Monte-Carlo over sampled worlds with rule-based play-outs (see module doc)."""

    name = "search"

    def __init__(
        self,
        seed: int = 0,
        steps: int | None = 12_000,
        worlds: int | None = None,
        min_worlds: int = 2,
    ) -> None:
        """A search bot: it stops at ``steps`` simulated moves or ``worlds`` worlds, the
        first reached, but samples at least ``min_worlds`` worlds."""
        if steps is None and worlds is None:
            raise ValueError("give the search bot a budget: steps or worlds")
        self.rng = random.Random(seed)
        self.steps = steps
        self.worlds = worlds
        self.min_worlds = min_worlds
        self.last_worlds = 0

    def choose(self, view: View) -> Move:
        """The candidate move with the most cards captured over sampled worlds."""
        moves = check_turn(view)
        if len(moves) == 1:
            return moves[0]
        tried = answers(view) if view.phase == "answer" else candidates(view, moves)
        if len(tried) == 1:
            return tried[0]
        me = view.seat
        totals = [0] * len(tried)
        count = steps = 0
        while True:
            deal = build_deal(view, sample_world(view, self.rng))
            for i, move in enumerate(tried):
                deal.push(move)
                made = 1 + _playout(deal)
                totals[i] += deal.scores[me]
                steps += made
                for _ in range(made):
                    deal.pop()
            count += 1
            if self.worlds is not None and count >= self.worlds:
                break
            if self.steps is not None and count >= self.min_worlds and steps >= self.steps:
                break
        self.last_worlds = count
        return tried[max(range(len(tried)), key=lambda i: totals[i])]
