"""The ``hukum`` command."""

from __future__ import annotations


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``hukum`` command."""
    raise SystemExit("hukum: the command line is not built yet")
