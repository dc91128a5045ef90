"""Property tests (hypothesis) over random seeds and rule options: the invariants of the
Ganjifa engine hold after every move of randomly played deals."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hukum.ganjifa import DECK, Deal, IllegalMoveError, Move, MoveKind, Rules
from hukum.ganjifa.cards import bits
from tests.ganjifa.helpers import fingerprint

FAST = settings(
    max_examples=12,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

rules_strategy = st.builds(
    Rules,
    time=st.sampled_from(["day", "night"]),
    void_rule=st.sampled_from(["choice", "trump_first"]),
    dukal=st.sampled_from(["run", "royal_run", "either"]),
)


def _pick(deal: Deal, rng: random.Random) -> Move:
    """A random legal move, a Dukal half the time one may be led (to exercise them)."""
    dukals = deal.dukals()
    if dukals and rng.random() < 0.5:
        return rng.choice(dukals)
    moves = deal.legal_moves()
    return moves[rng.randrange(len(moves))]


def _check_invariants(deal: Deal) -> None:
    hands = [deal.hand(s) for s in range(3)]
    trick = 0
    for p in deal.trick:
        trick |= p.move.mask
    parts = [*hands, *deal.captured, trick]
    union = 0
    for part in parts:
        assert union & part == 0, "a card is in two places"
        union |= part
    assert union == DECK, "120 cards conserved"
    sizes = deal.hand_sizes
    played_now = [0, 0, 0]
    for p in deal.trick:
        played_now[p.seat] = p.move.size
    # Hands are equal at every lead and differ only by what the trick in progress took.
    assert len({sizes[s] + played_now[s] for s in range(3)}) == 1
    if deal.phase == "lead":
        assert len(set(sizes)) == 1


@FAST
@given(rules_strategy, st.integers(0, 2**32 - 1), st.integers(0, 2))
def test_random_deals_keep_every_invariant(rules: Rules, seed: int, dealer: int) -> None:
    deal = Deal.new(rules, dealer, seed)
    rng = random.Random(seed)
    while not deal.is_over():
        _check_invariants(deal)
        turn = deal.turn
        assert turn is not None
        move = _pick(deal, rng)
        deal.check(move, seat=turn)
        if rng.random() >= 0.2:
            deal.push(move, seat=turn)
            continue
        # A card another seat holds is refused, and the refusal changes nothing.
        other = deal.hand((turn + 1) % 3) | deal.hand((turn + 2) % 3)
        before = fingerprint(deal)
        if other:
            stolen = Move.play(next(bits(other)))
            try:
                deal.push(stolen)
            except IllegalMoveError:
                pass
            else:  # pragma: no cover - a card of another hand can never be played
                raise AssertionError("played a card of another hand")
            assert fingerprint(deal) == before
        deal.push(move, seat=turn)
        if rng.random() < 0.5:
            assert deal.pop() == move
            assert fingerprint(deal) == before, "pop restores exactly"
            deal.push(move)
    _check_invariants(deal)
    outcome = deal.outcome()
    assert outcome is not None and sum(outcome.scores) == 120
    assert outcome.winners == tuple(s for s in range(3) if outcome.scores[s] == max(outcome.scores))


@FAST
@given(rules_strategy, st.integers(0, 2**32 - 1))
def test_popping_every_move_gives_back_the_fresh_deal(rules: Rules, seed: int) -> None:
    deal = Deal.new(rules, 1, seed)
    fresh = fingerprint(deal)
    rng = random.Random(seed)
    copy = None
    while not deal.is_over():
        deal.push(_pick(deal, rng))
        if copy is None and len(deal.history) == 30:
            copy = deal.copy()
    assert copy is not None and len(copy.history) == 30 and not copy.is_over()
    while deal.history:
        deal.pop()
    assert fingerprint(deal) == fresh


@FAST
@given(rules_strategy, st.integers(0, 2**32 - 1))
def test_every_listed_legal_move_is_legal_and_others_are_not(rules: Rules, seed: int) -> None:
    deal = Deal.new(rules, 0, seed)
    rng = random.Random(seed)
    while not deal.is_over():
        if deal.phase != "answer":
            legal = set(deal.legal_moves())
            hand = deal.hand(deal.turn or 0)
            for c in bits(hand):
                assert (Move.play(c) in legal) == deal.is_legal(Move.play(c))
            assert all(deal.is_legal(m) for m in legal)
            assert all(m.kind is not MoveKind.GIVE for m in legal)
        deal.push(_pick(deal, rng))
