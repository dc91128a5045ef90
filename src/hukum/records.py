"""Game records: a whole Mindi match as one versioned JSON document that replays move by move.

A record holds the rules, the match seed, the first-dealer draw (M-5) and, for every deal,
its dealer, its seed, the hands as dealt, every move in order (``str(Move)``, which
:meth:`Move.parse` reads back) and its outcome. Loading rebuilds the match from the rules
and the seed and replays every move through the engine, so a record that loads is a game
that was played by the rules and ends exactly as recorded. An example (hands and moves
shortened)::

    {
      "format": "hukum-record",
      "version": 1,
      "game": "mindi",
      "rules": {"players": 4, "deck": 52, "direction": "anticlockwise", ..., "target": 7},
      "seed": 42,
      "draw": {"dealer": 2, "seating": [0, 1, 2, 3], "rounds": [["JC", "QD", "AD", "5C"]]},
      "deals": [
        {
          "dealer": 2,
          "seed": 1234567890123,
          "shown_card": null,
          "hands": [["10S", "4H", ...], ["QD", ...], ["AS", ...], ["2C", ...]],
          "moves": ["7H", "KH", "2H", "AH", "10S", ...],
          "outcome": {"winner": 0, "kind": "win", "tens": [3, 1], "tricks": [7, 6],
                      "decided_by": "tens", "highest_trick": 4, "points": 1}
        }
      ],
      "scores": [1, 0],
      "winner": null
    }

The fields:

- ``rules``: every option, as :meth:`Rules.to_dict` gives them (a missing option takes its
  default). ``seed``: the match seed, which decides the draw and, by default, each deal.
- ``draw``: the first-dealer draw as :class:`~hukum.mindi.Draw` holds it (``rounds``: the
  cards drawn in each round, by player; ``seating``: the player in each seat); it must be
  the draw the match seed gives.
- ``deals``: in order. ``dealer`` must be the seat the rules make deal (M-19). ``seed`` is
  the deal's shuffle seed, or null for hands given directly; with a seed the ``hands``
  must be those the seed deals (M-6). ``hands`` holds each seat's cards in the order
  dealt (the first five are the first batch, M-15); ``shown_card`` is the card shown
  under open hukum (M-14), else null. ``moves`` is every move of every seat in order:
  a card (``"10S"``), ``"hide 10S"``, ``"reveal"`` or ``"announce S"``. ``outcome`` is
  the result (fields of :class:`~hukum.mindi.Outcome`), or null while the deal is in
  progress; only the last deal may be in progress.
- ``scores``: match points per team; ``winner``: the team that won the match, or null.

Cards are written ``10S``, ``QH``…; on loading every notation :meth:`Card.parse` reads is
accepted (``TS``, ``10♠``), and saving writes the canonical form. Anything wrong raises
:class:`RecordError` with a message naming the place; deals and moves are counted from 1
there (``deal 2, move 17 (QH): seat 3 must follow ♠ (M-8)``).

>>> from hukum.mindi import Match, Rules
>>> match = Match(Rules.preset("classic", target=2), seed=5)
>>> while not match.is_over():
...     deal = match.start_deal()
...     while not deal.is_over():
...         deal.push(deal.legal_moves()[0])
>>> again = loads(dumps(match))
>>> again.scores == match.scores, dumps(again) == dumps(match)
(True, True)
>>> loads('{"format": "hukum-record", "version": 7}')
Traceback (most recent call last):
...
hukum.records.RecordError: record version 7 is newer than this hukum reads (1)
"""

from __future__ import annotations

import json
import os
from typing import Any

from hukum import ganjifa
from hukum.cards import Card, CardParseError
from hukum.mindi import (
    Deal,
    IllegalMoveError,
    InvalidMoveError,
    Match,
    Move,
    Outcome,
    Rules,
    RulesError,
    deal_hands,
)
from hukum.mindi.match import Draw

__all__ = [
    "FORMAT",
    "VERSION",
    "RecordError",
    "dumps",
    "from_dict",
    "from_dict_any",
    "load",
    "load_any",
    "loads",
    "loads_any",
    "save",
    "to_dict",
]

#: The value of the ``format`` field of every record.
FORMAT = "hukum-record"
#: The newest record version this module writes and reads.
VERSION = 1

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


class RecordError(ValueError):
    """A record that is not JSON, not a hukum record, or does not replay as recorded."""


# ---------------------------------------------------------------------------- writing


def to_dict(match: Match | ganjifa.Match) -> dict[str, Any]:
    """The record of a match (finished or not) as JSON-ready data."""
    if isinstance(match, ganjifa.Match):
        from hukum.ganjifa import record

        return record.to_dict(match)
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": "mindi",
        "rules": match.rules.to_dict(),
        "seed": match.seed,
        "draw": _draw_dict(match.draw),
        "deals": [_deal_dict(deal) for deal in match.deals],
        "scores": list(match.scores),
        "winner": match.winner(),
    }


def dumps(match: Match | ganjifa.Match) -> str:
    """The record of a match as JSON text (short lists on one line, for people to read)."""
    return _format(to_dict(match), 0)


def save(match: Match | ganjifa.Match, path: str | os.PathLike[str]) -> None:
    """Write the record of a match to a file (UTF-8 JSON)."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(dumps(match) + "\n")


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


_WIDTH = 100


def _format(value: Any, indent: int) -> str:
    """JSON with objects and nested lists spread over lines, lists of scalars kept together
    (wrapped at about 100 columns)."""
    pad = "  " * indent
    inner = "  " * (indent + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f"{inner}{json.dumps(k)}: {_format(v, indent + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list):
        if any(isinstance(v, dict | list) for v in value):
            items = [inner + _format(v, indent + 1) for v in value]
            return "[\n" + ",\n".join(items) + "\n" + pad + "]"
        flat = json.dumps(value, ensure_ascii=False)
        if len(inner) + len(flat) + 1 <= _WIDTH:
            return flat
        lines: list[str] = []
        line = ""
        for v in value:
            word = json.dumps(v, ensure_ascii=False)
            if line and len(inner) + len(line) + len(word) + 2 > _WIDTH:
                lines.append(line)
                line = ""
            line = f"{line}, {word}" if line else word
        lines.append(line)
        return "[\n" + ",\n".join(inner + ln for ln in lines) + "\n" + pad + "]"
    return json.dumps(value, ensure_ascii=False)


# ---------------------------------------------------------------------------- reading


def load(path: str | os.PathLike[str]) -> Match:
    """Read a record file and replay it into a :class:`Match`."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise RecordError(f"cannot read {os.fspath(path)!r}: {e.strerror or e}") from None
    return loads(data)


def loads(text: str | bytes) -> Match:
    """Replay a record given as JSON text into a :class:`Match`."""
    return from_dict(_json(text))


def load_any(path: str | os.PathLike[str]) -> Match | ganjifa.Match:
    """Read a record file of either game and replay it into its match."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise RecordError(f"cannot read {os.fspath(path)!r}: {e.strerror or e}") from None
    return loads_any(data)


def loads_any(text: str | bytes) -> Match | ganjifa.Match:
    """Replay a record of either game given as JSON text: a Mindi or a Ganjifa match."""
    return from_dict_any(_json(text))


def from_dict_any(data: Any) -> Match | ganjifa.Match:
    """Replay record data of either game, by its ``game`` field."""
    _check_header(data)
    if data.get("game") == "ganjifa":
        from hukum.ganjifa import record

        return record.from_dict(data)
    return from_dict(data)


def _json(text: str | bytes) -> Any:
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        data = json.loads(text)
    except UnicodeDecodeError as e:
        raise RecordError(f"not a record: the file is not UTF-8 text ({e.reason})") from None
    except json.JSONDecodeError as e:
        raise RecordError(f"not a record: not valid JSON ({e})") from None
    except (ValueError, RecursionError) as e:
        raise RecordError(f"not a record: not valid JSON ({e})") from None
    return data


def _check_header(data: Any) -> None:
    """Check that ``data`` is a record object of a version this module reads."""
    if not isinstance(data, dict):
        raise RecordError(f"not a record: expected a JSON object, found {_describe(data)}")
    if data.get("format") != FORMAT:
        if "format" not in data:
            raise RecordError(f"not a record: the field 'format' (\"{FORMAT}\") is missing")
        raise RecordError(
            f"not a record: 'format' is {_describe(data['format'])}, expected \"{FORMAT}\""
        )
    version = _field(data, "version", "the record")
    if isinstance(version, bool) or not isinstance(version, int):
        raise RecordError(f"'version' must be a whole number, not {_describe(version)}")
    if version > VERSION:
        raise RecordError(f"record version {version} is newer than this hukum reads ({VERSION})")
    if version < 1:
        raise RecordError(f"record version {version} does not exist (versions start at 1)")


def from_dict(data: Any) -> Match:
    """Replay record data (parsed JSON) into a :class:`Match`, checking it on the way."""
    _check_header(data)
    game = _field(data, "game", "the record")
    if game != "mindi":
        raise RecordError(
            f"'game' is {_describe(game)}; this reads Mindi records (\"mindi\"); "
            "loads_any reads both games"
        )
    _check_fields(data, _TOP_FIELDS, "the record")

    rules = _rules(data["rules"])
    seed = _int(data["seed"], "'seed'")
    match = Match(rules, seed)
    _check_draw(data["draw"], match)

    deals = data["deals"]
    if not isinstance(deals, list):
        raise RecordError(f"'deals' must be a list of deals, not {_describe(deals)}")
    for number, record in enumerate(deals, start=1):
        _replay_deal(match, record, number, last=number == len(deals))

    scores = list(match.scores)
    if not _same(data["scores"], scores):
        raise RecordError(
            f"the recorded scores {_describe(data['scores'])} differ from the replay's "
            f"{scores[0]}–{scores[1]}"
        )
    winner = match.winner()
    if not _same(data["winner"], winner):
        said = "no winner yet" if winner is None else f"team {winner}"
        raise RecordError(
            f"the recorded match winner {_describe(data['winner'])} differs from the replay's "
            f"({said})"
        )
    return match


def _rules(data: Any) -> Rules:
    if not isinstance(data, dict):
        raise RecordError(f"'rules' must be an object of rule options, not {_describe(data)}")
    for key, value in data.items():
        if not isinstance(key, str):
            raise RecordError(f"rules: an option name must be a string, not {key!r}")
        kind = _RULE_TYPES.get(key)
        ok = True
        if kind == "int" or kind == "int?":
            ok = (value is None and kind == "int?") or _is_int(value)
        elif kind == "bool":
            ok = isinstance(value, bool)
        elif kind == "str":
            ok = isinstance(value, str)
        elif kind == "ints":
            ok = isinstance(value, list) and all(_is_int(v) for v in value)
        if not ok:
            expected = {
                "int": "a whole number",
                "int?": "a whole number or null",
                "bool": "true or false",
                "str": "a string",
                "ints": "a list of whole numbers",
            }[kind or ""]
            raise RecordError(f"rules: {key!r} must be {expected}, not {_describe(value)}")
    try:
        return Rules.from_dict(data)
    except RulesError as e:
        raise RecordError(f"rules: {e}") from None


def _check_draw(data: Any, match: Match) -> None:
    if not isinstance(data, dict):
        raise RecordError(f"'draw' must be an object, not {_describe(data)}")
    _check_fields(data, _DRAW_FIELDS, "draw")
    drawn = _draw_dict(match.draw)
    for key in _DRAW_FIELDS:
        if not _same(data[key], drawn[key]):
            raise RecordError(
                f"draw: the recorded {key} {_describe(data[key])} differs from the draw the "
                f"match seed {match.seed} gives ({_describe(drawn[key])}) (M-5)"
            )


def _replay_deal(match: Match, data: Any, number: int, last: bool) -> None:
    where = f"deal {number}"
    if not isinstance(data, dict):
        raise RecordError(f"{where}: expected an object, found {_describe(data)}")
    _check_fields(data, _DEAL_FIELDS, where)
    if match.is_over():
        a, b = match.scores
        raise RecordError(
            f"{where}: the match was already over after deal {number - 1} ({a}–{b}), "
            "but the record goes on"
        )
    rules = match.rules
    dealer = _int(data["dealer"], f"{where}: 'dealer'")
    if dealer != match.dealer:
        raise RecordError(
            f"{where}: the record says seat {dealer} deals, but the rules make seat "
            f"{match.dealer} the dealer (M-19)"
        )
    seed = data["seed"]
    if seed is not None:
        seed = _int(seed, f"{where}: 'seed'")
    shown: Card | None = None
    if data["shown_card"] is not None:
        shown = _card(data["shown_card"], f"{where}: 'shown_card'")
    hands = data["hands"]
    if not isinstance(hands, list) or len(hands) != rules.players:
        raise RecordError(
            f"{where}: 'hands' must be a list of {rules.players} hands, one per seat, "
            f"not {_describe(hands)}"
        )
    parsed: list[tuple[Card, ...]] = []
    for seat, hand in enumerate(hands):
        if not isinstance(hand, list):
            raise RecordError(
                f"{where}, hand of seat {seat}: expected a list of cards, found {_describe(hand)}"
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
        raise RecordError(f"{where}: 'moves' must be a list of moves, not {_describe(moves)}")
    for index, text in enumerate(moves, start=1):
        if not isinstance(text, str):
            raise RecordError(
                f'{where}, move {index}: expected a move such as "10S", found {_describe(text)}'
            )
        try:
            move = Move.parse(text)
        except InvalidMoveError as e:
            raise RecordError(f"{where}, move {index}: {e}") from None
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
        raise RecordError(
            f"{where}: 'outcome' must be an object or null, not {_describe(recorded)}"
        )
    _check_fields(recorded, _OUTCOME_FIELDS, f"{where}, outcome")
    differences = [
        f"{key} {_describe(recorded[key])} recorded, {_describe(replayed[key])} replayed"
        for key in _OUTCOME_FIELDS
        if not _same(recorded[key], replayed[key])
    ]
    if differences:
        raise RecordError(
            f"{where}: the recorded outcome differs from the replay ({outcome.describe()}): "
            + "; ".join(differences)
        )


# ---------------------------------------------------------------------------- helpers


def _field(data: dict[str, Any], key: str, where: str) -> Any:
    if key not in data:
        raise RecordError(f"{where}: the field {key!r} is missing")
    return data[key]


def _check_fields(data: dict[str, Any], fields: tuple[str, ...], where: str) -> None:
    for key in fields:
        _field(data, key, where)
    for key in data:
        if key not in fields:
            raise RecordError(
                f"{where}: unknown field {key!r} (the fields are {', '.join(fields)})"
            )


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int(value: Any, where: str) -> int:
    if not _is_int(value):
        raise RecordError(f"{where} must be a whole number, not {_describe(value)}")
    return int(value)


def _card(value: Any, where: str) -> Card:
    if not isinstance(value, str):
        raise RecordError(f'{where}: expected a card such as "10S", found {_describe(value)}')
    try:
        return Card.parse(value)
    except CardParseError as e:
        raise RecordError(f"{where}: {e}") from None


def _same(a: Any, b: Any) -> bool:
    """Equality of JSON values that also tells true from 1 and 2.0 from 2."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return bool(a == b)


def _describe(value: Any) -> str:
    """A JSON value for an error message, shortened."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list) and len(value) > 4:
        return f"a list of {len(value)} items"
    try:
        text = json.dumps(value, ensure_ascii=False)
        text.encode("utf-8")  # a lone surrogate from a "\\ud800" escape cannot be printed
    except ValueError:
        text = json.dumps(value) if isinstance(value, str) else repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return text
