"""High Card, a two-player trick game used only by the tests: the worked example of
docs/architecture.md ("How to add a game"). Its GameSpec writes the core only, and one
facet to show how (records); registered, it is played by the referee loop and gets rooms
at the server with no other file touched, and everything it does not offer (the arena,
replays, hints, analysis, learning, the terminal) is refused as not offered.

Ten cards numbered 1 to 10; each player gets five. The leader plays any card, the other
player any card; the higher card wins the trick and leads the next. The player with more
tricks wins (5 tricks, so no tie). A match is ``deals`` deals; the dealer alternates.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hukum.bots.base import Bot, BotError, RandomBot, check_turn
from hukum.game import (
    GameSpec,
    IllegalMoveError,
    InvalidMoveError,
    RecordsFacet,
    RulesError,
    option,
)
from hukum.recordfile import FORMAT, VERSION, RecordError, as_int, check_header, describe

NAME = "highcard"
CARDS = range(1, 11)


@dataclass(frozen=True, order=True)
class Card:
    """A card, 1 to 10; also the only kind of move."""

    n: int

    def __str__(self) -> str:
        return str(self.n)

    @staticmethod
    def parse(text: str) -> Card:
        """A card from its number."""
        if not text.strip().isdigit() or int(text) not in CARDS:
            raise InvalidMoveError(f"not a card: {text!r} (1 to 10)")
        return Card(int(text))


@dataclass(frozen=True)
class Rules:
    """How many deals a match has."""

    deals: int = field(default=1, metadata=option(None, "Deals in a match."))

    def __post_init__(self) -> None:
        if isinstance(self.deals, bool) or not isinstance(self.deals, int) or self.deals < 1:
            raise RulesError(f"deals={self.deals!r} must be a positive whole number")


@dataclass(frozen=True)
class Outcome:
    """Tricks won by each seat and the winner."""

    tricks: tuple[int, int]
    winner: int


@dataclass(frozen=True)
class View:
    """What one seat sees: its hand, the trick, the tricks won."""

    seat: int
    dealer: int
    phase: str
    turn: int | None
    hand: tuple[Card, ...]
    trick: tuple[Card, ...]
    tricks: tuple[int, int]
    legal_moves: tuple[Card, ...]
    outcome: Outcome | None


def deal_hands(dealer: int, seed: int) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """The hands a seed deals."""
    cards = [Card(n) for n in CARDS]
    random.Random(seed).shuffle(cards)
    return tuple(sorted(cards[:5])), tuple(sorted(cards[5:]))


class Deal:
    """One deal of High Card."""

    def __init__(self, dealer: int, seed: int | None, hands: Sequence[Sequence[Card]]) -> None:
        self.dealer = dealer
        self.seed = seed
        self.dealt = tuple(tuple(h) for h in hands)
        self.hands = [set(h) for h in hands]
        self.leader = 1 - dealer
        self.trick: list[Card] = []
        self.won = [0, 0]
        self.history: list[tuple[int, Card]] = []
        self._undo: list[tuple[int, int, tuple[int, ...]]] = []

    @property
    def moves(self) -> list[Card]:
        """Every move so far."""
        return [m for _, m in self.history]

    @property
    def phase(self) -> str:
        """``play`` or ``over``."""
        return "over" if self.is_over() else "play"

    @property
    def turn(self) -> int | None:
        """The seat to move."""
        return None if self.is_over() else (self.leader + len(self.trick)) % 2

    def is_over(self) -> bool:
        """Whether all ten cards are played."""
        return sum(self.won) == 5

    def legal_moves(self) -> tuple[Card, ...]:
        """Any card in hand."""
        return () if self.turn is None else tuple(sorted(self.hands[self.turn]))

    def check(self, move: Card, seat: int | None = None) -> None:
        """IllegalMoveError unless ``seat`` may play ``move`` now."""
        turn = self.turn
        if turn is None:
            raise IllegalMoveError("the deal is over")
        if seat is not None and seat != turn:
            raise IllegalMoveError(f"seat {turn} is to play, not seat {seat}")
        if move not in self.hands[turn]:
            raise IllegalMoveError(f"seat {turn} does not hold {move}")

    def push(self, move: Card, seat: int | None = None) -> None:
        """Play a card."""
        self.check(move, seat)
        turn = self.turn
        assert turn is not None
        self._undo.append((self.leader, len(self.trick), tuple(self.won)))
        self.hands[turn].remove(move)
        self.history.append((turn, move))
        self.trick.append(move)
        if len(self.trick) == 2:
            first, second = self.trick
            winner = self.leader if first > second else 1 - self.leader
            self.won[winner] += 1
            self.leader = winner
            self.trick = []

    def pop(self) -> Card:
        """Take back the last card."""
        seat, move = self.history.pop()
        leader, in_trick, won = self._undo.pop()
        self.hands[seat].add(move)
        if in_trick == 0:
            self.trick = []
        else:
            self.trick = [self.history[-1][1]]
        self.leader, self.won = leader, list(won)
        return move

    def outcome(self) -> Outcome | None:
        """The result once the deal is over."""
        if not self.is_over():
            return None
        tricks = (self.won[0], self.won[1])
        return Outcome(tricks, 0 if tricks[0] > tricks[1] else 1)

    def view(self, seat: int) -> View:
        """What ``seat`` may see."""
        return View(
            seat=seat,
            dealer=self.dealer,
            phase=self.phase,
            turn=self.turn,
            hand=tuple(sorted(self.hands[seat])),
            trick=tuple(self.trick),
            tricks=(self.won[0], self.won[1]),
            legal_moves=self.legal_moves() if self.turn == seat else (),
            outcome=self.outcome(),
        )


def deal_seed(match_seed: int, number: int) -> int:
    """The seed of deal ``number`` of a match."""
    digest = hashlib.sha256(f"highcard:{match_seed}:{number}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@dataclass
class Match:
    """Deals in order; the dealer alternates."""

    rules: Rules
    seed: int
    deals: list[Deal] = field(default_factory=list)

    @property
    def current(self) -> Deal | None:
        """The deal in progress."""
        return self.deals[-1] if self.deals and not self.deals[-1].is_over() else None

    @property
    def dealer(self) -> int:
        """The dealer of the deal in progress, or of the next deal."""
        current = self.current
        return len(self.deals) % 2 if current is None else current.dealer

    @property
    def scores(self) -> tuple[int, int]:
        """Deals won by each seat."""
        wins = [o.winner for d in self.deals if (o := d.outcome()) is not None]
        return wins.count(0), wins.count(1)

    def start_deal(self, seed: int | None = None) -> Deal:
        """Deal the next deal."""
        if self.is_over() or self.current is not None:
            raise ValueError("no deal can start now")
        seed = deal_seed(self.seed, len(self.deals)) if seed is None else seed
        deal = Deal(self.dealer, seed, deal_hands(self.dealer, seed))
        self.deals.append(deal)
        return deal

    def is_over(self) -> bool:
        """Whether every deal is played."""
        return len(self.deals) == self.rules.deals and self.current is None


class HighBot(Bot[View, Card]):
    """Plays its highest card."""

    name = "high"

    def choose(self, view: View) -> Card:
        """The highest legal card."""
        return max(check_turn(view))


class HighCardSpec(GameSpec[Rules, Card, View, Deal, Match]):
    """High Card as a hukum game: the core, and records."""

    name = NAME
    title = "High Card"
    bots = ("random", "high")
    default_preset = "standard"

    def __init__(self) -> None:
        self.records = HighCardRecords()

    @property
    def presets(self) -> Mapping[str, Rules]:
        return {"standard": Rules()}

    def players(self, rules: Rules) -> int:
        return 2

    def new_match(self, rules: Rules, seed: int) -> Match:
        return Match(rules, seed)

    def new_deal(self, rules: Rules, dealer: int, seed: int) -> Deal:
        return Deal(dealer, seed, deal_hands(dealer, seed))

    def deal_seed(self, match_seed: int, number: int) -> int:
        return deal_seed(match_seed, number)

    def dealt(self, rules: Rules, dealer: int, seed: int) -> dict[str, Any]:
        hands = deal_hands(dealer, seed)
        return {"hands": [[str(c) for c in h] for h in hands], "shown_card": None}

    def parse_move(self, text: str) -> Card:
        return Card.parse(text)

    def view_to_dict(self, view: View) -> dict[str, Any]:
        return {
            "seat": view.seat,
            "dealer": view.dealer,
            "phase": view.phase,
            "turn": view.turn,
            "hand": [str(c) for c in view.hand],
            "legal": [str(c) for c in view.legal_moves],
            "trick": [str(c) for c in view.trick],
            "tricks": list(view.tricks),
            "outcome": None if view.outcome is None else {"winner": view.outcome.winner},
        }

    def deal_result(self, deal: Deal) -> dict[str, Any]:
        outcome = deal.outcome()
        assert outcome is not None
        return {"winner": outcome.winner, "tricks": list(outcome.tricks)}

    def match_result(self, match: Match) -> dict[str, Any]:
        a, b = match.scores
        return {"scores": [a, b], "winner": None if a == b else int(b > a)}

    def describe_outcome(self, deal: Deal) -> str:
        outcome = deal.outcome()
        return "in progress" if outcome is None else f"Seat {outcome.winner} wins"

    def make_bot(self, name: str, seed: int = 0, **options: Any) -> Bot[View, Card]:
        if options:
            raise BotError(f"the {name} bot takes no options, got {sorted(options)}")
        if name == "random":
            return RandomBot(seed=seed)
        if name == "high":
            return HighBot()
        raise BotError(f"no High Card bot {name!r}; choose one of random, high")

    @property
    def match_type(self) -> type[Match]:
        return Match


class HighCardRecords(RecordsFacet[Match]):
    """A match as its rules, its seed and each deal's seed and moves."""

    def record_to_dict(self, match: Match) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": NAME,
            "rules": SPEC.rules_to_dict(match.rules),
            "seed": match.seed,
            "deals": [{"seed": d.seed, "moves": [str(m) for m in d.moves]} for d in match.deals],
        }

    def record_from_dict(self, data: dict[str, Any]) -> Match:
        check_header(data)
        try:
            match = Match(SPEC.rules_from_dict(data["rules"]), as_int(data["seed"], "'seed'"))
            for number, deal_data in enumerate(data["deals"], start=1):
                deal = match.start_deal(as_int(deal_data["seed"], f"deal {number}: 'seed'"))
                for text in deal_data["moves"]:
                    deal.push(Card.parse(text))
        except (KeyError, TypeError, ValueError) as e:
            if isinstance(e, RecordError):
                raise
            raise RecordError(f"not a High Card record: {describe(str(e))}") from None
        return match


SPEC = HighCardSpec()
