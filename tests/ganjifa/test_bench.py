"""The Ganjifa random-playout benchmark runs and reports its figures (speed never asserted)."""

from __future__ import annotations

from hukum import bench
from hukum.ganjifa import Rules


def test_run_ganjifa_plays_whole_deals_reproducibly() -> None:
    result = bench.run_ganjifa(Rules(), deals=3, seed=2)
    # 120 cards; a Dukal of k and its two answers are 3 moves for 3k cards.
    assert result.deals == 3 and 3 * 3 <= result.moves <= 3 * 120
    assert result.moves == bench.run_ganjifa(Rules(), deals=3, seed=2).moves
    assert bench.run_ganjifa(Rules(dukal="either"), deals=None, seconds=0.0).deals == 0
