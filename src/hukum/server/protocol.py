"""The wire protocol (docs/protocol.md): client messages checked, and every message to a
seat built here, from that seat's :class:`~hukum.mindi.View` and nothing else (M-20)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, NamedTuple

from hukum.mindi import Move, MoveKind, View
from hukum.mindi.trick import Played, Trick

__all__ = [
    "ClientMessage",
    "DealInfo",
    "ProtocolError",
    "error_body",
    "parse_client_message",
    "view_json",
    "view_message",
]

CLIENT_TYPES = ("move", "next_deal", "take_back", "ping")


class ProtocolError(Exception):
    """A refused request: a stable ``code`` and a message for people."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


def error_body(code: str, message: str) -> dict[str, Any]:
    """The shape of every error: ``{"error": {"code", "message"}}``."""
    return {"error": {"code": code, "message": message}}


@dataclass(frozen=True)
class ClientMessage:
    """A checked client message."""

    type: str
    ref: int | str | None = None
    move: str | None = None
    seat: int | None = None


def parse_client_message(text: str | bytes) -> tuple[ClientMessage | None, ProtocolError | None]:
    """Parse one WebSocket text frame: the message, or the error to send back."""
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError):
        return None, ProtocolError("bad_json", "the message is not JSON")
    if not isinstance(data, dict):
        return None, ProtocolError("bad_message", "a message is a JSON object")
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        return None, ProtocolError("bad_message", "type must be one of " + ", ".join(CLIENT_TYPES))
    ref = data.get("ref")
    if ref is not None and (isinstance(ref, bool) or not isinstance(ref, int | str)):
        return None, ProtocolError("bad_message", "ref must be a number or a string")
    if isinstance(ref, str) and len(ref) > 64:
        return None, ProtocolError("bad_message", "ref is at most 64 characters")
    seat = data.get("seat")
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
        return None, ProtocolError("bad_message", "seat must be a whole number")
    move = data.get("move")
    if kind == "move":
        if not isinstance(move, str) or not move.strip() or len(move) > 32:
            return None, ProtocolError(
                "bad_message", 'a move message needs "move": a move in engine notation'
            )
    else:
        move = None
    return ClientMessage(kind, ref, move, seat), None


def error_message(error: ProtocolError, ref: int | str | None) -> dict[str, Any]:
    """A WebSocket error message."""
    return {"type": "error", "ref": ref, **error_body(error.code, error.message)}


def _played(p: Played) -> dict[str, Any]:
    return {"seat": p.seat, "card": p.card.code, "trump": p.trump}


def _trick(t: Trick) -> dict[str, Any]:
    return {"leader": t.leader, "plays": [_played(p) for p in t.plays], "winner": t.winner}


def outcome_json(view: View) -> dict[str, Any] | None:
    """The outcome of the view's deal, if it is over."""
    o = view.outcome
    if o is None:
        return None
    return {
        "winner": o.winner,
        "kind": o.kind,
        "tens": list(o.tens),
        "tricks": list(o.tricks),
        "decided_by": o.decided_by,
        "highest_trick": o.highest_trick,
        "points": o.points,
        "text": o.describe(),
    }


def move_text(view: View, seat: int, move: Move) -> str:
    """A move as the view's seat may see it: another seat's face-down card is ``hide ??``."""
    if move.kind is MoveKind.HIDE and seat != view.seat:
        return str(Move.HIDDEN)
    return str(move)


def view_json(
    view: View,
    *,
    deal_number: int,
    scores: tuple[int, int],
    commitment: str | None,
    seed: int | None,
) -> dict[str, Any]:
    """One seat's view as JSON: the only description of a deal any client ever gets.

    ``seed`` is shown only once the deal is over, whatever the caller passes.
    """
    reveal = view.reveal
    over = view.outcome is not None
    return {
        "seat": view.seat,
        "dealer": view.dealer,
        "deal_number": deal_number,
        "phase": view.phase,
        "turn": view.turn,
        "hand": view.hand.codes(),
        "legal": [str(m) for m in view.legal_moves],
        "face_down": view.face_down.code if view.face_down is not None else None,
        "chooser": view.chooser,
        "face_down_placed": any(m.kind is MoveKind.HIDE for _, m in view.history),
        "trump": view.trump.letter if view.trump is not None else None,
        "trump_known": view.trump_known,
        "shown_card": view.shown_card.code if view.shown_card is not None else None,
        "reveal": None
        if reveal is None
        else {
            "seat": reveal.seat,
            "trick": reveal.trick,
            "asked": reveal.asked,
            "card": reveal.card.code,
        },
        "trick": [_played(p) for p in view.trick],
        "last_trick": _trick(view.tricks[-1]) if view.tricks else None,
        "tricks_played": len(view.tricks),
        "hand_sizes": list(view.hand_sizes),
        "tricks_won": list(view.tricks_won),
        "tens": [view.tens[0].codes(), view.tens[1].codes()],
        "pile": view.pile.codes(),
        "scores": list(scores),
        "target": view.rules.target,
        "deals": view.rules.deals,
        "commitment": commitment,
        "outcome": outcome_json(view),
        "seed": str(seed) if over and seed is not None else None,
    }


class DealInfo(NamedTuple):
    """The facts of the current deal a view needs besides the engine's :class:`View`."""

    number: int
    """Deal number in the match, from 1."""
    scores: tuple[int, int]
    """Match points so far."""
    commitment: str | None
    """The published commitment of the deal's seed."""
    seed: int | None
    """The deal's seed (put in a message only once the deal is over)."""


def view_message(
    kind: str,
    view: View | None,
    info: DealInfo | None,
    *,
    event: int,
    table: dict[str, Any],
    seat: int | None = None,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Every message to one seat: ``state`` (full resync) or an ``event`` of some kind.

    ``view`` is the receiving seat's own engine view (None before the first deal); ``extra``
    holds the public facts of the event (the move as the seat may see it, the commitment,
    the outcome and revealed seed).
    """
    body = None
    if view is not None and info is not None:
        body = view_json(
            view,
            deal_number=info.number,
            scores=info.scores,
            commitment=info.commitment,
            seed=info.seed,
        )
    if kind == "state":
        return {"type": "state", "event": event, "table": table, "view": body}
    message: dict[str, Any] = {"type": "event", "event": event, "kind": kind, "seat": seat}
    if extra:
        message.update(extra)
    message["table"] = table
    message["view"] = body
    return message
