"""The wave benchmark runs and reports its figures (its speed is never asserted)."""

from __future__ import annotations

from hukum.online.crowd import run_waves, waiting_crowd
from hukum.online.pools import POOLS, countdown_left


def test_the_crowd_is_made_as_described() -> None:
    crowd = waiting_crowd(2000, now=100.0, seed=3)
    assert crowd == waiting_crowd(2000, now=100.0, seed=3)
    assert len({t.id for t in crowd}) == 2000
    players = [p for t in crowd for p in t.players]
    assert len(players) == len(set(players))
    parties = sum(len(t.players) == 2 for t in crowd)
    leavers = sum(t.leaver for t in crowd)
    assert 50 <= parties <= 150 and 20 <= leavers <= 100
    assert all(60.0 <= t.since <= 100.0 for t in crowd)
    # Blocks are known to both sides and name players who wait.
    owner = {p: t for t in crowd for p in t.players}
    blocks = [(t, p) for t in crowd for p in t.blocked]
    assert 20 <= len(blocks) // 2 <= 100
    for ticket, player in blocks:
        assert not owner[player].blocked.isdisjoint(ticket.players)
    assert any(countdown_left(POOLS["mindi"], t, 100.0) == 0 for t in crowd)


def test_run_waves_reports_each_wave() -> None:
    result = run_waves(POOLS["mindi"], tickets=400, waves=3, seed=1)
    assert result.pool == "mindi" and result.waves == 3 and result.tickets == 400
    assert min(result.times) >= 0 and result.median >= 0
    # Over the three waves of 400 tickets, nearly every one is seated at a table of four.
    assert result.tables >= 3 * 400 // 4 * 0.9
    assert result.people + result.bots == 4 * result.tables
    assert 0 <= result.bot_share < 0.05 and result.overdue > 0
    three = run_waves(POOLS["ganjifa"], tickets=300, waves=1)
    assert three.people + three.bots == 3 * three.tables
