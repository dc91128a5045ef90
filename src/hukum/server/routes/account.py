"""Accounts: ``/api/account`` — claim (a guest becomes an account), sign in, sign out,
change the password, sign out everywhere, the sessions, download my data, delete.

No answer says whether a user name exists: a sign-in with an unknown name and one with a
wrong password get the same ``bad_credentials`` (401), after the same work (an unknown
name's password is verified against a dummy hash). A sign-in starts a new session and ends
the one the request came with (no session fixation). Every password check and every
account made is rate-limited (:mod:`hukum.server.throttle`), before any other work: a
refused request changes nothing. Passwords are never logged nor echoed in an error.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Annotated, Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from hukum.online.names import BadName, check_username, username_key
from hukum.server.deps import client_address, get_throttle
from hukum.server.identity.models import Player
from hukum.server.identity.passwords import (
    PASSWORD_MAX,
    BadPassword,
    Passwords,
    check_password,
)
from hukum.server.identity.personal import erase, personal_data, sessions_of
from hukum.server.identity.sessions import (
    CurrentPlayer,
    Identities,
    Me,
    RequiredPlayer,
    forget_cookie,
    identities,
    set_cookie,
)
from hukum.server.protocol import ProtocolError

router = APIRouter(prefix="/api/account")

Password = Annotated[str, Field(max_length=PASSWORD_MAX * 4)]
#: What a sign-in says for an unknown user name and for a wrong password alike.
NO_MATCH = "that user name and password do not match an account"

_rng = random.SystemRandom()


class Credentials(BaseModel):
    """``POST /api/account/claim`` and ``/sign-in``."""

    model_config = ConfigDict(extra="forbid")
    username: Annotated[str, Field(max_length=64)]
    password: Password

    def __repr__(self) -> str:  # never a password in a log or a traceback
        return f"Credentials(username={self.username!r}, password=…)"


class PasswordChange(BaseModel):
    """``POST /api/account/password``."""

    model_config = ConfigDict(extra="forbid")
    current: Password
    new: Password

    def __repr__(self) -> str:
        return "PasswordChange(…)"


class Deletion(BaseModel):
    """``DELETE /api/account``: an account's password (a guest sends none)."""

    model_config = ConfigDict(extra="forbid")
    password: Password | None = None

    def __repr__(self) -> str:
        return "Deletion(…)"


def _passwords(request: Request) -> Passwords:
    found: Passwords = request.app.state.passwords
    return found


def _agent(request: Request) -> str:
    return request.headers.get("user-agent", "")


def _new_session(request: Request, response: Response, me: Me | None, player_id: str) -> Me:
    """End the request's session (if any) and start a new one of ``player_id``, whose
    cookie the response carries: the player as the new session sees them."""
    ids = identities(request)
    if me is not None:
        ids.end_session(me.session)
    token = ids.start_session(player_id, _agent(request))
    set_cookie(request, response, token)
    found = ids.by_token(token)
    assert found is not None
    return found


def _account(me: Me) -> None:
    if me.guest:
        raise ProtocolError("not_account", "a guest has no password: claim an account first")


async def _check(request: Request, me: Me, password: str) -> None:
    """Refuse (``bad_credentials``) a wrong password of the player's own account; the
    check is rate-limited per player."""
    await get_throttle(request).take(("password", me.id))
    ok = await asyncio.to_thread(
        _verify_player, identities(request), _passwords(request), me.id, password
    )
    if not ok:
        raise ProtocolError("bad_credentials", "that password is not this account's")


def _verify_player(ids: Identities, passwords: Passwords, player_id: str, password: str) -> bool:
    with ids.store.session() as s:
        stored = s.scalar(select(Player.password_hash).where(Player.id == player_id))
    ok, updated = passwords.verify(password, stored)
    if updated is not None:
        _store_hash(ids, player_id, updated)
    return ok


def _store_hash(ids: Identities, player_id: str, hashed: str) -> None:
    with ids.store.session() as s:
        s.execute(update(Player).where(Player.id == player_id).values(password_hash=hashed))
        s.commit()


@router.post("/claim")
async def claim(
    body: Credentials, request: Request, response: Response, me: RequiredPlayer
) -> dict[str, Any]:
    """The guest of the request becomes an account (the same player: their games and
    preferences stay), with a user name and a password; the session is renewed."""
    if not me.guest:
        raise ProtocolError("already_account", "this player has an account already")
    await get_throttle(request).take(("claim", client_address(request)))
    try:
        username = check_username(body.username)
    except BadName as e:
        raise ProtocolError("bad_name", str(e)) from None
    try:
        check_password(body.password, username)
    except BadPassword as e:
        raise ProtocolError("bad_password", str(e)) from None
    ids = identities(request)
    hashed = await asyncio.to_thread(_passwords(request).hash, body.password)
    if not await asyncio.to_thread(_make_account, ids, me.id, username, hashed):
        raise ProtocolError("name_taken", "that user name (or one that looks like it) is taken")
    player = await asyncio.to_thread(_new_session, request, response, me, me.id)
    return {"player": player.json()}


def _make_account(ids: Identities, player_id: str, username: str, hashed: str) -> bool:
    """Give a guest its user name and password hash; False if the name (its look-alike
    key) is taken."""
    key = username_key(username)
    with ids.store.session() as s:
        if s.scalar(select(Player.id).where(Player.username_key == key)) is not None:
            return False
        s.execute(
            update(Player)
            .where(Player.id == player_id, Player.username.is_(None))
            .values(username=username, username_key=key, password_hash=hashed)
        )
        try:
            s.commit()
        except IntegrityError:  # another request took the name meanwhile
            return False
    return True


def _sign_in(ids: Identities, passwords: Passwords, username: str, password: str) -> str | None:
    """The id of the account a user name and password open, or None (the same work
    whether the name exists or not)."""
    with ids.store.session() as s:
        row = s.execute(
            select(Player.id, Player.password_hash).where(
                Player.username_key == username_key(username)
            )
        ).first()
    player_id, stored = (row[0], row[1]) if row is not None else (None, None)
    ok, updated = passwords.verify(password, stored)
    if not ok or player_id is None:
        return None
    if updated is not None:
        _store_hash(ids, player_id, updated)
    return str(player_id)


@router.post("/sign-in")
async def sign_in(
    body: Credentials, request: Request, response: Response, me: CurrentPlayer
) -> dict[str, Any]:
    """Sign in to an account: a new session (the request's old one ends)."""
    key = username_key(body.username)[:64]
    await get_throttle(request).take(
        ("sign_in_address", client_address(request)), ("sign_in_account", key)
    )
    ids = identities(request)
    player_id = await asyncio.to_thread(
        _sign_in, ids, _passwords(request), body.username, body.password
    )
    if player_id is None:
        raise ProtocolError("bad_credentials", NO_MATCH)
    player = await asyncio.to_thread(_new_session, request, response, me, player_id)
    return {"player": player.json()}


@router.post("/sign-out")
def sign_out(request: Request, response: Response, me: CurrentPlayer) -> dict[str, Any]:
    """End this session (the cookie goes too)."""
    if me is not None:
        identities(request).end_session(me.session)
    forget_cookie(request, response)
    return {"player": None}


@router.post("/password")
async def change_password(
    body: PasswordChange, request: Request, me: RequiredPlayer
) -> dict[str, Any]:
    """Change the password (the current one is asked); every other session ends."""
    _account(me)
    await _check(request, me, body.current)
    try:
        check_password(body.new, me.username or "")
    except BadPassword as e:
        raise ProtocolError("bad_password", str(e)) from None
    ids = identities(request)
    hashed = await asyncio.to_thread(_passwords(request).hash, body.new)
    await asyncio.to_thread(_store_hash, ids, me.id, hashed)
    ended = await asyncio.to_thread(ids.end_all, me.id, me.session)
    return {"ended": ended}


@router.post("/sign-out-everywhere")
def sign_out_everywhere(request: Request, response: Response, me: RequiredPlayer) -> dict[str, Any]:
    """End every session of the player, this one too."""
    ended = identities(request).end_all(me.id)
    forget_cookie(request, response)
    return {"ended": ended, "player": None}


@router.get("/sessions")
def sessions(request: Request, me: RequiredPlayer) -> dict[str, Any]:
    """The player's sessions: when each began and was last used, its browser, and which is
    this one."""
    return {"sessions": sessions_of(identities(request).store, me.id, me.session)}


@router.get("/data")
def data(request: Request, me: RequiredPlayer) -> Response:
    """Everything hukum keeps about the player, as a JSON file to download."""
    found = personal_data(identities(request).store, me.id, me.session)
    if found is None:
        raise ProtocolError("no_session", "this needs a session: open the page first")
    body = json.dumps(found, ensure_ascii=False, indent=1)
    headers = {
        "Content-Disposition": 'attachment; filename="hukum-my-data.json"',
        "Cache-Control": "no-store",
    }
    return Response(body, media_type="application/json", headers=headers)


@router.delete("")
async def delete_account(
    request: Request, response: Response, me: RequiredPlayer, body: Deletion | None = None
) -> dict[str, Any]:
    """Delete the player (an account's password is asked; a guest may delete too): their
    personal data goes, and their seats in the game records get an anonymous name.

    The tables of this process that are in memory rename the seats at once; a table held by
    another process of a cluster shows the old name until it is read back from its log."""
    if not me.guest:
        password = body.password if body is not None else None
        if not password:
            raise ProtocolError("bad_credentials", "deleting an account asks for its password")
        await _check(request, me, password)
    name, renamed = await asyncio.to_thread(erase, identities(request).store, me.id, _rng)
    await _rename_in_memory(request, name, renamed)
    forget_cookie(request, response)
    return {"deleted": True, "name": name, "seats": len(renamed)}


async def _rename_in_memory(
    request: Request, name: str, renamed: list[tuple[str, int, str]]
) -> None:
    """Give the erased seats of this process's tables in memory their anonymous name (a
    seat somebody else has taken since keeps its name)."""
    tables: dict[str, Any] = request.app.state.registry.tables
    for code, seat, old in renamed:
        table = tables.get(code)
        seats = getattr(table, "seats", None)
        lock = getattr(table, "lock", None)
        if seats is None or lock is None or not 0 <= seat < len(seats):
            continue
        async with lock:
            if seats[seat].name == old:
                seats[seat].name = name
