"""Who is asking: the session cookie, and the player it belongs to.

A browser holds one opaque token in an HttpOnly, SameSite=Lax cookie (:data:`COOKIE`;
``Secure`` over HTTPS); the database keeps only its SHA-256 (:class:`PlayerSession`). A
session ends when idle for :data:`IDLE`, at :data:`ABSOLUTE` after sign-in, at sign-out,
or when its player signs out everywhere. Nothing else in the server reads the cookie:
routes take :func:`current_player` (or :func:`require_player`) as a dependency.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
import secrets
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends, Request, WebSocket
from sqlalchemy import delete, select, update
from starlette.responses import Response

from hukum.online.names import guest_name
from hukum.server.db import Store, now
from hukum.server.identity.models import Player, PlayerSession, Sanction
from hukum.server.protocol import ProtocolError

__all__ = [
    "ABSOLUTE",
    "COOKIE",
    "IDLE",
    "CurrentPlayer",
    "Identities",
    "Me",
    "RequiredPlayer",
    "Suspension",
    "current_player",
    "forget_cookie",
    "identities",
    "require_player",
    "session_hash",
    "set_cookie",
    "ws_player",
]

#: The session cookie's name.
COOKIE = "hukum_session"
#: A session unused this long has ended.
IDLE = dt.timedelta(days=30)
#: A session ends this long after it began, however much it is used.
ABSOLUTE = dt.timedelta(days=365)
#: A session's last use is written at most this often (not at every request).
TOUCH_EVERY = dt.timedelta(minutes=5)


def session_hash(token: str) -> str:
    """What the database keeps of a session token."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Suspension:
    """Why and until when a player may not sit at a table (None: closed for good)."""

    reason: str
    until: dt.datetime | None

    def json(self) -> dict[str, Any]:
        """As the page is told it."""
        return {
            "reason": self.reason,
            "until": None if self.until is None else self.until.isoformat(),
        }


@dataclass(frozen=True)
class Me:
    """The player a request comes from, as routes see them."""

    id: str
    name: str
    username: str | None
    role: str
    prefs: dict[str, Any] = field(default_factory=dict)
    session: str = ""
    """The hash of the request's session token (to end this session)."""
    suspension: Suspension | None = None

    @property
    def guest(self) -> bool:
        """A guest (no user name) rather than an account."""
        return self.username is None

    def json(self) -> dict[str, Any]:
        """What ``GET /api/me`` says: never the internal id."""
        return {
            "name": self.name,
            "username": self.username,
            "guest": self.guest,
            "moderator": self.role == "moderator",
            "prefs": self.prefs,
            "suspension": None if self.suspension is None else self.suspension.json(),
        }


def _utc(when: dt.datetime) -> dt.datetime:
    """A stored time with its zone (SQLite gives it back naive, in UTC)."""
    return when if when.tzinfo is not None else when.replace(tzinfo=dt.UTC)


class Identities:
    """The players and their sessions in the database (synchronous: routes call it from
    their thread pool, as FastAPI runs a plain ``def`` dependency)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._rng = random.SystemRandom()

    def new_guest(self, agent: str = "") -> tuple[Me, str]:
        """A new guest with a generated name, and its first session's token."""
        player_id = secrets.token_hex(16)
        with self.store.session() as s:
            s.add(Player(id=player_id, name=guest_name(self._rng), prefs={}))
            s.flush()
            token = self._start(s, player_id, agent)
            s.commit()
        me = self.by_token(token)
        assert me is not None
        return me, token

    def start_session(self, player_id: str, agent: str = "") -> str:
        """A new session of ``player_id`` (sign-in); its token."""
        with self.store.session() as s:
            token = self._start(s, player_id, agent)
            s.commit()
        return token

    def _start(self, s: Any, player_id: str, agent: str) -> str:
        token = secrets.token_urlsafe(32)
        s.add(PlayerSession(token_hash=session_hash(token), player=player_id, agent=agent[:200]))
        return token

    def end_session(self, token_hash: str) -> None:
        """End one session (sign-out)."""
        with self.store.session() as s:
            s.execute(delete(PlayerSession).where(PlayerSession.token_hash == token_hash))
            s.commit()

    def end_all(self, player_id: str, keep: str | None = None) -> int:
        """End every session of ``player_id`` but ``keep`` (a token hash); how many ended."""
        with self.store.session() as s:
            query = delete(PlayerSession).where(PlayerSession.player == player_id)
            if keep is not None:
                query = query.where(PlayerSession.token_hash != keep)
            result: Any = s.execute(query)
            ended = int(result.rowcount or 0)
            s.commit()
        return ended

    def forget_expired(self) -> tuple[int, int]:
        """Delete the sessions that have ended (unused for :data:`IDLE`, or begun more than
        :data:`ABSOLUTE` ago) and the guests that have no session left and were last seen
        more than :data:`IDLE` ago: nobody can ever be them again, so nothing of them is kept
        (their rows, preferences, blocks and the reports about them; their seat events keep
        the name typed at the table and an id that now names nobody). How many of each."""
        moment = now()
        with self.store.session() as s:
            ended: Any = s.execute(
                delete(PlayerSession).where(
                    (PlayerSession.seen_at < moment - IDLE)
                    | (PlayerSession.created_at < moment - ABSOLUTE)
                )
            )
            gone: Any = s.execute(
                delete(Player).where(
                    Player.username.is_(None),
                    Player.seen_at < moment - IDLE,
                    Player.id.not_in(select(PlayerSession.player)),
                )
            )
            s.commit()
        return int(ended.rowcount or 0), int(gone.rowcount or 0)

    def by_token(self, token: str | None) -> Me | None:
        """The player of a live session token, or None (no token, unknown, or expired: an
        expired session is deleted)."""
        if not token or len(token) > 100:
            return None
        key = session_hash(token)
        moment = now()
        with self.store.session() as s:
            row = s.get(PlayerSession, key)
            if row is None:
                return None
            if moment - _utc(row.seen_at) > IDLE or moment - _utc(row.created_at) > ABSOLUTE:
                s.delete(row)
                s.commit()
                return None
            player = s.get(Player, row.player)
            if player is None:
                return None
            if moment - _utc(row.seen_at) > TOUCH_EVERY:
                s.execute(
                    update(PlayerSession)
                    .where(PlayerSession.token_hash == key)
                    .values(seen_at=moment)
                )
                s.execute(update(Player).where(Player.id == player.id).values(seen_at=moment))
                s.commit()
            return Me(
                player.id,
                player.name,
                player.username,
                player.role,
                dict(player.prefs or {}),
                key,
                self.suspension(s, player.id, moment),
            )

    @staticmethod
    def suspension(s: Any, player_id: str, moment: dt.datetime) -> Suspension | None:
        """The sanction in force that keeps ``player_id`` from the tables: a closing, or
        the suspension that ends last; None if there is none."""
        rows = s.scalars(
            select(Sanction).where(
                Sanction.player == player_id,
                Sanction.kind.in_(("suspend", "close")),
                Sanction.lifted_at.is_(None),
            )
        ).all()
        live = [r for r in rows if r.kind == "close" or (r.until and _utc(r.until) > moment)]
        if not live:
            return None
        closed = next((r for r in live if r.kind == "close"), None)
        if closed is not None:
            return Suspension(closed.reason, None)
        last = max(live, key=lambda r: _utc(r.until))
        return Suspension(last.reason, _utc(last.until))


def identities(request: Request | WebSocket) -> Identities:
    """The app's :class:`Identities`."""
    found: Identities = request.app.state.identities
    return found


def current_player(request: Request) -> Me | None:
    """The player whose session cookie the request carries, or None (a dependency)."""
    return identities(request).by_token(request.cookies.get(COOKIE))


def require_player(request: Request) -> Me:
    """The request's player; refused with ``no_session`` (401) without one."""
    me = current_player(request)
    if me is None:
        raise ProtocolError("no_session", "this needs a session: open the page first")
    return me


#: A route's player, or None: a parameter ``player: CurrentPlayer``.
CurrentPlayer = Annotated[Me | None, Depends(current_player)]
#: A route's player, refused with ``no_session`` (401) without one.
RequiredPlayer = Annotated[Me, Depends(require_player)]


def ws_player(websocket: WebSocket) -> Me | None:
    """The player whose session cookie a WebSocket handshake carries, or None."""
    return identities(websocket).by_token(websocket.cookies.get(COOKIE))


def set_cookie(request: Request, response: Response, token: str) -> None:
    """Give the browser its session token: HttpOnly (no script reads it), SameSite=Lax,
    Secure when the page came over HTTPS."""
    response.set_cookie(
        COOKIE,
        token,
        max_age=int(ABSOLUTE.total_seconds()),
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )


def forget_cookie(request: Request, response: Response) -> None:
    """Take the session cookie away (sign-out)."""
    response.delete_cookie(
        COOKIE, path="/", httponly=True, samesite="lax", secure=request.url.scheme == "https"
    )
