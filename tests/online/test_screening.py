"""The fair-play statistic: the sequential test's arithmetic, its verdicts and its stated
false-positive rate."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hukum.online.screening import (
    ALPHA,
    CHEAT_RATE,
    HONEST_RATE,
    HONEST_RATES,
    Tally,
    honest_rate,
    log_ratio,
    threshold,
)

deals = st.lists(st.integers(0, 6).flatmap(lambda m: st.tuples(st.just(m), st.integers(0, m))))


@given(deals)
def test_the_ratio_depends_on_the_totals_only(counts: list[tuple[int, int]]) -> None:
    tally = Tally()
    for matters, hits in counts:
        tally = tally.add(matters, hits)
    matters, hits = sum(m for m, _ in counts), sum(h for _, h in counts)
    assert (tally.matters, tally.hits, tally.deals) == (matters, hits, len(counts))
    assert tally.llr == pytest.approx(log_ratio(matters, hits))
    assert tally.peak >= max(tally.llr, 0.0) - 1e-9


@given(st.integers(1, 40).flatmap(lambda m: st.tuples(st.just(m), st.integers(0, m - 1))))
def test_a_hit_more_raises_the_ratio(case: tuple[int, int]) -> None:
    matters, hits = case
    assert log_ratio(matters, hits + 1) > log_ratio(matters, hits)
    assert log_ratio(matters + 1, hits) < log_ratio(matters, hits)


@given(deals, deals)
def test_a_flag_stays(first: list[tuple[int, int]], then: list[tuple[int, int]]) -> None:
    tally = Tally()
    for _ in range(20):
        tally = tally.add(1, 1)
    assert tally.verdict() == "flag"
    for matters, hits in first + then:
        tally = tally.add(matters, matters - hits)  # misses mostly: the ratio falls
        assert tally.verdict() == "flag"


def test_the_verdicts_at_their_thresholds() -> None:
    step = math.log(CHEAT_RATE / HONEST_RATE)
    hits_to_flag = math.ceil(threshold(ALPHA) / step)
    tally = Tally()
    for _ in range(hits_to_flag - 1):
        tally = tally.add(1, 1)
    assert tally.verdict() in ("clear", "watch")
    assert tally.add(1, 1).verdict() == "flag"
    assert Tally().verdict() == "clear"
    watch = Tally()
    while watch.llr < threshold(0.05):
        watch = watch.add(1, 1)
    assert watch.verdict() == "watch"


def test_honest_players_are_flagged_at_most_at_the_stated_rate() -> None:
    """Ville's bound, by simulation: honest players at the honest rate, 400 decisions each,
    looked at after every one, with alpha = 5 %: at most about 5 % are ever flagged."""
    rng = random.Random(42)
    players, flagged = 2000, 0
    for _ in range(players):
        tally = Tally()
        for _ in range(400):
            tally = tally.add(1, int(rng.random() < HONEST_RATE))
            if tally.verdict(alpha=0.05) == "flag":
                flagged += 1
                break
    assert flagged / players <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / players)


def test_a_cheat_at_the_cheat_rate_is_flagged() -> None:
    rng = random.Random(7)
    tally = Tally()
    for _ in range(200):
        tally = tally.add(1, int(rng.random() < CHEAT_RATE))
    assert tally.verdict() == "flag"


def test_every_player_is_judged_against_the_highest_honest_rate() -> None:
    assert honest_rate() == HONEST_RATE >= max(HONEST_RATES.values())
    assert honest_rate("random") == honest_rate("expert")


@pytest.mark.parametrize(
    ("matters", "hits", "p0", "p1"),
    [(3, 4, 0.4, 0.8), (3, -1, 0.4, 0.8), (3, 1, 0.8, 0.4), (3, 1, 0.0, 0.8), (3, 1, 0.4, 1.0)],
)
def test_bad_counts_or_rates_are_refused(matters: int, hits: int, p0: float, p1: float) -> None:
    with pytest.raises(ValueError, match=r"must be|need"):
        log_ratio(matters, hits, p0, p1)


def test_a_bad_alpha_is_refused() -> None:
    with pytest.raises(ValueError, match="alpha"):
        threshold(1.0)
