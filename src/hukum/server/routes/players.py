"""Leaderboards and profiles (docs/protocol.md, "Ratings, leaderboards and profiles"):
``GET /api/leaderboard/{pool}``, ``GET /api/players/{username}`` and ``GET /api/me/profile``.

Players are named by display name and user name only, never by their id. A leaderboard
lists accounts only; a guest (no user name) has a profile only they see, at
``/api/me/profile``.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from sqlalchemy import ColumnElement, and_, func, or_, select
from sqlalchemy.orm import Session

from hukum.online.names import username_key
from hukum.online.pools import POOLS
from hukum.online.ratings import provisional, shown, shown_deviation
from hukum.server.db import Store, now
from hukum.server.identity.models import Player
from hukum.server.identity.sessions import CurrentPlayer, RequiredPlayer
from hukum.server.play.models import RatedMatch, RatedSeat, Rating
from hukum.server.protocol import ProtocolError

__all__ = [
    "AROUND",
    "MIN_GAMES",
    "RECENT_DAYS",
    "RECENT_MATCHES",
    "TOP",
    "leaderboard",
    "profile",
    "router",
]

router = APIRouter()

#: A leaderboard lists accounts with at least this many rated matches in the pool
#: (``create_app(leaderboard_min_games=...)``)...
MIN_GAMES = 5
#: ...one of them in the last this many days...
RECENT_DAYS = 30
#: ...the best this many.
TOP = 100
#: "Around me": this many rows above and below the player.
AROUND = 5
#: A profile's recent matches.
RECENT_MATCHES = 20

Username = Annotated[str, Path(min_length=1, max_length=40)]


def _iso(when: dt.datetime) -> str:
    return (when if when.tzinfo else when.replace(tzinfo=dt.UTC)).isoformat()


def _key() -> ColumnElement[float]:
    """The leaderboard's order: the conservative figure (mu - 3 sigma), highest first."""
    return Rating.mu - 3 * Rating.sigma


def _figures(row: Rating) -> dict[str, Any]:
    """A rating as players see it."""
    return {
        "rating": shown(row.mu),
        "deviation": shown_deviation(row.sigma),
        "games": row.games,
        "provisional": provisional(row.games),
    }


def leaderboard(
    store: Store, pool: str, me: str | None, min_games: int, moment: dt.datetime
) -> dict[str, Any]:
    """A pool's leaderboard, with the place of player ``me`` (an id) if given."""
    listed = and_(
        Rating.pool == pool,
        Rating.games >= min_games,
        Rating.updated_at >= moment - dt.timedelta(days=RECENT_DAYS),
        Player.username_key.is_not(None),
    )
    ordered = (
        select(Rating, Player.name, Player.username)
        .join(Player, Player.id == Rating.player)
        .where(listed)
        .order_by(_key().desc(), Player.username_key)
    )

    def rows(query: Any, first: int) -> list[dict[str, Any]]:
        return [
            {"rank": first + n, "name": name, "username": username, **_figures(row)}
            for n, (row, name, username) in enumerate(s.execute(query))
        ]

    with store.session() as s:
        top = rows(ordered.limit(TOP), 1)
        mine = None if me is None else s.get(Rating, (me, pool))
        rank: int | None = None
        around: list[dict[str, Any]] = []
        if mine is not None:
            player = s.get(Player, me)
            assert player is not None
            key = mine.mu - 3 * mine.sigma  # computed as the database computes _key()
            eligible = s.scalar(
                select(func.count())
                .select_from(Rating)
                .join(Player, Player.id == Rating.player)
                .where(listed, Rating.player == me)
            )
            if eligible:
                ahead = s.scalar(
                    select(func.count())
                    .select_from(Rating)
                    .join(Player, Player.id == Rating.player)
                    .where(
                        listed,
                        or_(
                            _key() > key,
                            and_(_key() == key, Player.username_key < player.username_key),
                        ),
                    )
                )
                rank = int(ahead or 0) + 1
                start = max(0, rank - 1 - AROUND)
                around = rows(ordered.offset(start).limit(rank + AROUND - start), start + 1)
        me_row = None if mine is None else {"rank": rank, **_figures(mine)}
    return {"pool": pool, "top": top, "me": me_row, "around": around}


def profile(store: Store, player_id: str) -> dict[str, Any] | None:
    """A player's profile (None: no such player)."""
    with store.session() as s:
        player = s.get(Player, player_id)
        if player is None:
            return None
        ratings = s.scalars(
            select(Rating).where(Rating.player == player_id).order_by(Rating.pool)
        ).all()
        finished = sum(r.finished for r in ratings)
        left = sum(r.left for r in ratings)
        history: dict[str, list[list[Any]]] = {}
        for pool, at, mu in s.execute(
            select(RatedMatch.pool, RatedMatch.rated_at, RatedSeat.mu_after)
            .join(RatedMatch, RatedMatch.room == RatedSeat.room)
            .where(RatedSeat.player == player_id, RatedSeat.mu_after.is_not(None))
            .order_by(RatedMatch.rated_at, RatedMatch.room)
        ):
            if mu is not None:
                history.setdefault(pool, []).append([_iso(at), shown(mu)])
        recent = s.execute(
            select(RatedSeat, RatedMatch.pool, RatedMatch.rated_at)
            .join(RatedMatch, RatedMatch.room == RatedSeat.room)
            .where(RatedSeat.player == player_id)
            .order_by(RatedMatch.rated_at.desc(), RatedMatch.room)
            .limit(RECENT_MATCHES)
        ).all()
        rooms = [seat.room for seat, _, _ in recent]
        at_table: dict[str, list[dict[str, Any]]] = {}
        for other in s.scalars(
            select(RatedSeat).where(RatedSeat.room.in_(rooms)).order_by(RatedSeat.seat)
        ):
            at_table.setdefault(other.room, []).append(
                {"seat": other.seat, "name": other.name, "bot": other.bot}
            )
        matches = [
            {
                "room": seat.room,
                "seat": seat.seat,
                "pool": pool,
                "at": _iso(at),
                "result": seat.result,
                "left": seat.left,
                "change": None
                if seat.mu_after is None or seat.mu_before is None
                else shown(seat.mu_after) - shown(seat.mu_before),
                "players": at_table.get(seat.room, []),
                "board": f"/t/{seat.room}/deals/1",
            }
            for seat, pool, at in recent
        ]
        return {
            "name": player.name,
            "username": player.username,
            "member_since": _iso(player.created_at)[:10],
            "finish_rate": None if finished + left == 0 else finished / (finished + left),
            "finished": finished,
            "left": left,
            "ratings": {
                r.pool: {
                    "rating": shown(r.mu),
                    "deviation": shown_deviation(r.sigma),
                    "provisional": provisional(r.games),
                    "games": r.games,
                    "wins": r.wins,
                    "history": history.get(r.pool, []),
                }
                for r in ratings
            },
            "matches": matches,
        }


def _store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


@router.get("/api/leaderboard/{pool}")
def get_leaderboard(pool: str, request: Request, player: CurrentPlayer) -> dict[str, Any]:
    """A pool's leaderboard: the top accounts, and the caller's place and neighbours."""
    if pool not in POOLS:
        raise ProtocolError("unknown_pool", f"no pool {pool!r}", pools=sorted(POOLS))
    min_games: int = request.app.state.leaderboard_min_games
    me = None if player is None else player.id
    return leaderboard(_store(request), pool, me, min_games, now())


@router.get("/api/players/{username}")
def get_player(username: Username, request: Request) -> dict[str, Any]:
    """An account's profile, by user name (a guest has none anyone else may see)."""
    with _store(request).session() as s:
        player_id = _account(s, username)
    found = None if player_id is None else profile(_store(request), player_id)
    if found is None:
        raise ProtocolError("unknown_player", f"no player {username!r}")
    return found


def _account(s: Session, username: str) -> str | None:
    """The id of the account with this user name (compared as names are), or None."""
    return s.scalar(select(Player.id).where(Player.username_key == username_key(username)))


@router.get("/api/me/profile")
def get_my_profile(player: RequiredPlayer, request: Request) -> dict[str, Any]:
    """The caller's own profile (a guest's too)."""
    found = profile(_store(request), player.id)
    if found is None:
        raise ProtocolError("no_session", "the session's player is gone")
    return found
