"""Why a Ganjifa move is a good one, in one line of English, for a person who asked for a
hint: from the move and the seat's own :class:`~hukum.ganjifa.View` alone (its hand, the
cards played, the trick so far, the trump), never from the hands a searching bot dealt
itself, so it names no card the seat has not seen. Simpler than Mindi's
(:mod:`hukum.bots.explain`): each player plays for themselves, and every card is played
face up.

>>> from hukum.ganjifa import Deal, Move, Rules
>>> deal = Deal.new(Rules(), dealer=0, seed=7)
>>> view = deal.view(deal.turn)
>>> explain(view, view.legal_moves[0])
'RaR is the only card you may play'
>>> deal.push(Move.parse("RaR"))
>>> view = deal.view(deal.turn)
>>> explain(view, Move.parse("Ra3"))
'you cannot beat RaR: plays Ra3, the weakest card you may play'
>>> explain(view, Move.parse("dukal Ra3 Ra4 Ra5"))  # later in the deal (G-9)
'leads a Dukal of 3 Rama: it wins outright, the others give you 3 cards each'
"""

from __future__ import annotations

from hukum.ganjifa import CARDS, SUIT_MASKS, Move, MoveKind, View
from hukum.ganjifa.cards import Card
from hukum.ganjifa.trick import winner

__all__ = ["explain"]

#: The reason given where no plainer one fits: what the suggestion is.
SEARCHED = "the move that did best when many possible deals were played out"


def explain(view: View, move: Move) -> str:
    """Why ``move`` (a legal move of ``view``'s seat) suits it, in one line."""
    if move.kind is MoveKind.DUKAL:
        k = move.size
        suit = move.card.suit
        return f"leads a Dukal of {k} {suit}: it wins outright, the others give you {k} cards each"
    if move.kind is MoveKind.GIVE:
        return _give(view, move)
    card = move.card
    if len(view.allowed) == 1 or (view.phase == "lead" and len(view.legal_moves) == 1):
        return f"{card} is the only card you may play"
    if not view.trick:
        return _lead(view, card)
    return _follow(view, card)


def _higher_out(view: View, card: Card) -> bool:
    """Whether another seat may hold a card of ``card``'s suit above it."""
    above = SUIT_MASKS[card.suit] & ~((2 << card) - 1)
    return bool(above & view.unseen.mask)


def _weakest(view: View, cards: int) -> bool:
    """Whether ``cards`` (a mask) are the weakest of those the seat may put down: no card
    left out ranks below one put down, trumps counted above every other card."""
    trump = int(view.trump)

    def worth(c: int) -> int:
        return CARDS[c].power + (12 if c // 12 == trump else 0)

    given = [worth(c) for c in range(120) if cards >> c & 1]
    kept = [worth(c) for c in view.allowed if not cards >> c & 1]
    return not kept or max(given) <= min(kept)


def _strength(card: int, led: int, trump: int) -> int:
    """How a card ranks in a trick led in ``led`` (G-8): a trump above the led suit."""
    return card % 12 + (24 if card // 12 == trump else 12 if card // 12 == led else 0)


def _give(view: View, move: Move) -> str:
    cards = " ".join(c.code for c in move.cards)
    line = f"the Dukal takes whatever you give: gives up {cards}"
    return line + (", your weakest cards" if _weakest(view, move.mask) else "")


def _lead(view: View, card: Card) -> str:
    suit = card.suit
    trump = suit == view.trump
    if not _higher_out(view, card):
        what = "trump" if trump else str(suit)
        line = f"leads {card}, the highest {what} card left"
        return line if trump else line + ": it wins unless someone cuts with a trump"
    return f"leads {card}: {SEARCHED}"


def _follow(view: View, card: Card) -> str:
    trump = int(view.trump)
    plays = tuple((p.seat, int(p.move.card)) for p in view.trick)
    best = winner(plays, trump)
    top = next(c for s, c in plays if s == best)
    wins = winner((*plays, (view.seat, int(card))), trump) == view.seat
    last = len(view.trick) == 2
    if wins:
        cut = card.suit == view.trump and card.suit != CARDS[plays[0][1]].suit
        what = f"cuts with the trump {card}" if cut else f"beats {CARDS[top].code} with {card}"
        led = plays[0][1] // 12
        beating = [
            c for c in view.allowed if winner((*plays, (view.seat, int(c))), trump) == view.seat
        ]
        if all(_strength(c, led, trump) >= _strength(card, led, trump) for c in beating):
            what += ", the lowest card that does"
        return what + (": wins the trick" if last else ": takes the lead")
    if not any(winner((*plays, (view.seat, int(c))), trump) == view.seat for c in view.allowed):
        state = f"you cannot beat {CARDS[top].code}"
    else:
        state = f"{CARDS[top].code} is winning" + ("" if last else " so far")
    if _weakest(view, 1 << card):
        return f"{state}: plays {card}, the weakest card you may play"
    return f"{state}: plays {card}: {SEARCHED}"
