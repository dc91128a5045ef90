"""The record file format every game shares: the header, the JSON layout, and the checks of
fields that give errors naming the place. Each game's records (``hukum.mindi.record``,
``hukum.ganjifa.record``) are written with these; :mod:`hukum.records` reads and writes the
records of every game.

>>> print(format_json({"moves": ["10S", "QH"], "outcome": None}, 0))
{
  "moves": ["10S", "QH"],
  "outcome": null
}
>>> parse_json(bytes([255]))
Traceback (most recent call last):
...
hukum.recordfile.RecordError: not a record: the file is not UTF-8 text (invalid start byte)
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = [
    "FORMAT",
    "VERSION",
    "RecordError",
    "as_int",
    "check_fields",
    "check_header",
    "describe",
    "field",
    "format_json",
    "is_int",
    "parse_field",
    "parse_json",
    "same",
]

T = TypeVar("T")

#: The value of the ``format`` field of every record.
FORMAT = "hukum-record"
#: The newest record version this module writes and reads.
VERSION = 1


class RecordError(ValueError):
    """A record that is not JSON, not a hukum record, or does not replay as recorded."""


def parse_json(text: str | bytes) -> Any:
    """JSON text (UTF-8 if bytes) as data; RecordError if it is not JSON."""
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


def check_header(data: Any) -> None:
    """Check that ``data`` is a record object of a version this module reads."""
    if not isinstance(data, dict):
        raise RecordError(f"not a record: expected a JSON object, found {describe(data)}")
    if data.get("format") != FORMAT:
        if "format" not in data:
            raise RecordError(f"not a record: the field 'format' (\"{FORMAT}\") is missing")
        raise RecordError(
            f"not a record: 'format' is {describe(data['format'])}, expected \"{FORMAT}\""
        )
    version = field(data, "version", "the record")
    if isinstance(version, bool) or not isinstance(version, int):
        raise RecordError(f"'version' must be a whole number, not {describe(version)}")
    if version > VERSION:
        raise RecordError(f"record version {version} is newer than this hukum reads ({VERSION})")
    if version < 1:
        raise RecordError(f"record version {version} does not exist (versions start at 1)")


#: The column a list of scalars is wrapped at.
WIDTH = 100


def format_json(value: Any, indent: int) -> str:
    """JSON with objects and nested lists spread over lines, lists of scalars kept together
    (wrapped at about 100 columns)."""
    pad = "  " * indent
    inner = "  " * (indent + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f"{inner}{json.dumps(k)}: {format_json(v, indent + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list):
        if any(isinstance(v, dict | list) for v in value):
            items = [inner + format_json(v, indent + 1) for v in value]
            return "[\n" + ",\n".join(items) + "\n" + pad + "]"
        flat = json.dumps(value, ensure_ascii=False)
        if len(inner) + len(flat) + 1 <= WIDTH:
            return flat
        lines: list[str] = []
        line = ""
        for v in value:
            word = json.dumps(v, ensure_ascii=False)
            if line and len(inner) + len(line) + len(word) + 2 > WIDTH:
                lines.append(line)
                line = ""
            line = f"{line}, {word}" if line else word
        lines.append(line)
        return "[\n" + ",\n".join(inner + ln for ln in lines) + "\n" + pad + "]"
    return json.dumps(value, ensure_ascii=False)


def field(data: dict[str, Any], key: str, where: str) -> Any:
    """``data[key]``; RecordError if the field is missing."""
    if key not in data:
        raise RecordError(f"{where}: the field {key!r} is missing")
    return data[key]


def check_fields(data: dict[str, Any], fields: tuple[str, ...], where: str) -> None:
    """RecordError unless ``data`` has exactly ``fields``."""
    for key in fields:
        field(data, key, where)
    for key in data:
        if key not in fields:
            raise RecordError(
                f"{where}: unknown field {key!r} (the fields are {', '.join(fields)})"
            )


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def as_int(value: Any, where: str) -> int:
    """A JSON whole number; RecordError naming ``where`` if it is none."""
    if not is_int(value):
        raise RecordError(f"{where} must be a whole number, not {describe(value)}")
    return int(value)


def same(a: Any, b: Any) -> bool:
    """Equality of JSON values that also tells true from 1 and 2.0 from 2."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return bool(a == b)


def describe(value: Any) -> str:
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


def parse_field(value: Any, where: str, parse: Callable[[str], T], example: str) -> T:
    """A JSON string read by ``parse`` (a card, a move); RecordError naming ``where`` if it
    is no string (``expected`` ``example``) or ``parse`` refuses it with a ValueError."""
    if not isinstance(value, str):
        raise RecordError(f"{where}: expected {example}, found {describe(value)}")
    try:
        return parse(value)
    except ValueError as e:
        raise RecordError(f"{where}: {e}") from None
