"""What one seat may see of a Ganjifa deal (G-11): the only input of computer players and
clients, and the suits each player has shown to be empty under G-7.

>>> from hukum.ganjifa import Deal, Rules
>>> deal = Deal.new(Rules(), dealer=0, seed=7)
>>> view = deal.view(0)
>>> view.decision, view.need, [str(m) for m in view.legal_moves], len(view.hand)
('lead', 1, ['RaR'], 40)
>>> deal.view(1).legal_moves, len(deal.view(1).unseen)      # not seat 1's turn
((), 80)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hukum.ganjifa.cards import CardSet, Suit
from hukum.ganjifa.move import Move
from hukum.ganjifa.outcome import Outcome
from hukum.ganjifa.rules import PLAYERS, Rules
from hukum.ganjifa.trick import Played, Trick

__all__ = ["View", "shown_voids", "void_suits"]


@dataclass(frozen=True)
class View:
    """Everything one seat may know about a deal in progress, and nothing more."""

    rules: Rules
    """The rules in force."""
    seat: int
    """The seat this view belongs to."""
    dealer: int
    """The dealer of this deal."""
    phase: str
    """``lead``, ``follow``, ``answer`` (give k cards to a Dukal) or ``over``."""
    turn: int | None
    """The seat to move, or None when the deal is over."""
    hand: CardSet
    """This seat's cards."""
    trump: Suit
    """The trump suit (G-5)."""
    trick: tuple[Played, ...]
    """The moves of the trick or Dukal in progress, in order."""
    dukal: int
    """The size k of the Dukal being answered, or 0."""
    tricks: tuple[Trick, ...]
    """The completed tricks (a Dukal with its answers is one)."""
    hand_sizes: tuple[int, ...]
    """How many cards each seat holds."""
    scores: tuple[int, int, int]
    """Cards captured by each seat so far (G-10)."""
    captured: tuple[CardSet, ...]
    """The cards each seat has captured (all of them were played face up)."""
    history: tuple[tuple[int, Move], ...]
    """Every move so far with its seat."""
    legal_moves: Sequence[Move]
    """The moves this seat may make now (empty when it is not its turn); to answer a
    Dukal an :class:`~hukum.ganjifa.deal.Answers` sequence, which is never listed."""
    allowed: CardSet
    """The cards this seat may put down now (empty when it is not its turn)."""
    unseen: CardSet
    """Cards this seat has not seen: they are in the other two hands."""
    voids: tuple[frozenset[Suit], ...]
    """Suits each seat has shown it holds no more of (G-7)."""
    outcome: Outcome | None
    """The result once the deal is over."""

    @property
    def my_turn(self) -> bool:
        """Whether this seat is to move."""
        return self.turn == self.seat

    @property
    def decision(self) -> str | None:
        """What this seat decides now: ``lead``, ``follow``, ``answer``; None if not its turn."""
        return self.phase if self.my_turn else None

    @property
    def need(self) -> int:
        """How many cards the seat to move puts down: k to answer a Dukal, else 1 (a lead
        may also be a Dukal of several)."""
        return self.dukal if self.phase == "answer" else 1


def void_suits(led: int, played: int, trump: int, void_rule: str) -> int:
    """The suits (10-bit mask) a player shows empty by playing a card of suit ``played`` to
    a trick led in ``led`` (G-7): the led suit, every suit between it and the one played
    unless a trump was played (that suit was S, the first held after the led suit), and
    under ``trump_first`` the trump suit when no trump was played."""
    if played == led:
        return 0
    mask = 1 << led
    if played != trump:
        s = (led + 1) % 10
        while s != played:
            mask |= 1 << s
            s = (s + 1) % 10
        if void_rule == "trump_first":
            mask |= 1 << trump
    return mask


def shown_voids(
    tricks: tuple[Trick, ...], trick: tuple[Played, ...], trump: int, void_rule: str
) -> tuple[frozenset[Suit], ...]:
    """The suits each seat has shown to be empty, from the public play alone (G-7)."""
    masks = [0] * PLAYERS
    for plays in [t.plays for t in tricks] + [trick]:
        if not plays or plays[0].move.size > 1:
            continue  # an answer to a Dukal need not follow anything (G-9)
        led = plays[0].move.card // 12
        for p in plays[1:]:
            masks[p.seat] |= void_suits(led, p.move.card // 12, trump, void_rule)
    return tuple(frozenset(Suit(s) for s in range(10) if m >> s & 1) for m in masks)
