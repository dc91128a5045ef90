"""The terminal app, written once for every game: a match with one human seat and computer
players at the others (``hukum play``), and the replay of a record (``hukum replay``).

The loop plays each deal through :func:`hukum.play.play_deal`: the human is a player whose
``choose`` shows the table and reads a move, with ``help``, ``hand`` and ``quit`` (the
record is saved on quit, at the end of input and at the end of the match). What a game
draws (its table, its narration, how a typed move reads) is its :class:`Screen`, named by
the terminal facet of the match's game (:func:`hukum.games.spec_of`, :func:`screen_class`).

>>> import io
>>> from rich.console import Console
>>> from hukum.games import GAMES
>>> spec = GAMES["mindi"]
>>> match = spec.new_match(spec.make_rules("classic", {"deals": 1}), seed=3)
>>> console = Console(file=io.StringIO(), width=100)
>>> bots = {s: spec.make_bot("rules", seed=s) for s in (1, 2, 3)}
>>> game = Terminal(screen_for(match, console, seat=0), bots, read=lambda prompt: "1")
>>> game.run(), match.is_over()               # the human always types 1: the first card
(0, True)
>>> "Match over" in console.file.getvalue()
True
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from rich.console import Console
from rich.text import Text

from hukum import records
from hukum.game import (
    AnyGame,
    Deal,
    IllegalMoveError,
    InvalidMoveError,
    Match,
    NotOfferedError,
    Player,
)
from hukum.games import spec_of
from hukum.play import play_deal
from hukum.terminal.screen import PROMPT, Screen

__all__ = [
    "PROMPT",
    "Human",
    "NoScreenError",
    "Screen",
    "Terminal",
    "replay",
    "screen_class",
    "screen_for",
]

V = TypeVar("V")
M = TypeVar("M")

#: The commands every game has, for the help: (command, what it does).
_COMMANDS = (
    ("hand", "show the table again"),
    ("help", "this text"),
    ("quit", "stop playing (the record is saved if you gave --record)"),
)


class NoScreenError(NotOfferedError):
    """A game the terminal has no screen for (its spec has no terminal facet)."""


def screen_class(spec: AnyGame) -> type[Screen[Any, Any, Any, Any]]:
    """The screen class the game's terminal facet names (``module:Class``), imported;
    NoScreenError if the game has none."""
    if spec.terminal is None:
        raise NoScreenError(f"the terminal cannot show {spec.title}: it has no screen")
    module, _, name = spec.terminal.screen.partition(":")
    screen = getattr(importlib.import_module(module), name)
    if not (isinstance(screen, type) and issubclass(screen, Screen)):
        raise TypeError(f"{spec.terminal.screen} is not a terminal Screen")
    return screen


def screen_for(
    match: Match[Any, Any], console: Console, seat: int | None = None
) -> Screen[Any, Any, Any, Any]:
    """The screen of the match's game, for the human at ``seat`` (None: to replay it)."""
    return screen_class(spec_of(match))(match, console, seat)


def replay(match: Match[Any, Any], console: Console) -> None:
    """Print a loaded match of any game deal by deal and trick by trick."""
    screen = screen_for(match, console)
    console.rule(Text(f"hukum · {screen.title} record", style="bold"))
    screen.replay_intro()
    for number, deal in enumerate(match.deals, start=1):
        console.print()
        screen.replay_deal(deal, number)
    screen.replay_end()


class _Quit(Exception):
    """The human typed ``quit``, or the input ended."""


@dataclass(frozen=True)
class Human(Generic[V, M]):
    """The human's seat as a player of :func:`hukum.play.play_deal`."""

    prompt: Callable[[V], M]
    """Shows the table and reads moves until a legal one is typed."""
    name: str = "you"
    """What the seat is called."""

    def choose(self, view: V) -> M:
        """The move the human types."""
        return self.prompt(view)


@dataclass
class Terminal(Generic[V, M]):
    """A match in the terminal: the human at the screen's seat, computer players at the
    others. Everything shown to the human comes from their seat's view (M-20, G-11)."""

    screen: Screen[Any, Any, V, M]
    """The game's screen, for the human's seat (:func:`screen_for`)."""
    players: Mapping[int, Player[V, M]]
    """The computer players, by seat."""
    read: Callable[[str], str]
    """Reads a line after a prompt (raises EOFError at the end of input)."""
    record: Path | None = None
    """Where to save the match's record when play stops, if anywhere."""
    echo: bool = False
    """Print what is read (when the input is not a terminal, so the output reads whole)."""
    _deal: Deal[M, V] | None = field(default=None, init=False, repr=False)

    @property
    def match(self) -> Match[Any, Deal[M, V]]:
        """The match being played."""
        match: Match[Any, Deal[M, V]] = self.screen.match
        return match

    @property
    def seat(self) -> int:
        """The human's seat."""
        seat = self.screen.seat
        assert seat is not None, "a screen to play on has the human's seat"
        return seat

    def run(self) -> int:
        """Play until the match ends or the human quits; the exit code."""
        c, screen, match = self.screen.console, self.screen, self.match
        players = {**self.players, self.seat: Human(self._prompt)}
        try:
            c.rule(Text(f"hukum · {screen.title}", style="bold"))
            screen.intro()
            while not match.is_over():
                deal = self._deal = match.current or match.start_deal()
                c.print()
                c.rule(Text(f"Deal {len(match.deals)}", style="bold"))
                screen.start_deal(deal)
                play_deal(deal, players, self._moved)
                screen.deal_over(deal)
                if not match.is_over() and not self._ask_continue():
                    raise _Quit
            screen.match_over()
        except _Quit:
            c.print("Stopped.")
        except KeyboardInterrupt:
            c.print("\nInterrupted.")
            self._save()
            return 130
        self._save()
        return 0

    def _moved(self, seat: int, move: M, seconds: float) -> None:
        assert self._deal is not None
        self.screen.narrate(self._deal.view(self.seat))

    def _prompt(self, view: V) -> M:
        """Show the table and read until a legal move is typed; commands run on the way."""
        c, screen = self.screen.console, self.screen
        numbered = screen.show(view)
        while True:
            text = self._input(screen.prompt(view)).strip()
            command = text.lower()
            if not text:
                continue
            if command in ("quit", "q", "exit"):
                raise _Quit
            if command in ("help", "h", "?"):
                self._help()
            elif command in ("hand", "look", "table"):
                numbered = screen.show(view)
            elif not screen.command(command, view):
                try:
                    move = screen.parse(text, view, numbered)
                    assert self._deal is not None
                    self._deal.check(move, self.seat)
                except (InvalidMoveError, IllegalMoveError) as e:
                    c.print(screen.refusal(e))
                    continue
                return move

    def _input(self, prompt: str) -> str:
        """A line read after ``prompt`` (shown again when echoing); _Quit at the end."""
        c = self.screen.console
        try:
            text = self.read(prompt)
        except EOFError:
            c.print()
            raise _Quit from None
        if self.echo:
            c.print(text.strip(), markup=False, highlight=False)
        return text

    def _ask_continue(self) -> bool:
        answer = self._input("Play the next deal? [Y/n] ").strip().lower()
        # Enter or anything but no/quit goes on, so that piped answers never get stuck.
        return not answer.startswith(("n", "q"))

    def _help(self) -> None:
        screen = self.screen
        commands = (*screen.commands, *_COMMANDS)
        width = max(len(command) for command, _ in commands) + 3
        lines = [screen.how_to_move]
        for command, meaning in commands:
            first, *rest = meaning.split("\n")
            lines.append(f"  {command:<{width}}{first}")
            lines += [" " * (2 + width) + more for more in rest]
        screen.console.print(Text("\n".join(lines)))

    def _save(self) -> None:
        if self.record is None:
            return
        c = self.screen.console
        try:
            records.save(self.match, self.record)
        except OSError as e:
            c.print(Text(f"Could not save the record: {e}", style="red"))
            return
        c.print(f"Record saved to {self.record}.")
