"""What one game draws in the terminal: the part of :mod:`hukum.terminal` each game writes.

The terminal app (the loop, the prompt, quit, save and help, the flow between deals, the
replay driver) is written once in :mod:`hukum.terminal`; a game brings a :class:`Screen`
subclass that draws its table, tells what happened, reads a typed move, and prints a record.
Everything a screen shows a player comes from that seat's view (M-20, G-11).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar, Generic, TypeVar

from rich.console import Console

from hukum.game import Deal, InvalidMoveError, Match

__all__ = ["PROMPT", "Screen", "numbered_move"]

X = TypeVar("X", bound=Match[Any, Any])
D = TypeVar("D", bound=Deal[Any, Any])
V = TypeVar("V")
M = TypeVar("M")

#: What the human is asked at each turn (unless the screen asks otherwise: :meth:`Screen.prompt`).
PROMPT = "Your move (number or card; help): "


def numbered_move(number: int, numbered: Sequence[M]) -> M:
    """The move of this number in the list a screen showed; InvalidMoveError if none."""
    if not 1 <= number <= len(numbered):
        raise InvalidMoveError(f"no move number {number}: choose 1 to {len(numbered)}")
    return numbered[number - 1]


class Screen(ABC, Generic[X, D, V, M]):
    """One game's drawing of a match, for the human at ``seat`` (None in a replay).

    Type parameters: the game's match ``X``, deal ``D``, view ``V`` and move ``M``."""

    title: ClassVar[str]
    """The game's name in the heading, e.g. ``Mindi``."""
    how_to_move: ClassVar[str]
    """The first line of the help: how a move is typed."""
    commands: ClassVar[tuple[tuple[str, str], ...]]
    """The game's own commands for the help, as (command, what it does) pairs."""

    def __init__(self, match: X, console: Console, seat: int | None = None) -> None:
        self.match = match
        self.console = console
        self.seat = seat

    def who(self, seat: int) -> str:
        """``You`` for the human's seat, else ``Seat N``."""
        return "You" if seat == self.seat else f"Seat {seat}"

    def s(self, seat: int) -> str:
        """The verb ending: ``you play`` but ``seat 1 plays``."""
        return "" if seat == self.seat else "s"

    def partners(self) -> set[int]:
        """The seats on the human's side, played by the partner bot (none by default)."""
        return set()

    # ------------------------------------------------------------------ playing

    @abstractmethod
    def intro(self) -> None:
        """Print the rules, the human's seat and the draw, under the heading."""

    @abstractmethod
    def start_deal(self, deal: D) -> None:
        """Print how a deal begins (who deals, how trump is made), under its heading."""

    @abstractmethod
    def narrate(self, view: V) -> None:
        """Tell what happened since the last call, from the human's view only."""

    @abstractmethod
    def show(self, view: V) -> list[M]:
        """Show the table as the human sees it; the legal moves in the order numbered."""

    def prompt(self, view: V) -> str:
        """What the human is asked for a move in this view: exactly what :meth:`parse` takes."""
        return PROMPT

    @abstractmethod
    def parse(self, text: str, view: V, numbered: Sequence[M]) -> M:
        """The move a line of input means here; the game's InvalidMoveError if none."""

    def command(self, word: str, view: V) -> bool:
        """Run a command of the game's own (e.g. ``last``); whether ``word`` was one."""
        return False

    @abstractmethod
    def deal_over(self, deal: D) -> None:
        """Print the result of a finished deal."""

    @abstractmethod
    def match_over(self) -> None:
        """Print the result of the finished match."""

    # ------------------------------------------------------------------ replaying a record

    @abstractmethod
    def replay_intro(self) -> None:
        """Print a record's rules, seed and draw, under the heading."""

    @abstractmethod
    def replay_deal(self, deal: D, number: int) -> None:
        """Print one recorded deal (``number`` from 1) trick by trick."""

    @abstractmethod
    def replay_end(self) -> None:
        """Print the match's standing at the end of the record."""
