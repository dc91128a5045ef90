"""What hukum keeps about one player, to hand it over (``GET /api/account/data``) or to
erase it (``DELETE /api/account``).

A player's games are the rooms where a ``seat`` event's data names them
(``"player": <id>``, written when a request with a session takes a seat). Erasing a player
removes their row, sessions, blocks, preferences and ratings (the reports they made stay,
with no reporter; their rated seats stay, with no player and the anonymous name) and
rewrites each such seat event: the name becomes an anonymous one ("Former
player 7F3K", the same in every room of the player) and the ``player`` key goes, so that
the game records stay whole under a name that points at nobody.

Synchronous (the routes call it in a worker thread).
"""

from __future__ import annotations

import datetime as dt
import random
import re
from typing import Any

from sqlalchemy import delete, select, update

from hukum.online.names import GUEST_ALPHABET
from hukum.server.db import EventRow, Room, Store
from hukum.server.identity.models import Block, Player, PlayerSession, Report, Sanction
from hukum.server.play.models import ChallengeEntry, RatedMatch, RatedSeat, Rating
from hukum.server.tables.config import TableConfig
from hukum.server.tables.state import TableState

__all__ = [
    "anonymous_name",
    "browser_of",
    "erase",
    "games_of",
    "personal_data",
    "ratings_of",
    "sessions_of",
]

#: The most rooms whose finished deals' records a download rebuilds (from their logs).
RECORDS_MAX = 200


def anonymous_name(rng: random.Random) -> str:
    """The name a deleted player's seats are given: "Former player 7F3K"."""
    return "Former player " + "".join(rng.choice(GUEST_ALPHABET) for _ in range(4))


_BROWSERS = (("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"),
             ("Chrome/", "Chrome"), ("Chromium/", "Chromium"), ("Safari/", "Safari"))  # fmt: skip
_SYSTEMS = (("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"),
            ("Windows", "Windows"), ("Mac OS", "macOS"), ("CrOS", "ChromeOS"),
            ("Linux", "Linux"))  # fmt: skip


def browser_of(agent: str) -> str:
    """A short name of the browser a User-Agent names ("Chrome on Android"), or ""."""
    browser = next((name for key, name in _BROWSERS if key in agent), "")
    system = next((name for key, name in _SYSTEMS if key in agent), "")
    if browser and system:
        return f"{browser} on {system}"
    return browser or system or re.sub(r"[^\x20-\x7e]", "", agent)[:40]


def _iso(when: dt.datetime | None) -> str | None:
    if when is None:
        return None
    return (when if when.tzinfo else when.replace(tzinfo=dt.UTC)).isoformat()


def sessions_of(store: Store, player_id: str, current: str = "") -> list[dict[str, Any]]:
    """The metadata of a player's sessions, newest first (never a token or its hash);
    ``current`` (the hash of the request's session) is marked ``"current": true``."""
    with store.session() as s:
        rows = s.scalars(
            select(PlayerSession)
            .where(PlayerSession.player == player_id)
            .order_by(PlayerSession.created_at.desc())
        ).all()
        return [
            {
                "created": _iso(r.created_at),
                "seen": _iso(r.seen_at),
                "browser": browser_of(r.agent),
                "agent": r.agent,
                "current": r.token_hash == current,
            }
            for r in rows
        ]


def _seat_events(s: Any, player_id: str) -> list[EventRow]:
    """The seat events that name the player, in order."""
    query = select(EventRow).where(
        EventRow.kind == "seat", EventRow.data["player"].as_string() == player_id
    )
    return list(s.scalars(query.order_by(EventRow.room, EventRow.number)).all())


def _record(store: Store, code: str, config: dict[str, Any]) -> dict[str, Any] | None:
    """The record of a room's finished deals (None: the game keeps none, or no deal is
    over), rebuilt from its log."""
    table = TableState(code, TableConfig.from_dict(config))
    kept = table.spec.records
    if kept is None:
        return None
    for ev in store.events(code):
        table.apply(ev.number, ev.kind, ev.data)
    if table.match is None:
        return None
    data = kept.record_to_dict(table.match)
    over = [deal.is_over() for deal in table.match.deals]
    data["deals"] = [d for d, done in zip(data["deals"], over, strict=True) if done]
    return data if data["deals"] else None


def _in_order(names: dict[int, str]) -> list[str]:
    """The names of seats 0, 1, 2 … (an empty seat: "")."""
    return [names.get(n, "") for n in range(max(names) + 1)] if names else []


def games_of(store: Store, player_id: str) -> list[dict[str, Any]]:
    """The rooms the player sat in: each room's code, game, the seats they took, the names
    at its seats and the record of its finished deals."""
    with store.session() as s:
        seats: dict[str, list[int]] = {}
        for row in _seat_events(s, player_id):
            taken = seats.setdefault(row.room, [])
            seat = int(row.data.get("seat", 0))
            if seat not in taken:
                taken.append(seat)
        found = s.scalars(select(Room).where(Room.code.in_(list(seats)))).all()
        rooms = {r.code: r for r in found}
        names: dict[str, dict[int, str]] = {}
        for row in s.scalars(
            select(EventRow)
            .where(EventRow.kind == "seat", EventRow.room.in_(list(seats)))
            .order_by(EventRow.number)
        ).all():
            names.setdefault(row.room, {})[int(row.data.get("seat", 0))] = str(
                row.data.get("name", "")
            )
    games = []
    for i, (code, taken) in enumerate(seats.items()):
        room = rooms.get(code)
        if room is None:
            continue
        game: dict[str, Any] = {
            "code": code,
            "game": room.config.get("game", "mindi"),
            "created": _iso(room.created_at),
            "finished": room.finished,
            "seats": taken,
            "names": _in_order(names.get(code, {})),
        }
        try:
            game["record"] = _record(store, code, room.config) if i < RECORDS_MAX else None
        except Exception:  # a log that cannot be read back: the room without its record
            game["record"] = None
        games.append(game)
    return games


def ratings_of(store: Store, player_id: str) -> dict[str, Any]:
    """A player's ratings (one per pool) and the seats of their rated matches, with the
    figures before and after each."""
    with store.session() as s:
        ratings = s.scalars(
            select(Rating).where(Rating.player == player_id).order_by(Rating.pool)
        ).all()
        seats = s.execute(
            select(RatedSeat, RatedMatch.pool, RatedMatch.rated_at)
            .join(RatedMatch, RatedMatch.room == RatedSeat.room)
            .where(RatedSeat.player == player_id)
            .order_by(RatedMatch.rated_at)
        ).all()
        return {
            "ratings": [
                {
                    "pool": r.pool,
                    "mu": r.mu,
                    "sigma": r.sigma,
                    "games": r.games,
                    "wins": r.wins,
                    "finished": r.finished,
                    "left": r.left,
                    "updated": _iso(r.updated_at),
                }
                for r in ratings
            ],
            "rated_seats": [
                {
                    "room": seat.room,
                    "pool": pool,
                    "rated": _iso(at),
                    "seat": seat.seat,
                    "name": seat.name,
                    "team": seat.team,
                    "result": seat.result,
                    "left": seat.left,
                    "mu_before": seat.mu_before,
                    "sigma_before": seat.sigma_before,
                    "mu_after": seat.mu_after,
                    "sigma_after": seat.sigma_after,
                }
                for seat, pool, at in seats
            ],
        }


def personal_data(store: Store, player_id: str, current: str = "") -> dict[str, Any] | None:
    """Everything hukum keeps about a player, as the download gives it; None: no such
    player."""
    with store.session() as s:
        player = s.get(Player, player_id)
        if player is None:
            return None
        sanctions = s.scalars(
            select(Sanction).where(Sanction.player == player_id).order_by(Sanction.id)
        ).all()
        blocks = s.scalars(select(Block).where(Block.player == player_id)).all()
        reports = s.scalars(select(Report).where(Report.reporter == player_id)).all()
        data: dict[str, Any] = {
            "player": {
                "name": player.name,
                "username": player.username,
                "guest": player.username is None,
                "role": player.role,
                "prefs": dict(player.prefs or {}),
                "created": _iso(player.created_at),
                "seen": _iso(player.seen_at),
            },
            "sanctions": [
                {
                    "kind": x.kind,
                    "reason": x.reason,
                    "until": _iso(x.until),
                    "created": _iso(x.created_at),
                    "lifted": _iso(x.lifted_at),
                    "lift_reason": x.lift_reason,
                }
                for x in sanctions
            ],
            "blocks": len(blocks),
            "reports_made": [
                {"room": r.room, "reason": r.reason, "note": r.note, "created": _iso(r.created_at)}
                for r in reports
            ],
        }
    data.update(ratings_of(store, player_id))
    data["sessions"] = sessions_of(store, player_id, current)
    data["games"] = games_of(store, player_id)
    return data


def erase(
    store: Store, player_id: str, rng: random.Random
) -> tuple[str, list[tuple[str, int, str]]]:
    """Remove a player's personal data and anonymise their seats (in one transaction):
    the anonymous name, and the (room, seat, old name) of each seat event rewritten.

    A table in memory still shows the old name until it is read back from its log; the
    route renames the seats of this process's tables itself (see
    :func:`hukum.server.routes.account.delete_account`)."""
    name = anonymous_name(rng)
    renamed: list[tuple[str, int, str]] = []
    with store.session() as s:
        for row in _seat_events(s, player_id):
            data = {k: v for k, v in row.data.items() if k != "player"}
            data["name"] = name
            s.execute(update(EventRow).where(EventRow.id == row.id).values(data=data))
            renamed.append((row.room, int(row.data.get("seat", 0)), str(row.data.get("name"))))
        # Rated seats keep the match whole under the anonymous name; the row's player goes
        # with the player's row (SET NULL), their ratings too (CASCADE).
        s.execute(update(RatedSeat).where(RatedSeat.player == player_id).values(name=name))
        # Challenge entries too: the field's percentages stay as they were.
        s.execute(
            update(ChallengeEntry).where(ChallengeEntry.player == player_id).values(name=name)
        )
        s.execute(update(Report).where(Report.reporter == player_id).values(reporter=None))
        s.execute(delete(Report).where(Report.reported == player_id))
        s.execute(delete(Sanction).where(Sanction.player == player_id))
        s.execute(update(Sanction).where(Sanction.moderator == player_id).values(moderator=None))
        s.execute(update(Sanction).where(Sanction.lifted_by == player_id).values(lifted_by=None))
        s.execute(delete(Block).where((Block.player == player_id) | (Block.blocked == player_id)))
        s.execute(delete(PlayerSession).where(PlayerSession.player == player_id))
        s.execute(delete(Player).where(Player.id == player_id))
        s.commit()
    return name, renamed
