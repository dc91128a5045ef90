"""The web app: ``create_app(database_url, bot_delay)`` builds it; ``hukum serve`` runs it."""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from hukum.server.db import Store, make_engine, migrate
from hukum.server.protocol import ProtocolError, error_body
from hukum.server.routes import analysis, lobby, rules, ws
from hukum.server.tables import Registry

__all__ = ["DEFAULT_DATABASE_URL", "STATIC", "create_app", "database_url"]

log = logging.getLogger("hukum.server")

#: The front end (plain files, no build step), served at ``/static``.
STATIC = Path(__file__).parent / "static"
DEFAULT_DATABASE_URL = "sqlite:///hukum.db"

_NO_FRONT_END = """<!doctype html><meta charset="utf-8"><title>hukum</title>
<p>The hukum server is running, but its front end (src/hukum/server/static/index.html) is
not installed. The API is at <a href="/docs">/docs</a>.</p>"""


def database_url(url: str | None = None) -> str:
    """The database to use: the argument, else ``HUKUM_DATABASE_URL``, else ./hukum.db."""
    return url or os.environ.get("HUKUM_DATABASE_URL") or DEFAULT_DATABASE_URL


def create_app(
    database_url_: str | None = None, bot_delay: float = 0.6, static_dir: Path | None = None
) -> FastAPI:
    """The app on a database (migrated to the newest schema first)."""
    url = database_url(database_url_)
    migrate(url)
    engine = make_engine(url)
    store = Store(engine)
    registry = Registry(store, bot_delay)
    static = static_dir or STATIC

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        count = await registry.load_active()
        log.info("resumed %d table(s)", count)
        yield
        registry.close()
        engine.dispose()

    app = FastAPI(title="hukum", lifespan=lifespan)
    app.state.store = store
    app.state.registry = registry

    @app.exception_handler(ProtocolError)
    async def _protocol_error(request: Request, exc: ProtocolError) -> JSONResponse:
        return JSONResponse(error_body(exc.code, exc.message, exc.details), status_code=exc.status)

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
    app.include_router(analysis.router)
    app.include_router(rules.router)
    app.include_router(ws.router)
    app.mount("/static", StaticFiles(directory=static, check_dir=False), name="static")

    def index() -> Response:
        page = static / "index.html"
        if page.is_file():
            return FileResponse(page)
        return HTMLResponse(_NO_FRONT_END)

    @app.get("/", include_in_schema=False)
    async def home() -> Response:
        return index()

    @app.get("/t/{code}", include_in_schema=False)
    async def table_page(code: str) -> Response:
        return index()

    return app
