"""The web app: ``create_app(database_url, bot_delay)`` builds it; ``hukum serve`` runs it."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from hukum.server import garbage
from hukum.server.analyses import Analyses
from hukum.server.cluster import Cluster
from hukum.server.db import Store, make_engine, migrate
from hukum.server.identity.passwords import Passwords
from hukum.server.identity.sessions import Identities
from hukum.server.play.challenge import Challenges, deal_seed
from hukum.server.play.pool import POOL_TURN_TIMEOUT, Matchmaker, MemoryWaiting, RedisWaiting
from hukum.server.play.results import CATCH_UP_EVERY, Ratings
from hukum.server.play.screening import Screenings
from hukum.server.protocol import TableError, error_body, foreign_origin, http_status
from hukum.server.routes import (
    account,
    analysis,
    challenge,
    fairplay,
    lobby,
    me,
    moderation,
    players,
    pool,
    replay,
    report,
    rules,
    ws,
)
from hukum.server.tables import IDLE_SECONDS, MAX_TABLES, Registry, Table
from hukum.server.tables.scheduler import close_bot_processes
from hukum.server.throttle import ROOMS_PER_HOUR, Throttle

__all__ = [
    "DEFAULT_DATABASE_URL",
    "MAX_BODY",
    "STATIC",
    "BodyLimit",
    "RedactTokens",
    "SecurityHeaders",
    "create_app",
    "database_url",
]

log = logging.getLogger("hukum.server")

#: The front end (plain files, no build step), served at ``/static``.
STATIC = Path(__file__).parent / "static"
#: The front end's pages (static/app.js routes each address to its page module): each is
#: served index.html, and the page draws itself from its address.
PAGES = (
    "/",
    "/rooms/new",
    "/t/{code}",
    "/t/{code}/deals/{number}",
    "/t/{code}/report",
    "/how-to-play",
    "/settings",
    "/account",
    "/moderation",
    "/play/{pool}",
    "/party/{party}",
    "/leaderboard/{pool}",
    "/u/{username}",
    "/profile",
    "/challenge",
    "/challenge/week/{week}",
    "/challenge/{day}",
    "/challenge/{day}/leaderboard",
)
DEFAULT_DATABASE_URL = "sqlite:///hukum.db"
#: The static files the service worker keeps, by suffix (not its own source, nor the
#: fonts' licence and notes).
WORKER_KEEPS = (".js", ".css", ".svg", ".png", ".woff2")

_NO_FRONT_END = """<!doctype html><meta charset="utf-8"><title>hukum</title>
<p>The hukum server is running, but its front end (src/hukum/server/static/index.html) is
not installed. The API is at <a href="/docs">/docs</a>.</p>"""


#: A seat token (a token owns its seat) in a URL's query, ``/ws/<code>?token=…``, or in a
#: JSON message, ``"token": "…"`` (the hello, which a debug log shows frame by frame),
#: its quotes perhaps escaped (JSON in a quoted string).
_TOKEN = re.compile(r"""(token=)[^&\s"']+|(\\?"token\\?"\s*:\s*\\?")[^"\\]+""")


class RedactTokens(logging.Filter):
    """Keep seat tokens out of the logs: a record whose text holds ``token=<token>`` or
    ``"token": "<token>"`` is logged with ``…`` for the token. The page sends its token in
    the socket's first message, never in a URL; an old client's ``/ws/<code>?token=…`` is
    refused (``token_in_url``), but the access log has its line by then; at ``--log-level
    debug`` every frame is logged, the hello among them."""

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        if "token" in text:
            record.msg, record.args = _TOKEN.sub(lambda m: (m[1] or m[2]) + "…", text), None
        return True


#: The loggers that write request lines (uvicorn's).
REQUEST_LOGGERS = ("uvicorn.access", "uvicorn.error")


#: The largest request body the API reads (the largest real one, a room's rules, is < 2 KB).
MAX_BODY = 64 * 1024

#: The error code of each HTTP status the framework itself refuses with.
HTTP_ERROR_CODES = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}


class BodyLimit:
    """Refuse a request body over ``limit`` bytes with 413 ``too_large`` as it arrives (a
    declared Content-Length at once, a chunked body once past the limit), before the app
    reads it whole."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers", ())).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._refuse(send)
            return
        seen = 0
        too_large = False

        async def limited() -> Message:
            nonlocal seen, too_large
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                too_large = True
                raise StarletteHTTPException(413, f"the body is over {self.limit} bytes")
            return message

        try:
            await self.app(scope, limited, send)
        except StarletteHTTPException:
            if not too_large:
                raise
            await self._refuse(send)

    async def _refuse(self, send: Send) -> None:
        response = JSONResponse(
            error_body("too_large", f"the body is over {self.limit} bytes"), status_code=413
        )
        await response({"type": "http"}, _no_body, send)


async def _no_body() -> Message:
    return {"type": "http.disconnect"}


#: The methods that change something: refused from another site's page.
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class SameOrigin:
    """Refuse a state-changing request sent from another site's page (its ``Origin`` is not
    this server: :func:`hukum.server.protocol.foreign_origin`) with 403 ``foreign_origin``,
    before any route sees it. The WebSocket handshake is checked by the game socket."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in UNSAFE_METHODS:
            headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
            origin = foreign_origin(headers)
            if origin is not None:
                body = error_body("foreign_origin", f"a request from {origin} is refused")
                response = JSONResponse(body, status_code=http_status("foreign_origin"))
                await response(scope, _no_body, send)
                return
        await self.app(scope, receive, send)


#: The Content-Security-Policy of every response: scripts, styles, fonts, images and
#: connections of this site only, no plugin, no <base>, no framing, forms posted here.
#: Styles allow inline ``style`` attributes (the pages place cards and seats with them);
#: scripts never run inline. Images may be ``data:`` URLs (the favicon of "your turn").
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; "
    "base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)
#: FastAPI's API pages (/docs, /redoc) load their script and style from a CDN and start
#: with an inline script: their own policy allows that CDN and those inline scripts (no
#: other page of the site needs or gets it).
DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://fonts.googleapis.com; "
    "img-src 'self' data: https://fastapi.tiangolo.com https://cdn.redoc.ly; "
    "font-src 'self' https://fonts.gstatic.com; connect-src 'self'; worker-src 'self' blob:; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)
DOCS_PATHS = ("/docs", "/redoc")
#: Headers every HTTP response carries.
SECURITY_HEADERS = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
)


class SecurityHeaders:
    """Give every HTTP response the security headers (:data:`CSP`, :data:`SECURITY_HEADERS`):
    the policy that keeps an injected script from running, no MIME sniffing, no address
    sent to another site, no framing (clickjacking)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        docs = scope["path"] in DOCS_PATHS or scope["path"].startswith("/docs/")
        policy = (DOCS_CSP if docs else CSP).encode()

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [
                    (k, v)
                    for k, v in message.get("headers", [])
                    if k.lower() not in _SECURITY_NAMES
                ]
                headers += [(b"content-security-policy", policy), *SECURITY_HEADERS]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, secured)


_SECURITY_NAMES = frozenset({b"content-security-policy", *(k for k, _ in SECURITY_HEADERS)})


def service_worker(static: Path) -> str:
    """static/sw.js as /sw.js serves it (the root scope: it keeps the pages too), with its
    version, a hash of every static file (a release that changes one replaces the
    browser's cache), and the files it keeps: the page ("/") and the static files."""
    files = sorted(p for p in static.rglob("*") if p.is_file())
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(static).as_posix().encode() + b"\0" + path.read_bytes())
    kept = ["/"] + [
        "/static/" + path.relative_to(static).as_posix()
        for path in files
        if path.suffix in WORKER_KEEPS and path.name != "sw.js"
    ]
    source = (static / "sw.js").read_text()
    source = source.replace('"__HUKUM_VERSION__"', json.dumps(digest.hexdigest()[:16]))
    return source.replace('["__HUKUM_FILES__"]', json.dumps(kept))


#: How often the server deletes ended sessions and the guests nobody can be again.
FORGET_EVERY = 3600.0


async def _forgetting(identities: Identities) -> None:
    """Delete ended sessions and unreachable guests (:meth:`Identities.forget_expired`) at
    start and every :data:`FORGET_EVERY` seconds; a failure is logged and tried again."""
    while True:
        try:
            ended, gone = await asyncio.to_thread(identities.forget_expired)
            if ended or gone:
                log.info("forgot %d ended session(s) and %d unreachable guest(s)", ended, gone)
        except Exception:
            log.exception("forgetting ended sessions failed; trying again later")
        await asyncio.sleep(FORGET_EVERY)


def database_url(url: str | None = None) -> str:
    """The database to use: the argument, else ``HUKUM_DATABASE_URL``, else ./hukum.db."""
    return url or os.environ.get("HUKUM_DATABASE_URL") or DEFAULT_DATABASE_URL


def create_app(
    database_url_: str | None = None,
    bot_delay: float = 0.6,
    static_dir: Path | None = None,
    rooms_per_hour: int = ROOMS_PER_HOUR,
    hello_timeout: float = ws.HELLO_TIMEOUT,
    redis_url: str | None = None,
    max_tables: int = MAX_TABLES,
    idle_seconds: float = IDLE_SECONDS,
    analyses: Analyses | None = None,
    collect_garbage: bool = False,
    rates: dict[str, str] | None = None,
    passwords: Passwords | None = None,
    pool_countdown: float = 20.0,
    pool_wave: float = 2.0,
    pool_turn_timeout: float = POOL_TURN_TIMEOUT,
    leaderboard_min_games: int = players.MIN_GAMES,
    ratings_catch_up: float = CATCH_UP_EVERY,
    screening_workers: int = 1,
    screening_waiting: int = 32,
) -> FastAPI:
    """The app on a database (migrated to the newest schema first); one client address
    may create ``rooms_per_hour`` rooms an hour; a game socket has ``hello_timeout``
    seconds to send its first message. With ``redis_url`` the process is one of a cluster
    of processes on the same database and Redis server (:mod:`hukum.server.cluster`). It
    holds at most ``max_tables`` tables in play; a table nobody is at leaves memory after
    ``idle_seconds``. ``analyses``: the pool that analyses finished deals (default: one
    analysis at a time on the machine's cores, four more waiting). With
    ``collect_garbage`` the app collects the process's garbage by the clock
    (:func:`hukum.server.garbage.collecting`; ``hukum serve``, after
    :func:`~hukum.server.garbage.pace`). ``rates`` changes named rate limits
    (:data:`hukum.server.throttle.RATES`), counted on the Redis server in a cluster;
    ``passwords``: how passwords are hashed (default Argon2id). The quick-match pools
    (:mod:`hukum.server.play.pool`) give computer players the seats still empty after
    ``pool_countdown`` seconds, run a wave every ``pool_wave`` seconds, and make tables
    whose turn limit is ``pool_turn_timeout``. A rated table's match is
    rated as it ends, and every ``ratings_catch_up`` seconds any finished rated match no
    process rated is (:mod:`hukum.server.play.results`); a leaderboard lists players with
    ``leaderboard_min_games`` rated matches or more. Each finished rated or challenge deal is
    screened for fair play in ``screening_workers`` worker processes, ``screening_waiting``
    more rooms waiting
    (:mod:`hukum.server.play.screening`; beyond, the catch-up screens them, as often as the
    ratings catch up)."""
    url = database_url(database_url_)
    migrate(url)
    engine = make_engine(url)
    store = Store(engine)
    cluster = Cluster(redis_url) if redis_url else None
    registry = Registry(store, bot_delay, cluster, max_tables=max_tables, idle_seconds=idle_seconds)
    throttle = Throttle(rooms_per_hour, redis_url, rates)
    matchmaker = Matchmaker(
        MemoryWaiting() if cluster is None else RedisWaiting(cluster.redis, cluster.prefix),
        registry,
        store,
        process="local" if cluster is None else cluster.id,
        countdown=pool_countdown,
        wave_every=pool_wave,
        turn_timeout=pool_turn_timeout,
    )
    ratings = Ratings(store)
    challenges = Challenges(store)
    screening = Screenings(store, screening_workers, screening_waiting)

    def finished(table: Table) -> None:
        ratings.finished(table)
        challenges.finished(table)
        screening.finished(table)

    registry.finished = finished
    registry.challenge_seed = lambda key: asyncio.to_thread(deal_seed, store, key)
    static = static_dir or STATIC

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Here, not earlier: the server has set its logging up by now.
        for name in REQUEST_LOGGERS:
            logger = logging.getLogger(name)
            if not any(isinstance(f, RedactTokens) for f in logger.filters):
                logger.addFilter(RedactTokens())
        # The dummy hash an unknown user name's sign-in verifies, made now: the first such
        # sign-in then takes as long as any other.
        await asyncio.to_thread(app.state.passwords.dummy)
        if cluster is not None:
            await cluster.start(registry)
            log.info("joined the cluster at %s as %s", cluster.url, cluster.id)
        count = await registry.load_active()
        log.info("resumed %d table(s)", count)
        tasks = [
            asyncio.create_task(registry.sweeping(min(60.0, idle_seconds / 2))),
            asyncio.create_task(_forgetting(app.state.identities), name="forget"),
            asyncio.create_task(ratings.catching_up(ratings_catch_up), name="ratings"),
            asyncio.create_task(challenges.catching_up(ratings_catch_up), name="challenges"),
            asyncio.create_task(screening.catching_up(ratings_catch_up), name="screening"),
        ]
        if collect_garbage:
            tasks.append(asyncio.create_task(garbage.collecting(), name="garbage"))
        matchmaker.start()
        yield
        await matchmaker.stop()
        for task in tasks:
            task.cancel()
        await ratings.settle()  # a match that just ended is rated before the store closes
        await challenges.settle()
        # A screening under way is left to the catch-up; no worker process outlives the app.
        await screening.stop()
        await asyncio.to_thread(app.state.analyses.close)  # no worker process outlives the app
        await asyncio.to_thread(close_bot_processes)
        registry.close()
        if cluster is not None:
            await cluster.stop()
        await throttle.close()
        store.close()
        engine.dispose()

    app = FastAPI(title="hukum", lifespan=lifespan)
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    app.add_middleware(SameOrigin)
    app.add_middleware(SecurityHeaders)
    app.state.store = store
    app.state.identities = Identities(store)
    app.state.registry = registry
    app.state.cluster = cluster
    app.state.analyses = analyses or Analyses()
    app.state.throttle = throttle
    app.state.matchmaker = matchmaker
    app.state.passwords = passwords or Passwords()
    app.state.hello_timeout = hello_timeout
    app.state.ratings = ratings
    app.state.challenges = challenges
    app.state.screenings = screening
    app.state.leaderboard_min_games = leaderboard_min_games

    @app.exception_handler(TableError)
    async def _refused(request: Request, exc: TableError) -> JSONResponse:
        retry = exc.details.get("retry_after")
        headers = None if retry is None else {"Retry-After": str(retry)}
        body = error_body(exc.code, exc.message, exc.details)
        return JSONResponse(body, status_code=http_status(exc.code), headers=headers)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        # The framework's own refusals (a body it cannot parse, an unknown path, a method
        # not allowed) in the one error shape, never {"detail": ...}.
        detail = str(exc.detail)
        code = HTTP_ERROR_CODES.get(exc.status_code, "bad_request")
        if exc.status_code == 400 and "parsing the body" in detail:
            code, detail = "bad_json", "the body is not JSON"
        return JSONResponse(
            error_body(code, detail), status_code=exc.status_code, headers=exc.headers
        )

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        if any(e.get("type") == "json_invalid" for e in errors):
            return JSONResponse(error_body("bad_json", "the body is not JSON"), status_code=400)
        where = "; ".join(
            ".".join(str(p) for p in e.get("loc", ())) + ": " + str(e.get("msg", ""))
            for e in errors
        )
        return JSONResponse(error_body("bad_request", where), status_code=400)

    app.include_router(lobby.router)
    app.include_router(me.router)
    app.include_router(account.router)
    app.include_router(analysis.router)
    app.include_router(report.router)
    app.include_router(replay.router)
    app.include_router(rules.router)
    app.include_router(ws.router)
    app.include_router(fairplay.router)
    app.include_router(moderation.router)
    app.include_router(pool.router)
    app.include_router(players.router)
    app.include_router(challenge.router)
    app.mount("/static", StaticFiles(directory=static, check_dir=False), name="static")

    def index() -> Response:
        page = static / "index.html"
        if page.is_file():
            return FileResponse(page)
        return HTMLResponse(_NO_FRONT_END)

    for path in PAGES:
        app.add_api_route(path, index, methods=["GET"], include_in_schema=False)

    # The installable app (issue 40 item 14): the service worker at the root, so that its
    # scope is every page, and the web app manifest.
    @app.get("/sw.js", include_in_schema=False)
    def worker() -> Response:
        if not (static / "sw.js").is_file():
            raise StarletteHTTPException(404, "no service worker")
        headers = {"Cache-Control": "no-cache"}
        return Response(service_worker(static), media_type="text/javascript", headers=headers)

    @app.get("/manifest.webmanifest", include_in_schema=False)
    def manifest() -> Response:
        if not (static / "manifest.webmanifest").is_file():
            raise StarletteHTTPException(404, "no manifest")
        return FileResponse(static / "manifest.webmanifest", media_type="application/manifest+json")

    return app
