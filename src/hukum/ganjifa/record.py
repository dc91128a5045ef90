"""Game records of Ganjifa matches: the versioned JSON format of :mod:`hukum.records` with
``"game": "ganjifa"``. :func:`hukum.records.loads_any` reads the records of every game.

A record holds the rules, the match seed, the first-dealer draw and, for every deal, its
dealer, its seed, the hands as dealt, every move in order (``str(Move)``: ``"Ma1"``,
``"dukal Ra3 Ra4 Ra5"``, ``"give Ma10 Ku9 Ka1"``) and its outcome::

    {
      "format": "hukum-record",
      "version": 1,
      "game": "ganjifa",
      "rules": {"time": "day", "void_rule": "choice", "dukal": "run", "deals": 1},
      "seed": 42,
      "draw": {"dealer": 2, "rounds": [["Ma1", "Kr1", "KrR"]]},
      "deals": [
        {
          "dealer": 2,
          "seed": 1234567890123,
          "hands": [["Ka3", "Ma1", ...], [...], [...]],
          "moves": ["RaR", "Ra4", "Ra1", "dukal Ma2 Ma3 Ma4", "give Ku9 Ku10 Ka1", ...],
          "outcome": {"scores": [39, 30, 51], "winners": [2]}
        }
      ],
      "scores": [39, 30, 51],
      "winners": [2]
    }

Loading rebuilds the match from the rules and the seed and replays every move through the
engine, so a record that loads is a game played by the rules that ends as recorded;
anything wrong raises :class:`~hukum.records.RecordError` naming the place.

>>> from hukum.ganjifa import Match, Rules
>>> match = Match(Rules(time="night"), seed=5)
>>> deal = match.start_deal()
>>> while not deal.is_over():
...     deal.push(deal.legal_moves()[-1])
>>> again = loads(dumps(match))
>>> again.scores == match.scores, dumps(again) == dumps(match)
(True, True)
"""

from __future__ import annotations

from typing import Any

from hukum.ganjifa.cards import Card
from hukum.ganjifa.deal import Deal, deal_hands
from hukum.ganjifa.match import Match
from hukum.ganjifa.move import IllegalMoveError, InvalidMoveError, Move
from hukum.ganjifa.outcome import Outcome
from hukum.ganjifa.rules import PLAYERS, Rules, RulesError
from hukum.recordfile import (
    FORMAT,
    VERSION,
    RecordError,
    as_int,
    check_fields,
    check_header,
    describe,
    format_json,
    parse_field,
    parse_json,
    same,
)

__all__ = ["GAME", "dumps", "from_dict", "loads", "to_dict"]

#: The ``game`` field of a Ganjifa record.
GAME = "ganjifa"

_TOP_FIELDS = ("format", "version", "game", "rules", "seed", "draw", "deals", "scores", "winners")
_DRAW_FIELDS = ("dealer", "rounds")
_DEAL_FIELDS = ("dealer", "seed", "hands", "moves", "outcome")
_OUTCOME_FIELDS = ("scores", "winners")
_RULE_TYPES = {"time": str, "void_rule": str, "dukal": str, "deals": int}


def to_dict(match: Match) -> dict[str, Any]:
    """The record of a Ganjifa match (finished or not) as JSON-ready data."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": GAME,
        "rules": match.rules.to_dict(),
        "seed": match.seed,
        "draw": _draw_dict(match),
        "deals": [_deal_dict(deal) for deal in match.deals],
        "scores": list(match.scores),
        "winners": list(match.winners()),
    }


def dumps(match: Match) -> str:
    """The record of a Ganjifa match as JSON text."""
    return format_json(to_dict(match), 0)


def _draw_dict(match: Match) -> dict[str, Any]:
    return {
        "dealer": match.draw.dealer,
        "rounds": [[c.code for c in r] for r in match.draw.rounds],
    }


def _outcome_dict(outcome: Outcome) -> dict[str, Any]:
    return {"scores": list(outcome.scores), "winners": list(outcome.winners)}


def _deal_dict(deal: Deal) -> dict[str, Any]:
    outcome = deal.outcome()
    return {
        "dealer": deal.dealer,
        "seed": deal.seed,
        "hands": [[c.code for c in hand] for hand in deal.dealt],
        "moves": [str(m) for m in deal.moves],
        "outcome": _outcome_dict(outcome) if outcome is not None else None,
    }


def loads(text: str | bytes) -> Match:
    """Replay a Ganjifa record given as JSON text into a :class:`Match`."""
    return from_dict(parse_json(text))


def from_dict(data: Any) -> Match:
    """Replay Ganjifa record data (parsed JSON) into a :class:`Match`, checking it."""
    check_header(data)
    check_fields(data, _TOP_FIELDS, "the record")
    if data["game"] != GAME:
        raise RecordError(f"'game' is {describe(data['game'])}, expected \"ganjifa\"")
    rules = _rules(data["rules"])
    seed = as_int(data["seed"], "'seed'")
    match = Match(rules, seed)
    draw = data["draw"]
    if not isinstance(draw, dict):
        raise RecordError(f"'draw' must be an object, not {describe(draw)}")
    check_fields(draw, _DRAW_FIELDS, "draw")
    drawn = _draw_dict(match)
    for key in _DRAW_FIELDS:
        if not same(draw[key], drawn[key]):
            raise RecordError(
                f"draw: the recorded {key} {describe(draw[key])} differs from the draw the "
                f"match seed {seed} gives ({describe(drawn[key])}) (G-4)"
            )
    deals = data["deals"]
    if not isinstance(deals, list):
        raise RecordError(f"'deals' must be a list of deals, not {describe(deals)}")
    for number, record in enumerate(deals, start=1):
        _replay_deal(match, record, number, last=number == len(deals))
    for key, value in (("scores", list(match.scores)), ("winners", list(match.winners()))):
        if not same(data[key], value):
            raise RecordError(
                f"the recorded {key} {describe(data[key])} differ from the replay's "
                f"{describe(value)}"
            )
    return match


def _rules(data: Any) -> Rules:
    if not isinstance(data, dict):
        raise RecordError(f"'rules' must be an object of rule options, not {describe(data)}")
    for key, value in data.items():
        kind = _RULE_TYPES.get(key)
        if kind is not None and (type(value) is not kind):
            expected = "a whole number" if kind is int else "a string"
            raise RecordError(f"rules: {key!r} must be {expected}, not {describe(value)}")
    try:
        return Rules.from_dict(data)
    except RulesError as e:
        raise RecordError(f"rules: {e}") from None


def _card(value: Any, where: str) -> Card:
    return parse_field(value, where, Card.parse, 'a card such as "Ma1"')


def _replay_deal(match: Match, data: Any, number: int, last: bool) -> None:
    where = f"deal {number}"
    if not isinstance(data, dict):
        raise RecordError(f"{where}: expected an object, found {describe(data)}")
    check_fields(data, _DEAL_FIELDS, where)
    if match.is_over():
        raise RecordError(f"{where}: the match was already over, but the record goes on")
    dealer = as_int(data["dealer"], f"{where}: 'dealer'")
    if dealer != match.dealer:
        raise RecordError(
            f"{where}: the record says seat {dealer} deals, but seat {match.dealer} deals "
            "(the first dealer is drawn, then the deal passes anticlockwise)"
        )
    seed = data["seed"]
    if seed is not None:
        seed = as_int(seed, f"{where}: 'seed'")
    hands = data["hands"]
    if not isinstance(hands, list) or len(hands) != PLAYERS:
        raise RecordError(
            f"{where}: 'hands' must be a list of 3 hands, one per seat, not {describe(hands)}"
        )
    parsed: list[tuple[Card, ...]] = []
    for seat, hand in enumerate(hands):
        if not isinstance(hand, list):
            raise RecordError(
                f"{where}, hand of seat {seat}: expected a list of cards, found {describe(hand)}"
            )
        parsed.append(tuple(_card(c, f"{where}, hand of seat {seat}") for c in hand))
    if seed is not None:
        for seat, (mine, theirs) in enumerate(zip(parsed, deal_hands(dealer, seed), strict=True)):
            if mine != theirs:
                raise RecordError(
                    f"{where}: the hand of seat {seat} is not the one seed {seed} deals (G-4)"
                )
    try:
        deal = match.start_deal(seed=seed, hands=parsed)
    except ValueError as e:
        raise RecordError(f"{where}: {e}") from None
    moves = data["moves"]
    if not isinstance(moves, list):
        raise RecordError(f"{where}: 'moves' must be a list of moves, not {describe(moves)}")
    for index, text in enumerate(moves, start=1):
        if not isinstance(text, str):
            raise RecordError(
                f'{where}, move {index}: expected a move such as "Ma1", found {describe(text)}'
            )
        try:
            move = Move.parse(text)
            deal.push(move)
        except (InvalidMoveError, IllegalMoveError) as e:
            raise RecordError(f"{where}, move {index} ({text}): {e}") from None
    outcome = deal.outcome()
    recorded = data["outcome"]
    if outcome is None:
        if recorded is not None:
            raise RecordError(
                f"{where}: the record gives an outcome, but its {len(moves)} moves leave the "
                "deal unfinished"
            )
        if not last:
            raise RecordError(
                f"{where}: its moves leave the deal unfinished, but another deal follows"
            )
        return
    if not isinstance(recorded, dict):
        raise RecordError(
            f"{where}: the record says the deal is in progress (or gives no object), but its "
            f"moves end it: {outcome.describe()}"
        )
    check_fields(recorded, _OUTCOME_FIELDS, f"{where}, outcome")
    replayed = _outcome_dict(outcome)
    for key in _OUTCOME_FIELDS:
        if not same(recorded[key], replayed[key]):
            raise RecordError(
                f"{where}: the recorded outcome differs from the replay ({outcome.describe()}): "
                f"{key} {describe(recorded[key])} recorded, {describe(replayed[key])} replayed"
            )
