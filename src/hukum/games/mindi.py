"""Mindi (:mod:`hukum.mindi`) as a :class:`~hukum.game.GameSpec`: rules, moves, views as
JSON and bots, with every facet: the web app's replays and hints, records, how the arena
plays it (bot A's team against bot B's team), learning, the solver's analysis, the terminal.

>>> from hukum.games import GAMES
>>> spec = GAMES["mindi"]
>>> deal = spec.new_match(spec.make_rules("hidden"), seed=1).start_deal()
>>> data = spec.view_to_dict(deal.view(0))
>>> data["phase"], len(data["hand"]), data["face_down"]
('hide', 13, None)
"""

from __future__ import annotations

import random
import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hukum import bots
from hukum.bots import worlds
from hukum.bots.base import Bot
from hukum.bots.explain import reason as reason_of
from hukum.cards import CardSet, bits, deck
from hukum.game import (
    AnalysisFacet,
    ArenaFacet,
    GameSpec,
    LearningFacet,
    Reason,
    RecordsFacet,
    Side,
    TerminalFacet,
    WebFacet,
)
from hukum.mindi import (
    PRESETS,
    Deal,
    Match,
    Move,
    MoveKind,
    Outcome,
    Rules,
    View,
    deal_hands,
    deal_seed,
)
from hukum.mindi import record as mindi_record
from hukum.mindi.encoding import MindiEncoding
from hukum.mindi.rules import PLAYER_COUNTS
from hukum.mindi.trick import Played, Trick

__all__ = [
    "DECIDERS",
    "MindiAnalysis",
    "MindiArena",
    "MindiLearning",
    "MindiRecords",
    "MindiSpec",
    "MindiWeb",
    "PlayResult",
    "decided_by",
    "mean_tens",
    "play_win_rate",
    "rate",
]


@dataclass(frozen=True)
class PlayResult:
    """One play of one arena deal, seen from bot A's side."""

    deal: int
    """Number of the deal (from 0)."""
    a_team: int
    """The team bot A played: 0 (even seats) or 1 (odd seats)."""
    a_won: bool
    """Whether bot A's team won the deal."""
    kind: str
    """``win``, ``mendikot`` or ``whitewash`` (the winner's kind of win)."""
    tens: tuple[int, int]
    """Tens of bot A's team and of bot B's team."""
    tricks: tuple[int, int]
    """Tricks of bot A's team and of bot B's team."""
    points: tuple[int, int]
    """Match points scored by bot A's team and by bot B's team."""


#: What decides a duplicate deal, in order: the first on which A and B differ (the sums of
#: A's team and of B's over the two plays).
DECIDERS = ("single plays", "tens", "match points", "tricks")


def decided_by(plays: Sequence[PlayResult]) -> tuple[str | None, float]:
    """What decided a duplicate deal (one of :data:`DECIDERS`, None if all were level) and
    bot A's score: 1 won, 0.5 tied, 0 lost. Tricks decide only where the plays won, the tens
    and the match points are level, and count in no game (a 2–2 tie-break apart): a share of
    deals won on them tells little of how the bots play.

    >>> won = PlayResult(0, 0, True, "win", (3, 1), (8, 5), (1, 0))
    >>> lost = PlayResult(0, 1, False, "win", (1, 3), (6, 7), (0, 1))
    >>> decided_by([won, lost])
    ('tricks', 1.0)
    """
    for name, (a, b) in zip(
        DECIDERS,
        (
            (sum(p.a_won for p in plays), sum(not p.a_won for p in plays)),
            (sum(p.tens[0] for p in plays), sum(p.tens[1] for p in plays)),
            (sum(p.points[0] for p in plays), sum(p.points[1] for p in plays)),
            (sum(p.tricks[0] for p in plays), sum(p.tricks[1] for p in plays)),
        ),
        strict=True,
    ):
        if a != b:
            return name, 1.0 if a > b else 0.0
    return None, 0.5


def play_win_rate(plays: Sequence[PlayResult]) -> float:
    """Bot A's share of single plays won."""
    return sum(p.a_won for p in plays) / len(plays) if plays else 0.0


def rate(plays: Sequence[PlayResult], kind: str, side: str) -> float:
    """Share of plays that side ``A`` or ``B`` won with ``kind`` (mendikot or whitewash)."""
    if not plays:
        return 0.0
    return sum(p.kind == kind and p.a_won == (side == "A") for p in plays) / len(plays)


def mean_tens(plays: Sequence[PlayResult], side: str) -> float:
    """Mean tens a play for side ``A`` or ``B``."""
    i = 0 if side == "A" else 1
    return statistics.fmean(p.tens[i] for p in plays) if plays else 0.0


def _played(p: Played) -> dict[str, Any]:
    return {"seat": p.seat, "card": p.card.code, "trump": p.trump}


def _trick(t: Trick) -> dict[str, Any]:
    return {"leader": t.leader, "plays": [_played(p) for p in t.plays], "winner": t.winner}


def _outcome(view: View) -> dict[str, Any] | None:
    return _outcome_of(view.outcome)


def _outcome_of(o: Outcome | None) -> dict[str, Any] | None:
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


def _position(deal: Deal) -> dict[str, Any]:
    """The deal as it stands, every hand face up (the analysis board)."""
    tricks = deal.tricks
    reveal = deal.reveal
    face_down = deal.face_down
    players = range(deal.rules.players)
    if deal.phase == "announce":  # the rest of the pack is dealt after the announcement (M-15)
        hands = [CardSet(deal.dealt[s][:5]).codes() for s in players]
    else:
        hands = [deal.hand(s).codes() for s in players]
    return {
        "phase": deal.phase,
        "turn": deal.turn,
        "hands": hands,
        # Band hukum: the card while it lies face down (in no hand), and who laid it.
        "face_down": face_down.code if face_down is not None and reveal is None else None,
        "chooser": deal.chooser,
        "trump": deal.trump.letter if deal.trump is not None else None,
        "trump_known": deal.trump_known,
        "shown_card": deal.shown_card.code if deal.shown_card is not None else None,
        "reveal": None
        if reveal is None
        else {"seat": reveal.seat, "trick": reveal.trick, "asked": reveal.asked},
        "trick": [_played(p) for p in deal.trick],
        "last_trick": _trick(tricks[-1]) if tricks else None,
        "tricks_played": len(tricks),
        "tricks_won": list(deal.tricks_won),
        "tens": [[c.code for c in taken if c.rank == 10] for taken in deal.captured],
        "pile": deal.pile.codes(),
    }


class MindiSpec(GameSpec[Rules, Move, View, Deal, Match]):
    """Mindi: four (or six, eight) players in two teams; the team with the tens wins."""

    name = "mindi"
    title = "Mindi"
    bots = bots.BOT_NAMES
    quick_bots = frozenset({"random", "rules"})  # 0.014 and 0.04 ms a decision here
    default_preset = "classic"

    def __init__(self) -> None:
        """Every facet: Mindi offers them all."""
        self.web = MindiWeb(self)
        self.records = MindiRecords()
        self.arena = MindiArena()
        self.learning = MindiLearning()
        self.analysis = MindiAnalysis()
        self.terminal = TerminalFacet("hukum.terminal.mindi:MindiScreen")

    @property
    def presets(self) -> Mapping[str, Rules]:
        """The presets of :data:`hukum.mindi.PRESETS`."""
        return PRESETS

    def rules_to_dict(self, rules: Rules) -> dict[str, Any]:
        """Every option as JSON."""
        return rules.to_dict()

    def rules_from_dict(self, data: Mapping[str, Any]) -> Rules:
        """Rules from JSON options."""
        return Rules.from_dict(dict(data))

    def describe_rules(self, rules: Rules) -> str:
        """The options that differ from ``classic``."""
        return ", ".join(f"{k}={v}" for k, v in rules.differences().items())

    def players(self, rules: Rules) -> int:
        """4, 6 or 8 (M-1)."""
        return rules.players

    @property
    def player_counts(self) -> tuple[int, ...]:
        """:data:`hukum.mindi.PLAYER_COUNTS`."""
        return PLAYER_COUNTS

    def new_match(self, rules: Rules, seed: int) -> Match:
        """A new match."""
        return Match(rules, seed)

    def new_deal(self, rules: Rules, dealer: int, seed: int) -> Deal:
        """:meth:`Deal.new`."""
        return Deal.new(rules, dealer, seed)

    def deal_seed(self, match_seed: int, number: int) -> int:
        """:func:`hukum.mindi.deal_seed`."""
        return deal_seed(match_seed, number)

    def dealt(self, rules: Rules, dealer: int, seed: int) -> dict[str, Any]:
        """The hands a seed deals and the card it shows (open hukum, M-14)."""
        hands, card = deal_hands(rules, dealer, seed)
        return {
            "hands": [[c.code for c in hand] for hand in hands],
            "shown_card": card.code if card is not None else None,
        }

    def no_scores(self, rules: Rules) -> list[int]:
        """Match points per team before anything is won (without making a match, whose
        first-dealer draw costs 45 µs: the lobby asks this of every waiting room)."""
        return [0, 0]

    def parse_move(self, text: str) -> Move:
        """:meth:`hukum.mindi.Move.parse`."""
        return Move.parse(text)

    def move_text(self, move: Move, mover: int, viewer: int | None) -> str:
        """Another seat's face-down card is ``hide ??`` (M-12)."""
        if move.kind is MoveKind.HIDE and mover != viewer:
            return str(Move.HIDDEN)
        return str(move)

    def max_move_text(self, rules: Rules) -> int:
        """``announce S``, ``hide 10S``: short."""
        return 16

    def view_to_dict(self, view: View) -> dict[str, Any]:
        """One seat's Mindi view as JSON (M-20)."""
        reveal = view.reveal
        return {
            "seat": view.seat,
            "dealer": view.dealer,
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
            "target": view.rules.target,
            "deals": view.rules.deals,
            "outcome": _outcome(view),
        }

    def deal_result(self, deal: Deal) -> dict[str, Any]:
        """The winning team and its points."""
        outcome = deal.outcome()
        assert outcome is not None
        return {"winner": outcome.winner, "points": outcome.points}

    def match_result(self, match: Match) -> dict[str, Any]:
        """The match points per team and the winning team (None when level)."""
        return {"scores": list(match.scores), "winner": match.winner()}

    def describe_outcome(self, deal: Deal) -> str:
        """E.g. ``Team 1 wins: 2–2 tens, won on tricks 7–6``."""
        outcome = deal.outcome()
        return "in progress" if outcome is None else outcome.describe()

    def make_bot(self, name: str, seed: int = 0, **options: Any) -> Bot[View, Move]:
        """:func:`hukum.bots.make_bot`."""
        return bots.make_bot(name, seed=seed, **options)

    @property
    def match_type(self) -> type[Match]:
        """:class:`hukum.mindi.Match`."""
        return Match


class MindiWeb(WebFacet[Rules, Move, View, Deal]):
    """The web app's watcher view, replays and hints (the expert's move, explained)."""

    hint_bot = "expert"

    def public_view_to_dict(self, deal: Deal) -> dict[str, Any]:
        """What anyone may see of the deal (a watcher's view), in the shape of
        :meth:`MindiSpec.view_to_dict`: the view of a seat that holds no hidden card but its
        own hand (not the band chooser, whose view has the face-down card and, before the
        reveal, the trump; not the seat to move, whose view has its legal moves), with that
        hand taken out. What is left every seat sees alike: the plays as all see them (no
        card marked a trump before trump is public), trump once it is known to all, the
        turned-up card, the shown card, the counts of cards in each hand, tricks, tens and
        the pile."""
        busy = {deal.chooser, deal.turn}
        seat = next(s for s in range(deal.rules.players) if s not in busy)
        data = self.spec.view_to_dict(deal.view(seat))
        data.update(seat=None, hand=[], legal=[], face_down=None)
        return data

    def replay_to_dict(self, deal: Deal) -> dict[str, Any]:
        """Each move with its seat and trick (from 1), and each position from the deal as
        dealt to its end: every hand (under announce hukum the first five cards until the
        announcement), the trick in progress and the last one, trump (under band hukum also
        while face down, with the card), tricks and tens per team, the dehla pile."""
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
                "trick": positions[i - 1]["tricks_played"] + 1,
            }
            for i, (seat, move) in enumerate(deal.history, start=1)
        ]
        return {"moves": moves, "positions": positions, "outcome": _outcome_of(deal.outcome())}

    def reason(self, view: View, move: Move) -> Reason:
        """:func:`hukum.bots.explain.reason`: e.g. ``partner's A♦ wins the trick: the 10♦
        goes to your team``, as data."""
        return reason_of(view, move)


class MindiRecords(RecordsFacet[Match]):
    """Mindi records (:mod:`hukum.mindi.record`)."""

    def record_to_dict(self, match: Match) -> dict[str, Any]:
        """:func:`hukum.mindi.record.to_dict`."""
        return mindi_record.to_dict(match)

    def record_from_dict(self, data: dict[str, Any]) -> Match:
        """:func:`hukum.mindi.record.from_dict`."""
        return mindi_record.from_dict(data)


class MindiArena(ArenaFacet[Rules, Deal]):
    """Bot A's team against bot B's team, each pair of seats in turn."""

    play_type = PlayResult

    def one_deal(self, rules: Rules) -> Rules:
        """One deal, no target."""
        return rules.replace(target=None, deals=1)

    def seatings(self, rules: Rules) -> Sequence[tuple[Side, ...]]:
        """Bot A's team, then bot B's: A at the even seats, then at the odd seats."""
        teams = [tuple(range(t, rules.players, 2)) for t in (0, 1)]
        return [(Side("A", teams[a], 0), Side("B", teams[1 - a], 1)) for a in (0, 1)]

    def play(self, number: int, a_seats: tuple[int, ...], deal: Deal) -> PlayResult:
        """The play's tens, tricks and points of A's team and of B's."""
        outcome = deal.outcome()
        assert outcome is not None
        a_team = a_seats[0] % 2
        b_team = 1 - a_team
        points = [0, 0]
        points[outcome.winner] = outcome.points
        return PlayResult(
            deal=number,
            a_team=a_team,
            a_won=outcome.winner == a_team,
            kind=outcome.kind,
            tens=(outcome.tens[a_team], outcome.tens[b_team]),
            tricks=(outcome.tricks[a_team], outcome.tricks[b_team]),
            points=(points[a_team], points[b_team]),
        )

    def duplicate_score(self, plays: Sequence[PlayResult]) -> float:
        """Bot A wins a duplicate deal if it won more of the two plays; at one each, if its
        tens over both plays are more than B's; then its match points; then its tricks;
        if all are level it is a tie (half a win). See :func:`decided_by`."""
        return decided_by(plays)[1]

    def rows(self, plays: Sequence[PlayResult]) -> list[tuple[str, str, str]]:
        """Single plays won, mendikot and whitewash rates, mean tens and match points a
        play, and the deals each bot won on each of :data:`DECIDERS` (with the ties)."""
        won = play_win_rate(plays)
        rows = [("single plays won", f"{won:.1%}", f"{1 - won:.1%}")]
        for kind in ("mendikot", "whitewash"):
            rows.append(
                (
                    f"{kind} rate (of plays)",
                    f"{rate(plays, kind, 'A'):.1%}",
                    f"{rate(plays, kind, 'B'):.1%}",
                )
            )
        rows.append(
            ("mean tens a play", f"{mean_tens(plays, 'A'):.2f}", f"{mean_tens(plays, 'B'):.2f}")
        )
        points = [statistics.fmean(p.points[i] for p in plays) if plays else 0.0 for i in (0, 1)]
        rows.append(("mean match points a play", f"{points[0]:.3f}", f"{points[1]:.3f}"))
        deals: dict[int, list[PlayResult]] = {}
        for p in plays:
            deals.setdefault(p.deal, []).append(p)
        decided = Counter(decided_by(d) for d in deals.values())

        def share(count: int) -> str:
            return f"{count} ({count / len(deals):.1%})"

        if deals:
            for name in DECIDERS:
                for_a, for_b = share(decided[name, 1.0]), share(decided[name, 0.0])
                rows.append((f"deals won on {name}", for_a, for_b))
            rows.append(("deals tied", share(decided[None, 0.5]), ""))
        return rows


class MindiLearning(LearningFacet[Rules, Move, View, Deal]):
    """Mindi for learning programs (:class:`~hukum.mindi.encoding.MindiEncoding`)."""

    def encoding(self, rules: Rules) -> MindiEncoding:
        return MindiEncoding(rules)

    def deal_from(
        self,
        rules: Rules,
        dealer: int,
        hands: Sequence[Sequence[int]],
        shown_card: int | None = None,
    ) -> Deal:
        return Deal(rules, dealer, hands, shown_card=shown_card)

    def sample_deal(self, view: View, rng: random.Random) -> Deal:
        if view.phase == "announce":
            # Announce hukum before the announcement: each seat has been given five cards
            # and nothing has been played; the rest of the pack is dealt after it (M-15).
            pool = [c for c in bits(deck(view.rules.deck)) if c not in view.hand]
            rng.shuffle(pool)
            size = view.rules.hand_size
            hands = []
            for seat in range(view.rules.players):
                first = list(view.hand) if seat == view.seat else [pool.pop() for _ in range(5)]
                hands.append(first + [pool.pop() for _ in range(size - 5)])
            return Deal(view.rules, view.dealer, hands)
        return worlds.build_deal(view, worlds.sample_world(view, rng))


class MindiAnalysis(AnalysisFacet[Deal]):
    """The exact solver's analysis (:mod:`hukum.analysis`) reads Mindi deals."""

    def tricks(self, deal: Deal) -> int:
        """The cards each player is dealt."""
        return deal.rules.hand_size
