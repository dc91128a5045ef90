"""Dashavatara Ganjifa in the terminal (``hukum play --game ganjifa``) and the replay of a
Ganjifa record (``hukum replay``), drawn with Rich.

Everything shown to the human comes from their seat's :meth:`~hukum.ganjifa.Deal.view`
(G-11). A card is typed in its notation (``Ma1``, ``RaR``) or by its number in the list; a
Dukal as ``dukal Ra3 Ra4 Ra5`` (or its number); an answer to a Dukal as the k cards, with or
without ``give`` in front, by notation or by number.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.text import Text

from hukum import records
from hukum.ganjifa import (
    Card,
    CardParseError,
    CardSet,
    Deal,
    IllegalMoveError,
    InvalidMoveError,
    Match,
    Move,
    MoveKind,
    Played,
    Suit,
    View,
)

__all__ = ["Chooser", "GanjifaGame", "replay"]

#: A computer player: given its seat's view, one of ``view.legal_moves``.
Chooser = Callable[[View], Move]

# One colour per avatar suit, so that suits are told apart at a glance.
_COLOURS = (
    "cyan",
    "green",
    "magenta",
    "yellow",
    "blue",
    "red",
    "bright_red",
    "bright_blue",
    "bright_white",
    "bright_yellow",
)


def _card(card: Card, trump: Suit | None = None) -> Text:
    style = _COLOURS[card.suit]
    if card.suit == trump:
        style += " bold underline"
    return Text(card.code, style=style)


def _cards(cards: Sequence[Card] | CardSet, trump: Suit | None = None) -> Text:
    return Text(" ").join(_card(c, trump) for c in cards)


def _move_text(move: Move, trump: Suit | None = None) -> Text:
    if move.kind is MoveKind.PLAY:
        return _card(move.card, trump)
    return Text(f"{move.kind.value} ") + _cards(move.cards, trump)


class _Quit(Exception):
    """The human typed ``quit``, or the input ended."""


@dataclass
class GanjifaGame:
    """A Ganjifa match in the terminal: one human seat, the two others played by choosers."""

    match: Match
    seat: int
    choosers: dict[int, Chooser]
    console: Console
    read: Callable[[str], str]
    record: Path | None = None
    echo: bool = False
    _told: int = 0
    _tricks: int = 0

    def run(self) -> int:
        """Play until the match ends or the human quits; the exit code."""
        try:
            self._intro()
            while not self.match.is_over():
                self._play_deal(self.match.current or self.match.start_deal())
            self._match_over()
        except _Quit:
            self.console.print("Stopped.")
        except KeyboardInterrupt:
            self.console.print("\nInterrupted.")
            self._save()
            return 130
        self._save()
        return 0

    def _who(self, seat: int) -> str:
        return "You" if seat == self.seat else f"Seat {seat}"

    def _s(self, seat: int) -> str:
        return "" if seat == self.seat else "s"

    def _intro(self) -> None:
        c, rules = self.console, self.match.rules
        c.rule(Text("hukum · Dashavatara Ganjifa", style="bold"))
        time = "day: Rama is trump" if rules.time == "day" else "night: Krishna is trump"
        c.print(
            f"Three players, each for themselves; 120 cards, 40 each. It is {time}. "
            f"Dukal: {rules.dukal}; when void: {rules.void_rule}."
        )
        draw = self.match.draw
        c.print(
            Text("Draw for the first dealer: ")
            + Text(", ").join(
                Text(f"seat {s} ") + _card(card) for s, card in enumerate(draw.rounds[0])
            )
            + Text(f"; {self._who(draw.dealer).lower()} deal{self._s(draw.dealer)} first.")
        )
        c.print(f"You are seat {self.seat}. Match seed {self.match.seed}. Type help for help.")

    def _play_deal(self, deal: Deal) -> None:
        c = self.console
        self._told = self._tricks = 0
        c.print()
        c.rule(Text(f"Deal {len(self.match.deals)}", style="bold"))
        first = deal.turn
        assert first is not None
        c.print(
            Text(f"{self._who(first)} hold{self._s(first)} the ")
            + _card(Card.of(deal.trump, "R"), deal.trump)
            + Text(f" and lead{self._s(first)} it (G-6).")
        )
        while not deal.is_over():
            turn = deal.turn
            assert turn is not None
            if turn == self.seat:
                self._human_turn(deal)
            else:
                deal.push(self.choosers[turn](deal.view(turn)), seat=turn)
            self._narrate(deal.view(self.seat))
        outcome = deal.outcome()
        assert outcome is not None
        mine = "You win" if self.seat in outcome.winners else "You lose"
        if outcome.shared and self.seat in outcome.winners:
            mine = "You share the win"
        c.print(Text(f"{outcome.describe()}. {mine}.", style="bold"))

    def _narrate(self, view: View) -> None:
        """Tell the moves made since the last call, and who took each trick."""
        c = self.console
        trump = view.trump
        for seat, move in view.history[self._told :]:
            who = self._who(seat)
            if move.kind is MoveKind.DUKAL:
                c.print(Text(f"{who} lead{self._s(seat)} a Dukal: ") + _cards(move.cards, trump))
            elif move.kind is MoveKind.GIVE:
                c.print(Text(f"{who} give{self._s(seat)} up ") + _cards(move.cards, trump))
            else:
                c.print(Text(f"{who} play{self._s(seat)} ") + _card(move.card, trump))
        self._told = len(view.history)
        for trick in view.tricks[self._tricks :]:
            w = trick.winner
            scores = "–".join(str(s) for s in view.scores)
            c.print(
                Text(
                    f"  {self._who(w)} take{self._s(w)} {len(trick.cards)} cards "
                    f"(captured so far {scores}).",
                    style="dim",
                )
            )
        self._tricks = len(view.tricks)

    def _show(self, view: View) -> list[Move]:
        """Show the table as the human sees it; the moves in the order numbered."""
        c = self.console
        trump = view.trump
        c.print()
        sizes = ", ".join(f"{self._who(s).lower()} {n}" for s, n in enumerate(view.hand_sizes))
        scores = ", ".join(f"{self._who(s).lower()} {n}" for s, n in enumerate(view.scores))
        c.rule(Text(f"Trump {trump.avatar} · cards captured: {scores}"), style="dim")
        c.print(f"Cards in hand: {sizes}.")
        if view.trick:
            c.print(Text("On the table: ") + _trick_text(view.trick, self._who, trump))
        numbered: list[Move] = []
        number: dict[Card, int] = {}
        playable = view.allowed if view.phase != "answer" else CardSet()
        for card in _in_order(view.hand):
            if card in playable:
                numbered.append(Move.play(card))
                number[card] = len(numbered)
        c.print(Text(f"Your hand ({len(view.hand)}):"))
        for suit in Suit:
            cards = _in_order(view.hand.suit(suit))
            if not cards:
                continue
            parts = []
            for card in cards:
                tag = f"[{number[card]}] " if card in number else ""
                parts.append(Text(tag, style="cyan") + _card(card, trump))
            c.print(Text(f"  {suit.avatar:<12}") + Text("  ").join(parts))
        dukals = [m for m in view.legal_moves if m.kind is MoveKind.DUKAL]
        for m in dukals:
            numbered.append(m)
            c.print(Text(f"  [{len(numbered)}] ", style="cyan") + _move_text(m, trump))
        if view.phase == "answer":
            c.print(
                f"Give up {view.dukal} cards of your choice to the Dukal (G-9): type them, "
                "e.g. give Ma10 Ku9 Ka1."
            )
        elif view.phase == "lead":
            c.print("You lead." if len(view.legal_moves) > 1 else "You lead the trump Raja.")
        return numbered

    def _human_turn(self, deal: Deal) -> None:
        view = deal.view(self.seat)
        numbered = self._show(view)
        while True:
            try:
                text = self.read("Your move (number or card; help): ").strip()
            except EOFError:
                self.console.print()
                raise _Quit from None
            if self.echo:
                self.console.print(text, markup=False, highlight=False)
            command = text.lower()
            if not text:
                continue
            if command in ("quit", "q", "exit"):
                raise _Quit
            if command in ("help", "h", "?"):
                self._help()
                continue
            if command in ("hand", "table"):
                numbered = self._show(view)
                continue
            try:
                deal.push(_parse(text, view, numbered), seat=self.seat)
            except (InvalidMoveError, IllegalMoveError) as e:
                self.console.print(Text(str(e), style="red"))
                continue
            return

    def _help(self) -> None:
        self.console.print(
            "Type a card to play it (Ma1, Ka10, KrM, RaR; suits Ma Ku Vr Na Vm Pa Ra Kr Bu "
            "Ka) or its number.\n"
            "  dukal Ra3 Ra4 Ra5   lead a Dukal (or its number)\n"
            "  give Ma10 Ku9 Ka1   give up k cards to a Dukal (the word give may be left out)\n"
            "  hand                show the table again\n"
            "  quit                stop (the record is saved if you gave --record)"
        )

    def _match_over(self) -> None:
        if self.match.rules.deals == 1:
            return
        scores = "–".join(str(s) for s in self.match.scores)
        winners = ", ".join(str(s) for s in self.match.winners())
        self.console.print(Text(f"Match over: {scores} cards; seat(s) {winners} win.", "bold"))

    def _save(self) -> None:
        if self.record is None:
            return
        try:
            records.save(self.match, self.record)
        except OSError as e:
            self.console.print(Text(f"Could not save the record: {e}", style="red"))
            return
        self.console.print(f"Record saved to {self.record}.")


def _parse(text: str, view: View, numbered: list[Move]) -> Move:
    """The move a line of input means in this position: a number from the list, a card, a
    Dukal (several cards when leading) or an answer (the cards, when answering a Dukal)."""
    words = text.replace(",", " ").split()
    if words and words[0].lower() in ("give", "dukal", "play"):
        verb, words = words[0].lower(), words[1:]
    else:
        verb = "give" if view.phase == "answer" else ""
    if len(words) == 1 and words[0].isdigit() and verb != "give":
        n = int(words[0])
        if not 1 <= n <= len(numbered):
            raise InvalidMoveError(f"no move number {n}: choose 1 to {len(numbered)}")
        return numbered[n - 1]
    cards: list[Card] = []
    for w in words:
        try:
            cards.append(Card.parse(w))
        except CardParseError as e:
            raise InvalidMoveError(f"not a move: {text!r} ({e})") from None
    if verb == "give":
        return Move.give(cards)
    if len(cards) > 1 or verb == "dukal":
        return Move.dukal(cards)
    if len(cards) == 1:
        return Move.play(cards[0])
    raise InvalidMoveError(f"not a move: {text!r}")


def _in_order(cards: CardSet) -> list[Card]:
    """Cards as shown: avatar order, strongest first within a suit."""
    return sorted(cards, key=lambda c: (c.suit, -c.power))


def _trick_text(plays: Sequence[Played], who: Callable[[int], str], trump: Suit) -> Text:
    return Text(", ").join(Text(f"{who(p.seat)} ") + _move_text(p.move, trump) for p in plays)


def replay(match: Match, console: Console) -> None:
    """Print a loaded Ganjifa match deal by deal and trick by trick."""
    c = console
    rules = match.rules
    c.rule(Text("hukum · Dashavatara Ganjifa record", style="bold"))
    c.print(f"Rules: {rules.to_dict()}. Match seed {match.seed}.")
    for number, deal in enumerate(match.deals, start=1):
        c.print()
        c.rule(Text(f"Deal {number}: seat {deal.dealer} deals", style="bold"))
        for seat, hand in enumerate(deal.dealt):
            c.print(Text(f"Seat {seat}: ") + _cards(_in_order(CardSet(hand)), deal.trump))
        for i, trick in enumerate(deal.tricks, start=1):
            c.print(
                Text(f"{i:>2}. ")
                + _trick_text(trick.plays, lambda s: f"seat {s}", deal.trump)
                + Text(f" → seat {trick.winner} takes {len(trick.cards)}")
            )
        if deal.trick:
            c.print(
                Text("In progress: ") + _trick_text(deal.trick, lambda s: f"seat {s}", deal.trump)
            )
        outcome = deal.outcome()
        c.print(outcome.describe() if outcome is not None else "The deal is in progress.")
    if match.is_over() and match.rules.deals > 1:
        c.print(f"Match: {'–'.join(str(s) for s in match.scores)} cards.")
