"""A determinized Monte-Carlo search player: deal out the unseen cards, play each move out.

For every *world* (a way the unseen cards could lie that agrees with everything the seat
knows: hand sizes, shown voids, cards known to be in a hand, the band chooser's face-down
card) it rebuilds the deal from the hands as dealt, replays the history, and plays each
legal move to the end with the rule-based bot for all four seats. The move with the best
mean result over the worlds is played. Non-card decisions (the face-down card, the
announced suit) are left to the rule-based bot.

>>> from hukum.mindi import Deal, Rules
>>> deal = Deal.new(Rules(), dealer=0, seed=2)
>>> bot = SearchBot(seed=1, worlds=4, time_budget=None)
>>> bot.choose(deal.view(1)) in deal.legal_moves()
True
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from functools import partial

from hukum.bots.base import Bot, check_turn
from hukum.bots.rules import Knowledge, RulesBot, face_down_card
from hukum.cards import CARDS, SUIT_MASKS, Card, bits, deck
from hukum.mindi import Deal, Move, MoveKind, View
from hukum.play import play_out

__all__ = [
    "Likelihood",
    "SearchBot",
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
    "search_trump",
    "shown_voids",
    "trump_candidates",
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


def playout_value(deal: Deal, team: int, trick: float = 0.0) -> float:
    """The value of a finished play-out for ``team``: ±1 for the win or loss, a quarter more
    a match point above one, 0.05 a ten more than the other team's (and ``trick`` a trick
    more than the other team's)."""
    outcome = deal.outcome()
    assert outcome is not None
    sign = 1.0 if outcome.winner == team else -1.0
    tens = outcome.tens[team] - outcome.tens[1 - team]
    tricks = outcome.tricks[team] - outcome.tricks[1 - team]
    return sign * (1.0 + 0.25 * (outcome.points - 1)) + 0.05 * tens + trick * tricks


def play_move_out(
    deal: Deal, move: Move, team: int, voids: Sequence[int], policy: RulesBot, trick: float = 0.0
) -> tuple[float, int]:
    """Make ``move`` and play the deal out with ``policy`` for every seat (``voids``: the
    voids shown so far, as :func:`shown_voids`), then take it all back. Returns the
    :func:`playout_value` for ``team`` and the number of moves simulated."""
    noted = list(voids)
    push_noting_voids(deal, move, noted)
    choose = partial(policy_move, deal, noted, policy)
    pushed = 1 + play_out(deal, choose, partial(push_noting_voids, deal, voids=noted))
    value = playout_value(deal, team, trick)
    for _ in range(pushed):
        deal.pop()
    return value, pushed


def trump_candidates(view: View) -> list[Move]:
    """The trump choices worth trying for a seat choosing trump (M-12, M-15): every suit
    to announce; to lay face down, one card of each suit held, the one the rule-based player
    would lay for it (:func:`hukum.bots.rules.face_down_card`)."""
    moves = check_turn(view)
    if moves[0].kind is MoveKind.ANNOUNCE:
        return list(moves)
    hand = view.hand.mask
    return [Move.hide(face_down_card(hand, s)) for s in range(4) if hand & SUIT_MASKS[s]]


def _dealt_world(view: View, rng: random.Random) -> Deal:
    """A deal as dealt that agrees with what the seat choosing trump has seen: its own
    hand (under announce hukum, its first five cards and eight more at random), the rest
    of the pack dealt at random to the other seats."""
    rules = view.rules
    me, size = view.seat, rules.hand_size
    mine = list(bits(view.hand.mask))
    pool = list(bits(_DECKS[rules.deck] & ~view.hand.mask))
    rng.shuffle(pool)
    hands: list[list[Card]] = []
    for seat in range(rules.players):
        take = size - len(mine) if seat == me else size
        dealt, pool = pool[:take], pool[take:]
        hands.append(mine + dealt if seat == me else dealt)
    return Deal(rules, view.dealer, hands, shown_card=view.shown_card)


def search_trump(view: View, rng: random.Random, worlds: int, policy: RulesBot) -> Move:
    """The trump choice (the face-down card, or the suit to announce) with the best mean
    play-out result over ``worlds`` deals that agree with the view, every candidate of
    :func:`trump_candidates` played out by ``policy`` in the same deals."""
    if worlds < 1:
        raise ValueError(f"worlds={worlds!r}: at least one deal to play out")
    moves = trump_candidates(view)
    if len(moves) == 1:
        return moves[0]
    team = view.seat & 1
    totals = [0.0] * len(moves)
    for _ in range(worlds):
        deal = _dealt_world(view, rng)
        for i, move in enumerate(moves):
            voids = [0] * view.rules.players
            deal.push(move, seat=view.seat)
            choose = partial(policy_move, deal, voids, policy)
            pushed = 1 + play_out(deal, choose, partial(push_noting_voids, deal, voids=voids))
            totals[i] += playout_value(deal, team)
            for _ in range(pushed):
                deal.pop()
    return moves[max(range(len(moves)), key=lambda i: totals[i])]


class SearchBot(Bot[View, Move]):
    """Flat Monte-Carlo over sampled worlds with rule-based play-outs (see module doc)."""

    name = "search"

    def __init__(
        self,
        seed: int = 0,
        time_budget: float | None = None,
        worlds: int | None = 200,
        min_worlds: int = 4,
        infer: float = 1.0,
        steps: int | None = 13000,
        trick: float = 0.0,
        natural_z: float | None = None,
    ) -> None:
        """A search bot. It stops sampling worlds at the first of its budgets: ``steps``
        moves simulated in play-outs (summed over worlds and candidate moves), ``worlds``
        worlds, or ``time_budget`` seconds (wall-clock, so weaker on a busy machine), but
        never before ``min_worlds`` worlds. ``infer`` weighs down a world for each past play
        of another seat that the rule-based player would not have made there (1.0, the
        default: every world counts the same). A play-out's value is :func:`playout_value`'s,
        with ``trick`` for each trick more than the other team's (0, the default: tricks
        count only through the results they decide). With ``natural_z``, the best move
        replaces the rule-based player's only if its mean beats that move's by more than
        ``natural_z`` standard errors of their difference, world by world (None, the
        default: the best mean is played)."""
        if not 0.0 < infer <= 1.0:
            raise ValueError(f"infer={infer!r} must be above 0 and at most 1")
        self.infer = infer
        if not trick >= 0.0:  # NaN too
            raise ValueError(f"trick={trick!r}: 0 or more")
        self.trick = trick
        if natural_z is not None and not natural_z >= 0.0:
            raise ValueError(f"natural_z={natural_z!r}: 0 or more, or None")
        self.natural_z = natural_z
        if time_budget is None and worlds is None and steps is None:
            raise ValueError("give the search bot a budget: steps, worlds or time_budget")
        self.rng = random.Random(seed)
        self.time_budget = time_budget
        self.worlds = worlds
        self.steps = steps
        self.min_worlds = min_worlds
        self.policy = RulesBot()
        self.last_worlds = 0
        self.last_steps = 0

    def choose(self, view: View) -> Move:
        """The legal move with the best mean play-out result over sampled worlds."""
        moves = check_turn(view)
        if len(moves) == 1 or moves[0].kind in (MoveKind.HIDE, MoveKind.ANNOUNCE):
            return moves[0] if len(moves) == 1 else self.policy.choose(view)
        start = time.perf_counter()
        team = view.seat & 1
        totals = [0.0] * len(moves)
        # Each world's value of each move, kept only to weigh the best against the natural.
        values: list[list[float]] | None = (
            [[] for _ in moves] if self.natural_z is not None else None
        )
        count = 0
        policy = self.policy
        root_voids = shown_voids(view)
        likelihood = rules_likelihood(policy, self.infer) if self.infer < 1.0 else None
        steps = 0
        while True:
            world = sample_world(view, self.rng)
            deal, weight = replay(view, world, likelihood)
            for i, move in enumerate(moves):
                value, pushed = play_move_out(deal, move, team, root_voids, policy, self.trick)
                totals[i] += weight * value
                if values is not None:
                    values[i].append(weight * value)
                steps += pushed
            count += 1
            if self.worlds is not None and count >= self.worlds:
                break
            if self.steps is not None and count >= self.min_worlds and steps >= self.steps:
                break
            if (
                self.time_budget is not None
                and count >= self.min_worlds
                and time.perf_counter() - start >= self.time_budget
            ):
                break
        self.last_worlds = count
        self.last_steps = steps
        best = max(range(len(moves)), key=lambda i: totals[i])
        if values is not None and self.natural_z is not None:
            natural = moves.index(policy.choose(view))
            if best != natural and not _beats(values[best], values[natural], self.natural_z):
                return moves[natural]
        return moves[best]


def _beats(mine: Sequence[float], theirs: Sequence[float], z: float) -> bool:
    """Whether the mean of ``mine`` beats that of ``theirs`` (the same worlds, in order) by
    more than ``z`` standard errors of the mean difference."""
    steps = [a - b for a, b in zip(mine, theirs, strict=True)]
    mean = statistics.fmean(steps)
    if len(steps) < 2:
        return mean > 0.0
    return mean > z * statistics.stdev(steps, mean) / math.sqrt(len(steps))
