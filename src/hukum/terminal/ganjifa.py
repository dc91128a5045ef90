"""Dashavatara Ganjifa in the terminal (``hukum play --game ganjifa``) and the replay of a
Ganjifa record (``hukum replay``), drawn with Rich.

A card is typed in its notation (``Ma1``, ``RaR``) or by its number in the list; a Dukal as
``dukal Ra3 Ra4 Ra5`` (or its number); an answer to a Dukal as the k cards, with or without
``give`` in front, by notation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Console
from rich.text import Text

from hukum.ganjifa import (
    Card,
    CardParseError,
    CardSet,
    Deal,
    InvalidMoveError,
    Match,
    Move,
    MoveKind,
    Played,
    Suit,
    View,
)
from hukum.terminal.screen import Screen, numbered_move

__all__ = ["GanjifaScreen"]

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


def _in_order(cards: CardSet) -> list[Card]:
    """Cards as shown: avatar order, strongest first within a suit."""
    return sorted(cards, key=lambda c: (c.suit, -c.power))


def _trick_text(plays: Sequence[Played], who: Callable[[int], str], trump: Suit) -> Text:
    return Text(", ").join(Text(f"{who(p.seat)} ") + _move_text(p.move, trump) for p in plays)


def _seat(seat: int) -> str:
    return f"seat {seat}"


class GanjifaScreen(Screen[Match, Deal, View, Move]):
    """Dashavatara Ganjifa for one human seat against two others, each for themselves."""

    title = "Dashavatara Ganjifa"
    how_to_move = (
        "Type a card to play it (Ma1, Ka10, KrM, RaR; suits Ma Ku Vr Na Vm Pa Ra Kr Bu Ka) "
        "or its number."
    )
    commands = (
        ("dukal Ra3 Ra4 Ra5", "lead a Dukal (or its number)"),
        ("give Ma10 Ku9 Ka1", "give up k cards to a Dukal (the word give may be left out)"),
    )

    def __init__(self, match: Match, console: Console, seat: int | None = None) -> None:
        super().__init__(match, console, seat)
        self._told = 0
        self._tricks = 0

    def intro(self) -> None:
        """The time of day (which avatar is trump), the options, the draw for dealer."""
        c, rules = self.console, self.match.rules
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
            + Text(f"; {self.who(draw.dealer).lower()} deal{self.s(draw.dealer)} first.")
        )
        c.print(f"You are seat {self.seat}. Match seed {self.match.seed}. Type help for help.")

    def start_deal(self, deal: Deal) -> None:
        """Who holds the trump Raja and leads it (G-6)."""
        self._told = self._tricks = 0
        first = deal.turn
        assert first is not None
        self.console.print(
            Text(f"{self.who(first)} hold{self.s(first)} the ")
            + _card(Card.of(deal.trump, "R"), deal.trump)
            + Text(f" and lead{self.s(first)} it (G-6).")
        )

    def narrate(self, view: View) -> None:
        """The moves made since the last call, and who took each trick."""
        c = self.console
        trump = view.trump
        for seat, move in view.history[self._told :]:
            who = self.who(seat)
            if move.kind is MoveKind.DUKAL:
                c.print(Text(f"{who} lead{self.s(seat)} a Dukal: ") + _cards(move.cards, trump))
            elif move.kind is MoveKind.GIVE:
                c.print(Text(f"{who} give{self.s(seat)} up ") + _cards(move.cards, trump))
            else:
                c.print(Text(f"{who} play{self.s(seat)} ") + _card(move.card, trump))
        self._told = len(view.history)
        for trick in view.tricks[self._tricks :]:
            w = trick.winner
            scores = "–".join(str(s) for s in view.scores)
            c.print(
                Text(
                    f"  {self.who(w)} take{self.s(w)} {len(trick.cards)} cards "
                    f"(captured so far {scores}).",
                    style="dim",
                )
            )
        self._tricks = len(view.tricks)

    def show(self, view: View) -> list[Move]:
        """Trump, the cards captured, the trick on the table, the numbered hand and Dukals."""
        c = self.console
        trump = view.trump
        c.print()
        sizes = ", ".join(f"{self.who(s).lower()} {n}" for s, n in enumerate(view.hand_sizes))
        scores = ", ".join(f"{self.who(s).lower()} {n}" for s, n in enumerate(view.scores))
        c.rule(Text(f"Trump {trump.avatar} · cards captured: {scores}"), style="dim")
        c.print(f"Cards in hand: {sizes}.")
        if view.trick:
            c.print(Text("On the table: ") + _trick_text(view.trick, self.who, trump))
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
        for m in view.legal_moves:
            if m.kind is MoveKind.DUKAL:
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

    def parse(self, text: str, view: View, numbered: Sequence[Move]) -> Move:
        """A number from the list, a card, a Dukal (several cards when leading) or an answer
        (the cards, when answering a Dukal)."""
        words = text.replace(",", " ").split()
        if words and words[0].lower() in ("give", "dukal", "play"):
            verb, words = words[0].lower(), words[1:]
        else:
            verb = "give" if view.phase == "answer" else ""
        if len(words) == 1 and words[0].isdigit() and verb != "give":
            return numbered_move(int(words[0]), numbered)
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

    def deal_over(self, deal: Deal) -> None:
        """The result and whether the human won, lost or shared the win."""
        outcome = deal.outcome()
        assert outcome is not None
        mine = "You win" if self.seat in outcome.winners else "You lose"
        if outcome.shared and self.seat in outcome.winners:
            mine = "You share the win"
        self.console.print(Text(f"{outcome.describe()}. {mine}.", style="bold"))

    def match_over(self) -> None:
        """The cards captured over a match of several deals, and the winners."""
        if self.match.rules.deals == 1:
            return
        scores = "–".join(str(s) for s in self.match.scores)
        winners = ", ".join(str(s) for s in self.match.winners())
        self.console.print(Text(f"Match over: {scores} cards; seat(s) {winners} win.", "bold"))

    def replay_intro(self) -> None:
        """The rules and the seed."""
        match = self.match
        self.console.print(f"Rules: {match.rules.to_dict()}. Match seed {match.seed}.")

    def replay_deal(self, deal: Deal, number: int) -> None:
        """The hands as dealt, each trick and who took it, the result."""
        c = self.console
        c.rule(Text(f"Deal {number}: seat {deal.dealer} deals", style="bold"))
        for seat, hand in enumerate(deal.dealt):
            c.print(Text(f"Seat {seat}: ") + _cards(_in_order(CardSet(hand)), deal.trump))
        for i, trick in enumerate(deal.tricks, start=1):
            c.print(
                Text(f"{i:>2}. ")
                + _trick_text(trick.plays, _seat, deal.trump)
                + Text(f" → seat {trick.winner} takes {len(trick.cards)}")
            )
        if deal.trick:
            c.print(Text("In progress: ") + _trick_text(deal.trick, _seat, deal.trump))
        outcome = deal.outcome()
        c.print(outcome.describe() if outcome is not None else "The deal is in progress.")

    def replay_end(self) -> None:
        """The cards captured, for a finished match of several deals."""
        match = self.match
        if match.is_over() and match.rules.deals > 1:
            self.console.print(f"Match: {'–'.join(str(s) for s in match.scores)} cards.")
