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
                [--workers N] [--records DIR]
    hukum verify --seed S --commitment C --dealer D [--preset NAME]
    hukum bench [--preset NAME | --all-presets] [--deals N] [--seconds S]
    hukum bench --solver [--tricks N] [--deals N] [--trump known|cut|both] [--max-nodes N]
    hukum --version

Mistakes a user can make (an unknown option, a bad record file) end with a message on
stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys

from rich.console import Console
from rich.text import Text

from hukum import __version__
from hukum.cli import arena, bench, play, replay, solve
from hukum.cli.args import UsageError

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hukum",
        description="Mindi (Mendikot, Dehla Pakad) and Dashavatara Ganjifa: the web app, play "
        "in the terminal, computer players, game records, fair-shuffle checks and the "
        "engine's speed.",
        epilog="Run 'hukum COMMAND --help' for the options of a command.",
    )
    parser.add_argument("--version", action="version", version=f"hukum {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in (play, replay, solve, bench, arena):
        command.add(commands)

    from hukum.server.cli import add_commands as add_server_commands

    add_server_commands(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``hukum`` command; the exit code."""
    parser = _parser()
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    out = Console(highlight=False)
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
