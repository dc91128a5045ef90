"""``hukum play``: a match in the terminal at one seat against computer players, of any game
the terminal has a screen for (its spec's terminal facet)."""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from hukum.bots.base import BotError
from hukum.cli.args import Commands, UsageError, parse_options, positive
from hukum.game import GameError, Player
from hukum.games import GAMES, game_named
from hukum.terminal import Terminal, screen_for

__all__ = ["add"]


def _run(args: argparse.Namespace, out: Console) -> int:
    spec = game_named(args.game)
    options = parse_options(args.option)
    if args.deals is not None:
        options["deals"] = args.deals
    try:
        rules = spec.make_rules(args.preset, options)
    except GameError as e:
        raise UsageError(str(e)) from None
    players = spec.players(rules)
    if not 0 <= args.seat < players:
        raise UsageError(f"--seat {args.seat}: seats are 0 to {players - 1}")
    if args.record is not None:
        folder = Path(args.record).resolve().parent
        if not folder.is_dir():
            raise UsageError(f"--record {args.record}: the folder {folder} does not exist")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    screen = screen_for(spec.new_match(rules, seed), out, args.seat)
    partners = screen.partners()
    try:
        bots: dict[int, Player[Any, Any]] = {
            s: spec.make_bot(args.partner if s in partners else args.opponents, seed=seed + s)
            for s in range(players)
            if s != args.seat
        }
    except BotError as e:
        raise UsageError(str(e)) from None
    game = Terminal(
        screen,
        bots,
        read=lambda prompt: out.input(Text(prompt, style="bold")),
        record=Path(args.record) if args.record is not None else None,
        echo=not sys.stdin.isatty(),
    )
    return game.run()


def add(commands: Commands) -> None:
    """Add ``play`` to the command's subparsers."""
    games = [name for name, spec in GAMES.items() if spec.terminal is not None]
    presets = list(dict.fromkeys(p for name in games for p in GAMES[name].presets))
    bot_names = list(dict.fromkeys(b for name in games for b in GAMES[name].bots))
    parser = commands.add_parser(
        "play",
        help="play Mindi or Ganjifa in the terminal against computer players",
        description="Play a match of Mindi (or --game ganjifa) at one seat against computer "
        "players. Type a card (10S, TS, 10♠, ♠10) or its number; 'help' lists the commands.",
    )
    bots = ", ".join(bot_names)
    parser.add_argument(
        "--partner",
        default="rules",
        choices=bot_names,
        metavar="BOT",
        help=f"your partner(s), in Mindi: {bots} (default: rules)",
    )
    parser.add_argument(
        "--opponents",
        default="rules",
        choices=bot_names,
        metavar="BOT",
        help=f"the opponents: {bots} (default: rules)",
    )
    parser.add_argument(
        "--preset",
        choices=presets,
        metavar="NAME",
        help="rule preset: "
        + "; ".join(f"{GAMES[name].title} {', '.join(GAMES[name].presets)}" for name in games)
        + " (default: the game's first)",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="change one rule option, e.g. must_trump=true, trump=band, players=6 with "
        "deck=48, target=5, points=1,2,3 (repeat for more)",
    )
    parser.add_argument(
        "--game",
        default=games[0],
        choices=games,
        help="mindi (default) or ganjifa: Dashavatara Ganjifa against two computer players "
        "(--opponents; --option time=night, void_rule=trump_first, dukal=royal_run|either)",
    )
    parser.add_argument("--seed", type=int, help="match seed, to play the same deals again")
    parser.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    parser.add_argument("--deals", type=positive, metavar="N", help="end the match after N deals")
    parser.add_argument(
        "--record", metavar="FILE", help="save the match record to FILE at the end or on quit"
    )
    parser.set_defaults(run=_run)
