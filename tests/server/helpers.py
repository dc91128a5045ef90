"""A scripted player for server tests: feed it every message, send what it answers; and a
seat's socket, its token sent in the first message (the hello)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from hukum import ganjifa
from hukum.mindi import Rules, deal_hands

CARD = re.compile(r"^(10|[2-9JQKA])[CDHS]$")
GANJIFA_CARD = re.compile(r"^(Ma|Ku|Vr|Na|Vm|Pa|Ra|Kr|Bu|Ka)(10|[1-9]|M|R)$")


def hello(token: str | None, last: Any = None, *, watch: bool = False) -> dict[str, Any]:
    """A socket's first message (docs/protocol.md): the seat's token, never in the URL, or
    a watcher's ``"watch": true``; ``last``, if given, the last event seen."""
    message: dict[str, Any] = {"type": "hello"}
    message.update({"watch": True} if watch else {"token": token})
    if last is not None:
        message["last"] = last
    return message


@contextmanager
def seat_socket(
    client: TestClient,
    code: str,
    token: str | None,
    last: Any = None,
    query: str = "",
    *,
    watch: bool = False,
) -> Iterator[WebSocketTestSession]:
    """A TestClient socket to table ``code`` as the seat ``token`` holds (or a watcher's):
    ``/ws/<code>`` (then ``query``, e.g. ``?last=4``), its hello sent."""
    with client.websocket_connect(f"/ws/{code}{query}") as ws:
        ws.send_json(hello(token, last, watch=watch))
        yield ws


class Player:
    """Plays the first legal move (or ``choose``) and says ready between deals."""

    def __init__(self, choose: Callable[[dict[str, Any]], str] | None = None) -> None:
        self.choose = choose or (lambda view: view["legal"][0])
        self.latest: dict[str, Any] | None = None
        self.pending = False
        self.decided = -1
        self.ref = 0
        self.log: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.deals_over = 0
        self.moves = 0
        self.match_over = False
        self.limit: int | None = None
        """Stop making moves after this many."""

    def feed(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        """Take one message from the server; the messages to send back."""
        self.log.append(message)
        kind = message["type"]
        if kind in ("state", "event"):
            self.latest = message
            if message.get("kind") == "deal_over":
                self.deals_over += 1
            if message.get("kind") == "match_over" or message["table"]["status"] == "over":
                self.match_over = True
        elif kind in ("ack", "error"):
            if kind == "error":
                self.errors.append(message)
            self.pending = False
        return self.decide()

    def decide(self) -> list[dict[str, Any]]:
        latest = self.latest
        if self.pending or latest is None or latest["event"] <= self.decided:
            return []
        view, table = latest["view"], latest["table"]
        if table["status"] != "playing" or view is None:
            return []
        out: dict[str, Any]
        if view["outcome"] is not None:
            if table["seats"][view["seat"]]["ready"]:
                return []
            out = {"type": "next_deal"}
        elif view["turn"] == view["seat"] and (view["legal"] or view.get("need")):
            if self.limit is not None and self.moves >= self.limit:
                return []
            out = {"type": "move", "move": self.choose(view)}
            self.moves += 1
        else:
            return []
        self.decided = latest["event"]
        self.pending = True
        self.ref += 1
        out["ref"] = self.ref
        return [out]


def strings(value: Any) -> Iterator[tuple[str, str]]:
    """Every (key, string) inside a JSON value."""
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        key, v = stack.pop()
        if isinstance(v, dict):
            stack.extend(v.items())
        elif isinstance(v, list):
            stack.extend((key, x) for x in v)
        elif isinstance(v, str):
            yield key, v


def shown_in(message: dict[str, Any]) -> set[str]:
    """The cards a message's view shows everyone besides the move it tells: the cards of the
    trick and the last trick in a resync (played before it), a card shown (the cut), and the
    revealed face-down trump."""
    v = message.get("view") or {}
    shown: set[str] = set()
    if message["type"] == "state":
        for p in [*(v.get("trick") or []), *(v.get("last_trick") or {}).get("plays", [])]:
            shown.update(p.get("cards") or [p["card"]])
    if v.get("shown_card"):
        shown.add(v["shown_card"])
    if v.get("reveal"):
        shown.add(v["reveal"]["card"])
    return shown


def check_no_leaks(log: list[dict[str, Any]], seat: int) -> int:
    """Check every message one seat received: no card of another hand before it is played
    or shown, no seed before the deal is over, no deck order. The number of deals checked."""
    deals: dict[int, list[dict[str, Any]]] = {}
    for message in log:
        for key in ("hands", "deck", "dealt", "match_seed", "token"):
            assert key not in str(list(message)), message
        view = message.get("view")
        if view is not None:
            deals.setdefault(view["deal_number"], []).append(message)
    checked = 0
    for messages in deals.values():
        over = [m for m in messages if m.get("kind") == "deal_over"]
        if not over:
            for m in messages:
                view = m.get("view")
                assert view is None or view["seed"] is None
                assert m.get("seed") is None
            continue
        end = over[0]
        view = end["view"]
        if end["table"].get("game") == "ganjifa":
            card = GANJIFA_CARD
            dealt = ganjifa.deal_hands(view["dealer"], int(end["seed"]))
            own = {c.code for c in dealt[seat]}
        else:
            card = CARD
            rules = Rules.from_dict(end["table"]["rules"])
            hands, _ = deal_hands(rules, view["dealer"], int(end["seed"]))
            own = {c.code for c in hands[seat]}
        public: set[str] = set()
        for m in messages:
            if m is end or (m.get("view") or {}).get("outcome") is not None:
                break  # the deal is over: the seed may be shown
            if m.get("seed") is not None or (m.get("view") or {}).get("seed") is not None:
                raise AssertionError(f"seed before the deal ended: {m}")
            if m.get("kind") == "move":
                words = m["move"].split()
                # Mindi: the card of a play (a face-down ``hide`` is only ever one's own);
                # Ganjifa: every card of a play, a Dukal or an answer is shown.
                public.update(w for w in words[-1:] if card.match(w))
                if card is GANJIFA_CARD:
                    public.update(w for w in words if card.match(w))
            public.update(shown_in(m))
            for key, text in strings(m):
                for word in text.split():
                    if card.match(word) and key not in ("name",):
                        assert word in own or word in public, (word, key, m)
        checked += 1
    return checked
