"""The Ganjifa random-playout benchmark runs and reports its figures (speed never asserted)."""

from __future__ import annotations

from hukum import bench
from hukum.ganjifa import Rules


def test_run_plays_ganjifa_whole_deals_reproducibly() -> None:
    result = bench.run(Rules(), deals=3, seed=2, game="ganjifa")
    # 120 cards; a Dukal of k and its two answers are 3 moves for 3k cards.
    assert result.deals == 3 and 3 * 3 <= result.moves <= 3 * 120
    assert result.moves == bench.run(Rules(), deals=3, seed=2, game="ganjifa").moves
    assert bench.run(Rules(dukal="either"), deals=None, seconds=0.0, game="ganjifa").deals == 0
