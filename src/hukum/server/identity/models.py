"""The tables of identities (docs/privacy in the README: what hukum keeps about a player).

A guest and an account are the same kind of row, :class:`Player`: an account is a player
with a user name and a password hash. Everything that follows a person (seats, sessions,
preferences, blocks, reports, moderation) hangs on :attr:`Player.id`, an opaque random id
that no page, record or message shows.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from hukum.server.db import Base, now

__all__ = ["Block", "Player", "PlayerSession", "Report", "Sanction"]


class Player(Base):
    """A person: a guest (no user name) or an account."""

    __tablename__ = "players"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    """The display name tables and records show (any script, shown as text)."""
    username: Mapped[str | None] = mapped_column(String(20), default=None)
    """An account's user name as its owner typed it; None for a guest."""
    username_key: Mapped[str | None] = mapped_column(String(20), unique=True, default=None)
    """:func:`hukum.online.names.username_key` of the user name: unique."""
    password_hash: Mapped[str | None] = mapped_column(String(200), default=None)
    """Argon2id (pwdlib), never the password."""
    role: Mapped[str] = mapped_column(String(16), default="player")
    """``player`` or ``moderator`` (``hukum admin grant-moderator``)."""
    prefs: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    """Preferences (language, card style, display, sound, computer players' speed)."""
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=now)
    seen_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=now)


class PlayerSession(Base):
    """A signed-in browser: the hash of the opaque token its cookie holds."""

    __tablename__ = "sessions"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=now)
    seen_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=now)
    """Last use (updated at most every few minutes): the idle expiry counts from it."""
    agent: Mapped[str] = mapped_column(String(200), default="")
    """The browser's User-Agent, so that a person can tell their sessions apart."""


class Block(Base):
    """``player`` blocked ``blocked``: never seated together by the matchmaker, messages hidden."""

    __tablename__ = "blocks"
    player: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    blocked: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=now)


class Report(Base):
    """A report of a player from a finished table, with a reason from a list."""

    __tablename__ = "reports"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    reporter: Mapped[str | None] = mapped_column(
        ForeignKey("players.id", ondelete="SET NULL"), index=True
    )
    reported: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    room: Mapped[str] = mapped_column(ForeignKey("rooms.code"))
    """The table; its record is the evidence."""
    reason: Mapped[str] = mapped_column(String(32))
    note: Mapped[str] = mapped_column(String(500), default="")
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=now)
    closed_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    """When a moderator dealt with it."""


class Sanction(Base):
    """A moderator's action on a player (a warning, a suspension, a closing), with the reason
    the player sees; lifted (reversed) by setting :attr:`lifted_at`, never deleted."""

    __tablename__ = "sanctions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    moderator: Mapped[str | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"))
    kind: Mapped[str] = mapped_column(String(16))
    """``warn``, ``suspend`` or ``close``."""
    reason: Mapped[str] = mapped_column(String(500))
    until: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    """A suspension's end; None for a warning or a closing."""
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=now)
    lifted_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    lifted_by: Mapped[str | None] = mapped_column(
        ForeignKey("players.id", ondelete="SET NULL"), default=None
    )
    lift_reason: Mapped[str] = mapped_column(String(500), default="")
