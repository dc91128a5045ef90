"""The games a table can host, behind one interface: the table, the lobby and the protocol
call a :class:`Game` and never an engine directly.

Each game says how its rules are made and stored, how a match starts, how a move is read
and checked, and what one seat's view looks like on the wire (built from the engine's
per-seat view and nothing else).

>>> game = GAMES["mindi"]
>>> rules = game.make_rules("classic", {})
>>> match = game.new_match(rules, seed=1)
>>> deal = match.start_deal(seed=2)
>>> view = game.view_json(deal.view(0), DealInfo(1, (0, 0), None, 2))
>>> view["game"], len(view["hand"]), view["seed"]  # the seed stays hidden until the end
('mindi', 13, None)
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar, NamedTuple

from hukum import records
from hukum.bots import Bot, make_bot
from hukum.mindi import (
    PRESETS,
    IllegalMoveError,
    InvalidMoveError,
    Match,
    Move,
    MoveKind,
    Rules,
    RulesError,
    View,
)
from hukum.mindi.trick import Played, Trick
from hukum.server.protocol import ProtocolError

__all__ = ["GAMES", "DealInfo", "Game", "MindiGame", "check_bots", "game_named"]


class DealInfo(NamedTuple):
    """The facts of the current deal a view needs besides the engine's view."""

    number: int
    """Deal number in the match, from 1."""
    scores: tuple[int, ...]
    """Match points so far (per team in Mindi)."""
    commitment: str | None
    """The published commitment of the deal's seed."""
    seed: int | None
    """The deal's seed (put in a message only once the deal is over)."""


class Game(ABC):
    """One game's rules engine as the server uses it."""

    name: ClassVar[str]
    #: The bots a room of this game may seat.
    bots: ClassVar[tuple[str, ...]]

    @abstractmethod
    def make_rules(self, preset: str, options: dict[str, Any]) -> Any:
        """The rules of a new room from a preset and options, or the ``bad_rules`` error."""

    @abstractmethod
    def rules_to_dict(self, rules: Any) -> dict[str, Any]:
        """The rules as JSON."""

    @abstractmethod
    def rules_from_dict(self, data: dict[str, Any]) -> Any:
        """Rules from :meth:`rules_to_dict`."""

    @abstractmethod
    def players(self, rules: Any) -> int:
        """How many seats a table of these rules has."""

    @abstractmethod
    def new_match(self, rules: Any, seed: int) -> Any:
        """A new match: ``start_deal(seed=)``, ``deals``, ``current``, ``dealer``,
        ``scores``, ``is_over()``, ``winner()``; its deals have ``turn``, ``trick``,
        ``seed``, ``view(seat)``, ``check(move, seat=)``, ``push(move, seat=)``,
        ``is_over()`` and ``outcome()``."""

    @abstractmethod
    def no_scores(self, rules: Any) -> list[int]:
        """The match scores before anything is won."""

    @abstractmethod
    def parse_move(self, text: str) -> Any:
        """A move from its text, or the ``invalid_move`` error."""

    @abstractmethod
    def check(self, deal: Any, move: Any, seat: int) -> None:
        """Nothing if ``seat`` may make ``move`` now, else the ``illegal_move`` error."""

    @abstractmethod
    def move_text(self, view: Any, seat: int, move: Any) -> str:
        """``seat``'s move as the view's seat may see it."""

    @abstractmethod
    def deal_over(self, deal: Any) -> dict[str, Any]:
        """The ``deal_over`` event's data about the result (besides the seed)."""

    @abstractmethod
    def view_json(self, view: Any, info: DealInfo) -> dict[str, Any]:
        """One seat's view as JSON: the only description of a deal any client ever gets.
        The seed is shown only once the deal is over, whatever ``info`` holds."""

    @abstractmethod
    def record(self, match: Any) -> dict[str, Any]:
        """The match's record (:mod:`hukum.records`)."""

    def make_bot(self, name: str, seed: int) -> Bot:
        """A computer player for a seat."""
        return make_bot(name, seed=seed)


def _played(p: Played) -> dict[str, Any]:
    return {"seat": p.seat, "card": p.card.code, "trump": p.trump}


def _trick(t: Trick) -> dict[str, Any]:
    return {"leader": t.leader, "plays": [_played(p) for p in t.plays], "winner": t.winner}


def _outcome(view: View) -> dict[str, Any] | None:
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


class MindiGame(Game):
    """Mindi (:mod:`hukum.mindi`)."""

    name = "mindi"
    bots = ("random", "rules", "search")

    def make_rules(self, preset: str, options: dict[str, Any]) -> Rules:
        """The rules of a new room from a preset and options, or the ``bad_rules`` error."""
        if preset not in PRESETS:
            raise ProtocolError(
                "bad_rules", f"no preset {preset!r}; choose one of " + ", ".join(PRESETS)
            )
        try:
            return Rules.from_dict({**PRESETS[preset].to_dict(), **options})
        except (RulesError, TypeError, ValueError) as e:
            raise ProtocolError("bad_rules", str(e)) from None

    def rules_to_dict(self, rules: Rules) -> dict[str, Any]:
        """The rules as JSON."""
        return rules.to_dict()

    def rules_from_dict(self, data: dict[str, Any]) -> Rules:
        """Rules from :meth:`rules_to_dict`."""
        return Rules.from_dict(data)

    def players(self, rules: Rules) -> int:
        """How many seats a table of these rules has."""
        return rules.players

    def new_match(self, rules: Rules, seed: int) -> Match:
        """A new match."""
        return Match(rules, seed)

    def no_scores(self, rules: Rules) -> list[int]:
        """Match points per team before anything is won."""
        return [0, 0]

    def parse_move(self, text: str) -> Move:
        """A move from its text, or the ``invalid_move`` error."""
        try:
            return Move.parse(text)
        except InvalidMoveError as e:
            raise ProtocolError("invalid_move", str(e)) from None

    def check(self, deal: Any, move: Move, seat: int) -> None:
        """Nothing if ``seat`` may make ``move`` now, else the ``illegal_move`` error."""
        try:
            deal.check(move, seat=seat)
        except IllegalMoveError as e:
            raise ProtocolError("illegal_move", str(e)) from None

    def move_text(self, view: View, seat: int, move: Move) -> str:
        """A move as the view's seat may see it: another seat's face-down card is ``hide ??``."""
        if move.kind is MoveKind.HIDE and seat != view.seat:
            return str(Move.HIDDEN)
        return str(move)

    def deal_over(self, deal: Any) -> dict[str, Any]:
        """The winning team and its points."""
        outcome = deal.outcome()
        assert outcome is not None
        return {"winner": outcome.winner, "points": outcome.points}

    def view_json(self, view: View, info: DealInfo) -> dict[str, Any]:
        """One seat's Mindi view as JSON (M-20)."""
        reveal = view.reveal
        over = view.outcome is not None
        return {
            "game": self.name,
            "seat": view.seat,
            "dealer": view.dealer,
            "deal_number": info.number,
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
            "scores": list(info.scores),
            "target": view.rules.target,
            "deals": view.rules.deals,
            "commitment": info.commitment,
            "outcome": _outcome(view),
            "seed": str(info.seed) if over and info.seed is not None else None,
        }

    def record(self, match: Match) -> dict[str, Any]:
        """The match's record."""
        return records.to_dict(match)


#: Every game a table can host, by name.
GAMES: dict[str, Game] = {game.name: game for game in (MindiGame(),)}


def game_named(name: str) -> Game:
    """The game of this name, or the ``bad_request`` error."""
    game = GAMES.get(name)
    if game is None:
        raise ProtocolError("bad_request", f"no game {name!r}; choose one of " + ", ".join(GAMES))
    return game


def check_bots(game: Game, bots: str) -> str:
    """``bots`` if the game has such a bot, else the ``bad_request`` error."""
    if bots not in game.bots:
        raise ProtocolError(
            "bad_request", f"no {game.name} bot {bots!r}; choose one of " + ", ".join(game.bots)
        )
    return bots
