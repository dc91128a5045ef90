"""One deal of Mindi: the deal itself (M-6), trump (M-11 … M-15), play (M-7 … M-10), result.

>>> from hukum.mindi import Deal, Rules
>>> deal = Deal.new(Rules.preset("classic"), dealer=0, seed=7)
>>> deal.turn                                  # the player after the dealer leads (M-7)
1
>>> while not deal.is_over():
...     deal.push(deal.legal_moves()[0])
>>> deal.outcome().describe()
'Team 0 wins with mendikot: 4–0 tens'
>>> deal.pop()                                 # exact undo, for search
Move.parse('7H')

Hands are ``int`` bitmasks and moves are interned objects, so random play runs at well over
10,000 deals a second in pure Python (``hukum bench``).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

from hukum.cards import CARDS, SUIT_MASKS, Card, CardSet, Suit, bits, deck
from hukum.mindi.move import PLAY_MOVES, IllegalMoveError, Move, MoveKind
from hukum.mindi.outcome import Outcome, decide
from hukum.mindi.rules import Rules
from hukum.mindi.trick import Played, Trick
from hukum.mindi.trump import METHODS, NO_VOID, VOID_ASKED, Method, Reveal
from hukum.mindi.view import View, shown_voids

__all__ = ["Deal", "deal_hands"]

# Phases of a deal.
_HIDE, _ANNOUNCE, _PLAY, _OVER = 0, 1, 2, 3
_PHASE_NAMES = ("hide", "announce", "play", "over")
_PHASES = {name: number for number, name in enumerate(_PHASE_NAMES)}
# This message is matched exactly by hukum.records' tests; no rule id fits it.
_OVER_MESSAGE = "the deal is over"


def _suit_tables() -> tuple[tuple[tuple[Move, ...], ...], ...]:
    """For each suit, the play moves of every 13-bit holding, lowest card first."""
    tables = []
    for suit in range(4):
        table: list[tuple[Move, ...]] = [()] * 8192
        for m in range(1, 8192):
            top = m.bit_length() - 1
            move = PLAY_MOVES[suit * 16 + top]
            assert move is not None
            table[m] = (*table[m ^ (1 << top)], move)
        tables.append(tuple(table))
    return tuple(tables)


_SUIT_PLAYS = _suit_tables()
_P0, _P1, _P2, _P3 = _SUIT_PLAYS
_PLAY_KIND = MoveKind.PLAY
_Plays = tuple[Played, ...]


class _Undo:
    """A move and the state it may change, saved by push() so that pop() restores it exactly.

    The hands, the phase, the face-down card and the completed tricks are not saved: pop()
    puts them back from the move itself.
    """

    # No __init__: push() sets the fields one by one, as calling one would cost search a few
    # per cent (push and pop run millions of times).
    __slots__ = (
        "known",
        "led",
        "move",
        "pair",
        "pile",
        "reveal",
        "seat",
        "streak_seat",
        "taken",
        "trick",
        "trump",
        "void",
    )

    move: Move
    seat: int
    """The seat that made the move: the seat to move before it."""
    trump: int
    known: bool
    reveal: Reveal | None
    void: int
    trick: _Plays
    led: int
    taken: tuple[int, int]
    pile: int
    streak_seat: int
    pair: tuple[int, Move]
    """``(seat, move)`` once a history has shown the move (every history shares it)."""


_TENS = sum(1 << (s * 16 + 8) for s in range(4))


def _plays(hand: int) -> tuple[Move, ...]:
    return (
        _P0[hand & 0x1FFF] + _P1[hand >> 16 & 0x1FFF] + _P2[hand >> 32 & 0x1FFF] + _P3[hand >> 48]
    )


def deal_hands(
    rules: Rules, dealer: int, seed: int
) -> tuple[tuple[tuple[Card, ...], ...], Card | None]:
    """Shuffle and deal from a seed (M-6): each seat's cards in the order dealt, and for
    open hukum the card shown before the shuffle (M-14)."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"a seed is an int, not {type(seed).__name__}")
    rng = random.Random(seed)
    cards = list(_PACKS[rules.deck])
    shown = cards[rng.randrange(len(cards))] if METHODS[rules.trump].shows_card else None
    rng.shuffle(cards)  # Fisher–Yates
    hands = []
    for plan in _deal_plan(rules, dealer):
        hand: list[Card] = []
        for a, b in plan:
            hand += cards[a:b]
        hands.append(tuple(hand))
    return tuple(hands), shown


_PACKS = {size: tuple(bits(deck(size))) for size in (52, 48)}


@functools.cache
def _deal_plan(rules: Rules, dealer: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each seat, the slices of the shuffled pack it receives: starting with the player
    after the dealer, a batch of 5 to each, then batches of 4, the last one smaller (M-6)."""
    size = rules.hand_size
    batches = [5]
    while sum(batches) < size:
        batches.append(min(4, size - sum(batches)))
    order = [rules.next_seat(dealer)]
    while len(order) < rules.players:
        order.append(rules.next_seat(order[-1]))
    plan: list[list[tuple[int, int]]] = [[] for _ in range(rules.players)]
    pos = 0
    for batch in batches:
        for seat in order:
            plan[seat].append((pos, pos + batch))
            pos += batch
    return tuple(tuple(p) for p in plan)


class _Public:
    """What every player sees of a position: its plays, the cards played, and the voids
    they show (for each trump a seat may know). Kept by the deal until it moves on: the
    position is told by its last move (held here, so never another's) and the count.

    The next position's plays reuse the completed tricks built here (``raw``: the deal's
    own entries they were built from, compared by identity, and whether trump was known):
    a server keeps one of these for each table, and building every trick again for each
    move made objects enough for the garbage collector's young generation to take tens of
    milliseconds to scan."""

    __slots__ = (
        "_histories",
        "_voids",
        "known",
        "last",
        "moves",
        "played",
        "raw",
        "trick",
        "tricks",
    )

    def __init__(
        self,
        last: _Undo | None,
        moves: int,
        tricks: tuple[Trick, ...],
        trick: tuple[Played, ...],
        played: int,
        raw: tuple[tuple[int, _Plays, int], ...],
        known: bool,
    ) -> None:
        self.last = last
        self.moves = moves
        self.tricks = tricks
        self.trick = trick
        self.played = played
        self.raw = raw
        self.known = known
        self._voids: dict[Suit | None, tuple[frozenset[Suit], ...]] = {}
        self._histories: dict[bool, tuple[tuple[int, Move], ...]] = {}

    def history(self, stack: list[_Undo], sees_hidden: bool) -> tuple[tuple[int, Move], ...]:
        """The moves of the position (``stack``: its deal's) as a seat sees them: unless it
        ``sees_hidden``, the card laid face down as :attr:`Move.HIDDEN`. Built once for all
        the seats that see the same."""
        history = self._histories.get(sees_hidden)
        if history is None:
            pairs = []
            for u in stack:
                if not sees_hidden and u.move.kind is MoveKind.HIDE:
                    pairs.append((u.seat, Move.HIDDEN))
                    continue
                pair = getattr(u, "pair", None)
                if pair is None:
                    pair = u.pair = (u.seat, u.move)
                pairs.append(pair)
            history = self._histories[sees_hidden] = tuple(pairs)
        return history

    def voids(
        self, rules: Rules, trump: Suit | None, reveal: Reveal | None
    ) -> tuple[frozenset[Suit], ...]:
        """:func:`~hukum.mindi.view.shown_voids` of these plays."""
        voids = self._voids.get(trump)
        if voids is None:
            voids = self._voids[trump] = shown_voids(rules, self.tricks, self.trick, trump, reveal)
        return voids


class Deal:
    """The full state of one deal: every hand, the trick, trump, captures and the move stack.

    A deal is the referee's object; players get :meth:`view`. ``push`` checks every move and
    raises :class:`IllegalMoveError` (changing nothing) if the rules forbid it.
    """

    __slots__ = (
        "_auto",
        "_chooser",
        "_dealt",
        "_dehla",
        "_facedown",
        "_hands",
        "_known",
        "_led",
        "_method",
        "_must_trump",
        "_n",
        "_next",
        "_ntricks",
        "_on_request",
        "_outcome",
        "_phase",
        "_pile",
        "_public",
        "_reveal",
        "_stack",
        "_streak_seat",
        "_taken",
        "_trick",
        "_tricks",
        "_trump",
        "_turn",
        "_void",
        "dealer",
        "rules",
        "seed",
        "shown_card",
    )

    rules: Rules
    dealer: int
    seed: int | None
    shown_card: Card | None

    def __init__(
        self,
        rules: Rules,
        dealer: int,
        hands: Sequence[Sequence[Card | int | str]],
        *,
        shown_card: Card | int | str | None = None,
        seed: int | None = None,
    ) -> None:
        """A deal from the hands as dealt (each seat's cards in the order received; the first
        five are the first batch, which matters under announce hukum). A hand may also be
        one string of cards, e.g. ``"AS 10S 3D …"``."""
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules object, not {type(rules).__name__}")
        n = rules.players
        _check_dealer(rules, dealer)
        if len(hands) != n:
            raise ValueError(f"expected {n} hands, got {len(hands)}")
        parsed = tuple(
            tuple(
                _as_card(c)
                for c in (hand.replace(",", " ").split() if isinstance(hand, str) else hand)
            )
            for hand in hands
        )
        full = deck(rules.deck)
        seen = 0
        for seat, hand in enumerate(parsed):
            if len(hand) != rules.hand_size:
                raise ValueError(
                    f"seat {seat} has {len(hand)} cards; each player gets {rules.hand_size}"
                )
            for c in hand:
                if not full >> c & 1:
                    raise ValueError(f"{c} is not in the {rules.deck}-card pack")
                if seen >> c & 1:
                    raise ValueError(f"{c} is dealt twice")
                seen |= 1 << c
        shown = _as_card(shown_card) if shown_card is not None else None
        if METHODS[rules.trump].shows_card != (shown is not None):
            raise ValueError("open hukum needs the shown card (M-14), and only open hukum has one")
        if shown is not None and not full >> shown & 1:
            raise ValueError(f"{shown} is not in the {rules.deck}-card pack")
        self._setup(rules, dealer, parsed, shown, seed)

    def _setup(
        self,
        rules: Rules,
        dealer: int,
        hands: tuple[tuple[Card, ...], ...],
        shown: Card | None,
        seed: int | None,
    ) -> None:
        n = rules.players
        self.rules = rules
        self.dealer = dealer
        self.seed = seed
        self.shown_card = shown
        self._dealt = hands
        self._n = n
        self._next = _next_seats(rules)
        self._ntricks = rules.hand_size
        method = METHODS[rules.trump]
        self._method: Method = method
        self._on_request = False
        self._auto = False
        self._must_trump = rules.must_trump
        self._dehla = rules.capture == "dehla"
        self._chooser = -1
        masks = []
        for hand in hands:
            m = 0
            for c in hand:
                m |= 1 << c
            masks.append(m)
        self._hands = masks
        self._stack: list[_Undo] = []
        self._public: _Public | None = None
        self._outcome: tuple[_Undo, Outcome] | None = None
        self._tricks: list[tuple[int, _Plays, int]] = []
        self._turn = self._next[dealer]
        self._trick: _Plays = ()
        self._led = -1
        self._void = NO_VOID
        self._facedown = -1
        self._reveal: Reveal | None = None
        self._taken = (0, 0)
        self._pile = 0
        # Dehla capture: the winner of the last trick if the pile was not taken at it, or -1.
        self._streak_seat = -1
        self._trump = -1
        self._known = False
        self._phase = _PHASES[method.first_phase]
        method.start(self, shown)

    @classmethod
    def new(cls, rules: Rules, dealer: int, seed: int) -> Deal:
        """Shuffle and deal from ``seed`` (M-6); the same seed always gives the same deal."""
        _check_dealer(rules, dealer)
        hands, shown = deal_hands(rules, dealer, seed)
        deal = cls.__new__(cls)
        deal._setup(rules, dealer, hands, shown, seed)
        return deal

    # ------------------------------------------------------------------ moves

    def legal_moves(self) -> tuple[Move, ...]:
        """The moves the player to move may make now (empty when the deal is over)."""
        phase = self._phase
        if phase == _PLAY:
            hand = self._hands[self._turn]
            led = self._led
            if led < 0:
                return _plays(hand)
            void = self._void
            if not void:
                follow = hand >> (led << 4) & 0x1FFF
                if follow:
                    return _SUIT_PLAYS[led][follow]
            trump = self._trump
            # House decision (M-8, M-12): must_trump binds as soon as trump is known, so under
            # band/auto it binds the void player at whose turn the card was just turned up.
            if trump >= 0 and (void == VOID_ASKED or (self._must_trump and self._known)):
                trumps = hand >> (trump << 4) & 0x1FFF
                if trumps:
                    return _SUIT_PLAYS[trump][trumps]
            if self._on_request and not self._known and not void:
                # Band hukum, on_request (M-12): a void player may ask for the trump card.
                return (*_plays(hand), Move.REVEAL_TRUMP)
            return _plays(hand)
        if phase == _OVER:
            return ()
        return self._method.special_moves(self)

    def check(self, move: Move, seat: int | None = None) -> None:
        """Raise :class:`IllegalMoveError` with the reason if ``push(move, seat)`` would;
        the deal is left as it was either way."""
        self.push(move, seat)
        self.pop()

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal now."""
        return move in self.legal_moves()

    def push(self, move: Move, seat: int | None = None) -> None:
        """Make a move; with ``seat``, also check that it is that seat's turn.

        Raises :class:`IllegalMoveError` naming the rule, and changes nothing, if the move is
        not allowed now.
        """
        turn = self._turn
        if seat is not None and seat != turn:
            if self._phase == _OVER:
                raise IllegalMoveError(_OVER_MESSAGE)
            raise IllegalMoveError(
                f"not your turn: seat {turn} is to move (M-7, M-9)", rule_ids=("M-7", "M-9")
            )
        try:
            kind = move.kind
        except AttributeError:
            raise TypeError(
                f"push() takes a Move, e.g. Move.parse('10S'), not {type(move).__name__}"
            ) from None
        # Saved before anything changes; a refused move leaves it unused.
        undo = _Undo()
        undo.move = move
        undo.seat = turn
        undo.trump = self._trump
        undo.known = self._known
        undo.reveal = self._reveal
        undo.void = self._void
        undo.trick = self._trick
        undo.led = self._led
        undo.taken = self._taken
        undo.pile = self._pile
        undo.streak_seat = self._streak_seat
        if self._phase != _PLAY or kind is not _PLAY_KIND:
            self._push_other(move, undo)
            return
        card = move.card
        assert card is not None
        hands = self._hands
        hand = hands[turn]
        bit = 1 << card
        if not hand & bit:
            raise self._not_in_hand(card)
        led = self._led
        trump = self._trump
        suit = card >> 4
        if led >= 0 and suit != led:
            void = self._void
            if not void and hand & SUIT_MASKS[led]:
                raise IllegalMoveError(
                    f"seat {turn} must follow {Suit(led).symbol} (M-8)", rule_ids=("M-8",)
                )
            if (
                trump >= 0
                and suit != trump
                and (void == VOID_ASKED or (self._must_trump and self._known))
                and hand & SUIT_MASKS[trump]
            ):
                rule, rule_id = (
                    ("after asking for the reveal (M-12)", "M-12")
                    if void == VOID_ASKED
                    else ("(must_trump, M-8)", "M-8")
                )
                raise IllegalMoveError(
                    f"seat {turn} must play a trump ({Suit(trump).symbol}) {rule}",
                    rule_ids=(rule_id,),
                )
            if trump < 0:  # the method may set trump now (cut hukum, M-11)
                self._method.unset_void(self, suit)
                trump = self._trump
        self._stack.append(undo)
        hands[turn] = hand ^ bit
        # A card of the trump suit counts as a trump (M-13) once trump is known; under
        # band/auto also before the reveal (only on_request has cards that never count).
        played = Played(turn, card, suit == trump and (self._known or self._auto))
        trick = self._trick + (played,)  # noqa: RUF005 (faster than unpacking)
        if len(trick) < self._n:
            self._trick = trick
            if led < 0:
                self._led = suit
            turn = self._next[turn]
            self._turn = turn
            self._void = NO_VOID
            if not self._known:
                self._method.unknown_turn(self, turn)
            return
        self._finish_trick(trick)

    def _finish_trick(self, trick: _Plays) -> None:
        led = self._led
        best = -1
        winner = trick[0][0]
        cards = 0
        for s, c, is_trump in trick:
            cards |= 1 << c
            if is_trump:
                key = 32 + (c & 15)
            elif c >> 4 == led:
                key = 16 + (c & 15)
            else:
                continue
            if key > best:
                best = key
                winner = s
        tricks = self._tricks
        tricks.append((trick[0][0], trick, winner))
        team = winner & 1
        last = len(tricks) == self._ntricks
        if self._dehla:
            # Dehla capture (M-10): two tricks in a row by the same player take the pile;
            # after a capture the count starts again; the last trick takes what is left.
            pile = self._pile | cards
            if self._streak_seat == winner or last:
                self._take(team, pile)
                pile = 0
                self._streak_seat = -1
            else:
                self._streak_seat = winner
            self._pile = pile
        else:
            self._take(team, cards)
        self._trick = ()
        self._led = -1
        self._void = NO_VOID
        self._turn = winner
        if last:
            self._phase = _OVER
        elif not self._known:
            self._method.unknown_turn(self, winner)

    def _take(self, team: int, cards: int) -> None:
        a, b = self._taken
        self._taken = (a | cards, b) if team == 0 else (a, b | cards)

    def _push_other(self, move: Move, undo: _Undo) -> None:
        if self._phase == _OVER:
            raise IllegalMoveError(_OVER_MESSAGE)
        self._method.push_special(self, move)
        self._stack.append(undo)
        self._phase = _PLAY  # a hide or announce move ends its phase; a reveal is in play

    def _not_in_hand(self, card: Card) -> IllegalMoveError:
        """Why ``card`` cannot be played: someone else holds it, or it is face down."""
        if card == self._facedown and not self._known and self._turn == self._chooser:
            return IllegalMoveError(
                f"{card} is face down until the trump is revealed (M-12)", rule_ids=("M-12",)
            )
        return IllegalMoveError(f"{card} is not in seat {self._turn}'s hand")

    def pop(self) -> Move:
        """Undo the last move exactly and return it (``IndexError`` if there is none)."""
        undo = self._stack.pop()
        move = undo.move
        hands = self._hands
        if undo.reveal is not self._reveal:
            # This move turned the face-down card up, into the chooser's hand (M-12).
            hands[self._chooser] ^= 1 << self._facedown
        if move.card is not None:
            # The card played or laid face down goes back to the hand it came from.
            hands[undo.seat] |= 1 << move.card
        if move.kind is _PLAY_KIND:
            self._phase = _PLAY
        elif move.kind is MoveKind.HIDE:
            self._phase = _HIDE
            self._facedown = -1
        elif move.kind is MoveKind.ANNOUNCE:
            self._phase = _ANNOUNCE
        if undo.trick and not self._trick:
            self._tricks.pop()  # this move completed the trick
        self._turn = undo.seat
        self._trump = undo.trump
        self._known = undo.known
        self._reveal = undo.reveal
        self._void = undo.void
        self._trick = undo.trick
        self._led = undo.led
        self._taken = undo.taken
        self._pile = undo.pile
        self._streak_seat = undo.streak_seat
        return move

    def copy(self) -> Deal:
        """An independent copy (with the move stack), for search."""
        other = Deal.__new__(Deal)
        for name in Deal.__slots__:
            setattr(other, name, getattr(self, name))
        other._hands = list(self._hands)
        other._stack = list(self._stack)
        other._tricks = list(self._tricks)
        return other

    # ------------------------------------------------------------------ state

    def is_over(self) -> bool:
        """Whether all tricks have been played."""
        return self._phase == _OVER

    @property
    def phase(self) -> str:
        """``hide`` (band: choose the face-down card), ``announce``, ``play`` or ``over``."""
        return _PHASE_NAMES[self._phase]

    @property
    def turn(self) -> int | None:
        """The seat to move, or None when the deal is over."""
        return None if self._phase == _OVER else self._turn

    @property
    def trump(self) -> Suit | None:
        """The trump suit, known or not (under band hukum the face-down card's suit)."""
        return None if self._trump < 0 else Suit(self._trump)

    @property
    def trump_known(self) -> bool:
        """Whether trump is known to every player."""
        return self._known

    @property
    def face_down(self) -> Card | None:
        """Band hukum: the card laid face down (whether or not it was turned up)."""
        return None if self._facedown < 0 else CARDS[self._facedown]

    @property
    def chooser(self) -> int | None:
        """Band hukum: the seat that lays a card face down."""
        return None if self._chooser < 0 else self._chooser

    @property
    def reveal(self) -> Reveal | None:
        """Band hukum: when the face-down card was turned up."""
        return self._reveal

    @property
    def dealt(self) -> tuple[tuple[Card, ...], ...]:
        """Each seat's cards as dealt, in the order received."""
        return self._dealt

    def hand(self, seat: int) -> CardSet:
        """The cards a seat holds now (not its face-down card while it is hidden)."""
        return CardSet(self._hands[seat])

    @property
    def moves(self) -> list[Move]:
        """Every move made so far, in order."""
        return [u.move for u in self._stack]

    @property
    def history(self) -> list[tuple[int, Move]]:
        """Every move made so far with the seat that made it."""
        return [(u.seat, u.move) for u in self._stack]

    @property
    def trick(self) -> tuple[Played, ...]:
        """The cards of the trick in progress."""
        return self._trick

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The completed tricks."""
        return tuple(Trick(leader, plays, winner) for leader, plays, winner in self._tricks)

    @property
    def tricks_won(self) -> tuple[int, int]:
        """Tricks won by each team so far."""
        a = sum(1 for _, _, w in self._tricks if w & 1 == 0)
        return a, len(self._tricks) - a

    def hand_masks(self) -> tuple[int, ...]:
        """Every seat's hand now as a bitmask of cards (:meth:`hand` as plain ints, for
        search, which asks for them at every move it simulates)."""
        return tuple(self._hands)

    @property
    def captured_masks(self) -> tuple[int, int]:
        """:attr:`captured` as two bitmasks of cards."""
        return self._taken

    @property
    def captured(self) -> tuple[CardSet, CardSet]:
        """The cards each team has captured so far (M-10)."""
        return CardSet(self._taken[0]), CardSet(self._taken[1])

    @property
    def pile(self) -> CardSet:
        """Dehla capture: the cards in the central pile, not yet taken."""
        return CardSet(self._pile)

    def outcome(self) -> Outcome | None:
        """The result (M-16 … M-18), or None while the deal is in progress."""
        if self._phase != _OVER:
            return None
        # Kept with the last move: every view of a finished deal shows its outcome, and a
        # match's score is the sum of its deals' (a server asks for both at each message).
        last = self._stack[-1]
        kept = self._outcome
        if kept is not None and kept[0] is last:
            return kept[1]
        outcome = decide(self.rules, self.tricks, self.captured)
        self._outcome = (last, outcome)
        return outcome

    # ------------------------------------------------------------------ views

    def _public_plays(self) -> _Public:
        """The plays as every player sees them, built once per position for all the views
        of it (a server builds one for each seat told of a move and for each bot)."""
        last = self._stack[-1] if self._stack else None
        public = self._public
        if public is not None and public.last is last and public.moves == len(self._stack):
            return public
        raw = tuple(self._tricks)
        kept = 0
        if public is not None and public.known == self._known:
            for old, new in zip(public.raw, raw, strict=False):
                if old is not new:
                    break
                kept += 1
        built = tuple(Trick(leader, plays, winner) for leader, plays, winner in raw[kept:])
        tricks, trick = self._method.public_plays(self, built, self.trick)
        if kept:
            assert public is not None
            tricks = public.tricks[:kept] + tricks
        played = 0
        for _, plays, _ in raw:
            for p in plays:
                played |= 1 << p[1]
        for p in self._trick:
            played |= 1 << p[1]
        public = _Public(last, len(self._stack), tricks, trick, played, raw, self._known)
        self._public = public
        return public

    def view(self, seat: int) -> View:
        """What ``seat`` may see (M-20): own hand, played cards, public trump, derived facts."""
        if not (isinstance(seat, int) and 0 <= seat < self._n):
            raise ValueError(f"no seat {seat!r}: seats are 0 to {self._n - 1}")
        before_announce = self._phase == _ANNOUNCE
        hand = self._hands[seat]
        sizes = [h.bit_count() for h in self._hands]
        if before_announce:
            # The rest of the pack is dealt only after the announcement (M-15).
            hand = sum(1 << c for c in self._dealt[seat][:5])
            sizes = [5] * self._n
        own_face_down = self._facedown if seat == self._chooser and self._facedown >= 0 else -1
        hidden = own_face_down if not self._known else -1
        trump: Suit | None = None
        if self._known or own_face_down >= 0:
            trump = self.trump
        public = self._public_plays()
        tricks, trick, played = public.tricks, public.trick, public.played
        known = [0] * self._n
        known[seat] = hand
        reveal = self._reveal
        if reveal is not None and not played >> reveal.card & 1:
            known[self._chooser] |= 1 << reveal.card
        seen = played | hand | (1 << hidden if hidden >= 0 else 0)
        for k in known:
            seen |= k
        # Only the chooser has seen the card it laid face down (band hukum, M-12).
        history = public.history(self._stack, self._facedown < 0 or seat == self._chooser)
        my_turn = self._phase != _OVER and self._turn == seat
        return View(
            rules=self.rules,
            seat=seat,
            dealer=self.dealer,
            phase=self.phase,
            turn=self.turn,
            hand=CardSet(hand),
            face_down=CARDS[hidden] if hidden >= 0 else None,
            chooser=self.chooser,
            trump=trump,
            trump_known=self._known,
            shown_card=self.shown_card,
            reveal=reveal,
            trick=trick,
            tricks=tricks,
            hand_sizes=tuple(sizes),
            tricks_won=self.tricks_won,
            tens=(CardSet(self._taken[0] & _TENS), CardSet(self._taken[1] & _TENS)),
            pile=CardSet(self._pile),
            history=history,
            legal_moves=self.legal_moves() if my_turn else (),
            unseen=CardSet(deck(self.rules.deck) & ~seen),
            voids=public.voids(self.rules, trump, reveal),
            known=tuple(CardSet(k) for k in known),
            outcome=self.outcome(),
        )


def _check_dealer(rules: Rules, dealer: object) -> None:
    if isinstance(dealer, bool) or not (isinstance(dealer, int) and 0 <= dealer < rules.players):
        raise ValueError(f"dealer must be a seat from 0 to {rules.players - 1}, not {dealer!r}")


@functools.cache
def _next_seats(rules: Rules) -> tuple[int, ...]:
    return tuple(rules.next_seat(s) for s in range(rules.players))


def _as_card(card: Card | int | str) -> Card:
    if isinstance(card, str):
        return Card.parse(card)
    if not deck(52) >> card & 1:
        raise ValueError(f"not a card: {card!r}")
    return CARDS[card]
