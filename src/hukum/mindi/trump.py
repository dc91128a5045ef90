"""The trump methods (M-11 … M-15): one small class each, chosen from ``rules.trump``.

>>> from hukum.mindi import Rules
>>> from hukum.mindi.trump import METHODS
>>> METHODS[Rules.preset("hidden").trump]
Band()

A :class:`~hukum.mindi.Deal` holds the state; its method's hooks are called only on the rare
paths (the start, the hide and announce phases, a turn while trump is unset or hidden, views)
and read and change that state directly, as part of the deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar, NamedTuple

from hukum.cards import CARDS, SUIT_MASKS, Card, Suit, bits
from hukum.mindi.move import HIDE_MOVES, IllegalMoveError, Move, MoveKind
from hukum.mindi.trick import Played, Trick

if TYPE_CHECKING:
    from hukum.mindi.deal import Deal
    from hukum.mindi.rules import TrumpMethod

__all__ = ["METHODS", "Announce", "Band", "Cut", "Method", "Open", "Reveal"]

# Why the player to move may ignore the led suit: not at all, because the face-down card was
# just turned up at their void (auto, or an empty hand), or because they asked for it.
NO_VOID, VOID_REVEALED, VOID_ASKED = 0, 1, 2

_ANNOUNCE_MOVES = tuple(Move.announce(s) for s in Suit)


class Reveal(NamedTuple):
    """When and why the face-down trump card of band hukum was turned up (M-12)."""

    seat: int
    """The player whose turn it was: void in the led suit, or the chooser with an empty hand."""
    trick: int
    """Number (from 0) of the trick in which it happened."""
    position: int
    """How many cards of that trick had been played before it."""
    asked: bool
    """True if the player asked for it (``reveal=on_request``)."""
    card: Card
    """The face-down card, now seen by everyone."""


class Method:
    """How trump is set and made known; the base is a method with nothing special to do."""

    shows_card: ClassVar[bool] = False
    """Whether a card is shown to everyone before the shuffle (open hukum, M-14)."""
    first_phase: ClassVar[str] = "play"
    """The phase a deal starts in: ``hide``, ``announce`` or ``play``."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def start(self, deal: Deal, shown: Card | None) -> None:
        """Set up trump as the deal starts."""

    def special_moves(self, deal: Deal) -> tuple[Move, ...]:
        """The legal moves in this method's own first phase (``hide`` or ``announce``)."""
        return ()

    def push_special(self, deal: Deal, move: Move) -> None:
        """Make a move that is not a card played, or raise :class:`IllegalMoveError`."""
        if move.kind is MoveKind.REVEAL:
            raise IllegalMoveError(
                "asking for the trump applies only to band hukum with reveal=on_request (M-12)",
                rule_ids=("M-12",),
            )
        if move.kind is MoveKind.HIDE:
            raise IllegalMoveError(
                "a card is laid face down only at the start of band hukum (M-12)",
                rule_ids=("M-12",),
            )
        raise IllegalMoveError(
            "trump is announced only at the start of announce hukum (M-15)", rule_ids=("M-15",)
        )

    def unset_void(self, deal: Deal, suit: int) -> None:
        """A player who cannot follow plays a card of ``suit`` while no trump is set."""

    def unknown_turn(self, deal: Deal, seat: int) -> None:
        """``seat`` is to move while trump is not known to everyone."""

    def public_plays(
        self, deal: Deal, tricks: tuple[Trick, ...], trick: tuple[Played, ...]
    ) -> tuple[tuple[Trick, ...], tuple[Played, ...]]:
        """The completed tricks and the trick in progress as every player may see them.

        Each trick is shown on its own, by what it holds and whether trump is known
        (``deal._known``): the deal shows only its new tricks and keeps those it showed
        before while that is unchanged."""
        return tricks, trick

    def public_from(
        self, plays: Sequence[Sequence[Played]], reveal: Reveal | None
    ) -> tuple[int, int] | None:
        """(trick, position) from which every player knows trump, or None if not yet."""
        return None


class Cut(Method):
    """Cut hukum (M-11): the first card played by a player who cannot follow sets trump."""

    def unset_void(self, deal: Deal, suit: int) -> None:
        """The card sets trump at once (M-11)."""
        # House decision (M-13): cards of this suit played before the cut did not count as
        # trumps (there was no trump); they keep their record.
        deal._trump = suit
        deal._known = True

    def public_from(
        self, plays: Sequence[Sequence[Played]], reveal: Reveal | None
    ) -> tuple[int, int] | None:
        """Trump is known from the card after the first one played off the led suit."""
        for number, trick in enumerate(plays):
            led = trick[0].card >> 4
            for position, p in enumerate(trick[1:], start=1):
                if p.card >> 4 != led:
                    return number, position + 1
        return None


class Band(Method):
    """Band hukum (M-12): the player after the dealer lays a card face down; its suit is trump,
    turned up when a player cannot follow (``auto``) or asks for it (``on_request``)."""

    first_phase = "hide"

    def start(self, deal: Deal, shown: Card | None) -> None:
        """The player after the dealer chooses the hidden trump."""
        deal._chooser = deal._next[deal.dealer]
        deal._on_request = deal.rules.reveal == "on_request"
        # Under auto a card of the hidden suit counts as a trump even before the reveal
        # (M-13); under on_request only once trump is known.
        deal._auto = not deal._on_request

    def special_moves(self, deal: Deal) -> tuple[Move, ...]:
        """Lay any card of the hand face down."""
        return tuple(HIDE_MOVES[c] for c in bits(deal._hands[deal._turn]))  # type: ignore[misc]

    def push_special(self, deal: Deal, move: Move) -> None:
        """Lay the card face down, or turn it up for a player who asks (on_request)."""
        turn = deal._turn
        if deal.phase == "hide":
            if move.kind is not MoveKind.HIDE or move.card is None:
                raise IllegalMoveError(
                    f"seat {turn} must first lay a card face down as the hidden trump (M-12)",
                    rule_ids=("M-12",),
                )
            if not deal._hands[turn] >> move.card & 1:
                raise IllegalMoveError(f"{move.card} is not in seat {turn}'s hand")
            deal._facedown = move.card
            deal._trump = move.card >> 4
            deal._hands[turn] ^= 1 << move.card
            return
        if move.kind is not MoveKind.REVEAL or not deal._on_request:
            super().push_special(deal, move)
            return
        if deal._known:
            raise IllegalMoveError("the trump card is already face up (M-12)", rule_ids=("M-12",))
        if deal._led < 0 or deal._hands[turn] & SUIT_MASKS[deal._led]:
            raise IllegalMoveError(
                "only a player who cannot follow suit may ask for the trump (M-12)",
                rule_ids=("M-12",),
            )
        _turn_up(deal, turn, asked=True)
        deal._void = VOID_ASKED

    def unknown_turn(self, deal: Deal, seat: int) -> None:
        """Turn the card up if this player's turn requires it."""
        hand = deal._hands[seat]
        led = deal._led
        if not hand:
            # House decision (M-12): the chooser must play and holds only the face-down card.
            _turn_up(deal, seat, asked=False)
            deal._void = VOID_REVEALED if led >= 0 else NO_VOID
        elif led >= 0 and not deal._on_request and not hand & SUIT_MASKS[led]:
            _turn_up(deal, seat, asked=False)
            deal._void = VOID_REVEALED

    def public_plays(
        self, deal: Deal, tricks: tuple[Trick, ...], trick: tuple[Played, ...]
    ) -> tuple[tuple[Trick, ...], tuple[Played, ...]]:
        """Until the reveal no card shows as a trump."""
        if deal._known:
            return tricks, trick
        # Under auto a card of the hidden suit counts as a trump before the reveal (M-13);
        # showing that would give the hidden suit away (M-20).
        return (
            tuple(
                t._replace(plays=tuple(p._replace(trump=False) for p in t.plays)) for t in tricks
            ),
            tuple(p._replace(trump=False) for p in trick),
        )

    def public_from(
        self, plays: Sequence[Sequence[Played]], reveal: Reveal | None
    ) -> tuple[int, int] | None:
        """Trump is known from the reveal on."""
        return None if reveal is None else (reveal.trick, reveal.position)


class Open(Method):
    """Open hukum (M-14): the suit of a card shown to everyone before the shuffle."""

    shows_card = True

    def start(self, deal: Deal, shown: Card | None) -> None:
        """Trump is the shown card's suit, known to all."""
        assert shown is not None
        deal._trump = shown >> 4
        deal._known = True

    def public_from(
        self, plays: Sequence[Sequence[Played]], reveal: Reveal | None
    ) -> tuple[int, int] | None:
        """Trump is known from the start."""
        return 0, 0


class Announce(Method):
    """Announce hukum (M-15): the player after the dealer names trump after five cards."""

    first_phase = "announce"

    def special_moves(self, deal: Deal) -> tuple[Move, ...]:
        """Announce any suit."""
        return _ANNOUNCE_MOVES

    def push_special(self, deal: Deal, move: Move) -> None:
        """Announce the trump suit."""
        if deal.phase != "announce":
            super().push_special(deal, move)
            return
        if move.kind is not MoveKind.ANNOUNCE or move.suit is None:
            raise IllegalMoveError(
                f"seat {deal._turn} must first announce the trump suit (M-15)", rule_ids=("M-15",)
            )
        deal._trump = move.suit
        deal._known = True

    def public_from(
        self, plays: Sequence[Sequence[Played]], reveal: Reveal | None
    ) -> tuple[int, int] | None:
        """Trump is known from the first card on."""
        return 0, 0


def _turn_up(deal: Deal, seat: int, asked: bool) -> None:
    card = deal._facedown
    deal._hands[deal._chooser] |= 1 << card
    deal._known = True
    deal._reveal = Reveal(seat, len(deal._tricks), len(deal._trick), asked, CARDS[card])


METHODS: dict[TrumpMethod, Method] = {
    "cut": Cut(),
    "band": Band(),
    "open": Open(),
    "announce": Announce(),
}
"""The one table of trump methods, by the name ``Rules.trump`` gives."""
