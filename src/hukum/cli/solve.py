"""``hukum solve``: a recorded Mindi deal analysed with the exact solver, all hands seen:
which moves gave away a result the mover's team could have forced. The moves of each
position are solved in parallel by ``--workers`` processes (default: the machine's cores;
1: in this process), to the same values."""

from __future__ import annotations

import argparse
import os

from rich.console import Console
from rich.table import Table
from rich.text import Text

from hukum import records
from hukum.cli.args import Commands, UsageError, load_record, positive, tricks_option
from hukum.games import GAMES, spec_of

__all__ = ["add"]


def _run(args: argparse.Namespace, out: Console) -> int:
    from hukum.analysis import ANALYSIS_NODES, Analyser, analyse, standing, verdict
    from hukum.bots.solver import SolverError

    match = load_record(args.file, records.loads_any)
    facet = spec_of(match).analysis
    if facet is None:
        games = " and ".join(s.title for s in GAMES.values() if s.analysis is not None)
        raise UsageError(
            f"{args.file}: a {spec_of(match).title} record; the exact solver analyses "
            f"{games} deals only ('hukum replay {args.file}' prints it)"
        )
    if not 1 <= args.deal <= len(match.deals):
        raise UsageError(f"--deal {args.deal}: the record has deals 1 to {len(match.deals)}")
    deal = match.deals[args.deal - 1]
    tricks = min(args.tricks, facet.tricks(deal))
    max_nodes = args.max_nodes or ANALYSIS_NODES
    try:
        if args.workers == 1:
            report = analyse(deal, tricks=tricks, max_nodes=max_nodes)
        else:
            with Analyser(args.workers) as analyser:
                report = analyser.analyse(deal, tricks=tricks, max_nodes=max_nodes)
    except SolverError as e:
        raise UsageError(f"{args.file}: {e}") from None
    table = Table(
        title=f"Deal {args.deal}: the best result each move's team could force, all hands seen",
        header_style="bold",
    )
    for column in ("move", "trick", "seat", "card", "before", "after", "verdict", "better"):
        table.add_column(column, justify="right" if column in ("move", "trick", "seat") else "left")
    for m in report.moves:
        mistake = m.mistake
        table.add_row(
            str(m.number),
            str(m.trick),
            str(m.seat),
            str(m.move),
            standing(m.before, m.team),
            standing(m.after, m.team),
            Text(
                verdict(m.before, m.after, m.team) or "best",
                style="bold red" if mistake else "green",
            ),
            ", ".join(str(b) for b in m.best) if mistake else "",
        )
    out.print(table)
    note = f"{report.skipped} earlier moves not analysed (more than {report.tricks} tricks left"
    if report.tricks < tricks:
        note += f"; the trick before needed more than {max_nodes:,} positions searched"
    out.print(Text(note + ")", style="dim") if report.skipped else "")
    outcome = deal.outcome()
    if outcome is not None:
        out.print(f"Result: {outcome.describe()}")
    return 0


def add(commands: Commands) -> None:
    """Add ``solve`` to the command's subparsers."""
    parser = commands.add_parser(
        "solve",
        help="Mindi: analyse a recorded deal with the exact solver: which moves lost a mindi",
        description="Replay a deal of a Mindi match record and, for every move of its last tricks, "
        "solve the position with all hands seen: the best result the mover's team could "
        "force before and after the move, and the better move where it gave something away.",
    )
    parser.add_argument("file", metavar="RECORD", help="a record saved by 'hukum play --record'")
    parser.add_argument(
        "--deal", type=positive, default=1, metavar="N", help="deal number (default 1)"
    )
    tricks_option(
        parser,
        13,
        "K",
        "analyse the moves of the last K tricks (default 13: the whole deal, as far back as "
        "--max-nodes allows)",
    )
    parser.add_argument(
        "--max-nodes",
        type=positive,
        metavar="N",
        help="work back from the last trick while the solves fit in N positions searched "
        "in all (default hukum.analysis.ANALYSIS_NODES: 150 million, seconds)",
    )
    parser.add_argument(
        "--workers",
        type=positive,
        default=os.cpu_count() or 1,
        metavar="N",
        help="solve each position's moves in N processes in parallel (default: the "
        "machine's cores; 1: in this process); the same values whatever N",
    )
    parser.set_defaults(run=_run)
