"""The tables of rated play (README, "Online play and ratings").

A rated match is a table the quick-match pools made (:attr:`TableConfig.pool
<hukum.server.tables.config.TableConfig.pool>`); when its match is over, one
:class:`RatedMatch` row and a :class:`RatedSeat` row per seat are written and each rated
person's :class:`Rating` in that pool moves, all in one transaction (written once: the
match's row is the key).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Date,
    DateTime,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from hukum.server.db import Base, now

__all__ = [
    "Challenge",
    "ChallengeDeal",
    "ChallengeEntry",
    "RatedMatch",
    "RatedSeat",
    "Rating",
    "ScreenedRoom",
    "ScreenedSeat",
    "ScreeningTally",
]


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


class Challenge(Base):
    """A day's challenge (:mod:`hukum.online.challenge`), made once: the day is the key."""

    __tablename__ = "challenges"
    day: Mapped[dt.date] = mapped_column(Date, primary_key=True)
    preset: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=now)


class ChallengeDeal(Base):
    """One deal of a day's challenge: its seed (secret until the day closes), the seed's
    published commitment, its dealer and preset."""

    __tablename__ = "challenge_deals"
    day: Mapped[dt.date] = mapped_column(
        ForeignKey("challenges.day", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seed: Mapped[str] = mapped_column(String(48))
    """The seed as decimal text (128 bits: more than a database integer holds)."""
    commitment: Mapped[str] = mapped_column(String(64))
    dealer: Mapped[int] = mapped_column(Integer)
    preset: Mapped[str] = mapped_column(String(16))


class ChallengeEntry(Base):
    """A player's play of one challenge deal: made when they start it (started = played),
    its result written when the deal ends. A deleted account's entries stay, anonymous (as
    rated seats do), so that the field's percentages do not change."""

    __tablename__ = "challenge_entries"
    __table_args__ = (UniqueConstraint("day", "number", "player", name="uq_challenge_entry"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    day: Mapped[dt.date] = mapped_column(Date, index=True)
    number: Mapped[int] = mapped_column(Integer)
    player: Mapped[str | None] = mapped_column(
        ForeignKey("players.id", ondelete="SET NULL"), index=True, default=None
    )
    name: Mapped[str] = mapped_column(String(40))
    """The player's display name as they started (an anonymous one once they are deleted)."""
    room: Mapped[str] = mapped_column(ForeignKey("rooms.code"), unique=True)
    started_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=now)
    finished_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    tens: Mapped[int | None] = mapped_column(Integer, default=None)
    """Seat 0's team's tens (None until the deal ends)."""
    tricks: Mapped[int | None] = mapped_column(Integer, default=None)
    won: Mapped[bool | None] = mapped_column(Boolean, default=None)


class ScreenedRoom(Base):
    """A finished rated or challenge table whose deals were screened for fair play
    (:mod:`hukum.server.play.screening`): written once, first in the transaction that
    writes its seats, so that a second screening of the room (this process or another)
    changes nothing. Keeps no personal data."""

    __tablename__ = "screened_rooms"
    room: Mapped[str] = mapped_column(ForeignKey("rooms.code"), primary_key=True)
    deals: Mapped[int] = mapped_column(Integer)
    """Deals screened (0: a game the screening cannot judge, e.g. Ganjifa)."""
    screened_at: Mapped[dt.datetime] = mapped_column(
        DateTime(timezone=True), default=now, index=True
    )


class ScreenedSeat(Base):
    """One person's seat in one screened deal (:func:`hukum.screening.screen`): their
    counts and the evidence (the hit decisions). Personal data: deleted with the account."""

    __tablename__ = "screened_seats"
    __table_args__ = (ForeignKeyConstraint(["room"], ["screened_rooms.room"], ondelete="CASCADE"),)
    room: Mapped[str] = mapped_column(String(16), primary_key=True)
    deal: Mapped[int] = mapped_column(Integer, primary_key=True)
    """The deal's number at the table, from 1."""
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    decisions: Mapped[int] = mapped_column(Integer)
    """Decisions screened (more than one class of legal card, both judgements made)."""
    matters: Mapped[int] = mapped_column(Integer)
    """Of those, the decisions where the solver's best and the view-based choice differ."""
    hits: Mapped[int] = mapped_column(Integer)
    """Of those, the ones where the card played was the solver's, not the view's."""
    unjudged: Mapped[int] = mapped_column(Integer)
    """Decisions left out: a judgement ran out of its budget."""
    llr: Mapped[float] = mapped_column(Float)
    """The deal's log-likelihood ratio (:func:`hukum.online.screening.step` summed over the
    decisions that matter): what the deal added to the player's tally."""
    evidence: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    """The hit decisions: ``{"number", "card", "best", "viewed", "chance"}`` (the move's
    number in the deal, from 1; the cards as the game writes them; the share of the legal
    cards that were best)."""
    screened_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=now)


class ScreeningTally(Base):
    """A player's running screening record (:class:`hukum.online.screening.Tally`'s
    fields) and its verdict, moved in the transaction that writes their seats. Personal
    data: deleted with the account.

    The test's parameter (:data:`hukum.online.screening.CHEAT_SHARE`) is not kept per row:
    the ratio stays a supermartingale for an honest player whatever share each deal's step
    was computed with, so a tally goes on under a changed share with its guarantee intact."""

    __tablename__ = "screening_tallies"
    player: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    matters: Mapped[int] = mapped_column(Integer, default=0)
    hits: Mapped[int] = mapped_column(Integer, default=0)
    llr: Mapped[float] = mapped_column(Float, default=0.0)
    peak: Mapped[float] = mapped_column(Float, default=0.0)
    deals: Mapped[int] = mapped_column(Integer, default=0)
    verdict: Mapped[str] = mapped_column(String(8), default="clear", index=True)
    """``clear``, ``watch`` or ``flag`` (a flag stays: a moderator decides)."""
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=now)
