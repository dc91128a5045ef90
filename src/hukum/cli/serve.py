"""``hukum serve``: the web app (lobby, tables, bots) over a database."""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
from typing import TYPE_CHECKING

from rich.console import Console

from hukum.cli.args import Commands, delay, positive, seconds

if TYPE_CHECKING:
    import uvicorn

__all__ = ["add"]


def _run(args: argparse.Namespace, out: Console) -> int:
    import uvicorn

    from hukum.server import garbage
    from hukum.server.app import create_app, database_url

    url = database_url(args.database_url)
    redis_url = args.redis_url or os.environ.get("HUKUM_REDIS_URL") or None
    quota = {} if args.rooms_per_hour is None else {"rooms_per_hour": args.rooms_per_hour}
    app = create_app(
        url,
        bot_delay=args.bot_delay,
        hello_timeout=args.hello_timeout,
        redis_url=redis_url,
        max_tables=args.max_tables,
        collect_garbage=True,
        pool_countdown=args.pool_countdown,
        pool_wave=args.pool_wave,
        pool_turn_timeout=args.pool_turn_timeout,
        leaderboard_min_games=args.leaderboard_min_games,
        screening_workers=args.screening_workers,
        **quota,
    )
    garbage.pace()
    also = f" with the cluster at {redis_url}" if redis_url else ""
    print(f"hukum: starting on {url}{also}", flush=True)
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        ws="websockets-sansio",
        # A table's messages are small JSON; compressing each one for each socket took
        # an eighth of the event loop's time under load (scripts/load.py), and a deflate
        # context for each socket holds memory for as long as it is open.
        ws_per_message_deflate=False,
        forwarded_allow_ips=args.forwarded_allow_ips,
    )
    server = _server(config)
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    # As uvicorn.run: a server that never listened (the port taken) fails.
    return 0 if server.started else 3


def address(host: str, port: int) -> str:
    """The address a person opens for a server listening on ``host`` and ``port``: this
    machine's own for every address (0.0.0.0, ::), brackets round an IPv6 one.

    >>> address("127.0.0.1", 8000), address("0.0.0.0", 80), address("::1", 8001)
    ('http://127.0.0.1:8000/', 'http://127.0.0.1:80/', 'http://[::1]:8001/')
    """
    host = {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "::1"}.get(host, host)
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def _server(config: uvicorn.Config) -> uvicorn.Server:
    """uvicorn's server, saying where to open the page once it listens (the database
    migrated, the socket bound), not before: the moment the page answers."""
    import uvicorn

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if self.started:
                port = self.servers[0].sockets[0].getsockname()[1]
                where = address(self.config.host, port)
                print(f"hukum is running: open {where} (Ctrl-C stops it)", flush=True)

        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            # uvicorn lets the requests in flight end before it stops the app: the pools'
            # long polls (up to 25 s) answer now.
            matchmaker = getattr(getattr(self.config.app, "state", None), "matchmaker", None)
            if matchmaker is not None:
                matchmaker.release()
            await super().shutdown(sockets)

    return Server(config)


def add(commands: Commands) -> None:
    """Add ``serve`` to the command's subparsers."""
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
        type=delay,
        default=0.6,
        metavar="S",
        help="seconds a bot waits before it plays (default 0.6)",
    )
    serve.add_argument(
        "--rooms-per-hour",
        type=positive,
        metavar="N",
        help="rooms one client address may create an hour (default 100)",
    )
    serve.add_argument(
        "--screening-workers",
        type=positive,
        default=1,
        metavar="N",
        help="worker processes that screen finished rated and challenge deals for fair "
        "play, at a low priority (default 1)",
    )
    serve.add_argument(
        "--max-tables",
        type=positive,
        default=10_000,
        metavar="N",
        help="tables in play the process holds at most; a new room beyond is refused, "
        "server_full (default 10000)",
    )
    serve.add_argument(
        "--redis-url",
        metavar="URL",
        help="join the processes sharing this Redis server and the same database; each "
        "table is owned by one of them and players may connect to any (default: "
        "$HUKUM_REDIS_URL, else this process alone)",
    )
    serve.add_argument(
        "--hello-timeout",
        type=seconds,
        default=10.0,
        metavar="S",
        help="seconds a game socket has to send its first message, the hello (default 10)",
    )
    serve.add_argument(
        "--pool-countdown",
        type=delay,
        default=20.0,
        metavar="S",
        help="seconds a quick-match player waits before computer players take the seats "
        "still empty (default 20)",
    )
    serve.add_argument(
        "--pool-wave",
        type=seconds,
        default=2.0,
        metavar="S",
        help="seconds between two waves of the quick-match pools (default 2)",
    )
    serve.add_argument(
        "--pool-turn-timeout",
        type=seconds,
        default=30.0,
        metavar="S",
        help="the turn limit of the quick-match tables, in seconds (default 30)",
    )
    serve.add_argument(
        "--leaderboard-min-games",
        type=positive,
        default=5,
        metavar="N",
        help="rated matches a player needs in a pool to be on its leaderboard (default 5)",
    )
    serve.add_argument(
        "--forwarded-allow-ips",
        default="127.0.0.1",
        metavar="IPS",
        help="addresses of the load balancers whose X-Forwarded-For names the client "
        "(comma-separated, or *; default 127.0.0.1)",
    )
    serve.add_argument(
        "--log-level",
        default="info",
        choices=["critical", "error", "warning", "info", "debug"],
        help="uvicorn's log level (default info)",
    )
    serve.set_defaults(run=_run)
