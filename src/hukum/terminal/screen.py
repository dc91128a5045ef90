"""What one game draws in the terminal: the part of :mod:`hukum.terminal` each game writes.

The terminal app (the loop, the prompt, quit, save and help, the flow between deals, the
replay driver) is written once in :mod:`hukum.terminal`; a game brings a :class:`Screen`
subclass that draws its table, tells what happened, reads a typed move, and prints a record.
Everything a screen shows a player comes from that seat's view (M-20, G-11).
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar, Generic, TypeVar

from rich.console import Console
from rich.text import Text

from hukum.game import Deal, GameError, InvalidMoveError, Match

__all__ = ["PROMPT", "Screen", "numbered_move"]

X = TypeVar("X", bound=Match[Any, Any])
D = TypeVar("D", bound=Deal[Any, Any])
V = TypeVar("V")
M = TypeVar("M")

#: What the human is asked at each turn (unless the screen asks otherwise: :meth:`Screen.prompt`).
PROMPT = "Your move (number or card; help): "

#: A message's last parenthesis, where the engine names the rules a move breaks: ``(M-8)``,
#: ``(must_trump, M-8)``, ``(G-7, void_rule=trump_first)``.
_CITED = re.compile(r"\s*\(([^()]*)\)$")


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
        """``You`` for the human's seat, ``Seat N (your partner)`` for a partner's, else
        ``Seat N``."""
        if seat == self.seat:
            return "You"
        return f"Seat {seat} (your partner)" if seat in self.partners() else f"Seat {seat}"

    def s(self, seat: int) -> str:
        """The verb ending: ``you play`` but ``seat 1 plays``."""
        return "" if seat == self.seat else "s"

    def partners(self) -> set[int]:
        """The seats on the human's side, played by the partner bot (none by default)."""
        return set()

    def refusal(self, error: GameError) -> Text:
        """Why a move the human typed was refused, said to them: the engine's sentence with
        their seat as "you" (``You must follow ♠.``), then the rules it breaks, from the
        error's ``rule_ids``, dim (``rule M-8``), for whoever wants to look them up."""
        message = str(error)
        if self.seat is not None:
            message = re.sub(rf"\bseat {self.seat}'s\b", "your", message)
            message = re.sub(rf"^seat {self.seat} holds\b", "you hold", message)
            message = re.sub(rf"^seat {self.seat}\b", "you", message)
        cited = _CITED.search(message)
        words = [w.strip() for w in cited.group(1).split(",")] if cited else []
        ids = list(error.rule_ids)
        quiet = ""
        if cited and ids and set(ids) <= set(words):
            message = message[: cited.start()]
            rest = [w for w in words if w not in ids]
            quiet = f"rule{'s' if len(ids) > 1 else ''} {', '.join(ids)}"
            quiet += f"; {', '.join(rest)}" if rest else ""
        message = message[:1].upper() + message[1:]
        if not message.endswith((".", "?", "!")):
            message += "."
        text = Text(message, style="red")
        if quiet:
            text += Text(f"  ({quiet})", style="dim")
        return text

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
