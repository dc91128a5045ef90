"""The server's commands of ``hukum``: ``serve`` and ``verify`` (added by :func:`add_commands`)."""

from __future__ import annotations

import argparse
import json
from typing import Any

__all__ = ["add_commands"]


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def _delay(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {text}")
    return value


def _cmd_serve(args: argparse.Namespace, out: Any) -> int:
    import uvicorn

    from hukum.server.app import create_app, database_url

    url = database_url(args.database_url)
    quota = {} if args.rooms_per_hour is None else {"rooms_per_hour": args.rooms_per_hour}
    app = create_app(url, bot_delay=args.bot_delay, **quota)
    print(f"hukum: serving http://{args.host}:{args.port}/ on {url}", flush=True)
    uvicorn.run(
        app, host=args.host, port=args.port, log_level=args.log_level, ws="websockets-sansio"
    )
    return 0


def _cmd_verify(args: argparse.Namespace, out: Any) -> int:
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


def add_commands(commands: Any) -> None:
    """Add ``serve`` and ``verify`` to the ``hukum`` command's subparsers."""
    from hukum.games import GAMES

    serve = commands.add_parser(
        "serve",
        help="run the web app (lobby, tables, bots) at http://127.0.0.1:8000",
        description="Run the web server. The database is migrated at start; every table "
        "resumes where it was.",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument(
        "--database-url",
        metavar="URL",
        help="SQLAlchemy URL (default: $HUKUM_DATABASE_URL, else sqlite:///hukum.db)",
    )
    serve.add_argument(
        "--bot-delay",
        type=_delay,
        default=0.6,
        metavar="S",
        help="seconds a bot waits before it plays (default 0.6)",
    )
    serve.add_argument(
        "--rooms-per-hour",
        type=_count,
        metavar="N",
        help="rooms one client address may create an hour (default 100)",
    )
    serve.add_argument(
        "--log-level",
        default="info",
        choices=["critical", "error", "warning", "info", "debug"],
        help="uvicorn's log level (default info)",
    )
    serve.set_defaults(run=_cmd_serve)

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
    verify.set_defaults(run=_cmd_verify)
