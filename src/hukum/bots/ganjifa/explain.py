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

from typing import Any

from hukum.game import Reason
from hukum.ganjifa import CARDS, SUIT_MASKS, Move, MoveKind, View
from hukum.ganjifa.cards import Card, Suit
from hukum.ganjifa.trick import winner

__all__ = ["TEMPLATES", "explain", "reason"]

#: A piece of the line: its message key and its arguments (cards, suits, lists of cards,
#: whole numbers), written out by :data:`TEMPLATES` here and by the page in its language.
Clause = tuple[str, dict[str, Any]]

#: The reason given where no plainer one fits: what the suggestion is.
SEARCHED = "the move that did best when many possible deals were played out"

#: Each clause's English, the pieces of a line written one after the other: ``{card}`` is a
#: card in the game's notation (``Ra4``), ``{cards}`` several, ``{suit}`` a suit's avatar
#: (``Rama``), ``{n}`` a number.
TEMPLATES: dict[str, str] = {
    "g.dukal": "leads a Dukal of {n} {suit}: it wins outright, the others give you {n} cards each",
    "g.give": "the Dukal takes whatever you give: gives up {cards}",
    "g.give.weakest": ", your weakest cards",
    "g.only": "{card} is the only card you may play",
    "g.lead.top": "leads {card}, the highest {suit} card left",
    "g.lead.top_trump": "leads {card}, the highest trump card left",
    "g.lead.unless_cut": ": it wins unless someone cuts with a trump",
    "g.lead": "leads {card}: ",
    "g.searched": SEARCHED,
    "g.cut": "cuts with the trump {card}",
    "g.beats": "beats {best} with {card}",
    "g.beats.lowest": ", the lowest card that does",
    "g.win": ": wins the trick",
    "g.take_lead": ": takes the lead",
    "g.cannot_beat": "you cannot beat {card}",
    "g.winning": "{card} is winning",
    "g.winning_so_far": "{card} is winning so far",
    "g.plays_weakest": ": plays {card}, the weakest card you may play",
    "g.plays": ": plays {card}: ",
}


def explain(view: View, move: Move) -> str:
    """Why ``move`` (a legal move of ``view``'s seat) suits it, in one line."""
    return reason(view, move).text


def reason(view: View, move: Move) -> Reason:
    """:func:`explain` as data: the line's clauses, each a key of :data:`TEMPLATES` and its
    arguments by their codes (``Ra4``, ``Ra``), and its English."""
    clauses = _clauses(view, move)
    text = "".join(TEMPLATES[key].format(**_english(args)) for key, args in clauses)
    return Reason(text, tuple((key, _codes(args)) for key, args in clauses))


def _english(args: dict[str, Any]) -> dict[str, Any]:
    """A clause's arguments as its English writes them: cards by their codes, a suit by
    its avatar."""
    return {
        name: " ".join(c.code for c in value) if isinstance(value, list) else str(value)
        for name, value in args.items()
    }


def _codes(args: dict[str, Any]) -> dict[str, Any]:
    """A clause's arguments as the wire carries them: cards and suits by their codes."""
    out: dict[str, Any] = {}
    for name, value in args.items():
        if isinstance(value, list):
            out[name] = [c.code for c in value]
        elif isinstance(value, (Card, Suit)):
            out[name] = value.code
        else:
            out[name] = value
    return out


def _clauses(view: View, move: Move) -> list[Clause]:
    if move.kind is MoveKind.DUKAL:
        return [("g.dukal", {"n": move.size, "suit": move.card.suit})]
    if move.kind is MoveKind.GIVE:
        return _give(view, move)
    card = move.card
    if len(view.allowed) == 1 or (view.phase == "lead" and len(view.legal_moves) == 1):
        return [("g.only", {"card": card})]
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


def _give(view: View, move: Move) -> list[Clause]:
    line: list[Clause] = [("g.give", {"cards": list(move.cards)})]
    return line + ([("g.give.weakest", {})] if _weakest(view, move.mask) else [])


def _lead(view: View, card: Card) -> list[Clause]:
    suit = card.suit
    if not _higher_out(view, card):
        if suit == view.trump:
            return [("g.lead.top_trump", {"card": card})]
        return [("g.lead.top", {"card": card, "suit": suit}), ("g.lead.unless_cut", {})]
    return [("g.lead", {"card": card}), ("g.searched", {})]


def _follow(view: View, card: Card) -> list[Clause]:
    trump = int(view.trump)
    plays = tuple((p.seat, int(p.move.card)) for p in view.trick)
    best = winner(plays, trump)
    top = CARDS[next(c for s, c in plays if s == best)]
    wins = winner((*plays, (view.seat, int(card))), trump) == view.seat
    last = len(view.trick) == 2
    if wins:
        cut = card.suit == view.trump and card.suit != CARDS[plays[0][1]].suit
        what: list[Clause] = [
            ("g.cut", {"card": card}) if cut else ("g.beats", {"best": top, "card": card})
        ]
        led = plays[0][1] // 12
        beating = [
            c for c in view.allowed if winner((*plays, (view.seat, int(c))), trump) == view.seat
        ]
        if all(_strength(c, led, trump) >= _strength(card, led, trump) for c in beating):
            what.append(("g.beats.lowest", {}))
        return [*what, ("g.win", {}) if last else ("g.take_lead", {})]
    state: Clause
    if not any(winner((*plays, (view.seat, int(c))), trump) == view.seat for c in view.allowed):
        state = ("g.cannot_beat", {"card": top})
    else:
        state = ("g.winning" if last else "g.winning_so_far", {"card": top})
    if _weakest(view, 1 << card):
        return [state, ("g.plays_weakest", {"card": card})]
    return [state, ("g.plays", {"card": card}), ("g.searched", {})]
