"""A rule-based Ganjifa player: each for themselves, it plays to capture the most cards.

Its rules, in order:

- **Lead.** The largest Dukal it holds (G-9): a Dukal of k cards takes 3k cards for sure.
  Else a card sure to win (the highest left of a plain suit in which the others still hold
  two or more cards and neither has shown it empty). Else the lowest card of its shortest
  plain suit, to become empty there and trump later. High trumps are kept for the end:
  a trump is led only from a hand of trumps.
- **Follow.** Last to play: the lowest card that wins, else the lowest card. Second: a card
  sure to win if it has one and the last player has not shown the led suit empty, else the
  lowest card.
- **Empty in the led suit** (G-7). The lowest trump that wins (second to play, only if the
  last player may still follow or the trump is sure); else the card that matters least.
- **Answer to a Dukal.** Give up the k cards that matter least: low plain cards first,
  trumps and cards sure to win last.

It reads a :class:`Situation`, which a view gives (:func:`situation`) and which the search
player also builds straight from a deal for its play-outs.

>>> from hukum.ganjifa import Deal, Rules
>>> deal = Deal.new(Rules(), dealer=0, seed=7)
>>> RulesBot().choose(deal.view(0))
Move.parse('RaR')
"""

from __future__ import annotations

from typing import NamedTuple

from hukum.bots.ganjifa.base import GanjifaBot, check_turn
from hukum.ganjifa import DECK, SUIT_MASKS, Deal, Move, View
from hukum.ganjifa.move import PLAY_MOVES

__all__ = ["RulesBot", "Situation", "keep_value", "play", "situation", "situation_of_deal"]


class Situation(NamedTuple):
    """What the player to move knows, as masks: all the rule-based player reads."""

    seat: int
    """The seat to move."""
    phase: str
    """``lead``, ``follow`` or ``answer``."""
    hand: int
    """The mask of the seat's cards."""
    allowed: int
    """The mask of the cards it may put down now."""
    trick: tuple[tuple[int, Move], ...]
    """The moves of the trick in progress."""
    k: int
    """The size of the Dukal to answer, or 0."""
    trump: int
    """The trump suit."""
    played: int
    """Every card played so far, the trick in progress included."""
    voids: tuple[int, ...]
    """For each seat, the suits (10-bit mask) it has shown to be empty."""
    dukals: tuple[Move, ...]
    """The Dukals the seat may lead now."""


def situation(view: View) -> Situation:
    """The situation of the seat of ``view``, which must be to move."""
    played = DECK & ~view.unseen.mask & ~view.hand.mask
    moves = view.legal_moves if view.phase == "lead" else ()
    return Situation(
        view.seat,
        view.phase,
        view.hand.mask,
        view.allowed.mask,
        tuple((p.seat, p.move) for p in view.trick),
        view.dukal,
        int(view.trump),
        played,
        tuple(sum(1 << s for s in v) for v in view.voids),
        tuple(m for m in moves if m.size > 1),
    )


_NO_VOIDS = (0, 0, 0)


def situation_of_deal(deal: Deal) -> Situation:
    """The situation of the player to move in a deal (no shown voids: for play-outs)."""
    seat = deal.turn
    assert seat is not None
    hand = deal.hand(seat)
    held = deal.hand(0) | deal.hand(1) | deal.hand(2)
    phase = deal.phase
    return Situation(
        seat,
        phase,
        hand,
        deal.allowed_cards(),
        deal.trick_moves,
        deal.answer_size,
        int(deal.trump),
        DECK & ~held,
        _NO_VOIDS,
        deal.dukals() if phase == "lead" else (),
    )


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _high(mask: int) -> int:
    return mask.bit_length() - 1


def _outside(sit: Situation, suit: int) -> int:
    """The cards of ``suit`` the other players hold."""
    return SUIT_MASKS[suit] & ~sit.played & ~sit.hand


def _is_top(sit: Situation, card: int) -> bool:
    """Whether no other player holds a higher card of its suit."""
    return not _outside(sit, card // 12) >> (card + 1)


def _in_run(hand: int, card: int) -> bool:
    """Whether ``card`` is part of three or more consecutive cards of its suit in ``hand``."""
    mine = hand & SUIT_MASKS[card // 12]
    length = 1
    c = card - 1
    while c >= 0 and mine >> c & 1:
        length += 1
        c -= 1
    c = card + 1
    while mine >> c & 1:
        length += 1
        c += 1
    return length >= 3


def keep_value(sit: Situation, card: int) -> int:
    """How much the seat wants to keep ``card``: trumps, cards of a Dukal run it could lead
    and sure winners most."""
    value = card % 12
    if card // 12 == sit.trump:
        value += 30
    if _in_run(sit.hand, card):
        value += 25
    if _is_top(sit, card):
        value += 15
    return value


def _lead(sit: Situation) -> Move:
    if sit.dukals:
        return max(
            sit.dukals,
            key=lambda m: (m.size, (_low(m.mask) // 12) != sit.trump, -m.mask),
        )
    hand = sit.hand
    trump = sit.trump
    opponents = [s for s in range(3) if s != sit.seat]
    best: tuple[int, int] | None = None
    shortest: tuple[int, int] | None = None
    for s in range(10):
        mine = hand & SUIT_MASKS[s]
        if not mine or s == trump:
            continue
        count = mine.bit_count()
        if shortest is None or count < shortest[0]:
            shortest = (count, _low(mine))
        top = _high(mine)
        others = _outside(sit, s).bit_count()
        if (
            _is_top(sit, top)
            and others >= 2
            and not any(sit.voids[o] >> s & 1 for o in opponents)
            and (best is None or others > best[0])
        ):
            best = (others, top)
    if best is not None:
        return PLAY_MOVES[best[1]]
    if shortest is not None:
        return PLAY_MOVES[shortest[1]]
    trumps = hand & SUIT_MASKS[trump]
    top = _high(trumps)
    return PLAY_MOVES[top if _is_top(sit, top) else _low(trumps)]


def _trick_best(sit: Situation) -> tuple[int, int]:
    """The best trump power in the trick (-1 if none) and the best power of the led suit."""
    led = sit.trick[0][1].card // 12
    best_trump = best_led = -1
    for _, m in sit.trick:
        c = m.card
        if c // 12 == sit.trump:
            best_trump = max(best_trump, c % 12)
        elif c // 12 == led:
            best_led = max(best_led, c % 12)
    return best_trump, best_led


def _lowest_above(mask: int, power: int, suit: int) -> int:
    """The lowest card of ``mask`` (one suit) above ``power``, or -1."""
    above = mask & ~((1 << (suit * 12 + power + 1)) - 1) if power >= 0 else mask
    return _low(above) if above else -1


def _follow(sit: Situation) -> Move:
    allowed = sit.allowed
    led = sit.trick[0][1].card // 12
    trump = sit.trump
    best_trump, best_led = _trick_best(sit)
    last = len(sit.trick) == 2
    third = (sit.seat + 1) % 3
    following = allowed & SUIT_MASKS[led]
    if following:
        if led != trump and best_trump >= 0:
            return PLAY_MOVES[_low(following)]
        win = _lowest_above(following, best_trump if led == trump else best_led, led)
        if win < 0:
            return PLAY_MOVES[_low(following)]
        if last:
            return PLAY_MOVES[win]
        threat = led != trump and sit.voids[third] >> led & 1
        top = _high(following)
        if not threat and _is_top(sit, top):
            # The lowest card still sure to win: no outside card above it.
            outside = _outside(sit, led)
            card = c = top
            while c - 1 >= win and not outside >> (c - 1) & 1:
                c -= 1
                if following >> c & 1:
                    card = c
            return PLAY_MOVES[card]
        return PLAY_MOVES[_low(following)]
    trumps = allowed & SUIT_MASKS[trump]
    win = _lowest_above(trumps, best_trump, trump) if trumps else -1
    if win >= 0:
        if last or not sit.voids[third] >> led & 1:
            return PLAY_MOVES[win]
        top = _high(trumps)
        if _is_top(sit, top):
            return PLAY_MOVES[top]
    others = allowed & ~SUIT_MASKS[trump]
    if others:
        return PLAY_MOVES[min(_bits(others), key=lambda c: keep_value(sit, c))]
    return PLAY_MOVES[_low(trumps)]


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _answer(sit: Situation) -> Move:
    cards = sorted(_bits(sit.hand), key=lambda c: (keep_value(sit, c), c))
    return Move.give([PLAY_MOVES[c].card for c in cards[: sit.k]])


def play(sit: Situation) -> Move:
    """The rule-based player's move in ``sit`` (see the module doc)."""
    if sit.phase == "answer":
        return _answer(sit)
    if sit.phase == "follow":
        return _follow(sit)
    if sit.allowed.bit_count() == 1 and not sit.dukals:
        return PLAY_MOVES[_low(sit.allowed)]  # the opening: the trump Raja alone (G-6)
    return _lead(sit)


class RulesBot(GanjifaBot):
    """The rule-based Ganjifa player (see the module doc)."""

    name = "rules"

    def choose(self, view: View) -> Move:
        """The rule-based move for the seat of ``view``."""
        moves = check_turn(view)
        if len(moves) == 1:
            return moves[0]
        return play(situation(view))
