"""What each player may see (G-11): everything public, nothing of another hand; and the
suits a player shows to be empty under G-7."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hukum.ganjifa import SUIT_MASKS, Card, CardSet, Deal, Move, Rules, Suit
from hukum.ganjifa.cards import bits
from hukum.ganjifa.view import void_suits
from tests.ganjifa.helpers import ready


def _play_randomly(deal: Deal, moves: int, rng: random.Random) -> None:
    for _ in range(moves):
        if deal.is_over():
            return
        dukals = deal.dukals()
        legal = deal.legal_moves()
        deal.push(rng.choice(dukals) if dukals and rng.random() < 0.5 else
                  legal[rng.randrange(len(legal))])  # fmt: skip


def _reshuffled(deal: Deal, seat: int, rng: random.Random) -> Deal:
    """The same public play with the other two hands' unplayed cards re-split suit by suit
    (each keeps as many cards of each suit), replayed from the start. The trump Raja stays
    put: who holds it is public, since its holder leads first (G-6)."""
    a, b = (seat + 1) % 3, (seat + 2) % 3
    raja = 1 << Card.of(deal.rules.trump, "R")
    now = {a: deal.hand(a) & raja, b: deal.hand(b) & raja}
    for s in range(10):
        cards = list(bits((deal.hand(a) | deal.hand(b)) & SUIT_MASKS[s] & ~raja))
        rng.shuffle(cards)
        count = (deal.hand(a) & SUIT_MASKS[s] & ~raja).bit_count()
        now[a] |= sum(1 << c for c in cards[:count])
        now[b] |= sum(1 << c for c in cards[count:])
    dealt = [0, 0, 0]
    dealt[seat], dealt[a], dealt[b] = deal.hand(seat), now[a], now[b]
    for s, move in deal.history:
        dealt[s] |= move.mask
    other = Deal(deal.rules, deal.dealer, [list(CardSet(m)) for m in dealt])
    for s, move in deal.history:
        other.push(move, seat=s)
    return other


LEAK = settings(
    max_examples=15,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@LEAK
@given(st.integers(0, 2**32 - 1), st.integers(0, 110), st.integers(0, 2))
def test_g11_view_does_not_depend_on_the_other_hands(seed: int, moves: int, seat: int) -> None:
    rng = random.Random(seed)
    rules = Rules(void_rule=rng.choice(["choice", "trump_first"]))
    deal = Deal.new(rules, seed % 3, seed)
    _play_randomly(deal, moves, rng)
    other = _reshuffled(deal, seat, rng)
    assert [other.hand(s) for s in range(3)] != [deal.hand(s) for s in range(3)] or (
        deal.hand_sizes[0] <= 1
    )
    assert other.view(seat) == deal.view(seat)


def test_g11_view_shows_own_hand_public_play_scores_sizes_and_the_decision() -> None:
    deal = Deal.new(Rules(), 0, 4)
    rng = random.Random(4)
    _play_randomly(deal, 40, rng)
    for seat in range(3):
        view = deal.view(seat)
        assert view.hand.mask == deal.hand(seat)
        others = deal.hand((seat + 1) % 3) | deal.hand((seat + 2) % 3)
        assert view.unseen.mask == others
        assert view.hand_sizes == deal.hand_sizes and view.scores == deal.scores
        assert view.history == tuple(deal.history) and view.tricks == deal.tricks
        assert view.trump is Suit.RAMA and view.trick == deal.trick
        if seat == deal.turn:
            assert view.decision == deal.phase and view.my_turn
            assert view.legal_moves == deal.legal_moves()
        else:
            assert view.decision is None and view.legal_moves == () and view.allowed.mask == 0
    with pytest.raises(ValueError, match="no seat"):
        deal.view(3)


def test_g11_view_of_a_dukal_in_progress() -> None:
    deal = ready({0: "Ma3 Ma4 Ma5"})
    deal.push(Move.parse("dukal Ma3 Ma4 Ma5"))
    view = deal.view(2)
    assert view.phase == "answer" and view.dukal == 3 and view.need == 3
    assert view.decision is None and view.trick[0].move == Move.parse("dukal Ma3 Ma4 Ma5")
    assert deal.view(1).decision == "answer"


@pytest.mark.parametrize(
    "led,played,void_rule,empty",
    [
        ("Ku", "Ku", "choice", ""),
        ("Ku", "Na", "choice", "Ku Vr"),  # Na was S: Varaha is empty too
        ("Ku", "Ra", "choice", "Ku"),  # a trump says nothing of the suits between
        ("Ka", "Ku", "choice", "Ka Ma"),  # wrapping round
        ("Pa", "Kr", "choice", "Pa Ra"),  # the trump lies between: no trump held
        ("Ku", "Na", "trump_first", "Ku Vr Ra"),  # no trump was played: none held
        ("Ku", "Ra", "trump_first", "Ku"),
    ],
)
def test_g7_voids_shown_include_the_suits_between(
    led: str, played: str, void_rule: str, empty: str
) -> None:
    mask = void_suits(Suit.parse(led), Suit.parse(played), Suit.RAMA, void_rule)
    assert {Suit(s).code for s in range(10) if mask >> s & 1} == set(empty.split())


def test_g7_voids_in_the_view_come_from_public_play() -> None:
    deal = ready({0: "Ku1", 1: "Na4"}, empty={1: "Ku Vr"})
    deal.push(Move.parse("Ku1"))
    deal.push(Move.parse("Na4"))
    voids = deal.view(2).voids
    assert voids[1] == frozenset({Suit.KURMA, Suit.VARAHA})
    assert deal.view(1).voids == voids
    assert not deal.hand(1) & (SUIT_MASKS[Suit.KURMA] | SUIT_MASKS[Suit.VARAHA])
