"""Every table of this process, by room code, loaded from the database on first use.

Alone, the process owns every table. In a cluster (:mod:`hukum.server.cluster`) it owns
the tables it claimed (their actors, :class:`Table`) and follows the others its players
sit at (:class:`Replica`); it runs the commands other processes send for the tables it
owns, and takes over the tables of a process that died.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from hukum.server.db import Store
from hukum.server.tables.actor import Table
from hukum.server.tables.commands import COMMANDS, Caller
from hukum.server.tables.config import TableConfig
from hukum.server.tables.errors import TableError
from hukum.server.tables.hints import Hints
from hukum.server.tables.journal import Journal
from hukum.server.tables.replica import Replica
from hukum.server.tables.seats import Seat

if TYPE_CHECKING:
    from hukum.server.cluster import Cluster

__all__ = [
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "IDLE_SECONDS",
    "MAX_TABLES",
    "Registry",
    "Room",
    "new_code",
]

log = logging.getLogger("hukum.server")

CODE_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
CODE_LENGTH = 8
#: The most tables in play one process holds by default (``hukum serve --max-tables``).
MAX_TABLES = 10_000
#: Seconds a table nobody is at (and nothing is planned for) stays in memory by default.
IDLE_SECONDS = 600.0

#: A table as the connections of this process reach it: its actor here, or a replica.
Room = Table | Replica


def new_code() -> str:
    """A fresh room code (also the invite)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


class Registry:
    """Every table of this process, loaded from the database on first use."""

    def __init__(
        self,
        store: Store,
        bot_delay: float,
        cluster: Cluster | None = None,
        *,
        max_tables: int = MAX_TABLES,
        idle_seconds: float = IDLE_SECONDS,
    ) -> None:
        self.store = store
        self.max_tables = max_tables
        """The most tables in play this process holds: a new room beyond is refused."""
        self.idle_seconds = idle_seconds
        """A table nobody is at leaves memory after this long (:meth:`sweep`)."""
        self._quiet: dict[str, float] = {}
        self.journal = Journal(store)
        """Writes the events of every table of the process (group commit)."""
        self.bot_delay = bot_delay
        self.cluster = cluster
        """The cluster this process is part of, or None (the only process)."""
        self.tables: dict[str, Room] = {}
        self.hints = Hints()
        """The move suggestions this process works out (a few at once)."""
        self.here = Caller(cluster.id if cluster is not None else "", self.hints)
        """Who runs the commands of this process's own connections."""
        self.finished: Callable[[Table], None] | None = None
        """Told when a table of this process ends its match (the app rates rated tables
        with it, :mod:`hukum.server.play.results`)."""
        self.challenge_seed: Callable[[str], Awaitable[int]] | None = None
        """Looks up a daily challenge deal's stored seed (set by the app; a challenge table
        deals from it, :attr:`Table.challenge_seed`)."""
        self._loading: dict[str, asyncio.Task[Room | None]] = {}
        self._background: set[asyncio.Task[Any]] = set()

    def _add(self, table: Table) -> Table:
        """Keep a loaded table (unless another load of it won) and resume it."""
        known = self.tables.get(table.code)
        if isinstance(known, Table):
            return known
        if known is not None:
            self._drop(known, "the table moved to this server process")
        self.tables[table.code] = table
        self._hook(table)
        table.resume()
        return table

    def _read(self, code: str) -> Table | None:
        """Read a table back from its log (in a worker thread), refused ``damaged_table``
        if it cannot be."""
        try:
            return Table.load(code, self.journal, self.bot_delay, self.cluster)
        except Exception:
            log.exception("table %s cannot be read back from its log; left as it is", code)
            raise TableError(
                "damaged_table", f"table {code} cannot be read back from its log"
            ) from None

    async def _load(self, code: str) -> Room | None:
        if self.cluster is None:
            table = await asyncio.to_thread(self._read, code)
            return None if table is None else self._add(table)
        config = await asyncio.to_thread(self.store.room, code)
        if config is None:
            return None
        owner = await self.cluster.claim(code)
        if owner == self.cluster.id:
            table = await asyncio.to_thread(self._read, code)
            return None if table is None else self._add(table)
        replica = Replica(
            code, TableConfig.from_dict(config), self.store, self.cluster, owner, self._gone
        )
        self.tables[code] = replica
        try:
            await replica.follow()
        except BaseException:
            if self.tables.get(code) is replica:
                del self.tables[code]
            replica.close()
            raise
        return replica

    async def get(self, code: str) -> Room | None:
        """The table with this code, or None; read from the database (in a worker thread)
        on first use. Concurrent first uses share one load. A table whose log cannot be
        read back is refused, ``damaged_table``."""
        task = self._loading.get(code)
        if task is not None:  # a replica is kept while it reads the log: not ready till then
            return await asyncio.shield(task)
        table = self.tables.get(code)
        if table is not None:
            return table
        if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
            return None
        task = self._loading[code] = asyncio.create_task(self._load(code))
        task.add_done_callback(lambda _: self._loading.pop(code, None))
        return await asyncio.shield(task)

    async def require(self, code: str) -> Room:
        """The table, or the ``unknown_table`` error."""
        table = await self.get(code)
        if table is None:
            raise TableError("unknown_table", f"no table {code!r}")
        return table

    def in_play(self) -> int:
        """How many tables in play (not over) this process holds."""
        return sum(1 for t in self.tables.values() if isinstance(t, Table) and t.status != "over")

    async def create(
        self, config: TableConfig, name: str, player: str | None = None
    ) -> tuple[Table, str]:
        """A new room with its creator at seat 0 (``player``: the id of the player whose
        session made it, kept with the seat); the table and the creator's token. Refused,
        ``server_full``, when the process holds :attr:`max_tables` in play."""
        table = await self._new_table(config)
        token = await table.take_seat(0, name, player)
        return table, token

    async def spawn(self, config: TableConfig, seats: list[Seat]) -> str:
        """A new room with these settings and these seats, its match started at once (a
        rematch, :meth:`Table.rematch`; a quick match's table): each person's seat keeps its
        token's hash, so the token that held the seat at the old table holds it here (a seat
        with no token and a ``player`` is held by that player's session), and a computer
        player's seat with no name is named by :func:`bot_name`. Its code. Refused,
        ``server_full``, as :meth:`create` is."""
        table = await self._new_table(config)
        await table.open_with(seats)
        return table.code

    async def _new_table(self, config: TableConfig) -> Table:
        """A new room, empty, owned by this process."""
        if self.in_play() >= self.max_tables:
            raise TableError(
                "server_full",
                f"this server holds {self.max_tables} tables in play, the most it takes; "
                "try again in a few minutes",
                retry_after=60,
            )
        while True:
            code = new_code()
            if await asyncio.to_thread(self.store.create_room, code, config.to_dict()):
                break
        if self.cluster is not None:
            await self.cluster.claim(code)  # nobody else knows the code yet
        table = Table(code, config, self.journal, self.bot_delay, self.cluster)
        self._hook(table)
        self.tables[code] = table
        return table

    def _hook(self, table: Table) -> None:
        """Give an own table what it tells the registry of."""
        table.forked = self._forked
        table.spawn = self.spawn
        table.over = self._over
        table.challenge_seed = self.challenge_seed

    def _over(self, table: Table) -> None:
        if self.finished is not None:
            self.finished(table)

    def _later(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def release(self, table: Room) -> bool:
        """Forget a table this process need not keep: its own finished table nobody is
        connected to, not even a watcher (its memory is given back; it is read again from
        the database if it is asked for), or a replica none of its connections follows;
        whether it was forgotten."""
        if self.tables.get(table.code) is not table:
            return False
        if isinstance(table, Replica):
            if table.watched:
                return False
            table.close()
            table.unfollow()
            del self.tables[table.code]
            return True
        if table.status != "over" or table.watched or any(s.connections for s in table.seats):
            return False
        self._forget(table)
        return True

    def sweep(self, now: float) -> int:
        """Let tables nobody has been at for :attr:`idle_seconds` leave memory (a paused
        match, a room whose players went away; each is read again from its log when asked
        for, and in a cluster any process may then claim it); how many left. ``now``: a
        monotonic clock, called every minute or so."""
        quiet: dict[str, float] = {}
        left = 0
        for code, table in list(self.tables.items()):
            if not (table.idle() if isinstance(table, Table) else not table.watched):
                continue
            since = quiet[code] = self._quiet.get(code, now)
            if now - since >= self.idle_seconds:
                del quiet[code]
                if isinstance(table, Table):
                    self._forget(table)
                else:  # a replica no connection here follows (the lobby's requests made it)
                    self.release(table)
                left += 1
        self._quiet = quiet
        return left

    async def sweeping(self, every: float = 60.0) -> None:
        """Sweep every ``every`` seconds, for ever (a task of the app)."""
        while True:
            await asyncio.sleep(every)
            left = self.sweep(time.monotonic())
            if left:
                log.info("%d idle table(s) left memory", left)

    def _forget(self, table: Table) -> None:
        """Let an own table leave memory; in a cluster, give it up."""
        table.close()
        del self.tables[table.code]
        if self.cluster is not None:
            self._later(self.cluster.disown(table.code))

    def _drop(self, table: Room, reason: str) -> None:
        """Forget a table this process no longer owns or follows; its connections are told
        to reconnect."""
        if self.tables.get(table.code) is table:
            del self.tables[table.code]
        table.close()
        table.reconnect_all(reason)
        if isinstance(table, Table) and self.cluster is not None:
            for process in table.followers:  # their replicas follow nothing now
                self.cluster.tell(process, {"from": self.cluster.id, "code": table.code, "gone": 1})

    def _forked(self, table: Table) -> None:
        """Another process stored an event of this table (it took the table over while this
        one was stopped): forget it, to be read again from the log when next asked for."""
        self._drop(table, "the table changed in another server process")

    def _gone(self, replica: Replica, reason: str) -> None:
        """A replica's owner no longer holds the table (or does not answer)."""
        log.info("table %s: %s; its connections reconnect", replica.code, reason)
        self._drop(replica, reason)

    async def load_active(self) -> int:
        """Load and resume every table whose match is not over (in a cluster: that no
        living process owns); how many."""
        codes = await asyncio.to_thread(self.store.active_rooms)
        if self.cluster is not None:
            codes = [c for c in codes if await self.cluster.claim(c) == self.cluster.id]
        return len(await self._load_tables(codes))

    async def _load_tables(self, codes: list[str]) -> list[Table]:
        def load() -> list[Table]:
            tables = []
            for code in codes:
                try:
                    table = self._read(code)
                except TableError:  # one damaged room must not keep the others from play
                    continue
                if table is not None:
                    tables.append(table)
            return tables

        loaded = await asyncio.to_thread(load)
        for table in loaded:
            self._add(table)
        return loaded

    def close(self) -> None:
        """Stop every table's timers."""
        for table in self.tables.values():
            table.close()

    # ------------------------------------------------------------ the cluster's handlers

    async def _owned(self, code: str) -> Table:
        """This process's own table ``code`` (claimed and loaded if nobody living owns
        it); ``not_owner`` if another process does."""
        table = self.tables.get(code)
        if isinstance(table, Table):
            return table
        assert self.cluster is not None
        owner = await self.cluster.claim(code)
        if owner != self.cluster.id:
            raise TableError("not_owner", f"table {code} is held by another server process")
        loaded = await asyncio.to_thread(self._read, code)
        if loaded is None:
            raise TableError("unknown_table", f"no table {code!r}")
        return self._add(loaded)

    async def command(self, sender: str, op: str, code: str, args: dict[str, Any]) -> Any:
        """Run a command another process sent for a table this process owns (one of
        :data:`~hukum.server.tables.commands.COMMANDS` that changes the table, by name, its
        payload's fields in ``args``)."""
        command = COMMANDS.get(op)
        if command is None or command.run is None:
            raise TableError("bad_message", f"no command {op!r}")
        payload = command.payload(**args)
        if command.loads:
            table = await self._owned(code)
        else:
            held = self.tables.get(code)
            if not isinstance(held, Table):
                return None
            table = held
        return await command.run(table, payload, Caller(sender, self.hints))

    def event(self, sender: str, message: dict[str, Any]) -> None:
        """An event of a table this process follows."""
        table = self.tables.get(message["code"])
        if isinstance(table, Replica) and table.owner == sender:
            if "gone" in message:
                self._gone(table, "the server process that held the table gave it up")
            elif "presence" in message:
                table.presence(message)
            else:
                table.deliver(message)

    async def dead(self, process: str) -> None:
        """Another process is dead: its connections and replicas here end, and this process
        takes over whichever of its tables it can claim."""
        assert self.cluster is not None
        for table in list(self.tables.values()):
            if isinstance(table, Replica) and table.owner == process:
                self._drop(table, "the server process that held the table stopped")
            elif isinstance(table, Table):
                table.forget_process(process)
        codes = sorted(await self.cluster.owned_by(process))
        mine = [c for c in codes if await self.cluster.claim(c) == self.cluster.id]
        if mine:
            tables = await self._load_tables(mine)
            log.info("took over %d table(s) of process %s", len(tables), process)
            for table in tables:
                if table.status == "over":
                    self.release(table)
        await self.cluster.forget(process)

    def lost(self) -> None:
        """This process was taken for dead: another may own its tables now."""
        for table in list(self.tables.values()):
            self._drop(table, "the server process was taken for stopped")
