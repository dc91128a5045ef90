"""Every table of this process, by room code, loaded from the database on first use."""

from __future__ import annotations

import asyncio
import logging
import secrets

from hukum.server.db import Store
from hukum.server.protocol import ProtocolError
from hukum.server.tables.actor import Table
from hukum.server.tables.config import TableConfig
from hukum.server.tables.journal import Journal

__all__ = ["CODE_ALPHABET", "CODE_LENGTH", "Registry", "new_code"]

log = logging.getLogger("hukum.server")

CODE_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
CODE_LENGTH = 8


def new_code() -> str:
    """A fresh room code (also the invite)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


class Registry:
    """Every table of this process, loaded from the database on first use."""

    def __init__(self, store: Store, bot_delay: float) -> None:
        self.store = store
        self.journal = Journal(store)
        """Writes the events of every table of the process (group commit)."""
        self.bot_delay = bot_delay
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Task[Table | None]] = {}

    def _add(self, table: Table) -> Table:
        """Keep a loaded table (unless another load of it won) and resume it."""
        known = self.tables.get(table.code)
        if known is not None:
            return known
        self.tables[table.code] = table
        table.resume()
        return table

    async def _load(self, code: str) -> Table | None:
        try:
            table = await asyncio.to_thread(Table.load, code, self.journal, self.bot_delay)
        except Exception:
            log.exception("table %s cannot be read back from its log; left as it is", code)
            raise ProtocolError(
                "damaged_table", f"table {code} cannot be read back from its log", 500
            ) from None
        return None if table is None else self._add(table)

    async def get(self, code: str) -> Table | None:
        """The table with this code, or None; read from the database (in a worker thread)
        on first use. Concurrent first uses share one load. A table whose log cannot be
        read back is refused, ``damaged_table``."""
        table = self.tables.get(code)
        if table is not None:
            return table
        if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
            return None
        task = self._loading.get(code)
        if task is None:
            task = self._loading[code] = asyncio.create_task(self._load(code))
            task.add_done_callback(lambda _: self._loading.pop(code, None))
        return await asyncio.shield(task)

    async def require(self, code: str) -> Table:
        """The table, or the ``unknown_table`` error."""
        table = await self.get(code)
        if table is None:
            raise ProtocolError("unknown_table", f"no table {code!r}", 404)
        return table

    async def create(self, config: TableConfig, name: str) -> tuple[Table, str]:
        """A new room with its creator at seat 0; the table and the creator's token."""
        while True:
            code = new_code()
            if await asyncio.to_thread(self.store.create_room, code, config.to_dict()):
                break
        table = Table(code, config, self.journal, self.bot_delay)
        self.tables[code] = table
        token = await table.take_seat(0, name)
        return table, token

    def release(self, table: Table) -> bool:
        """Forget a finished table nobody is connected to (its memory is given back; it is
        read again from the database if it is asked for); whether it was forgotten."""
        if (
            table.status != "over"
            or any(s.connections for s in table.seats)
            or self.tables.get(table.code) is not table
        ):
            return False
        table.close()
        del self.tables[table.code]
        return True

    async def load_active(self) -> int:
        """Load and resume every table whose match is not over; how many."""

        def load() -> list[Table]:
            tables = []
            for code in self.store.active_rooms():
                try:
                    table = Table.load(code, self.journal, self.bot_delay)
                except Exception:  # one damaged room must not keep the others from play
                    log.exception("table %s cannot be read back from its log; left as it is", code)
                    continue
                if table is not None:
                    tables.append(table)
            return tables

        loaded = await asyncio.to_thread(load)
        for table in loaded:
            self._add(table)
        return len(loaded)

    def close(self) -> None:
        """Stop every table's timers."""
        for table in self.tables.values():
            table.close()
