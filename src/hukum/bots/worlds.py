"""Sampled worlds: the ways the unseen cards could lie that agree with a seat's view, and
play-outs in them.

A *world* deals the cards a seat has not seen to the other seats so that everything the seat
knows holds (hand sizes, shown voids, cards known to be in a hand, the band chooser's
face-down card); :func:`replay` rebuilds the deal from the hands as dealt, replays the
history and weighs the world by how likely the other seats' past plays were under a
:data:`Likelihood`. :func:`play_move_out` plays a move out in a world with the rule-based
player for every seat, working out each seat's facts from the deal instead of building a
view. The search player (:mod:`hukum.bots.search`) and the expert
(:mod:`hukum.bots.expert`) decide over these worlds; :mod:`hukum.games.mindi` deals its
analysis worlds with them.

>>> from hukum.mindi import Deal, Rules
>>> deal = Deal.new(Rules(), dealer=0, seed=2)
>>> view = deal.view(1)
>>> world = sample_world(view, random.Random(1))
>>> build_deal(view, world).view(1) == view
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import partial

from hukum.bots.rules import Knowledge, RulesBot
from hukum.cards import CARDS, SUIT_MASKS, bits, deck
from hukum.mindi import Deal, Move, MoveKind, View
from hukum.play import play_out

__all__ = [
    "DeterminizeError",
    "Likelihood",
    "World",
    "build_deal",
    "deal_knowledge",
    "play_move_out",
    "playout_value",
    "policy_move",
    "push_noting_voids",
    "replay",
    "rules_likelihood",
    "sample_world",
    "shown_voids",
]

#: A sampled world: every seat's current hand (bitmask) and the hidden face-down card.
World = tuple[tuple[int, ...], int | None]


class DeterminizeError(RuntimeError):
    """No way to deal the unseen cards agrees with the view (a bug in the view or here)."""


def shown_voids(view: View) -> list[int]:
    """Each seat's shown voids (``view.voids``, worked out by the engine's observer,
    :func:`hukum.mindi.view.shown_voids`) as a 4-bit mask of suits."""
    return [sum(1 << int(s) for s in v) for v in view.voids]


def _allowed(voids: int) -> int:
    """The mask of the cards a seat with these voids (4-bit mask of suits) may hold."""
    mask = 0
    for s in range(4):
        if not voids >> s & 1:
            mask |= SUIT_MASKS[s]
    return mask


def sample_world(view: View, rng: random.Random) -> World:
    """Deal the unseen cards at random to the other seats, agreeing with the view."""
    me = view.seat
    n = view.rules.players
    unseen = view.unseen.mask
    hidden_face_down = (
        view.chooser is not None
        and view.chooser != me
        and not view.trump_known
        and view.phase in ("play", "over")
        and any(m.kind is MoveKind.HIDE for _, m in view.history)
    )
    need = [0] * n
    base = [0] * n
    allowed = [0] * n
    voids = shown_voids(view)
    for seat in range(n):
        if seat == me:
            base[seat] = view.hand.mask
            continue
        known = view.known[seat].mask & ~view.hand.mask
        base[seat] = known
        need[seat] = view.hand_sizes[seat] - known.bit_count()
        allowed[seat] = _allowed(voids[seat])
    must_follow: tuple[int, int] | None = None
    turn = view.turn
    if (
        view.rules.trump == "band"
        and view.rules.reveal == "auto"
        and not view.trump_known
        and view.trick
        and turn is not None
        and turn != me
        and view.hand_sizes[turn] > 0
    ):
        must_follow = (turn, view.trick[0].card >> 4)
    total = sum(need) + (1 if hidden_face_down else 0)
    cards = list(bits(unseen))
    if total != len(cards):
        raise DeterminizeError(f"{len(cards)} unseen cards for {total} places")
    for _attempt in range(200):
        hands = list(base)
        left = list(need)
        pool = cards[:]
        rng.shuffle(pool)
        face_down: int | None = None
        if hidden_face_down:
            face_down = pool.pop()
        if must_follow is not None:
            # Band/auto, card still face down: the player to move must hold the led suit,
            # or the card would have been turned up at their turn (M-12).
            seat, led = must_follow
            if not hands[seat] & SUIT_MASKS[led]:
                follow = [c for c in pool if c >> 4 == led]
                if not follow:
                    continue
                c = rng.choice(follow)
                pool.remove(c)
                hands[seat] |= 1 << c
                left[seat] -= 1
        # Most constrained cards first: those fewest seats may hold.
        pool.sort(key=lambda c: sum(1 for s in range(n) if left[s] and allowed[s] >> c & 1))
        ok = True
        for c in pool:
            seats = [s for s in range(n) if left[s] > 0 and allowed[s] >> c & 1]
            if not seats:
                ok = False
                break
            weights = [left[s] for s in seats]
            seat = rng.choices(seats, weights)[0]
            hands[seat] |= 1 << c
            left[seat] -= 1
        if ok:
            return tuple(hands), face_down
    raise DeterminizeError("could not deal the unseen cards to agree with the shown voids")


def build_deal(view: View, world: World) -> Deal:
    """The deal of ``world`` (from the hands as dealt), with the view's history replayed."""
    return replay(view, world)[0]


#: How likely a player who knows these facts would make the move (third) of the legal moves
#: (second), up to a factor the same for every world: see :func:`replay`.
Likelihood = Callable[[Knowledge, Sequence[Move], Move], float]


def rules_likelihood(judge: RulesBot, miss: float) -> Likelihood:
    """1 for the move ``judge`` would make, ``miss`` for any other."""

    def likelihood(k: Knowledge, legal: Sequence[Move], move: Move) -> float:
        return 1.0 if judge.play(k, legal) == move else miss

    return likelihood


def replay(view: View, world: World, likelihood: Likelihood | None = None) -> tuple[Deal, float]:
    """The deal of ``world`` with the history replayed, and how likely the world is: the
    product of ``likelihood`` over the other seats' past plays with a choice (1 without)."""
    hands, face_down = world
    if face_down is None and view.reveal is not None:
        face_down = view.reveal.card
    original = list(hands)
    for seat, move in view.history:
        if move.kind is MoveKind.PLAY and move.card is not None:
            original[seat] |= 1 << move.card
        elif move.kind is MoveKind.HIDE and not view.trump_known:
            # Still face down: dealt to the chooser, held in no hand now.
            card = move.card if move.card is not None else face_down
            assert card is not None
            original[seat] |= 1 << card
    dealt = [[CARDS[c] for c in bits(mask)] for mask in original]
    deal = Deal(view.rules, view.dealer, dealt, shown_card=view.shown_card)
    weight = 1.0
    voids = [0] * view.rules.players
    me = view.seat
    for seat, move in view.history:
        if move.kind is MoveKind.HIDE:
            if move.card is None:
                assert face_down is not None
                move = Move.hide(face_down)
            deal.push(move, seat=seat)
            continue
        if likelihood is not None and seat != me and move.kind is not MoveKind.ANNOUNCE:
            legal = deal.legal_moves()
            if len(legal) > 1:
                weight *= likelihood(deal_knowledge(deal, voids), legal, move)
        push_noting_voids(deal, move, voids)
    return deal, weight


_TENS = sum(1 << (s * 16 + 8) for s in range(4))
_DECKS = {52: deck(52), 48: deck(48)}


def policy_move(deal: Deal, voids: list[int], policy: RulesBot, seat: int) -> Move:
    """The rule-based player's move for the seat to move in a play-out."""
    legal = deal.legal_moves()
    return policy.play(deal_knowledge(deal, voids), legal) if len(legal) > 1 else legal[0]


def push_noting_voids(deal: Deal, move: Move, voids: list[int]) -> None:
    """Make ``move``, noting a void when its card does not follow the led suit."""
    card = move.card
    if card is not None:
        trick = deal.trick
        if trick and trick[0].card >> 4 != card >> 4:
            turn = deal.turn
            assert turn is not None
            voids[turn] |= 1 << (trick[0].card >> 4)
    deal.push(move)


def deal_knowledge(deal: Deal, voids: list[int]) -> Knowledge:
    """What the player to move in a play-out knows, worked out without building a view."""
    rules = deal.rules
    seat = deal.turn
    assert seat is not None
    n = rules.players
    hands = deal.hand_masks()
    held = 0
    for h in hands:
        held |= h
    face_down = deal.face_down
    trump_known = deal.trump_known
    hidden = face_down is not None and not trump_known
    if hidden:
        assert face_down is not None
        held |= 1 << face_down
    played = _DECKS[rules.deck] & ~held
    known = [0] * n
    known[seat] = hands[seat]
    reveal = deal.reveal
    chooser = deal.chooser
    if reveal is not None and chooser is not None and hands[chooser] >> reveal.card & 1:
        known[chooser] |= 1 << reveal.card
    unseen = held & ~hands[seat]
    for k in known:
        unseen &= ~k
    if hidden and seat == chooser:
        assert face_down is not None
        unseen &= ~(1 << face_down)  # the chooser's own face-down card
    trick = deal.trick
    if hidden:
        # As in a view: until the reveal no card shows as a trump (M-13, M-20).
        trick = tuple(p._replace(trump=False) for p in trick)
    my_trump = -1
    if trump_known or seat == chooser:
        trump = deal.trump
        my_trump = -1 if trump is None else int(trump)
    taken = deal.captured_masks
    tens = ((taken[0] & _TENS).bit_count(), (taken[1] & _TENS).bit_count())
    return Knowledge(
        rules,
        seat,
        hands[seat],
        trick,
        played,
        my_trump,
        trump_known,
        unseen,
        voids,
        known,
        [h.bit_count() for h in hands],
        tens,
        deal.tricks_won,
        face_down if hidden and seat == chooser else None,
    )


def playout_value(deal: Deal, team: int) -> float:
    """The value of a finished play-out for ``team``: ±1 for the win or loss, a quarter more
    a match point above one, and 0.05 a ten more than the other team's."""
    outcome = deal.outcome()
    assert outcome is not None
    sign = 1.0 if outcome.winner == team else -1.0
    tens = outcome.tens[team] - outcome.tens[1 - team]
    return sign * (1.0 + 0.25 * (outcome.points - 1)) + 0.05 * tens


def play_move_out(
    deal: Deal, move: Move, team: int, voids: Sequence[int], policy: RulesBot
) -> tuple[float, int]:
    """Make ``move`` and play the deal out with ``policy`` for every seat (``voids``: the
    voids shown so far, as :func:`shown_voids`), then take it all back. Returns the
    :func:`playout_value` for ``team`` and the number of moves simulated."""
    noted = list(voids)
    push_noting_voids(deal, move, noted)
    choose = partial(policy_move, deal, noted, policy)
    pushed = 1 + play_out(deal, choose, partial(push_noting_voids, deal, voids=noted))
    value = playout_value(deal, team)
    for _ in range(pushed):
        deal.pop()
    return value, pushed
