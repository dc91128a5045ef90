"""What every game hukum plays has in common, as types: the axis "which game" of the house.

A game is a :class:`GameSpec`: a small core every game has (its name, its rules with their
presets and schema, how a match starts, how a move is read and shown, what one seat's view
looks like as JSON, its results and computer players) and the facets it may offer besides:
``web`` (replays, hints), ``records``, ``arena``, ``learning``, ``analysis`` and
``terminal``, each None where the game does not offer it. Everything above the engines (the
referee loop, the arena, records, the terminal, the server) works through a spec and the
typed protocols below, never through an ``if game == ...``. The specs of the games hukum
ships are registered in :mod:`hukum.games`; this module imports no engine.

The protocols say what the engines already are (python-chess's shape: ``legal_moves``,
``push``, ``pop``, ``outcome``, per-seat views):

>>> from hukum.games import GAMES
>>> spec = GAMES["ganjifa"]
>>> deal = spec.new_match(spec.make_rules(), seed=1).start_deal()
>>> isinstance(deal, Deal), isinstance(deal.view(0), View)
(True, True)
>>> try:  # every game's errors are subclasses of these, to catch broadly or precisely
...     spec.parse_move("Ma0")
... except InvalidMoveError as e:
...     print(type(e).__module__, e)
hukum.ganjifa.move not a move: 'Ma0' (not a Ganjifa card: 'Ma0' (e.g. Ma1, Ka10, KrM, RaR))
"""

from __future__ import annotations

import dataclasses
import functools
import random
import typing
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import (
    TYPE_CHECKING,
    Any,
    ClassVar,
    Generic,
    Literal,
    Protocol,
    TypeVar,
    runtime_checkable,
)

if TYPE_CHECKING:
    from hukum.encoding import Encoding

__all__ = [
    "AnalysisFacet",
    "AnyGame",
    "ArenaFacet",
    "Deal",
    "GameError",
    "GameSpec",
    "IllegalMoveError",
    "InvalidMoveError",
    "LearningFacet",
    "Match",
    "NotOfferedError",
    "Player",
    "Reason",
    "RecordsFacet",
    "RuleOption",
    "RulesError",
    "Side",
    "TerminalFacet",
    "View",
    "WebFacet",
    "option",
    "rules_schema",
    "shown",
]


class GameError(ValueError):
    """Something a user of any game did wrong; the message says what, and ``rule_ids``
    which rules of docs/rules.md it breaks (``("M-8",)``; none named: ``()``), as data for
    programs (the server sends them), the same ids the message names."""

    def __init__(self, message: str, *, rule_ids: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.rule_ids = rule_ids


class InvalidMoveError(GameError):
    """Text that is not a move of the game at all."""


class IllegalMoveError(GameError):
    """A move the rules do not allow now; the message names the rule."""


class RulesError(GameError):
    """Rule options that do not make a game (an unknown option, a value out of range)."""


def shown(value: object) -> str:
    """A rule value as a person (or the command line, ``--rule name=value``) writes it, for
    error messages: ``none``, ``true``, ``1, 2, 3``; never a Python repr.

    >>> shown(None), shown(True), shown((1, None)), shown(()), shown("day")
    ('none', 'true', '1, none', 'nothing', 'day')
    """
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (tuple, list)):
        return ", ".join(shown(v) for v in value) if value else "nothing"
    return str(value)


M = TypeVar("M")
M_co = TypeVar("M_co", covariant=True)
V_co = TypeVar("V_co", covariant=True)
R_co = TypeVar("R_co", covariant=True)
D_co = TypeVar("D_co", covariant=True)
V_contra = TypeVar("V_contra", contravariant=True)
R = TypeVar("R")
V = TypeVar("V", bound="View[Any]")
D = TypeVar("D", bound="Deal[Any, Any]")
X = TypeVar("X", bound="Match[Any, Any]")
P = TypeVar("P")


@runtime_checkable
class View(Protocol[M_co]):
    """What one seat may see of a deal (M-20, G-11): the only thing a player is given."""

    @property
    def seat(self) -> int:
        """The seat this view belongs to."""

    @property
    def dealer(self) -> int:
        """The dealer of the deal."""

    @property
    def phase(self) -> str:
        """The game's phase name (``play``, ``lead``, ``over`` ...)."""

    @property
    def turn(self) -> int | None:
        """The seat to move, or None once the deal is over."""

    @property
    def legal_moves(self) -> Sequence[M_co]:
        """The moves this seat may make now (empty when it is not its turn)."""


@runtime_checkable
class Deal(Protocol[M, V_co]):
    """One deal being played: the referee's whole state, with push and pop for search."""

    @property
    def dealer(self) -> int:
        """The dealer."""

    @property
    def seed(self) -> int | None:
        """The shuffle seed, or None for hands given directly."""

    @property
    def phase(self) -> str:
        """The game's phase name; ``over`` once the deal is over."""

    @property
    def turn(self) -> int | None:
        """The seat to move, or None once the deal is over."""

    @property
    def moves(self) -> list[M]:
        """Every move so far, in order."""

    @property
    def history(self) -> list[tuple[int, M]]:
        """Every move so far with the seat that made it."""

    @property
    def trick(self) -> Sequence[object]:
        """The plays of the trick in progress (empty between tricks)."""

    def legal_moves(self) -> Sequence[M]:
        """The moves the seat to move may make."""

    def check(self, move: M, seat: int | None = None) -> None:
        """Nothing if ``move`` (by ``seat``, if given) is legal now, else IllegalMoveError."""

    def push(self, move: M, seat: int | None = None) -> None:
        """Make a move (checked; IllegalMoveError leaves the deal as it was)."""

    def pop(self) -> M:
        """Take back the last move."""

    def is_over(self) -> bool:
        """Whether every card has been played."""

    def view(self, seat: int) -> V_co:
        """What ``seat`` may see now."""

    def outcome(self) -> object | None:
        """The result once the deal is over, else None."""


@runtime_checkable
class Match(Protocol[R_co, D_co]):
    """A match: deals in order under one set of rules, from one seed."""

    @property
    def rules(self) -> R_co:
        """The rules in force."""

    @property
    def seed(self) -> int:
        """The match seed: it decides the first dealer and, by default, every deal."""

    @property
    def deals(self) -> Sequence[D_co]:
        """The deals so far, the current one last."""

    @property
    def current(self) -> D_co | None:
        """The deal in progress, or None between deals."""

    @property
    def dealer(self) -> int:
        """The dealer of the next deal (of the current one while it is played)."""

    @property
    def scores(self) -> tuple[int, ...]:
        """The match's scores so far (per team in Mindi, per seat in Ganjifa)."""

    def start_deal(self, seed: int | None = None) -> D_co:
        """Deal the next deal (from ``seed``, or the match's own next seed)."""

    def is_over(self) -> bool:
        """Whether the match is decided."""


class Player(Protocol[V_contra, M_co]):
    """A computer player (any bot of :mod:`hukum.bots`): one move from one seat's view."""

    @property
    def name(self) -> str:
        """The bot's name, e.g. ``rules``."""

    def choose(self, view: V_contra) -> M_co:
        """One of ``view.legal_moves``: the move to make now."""


@dataclass(frozen=True)
class Side:
    """Seats played by one bot in one play of an arena deal, and the offset of its seed."""

    bot: Literal["A", "B"]
    """Which bot of the match-up plays these seats."""
    seats: tuple[int, ...]
    """The seats (one bot object plays them all: partners share one)."""
    seed_offset: int
    """Added to the play's seed to seed this bot."""


# ---------------------------------------------------------------------------- rules schema


def option(
    rule: str | None,
    doc: str,
    *,
    choices: Sequence[Any] | None = None,
    kind: str | None = None,
) -> dict[str, Any]:
    """The metadata of a field of a game's ``Rules`` dataclass (``field(default=...,
    metadata=option(...))``) with what its rules schema (:func:`rules_schema`) needs beyond
    the field's type: the rule it sets (``M-1``), its one-line description for people (the
    lobby form, the rules page), the values it may take where its type does not list them
    (Mindi's 4, 6 or 8 players) and its kind where the type does not say it.

    >>> from dataclasses import dataclass, field
    >>> @dataclass(frozen=True)
    ... class Rules:
    ...     rounds: int = field(default=3, metadata=option("X-1", "Rounds.", choices=(1, 3)))
    >>> Rules().rounds, rules_schema(Rules)[0].choices
    (3, (1, 3))
    """
    return {
        "rule": rule,
        "doc": doc,
        "choices": None if choices is None else tuple(choices),
        "kind": kind,
    }


@dataclass(frozen=True)
class RuleOption:
    """One rule option of a game, generated from its ``Rules`` dataclass: what the lobby
    form and the rules page show of it (``GET /api/rules``)."""

    name: str
    """The option's name in rules JSON and on the command line (``must_trump``)."""
    kind: str
    """``choice`` (one of :attr:`choices`), ``count`` (a whole number) or ``numbers``
    (several whole numbers; Mindi's ``points`` says ``points``)."""
    choices: tuple[Any, ...] | None
    """The values it may take, or None where any of its kind will do."""
    default: Any
    """Its value when no preset or option sets it."""
    nullable: bool
    """Whether it may be none (Mindi's ``target``: no target)."""
    rule: str | None
    """The rule it sets, as RULES.md numbers them (``M-8``), if one."""
    description: str
    """One line for people, naming the rule."""

    @property
    def label(self) -> str:
        """The translation key of the option's name on the page (``opt.must_trump``)."""
        return f"opt.{self.name}"

    def to_dict(self) -> dict[str, Any]:
        """The option as ``GET /api/rules`` sends it."""
        return {
            "name": self.name,
            "type": self.kind,
            "values": None if self.choices is None else list(self.choices),
            "nullable": self.nullable,
            "default": list(self.default) if isinstance(self.default, tuple) else self.default,
            "description": self.description,
            "rule": self.rule,
            "label": self.label,
        }


@functools.cache
def rules_schema(rules_type: type[Any]) -> tuple[RuleOption, ...]:
    """Every option of a ``Rules`` dataclass, in order: its name, kind, choices (from the
    :func:`option`'s ``choices``, a ``Literal`` type or ``bool``), default, rule id and
    description (from :func:`option`; none for a plain field)."""
    hints = typing.get_type_hints(rules_type)
    default = rules_type()
    schema = []
    for f in dataclasses.fields(rules_type):
        args = typing.get_args(hints[f.name])
        nullable = type(None) in args
        base = next(a for a in args if a is not type(None)) if nullable else hints[f.name]
        choices: tuple[Any, ...] | None = f.metadata.get("choices")
        if choices is None and base is bool:
            choices = (False, True)
        elif choices is None and typing.get_origin(base) is Literal:
            choices = typing.get_args(base)
        kind = f.metadata.get("kind") or (
            "choice"
            if choices is not None
            else "numbers"
            if typing.get_origin(base) is tuple
            else "count"
        )
        schema.append(
            RuleOption(
                f.name,
                kind,
                choices,
                getattr(default, f.name),
                nullable,
                f.metadata.get("rule"),
                f.metadata.get("doc", ""),
            )
        )
    return tuple(schema)


# ---------------------------------------------------------------------------- the game


class GameSpec(ABC, Generic[R, M, V, D, X]):
    """One game as every layer above the engines uses it: the core every game has (rules,
    matches, moves, views, results, bots), and the facets a game may offer besides
    (:attr:`web`, :attr:`records`, :attr:`arena`, :attr:`learning`, :attr:`analysis`,
    :attr:`terminal`). A facet that is None is not offered: whoever needs it checks and
    says so. Subclass it and register an instance with :func:`hukum.games.register` to add
    a game (docs/architecture.md, "How to add a game"; tests/toygame.py).

    Type parameters: the rules ``R`` (a frozen dataclass), a move ``M``, a seat's view
    ``V``, a deal ``D`` and a match ``X`` of the game."""

    name: ClassVar[str]
    """The game's name in records, the CLI and the server (``mindi``)."""
    title: ClassVar[str]
    """The game's name for people (``Mindi``)."""
    bots: ClassVar[tuple[str, ...]]
    """The names :meth:`make_bot` knows, weakest first."""
    quick_bots: ClassVar[frozenset[str]] = frozenset()
    """The bots of :attr:`bots` that decide in well under a millisecond: a server runs them
    on its event loop, and hands the others' thinking to a worker thread."""
    default_preset: ClassVar[str]
    """The preset of a game whose rules name none."""

    web: WebFacet[R, M, V, D] | None = None
    """What the web app offers beyond a room: a watcher's view, replays, hints."""
    records: RecordsFacet[X] | None = None
    """The game's match records (:mod:`hukum.records`)."""
    arena: ArenaFacet[R, D] | None = None
    """How the arena seats and scores bots (:mod:`hukum.arena`)."""
    learning: LearningFacet[R, M, V, D] | None = None
    """The game for learning programs (:mod:`hukum.encoding`, :mod:`hukum.envs`)."""
    analysis: AnalysisFacet[D] | None = None
    """The exact solver's analysis of a finished deal (:mod:`hukum.analysis`)."""
    terminal: TerminalFacet | None = None
    """The game's screen in the terminal (:mod:`hukum.terminal`)."""

    # ------------------------------------------------------------------ rules and matches

    @property
    @abstractmethod
    def presets(self) -> Mapping[str, R]:
        """The named rule sets, by name."""

    def make_rules(self, preset: str | None = None, options: Mapping[str, Any] = {}) -> R:
        """Rules from a preset (default :attr:`default_preset`) changed by ``options``;
        RulesError names what is wrong."""
        name = self.default_preset if preset is None else preset
        if name not in self.presets:
            raise RulesError(
                f"no {self.title} preset {name!r}; choose one of " + ", ".join(self.presets)
            )
        try:
            return self.rules_from_dict({**self.rules_to_dict(self.presets[name]), **options})
        except RulesError:
            raise
        except (TypeError, ValueError) as e:
            raise RulesError(str(e)) from None

    @property
    def rules_type(self) -> type[R]:
        """The class of the game's rules (a dataclass whose defaults make a game)."""
        return type(self.presets[self.default_preset])

    def rules_schema(self) -> tuple[RuleOption, ...]:
        """Every rule option with its kind, choices, default, rule id and description."""
        rules_type: type = self.rules_type
        return rules_schema(rules_type)

    def rules_to_dict(self, rules: R) -> dict[str, Any]:
        """The rules as JSON: every option, tuples as lists."""
        return {
            o.name: list(v) if isinstance(v := getattr(rules, o.name), tuple) else v
            for o in self.rules_schema()
        }

    def rules_from_dict(self, data: Mapping[str, Any]) -> R:
        """Rules from :meth:`rules_to_dict` (missing options take their defaults)."""
        if not isinstance(data, Mapping):
            raise RulesError(f"rules must be an object of options, not {type(data).__name__}")
        names = [o.name for o in self.rules_schema()]
        for key in data:
            if key not in names:
                raise RulesError(f"no rule option {key!r}; the options are " + ", ".join(names))
        return self.rules_type(
            **{k: tuple(v) if isinstance(v, list) else v for k, v in data.items()}
        )

    def describe_rules(self, rules: R) -> str:
        """The options that differ from the defaults, in one line (empty if none)."""
        return ", ".join(
            f"{o.name}={getattr(rules, o.name)}"
            for o in self.rules_schema()
            if getattr(rules, o.name) != o.default
        )

    @abstractmethod
    def players(self, rules: R) -> int:
        """How many seats a deal of these rules has."""

    @property
    def player_counts(self) -> tuple[int, ...]:
        """Every number of seats some rules of the game have (default: its presets')."""
        return tuple(sorted({self.players(rules) for rules in self.presets.values()}))

    @abstractmethod
    def new_match(self, rules: R, seed: int) -> X:
        """A new match from its seed."""

    @abstractmethod
    def new_deal(self, rules: R, dealer: int, seed: int) -> D:
        """One deal shuffled from ``seed`` with ``dealer`` dealing, outside any match."""

    @abstractmethod
    def deal_seed(self, match_seed: int, number: int) -> int:
        """The seed of deal ``number`` (from 0) of a match of seed ``match_seed``."""

    @abstractmethod
    def dealt(self, rules: R, dealer: int, seed: int) -> dict[str, Any]:
        """What a seed deals, as JSON (``hands`` and any card shown to all): how anyone
        checks a deal against its published commitment."""

    def no_scores(self, rules: R) -> list[int]:
        """The match scores before anything is won: those of a new match."""
        return list(self.new_match(rules, 0).scores)

    # ------------------------------------------------------------------ moves and views

    @abstractmethod
    def parse_move(self, text: str) -> M:
        """A move from its text; InvalidMoveError if it is none."""

    def move_text(self, move: M, mover: int, viewer: int | None) -> str:
        """``mover``'s move as seat ``viewer`` may see it (None: as anyone may)."""
        return str(move)

    def max_move_text(self, rules: R) -> int:
        """The length of the longest move text of the game (what a message may carry)."""
        return 32

    @abstractmethod
    def view_to_dict(self, view: V) -> dict[str, Any]:
        """One seat's view as JSON: all a client is ever told of a deal (from the view alone)."""

    def public_view_to_dict(self, deal: D) -> dict[str, Any]:
        """What anyone may see of a deal, as JSON: the view of a watcher, who holds no seat
        (a server's spectators). Built from public facts only: no card of any hand, no card
        laid face down before it is turned up, no legal moves; ``seat`` is None.

        A game with a :attr:`web` facet gives it in the shape of its own
        :meth:`view_to_dict` (the client then draws both alike). Without, it is the dealer,
        phase and turn, every move as anyone may see it (:meth:`move_text` with no viewer)
        and, once the deal is over, its outcome in words."""
        if self.web is not None:
            return self.web.public_view_to_dict(deal)
        return {
            "seat": None,
            "dealer": deal.dealer,
            "phase": deal.phase,
            "turn": deal.turn,
            "moves": [{"seat": s, "move": self.move_text(m, s, None)} for s, m in deal.history],
            "outcome": {"text": self.describe_outcome(deal)} if deal.is_over() else None,
        }

    @abstractmethod
    def deal_result(self, deal: D) -> dict[str, Any]:
        """A finished deal's result as JSON: who won and the scores."""

    @abstractmethod
    def match_result(self, match: X) -> dict[str, Any]:
        """A match's scores and who won, as JSON."""

    @abstractmethod
    def describe_outcome(self, deal: D) -> str:
        """A finished deal's result in one line for people."""

    # ------------------------------------------------------------------ players

    @abstractmethod
    def make_bot(self, name: str, seed: int = 0, **options: Any) -> Player[V, M]:
        """A computer player by name with its options; BotError if there is no such bot."""

    @property
    @abstractmethod
    def match_type(self) -> type[X]:
        """The class of the game's matches (how a match is told to its game)."""


#: A game of any type: what a registry of several games holds.
AnyGame = GameSpec[Any, Any, Any, Any, Any]


class NotOfferedError(GameError):
    """A game asked for what it does not offer: its spec has no such facet."""


# ---------------------------------------------------------------------------- the facets


@dataclass(frozen=True)
class Reason:
    """Why a move is suggested, as data (a hint's ``reason``, docs/protocol.md): its
    ``clauses`` in order, each a message key and its arguments (cards and suits by their
    codes, whole numbers), from which a client writes the sentence in its own language with
    the cards as it draws them; ``text`` is the same sentence in English (the hint's
    ``why``)."""

    text: str
    clauses: tuple[tuple[str, Mapping[str, object]], ...]

    def to_dict(self) -> list[dict[str, object]]:
        """The clauses as JSON: ``[{"key": …, "args": {…}}, …]``."""
        return [{"key": key, "args": dict(args)} for key, args in self.clauses]


class WebFacet(ABC, Generic[R, M, V, D]):
    """What the web app offers of a game beyond a room to play it in: a watcher's view in
    the shape of the game's own views, the replay of a finished deal for the analysis board,
    and move suggestions with their reasons (practice hints). Without it a game still gets
    rooms: watchers see the core's public view, and replays and hints are not offered."""

    hint_bot: ClassVar[str]
    """The bot of the game's :attr:`~GameSpec.bots` that suggests a move to a person who
    asks (:meth:`suggest`): the game's strongest."""

    def __init__(self, spec: GameSpec[R, M, V, D, Any]) -> None:
        """The facet of ``spec``, whose views and bots it uses."""
        self.spec = spec

    @abstractmethod
    def public_view_to_dict(self, deal: D) -> dict[str, Any]:
        """What anyone may see of the deal, in the shape of :meth:`GameSpec.view_to_dict`
        (see :meth:`GameSpec.public_view_to_dict`)."""

    @abstractmethod
    def replay_to_dict(self, deal: D) -> dict[str, Any]:
        """A finished deal move by move with every hand face up, as JSON (the web app's
        analysis board): ``moves``, each with its seat and trick; ``positions``, the deal as
        dealt and after each move (hands, trick, trump, what each side has taken); and the
        ``outcome``. Never for a deal in progress: it shows every hand."""

    def explain(self, view: V, move: M) -> str:
        """Why ``move``, one of ``view.legal_moves``, suits the seat of ``view``, in one line
        of English worked out from that view alone: it never names a card the seat has not
        seen: the English of :meth:`reason`, which a game overrides with its own reasons."""
        return self.reason(view, move).text

    def reason(self, view: V, move: M) -> Reason:
        """:meth:`explain` as data (:class:`Reason`), for a client to write in its own
        words. A game overrides it with its own reasons; this default says what the move
        is."""
        return Reason("the choice of the strongest computer player", (("strongest", {}),))

    def suggest(self, view: V, seed: int = 0) -> tuple[M, str]:
        """The move :attr:`hint_bot` makes from ``view`` (its seat to move; seeded with
        ``seed``, so the same position and seed give the same move), and why, in one line
        (:meth:`explain`)."""
        move = self.spec.make_bot(self.hint_bot, seed=seed).choose(view)
        return move, self.explain(view, move)


class RecordsFacet(ABC, Generic[X]):
    """The game's match records (:mod:`hukum.records`): a whole match as one versioned JSON
    document that replays move by move (the shared layout of :mod:`hukum.recordfile`)."""

    @abstractmethod
    def record_to_dict(self, match: X) -> dict[str, Any]:
        """The match's record as JSON-ready data."""

    @abstractmethod
    def record_from_dict(self, data: dict[str, Any]) -> X:
        """Replay record data into a match, checking it; RecordError says what is wrong."""


class ArenaFacet(ABC, Generic[R, D]):
    """How the arena (:mod:`hukum.arena`) plays the game: the seatings of one duplicate
    deal, what one play of it gave bot A, who won the deal and the game's own figures."""

    play_type: ClassVar[type[Any]]
    """The class of :meth:`play`'s results (a frozen dataclass of numbers, strings and
    tuples of them), which an arena results file stores field by field."""

    @abstractmethod
    def one_deal(self, rules: R) -> R:
        """These rules for a match of exactly one deal (the arena plays such matches)."""

    @abstractmethod
    def seatings(self, rules: R) -> Sequence[tuple[Side, ...]]:
        """The plays of one duplicate arena deal: for each, the sides that play it."""

    @abstractmethod
    def play(self, number: int, a_seats: tuple[int, ...], deal: D) -> Any:
        """One finished play of arena deal ``number`` seen from bot A's side (at
        ``a_seats``): a :attr:`play_type` the game's figures read."""

    @abstractmethod
    def duplicate_score(self, plays: Sequence[Any]) -> float:
        """Bot A's score for a duplicate deal from its plays: 1 won, 0.5 tied, 0 lost."""

    @abstractmethod
    def rows(self, plays: Sequence[Any]) -> list[tuple[str, str, str]]:
        """The game's own figures of an arena run: (figure, bot A, bot B) rows."""

    def title(self, bot_a: str, bot_b: str) -> str:
        """How a match-up is named in an arena report."""
        return f"{bot_a} (A) vs {bot_b} (B)"


class LearningFacet(ABC, Generic[R, M, V, D]):
    """The game as learning programs see it: whole-number actions and 0/1 observations
    (:mod:`hukum.encoding`), deals built from hands and sampled from a seat's knowledge.
    A game with it is an environment of :mod:`hukum.envs` and an OpenSpiel game
    (:mod:`hukum.envs.openspiel` registers one for each such game)."""

    @abstractmethod
    def encoding(self, rules: R) -> Encoding[V, M, D]:
        """The game under ``rules`` as actions, observations and rewards."""

    @abstractmethod
    def deal_from(
        self,
        rules: R,
        dealer: int,
        hands: Sequence[Sequence[int]],
        shown_card: int | None = None,
    ) -> D:
        """A deal of the hands as dealt (each seat's cards in the order received, as the
        engine's card numbers) and, if the rules show one, the card shown to all."""

    @abstractmethod
    def sample_deal(self, view: V, rng: random.Random) -> D:
        """A deal that agrees with everything ``view``'s seat knows (its hand, the moves
        made, shown voids, the band chooser's knowledge), the cards it has not seen dealt
        at random, with the view's history replayed: one world for search and for
        OpenSpiel's ``resample_from_infostate``."""


class AnalysisFacet(ABC, Generic[D]):
    """The exact solver's analysis of a finished deal, all hands seen
    (:mod:`hukum.analysis`): for each move, the best result the mover's side could force
    before and after it. Its deals are what that solver reads (Mindi's, today)."""

    @abstractmethod
    def tricks(self, deal: D) -> int:
        """The tricks of the whole deal: the most an analysis goes back."""


@dataclass(frozen=True)
class TerminalFacet:
    """The game's screen in the terminal (``hukum play``, ``hukum replay``): where its
    :class:`hukum.terminal.Screen` class is, as ``module:Class``. Named, not imported: the
    terminal sits above the games (docs/architecture.md) and loads it to draw the game."""

    screen: str
    """The screen class, e.g. ``hukum.terminal.mindi:MindiScreen``."""
