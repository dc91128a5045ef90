"""``hukum arena``: bot against bot in duplicate deals of any game (:mod:`hukum.arena`)."""

from __future__ import annotations

import argparse
import os

from rich.console import Console

from hukum.arena import format_comparison, format_report, read_results, run_arena
from hukum.bots.base import BotError
from hukum.cli.args import Commands, UsageError, parse_options
from hukum.game import GameError
from hukum.games import GAMES, game_named

__all__ = ["add"]


def _run(args: argparse.Namespace, out: Console) -> int:
    try:
        spec = game_named(args.game)
        rules = spec.make_rules(args.preset, parse_options(args.rule, "--rule"))
        report = run_arena(
            args.bot_a,
            args.bot_b,
            deals=args.deals,
            rules=rules,
            seed=args.seed,
            workers=args.workers,
            game=args.game,
            options_a=parse_options(args.a, "--a"),
            options_b=parse_options(args.b, "--b"),
            record_dir=args.records,
            progress=not args.no_progress,
            first_deal=args.first_deal,
            results=args.results,
        )
    except (ValueError, GameError, BotError) as e:
        raise UsageError(str(e)) from None
    out.print(format_report(report))
    return 0


def _compare(args: argparse.Namespace, out: Console) -> int:
    try:
        base = read_results(args.base)
        others = [read_results(path) for path in args.other]
        table = format_comparison(base, others)
    except ValueError as e:
        raise UsageError(str(e)) from None
    out.print(table)
    return 0


def add(commands: Commands) -> None:
    """Add ``arena`` and ``compare`` to the command's subparsers."""
    parser = commands.add_parser(
        "arena",
        help="bot against bot in duplicate deals of either game, with win rate and decision times",
        description="Bot against bot in duplicate deals.",
    )
    names = "; ".join(f"{name}: {', '.join(spec.bots)}" for name, spec in GAMES.items())
    parser.add_argument("bot_a", help=names)
    parser.add_argument("bot_b", help=names)
    parser.add_argument(
        "--game",
        default="mindi",
        choices=tuple(GAMES),
        help="mindi (default): bot A's team against bot B's, each deal played twice; "
        "ganjifa: bot A against two of bot B, each deal played three times",
    )
    parser.add_argument("--deals", type=int, default=100, help="duplicate deals (default 100)")
    parser.add_argument(
        "--preset", default=None, help="rule preset (default: the game's, e.g. classic)"
    )
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
    parser.add_argument(
        "--results",
        metavar="FILE",
        help="keep each deal's result in FILE as it finishes; run again with the same FILE, "
        "only the deals missing are played (a run cut off goes on; parts add up to the whole)",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.set_defaults(run=_run)
    compare = commands.add_parser(
        "compare",
        help="compare arena runs on the same deals, deal by deal (their results files)",
        description="Compare arena runs' results files (--results) on the deals they share: "
        "bot A's win rate in each and the difference, with a paired 95%% interval. Runs of "
        "two versions of a bot against the same opponent often score most deals alike, "
        "which that interval counts and the win rates' own intervals do not.",
    )
    compare.add_argument("base", metavar="FILE", help="the results file to compare against")
    compare.add_argument("other", metavar="OTHER", nargs="+", help="results files to compare")
    compare.set_defaults(run=_compare)
