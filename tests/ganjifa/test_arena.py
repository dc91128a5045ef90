"""The Ganjifa arena: three plays a deal with bot A in each seat, and its statistics."""

from __future__ import annotations

from typing import Any

import pytest

from hukum.arena import ArenaReport, arena_of, format_report, run_arena
from hukum.arena import play_duplicate as play_any
from hukum.games import GAMES
from hukum.games.ganjifa import GanjifaPlay, mean_cards, win_share
from hukum.ganjifa import Rules

duplicate_score = arena_of(GAMES["ganjifa"]).duplicate_score


def play_duplicate(bot_a: str, bot_b: str, rules: Rules, seed: int, number: int):
    return play_any(bot_a, bot_b, rules, seed, number, game="ganjifa")


def run_ganjifa_arena(*args: Any, **kwargs: Any) -> ArenaReport:
    return run_arena(*args, game="ganjifa", **kwargs)


def test_duplicate_score_compares_a_to_a_third_of_the_cards() -> None:
    def plays(*cards: int) -> list[GanjifaPlay]:
        out = []
        for seat, c in enumerate(cards):
            scores = [(120 - c) // 2, 120 - c - (120 - c) // 2]
            scores.insert(seat, c)
            out.append(GanjifaPlay(0, seat, (scores[0], scores[1], scores[2]), 0.0))
        return out

    assert duplicate_score(plays(45, 39, 37)) == 1.0  # 121 > 120
    assert duplicate_score(plays(40, 40, 40)) == 0.5
    assert duplicate_score(plays(60, 30, 27)) == 0.0


def test_each_deal_is_played_three_times_with_a_in_each_seat() -> None:
    result = play_duplicate("rules", "random", Rules(), seed=4, number=0)
    assert [p.a_seat for p in result.plays] == [0, 1, 2]
    assert all(sum(p.scores) == 120 for p in result.plays)
    assert len(result.times_a) > 0 and len(result.times_b) > len(result.times_a)
    # Random against random, same seeds: the three plays are one deal from each seat.
    again = play_duplicate("rules", "random", Rules(), seed=4, number=0)
    assert [p.scores for p in again.plays] == [p.scores for p in result.plays]


def test_arena_statistics_on_a_tiny_fixed_match(tmp_path: object) -> None:
    report = run_ganjifa_arena("rules", "random", deals=3, rules=Rules(time="night"), seed=2)
    plays = report.plays
    assert report.deals == 3 and len(plays) == 9
    assert report.score == sum(duplicate_score(r.plays) for r in report.results)
    assert report.win_rate == report.score / 3
    lo, hi = report.interval
    assert 0 <= lo <= report.win_rate <= hi <= 1
    assert win_share(plays) == sum(p.a_share for p in plays) / 9
    assert mean_cards(plays, "A") + 2 * mean_cards(plays, "B") == pytest.approx(120)
    assert mean_cards(plays, "A") > 40  # rules captures more than random (fixed seeds)
    p50, p95, top = report.time_stats("A")
    assert 0 < p50 <= p95 <= top
    table = format_report(report)
    assert table.row_count == 6
    later = run_ganjifa_arena("rules", "random", 1, Rules(time="night"), seed=2, first_deal=2)
    assert later.results[0].plays == report.results[2].plays
    assert "from deal 2" in str(format_report(later).title)


def test_arena_refuses_bad_input() -> None:
    with pytest.raises(ValueError, match="at least one deal"):
        run_ganjifa_arena("rules", "random", deals=0, rules=Rules(), seed=1)
    with pytest.raises(ValueError, match="numbered from 0"):
        run_ganjifa_arena("rules", "random", deals=1, rules=Rules(), seed=1, first_deal=-1)
    with pytest.raises(Exception, match="no Ganjifa bot"):
        run_ganjifa_arena("expert", "random", deals=1, rules=Rules(), seed=1)
