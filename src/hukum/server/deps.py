"""FastAPI dependencies: the registry of tables and a database session."""

from __future__ import annotations

from collections.abc import Iterator

from fastapi import Request, WebSocket
from sqlalchemy.orm import Session

from hukum.server.db import Store
from hukum.server.tables import Registry
from hukum.server.throttle import Throttle

__all__ = [
    "client_address",
    "get_registry",
    "get_session",
    "get_store",
    "get_throttle",
    "ws_registry",
]


def get_registry(request: Request) -> Registry:
    """The process's tables."""
    registry: Registry = request.app.state.registry
    return registry


def ws_registry(websocket: WebSocket) -> Registry:
    """The process's tables (for WebSocket routes)."""
    registry: Registry = websocket.app.state.registry
    return registry


def get_store(request: Request) -> Store:
    """The database."""
    store: Store = request.app.state.store
    return store


def get_session(request: Request) -> Iterator[Session]:
    """A database session for one request."""
    with get_store(request).session() as session:
        yield session


def get_throttle(request: Request | WebSocket) -> Throttle:
    """The process's rate limits (:mod:`hukum.server.throttle`)."""
    throttle: Throttle = request.app.state.throttle
    return throttle


def client_address(request: Request) -> str:
    """The client's address, as the rate limits count it (behind a proxy, from
    ``X-Forwarded-For`` when ``--forwarded-allow-ips`` names the proxy)."""
    return request.client.host if request.client else ""
