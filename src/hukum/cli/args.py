"""What the commands of ``hukum`` share: the usage error, argument types, the record file."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import Any, TypeAlias, TypeVar

from hukum.recordfile import RecordError

__all__ = ["Commands", "UsageError", "load_record", "positive", "seconds", "tricks_option"]

X = TypeVar("X")

#: The subparsers of the ``hukum`` command, to which each command adds itself.
Commands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


class UsageError(Exception):
    """A mistake in the command line, reported on stderr with exit code 2."""


def positive(text: str) -> int:
    """A whole number from 1 on (an argparse type)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def seconds(text: str) -> float:
    """A number of seconds above 0 (an argparse type)."""
    return _seconds(text, zero=False)


def delay(text: str) -> float:
    """A number of seconds, 0 or more (an argparse type)."""
    return _seconds(text, zero=True)


def _seconds(text: str, *, zero: bool) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not (value >= 0 if zero else value > 0):
        least = "0 or more" if zero else "more than 0"
        raise argparse.ArgumentTypeError(f"must be {least}, not {text}")
    return value


def tricks_option(parser: argparse.ArgumentParser, default: int, metavar: str, text: str) -> None:
    """The --tricks option of solve and bench: a number of tricks from 1 to 13."""
    parser.add_argument(
        "--tricks", type=int, default=default, choices=range(1, 14), metavar=metavar, help=text
    )


def load_record(path: str, loads: Callable[[bytes], X]) -> X:
    """The match of a record file named on the command line, read by ``loads`` (e.g.
    :func:`hukum.records.loads_any`); UsageError names the file and what is wrong."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise UsageError(f"{path}: cannot read the file: {e.strerror or e}") from None
    try:
        return loads(data)
    except RecordError as e:
        raise UsageError(f"{path}: {e}") from None


def _value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("none", "null", ""):
        return None
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    try:
        return tuple(int(p) for p in text.split(",")) if "," in text else text
    except ValueError:
        return text


def parse_options(pairs: Sequence[str], flag: str = "--option") -> dict[str, Any]:
    """``KEY=VALUE`` pairs (rule or bot options) as keyword options: ``true``/``yes``,
    ``false``/``no``, ``none``, whole numbers, decimals, lists of whole numbers or words;
    ``max-nodes`` is ``max_nodes``.

    >>> parse_options(["solve_tricks=10", "infer=0.5", "max-nodes=none", "points=1,2,3"])
    {'solve_tricks': 10, 'infer': 0.5, 'max_nodes': None, 'points': (1, 2, 3)}
    >>> parse_options(["must-trump=yes", "time=night"])
    {'must_trump': True, 'time': 'night'}
    """
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise UsageError(f"{flag} {pair!r}: write key=value, e.g. {flag} must_trump=true")
        options[key] = _value(value.strip())
    return options
