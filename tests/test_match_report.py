"""The match report (:mod:`hukum.match_report`) over real analysed deals: seeded deals played
at random, the last four tricks of each solved exactly; what each seat's mistakes cost its
side, in tens and in match points, and its costliest moves."""

from __future__ import annotations

import random
from functools import cache

import pytest

from hukum.analysis import DealAnalysis, analyse
from hukum.match_report import COSTLIEST, match_report
from hukum.mindi import Deal, Rules


@cache
def analysed(seed: int) -> DealAnalysis:
    """Deal ``seed`` (dealer ``seed % 4``) played at random (seeded), its last four tricks
    analysed."""
    deal = Deal.new(Rules(), dealer=seed % 4, seed=seed)
    rng = random.Random(seed)
    while not deal.is_over():
        deal.push(rng.choice(deal.legal_moves()))
    return analyse(deal, tricks=4)


def test_a_deal_without_mistakes_costs_nobody_anything() -> None:
    assert analysed(3).mistakes == []
    report = match_report([analysed(3)], seats=4)
    assert report.deals == 1 and report.skipped == (36,) and not report.complete
    for seat in report.seats:
        assert (seat.tens, seat.points, seat.mistakes, seat.costliest) == (0, 0, 0, ())
        assert seat.analysed == 4 and seat.team == seat.seat % 2


def test_known_mistakes_are_counted_against_the_seat_that_made_them() -> None:
    """Deal 2 (seed 2): seat 3's KH at move 42 turned a 3–1 win into a tie-break loss, seat
    2's JH at move 47 a tie-break win into a 1–3 loss. Deal 3 (seed 7): seat 2's 10H at move
    41 turned a mendikot into a plain win. Deal 4 (seed 22): seat 1's JC at move 40 lost a
    mindi but still won (no point lost); seat 3's 10D at move 43 lost the deal."""
    texts = [m.describe() for m in analysed(2).mistakes]
    assert texts[0].startswith("move 42, seat 3 played KH: turned a win into a loss, lost a mindi")
    assert texts[1].startswith("move 47, seat 2 played JH: turned a win into a loss, lost a mindi")
    report = match_report([analysed(s) for s in (3, 2, 7, 22)], seats=4)
    summary = [(s.tens, s.points, s.mistakes, s.analysed) for s in report.seats]
    # A plain win is 1 point, a mendikot 2: a win turned into a loss costs 2, a mendikot
    # turned into a plain win 1, a mindi lost in a deal still won 0.
    assert summary == [(0, 0, 0, 16), (1, 0, 1, 16), (2, 3, 2, 16), (2, 4, 2, 16)]
    costly = {
        s.seat: [(c.deal, c.number, c.trick, str(c.move), c.tens, c.points) for c in s.costliest]
        for s in report.seats
    }
    assert costly == {
        0: [],
        1: [(4, 40, 10, "JC", 1, 0)],
        2: [(2, 47, 12, "JH", 1, 2), (3, 41, 11, "10H", 1, 1)],
        3: [(2, 42, 11, "KH", 1, 2), (4, 43, 11, "10D", 1, 2)],
    }
    worst = report.seats[2].costliest[0]
    assert [str(m) for m in worst.best] == ["4H"] and worst.analysis.mistake
    assert worst.analysis.before.tens[0] - worst.analysis.after.tens[0] == worst.tens


def test_at_most_three_costliest_the_dearest_first_then_the_earliest() -> None:
    """Seat 3 makes a mistake in each of five deals: the three named are the dearest (the
    ones that lost the deal before the ones that did not), the earlier deal first among
    equals; every one is counted in the totals."""
    deals = [analysed(s) for s in (7, 22, 2, 22, 2)]
    report = match_report(deals, seats=4)
    seat = report.seats[3]
    assert seat.mistakes == 4 and seat.tens == 4 and seat.points == 8
    assert len(seat.costliest) == COSTLIEST
    assert [(c.deal, c.number) for c in seat.costliest] == [(2, 43), (3, 42), (4, 43)]
    seat1 = report.seats[1]
    # Seat 1's JC lost a mindi and no point: its two are ranked by deal.
    assert [(c.deal, c.points) for c in seat1.costliest] == [(2, 0), (4, 0)]


def test_a_seat_beyond_the_table_is_refused() -> None:
    with pytest.raises(ValueError, match="deal 1, move 38: seat 2 of 2"):
        match_report([analysed(2)], seats=2)
