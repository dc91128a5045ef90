"""``hukum bench``: how many random legal deals the engines play a second, how long the
exact solver takes a position (``--solver``), how long the deal analysis takes a finished
deal (``--analysis``), or how long a quick-match wave takes to pair 10,000 waiting tickets
(``--wave``)."""

from __future__ import annotations

import argparse
import functools
import math
import os
import statistics
import sys

from rich.console import Console
from rich.table import Table
from rich.text import Text

from hukum import __version__, bench
from hukum.cli.args import Commands, UsageError, positive, seconds, tricks_option
from hukum.games import game_named
from hukum.mindi import PRESETS, Rules
from hukum.online.crowd import (
    BLOCKS,
    LEAVERS,
    MAX_WAIT,
    PARTIES,
    RATING_MEAN,
    RATING_SPREAD,
    WAVE_TARGET,
    run_waves,
)
from hukum.online.pools import POOLS

__all__ = ["add"]


def _run_solver(args: argparse.Namespace, out: Console) -> int:
    deals = args.deals or 10
    table = Table(
        title=f"Solver: seconds per position with {args.tricks} tricks left, one core",
        header_style="bold",
    )
    for column in ("trump", "positions", "median", "p95", "max", "nodes/s"):
        table.add_column(column, justify="left" if column == "trump" else "right")
    kinds = {"known": ("known (open)", Rules(trump="open")), "cut": ("cut, not yet set", Rules())}
    searched = []
    for trump, (name, rules) in kinds.items():
        if args.trump not in (trump, "both"):
            continue
        r = bench.run_solver(
            rules,
            tricks=args.tricks,
            deals=deals,
            seed=args.seed,
            name=name,
            max_nodes=args.max_nodes,
        )
        table.add_row(
            name,
            str(len(r.times)) + (f" ({r.unsolved} unsolved)" if r.unsolved else ""),
            _secs(r.median),
            _secs(r.percentile(95)),
            _secs(max(r.times)),
            f"{r.nodes / r.seconds:,.0f}" if r.seconds > 0 else "-",
        )
        searched.append(f"{name} {_count(r.median_searched)}")
    out.print(table)
    # Positions searched are the same on any machine, unlike the seconds.
    out.print("Median positions searched: " + "; ".join(searched))
    if args.max_nodes:
        out.print(f"unsolved: not solved within {args.max_nodes:,} positions searched")
    return 0


#: The wall time within which a deal counts as analysed in time (issue 20's target).
ANALYSIS_SECONDS = 15.0


def _run_analysis(args: argparse.Namespace, out: Console) -> int:
    deals = args.deals or 200
    rules = Rules.preset(args.preset)
    if args.late is not None and rules.trump != "cut":
        raise UsageError(f"--late: preset {args.preset} is {rules.trump} hukum, not cut hukum")
    kind = args.preset + (f", trump set after trick {args.late}" if args.late else "")
    load = _load()
    out.print(f"Analysing {deals} deals ({kind}) on {args.workers} worker(s); load {load}")
    on_deal = None
    if args.verbose:

        def on_deal(seed: int, seconds: float, tricks: int) -> None:
            out.print(f"  seed {seed}: {seconds:.2f} s, {tricks} tricks", highlight=False)

    r = bench.run_analysis(
        rules,
        deals=deals,
        seed=args.seed,
        workers=args.workers,
        max_nodes=args.max_nodes,
        late=args.late,
        name=kind,
        on_deal=on_deal,
    )
    table = Table(
        title=f"Deal analysis from the last trick to the first: seconds per deal, "
        f"{r.workers} worker(s), at most {_count(r.max_nodes)} positions",
        header_style="bold",
    )
    columns = ("deals", "from trick 1", f"in {ANALYSIS_SECONDS:.0f} s", "median", "p90", "p95")
    for column in (*columns, "max", "unsolved", "positions (median)"):
        table.add_column(column, justify="right")
    n = len(r.times)
    table.add_row(
        str(n),
        f"{r.whole} ({r.whole / n:.0%})",
        f"{r.within(ANALYSIS_SECONDS)} ({r.within(ANALYSIS_SECONDS) / n:.0%})",
        f"{statistics.median(r.times):.2f}",
        f"{r.percentile(90):.2f}",
        f"{r.percentile(95):.2f}",
        f"{max(r.times):.2f}",
        str(r.unsolved),
        _count(statistics.median(r.searched)),
    )
    out.print(table)
    out.print(
        f"seeds {r.seeds[0]}–{r.seeds[-1]}"
        + (f" ({n} of them with trump still unset after trick {args.late})" if args.late else "")
        + f"; unsolved: trick 1 beyond the budget; load average {load} before, {_load()} after"
    )
    return 0


def _load() -> str:
    """The load average (1, 5, 15 minutes), where the system tells it."""
    try:
        return "/".join(f"{x:.2f}" for x in os.getloadavg())
    except (AttributeError, OSError):
        return "unknown"


def _count(n: float) -> str:
    """A number of positions, in millions from a million on: ``416``, ``14.6M``."""
    return f"{n / 1e6:.1f}M" if n >= 1e6 else f"{n:,.0f}"


def _secs(seconds: float) -> str:
    """A time of the solver benchmark: ``unsolved`` for a position past the node budget."""
    return "unsolved" if seconds == math.inf else f"{seconds:.3f}"


def _run_env(args: argparse.Namespace, out: Console) -> int:
    try:
        from hukum.envs.pettingzoo import env
    except ImportError as e:
        raise UsageError(str(e)) from None
    deals = args.deals or 500
    table = Table(
        title="Random legal actions on one core: the engine and the PettingZoo environment",
        header_style="bold",
    )
    for column in ("game", "engine moves/s", "environment steps/s", "share"):
        table.add_column(column, justify="left" if column == "game" else "right")
    for game, preset, count in (
        ("mindi", "classic", deals),
        ("ganjifa", None, _ganjifa_deals(deals)),
    ):
        spec = game_named(game)
        rules = spec.make_rules(preset)
        # The engine alone is timed on four times the deals: it is about ten times as fast,
        # and a run this short would give a shaky figure.
        raw = bench.run(rules, deals=4 * count, seed=args.seed, game=game)
        stepped = bench.run_env(functools.partial(env, game, preset), deals=count, seed=args.seed)
        table.add_row(
            spec.name + (f" ({preset})" if preset else ""),
            f"{raw.moves_per_second:,.0f}",
            f"{stepped.moves_per_second:,.0f}",
            f"{stepped.moves_per_second / raw.moves_per_second:.0%}",
        )
    out.print(table)
    return 0


def _ganjifa_deals(deals: int) -> int:
    """The Ganjifa deals played for ``--deals``: a fifth, at least one."""
    return max(1, deals // 5)


def _run_wave(args: argparse.Namespace, out: Console) -> int:
    tickets, waves = args.tickets or 10_000, args.waves or 20
    table = Table(
        title=f"Quick match: milliseconds to pair {tickets:,} waiting tickets in one wave, "
        f"{waves} waves per pool, one core",
        header_style="bold",
    )
    columns = ("pool", "median", "max", "tables", "seats to computers", "overdue tickets")
    for column in columns:
        table.add_column(column, justify="left" if column == "pool" else "right")
    for pool in POOLS.values():
        r = run_waves(pool, tickets=tickets, waves=waves, seed=args.seed)
        table.add_row(
            pool.name,
            f"{r.median * 1000:.1f}",
            f"{max(r.times) * 1000:.1f}",
            f"{r.tables / r.waves:,.0f}",
            f"{r.bot_share:.2%}",
            f"{r.overdue / r.waves:,.0f}",
        )
    out.print(table)
    out.print(
        f"target: under {WAVE_TARGET * 1000:.0f} ms a wave; each wave a fresh crowd (seeds "
        f"{args.seed}–{args.seed + waves - 1}): ratings ~{RATING_MEAN:.0f}±{RATING_SPREAD:.0f}, "
        f"{PARTIES:.0%} parties, {BLOCKS:.0%} with a block, {LEAVERS:.0%} leavers, waits "
        f"0–{MAX_WAIT:.0f} s; tables and the rest: per wave; load average {_load()}"
    )
    return 0


def _run(args: argparse.Namespace, out: Console) -> int:
    if args.wave:
        return _run_wave(args, out)
    if args.solver:
        return _run_solver(args, out)
    if args.analysis:
        return _run_analysis(args, out)
    if args.env:
        return _run_env(args, out)
    deals, limit = args.deals, args.seconds
    if deals is None and limit is None:
        deals = 10_000
    for name, value in (("--deals", deals), ("--seconds", limit)):
        if value is not None and value <= 0:
            raise UsageError(f"{name} must be more than 0")
    if args.all_presets:
        results = bench.run_presets(deals=deals, seconds=limit, seed=args.seed)
    else:
        rules = Rules.preset(args.preset)
        results = [bench.run(rules, deals=deals, seconds=limit, seed=args.seed, name=args.preset)]
    # A Ganjifa deal is 120 cards (about 110 moves): a fifth of the Mindi deals.
    mindi, ganjifa = game_named("mindi"), game_named("ganjifa")
    rows = [(mindi.title, r) for r in results]
    rows.append(
        (
            ganjifa.title,
            bench.run(
                ganjifa.make_rules(),
                deals=None if deals is None else _ganjifa_deals(deals),
                seconds=limit,
                seed=args.seed,
                name=ganjifa.default_preset,
                game=ganjifa.name,
            ),
        )
    )
    table = Table(title="Random legal deals on one core", header_style="bold")
    for column in ("game", "preset", "deals", "moves", "seconds", "deals/s", "moves/s"):
        table.add_column(column, justify="left" if column in ("game", "preset") else "right")
    for game, r in rows:
        table.add_row(
            game,
            r.name,
            f"{r.deals:,}",
            f"{r.moves:,}",
            f"{r.seconds:.2f}",
            f"{r.deals_per_second:,.0f}",
            f"{r.moves_per_second:,.0f}",
        )
    out.print(table)
    if deals is not None:
        first, last = rows[0][1], rows[-1][1]
        out.print(
            f"{ganjifa.title} plays a fifth of --deals ({_ganjifa_deals(deals):,} of "
            f"{deals:,}): its deals are about {last.moves / last.deals:.0f} moves each, "
            f"{mindi.title}'s {first.moves / first.deals:.0f}."
        )
    python = sys.implementation.name + " " + ".".join(str(v) for v in sys.version_info[:3])
    out.print(Text(f"hukum {__version__}, {python}", style="dim"))
    return 0


def add(commands: Commands) -> None:
    """Add ``bench`` to the command's subparsers."""
    presets = ", ".join(PRESETS)
    parser = commands.add_parser(
        "bench",
        help="measure how many random legal deals each game's engine plays per second",
        description="Play random legal deals on one core and print deals and moves per "
        "second: Mindi (default: 10,000 deals of preset classic), then Ganjifa (a fifth as "
        "many deals, 2,000: its deals are about twice as long).",
    )
    parser.add_argument(
        "--preset",
        default="classic",
        choices=list(PRESETS),
        metavar="NAME",
        help=f"Mindi rule preset: {presets} (default: classic)",
    )
    parser.add_argument("--all-presets", action="store_true", help="measure every Mindi preset")
    parser.add_argument(
        "--deals",
        type=positive,
        metavar="N",
        help="N Mindi deals per preset (default 10,000) and N/5 Ganjifa deals (each "
        "about twice the moves)",
    )
    parser.add_argument(
        "--seconds",
        type=seconds,
        metavar="S",
        help="time per Mindi preset and for Ganjifa (with --deals: whichever first)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the random play")
    parser.add_argument(
        "--solver",
        action="store_true",
        help="time the exact solver instead, on seeded positions of each --trump kind "
        "(default 10 positions each)",
    )
    parser.add_argument(
        "--env",
        action="store_true",
        help="time the PettingZoo environment (hukum[rl]) against the engine instead "
        "(default 500 Mindi deals, 100 Ganjifa)",
    )
    parser.add_argument(
        "--analysis",
        action="store_true",
        help="time the whole-deal analysis instead, on --deals finished deals of --preset "
        "played by the rules bot from seeds --seed on (default 200)",
    )
    parser.add_argument(
        "--wave",
        action="store_true",
        help="time a quick-match wave instead: pairing --tickets made-up waiting tickets "
        "(default 10,000) in one wave of each pool, --waves times (default 20)",
    )
    parser.add_argument(
        "--tickets", type=positive, metavar="N", help="with --wave: tickets waiting in a wave"
    )
    parser.add_argument("--waves", type=positive, metavar="N", help="with --wave: waves per pool")
    parser.add_argument(
        "--late",
        type=positive,
        metavar="K",
        help="with --analysis (cut hukum): only deals whose trump was still not set after trick K",
    )
    parser.add_argument(
        "--workers",
        type=positive,
        default=os.cpu_count() or 1,
        metavar="N",
        help="with --analysis: worker processes (default: the machine's cores; 1: in this process)",
    )
    parser.add_argument(
        "--verbose", action="store_true", help="with --analysis: a line for each deal"
    )
    tricks_option(
        parser, 8, "N", "with --solver: tricks left in each position, 13 for a whole deal"
    )
    parser.add_argument(
        "--trump",
        choices=("known", "cut", "both"),
        default="both",
        help="with --solver: positions with trump known (open hukum), cut hukum with trump "
        "not yet set, or both (default)",
    )
    parser.add_argument(
        "--max-nodes",
        type=positive,
        metavar="N",
        help="with --solver: give up on a position after searching N positions (it counts "
        "as unsolved, slower than every solved one); with --analysis: the budget of each "
        "deal (default hukum.analysis.ANALYSIS_NODES)",
    )
    parser.set_defaults(run=_run)
