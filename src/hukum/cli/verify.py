"""``hukum verify``: a deal's revealed seed checked against its published commitment."""

from __future__ import annotations

import argparse
import json

from rich.console import Console

from hukum.cli.args import Commands
from hukum.games import GAMES

__all__ = ["add"]


def _run(args: argparse.Namespace, out: Console) -> int:
    from hukum.game import GameError
    from hukum.games import game_named
    from hukum.server.fairness import verify

    try:
        spec = game_named(args.game)
        options = json.loads(args.rules) if args.rules else {}
        if not isinstance(options, dict):
            raise ValueError("--rules is a JSON object of options")
        rules = spec.make_rules(args.preset, options)
    except (ValueError, GameError) as e:
        print(f"hukum verify: error: {e}")
        return 2
    players = spec.players(rules)
    if not 0 <= args.dealer < players:
        print(f"hukum verify: error: the dealer is a seat from 0 to {players - 1}")
        return 2
    result = verify(args.commitment, args.seed, rules, args.dealer, spec)
    if args.json:
        print(json.dumps(result))
    else:
        ok = "matches" if result["commitment_ok"] else "DOES NOT match"
        print(f"commitment {ok} the seed")
        if result["shown_card"] is not None:
            print(f"shown card: {result['shown_card']}")
        for seat, hand in enumerate(result["hands"]):
            print(f"seat {seat}: {' '.join(hand)}")
    return 0 if result["commitment_ok"] else 1


def add(commands: Commands) -> None:
    """Add ``verify`` to the command's subparsers."""
    verify = commands.add_parser(
        "verify",
        help="check a deal's revealed seed against its commitment and show the hands",
        description="Check that sha256('hukum-deal:' + SEED) is the published commitment "
        "and print the hands the seed deals (exit code 1 if it does not match).",
    )
    verify.add_argument("--seed", type=int, required=True, help="the revealed seed")
    verify.add_argument("--commitment", required=True, help="the published sha256 (hex)")
    verify.add_argument("--dealer", type=int, required=True, help="the deal's dealer seat")
    verify.add_argument("--game", default="mindi", choices=list(GAMES), help="default mindi")
    verify.add_argument("--preset", metavar="NAME", help="rule preset (default: the game's)")
    verify.add_argument("--rules", metavar="JSON", help="rule options as a JSON object")
    verify.add_argument("--json", action="store_true", help="print the result as JSON")
    verify.set_defaults(run=_run)
