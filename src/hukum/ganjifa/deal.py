"""One deal of Dashavatara Ganjifa: the deal (G-4), the opening (G-6), tricks (G-7, G-8),
Dukals (G-9) and the score (G-10).

>>> from hukum.ganjifa import Deal, Rules
>>> deal = Deal.new(Rules(), dealer=0, seed=7)
>>> deal.turn, deal.legal_moves()            # the holder of Rama's Raja leads it (G-6)
(0, (Move.parse('RaR'),))
>>> while not deal.is_over():
...     deal.push(deal.legal_moves()[0])
>>> deal.outcome()
Outcome(scores=(57, 27, 36), winners=(0,))
>>> deal.pop()                               # exact undo, for search
Move.parse('BuR')

Answering a Dukal of k cards means choosing any k cards of one's hand (G-9), up to
C(39, 19) ways; ``legal_moves()`` then returns an :class:`Answers` sequence that counts,
indexes and tests its moves without listing them.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterator, Sequence
from typing import overload

from hukum.ganjifa.cards import CARDS, DECK, SUIT_MASKS, Card, CardSet, Suit, bits
from hukum.ganjifa.dukal import DESCRIPTIONS, contained, is_dukal
from hukum.ganjifa.move import PLAY_MOVES, IllegalMoveError, Move, MoveKind
from hukum.ganjifa.outcome import Outcome
from hukum.ganjifa.rules import PLAYERS, Rules
from hukum.ganjifa.trick import Played, Trick, allowed, next_held_suit, winner
from hukum.ganjifa.view import View, shown_voids

__all__ = ["HAND_SIZE", "Answers", "Deal", "deal_hands"]

#: Cards dealt to each player (G-4).
HAND_SIZE = 40

_LEAD, _FOLLOW, _ANSWER, _OVER = 0, 1, 2, 3
_PHASE_NAMES = ("lead", "follow", "answer", "over")
_OVER_MESSAGE = "the deal is over"
_PLAY, _DUKAL, _GIVE = MoveKind.PLAY, MoveKind.DUKAL, MoveKind.GIVE
_Trick = tuple[tuple[int, Move], ...]
_Snapshot = tuple[tuple[int, ...], int, int, _Trick, int, tuple[int, int, int], int]


def _refused(message: str, rule_ids: tuple[str, ...] = ()) -> IllegalMoveError:
    """The error refusing a move: its message and the ids of the rules it names."""
    return IllegalMoveError(message, rule_ids=rule_ids)


def _suit_plays() -> tuple[tuple[Move, ...], ...]:
    """The play moves of every 12-bit holding of suit 0, lowest card first."""
    table: list[tuple[Move, ...]] = [()] * 4096
    for m in range(1, 4096):
        top = m.bit_length() - 1
        table[m] = (*table[m ^ (1 << top)], PLAY_MOVES[top])
    return tuple(table)


_SUIT0 = _suit_plays()
_SHIFTED: dict[tuple[int, int], tuple[Move, ...]] = {}


def _plays_of_suit(suit: int, holding: int) -> tuple[Move, ...]:
    key = (suit, holding)
    moves = _SHIFTED.get(key)
    if moves is None:
        base = suit * 12
        moves = tuple(PLAY_MOVES[base + m.card] for m in _SUIT0[holding])
        _SHIFTED[key] = moves
    return moves


def _plays(hand: int) -> tuple[Move, ...]:
    out: tuple[Move, ...] = ()
    for s in range(10):
        h = hand >> (12 * s) & 0xFFF
        if h:
            out += _plays_of_suit(s, h)
    return out


_DUKAL_MOVES: dict[int, Move] = {}


def _dukal_move(mask: int) -> Move:
    move = _DUKAL_MOVES.get(mask)
    if move is None:
        move = _DUKAL_MOVES[mask] = Move(_DUKAL, mask)
    return move


def deal_hands(dealer: int, seed: int) -> tuple[tuple[Card, ...], ...]:
    """Shuffle (Fisher–Yates from ``seed``) and deal anticlockwise in packets of four,
    starting with the player after the dealer (G-4): each seat's cards in the order dealt."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"a seed is an int, not {type(seed).__name__}")
    _check_dealer(dealer)
    cards = list(CARDS)
    random.Random(seed).shuffle(cards)
    hands: list[list[Card]] = [[] for _ in range(PLAYERS)]
    pos = 0
    for _round in range(HAND_SIZE // 4):
        seat = dealer
        for _ in range(PLAYERS):
            seat = Rules.next_seat(seat)
            hands[seat] += cards[pos : pos + 4]
            pos += 4
    return tuple(tuple(h) for h in hands)


class Answers(Sequence[Move]):
    """Every answer to a Dukal of ``k`` cards from ``hand``: any k of its cards (G-9).

    A sequence in a fixed order (combinations of the hand's cards in card order) that is
    never listed: ``len``, indexing and ``in`` cost little, so a random pick is uniform."""

    __slots__ = ("_cards", "hand", "k")

    def __init__(self, hand: int, k: int) -> None:
        self.hand = hand
        self.k = k
        self._cards = tuple(bits(hand))

    def __len__(self) -> int:
        return math.comb(len(self._cards), self.k)

    @overload
    def __getitem__(self, index: int) -> Move: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Move]: ...
    def __getitem__(self, index: int | slice) -> Move | Sequence[Move]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        size = len(self)
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError("answer index out of range")
        # Unrank the index-th k-combination in lexicographic order.
        n, k, mask, start = len(self._cards), self.k, 0, 0
        for left in range(k, 0, -1):
            for i in range(start, n):
                count = math.comb(n - i - 1, left - 1)
                if index < count:
                    mask |= 1 << self._cards[i]
                    start = i + 1
                    break
                index -= count
        return Move(_GIVE, mask)

    def __contains__(self, move: object) -> bool:
        return (
            isinstance(move, Move)
            and move.kind is _GIVE
            and move.mask & ~self.hand == 0
            and move.mask.bit_count() == self.k
        )

    def __iter__(self) -> Iterator[Move]:
        for combo in itertools.combinations(self._cards, self.k):
            yield Move(_GIVE, sum(1 << c for c in combo))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Answers) and (other.hand, other.k) == (self.hand, self.k)

    def __hash__(self) -> int:
        return hash((self.hand, self.k))

    def __repr__(self) -> str:
        return f"<Answers: any {self.k} of {len(self._cards)} cards, {len(self)} moves>"


class Deal:
    """The full state of one deal: every hand, the trick, captures and the move stack.

    A deal is the referee's object; players get :meth:`view`. ``push`` checks every move and
    raises :class:`IllegalMoveError` (changing nothing) if the rules forbid it.
    """

    __slots__ = (
        "_dealt",
        "_dukal",
        "_first",
        "_hands",
        "_k",
        "_leader",
        "_phase",
        "_stack",
        "_taken",
        "_trick",
        "_tricks",
        "_trump",
        "_turn",
        "_void_rule",
        "dealer",
        "rules",
        "seed",
    )

    rules: Rules
    dealer: int
    seed: int | None

    def __init__(
        self,
        rules: Rules,
        dealer: int,
        hands: Sequence[Sequence[Card | int | str] | str],
        *,
        seed: int | None = None,
    ) -> None:
        """A deal from the hands as dealt (each seat's 40 cards; a hand may also be one
        string of cards, e.g. ``"Ma1 Ma2 RaR …"``)."""
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules object, not {type(rules).__name__}")
        _check_dealer(dealer)
        if len(hands) != PLAYERS:
            raise ValueError(f"expected {PLAYERS} hands, got {len(hands)}")
        parsed = tuple(
            tuple(
                _as_card(c)
                for c in (hand.replace(",", " ").split() if isinstance(hand, str) else hand)
            )
            for hand in hands
        )
        seen = 0
        for seat, hand in enumerate(parsed):
            if len(hand) != HAND_SIZE:
                raise ValueError(f"seat {seat} has {len(hand)} cards; each player gets 40")
            for c in hand:
                if seen >> c & 1:
                    raise ValueError(f"{c} is dealt twice")
                seen |= 1 << c
        self._setup(rules, dealer, parsed, seed)

    def _setup(
        self, rules: Rules, dealer: int, hands: tuple[tuple[Card, ...], ...], seed: int | None
    ) -> None:
        self.rules = rules
        self.dealer = dealer
        self.seed = seed
        self._dealt = hands
        self._hands = [sum(1 << c for c in hand) for hand in hands]
        self._trump = int(rules.trump)
        self._void_rule = rules.void_rule
        self._dukal = rules.dukal
        raja = self._trump * 12 + 11
        self._first = PLAY_MOVES[raja]
        self._turn = next(s for s in range(PLAYERS) if self._hands[s] >> raja & 1)
        self._leader = self._turn
        self._phase = _LEAD
        self._trick: tuple[tuple[int, Move], ...] = ()
        self._k = 0
        self._taken = (0, 0, 0)
        self._tricks: list[Trick] = []
        self._stack: list[tuple[Move, int, _Snapshot]] = []

    @classmethod
    def new(cls, rules: Rules, dealer: int, seed: int) -> Deal:
        """Shuffle and deal from ``seed`` (G-4); the same seed always gives the same deal."""
        hands = deal_hands(dealer, seed)
        deal = cls.__new__(cls)
        deal._setup(rules, dealer, hands, seed)
        return deal

    # ------------------------------------------------------------------ moves

    def legal_moves(self) -> Sequence[Move]:
        """The moves the player to move may make now (empty when the deal is over): a tuple
        of plays and Dukals, or, to answer a Dukal, an :class:`Answers` sequence."""
        phase = self._phase
        hand = self._hands[self._turn]
        if phase == _FOLLOW:
            led = self._trick[0][1].card // 12
            return _plays(allowed(hand, led, self._trump, self._void_rule))
        if phase == _LEAD:
            if not self._tricks:
                return (self._first,)  # G-6: the trump Raja, alone
            return _plays(hand) + self.dukals()
        if phase == _ANSWER:
            return Answers(hand, self._k)
        return ()

    def dukals(self) -> tuple[Move, ...]:
        """The Dukals the player to move could lead now (G-9), shortest first per suit."""
        if self._phase != _LEAD or not self._tricks:
            return ()
        hand = self._hands[self._turn]
        limit = min(h.bit_count() for h in self._hands)
        out: list[Move] = []
        option = self._dukal
        for s in range(10):
            h = hand >> (12 * s) & 0xFFF
            if h.bit_count() >= 2:
                for p in contained(option, h):
                    if p.bit_count() <= limit:
                        out.append(_dukal_move(p << (12 * s)))
        return tuple(out)

    def allowed_cards(self) -> int:
        """The mask of the cards the player to move may put down now (for an answer: the
        whole hand, any ``answer_size`` of them)."""
        phase = self._phase
        hand = self._hands[self._turn]
        if phase == _FOLLOW:
            return allowed(hand, self._trick[0][1].card // 12, self._trump, self._void_rule)
        if phase == _LEAD and not self._tricks:
            return self._first.mask
        return hand if phase != _OVER else 0

    @property
    def answer_size(self) -> int:
        """While a Dukal is being answered, its size k; else 0."""
        return self._k if self._phase == _ANSWER else 0

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal now."""
        return self._refusal(move, None) is None

    def check(self, move: Move, seat: int | None = None) -> None:
        """Raise :class:`IllegalMoveError` with the reason if ``push(move, seat)`` would;
        the deal is not changed either way."""
        refusal = self._refusal(move, seat)
        if refusal is not None:
            raise refusal

    def _refusal(self, move: Move, seat: int | None) -> IllegalMoveError | None:
        """Why ``move`` (by ``seat``) is not allowed now (the error naming the rule, raised
        by :meth:`check` and :meth:`push`), or None if it is."""
        if not isinstance(move, Move):
            raise TypeError(
                f"push() takes a Move, e.g. Move.parse('Ma1'), not {type(move).__name__}"
            )
        phase = self._phase
        turn = self._turn
        if phase == _OVER:
            return _refused(_OVER_MESSAGE)
        if seat is not None and seat != turn:
            return _refused(f"not your turn: seat {turn} is to move (G-8, G-9)", ("G-8", "G-9"))
        hand = self._hands[turn]
        kind = move.kind
        mask = move.mask
        missing = mask & ~hand
        if missing:
            return _refused(
                f"{CARDS[(missing & -missing).bit_length() - 1]} is not in seat {turn}'s hand"
            )
        if phase == _ANSWER:
            if kind is not _GIVE:
                return _refused(
                    f"seat {turn} must give up {self._k} cards to the Dukal (G-9)", ("G-9",)
                )
            if mask.bit_count() != self._k:
                return _refused(
                    f"seat {turn} must give up exactly {self._k} cards to the Dukal, "
                    f"not {mask.bit_count()} (G-9)",
                    ("G-9",),
                )
            return None
        if kind is _GIVE:
            return _refused(
                "there is no Dukal to answer: give is only an answer to a Dukal (G-9)", ("G-9",)
            )
        if phase == _FOLLOW:
            if kind is _DUKAL:
                return _refused(
                    "a Dukal is led only by the player who leads the trick (G-9)", ("G-9",)
                )
            return self._follow_refusal(hand, CARDS[mask.bit_length() - 1])
        if not self._tricks:
            raja = self._first.card
            if kind is _DUKAL:
                return _refused(
                    f"a Dukal may not open the deal: lead the {raja.name} alone (G-6, G-9)",
                    ("G-6", "G-9"),
                )
            if move is not self._first:
                return _refused(
                    f"the opening trick is led with the {raja.name} alone (G-6)", ("G-6",)
                )
            return None
        if kind is _DUKAL:
            first = (mask & -mask).bit_length() - 1
            suit = first // 12
            holding = mask >> (12 * suit)
            if holding >> 12:
                return _refused("a Dukal is of one suit (G-9)", ("G-9",))
            if not is_dukal(self._dukal, holding):
                return _refused(
                    f"not a Dukal: a Dukal is {DESCRIPTIONS[self._dukal]} (G-9)", ("G-9",)
                )
            limit = min(h.bit_count() for h in self._hands)
            if mask.bit_count() > limit:
                return _refused(
                    f"a Dukal may not have more cards than any hand holds ({limit}) (G-9)", ("G-9",)
                )
        return None

    def _follow_refusal(self, hand: int, card: Card) -> IllegalMoveError | None:
        led = self._trick[0][1].card // 12
        if allowed(hand, led, self._trump, self._void_rule) >> card & 1:
            return None
        turn = self._turn
        led_name = Suit(led).avatar
        if hand & SUIT_MASKS[led]:
            return _refused(f"seat {turn} must follow {led_name} (G-7)", ("G-7",))
        trump = Suit(self._trump).avatar
        s = Suit(next_held_suit(hand, led)).avatar
        if self._void_rule == "trump_first" and hand & SUIT_MASKS[self._trump]:
            return _refused(
                f"seat {turn} holds no {led_name} and must play a trump ({trump}) "
                "(G-7, void_rule=trump_first)",
                ("G-7",),
            )
        return _refused(
            f"seat {turn} holds no {led_name}: play a trump ({trump}) or a card of {s}, "
            f"the first suit after {led_name} in the hand (G-7)",
            ("G-7",),
        )

    def push(self, move: Move, seat: int | None = None) -> None:
        """Make a move; with ``seat``, also check that it is that seat's turn.

        Raises :class:`IllegalMoveError` naming the rule, and changes nothing, if the move is
        not allowed now.
        """
        refusal = self._refusal(move, seat)
        if refusal is not None:
            raise refusal
        self._apply(move)

    def _apply(self, move: Move) -> None:
        turn = self._turn
        hands = self._hands
        trick = self._trick
        self._stack.append(
            (
                move,
                turn,
                (tuple(hands), self._phase, turn, trick, self._k, self._taken, len(self._tricks)),
            )
        )
        hands[turn] ^= move.mask
        trick = (*trick, (turn, move))
        if len(trick) < PLAYERS:
            if self._phase == _LEAD:
                self._leader = turn
                if move.kind is _DUKAL:
                    self._phase = _ANSWER
                    self._k = move.mask.bit_count()
                else:
                    self._phase = _FOLLOW
            self._trick = trick
            self._turn = (turn + 1) % PLAYERS
            return
        if self._phase == _ANSWER:
            won = trick[0][0]
        else:
            won = winner(tuple((s, m.card) for s, m in trick), self._trump)
        cards = trick[0][1].mask | trick[1][1].mask | trick[2][1].mask
        taken = list(self._taken)
        taken[won] |= cards
        self._taken = (taken[0], taken[1], taken[2])
        self._tricks.append(Trick(trick[0][0], tuple(Played(s, m) for s, m in trick), won))
        self._trick = ()
        self._k = 0
        self._turn = won
        self._phase = _LEAD if hands[won] else _OVER

    def pop(self) -> Move:
        """Undo the last move exactly and return it (``IndexError`` if there is none)."""
        move, _, snap = self._stack.pop()
        hands, self._phase, self._turn, self._trick, self._k, self._taken, ntricks = snap
        self._hands = list(hands)
        self._leader = self._trick[0][0] if self._trick else self._turn
        del self._tricks[ntricks:]
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
        """Whether the hands are empty (G-10)."""
        return self._phase == _OVER

    @property
    def phase(self) -> str:
        """``lead``, ``follow`` (a card to the trick), ``answer`` (k cards to a Dukal) or
        ``over``."""
        return _PHASE_NAMES[self._phase]

    @property
    def turn(self) -> int | None:
        """The seat to move, or None when the deal is over."""
        return None if self._phase == _OVER else self._turn

    @property
    def trump(self) -> Suit:
        """The trump suit (G-5)."""
        return Suit(self._trump)

    @property
    def dealt(self) -> tuple[tuple[Card, ...], ...]:
        """Each seat's cards as dealt, in the order received."""
        return self._dealt

    def hand(self, seat: int) -> int:
        """The mask of the cards a seat holds now."""
        return self._hands[seat]

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each seat holds."""
        return tuple(h.bit_count() for h in self._hands)

    @property
    def moves(self) -> list[Move]:
        """Every move made so far, in order."""
        return [m for m, _, _ in self._stack]

    @property
    def history(self) -> list[tuple[int, Move]]:
        """Every move made so far with the seat that made it."""
        return [(s, m) for m, s, _ in self._stack]

    @property
    def trick(self) -> tuple[Played, ...]:
        """The moves of the trick (or Dukal) in progress."""
        return tuple(Played(s, m) for s, m in self._trick)

    @property
    def trick_moves(self) -> tuple[tuple[int, Move], ...]:
        """The trick in progress as ``(seat, move)`` pairs (cheaper than :attr:`trick`)."""
        return self._trick

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The completed tricks (a Dukal with its answers counts as one)."""
        return tuple(self._tricks)

    @property
    def captured(self) -> tuple[int, ...]:
        """The mask of the cards each seat has captured so far."""
        return self._taken

    @property
    def scores(self) -> tuple[int, int, int]:
        """Cards captured by each seat so far (G-10)."""
        a, b, c = (t.bit_count() for t in self._taken)
        return a, b, c

    def outcome(self) -> Outcome | None:
        """The result (G-10), or None while the deal is in progress."""
        return Outcome.of(self.scores) if self._phase == _OVER else None

    # ------------------------------------------------------------------ views

    def view(self, seat: int) -> View:
        """What ``seat`` may see (G-11): own hand, every move and who made it, scores, hand
        sizes, whose turn and what decision; nothing of another hand."""
        if isinstance(seat, bool) or not (isinstance(seat, int) and 0 <= seat < PLAYERS):
            raise ValueError(f"no seat {seat!r}: seats are 0 to {PLAYERS - 1}")
        hand = self._hands[seat]
        played = 0
        for t in self._taken:
            played |= t
        for _, m in self._trick:
            played |= m.mask
        tricks = tuple(self._tricks)
        trick = self.trick
        my_turn = self._phase != _OVER and self._turn == seat
        return View(
            rules=self.rules,
            seat=seat,
            dealer=self.dealer,
            phase=self.phase,
            turn=self.turn,
            hand=CardSet(hand),
            trump=self.trump,
            trick=trick,
            dukal=self._k,
            tricks=tricks,
            hand_sizes=self.hand_sizes,
            scores=self.scores,
            captured=tuple(CardSet(t) for t in self._taken),
            history=tuple((s, m) for m, s, _ in self._stack),
            legal_moves=self.legal_moves() if my_turn else (),
            allowed=CardSet(self.allowed_cards() if my_turn else 0),
            unseen=CardSet(DECK & ~played & ~hand),
            voids=shown_voids(tricks, trick, self._trump, self._void_rule),
            outcome=self.outcome(),
        )


def _check_dealer(dealer: object) -> None:
    if isinstance(dealer, bool) or not (isinstance(dealer, int) and 0 <= dealer < PLAYERS):
        raise ValueError(f"dealer must be a seat from 0 to {PLAYERS - 1}, not {dealer!r}")


def _as_card(card: Card | int | str) -> Card:
    if isinstance(card, str):
        return Card.parse(card)
    if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < 120:
        raise ValueError(f"not a card: {card!r}")
    return CARDS[card]
