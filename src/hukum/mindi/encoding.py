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

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from hukum.cards import CARDS, Suit, bits, deck
from hukum.encoding import Encoding, RewardKind, Segment, Tracker, from_bits, one_hot
from hukum.mindi.deal import Deal
from hukum.mindi.move import HIDE_MOVES, PLAY_MOVES, Move, MoveKind
from hukum.mindi.rules import Rules
from hukum.mindi.trick import Played, Trick
from hukum.mindi.trump import METHODS
from hukum.mindi.view import View, shown_voids

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
        self._size = self.observation_size

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
        if isinstance(action, int) and not isinstance(action, bool) and 0 <= action < 109:
            for move in legal:
                if _ACTION_BITS[id(move)] == 1 << action:
                    return move
        raise self.refuse(legal, pending, action)

    def encode(self, move: Move) -> list[int]:
        bit = _ACTION_BITS.get(id(move))
        if bit is None:
            raise ValueError(f"{move} is not a move a player makes")
        return [bit.bit_length() - 1]

    # ------------------------------------------------------------------ observations

    def observe(self, view: View, pending: Sequence[int] = ()) -> npt.NDArray[np.int8]:
        n = self.players
        played = [0] * n
        for t in view.tricks:
            for p in t.plays:
                played[p.seat] |= 1 << p.card
        trick = [0] * n
        for p in view.trick:
            trick[p.seat] |= 1 << p.card
            played[p.seat] |= 1 << p.card
        team = view.seat & 1
        return self.from_facts(
            seat=view.seat,
            hand=view.hand.mask,
            face_down=0 if view.face_down is None else 1 << view.face_down,
            shown=0 if view.shown_card is None else 1 << view.shown_card,
            pile=view.pile.mask,
            played=played,
            trick=trick,
            voids=[sum(1 << s for s in v) for v in view.voids],
            trump=view.trump,
            trump_known=view.trump_known,
            revealed=view.reveal is not None,
            phase=_PHASES.index(view.phase),
            turn=view.turn,
            leader=view.trick[0].seat if view.trick else None,
            chooser=view.chooser,
            dealer=view.dealer,
            tens=(view.tens[team].mask, view.tens[1 - team].mask),
            tricks_won=(view.tricks_won[team], view.tricks_won[1 - team]),
            hand_sizes=view.hand_sizes,
        )

    def from_facts(
        self,
        *,
        seat: int,
        hand: int,
        face_down: int,
        shown: int,
        pile: int,
        played: Sequence[int],
        trick: Sequence[int],
        voids: Sequence[int],
        trump: int | None,
        trump_known: bool,
        revealed: bool,
        phase: int,
        turn: int | None,
        leader: int | None,
        chooser: int | None,
        dealer: int,
        tens: tuple[int, int],
        tricks_won: tuple[int, int],
        hand_sizes: Sequence[int],
    ) -> npt.NDArray[np.int8]:
        """The observation of ``seat`` from its facts (card masks of 64 bits, seats
        absolute): what :meth:`observe` and the tracker share."""
        n = self.players
        order = [(seat + r) % n for r in range(n)]

        def rel(s: int | None) -> int:
            return one_hot(None if s is None else (s - seat) % n, n)

        value = _c52(hand) | _c52(face_down) << 52 | _c52(shown) << 104 | _c52(pile) << 156
        at = 208
        for s in order:
            value |= _c52(played[s]) << at
            at += 52
        for s in order:
            value |= _c52(trick[s]) << at
            at += 52
        for s in order:
            value |= voids[s] << at
            at += 4
        value |= one_hot(trump, 4) << at
        value |= trump_known << (at + 4) | revealed << (at + 5) | 1 << (at + 6 + phase)
        at += 10
        for who in (turn, leader, chooser, dealer):
            value |= rel(who) << at
            at += n
        value |= _tens(tens[0]) << at | _tens(tens[1]) << (at + 4)
        at += 8
        value |= 1 << (at + tricks_won[0]) | 1 << (at + _MOST + tricks_won[1])
        at += 2 * _MOST
        for s in order:
            value |= 1 << (at + hand_sizes[s])
            at += _MOST
        return from_bits(value, self._size)

    def tracker(self, deal: Deal) -> MindiTracker:
        return MindiTracker(self, deal)

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
    """Observations of a Mindi deal in progress from its own state (what
    :meth:`MindiEncoding.observe` gives of each seat's view, checked by the tests)."""

    def __init__(self, encoding: MindiEncoding, deal: Deal, _from: MindiTracker | None = None):
        self.encoding = encoding
        self.deal = deal
        if _from is None:
            self.played = [0] * deal.rules.players
            self.version = 0  # how many times the shown voids may have changed
            self._reveal = deal._reveal
            self._known = deal._known
            for seat, move in deal.history:
                self._note(seat, move)
        else:
            self.played = list(_from.played)
            self.version = _from.version
            self._reveal = _from._reveal
            self._known = _from._known
        self._voids: dict[bool, tuple[int, list[int]]] = {}

    def copy(self, deal: object) -> MindiTracker:
        assert isinstance(deal, Deal)
        return MindiTracker(self.encoding, deal, self)

    def pushed(self) -> None:
        undo = self.deal._stack[-1]
        self._note(undo.seat, undo.move)

    def _note(self, seat: int, move: Move) -> None:
        deal = self.deal
        if move.kind is MoveKind.PLAY:
            assert move.card is not None
            self.played[seat] |= 1 << move.card
            trick = deal._trick or deal._tricks[-1][1]
            if trick[0][1] >> 4 != move.card >> 4:
                self.version += 1
        if deal._reveal is not self._reveal or deal._known != self._known:
            self._reveal = deal._reveal
            self._known = deal._known
            self.version += 1

    def _shown_voids(self, trump: int | None) -> list[int]:
        """The shown voids (4-bit masks) for an observer who knows ``trump`` (or not)."""
        key = trump is not None
        cached = self._voids.get(key)
        if cached is not None and cached[0] == self.version:
            return cached[1]
        deal = self.deal
        tricks = [
            Trick(leader, tuple(Played(*p) for p in plays), winner)
            for leader, plays, winner in deal._tricks
        ]
        trick = [Played(*p) for p in deal._trick]
        voids = shown_voids(
            deal.rules, tricks, trick, None if trump is None else Suit(trump), deal._reveal
        )
        masks = [sum(1 << s for s in v) for v in voids]
        self._voids[key] = (self.version, masks)
        return masks

    def observe(self, seat: int, pending: Sequence[int] = ()) -> npt.NDArray[np.int8]:
        deal = self.deal
        n = deal._n
        phase = deal._phase
        if phase == 1:  # announce: the rest of the pack is dealt after the announcement
            hand = sum(1 << c for c in deal._dealt[seat][:5])
            sizes: Sequence[int] = [5] * n
        else:
            hand = deal._hands[seat]
            sizes = [h.bit_count() for h in deal._hands]
        own = deal._facedown if seat == deal._chooser and deal._facedown >= 0 else -1
        trump = deal._trump if deal._known or own >= 0 else None
        trick = [0] * n
        for p in deal._trick:
            trick[p[0]] |= 1 << p[1]
        team = seat & 1
        taken = deal._taken
        won0 = sum(1 for _, _, w in deal._tricks if w & 1 == 0)
        won = (won0, len(deal._tricks) - won0)
        shown = deal.shown_card
        return self.encoding.from_facts(
            seat=seat,
            hand=hand,
            face_down=1 << own if own >= 0 and not deal._known else 0,
            shown=0 if shown is None else 1 << shown,
            pile=deal._pile,
            played=self.played,
            trick=trick,
            voids=self._shown_voids(trump),
            trump=trump,
            trump_known=deal._known,
            revealed=deal._reveal is not None,
            phase=phase,
            turn=None if phase == 3 else deal._turn,
            leader=deal._trick[0][0] if deal._trick else None,
            chooser=deal.chooser,
            dealer=deal.dealer,
            tens=(taken[team], taken[1 - team]),
            tricks_won=(won[team], won[1 - team]),
            hand_sizes=sizes,
        )
