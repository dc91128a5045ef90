"""Why a Mindi move is a good one, in one line of English, for a person who asked for a hint.

The line is worked out from the move and the seat's own :class:`~hukum.mindi.View` alone:
its hand, the cards played, the trick so far, trump if the seat knows it, its own
face-down card. It never comes from the worlds a searching bot dealt itself, so it names
no card the seat has not seen, and it says only what is true of what the seat can see:
"is winning" for a trick still open, "wins" only for the last card of a trick. Where no
plain reason fits, it says what the suggestion is: the move that did best over many
possible deals.

Positions built by hand with :func:`position` (seat 2's partner is seat 0: teams are the
seats' parity, M-1):

>>> from hukum.mindi import Move, Rules
>>> def seat(n, hand, trick, trump=None):
...     return position(Rules(), n, hand, trick, trump)
>>> explain(seat(2, "10D 4D 9C", [(0, "QD"), (1, "AD")]), Move.play("4D"))
'keeps the 10♦ safe: the trick is lost, so the lowest card, the 4♦'
>>> explain(seat(2, "10D 4D 9C", [(0, "AD"), (1, "JD")]), Move.play("10D"))
"partner's A♦ is the highest ♦ left: adds the 10♦ to it"
>>> explain(seat(3, "10D 4D 9C", [(0, "QD"), (1, "AD"), (2, "5D")]), Move.play("10D"))
"partner's A♦ wins the trick: the 10♦ goes to your team"
>>> explain(seat(3, "3S 8S 9C", [(0, "QD"), (1, "10D"), (2, "AD")], "S"), Move.play("3S"))
'cuts with the 3♠, your lowest trump: the trick and the 10♦ go to your team'
>>> explain(seat(0, "KD 4D 9C", []), Move.play("4D"))
'leads the 4♦, your lowest ♦, keeping the higher ones'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from hukum.cards import Card, CardSet, Suit, deck
from hukum.game import Reason
from hukum.mindi import Move, MoveKind, Played, Rules, Trick, View

__all__ = ["TEMPLATES", "explain", "position", "reason"]

#: A piece of the line: its message key and its arguments (cards, suits, lists of cards,
#: whole numbers), written out by :data:`TEMPLATES` here and by the page in its language.
Clause = tuple[str, dict[str, Any]]

#: The reason given where no plainer one fits: what the suggestion is.
SEARCHED = "the move that did best when many possible deals were played out"

#: Each clause's English, the pieces of a line written one after the other: ``{card}`` is a
#: card (``10♦``), ``{cards}`` a list of cards (``the A♠ and the K♠``), ``{suit}`` a suit
#: (``♠``), ``{n}`` a number (``{n_s}``: its plural's ``s``).
TEMPLATES: dict[str, str] = {
    "m.hide": "lays the {card} face down: {suit} becomes trump, ",
    "m.announce": "announces {suit} as trump: in your first five cards, ",
    "m.suit.longest": "your longest suit ({n} card{n_s}",
    "m.suit.tied": "one of your longest suits ({n} card{n_s}",
    "m.suit.hold": "you hold {n} of them",
    "m.suit.with": ", with {cards}",
    "m.suit.end": ")",
    "m.higher_stay": "; the higher ones stay in your hand",
    "m.reveal": "asks for the trump to be turned up: you cannot follow {suit}",
    "m.reveal.tens": ", and {cards} is in the trick",
    "m.reveal.winning": ", and the opponents' {card} is winning",
    "m.only": "the {card} is the only card you may play",
    "m.only_suit": "the {card} is your only {suit}, and you must follow suit",
    "m.lead": "leads the {card}: ",
    "m.lead.trump": "leads a trump, the {card}: ",
    "m.top.ace": "the highest {suit}",
    "m.top.gone": "{cards} has been played, so it is the highest {suit} left",
    "m.top.gone_n": "{cards} have been played, so it is the highest {suit} left",
    "m.top.every": "every higher {suit} has been played",
    "m.top.none": "no one else holds a higher {suit}",
    "m.lead.void": "leads {suit}, which your partner has shown to be out of: partner may cut",
    "m.lead.single": "leads the {card}, your only {suit}",
    "m.lead.lowest": "leads the {card}, your lowest {suit}, keeping the higher ones",
    "m.searched": SEARCHED,
    "m.cut.sets": "cuts with the {card}, which makes {suit} trump",
    "m.cut.over": "cuts over the {best} with the {card}",
    "m.cut.over_lowest": ", the lowest trump that beats it",
    "m.cut": "cuts with the {card}",
    "m.cut.lowest": ", your lowest trump",
    "m.over_partner": "plays the {card} over partner's {best}",
    "m.highest_left": ", the highest {suit} left",
    "m.only_beats": "the {card} is your only card that beats the {best}",
    "m.beats": "beats the {best} with the {card}",
    "m.beats.lowest": ", the lowest card that does",
    "m.win.tens": ": the trick and {cards} go to your team",
    "m.win": ": wins the trick",
    "m.take_lead": ": takes the lead",
    "m.partner.wins": "partner's {card} wins the trick",
    "m.partner.highest": "partner's {card} is the highest {suit} left",
    "m.partner.winning": "partner's {card} is winning so far",
    "m.ten.goes": ": the {card} goes to your team",
    "m.ten.adds": ": adds the {card} to it",
    "m.plays": ": plays the {card}",
    "m.discards": ": discards the {card}",
    "m.your_lowest": ", your lowest {suit}",
    "m.your_only": ", your only {suit}",
    "m.keeping_sure": ", keeping {cards} until the trick is sure",
    "m.keeps_safe": "keeps {cards} safe: the trick is lost, so the lowest card, the {card}",
    "m.lost": "the trick is lost",
    "m.cannot_beat": "you cannot beat the {card}, and partner plays after you",
    "m.opponents": "the opponents' {card} is winning so far",
    "m.keeping_safe": ", keeping {cards} safe",
}


def explain(view: View, move: Move) -> str:
    """Why ``move`` (one of ``view.legal_moves``) suits the seat of ``view``, in one line."""
    return reason(view, move).text


def reason(view: View, move: Move) -> Reason:
    """:func:`explain` as data: the line's clauses, each a key of :data:`TEMPLATES` and its
    arguments by their codes (``10D``, ``S``), and its English."""
    clauses = _clauses(view, move)
    text = "".join(TEMPLATES[key].format(**_english(args)) for key, args in clauses)
    return Reason(text, tuple((key, _codes(args)) for key, args in clauses))


def _in_order(cards: Iterable[Card]) -> list[Card]:
    return sorted(cards, key=lambda c: -c.rank)


def _english(args: dict[str, Any]) -> dict[str, Any]:
    """A clause's arguments as its English writes them."""
    out: dict[str, Any] = {}
    for name, value in args.items():
        if isinstance(value, list):
            out[name] = _listed(value)
        elif name == "n":
            out[name], out["n_s"] = value, "" if value == 1 else "s"
        else:
            out[name] = str(value)
    return out


def _codes(args: dict[str, Any]) -> dict[str, Any]:
    """A clause's arguments as the wire carries them: cards and suits by their codes."""
    out: dict[str, Any] = {}
    for name, value in args.items():
        if isinstance(value, list):
            out[name] = [c.code for c in _in_order(value)]
        elif isinstance(value, Suit):
            out[name] = value.letter
        elif isinstance(value, Card):
            out[name] = value.code
        else:
            out[name] = value
    return out


def _clauses(view: View, move: Move) -> list[Clause]:
    if move.kind is MoveKind.HIDE:
        assert move.card is not None
        return _hide(view, move.card)
    if move.kind is MoveKind.ANNOUNCE:
        assert move.suit is not None
        return _announce(view, move.suit)
    if move.kind is MoveKind.REVEAL:
        return _reveal(view)
    assert move.card is not None
    card = move.card
    if not view.trick:
        return _lead(view, card)
    return _follow(view, card)


# ---------------------------------------------------------------- what the seat sees


def _played(view: View) -> CardSet:
    """Every card played so far, the trick in progress included."""
    cards = [p.card for t in view.tricks for p in t.plays]
    cards += [p.card for p in view.trick]
    return CardSet(cards)


def _above(card: Card) -> CardSet:
    """The cards of ``card``'s suit that rank above it."""
    return CardSet(Card.of(card.suit, r) for r in range(card.rank + 1, 15))


def _others_may_hold(view: View, card: Card) -> bool:
    """Whether another seat may hold a card of ``card``'s suit above it (as far as the seat
    can tell: a card it has not seen)."""
    return bool(_above(card) & view.unseen)


def _lowest(card: Card, cards: Iterable[Card]) -> bool:
    """Whether ``card`` is the lowest of ``cards`` of its suit."""
    return all(c.rank >= card.rank for c in cards if c.suit == card.suit)


def _listed(cards: Sequence[Card]) -> str:
    """``the A♠``, ``the A♠ and the K♠``."""
    names = [f"the {c}" for c in _in_order(cards)]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _tens(cards: Iterable[Card]) -> list[Card]:
    return [c for c in cards if c.rank == 10]


def _partner(view: View, seat: int) -> bool:
    return seat != view.seat and seat % 2 == view.seat % 2


def _counts_as_trump(view: View, card: Card, led: Suit) -> bool:
    """Whether ``card``, played now to a trick led in ``led``, counts as a trump, as the
    seat knows: trump is known and it is of that suit; or (cut hukum) trump is not set yet
    and the card does not follow, so it sets trump."""
    if view.trump is None:
        return card.suit != led and view.rules.trump == "cut"
    return view.trump_known and card.suit == view.trump


def _strength(card: Card, trump: bool, led: Suit) -> int:
    """How a card ranks in a trick (M-9): a trump above any card of the led suit, other
    cards never win."""
    if trump:
        return 32 + card.rank
    return 16 + card.rank if card.suit == led else 0


def _winning(trick: Sequence[Played]) -> Played:
    """The play winning the trick so far, as the seat sees the trick."""
    led = trick[0].card.suit
    return max(trick, key=lambda p: _strength(p.card, p.trump, led))


def _after(view: View) -> list[int]:
    """The seats still to play to the trick after this seat."""
    seats, seat = [], view.seat
    for _ in range(view.rules.players - len(view.trick) - 1):
        seat = view.rules.next_seat(seat)
        seats.append(seat)
    return seats


# ---------------------------------------------------------------- trump choices and reveal


def _suit_phrase(hand: CardSet, suit: Suit) -> list[Clause]:
    """How the hand holds ``suit``: ``your longest suit (5 cards, with the A♠ and the K♠)``,
    ``one of your longest suits (…)`` or ``you hold 2 of them``."""
    mine = hand.of_suit(suit)
    count = len(mine)
    top = [c for c in mine if c.rank >= 10][-2:]
    with_: list[Clause] = [("m.suit.with", {"cards": top})] if top else []
    if all(len(hand.of_suit(s)) <= count for s in Suit):
        tied = any(len(hand.of_suit(s)) == count for s in Suit if s != suit)
        what = "m.suit.tied" if tied else "m.suit.longest"
        return [(what, {"n": count}), *with_, ("m.suit.end", {})]
    return [("m.suit.hold", {"n": count}), *with_]


def _hide(view: View, card: Card) -> list[Clause]:
    suit = card.suit
    line = [("m.hide", {"card": card, "suit": suit}), *_suit_phrase(view.hand, suit)]
    if len(view.hand.of_suit(suit)) > 1 and _lowest(card, view.hand):
        line.append(("m.higher_stay", {}))
    return line


def _announce(view: View, suit: Suit) -> list[Clause]:
    return [("m.announce", {"suit": suit}), *_suit_phrase(view.hand, suit)]


def _reveal(view: View) -> list[Clause]:
    led = view.trick[0].card.suit
    line: list[Clause] = [("m.reveal", {"suit": led})]
    tens = _tens(p.card for p in view.trick)
    best = _winning(view.trick)
    if tens:
        line.append(("m.reveal.tens", {"cards": tens}))
    elif not _partner(view, best.seat):
        line.append(("m.reveal.winning", {"card": best.card}))
    return line


# ---------------------------------------------------------------- leading


def _lead(view: View, card: Card) -> list[Clause]:
    suit = card.suit
    played = _played(view)
    mine = view.hand.of_suit(suit)
    trump = view.trump if view.trump_known else None
    if len(view.legal_moves) == 1:
        return [("m.only", {"card": card})]
    if not _others_may_hold(view, card):
        gone = [c for c in _above(card) if c in played]
        why: Clause
        if card.rank == 14:
            why = ("m.top.ace", {"suit": suit})
        elif len(gone) == len(_above(card)) and len(gone) <= 2:
            why = (
                "m.top.gone" if len(gone) == 1 else "m.top.gone_n",
                {"cards": gone, "suit": suit},
            )
        elif len(gone) == len(_above(card)):
            why = ("m.top.every", {"suit": suit})
        else:
            why = ("m.top.none", {"suit": suit})
        return [("m.lead.trump" if suit == trump else "m.lead", {"card": card}), why]
    partners = [s for s in range(view.rules.players) if _partner(view, s)]
    if (
        trump is not None
        and suit != trump
        and any(suit in view.voids[s] and trump not in view.voids[s] for s in partners)
    ):
        return [("m.lead.void", {"suit": suit})]
    if card.rank < 10 and _lowest(card, view.hand):
        if len(mine) == 1:
            return [("m.lead.single", {"card": card, "suit": suit})]
        return [("m.lead.lowest", {"card": card, "suit": suit})]
    return [("m.lead", {"card": card}), ("m.searched", {})]


# ---------------------------------------------------------------- following


def _follow(view: View, card: Card) -> list[Clause]:
    trick = view.trick
    led = trick[0].card.suit
    legal = [m.card for m in view.legal_moves if m.card is not None]
    best = _winning(trick)
    top = _strength(best.card, best.trump, led)
    trump = _counts_as_trump(view, card, led)
    wins = _strength(card, trump, led) > top
    last = not _after(view)
    tens = _tens(p.card for p in trick)
    if len(view.legal_moves) == 1:
        if card.suit == led:
            return [("m.only_suit", {"card": card, "suit": led})]
        return [("m.only", {"card": card})]
    if wins:
        return _taking(view, card, trump, best, last, tens, legal)
    if _partner(view, best.seat):
        return _partner_winning(view, card, best, last, led)
    return _losing(view, card, best, last, led, legal)


def _taking(
    view: View,
    card: Card,
    trump: bool,
    best: Played,
    last: bool,
    tens: list[Card],
    legal: list[Card],
) -> list[Clause]:
    """A card that beats the trick so far."""
    led = view.trick[0].card.suit
    top = _strength(best.card, best.trump, led)
    winners = [c for c in legal if _strength(c, _counts_as_trump(view, c, led), led) > top]
    cheapest = all(
        _strength(c, _counts_as_trump(view, c, led), led) >= _strength(card, trump, led)
        for c in winners
    )
    both = {"card": card, "best": best.card}
    what: list[Clause]
    if trump and card.suit != led:
        if view.trump is None:
            what = [("m.cut.sets", {"card": card, "suit": card.suit})]
        elif best.trump:
            what = [("m.cut.over", both)]
            if cheapest:
                what.append(("m.cut.over_lowest", {}))
        else:
            what = [("m.cut", {"card": card})]
            if _lowest(card, view.hand):
                what.append(("m.cut.lowest", {}))
    elif _partner(view, best.seat):
        what = [("m.over_partner", both)]
        if not _others_may_hold(view, card) and not trump:
            what.append(("m.highest_left", {"suit": card.suit}))
    elif len(winners) == 1:
        what = [("m.only_beats", both)]
    else:
        what = [("m.beats", both)]
        if cheapest:
            what.append(("m.beats.lowest", {}))
        elif not _others_may_hold(view, card):
            what.append(("m.highest_left", {"suit": card.suit}))
    taken = _tens([*tens, card])
    if last:
        return [*what, ("m.win.tens", {"cards": taken}) if taken else ("m.win", {})]
    return [*what, ("m.take_lead", {})]


def _partner_winning(view: View, card: Card, best: Played, last: bool, led: Suit) -> list[Clause]:
    """Partner's card is winning and this one does not beat it."""
    state: Clause
    if last:
        state = ("m.partner.wins", {"card": best.card})
    elif not best.trump and not _others_may_hold(view, best.card):
        state = ("m.partner.highest", {"card": best.card, "suit": led})
    else:
        state = ("m.partner.winning", {"card": best.card})
    if card.rank == 10:
        return [state, ("m.ten.goes" if last else "m.ten.adds", {"card": card})]
    line = [state, ("m.plays", {"card": card})]
    if _lowest(card, view.hand):
        line.append(("m.your_lowest", {"suit": card.suit}))
    kept = [t for t in _tens(view.hand) if t != card]
    if kept and not last:
        line.append(("m.keeping_sure", {"cards": kept[:1]}))
    return line


def _losing(
    view: View, card: Card, best: Played, last: bool, led: Suit, legal: list[Card]
) -> list[Clause]:
    """The opponents' card is winning and this one does not beat it."""
    can_beat = any(
        _strength(c, _counts_as_trump(view, c, led), led) > _strength(best.card, best.trump, led)
        for c in legal
    )
    partner_after = any(_partner(view, s) for s in _after(view))
    lost = last or (not can_beat and not partner_after)
    kept = [t for t in _tens(view.hand) if t != card]
    lowest = _lowest(card, legal) if card.suit == led else _lowest(card, view.hand)
    only = len(view.hand.of_suit(card.suit)) == 1
    if lost and kept and lowest and card.suit == led and card.rank != 10:
        return [("m.keeps_safe", {"cards": kept[:1], "card": card})]
    state: Clause
    if lost:
        state = ("m.lost", {})
    elif not can_beat:
        state = ("m.cannot_beat", {"card": best.card})
    else:
        state = ("m.opponents", {"card": best.card})
    line = [state, ("m.plays" if card.suit == led else "m.discards", {"card": card})]
    if lowest:
        line.append(("m.your_only" if only else "m.your_lowest", {"suit": card.suit}))
    if kept and card.rank != 10:
        line.append(("m.keeping_safe", {"cards": kept[:1]}))
    return line


# ---------------------------------------------------------------- positions for examples


def position(
    rules: Rules,
    seat: int,
    hand: str,
    trick: Sequence[tuple[int, str]],
    trump: str | None = None,
    *,
    tricks: Sequence[Trick] = (),
    voids: Sequence[Iterable[Suit]] | None = None,
) -> View:
    """A view of ``seat`` to move, built by hand (for examples and tests): its ``hand``
    (``"10D 4D 9C"``), the ``trick`` so far as (seat, card) pairs, ``trump`` (a suit letter,
    known to all) or None (not known), completed ``tricks`` and shown ``voids``. Every card
    neither in the hand nor played is unseen; the legal moves follow suit (M-8)."""
    cards = CardSet.parse(hand)
    suit = Suit.parse(trump) if trump is not None else None
    plays = tuple(Played(s, Card.parse(c), Card.parse(c).suit == suit) for s, c in trick)
    played = CardSet(p.card for t in tricks for p in t.plays) | CardSet(p.card for p in plays)
    led = plays[0].card.suit if plays else None
    follow = cards.of_suit(led) if led is not None else CardSet()
    legal = tuple(Move.play(c) for c in (follow or cards))
    n = rules.players
    return View(
        rules=rules,
        seat=seat,
        dealer=(seat - len(plays) - 1) % n,
        phase="play",
        turn=seat,
        hand=cards,
        face_down=None,
        chooser=None,
        trump=suit,
        trump_known=suit is not None,
        shown_card=None,
        reveal=None,
        trick=plays,
        tricks=tuple(tricks),
        hand_sizes=tuple(len(cards) for _ in range(n)),
        tricks_won=(0, 0),
        tens=(CardSet(), CardSet()),
        pile=CardSet(),
        history=(),
        legal_moves=legal,
        unseen=CardSet(deck(rules.deck) & ~cards.mask & ~played.mask),
        voids=tuple(frozenset(v) for v in voids) if voids else tuple(frozenset() for _ in range(n)),
        known=tuple(cards if s == seat else CardSet() for s in range(n)),
        outcome=None,
    )
