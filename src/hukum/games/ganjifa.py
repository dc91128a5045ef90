"""Dashavatara Ganjifa (:mod:`hukum.ganjifa`) as a :class:`~hukum.game.GameSpec`: three
players each for themselves, one deal a match by default (as on Cardavia); its only preset
is ``cardavia``, the defaults. The arena seats bot A alone against two of bot B. It offers
every facet but the solver's analysis.

>>> from hukum.games import GAMES
>>> spec = GAMES["ganjifa"]
>>> spec.players(spec.make_rules()), spec.describe_rules(spec.make_rules(options={"time": "night"}))
(3, 'time=night')
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hukum import ganjifa
from hukum.bots import ganjifa as ganjifa_bots
from hukum.bots.ganjifa import search
from hukum.bots.ganjifa.base import GanjifaBot
from hukum.bots.ganjifa.explain import reason as reason_of
from hukum.game import (
    ArenaFacet,
    GameSpec,
    LearningFacet,
    Reason,
    RecordsFacet,
    Side,
    TerminalFacet,
    WebFacet,
)
from hukum.ganjifa import HAND_SIZE, PLAYERS, CardSet, Deal, Match, Move, Rules, Trick, View
from hukum.ganjifa import record as ganjifa_record
from hukum.ganjifa.encoding import GanjifaEncoding

__all__ = [
    "GanjifaArena",
    "GanjifaLearning",
    "GanjifaPlay",
    "GanjifaRecords",
    "GanjifaSpec",
    "GanjifaWeb",
    "mean_cards",
    "win_share",
]

#: Cards a seat captures on average over a deal when all play equally well (120 / 3).
PAR = 40


@dataclass(frozen=True)
class GanjifaPlay:
    """One play of one arena deal: bot A at ``a_seat``, bot B at the two other seats."""

    deal: int
    """Number of the deal (from 0)."""
    a_seat: int
    """The seat bot A played."""
    scores: tuple[int, int, int]
    """Cards captured by seats 0, 1 and 2."""
    a_share: float
    """Bot A's share of the win: 1, ½, ⅓ or 0 (G-10)."""

    @property
    def a_cards(self) -> int:
        """Cards bot A captured."""
        return self.scores[self.a_seat]

    @property
    def b_cards(self) -> float:
        """Cards each bot B captured, on average."""
        return (3 * PAR - self.a_cards) / 2


def win_share(plays: Sequence[GanjifaPlay]) -> float:
    """Bot A's mean share of the win over single plays (1/3: equal strength)."""
    return statistics.fmean(p.a_share for p in plays) if plays else 0.0


def mean_cards(plays: Sequence[GanjifaPlay], side: str) -> float:
    """Mean cards captured a play by bot A, or by each bot B."""
    if not plays:
        return 0.0
    return statistics.fmean(p.a_cards if side == "A" else p.b_cards for p in plays)


def _move(seat: int, move: Move) -> dict[str, Any]:
    return {"seat": seat, "move": str(move), "cards": move.cards.codes}


def _last_trick(last: Trick | None) -> dict[str, Any] | None:
    """The last trick as JSON: its leader, its plays and its winner."""
    if last is None:
        return None
    return {
        "leader": last.leader,
        "plays": [_move(s, m) for s, m in last.plays],
        "winner": last.winner,
    }


def _position(deal: Deal) -> dict[str, Any]:
    """The deal as it stands, every hand face up (the analysis board)."""
    tricks = deal.tricks
    last = tricks[-1] if tricks else None
    return {
        "phase": deal.phase,
        "turn": deal.turn,
        "need": deal.answer_size,
        "hands": [CardSet(deal.hand(s)).codes for s in range(PLAYERS)],
        "trump": deal.trump.code,
        "trick": [_move(s, m) for s, m in deal.trick],
        "last_trick": _last_trick(last),
        "tricks_played": len(tricks),
        "captured": list(deal.scores),
    }


class GanjifaSpec(GameSpec[Rules, Move, View, Deal, Match]):
    """Dashavatara Ganjifa: 120 round cards, ten avatar suits, day/night trump, Dukal runs."""

    name = "ganjifa"
    title = "Ganjifa"
    bots = ganjifa_bots.BOT_NAMES
    quick_bots = frozenset({"random", "rules"})  # 0.001 and 0.01 ms a decision here
    default_preset = "cardavia"

    def __init__(self) -> None:
        """Every facet but the solver's analysis (its solver reads Mindi deals)."""
        self.web = GanjifaWeb(self)
        self.records = GanjifaRecords()
        self.arena = GanjifaArena()
        self.learning = GanjifaLearning()
        self.terminal = TerminalFacet("hukum.terminal.ganjifa:GanjifaScreen")

    @property
    def presets(self) -> Mapping[str, Rules]:
        """``cardavia``: the defaults."""
        return {"cardavia": Rules()}

    def rules_to_dict(self, rules: Rules) -> dict[str, Any]:
        """Every option as JSON."""
        return rules.to_dict()

    def rules_from_dict(self, data: Mapping[str, Any]) -> Rules:
        """Rules from JSON options (``time``, ``void_rule``, ``dukal``, ``deals``)."""
        return Rules.from_dict(dict(data))

    def describe_rules(self, rules: Rules) -> str:
        """The options that differ from the defaults."""
        return ", ".join(f"{k}={v}" for k, v in rules.differences().items())

    def players(self, rules: Rules) -> int:
        """Three (G-1)."""
        return PLAYERS

    def new_match(self, rules: Rules, seed: int) -> Match:
        """A new match."""
        return Match(rules, seed)

    def new_deal(self, rules: Rules, dealer: int, seed: int) -> Deal:
        """:meth:`Deal.new`."""
        return Deal.new(rules, dealer, seed)

    def deal_seed(self, match_seed: int, number: int) -> int:
        """:func:`hukum.ganjifa.deal_seed`."""
        return ganjifa.deal_seed(match_seed, number)

    def dealt(self, rules: Rules, dealer: int, seed: int) -> dict[str, Any]:
        """The hands a seed deals (no card is shown to all)."""
        hands = ganjifa.deal_hands(dealer, seed)
        return {"hands": [[c.code for c in hand] for hand in hands], "shown_card": None}

    def no_scores(self, rules: Rules) -> list[int]:
        """Captured cards per seat before anything is captured (without making a match: the
        lobby asks this of every waiting room)."""
        return [0] * PLAYERS

    def parse_move(self, text: str) -> Move:
        """:meth:`hukum.ganjifa.Move.parse`."""
        return Move.parse(text)

    def max_move_text(self, rules: Rules) -> int:
        """``give`` and a whole hand, each card at most four characters and a space."""
        return len("give") + 5 * HAND_SIZE

    def view_to_dict(self, view: View) -> dict[str, Any]:
        """One seat's Ganjifa view as JSON (G-11). To answer a Dukal the seat gives any
        ``need`` cards of ``allowed``; the answers are not listed in ``legal``."""
        last = view.tricks[-1] if view.tricks else None
        outcome = view.outcome
        return {
            "seat": view.seat,
            "dealer": view.dealer,
            "phase": view.phase,
            "turn": view.turn,
            "need": view.need if view.my_turn else 0,
            "hand": view.hand.codes,
            "legal": [] if view.phase == "answer" else [str(m) for m in view.legal_moves],
            "allowed": view.allowed.codes,
            "trump": view.trump.code,
            "time": view.rules.time,
            "dukal": view.dukal,
            "trick": [_move(s, m) for s, m in view.trick],
            "last_trick": _last_trick(last),
            "tricks_played": len(view.tricks),
            "hand_sizes": list(view.hand_sizes),
            "captured": list(view.scores),
            "voids": [sorted(s.code for s in v) for v in view.voids],
            "deals": view.rules.deals,
            "outcome": None
            if outcome is None
            else {
                "scores": list(outcome.scores),
                "winners": list(outcome.winners),
                "text": outcome.describe(),
            },
        }

    def deal_result(self, deal: Deal) -> dict[str, Any]:
        """The winners (several share a win) and the scores."""
        outcome = deal.outcome()
        assert outcome is not None
        return {"winners": list(outcome.winners), "scores": list(outcome.scores)}

    def match_result(self, match: Match) -> dict[str, Any]:
        """The captured cards per seat over the match and the winners (ties share)."""
        return {"scores": list(match.scores), "winners": list(match.winners())}

    def describe_outcome(self, deal: Deal) -> str:
        """E.g. ``Seat 1 wins with 45 cards; seat 0 has 38, seat 2 has 37``."""
        outcome = deal.outcome()
        return "in progress" if outcome is None else outcome.describe()

    def make_bot(self, name: str, seed: int = 0, **options: Any) -> GanjifaBot:
        """:func:`hukum.bots.ganjifa.make_bot`."""
        return ganjifa_bots.make_bot(name, seed=seed, **options)

    @property
    def match_type(self) -> type[Match]:
        """:class:`hukum.ganjifa.Match`."""
        return Match


class GanjifaWeb(WebFacet[Rules, Move, View, Deal]):
    """The web app's watcher view, replays and hints (the search bot's move, explained)."""

    hint_bot = "search"

    def public_view_to_dict(self, deal: Deal) -> dict[str, Any]:
        """What anyone may see of the deal (a watcher's view), in the shape of
        :meth:`GanjifaSpec.view_to_dict`: every play is face up in Ganjifa (G-11), so it is
        the view of a seat that is not to move with its hand taken out (no hand, nothing
        ``legal`` or ``allowed``, ``need`` 0): the trump, the trick, the last trick, the
        counts of cards in each hand, the cards each seat has captured and the voids the
        play has shown."""
        seat = next(s for s in range(PLAYERS) if s != deal.turn)
        data = self.spec.view_to_dict(deal.view(seat))
        data.update(seat=None, hand=[], legal=[], allowed=[], need=0)
        return data

    def replay_to_dict(self, deal: Deal) -> dict[str, Any]:
        """Each move with its seat and trick (from 1; a Dukal and its answers are one), and
        each position from the deal as dealt to its end: every hand, the trick in progress
        and the last one, the cards each seat has taken."""
        replay = deal.copy()
        positions = [_position(replay)]
        for _ in deal.history:
            replay.pop()
            positions.append(_position(replay))
        positions.reverse()
        moves = [
            {
                "number": i,
                "seat": seat,
                "move": str(move),
                "cards": move.cards.codes,
                "trick": positions[i - 1]["tricks_played"] + 1,
            }
            for i, (seat, move) in enumerate(deal.history, start=1)
        ]
        outcome = deal.outcome()
        return {
            "moves": moves,
            "positions": positions,
            "outcome": None
            if outcome is None
            else {
                "scores": list(outcome.scores),
                "winners": list(outcome.winners),
                "text": outcome.describe(),
            },
        }

    def reason(self, view: View, move: Move) -> Reason:
        """:func:`hukum.bots.ganjifa.explain.reason`: e.g. ``RaR is winning: plays Ra4,
        the weakest card you may play``, as data."""
        return reason_of(view, move)


class GanjifaRecords(RecordsFacet[Match]):
    """Ganjifa records (:mod:`hukum.ganjifa.record`)."""

    def record_to_dict(self, match: Match) -> dict[str, Any]:
        """:func:`hukum.ganjifa.record.to_dict`."""
        return ganjifa_record.to_dict(match)

    def record_from_dict(self, data: dict[str, Any]) -> Match:
        """:func:`hukum.ganjifa.record.from_dict`."""
        return ganjifa_record.from_dict(data)


class GanjifaArena(ArenaFacet[Rules, Deal]):
    """Bot A alone against two of bot B, at each seat in turn."""

    play_type = GanjifaPlay

    def one_deal(self, rules: Rules) -> Rules:
        """One deal."""
        return rules.replace(deals=1)

    def seatings(self, rules: Rules) -> Sequence[tuple[Side, ...]]:
        """Three plays, bot A at seat 0, 1 and 2 in turn, a bot B at each other seat."""
        return [
            (Side("A", (a,), 0), *(Side("B", (s,), 1 + s) for s in range(PLAYERS) if s != a))
            for a in range(PLAYERS)
        ]

    def play(self, number: int, a_seats: tuple[int, ...], deal: Deal) -> GanjifaPlay:
        """The cards each seat captured and A's share of the win."""
        outcome = deal.outcome()
        assert outcome is not None
        (a_seat,) = a_seats
        return GanjifaPlay(number, a_seat, outcome.scores, outcome.share(a_seat))

    def duplicate_score(self, plays: Sequence[GanjifaPlay]) -> float:
        """Over its three plays A held every hand once, so equal strength captures 40 cards
        a play: A wins the duplicate deal above that, ties at it (half a win), loses below."""
        cards = sum(p.a_cards for p in plays)
        par = PAR * len(plays)
        return 1.0 if cards > par else 0.5 if cards == par else 0.0

    def rows(self, plays: Sequence[GanjifaPlay]) -> list[tuple[str, str, str]]:
        """Win share of single plays and mean cards captured."""
        share = win_share(plays)
        return [
            ("win share of single plays (⅓ = equal)", f"{share:.1%}", f"{(1 - share) / 2:.1%}"),
            (
                "mean cards captured a play (40 = equal)",
                f"{mean_cards(plays, 'A'):.1f}",
                f"{mean_cards(plays, 'B'):.1f}",
            ),
        ]

    def title(self, bot_a: str, bot_b: str) -> str:
        """Bot A against two of bot B, three plays a deal."""
        return f"Ganjifa: {bot_a} (A) vs 2 × {bot_b} (B)"


class GanjifaLearning(LearningFacet[Rules, Move, View, Deal]):
    """Ganjifa for learning programs (:class:`~hukum.ganjifa.encoding.GanjifaEncoding`)."""

    def encoding(self, rules: Rules) -> GanjifaEncoding:
        """:class:`~hukum.ganjifa.encoding.GanjifaEncoding`: 960 actions, an observation of 1509."""
        return GanjifaEncoding(rules)

    def deal_from(
        self,
        rules: Rules,
        dealer: int,
        hands: Sequence[Sequence[int]],
        shown_card: int | None = None,
    ) -> Deal:
        if shown_card is not None:
            raise ValueError("no card is shown in Ganjifa")
        return Deal(rules, dealer, hands)

    def sample_deal(self, view: View, rng: random.Random) -> Deal:
        return search.build_deal(view, search.sample_world(view, rng))
