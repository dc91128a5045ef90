"""A strong rule-based Mindi player: card counting and the classic plays, well under 1 ms a move.

Everything it uses comes from the seat's :class:`~hukum.mindi.View`: the cards played, the
master card of each suit, the live tens, the voids players have shown, the trump state and
whether the deal is already won or lost. Its plays, in order of priority:

* following: drop a 10 under partner's sure winner; win a trick holding a 10 with the lowest
  card that wins it for sure; don't waste a high trump on a trick without a 10; otherwise
  play low, keeping tens, masters and trumps;
* cut hukum: choose the cut suit by length, high cards, holding its 10 and cards gone;
* leading: cash a 10 once nothing above it is live; lead a master while the 10 of its suit
  is out (unless an opponent can cut); lead into partner's void; else lead low;
* once the deal is won play for mendikot (and whitewash), once lost deny them.

>>> from hukum.mindi import Deal, Rules
>>> deal = Deal.new(Rules(), dealer=0, seed=11)
>>> bot = RulesBot()
>>> while not deal.is_over():
...     deal.push(bot.choose(deal.view(deal.turn)))
>>> deal.outcome() is not None
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields

from hukum.bots.base import Bot, check_turn
from hukum.cards import CARDS, SUIT_MASKS, Card
from hukum.mindi import Move, MoveKind, Played, Rules, View

__all__ = [
    "Knowledge",
    "RulesBot",
    "RulesWeights",
    "face_down_card",
    "hold_score",
    "trump_candidates",
]

_SUIT = 0x1FFF
_TEN_RANK = 8  # bit of the 10 inside a suit's 13 bits (rank - 2)


def _suit(mask: int, s: int) -> int:
    return mask >> (s << 4) & _SUIT


def _top(bits13: int) -> int:
    """Rank offset (0 … 12) of the highest card of a suit's bits."""
    return bits13.bit_length() - 1


def _low(bits13: int) -> int:
    """Rank offset (0 … 12) of the lowest card of a suit's bits."""
    return (bits13 & -bits13).bit_length() - 1


@dataclass(frozen=True)
class RulesWeights:
    """The numbers behind the rule-based player's choices: how much each trait of a card
    counts against leading it (``lead_*``) or throwing it away (``discard_*``), the lowest
    trump rank (0 = the 2) worth keeping off a trick without a 10, and how a suit is scored
    as trump (``hold_*``, :func:`hold_score`). The defaults are the player's own."""

    lead_ten: float = 40.0
    lead_master: float = 15.0
    lead_trump: float = 25.0
    lead_under_ten: float = 12.0  # leading from beside our own 10, fewer than 3 guards
    lead_under_ten_guarded: float = 4.0
    lead_unsafe: float = 8.0  # an opponent may cut the suit
    lead_length: float = 0.5  # a card of the suit: lead short suits to make voids
    discard_ten: float = 50.0
    discard_trump: float = 30.0
    discard_master: float = 12.0
    discard_guard: float = 3.0  # a guard of our own 10
    discard_length: float = 0.3
    high_trump: int = 9  # J: a sure winner this high is kept off a trick with nothing in it
    hold_length: float = 2.0
    hold_ace: float = 3.0
    hold_king: float = 2.0
    hold_queen: float = 1.0
    hold_jack: float = 0.5
    hold_ten: float = 2.5
    hold_gone: float = 0.4  # a card of the suit already played

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            whole = f.type in (int, "int")
            if isinstance(value, bool) or not isinstance(value, int if whole else (int, float)):
                kind = "a whole number" if whole else "a number"
                raise ValueError(f"{f.name}={value!r}: the weight must be {kind}")
            if not whole:
                object.__setattr__(self, f.name, float(value))


_DEFAULT = RulesWeights()


def hold_score(hand: int, s: int, gone: int = 0, weights: RulesWeights = _DEFAULT) -> float:
    """How good suit ``s`` is as trump for ``hand``: length, high cards, its 10, cards gone."""
    mine = _suit(hand, s)
    if not mine:
        return -100.0
    w = weights
    score = w.hold_length * mine.bit_count()
    for offset, bonus in (
        (12, w.hold_ace),
        (11, w.hold_king),
        (10, w.hold_queen),
        (9, w.hold_jack),
    ):
        if mine >> offset & 1:
            score += bonus
    if mine >> _TEN_RANK & 1:
        score += w.hold_ten
    score -= w.hold_gone * _suit(gone, s).bit_count()
    return score


def face_down_card(hand: int, s: int) -> Card:
    """The card of suit ``s`` (held in ``hand``) to lay face down for it under band hukum:
    the lowest but the 10, so that the 10 and the honours stay in hand to play."""
    mine = _suit(hand, s)
    low = mine & ~(1 << _TEN_RANK) or mine
    return CARDS[(s << 4) + _low(low)]


def trump_candidates(view: View) -> list[Move]:
    """The trump choices worth trying for a seat choosing trump (M-12, M-15): every suit
    to announce; to lay face down, one card of each suit held, the one the rule-based player
    would lay for it (:func:`face_down_card`)."""
    moves = check_turn(view)
    if moves[0].kind is MoveKind.ANNOUNCE:
        return list(moves)
    hand = view.hand.mask
    return [Move.hide(face_down_card(hand, s)) for s in range(4) if hand & SUIT_MASKS[s]]


class Knowledge:
    """What one seat can work out from its view: who may hold what, trump, the trick, stakes."""

    __slots__ = (
        "band_hidden",
        "cut_unset",
        "decided",
        "face_down",
        "hand",
        "led",
        "me",
        "n",
        "order",
        "others_mask",
        "played",
        "poss",
        "team",
        "tens",
        "trick",
        "trick_mode",
        "trump",
        "trump_known",
    )

    def __init__(
        self,
        rules: Rules,
        seat: int,
        hand: int,
        trick: Sequence[Played],
        played: int,
        trump: int,
        trump_known: bool,
        unseen: int,
        voids: Sequence[int],
        known: Sequence[int],
        hand_sizes: Sequence[int],
        tens: tuple[int, int],
        tricks_won: tuple[int, int],
        face_down: int | None = None,
    ) -> None:
        """Facts from raw parts: masks of cards, ``voids`` as 4-bit masks of suits per seat,
        ``tens`` and ``tricks_won`` by team (0, 1), ``trump`` -1 when this seat does not know."""
        n = self.n = rules.players
        me = self.me = seat
        self.team = me & 1
        self.hand = hand
        self.trick = trick
        self.played = played
        self.trump = trump
        self.trump_known = trump_known
        self.face_down = face_down
        self.cut_unset = rules.trump == "cut" and trump < 0
        self.band_hidden = rules.trump == "band" and not trump_known
        # What each other seat may hold: unseen cards outside its shown voids, plus known cards.
        poss = []
        others = 0
        for other in range(n):
            if other == me:
                poss.append(hand)
                continue
            m = unseen
            v = voids[other]
            if v:
                for s in range(4):
                    if v >> s & 1:
                        m &= ~(_SUIT << (s << 4))
            if hand_sizes[other] == 0:
                m = 0
            m |= known[other]
            poss.append(m)
            others |= m
        self.poss = poss
        self.others_mask = others
        self.led = trick[0].card >> 4 if trick else -1
        order = []
        other = me
        for _ in range(n - len(trick) - 1):
            other = rules.next_seat(other)
            order.append(other)
        self.order = order  # seats still to play to this trick after me
        ours, theirs = tens[self.team], tens[1 - self.team]
        self.tens = (ours, theirs)  # tens taken by this seat's team, by the other
        self.decided = 1 if ours >= 3 else (-1 if theirs >= 3 else 0)
        live_tens = 4 - ours - theirs
        won = tricks_won
        # Tricks themselves matter when the tens are settled, or for a (denied) whitewash.
        self.trick_mode = (
            live_tens == 0
            or (self.decided == 1 and won[1 - self.team] == 0)
            or (self.decided == -1 and won[self.team] == 0)
        )

    @classmethod
    def of_view(cls, view: View) -> Knowledge:
        """What the seat of ``view`` knows."""
        played = 0
        for t in view.tricks:
            for p in t.plays:
                played |= 1 << p.card
        for p in view.trick:
            played |= 1 << p.card
        voids = [sum(1 << int(s) for s in v) for v in view.voids]
        return cls(
            view.rules,
            view.seat,
            view.hand.mask,
            view.trick,
            played,
            -1 if view.trump is None else int(view.trump),
            view.trump_known,
            view.unseen.mask,
            voids,
            [k.mask for k in view.known],
            view.hand_sizes,
            (len(view.tens[0]), len(view.tens[1])),
            view.tricks_won,
            view.face_down,
        )

    # ------------------------------------------------------------ facts

    def others(self) -> int:
        """Every card another seat may hold (or have face down)."""
        return self.others_mask

    def opponents_after(self) -> list[int]:
        """Opponents still to play to this trick after this seat."""
        return [s for s in self.order if s & 1 != self.team]

    def is_master(self, card: int) -> bool:
        """Whether no other seat may hold a higher card of this card's suit."""
        s = card >> 4
        above = _SUIT & ~((2 << (card & 15)) - 1)
        return not _suit(self.others_mask, s) & above

    def void(self, seat: int, s: int) -> bool:
        """Whether ``seat`` surely holds no card of suit ``s``."""
        return not _suit(self.poss[seat], s)

    def may_ruff(self, seat: int, led: int, trump: int) -> bool:
        """Whether ``seat``, if void in ``led``, might win with a trump (or by cutting)."""
        if not self.void(seat, led) or not self.poss[seat]:
            return False
        if trump < 0:
            # Cut hukum before trump: any card cuts. Band hukum unknown to us: maybe.
            return self.cut_unset or self.band_hidden
        if trump == led:
            return False
        return bool(_suit(self.poss[seat], trump))

    def can_beat(self, seat: int, key: int, led: int, trump: int) -> bool:
        """Whether ``seat`` (still to play) might beat a card of winning ``key``."""
        poss = self.poss[seat]
        if key >= 32:  # a trump is winning
            t = key - 32
            if trump < 0:
                return self.void(seat, led) and (self.cut_unset or self.band_hidden)
            if led == trump:
                return bool(_suit(poss, trump) >> (t + 1))
            if not self.void(seat, led):
                return False
            return bool(_suit(poss, trump) >> (t + 1))
        r = key - 16
        if _suit(poss, led) >> (r + 1):
            return True
        return self.may_ruff(seat, led, trump)

    def card_key(self, card: int, trump: int) -> int:
        """The winning key of ``card`` played now by this seat: 32+ trump, 16+ led suit, 0."""
        s = card >> 4
        offset = card & 15
        if trump >= 0 and s == trump and (self.trump_known or self.cut_unset):
            return 32 + offset
        if self.cut_unset and self.led >= 0 and s != self.led:
            return 32 + offset  # this card sets trump (M-11)
        if s == self.led:
            return 16 + offset
        return 0

    def best(self) -> tuple[int, int]:
        """The winning key and seat of the trick so far."""
        best, seat = -1, -1
        led = self.led
        for p in self.trick:
            if p.trump:
                key = 32 + (p.card & 15)
            elif p.card >> 4 == led:
                key = 16 + (p.card & 15)
            else:
                continue
            if key > best:
                best, seat = key, p.seat
        return best, seat

    def sure(self, key: int, trump: int) -> bool:
        """Whether a card of ``key`` would win the trick whatever the opponents after us do."""
        return not any(self.can_beat(s, key, self.led, trump) for s in self.opponents_after())

    def tens_in_trick(self) -> int:
        """Tens already in the trick."""
        return sum(1 for p in self.trick if p.card & 15 == _TEN_RANK)


def _is_ten(card: int) -> bool:
    return card & 15 == _TEN_RANK


class RulesBot(Bot[View, Move]):
    """The rule-based player (see the module documentation for its plays)."""

    name = "rules"

    def __init__(self, weights: RulesWeights = _DEFAULT) -> None:
        """A rule-based player weighing its choices by ``weights`` (default: its own)."""
        self.weights = weights

    def choose(self, view: View) -> Move:
        """The move the rules pick for this view."""
        moves = check_turn(view)
        if len(moves) == 1:
            return moves[0]
        first = moves[0].kind
        if first is MoveKind.HIDE:
            return self._hide(view, moves)
        if first is MoveKind.ANNOUNCE:
            return self._announce(view, moves)
        return self.play(Knowledge.of_view(view), moves)

    def play(self, k: Knowledge, moves: Sequence[Move]) -> Move:
        """The card (or reveal) the rules pick in the play phase, from worked-out facts."""
        if len(moves) == 1:
            return moves[0]
        cards = [m.card for m in moves if m.card is not None]
        if moves[-1].kind is MoveKind.REVEAL and self._wants_reveal(k):
            return Move.REVEAL_TRUMP
        card = self._lead(k, cards) if k.led < 0 else self._follow(k, cards)
        return Move.play(card)

    # ------------------------------------------------------------ trump choices

    def _hide(self, view: View, moves: Sequence[Move]) -> Move:
        hand = view.hand.mask
        suit = max(range(4), key=lambda s: hold_score(hand, s, weights=self.weights))
        return Move.hide(face_down_card(hand, suit))

    def _announce(self, view: View, moves: Sequence[Move]) -> Move:
        hand = view.hand.mask
        suit = max(range(4), key=lambda s: hold_score(hand, s, weights=self.weights))
        return Move.announce(suit)

    def _wants_reveal(self, k: Knowledge) -> bool:
        _best, seat = k.best()
        if seat & 1 == k.team and k.tens_in_trick() == 0:
            return False
        if k.face_down is not None:  # our own card: we hold a trump after the reveal
            return k.tens_in_trick() > 0 or seat & 1 != k.team
        return k.tens_in_trick() > 0 or (k.trick_mode and seat & 1 != k.team)

    # ------------------------------------------------------------ leading

    def _lead(self, k: Knowledge, cards: list[Card]) -> Card:
        hand = k.hand
        trump = k.trump
        others = k.others()
        opps = [s for s in range(k.n) if s & 1 != k.team]
        partners = [s for s in range(k.n) if s & 1 == k.team and s != k.me]
        relaxed = k.decided != 0  # nothing but mendikot or whitewash left to play for

        def safe(s: int) -> bool:
            return not any(k.may_ruff(o, s, trump) for o in opps)

        # Cash a 10 once nothing above it is live.
        for s in range(4):
            ten = (s << 4) + _TEN_RANK
            if hand >> ten & 1 and k.is_master(ten) and (s == trump or safe(s)):
                return CARDS[ten]
        # Lead a master while the 10 of its suit is still out (unless an opponent can cut).
        for s in sorted(range(4), key=lambda s: s == trump):
            mine = _suit(hand, s)
            if not mine:
                continue
            top = (s << 4) + _top(mine)
            if _suit(others, s) >> _TEN_RANK & 1 and k.is_master(top) and (relaxed or safe(s)):
                return CARDS[top]
        # Lead into partner's void: partner can cut or trump, the opponents cannot.
        for s in range(4):
            mine = _suit(hand, s) & ~(1 << _TEN_RANK)
            if not mine or s == trump:
                continue
            if any(k.void(p, s) and k.poss[p] for p in partners) and safe(s):
                return CARDS[(s << 4) + _low(mine)]
        if k.trick_mode:
            masters = [c for c in cards if k.is_master(c) and (c >> 4 == trump or safe(c >> 4))]
            if masters:
                return max(masters, key=lambda c: (c >> 4 != trump, c & 15))
        return self._low_lead(k, cards, safe)

    def _low_lead(self, k: Knowledge, cards: list[Card], safe: Callable[[int], bool]) -> Card:
        hand = k.hand
        trump = k.trump
        w = self.weights

        def score(c: Card) -> float:
            s = c >> 4
            mine = _suit(hand, s)
            value = float(c & 15)
            if _is_ten(c):
                value += w.lead_ten
            if k.is_master(c):
                value += w.lead_master
            if s == trump:
                value += w.lead_trump
            if mine >> _TEN_RANK & 1 and not _is_ten(c):
                # Leading from under our own 10 exposes it unless it is well guarded.
                thin = (mine & ((1 << _TEN_RANK) - 1)).bit_count() < 3
                value += w.lead_under_ten if thin else w.lead_under_ten_guarded
            if not safe(s):
                value += w.lead_unsafe
            value += w.lead_length * mine.bit_count()  # lead from short suits to make voids
            return value

        return min(cards, key=score)

    # ------------------------------------------------------------ following

    def _follow(self, k: Knowledge, cards: list[Card]) -> Card:
        led = k.led
        following = cards[0] >> 4 == led
        trump = k.trump
        if k.cut_unset and not following:
            # Whatever we play makes its suit trump (M-11): play the suit we want as trump.
            trump = self._cut_suit(k, cards)
            cards = [c for c in cards if c >> 4 == trump]
        best, best_seat = k.best()
        partner_winning = best_seat & 1 == k.team
        tens_here = k.tens_in_trick()
        if partner_winning and k.sure(best, trump):
            # Partner takes it: give them a 10 if we can, else something worthless.
            tens = [c for c in cards if _is_ten(c)]
            if tens:
                return tens[0]
            return self._discard(k, cards, trump)
        winners = [c for c in cards if k.card_key(c, trump) > best]
        if k.cut_unset and not following:
            winners = [c for c in winners if c >> 4 == trump]
        sure = [c for c in winners if k.sure(k.card_key(c, trump), trump)]
        my_tens = [c for c in sure if _is_ten(c)]
        if my_tens:
            return my_tens[0]  # our own 10 wins the trick: take it home
        stake = 10 * tens_here + (1 if k.trick_mode else 0)
        # Tens that may still fall to this trick from the players after us.
        falls = 0
        if led >= 0:
            ten = (led << 4) + _TEN_RANK
            falls = sum(1 for s in k.order if k.poss[s] >> ten & 1)
        if sure:
            cheapest = min(sure, key=lambda c: k.card_key(c, trump))
            is_trump = cheapest >> 4 == trump and cheapest >> 4 != led
            high_trump = is_trump and (cheapest & 15) >= self.weights.high_trump
            if stake > 0 or falls or not high_trump:
                if partner_winning and stake == 0 and not falls and not k.trick_mode:
                    return self._discard(k, cards, trump)
                return cheapest
            return self._discard(k, cards, trump)
        if winners and (stake > 0 or (falls and not partner_winning)) and not partner_winning:
            # Not sure to hold: the higher, the likelier to stand.
            return max(winners, key=lambda c: (k.card_key(c, trump), -_is_ten(c)))
        return self._discard(k, cards, trump)

    def _cut_suit(self, k: Knowledge, cards: list[Card]) -> int:
        """The suit to make trump when this seat is the first to cut (M-11)."""
        hand = k.hand
        gone = k.played
        suits = {c >> 4 for c in cards}
        return max(suits, key=lambda s: hold_score(hand, s, gone, self.weights))

    def _discard(self, k: Knowledge, cards: list[Card], trump: int) -> Card:
        hand = k.hand
        w = self.weights

        def score(c: Card) -> float:
            s = c >> 4
            value = float(c & 15)
            if _is_ten(c):
                value += w.discard_ten
            if s == trump and s != k.led:
                value += w.discard_trump
            if k.is_master(c):
                value += w.discard_master
            mine = _suit(hand, s)
            if mine >> _TEN_RANK & 1 and not _is_ten(c) and (mine & ((1 << _TEN_RANK) - 1)):
                value += w.discard_guard  # keep guards for our 10
            value += w.discard_length * mine.bit_count()
            return value

        return min(cards, key=score)
