"""What a table is at one event, and how one stored event changes it.

A table's state is rebuilt by replaying its event log through :meth:`TableState.apply`,
the same code that changes it live; the table (:mod:`hukum.server.tables.actor`) and the
replay of missed events for a reconnecting seat both build on it. The game is known only
at run time, so the match and deal are typed with the protocols of :mod:`hukum.game`
(their moves are opaque ``object``\\ s: the server parses, pushes and shows them only
through the game's spec).
"""

from __future__ import annotations

from typing import Any

from hukum.game import AnyGame, Deal, Match
from hukum.server.tables.config import TableConfig
from hukum.server.tables.seats import Seat, holder

__all__ = ["TableDeal", "TableMatch", "TableState"]


#: A deal of the table's game, whose moves only the game's spec reads and shows.
TableDeal = Deal[Any, Any]
#: A match of the table's game.
TableMatch = Match[Any, TableDeal]


class TableState:
    """One room at one event: its seats, status, match and the commitments of its deals."""

    def __init__(self, code: str, config: TableConfig) -> None:
        self.code = code
        self.config = config
        self.spec: AnyGame = config.spec
        self.seats = [Seat() for _ in range(self.spec.players(config.rules))]
        self.event = 0
        """The number of the last event applied."""
        self.step = 0
        """The number of the last event that changed the play (any but a ``said``): a bot's
        move or a timer planned at an older step is stale, one planned before talk is not."""
        self.turn_event = 0
        """The event since which the seat to move has been to move (the last move, deal or
        start): a person's move chosen before it answers a turn that has passed."""
        self.status = "waiting"
        """``waiting``, ``playing`` or ``over``."""
        self.match: TableMatch | None = None
        self.commitments: list[str] = []
        """The published commitment of each deal's seed, in order."""
        self.rematch_asked: set[int] = set()
        """The seats whose player asked for a rematch, once the match is over."""
        self.rematch_code: str | None = None
        """The code of the rematch's table, once every person asked for it."""

    @property
    def deal(self) -> TableDeal | None:
        """The latest deal (in progress or just over)."""
        if self.match is None or not self.match.deals:
            return None
        return self.match.deals[-1]

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token holds, or None."""
        return holder(self.seats, token)

    def present(self) -> bool:
        """Whether any person seated at the table is connected."""
        return any(s.kind == "human" and s.connections > 0 for s in self.seats)

    def rematch_waiting(self) -> list[int]:
        """The seats of the people who have not asked for a rematch (bots agree by
        themselves)."""
        return [
            i for i, s in enumerate(self.seats) if s.kind == "human" and i not in self.rematch_asked
        ]

    def apply(self, number: int, kind: str, data: dict[str, Any]) -> object | None:
        """Change the state by stored event ``number``; a ``move`` event's move (read once
        from its text), else None."""
        self.event = number
        if kind != "said":
            self.step = number
        if kind in ("start", "deal", "move"):
            self.turn_event = number
        seat = data.get("seat")
        if kind == "seat":
            assert isinstance(seat, int)
            s = self.seats[seat]
            s.kind, s.name, s.token_hash = data["kind"], data.get("name", ""), data.get("token")
            s.absent = s.ready = False
        elif kind == "start":
            self.match = self.spec.new_match(self.config.rules, data["match_seed"])
            self.status = "playing"
        elif kind == "deal":
            assert self.match is not None
            self.match.start_deal(seed=data["seed"])
            self.commitments.append(data["commitment"])
            for s in self.seats:
                s.ready = False
        elif kind == "move":
            deal = self.deal
            assert deal is not None and isinstance(seat, int)
            move: object = self.spec.parse_move(data["move"])
            deal.push(move, seat=seat)
            return move
        elif kind == "match_over":
            self.status = "over"
        elif kind == "rematch":
            assert isinstance(seat, int)
            self.rematch_asked.add(seat)
        elif kind == "rematched":
            self.rematch_code = data["code"]
        elif kind in ("absent", "back", "ready"):
            assert isinstance(seat, int)
            if kind == "ready":
                self.seats[seat].ready = True
            else:
                self.seats[seat].absent = kind == "absent"
        # "deal_over" only marks the end of a deal; the move before it ended it.
        return None
