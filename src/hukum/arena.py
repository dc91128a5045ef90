"""The arena: bot against bot in duplicate, so that the luck of the cards cancels out.

Each deal (a one-deal match from a seed) is played twice: first with bot A in the even seats
(team 0) and bot B in the odd seats (team 1), then with the bots swapped, so each bot holds
each set of hands once, from the same seats, with the same dealer.

**Who wins a duplicate deal.** Bot A wins it if it won more of the two plays; at one play
each, if its tens over both plays are more than B's; then if its match points over both
plays (win 1, mendikot 2, whitewash 3 by default) are more; then its tricks over both plays.
If all of those are level the duplicate deal is a tie, counted as half a win for each.
The win rate is A's wins (ties half) over the deals, with a 95% Wilson interval.

>>> from hukum.mindi import Rules
>>> report = run_arena("rules", "random", deals=2, rules=Rules(), seed=1, workers=1)
>>> report.deals, len(report.plays)
(2, 4)
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
from rich.table import Table

from hukum.bots import BotError, make_bot
from hukum.mindi import Match, Rules, deal_seed

__all__ = [
    "ArenaReport",
    "DuplicateResult",
    "PlayResult",
    "check_run",
    "duplicate_score",
    "format_report",
    "main",
    "parse_options",
    "play_duplicate",
    "run_arena",
    "wilson",
]


@dataclass(frozen=True)
class PlayResult:
    """One play of one deal, seen from bot A's side."""

    deal: int
    """Number of the deal (from 0)."""
    a_team: int
    """The team bot A played: 0 (even seats) or 1 (odd seats)."""
    a_won: bool
    """Whether bot A's team won the deal."""
    kind: str
    """``win``, ``mendikot`` or ``whitewash`` (the winner's kind of win)."""
    tens: tuple[int, int]
    """Tens of bot A's team and of bot B's team."""
    tricks: tuple[int, int]
    """Tricks of bot A's team and of bot B's team."""
    points: tuple[int, int]
    """Match points scored by bot A's team and by bot B's team."""


@dataclass(frozen=True)
class DuplicateResult:
    """Both plays of one deal and the decision times of each bot in them (seconds)."""

    deal: int
    plays: tuple[PlayResult, PlayResult]
    times_a: tuple[float, ...]
    times_b: tuple[float, ...]


def duplicate_score(plays: Sequence[PlayResult]) -> float:
    """Bot A's score for a duplicate deal: 1 won, 0.5 tied, 0 lost (rule in module doc)."""
    for a, b in (
        (sum(p.a_won for p in plays), sum(not p.a_won for p in plays)),
        (sum(p.tens[0] for p in plays), sum(p.tens[1] for p in plays)),
        (sum(p.points[0] for p in plays), sum(p.points[1] for p in plays)),
        (sum(p.tricks[0] for p in plays), sum(p.tricks[1] for p in plays)),
    ):
        if a != b:
            return 1.0 if a > b else 0.0
    return 0.5


def wilson(successes: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a proportion ``successes / n``."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= n else min(1.0, centre + half)
    return lo, hi


def _percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0 … 1) of ``values`` by the nearest-rank method; 0 if empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q * len(ordered)))
    return ordered[rank - 1]


class DuplicateFigures:
    """The figures every arena report (Mindi here, Ganjifa in :mod:`hukum.ganjifa_arena`)
    works out the same way from its deals: each result has ``times_a`` and ``times_b``, and
    the report's ``score`` is bot A's duplicate deals won, ties counting half."""

    results: tuple[Any, ...]

    @property
    def score(self) -> float:
        """Bot A's duplicate deals won, ties counting half."""
        raise NotImplementedError

    @property
    def deals(self) -> int:
        """Number of duplicate deals played."""
        return len(self.results)

    @property
    def first_deal(self) -> int:
        """The number of the first deal played (deals are numbered from 0 within a seed)."""
        return min((r.deal for r in self.results), default=0)

    def heading(self) -> str:
        """``N duplicate deals``, with ``from deal K`` if the first deal is not deal 0."""
        first = f" from deal {self.first_deal}" if self.first_deal else ""
        return f"{self.deals} duplicate deals{first}"

    @property
    def win_rate(self) -> float:
        """Bot A's duplicate win rate."""
        return self.score / self.deals if self.deals else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """95% Wilson interval of the duplicate win rate."""
        return wilson(self.score, self.deals)

    def times(self, side: str) -> list[float]:
        """Every decision time of side ``A`` or ``B``, in seconds."""
        return [t for r in self.results for t in (r.times_a if side == "A" else r.times_b)]

    def time_stats(self, side: str) -> tuple[float, float, float]:
        """Decision time p50, p95 and max of side ``A`` or ``B``, in seconds."""
        t = self.times(side)
        return _percentile(t, 0.5), _percentile(t, 0.95), max(t, default=0.0)


@dataclass(frozen=True)
class ArenaReport(DuplicateFigures):
    """The results of an arena run and the figures computed from them."""

    bot_a: str
    bot_b: str
    rules: Rules
    seed: int
    results: tuple[DuplicateResult, ...]
    wall_seconds: float = 0.0
    record_dir: str | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def plays(self) -> list[PlayResult]:
        """Every play (two per deal)."""
        return [p for r in self.results for p in r.plays]

    @property
    def score(self) -> float:
        """Bot A's duplicate deals won, ties counting half."""
        return sum(duplicate_score(r.plays) for r in self.results)

    @property
    def play_win_rate(self) -> float:
        """Bot A's share of single plays won."""
        plays = self.plays
        return sum(p.a_won for p in plays) / len(plays) if plays else 0.0

    def rate(self, kind: str, side: str) -> float:
        """Share of plays that side ``A`` or ``B`` won with ``kind`` (mendikot or whitewash)."""
        plays = self.plays
        if not plays:
            return 0.0
        won = [p for p in plays if p.kind == kind and p.a_won == (side == "A")]
        return len(won) / len(plays)

    def mean_tens(self, side: str) -> float:
        """Mean tens a play for side ``A`` or ``B``."""
        plays = self.plays
        i = 0 if side == "A" else 1
        return statistics.fmean(p.tens[i] for p in plays) if plays else 0.0


def _one_deal_rules(rules: Rules) -> Rules:
    return rules.replace(target=None, deals=1)


def play_duplicate(
    bot_a: str,
    bot_b: str,
    rules: Rules,
    seed: int,
    number: int,
    options_a: dict[str, Any] | None = None,
    options_b: dict[str, Any] | None = None,
    record_dir: str | None = None,
) -> DuplicateResult:
    """Play deal ``number`` of an arena run twice, the bots swapping seats between plays."""
    match_seed = deal_seed(seed, number)
    plays: list[PlayResult] = []
    times: dict[str, list[float]] = {"A": [], "B": []}
    for a_team in (0, 1):
        bot_seed = deal_seed(match_seed, 100 + a_team)
        bots = {
            "A": make_bot(bot_a, seed=bot_seed, **(options_a or {})),
            "B": make_bot(bot_b, seed=bot_seed + 1, **(options_b or {})),
        }
        match = Match(_one_deal_rules(rules), seed=match_seed)
        deal = match.start_deal()
        clock = time.perf_counter
        while not deal.is_over():
            turn = deal.turn
            assert turn is not None
            side = "A" if turn % 2 == a_team else "B"
            view = deal.view(turn)
            start = clock()
            move = bots[side].choose(view)
            times[side].append(clock() - start)
            deal.push(move, seat=turn)
        outcome = deal.outcome()
        assert outcome is not None
        b_team = 1 - a_team
        points = [0, 0]
        points[outcome.winner] = outcome.points
        plays.append(
            PlayResult(
                deal=number,
                a_team=a_team,
                a_won=outcome.winner == a_team,
                kind=outcome.kind,
                tens=(outcome.tens[a_team], outcome.tens[b_team]),
                tricks=(outcome.tricks[a_team], outcome.tricks[b_team]),
                points=(points[a_team], points[b_team]),
            )
        )
        if record_dir is not None:
            from hukum import records

            records.save(match, Path(record_dir) / f"deal{number:05d}-{'AB'[a_team]}.json")
    return DuplicateResult(number, (plays[0], plays[1]), tuple(times["A"]), tuple(times["B"]))


def _chunk(
    bot_a: str,
    bot_b: str,
    rules: Rules,
    seed: int,
    numbers: Sequence[int],
    options_a: dict[str, Any] | None,
    options_b: dict[str, Any] | None,
    record_dir: str | None,
) -> list[DuplicateResult]:
    return [
        play_duplicate(bot_a, bot_b, rules, seed, n, options_a, options_b, record_dir)
        for n in numbers
    ]


def _chunks(first: int, deals: int, size: int) -> Iterator[list[int]]:
    """The deal numbers ``first`` to ``first + deals - 1`` in runs of ``size``."""
    end = first + deals
    for start in range(first, end, size):
        yield list(range(start, min(end, start + size)))


def check_run(deals: int, workers: int, first_deal: int) -> None:
    """Refuse an arena run that cannot be played (ValueError, with the reason)."""
    if deals < 1:
        raise ValueError("the arena needs at least one deal")
    if workers < 1:
        raise ValueError("workers must be at least 1")
    if first_deal < 0:
        raise ValueError(f"first_deal={first_deal}: deals are numbered from 0")


def run_arena(
    bot_a: str,
    bot_b: str,
    deals: int,
    rules: Rules,
    seed: int,
    workers: int = 1,
    *,
    options_a: dict[str, Any] | None = None,
    options_b: dict[str, Any] | None = None,
    record_dir: str | os.PathLike[str] | None = None,
    progress: bool = False,
    chunk: int | None = None,
    first_deal: int = 0,
) -> ArenaReport:
    """Play ``deals`` duplicate deals of bot A against bot B and gather the report: the
    deals numbered ``first_deal`` on of the ``seed`` (so a long run can be split in parts
    whose results are those of the whole run)."""
    check_run(deals, workers, first_deal)
    rec = None
    if record_dir is not None:
        rec = str(record_dir)
        Path(rec).mkdir(parents=True, exist_ok=True)
    size = chunk or max(1, min(20, deals // (workers * 8) or 1))
    start = time.perf_counter()
    results: list[DuplicateResult] = []
    bar = Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        disable=not progress,
        transient=False,
    )
    with bar:
        task = bar.add_task(f"{bot_a} vs {bot_b}", total=deals)
        args = (bot_a, bot_b, rules, seed)
        if workers == 1:
            for numbers in _chunks(first_deal, deals, size):
                results += _chunk(*args, numbers, options_a, options_b, rec)
                bar.advance(task, len(numbers))
        else:
            with ProcessPoolExecutor(max_workers=workers) as pool:
                futures = [
                    pool.submit(_chunk, *args, numbers, options_a, options_b, rec)
                    for numbers in _chunks(first_deal, deals, size)
                ]
                for future in as_completed(futures):
                    done = future.result()
                    results += done
                    bar.advance(task, len(done))
    results.sort(key=lambda r: r.deal)
    return ArenaReport(
        bot_a,
        bot_b,
        rules,
        seed,
        tuple(results),
        wall_seconds=time.perf_counter() - start,
        record_dir=rec,
    )


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms" if seconds < 0.1 else f"{seconds * 1000:.0f} ms"


def format_report(report: ArenaReport) -> Table:
    """The report as a Rich table."""
    lo, hi = report.interval
    title = f"{report.bot_a} (A) vs {report.bot_b} (B): {report.heading()}, seed {report.seed}"
    table = Table(title=title, show_header=True)
    table.add_column("figure")
    table.add_column(f"A: {report.bot_a}", justify="right")
    table.add_column(f"B: {report.bot_b}", justify="right")
    table.add_row(
        "duplicate win rate (ties ½)",
        f"{report.win_rate:.1%} [{lo:.1%}, {hi:.1%}]",
        f"{1 - report.win_rate:.1%}",
    )
    table.add_row(
        "single plays won", f"{report.play_win_rate:.1%}", f"{1 - report.play_win_rate:.1%}"
    )
    for kind in ("mendikot", "whitewash"):
        table.add_row(
            f"{kind} rate (of plays)",
            f"{report.rate(kind, 'A'):.1%}",
            f"{report.rate(kind, 'B'):.1%}",
        )
    table.add_row(
        "mean tens a play", f"{report.mean_tens('A'):.2f}", f"{report.mean_tens('B'):.2f}"
    )
    for i, label in enumerate(("decision time p50", "decision time p95", "decision time max")):
        table.add_row(label, _ms(report.time_stats("A")[i]), _ms(report.time_stats("B")[i]))
    table.caption = f"rules: {report.rules.differences() or 'classic'}; {report.wall_seconds:.0f} s"
    if report.record_dir:
        table.caption += f"; records in {report.record_dir}"
    return table


def _value(text: str) -> Any:
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return {"true": True, "false": False, "none": None}.get(text.lower(), text)


def parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    """``KEY=VALUE`` pairs as keyword options: numbers, ``true``/``false``/``none`` or words;
    ``max-nodes`` is ``max_nodes``.

    >>> parse_options(["solve_tricks=10", "infer=0.5", "max-nodes=none"])
    {'solve_tricks': 10, 'infer': 0.5, 'max_nodes': None}
    """
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise argparse.ArgumentTypeError(f"bot option {pair!r}: write KEY=VALUE")
        options[key.strip().replace("-", "_")] = _value(value.strip())
    return options


def main(argv: list[str] | None = None) -> int:
    """Command line: ``arena BOT_A BOT_B [--deals N] [--preset P] ...``; prints the report."""
    parser = argparse.ArgumentParser(
        prog="hukum arena", description="Bot against bot in duplicate Mindi deals."
    )
    names = "random, rules, search or expert (Mindi only)"
    parser.add_argument("bot_a", help=names)
    parser.add_argument("bot_b", help=names)
    parser.add_argument("--deals", type=int, default=100, help="duplicate deals (default 100)")
    parser.add_argument("--preset", default="classic", help="rule preset (default classic)")
    parser.add_argument(
        "--rule", action="append", default=[], metavar="KEY=VALUE", help="change a rule option"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    parser.add_argument(
        "--first-deal",
        type=int,
        default=0,
        metavar="N",
        help="start at deal N of the seed (default 0): a run split in parts gives the "
        "results of the whole",
    )
    parser.add_argument(
        "--workers", type=int, default=os.cpu_count() or 1, help="parallel processes"
    )
    parser.add_argument(
        "--a", action="append", default=[], metavar="KEY=VALUE", help="option of bot A"
    )
    parser.add_argument(
        "--b", action="append", default=[], metavar="KEY=VALUE", help="option of bot B"
    )
    parser.add_argument("--records", metavar="DIR", help="save every game as a record in DIR")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument(
        "--game",
        default="mindi",
        choices=("mindi", "ganjifa"),
        help="mindi (default) or ganjifa: bot A against two of bot B, each deal played "
        "three times with A in each seat (--preset does not apply; --rule time=night ...)",
    )
    args = parser.parse_args(argv)
    console = Console()
    try:
        if args.game == "ganjifa":
            from hukum.ganjifa_arena import run_from_args

            sides = {
                "rules": parse_options(args.rule),
                "a": parse_options(args.a),
                "b": parse_options(args.b),
            }
            console.print(run_from_args(args, sides))
            return 0
        rules = Rules.preset(args.preset, **parse_options(args.rule))
        report = run_arena(
            args.bot_a,
            args.bot_b,
            deals=args.deals,
            rules=rules,
            seed=args.seed,
            workers=args.workers,
            options_a=parse_options(args.a),
            options_b=parse_options(args.b),
            record_dir=args.records,
            progress=not args.no_progress,
            first_deal=args.first_deal,
        )
    except (ValueError, BotError, argparse.ArgumentTypeError) as e:
        print(f"hukum arena: {e}", file=sys.stderr)
        return 2
    console.print(format_report(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
