"""The database: rooms and each room's ordered event log (SQLAlchemy 2, Alembic migrations).

SQLite by default (``sqlite:///hukum.db``); the same code runs on PostgreSQL
(``HUKUM_DATABASE_URL=postgresql+psycopg://user:password@host/database``). Every accepted
move is appended here before anybody is told; a table's state is rebuilt by replaying its
events. The unique constraint on (room, number) keeps each room's log gapless and in
order even if two processes ever wrote to the same room: the second write of a number
fails instead of forking the log.

The methods are synchronous. The tables append their events through one journal per
process (:mod:`hukum.server.tables.journal`), which writes the events of many tables in
one transaction (:meth:`Store.append_many`); on a database server it calls the store in a
worker thread (:func:`asyncio.to_thread`), so that a round trip (PostgreSQL over the
network) never stalls the event loop, and every other table, while it waits; an embedded
SQLite file is written inline, which is faster than the hand-over to a thread.
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from sqlalchemy import (
    JSON,
    Boolean,
    Connection,
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
    bindparam,
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

__all__ = [
    "Base",
    "EventRow",
    "NewEvent",
    "Room",
    "Store",
    "StoredEvent",
    "make_engine",
    "migrate",
    "now",
]

MIGRATIONS = Path(__file__).parent / "migrations"


def now() -> dt.datetime:
    """The time now, in UTC (what every stored time is)."""
    return dt.datetime.now(dt.UTC)


class Base(DeclarativeBase):
    """Declarative base of the server's tables."""


class Room(Base):
    """A table (room): its settings; everything that happens there is in ``events``."""

    __tablename__ = "rooms"
    code: Mapped[str] = mapped_column(String(16), primary_key=True)
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    finished: Mapped[bool] = mapped_column(Boolean, default=False, index=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=now)


class EventRow(Base):
    """One event of a room, numbered 1, 2, 3 … in order."""

    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("room", "number", name="uq_events_room_number"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room: Mapped[str] = mapped_column(ForeignKey("rooms.code"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=now)


@dataclass(frozen=True)
class StoredEvent:
    """An event as the tables see it."""

    number: int
    kind: str
    data: dict[str, Any]


class NewEvent(NamedTuple):
    """An event to append to a room's log."""

    room: str
    number: int
    kind: str
    data: dict[str, Any]


#: PostgreSQL ends a session's transaction left idle this long (milliseconds). A server
#: process stopped in the middle of a write (SIGSTOP, a frozen VM) would otherwise hold its
#: transaction open, and the process that takes its tables over (after
#: :data:`hukum.server.cluster.TTL`, 3 s) would wait on it at its first write of the same
#: event number; aborted, the stopped write can never be stored after the takeover.
IDLE_IN_TRANSACTION_MS = 2000


def make_engine(url: str) -> Engine:
    """An engine; SQLite files get WAL journaling and a busy timeout; PostgreSQL sessions
    end a transaction left idle (:data:`IDLE_IN_TRANSACTION_MS`)."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(conn: Any, _record: Any) -> None:
            cursor = conn.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    engine = create_engine(url, pool_pre_ping=True)

    @event.listens_for(engine, "connect")
    def _timeouts(conn: Any, _record: Any) -> None:
        cursor = conn.cursor()
        cursor.execute(f"SET idle_in_transaction_session_timeout = {IDLE_IN_TRANSACTION_MS}")
        cursor.close()
        conn.commit()

    return engine


def migrate(url: str) -> None:
    """Bring the database up to date (``alembic upgrade head``, run from the package)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    command.upgrade(config, "head")


#: The columns an event is written with, in the order of :func:`_driver_insert`'s rows.
COLUMNS = ("room", "number", "kind", "data", "created_at")


def _driver_insert(engine: Engine) -> tuple[str, Callable[[Any], Any], Callable[[Any], Any]]:
    """The insert of events as the database driver takes it, with SQLAlchemy's own
    conversions of the JSON data and the time: a batch of events then costs the driver's
    work and little more (on SQLite 40 instead of 120 us a row)."""
    columns = EventRow.__table__.c
    sql = str(insert(EventRow).inline().compile(dialect=engine.dialect, column_keys=COLUMNS))

    def converter(column: Any) -> Callable[[Any], Any]:
        convert = column.type.dialect_impl(engine.dialect).bind_processor(engine.dialect)
        return convert if convert is not None else (lambda value: value)

    return sql, converter(columns.data), converter(columns.created_at)


#: Marks rooms finished (``codes``: a list). Built once: a statement built with the list in
#: it (``Room.code.in_(codes)``) holds its parameters in reference cycles, garbage a
#: long-running server makes at the end of every match and frees only when the garbage
#: collector goes through its oldest objects, which a server rarely does
#: (:data:`hukum.server.garbage.FULL_EVERY`).
FINISH_ROOMS = (
    update(Room).where(Room.code.in_(bindparam("codes", expanding=True))).values(finished=True)
)


#: PostgreSQL: a batch of events in one statement, the rooms whose match they end marked
#: finished by the same statement (the columns as arrays, ``at`` their time). Run
#: without a transaction around it (a statement is one): one round trip to the server,
#: where rows sent one by one and a commit took several, each a wait for the interpreter's
#: lock in the journal's thread while the event loop had it (scripts/load.py on
#: PostgreSQL: a move waited for its batch a median 7-19 ms).
PG_BATCH = """
WITH added AS (
    INSERT INTO events (room, number, kind, data, created_at)
    SELECT room, number, kind, data, %(at)s
    FROM unnest(%(rooms)s::varchar[], %(numbers)s::int[], %(kinds)s::varchar[],
                %(data)s::json[]) AS added(room, number, kind, data)
)
UPDATE rooms SET finished = true WHERE code = ANY(%(over)s::varchar[])
"""


class Store:
    """The narrow storage interface of the tables: create a room, append, read back."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.local = engine.dialect.name == "sqlite"
        """Whether the database is an embedded file (writes are done inline)."""
        self._insert = _driver_insert(engine)
        self._named = engine.dialect.paramstyle in ("named", "pyformat")
        self._one_statement = engine.dialect.name == "postgresql"
        self._writer: Connection | None = None
        self._writing = threading.Lock()
        self._purposes: dict[str, threading.Lock] = {}
        self._purposes_lock = threading.Lock()

    def lock(self, purpose: str) -> threading.Lock:
        """This process's lock for writes of one kind (``ratings``, ``screening``): two
        matches of the same person ending together must not both read a row before either
        writes it (on PostgreSQL the rows are locked too, which keeps processes apart)."""
        with self._purposes_lock:
            return self._purposes.setdefault(purpose, threading.Lock())

    def close(self) -> None:
        """Give the connection :meth:`append_many` holds back to the engine's pool."""
        with self._writing:
            if self._writer is not None:
                self._writer.close()
                self._writer = None

    def session(self) -> Session:
        """A new session (used as a FastAPI dependency by the routes)."""
        return Session(self.engine)

    def create_room(self, code: str, config: dict[str, Any]) -> bool:
        """Create a room; False if the code is taken."""
        with self.session() as s:
            if s.get(Room, code) is not None:
                return False
            s.add(Room(code=code, config=config))
            s.commit()
            return True

    def append(self, code: str, number: int, kind: str, data: dict[str, Any]) -> None:
        """Append one event (committed before this returns)."""
        self.append_many([NewEvent(code, number, kind, data)])

    def append_many(self, events: list[NewEvent]) -> None:
        """Append events, of one room or many, in one transaction: all are committed before
        this returns, or none (an error is raised).

        The writes go through one connection, held from one call to the next (the journal
        writes one batch at a time): no check-out from the pool and, on PostgreSQL, no
        liveness round trip (``pool_pre_ping``) before each batch. After any error but a
        refused row (another process wrote that number first) the connection is given
        back, and the next call checks a tested one out."""
        sql, data, created = self._insert
        at = created(now())
        over = [e.room for e in events if e.kind == "match_over"]
        params: Any
        if self._one_statement:
            sql = PG_BATCH
            params = {
                "rooms": [e.room for e in events],
                "numbers": [e.number for e in events],
                "kinds": [e.kind for e in events],
                "data": [data(e.data) for e in events],
                "at": at,
                "over": over,
            }
        else:
            params = [(e.room, e.number, e.kind, data(e.data), at) for e in events]
            if self._named:
                params = [dict(zip(COLUMNS, row, strict=True)) for row in params]
        with self._writing:
            connection = self._writer or self._connect()
            self._writer = None
            try:
                with connection.begin():
                    connection.exec_driver_sql(sql, params)
                    if over and not self._one_statement:
                        connection.execute(FINISH_ROOMS, {"codes": over})
            except IntegrityError:
                self._writer = connection
                raise
            except BaseException:
                connection.close()
                raise
            self._writer = connection

    def _connect(self) -> Connection:
        """The connection :meth:`append_many` holds (on PostgreSQL in autocommit mode: its
        one statement is its own transaction)."""
        connection = self.engine.connect()
        if self._one_statement:
            connection.execution_options(isolation_level="AUTOCOMMIT")
        return connection

    def room(self, code: str) -> dict[str, Any] | None:
        """A room's settings, or None."""
        with self.session() as s:
            room = s.get(Room, code)
            return None if room is None else dict(room.config)

    def events(self, code: str, upto: int | None = None) -> list[StoredEvent]:
        """A room's events in order: all of them, or those numbered up to ``upto``."""
        query = select(EventRow.number, EventRow.kind, EventRow.data).where(EventRow.room == code)
        if upto is not None:
            query = query.where(EventRow.number <= upto)
        with self.session() as s:
            rows = s.execute(query.order_by(EventRow.number)).all()
            return [StoredEvent(n, k, d) for n, k, d in rows]

    def active_rooms(self) -> list[str]:
        """Codes of the rooms whose match is not over."""
        with self.session() as s:
            return list(s.scalars(select(Room.code).where(Room.finished.is_(False))))
