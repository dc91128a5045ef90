"""Dashavatara Ganjifa for learning programs (:mod:`hukum.encoding`): 960 actions and a 0/1
observation of 1509.

**Actions** (the same 960 under every option):

- ``0 … 119``: put down card number c (``suit * 12 + power``, :mod:`hukum.ganjifa.cards`;
  ``Ma10`` is 0, ``KaR`` 119). To lead or follow, this plays the card. To answer a Dukal of
  k cards (G-9) the k cards are chosen one an action, in any order: each action adds a card
  of the hand not yet chosen to the *pending* actions, and the k-th makes the move
  (``give …``).
- ``120 … 959``: lead a Dukal (G-9). For each suit, one action for each Dukal pattern of
  any ``dukal`` option (the union of :func:`hukum.ganjifa.dukal.patterns` of the three:
  84 patterns of the suit's twelve cards, in increasing order of their 12-bit masks):
  ``120 + 84 * suit + pattern``. Under one option only its own Dukals are ever legal.

**Observation** (seats counted from the observer: row 0 the observer, row 1 the next seat,
row 2 the one after; cards as 120 bits in the order of the actions; counts one-hot): see
:attr:`GanjifaEncoding.segments`. Everything in it is in the observer's view (G-11), and
``pending`` holds the cards it has chosen so far of an answer.

>>> from hukum.ganjifa import Deal, Move, Rules
>>> enc = GanjifaEncoding(Rules())
>>> enc.actions, enc.observation_size, enc.action_text(0), enc.action_text(119)
(960, 1509, 'put down Ma10', 'put down KaR')
>>> deal = Deal.new(Rules(), dealer=0, seed=7)
>>> obs = enc.observe(deal.view(1))
>>> enc.segment(obs, "turn").tolist(), int(enc.segment(obs, "hand").sum())
([0, 0, 1], 40)
>>> move = deal.legal_moves()[0]
>>> move, enc.encode(move), enc.decode(deal.legal_moves(), (), 83) is move
(Move.parse('RaR'), [83], True)
>>> enc.encode(Move.parse("dukal Ra3 Ra4 Ra5")), enc.action_text(627)
([627], 'dukal Ra3 Ra4 Ra5')

An answer to a Dukal of 3, one card an action (``Answers``: any 3 cards of the hand):

>>> from hukum.ganjifa import Answers, CardSet
>>> answers = Answers(CardSet.parse("Ma1 Ku9 Ka1 KaR").mask, 3)
>>> enc.legal_actions(answers, [9, 13])           # Ma1 and Ku9 chosen so far
[108, 119]
>>> enc.decode(answers, [9, 13], 119)
Move.parse('give Ma1 Ku9 KaR')
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from hukum.encoding import Encoding, RewardKind, Segment, Tracker, from_bits, offsets_of
from hukum.ganjifa.cards import CARDS, bits
from hukum.ganjifa.deal import HAND_SIZE, Answers, Deal
from hukum.ganjifa.dukal import patterns
from hukum.ganjifa.move import PLAY_MOVES, Move, MoveKind
from hukum.ganjifa.rules import PLAYERS, Rules
from hukum.ganjifa.view import View, shown_voids, void_suits

__all__ = ["GanjifaEncoding", "GanjifaTracker"]

_PLAY, _DUKAL, _GIVE = MoveKind.PLAY, MoveKind.DUKAL, MoveKind.GIVE
_PHASES = ("lead", "follow", "answer", "over")
_FOLLOW, _OVER = 1, 3  # the deal's phase numbers (hukum.ganjifa.deal)
_N = PLAYERS
_CARDS = 120
_SIZES = HAND_SIZE + 1  # one-hot hand sizes 0 … 40
_NEED = 13  # one-hot Dukal sizes 0 (none) … 12

#: Every Dukal of one suit under any option, as 12-bit masks in increasing order.
_PATTERNS: tuple[int, ...] = tuple(
    sorted(set(patterns("run")) | set(patterns("royal_run")) | set(patterns("either")))
)
_PER_SUIT = len(_PATTERNS)
_FIRST_DUKAL = _CARDS
_ACTIONS = _FIRST_DUKAL + 10 * _PER_SUIT
#: The card mask of each Dukal action (less 120), and the action of each Dukal's mask.
_DUKAL_MASKS: tuple[int, ...] = tuple(p << (12 * s) for s in range(10) for p in _PATTERNS)
_DUKAL_ACTION: dict[int, int] = {m: _FIRST_DUKAL + i for i, m in enumerate(_DUKAL_MASKS)}

_SEGMENTS: tuple[Segment, ...] = (
    ("hand", (_CARDS,)),  # the observer's cards
    ("pending", (_CARDS,)),  # the cards the observer has chosen so far of an answer
    ("played", (_N, _CARDS)),  # every card each seat has put down, the trick in progress too
    ("trick", (_N, _CARDS)),  # the trick or Dukal in progress, by seat
    ("captured", (_N, _CARDS)),  # the cards each seat has captured (G-10)
    ("voids", (_N, 10)),  # suits each seat has shown it holds no more of (G-7)
    ("hand_sizes", (_N, _SIZES)),  # cards in each hand, one-hot
    ("trump", (10,)),  # the trump suit (G-5)
    ("dealer", (_N,)),
    ("phase", (4,)),  # lead, follow, answer, over
    ("need", (_NEED,)),  # the size k of the Dukal being answered, one-hot (0: none)
    ("turn", (_N,)),  # the seat to move (none once the deal is over)
    ("leader", (_N,)),  # the seat that led the trick in progress (none between tricks)
)


_AT = offsets_of(_SEGMENTS)
_OBS_SIZE = sum(math.prod(shape) for _, shape in _SEGMENTS)

# The tracker's public array: the observation's segments with seats in absolute order,
# every seat's hand in place of the observer's (3 × 120), no pending part, and one 0 at the
# end (where the pending part is gathered from).
_PUBLIC: tuple[Segment, ...] = (
    ("hand", (_N, _CARDS)),
    *(s for s in _SEGMENTS if s[0] not in ("hand", "pending")),
)
_B = offsets_of(_PUBLIC)
_ZERO = sum(math.prod(shape) for _, shape in _PUBLIC)
_B_HAND, _B_PLAYED, _B_TRICK, _B_CAPT = _B["hand"], _B["played"], _B["trick"], _B["captured"]
_B_VOIDS, _B_SIZES, _B_PHASE, _B_NEED = _B["voids"], _B["hand_sizes"], _B["phase"], _B["need"]
_B_TURN, _B_LEADER = _B["turn"], _B["leader"]
# phase, need, turn and leader follow one another: cleared at once after every move
_B_STATE, _B_STATE_END = _B_PHASE, _B_LEADER + _N
assert _B_NEED == _B_PHASE + 4 and _B_TURN == _B_NEED + _NEED and _B_LEADER == _B_TURN + _N
_STATE_ZEROS = bytes(_B_STATE_END - _B_STATE)
_TRICK_ZEROS = bytes(_N * _CARDS)
_PENDING = _AT["pending"]


def _gather(seat: int) -> npt.NDArray[np.intp]:
    """Where each element of ``seat``'s observation is in the public array."""
    out: list[int] = []
    for name, shape in _SEGMENTS:
        if name == "hand":
            out += range(_B_HAND + _CARDS * seat, _B_HAND + _CARDS * (seat + 1))
        elif name == "pending":
            out += [_ZERO] * _CARDS
        elif len(shape) == 2:  # a row a seat
            width = shape[1]
            for r in range(_N):
                start = _B[name] + width * ((seat + r) % _N)
                out += range(start, start + width)
        elif name in ("dealer", "turn", "leader"):  # a seat, one-hot
            out += [_B[name] + (seat + r) % _N for r in range(_N)]
        else:
            out += range(_B[name], _B[name] + shape[0])
    assert len(out) == _OBS_SIZE
    return np.array(out, dtype=np.intp)


_GATHER = tuple(_gather(seat) for seat in range(_N))


class GanjifaEncoding(Encoding[View, Move, Deal]):
    """Actions, observations and rewards of Ganjifa under ``rules``."""

    game = "ganjifa"
    actions = _ACTIONS
    players = _N
    pack = tuple(range(_CARDS))
    hand_size = HAND_SIZE
    shows_card = False
    segments = _SEGMENTS

    def __init__(self, rules: Rules) -> None:
        self.rules = rules

    def card_index(self, card: int) -> int:
        return card

    # ------------------------------------------------------------------ actions

    def action_text(self, action: int) -> str:
        if not 0 <= action < _ACTIONS:
            return "no such action"
        if action < _FIRST_DUKAL:
            return f"put down {CARDS[action].code}"
        return "dukal " + " ".join(CARDS[c].code for c in bits(_DUKAL_MASKS[action - 120]))

    def action_mask(self, legal: Sequence[Move], pending: Sequence[int] = ()) -> int:
        if isinstance(legal, Answers):
            chosen = _chosen(legal, pending)
            return 0 if chosen is None else legal.hand & ~chosen
        if pending:
            return 0  # only an answer is chosen over several actions
        mask = 0
        for move in legal:
            if move.kind is _PLAY:
                mask |= move.mask
            else:
                mask |= 1 << _DUKAL_ACTION[move.mask]
        return mask

    def legal_actions(self, legal: Sequence[Move], pending: Sequence[int] = ()) -> list[int]:
        return list(bits(self.action_mask(legal, pending)))

    def decode(self, legal: Sequence[Move], pending: Sequence[int], action: int) -> Move | None:
        if isinstance(action, int) and not isinstance(action, bool) and 0 <= action < _ACTIONS:
            if isinstance(legal, Answers):
                chosen = _chosen(legal, pending)
                if chosen is not None and action < _CARDS and (legal.hand & ~chosen) >> action & 1:
                    chosen |= 1 << action
                    return Move(_GIVE, chosen) if len(pending) + 1 == legal.k else None
            elif not pending:
                if action < _FIRST_DUKAL:
                    play = PLAY_MOVES[action]
                    for move in legal:
                        if move is play:
                            return move
                else:
                    mask = _DUKAL_MASKS[action - _FIRST_DUKAL]
                    for move in legal:
                        if move.mask == mask and move.kind is _DUKAL:
                            return move
        raise self.refuse(legal, pending, action)

    def encode(self, move: Move) -> list[int]:
        if move.kind is _PLAY:
            return [move.mask.bit_length() - 1]
        if move.kind is _GIVE:
            return list(bits(move.mask))
        action = _DUKAL_ACTION.get(move.mask)
        if action is None:
            raise ValueError(f"{move} is not a Dukal under any option")
        return [action]

    # ------------------------------------------------------------------ observations

    def observe(self, view: View, pending: Sequence[int] = ()) -> npt.NDArray[np.int8]:
        seat = view.seat
        played = [0] * _N
        for t in view.tricks:
            for p in t.plays:
                played[p.seat] |= p.move.mask
        trick = [0] * _N
        for p in view.trick:
            trick[p.seat] |= p.move.mask
            played[p.seat] |= p.move.mask
        value = view.hand.mask
        for a in pending:
            if 0 <= a < _CARDS:
                value |= 1 << (_PENDING + a)
        for r in range(_N):
            s = (seat + r) % _N
            value |= played[s] << (_AT["played"] + _CARDS * r)
            value |= trick[s] << (_AT["trick"] + _CARDS * r)
            value |= view.captured[s].mask << (_AT["captured"] + _CARDS * r)
            value |= sum(1 << v for v in view.voids[s]) << (_AT["voids"] + 10 * r)
            value |= 1 << (_AT["hand_sizes"] + _SIZES * r + view.hand_sizes[s])
        value |= 1 << (_AT["trump"] + view.trump)
        value |= 1 << (_AT["dealer"] + (view.dealer - seat) % _N)
        value |= 1 << (_AT["phase"] + _PHASES.index(view.phase))
        value |= 1 << (_AT["need"] + view.dukal)
        if view.turn is not None:
            value |= 1 << (_AT["turn"] + (view.turn - seat) % _N)
        if view.trick:
            value |= 1 << (_AT["leader"] + (view.trick[0].seat - seat) % _N)
        return from_bits(value, _OBS_SIZE)

    def tracker(self, deal: Deal) -> GanjifaTracker:
        return GanjifaTracker(deal)

    # ------------------------------------------------------------------ rewards

    def rewards(self, deal: Deal, kind: RewardKind = "win") -> tuple[float, ...]:
        """``win``: 1.5 × the seat's share of the win - 0.5 (a sole winner +1, each loser
        -1/2; shared wins between); ``points``: cards captured less 40. Both zero-sum."""
        outcome = deal.outcome()
        if outcome is None:
            raise ValueError("the deal is not over")
        if kind == "points":
            return tuple(float(outcome.scores[s] - 40) for s in range(_N))
        return tuple(1.5 * outcome.share(s) - 0.5 for s in range(_N))

    def reward_range(self, kind: RewardKind = "win") -> tuple[float, float]:
        return (-40.0, 80.0) if kind == "points" else (-0.5, 1.0)


def _chosen(answers: Answers, pending: Sequence[int]) -> int | None:
    """The mask of the pending cards of an answer, or None if they are not distinct cards
    of the hand, fewer than k."""
    mask = 0
    for a in pending:
        if isinstance(a, bool) or not isinstance(a, int) or not 0 <= a < _CARDS:
            return None
        mask |= 1 << a
    if mask & ~answers.hand or mask.bit_count() != len(pending) or len(pending) >= answers.k:
        return None
    return mask


class GanjifaTracker(Tracker[Move]):
    """Observations of a Ganjifa deal in progress from its own state (what
    :meth:`GanjifaEncoding.observe` gives of each seat's view, checked by the tests).

    It keeps one public array with seats in absolute order (every hand included), brought
    up to date by each move; a seat's observation gathers it in that seat's order and adds
    the pending cards. It follows pushes only: after a ``pop`` make a new tracker."""

    __slots__ = ("_buf", "_count", "_public", "deal")

    deal: Deal
    _buf: bytearray  # the public array's bytes, written directly (faster than numpy's)
    _public: npt.NDArray[np.int8]  # the same memory as an array, to gather from
    _count: int  # the moves the array shows

    def __init__(self, deal: Deal, _from: GanjifaTracker | None = None) -> None:
        self.deal = deal
        if _from is None:
            self._buf = bytearray(_ZERO + 1)
            self._rebuild()
        else:
            self._buf = bytearray(_from._buf)
            self._count = _from._count
        self._public = np.frombuffer(self._buf, dtype=np.int8)

    def copy(self, deal: object) -> GanjifaTracker:
        assert isinstance(deal, Deal)
        return GanjifaTracker(deal, self)

    def _rebuild(self) -> None:
        """Fill the public array from the deal's whole state."""
        deal = self.deal
        buf = self._buf
        buf[:] = bytes(len(buf))
        played = [0] * _N
        for t in deal._tricks:
            for p in t.plays:
                played[p.seat] |= p.move.mask
        trick = [0] * _N
        for s, m in deal._trick:
            trick[s] |= m.mask
            played[s] |= m.mask
        voids = shown_voids(tuple(deal._tricks), deal.trick, deal._trump, deal._void_rule)
        for s in range(_N):
            hand = deal._hands[s]
            for c in bits(hand):
                buf[_B_HAND + _CARDS * s + c] = 1
            for c in bits(played[s]):
                buf[_B_PLAYED + _CARDS * s + c] = 1
            for c in bits(trick[s]):
                buf[_B_TRICK + _CARDS * s + c] = 1
            for c in bits(deal._taken[s]):
                buf[_B_CAPT + _CARDS * s + c] = 1
            for v in voids[s]:
                buf[_B_VOIDS + 10 * s + v] = 1
            buf[_B_SIZES + _SIZES * s + hand.bit_count()] = 1
        buf[_B["trump"] + deal._trump] = 1
        buf[_B["dealer"] + deal.dealer] = 1
        self._set_state()
        self._count = len(deal._stack)

    def _set_state(self) -> None:
        """Phase, need, turn and leader from the deal."""
        deal = self.deal
        buf = self._buf
        buf[_B_STATE:_B_STATE_END] = _STATE_ZEROS
        phase = deal._phase
        buf[_B_PHASE + phase] = 1
        buf[_B_NEED + deal._k] = 1
        if phase != _OVER:
            buf[_B_TURN + deal._turn] = 1
        trick = deal._trick
        if trick:
            buf[_B_LEADER + trick[0][0]] = 1

    def pushed(self) -> None:
        deal = self.deal
        stack = deal._stack
        if len(stack) != self._count + 1:  # not told of every move: start again
            self._rebuild()
            return
        self._count += 1
        move, seat, before = stack[-1]
        buf = self._buf
        mask = move.mask
        if move.kind is _PLAY:
            c = mask.bit_length() - 1
            at = _CARDS * seat + c
            buf[_B_HAND + at] = 0
            buf[_B_PLAYED + at] = 1
            buf[_B_TRICK + at] = 1
            size = 1
            if before[1] == _FOLLOW:
                led = (before[3][0][1].mask.bit_length() - 1) // 12
                if c // 12 != led:
                    shown = void_suits(led, c // 12, deal._trump, deal._void_rule)
                    at = _B_VOIDS + 10 * seat
                    for v in bits(shown):
                        buf[at + v] = 1
        else:
            size = 0
            for c in bits(mask):
                buf[_B_HAND + _CARDS * seat + c] = 0
                buf[_B_PLAYED + _CARDS * seat + c] = 1
                buf[_B_TRICK + _CARDS * seat + c] = 1
                size += 1
        at = _B_SIZES + _SIZES * seat + deal._hands[seat].bit_count()
        buf[at + size] = 0
        buf[at] = 1
        if not deal._trick:  # the trick is complete: its cards go to the winner
            buf[_B_TRICK : _B_TRICK + _N * _CARDS] = _TRICK_ZEROS
            done = deal._tricks[-1]
            at = _B_CAPT + _CARDS * done.winner
            for p in done.plays:
                m = p.move.mask
                if m & (m - 1):
                    for c in bits(m):
                        buf[at + c] = 1
                else:
                    buf[at + m.bit_length() - 1] = 1
        self._set_state()

    def observe(self, seat: int, pending: Sequence[int] = ()) -> npt.NDArray[np.int8]:
        obs = self._public.take(_GATHER[seat])
        for a in pending:
            if 0 <= a < _CARDS:
                obs[_PENDING + a] = 1
        return obs
