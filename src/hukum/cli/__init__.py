"""The ``hukum`` command: the web app, a match in the terminal, records, arena, bench. Each
command is a module of this package that adds itself to the parser (``add``).

::

    hukum serve [--host H] [--port P] [--database-url URL] [--bot-delay S]
    hukum play [--preset NAME] [--option KEY=VALUE ...] [--seed N] [--seat N] [--deals N]
               [--partner BOT] [--opponents BOT] [--record FILE]
    hukum play --game ganjifa [--option KEY=VALUE ...] [--seed N] [--seat N] [--opponents BOT]
    hukum replay FILE
    hukum solve RECORD [--deal N] [--tricks K]
    hukum arena BOT_A BOT_B [--game G] [--deals N] [--preset NAME] [--rule KEY=VALUE ...]
                [--workers N] [--first-deal N] [--a|--b KEY=VALUE ...] [--records DIR]
                [--results FILE]
    hukum compare FILE OTHER [OTHER ...]
    hukum verify --seed S --commitment C --dealer D [--preset NAME]
    hukum bench [--preset NAME | --all-presets] [--deals N] [--seconds S]
    hukum bench --solver [--tricks N] [--deals N] [--trump known|cut|both] [--max-nodes N]
    hukum bench --wave [--tickets N] [--waves N] [--seed N]
    hukum admin grant-moderator NAME [--database-url URL]
    hukum admin revoke-moderator NAME [--database-url URL]
    hukum --version

Mistakes a user can make (an unknown option, a bad record file) end with a message on
stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from rich.align import AlignMethod
from rich.console import Console
from rich.rule import Rule
from rich.style import Style
from rich.text import Text, TextType

from hukum import __version__
from hukum.cli import admin, arena, bench, play, replay, serve, solve, verify
from hukum.cli.args import UsageError

__all__ = ["DESCRIPTION", "PipedConsole", "main", "output"]

#: What ``hukum --help`` says first: the two games and what the command does with them.
DESCRIPTION = """\
Two Indian card games against computer players, in the browser or the terminal:

  Mindi (Mendikot, Dehla Pakad): 4, 6 or 8 players in two teams; the team that
    captures more tens (mindis) wins the deal.
  Dashavatara Ganjifa (--game ganjifa): 3 players, each for themselves, 120 round
    cards in ten avatar suits; whoever captures the most cards wins.

The web app, play in the terminal, computer players and their arena, game records,
Mindi deal analysis, fair-shuffle checks and the engines' speed."""


class PipedConsole(Console):
    """Standard output that is not a terminal (a pipe, a file): no line is wrapped, so a
    line of text or a table row reads whole however wide it is (a table takes the width it
    needs); a rule, which has no width of its own, keeps ``rule_width``."""

    #: The console's width: more than any line of the command's output.
    WIDTH = 10_000

    def __init__(self, rule_width: int, **options: Any) -> None:
        super().__init__(width=self.WIDTH, soft_wrap=True, **options)
        self.rule_width = rule_width

    def rule(
        self,
        title: TextType = "",
        *,
        characters: str = "─",
        style: str | Style = "rule.line",
        align: AlignMethod = "center",
    ) -> None:
        """A horizontal rule ``rule_width`` wide, with its title."""
        rule = Rule(title, characters=characters, style=style, align=align)
        self.print(rule, width=self.rule_width)


def output() -> Console:
    """The console of standard output: a terminal's width, or when the output is piped or
    redirected no wrapping at all (:class:`PipedConsole`), its rules as wide as ``COLUMNS``
    or 80 columns."""
    console = Console(highlight=False)
    if console.is_terminal:
        return console
    return PipedConsole(console.width, highlight=False)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hukum",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=DESCRIPTION,
        epilog="Run 'hukum COMMAND --help' for the options of a command.",
    )
    parser.add_argument("--version", action="version", version=f"hukum {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in (play, replay, solve, bench, arena, serve, verify, admin):
        command.add(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``hukum`` command; the exit code."""
    parser = _parser()
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    out = output()
    try:
        code: int = args.run(args, out)
        return code
    except UsageError as e:
        Console(stderr=True, highlight=False, soft_wrap=True).print(
            Text(f"hukum {args.command}: error: {e}", style="red")
        )
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (``hukum replay game.json | head``): stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
