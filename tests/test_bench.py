"""The benchmark runs and reports its figures (its speed is never asserted)."""

from __future__ import annotations

import pytest

from hukum import bench
from hukum.mindi import PRESETS, Rules


def test_run_plays_the_deals_asked_for() -> None:
    result = bench.run(Rules.preset("hidden"), deals=5, name="hidden")
    assert result.name == "hidden" and result.deals == 5
    assert result.moves == 5 * 53  # 52 cards and the hide move of band hukum
    assert result.seconds >= 0 and result.deals_per_second > 0 and result.moves_per_second > 0


def test_run_is_reproducible() -> None:
    assert bench.run(Rules(), deals=4, seed=3).moves == bench.run(Rules(), deals=4, seed=3).moves


def test_run_stops_at_the_first_limit_reached() -> None:
    assert bench.run(Rules(players=6, deck=48), deals=None, seconds=0.0).deals == 0
    result = bench.run(Rules(players=6, deck=48), deals=2, seconds=60.0)
    assert result.deals == 2 and result.moves == 2 * 48


def test_run_needs_an_end() -> None:
    with pytest.raises(ValueError):
        bench.run(Rules(), deals=None, seconds=None)


def test_run_presets_covers_every_preset() -> None:
    results = bench.run_presets(deals=2)
    assert [r.name for r in results] == list(PRESETS)
    assert all(r.deals == 2 for r in results)


def test_solver_bench_times_each_position() -> None:
    result = bench.run_solver(Rules(), tricks=2, deals=3, name="cut")
    assert result.name == "cut" and result.tricks == 2 and len(result.times) == 3
    assert result.percentile(95) >= result.median >= 0 and result.nodes > 0
    assert len(result.searched) == 3 and min(result.searched) > 0
    assert min(result.searched) <= result.median_searched <= max(result.searched)


def test_solver_positions_keep_cut_trump_unset() -> None:
    positions = bench.solve_positions(Rules(), tricks=5, count=3, seed=1)
    assert len(positions) == 3
    for deal in positions:
        assert not deal.trump_known and not deal.trick and len(deal.tricks) == 8


def test_run_env_counts_the_steps_of_any_pettingzoo_environment() -> None:
    from hukum.envs.pettingzoo import env

    result = bench.run_env(lambda: env("mindi", "classic"), deals=3, seed=1, name="mindi env")
    assert result.name == "mindi env" and result.deals == 3
    assert result.moves == 3 * 52 and result.moves_per_second > 0
    hidden = bench.run_env(lambda: env("mindi", "hidden"), deals=3, seed=1)
    assert hidden.moves == 3 * 53  # the face-down card is one action more
