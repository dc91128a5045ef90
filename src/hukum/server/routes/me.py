"""The player themselves: ``GET /api/me`` (who am I), ``POST /api/me/guest`` (a first visit
becomes a guest, with no form) and ``PATCH /api/me`` (display name, preferences)."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import update

from hukum.online.names import display_name
from hukum.server.deps import client_address, get_throttle
from hukum.server.identity.models import Player
from hukum.server.identity.sessions import (
    CurrentPlayer,
    RequiredPlayer,
    current_player,
    identities,
    set_cookie,
)
from hukum.server.protocol import ProtocolError

router = APIRouter(prefix="/api/me")


class Prefs(BaseModel):
    """A player's preferences, kept with the identity (a guest's too), so that they follow
    the player to a reload and to another device. Every field is optional: a ``PATCH``
    changes the fields it names."""

    model_config = ConfigDict(extra="forbid")
    lang: Literal["en", "hi", "pa"] | None = None
    """The page's language."""
    cards: Literal["two", "four"] | None = None
    """Suit colours: two (red and black) or four (♠ black, ♥ red, ♦ blue, ♣ green)."""
    contrast: Literal["normal", "high"] | None = None
    temperature: Literal["neutral", "warm", "cool"] | None = None
    """The colour temperature of the table (Cardavia's display settings)."""
    motion: Literal["system", "reduce", "full"] | None = None
    """Animations: as the system says, reduced, or full."""
    sound: bool | None = None
    """Short sounds for your turn and a trick won."""
    bot_speed: Literal["slow", "normal", "fast"] | None = None
    """How quickly the computer players play at the tables this player makes."""


class MeUpdate(BaseModel):
    """``PATCH /api/me``."""

    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, Field(max_length=200)] | None = None
    prefs: Prefs | None = None


@router.get("")
def me(player: CurrentPlayer) -> dict[str, Any]:
    """Who the request's session belongs to (``{"player": null}`` without one)."""
    return {"player": None if player is None else player.json()}


@router.post("/guest")
async def guest(request: Request, response: Response, current: CurrentPlayer) -> dict[str, Any]:
    """Become a guest (the page does it on a first visit); an existing session is kept.
    One address may make only so many guests an hour (``too_many_requests``)."""
    if current is not None:
        return {"player": current.json()}
    await get_throttle(request).take(("guest", client_address(request)))
    agent = request.headers.get("user-agent", "")
    player, token = await asyncio.to_thread(identities(request).new_guest, agent)
    set_cookie(request, response, token)
    return {"player": player.json()}


@router.patch("")
def change(body: MeUpdate, request: Request, player: RequiredPlayer) -> dict[str, Any]:
    """Change the display name and/or preferences."""
    values: dict[str, Any] = {}
    if body.name is not None:
        name = display_name(body.name)
        if not name:
            raise ProtocolError("bad_name", "a display name needs at least one letter")
        values["name"] = name
    if body.prefs is not None:
        values["prefs"] = {**player.prefs, **body.prefs.model_dump(exclude_none=True)}
    if values:
        with identities(request).store.session() as s:
            s.execute(update(Player).where(Player.id == player.id).values(**values))
            s.commit()
    updated = current_player(request)
    assert updated is not None
    return {"player": updated.json()}
