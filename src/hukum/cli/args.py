"""What the commands of ``hukum`` share: the usage error, argument types, the record file."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TypeAlias, TypeVar

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
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0, not {text}")
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
