"""What a Dukal is under each ``dukal`` option (G-9), as masks of one suit's twelve cards.

A suit's cards are the bits 0 … 11 of its 12-bit holding, by power (see :mod:`cards`):
bit 11 is the Raja, bit 10 the Mantri, bits 9 … 0 the numerals from strongest to weakest.

- ``run`` (default): 3 or more consecutive cards in the suit's ranking, courts included.
- ``royal_run``: the Raja, the Mantri and a run of 3 or more consecutive numerals.
  **House decision:** the numerals need not join the Mantri (Raja, Mantri, 3-4-5 is one).
- ``either``: the Raja with the Mantri (exactly those two), or 3 or more consecutive
  numerals (courts not included).

>>> [bin(p) for p in patterns("run") if p.bit_count() == 11]
['0b11111111111', '0b111111111110']
>>> len(patterns("run")), len(patterns("royal_run")), len(patterns("either"))
(55, 36, 37)
>>> contained("run", 0b111000000111)[-1] == 0b111000000000      # R-M-top numeral
True
"""

from __future__ import annotations

import functools

__all__ = ["DESCRIPTIONS", "contained", "is_dukal", "patterns"]

#: How each option's Dukal is described to players.
DESCRIPTIONS = {
    "run": "3 or more consecutive cards of one suit",
    "royal_run": "the Raja, the Mantri and 3 or more consecutive numerals of one suit",
    "either": "the Raja with the Mantri, or 3 or more consecutive numerals of one suit",
}

_COURTS = 0b110000000000


def _runs(low: int, high: int, least: int) -> list[int]:
    """Every run of ``least`` or more consecutive bits within bits ``low`` … ``high``."""
    out = []
    for start in range(low, high + 1):
        for end in range(start + least - 1, high + 1):
            out.append(((1 << (end - start + 1)) - 1) << start)
    return out


@functools.cache
def patterns(option: str) -> tuple[int, ...]:
    """Every Dukal of one suit under ``option``, as 12-bit masks."""
    if option == "run":
        return tuple(_runs(0, 11, 3))
    if option == "royal_run":
        return tuple(_COURTS | r for r in _runs(0, 9, 3))
    if option == "either":
        return (_COURTS, *_runs(0, 9, 3))
    raise ValueError(f"no dukal option {option!r}")


@functools.cache
def _table(option: str) -> tuple[tuple[int, ...], ...]:
    every = patterns(option)
    return tuple(tuple(p for p in every if p & h == p) for h in range(4096))


def contained(option: str, holding: int) -> tuple[int, ...]:
    """The Dukals (12-bit masks) that a 12-bit holding of one suit contains."""
    return _table(option)[holding]


@functools.cache
def is_dukal(option: str, holding: int) -> bool:
    """Whether a 12-bit set of one suit's cards is a Dukal under ``option``."""
    return holding in patterns(option)
