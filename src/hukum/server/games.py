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

from hukum import ganjifa, records
from hukum.bots import make_bot
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

__all__ = ["GAMES", "DealInfo", "Game", "GanjifaGame", "MindiGame", "check_bots", "game_named"]


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
    #: The preset of a room that names none.
    default_preset: ClassVar[str]

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
    def match_over(self, match: Any) -> dict[str, Any]:
        """The ``match_over`` event's data: the scores and who won."""

    @abstractmethod
    def view_json(self, view: Any, info: DealInfo) -> dict[str, Any]:
        """One seat's view as JSON: the only description of a deal any client ever gets.
        The seed is shown only once the deal is over, whatever ``info`` holds."""

    @abstractmethod
    def record(self, match: Any) -> dict[str, Any]:
        """The match's record (:mod:`hukum.records`)."""

    @abstractmethod
    def make_bot(self, name: str, seed: int) -> Any:
        """A computer player for a seat: ``choose(view)`` returns its move."""


def _header(game: Game, view: Any, info: DealInfo) -> dict[str, Any]:
    """The first fields of every view: game, seat, dealer, deal number, phase, turn."""
    return {
        "game": game.name,
        "seat": view.seat,
        "dealer": view.dealer,
        "deal_number": info.number,
        "phase": view.phase,
        "turn": view.turn,
    }


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
    bots = ("random", "rules", "search", "expert")
    default_preset = "classic"

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

    def match_over(self, match: Match) -> dict[str, Any]:
        """The match points per team and the winning team (None when level)."""
        return {"scores": list(match.scores), "winner": match.winner()}

    def view_json(self, view: View, info: DealInfo) -> dict[str, Any]:
        """One seat's Mindi view as JSON (M-20)."""
        reveal = view.reveal
        over = view.outcome is not None
        return {
            **_header(self, view, info),
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

    def make_bot(self, name: str, seed: int) -> Any:
        """A Mindi bot (:mod:`hukum.bots`)."""
        return make_bot(name, seed=seed)


def _ganjifa_move(seat: int, move: ganjifa.Move) -> dict[str, Any]:
    return {"seat": seat, "move": str(move), "cards": move.cards.codes}


class GanjifaGame(Game):
    """Dashavatara Ganjifa (:mod:`hukum.ganjifa`): three players, one deal a match by
    default (as on Cardavia); the only preset is ``cardavia``, the defaults."""

    name = "ganjifa"
    bots = ("random", "rules", "search")
    default_preset = "cardavia"

    def make_rules(self, preset: str, options: dict[str, Any]) -> ganjifa.Rules:
        """The rules of a new room (``options``: ``time``, ``void_rule``, ``dukal``,
        ``deals``), or the ``bad_rules`` error."""
        if preset != "cardavia":
            raise ProtocolError(
                "bad_rules", f"no Ganjifa preset {preset!r}; the only one is 'cardavia'"
            )
        try:
            return ganjifa.Rules.from_dict(options)
        except (ganjifa.RulesError, TypeError, ValueError) as e:
            raise ProtocolError("bad_rules", str(e)) from None

    def rules_to_dict(self, rules: ganjifa.Rules) -> dict[str, Any]:
        """The rules as JSON."""
        return rules.to_dict()

    def rules_from_dict(self, data: dict[str, Any]) -> ganjifa.Rules:
        """Rules from :meth:`rules_to_dict`."""
        return ganjifa.Rules.from_dict(data)

    def players(self, rules: ganjifa.Rules) -> int:
        """Three (G-1)."""
        return ganjifa.PLAYERS

    def new_match(self, rules: ganjifa.Rules, seed: int) -> ganjifa.Match:
        """A new match."""
        return ganjifa.Match(rules, seed)

    def no_scores(self, rules: ganjifa.Rules) -> list[int]:
        """Captured cards per seat before anything is captured."""
        return [0] * ganjifa.PLAYERS

    def parse_move(self, text: str) -> ganjifa.Move:
        """A move from its text, or the ``invalid_move`` error."""
        try:
            return ganjifa.Move.parse(text)
        except ganjifa.InvalidMoveError as e:
            raise ProtocolError("invalid_move", str(e)) from None

    def check(self, deal: Any, move: ganjifa.Move, seat: int) -> None:
        """Nothing if ``seat`` may make ``move`` now, else the ``illegal_move`` error."""
        try:
            deal.check(move, seat=seat)
        except ganjifa.IllegalMoveError as e:
            raise ProtocolError("illegal_move", str(e)) from None

    def move_text(self, view: ganjifa.View, seat: int, move: ganjifa.Move) -> str:
        """Every Ganjifa move is played face up (G-11)."""
        return str(move)

    def deal_over(self, deal: Any) -> dict[str, Any]:
        """The winners (several share a win) and the scores."""
        outcome = deal.outcome()
        assert outcome is not None
        return {"winners": list(outcome.winners), "scores": list(outcome.scores)}

    def match_over(self, match: ganjifa.Match) -> dict[str, Any]:
        """The captured cards per seat over the match and the winners (ties share)."""
        return {"scores": list(match.scores), "winners": list(match.winners())}

    def view_json(self, view: ganjifa.View, info: DealInfo) -> dict[str, Any]:
        """One seat's Ganjifa view as JSON (G-11). To answer a Dukal the seat gives any
        ``need`` cards of ``allowed``; the answers are not listed in ``legal``."""
        over = view.outcome is not None
        answering = view.phase == "answer"
        last = view.tricks[-1] if view.tricks else None
        outcome = view.outcome
        return {
            **_header(self, view, info),
            "need": view.need if view.my_turn else 0,
            "hand": view.hand.codes,
            "legal": [] if answering else [str(m) for m in view.legal_moves],
            "allowed": view.allowed.codes,
            "trump": view.trump.code,
            "time": view.rules.time,
            "dukal": view.dukal,
            "trick": [_ganjifa_move(s, m) for s, m in view.trick],
            "last_trick": None
            if last is None
            else {
                "leader": last.leader,
                "plays": [_ganjifa_move(s, m) for s, m in last.plays],
                "winner": last.winner,
            },
            "tricks_played": len(view.tricks),
            "hand_sizes": list(view.hand_sizes),
            "captured": list(view.scores),
            "voids": [sorted(s.code for s in v) for v in view.voids],
            "scores": list(info.scores),
            "deals": view.rules.deals,
            "commitment": info.commitment,
            "outcome": None
            if outcome is None
            else {
                "scores": list(outcome.scores),
                "winners": list(outcome.winners),
                "text": outcome.describe(),
            },
            "seed": str(info.seed) if over and info.seed is not None else None,
        }

    def record(self, match: ganjifa.Match) -> dict[str, Any]:
        """The match's record."""
        return records.to_dict(match)

    def make_bot(self, name: str, seed: int) -> Any:
        """A Ganjifa bot (:mod:`hukum.bots.ganjifa`)."""
        from hukum.bots.ganjifa import make_bot as make_ganjifa_bot

        return make_ganjifa_bot(name, seed=seed)


#: Every game a table can host, by name.
GAMES: dict[str, Game] = {game.name: game for game in (MindiGame(), GanjifaGame())}


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
