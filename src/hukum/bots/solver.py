"""An exact Mindi solver: with all hands known, the best result each team can force.

The *value* of a position is the result of the deal under optimal play by both teams,
ordered lexicographically for a team: tens captured first (3 or 4 win, M-16), then at 2–2
the tie-break of the rules (``tricks``: tricks won, and the last trick where tricks can be
level; ``highest_trick``: who won the highest trick), then tricks won (so that a whitewash
is worth more than a mendikot, M-17). Every match-point result (win, mendikot, whitewash,
and their losses) is a monotone function of this order, so the forced value also forces the
best points. :meth:`Solver.solve` gives it for the position and for every legal move.

The search (compiled with numba) is DDS-style: a null-window alpha-beta on the value; a
transposition table at trick boundaries whose entries hold for every position that differs
only in which hands hold the low cards no trick of the proof turned on (the partition search
of DDS: suit lengths, the tens and the cards that won by rank must be the same); cards
equivalent in the rest of the deal (adjacent among the unplayed cards, same hand, neither a
10) searched as one move; ordered moves (low to a partner holding the top card, not into a
ruff); and cut-offs when one team already has, or can no longer reach, the value probed for
(counting a ten of trump that nothing can beat any more as captured). The
engine (:class:`hukum.mindi.Deal`) is the reference; the tests check the solver against an
exhaustive minimax on the engine's own ``push``/``pop``.

>>> from hukum.mindi import Deal, Rules
>>> deal = Deal.new(Rules(), dealer=0, seed=7)
>>> for _ in range(36):
...     deal.push(deal.legal_moves()[0])
>>> solution = Solver(Rules()).solve(deal)
>>> solution.best.describe()
'Team 0 wins with mendikot: 4–0 tens'
>>> all(v.value <= solution.best.value for v in solution.moves.values())
True
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import numpy as np
from numba import njit

from hukum.mindi import Deal, Move, MoveKind, Rules

__all__ = ["Forecast", "Solution", "Solver", "SolverBudgetError", "SolverError", "move_classes"]

# Positions in the state array ``st``.
_TURN, _LED, _NT, _TRUMP, _KNOWN, _FD, _VOID, _PILE, _STREAK, _HIKEY, _HIOWN, _LEFT = range(12)
_TS, _TC, _TT = 12, 16, 20  # the trick in progress: seats, cards, counted as trump
_H = 24  # the four hands
_CH = 28  # the band chooser
_WIN = 29  # the place in the trick of the card that won the trick just completed
_NST = 30
# Positions in the configuration array ``cfg``.
(_BAND, _AUTO, _ONREQ, _CUT, _MUST, _DEHLA, _HIMODE, _LASTB, _TENW, _HIW, _EQUIV) = range(11)
_NEXT = 12
_NCFG = 16
_ASK = 64  # the move that asks for the face-down card (band, on_request)
_NO_VOID, _VOID_REVEALED, _VOID_ASKED = 0, 1, 2
_TEN_PLACES = 25  # in _aggregate's state word: where each suit's ten is, 4 bits a suit
_USED = 1 << 62  # in _aggregate's state word, so that an empty (all-zero) entry never matches
_TENS = sum(1 << (s * 16 + 8) for s in range(4))
_MAX_DEPTH = 64
#: The highest set bit of each 13-bit suit mask.
_HIGHEST = np.array([max(x.bit_length() - 1, 0) for x in range(1 << 13)], np.int8)
_F = TypeVar("_F", bound=Callable[..., Any])


def _compiled(
    signature: str | None = None, nogil: bool = False, inline: bool = True
) -> Callable[[_F], _F]:
    """numba's ``njit``, cached, and without numba's reference counting (``_nrt=False``):
    the search only reads and writes arrays its caller owns and allocates none, and counting
    each array handed to a helper (atomic increments and decrements) took more than half of
    its time. Helpers are ``inline``d into their callers (numba passes each array as seven
    words or more, so a call cost more than many a helper's work; 15% of the search's time);
    the recursive search and the entry points are not."""
    options: dict[str, Any] = {"cache": True, "nogil": nogil, "_nrt": False}
    options["inline"] = "always" if inline else "never"
    return cast(Callable[[_F], _F], njit(signature, **options))


@_compiled()
def _popcount(x: int | np.int64) -> int:
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    x = x + (x >> 8)
    x = x + (x >> 16)
    x = x + (x >> 32)
    return int(x & 0x7F)


@_compiled()
def _copy(to: np.ndarray, state: np.ndarray) -> None:
    """Copy a state (the first ``_NST`` values) into ``to``: a loop, since a slice
    assignment would need numba's reference counting."""
    for k in range(_NST):
        to[k] = state[k]


@_compiled()
def _turn_up(st: np.ndarray, cfg: np.ndarray) -> None:
    """The face-down card returns to the chooser's hand; trump is known (M-12)."""
    st[_H + st[_CH]] |= np.int64(1) << st[_FD]
    st[_FD] = -1
    st[_KNOWN] = 1


@_compiled()
def _begin_turn(st: np.ndarray, cfg: np.ndarray) -> None:
    """As the engine's ``_begin_hidden_turn``: turn the card up if this turn requires it."""
    if cfg[_BAND] == 0 or st[_KNOWN] == 1:
        return
    hand = st[_H + st[_TURN]]
    led = st[_LED]
    if hand == 0:
        _turn_up(st, cfg)
        st[_VOID] = _VOID_REVEALED if led >= 0 else _NO_VOID
    elif led >= 0 and cfg[_ONREQ] == 0 and (hand >> (led * 16)) & 0x1FFF == 0:
        _turn_up(st, cfg)
        st[_VOID] = _VOID_REVEALED


@_compiled()
def _legal(st: np.ndarray, cfg: np.ndarray) -> tuple[int, bool]:
    """The legal cards of the player to move (a mask), and whether asking is legal too."""
    hand = st[_H + st[_TURN]]
    led = st[_LED]
    if led < 0:
        return hand, False
    void = st[_VOID]
    if void == _NO_VOID:
        follow = hand & (np.int64(0x1FFF) << (led * 16))
        if follow != 0:
            return follow, False
    trump = st[_TRUMP]
    if trump >= 0 and (void == _VOID_ASKED or (cfg[_MUST] == 1 and st[_KNOWN] == 1)):
        trumps = hand & (np.int64(0x1FFF) << (trump * 16))
        if trumps != 0:
            return trumps, False
    ask = cfg[_ONREQ] == 1 and st[_KNOWN] == 0 and void == _NO_VOID and cfg[_BAND] == 1
    return hand, ask


@_compiled()
def _winning(st: np.ndarray, nt: int) -> tuple[int, int]:
    """The key of the card winning the first ``nt`` cards of the trick (M-9), and its index:
    32 + rank for a card counted as trump, 16 + rank for one of the led suit."""
    led = st[_TC] >> 4
    best = -1
    win = 0
    for i in range(nt):
        c = st[_TC + i]
        key = -1
        if st[_TT + i] == 1:
            key = 32 + (c & 15)
        elif c >> 4 == led:
            key = 16 + (c & 15)
        if key > best:
            best = key
            win = i
    return best, win


@_compiled()
def _apply(st: np.ndarray, cfg: np.ndarray, move: int) -> int:
    """Make a move (as the engine's ``push``); the value it adds for team 0 at once."""
    turn = st[_TURN]
    if move == _ASK:
        _turn_up(st, cfg)
        st[_VOID] = _VOID_ASKED
        return 0
    suit = move >> 4
    led = st[_LED]
    if led >= 0 and suit != led and st[_TRUMP] < 0 and cfg[_CUT] == 1:
        st[_TRUMP] = suit  # cut hukum: this card sets trump at once (M-11)
        st[_KNOWN] = 1
    st[_H + turn] ^= np.int64(1) << move
    nt = st[_NT]
    st[_TS + nt] = turn
    st[_TC + nt] = move
    st[_TT + nt] = 1 if suit == st[_TRUMP] and (st[_KNOWN] == 1 or cfg[_AUTO] == 1) else 0
    nt += 1
    if nt < 4:
        st[_NT] = nt
        if led < 0:
            st[_LED] = suit
        st[_TURN] = cfg[_NEXT + turn]
        st[_VOID] = _NO_VOID
        _begin_turn(st, cfg)
        return 0
    _, win = _winning(st, 4)
    st[_WIN] = win
    cards = np.int64(0)
    for i in range(4):
        cards |= np.int64(1) << st[_TC + i]
    winner = st[_TS + win]
    team0 = winner & 1 == 0
    left = st[_LEFT] - 1
    st[_LEFT] = left
    tens = _popcount(cards & _TENS)
    gain = 0
    if cfg[_DEHLA] == 1:
        pile = st[_PILE] + tens
        if st[_STREAK] == winner or left == 0:
            if team0:
                gain += cfg[_TENW] * pile
            st[_PILE] = 0
            st[_STREAK] = -1
        else:
            st[_PILE] = pile
            st[_STREAK] = winner
    elif team0:
        gain += cfg[_TENW] * tens
    if team0:
        gain += 2
        if left == 0:
            gain += cfg[_LASTB]
    if cfg[_HIMODE] == 1:
        # A trick's key: a trump trick above every other, then the winning rank (M-16).
        key = (32 if st[_TT + win] == 1 else 16) + (st[_TC + win] & 15)
        if key > st[_HIKEY]:
            st[_HIKEY] = key
            st[_HIOWN] = winner & 1
        if left == 0 and st[_HIOWN] == 0:
            gain += cfg[_HIW]
    st[_NT] = 0
    st[_LED] = -1
    st[_VOID] = _NO_VOID
    st[_TURN] = winner
    if left > 0:
        _begin_turn(st, cfg)
    return gain


@_compiled()
def _remaining(st: np.ndarray) -> int:
    """The cards still in the hands and face down."""
    rem = st[_H] | st[_H + 1] | st[_H + 2] | st[_H + 3]
    if st[_FD] >= 0:
        rem |= np.int64(1) << st[_FD]
    return int(rem)


@_compiled()
def _unplayed(st: np.ndarray) -> int:
    """The cards not yet in a completed trick: in the hands, face down, in the trick."""
    cards = _remaining(st)
    for i in range(st[_NT]):
        cards |= np.int64(1) << st[_TC + i]
    return int(cards)


@_compiled()
def _upper(st: np.ndarray, cfg: np.ndarray) -> int:
    """The most team 0 could still add: every ten, every trick, the bonuses."""
    tens = _popcount(_unplayed(st) & _TENS) + st[_PILE]
    return int(cfg[_TENW] * tens + 2 * st[_LEFT] + cfg[_LASTB] + cfg[_HIW])


@_compiled()
def _trump_ten(st: np.ndarray, cfg: np.ndarray) -> int:
    """The team sure to capture the ten of trump, -1 if neither is yet: trump counts, the
    ten is in a hand and every higher trump, unplayed or in the trick, is its team's, so
    that nothing can beat it (M-9). Not under dehla, where the trick winner may not keep it."""
    trump = st[_TRUMP]
    if cfg[_DEHLA] == 1 or trump < 0 or (st[_KNOWN] == 0 and cfg[_AUTO] == 0):
        return -1
    ten = trump * 16 + 8
    team = -1
    for h in range(4):
        if (st[_H + h] >> ten) & 1:
            team = h & 1
    if team < 0:
        return -1
    above = np.int64(0x1E00) << (trump * 16)
    for h in range(4):
        if h & 1 != team and st[_H + h] & above:
            return -1
    fd = st[_FD]
    if fd >= 0 and (np.int64(1) << fd) & above and st[_CH] & 1 != team:
        return -1
    for i in range(st[_NT]):
        c = st[_TC + i]
        if st[_TT + i] == 1 and st[_TS + i] & 1 != team and c & 15 > 8:
            return -1
    return team


@_compiled()
def _tens_in(st: np.ndarray, nt: int) -> int:
    """The tens among the first ``nt`` cards of the trick in progress."""
    tens = 0
    for i in range(nt):
        if st[_TC + i] & 15 == 8:
            tens += 1
    return tens


@_compiled()
def _outranks(st: np.ndarray, nt: int, win: int) -> bool:
    """Whether the card at place ``win`` of the first ``nt`` of the trick beat another of
    them by rank: one of its own suit, counted the same way (as trump, or of the led suit)."""
    for i in range(nt):
        if i != win and st[_TT + i] == st[_TT + win] and st[_TC + i] >> 4 == st[_TC + win] >> 4:
            return True
    return False


@_compiled()
def _trick_sure(st: np.ndarray, cfg: np.ndarray) -> tuple[int, int, int]:
    """The team sure to win the trick in progress (-1 if neither is yet: no trick, dehla,
    trump face down, or a player still to play may beat the card winning it), the cards
    this depends on, and the tens in the trick. It depends on the winning card if its rank
    is compared with another card of its suit, in the trick or in the hand of an opponent
    still to play (the table then keeps the holders of every card above it too, see
    _counts); suit lengths fix the rest: who can follow suit, who holds a trump."""
    nt = st[_NT]
    if nt == 0 or cfg[_DEHLA] == 1 or (cfg[_BAND] == 1 and st[_KNOWN] == 0):
        return -1, 0, 0
    _, win = _winning(st, nt)
    card = st[_TC + win]
    team = st[_TS + win] & 1
    led = st[_LED]
    trump = st[_TRUMP]
    if st[_TT + win] == 0 and led == trump:
        return -1, 0, 0  # the led suit turned out trump (band): what follows it now ranks above
    suit = trump if st[_TT + win] == 1 else led
    above = (np.int64(0x1FFF) << (suit * 16)) & ~((np.int64(2) << card) - 1)
    tens = _tens_in(st, nt)
    compared = _outranks(st, nt, win)
    q = st[_TURN]
    for _ in range(4 - nt):
        hand = st[_H + q]
        if q & 1 != team:
            if hand & (np.int64(0x1FFF) << (led * 16)):  # it follows suit
                if suit == led:
                    if hand & above:
                        return -1, 0, 0  # a higher card of the led suit
                    compared = True
            elif trump < 0:
                return -1, 0, 0  # a cut sets trump with any card and takes the trick
            elif hand & (np.int64(0x1FFF) << (trump * 16)):
                if suit != trump or hand & above:
                    return -1, 0, 0  # a trump, or a higher trump
                compared = True
        q = cfg[_NEXT + q]
    return team, int(np.int64(1) << card) if compared else 0, tens


@_compiled()
def _moves(st: np.ndarray, cfg: np.ndarray, out: np.ndarray, hint: int) -> int:
    """The moves to search, one per class of equivalent cards, best guesses first (the
    ``hint``, the best move found here before, first of all): their number, the moves in
    ``out[:16]`` (``out[16:]`` holds their scores while sorting)."""
    legal, ask = _legal(st, cfg)
    unplayed = _unplayed(st)
    nt = st[_NT]
    turn = st[_TURN]
    team = turn & 1
    # The card winning the trick so far, and whether it is the mover's side.
    led = st[_LED]
    best, win = _winning(st, nt)
    tens_in = _tens_in(st, nt)
    partner_wins = nt > 0 and (st[_TS + win] & 1) == team
    last = nt == 3
    trump = st[_TRUMP]
    counts = st[_KNOWN] == 1 or cfg[_AUTO] == 1
    n = 0
    scores = out[16:]  # no allocation per node
    for suit in range(4):
        mine = (legal >> (suit * 16)) & 0x1FFF
        if mine == 0:
            continue
        others = (unplayed >> (suit * 16)) & 0x1FFF & ~mine
        lead_bonus = 0
        if nt == 0:
            # Low to a partner holding the suit's top card; not into a ruff, nor into a cut
            # that sets trump (cut hukum, trump not yet set).
            partner = st[_H + cfg[_NEXT + cfg[_NEXT + turn]]] >> (suit * 16) & 0x1FFF
            if partner != 0 and others != 0 and partner > others ^ partner:
                lead_bonus += 70
            cut = trump < 0 and cfg[_CUT] == 1
            ruff = counts and trump >= 0 and suit != trump
            for h in range(4):
                hand = st[_H + h]
                if (h & 1) == team or (hand >> (suit * 16)) & 0x1FFF != 0:
                    continue  # not a void opponent
                if cut or (ruff and (hand >> (trump * 16)) & 0x1FFF != 0):
                    lead_bonus -= 80
        played = mine | others  # the suit's cards not yet in a completed trick
        rest = mine
        while rest:  # the legal cards of the suit, from the highest down
            r = _HIGHEST[rest]
            rest ^= 1 << r
            above = played >> (r + 1)
            top = others >> (r + 1) == 0  # no higher card not yet played in another hand
            ten = r == 8
            nearest = above & -above  # the next card up: the same as this one if in the hand
            if (
                mine >> (r + 1) & nearest
                and not ten
                and nearest << (r + 1) != 0x100
                and cfg[_EQUIV] == 1
            ):
                if suit * 16 + r == hint:
                    scores[n - 1] += 1000
                continue  # the same as the card just above it in this hand
            c = suit * 16 + r
            if nt == 0:
                s = 100 + r if top else 40 - r
                if ten and not top:
                    s -= 60
                s += lead_bonus
            else:
                is_trump = trump >= 0 and suit == trump and counts
                key = -1
                if is_trump:
                    key = 32 + r
                elif suit == led:
                    key = 16 + r
                elif trump < 0 and cfg[_CUT] == 1:
                    key = 48  # cutting sets trump with this card: it takes the lead
                wins = key > best
                if key == 48:
                    # Cut in the suit the mover holds most of: it is then trump.
                    s = (40 if partner_wins else 140) + 8 * _popcount(mine) - r
                    s += (20 * tens_in if not partner_wins else 0) + (30 if ten else 0)
                elif partner_wins and not wins:
                    s = 200 if ten else 60 - r
                elif wins:
                    s = 150 - r + (30 if ten else 0) + 20 * tens_in
                    if not last and not top:
                        s -= 40
                else:
                    s = 50 - r - (100 if ten else 0)
            out[n] = c
            scores[n] = s + (1000 if c == hint else 0)
            n += 1
    if ask:
        out[n] = _ASK
        scores[n] = 0
        n += 1
    for i in range(1, n):  # insertion sort, highest score first
        m = out[i]
        s = scores[i]
        j = i - 1
        while j >= 0 and scores[j] < s:
            out[j + 1] = out[j]
            scores[j + 1] = scores[j]
            j -= 1
        out[j + 1] = m
        scores[j + 1] = s
    return n


@_compiled()
def _aggregate(st: np.ndarray, agg: np.ndarray) -> None:
    """A trick-start position as the table sees it: ``agg[0]`` the length of each suit in
    each hand (4 bits each), ``agg[1]`` the rest of the state (with the place of each
    unplayed ten from the top of its suit), and ``agg[2 + s]`` who holds
    the unplayed cards of suit ``s`` from the highest down (3 bits each; 4 is face down)."""
    lengths = np.int64(0)
    for h in range(4):
        hand = st[_H + h]
        for s in range(4):
            n = _popcount((hand >> (s * 16)) & 0x1FFF)
            lengths |= np.int64(n) << (16 * h + 4 * s)
    agg[0] = lengths
    fd = st[_FD]
    agg[1] = (
        st[_TURN]
        | (st[_TRUMP] + 1) << 2
        | st[_KNOWN] << 5
        | ((fd >> 4) + 1 if fd >= 0 else 0) << 6
        | st[_PILE] << 9
        | (st[_STREAK] + 1) << 12
        | (st[_HIKEY] + 1) << 15
        | st[_HIOWN] << 22
        | st[_CH] << 23
        | _USED
    )
    # Two bit planes give each card's holder at once: bit 0 from hands 1 and 3, bit 1 from
    # hands 2 and 3 (the face-down card is holder 4).
    low = st[_H + 1] | st[_H + 3]
    high = st[_H + 2] | st[_H + 3]
    rem = _remaining(st)
    for s in range(4):
        cards = (rem >> (s * 16)) & 0x1FFF
        lo = (low >> (s * 16)) & 0x1FFF
        hi = (high >> (s * 16)) & 0x1FFF
        seq = np.int64(0)
        ten = 15
        i = 0  # the place of the card from the top
        while cards:
            r = _HIGHEST[cards]
            cards ^= 1 << r
            holder = 4 if s * 16 + r == fd else ((lo >> r) & 1) | ((hi >> r) & 1) << 1
            if r == 8:
                ten = i
            seq |= np.int64(holder) << (3 * i)
            i += 1
        agg[2 + s] = seq
        agg[1] |= np.int64(ten) << (_TEN_PLACES + 4 * s)  # 15 if played


@_compiled()
def _top(st: np.ndarray, counts: int) -> int:
    """The highest unplayed cards of each suit, as many as ``counts`` says (4 bits a suit)."""
    rem = _remaining(st)
    mask = np.int64(0)
    for s in range(4):
        cards = (rem >> (s * 16)) & 0x1FFF
        drop = _popcount(cards) - ((counts >> (4 * s)) & 15)
        for _ in range(drop):
            cards &= cards - 1  # the lowest card goes
        mask |= cards << (s * 16)
    return int(mask)


@_compiled()
def _counts(st: np.ndarray, cfg: np.ndarray, relevant: int) -> int:
    """How many of each suit's highest unplayed cards a result depends on: down to the
    lowest ``relevant`` card, and always down to the ten (every card under highest_trick)."""
    rem = _remaining(st)
    if cfg[_EQUIV] == 0:
        relevant = rem
    counts = 0
    for s in range(4):
        cards = (rem >> (s * 16)) & 0x1FFF
        needed = ((relevant >> (s * 16)) | 0x100) & cards
        if needed:
            lowest = needed & -needed
            counts |= _popcount(cards & ~(lowest - 1)) << (4 * s)
    return counts


@_compiled()
def _matches(entry: np.ndarray, agg: np.ndarray) -> bool:
    """Whether a table entry holds for the position ``agg``: the same lengths and state, and
    the same holders of the highest cards the entry depends on."""
    if entry[1] != agg[1] or entry[0] != agg[0]:
        return False
    for s in range(4):
        k = (entry[6] >> (4 * s)) & 15
        if agg[2 + s] & ((np.int64(1) << (3 * k)) - 1) != entry[2 + s]:
            return False
    return True


@_compiled()
def _from_top(st: np.ndarray, card: int) -> int:
    """A card as its suit and its place among the suit's unplayed cards from the top."""
    if card < 0 or card == _ASK:
        return card
    above = _remaining(st) & ~((np.int64(2) << card) - 1) & (np.int64(0x1FFF) << (card & 48))
    return (card & 48) + _popcount(above)


@_compiled()
def _at_place(st: np.ndarray, place: int) -> int:
    """The card at a place given by _from_top in this position (-1: none)."""
    if place < 0 or place == _ASK:
        return place
    rem = _remaining(st)
    suit = place >> 4
    j = 0
    for r in range(12, -1, -1):
        if (rem >> (suit * 16 + r)) & 1:
            if j == place & 15:
                return suit * 16 + r
            j += 1
    return -1


@_compiled()
def _slot(agg: np.ndarray, mask: int) -> int:
    """The table slot of a position: from what every entry for it depends on, the lengths,
    the state and the holders of each suit's cards down to its unplayed ten."""
    h = (np.uint64(agg[1]) + np.uint64(1)) * np.uint64(0x9E3779B97F4A7C15)
    h = (h ^ np.uint64(agg[0])) * np.uint64(0xBF58476D1CE4E5B9)
    for s in range(4):
        place = (agg[1] >> (_TEN_PLACES + 4 * s)) & 15
        if place != 15:
            top = agg[2 + s] & ((np.int64(1) << (3 * place + 3)) - 1)
            h = (h ^ np.uint64(top)) * np.uint64(0xBF58476D1CE4E5B9)
            h ^= h >> np.uint64(29)
    h ^= h >> np.uint64(29)
    h *= np.uint64(0x94D049BB133111EB)
    return int(h >> np.uint64(32)) & mask


@_compiled()
def _class(st: np.ndarray, cfg: np.ndarray, card: int) -> int:
    """A card searched for its class of equivalent cards (see _moves) and the rest of the
    class: the cards under it in the same hand with no other unplayed card in between."""
    mask = np.int64(1) << card
    if cfg[_EQUIV] == 0 or card == _ASK or card & 15 == 8:
        return int(mask)
    suit = card & 48
    below = (np.int64(1) << (card & 15)) - 1
    hand = (st[_H + st[_TURN]] >> suit) & below
    unplayed = (_unplayed(st) >> suit) & below
    # The highest card under it that ends the class: another hand's, or a 10.
    stops = (unplayed & ~hand) | (unplayed & 0x100)
    if stops:
        hand &= ~((np.int64(2) << _HIGHEST[stops]) - 1)
    mask |= hand << suit
    return int(mask)


@_compiled()
def _ranked(st: np.ndarray) -> int:
    """The winning card of the trick just completed (see _apply) if its rank decided it: it
    beat another card of its own suit counted the same way (as trump, or of the led suit)."""
    win = st[_WIN]
    return int(np.int64(1) << st[_TC + win]) if _outranks(st, 4, win) else 0


_W = 4  # ways (entries) in a slot of the table
# An entry: 0-5 as _aggregate (2-5 only the holders of the highest cards it depends on),
# 6 how many cards of each suit it depends on (see _counts), 7 and 8 the lower and upper
# bound on the value team 0 adds, 9 the best move found (see _from_top), 10 (way 0 only)
# the way the slot replaces next.
_E = 11
# A row of ``frames`` for each depth of the search: the position (``_NST`` values), as the
# table sees it (see _aggregate), the cards the result depends on, the moves and their scores
# (see _moves). A move is made on a copy in the next row, so that no position is restored.
_AGG = _NST
_REL = _AGG + 6
_MV = _REL + 1
_NFR = _MV + 32
_LIMIT, _STOPPED = 1, 2  # in ``stats`` (0: nodes searched, ever): count to stop at, 1 once it did


@_compiled("b1(i8[::1], i8[:, :, ::1], i8[:, ::1], i8[::1], i8, i8)", inline=False)
def _search(
    cfg: np.ndarray,
    table: np.ndarray,
    frames: np.ndarray,
    stats: np.ndarray,
    target: int,
    depth: int,
) -> bool:
    """Whether team 0 can add at least ``target`` to its value from the position in
    ``frames[depth]``. It also leaves in ``frames[depth, _REL]`` the cards the answer
    depends on (the partition search of DDS): it holds in every position that differs only
    in which hands hold the other, lower cards, suit lengths staying the same; the table
    stores results that way."""
    stats[0] += 1
    if stats[0] > stats[_LIMIT] > 0:
        stats[_STOPPED] = 1  # out of nodes: every search returns at once, storing nothing
    if stats[_STOPPED] == 1:
        return False
    st = frames[depth]
    frames[depth, _REL] = 0
    if target <= 0:
        return True
    upper = _upper(st, cfg)
    sure = _trump_ten(st, cfg)
    if sure == 0 and target <= cfg[_TENW]:
        return True
    if sure == 1:
        upper -= cfg[_TENW]
    side, depends, tens_in = _trick_sure(st, cfg)
    if side >= 0:
        trick = cfg[_TENW] * tens_in + 2
        if side == 0 and target <= trick + (cfg[_TENW] if sure == 0 else 0):
            frames[depth, _REL] = depends
            return True
        if side == 1:
            upper -= trick
            if target > upper:
                frames[depth, _REL] = depends
                return False
    if target > upper:
        return False
    at_boundary = st[_NT] == 0
    slot = 0
    hint = -1
    agg = frames[depth, _AGG:_REL]
    if at_boundary:
        _aggregate(st, agg)
        slot = _slot(agg, table.shape[0] - 1)
        for w in range(_W):
            entry = table[slot, w]
            if not _matches(entry, agg):
                continue
            if target <= entry[7] or target > entry[8]:
                frames[depth, _REL] = _top(st, entry[6])
                return bool(target <= entry[7])
            if hint < 0:
                hint = _at_place(st, entry[9])
    out = frames[depth, _MV:]
    child = frames[depth + 1]
    n = _moves(st, cfg, out, hint)
    maximizing = st[_TURN] & 1 == 0
    result = not maximizing
    best = -1
    relevant = 0
    for i in range(n):
        move = out[i]
        _copy(child, st)
        gain = _apply(child, cfg, move)
        extra = _ranked(child) if child[_NT] == 0 and move != _ASK else 0
        if child[_LEFT] == 0:
            ok = gain >= target
            below = extra
        else:
            ok = _search(cfg, table, frames, stats, target - gain, depth + 1)
            below = int(child[_REL]) | extra
        if stats[_STOPPED] == 1:
            return False
        if move != _ASK and (below >> move) & 1:
            below |= _class(st, cfg, move)
        if ok == maximizing:
            result = ok
            best = move
            relevant = below
            break
        relevant |= below
    if at_boundary:
        counts = _counts(st, cfg, relevant)
        for s in range(4):
            k = (counts >> (4 * s)) & 15
            agg[2 + s] &= (np.int64(1) << (3 * k)) - 1
        way = -1
        for w in range(_W):
            entry = table[slot, w]
            if entry[6] == counts and _matches(entry, agg):
                way = w
                break
        if way < 0:
            way = table[slot, 0, 10]
            table[slot, 0, 10] = (way + 1) % _W
            entry = table[slot, way]
            for k in range(6):
                entry[k] = agg[k]
            entry[6] = counts
            entry[7] = 0
            entry[8] = upper
            entry[9] = -1
        entry = table[slot, way]
        # What is proven is rounded to the values team 0 can reach from here: 32 for each
        # ten (and under highest_trick 32 for the highest trick) plus at most ``low`` from
        # tricks. So a bound holds whatever tricks were won on the way to the position.
        low = 2 * st[_LEFT] + cfg[_LASTB]
        if result:
            lower = target
            if target % 32 > low:
                lower = target - target % 32 + 32
            if lower > entry[7]:
                entry[7] = lower
        else:
            bound = target - 1
            if bound % 32 > low:
                bound = bound - bound % 32 + low
            if bound < entry[8]:
                entry[8] = bound
        if best >= 0:
            entry[9] = _from_top(st, best)
        relevant = _top(st, counts)
    frames[depth, _REL] = relevant
    return result


@_compiled(nogil=True, inline=False)  # no GIL: other threads (a server) run on
def _probe(
    st: np.ndarray,
    cfg: np.ndarray,
    table: np.ndarray,
    frames: np.ndarray,
    stats: np.ndarray,
    threshold: int,
    have: int,
    move: int,
) -> bool:
    """Whether team 0's final value reaches ``threshold`` under optimal play, with ``have``
    already won and ``move`` made first (-1: none)."""
    _copy(frames[0], st)
    gain = have
    if move >= 0:
        gain += _apply(frames[0], cfg, move)
    if threshold - gain <= 0:
        return True
    return frames[0, _LEFT] > 0 and _search(cfg, table, frames, stats, threshold - gain, 0)


@_compiled(nogil=True, inline=False)  # as _probe
def _rank(
    st: np.ndarray,
    cfg: np.ndarray,
    table: np.ndarray,
    frames: np.ndarray,
    stats: np.ndarray,
    thresholds: np.ndarray,
    have: int,
    move: int,
) -> int:
    """The forecast value (see Forecast): how many of the ascending ``thresholds`` team 0's
    final value reaches under optimal play, with ``have`` already won and ``move`` made first
    (-1: none). The tens are probed first; the tie-break or the whitewash only if needed."""
    args = (st, cfg, table, frames, stats)
    # thresholds: 0 a trick, 1 one ten, 2 two, 3 two and the tie-break, 4 three, 5 four, 6 all
    if _probe(*args, thresholds[2], have, move):
        if _probe(*args, thresholds[4], have, move):
            if _probe(*args, thresholds[5], have, move):
                value = 7 if _probe(*args, thresholds[6], have, move) else 6
            else:
                value = 5
        else:
            value = 4 if _probe(*args, thresholds[3], have, move) else 3
    elif _probe(*args, thresholds[1], have, move):
        value = 2
    else:
        value = 1 if _probe(*args, thresholds[0], have, move) else 0
    return value


class SolverError(ValueError):
    """A position the solver does not handle (e.g. 6 or 8 players)."""


class SolverBudgetError(SolverError):
    """The search ran out of the positions it was allowed (``max_nodes``)."""


@dataclass(frozen=True)
class Forecast:
    """The result of a deal under optimal play from some position on."""

    value: int
    """How good it is for team 0, from 0 (team 1 wins a whitewash) to 7 (team 0 does):
    1 team 1 mendikot, 2 team 1 wins 3–1, 3 and 4 a 2–2 tie-break lost and won by team 0,
    5 team 0 wins 3–1, 6 team 0 mendikot."""
    tens: tuple[int, int]
    """Tens each team ends with."""
    winner: int
    """The team that wins the deal."""
    kind: str
    """``win``, ``mendikot`` or ``whitewash`` (M-17)."""
    points: int
    """Match points the winner scores (M-18)."""

    def score(self, team: int) -> int:
        """Match points for ``team``: positive if it wins, negative if it loses."""
        return self.points if self.winner == team else -self.points

    def describe(self) -> str:
        """One line, e.g. ``Team 1 wins: 3–1 tens`` or ``Team 0 wins: 2–2 tens, on the
        tie-break``: the winner's tens first (as :meth:`hukum.mindi.Outcome.describe`)."""
        a, b = self.tens[self.winner], self.tens[1 - self.winner]
        name = {"win": "wins", "mendikot": "wins with mendikot", "whitewash": "wins a whitewash"}
        head = f"Team {self.winner} {name[self.kind]}: {a}–{b} tens"
        return head + (", on the tie-break" if a == b else "")


#: Team 0's tens, the winner and the kind of win of each forecast value (see Forecast).
_RESULTS = (
    (0, 1, "whitewash"),
    (0, 1, "mendikot"),
    (1, 1, "win"),
    (2, 1, "win"),
    (2, 0, "win"),
    (3, 0, "win"),
    (4, 0, "mendikot"),
    (4, 0, "whitewash"),
)


@dataclass(frozen=True)
class Solution:
    """The solved position: the result under optimal play, and the result after each move."""

    team: int
    """The team to move."""
    best: Forecast
    """The result the team to move can force."""
    moves: dict[Move, Forecast]
    """Each legal move and the result that follows it under optimal play."""
    nodes: int
    """Positions searched."""

    @property
    def best_moves(self) -> list[Move]:
        """The legal moves that keep the best result."""
        return [m for m, f in self.moves.items() if f.value == self.best.value]


class Solver:
    """Solves positions of 4-player Mindi deals under one set of rules (any trump method,
    reveal, capture, tie-break, pack and direction). Keeps a transposition table between
    calls (a lock makes one call at a time)."""

    def __init__(
        self, rules: Rules, table_bits: int = 20, counter: np.ndarray | None = None
    ) -> None:
        """A solver for ``rules`` with a table of ``2**table_bits`` trick-start positions.
        ``counter`` (3 int64s, e.g. in memory shared with another process) is where it
        counts: ``counter[0]`` the positions searched by all its calls, always rising, which
        another process may watch while a search runs."""
        if rules.players != 4:
            raise SolverError(f"the solver plays 4-player Mindi, not {rules.players} players")
        self.rules = rules
        n = rules.hand_size
        cfg = np.zeros(_NCFG, np.int64)
        cfg[_BAND] = rules.trump == "band"
        cfg[_ONREQ] = rules.trump == "band" and rules.reveal == "on_request"
        cfg[_AUTO] = rules.trump == "band" and rules.reveal == "auto"
        cfg[_CUT] = rules.trump == "cut"
        cfg[_MUST] = rules.must_trump
        cfg[_DEHLA] = rules.capture == "dehla"
        hi = rules.tie_break == "highest_trick"
        cfg[_HIMODE] = hi
        # Team 0's value is additive over tricks: tens, then (tricks mode) 2 a trick and 1 for
        # the last trick where tricks can be level (M-16), or (highest_trick) 32 for holding
        # the highest trick at the end, then 2 a trick.
        cfg[_LASTB] = 1 if not hi and n % 2 == 0 else 0
        cfg[_HIW] = 32 if hi else 0
        ten = 64 if hi else 32
        cfg[_TENW] = ten
        # Under highest_trick the rank of a winning card matters beyond its neighbours.
        cfg[_EQUIV] = 0 if hi else 1
        for s in range(4):
            cfg[_NEXT + s] = rules.next_seat(s)
        self._cfg = cfg
        # The values at which the result changes (see Forecast.value): a trick for team 0,
        # one ten, two tens, two tens and the tie-break, three, four, and every trick.
        tie = 2 * ten + (32 if hi else n + 1)
        top = 4 * ten + (32 if hi else 0) + 2 * n
        self._thresholds = np.array([2, ten, 2 * ten, tie, 3 * ten, 4 * ten, top], np.int64)
        # All zeros: no entry (see _USED). The memory is only touched where entries go.
        self._table = np.zeros((max(1, (1 << table_bits) // _W), _W, _E), np.int64)
        self._frames = np.zeros((_MAX_DEPTH + 1, _NFR), np.int64)
        if counter is not None and (counter.dtype != np.int64 or counter.shape != (3,)):
            raise ValueError("counter: an array of 3 int64s")
        self._stats = np.zeros(3, np.int64) if counter is None else counter
        self._stats[:] = 0
        self._base = 0  # stats[0] when the last call started
        self._budget = 0  # the last call's max_nodes
        self._lock = threading.Lock()

    def value(self, deal: Deal, max_nodes: int | None = None, move: Move | None = None) -> Forecast:
        """The result of ``deal`` under optimal play from its position (after ``move``, if
        given; all hands known). With ``max_nodes`` it gives up
        (:class:`SolverBudgetError`) after searching that many positions; the solver stays
        usable, keeping what it had proven."""
        self._check(deal)
        with self._lock:
            self._start(max_nodes)
            value = self._value(deal, move)
            self._finish()
            return self.forecast(value)

    def solve(self, deal: Deal, max_nodes: int | None = None) -> Solution:
        """The result of ``deal``'s position and after each legal move (all hands known);
        ``max_nodes`` as for :meth:`value`, for all the moves together."""
        self._check(deal)
        turn = deal.turn
        assert turn is not None
        with self._lock:
            self._start(max_nodes)
            values = {}
            for m in deal.legal_moves():
                values[m] = self.forecast(self._value(deal, m))
                self._finish()
            nodes = self.nodes
        pick = max if turn % 2 == 0 else min
        best = pick(values.values(), key=lambda f: f.value)
        return Solution(turn % 2, best, values, nodes)

    def tricks(
        self,
        deal: Deal,
        move: Move | None = None,
        max_nodes: int | None = None,
        value: int | None = None,
    ) -> tuple[int, int]:
        """The tricks each team ends with from ``deal``'s position (after ``move``, if given;
        all hands known) when both teams play first for the best result (the order of
        :attr:`Forecast.value`) and then for the most tricks: a few more null-window searches
        than :meth:`value`. ``value``, the forecast value if already known, spares finding it
        again; ``max_nodes`` as for :meth:`value`.

        >>> from hukum.mindi import Deal, Rules
        >>> deal = Deal.new(Rules(), dealer=0, seed=7)
        >>> for _ in range(36):
        ...     deal.push(deal.legal_moves()[0])
        >>> deal.tricks_won
        (8, 1)
        >>> Solver(Rules()).tricks(deal)  # team 0 takes the four tricks left
        (12, 1)
        """
        self._check(deal)
        if value is not None and not 0 <= value <= 7:
            raise ValueError(f"value={value!r}: a forecast value, 0 to 7")
        with self._lock:
            self._start(max_nodes)
            final = self._final(deal, move, value)
            self._finish()
        won = final % 32 // 2  # team 0's value: 32 a ten (and the highest trick), 2 a trick
        return won, self.rules.hand_size - won

    def at_least(
        self, deal: Deal, value: int, move: Move | None = None, max_nodes: int | None = None
    ) -> bool:
        """Whether the result of ``deal`` under optimal play from its position (after
        ``move``, if given) is at least ``value`` for team 0 (a :attr:`Forecast.value`, 0 to
        7): one null-window search, often much cheaper than the exact value; ``max_nodes`` as
        for :meth:`value`."""
        self._check(deal)
        with self._lock:
            self._start(max_nodes)
            reached = self._at_least(deal, value, move)
            self._finish()
            return reached

    def clear(self) -> None:
        """Forget every result stored in the table (its memory stays allocated)."""
        with self._lock:
            self._table.fill(0)

    @property
    def nodes(self) -> int:
        """Positions searched by the last call."""
        return int(self._stats[0]) - self._base

    def _start(self, max_nodes: int | None) -> None:
        """Count nodes from 0, with this budget (None: none); the lock is held."""
        if max_nodes is not None and max_nodes < 1:
            raise ValueError(f"max_nodes={max_nodes!r}: give at least one node, or None")
        self._base = int(self._stats[0])
        self._budget = max_nodes or 0
        self._stats[_LIMIT] = self._base + max_nodes if max_nodes else 0
        self._stats[_STOPPED] = 0

    def _finish(self) -> None:
        """Raise SolverBudgetError if the search ran out of nodes; the lock is held."""
        if self._stats[_STOPPED]:
            raise SolverBudgetError(f"not solved within {self._budget:,} positions searched")

    def _check(self, deal: Deal) -> None:
        if deal.rules != self.rules:
            raise SolverError("this solver was made for other rules")
        if deal.is_over():
            raise SolverError("the deal is over: there is nothing to solve")

    def _value(self, deal: Deal, move: Move | None) -> int:
        """Team 0's forecast value after ``move`` (None: of the position); the lock is held."""
        if deal.phase != "play":
            # Laying the face-down card or announcing trump: every choice in turn.
            if move is not None:
                deal.push(move)
                try:
                    return self._value(deal, None)
                finally:
                    deal.pop()
            turn = deal.turn
            assert turn is not None
            pick = max if turn % 2 == 0 else min
            return pick(self._value(deal, m) for m in deal.legal_moves())
        st, have = self._state(deal)
        args = (self._table, self._frames, self._stats, self._thresholds, have)
        return int(_rank(st, self._cfg, *args, self._code(move)))

    def _final(self, deal: Deal, move: Move | None, value: int | None) -> int:
        """Team 0's final value in the search's own units (see ``_thresholds``) after
        ``move`` (None: of the position) under optimal play, ``value`` its forecast value if
        known: the forecast first, then the exact value within it by bisection; the lock is
        held."""
        if deal.phase != "play":  # the face-down card or the announcement: every choice
            if move is not None:
                deal.push(move)
                try:
                    return self._final(deal, None, None)
                finally:
                    deal.pop()
            turn = deal.turn
            assert turn is not None
            pick = max if turn % 2 == 0 else min
            return pick(self._final(deal, m, None) for m in deal.legal_moves())
        st, have = self._state(deal)
        code = self._code(move)
        cfg, table, frames, stats, thresholds = (
            self._cfg,
            self._table,
            self._frames,
            self._stats,
            self._thresholds,
        )
        if value is None:
            value = int(_rank(st, cfg, table, frames, stats, thresholds, have, code))
        low = int(thresholds[value - 1]) if value > 0 else 0  # reached
        high = int(thresholds[value]) - 1 if value < 7 else low  # the most within the value
        while low < high:
            middle = (low + high + 1) // 2
            if _probe(st, cfg, table, frames, stats, middle, have, code):
                low = middle
            else:
                high = middle - 1
        return low

    @staticmethod
    def _code(move: Move | None) -> int:
        """A move as the compiled search has it (-1: none)."""
        if move is None:
            return -1
        return _ASK if move.kind is MoveKind.REVEAL else int(move.card)  # type: ignore[arg-type]

    def _at_least(self, deal: Deal, value: int, move: Move | None) -> bool:
        """As :meth:`at_least`; the lock is held."""
        if value <= 0:
            return True
        if value > 7:
            return False
        if deal.phase != "play":  # the face-down card or the announcement: every choice
            return self._value(deal, move) >= value
        st, have = self._state(deal)
        args = (self._table, self._frames, self._stats, self._thresholds[value - 1], have)
        return bool(_probe(st, self._cfg, *args, self._code(move)))

    def forecast(self, value: int) -> Forecast:
        """The forecast of a value from 0 to 7 (see :attr:`Forecast.value`)."""
        tens0, winner, kind = _RESULTS[value]
        points = self.rules.points[("win", "mendikot", "whitewash").index(kind)]
        return Forecast(value, (tens0, 4 - tens0), winner, kind, points)

    def _state(self, deal: Deal) -> tuple[np.ndarray, int]:
        """The compiled search's state of a deal in play, and team 0's value so far."""
        st = np.zeros(_NST, np.int64)
        turn = deal.turn
        assert turn is not None
        st[_TURN] = turn
        chooser = deal.chooser
        st[_CH] = 0 if chooser is None else chooser
        trick = deal.trick
        st[_NT] = len(trick)
        st[_LED] = trick[0].card >> 4 if trick else -1
        for i, p in enumerate(trick):
            st[_TS + i] = p.seat
            st[_TC + i] = p.card
            st[_TT + i] = p.trump
        trump = deal.trump
        st[_TRUMP] = -1 if trump is None else int(trump)
        st[_KNOWN] = deal.trump_known
        face_down = deal.face_down
        st[_FD] = face_down if face_down is not None and not deal.trump_known else -1
        reveal = deal.reveal
        st[_VOID] = _NO_VOID
        tricks = deal.tricks
        if (
            reveal is not None
            and reveal.position > 0
            and (reveal.trick, reveal.position) == (len(tricks), len(trick))
        ):
            st[_VOID] = _VOID_ASKED if reveal.asked else _VOID_REVEALED
        for s in range(4):
            st[_H + s] = deal.hand(s).mask
        st[_LEFT] = self.rules.hand_size - len(tricks)
        # Dehla: the pile and the winner of the last trick if it did not take the pile.
        st[_PILE] = (deal.pile.mask & _TENS).bit_count()
        streak = -1
        for t in tricks:
            streak = -1 if streak == t.winner else t.winner
        st[_STREAK] = streak if self.rules.capture == "dehla" else -1
        hikey, hiown = -1, 0
        for t in tricks:
            win = t.winning_card
            key = (32 if win.trump else 16) + (win.card & 15)
            if key > hikey:
                hikey, hiown = key, t.winner & 1
        if self.rules.tie_break == "highest_trick":
            st[_HIKEY] = hikey
            st[_HIOWN] = hiown
        else:
            st[_HIKEY] = -1
        cfg = self._cfg
        won = deal.tricks_won[0]
        tens = (deal.captured[0].mask & _TENS).bit_count()
        base = int(cfg[_TENW]) * tens + 2 * won
        return st, base


def move_classes(deal: Deal) -> list[tuple[Move, ...]]:
    """The legal moves of ``deal``'s position in classes of moves that lead to the same
    result, as the search takes them (one move searched a class): the cards of the mover's
    hand adjacent among the unplayed cards (in the hands, face down or in the trick), of one
    suit, neither a 10; under the ``highest_trick`` tie-break, where a winning card's rank
    counts beyond its neighbours, and for every other move, a class of one. In the order of
    ``deal.legal_moves()`` (by each class's first move).

    >>> from hukum.mindi import Deal, Rules
    >>> deal = Deal.new(Rules(), dealer=0, seed=7)
    >>> [len(c) for c in move_classes(deal)] == [1] * len(move_classes(deal))
    False
    """
    legal = deal.legal_moves()
    if deal.rules.tie_break == "highest_trick" or deal.phase != "play":
        return [(m,) for m in legal]
    unplayed = 0
    for seat in range(deal.rules.players):
        unplayed |= deal.hand(seat).mask
    face_down = deal.face_down
    if face_down is not None and not deal.trump_known:
        unplayed |= 1 << face_down
    for played in deal.trick:
        unplayed |= 1 << played.card
    classes: list[list[Move]] = []
    class_of: dict[int, list[Move]] = {}  # a card of the hand -> its class
    for move in legal:
        card = int(move.card) if move.kind is MoveKind.PLAY and move.card is not None else -1
        # The next unplayed card down the suit: the same class if it is this hand's too
        # (and neither is a 10).
        below = card - 1
        while card >= 0 and below >= card & 48 and not (unplayed >> below) & 1:
            below -= 1
        joined = class_of.get(below) if card >= 0 and card & 15 != 8 and below & 15 != 8 else None
        if joined is None:
            joined = []
            classes.append(joined)
        joined.append(move)
        if card >= 0:
            class_of[card] = joined
    return [tuple(c) for c in classes]
