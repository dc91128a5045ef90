"""The Ganjifa arena: one bot against two copies of another, in duplicate over three seats.

Ganjifa has three players, each for themselves (G-1), so a match-up of bot A against bot B
seats A alone against two B's, as Cardavia seats one person against two computer players.
Each deal is played **three times** from the same seed (the same draw, dealer and hands),
bot A taking seat 0, then 1, then 2, the two B's the other seats; so A holds every hand of
the deal once and the luck of the cards cancels.

**Who wins a duplicate deal.** Over its three plays A held every hand once, so with equal
strength it would capture on average a third of the 360 cards played: 120. A wins the
duplicate deal if it captured more than 120 cards over the three plays, ties it (half a
win) at exactly 120, and loses it below. The win rate is A's duplicate wins (ties half)
over the deals, with a 95% Wilson interval; 50% means equal strength.

**Single plays.** Each play's outcome shares the win among the seats tied for the top
score (G-10); A's *win share* is its mean share (1, ½, ⅓ or 0) over all plays, where
equal strength gives 1/3.

>>> from hukum.ganjifa import Rules
>>> report = run_ganjifa_arena("rules", "random", deals=1, rules=Rules(), seed=1)
>>> report.deals, len(report.plays), sum(report.plays[0].scores)
(1, 3, 120)
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
from rich.table import Table

from hukum import ganjifa
from hukum.arena import DuplicateFigures, _chunks, _ms, check_run
from hukum.bots.ganjifa import make_bot

__all__ = [
    "GanjifaArenaReport",
    "GanjifaDuplicate",
    "GanjifaPlay",
    "duplicate_score",
    "format_report",
    "play_duplicate",
    "run_ganjifa_arena",
]


@dataclass(frozen=True)
class GanjifaPlay:
    """One play of one deal: bot A at ``a_seat``, bot B at the two other seats."""

    deal: int
    """Number of the deal (from 0)."""
    a_seat: int
    """The seat bot A played."""
    scores: tuple[int, int, int]
    """Cards captured by seats 0, 1 and 2."""
    a_share: float
    """Bot A's share of the win: 1, ½, ⅓ or 0 (G-10)."""

    @property
    def a_cards(self) -> int:
        """Cards bot A captured."""
        return self.scores[self.a_seat]

    @property
    def b_cards(self) -> float:
        """Cards each bot B captured, on average."""
        return (120 - self.a_cards) / 2


@dataclass(frozen=True)
class GanjifaDuplicate:
    """The three plays of one deal and the decision times of each bot in them (seconds)."""

    deal: int
    plays: tuple[GanjifaPlay, ...]
    times_a: tuple[float, ...]
    times_b: tuple[float, ...]


def duplicate_score(plays: Sequence[GanjifaPlay]) -> float:
    """Bot A's score for a duplicate deal: 1 won, 0.5 tied, 0 lost (rule in module doc)."""
    cards = sum(p.a_cards for p in plays)
    par = 40 * len(plays)
    return 1.0 if cards > par else 0.5 if cards == par else 0.0


def play_duplicate(
    bot_a: str,
    bot_b: str,
    rules: ganjifa.Rules,
    seed: int,
    number: int,
    options_a: dict[str, Any] | None = None,
    options_b: dict[str, Any] | None = None,
    record_dir: str | None = None,
) -> GanjifaDuplicate:
    """Play deal ``number`` of an arena run three times, bot A in each seat in turn."""
    match_seed = ganjifa.deal_seed(seed, number)
    one = rules.replace(deals=1)
    plays: list[GanjifaPlay] = []
    times_a: list[float] = []
    times_b: list[float] = []
    clock = time.perf_counter
    for a_seat in range(3):
        bot_seed = ganjifa.deal_seed(match_seed, 100 + a_seat)
        bots = [
            make_bot(bot_a, seed=bot_seed, **(options_a or {}))
            if s == a_seat
            else make_bot(bot_b, seed=bot_seed + 1 + s, **(options_b or {}))
            for s in range(3)
        ]
        match = ganjifa.Match(one, seed=match_seed)
        deal = match.start_deal()
        while not deal.is_over():
            turn = deal.turn
            assert turn is not None
            view = deal.view(turn)
            start = clock()
            move = bots[turn].choose(view)
            (times_a if turn == a_seat else times_b).append(clock() - start)
            deal.push(move, seat=turn)
        outcome = deal.outcome()
        assert outcome is not None
        plays.append(GanjifaPlay(number, a_seat, outcome.scores, outcome.share(a_seat)))
        if record_dir is not None:
            from hukum import records

            records.save(match, Path(record_dir) / f"ganjifa{number:05d}-A{a_seat}.json")
    return GanjifaDuplicate(number, tuple(plays), tuple(times_a), tuple(times_b))


def _chunk(
    args: tuple[str, str, ganjifa.Rules, int],
    numbers: Sequence[int],
    options_a: dict[str, Any] | None,
    options_b: dict[str, Any] | None,
    record_dir: str | None,
) -> list[GanjifaDuplicate]:
    return [play_duplicate(*args, n, options_a, options_b, record_dir) for n in numbers]


@dataclass(frozen=True)
class GanjifaArenaReport(DuplicateFigures):
    """The results of a Ganjifa arena run and the figures computed from them."""

    bot_a: str
    bot_b: str
    rules: ganjifa.Rules
    seed: int
    results: tuple[GanjifaDuplicate, ...]
    wall_seconds: float = 0.0
    record_dir: str | None = None

    @property
    def plays(self) -> list[GanjifaPlay]:
        """Every play (three per deal)."""
        return [p for r in self.results for p in r.plays]

    @property
    def score(self) -> float:
        """Bot A's duplicate deals won, ties counting half."""
        return sum(duplicate_score(r.plays) for r in self.results)

    @property
    def win_share(self) -> float:
        """Bot A's mean share of the win over single plays (1/3: equal strength)."""
        plays = self.plays
        return statistics.fmean(p.a_share for p in plays) if plays else 0.0

    @property
    def b_win_share(self) -> float:
        """Each bot B's mean share of the win over single plays."""
        return (1 - self.win_share) / 2

    def mean_cards(self, side: str) -> float:
        """Mean cards captured a play by bot A, or by each bot B."""
        plays = self.plays
        if not plays:
            return 0.0
        return statistics.fmean(p.a_cards if side == "A" else p.b_cards for p in plays)


def run_ganjifa_arena(
    bot_a: str,
    bot_b: str,
    deals: int,
    rules: ganjifa.Rules,
    seed: int,
    workers: int = 1,
    *,
    options_a: dict[str, Any] | None = None,
    options_b: dict[str, Any] | None = None,
    record_dir: str | os.PathLike[str] | None = None,
    progress: bool = False,
    first_deal: int = 0,
) -> GanjifaArenaReport:
    """Play ``deals`` duplicate Ganjifa deals of bot A against two of bot B, numbered
    ``first_deal`` on (as :func:`hukum.arena.run_arena`)."""
    check_run(deals, workers, first_deal)
    for name, options in ((bot_a, options_a), (bot_b, options_b)):
        make_bot(name, **(options or {}))  # a bad name or option fails here, not in a worker
    rec = None
    if record_dir is not None:
        rec = str(record_dir)
        Path(rec).mkdir(parents=True, exist_ok=True)
    size = max(1, min(10, deals // (workers * 4) or 1))
    start = time.perf_counter()
    results: list[GanjifaDuplicate] = []
    bar = Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        disable=not progress,
    )
    args = (bot_a, bot_b, rules, seed)
    with bar:
        task = bar.add_task(f"{bot_a} vs 2 × {bot_b}", total=deals)
        if workers == 1:
            for numbers in _chunks(first_deal, deals, size):
                results += _chunk(args, numbers, options_a, options_b, rec)
                bar.advance(task, len(numbers))
        else:
            with ProcessPoolExecutor(max_workers=workers) as pool:
                futures = [
                    pool.submit(_chunk, args, numbers, options_a, options_b, rec)
                    for numbers in _chunks(first_deal, deals, size)
                ]
                for future in as_completed(futures):
                    done = future.result()
                    results += done
                    bar.advance(task, len(done))
    results.sort(key=lambda r: r.deal)
    return GanjifaArenaReport(
        bot_a, bot_b, rules, seed, tuple(results), time.perf_counter() - start, rec
    )


def format_report(report: GanjifaArenaReport) -> Table:
    """The report as a Rich table."""
    lo, hi = report.interval
    table = Table(
        title=f"Ganjifa: {report.bot_a} (A) vs 2 × {report.bot_b} (B): {report.heading()} "
        f"(3 plays each), seed {report.seed}"
    )
    table.add_column("figure")
    table.add_column(f"A: {report.bot_a}", justify="right")
    table.add_column(f"each B: {report.bot_b}", justify="right")
    table.add_row(
        "duplicate win rate (ties ½; 50% = equal)",
        f"{report.win_rate:.1%} [{lo:.1%}, {hi:.1%}]",
        f"{1 - report.win_rate:.1%}",
    )
    table.add_row(
        "win share of single plays (⅓ = equal)",
        f"{report.win_share:.1%}",
        f"{report.b_win_share:.1%}",
    )
    table.add_row(
        "mean cards captured a play (40 = equal)",
        f"{report.mean_cards('A'):.1f}",
        f"{report.mean_cards('B'):.1f}",
    )
    for i, label in enumerate(("decision time p50", "decision time p95", "decision time max")):
        table.add_row(label, _ms(report.time_stats("A")[i]), _ms(report.time_stats("B")[i]))
    table.caption = f"rules: {report.rules.differences() or 'default'}; {report.wall_seconds:.0f} s"
    if report.record_dir:
        table.caption += f"; records in {report.record_dir}"
    return table


def run_from_args(args: argparse.Namespace, options: dict[str, dict[str, Any]]) -> Table:
    """Run the arena from ``hukum arena --game ganjifa`` arguments; the report table."""
    rules = ganjifa.Rules().replace(**options["rules"])
    report = run_ganjifa_arena(
        args.bot_a,
        args.bot_b,
        deals=args.deals,
        rules=rules,
        seed=args.seed,
        workers=args.workers,
        options_a=options["a"],
        options_b=options["b"],
        record_dir=args.records,
        progress=not args.no_progress,
        first_deal=args.first_deal,
    )
    return format_report(report)
