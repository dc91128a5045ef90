"""Who waits in the quick-match pools, and the matchmaker that seats them (issue 43).

One small interface, :class:`Waiting`, with two implementations, as table ownership has:
:class:`MemoryWaiting` (one process) and :class:`RedisWaiting` (a cluster: the cluster's
Redis server and key prefix). Either keeps

- the tickets (:class:`Entry`: the players, their names, rating, when they joined, whom
  they blocked, whether they keep leaving, when they were last asked about), each in one
  pool, and a player -> ticket index: a player waits once, and queuing again moves them;
- the parties (:class:`Party`): two friends who queue together and sit opposite;
- the results: the room each seated player's ticket was given (kept while its table is
  unfinished; the routes read :attr:`rooms.finished`), or ``requeue``;
- the wave lock: one process at a time runs a pool's wave in the cluster (``SET NX PX``).

The :class:`Matchmaker` (a task of the app) runs each pool's wave every ``wave_every``
seconds, and at once when a join makes a full table's worth of tickets wait, where it holds
that pool's lock: it drops the tickets nobody asked about for :data:`UNSEEN` seconds, pairs
the others (:func:`hukum.online.pools.wave`), and for each seating takes its tickets out of
the pool in one step (all or none: a ticket that left meanwhile cancels the seating, the
others wait for the next wave), makes the table and stores each player's result. A ticket
taken but never given a table (the process died between the two steps) is kept with the
process and time that took it; a later wave, anywhere, puts it back once that process is
gone (:data:`STRANDED_AFTER`), so no waiting player is lost, and no player is ever at two
tables: a player whose ticket is taken can neither queue again nor be taken twice.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import redis.asyncio as redis
from sqlalchemy import or_, select

from hukum.games import game_named
from hukum.online.pools import POOLS, Pool, Seating, Ticket, wave
from hukum.online.ratings import START_MU, bot_for, shown
from hukum.server.db import Room, Store
from hukum.server.identity.models import Block
from hukum.server.play.models import RatedMatch, RatedSeat, Rating
from hukum.server.tables import Registry, TableConfig
from hukum.server.tables.seats import Seat

__all__ = [
    "LEAVER_LAST",
    "LEAVER_LEFT",
    "PARTY_SIZE",
    "POOL_TURN_TIMEOUT",
    "RESULT_SECONDS",
    "STRANDED_AFTER",
    "UNSEEN",
    "Entry",
    "Matchmaker",
    "MemoryWaiting",
    "Party",
    "RedisWaiting",
    "Result",
    "Waiting",
    "new_id",
    "pool_config",
]

log = logging.getLogger("hukum.server")

#: Seconds a ticket nobody asked about (``GET /api/pool``) stays: then it leaves the pool.
UNSEEN = 30.0
#: Seconds after which a ticket taken by a wave whose process is gone is put back.
STRANDED_AFTER = 5.0
#: Seconds a result is kept at most (its table is long over by then); the routes forget it
#: as soon as its table is finished.
RESULT_SECONDS = 6 * 3600
#: Seconds a party lives without being used.
PARTY_SECONDS = 24 * 3600
#: Players in a party.
PARTY_SIZE = 2
#: The turn limit of the tables the pools make (``hukum serve --pool-turn-timeout``).
POOL_TURN_TIMEOUT = 30.0
#: The tables a wave makes together (:meth:`Matchmaker._wave`).
TABLES_AT_ONCE = 16
#: A player is a leaver when, of their last :data:`LEAVER_LAST` rated seats, at least
#: :data:`LEAVER_LEFT` were finished by a computer player.
LEAVER_LAST = 10
LEAVER_LEFT = 3


def new_id() -> str:
    """A ticket's or a party's id: 10 random URL-safe characters."""
    return secrets.token_urlsafe(8)[:10]


@dataclass(frozen=True)
class Entry:
    """A ticket as the pool keeps it."""

    id: str
    pool: str
    players: tuple[str, ...]
    names: tuple[str, ...]
    """The display name of each player (their seat's name)."""
    rating: float
    since: float
    """When it joined: wall-clock epoch seconds (every process's clock)."""
    blocked: tuple[str, ...] = ()
    leaver: bool = False
    seen: float = 0.0
    """When its players last asked about it (epoch seconds)."""

    def ticket(self) -> Ticket:
        """What a wave pairs."""
        return Ticket(
            self.id, self.players, self.rating, self.since, frozenset(self.blocked), self.leaver
        )

    def to_json(self) -> str:
        """As stored."""
        return json.dumps(dataclasses.asdict(self), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Entry:
        """From :meth:`to_json`."""
        data = json.loads(text)
        for key in ("players", "names", "blocked"):
            data[key] = tuple(data[key])
        return cls(**data)


@dataclass(frozen=True)
class Result:
    """What became of a player's ticket: a room (``code``), or ``requeue`` (no code: the
    process running the wave died and the ticket was lost: press again)."""

    pool: str
    code: str | None = None

    def to_json(self) -> str:
        """As stored."""
        return json.dumps({"pool": self.pool, "code": self.code}, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Result:
        """From :meth:`to_json`."""
        data = json.loads(text)
        return cls(data["pool"], data.get("code"))


@dataclass(frozen=True)
class Party:
    """Two friends who queue together: the leader made it, the other joined by its link."""

    code: str
    leader: str
    members: tuple[str, ...]
    names: tuple[str, ...]

    @property
    def full(self) -> bool:
        """Both seats of the party are taken."""
        return len(self.members) >= PARTY_SIZE

    def to_json(self) -> str:
        """As stored."""
        return json.dumps(dataclasses.asdict(self), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Party:
        """From :meth:`to_json`."""
        data = json.loads(text)
        return cls(data["code"], data["leader"], tuple(data["members"]), tuple(data["names"]))


@dataclass(frozen=True)
class Joined:
    """How a join went: ``waiting`` (the ticket is in, ``count`` tickets wait in its
    pool), ``matched`` (a player of it already has a room: ``result``), or ``taken`` (a
    player's ticket is being seated by a wave right now: ``entry``)."""

    status: str
    count: int = 0
    result: Result | None = None
    entry: Entry | None = None


class Waiting(Protocol):
    """Who waits in the pools (in memory or on Redis)."""

    async def join(self, entry: Entry) -> Joined:
        """Put a ticket in its pool, moving its players from any ticket they had that is
        still waiting; nothing changes when a player has a result or a ticket being seated."""

    async def leave(self, player: str) -> Entry | None:
        """Take the player's waiting ticket (the whole ticket: a party's for both) out of
        its pool; it, or None (none, or being seated)."""

    async def entry(self, player: str) -> tuple[Entry, bool] | None:
        """The player's ticket and whether it waits (False: a wave is seating it)."""

    async def touch(self, ticket: str, seen: float) -> None:
        """Its players asked about the ticket at ``seen``."""

    async def entries(self, pool: str) -> list[Entry]:
        """The tickets waiting in a pool (with their last :attr:`Entry.seen`)."""

    async def count(self, pool: str) -> int:
        """How many tickets wait in a pool."""

    async def drop(self, pool: str, tickets: Sequence[str]) -> None:
        """Let these waiting tickets leave the pool (nobody asked about them)."""

    async def take(self, pool: str, tickets: Sequence[str], process: str, now: float) -> bool:
        """Take these tickets out of the pool for one table, all or none (False: one of them
        left meanwhile, and nothing changed); each is kept as taken by ``process``."""

    async def seated(self, tickets: Sequence[Entry], result: Result) -> bool:
        """The taken tickets were given a table: they leave, and each of their players gets
        ``result``; False when they were no longer taken (put back meanwhile)."""

    async def put_back(self, pool: str, tickets: Sequence[str]) -> None:
        """Taken tickets that were given no table wait again."""

    async def stranded(self, pool: str, before: float, oldest: float) -> int:
        """Put back the tickets taken before ``before`` by a process that is gone (they
        were never given a table); those last seen before ``oldest`` leave instead, their
        players told to requeue. How many were put back."""

    async def result(self, player: str) -> Result | None:
        """The player's result, if any."""

    async def results(self, players: Sequence[str]) -> dict[str, Result]:
        """The results of these players (those that have one)."""

    async def forget(self, player: str, result: Result) -> None:
        """Forget the player's result if it is still ``result`` (its table is over, or the
        player was told)."""

    async def lock(self, pool: str, process: str, seconds: float) -> bool:
        """Hold a pool's wave lock for at most ``seconds`` (its holder renews it so);
        whether this process holds it now."""

    async def unlock(self, pool: str, process: str) -> None:
        """Give the wave lock back (if this process still holds it)."""

    async def party(self, code: str) -> Party | None:
        """A party by its code."""

    async def party_of(self, player: str) -> Party | None:
        """The party the player is in."""

    async def new_party(self, party: Party) -> None:
        """Store a new party of one (its leader), leaving any party the leader was in."""

    async def join_party(self, code: str, player: str, name: str) -> Party | None:
        """Add a player to a party that has room (leaving any other party); the party
        (unchanged if they were in it already, or if it is full), or None if there is none."""

    async def leave_party(self, code: str, player: str) -> None:
        """A member leaves the party; the leader leaving ends it."""


def pool_config(pool: Pool, bots: str, turn_timeout: float) -> TableConfig:
    """The settings of a table a pool makes: its game and rules, computer players of level
    ``bots``, the pool's turn limit, nobody watching, no hints, no free chat; rated."""
    spec = game_named(pool.game)
    rules = spec.make_rules(pool.preset, dict(pool.options))
    return TableConfig(
        rules,
        pool.preset,
        bots,
        turn_timeout,
        spec.name,
        spectators=False,
        hints=False,
        bot_speed="normal",
        chat=False,
        pool=pool.name,
    )


# ---------------------------------------------------------------- in memory


@dataclass
class _Taken:
    pool: str
    process: str
    at: float


class MemoryWaiting:
    """Who waits, in this process's memory (one process: nothing is shared)."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self.tickets: dict[str, Entry] = {}
        self.queues: dict[str, set[str]] = {}
        self.players: dict[str, str] = {}
        self.taken: dict[str, _Taken] = {}
        self.found: dict[str, tuple[Result, float]] = {}
        self.locks: dict[str, tuple[str, float]] = {}
        self.parties: dict[str, Party] = {}
        self.party_index: dict[str, str] = {}
        self._swept = 0.0

    def _remove(self, ticket: str) -> None:
        entry = self.tickets.pop(ticket, None)
        if entry is None:
            return
        self.queues.get(entry.pool, set()).discard(ticket)
        self.taken.pop(ticket, None)
        for player in entry.players:
            if self.players.get(player) == ticket:
                del self.players[player]

    def _result(self, player: str) -> Result | None:
        found = self.found.get(player)
        if found is None:
            return None
        if found[1] < self.clock():
            del self.found[player]
            return None
        return found[0]

    async def join(self, entry: Entry) -> Joined:
        """See :meth:`Waiting.join`."""
        for player in entry.players:
            result = self._result(player)
            if result is not None:
                return Joined("matched", result=result)
            held = self.players.get(player)
            if held is not None and held in self.taken:
                return Joined("taken", entry=self.tickets[held])
        for player in entry.players:
            held = self.players.get(player)
            if held is not None:
                self._remove(held)
        self.tickets[entry.id] = entry
        queue = self.queues.setdefault(entry.pool, set())
        queue.add(entry.id)
        for player in entry.players:
            self.players[player] = entry.id
        return Joined("waiting", len(queue))

    async def leave(self, player: str) -> Entry | None:
        """See :meth:`Waiting.leave`."""
        held = self.players.get(player)
        if held is None or held in self.taken:
            return None
        entry = self.tickets[held]
        self._remove(held)
        return entry

    async def entry(self, player: str) -> tuple[Entry, bool] | None:
        """See :meth:`Waiting.entry`."""
        held = self.players.get(player)
        if held is None:
            return None
        return self.tickets[held], held not in self.taken

    async def touch(self, ticket: str, seen: float) -> None:
        """See :meth:`Waiting.touch`."""
        entry = self.tickets.get(ticket)
        if entry is not None:
            self.tickets[ticket] = dataclasses.replace(entry, seen=max(entry.seen, seen))

    async def entries(self, pool: str) -> list[Entry]:
        """See :meth:`Waiting.entries`."""
        return [self.tickets[t] for t in sorted(self.queues.get(pool, ()))]

    async def count(self, pool: str) -> int:
        """See :meth:`Waiting.count`."""
        return len(self.queues.get(pool, ()))

    async def drop(self, pool: str, tickets: Sequence[str]) -> None:
        """See :meth:`Waiting.drop`."""
        for ticket in tickets:
            if ticket in self.queues.get(pool, ()):
                self._remove(ticket)

    async def take(self, pool: str, tickets: Sequence[str], process: str, now: float) -> bool:
        """See :meth:`Waiting.take`."""
        queue = self.queues.get(pool, set())
        if not all(t in queue for t in tickets):
            return False
        for ticket in tickets:
            queue.discard(ticket)
            self.taken[ticket] = _Taken(pool, process, now)
        return True

    async def seated(self, tickets: Sequence[Entry], result: Result) -> bool:
        """See :meth:`Waiting.seated`."""
        if not all(t.id in self.taken for t in tickets):
            return False
        until = self.clock() + RESULT_SECONDS
        for entry in tickets:
            self._remove(entry.id)
            for player in entry.players:
                self.found[player] = (result, until)
        return True

    async def put_back(self, pool: str, tickets: Sequence[str]) -> None:
        """See :meth:`Waiting.put_back`."""
        for ticket in tickets:
            if self.taken.pop(ticket, None) is not None:
                self.queues.setdefault(pool, set()).add(ticket)

    async def stranded(self, pool: str, before: float, oldest: float) -> int:
        """See :meth:`Waiting.stranded` (in one process, every taker is this process:
        only a wave that failed between the two steps leaves a ticket taken). Results
        kept too long leave too."""
        moment = self.clock()
        if moment - self._swept > 60:
            self._swept = moment
            for player, (_, until) in list(self.found.items()):
                if until < moment:
                    del self.found[player]
        back = 0
        for ticket, taken in list(self.taken.items()):
            if taken.pool != pool or taken.at >= before:
                continue
            entry = self.tickets[ticket]
            if entry.seen < oldest:
                self._remove(ticket)
                until = self.clock() + RESULT_SECONDS
                for player in entry.players:
                    self.found[player] = (Result(pool), until)
            else:
                await self.put_back(pool, [ticket])
                back += 1
        return back

    async def result(self, player: str) -> Result | None:
        """See :meth:`Waiting.result`."""
        return self._result(player)

    async def results(self, players: Sequence[str]) -> dict[str, Result]:
        """See :meth:`Waiting.results`."""
        found = {p: self._result(p) for p in players}
        return {p: r for p, r in found.items() if r is not None}

    async def forget(self, player: str, result: Result) -> None:
        """See :meth:`Waiting.forget`."""
        if self._result(player) == result:
            del self.found[player]

    async def lock(self, pool: str, process: str, seconds: float) -> bool:
        """See :meth:`Waiting.lock`."""
        held = self.locks.get(pool)
        now = time.monotonic()
        if held is not None and held[1] > now and held[0] != process:
            return False
        self.locks[pool] = (process, now + seconds)
        return True

    async def unlock(self, pool: str, process: str) -> None:
        """See :meth:`Waiting.unlock`."""
        if self.locks.get(pool, ("", 0.0))[0] == process:
            del self.locks[pool]

    async def party(self, code: str) -> Party | None:
        """See :meth:`Waiting.party`."""
        return self.parties.get(code)

    async def party_of(self, player: str) -> Party | None:
        """See :meth:`Waiting.party_of`."""
        code = self.party_index.get(player)
        return None if code is None else self.parties.get(code)

    async def new_party(self, party: Party) -> None:
        """See :meth:`Waiting.new_party`."""
        old = self.party_index.get(party.leader)
        if old is not None:
            await self.leave_party(old, party.leader)
        self.parties[party.code] = party
        self.party_index[party.leader] = party.code

    async def join_party(self, code: str, player: str, name: str) -> Party | None:
        """See :meth:`Waiting.join_party`."""
        party = self.parties.get(code)
        if party is None or player in party.members or party.full:
            return party
        old = self.party_index.get(player)
        if old is not None:
            await self.leave_party(old, player)
        party = self.parties[code] = dataclasses.replace(
            party, members=(*party.members, player), names=(*party.names, name)
        )
        self.party_index[player] = code
        return party

    async def leave_party(self, code: str, player: str) -> None:
        """See :meth:`Waiting.leave_party`."""
        party = self.parties.get(code)
        if party is None or player not in party.members:
            return
        if player == party.leader:
            del self.parties[code]
            for member in party.members:
                if self.party_index.get(member) == code:
                    del self.party_index[member]
            return
        i = party.members.index(player)
        self.parties[code] = dataclasses.replace(
            party,
            members=party.members[:i] + party.members[i + 1 :],
            names=party.names[:i] + party.names[i + 1 :],
        )
        if self.party_index.get(player) == code:
            del self.party_index[player]


# ---------------------------------------------------------------- on Redis

# Keys (after the prefix, e.g. ``hukum:pool:``): ``t`` (hash: ticket id -> Entry JSON),
# ``seen`` (hash: ticket id -> epoch seconds), ``q:<pool>`` (set: the waiting ticket ids),
# ``who`` (hash: player -> ticket id), ``taken`` (hash: ticket id -> {pool, process, at}),
# ``r:<player>`` (a Result, expiring), ``lock:<pool>``, ``party:<code>`` (a Party, expiring),
# ``party-of`` (hash: player -> party code). Every change that must be all or nothing is
# one Lua script. ARGV[1] is always the prefix; the scripts build their keys from it (one
# Redis server, as the cluster's own scripts do).

_REMOVE = """
local function remove(p, id)
  local text = redis.call('HGET', p .. 't', id)
  if not text then return end
  local e = cjson.decode(text)
  redis.call('SREM', p .. 'q:' .. e.pool, id)
  redis.call('HDEL', p .. 't', id)
  redis.call('HDEL', p .. 'seen', id)
  redis.call('HDEL', p .. 'taken', id)
  for _, player in ipairs(e.players) do
    if redis.call('HGET', p .. 'who', player) == id then redis.call('HDEL', p .. 'who', player) end
  end
end
"""

# ARGV: prefix, entry JSON, the entry's id, pool, seen, players...
_JOIN = (
    _REMOVE
    + """
local p = ARGV[1]
for i = 6, #ARGV do
  local result = redis.call('GET', p .. 'r:' .. ARGV[i])
  if result then return {'matched', result} end
  local held = redis.call('HGET', p .. 'who', ARGV[i])
  if held and redis.call('HEXISTS', p .. 'taken', held) == 1 then
    return {'taken', redis.call('HGET', p .. 't', held)}
  end
end
for i = 6, #ARGV do
  local held = redis.call('HGET', p .. 'who', ARGV[i])
  if held then remove(p, held) end
end
redis.call('HSET', p .. 't', ARGV[3], ARGV[2])
redis.call('HSET', p .. 'seen', ARGV[3], ARGV[5])
redis.call('SADD', p .. 'q:' .. ARGV[4], ARGV[3])
for i = 6, #ARGV do redis.call('HSET', p .. 'who', ARGV[i], ARGV[3]) end
return {'waiting', tostring(redis.call('SCARD', p .. 'q:' .. ARGV[4]))}
"""
)

# ARGV: prefix, player
_LEAVE = (
    _REMOVE
    + """
local p = ARGV[1]
local held = redis.call('HGET', p .. 'who', ARGV[2])
if not held or redis.call('HEXISTS', p .. 'taken', held) == 1 then return false end
local text = redis.call('HGET', p .. 't', held)
remove(p, held)
return text
"""
)

# ARGV: prefix, pool, ids...
_DROP = (
    _REMOVE
    + """
local p = ARGV[1]
for i = 3, #ARGV do
  if redis.call('SISMEMBER', p .. 'q:' .. ARGV[2], ARGV[i]) == 1 then remove(p, ARGV[i]) end
end
return 1
"""
)

# ARGV: prefix, pool, taken JSON, ids...
_TAKE = """
local p = ARGV[1]
local queue = p .. 'q:' .. ARGV[2]
for i = 4, #ARGV do
  if redis.call('SISMEMBER', queue, ARGV[i]) == 0 then return 0 end
end
for i = 4, #ARGV do
  redis.call('SREM', queue, ARGV[i])
  redis.call('HSET', p .. 'taken', ARGV[i], ARGV[3])
end
return 1
"""

# ARGV: prefix, result JSON, milliseconds, ticket count n, ids (n)..., players...
_SEATED = (
    _REMOVE
    + """
local p = ARGV[1]
local n = tonumber(ARGV[4])
for i = 5, 4 + n do
  if redis.call('HEXISTS', p .. 'taken', ARGV[i]) == 0 then return 0 end
end
for i = 5, 4 + n do remove(p, ARGV[i]) end
for i = 5 + n, #ARGV do redis.call('SET', p .. 'r:' .. ARGV[i], ARGV[2], 'PX', ARGV[3]) end
return 1
"""
)

# ARGV: prefix, pool, ids...
_PUT_BACK = """
local p = ARGV[1]
for i = 3, #ARGV do
  if redis.call('HDEL', p .. 'taken', ARGV[i]) == 1 then
    redis.call('SADD', p .. 'q:' .. ARGV[2], ARGV[i])
  end
end
return 1
"""

# ARGV: prefix, pool, before, oldest, cluster prefix, requeue result JSON, milliseconds
_STRANDED = (
    _REMOVE
    + """
local p = ARGV[1]
local taken = redis.call('HGETALL', p .. 'taken')
local back = 0
for i = 1, #taken, 2 do
  local id, t = taken[i], cjson.decode(taken[i + 1])
  if t.pool == ARGV[2] and t.at < tonumber(ARGV[3])
     and redis.call('EXISTS', ARGV[5] .. 'alive:' .. t.process) == 0 then
    local seen = tonumber(redis.call('HGET', p .. 'seen', id) or '0')
    if seen < tonumber(ARGV[4]) then
      local e = cjson.decode(redis.call('HGET', p .. 't', id))
      remove(p, id)
      for _, player in ipairs(e.players) do
        redis.call('SET', p .. 'r:' .. player, ARGV[6], 'PX', ARGV[7])
      end
    else
      redis.call('HDEL', p .. 'taken', id)
      redis.call('SADD', p .. 'q:' .. ARGV[2], id)
      back = back + 1
    end
  end
end
return back
"""
)

# ARGV: prefix, pool. Every waiting ticket, as two JSON arrays (the entries, and when each
# was last seen), so that the client parses two strings rather than thousands of replies.
_ENTRIES = """
local p = ARGV[1]
local ids = redis.call('SMEMBERS', p .. 'q:' .. ARGV[2])
if #ids == 0 then return {'[]', '[]'} end
local texts = redis.call('HMGET', p .. 't', unpack(ids))
local seens = redis.call('HMGET', p .. 'seen', unpack(ids))
local out, seen = {}, {}
for i = 1, #ids do
  if texts[i] then
    table.insert(out, texts[i])
    table.insert(seen, seens[i] or '0')
  end
end
return {'[' .. table.concat(out, ',') .. ']', '[' .. table.concat(seen, ',') .. ']'}
"""

_FORGET = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

_UNLOCK = _FORGET

# KEYS: the lock; ARGV: process, milliseconds. Taken when free, renewed by its holder.
_LOCK = """
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
if holder then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""

# ARGV: prefix, party JSON, code, leader, milliseconds. Leaves the leader's old party first.
_LEAVE_PARTY = """
local function leave_party(p, code, player)
  local text = redis.call('GET', p .. 'party:' .. code)
  if not text then return end
  local party = cjson.decode(text)
  if party.leader == player then
    for _, m in ipairs(party.members) do
      if redis.call('HGET', p .. 'party-of', m) == code then
        redis.call('HDEL', p .. 'party-of', m)
      end
    end
    redis.call('DEL', p .. 'party:' .. code)
    return
  end
  local members, names = {}, {}
  for i, m in ipairs(party.members) do
    if m ~= player then table.insert(members, m); table.insert(names, party.names[i]) end
  end
  party.members, party.names = members, names
  redis.call('SET', p .. 'party:' .. code, cjson.encode(party), 'KEEPTTL')
  if redis.call('HGET', p .. 'party-of', player) == code then
    redis.call('HDEL', p .. 'party-of', player)
  end
end
"""

_NEW_PARTY = (
    _LEAVE_PARTY
    + """
local p = ARGV[1]
local old = redis.call('HGET', p .. 'party-of', ARGV[4])
if old then leave_party(p, old, ARGV[4]) end
redis.call('SET', p .. 'party:' .. ARGV[3], ARGV[2], 'PX', ARGV[5])
redis.call('HSET', p .. 'party-of', ARGV[4], ARGV[3])
return 1
"""
)

# ARGV: prefix, code, player, name, size
_JOIN_PARTY = (
    _LEAVE_PARTY
    + """
local p = ARGV[1]
local text = redis.call('GET', p .. 'party:' .. ARGV[2])
if not text then return false end
local party = cjson.decode(text)
for _, m in ipairs(party.members) do
  if m == ARGV[3] then return text end
end
if #party.members >= tonumber(ARGV[5]) then return text end
local old = redis.call('HGET', p .. 'party-of', ARGV[3])
if old then leave_party(p, old, ARGV[3]) end
table.insert(party.members, ARGV[3])
table.insert(party.names, ARGV[4])
text = cjson.encode(party)
redis.call('SET', p .. 'party:' .. ARGV[2], text, 'KEEPTTL')
redis.call('HSET', p .. 'party-of', ARGV[3], ARGV[2])
return text
"""
)

# ARGV: prefix, code, player
_QUIT_PARTY = (
    _LEAVE_PARTY
    + """
leave_party(ARGV[1], ARGV[2], ARGV[3])
return 1
"""
)


def _party(text: str | None) -> Party | None:
    if not text:
        return None
    data = json.loads(text)
    # cjson encodes an empty Lua table as an object: a party left by its last non-leader.
    members = data["members"] if isinstance(data["members"], list) else []
    names = data["names"] if isinstance(data["names"], list) else []
    return Party(data["code"], data["leader"], tuple(members), tuple(names))


class RedisWaiting:
    """Who waits, on the cluster's Redis server (every process sees the same pools)."""

    def __init__(self, client: redis.Redis, prefix: str = "hukum:") -> None:
        self.redis = client
        self.cluster_prefix = prefix
        self.prefix = prefix + "pool:"
        scripts = {
            "join": _JOIN,
            "leave": _LEAVE,
            "drop": _DROP,
            "entries": _ENTRIES,
            "take": _TAKE,
            "seated": _SEATED,
            "put_back": _PUT_BACK,
            "stranded": _STRANDED,
            "forget": _FORGET,
            "lock": _LOCK,
            "unlock": _UNLOCK,
            "new_party": _NEW_PARTY,
            "join_party": _JOIN_PARTY,
            "quit_party": _QUIT_PARTY,
        }
        self._scripts = {name: client.register_script(text) for name, text in scripts.items()}

    async def _run(self, name: str, *args: Any, keys: Sequence[str] = ()) -> Any:
        return await self._scripts[name](keys=list(keys), args=[self.prefix, *args])

    async def join(self, entry: Entry) -> Joined:
        """See :meth:`Waiting.join`."""
        status, value = await self._run(
            "join", entry.to_json(), entry.id, entry.pool, entry.seen, *entry.players
        )
        if status == "matched":
            return Joined("matched", result=Result.from_json(value))
        if status == "taken":
            return Joined("taken", entry=Entry.from_json(value))
        return Joined("waiting", int(value))

    async def leave(self, player: str) -> Entry | None:
        """See :meth:`Waiting.leave`."""
        text = await self._run("leave", player)
        return Entry.from_json(text) if text else None

    async def entry(self, player: str) -> tuple[Entry, bool] | None:
        """See :meth:`Waiting.entry`."""
        held = await self.redis.hget(self.prefix + "who", player)
        if held is None:
            return None
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hget(self.prefix + "t", held)
            pipe.hget(self.prefix + "seen", held)
            pipe.hexists(self.prefix + "taken", held)
            text, seen, taken = await pipe.execute()
        if text is None:
            return None
        entry = Entry.from_json(text)
        return dataclasses.replace(entry, seen=float(seen or entry.seen)), not taken

    async def touch(self, ticket: str, seen: float) -> None:
        """See :meth:`Waiting.touch`."""
        # Only a ticket that still exists: a late touch must not leave a stray field.
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hexists(self.prefix + "t", ticket)
            pipe.hset(self.prefix + "seen", ticket, seen)
            exists, _ = await pipe.execute()
        if not exists:
            await self.redis.hdel(self.prefix + "seen", ticket)

    async def entries(self, pool: str) -> list[Entry]:
        """See :meth:`Waiting.entries` (one script, two strings to parse)."""
        texts, seens = await self._run("entries", pool)
        found = []
        for data, seen in zip(json.loads(texts), json.loads(seens), strict=True):
            for key in ("players", "names", "blocked"):
                data[key] = tuple(data[key])
            data["seen"] = float(seen or data["seen"])
            found.append(Entry(**data))
        found.sort(key=lambda e: e.id)
        return found

    async def count(self, pool: str) -> int:
        """See :meth:`Waiting.count`."""
        return int(await self.redis.scard(self.prefix + "q:" + pool))

    async def drop(self, pool: str, tickets: Sequence[str]) -> None:
        """See :meth:`Waiting.drop`."""
        if tickets:
            await self._run("drop", pool, *tickets)

    async def take(self, pool: str, tickets: Sequence[str], process: str, now: float) -> bool:
        """See :meth:`Waiting.take`."""
        taken = json.dumps({"pool": pool, "process": process, "at": now})
        return bool(await self._run("take", pool, taken, *tickets))

    async def seated(self, tickets: Sequence[Entry], result: Result) -> bool:
        """See :meth:`Waiting.seated`."""
        players = [p for t in tickets for p in t.players]
        ids = [t.id for t in tickets]
        ms = int(RESULT_SECONDS * 1000)
        return bool(await self._run("seated", result.to_json(), ms, len(ids), *ids, *players))

    async def put_back(self, pool: str, tickets: Sequence[str]) -> None:
        """See :meth:`Waiting.put_back`."""
        if tickets:
            await self._run("put_back", pool, *tickets)

    async def stranded(self, pool: str, before: float, oldest: float) -> int:
        """See :meth:`Waiting.stranded`: a process is gone when its cluster key
        (``<prefix>alive:<process>``) has expired."""
        requeue = Result(pool).to_json()
        ms = int(RESULT_SECONDS * 1000)
        back = await self._run("stranded", pool, before, oldest, self.cluster_prefix, requeue, ms)
        return int(back)

    async def result(self, player: str) -> Result | None:
        """See :meth:`Waiting.result`."""
        text = await self.redis.get(self.prefix + "r:" + player)
        return None if text is None else Result.from_json(str(text))

    async def results(self, players: Sequence[str]) -> dict[str, Result]:
        """See :meth:`Waiting.results`."""
        if not players:
            return {}
        texts = await self.redis.mget([self.prefix + "r:" + p for p in players])
        return {
            p: Result.from_json(str(t))
            for p, t in zip(players, texts, strict=True)
            if t is not None
        }

    async def forget(self, player: str, result: Result) -> None:
        """See :meth:`Waiting.forget`."""
        await self._scripts["forget"](keys=[self.prefix + "r:" + player], args=[result.to_json()])

    async def lock(self, pool: str, process: str, seconds: float) -> bool:
        """See :meth:`Waiting.lock`."""
        key = self.prefix + "lock:" + pool
        return bool(await self._scripts["lock"](keys=[key], args=[process, int(seconds * 1000)]))

    async def unlock(self, pool: str, process: str) -> None:
        """See :meth:`Waiting.unlock`."""
        await self._scripts["unlock"](keys=[self.prefix + "lock:" + pool], args=[process])

    async def party(self, code: str) -> Party | None:
        """See :meth:`Waiting.party`."""
        text = await self.redis.get(self.prefix + "party:" + code)
        return None if text is None else _party(str(text))

    async def party_of(self, player: str) -> Party | None:
        """See :meth:`Waiting.party_of`."""
        code = await self.redis.hget(self.prefix + "party-of", player)
        return None if code is None else await self.party(str(code))

    async def new_party(self, party: Party) -> None:
        """See :meth:`Waiting.new_party`."""
        ms = int(PARTY_SECONDS * 1000)
        await self._run("new_party", party.to_json(), party.code, party.leader, ms)

    async def join_party(self, code: str, player: str, name: str) -> Party | None:
        """See :meth:`Waiting.join_party`."""
        return _party(await self._run("join_party", code, player, name, PARTY_SIZE))

    async def leave_party(self, code: str, player: str) -> None:
        """See :meth:`Waiting.leave_party`."""
        await self._run("quit_party", code, player)


# ---------------------------------------------------------------- who a player is, to a pool


@dataclass(frozen=True)
class Standing:
    """What the pools read of a ticket's players from the database at join."""

    rating: float
    blocked: tuple[str, ...]
    leaver: bool


def standing(store: Store, players: Sequence[str], pool: str) -> Standing:
    """The players' mean shown rating in ``pool`` (a player with none is at the start),
    everyone any of them blocked or was blocked by, and whether one of them keeps leaving
    (:data:`LEAVER_LEFT` of their last :data:`LEAVER_LAST` rated seats). Synchronous."""
    with store.session() as s:
        mus = dict(
            s.execute(
                select(Rating.player, Rating.mu).where(
                    Rating.pool == pool, Rating.player.in_(players)
                )
            ).all()
        )
        rows = s.execute(
            select(Block.player, Block.blocked).where(
                or_(Block.player.in_(players), Block.blocked.in_(players))
            )
        ).all()
        leaver = False
        for player in players:
            left = s.scalars(
                select(RatedSeat.left)
                .join(RatedMatch, RatedMatch.room == RatedSeat.room)
                .where(RatedSeat.player == player)
                .order_by(RatedMatch.rated_at.desc())
                .limit(LEAVER_LAST)
            ).all()
            leaver = leaver or sum(1 for x in left if x) >= LEAVER_LEFT
    ours = set(players)
    blocked = {b if a in ours else a for a, b in rows} - ours
    rating = sum(shown(mus.get(p, START_MU)) for p in players) / len(players)
    return Standing(rating, tuple(sorted(blocked)), leaver)


def finished(store: Store, code: str) -> bool:
    """Whether the room's match is over (or the room is unknown). Synchronous."""
    with store.session() as s:
        room = s.get(Room, code)
        return room is None or bool(room.finished)


# ---------------------------------------------------------------- the matchmaker


@dataclass
class _Listeners:
    events: dict[str, set[asyncio.Event]] = field(default_factory=dict)

    def add(self, player: str) -> asyncio.Event:
        event = asyncio.Event()
        self.events.setdefault(player, set()).add(event)
        return event

    def discard(self, player: str, event: asyncio.Event) -> None:
        events = self.events.get(player)
        if events is not None:
            events.discard(event)
            if not events:
                del self.events[player]

    def wake(self, player: str) -> None:
        for event in self.events.get(player, ()):
            event.set()


class Matchmaker:
    """Runs the pools' waves in this process (where it holds a pool's lock), makes their
    tables, and wakes the long polls of this process's waiting players."""

    def __init__(
        self,
        waiting: Waiting,
        registry: Registry,
        store: Store,
        *,
        process: str,
        countdown: float = 20.0,
        wave_every: float = 2.0,
        turn_timeout: float = POOL_TURN_TIMEOUT,
        unseen: float = UNSEEN,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.waiting = waiting
        self.registry = registry
        self.store = store
        self.process = process
        self.pools = {
            name: dataclasses.replace(p, countdown=countdown) for name, p in POOLS.items()
        }
        self.wave_every = wave_every
        self.turn_timeout = turn_timeout
        self.unseen = unseen
        """Seconds a ticket nobody asks about stays in its pool."""
        self.clock = clock
        self.listeners = _Listeners()
        self._poked: asyncio.Event | None = None
        self._stopping = False
        self._tasks: list[asyncio.Task[None]] = []
        self.made = 0
        """Tables made by this process's waves."""

    # ------------------------------------------------------------ life

    def start(self) -> None:
        """Start the waves and the check for results (tasks of the app)."""
        self._poked = asyncio.Event()
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._waves(), name="pool-waves"),
            loop.create_task(self._watch(), name="pool-watch"),
        ]

    def release(self) -> None:
        """The server is stopping: no more waves, and every long poll answers now (the
        server waits for its requests to end before it stops the app: ``hukum serve``
        calls this first)."""
        # The flag as well as the cancellation: a cancellation that comes while a wave
        # awaits a library that swallows it (seen with Python 3.11) must not keep the
        # loop, and the app's stop, going for ever.
        self._stopping = True
        if self._poked is not None:
            self._poked.set()
        for player in list(self.listeners.events):
            self.listeners.wake(player)

    async def stop(self) -> None:
        """Stop the tasks."""
        self.release()
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=10)
        self._tasks = []

    @property
    def stopping(self) -> bool:
        """Whether the app is stopping (a long poll answers at once)."""
        return self._stopping

    def poke(self) -> None:
        """Run the waves now (a join filled a table's worth of tickets)."""
        if self._poked is not None:
            self._poked.set()

    async def _waves(self) -> None:
        assert self._poked is not None
        loop = asyncio.get_running_loop()
        while not self._stopping:
            # A timer sets the event, rather than a timeout round the wait: Python 3.11's
            # timeouts may swallow the app's cancellation when both come at once, and its
            # stop would then wait for ever.
            timer = loop.call_later(self.wave_every, self._poked.set)
            try:
                await self._poked.wait()
            finally:
                timer.cancel()
            self._poked.clear()
            for pool in self.pools.values():
                if self._stopping:
                    return
                try:
                    await self.run(pool)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("the wave of pool %s failed; the next one tries again", pool.name)

    async def _watch(self, every: float = 1.0) -> None:
        """Wake the long polls of players whose ticket a wave at another process seated."""
        while not self._stopping:
            await asyncio.sleep(every)
            players = list(self.listeners.events)
            if not players:
                continue
            try:
                for player in await self.waiting.results(players):
                    self.listeners.wake(player)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("checking the pools' results failed; trying again")

    async def wait(self, player: str, seconds: float) -> None:
        """Wait at most ``seconds`` for the player's ticket to be seated by a wave."""
        event = self.listeners.add(player)
        timer = asyncio.get_running_loop().call_later(seconds, event.set)
        try:
            await event.wait()
        finally:
            timer.cancel()
            self.listeners.discard(player, event)

    # ------------------------------------------------------------ a wave

    @property
    def _lock_for(self) -> float:
        """How long a wave's lock is held before it is renewed (or, if the process died,
        lapses for another to take)."""
        return max(5.0, 2 * self.wave_every)

    async def run(self, pool: Pool) -> int:
        """One wave of ``pool`` if this process gets its lock: put back stranded tickets,
        drop unseen ones, pair the rest, seat each seating; how many tables it made."""
        if not await self.waiting.lock(pool.name, self.process, self._lock_for):
            return 0
        try:
            return await self._wave(pool)
        finally:
            await self.waiting.unlock(pool.name, self.process)

    async def _wave(self, pool: Pool) -> int:
        now = self.clock()
        back = await self.waiting.stranded(pool.name, now - STRANDED_AFTER, now - self.unseen)
        if back:
            log.warning("pool %s: %d stranded ticket(s) wait again", pool.name, back)
        entries = await self.waiting.entries(pool.name)
        gone = [e.id for e in entries if now - e.seen > self.unseen]
        await self.waiting.drop(pool.name, gone)
        live = {e.id: e for e in entries if now - e.seen <= self.unseen}
        if not live:
            return 0
        seatings = wave(pool, [e.ticket() for e in live.values()], now)
        made = 0
        # The tables of a wave are made a batch at a time, together: each writes a few
        # events, and the journal commits the events of many tables at once (made one after
        # another, 2,000 people in the pools beside 1,000 tables waited a median 39 s for
        # a table, scripts/matchload.py). The lock is renewed before each batch; a process
        # that lost it (another now runs the wave) leaves the rest to that one.
        for start in range(0, len(seatings), TABLES_AT_ONCE):
            if start and not await self.waiting.lock(pool.name, self.process, self._lock_for):
                break
            batch = seatings[start : start + TABLES_AT_ONCE]
            seated = await asyncio.gather(*(self._seat(pool, s, live, now) for s in batch))
            made += sum(seated)
        self.made += made
        return made

    async def _seat(self, pool: Pool, seating: Seating, live: dict[str, Entry], now: float) -> bool:
        """Take a seating's tickets, make its table and tell its players; whether it was
        made."""
        tickets = [live[t] for t in seating.tickets]
        if not await self.waiting.take(pool.name, seating.tickets, self.process, now):
            return False  # a ticket left meanwhile: the others wait for the next wave
        try:
            code = await self._table(pool, seating, tickets)
        except Exception:
            log.exception("pool %s: a table could not be made; its players wait", pool.name)
            await self.waiting.put_back(pool.name, seating.tickets)
            return False
        result = Result(pool.name, code)
        if not await self.waiting.seated(tickets, result):
            log.warning("pool %s: table %s was made for tickets put back", pool.name, code)
            return False
        for entry in tickets:
            for player in entry.players:
                self.listeners.wake(player)
        return True

    async def _table(self, pool: Pool, seating: Seating, tickets: Sequence[Entry]) -> str:
        """Make the seating's table and start its match; its code."""
        names = {p: n for e in tickets for p, n in zip(e.players, e.names, strict=True)}
        ratings = [e.rating for e in tickets for _ in e.players]
        mean = sum(ratings) / len(ratings) if ratings else shown(START_MU)
        config = pool_config(pool, bot_for(pool.game, mean), self.turn_timeout)
        seats = [
            Seat("bot", "") if player is None else Seat("human", names[player], None, player=player)
            for player in seating.seats
        ]
        return await self.registry.spawn(config, seats)
