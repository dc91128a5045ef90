"""The result of a deal: winner, kind of win, and how a 2–2 tie was broken (M-16, M-17)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from hukum.cards import CardSet
from hukum.mindi.rules import Rules
from hukum.mindi.trick import Trick

__all__ = ["Outcome", "decide"]

Kind = Literal["win", "mendikot", "whitewash"]
DecidedBy = Literal["tens", "tricks", "last_trick", "highest_trick"]


@dataclass(frozen=True)
class Outcome:
    """How a deal ended."""

    winner: int
    """The winning team, 0 (seats 0, 2, …) or 1 (seats 1, 3, …)."""
    kind: Kind
    """``win``, ``mendikot`` (all four tens) or ``whitewash`` (all tricks) (M-17)."""
    tens: tuple[int, int]
    """Tens captured by team 0 and team 1."""
    tricks: tuple[int, int]
    """Tricks won by team 0 and team 1."""
    decided_by: DecidedBy
    """What decided it: 3+ tens, or at 2–2 the tricks, the last trick or the highest trick."""
    highest_trick: int
    """Number (from 0) of the highest trick (M-16); the earliest of equal ones."""
    points: int
    """Match points the winner scores for this deal (M-18)."""

    def describe(self) -> str:
        """One line for people, e.g. ``Team 1 wins: 2–2 tens, won on tricks 7–6``: the
        winning team's figures first, as everywhere a result is shown (CLI, replay, solve,
        the web app)."""
        w, lose = self.winner, 1 - self.winner
        a, b = self.tens[w], self.tens[lose]
        name = {"win": "wins", "mendikot": "wins with mendikot", "whitewash": "wins a whitewash"}
        head = f"Team {self.winner} {name[self.kind]}"
        if self.decided_by == "tens":
            return f"{head}: {a}–{b} tens"
        if self.decided_by == "tricks":
            return f"{head}: {a}–{b} tens, won on tricks {self.tricks[w]}–{self.tricks[lose]}"
        if self.decided_by == "last_trick":
            return f"{head}: {a}–{b} tens and tricks level, won on the last trick"
        return f"{head}: {a}–{b} tens, won on the highest trick (trick {self.highest_trick + 1})"


def _highest(tricks: Sequence[Trick]) -> int:
    best = 0
    for i, t in enumerate(tricks):
        if t.key > tricks[best].key:
            best = i
    return best


def _by_tricks(tricks: Sequence[Trick], won: tuple[int, int]) -> tuple[int, DecidedBy]:
    if won[0] != won[1]:
        return (0 if won[0] > won[1] else 1), "tricks"
    # House decision (M-16): equal tricks are possible with an even number of tricks;
    # the team that won the last trick wins.
    return tricks[-1].winner % 2, "last_trick"


def _by_highest_trick(tricks: Sequence[Trick], won: tuple[int, int]) -> tuple[int, DecidedBy]:
    return tricks[_highest(tricks)].winner % 2, "highest_trick"


_TIE_BREAKS: dict[str, Callable[[Sequence[Trick], tuple[int, int]], tuple[int, DecidedBy]]] = {
    "tricks": _by_tricks,
    "highest_trick": _by_highest_trick,
}


def decide(rules: Rules, tricks: Sequence[Trick], taken: tuple[CardSet, CardSet]) -> Outcome:
    """The outcome of a finished deal from its tricks and each team's captured cards."""
    tens = (
        sum(1 for c in taken[0] if c.rank == 10),
        sum(1 for c in taken[1] if c.rank == 10),
    )
    won = (
        sum(1 for t in tricks if t.winner % 2 == 0),
        sum(1 for t in tricks if t.winner % 2 == 1),
    )
    decided_by: DecidedBy
    if tens[0] != tens[1]:
        winner, decided_by = (0 if tens[0] > tens[1] else 1), "tens"
    else:
        winner, decided_by = _TIE_BREAKS[rules.tie_break](tricks, won)
    kind: Kind = "win"
    # House decision (M-17): every trick is a whitewash with any pack and table size (the
    # rule book's "52-card mendikot" names the usual case), and under dehla capture too.
    if won[winner] == len(tricks):
        kind = "whitewash"
    elif tens[winner] == 4:
        kind = "mendikot"
    points = rules.points[("win", "mendikot", "whitewash").index(kind)]
    return Outcome(winner, kind, tens, won, decided_by, _highest(tricks), points)
