"""The result of a Ganjifa deal: one point per captured card, shared wins (G-10).

>>> Outcome.of((40, 40, 40)).describe()
'Seats 0, 1 and 2 share the win with 40 cards each'
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
        """One line for people, the winner's cards first and then each other player's,
        highest first (as everywhere a result is shown: CLI, replay, the web app), e.g.
        ``Seat 1 wins with 45 cards; seat 2 has 39, seat 0 has 36``."""
        top = self.scores[self.winners[0]]
        others = sorted(
            (s for s in range(len(self.scores)) if s not in self.winners),
            key=lambda s: (-self.scores[s], s),
        )
        rest = ", ".join(f"seat {s} has {self.scores[s]}" for s in others)
        rest = f"; {rest}" if rest else ""
        if not self.shared:
            return f"Seat {self.winners[0]} wins with {top} cards{rest}"
        names = [str(s) for s in self.winners]
        who = ", ".join(names[:-1]) + " and " + names[-1]
        return f"Seats {who} share the win with {top} cards each{rest}"
