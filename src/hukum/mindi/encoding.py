"""Mindi for learning programs (:mod:`hukum.encoding`): 109 actions and a 0/1 observation.

**Actions** (the same 109 under every option; a 48-card pack never uses the 2s):

- ``0 … 51``: play a card, ``13 * suit + rank - 2`` (suits ♣ ♦ ♥ ♠; ``2C`` is 0, ``AS`` 51);
- ``52 … 103``: band hukum, lay that card face down as the hidden trump (M-12);
- ``104``: ask for the face-down card to be turned up (M-12, ``reveal=on_request``);
- ``105 … 108``: announce ♣ ♦ ♥ ♠ as trump (M-15).

**Observation** (seats counted from the observer, teams from the observer's team; cards as
52 bits in the order of the actions; counts one-hot): see :attr:`MindiEncoding.segments`.

>>> from hukum.mindi import Deal, Rules
>>> enc = MindiEncoding(Rules())
>>> enc.actions, enc.observation_size, enc.action_text(51), enc.action_text(104)
(109, 758, 'play AS', 'reveal')
>>> deal = Deal.new(Rules(), dealer=0, seed=1)
>>> obs = enc.observe(deal.view(1))
>>> enc.segment(obs, "turn").tolist(), int(enc.segment(obs, "hand").sum())
([1, 0, 0, 0], 13)
>>> move = deal.legal_moves()[0]
>>> enc.encode(move), enc.decode(deal.legal_moves(), (), enc.encode(move)[0]) is move
([1], True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from hukum.cards import CARDS, Card, Suit, bits, deck
from hukum.encoding import Encoding, RewardKind, Segment, Tracker, from_bits, one_hot
from hukum.mindi.deal import Deal
from hukum.mindi.move import HIDE_MOVES, PLAY_MOVES, Move, MoveKind
from hukum.mindi.rules import Rules
from hukum.mindi.trump import METHODS, Reveal
from hukum.mindi.view import View

__all__ = ["MindiEncoding"]

_PHASES = ("hide", "announce", "play", "over")
_HIDE, _REVEAL, _ANNOUNCE = 52, 104, 105
_MOST = 14  # one-hot counts 0 … 13
_TEN = 8  # rank 10 is bit 8 of a suit's 16


def _c52(mask: int) -> int:
    """A 64-bit card mask (16 bits a suit) as 52 bits (13 a suit)."""
    return (
        (mask & 0x1FFF)
        | (mask >> 3 & 0x1FFF << 13)
        | (mask >> 6 & 0x1FFF << 26)
        | (mask >> 9 & 0x1FFF << 39)
    )


def _tens(mask: int) -> int:
    """The tens of a 64-bit card mask as 4 bits, one a suit."""
    return sum(1 << s for s in range(4) if mask >> (16 * s + _TEN) & 1)


def _index(card: int) -> int:
    return (card >> 4) * 13 + (card & 15)


_CARD_OF = {_index(c): c for c in range(64) if c & 15 < 13}
_ACTION_BITS: dict[int, int] = {}  # id(interned move) -> its action as a bit
for _c, _m in enumerate(PLAY_MOVES):
    if _m is not None:
        _ACTION_BITS[id(_m)] = 1 << _index(_c)
for _c, _m in enumerate(HIDE_MOVES):
    if _m is not None:
        _ACTION_BITS[id(_m)] = 1 << (_HIDE + _index(_c))
_ACTION_BITS[id(Move.REVEAL_TRUMP)] = 1 << _REVEAL
for _s in Suit:
    _ACTION_BITS[id(Move.announce(_s))] = 1 << (_ANNOUNCE + _s)
_MOVES: dict[int, Move] = {}  # action -> its interned move
for _m in (*PLAY_MOVES, *HIDE_MOVES, Move.REVEAL_TRUMP, *(Move.announce(s) for s in Suit)):
    if _m is not None:
        _MOVES[_ACTION_BITS[id(_m)].bit_length() - 1] = _m


class MindiEncoding(Encoding[View, Move, Deal]):
    """Actions, observations and rewards of Mindi under ``rules``."""

    game = "mindi"
    actions = 109

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.pack = tuple(bits(deck(rules.deck)))
        self.hand_size = rules.hand_size
        self.shows_card = METHODS[rules.trump].shows_card
        n = self.players = rules.players
        self.segments: tuple[Segment, ...] = (
            ("hand", (52,)),  # the observer's cards
            ("face_down", (52,)),  # band hukum: the observer's own face-down card while hidden
            ("shown_card", (52,)),  # open hukum: the card shown to all (M-14)
            ("pile", (52,)),  # dehla capture: the cards in the pile, not yet taken (M-10)
            ("played", (n, 52)),  # every card each seat has played, the trick in progress too
            ("trick", (n, 52)),  # the trick in progress, by seat
            ("voids", (n, 4)),  # suits each seat has shown it holds no more of
            ("trump", (4,)),  # the trump suit if the observer knows it
            ("trump_known", (1,)),  # whether everyone knows it
            ("revealed", (1,)),  # band hukum: the face-down card has been turned up
            ("phase", (4,)),  # hide, announce, play, over
            ("turn", (n,)),  # the seat to move
            ("leader", (n,)),  # the seat that led the trick in progress
            ("chooser", (n,)),  # band hukum: the seat that lays the card face down
            ("dealer", (n,)),
            ("tens", (2, 4)),  # tens captured by the observer's team, then the other, by suit
            ("tricks_won", (2, _MOST)),  # tricks won by each team, one-hot
            ("hand_sizes", (n, _MOST)),  # cards in each hand, one-hot
        )

    def card_index(self, card: int) -> int:
        return _index(card)

    # ------------------------------------------------------------------ actions

    def action_text(self, action: int) -> str:
        if not 0 <= action < self.actions:
            return "no such action"
        if action < _HIDE:
            return f"play {CARDS[_CARD_OF[action]].code}"
        if action < _REVEAL:
            return f"hide {CARDS[_CARD_OF[action - _HIDE]].code}"
        if action == _REVEAL:
            return "reveal"
        return f"announce {Suit(action - _ANNOUNCE).letter}"

    def action_mask(self, legal: Sequence[Move], pending: Sequence[int] = ()) -> int:
        mask = 0
        for move in legal:
            mask |= _ACTION_BITS[id(move)]
        return mask

    def decode(self, legal: Sequence[Move], pending: Sequence[int], action: int) -> Move | None:
        move = _MOVES.get(action) if type(action) is int else None
        for m in legal:
            if m is move:
                return move
        raise self.refuse(legal, pending, action)

    def encode(self, move: Move) -> list[int]:
        bit = _ACTION_BITS.get(id(move))
        if bit is None:
            raise ValueError(f"{move} is not a move a player makes")
        return [bit.bit_length() - 1]

    # ------------------------------------------------------------------ observations

    def observe(self, view: View, pending: Sequence[int] = ()) -> npt.NDArray[np.int8]:
        """The observation from the view alone, each part at its segment's place (the
        reference the tracker is tested against)."""
        n = self.players
        seat = view.seat
        order = [(seat + r) % n for r in range(n)]
        played = [0] * n
        for t in view.tricks:
            for p in t.plays:
                played[p.seat] |= 1 << p.card
        trick = [0] * n
        for p in view.trick:
            trick[p.seat] |= 1 << p.card
            played[p.seat] |= 1 << p.card
        team = seat & 1
        leader = view.trick[0].seat if view.trick else None

        def rel(s: int | None) -> int:
            return one_hot(None if s is None else (s - seat) % n, n)

        def rows(values: Sequence[int], width: int) -> int:
            return sum(v << (width * i) for i, v in enumerate(values))

        def card(c: Card | None) -> int:
            return 0 if c is None else _c52(1 << c)

        parts = {
            "hand": _c52(view.hand.mask),
            "face_down": card(view.face_down),
            "shown_card": card(view.shown_card),
            "pile": _c52(view.pile.mask),
            "played": rows([_c52(played[s]) for s in order], 52),
            "trick": rows([_c52(trick[s]) for s in order], 52),
            "voids": rows([sum(1 << v for v in view.voids[s]) for s in order], 4),
            "trump": one_hot(view.trump, 4),
            "trump_known": int(view.trump_known),
            "revealed": int(view.reveal is not None),
            "phase": 1 << _PHASES.index(view.phase),
            "turn": rel(view.turn),
            "leader": rel(leader),
            "chooser": rel(view.chooser),
            "dealer": rel(view.dealer),
            "tens": rows([_tens(view.tens[team].mask), _tens(view.tens[1 - team].mask)], 4),
            "tricks_won": rows([1 << view.tricks_won[team], 1 << view.tricks_won[1 - team]], _MOST),
            "hand_sizes": rows([1 << view.hand_sizes[s] for s in order], _MOST),
        }
        value = sum(part << self.offsets[name] for name, part in parts.items())
        return from_bits(value, self.observation_size)

    def tracker(self, deal: Deal) -> MindiTracker:
        return MindiTracker.following(self, deal)

    # ------------------------------------------------------------------ rewards

    def rewards(self, deal: Deal, kind: RewardKind = "win") -> tuple[float, ...]:
        outcome = deal.outcome()
        if outcome is None:
            raise ValueError("the deal is not over")
        won = float(outcome.points) if kind == "points" else 1.0
        return tuple(won if s & 1 == outcome.winner else -won for s in range(self.players))

    def reward_range(self, kind: RewardKind = "win") -> tuple[float, float]:
        most = float(max(self.rules.points)) if kind == "points" else 1.0
        return -most, most


class MindiTracker(Tracker[Move]):
    """Observations of a Mindi deal in progress, kept up to date move by move: the same
    arrays as :meth:`MindiEncoding.observe` of each seat's view (the tests check it on
    every seat of every position of many deals), without building views.

    What every seat sees alike is kept in one array with the seats in seat order and the
    teams in team order; a seat's observation is that array with its seats and teams turned
    to start at its own (one gather), then its own hand, face-down card, trump and shown
    voids written in."""

    def __init__(self, encoding: MindiEncoding, deal: Deal, _from: MindiTracker | None = None):
        self.encoding = encoding
        self.deal = deal
        self._at, self._gather = _layout(encoding)
        n = encoding.players
        self._public: npt.NDArray[np.int8] = np.zeros(encoding.observation_size, np.int8)
        self._hands = [np.zeros(52, np.int8) for _ in range(n)]  # each seat's, as last seen
        self._masks = [0] * n  # the hands those rows show
        self._showing = _Shown(None, None, None, None, None)  # what the public array shows
        self._sizes: list[int | None] = [None] * n
        self._voids = [0] * n  # suits each seat has shown it lacks (4-bit masks)
        # (trick, position) from which everyone knows trump (M-8 must_trump binds from there)
        self._public_from: tuple[int, int] | None = None
        if _from is not None:
            self._public[:] = _from._public
            self._hands = [h.copy() for h in _from._hands]
            self._masks = list(_from._masks)
            self._showing = _from._showing
            self._sizes = list(_from._sizes)
            self._voids = list(_from._voids)
            self._public_from = _from._public_from
            return
        assert not deal._stack, "MindiTracker.following(...) follows a deal begun already"
        at = self._at
        shown = deal.shown_card
        if shown is not None:
            self._public[at["shown_card"] + _index(shown)] = 1
        self._one(at["dealer"], None, deal.dealer)
        self._one(at["chooser"], None, deal.chooser)
        self._tricks_done()
        self._sync()

    @classmethod
    def following(cls, encoding: MindiEncoding, deal: Deal) -> MindiTracker:
        """A tracker of ``deal``, from its start or from the middle (the moves made so far
        followed on a copy)."""
        if not deal._stack:
            return cls(encoding, deal)
        start = deal.copy()
        moves = []
        while start._stack:
            seat = start._stack[-1].seat
            moves.append((seat, start.pop()))
        replay = cls(encoding, start)
        for seat, move in reversed(moves):
            start.push(move, seat=seat)
            replay.pushed()
        return cls(encoding, deal, replay)

    def copy(self, deal: object) -> MindiTracker:
        assert isinstance(deal, Deal)
        return MindiTracker(self.encoding, deal, self)

    def _one(self, at: int, old: int | None, new: int | None) -> None:
        """Move a one-hot bit of the public array from ``old`` to ``new``."""
        if old is not None:
            self._public[at + old] = 0
        if new is not None:
            self._public[at + new] = 1

    def pushed(self) -> None:
        undo = self.deal._stack[-1]
        self._note(undo.seat, undo.move)
        self._sync()

    def _note(self, seat: int, move: Move) -> None:
        """The public array after a card is played (the rest is _sync's)."""
        if move.kind is not MoveKind.PLAY:
            return
        card = move.card
        assert card is not None
        deal = self.deal
        at = self._at
        i = seat * 52 + _index(card)
        public = self._public
        public[at["played"] + i] = 1
        if deal._trick:
            public[at["trick"] + i] = 1
            number, position = len(deal._tricks), len(deal._trick) - 1
            led = deal._trick[0][1] >> 4
        else:
            start = at["trick"]
            public[start : start + self.encoding.players * 52] = 0
            self._tricks_done()
            number, position = len(deal._tricks) - 1, len(deal._tricks[-1][1]) - 1
            led = deal._tricks[-1][1][0][1] >> 4
        if position:
            self._shown(seat, number, position, led, card >> 4)

    def _shown(self, seat: int, number: int, position: int, led: int, suit: int) -> None:
        """The voids a card of ``suit`` played to a trick led in ``led`` shows, as
        :func:`hukum.mindi.view.shown_voids` works them out from the whole play."""
        deal = self.deal
        if self._public_from is None and deal._known:
            plays = [list(t[1]) for t in deal._tricks]
            if deal._trick:
                plays.append(list(deal._trick))
            self._public_from = deal._method.public_from(plays, deal._reveal)
        reveal = deal._reveal
        at_reveal = reveal is not None and (reveal.trick, reveal.position) == (number, position)
        voids = 0
        if at_reveal or suit != led:
            voids = 1 << led
        if suit != led:
            public = self._public_from
            obliged = (at_reveal and reveal is not None and reveal.asked) or (
                deal._must_trump and public is not None and (number, position) >= public
            )
            if obliged and suit != deal._trump:
                voids |= 1 << deal._trump
        self._void(seat, voids)

    def _void(self, seat: int, suits: int) -> None:
        """Add suits to those ``seat`` has shown it lacks."""
        voids = self._voids[seat] | suits
        if voids != self._voids[seat]:
            self._voids[seat] = voids
            start = self._at["voids"] + 4 * seat
            for s in range(4):
                self._public[start + s] = voids >> s & 1

    def _tricks_done(self) -> None:
        """The public array after a trick: tricks won, tens, the dehla pile."""
        deal = self.deal
        at = self._at
        public = self._public
        won0 = sum(1 for _, _, w in deal._tricks if w & 1 == 0)
        start = at["tricks_won"]
        public[start : start + 2 * _MOST] = 0
        public[start + won0] = 1
        public[start + _MOST + len(deal._tricks) - won0] = 1
        start = at["tens"]
        for team in (0, 1):
            tens = _tens(deal._taken[team])
            for s in range(4):
                public[start + 4 * team + s] = tens >> s & 1
        start = at["pile"]
        public[start : start + 52] = 0
        for c in bits(deal._pile):
            public[start + _index(c)] = 1

    def _sync(self) -> None:
        """Bring the small public parts up to date: phase, turn, leader, trump known, the
        reveal, hand sizes."""
        deal = self.deal
        at = self._at
        shown = self._showing
        phase = deal._phase
        turn = None if phase == 3 else deal._turn
        trick = deal._trick
        leader = trick[0][0] if trick else None
        reveal = deal._reveal
        if phase != shown.phase:
            self._one(at["phase"], shown.phase, phase)
        if turn != shown.turn:
            self._one(at["turn"], shown.turn, turn)
        if leader != shown.leader:
            self._one(at["leader"], shown.leader, leader)
        if deal._known is not shown.known or reveal is not shown.reveal:
            self._public[at["trump_known"]] = deal._known
            self._public[at["revealed"]] = reveal is not None
            if (
                reveal is not None
                and trick
                and (reveal.trick, reveal.position) == (len(deal._tricks), len(trick))
            ):
                # Turned up at the turn of the player to move: a void shown already.
                self._void(reveal.seat, 1 << (trick[0][1] >> 4))
        self._showing = _Shown(phase, turn, leader, deal._known, reveal)
        start = at["hand_sizes"]
        for seat, hand in enumerate(deal._hands):
            size = 5 if phase == 1 else hand.bit_count()
            old = self._sizes[seat]
            if size != old:
                self._one(start + seat * _MOST, old, size)
                self._sizes[seat] = size

    def observe(self, seat: int, pending: Sequence[int] = ()) -> npt.NDArray[np.int8]:
        deal = self.deal
        at = self._at
        obs: npt.NDArray[np.int8] = self._public.take(self._gather[seat])
        hand = sum(1 << c for c in deal._dealt[seat][:5]) if deal._phase == 1 else deal._hands[seat]
        row = self._hands[seat]
        changed = hand ^ self._masks[seat]
        if changed:
            for c in bits(changed):
                row[_index(c)] = hand >> c & 1
            self._masks[seat] = hand
        start = at["hand"]
        obs[start : start + 52] = row
        own = deal._facedown if seat == deal._chooser and deal._facedown >= 0 else -1
        if own >= 0 and not deal._known:
            obs[at["face_down"] + _index(own)] = 1
        trump = deal._trump if deal._known or own >= 0 else None
        if trump is not None:
            obs[at["trump"] + trump] = 1
        return obs


def _layout(encoding: MindiEncoding) -> tuple[dict[str, int], list[npt.NDArray[np.intp]]]:
    """Where each segment starts, and for each seat the gather that turns the public array
    (seats in seat order, teams in team order) into its observation's order."""
    key = (encoding.players,)
    cached = _LAYOUTS.get(key)
    if cached is not None:
        return cached
    n = encoding.players
    at = encoding.offsets
    gathers = []
    for seat in range(n):
        index = np.arange(encoding.observation_size, dtype=np.intp)
        for name, shape in encoding.segments:
            width = math.prod(shape[1:])
            if name in _SEAT_ROWS:
                order = [(seat + r) % n for r in range(n)]
            elif name in _TEAM_ROWS:
                order = [seat & 1, 1 - (seat & 1)]
            else:
                continue
            base = at[name]
            for r, source in enumerate(order):
                index[base + r * width : base + (r + 1) * width] = np.arange(
                    base + source * width, base + (source + 1) * width
                )
        gathers.append(index)
    _LAYOUTS[key] = (at, gathers)
    return at, gathers


class _Shown(NamedTuple):
    """What a tracker's public array shows of the deal's small facts (to change only what
    has changed)."""

    phase: int | None
    turn: int | None
    leader: int | None
    known: bool | None
    reveal: Reveal | None


_SEAT_ROWS = frozenset(
    ("played", "trick", "voids", "turn", "leader", "chooser", "dealer", "hand_sizes")
)
_TEAM_ROWS = frozenset(("tens", "tricks_won"))
_LAYOUTS: dict[tuple[int], tuple[dict[str, int], list[npt.NDArray[np.intp]]]] = {}
