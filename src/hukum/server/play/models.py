"""The tables of rated play (README, "Online play and ratings").

A rated match is a table the quick-match pools made (:attr:`TableConfig.pool
<hukum.server.tables.config.TableConfig.pool>`); when its match is over, one
:class:`RatedMatch` row and a :class:`RatedSeat` row per seat are written and each rated
person's :class:`Rating` in that pool moves, all in one transaction (written once: the
match's row is the key).
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import Boolean, DateTime, Float, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from hukum.server.db import Base, now

__all__ = ["RatedMatch", "RatedSeat", "Rating"]


class Rating(Base):
    """A player's rating in one pool (OpenSkill's mu and sigma, :mod:`hukum.online.ratings`)
    and their counts there."""

    __tablename__ = "ratings"
    player: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    pool: Mapped[str] = mapped_column(String(16), primary_key=True)
    """A key of :data:`hukum.online.pools.POOLS`."""
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    """Rated matches that moved this rating."""
    wins: Mapped[int] = mapped_column(Integer, default=0)
    finished: Mapped[int] = mapped_column(Integer, default=0)
    """Rated matches the player was at when they ended (their finish rate's numerator)."""
    left: Mapped[int] = mapped_column(Integer, default=0)
    """Rated matches a computer player finished for them (they had left)."""
    updated_at: Mapped[dt.datetime] = mapped_column(
        DateTime(timezone=True), default=now, index=True
    )
    """The last rated match: the leaderboard needs a recent one."""


class RatedMatch(Base):
    """A rated table whose match is over and was rated."""

    __tablename__ = "rated_matches"
    room: Mapped[str] = mapped_column(ForeignKey("rooms.code"), primary_key=True)
    pool: Mapped[str] = mapped_column(String(16), index=True)
    rated_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=now, index=True)


class RatedSeat(Base):
    """One seat of a rated match: who sat there, how it ended for them, and their rating
    before and after (None where it did not move: a computer player, the partner of a
    leaver)."""

    __tablename__ = "rated_seats"
    room: Mapped[str] = mapped_column(
        ForeignKey("rated_matches.room", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player: Mapped[str | None] = mapped_column(
        ForeignKey("players.id", ondelete="SET NULL"), index=True, default=None
    )
    """The person (None: a computer player, or a player who deleted their account)."""
    bot: Mapped[str | None] = mapped_column(String(16), default=None)
    """A computer player's level (its fixed rating, :data:`hukum.online.ratings.BOT_RATINGS`)."""
    name: Mapped[str] = mapped_column(String(40))
    """The seat's name as the table showed it."""
    team: Mapped[int] = mapped_column(Integer)
    """Mindi: 0 or 1 (seats 0, 2 and 1, 3); Ganjifa: the seat."""
    result: Mapped[str] = mapped_column(String(8))
    """``win``, ``loss`` or ``draw`` for the seat's side (a leaver's is ``loss``)."""
    left: Mapped[bool] = mapped_column(Boolean, default=False)
    """A computer player finished the match for this person."""
    mu_before: Mapped[float | None] = mapped_column(Float, default=None)
    sigma_before: Mapped[float | None] = mapped_column(Float, default=None)
    mu_after: Mapped[float | None] = mapped_column(Float, default=None)
    sigma_after: Mapped[float | None] = mapped_column(Float, default=None)
