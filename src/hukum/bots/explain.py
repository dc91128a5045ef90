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

from hukum.cards import Card, CardSet, Suit, deck
from hukum.mindi import Move, MoveKind, Played, Rules, Trick, View

__all__ = ["explain", "position"]

#: The reason given where no plainer one fits: what the suggestion is.
SEARCHED = "the move that did best when many possible deals were played out"


def explain(view: View, move: Move) -> str:
    """Why ``move`` (one of ``view.legal_moves``) suits the seat of ``view``, in one line."""
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
    names = [f"the {c}" for c in sorted(cards, key=lambda c: -c.rank)]
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


def _suit_phrase(hand: CardSet, suit: Suit) -> str:
    """How the hand holds ``suit``: ``your longest suit (5 cards, with the A♠ and the K♠)``,
    ``one of your longest suits (…)`` or ``you hold 2 of them``."""
    mine = hand.of_suit(suit)
    count = len(mine)
    top = [c for c in mine if c.rank >= 10][-2:]
    with_ = f", with {_listed(top)}" if top else ""
    if all(len(hand.of_suit(s)) <= count for s in Suit):
        tied = any(len(hand.of_suit(s)) == count for s in Suit if s != suit)
        what = "one of your longest suits" if tied else "your longest suit"
        return f"{what} ({count} card{'s' if count != 1 else ''}{with_})"
    return f"you hold {count} of them{with_}"


def _hide(view: View, card: Card) -> str:
    suit = card.suit
    line = f"lays the {card} face down: {suit} becomes trump, {_suit_phrase(view.hand, suit)}"
    if len(view.hand.of_suit(suit)) > 1 and _lowest(card, view.hand):
        line += "; the higher ones stay in your hand"
    return line


def _announce(view: View, suit: Suit) -> str:
    return f"announces {suit} as trump: in your first five cards, {_suit_phrase(view.hand, suit)}"


def _reveal(view: View) -> str:
    led = view.trick[0].card.suit
    line = f"asks for the trump to be turned up: you cannot follow {led}"
    tens = _tens(p.card for p in view.trick)
    best = _winning(view.trick)
    if tens:
        line += f", and {_listed(tens)} is in the trick"
    elif not _partner(view, best.seat):
        line += f", and the opponents' {best.card} is winning"
    return line


# ---------------------------------------------------------------- leading


def _lead(view: View, card: Card) -> str:
    suit = card.suit
    played = _played(view)
    mine = view.hand.of_suit(suit)
    trump = view.trump if view.trump_known else None
    if len(view.legal_moves) == 1:
        return f"the {card} is the only card you may play"
    if not _others_may_hold(view, card):
        gone = [c for c in _above(card) if c in played]
        if card.rank == 14:
            why = f"the highest {suit}"
        elif len(gone) == len(_above(card)) and len(gone) <= 2:
            why = f"{_listed(gone)} {'has' if len(gone) == 1 else 'have'} been played"
            why += f", so it is the highest {suit} left"
        elif len(gone) == len(_above(card)):
            why = f"every higher {suit} has been played"
        else:
            why = f"no one else holds a higher {suit}"
        what = "a trump, " if suit == trump else ""
        return f"leads {what}the {card}: {why}"
    partners = [s for s in range(view.rules.players) if _partner(view, s)]
    if (
        trump is not None
        and suit != trump
        and any(suit in view.voids[s] and trump not in view.voids[s] for s in partners)
    ):
        return f"leads {suit}, which your partner has shown to be out of: partner may cut"
    if card.rank < 10 and _lowest(card, view.hand):
        if len(mine) == 1:
            return f"leads the {card}, your only {suit}"
        return f"leads the {card}, your lowest {suit}, keeping the higher ones"
    return f"leads the {card}: {SEARCHED}"


# ---------------------------------------------------------------- following


def _follow(view: View, card: Card) -> str:
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
            return f"the {card} is your only {led}, and you must follow suit"
        return f"the {card} is the only card you may play"
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
) -> str:
    """A card that beats the trick so far."""
    led = view.trick[0].card.suit
    top = _strength(best.card, best.trump, led)
    winners = [c for c in legal if _strength(c, _counts_as_trump(view, c, led), led) > top]
    cheapest = all(
        _strength(c, _counts_as_trump(view, c, led), led) >= _strength(card, trump, led)
        for c in winners
    )
    if trump and card.suit != led:
        if view.trump is None:
            what = f"cuts with the {card}, which makes {card.suit} trump"
        elif best.trump:
            what = f"cuts over the {best.card} with the {card}"
            if cheapest:
                what += ", the lowest trump that beats it"
        else:
            what = f"cuts with the {card}"
            if _lowest(card, view.hand):
                what += ", your lowest trump"
    elif _partner(view, best.seat):
        what = f"plays the {card} over partner's {best.card}"
        if not _others_may_hold(view, card) and not trump:
            what += f", the highest {card.suit} left"
    elif len(winners) == 1:
        what = f"the {card} is your only card that beats the {best.card}"
    else:
        what = f"beats the {best.card} with the {card}"
        if cheapest:
            what += ", the lowest card that does"
        elif not _others_may_hold(view, card):
            what += f", the highest {card.suit} left"
    taken = _tens([*tens, card])
    if last:
        return what + (
            f": the trick and {_listed(taken)} go to your team" if taken else ": wins the trick"
        )
    return what + ": takes the lead"


def _partner_winning(view: View, card: Card, best: Played, last: bool, led: Suit) -> str:
    """Partner's card is winning and this one does not beat it."""
    if last:
        state = f"partner's {best.card} wins the trick"
    elif not best.trump and not _others_may_hold(view, best.card):
        state = f"partner's {best.card} is the highest {led} left"
    else:
        state = f"partner's {best.card} is winning so far"
    if card.rank == 10:
        return (
            f"{state}: the {card} goes to your team" if last else f"{state}: adds the {card} to it"
        )
    line = f"{state}: plays the {card}"
    if _lowest(card, view.hand):
        line += f", your lowest {card.suit}"
    kept = [t for t in _tens(view.hand) if t != card]
    if kept and not last:
        line += f", keeping {_listed(kept[:1])} until the trick is sure"
    return line


def _losing(view: View, card: Card, best: Played, last: bool, led: Suit, legal: list[Card]) -> str:
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
    low = f", your {'only' if only else 'lowest'} {card.suit}" if lowest else ""
    if lost and kept and lowest and card.suit == led and card.rank != 10:
        return f"keeps {_listed(kept[:1])} safe: the trick is lost, so the lowest card, the {card}"
    if lost:
        state = "the trick is lost"
    elif not can_beat:
        state = f"you cannot beat the {best.card}, and partner plays after you"
    else:
        state = f"the opponents' {best.card} is winning so far"
    verb = "plays" if card.suit == led else "discards"
    line = f"{state}: {verb} the {card}{low}"
    if kept and card.rank != 10:
        line += f", keeping {_listed(kept[:1])} safe"
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
