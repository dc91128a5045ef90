"""Shared helpers of the Mindi tests: hand-made deals, scripted play, state fingerprints."""

from __future__ import annotations

from typing import Any

import pytest

from hukum.cards import Card
from hukum.mindi import Deal, IllegalMoveError, Move, Rules


def hands(*texts: str) -> list[list[str]]:
    """Hands from one string per seat, cards in dealt order: ``hands("AS KS", "QS JS")``."""
    return [text.split() for text in texts]


def deal_of(rules: Rules, dealer: int, *texts: str, **kwargs: Any) -> Deal:
    """A deal from hand-made hands, one string per seat."""
    return Deal(rules, dealer, hands(*texts), **kwargs)


def play(deal: Deal, *moves: str) -> None:
    """Make moves written in notation (``10S``, ``hide QH``, ``reveal``, ``announce S``),
    each by the seat whose turn it is."""
    for text in moves:
        deal.push(Move.parse(text))


def play_trick(deal: Deal, cards: str) -> int:
    """Play one whole trick (cards in play order) and return its winner."""
    before = len(deal.tricks)
    play(deal, *cards.split())
    assert len(deal.tricks) == before + 1, "the cards do not make exactly one trick"
    return deal.tricks[-1].winner


def cards(text: str) -> set[Card]:
    """A set of cards from text."""
    return {Card.parse(t) for t in text.split()}


def fingerprint(deal: Deal) -> tuple[Any, ...]:
    """Everything observable about a deal: every view, every hand, legal moves, history."""
    n = deal.rules.players
    return (
        deal.phase,
        deal.turn,
        deal.trump,
        deal.trump_known,
        deal.face_down,
        deal.reveal,
        tuple(deal.hand(s) for s in range(n)),
        deal.legal_moves(),
        tuple(deal.history),
        deal.trick,
        deal.tricks,
        deal.tricks_won,
        deal.captured,
        deal.pile,
        deal.outcome(),
        deal.is_over(),
        tuple(deal.view(s) for s in range(n)),
    )


def assert_illegal(deal: Deal, move: Move | str, match: str, seat: int | None = None) -> None:
    """``move`` raises IllegalMoveError matching ``match`` and the deal is exactly unchanged."""
    if isinstance(move, str):
        move = Move.parse(move)
    before = fingerprint(deal)
    with pytest.raises(IllegalMoveError, match=match):
        deal.push(move, seat=seat)
    assert fingerprint(deal) == before
