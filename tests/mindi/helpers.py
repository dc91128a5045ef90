"""Shared helpers of the Mindi tests: hand-made deals, scripted play, state fingerprints."""

from __future__ import annotations

from typing import Any

import pytest

from hukum.cards import Card
from hukum.mindi import Deal, IllegalMoveError, Move, Rules

#: A preset and options for each way trump is set (cut, band hukum revealed automatically
#: or on request, announced, open) and each table size: the variants whole-deal scans run.
VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("classic", {}),
    ("hidden", {}),
    ("hidden", {"reveal": "on_request"}),
    ("dehla-pakad", {}),
    ("classic", {"trump": "open", "must_trump": True}),
    ("mindi-world", {"players": 6, "deck": 48}),
]


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


# The group layout: every seat holds one card of each suit in each rank group, so everyone
# can follow suit for 12 tricks and the winner of a trick is fixed by the group played:
# group 1 is A K Q J (the ace wins), group 2 is 10 9 8 7 (the ten wins, and its holder's
# team takes it), group 3 is 6 5 4 3 (the six wins). With 52 cards seat k also holds the 2
# of suit k (♣ ♦ ♥ ♠), played in trick 13, where the first void player cuts.
GROUP_HANDS = (
    "AC 10C 5C 2C KD 9D 6D KH 9H 5H AS 9S 5S",
    "KC 9C 4C QD 10D 5D 2D AH 8H 4H KS 8S 6S",
    "QC 8C 6C AD 8D 4D QH 7H 3H 2H QS 10S 4S",
    "JC 7C 3C JD 7D 3D JH 10H 6H JS 7S 3S 2S",
)
#: Who wins each group with GROUP_HANDS (the holder of its top card).
GROUP_WINNERS = {
    "C1": 0, "C2": 0, "C3": 2,
    "D1": 2, "D2": 1, "D3": 0,
    "H1": 1, "H2": 3, "H3": 3,
    "S1": 0, "S2": 2, "S3": 1,
}  # fmt: skip
_GROUP_RANKS = {"1": (14, 13, 12, 11), "2": (10, 9, 8, 7), "3": (6, 5, 4, 3)}


def swap(texts: tuple[str, ...] | list[str], a: str, b: str) -> list[str]:
    """The hands with cards ``a`` and ``b`` exchanged between their holders."""
    out = []
    for text in texts:
        words = text.split()
        words = [b if w == a else a if w == b else w for w in words]
        out.append(" ".join(words))
    return out


def without_twos(texts: tuple[str, ...] | list[str]) -> list[str]:
    """The hands without the 2s (the 48-card pack)."""
    return [" ".join(w for w in t.split() if not w.startswith("2")) for t in texts]


def play_group(deal: Deal, group: str) -> int:
    """Play one trick in which every seat plays its card of ``group`` (e.g. ``"C2"``: the
    club of rank 10, 9, 8 or 7); return the winner."""
    suit, ranks = "CDHS".index(group[0]), _GROUP_RANKS[group[1]]
    before = len(deal.tricks)
    while len(deal.tricks) == before:
        turn = deal.turn
        assert turn is not None
        mine = [c for c in deal.hand(turn) if c.suit == suit and c.rank in ranks]
        assert len(mine) == 1, f"seat {turn} holds {mine} of group {group}"
        deal.push(Move.play(mine[0]), seat=turn)
    return deal.tricks[-1].winner


def step(deal: Deal) -> None:
    """Make the first legal move that is not a request for the reveal."""
    deal.push(next(m for m in deal.legal_moves() if m != Move.REVEAL_TRUMP))


def play_lowest(deal: Deal, until: int | None = None) -> None:
    """Play the first legal move (never a reveal) until ``until`` tricks are done or the end."""
    while not deal.is_over() and (until is None or len(deal.tricks) < until):
        step(deal)


# Layout C (cut hukum, dealer 3, seat 0 leads): seats 1 and 3 are void in spades; seat 2
# holds spades and the A♥; seat 1 holds the 2♥ and the 10♥, seat 3 the 3♥ and the A♦.
CUT_HANDS = (
    "AS KS QS JS 10S 9S 8S AC KC QC JC 10C 9C",
    "2H 10H KH QH JH 9H 8H KD QD JD 10D 9D 8D",
    "7S 6S 5S 4S 3S 2S AH 8C 7C 6C 5C 4C 3C",
    "3H AD 7H 6H 5H 4H 7D 6D 5D 4D 3D 2D 2C",
)

# Layout Q (dealer 3, seat 0 leads): seats 1 and 3 are void in hearts and hold clubs and an
# ace each; seats 0 and 2 hold all the hearts.
VOID_HANDS = (
    "2H 5H 6H 7H 8H 9H 10H KS QS JS 10S 9S 8S",
    "AS 4C QD JD 10D 9D 8D 7D AC KC QC JC 10C",
    "3H 4H JH QH KH AH 7S 6S 5S 4S 3S 2S KD",
    "AD 3C 6D 5D 4D 3D 2D 9C 8C 7C 6C 5C 2C",
)

# Layout B (band hukum, dealer 3, chooser seat 0): seats 1 and 2 are void in spades; seat 1
# holds the A♥, seat 2 the low hearts, seat 3 the A♠; seat 0 holds the 9♥ to hide.
BAND_HANDS = (
    "9H QS JS 10S 9S 8S 7S AD KD QD JD 10D 9D",
    "AH KH QH JH 10H 8H 7H 8D 7D 6D 5D 4D 3D",
    "6H 5H 4H 3H 2H 2D 8C 7C 6C 5C 4C 3C 2C",
    "AS KS 6S 5S 4S 3S 2S AC KC QC JC 10C 9C",
)

# Layout D (band hukum, dealer 3, chooser seat 0): seat 0's only club is the 2♣; in trick 1
# ("2S AS 3S 4S") everybody follows and seat 1 wins; nobody else is void in clubs.
CHOOSER_HANDS = (
    "2C 2S 5S 6S AH KH QH JH 10H AD KD QD JD",
    "AC KC QC JC AS KS QS 9H 8H 7H 10D 9D 8D",
    "3C 5C 6C 7C 3S 7S 8S JS 6H 5H 4H 7D 6D",
    "4C 8C 9C 10C 4S 9S 10S 3H 2H 5D 4D 3D 2D",
)
