"""Every message a seat, or a watcher, is told, built in one place from the table's state
and that seat's engine view (M-20, G-11), never from the engine state itself.

A view on the wire is the game's own (:meth:`hukum.game.GameSpec.view_to_dict`) with the
table's facts of the deal added: the game, the deal number, the match scores, the
commitment of the deal's seed, and the seed itself once the deal is over. A watcher (a
connection that holds no seat, docs/protocol.md "watchers") is told the same messages with
the public view of the deal instead (:meth:`hukum.game.GameSpec.public_view_to_dict`, no
card of any hand). The same code builds the messages told live and those replayed to a
reconnecting seat or watcher, so both say the same.

Whom a message is for is a :data:`Viewer`: a seat, or None for a watcher.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from hukum.server.tables.state import TableState

__all__ = [
    "WATCHER",
    "Viewer",
    "event_message",
    "event_messages",
    "presence",
    "presence_message",
    "public",
    "seat_view",
    "state_message",
    "watcher_event_message",
    "watcher_state_message",
    "watcher_view",
]

#: Whom a message is for: a seat (0 … n−1), or :data:`WATCHER`.
Viewer = int | None
#: A watcher: a connection that holds no seat and sees only what everybody may see.
WATCHER: Viewer = None


def public(state: TableState) -> dict[str, Any]:
    """The public table (no tokens, no cards)."""
    spec, config, match = state.spec, state.config, state.match
    return {
        "code": state.code,
        "game": spec.name,
        "rules": config.rules_dict,
        "preset": config.preset,
        "bots": config.bots,
        "turn_timeout": config.turn_timeout,
        "spectators": config.spectators,
        "hints": config.hints,
        "chat": config.chat,
        "pool": config.pool,
        "challenge": config.challenge,
        "status": state.status,
        "seats": [
            {
                "seat": i,
                "kind": s.kind,
                "name": s.name,
                "connected": s.connections > 0,
                "absent": s.absent,
                "ready": s.ready,
                "rematch": i in state.rematch_asked,
            }
            for i, s in enumerate(state.seats)
        ],
        "scores": list(match.scores) if match is not None else spec.no_scores(config.rules),
        "deal_number": len(match.deals) if match is not None else 0,
        "rematch": state.rematch_code,
        "event": state.event,
    }


def presence(state: TableState) -> list[bool]:
    """Whether each seat has a connection now (its ``"connected"`` flag)."""
    return [s.connections > 0 for s in state.seats]


def presence_message(state: TableState) -> dict[str, Any]:
    """The ``presence`` message: whether each seat is connected now, told to every
    connection of the table (seats and watchers alike: it holds no card and no token) when a
    seat connects or its last connection ends, between events."""
    return {"type": "presence", "event": state.event, "connected": presence(state)}


def _deal_facts(state: TableState) -> dict[str, Any] | None:
    """The table's facts of the latest deal that every view carries (None before the first
    deal): the deal number, the match scores, the commitment, the seed once it is over."""
    match, deal = state.match, state.deal
    if match is None or deal is None:
        return None
    # A daily challenge's seed stays secret until the day closes (its routes reveal it).
    over = deal.is_over() and state.config.challenge is None
    return {
        "deal_number": len(match.deals),
        "scores": list(match.scores),
        "commitment": state.commitments[-1],
        "seed": str(deal.seed) if over and deal.seed is not None else None,
    }


def seat_view(state: TableState, seat: int) -> dict[str, Any] | None:
    """One seat's view of the latest deal as JSON (None before the first deal): the only
    description of a deal any seat ever gets. The seed is shown once the deal is over."""
    facts, deal = _deal_facts(state), state.deal
    if facts is None or deal is None:
        return None
    return {"game": state.spec.name, **state.spec.view_to_dict(deal.view(seat)), **facts}


def watcher_view(state: TableState) -> dict[str, Any] | None:
    """A watcher's view of the latest deal as JSON (None before the first deal): the game's
    public view (no card of any hand, ``seat`` None) with the same facts as a seat's; the
    seed once the deal is over, when its cards are public."""
    facts, deal = _deal_facts(state), state.deal
    if facts is None or deal is None:
        return None
    return {"game": state.spec.name, **state.spec.public_view_to_dict(deal), **facts}


def _view(state: TableState, viewer: Viewer) -> dict[str, Any] | None:
    return watcher_view(state) if viewer is None else seat_view(state, viewer)


def view_message(
    kind: str,
    view: dict[str, Any] | None,
    *,
    event: int,
    table: dict[str, Any],
    seat: int | None = None,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Every message to one seat: ``state`` (full resync) or an ``event`` of some kind.

    ``view`` is the receiving seat's own view as it goes on the wire
    (:func:`seat_view`; None before the first deal); ``extra``
    holds the public facts of the event (the move as the seat may see it, the commitment,
    the outcome and revealed seed).
    """
    if kind == "state":
        return {"type": "state", "event": event, "table": table, "view": view}
    message: dict[str, Any] = {"type": "event", "event": event, "kind": kind, "seat": seat}
    if extra:
        message.update(extra)
    message["table"] = table
    message["view"] = view
    return message


def state_message(state: TableState, seat: Viewer) -> dict[str, Any]:
    """A ``state`` message: the whole table as ``seat`` (or a watcher) may see it (a
    resync)."""
    return view_message("state", _view(state, seat), event=state.event, table=public(state))


def watcher_state_message(state: TableState) -> dict[str, Any]:
    """A watcher's ``state`` message (a resync): the public table and the public view."""
    return state_message(state, WATCHER)


def _facts(
    state: TableState, seat: Viewer, kind: str, data: dict[str, Any], move: object | None
) -> dict[str, Any]:
    """The public facts an event message carries besides the view (after the event)."""
    if kind == "move":
        return {"move": state.spec.move_text(move, data["seat"], seat)}
    if kind == "deal":
        return {"commitment": data["commitment"], "dealer": data["dealer"]}
    if kind == "deal_over":
        seed = str(data["seed"]) if state.config.challenge is None else None
        return {"seed": seed, "commitment": state.commitments[-1]}
    if kind == "match_over":
        return dict(data)  # the scores and the winner(s)
    if kind == "rematched":
        return {"rematch": data["code"]}
    if kind == "said":  # a quick phrase's key or a free line (shown as text), never more
        return {k: data[k] for k in ("phrase", "text") if k in data}
    return {}


def event_message(
    state: TableState,
    seat: Viewer,
    kind: str,
    data: dict[str, Any],
    move: object | None = None,
    table: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The message that tells ``seat`` (None: a watcher) about the event just applied
    (``move``: a ``move`` event's move, as :meth:`TableState.apply` read it; ``table``: the
    public table, if already built)."""
    return view_message(
        kind,
        _view(state, seat),
        event=state.event,
        table=public(state) if table is None else table,
        seat=data.get("seat"),
        extra=_facts(state, seat, kind, data, move),
    )


def watcher_event_message(
    state: TableState,
    kind: str,
    data: dict[str, Any],
    move: object | None = None,
    table: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The message that tells a watcher about the event just applied: a seat's message
    with the public view, another seat's ``hide`` move reading ``hide ??``."""
    return event_message(state, WATCHER, kind, data, move, table)


def event_messages(
    state: TableState, seats: Iterable[Viewer], kind: str, data: dict[str, Any], move: object | None
) -> dict[Viewer, dict[str, Any]]:
    """The message about the event just applied for each of ``seats`` (None: the
    watchers): the public table built once, each seat's message once however many
    connections it has, the watchers' once for all of them."""
    table = public(state)
    return {seat: event_message(state, seat, kind, data, move, table) for seat in set(seats)}
