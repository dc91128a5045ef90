"""The fair-play statistic: the chance-adjusted test's arithmetic, its verdicts and its
stated false-positive rate."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hukum.online.screening import ALPHA, CHEAT_SHARE, WATCH, Tally, step, threshold

chances = st.floats(0.01, 0.99)
#: A deal's decisions that matter: each its chance and whether it was a hit.
deal = st.lists(st.tuples(chances, st.booleans()), max_size=6)


def add(tally: Tally, decisions: list[tuple[float, bool]]) -> Tally:
    """The tally after a deal with these decisions that matter."""
    hits = sum(hit for _, hit in decisions)
    return tally.add(len(decisions), hits, sum(step(q, hit) for q, hit in decisions))


@pytest.mark.parametrize("q", [0.1, 0.25, 0.5, 0.75, 0.9])
def test_a_hit_raises_the_ratio_by_the_odds_of_the_cheat_against_chance(q: float) -> None:
    assert step(q, hit=True) == pytest.approx(math.log((q + (1 - q) * CHEAT_SHARE) / q))
    assert step(q, hit=True, share=0.3) == pytest.approx(math.log((q + (1 - q) * 0.3) / q))
    assert step(q, hit=True) > 0
    # A miss costs the same whatever the chance: the cheat misses only in 1 - share.
    assert step(q, hit=False) == pytest.approx(math.log(1 - CHEAT_SHARE))
    assert step(q, hit=False, share=0.3) == pytest.approx(math.log(0.7))


@given(chances, chances)
def test_a_rarer_best_card_is_stronger_evidence(q: float, r: float) -> None:
    if q < r:
        assert step(q, True) >= step(r, True)


@pytest.mark.parametrize("q", [0.0, 1.0, -0.1, 1.5, math.nan])
def test_a_chance_that_cannot_matter_is_refused(q: float) -> None:
    """q = 1: every legal card is best, nothing can matter (and a hit would add 0); q = 0:
    no card is best, impossible."""
    with pytest.raises(ValueError, match="chance"):
        step(q, True)


@pytest.mark.parametrize("share", [0.0, 1.0, -0.5])
def test_a_bad_share_is_refused(share: float) -> None:
    with pytest.raises(ValueError, match="share"):
        step(0.5, False, share=share)


@given(chances, st.floats(0.05, 0.95))
def test_a_player_no_better_than_chance_expects_no_gain(q: float, share: float) -> None:
    """Under the null (a hit with probability q) the ratio's expectation is 1 (a
    martingale; less for a player who hits less often), so the expected step is <= 0."""
    for p in (q, q / 2, 0.0):
        ratio = p * math.exp(step(q, True, share)) + (1 - p) * math.exp(step(q, False, share))
        assert ratio <= 1 + 1e-9
        assert p * step(q, True, share) + (1 - p) * step(q, False, share) <= 1e-9


def test_random_legal_cards_lose_ground_and_a_cheat_gains() -> None:
    """By simulation: hits at random (probability q) take the ratio down on average, a
    cheat at the alternative takes it up."""
    rng = random.Random(3)
    honest = cheat = 0.0
    n = 20_000
    for _ in range(n):
        q = rng.choice((0.2, 0.25, 1 / 3, 0.5, 2 / 3))
        honest += step(q, rng.random() < q)
        cheat += step(q, rng.random() < q + (1 - q) * CHEAT_SHARE)
    assert honest / n < -0.05
    assert cheat / n > 0.2


@given(st.lists(deal, max_size=8))
def test_the_tally_sums_the_deals(deals: list[list[tuple[float, bool]]]) -> None:
    tally = Tally()
    for decisions in deals:
        tally = add(tally, decisions)
    every = [d for decisions in deals for d in decisions]
    assert (tally.matters, tally.hits, tally.deals) == (
        len(every),
        sum(hit for _, hit in every),
        len(deals),
    )
    assert tally.llr == pytest.approx(sum(step(q, hit) for q, hit in every), abs=1e-9)
    assert tally.peak >= max(tally.llr, 0.0) - 1e-9


@given(st.lists(deal, max_size=8))
def test_a_flag_stays(then: list[list[tuple[float, bool]]]) -> None:
    tally = Tally()
    while tally.verdict() != "flag":
        tally = add(tally, [(0.5, True)])
    for decisions in then:
        tally = add(tally, [(q, False) for q, _ in decisions])  # misses: the ratio falls
        assert tally.verdict() == "flag"


def test_the_verdicts_at_their_thresholds() -> None:
    hits_to_flag = math.ceil(threshold(ALPHA) / step(0.25, True))
    tally = Tally()
    for _ in range(hits_to_flag - 1):
        tally = add(tally, [(0.25, True)])
    assert tally.verdict() in ("clear", "watch")
    assert add(tally, [(0.25, True)]).verdict() == "flag"
    assert Tally().verdict() == "clear"
    watch = Tally()
    while watch.llr < threshold(WATCH):
        watch = add(watch, [(0.25, True)])
    assert watch.verdict() == "watch"
    assert add(watch, [(0.25, False)] * 3).verdict() == "clear"


def test_honest_players_are_flagged_at_most_at_the_stated_rate() -> None:
    """Ville's bound, by simulation: players who hit as often as a random legal card (the
    null's worst case), 400 decisions each at chances drawn at random, looked at after
    every one, with alpha = 5 %: at most about 5 % are ever flagged."""
    rng = random.Random(42)
    players, flagged = 2000, 0
    for _ in range(players):
        tally = Tally()
        for _ in range(400):
            q = rng.uniform(0.1, 0.9)
            tally = add(tally, [(q, rng.random() < q)])
            if tally.verdict(alpha=0.05) == "flag":
                flagged += 1
                break
    assert flagged / players <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / players)


def test_a_cheat_at_the_cheat_share_is_flagged() -> None:
    rng = random.Random(7)
    tally = Tally()
    for _ in range(100):
        q = rng.uniform(0.1, 0.9)
        tally = add(tally, [(q, rng.random() < q + (1 - q) * CHEAT_SHARE)])
    assert tally.verdict() == "flag"


@pytest.mark.parametrize(
    ("matters", "hits", "llr"),
    [(3, 4, 0.0), (3, -1, 0.0), (1, 1, math.inf), (1, 0, math.nan), (0, 0, 0.5)],
)
def test_bad_counts_are_refused(matters: int, hits: int, llr: float) -> None:
    with pytest.raises(ValueError, match="must be"):
        Tally().add(matters, hits, llr)


def test_a_bad_alpha_is_refused() -> None:
    with pytest.raises(ValueError, match="alpha"):
        threshold(1.0)
