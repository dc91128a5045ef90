"""The result of a Ganjifa deal: one point per captured card, shared wins (G-10).

>>> Outcome.of((40, 40, 40)).describe()
'Seats 0, 1 and 2 share the win: 40–40–40 cards'
>>> Outcome.of((51, 30, 39)).winners
(0,)
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Outcome"]


@dataclass(frozen=True)
class Outcome:
    """How a deal ended."""

    scores: tuple[int, int, int]
    """Cards captured by seats 0, 1 and 2; they add up to 120 (G-10)."""
    winners: tuple[int, ...]
    """The seats with the highest score, in seat order: one, or several sharing the win."""

    @classmethod
    def of(cls, scores: tuple[int, int, int]) -> Outcome:
        """The outcome of these scores."""
        top = max(scores)
        return cls(scores, tuple(s for s in range(len(scores)) if scores[s] == top))

    @property
    def shared(self) -> bool:
        """Whether two or three players share the win."""
        return len(self.winners) > 1

    def share(self, seat: int) -> float:
        """The part of the win that goes to ``seat``: 1, ½, ⅓ or 0."""
        return 1 / len(self.winners) if seat in self.winners else 0.0

    def describe(self) -> str:
        """One line for people, e.g. ``Seat 1 wins: 38–45–37 cards``."""
        cards = "–".join(str(s) for s in self.scores)
        if not self.shared:
            return f"Seat {self.winners[0]} wins: {cards} cards"
        names = [str(s) for s in self.winners]
        who = ", ".join(names[:-1]) + " and " + names[-1]
        return f"Seats {who} share the win: {cards} cards"
