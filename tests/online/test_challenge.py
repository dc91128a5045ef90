"""The daily challenge's pure core (hukum.online.challenge): the day's rules and dealers,
the experts' seeds, matchpoints and the day's and week's scores."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hukum.games import game_named
from hukum.online.challenge import (
    DEALS,
    OPTIONS,
    Result,
    bot_seed,
    closes_at,
    day_score,
    days_of_week,
    deal_key,
    dealer_of,
    match_seed_for,
    parse_deal_key,
    percentages,
    preset_of,
    rules_of,
    week_of,
    week_score,
)

results = st.lists(
    st.builds(
        Result,
        key=st.just(""),
        tens=st.integers(0, 4),
        tricks=st.integers(0, 13),
        won=st.booleans(),
        finished=st.booleans(),
    ),
    min_size=1,
    max_size=12,
).map(lambda rs: [Result(str(i), r.tens, r.tricks, r.won, r.finished) for i, r in enumerate(rs)])


def test_band_hukum_on_wednesdays_and_sundays() -> None:
    week = days_of_week("2026-W50")
    assert [d.strftime("%a") for d in week] == ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    assert [preset_of(d) for d in week] == ["classic", "classic", "hidden"] + ["classic"] * 3 + [
        "hidden"
    ]
    spec = game_named("mindi")
    assert rules_of(week[2]) == spec.make_rules("hidden", dict(OPTIONS))
    assert rules_of(week[0]) == spec.make_rules("classic", dict(OPTIONS))


def test_dealers_turn_round_and_numbers_are_checked() -> None:
    assert [dealer_of(n) for n in range(1, DEALS + 1)] == [0, 1, 2, 3, 0, 1, 2, 3]
    for bad in (0, DEALS + 1, -1):
        with pytest.raises(ValueError):
            dealer_of(bad)


def test_deal_keys_read_back() -> None:
    day = dt.date(2026, 12, 7)
    assert deal_key(day, 3) == "2026-12-07/3"
    assert parse_deal_key("2026-12-07/3") == (day, 3)
    for bad in ("2026-12-07/9", "2026-12-07/0", "2026-12-07", "x/1", "2026-13-01/1"):
        with pytest.raises(ValueError):
            parse_deal_key(bad)


@settings(deadline=None)  # a few draws of 45 µs each; a loaded machine is slower
@given(st.integers(0, 2**128 - 1), st.integers(0, 3))
def test_the_match_seed_draws_the_deal_dealer(seed: int, dealer: int) -> None:
    spec = game_named("mindi")
    rules = spec.make_rules("classic", dict(OPTIONS))
    found = match_seed_for(rules, dealer, seed)
    assert spec.new_match(rules, found).dealer == dealer
    assert match_seed_for(rules, dealer, seed) == found  # the same for everyone


def test_bot_seeds_depend_on_the_position_only() -> None:
    seeds = {bot_seed(s, seat, m) for s, seat, m in itertools.product((1, 2), (1, 2, 3), range(5))}
    assert len(seeds) == 2 * 3 * 5
    assert bot_seed(2**127 + 5, 3, 51) == bot_seed(2**127 + 5, 3, 51)
    assert all(0 <= s < 2**32 for s in seeds)


@given(results)
def test_percentages_are_in_range_and_sum_to_the_pairs(rs: list[Result]) -> None:
    shares = percentages(rs)
    assert set(shares) == {r.key for r in rs}
    assert all(0.0 <= p <= 100.0 for p in shares.values())
    n = len(rs)
    done = [r for r in rs if r.finished]
    if n > 1:
        points = sum(shares[r.key] * (n - 1) / 100 for r in rs)
        # Every pair with a finished player gives out one point; two unfinished, none.
        unfinished = n - len(done)
        assert points == pytest.approx(n * (n - 1) / 2 - unfinished * (unfinished - 1) / 2)


@given(results)
def test_unfinished_scores_zero_below_everyone(rs: list[Result]) -> None:
    shares = percentages(rs)
    for r in rs:
        if not r.finished:
            assert shares[r.key] == 0.0
    for r in rs:
        if r.finished and any(not o.finished for o in rs):
            assert shares[r.key] > 0.0  # it beats everyone who did not finish


@given(results)
def test_equal_results_score_equal_and_better_never_lower(rs: list[Result]) -> None:
    shares = percentages(rs)
    for a, b in itertools.combinations(rs, 2):
        if a.finished and b.finished:
            if a.order == b.order:
                assert shares[a.key] == shares[b.key]
            elif a.order > b.order:
                assert shares[a.key] > shares[b.key]


def test_tens_then_tricks_then_the_win() -> None:
    rs = [
        Result("tens", 3, 2, False),
        Result("tricks", 2, 9, False),
        Result("won", 2, 6, True),
        Result("lost", 2, 6, False),
        Result("quit", 4, 13, True, finished=False),
    ]
    shares = percentages(rs)
    assert [k for k, _ in sorted(shares.items(), key=lambda kv: -kv[1])] == [
        "tens",
        "tricks",
        "won",
        "lost",
        "quit",
    ]
    assert shares["tens"] == 100.0 and shares["quit"] == 0.0
    assert percentages([Result("alone", 0, 0, False)]) == {"alone": 50.0}
    assert percentages([Result("alone", 0, 0, False, finished=False)]) == {"alone": 0.0}


def test_day_and_week_scores_count_what_was_not_played_as_zero() -> None:
    assert day_score([100.0] * DEALS) == 100.0
    assert day_score([100.0, None]) == 100.0 / DEALS
    assert day_score([]) == 0.0
    with pytest.raises(ValueError):
        day_score([1.0] * (DEALS + 1))
    assert week_score([70.0] * 7) == pytest.approx(70.0)
    assert week_score([70.0, None]) == 10.0
    with pytest.raises(ValueError):
        week_score([1.0] * 8)


def test_weeks_are_iso_weeks() -> None:
    assert week_of(dt.date(2026, 12, 7)) == "2026-W50"
    assert week_of(dt.date(2027, 1, 1)) == "2026-W53"  # ISO: Friday 1 January is W53
    days = days_of_week("2026-W53")
    assert days[0] == dt.date(2026, 12, 28) and days[-1] == dt.date(2027, 1, 3)
    assert all(week_of(d) == "2026-W53" for d in days)
    for bad in ("2026-W54", "2026W50", "2026-W5", "week"):
        with pytest.raises(ValueError):
            days_of_week(bad)


@given(st.dates(dt.date(2000, 1, 1), dt.date(2100, 1, 1)))
def test_a_day_closes_at_the_next_utc_midnight(day: dt.date) -> None:
    end = closes_at(day)
    assert end.tzinfo == dt.UTC and end.time() == dt.time(0)
    assert end.date() == day + dt.timedelta(days=1)
    assert day in days_of_week(week_of(day))
