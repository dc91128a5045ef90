"""``hukum replay``: a record of any game, checked by replaying it, printed trick by trick."""

from __future__ import annotations

import argparse

from rich.console import Console

from hukum import records, terminal
from hukum.cli.args import Commands, UsageError, load_record

__all__ = ["add"]


def _run(args: argparse.Namespace, out: Console) -> int:
    match = load_record(args.file, records.loads_any)
    try:
        terminal.replay(match, out)
    except terminal.NoScreenError as e:
        raise UsageError(f"{args.file}: {e}") from None
    return 0


def add(commands: Commands) -> None:
    """Add ``replay`` to the command's subparsers."""
    parser = commands.add_parser(
        "replay",
        help="print a saved match of either game trick by trick",
        description="Load a match record, check it by replaying every move, and print each "
        "deal trick by trick.",
    )
    parser.add_argument("file", metavar="FILE", help="a record saved by 'hukum play --record'")
    parser.set_defaults(run=_run)
