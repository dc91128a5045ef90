"""Quick match: the pools a player may queue in, and how a wave pairs the people waiting
(as lichess's pools do, ``modules/pool``): nearest ratings first, the allowed rating gap
widening the longer a ticket waits, players who blocked each other never together, a party
of two opposite each other, players who keep leaving matches with one another and after a
longer wait, and a seat nobody takes by the end of the countdown given to a computer player.

Pure: the server (:mod:`hukum.server.play.pool`) keeps the tickets, runs a wave every few
seconds and makes the tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

import numpy as np

__all__ = [
    "GAP_PER_SECOND",
    "GAP_START",
    "LEAVER_EXTRA",
    "POOLS",
    "Pool",
    "Seating",
    "Ticket",
    "countdown_left",
    "gap",
    "wave",
]


@dataclass(frozen=True)
class Pool:
    """A quick-match format: the game and rules its tables play, and how its waves pair."""

    name: str
    """Its key in :data:`POOLS` (also the ``pool`` of its tables' settings and ratings)."""
    game: str
    """The game (:func:`hukum.games.game_named`)."""
    preset: str
    options: dict[str, Any] = field(default_factory=dict)
    seats: int = 4
    partners: bool = True
    """Two teams, partners opposite (Mindi: seats 0, 2 and 1, 3); else each for themselves."""
    countdown: float = 20.0
    """Seconds a ticket waits before the seats still empty at its table go to computer
    players (the countdown the player sees)."""


#: The pools, by name: one deal each, so that a rated match is a few minutes and every
#: match weighs the same in a rating.
POOLS: dict[str, Pool] = {
    "mindi": Pool("mindi", "mindi", "classic", {"deals": 1, "target": None}),
    "band": Pool("band", "mindi", "hidden", {"deals": 1, "target": None}),
    "ganjifa": Pool("ganjifa", "ganjifa", "cardavia", {"deals": 1}, seats=3, partners=False),
}


@dataclass(frozen=True)
class Ticket:
    """Who waits in a pool together: one player, or a party of two (who sit opposite)."""

    id: str
    players: tuple[str, ...]
    """Player ids: one, or two for a party."""
    rating: float
    """The players' mean rating in the pool, on the shown scale
    (:func:`hukum.online.ratings.shown`)."""
    since: float
    """When the ticket joined, in seconds (the same clock as a wave's ``now``)."""
    blocked: frozenset[str] = frozenset()
    """Every player any of :attr:`players` blocked or was blocked by."""
    leaver: bool = False
    """One of the players keeps leaving rated matches: waits longer, and is paired with
    others who do."""


@dataclass(frozen=True)
class Seating:
    """A table a wave made: the player id at each seat, None for a computer player."""

    seats: tuple[str | None, ...]
    tickets: tuple[str, ...]
    """The ids of the tickets seated (each leaves the pool)."""


#: The rating gap (shown-rating points, :func:`hukum.online.ratings.shown`) allowed within a
#: table of people whose longest-waiting ticket has just joined: a fifth of a new player's
#: shown deviation (500), so that a busy pool makes close tables.
GAP_START = 100.0
#: How much the allowed gap widens each second the table's longest-waiting ticket has waited:
#: 600 points by the end of the default 20 s countdown, so a quiet pool still seats people
#: together rather than each with computer players.
GAP_PER_SECOND = 25.0
#: Extra seconds a leaver's ticket (:attr:`Ticket.leaver`) waits before computer players fill
#: its table: leaving costs the others a partner, so a leaver waits longer for one.
LEAVER_EXTRA = 20.0

#: How many neighbours (in rating order) a wave looks at beyond a ticket when it forms a
#: table: enough to step over a party that does not fit or a blocked player, and bounded so
#: that a wave stays linear in the tickets waiting.
_LOOKAHEAD = 8
#: How many times a wave looks again at the tickets left between the tables it made (which
#: may now be neighbours in rating): bounded so that a wave stays fast; a ticket it misses
#: waits for the next wave.
_ROUNDS = 3


def gap(waited: float) -> float:
    """The rating gap allowed within a table whose longest-waiting ticket waited ``waited`` s."""
    return GAP_START + GAP_PER_SECOND * max(0.0, waited)


def countdown_left(pool: Pool, ticket: Ticket, now: float) -> float:
    """Seconds until the seats still empty at ``ticket``'s table go to computer players (>= 0)."""
    countdown = pool.countdown + (LEAVER_EXTRA if ticket.leaver else 0.0)
    return max(0.0, ticket.since + countdown - now)


def wave(pool: Pool, tickets: Sequence[Ticket], now: float) -> list[Seating]:
    """Pair the tickets waiting in ``pool`` at time ``now`` into tables (see the module).

    Full tables of people first, nearest ratings first, each within the gap allowed by the
    wait of its longest-waiting ticket; then every ticket whose countdown is over gets a table
    with the nearest other tickets waiting (their countdown over or not) and computer
    players (None) in the seats left. Leavers
    sit only with leavers. The tickets not in the result wait for the next wave. A ticket
    sharing an id or a player with an earlier one (by ``since``) is left out of this wave.
    """
    limit = min(2, pool.seats)
    for ticket in tickets:
        if not 1 <= len(ticket.players) <= limit:
            raise ValueError(f"a ticket has one or two players, at most a table's: {ticket.id}")
    if pool.partners and pool.seats != 4:
        raise ValueError(f"a partners pool has four seats, not {pool.seats}")
    everyone = [p for t in tickets for p in t.players]
    kept: Sequence[Ticket] = tickets
    if len(set(everyone)) != len(everyone) or len({t.id for t in tickets}) != len(tickets):
        kept = _first_of_each(tickets)
    seatings: list[Seating] = []
    for leaver in (False, True):
        group = [t for t in kept if t.leaver is leaver]
        if not group:
            continue
        waiting = _full_tables(pool, group, now, seatings)
        due = now - pool.countdown - (LEAVER_EXTRA if leaver else 0.0)
        overdue = [t for t in waiting if t.since <= due]
        seatings.extend(
            _arrange(pool, table) for table in _tables_with_bots(pool, waiting, overdue, now)
        )
    return seatings


def _first_of_each(tickets: Sequence[Ticket]) -> list[Ticket]:
    """The tickets less each that repeats an earlier one's id or player (earlier: by since)."""
    ids: set[str] = set()
    players: set[str] = set()
    kept: list[Ticket] = []
    for ticket in sorted(tickets, key=attrgetter("since", "id")):
        if ticket.id in ids or not players.isdisjoint(ticket.players):
            continue
        ids.add(ticket.id)
        players.update(ticket.players)
        kept.append(ticket)
    return kept


def _conflict(a: Ticket, b: Ticket) -> bool:
    """Whether ``a`` and ``b`` may not sit at one table (a block between their players)."""
    return bool(
        (a.blocked and not a.blocked.isdisjoint(b.players))
        or (b.blocked and not b.blocked.isdisjoint(a.players))
    )


def _full_tables(pool: Pool, tickets: list[Ticket], now: float, out: list[Seating]) -> list[Ticket]:
    """Seat tables of people only (appended to ``out``), in rounds, the closest tables first;
    the tickets left waiting."""
    seats = pool.seats
    fast = pool.seats == 4 and pool.partners
    remaining = sorted(tickets, key=attrgetter("rating"))
    if len({t.rating for t in remaining}) < len(remaining):
        remaining.sort(key=attrgetter("rating", "since", "id"))
    ratings = np.array([t.rating for t in remaining])
    since = np.array([t.since for t in remaining])
    party = np.array([len(t.players) != 1 for t in remaining])
    blocks = np.array([bool(t.blocked) for t in remaining])
    for _ in range(_ROUNDS):
        count = len(remaining)
        windows = count - seats + 1
        if count < 2:
            break
        odd = party.copy()
        for i in np.flatnonzero(blocks).tolist():
            odd[i] = odd[i] or _blocks_near(remaining, i)
        # The usual table: the tickets from i to i + seats - 1 in rating order, all singles
        # without blocks between them (the closest table whose lowest is i).
        starts = np.zeros(0, dtype=np.int64)
        spreads = np.zeros(0)
        slow: list[int] = list(range(max(0, windows), count - 1))
        if windows > 0:
            spread = ratings[seats - 1 :] - ratings[:windows]
            earliest = since[:windows].copy()
            for k in range(1, seats):
                np.minimum(earliest, since[k : k + windows], out=earliest)
            odd_before = np.concatenate(([0], np.cumsum(odd)))
            plain = odd_before[seats:] == odd_before[:windows]
            starts = np.flatnonzero(
                plain & (spread <= GAP_START + GAP_PER_SECOND * np.maximum(now - earliest, 0.0))
            )
            spreads = spread[starts]
            slow = np.flatnonzero(~plain).tolist() + slow
        # Windows with a party or a block, and the last tickets: the closest table by search.
        block_before = np.concatenate(([0], np.cumsum(blocks))).tolist()
        found: list[tuple[int, ...]] = []
        found_spreads: list[float] = []
        for i in slow:
            end = min(count, i + 1 + _LOOKAHEAD)
            if block_before[end] == block_before[i]:
                members = _closest_without_blocks(remaining, i, end, seats)
            else:
                members = _closest_from(remaining, i, end, seats)
            if members is not None:
                gap_ = float(ratings[members[-1]] - ratings[i])
                if gap_ <= gap(now - min(float(since[m]) for m in members)):
                    found.append(members)
                    found_spreads.append(gap_)
        # Nearest ratings first; ties by the lowest rating.
        all_starts = np.concatenate((starts, [m[0] for m in found])).astype(np.int64)
        kinds = np.concatenate((np.full(len(starts), -1), np.arange(len(found)))).astype(np.int64)
        order = np.lexsort((all_starts, np.concatenate((spreads, found_spreads))))
        used = [False] * count
        placed = 0
        for i, kind in zip(all_starts[order].tolist(), kinds[order].tolist(), strict=True):
            if kind < 0:
                if used[i] or used[i + seats - 1] or any(used[i + 1 : i + seats - 1]):
                    continue
                used[i : i + seats] = [True] * seats
                placed += seats
                table = remaining[i : i + seats]
                if fast:
                    # Singles r1 >= r2 >= r3 >= r4: r1 + r4 against r2 + r3 (see _arrange).
                    low, second, third, high = table
                    ids: tuple[str, ...] = (high.id, third.id, low.id, second.id)
                    people: tuple[str, ...] = (
                        high.players[0],
                        third.players[0],
                        low.players[0],
                        second.players[0],
                    )
                else:
                    ids = tuple(t.id for t in reversed(table))
                    people = tuple(t.players[0] for t in reversed(table))
                out.append(Seating(people, ids))
                continue
            chosen = found[kind]
            if any(used[m] for m in chosen):
                continue
            for m in chosen:
                used[m] = True
            placed += len(chosen)
            out.append(_arrange(pool, [remaining[m] for m in chosen]))
        if not placed:
            break
        left = ~np.array(used)
        remaining = [remaining[i] for i in np.flatnonzero(left).tolist()]
        ratings, since, party, blocks = ratings[left], since[left], party[left], blocks[left]
    return remaining


def _blocks_near(tickets: list[Ticket], i: int) -> bool:
    """Whether ``tickets[i]`` (in rating order) has a block with a neighbour that a table
    could seat it with."""
    blocked = tickets[i].blocked
    reach = _LOOKAHEAD + 1
    near = tickets[max(0, i - reach) : i + reach + 1]
    return any(not blocked.isdisjoint(t.players) for t in near)


def _closest_from(
    tickets: list[Ticket], start: int, end: int, seats: int
) -> tuple[int, ...] | None:
    """The indices (below ``end``) of the full table with ``tickets[start]`` lowest whose
    highest is lowest, by search among players with blocks."""
    best: tuple[int, ...] | None = None

    def search(chosen: tuple[int, ...], people: int, after: int) -> None:
        nonlocal best
        for j in range(after, end):
            if best is not None and j >= best[-1]:
                return
            other = tickets[j]
            size = people + len(other.players)
            if size > seats or any(_conflict(tickets[c], other) for c in chosen):
                continue
            if size == seats:
                best = (*chosen, j)
                return
            search((*chosen, j), size, j + 1)

    search((start,), len(tickets[start].players), start + 1)
    return best


def _closest_without_blocks(
    tickets: list[Ticket], start: int, end: int, seats: int
) -> tuple[int, ...] | None:
    """:func:`_closest_from` when no ticket from ``start`` to ``end`` has a block."""
    first = len(tickets[start].players)
    singles: list[int] = []
    parties: list[int] = []
    for j in range(start + 1, end):
        size = len(tickets[j].players)
        need = seats - first - size
        if need >= 0:
            two = min(len(parties), need // 2)
            one = need - 2 * two
            if one <= len(singles):
                return (start, *sorted(parties[:two] + singles[:one]), j)
        (singles if size == 1 else parties).append(j)
    return None


def _tables_with_bots(
    pool: Pool, waiting: list[Ticket], overdue: list[Ticket], now: float
) -> list[list[Ticket]]:
    """Tables for the tickets whose countdown is over (``overdue``, longest wait first):
    each with the nearest others still ``waiting`` (whether or not their own countdown is
    over: a person who came a moment later takes a seat rather than a computer player),
    then computer players."""
    if not overdue:
        return []
    order = sorted(waiting, key=lambda t: (t.rating, t.since, t.id))
    index = {t.id: i for i, t in enumerate(order)}
    # A doubly linked list over the rating order, of the tickets still without a table.
    before = list(range(-1, len(order) - 1))
    after = list(range(1, len(order) + 1))

    def unlink(i: int) -> None:
        if before[i] >= 0:
            after[before[i]] = after[i]
        if after[i] < len(order):
            before[after[i]] = before[i]

    tables: list[list[Ticket]] = []
    placed: set[int] = set()
    for anchor in sorted(overdue, key=lambda t: (t.since, t.id)):
        a = index[anchor.id]
        if a in placed:
            continue
        table = [anchor]
        people = len(anchor.players)
        allowed = gap(now - anchor.since)
        low = high = anchor.rating
        left, right = before[a], after[a]
        steps = 0
        while people < pool.seats and steps < 2 * _LOOKAHEAD and (left >= 0 or right < len(order)):
            steps += 1
            # The nearer neighbour in rating first.
            if right >= len(order) or (
                left >= 0
                and anchor.rating - order[left].rating <= order[right].rating - anchor.rating
            ):
                j, left = left, before[left]
            else:
                j, right = right, after[right]
            other = order[j]
            if (
                people + len(other.players) <= pool.seats
                and max(high, other.rating) - min(low, other.rating) <= allowed
                and not any(_conflict(t, other) for t in table)
            ):
                table.append(other)
                people += len(other.players)
                low, high = min(low, other.rating), max(high, other.rating)
        for t in table:
            placed.add(index[t.id])
            unlink(index[t.id])
        tables.append(table)
    return tables


def _arrange(pool: Pool, table: list[Ticket]) -> Seating:
    """Seat a table: parties opposite, teams balanced by rating, bots (None) in the rest."""
    ids = tuple(t.id for t in table)
    if not pool.partners:
        ranked = sorted(table, key=lambda t: (-t.rating, t.id))
        people: list[str | None] = [p for t in ranked for p in t.players]
        return Seating(tuple(people + [None] * (pool.seats - len(people))), ids)
    parties = sorted((t for t in table if len(t.players) == 2), key=lambda t: (-t.rating, t.id))
    singles = sorted((t for t in table if len(t.players) == 1), key=lambda t: (-t.rating, t.id))
    if len(parties) == 2:
        first, second = parties
        return Seating(
            (first.players[0], second.players[0], first.players[1], second.players[1]), ids
        )
    if parties:
        others: list[str | None] = [t.players[0] for t in singles]
        others += [None] * (2 - len(others))
        party = parties[0].players
        return Seating((party[0], others[0], party[1], others[1]), ids)
    # Four singles r1 >= r2 >= r3 >= r4 play r1 + r4 against r2 + r3 (the closest split); a
    # computer player counts as the mean of the people at the table.
    mean = sum(t.rating for t in singles) / len(singles)
    ranked_seats: list[tuple[float, int, str, str | None]] = [
        (-t.rating, 0, t.id, t.players[0]) for t in singles
    ]
    ranked_seats += [(-mean, 1, "", None)] * (4 - len(singles))
    ranked_seats.sort(key=lambda s: s[:3])
    r1, r2, r3, r4 = (s[3] for s in ranked_seats)
    return Seating((r1, r2, r4, r3), ids)
