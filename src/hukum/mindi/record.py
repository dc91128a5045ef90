"""Game records of Mindi matches: the versioned JSON format of :mod:`hukum.records` with
``"game": "mindi"`` (the format is described there). :func:`hukum.records.loads_any` reads
the records of every game.

>>> from hukum.mindi import Deal, Match, Rules
>>> match = Match(Rules(), seed=5)
>>> data = to_dict(match)
>>> data["game"], data["draw"]["dealer"] == match.dealer
('mindi', True)
>>> from_dict({**data, "seed": 6})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
hukum.recordfile.RecordError: draw: the recorded dealer 3 differs from the draw the ... (M-5)
"""

from __future__ import annotations

from typing import Any

from hukum.cards import Card
from hukum.mindi.deal import Deal, deal_hands
from hukum.mindi.match import Draw, Match
from hukum.mindi.move import IllegalMoveError, Move
from hukum.mindi.outcome import Outcome
from hukum.mindi.rules import Rules, RulesError
from hukum.recordfile import (
    FORMAT,
    VERSION,
    RecordError,
    as_int,
    check_fields,
    check_header,
    describe,
    field,
    format_json,
    is_int,
    parse_field,
    parse_json,
    same,
)

__all__ = ["GAME", "dumps", "from_dict", "loads", "to_dict"]

#: The ``game`` field of a Mindi record.
GAME = "mindi"

_TOP_FIELDS = ("format", "version", "game", "rules", "seed", "draw", "deals", "scores", "winner")
_DRAW_FIELDS = ("dealer", "seating", "rounds")
_DEAL_FIELDS = ("dealer", "seed", "shown_card", "hands", "moves", "outcome")
_OUTCOME_FIELDS = ("winner", "kind", "tens", "tricks", "decided_by", "highest_trick", "points")
# The JSON type of each rule option, checked before the options reach Rules (which
# compares values, so that 4.0 would pass for 4 there).
_RULE_TYPES = {
    "players": "int",
    "deck": "int",
    "direction": "str",
    "first_dealer": "str",
    "draw_partnerships": "bool",
    "trump": "str",
    "reveal": "str",
    "must_trump": "bool",
    "capture": "str",
    "tie_break": "str",
    "points": "ints",
    "target": "int?",
    "deals": "int?",
    "dealer_rotation": "str",
}


def to_dict(match: Match) -> dict[str, Any]:
    """The record of a Mindi match (finished or not) as JSON-ready data."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": GAME,
        "rules": match.rules.to_dict(),
        "seed": match.seed,
        "draw": _draw_dict(match.draw),
        "deals": [_deal_dict(deal) for deal in match.deals],
        "scores": list(match.scores),
        "winner": match.winner(),
    }


def dumps(match: Match) -> str:
    """The record of a Mindi match as JSON text (short lists on one line, for people)."""
    return format_json(to_dict(match), 0)


def _draw_dict(draw: Draw) -> dict[str, Any]:
    return {
        "dealer": draw.dealer,
        "seating": list(draw.seating),
        "rounds": [[c.code for c in r] for r in draw.rounds],
    }


def _deal_dict(deal: Deal) -> dict[str, Any]:
    outcome = deal.outcome()
    return {
        "dealer": deal.dealer,
        "seed": deal.seed,
        "shown_card": deal.shown_card.code if deal.shown_card is not None else None,
        "hands": [[c.code for c in hand] for hand in deal.dealt],
        "moves": [str(m) for m in deal.moves],
        "outcome": _outcome_dict(outcome) if outcome is not None else None,
    }


def _outcome_dict(outcome: Outcome) -> dict[str, Any]:
    return {
        "winner": outcome.winner,
        "kind": outcome.kind,
        "tens": list(outcome.tens),
        "tricks": list(outcome.tricks),
        "decided_by": outcome.decided_by,
        "highest_trick": outcome.highest_trick,
        "points": outcome.points,
    }


def loads(text: str | bytes) -> Match:
    """Replay a Mindi record given as JSON text into a :class:`Match`."""
    return from_dict(parse_json(text))


def from_dict(data: Any) -> Match:
    """Replay record data (parsed JSON) into a :class:`Match`, checking it on the way."""
    check_header(data)
    game = field(data, "game", "the record")
    if game != GAME:
        raise RecordError(
            f"'game' is {describe(game)}; this reads Mindi records (\"mindi\"); "
            "hukum.records.loads_any reads every game"
        )
    check_fields(data, _TOP_FIELDS, "the record")

    rules = _rules(data["rules"])
    seed = as_int(data["seed"], "'seed'")
    match = Match(rules, seed)
    _check_draw(data["draw"], match)

    deals = data["deals"]
    if not isinstance(deals, list):
        raise RecordError(f"'deals' must be a list of deals, not {describe(deals)}")
    for number, record in enumerate(deals, start=1):
        _replay_deal(match, record, number, last=number == len(deals))

    scores = list(match.scores)
    if not same(data["scores"], scores):
        raise RecordError(
            f"the recorded scores {describe(data['scores'])} differ from the replay's "
            f"{scores[0]}–{scores[1]}"
        )
    winner = match.winner()
    if not same(data["winner"], winner):
        said = "no winner yet" if winner is None else f"team {winner}"
        raise RecordError(
            f"the recorded match winner {describe(data['winner'])} differs from the replay's "
            f"({said})"
        )
    return match


def _rules(data: Any) -> Rules:
    if not isinstance(data, dict):
        raise RecordError(f"'rules' must be an object of rule options, not {describe(data)}")
    for key, value in data.items():
        if not isinstance(key, str):
            raise RecordError(f"rules: an option name must be a string, not {key!r}")
        kind = _RULE_TYPES.get(key)
        ok = True
        if kind == "int" or kind == "int?":
            ok = (value is None and kind == "int?") or is_int(value)
        elif kind == "bool":
            ok = isinstance(value, bool)
        elif kind == "str":
            ok = isinstance(value, str)
        elif kind == "ints":
            ok = isinstance(value, list) and all(is_int(v) for v in value)
        if not ok:
            expected = {
                "int": "a whole number",
                "int?": "a whole number or null",
                "bool": "true or false",
                "str": "a string",
                "ints": "a list of whole numbers",
            }[kind or ""]
            raise RecordError(f"rules: {key!r} must be {expected}, not {describe(value)}")
    try:
        return Rules.from_dict(data)
    except RulesError as e:
        raise RecordError(f"rules: {e}") from None


def _check_draw(data: Any, match: Match) -> None:
    if not isinstance(data, dict):
        raise RecordError(f"'draw' must be an object, not {describe(data)}")
    check_fields(data, _DRAW_FIELDS, "draw")
    drawn = _draw_dict(match.draw)
    for key in _DRAW_FIELDS:
        if not same(data[key], drawn[key]):
            raise RecordError(
                f"draw: the recorded {key} {describe(data[key])} differs from the draw the "
                f"match seed {match.seed} gives ({describe(drawn[key])}) (M-5)"
            )


def _replay_deal(match: Match, data: Any, number: int, last: bool) -> None:
    where = f"deal {number}"
    if not isinstance(data, dict):
        raise RecordError(f"{where}: expected an object, found {describe(data)}")
    check_fields(data, _DEAL_FIELDS, where)
    if match.is_over():
        a, b = match.scores
        raise RecordError(
            f"{where}: the match was already over after deal {number - 1} ({a}–{b}), "
            "but the record goes on"
        )
    rules = match.rules
    dealer = as_int(data["dealer"], f"{where}: 'dealer'")
    if dealer != match.dealer:
        raise RecordError(
            f"{where}: the record says seat {dealer} deals, but the rules make seat "
            f"{match.dealer} the dealer (M-19)"
        )
    seed = data["seed"]
    if seed is not None:
        seed = as_int(seed, f"{where}: 'seed'")
    shown: Card | None = None
    if data["shown_card"] is not None:
        shown = _card(data["shown_card"], f"{where}: 'shown_card'")
    hands = data["hands"]
    if not isinstance(hands, list) or len(hands) != rules.players:
        raise RecordError(
            f"{where}: 'hands' must be a list of {rules.players} hands, one per seat, "
            f"not {describe(hands)}"
        )
    parsed: list[tuple[Card, ...]] = []
    for seat, hand in enumerate(hands):
        if not isinstance(hand, list):
            raise RecordError(
                f"{where}, hand of seat {seat}: expected a list of cards, found {describe(hand)}"
            )
        parsed.append(tuple(_card(c, f"{where}, hand of seat {seat}") for c in hand))
    if seed is not None:
        dealt, shown_dealt = deal_hands(rules, dealer, seed)
        for seat, (mine, theirs) in enumerate(zip(parsed, dealt, strict=True)):
            if mine != theirs:
                raise RecordError(
                    f"{where}: the hand of seat {seat} is not the one seed {seed} deals (M-6)"
                )
        if shown != shown_dealt:
            raise RecordError(f"{where}: the shown card is not the one seed {seed} draws (M-14)")
    try:
        deal = match.start_deal(seed=seed, hands=parsed, shown_card=shown)
    except ValueError as e:  # MatchError, or hands the rules do not allow
        raise RecordError(f"{where}: {e}") from None

    moves = data["moves"]
    if not isinstance(moves, list):
        raise RecordError(f"{where}: 'moves' must be a list of moves, not {describe(moves)}")
    for index, text in enumerate(moves, start=1):
        move = parse_field(text, f"{where}, move {index}", Move.parse, 'a move such as "10S"')
        try:
            deal.push(move)
        except IllegalMoveError as e:
            raise RecordError(f"{where}, move {index} ({move}): {e}") from None

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
                f"{where}: its {len(moves)} moves leave the deal unfinished, but another deal "
                "follows (only the last deal may be in progress)"
            )
        return
    replayed = _outcome_dict(outcome)
    if recorded is None:
        raise RecordError(
            f"{where}: the record says the deal is in progress, but its moves end it: "
            f"{outcome.describe()}"
        )
    if not isinstance(recorded, dict):
        raise RecordError(f"{where}: 'outcome' must be an object or null, not {describe(recorded)}")
    check_fields(recorded, _OUTCOME_FIELDS, f"{where}, outcome")
    differences = [
        f"{key} {describe(recorded[key])} recorded, {describe(replayed[key])} replayed"
        for key in _OUTCOME_FIELDS
        if not same(recorded[key], replayed[key])
    ]
    if differences:
        raise RecordError(
            f"{where}: the recorded outcome differs from the replay ({outcome.describe()}): "
            + "; ".join(differences)
        )


def _card(value: Any, where: str) -> Card:
    return parse_field(value, where, Card.parse, 'a card such as "10S"')
