"""Game records: a whole match of any game as one versioned JSON document that replays move
by move. Its ``game`` field names the game; each game writes and reads its own fields
(:mod:`hukum.mindi.record`, :mod:`hukum.ganjifa.record`, through the records facet of its
:class:`~hukum.game.GameSpec`), on the shared layout of :mod:`hukum.recordfile`.
:func:`to_dict`, :func:`dumps` and :func:`save` take a match of any game; :func:`load_any`,
:func:`loads_any` and :func:`from_dict_any` read any game; :func:`load`, :func:`loads` and
:func:`from_dict` read Mindi records only, as they always did.

A Mindi record:

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
hukum.recordfile.RecordError: record version 7 is newer than this hukum reads (1)
"""

from __future__ import annotations

import os
from typing import Any

from hukum.game import Match as AnyMatch
from hukum.games import GAMES, spec_of
from hukum.mindi import Match
from hukum.mindi import record as mindi_record
from hukum.recordfile import (
    FORMAT,
    VERSION,
    RecordError,
    check_header,
    describe,
    field,
    format_json,
    parse_json,
)

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


# ---------------------------------------------------------------------------- writing


def to_dict(match: AnyMatch[Any, Any]) -> dict[str, Any]:
    """The record of a match of any game (finished or not) as JSON-ready data;
    RecordError for a game that keeps no records (its spec has no records facet)."""
    spec = spec_of(match)
    if spec.records is None:
        raise RecordError(f"{spec.title} keeps no records")
    return spec.records.record_to_dict(match)


def dumps(match: AnyMatch[Any, Any]) -> str:
    """The record of a match as JSON text (short lists on one line, for people to read)."""
    return format_json(to_dict(match), 0)


def save(match: AnyMatch[Any, Any], path: str | os.PathLike[str]) -> None:
    """Write the record of a match to a file (UTF-8 JSON)."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(dumps(match) + "\n")


# ---------------------------------------------------------------------------- reading


def _read(path: str | os.PathLike[str]) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise RecordError(f"cannot read {os.fspath(path)!r}: {e.strerror or e}") from None


def load(path: str | os.PathLike[str]) -> Match:
    """Read a Mindi record file and replay it into a :class:`~hukum.mindi.Match`."""
    return loads(_read(path))


def loads(text: str | bytes) -> Match:
    """Replay a Mindi record given as JSON text into a :class:`~hukum.mindi.Match`."""
    return from_dict(parse_json(text))


def from_dict(data: Any) -> Match:
    """Replay Mindi record data (parsed JSON), checking it on the way."""
    return mindi_record.from_dict(data)


def load_any(path: str | os.PathLike[str]) -> AnyMatch[Any, Any]:
    """Read a record file of any game and replay it into its match."""
    return loads_any(_read(path))


def loads_any(text: str | bytes) -> AnyMatch[Any, Any]:
    """Replay a record of any game given as JSON text into its match."""
    return from_dict_any(parse_json(text))


def from_dict_any(data: Any) -> AnyMatch[Any, Any]:
    """Replay record data of any game, by its ``game`` field."""
    check_header(data)
    game = field(data, "game", "the record")
    spec = GAMES.get(game) if isinstance(game, str) else None
    if spec is None:
        raise RecordError(
            f"'game' is {describe(game)}; this hukum reads records of " + ", ".join(GAMES)
        )
    if spec.records is None:
        raise RecordError(f"{spec.title} keeps no records")
    match: AnyMatch[Any, Any] = spec.records.record_from_dict(data)
    return match
